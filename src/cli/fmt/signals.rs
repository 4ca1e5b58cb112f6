//! The signals that would end `fmt` halfway through replacing a file (TERM, INT, HUP,
//! QUIT) only mark themselves pending once a replacement begins; boxls ends by the
//! signal as soon as the file is replaced or left as it was, its temporary file gone.
//! SIGXFSZ (a file-size limit) is ignored, so the write fails and is reported instead.

use std::io;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGXFSZ};

/// The pending signal's number (0: none); set once the handlers are installed.
static PENDING: OnceLock<Arc<AtomicUsize>> = OnceLock::new();

/// Installs the handlers, once: from now on the signals are deferred.
pub fn defer() -> io::Result<()> {
    if PENDING.get().is_some() {
        return Ok(());
    }
    let pending = Arc::new(AtomicUsize::new(0));
    for signal in [SIGTERM, SIGINT, SIGHUP, SIGQUIT] {
        signal_hook::flag::register_usize(signal, Arc::clone(&pending), signal as usize)?;
    }
    signal_hook::flag::register(SIGXFSZ, Arc::new(AtomicBool::new(false)))?;
    let _ = PENDING.set(pending);
    Ok(())
}

/// The deferred signal, if one came.
pub fn pending() -> Option<i32> {
    let signal = PENDING.get()?.load(Ordering::SeqCst);
    i32::try_from(signal).ok().filter(|&signal| signal != 0)
}

/// Ends boxls as the deferred signal would have, if one came.
pub fn end_if_pending() {
    if let Some(signal) = pending() {
        end_by(signal);
    }
}

/// Ends boxls as `signal`'s default action does (its parent sees it killed by it).
pub fn end_by(signal: i32) -> ! {
    let _ = signal_hook::low_level::emulate_default_handler(signal);
    std::process::exit(128 + signal)
}
