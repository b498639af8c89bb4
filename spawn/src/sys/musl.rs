//! musl constants the `libc` crate lacks.

/// `sysconf` key added in musl 1.2.4 (include/unistd.h); earlier versions answer EINVAL.
pub const _SC_MINSIGSTKSZ: libc::c_int = 249;
