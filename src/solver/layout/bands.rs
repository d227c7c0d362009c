//! Two threads through one body's passes.
//!
//! A large grid body cuts each pass into two bands of rows, one per thread. A pass is a
//! "step" here (a prediction, one constraint run, a contact-and-velocity pass); a band of a
//! step may start as soon as the steps it depends on are done: its own band's previous step
//! (its thread did that one, in order) and the latest earlier step whose *other* band
//! touched rows it touches. Most passes stay inside their half of the grid, so the threads
//! rarely wait for each other.
//!
//! Thread `i` does band `i`, so each keeps its half of the body in its own cache. Rayon may
//! run both halves of the join on one thread: a band the other thread has not come to take
//! is taken by the first, so nothing ever waits on a thread that never came. The bits never
//! depend on who did what: a band's result depends only on the data it reads, and these
//! waits fix that data.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Runs `task(step, band)` for every step in `0..steps` and both bands, on this thread and
/// (when one is free) another thread of the current rayon pool.
///
/// `back(step, band)` is how many steps before `step` the latest step lies whose other band
/// touches what `band` of `step` touches (`None`: no earlier step does).
pub fn run_in_two(steps: usize, back: impl Fn(usize, usize) -> Option<usize> + Sync, task: impl Fn(usize, usize) + Sync) {
    let team = Team {
        claimed: [AtomicUsize::new(0), AtomicUsize::new(0)],
        done: [AtomicUsize::new(0), AtomicUsize::new(0)],
        arrived: [AtomicBool::new(false), AtomicBool::new(false)],
        poisoned: AtomicBool::new(false),
        back: &back,
        task: &task,
    };
    let work = |me: usize| {
        team.arrived[me].store(true, Ordering::SeqCst);
        for step in 0..steps {
            for b in [me, 1 - me] {
                // The other thread's bands are its own once it is here (but see `wait`).
                if b != me && team.arrived[b].load(Ordering::SeqCst) {
                    continue;
                }
                team.take_and_run(b, step);
            }
        }
    };
    rayon::join(|| work(0), || work(1));
}

/// The shared state of [`run_in_two`].
struct Team<'a> {
    /// `claimed[b]`: steps whose band `b` has been taken; `done[b]`: steps whose band `b` is
    /// done (each band's steps are taken and finished in order).
    claimed: [AtomicUsize; 2],
    done: [AtomicUsize; 2],
    arrived: [AtomicBool; 2],
    /// A task panicked: the other thread must not wait for it forever.
    poisoned: AtomicBool,
    back: &'a (dyn Fn(usize, usize) -> Option<usize> + Sync),
    task: &'a (dyn Fn(usize, usize) + Sync),
}

impl Team<'_> {
    /// Runs band `b` of `step` if nobody has taken it yet.
    fn take_and_run(&self, b: usize, step: usize) {
        if self.claimed[b].compare_exchange(step, step + 1, Ordering::AcqRel, Ordering::Relaxed).is_err() {
            return;
        }
        // This band's previous step (the other thread may have taken it).
        self.wait(b, step);
        if let Some(d) = (self.back)(step, b)
            && step >= d
        {
            self.wait(1 - b, step - d + 1);
        }
        // If the task panics, the other thread stops waiting (and unwinds too): the join
        // then hands the panic to the caller instead of hanging.
        struct Poison<'t>(&'t AtomicBool);
        impl Drop for Poison<'_> {
            fn drop(&mut self) {
                if std::thread::panicking() {
                    self.0.store(true, Ordering::SeqCst);
                }
            }
        }
        let guard = Poison(&self.poisoned);
        (self.task)(step, b);
        drop(guard);
        self.done[b].store(step + 1, Ordering::Release);
    }

    /// Waits until band `b` has done `until` steps. A step it needs that the other thread has
    /// not even taken yet (descheduled, or far behind) is taken and run here: no thread ever
    /// waits on work nobody is doing. The steps it runs have every dependency done already
    /// (they come before this thread's own current step), so this recurses at most once.
    fn wait(&self, b: usize, until: usize) {
        let mut spins = 0u32;
        while self.done[b].load(Ordering::Acquire) < until {
            if self.poisoned.load(Ordering::SeqCst) {
                panic!("the other band of this step panicked");
            }
            let next = self.claimed[b].load(Ordering::Acquire);
            if next < until {
                self.take_and_run(b, next);
                continue;
            }
            spins += 1;
            if spins < 1 << 14 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }
}

/// `back` for a pattern of `out.len()` steps that repeats: `touched(q, band)` gives the
/// (first, last) rows band `band` of pattern step `q` touches, `None` for nothing. Fills
/// `out[q][band]`.
pub fn dependencies(touched: impl Fn(usize, usize) -> Option<(usize, usize)>, out: &mut [[Option<usize>; 2]]) {
    let period = out.len();
    for (q, entry) in out.iter_mut().enumerate() {
        for (b, slot) in entry.iter_mut().enumerate() {
            *slot = touched(q, b).and_then(|(lo, hi)| {
                (1..=period).find(|&d| touched((q + period - d % period) % period, 1 - b).is_some_and(|(l, h)| l <= hi && lo <= h))
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// A task that panics does not leave the other thread waiting forever: the panic comes
    /// back to the caller.
    #[test]
    fn a_panicking_band_ends_the_join() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let r = pool.install(|| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                // Every step of band 1 waits for band 0's previous step; band 0 panics at 5.
                run_in_two(20, |s, b| (b == 1 && s > 0).then_some(1), |s, b| assert!(!(b == 0 && s == 5), "deliberate"))
            }))
        });
        assert!(r.is_err());
    }

    /// Steps that depend on each other run in order, whichever thread runs them, and every
    /// band runs exactly once.
    #[test]
    fn every_band_runs_once_after_what_it_depends_on() {
        // Step q of a 3-step pattern: band 0 touches rows 0..=4, band 1 rows 5..=9, except
        // step 1 whose band 1 reaches into row 4.
        let touched = |q: usize, b: usize| Some(if b == 0 { (0, 4) } else if q == 1 { (4, 9) } else { (5, 9) });
        let mut back = [[None; 2]; 3];
        dependencies(touched, &mut back);
        assert_eq!(back[1][1], Some(1), "step 1 band 1 waits for step 0 band 0");
        assert_eq!(back[2][0], Some(1), "step 2 band 0 waits for step 1 band 1");
        assert_eq!(back[0][1], None);
        let log = Mutex::new(Vec::new());
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        pool.install(|| {
            run_in_two(30, |s, b| back[s % 3][b], |s, b| log.lock().unwrap().push((s, b)));
        });
        let log = log.into_inner().unwrap();
        assert_eq!(log.len(), 60);
        let at = |s: usize, b: usize| log.iter().position(|&e| e == (s, b)).unwrap();
        for s in 0..30 {
            for (b, dep) in back[s % 3].iter().enumerate() {
                if s > 0 {
                    assert!(at(s - 1, b) < at(s, b), "band {b} in order at {s}");
                }
                if let Some(d) = *dep
                    && s >= d
                {
                    assert!(at(s - d, 1 - b) < at(s, b), "step {s} band {b} after step {} band {}", s - d, 1 - b);
                }
            }
        }
    }
}
