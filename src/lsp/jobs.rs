//! The one table of background jobs, whatever they compute: a job per key however many
//! requests want it, its interest counted (each wanter holds a [`Ticket`]), cancelled
//! — its cancel flag set — when the last ticket drops, its result kept in an LRU
//! bounded by a cost per kind, a panic kept as a failure (logged once, before it is
//! sent) so that what breaks a job is not tried again, and one permit pool per kind.
//!
//! The table knows nothing of mazes: a kind ([`Kind`]) says what a result costs, what
//! a panic becomes and how it is logged. How a job runs is its owner's policy (the
//! solves batch small mazes and stop at a time limit, the design searches log a test
//! hook's start and stop): [`Jobs::lookup`] hands each new job to the owner as a
//! [`Job`], which the owner computes ([`Job::compute`] catches a panic) and ends
//! ([`Job::end`]), or runs on the blocking pool in one go ([`Job::run_blocking`]). A job
//! dropped before it ends is over as cancelled: its waiters get `None`, nothing is kept.
//! While it runs, a job may tell its waiters what it has found so far ([`Interim`]);
//! [`Ticket::next`] hears those and the result, and nothing interim is kept.

use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::{watch, Semaphore, SemaphorePermit};
use tower_lsp_server::ls_types::MessageType;
use tower_lsp_server::Client;

use super::lru::Lru;
use super::panics::panic_message;

/// Where a failure is logged: a line in, the future that delivers it.
pub type Log = Arc<dyn Fn(String) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;

/// What sets one kind of job apart.
pub struct Kind<K, V> {
    /// Finished results kept: at most this many bytes (by `cost`) ...
    pub max_bytes: usize,
    /// ... in at most this many entries.
    pub max_entries: usize,
    /// Jobs of this kind computing at once (each holds a blocking thread while it does).
    pub permits: usize,
    /// Approximate heap bytes a kept result holds, with its key.
    pub cost: fn(&K, &V) -> usize,
    /// The result a panic becomes (kept like any other), from the panic's message.
    pub failed: fn(Arc<str>) -> V,
    /// The log line for a panic while computing `K`, from the panic's message.
    pub failure_line: fn(&K, &str) -> String,
}

/// The jobs of one kind: running, and finished ones kept.
pub struct Jobs<K, V> {
    kind: Kind<K, V>,
    inner: Mutex<Inner<K, V>>,
    permits: Semaphore,
    log: Option<Log>,
}

struct Inner<K, V> {
    cache: Lru<K, Cached<V>>,
    /// The sum of the kept entries' `cost`.
    cached_bytes: usize,
    running: HashMap<K, Running<V>>,
    next_id: u64,
}

struct Cached<V> {
    value: V,
    cost: usize,
}

struct Running<V> {
    /// Tells this job from a later one of the same key (started after it was cancelled).
    id: u64,
    cancel: Arc<AtomicBool>,
    /// Tickets alive.
    interest: usize,
    done: watch::Receiver<Option<V>>,
    /// Never read here: each ticket's clone sees the latest interim value as new.
    interim: watch::Receiver<Option<V>>,
}

/// What [`Jobs::lookup`] found.
pub enum Lookup<K: Hash + Eq + Clone, V> {
    Ready(V),
    Pending(Ticket<K, V>),
}

/// An interest in a running job; dropping the last one cancels it.
pub struct Ticket<K: Hash + Eq + Clone, V> {
    jobs: Arc<Jobs<K, V>>,
    key: K,
    id: u64,
    done: watch::Receiver<Option<V>>,
    /// `None` once the job can say nothing more before its result.
    interim: Option<watch::Receiver<Option<V>>>,
}

/// What [`Ticket::next`] heard.
pub enum Update<V> {
    /// What the job has found so far.
    Interim(V),
    /// The result; `None` if the job was cancelled.
    Done(Option<V>),
}

/// Where a running job tells its waiters what it has found so far (from any thread).
pub struct Interim<V>(Arc<watch::Sender<Option<V>>>);

impl<V> Interim<V> {
    /// Replaces what the waiters hear next (a slow waiter hears only the latest).
    pub fn send(&self, value: V) {
        self.0.send_replace(Some(value));
    }
}

