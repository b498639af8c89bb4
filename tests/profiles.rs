//! The spawn code under kernel and sandbox profiles (Linux): seccomp filters that refuse
//! `clone3` (`ENOSYS`, `EPERM`) or `CLONE_VM`, and `RLIMIT_NPROC` reached. Under each, `Auto`
//! must keep working whenever any strategy can, every forced strategy must either work or
//! answer `Unsupported` (and `Strategy::is_available` must say which), and a spawn that
//! cannot happen at all must be an error that leaves nothing behind.
//!
//! Each test installs its profile in a re-executed copy of this binary (`subprocess`), since
//! a filter or a lowered limit cannot be taken back. `ci/checks/` also runs the whole spawn
//! suite under each filter with `spawnmatrix sandbox`.

#![cfg(target_os = "linux")]

#[path = "profiles/nproc.rs"]
mod nproc;
#[path = "profiles/recorded.rs"]
mod recorded;
#[path = "reliability/rlimit.rs"]
mod rlimit;
#[path = "profiles/seccomp.rs"]
mod seccomp;
#[path = "support/trampoline.rs"]
mod trampoline;
// Only `FORCEABLE` is used here.
#[allow(dead_code)]
#[path = "reliability/strategies.rs"]
mod strategies;
#[path = "reliability/subprocess.rs"]
mod subprocess;
