//! The system calls the child makes between its creation and `execve`, each returning 0 (or
//! the new fd) or the errno.
//!
//! On Linux they are the kernel's calls themselves (`syscall(2)`): a `CLONE_VM` child runs on
//! the parent thread's TLS and TCB, and libc's wrappers for `open`, `close`, `fcntl`, ... are
//! cancellation points that read and write that TCB, and the functions an `LD_PRELOAD`
//! interposer (or a sanitizer) puts in front of them would run inside the child, sharing the
//! parent's memory. So an interposer of `open`, `close`, `chdir`, `dup2`, `execve` and the
//! like never sees this crate's children: only one of `syscall` itself would. Elsewhere the
//! child is a fork (`posix_spawn` does its own work), whose only thread may use libc.

#[cfg(any(target_os = "linux", target_os = "android"))]
mod linux;
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) use linux::*;

#[cfg(not(any(target_os = "linux", target_os = "android")))]
mod libc_calls;
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) use libc_calls::*;