/// A job started by [`Jobs::lookup`], for its owner to compute and end.
pub struct Job<K: Hash + Eq + Clone, V> {
    jobs: Arc<Jobs<K, V>>,
    key: K,
    id: u64,
    cancel: Arc<AtomicBool>,
    sender: Option<watch::Sender<Option<V>>>,
    interim: Arc<watch::Sender<Option<V>>>,
}

/// A job that panicked, its failure kept: [`Failure::report`] logs it, then sends it.
pub struct Failure<K: Hash + Eq + Clone, V> {
    jobs: Arc<Jobs<K, V>>,
    key: K,
    message: Arc<str>,
    sender: watch::Sender<Option<V>>,
}

/// A [`Log`] into the client's log, as errors.
pub fn errors_to(client: Client) -> Log {
    Arc::new(move |line| {
        let client = client.clone();
        Box::pin(async move { client.log_message(MessageType::ERROR, line).await })
    })
}

/// How a computation ended: `Ok(None)` cancelled, `Err` a panic's message.
pub type Computed<V> = Result<Option<V>, Arc<str>>;

impl<K, V> Jobs<K, V>
where
    K: Hash + Eq + Clone,
    V: Clone,
{
    pub fn new(kind: Kind<K, V>, log: Option<Log>) -> Jobs<K, V> {
        Jobs {
            permits: Semaphore::new(kind.permits),
            kind,
            inner: Mutex::new(Inner {
                cache: Lru::default(),
                cached_bytes: 0,
                running: HashMap::new(),
                next_id: 0,
            }),
            log,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner<K, V>> {
        // Every update leaves the data consistent, so a poisoned lock is still usable.
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The result if it is kept, else a ticket for the job running for `key` — joined,
    /// or started now and handed to `start` (after the table's lock is released).
    pub fn lookup(self: &Arc<Self>, key: K, start: impl FnOnce(Job<K, V>)) -> Lookup<K, V> {
        let mut inner = self.lock();
        if let Some(cached) = inner.cache.get(&key) {
            return Lookup::Ready(cached.value.clone());
        }
        if let Some(running) = inner.running.get_mut(&key) {
            // A cancelled job is on its way out: a new wanter starts afresh.
            if !running.cancel.load(Ordering::Relaxed) {
                running.interest += 1;
                let (id, done) = (running.id, running.done.clone());
                let interim = running.interim.clone();
                return Lookup::Pending(self.ticket(key, id, done, interim));
            }
        }
        let id = inner.next_id;
        inner.next_id += 1;
        let cancel = Arc::new(AtomicBool::new(false));
        let (sender, done) = watch::channel(None);
        let (interim_sender, interim) = watch::channel(None);
        let running = Running {
            id,
            cancel: cancel.clone(),
            interest: 1,
            done: done.clone(),
            interim: interim.clone(),
        };
        inner.running.insert(key.clone(), running);
        drop(inner);
        start(Job {
            jobs: self.clone(),
            key: key.clone(),
            id,
            cancel,
            sender: Some(sender),
            interim: Arc::new(interim_sender),
        });
        Lookup::Pending(self.ticket(key, id, done, interim))
    }

    fn ticket(
        self: &Arc<Self>,
        key: K,
        id: u64,
        done: watch::Receiver<Option<V>>,
        interim: watch::Receiver<Option<V>>,
    ) -> Ticket<K, V> {
        Ticket {
            jobs: self.clone(),
            key,
            id,
            done,
            interim: Some(interim),
        }
    }

    /// The kept result for `key`, without starting anything (tests).
    #[cfg(test)]
    pub fn cached(&self, key: &K) -> Option<V> {
        self.lock()
            .cache
            .get(key)
            .map(|cached| cached.value.clone())
    }

    /// Changes the kept result for `key`, if there is one (its cost counted anew).
    pub fn update(&self, key: &K, change: impl FnOnce(&mut V)) {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let Some(cached) = inner.cache.get(key) else {
            return;
        };
        change(&mut cached.value);
        let cost = (self.kind.cost)(key, &cached.value);
        inner.cached_bytes = inner.cached_bytes - cached.cost + cost;
        cached.cost = cost;
        self.evict(inner);
    }

    /// Keeps only the results `keep` accepts.
    pub fn retain(&self, keep: impl Fn(&V) -> bool) {
        let mut inner = self.lock();
        let mut freed = 0;
        inner.cache.retain(|cached| {
            let kept = keep(&cached.value);
            if !kept {
                freed += cached.cost;
            }
            kept
        });
        inner.cached_bytes -= freed;
    }

    /// A permit of this kind's pool; `None` once the pool is closed.
    pub async fn permit(&self) -> Option<SemaphorePermit<'_>> {
        self.permits.acquire().await.ok()
    }

    /// Records how job `id` of `key` ended: no longer running, and a result kept.
    fn record(&self, key: &K, id: u64, value: Option<&V>) {
        let mut guard = self.lock();
        let inner = &mut *guard;
        if inner
            .running
            .get(key)
            .is_some_and(|running| running.id == id)
        {
            inner.running.remove(key);
        }
        let Some(value) = value else { return };
        let cost = (self.kind.cost)(key, value);
        inner.cached_bytes += cost;
        let cached = Cached {
            value: value.clone(),
            cost,
        };
        if let Some(replaced) = inner.cache.insert(key.clone(), cached) {
            inner.cached_bytes -= replaced.cost;
        }
        self.evict(inner);
    }

    /// Evicts the least recently used results down to the kind's bounds.
    fn evict(&self, inner: &mut Inner<K, V>) {
        while inner.cached_bytes > self.kind.max_bytes || inner.cache.len() > self.kind.max_entries
        {
            match inner.cache.pop_oldest() {
                Some((_, evicted)) => inner.cached_bytes -= evicted.cost,
                None => break,
            }
        }
    }

    /// The test hooks' view: jobs running now.
    #[cfg(test)]
    pub fn running(&self) -> usize {
        self.lock().running.len()
    }

    /// Entries and bytes kept (tests).
    #[cfg(test)]
    pub fn cache_size(&self) -> (usize, usize) {
        let inner = self.lock();
        (inner.cache.len(), inner.cached_bytes)
    }

    /// The pool itself, for tests that take every permit.
    #[cfg(test)]
    pub fn permits(&self) -> &Semaphore {
        &self.permits
    }

    /// Keeps `value` for `key` as a finished job would (tests of the bounds).
    #[cfg(test)]
    pub fn keep(&self, key: &K, value: V) {
        self.record(key, u64::MAX, Some(&value));
    }
}

impl<K: Hash + Eq + Clone, V: Clone> Ticket<K, V> {
    pub fn key(&self) -> &K {
        &self.key
    }

    /// Whether two tickets are for the same job (tests).
    #[cfg(test)]
    pub fn same_job(&self, other: &Ticket<K, V>) -> bool {
        self.id == other.id && self.key == other.key
    }

    /// Waits for the job; `None` if it was cancelled (or the table is going away).
    pub async fn wait(&mut self) -> Option<V> {
        let value = self.done.wait_for(Option::is_some).await.ok()?.clone();
        value
    }

    /// Waits for what the job says next: an interim value not heard yet (the latest
    /// one, if several came), or its result — which wins when both are there.
    pub async fn next(&mut self) -> Update<V> {
        loop {
            let Some(interim) = self.interim.as_mut() else {
                return Update::Done(self.wait().await);
            };
            tokio::select! {
                biased;
                done = self.done.wait_for(Option::is_some) => {
                    return Update::Done(done.ok().and_then(|value| value.clone()));
                }
                changed = interim.changed() => {
                    let value = match changed {
                        Ok(()) => interim.borrow_and_update().clone(),
                        Err(_) => None,
                    };
                    match value {
                        Some(value) => return Update::Interim(value),
                        None => self.interim = None,
                    }
                }
            }
        }
    }
}

impl<K: Hash + Eq + Clone, V> Drop for Ticket<K, V> {
    fn drop(&mut self) {
        let mut inner = self
            .jobs
            .inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(running) = inner.running.get_mut(&self.key) {
            if running.id == self.id {
                running.interest -= 1;
                if running.interest == 0 {
                    running.cancel.store(true, Ordering::Relaxed);
                }
            }
        }
    }
}

impl<K: Hash + Eq + Clone, V: Clone> Job<K, V> {
    pub fn key(&self) -> &K {
        &self.key
    }

    /// Set once nobody wants the job (or by its owner, at a time limit).
    pub fn cancel_flag(&self) -> &Arc<AtomicBool> {
        &self.cancel
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// Where the computation tells the waiters what it has found so far.
    pub fn interim(&self) -> Interim<V> {
        Interim(self.interim.clone())
    }

    /// Runs `work` on this thread with the job's key and cancel flag; a panic is
    /// caught, its message the `Err`.
    pub fn compute(&self, work: impl FnOnce(&K, &AtomicBool) -> Option<V>) -> Computed<V> {
        catch_unwind(AssertUnwindSafe(|| work(&self.key, &self.cancel)))
            .map_err(|panic| panic_message(&panic).into())
    }

    /// Ends the job: a result is kept and sent to every ticket at once, a cancelled
    /// job's waiters get `None` and nothing is kept. A panic's failure is kept now and
    /// returned, to be logged and then sent ([`Failure::report`]).
    pub fn end(mut self, computed: Computed<V>) -> Option<Failure<K, V>> {
        let sender = self.sender.take()?;
        match computed {
            Ok(value) => {
                self.jobs.record(&self.key, self.id, value.as_ref());
                if let Some(value) = value {
                    // Nobody listening is fine: the result is kept.
                    let _ = sender.send(Some(value));
                }
                // A cancelled job drops `sender`, which wakes every waiter with `None`.
                None
            }
            Err(message) => {
                let failed = (self.jobs.kind.failed)(message.clone());
                self.jobs.record(&self.key, self.id, Some(&failed));
                Some(Failure {
                    jobs: self.jobs.clone(),
                    key: self.key.clone(),
                    message,
                    sender,
                })
            }
        }
    }
}

impl<K, V> Job<K, V>
where
    K: Hash + Eq + Clone + Send + 'static,
    V: Clone + Send + 'static,
{
    /// Computes the job on tokio's blocking pool and ends it (a failure logged before
    /// it is sent). The caller holds the permit, if the kind has one to take.
    pub async fn run_blocking(
        self,
        work: impl FnOnce(&K, &AtomicBool) -> Option<V> + Send + 'static,
    ) {
        let (key, cancel) = (self.key.clone(), self.cancel.clone());
        let computed = tokio::task::spawn_blocking(move || {
            catch_unwind(AssertUnwindSafe(|| work(&key, &cancel)))
                .map_err(|panic| Arc::<str>::from(panic_message(&panic)))
        })
        .await
        .unwrap_or_else(|stopped| Err(stopped.to_string().into()));
        if let Some(failure) = self.end(computed) {
            failure.report().await;
        }
    }
}

impl<K: Hash + Eq + Clone, V> Drop for Job<K, V> {
    /// A job dropped before it ended is over, as cancelled.
    fn drop(&mut self) {
        if self.sender.is_none() {
            return;
        }
        let mut inner = self
            .jobs
            .inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if inner
            .running
            .get(&self.key)
            .is_some_and(|running| running.id == self.id)
        {
            inner.running.remove(&self.key);
        }
    }
}

impl<K: Hash + Eq + Clone, V: Clone> Failure<K, V> {
    /// Logs the failure (once: it is kept, so the job is not run again), then sends
    /// it, so that whoever sees the result can also see the log.
    pub async fn report(self) {
        if let Some(log) = &self.jobs.log {
            log((self.jobs.kind.failure_line)(&self.key, &self.message)).await;
        }
        let failed = (self.jobs.kind.failed)(self.message.clone());
        let _ = self.sender.send(Some(failed));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kind whose results cost their length, 100 bytes and 8 entries at most.
    fn words(log: Option<Log>) -> Arc<Jobs<u32, String>> {
        let kind = Kind {
            max_bytes: 100,
            max_entries: 8,
            permits: 1,
            cost: |_, value: &String| value.len(),
            failed: |message| format!("failed: {message}"),
            failure_line: |key, message| format!("job {key} failed: {message}"),
        };
        Arc::new(Jobs::new(kind, log))
    }

    /// A log that keeps its lines.
    fn kept_log() -> (Log, Arc<Mutex<Vec<String>>>) {
        let lines = Arc::new(Mutex::new(Vec::new()));
        let kept = lines.clone();
        let log: Log = Arc::new(move |line| {
            let kept = kept.clone();
            Box::pin(async move { kept.lock().expect("not poisoned").push(line) })
        });
        (log, lines)
    }

    /// Looks `key` up; the job started, if one was.
    fn look(
        jobs: &Arc<Jobs<u32, String>>,
        key: u32,
    ) -> (Lookup<u32, String>, Option<Job<u32, String>>) {
        let mut started = None;
        let found = jobs.lookup(key, |job| started = Some(job));
        (found, started)
    }

    fn pending(found: Lookup<u32, String>) -> Ticket<u32, String> {
        match found {
            Lookup::Pending(ticket) => ticket,
            Lookup::Ready(value) => panic!("already known: {value}"),
        }
    }

    #[tokio::test]
    async fn wanters_share_one_job_and_its_result_is_kept() {
        let jobs = words(None);
        let (first, job) = look(&jobs, 1);
        let (second, again) = look(&jobs, 1);
        let (mut first, mut second) = (pending(first), pending(second));
        assert!(again.is_none(), "the second lookup joins the first job");
        assert!(first.same_job(&second));
        let job = job.expect("started");
        assert!(job.end(Ok(Some("one".into()))).is_none());
        assert_eq!(first.wait().await.as_deref(), Some("one"));
        assert_eq!(second.wait().await.as_deref(), Some("one"));
        assert!(matches!(look(&jobs, 1), (Lookup::Ready(v), None) if v == "one"));
        assert_eq!(jobs.running(), 0);
    }

    fn heard(update: Update<String>) -> String {
        match update {
            Update::Interim(value) => format!("interim {value}"),
            Update::Done(value) => format!("done {value:?}"),
        }
    }

    #[tokio::test]
    async fn waiters_hear_the_latest_interim_value_then_the_result() {
        let jobs = words(None);
        let (first, job) = look(&jobs, 1);
        let mut first = pending(first);
        let job = job.expect("started");
        let interim = job.interim();
        interim.send("1 k".into());
        interim.send("2 k".into());
        assert_eq!(heard(first.next().await), "interim 2 k", "only the latest");
        // A wanter joining later hears what the job last said at once.
        let mut second = pending(look(&jobs, 1).0);
        assert_eq!(heard(second.next().await), "interim 2 k");
        interim.send("3 k".into());
        assert!(job.end(Ok(Some("three".into()))).is_none());
        assert_eq!(
            heard(first.next().await),
            r#"done Some("three")"#,
            "the result wins over an interim value not heard yet"
        );
        assert_eq!(heard(second.next().await), r#"done Some("three")"#);
        assert_eq!(
            jobs.cached(&1).as_deref(),
            Some("three"),
            "nothing interim kept"
        );
        // Dropped before it ends: the waiter hears the cancellation, not a hang.
        let (lookup, job) = look(&jobs, 2);
        let mut third = pending(lookup);
        let job = job.expect("started");
        job.interim().send("1 k".into());
        drop(job);
        assert_eq!(heard(third.next().await), "done None");
    }

    #[tokio::test]
    async fn the_last_ticket_dropped_cancels_the_job() {
        let jobs = words(None);
        let (first, job) = look(&jobs, 1);
        let (second, _) = look(&jobs, 1);
        let job = job.expect("started");
        drop(first);
        assert!(!job.is_cancelled(), "one wanter is left");
        drop(second);
        assert!(job.is_cancelled(), "nobody wants it");
        // A job being cancelled is not joined: the next wanter starts another.
        let (third, restarted) = look(&jobs, 1);
        let mut third = pending(third);
        let restarted = restarted.expect("a new job");
        assert!(!restarted.is_cancelled());
        // The cancelled job ending does not end the new one.
        assert!(job.end(Ok(None)).is_none());
        assert_eq!(jobs.running(), 1);
        assert!(restarted.end(Ok(Some("new".into()))).is_none());
        assert_eq!(third.wait().await.as_deref(), Some("new"));
    }

    #[tokio::test]
    async fn a_result_nobody_wants_is_dropped() {
        let jobs = words(None);
        let (found, job) = look(&jobs, 1);
        let mut ticket = pending(found);
        let job = job.expect("started");
        // Cancelled: the waiter wakes with nothing, and nothing is kept.
        assert!(job.end(Ok(None)).is_none());
        assert_eq!(ticket.wait().await, None);
        assert_eq!(jobs.cache_size(), (0, 0));
        assert!(jobs.cached(&1).is_none());
        // A job dropped before it ends is over just the same.
        let (found, job) = look(&jobs, 2);
        let mut ticket = pending(found);
        drop(job);
        assert_eq!(ticket.wait().await, None);
        assert_eq!(jobs.running(), 0);
        assert!(matches!(look(&jobs, 2), (Lookup::Pending(_), Some(_))));
    }

    #[tokio::test]
    async fn a_panic_is_kept_as_a_failure_and_logged_once_before_it_is_sent() {
        let (log, lines) = kept_log();
        let jobs = words(Some(log));
        let (found, job) = look(&jobs, 7);
        let mut ticket = pending(found);
        let job = job.expect("started");
        job.run_blocking(|_, _| panic!("boom")).await;
        assert_eq!(ticket.wait().await.as_deref(), Some("failed: boom"));
        assert_eq!(*lines.lock().expect("log"), ["job 7 failed: boom"]);
        for _ in 0..3 {
            let (found, started) = look(&jobs, 7);
            assert!(started.is_none(), "a failure is not tried again");
            assert!(matches!(found, Lookup::Ready(v) if v == "failed: boom"));
        }
        assert_eq!(lines.lock().expect("log").len(), 1);
    }

    #[tokio::test]
    async fn a_failure_is_sent_only_once_logged() {
        let (log, lines) = kept_log();
        let jobs = words(Some(log));
        let (found, job) = look(&jobs, 3);
        let mut ticket = pending(found);
        let job = job.expect("started");
        let computed = job.compute(|_, _| panic!("late"));
        let failure = job.end(computed).expect("a failure");
        // Kept already, not sent yet.
        assert_eq!(jobs.cached(&3).as_deref(), Some("failed: late"));
        assert!(ticket.done.borrow().is_none());
        failure.report().await;
        assert_eq!(lines.lock().expect("log").len(), 1);
        assert_eq!(ticket.wait().await.as_deref(), Some("failed: late"));
    }

    #[test]
    fn the_cache_is_bounded_in_entries_and_cost() {
        let jobs = words(None);
        for key in 0..20 {
            jobs.keep(&key, "x".repeat(5));
        }
        assert_eq!(jobs.cache_size(), (8, 40), "at most 8 entries");
        for key in 100..110 {
            jobs.keep(&key, "y".repeat(30));
            assert!(jobs.cache_size().1 <= 100, "at most 100 bytes");
        }
        assert_eq!(jobs.cache_size(), (3, 90));
        // The least recently used go first: 107 is now the oldest.
        jobs.keep(&110, "z".repeat(30));
        assert!(jobs.cached(&107).is_none() && jobs.cached(&108).is_some());
        // A result kept again, or changed, is counted once.
        jobs.keep(&110, "z".repeat(30));
        jobs.update(&110, |value| value.truncate(10));
        assert_eq!(jobs.cache_size(), (3, 70));
        jobs.retain(|value| !value.starts_with('z'));
        assert_eq!(jobs.cache_size(), (2, 60));
    }

    #[tokio::test]
    async fn each_kind_has_its_own_permits() {
        let (one, other) = (words(None), words(None));
        let held = one.permit().await.expect("a permit");
        assert_eq!(one.permits().available_permits(), 0);
        assert!(other.permit().await.is_some(), "another kind does not wait");
        drop(held);
        assert_eq!(one.permits().available_permits(), 1);
    }
}
