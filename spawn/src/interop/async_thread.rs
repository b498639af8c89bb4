//! A blocking job on a thread of its own, awaited without blocking the executor: the event-loop
//! adapters' wait where the child has no exit notifier (no pidfd, no kqueue), so that `output`
//! and `status` still run the program once and reap it.
//!
//! A job owns what it must finish (a child to reap): if no thread can be started it runs
//! here, blocking, rather than being dropped undone.

use std::future::Future;
use std::io;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Poll, Waker};

type Job<T> = Box<dyn FnOnce() -> io::Result<T> + Send>;

/// The job until it runs, then its result; the waker of the task awaiting it.
struct Shared<T> {
    job: Mutex<Option<Job<T>>>,
    done: Mutex<(Option<io::Result<T>>, Option<Waker>)>,
}

fn lock<V>(m: &Mutex<V>) -> MutexGuard<'_, V> {
    // A panic is caught in `run`, so a poisoned lock still holds consistent data.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<T> Shared<T> {
    /// Runs the job (once) and wakes the awaiting task.
    fn run(&self) {
        let Some(job) = lock(&self.job).take() else {
            return;
        };
        let result = catch_unwind(AssertUnwindSafe(job))
            .unwrap_or_else(|_| Err(io::Error::other("the waiting thread panicked")));
        let waker = {
            let mut done = lock(&self.done);
            done.0 = Some(result);
            done.1.take()
        };
        if let Some(w) = waker {
            w.wake();
        }
    }
}

/// `job`'s result, computed on a new thread (here, if none can be started).
pub(super) fn on_thread<T: Send + 'static>(
    job: impl FnOnce() -> io::Result<T> + Send + 'static,
) -> impl Future<Output = io::Result<T>> {
    let shared = Arc::new(Shared {
        job: Mutex::new(Some(Box::new(job) as Job<T>)),
        done: Mutex::new((None, None)),
    });
    let theirs = Arc::clone(&shared);
    let started = std::thread::Builder::new()
        .name("spawnmatrix-wait".into())
        .spawn(move || theirs.run());
    if started.is_err() {
        // The closure was dropped unrun; the job is still in `shared`.
        shared.run();
    }
    std::future::poll_fn(move |cx| {
        let mut done = lock(&shared.done);
        match done.0.take() {
            Some(r) => Poll::Ready(r),
            None => {
                done.1 = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    })
}

