//! Progress lines on stderr for long runs, at most one every two seconds.

use std::time::{Duration, Instant};

const EVERY: Duration = Duration::from_secs(2);

pub struct Progress {
    enabled: bool,
    label: String,
    last: Instant,
}

impl Progress {
    pub fn new(enabled: bool) -> Progress {
        Progress {
            enabled,
            label: String::new(),
            last: Instant::now(),
        }
    }

    /// Announces a new phase (always printed when enabled).
    pub fn phase(&mut self, label: String) {
        if self.enabled {
            eprintln!("bench: {label}");
        }
        self.label = label;
        self.last = Instant::now();
    }

    /// Reports `done` of `total` iterations if enough time has passed.
    pub fn tick(&mut self, done: u32, total: u32) {
        if self.enabled && self.last.elapsed() >= EVERY {
            eprintln!("bench: {}: {done}/{total} iterations", self.label);
            self.last = Instant::now();
        }
    }
}
