//! What this process has learned about whether a strategy can create processes here: probed
//! once (a child that exits at once), or learned from a real call that the kernel or a
//! seccomp filter refused, and then remembered. A transient failure (`EAGAIN`, `ENOMEM`)
//! teaches nothing and is not remembered, so it never turns into `Unsupported`.

use std::sync::atomic::{AtomicU8, Ordering};

const UNKNOWN: u8 = 0;
const YES: u8 = 1;
const NO: u8 = 2;

/// One strategy's remembered answer.
pub(crate) struct Learned(AtomicU8);

/// What a creating call (or a probe) says about its strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    Works,
    Refused,
    /// A failure that says nothing about the strategy (resource limits, memory).
    Inconclusive,
}

impl Learned {
    pub(crate) const fn new() -> Self {
        Learned(AtomicU8::new(UNKNOWN))
    }

    /// Whether the strategy works here; runs `probe` only while nothing is known. An
    /// inconclusive probe leaves it unknown and counts as working (it was not refused).
    pub(crate) fn works(&self, probe: impl FnOnce() -> Verdict) -> bool {
        if self.0.load(Ordering::Relaxed) == UNKNOWN {
            self.record(probe());
        }
        self.0.load(Ordering::Relaxed) != NO
    }

    /// Remembers a conclusive verdict.
    pub(crate) fn record(&self, v: Verdict) {
        match v {
            Verdict::Works => self.0.store(YES, Ordering::Relaxed),
            Verdict::Refused => self.0.store(NO, Ordering::Relaxed),
            Verdict::Inconclusive => {}
        }
    }
}

// What the clone strategies (Linux only) learn from their own creating calls.
#[cfg(target_os = "linux")]
impl Learned {
    /// False only once the strategy is known to be refused (never probes).
    pub(crate) fn maybe(&self) -> bool {
        self.0.load(Ordering::Relaxed) != NO
    }

    /// A creating call's result as the spawn's: the child (the strategy works), `None` when
    /// `verdict` says the errno refuses the strategy (remembered), else the errno as the error.
    pub(crate) fn outcome<T>(
        &self,
        r: Result<T, libc::c_int>,
        verdict: fn(libc::c_int) -> Verdict,
    ) -> std::io::Result<Option<T>> {
        match r {
            Ok(spawned) => {
                self.record(Verdict::Works);
                Ok(Some(spawned))
            }
            Err(errno) if verdict(errno) == Verdict::Refused => {
                self.record(Verdict::Refused);
                Ok(None)
            }
            Err(errno) => Err(std::io::Error::from_raw_os_error(errno)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(Verdict::Works, true, true)]
    #[case(Verdict::Refused, false, true)]
    #[case(Verdict::Inconclusive, true, false)]
    fn probes_once_unless_inconclusive(
        #[case] v: Verdict,
        #[case] works: bool,
        #[case] cached: bool,
    ) {
        let l = Learned::new();
        let mut probes = 0;
        for _ in 0..3 {
            assert_eq!(
                l.works(|| {
                    probes += 1;
                    v
                }),
                works
            );
        }
        assert_eq!(probes, if cached { 1 } else { 3 });
    }
}
