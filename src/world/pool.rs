//! The worker threads a world steps on: a rayon pool whose threads are joined when it is
//! dropped (a dropped rayon pool does not join its threads, and a host may unload the plugin
//! right after destroying the last world), and that can wake its workers ahead of a frame.
//!
//! Waking ahead. A game steps once per frame and does its own work in between, so rayon's
//! workers fall asleep between steps and every step pays their wake-up: the hand-off into
//! the pool, and the second worker's arrival in the step's two-way join (measured on a
//! 2-core VM in docs/performance.md, "Frame-paced stepping": tens of µs each, and the
//! second worker often arrives after the first has done all the work). With a wake-ahead
//! time `a` a pacer thread predicts the next step from the interval between the last two
//! (`install` calls) and, `a` before the predicted start, puts every worker into a bounded
//! spin that takes work the moment it is handed over (`rayon::yield_now`; between polls the
//! core is yielded, so that the host's thread or another program that needs it gets it). The
//! spin ends when that step is done, or `a` after the predicted start if it does not come.
//! Cost: about `a` of polling per worker per frame when the prediction holds, at most `2a`
//! plus the workers' arrival when it does not. At most one spin per step, none for steps less
//! than `4a` apart (back to back the workers are awake anyway) or more than 250 ms apart, and
//! none once steps stop coming. The result of a step does not depend on it (only when the
//! threads start).

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::error::{Error, Result};

/// Steps further apart than this are not a frame rate: the pacer does not spin for them.
const MAX_INTERVAL: Duration = Duration::from_millis(250);

/// A rayon pool whose threads are joined when it is dropped: a host may unload the plugin
/// right after destroying the last world.
///
/// A pool of one thread is no rayon pool, and starts its thread only when it is first needed:
/// a one-thread world steps on the host's thread (`World::sequential`), so its worker runs
/// only the asynchronous steps (`sinew_world_step_begin`), and a world that never steps
/// asynchronously never starts a thread. Hosts that give each of many small worlds one thread
/// keep no parked thread per world, and creating and destroying such a world costs no thread
/// start and join. The worker is a plain thread ([`Single`]) that sleeps between steps: a
/// rayon worker, its job done, polls for more, yielding its core in a loop before it sleeps —
/// CPU time a one-thread world, with no second worker to share work with, never needs.
pub struct WorkerPool {
    /// The worker threads' count.
    n: usize,
    /// The rayon pool: of two threads or more, built at creation; of one, built by the first
    /// [`WorkerPool::install`] (a world stepped in parallel code on one thread, as the Rust
    /// tests do: the C ABI steps a one-thread world on the host's thread instead).
    pool: OnceLock<Arc<rayon::ThreadPool>>,
    /// The one worker of a one-thread pool, started by [`WorkerPool::start`].
    single: OnceLock<Single>,
    /// Serialises the late starts (`single`, a one-thread `pool`).
    building: Mutex<()>,
    threads: Arc<Mutex<Vec<JoinHandle<()>>>>,
    pace: Arc<Pace>,
    /// The thread that wakes the workers ahead of a step, once a wake-ahead time is set.
    pacer: Option<JoinHandle<()>>,
}

/// One spin: the start of the step before it, the steps done when it began, the predicted
/// start of the step it waits for and when it gives up (ns since `Pace::epoch`).
#[derive(Clone, Copy)]
struct Spin {
    last: u64,
    finished: u64,
    next: u64,
    deadline: u64,
}

/// What the pacer knows of the steps. Times are ns since `epoch`.
struct Pace {
    epoch: Instant,
    /// The wake-ahead time (ns); 0: off.
    ahead: AtomicU64,
    /// Start of the latest step (0: none yet) and its distance from the one before (0: not
    /// known).
    last_start: AtomicU64,
    interval: AtomicU64,
    /// Steps done.
    finished: AtomicU64,
    /// Workers in the current spin.
    arrived: AtomicUsize,
    /// Spins so far.
    spins: AtomicU64,
    stop: AtomicBool,
    /// Set while the pacer waits for a step without a deadline: the next step rings `bell`.
    waiting: AtomicBool,
    lock: Mutex<()>,
    bell: Condvar,
}

impl Pace {
    fn now(&self) -> u64 {
        self.epoch.elapsed().as_nanos() as u64
    }

    /// A step starts (on the host's thread).
    fn begin(&self) {
        if self.ahead.load(Ordering::Relaxed) == 0 {
            return;
        }
        let now = self.now().max(1);
        let last = self.last_start.swap(now, Ordering::SeqCst);
        self.interval.store(if last == 0 { 0 } else { now - last }, Ordering::SeqCst);
        if self.waiting.load(Ordering::SeqCst) {
            let _lock = self.lock.lock().unwrap_or_else(|e| e.into_inner());
            self.bell.notify_one();
        }
    }

