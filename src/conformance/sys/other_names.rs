//! Platforms without extra signal or open-flag names in this suite, and without a real-time
//! signal range in the `libc` crate (a case that names one is `unsupported` there).

use libc::c_int;

pub const EXTRA_SIGNALS: &[(&str, c_int)] = &[];

pub const EXTRA_OPEN_FLAGS: &[(&str, c_int)] = &[];

pub fn realtime_signals() -> Option<(c_int, c_int)> {
    None
}
