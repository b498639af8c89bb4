//! `Command::retry_etxtbsy`: a spawn failing with `ETXTBSY` tried again after a short,
//! doubling, capped sleep.

use std::io;
use std::time::Duration;

/// The sleep before the first retry; each next one doubles, up to [`MAX_DELAY`].
const FIRST_DELAY: Duration = Duration::from_millis(1);
/// The longest single sleep.
const MAX_DELAY: Duration = Duration::from_millis(100);

/// The sleep before retry number `n` (0 = the first retry).
fn delay(n: u32) -> Duration {
    FIRST_DELAY
        .checked_mul(1u32.checked_shl(n).unwrap_or(u32::MAX))
        .map_or(MAX_DELAY, |d| d.min(MAX_DELAY))
}

/// Runs `attempt` until it succeeds, fails with anything but `ETXTBSY`, or has been retried
/// `retries` times.
pub(crate) fn spawn<T>(retries: u32, mut attempt: impl FnMut() -> io::Result<T>) -> io::Result<T> {
    let mut n = 0;
    loop {
        match attempt() {
            Err(e) if e.raw_os_error() == Some(libc::ETXTBSY) && n < retries => {
                std::thread::sleep(delay(n));
                n += 1;
            }
            r => return r,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(0, 1)]
    #[case(1, 2)]
    #[case(6, 64)]
    #[case(7, 100)]
    #[case(40, 100)]
    fn the_backoff_doubles_and_is_capped(#[case] n: u32, #[case] ms: u64) {
        assert_eq!(delay(n), Duration::from_millis(ms));
    }

    #[rstest]
    #[case::no_retry(0, 1)]
    #[case::three(3, 4)]
    fn etxtbsy_is_tried_exactly_retries_more_times(#[case] retries: u32, #[case] calls: u32) {
        let mut n = 0;
        let r: io::Result<()> = spawn(retries, || {
            n += 1;
            Err(io::Error::from_raw_os_error(libc::ETXTBSY))
        });
        assert_eq!(r.unwrap_err().raw_os_error(), Some(libc::ETXTBSY));
        assert_eq!(n, calls);
    }

    #[test]
    fn other_errors_are_not_retried() {
        let mut n = 0;
        let r: io::Result<()> = spawn(5, || {
            n += 1;
            Err(io::Error::from_raw_os_error(libc::ENOENT))
        });
        assert!(r.is_err());
        assert_eq!(n, 1);
    }
}