    /// A step is done (on the worker that ran it).
    fn end(&self) {
        self.finished.fetch_add(1, Ordering::Release);
    }

    /// The pacer: sleeps until `ahead` before the predicted step, then spins every worker
    /// of `pool` until that step is done or `ahead` after its predicted start.
    fn run(&self, pool: &rayon::ThreadPool) {
        // The first hand-off sets up this thread's latch: before any step, so that no step
        // sees it allocate.
        pool.install(|| ());
        // The step after which the pacer last spun: one spin per step at most.
        let mut spun_after = 0;
        let mut lock = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        while !self.stop.load(Ordering::SeqCst) {
            let ahead = self.ahead.load(Ordering::Relaxed);
            let last = self.last_start.load(Ordering::SeqCst);
            let interval = self.interval.load(Ordering::SeqCst);
            let next = last + interval;
            let now = self.now();
            let predicted = ahead > 0 && interval >= 4 * ahead && interval <= MAX_INTERVAL.as_nanos() as u64 && spun_after != last && now < next + ahead;
            if !predicted {
                if ahead > 0 && interval > 0 && interval <= MAX_INTERVAL.as_nanos() as u64 && now < last + 4 * interval {
                    // Steps are coming (this one was spun for, or they come too close to spin
                    // for): look again in half an interval, 1–25 ms, without the step having
                    // to ring for it.
                    let pause = Duration::from_nanos(interval / 2).clamp(Duration::from_millis(1), Duration::from_millis(25));
                    lock = self.bell.wait_timeout(lock, pause).unwrap_or_else(|e| e.into_inner()).0;
                    continue;
                }
                // None for four intervals, or none known: until the next step rings (or a
                // stop). The flag before the re-check, the step's store before its read of
                // the flag: one of the two sees the other.
                self.waiting.store(true, Ordering::SeqCst);
                if self.last_start.load(Ordering::SeqCst) == last && !self.stop.load(Ordering::SeqCst) {
                    lock = self.bell.wait_timeout(lock, MAX_INTERVAL).unwrap_or_else(|e| e.into_inner()).0;
                }
                self.waiting.store(false, Ordering::SeqCst);
                continue;
            }
            let wake = next.saturating_sub(ahead);
            if now < wake {
                lock = self.bell.wait_timeout(lock, Duration::from_nanos(wake - now)).unwrap_or_else(|e| e.into_inner()).0;
                continue;
            }
            spun_after = last;
            self.spins.fetch_add(1, Ordering::Relaxed);
            let finished = self.finished.load(Ordering::Acquire);
            let threads = pool.current_num_threads();
            self.arrived.store(0, Ordering::Relaxed);
            drop(lock);
            pool.install(|| self.spin_all(threads, threads, Spin { last, finished, next, deadline: next + ahead }));
            lock = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Spins `k` of the pool's `n` workers (one per thread as they steal the joins' halves).
    fn spin_all(&self, k: usize, n: usize, s: Spin) {
        if k <= 1 {
            self.spin(n, s);
        } else {
            rayon::join(|| self.spin(n, s), || self.spin_all(k - 1, n, s));
        }
    }

    /// One worker's spin: until every worker is in (taking no work, so that the join's other
    /// half goes to a thread that is asleep), the step is due or it has started; then taking
    /// work until the step is done or the deadline passes.
    fn spin(&self, n: usize, s: Spin) {
        self.arrived.fetch_add(1, Ordering::SeqCst);
        while self.arrived.load(Ordering::SeqCst) < n && self.now() < s.next && self.last_start.load(Ordering::SeqCst) == s.last && !self.stop.load(Ordering::Relaxed) {
            std::thread::yield_now();
        }
        while self.finished.load(Ordering::Acquire) == s.finished && self.now() < s.deadline && !self.stop.load(Ordering::Relaxed) {
            if rayon::yield_now() != Some(rayon::Yield::Executed) {
                std::thread::yield_now();
            }
        }
    }
}

impl WorkerPool {
    pub fn new(thread_count: u32) -> Result<WorkerPool> {
        let n = if thread_count == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            thread_count as usize
        };
        let pace = Pace {
            epoch: Instant::now(),
            ahead: AtomicU64::new(0),
            last_start: AtomicU64::new(0),
            interval: AtomicU64::new(0),
            finished: AtomicU64::new(0),
            arrived: AtomicUsize::new(0),
            spins: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            waiting: AtomicBool::new(false),
            lock: Mutex::new(()),
            bell: Condvar::new(),
        };
        let threads = Arc::new(Mutex::new(Vec::new()));
        let pool = OnceLock::new();
        if n > 1 {
            let _ = pool.set(Arc::new(build(n, &threads)?));
        }
        Ok(WorkerPool { n, pool, single: OnceLock::new(), building: Mutex::new(()), threads, pace: Arc::new(pace), pacer: None })
    }

