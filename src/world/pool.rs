//! The worker threads a world steps on: a rayon pool whose threads are joined when it is
//! dropped (a dropped rayon pool does not join its threads, and a host may unload the plugin
//! right after destroying the last world).

use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crate::error::{Error, Result};

/// A rayon pool whose threads are joined when it is dropped: a host may unload the plugin
/// right after destroying the last world.
pub struct WorkerPool {
    pool: Option<rayon::ThreadPool>,
    threads: Arc<Mutex<Vec<JoinHandle<()>>>>,
}

impl WorkerPool {
    pub fn new(thread_count: u32) -> Result<WorkerPool> {
        let n = if thread_count == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            thread_count as usize
        };
        let threads = Arc::new(Mutex::new(Vec::new()));
        let sink = threads.clone();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .thread_name(|i| format!("sinew-worker-{i}"))
            .spawn_handler(move |t| {
                let handle = std::thread::Builder::new().name(t.name().unwrap_or("sinew-worker").to_owned()).spawn(move || t.run())?;
                sink.lock().unwrap_or_else(|e| e.into_inner()).push(handle);
                Ok(())
            })
            .build()
            .map_err(|e| Error::invalid(format!("could not start {n} worker threads: {e}")))?;
        Ok(WorkerPool { pool: Some(pool), threads })
    }

    pub fn thread_count(&self) -> usize {
        self.pool.as_ref().map_or(0, |p| p.current_num_threads())
    }

    /// Runs `f` inside the pool, so rayon calls in it use these threads.
    pub fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        self.pool.as_ref().expect("pool alive until drop").install(f)
    }

    /// Runs `f` on a pool thread without waiting.
    pub fn spawn(&self, f: impl FnOnce() + Send + 'static) {
        self.pool.as_ref().expect("pool alive until drop").spawn(f)
    }
}

impl Drop for WorkerPool {
    fn drop(&mut self) {
        drop(self.pool.take());
        if rayon::current_thread_index().is_some() {
            return; // never join a pool from one of its own threads
        }
        let handles = std::mem::take(&mut *self.threads.lock().unwrap_or_else(|e| e.into_inner()));
        for h in handles {
            let _ = h.join();
        }
    }
}
