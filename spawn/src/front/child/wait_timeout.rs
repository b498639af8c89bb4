//! `Child::wait_timeout`'s two ways to sleep until a deadline: in `poll` on a pidfd (woken at
//! the child's exit), or between `waitpid(WNOHANG)` checks with a doubling, capped sleep.

use std::io;
use std::os::fd::RawFd;
use std::time::{Duration, Instant};

/// The first sleep between checks; each next one doubles, up to [`MAX_SLEEP`].
const FIRST_SLEEP: Duration = Duration::from_millis(1);
/// The longest sleep between checks: how late at most an exit is noticed.
const MAX_SLEEP: Duration = Duration::from_millis(50);

/// Sleeps in `poll` until `fd` is readable (the child exited) or `deadline` passes.
pub(crate) fn poll_until(fd: RawFd, deadline: Instant) -> io::Result<()> {
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        // Rounded up, so the last poll does not wake a little early and return `None`.
        let ms = left.as_micros().div_ceil(1000);
        let ms = libc::c_int::try_from(ms).unwrap_or(libc::c_int::MAX);
        let mut p = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd.
        match unsafe { libc::poll(&mut p, 1, ms) } {
            -1 => {
                let e = io::Error::last_os_error();
                if e.kind() != io::ErrorKind::Interrupted {
                    return Err(e);
                }
            }
            0 if Instant::now() < deadline => {}
            _ => return Ok(()),
        }
    }
}

/// Calls `check` until it gives a status or `deadline` passes, sleeping in between.
pub(crate) fn backoff_until<T>(
    deadline: Instant,
    mut check: impl FnMut() -> io::Result<Option<T>>,
) -> io::Result<Option<T>> {
    let mut sleep = FIRST_SLEEP;
    loop {
        if let Some(s) = check()? {
            return Ok(Some(s));
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(None);
        }
        std::thread::sleep(sleep.min(left));
        sleep = (sleep * 2).min(MAX_SLEEP);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backoff_checks_a_bounded_number_of_times() {
        let mut checks = 0;
        let start = Instant::now();
        let r: io::Result<Option<()>> = backoff_until(start + Duration::from_millis(300), || {
            checks += 1;
            Ok(None)
        });
        assert!(r.unwrap().is_none());
        assert!(start.elapsed() >= Duration::from_millis(300));
        // 1+2+4+8+16+32 ms, then 50 ms each: about 10 checks in 300 ms, never hundreds.
        assert!((5..=20).contains(&checks), "{checks} checks");
    }

    #[test]
    fn the_backoff_returns_the_first_status() {
        let mut checks = 0;
        let r = backoff_until(Instant::now() + Duration::from_secs(5), || {
            checks += 1;
            Ok((checks == 3).then_some(7))
        });
        assert_eq!(r.unwrap(), Some(7));
    }
}
