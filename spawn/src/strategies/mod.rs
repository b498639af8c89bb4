//! The strategies: each creates a child from a prepared plan, with the same entry,
//! `fn(&mut Prepared) -> io::Result<Spawned>` (the clone ones `Ok(None)` when the kernel
//! refuses them here). This module runs the requested one, or picks one for `Auto`, and says
//! which of them this process can use.

use std::io;

use crate::plan::Prepared;
use crate::request::Strategy;

#[cfg(target_os = "linux")]
mod clone_vm;
mod fork;
mod learned;
#[cfg(not(target_os = "linux"))]
#[path = "no_clone.rs"]
mod clone_vm;
pub(crate) mod posix_spawn;
mod spawned;

pub(crate) use spawned::{unsupported, Spawned};

impl Strategy {
    /// The strategies this process can use, `Auto` first. `Clone3`, `CloneVfork` and
    /// `PosixSpawn` are checked at run time, once each (a child that exits at once, or a
    /// refusal seen by a real spawn), because kernels and seccomp filters differ; the answer
    /// is remembered, so later calls create no process.
    pub fn available() -> Vec<Strategy> {
        Strategy::ALL
            .into_iter()
            .filter(|s| s.is_available())
            .collect()
    }

    /// Whether this process can use the strategy at all (a request may still need more).
    pub fn is_available(self) -> bool {
        match self {
            Strategy::Auto | Strategy::Fork => true,
            Strategy::PosixSpawn => posix_spawn::reports_exec_errors() && posix_spawn::works(),
            Strategy::Clone3 => clone_vm::clone3_supported(),
            Strategy::CloneVfork => clone_vm::clone_vfork_supported(),
            Strategy::Vfork => false,
        }
    }
}

/// Spawns; returns the child and the strategy that made it.
pub(crate) fn spawn(requested: Strategy, p: &mut Prepared) -> io::Result<(Spawned, Strategy)> {
    if let Some(what) = p.platform_cannot() {
        return Err(unsupported(requested, what));
    }
    if let Some(what) = p.needs_clone3() {
        return match requested {
            _ if p.needs_fork().is_some() => Err(unsupported(
                requested,
                "start the child in a cgroup (clone3) and run what needs a forked child",
            )),
            Strategy::Auto | Strategy::Clone3 => only_clone3(requested, p),
            _ => Err(unsupported(requested, what)),
        };
    }
    if let Some(what) = p.needs_fork() {
        return match requested {
            Strategy::Auto | Strategy::Fork => Ok((fork::spawn(p)?, Strategy::Fork)),
            _ => Err(unsupported(requested, what)),
        };
    }
    let spawned = match requested {
        Strategy::Auto => return auto(p),
        Strategy::PosixSpawn => {
            if !posix_spawn::works() {
                return Err(unsupported(requested, REFUSED_POSIX_SPAWN));
            }
            posix_spawn::spawn(p)?
        }
        Strategy::Clone3 => {
            if let Some(why) = clone_vm::clone3_forbidden() {
                return Err(unsupported(requested, why));
            }
            match clone_vm::clone3(p)? {
                Some(spawned) => spawned,
                None => return Err(unsupported(requested, REFUSED_CLONE3)),
            }
        }
        Strategy::CloneVfork => {
            if let Some(why) = clone_vm::clone_vfork_forbidden() {
                return Err(unsupported(requested, why));
            }
            match clone_vm::clone_vfork(p)? {
                Some(spawned) => spawned,
                None => return Err(unsupported(requested, REFUSED_CLONE_VM)),
            }
        }
        Strategy::Vfork => return Err(unsupported(requested, "be used soundly from Rust")),
        Strategy::Fork => fork::spawn(p)?,
    };
    Ok((spawned, requested))
}

/// A request only clone3 can run (a cgroup): clone3, or `Unsupported` naming why not.
fn only_clone3(requested: Strategy, p: &mut Prepared) -> io::Result<(Spawned, Strategy)> {
    if let Some(why) = clone_vm::clone3_forbidden() {
        return Err(unsupported(requested, why));
    }
    match clone_vm::clone3(p)? {
        Some(spawned) => Ok((spawned, Strategy::Clone3)),
        None => Err(unsupported(requested, REFUSED_CLONE3)),
    }
}

const REFUSED_POSIX_SPAWN: &str =
    "run: the libc's posix_spawn cannot create a process or report its exec error";