    /// Starts the one worker of a one-thread pool if it is not running yet (before its first
    /// asynchronous step); the error says why it could not start. A pool of two threads or
    /// more runs from its creation.
    pub fn start(&self) -> Result<()> {
        if self.n == 1 {
            init_once(&self.single, &self.building, Single::start)?;
        }
        Ok(())
    }

    pub fn thread_count(&self) -> usize {
        self.n
    }

    /// Wakes the workers `ahead` before each predicted step (see the module docs); zero
    /// turns it off. A one-thread pool has no worker to wake: it is ignored there.
    pub fn set_wake_ahead(&mut self, ahead: Duration) -> Result<()> {
        let ns = ahead.as_nanos().min(MAX_INTERVAL.as_nanos()) as u64;
        self.pace.ahead.store(ns, Ordering::Relaxed);
        if ns == 0 || self.thread_count() < 2 || self.pacer.is_some() {
            return Ok(());
        }
        let (pace, pool) = (self.pace.clone(), self.pool.get().expect("a pool of two threads or more starts at creation").clone());
        let pacer = std::thread::Builder::new()
            .name("sinew-pacer".to_owned())
            .spawn(move || pace.run(&pool))
            .map_err(|e| Error::invalid(format!("could not start the pacer thread: {e}")))?;
        self.pacer = Some(pacer);
        Ok(())
    }

    /// How many times the workers were woken ahead of a step (at most once per step).
    pub fn spins(&self) -> u64 {
        self.pace.spins.load(Ordering::Relaxed)
    }

    /// Runs `f` inside the pool, so rayon calls in it use these threads: a step.
    pub fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        let pace = &*self.pace;
        pace.begin();
        self.rayon_pool().install(|| {
            let r = f();
            pace.end();
            r
        })
    }

    /// Runs `f` on a pool thread without waiting: a step. [`WorkerPool::start`] first.
    pub fn spawn(&self, f: impl FnOnce() + Send + 'static) {
        let pace = self.pace.clone();
        pace.begin();
        let job = move || {
            f();
            pace.end();
        };
        match self.single.get() {
            Some(single) => single.run(Box::new(job)),
            None => self.pool.get().expect("spawn on a one-thread pool before start").spawn(job),
        }
    }

    /// The rayon pool, built at the first call on a one-thread pool.
    fn rayon_pool(&self) -> &rayon::ThreadPool {
        init_once(&self.pool, &self.building, || build(self.n, &self.threads).map(Arc::new)).unwrap_or_else(|e| panic!("{e}"))
    }
}

impl Drop for WorkerPool {
    fn drop(&mut self) {
        self.pace.stop.store(true, Ordering::SeqCst);
        {
            let _lock = self.pace.lock.lock().unwrap_or_else(|e| e.into_inner());
            self.pace.bell.notify_all();
        }
        if let Some(p) = self.pacer.take() {
            let _ = p.join();
        }
        if let Some(single) = self.single.take() {
            single.stop();
        }
        if self.pool.take().is_none() {
            return; // a one-thread pool that never started: no thread to join
        }
        if rayon::current_thread_index().is_some() {
            return; // never join a pool from one of its own threads
        }
        let handles = std::mem::take(&mut *self.threads.lock().unwrap_or_else(|e| e.into_inner()));
        for h in handles {
            let _ = h.join();
        }
        collect_exited_workers();
    }
}

/// The value in `cell`, made by `make` under `lock` if it is not there yet (at most once;
/// an error leaves the cell empty for a later call).
fn init_once<'a, T>(cell: &'a OnceLock<T>, lock: &Mutex<()>, make: impl FnOnce() -> Result<T>) -> Result<&'a T> {
    if let Some(v) = cell.get() {
        return Ok(v);
    }
    let _lock = lock.lock().unwrap_or_else(|e| e.into_inner());
    if cell.get().is_none() {
        let _ = cell.set(make()?);
    }
    Ok(cell.get().expect("set above"))
}

/// The one worker of a one-thread pool: a plain thread that waits for a job, runs it, and
/// sleeps again.
struct Single {
    shared: Arc<SingleShared>,
    thread: JoinHandle<()>,
}

struct SingleShared {
    state: Mutex<SingleState>,
    bell: Condvar,
}

