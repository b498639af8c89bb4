//! Runs a prepared spawn with the requested strategy, or picks one for `Auto`.

use std::io;

use super::clone_backend;
use super::error::UnsupportedError;
use super::fork;
use super::plan::Prepared;
use super::posix;
use super::strategy::Strategy;

/// Spawns; returns the child's pid and the strategy that made it.
pub(super) fn spawn(requested: Strategy, p: &mut Prepared) -> io::Result<(libc::pid_t, Strategy)> {
    if let Some(what) = p.needs_fork() {
        return match requested {
            Strategy::Auto | Strategy::Fork => Ok((fork::spawn(p)?, Strategy::Fork)),
            _ => Err(unsupported(requested, what)),
        };
    }
    let pid = match requested {
        Strategy::Auto => return auto(p),
        Strategy::PosixSpawn => posix::spawn(p)?,
        Strategy::Clone3 => match clone_backend::clone3(p)? {
            Some(pid) => pid,
            None => return Err(unsupported(requested, "run: the kernel refuses clone3")),
        },
        Strategy::CloneVfork => clone_backend::clone_vfork(p)?,
        Strategy::Vfork => return Err(unsupported(requested, "be used soundly from Rust")),
        Strategy::Fork => fork::spawn(p)?,
    };
    Ok((pid, requested))
}

/// On Linux: clone3 if the kernel has it, else clone_vfork. Elsewhere: posix_spawn if it can
/// express the request, else fork.
fn auto(p: &mut Prepared) -> io::Result<(libc::pid_t, Strategy)> {
    if clone_backend::clone_vfork_supported() {
        if clone_backend::clone3_maybe_supported() {
            if let Some(pid) = clone_backend::clone3(p)? {
                return Ok((pid, Strategy::Clone3));
            }
        }
        return Ok((clone_backend::clone_vfork(p)?, Strategy::CloneVfork));
    }
    if posix::cannot_express(p).is_none() {
        return Ok((posix::spawn(p)?, Strategy::PosixSpawn));
    }
    Ok((fork::spawn(p)?, Strategy::Fork))
}

/// The error for a forced strategy that cannot do `what`.
pub(super) fn unsupported(strategy: Strategy, what: &'static str) -> io::Error {
    UnsupportedError {
        strategy: strategy.name(),
        what,
    }
    .into()
}