const REFUSED_CLONE3: &str =
    "run: the kernel refuses clone3 here, or runs it without sharing memory (valgrind, qemu-user)";
const REFUSED_CLONE_VM: &str =
    "run: the kernel refuses CLONE_VM here, or runs it without sharing memory (valgrind, qemu-user)";

/// Which strategies may be tried, as far as is known without creating a process.
#[derive(Clone, Copy, Debug)]
struct Gates {
    clone3: bool,
    clone_vfork: bool,
    posix_spawn: bool,
}

/// The order `Auto` tries strategies in: clone3, clone_vfork, posix_spawn (when it can express
/// the request), then fork, which is always last. A strategy found refused on the way is
/// skipped, so `Auto` works whenever any strategy can.
fn auto_order(g: Gates) -> impl Iterator<Item = Strategy> {
    [
        (g.clone3, Strategy::Clone3),
        (g.clone_vfork, Strategy::CloneVfork),
        (g.posix_spawn, Strategy::PosixSpawn),
        (true, Strategy::Fork),
    ]
    .into_iter()
    .filter_map(|(open, s)| open.then_some(s))
}

/// On Linux: clone3 unless refused, else clone_vfork, else posix_spawn, else fork. Elsewhere:
/// posix_spawn if it can express the request, else fork. A pidfd request skips a `posix_spawn` that cannot take the pidfd atomically (no
/// `pidfd_spawn`): `fork` can.
fn auto(p: &mut Prepared) -> io::Result<(Spawned, Strategy)> {
    let gates = Gates {
        clone3: clone_vm::clone3_forbidden().is_none()
            && clone_vm::clone3_maybe_supported(),
        clone_vfork: clone_vm::clone_vfork_forbidden().is_none(),
        posix_spawn: posix_spawn::cannot_express(p).is_none()
            && (!p.want_pidfd || posix_spawn::takes_pidfd_atomically()),
    };
    for s in auto_order(gates) {
        let spawned = match s {
            Strategy::Clone3 => clone_vm::clone3(p)?,
            Strategy::CloneVfork => clone_vm::clone_vfork(p)?,
            Strategy::PosixSpawn if posix_spawn::works() => Some(posix_spawn::spawn(p)?),
            Strategy::PosixSpawn => None,
            _ => Some(fork::spawn(p)?),
        };
        if let Some(spawned) = spawned {
            return Ok((spawned, s));
        }
    }
    unreachable!("fork is always in auto_order and never yields None")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    /// The message adds " here" itself: no reason may say it again ("... here here"). Every
    /// reason string of the crate's sources is checked, as the message prints it.
    #[test]
    fn no_unsupported_message_says_here_twice() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = vec![src];
        let mut twice = Vec::new();
        while let Some(path) = files.pop() {
            if path.is_dir() {
                files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            // A reason is a literal passed to `unsupported(strategy, ...)` or held by a
            // `&str` const named for a refusal: each literal ending in " here".
            for (n, line) in text.lines().enumerate() {
                let reason = line.contains("unsupported(") || line.contains("REFUSED_")
                    || line.trim_start().starts_with('"');
                if reason && (line.contains(" here\")") || line.contains(" here\";")) {
                    twice.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
                }
            }
        }
        let shown = unsupported(Strategy::PosixSpawn, REFUSED_POSIX_SPAWN).to_string();
        assert!(!shown.ends_with("here here"), "{shown}");
        assert!(twice.is_empty(), "reasons ending in \"here\": {twice:#?}");
    }

    use Strategy::*;

    #[rstest]
    // Linux today.
    #[case(true, true, true, &[Clone3, CloneVfork, PosixSpawn, Fork])]
    // glibc < 2.25: clone_vfork is out, but clone3 never calls glibc's clone wrapper.
    #[case(true, false, true, &[Clone3, PosixSpawn, Fork])]
    // clone3 refused (ENOSYS/EPERM), CLONE_VM refused too, posix_spawn cannot express it.
    #[case(false, false, false, &[Fork])]
    // Not Linux.
    #[case(false, false, true, &[PosixSpawn, Fork])]
    fn auto_tries_every_open_strategy_in_order(
        #[case] clone3: bool,
        #[case] clone_vfork: bool,
        #[case] posix_spawn: bool,
        #[case] want: &[Strategy],
    ) {
        let got: Vec<Strategy> = auto_order(Gates {
            clone3,
            clone_vfork,
            posix_spawn,
        })
        .collect();
        assert_eq!(got, want);
    }
}
