//! What a caught panic said: the one place the server turns a panic payload into the
//! text of a log message, an error answer or a `Failed` status.

/// The message a panic carried.
pub fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}