#[derive(Default)]
struct SingleState {
    started: bool,
    job: Option<Box<dyn FnOnce() + Send>>,
    stop: bool,
}

impl Single {
    /// Starts the thread and returns once it runs: a thread's start (its name, its stack
    /// guard) allocates, and must not fall into the host's steps.
    fn start() -> Result<Single> {
        let shared = Arc::new(SingleShared { state: Mutex::new(SingleState::default()), bell: Condvar::new() });
        let own = shared.clone();
        let thread = std::thread::Builder::new()
            .name("sinew-worker-0".to_owned())
            .spawn(move || own.serve())
            .map_err(|e| Error::invalid(format!("could not start the worker thread: {e}")))?;
        let mut st = shared.state.lock().unwrap_or_else(|e| e.into_inner());
        while !st.started {
            st = shared.bell.wait(st).unwrap_or_else(|e| e.into_inner());
        }
        drop(st);
        Ok(Single { shared, thread })
    }

    /// Hands `job` to the worker (one at a time: the world's busy flag keeps a second out).
    fn run(&self, job: Box<dyn FnOnce() + Send>) {
        let mut st = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
        debug_assert!(st.job.is_none(), "a second job before the first ran");
        st.job = Some(job);
        drop(st);
        self.shared.bell.notify_all();
    }

    /// Ends the thread after the job it runs, if any, and joins it.
    fn stop(self) {
        self.shared.state.lock().unwrap_or_else(|e| e.into_inner()).stop = true;
        self.shared.bell.notify_all();
        // Never join from the worker itself (a world whose last handle its own job dropped).
        // A thread-local flag, not `thread::current()`: that allocates a handle for a host
        // thread Rust did not start, which valgrind reports as possibly lost at exit.
        if !ON_SINGLE.get() {
            let _ = self.thread.join();
        }
    }
}

std::thread_local! {
    /// Set on a one-thread pool's worker.
    static ON_SINGLE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

impl SingleShared {
    fn serve(&self) {
        ON_SINGLE.set(true);
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        st.started = true;
        self.bell.notify_all();
        loop {
            if let Some(job) = st.job.take() {
                drop(st);
                job();
                st = self.state.lock().unwrap_or_else(|e| e.into_inner());
            } else if st.stop {
                return;
            } else {
                st = self.bell.wait(st).unwrap_or_else(|e| e.into_inner());
            }
        }
    }
}

/// Builds a rayon pool of `n` threads whose join handles go to `threads`, and returns once
/// every worker runs: a thread's start (its name, its stack guard) allocates, and must not
/// fall into the host's first steps.
fn build(n: usize, threads: &Arc<Mutex<Vec<JoinHandle<()>>>>) -> Result<rayon::ThreadPool> {
    let sink = threads.clone();
    let started = Arc::new((Mutex::new(0usize), Condvar::new()));
    let arrive = started.clone();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .thread_name(|i| format!("sinew-worker-{i}"))
        .start_handler(move |_| {
            let (count, bell) = &*arrive;
            *count.lock().unwrap_or_else(|e| e.into_inner()) += 1;
            bell.notify_all();
        })
        .spawn_handler(move |t| {
            let handle = std::thread::Builder::new().name(t.name().unwrap_or("sinew-worker").to_owned()).spawn(move || t.run())?;
            sink.lock().unwrap_or_else(|e| e.into_inner()).push(handle);
            Ok(())
        })
        .build()
        .map_err(|e| Error::invalid(format!("could not start {n} worker threads: {e}")))?;
    let (count, bell) = &*started;
    let mut c = count.lock().unwrap_or_else(|e| e.into_inner());
    while *c < n {
        c = bell.wait(c).unwrap_or_else(|e| e.into_inner());
    }
    Ok(pool)
}

/// Frees what the joined workers left in crossbeam-epoch, the memory reclamation under rayon's
/// work-stealing deques: each worker registered a record there (2,304 bytes) that its exit
/// only marks deleted, linked from the record before it by a tagged pointer. Left alone it
/// stays until another thread of the process happens to collect, and valgrind reports it as
/// "possibly lost" in a host that exits after destroying its worlds. A short-lived record of
/// this thread unlinks the deleted ones and advances the epoch until their deferred frees
/// run; the record itself, first in the list, stays reachable from crossbeam's static list
/// head until a later collection. Records of other worlds' live workers are left alone
/// (an epoch cannot advance past a worker pinned in a step; they are freed later).
fn collect_exited_workers() {
    let handle = crossbeam_epoch::default_collector().register();
    // Each pass advances the global epoch once at most; a deferred free runs two epochs later,
    // and a pass executes a bounded number of queued bags.
    for _ in 0..8 {
        handle.pin().flush();
    }
}

