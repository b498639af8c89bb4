//! Kernel and sandbox profiles to run the spawn code under (Linux): seccomp filters like the
//! ones container runtimes install, so that `Auto`'s fallbacks and every forced strategy's
//! `Unsupported` answer are tested where they matter.
//!
//! | profile | filter | what it stands for |
//! |---|---|---|
//! | `clone3-enosys` | `clone3` → `ENOSYS` | kernels before 5.3; current Docker/podman profiles |
//! | `clone3-eperm` | `clone3` → `EPERM` | older Docker/containerd and RHEL 8 profiles (moby/moby#42680) |
//! | `no-clone-vm` | `clone3` → `ENOSYS`, `clone` with `CLONE_VM` but not `CLONE_THREAD` → `EPERM` | a sandbox that allows threads and fork-like process creation only |
//! | `nproc-reached` | no filter: `RLIMIT_NPROC` at 1, as user `nobody` when root (root is exempt) | a user at its process limit: every strategy must fail with `EAGAIN`, none may answer `Unsupported` |
//! | `valgrind` | no filter: the observer runs under `valgrind -q` | a tool that runs `CLONE_VM|CLONE_VFORK` as a plain fork (and answers clone3 with `ENOSYS`): an error written to shared memory is lost, so the `CLONE_VM` strategies (and a `posix_spawn` that reports through shared memory) must be refused |
//! | `qemu-user` | no filter: the observer runs under `qemu-<host arch>-static` | the same fork emulation in qemu's linux-user `do_fork` (binfmt runners, multi-arch container builds) |
//!
//! The last two are environments, not filters: [`Profile::wrapper`] names the tool that runs
//! the observer, and [`record`] leaves a profile's row out (saying so) when its tool is not
//! installed; nothing is recorded that did not run.
//!
//! A filter stays on across `execve` (with `no_new_privs`), so `spawnmatrix sandbox PROFILE --
//! CMD` runs a whole test binary under it. Under `clone3-eperm`, glibc >= 2.34 cannot create
//! threads either (its `pthread_create` tries clone3 and gives up on `EPERM`), so there only
//! single-threaded glibc programs, or musl ones, run. These are test profiles, not a security boundary:
//! the filter does not check the system-call architecture.

mod nproc;
mod observe;
mod seccomp;

pub use nproc::subject_to_nproc;
pub use observe::{cannot_run, installed, observe, record};

use std::fmt;
use std::io;
use std::str::FromStr;

/// One profile: a seccomp filter, or a resource limit reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// `clone3` answers `ENOSYS`.
    Clone3Enosys,
    /// `clone3` answers `EPERM`.
    Clone3Eperm,
    /// `clone3` answers `ENOSYS` and `clone` with `CLONE_VM` answers `EPERM`.
    NoCloneVm,
    /// The process limit is reached: no process can be created, by any strategy.
    NprocReached,
    /// Run under valgrind, which turns `CLONE_VM|CLONE_VFORK` into a fork.
    Valgrind,
    /// Run under qemu-user, which does the same.
    QemuUser,
}

/// Set by [`record`] for a profile run through its [`Profile::wrapper`].
const WRAPPED: &str = "SPAWNMATRIX_SANDBOX_WRAPPED";

impl Profile {
    /// Every profile.
    pub const ALL: [Profile; 6] = [
        Profile::Clone3Enosys,
        Profile::Clone3Eperm,
        Profile::NoCloneVm,
        Profile::NprocReached,
        Profile::Valgrind,
        Profile::QemuUser,
    ];

    /// The profile's name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Clone3Enosys => "clone3-enosys",
            Profile::Clone3Eperm => "clone3-eperm",
            Profile::NoCloneVm => "no-clone-vm",
            Profile::NprocReached => "nproc-reached",
            Profile::Valgrind => "valgrind",
            Profile::QemuUser => "qemu-user",
        }
    }

    /// The tool (and its arguments) the observer must run under, for the profiles that are
    /// environments rather than filters.
    pub fn wrapper(self) -> Option<Vec<String>> {
        match self {
            Profile::Valgrind => Some(vec!["valgrind".into(), "-q".into()]),
            Profile::QemuUser => Some(vec![format!("qemu-{}-static", std::env::consts::ARCH)]),
            _ => None,
        }
    }

    /// Installs the profile on every thread of this process (and so on every process it
    /// creates from now on). Irreversible.
    pub fn apply(self) -> io::Result<()> {
        let rules: &[seccomp::Rule] = match self {
            Profile::NprocReached => return nproc::reach(),
            Profile::Valgrind | Profile::QemuUser => return self.check_wrapped(),
            Profile::Clone3Enosys => &[seccomp::Rule::refuse(libc::SYS_clone3, libc::ENOSYS)],
            Profile::Clone3Eperm => &[seccomp::Rule::refuse(libc::SYS_clone3, libc::EPERM)],
            Profile::NoCloneVm => &[
                seccomp::Rule::refuse(libc::SYS_clone3, libc::ENOSYS),
                // Threads stay possible (glibc's pthread_create falls back to clone).
                seccomp::Rule::refuse_with_flag(
                    libc::SYS_clone,
                    libc::CLONE_VM as u32,
                    libc::CLONE_THREAD as u32,
                    libc::EPERM,
                ),
            ],
        };
        seccomp::install(rules)
    }
}

impl Profile {
    /// An environment profile cannot be installed: it holds only in a process its wrapper
    /// runs, which [`record`] marks.
    fn check_wrapped(self) -> io::Result<()> {
        if std::env::var(WRAPPED).as_deref() == Ok(self.name()) {
            return Ok(());
        }
        let tool = self.wrapper().unwrap_or_default().join(" ");
        Err(io::Error::other(format!(
            "{self} is an environment, not a filter: it is recorded by running `{tool} spawnmatrix sandbox {self} --observe` (sandbox::record does)"
        )))
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A profile name that is not one of [`Profile::name`]'s.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("unknown sandbox profile {0:?} (known: clone3-enosys, clone3-eperm, no-clone-vm, nproc-reached, valgrind, qemu-user)")]
pub struct ParseProfileError(pub String);

impl FromStr for Profile {
    type Err = ParseProfileError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Profile::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| ParseProfileError(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("clone3-enosys", Some(Profile::Clone3Enosys))]
    #[case("clone3-eperm", Some(Profile::Clone3Eperm))]
    #[case("no-clone-vm", Some(Profile::NoCloneVm))]
    #[case("nproc-reached", Some(Profile::NprocReached))]
    #[case("valgrind", Some(Profile::Valgrind))]
    #[case("qemu-user", Some(Profile::QemuUser))]
    #[case("nproc", None)]
    fn names_round_trip(#[case] name: &str, #[case] p: Option<Profile>) {
        assert_eq!(name.parse::<Profile>().ok(), p);
        if let Some(p) = p {
            assert_eq!(p.name(), name);
        }
    }
}
