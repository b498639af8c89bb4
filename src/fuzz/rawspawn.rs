//! The `libc` executor: the sequence as real `posix_spawn` file actions and attributes.

use std::io;

use super::command::{sigset, ChildCommand};
use super::fixture::Fixture;
use super::model::{Action, Attrs, OpenMode, Pgroup, Sequence, CREATE_MODE};
use super::outcome::Outcome;
use super::sys::Extensions;
use crate::sys::spawn_objects::{FileActions, SpawnAttr};

/// Why a spawn attempt stopped before a child existed.
enum Stop {
    /// This harness could not prepare the call.
    Harness(io::Error),
    /// The libc (or its absence) decided the outcome.
    Libc(Outcome),
}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Stop {
        Stop::Harness(e)
    }
}

fn add(rc: libc::c_int) -> Result<(), Stop> {
    if rc == 0 {
        Ok(())
    } else {
        Err(Stop::Libc(Outcome::add(rc)))
    }
}

fn add_actions(
    fa: &mut FileActions,
    seq: &Sequence,
    fx: &Fixture,
    ext: &Extensions,
) -> Result<(), Stop> {
    for action in &seq.actions {
        // SAFETY (all arms): fa is initialised; paths are NUL-terminated and copied by the libc.
        let rc = unsafe {
            match action {
                Action::Open {
                    fd,
                    path,
                    mode,
                    cloexec,
                } => {
                    let p = fx.resolve_c(path)?;
                    let flags = open_flags(*mode, *cloexec);
                    libc::posix_spawn_file_actions_addopen(
                        fa.as_mut_ptr(),
                        *fd,
                        p.as_ptr(),
                        flags,
                        CREATE_MODE,
                    )
                }
                Action::Close { fd } => {
                    libc::posix_spawn_file_actions_addclose(fa.as_mut_ptr(), *fd)
                }
                Action::Dup2 { from, to } => {
                    libc::posix_spawn_file_actions_adddup2(fa.as_mut_ptr(), *from, *to)
                }
                Action::Chdir { path } => match ext.addchdir {
                    Some(f) => f(fa.as_mut_ptr(), fx.resolve_c(path)?.as_ptr()),
                    None => return Err(unsupported("posix_spawn_file_actions_addchdir_np")),
                },
                Action::Fchdir { fd } => match ext.addfchdir {
                    Some(f) => f(fa.as_mut_ptr(), *fd),
                    None => return Err(unsupported("posix_spawn_file_actions_addfchdir_np")),
                },
                Action::Closefrom { low } => match ext.addclosefrom {
                    Some(f) => f(fa.as_mut_ptr(), *low),
                    None => return Err(unsupported("posix_spawn_file_actions_addclosefrom_np")),
                },
            }
        };
        add(rc)?;
    }
    Ok(())
}

fn unsupported(what: &str) -> Stop {
    Stop::Libc(Outcome::Unsupported(format!("{what} is not available")))
}

/// `open(2)` flags for a mode, with `O_CLOEXEC` when asked.
pub fn open_flags(mode: OpenMode, cloexec: bool) -> libc::c_int {
    mode.flags() | if cloexec { libc::O_CLOEXEC } else { 0 }
}

/// The pgid `POSIX_SPAWN_SETPGROUP` gets for a [`Pgroup`].
pub fn pgroup_id(p: Pgroup) -> libc::pid_t {
    match p {
        Pgroup::New => 0,
        // SAFETY: getpgrp cannot fail.
        Pgroup::Parent => unsafe { libc::getpgrp() },
        Pgroup::Foreign => 1,
    }
}

fn set_attrs(attr: &mut SpawnAttr, attrs: &Attrs, ext: &Extensions) -> Result<(), Stop> {
    let mut flags: libc::c_short = 0;
    // SAFETY (all blocks): attr is initialised; the sets are initialised by sigset().
    if let Some(sigs) = &attrs.sigmask {
        flags |= libc::POSIX_SPAWN_SETSIGMASK as libc::c_short;
        let set = sigset(sigs)?;
        add(unsafe { libc::posix_spawnattr_setsigmask(attr.as_mut_ptr(), &set) })?;
    }
    if let Some(sigs) = &attrs.sigdefault {
        flags |= libc::POSIX_SPAWN_SETSIGDEF as libc::c_short;
        let set = sigset(sigs)?;
        add(unsafe { libc::posix_spawnattr_setsigdefault(attr.as_mut_ptr(), &set) })?;
    }
    if let Some(p) = attrs.pgroup {
        flags |= libc::POSIX_SPAWN_SETPGROUP as libc::c_short;
        add(unsafe { libc::posix_spawnattr_setpgroup(attr.as_mut_ptr(), pgroup_id(p)) })?;
    }
    if attrs.setsid {
        match ext.setsid_flag {
            Some(f) => flags |= f,
            None => return Err(unsupported("POSIX_SPAWN_SETSID")),
        }
    }
    add(unsafe { libc::posix_spawnattr_setflags(attr.as_mut_ptr(), flags) })
}

/// Starts the child through `posix_spawn`; returns its pid, or the outcome that ended the
/// attempt before a child existed. `Err` means this harness could not prepare the call.
pub fn spawn(
    seq: &Sequence,
    fx: &Fixture,
    ext: &Extensions,
    cmd: &ChildCommand,
) -> io::Result<Result<libc::pid_t, Outcome>> {
    match try_spawn(seq, fx, ext, cmd) {
        Ok(pid) => Ok(Ok(pid)),
        Err(Stop::Libc(o)) => Ok(Err(o)),
        Err(Stop::Harness(e)) => Err(e),
    }
}

fn try_spawn(
    seq: &Sequence,
    fx: &Fixture,
    ext: &Extensions,
    cmd: &ChildCommand,
) -> Result<libc::pid_t, Stop> {
    let mut fa = FileActions::new()?;
    add_actions(&mut fa, seq, fx, ext)?;
    let mut attr = SpawnAttr::new()?;
    set_attrs(&mut attr, &seq.attrs, ext)?;
    let mut pid: libc::pid_t = -1;
    // SAFETY: every pointer is valid for the duration of the call.
    let rc = unsafe {
        libc::posix_spawn(
            &mut pid,
            cmd.program().as_ptr(),
            fa.as_mut_ptr(),
            attr.as_mut_ptr(),
            // posix_spawn's prototype says `char *const[]`; it does not write through them.
            cmd.argv().cast(),
            cmd.envp().cast(),
        )
    };
    if rc != 0 {
        return Err(Stop::Libc(Outcome::returned(rc)));
    }
    Ok(pid)
}
