//! One resource limit the child sets (`Command::rlimit`), kept in the form the child's call
//! takes, so the child only passes a pointer.

/// A resource and its limits; on Linux the `struct rlimit64` of `prlimit64`, whose
/// "infinity" is `u64::MAX` whatever the width of `rlim_t`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rlimit {
    pub resource: libc::c_int,
    /// `[soft, hard]`, laid out as the kernel's struct.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    pub limits: [u64; 2],
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    pub limits: libc::rlimit,
}

impl Rlimit {
    pub(crate) fn new(resource: libc::c_int, soft: libc::rlim_t, hard: libc::rlim_t) -> Rlimit {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        let limits = [wide(soft), wide(hard)];
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        let limits = libc::rlimit {
            rlim_cur: soft,
            rlim_max: hard,
        };
        Rlimit { resource, limits }
    }
}

/// `rlim_t` as `prlimit64` takes it (on 32-bit targets `RLIM_INFINITY` is `u32::MAX`).
#[cfg(any(target_os = "linux", target_os = "android"))]
#[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
fn wide(v: libc::rlim_t) -> u64 {
    if v == libc::RLIM_INFINITY {
        u64::MAX
    } else {
        u64::from(v)
    }
}
