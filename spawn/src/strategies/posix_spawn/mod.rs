//! The `posix_spawn` strategy: the request as file actions and attributes.
//!
//! Fd mappings use the same plan as the other strategies: a source that is also a target is
//! first copied in the parent, close-on-exec, above every fd the plan names, and mapped from
//! that copy. So no action depends on how a libc treats `dup2(fd, fd)` or `addclose`, and no
//! action touches an fd the plan does not name. The program candidates are tried one `posix_spawn` each,
//! with the `execvp` rule, so the search is the same as elsewhere (and `posix_spawnp`'s
//! `/bin/sh` retry on some platforms never happens); a candidate the parent sees is missing
//! costs no process (`prefilter`).

mod actions;
mod attr;
mod closing;
mod prefilter;
mod probe;

use std::ffi::{c_char, CString};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

use actions::FileActions;
use attr::Attr;

use super::{unsupported, Spawned};
use crate::plan::fdplan::copy_above;
use crate::platform;
use crate::platform::pidfd;
use crate::plan::{absolute_in, Prepared};
use crate::child_side::search::{Next, SearchState};
use crate::plan::sigs;
use crate::request::Strategy;
use crate::sys::spawn_ext;

pub(crate) use probe::works;

/// Whether this libc's `posix_spawn` returns a failed `execve`'s errno (glibc before 2.24
/// starts a child that exits 127 instead, which this crate never reports as success).
pub(crate) fn reports_exec_errors() -> bool {
    !crate::platform::glibc_version::older_than(2, 24)
}

/// Why `posix_spawn` cannot express this request here, if it cannot.
pub(crate) fn cannot_express(p: &Prepared) -> Option<&'static str> {
    if !reports_exec_errors() {
        return Some("report exec errors (glibc before 2.24 exits the child with 127)");
    }
    if p.cwd_path.is_some() && spawn_ext::addchdir().is_none() {
        return Some("change directory (no posix_spawn_file_actions_addchdir in this libc)");
    }
    if p.cwd_fd.is_some() && spawn_ext::addfchdir().is_none() {
        return Some("change directory by fd (no posix_spawn_file_actions_addfchdir in this libc)");
    }
    if p.cwd_fd.is_some() && !platform::POSIX_SPAWN_RELATIVE_AFTER_CHDIR && p.relative_after_chdir() {
        return Some("resolve a relative program path after an fchdir");
    }
    if p.setsid && setsid_flag().is_none() {
        return Some("start a new session (no POSIX_SPAWN_SETSID)");
    }
    if !p.rlimits.is_empty() {
        return Some("set resource limits (posix_spawn has no rlimit attribute)");
    }
    if p.umask.is_some() {
        return Some("set the umask (posix_spawn has no umask attribute)");
    }
    if p.pdeathsig.is_some() {
        return Some("set a parent-death signal (posix_spawn has no attribute for it)");
    }
    if p.no_new_privs {
        return Some("set no_new_privs (posix_spawn has no attribute for it)");
    }
    if p.kill_on_parent_death.is_some() {
        return Some("kill the child when its parent dies (posix_spawn has no attribute for it)");
    }
    if p.ctty.is_some() {
        return Some("set a controlling terminal (posix_spawn has no TIOCSCTTY action)");
    }
    if p.foreground.is_some() && spawn_ext::addtcsetpgrp().is_none() {
        return Some("set the foreground process group (no posix_spawn_file_actions_addtcsetpgrp_np)");
    }
    if p.close.is_some() && closing::closer().is_none() {
        return Some(
            "close other fds (no posix_spawn_file_actions_addclosefrom_np, no POSIX_SPAWN_CLOEXEC_DEFAULT)",
        );
    }
    None
}

/// Whether a pidfd can be taken in the spawn itself (glibc 2.39's `pidfd_spawn`).
pub(crate) fn takes_pidfd_atomically() -> bool {
    spawn_ext::pidfd_spawn().is_some()
}

/// Spawns with `posix_spawn`, or with `pidfd_spawn` when a pidfd is wanted and the libc has
/// it; without it a pidfd request gets the error (never a pidfd looked up by pid later).
pub(crate) fn spawn(p: &mut Prepared) -> io::Result<Spawned> {
    if let Some(what) = cannot_express(p) {
        return Err(unsupported(Strategy::PosixSpawn, what));
    }
    let (actions, _copies) = file_actions(p)?;
    let attr = attributes(p)?;
    let absolute = absolute_candidates(p)?;
    let absolute_ptrs: Option<Vec<*const c_char>> = absolute
        .as_ref()
        .map(|v| v.iter().map(|c| c.as_ptr()).collect());
    let candidates = absolute_ptrs.as_ref().unwrap_or(&p.candidates);
    let envp = p.envp.as_ptr().cast::<*mut c_char>();
    let argv = p.argv.as_ptr().cast::<*mut c_char>();
    let pidfd_spawn = spawn_ext::pidfd_spawn().filter(|_| p.want_pidfd);
    let mut search = SearchState::new();
    let child_chdirs = p.cwd_path.is_some() || p.cwd_fd.is_some();
    let chdir_fails = prefilter::chdir_certainly_fails(p.cwd_path.as_deref(), p.cwd_fd);
    for (i, &path) in candidates.iter().enumerate() {
        // Skipping is a shortcut for a miss only: the last candidate (or, when the chdir
        // will fail, the first) creates a child, so the child's own setup errors come back.
        let may_skip = chdir_fails.is_none() && i + 1 < candidates.len();
        // SAFETY: the candidates are NUL-terminated strings that live as long as `p`.
        let skip = may_skip.then(|| unsafe { prefilter::certain_failure_at(path, child_chdirs) });
        if let Some(Some(e)) = skip {
            if let Next::Stop(e) = search.after(e) {
                return Err(io::Error::from_raw_os_error(e));
            }
            continue;
        }
        #[cfg(test)]
        tests::count_spawn_call();
        let mut pid = 0;
        let mut raw_pidfd = -1;
        // SAFETY: every pointer was prepared for this call and outlives it.
        let rc = unsafe {
            match pidfd_spawn {
                Some(f) => (f.func)(
                    &mut raw_pidfd,
                    path,
                    actions.as_ptr(),
                    attr.as_ptr(),
                    argv,
                    envp,
                ),
                None => {
                    crate::sys::spawn_fns::posix_spawn(&mut pid, path, actions.as_ptr(), attr.as_ptr(), argv, envp)
                }
            }
        };
        if rc == 0 {
            return Ok(match pidfd_spawn {
                None => Spawned {
                    pid,
                    pidfd: p.want_pidfd.then(|| Err(pidfd::unsupported())),
                    autoreaped: false,
                },
                Some(_) => spawned_with_pidfd(raw_pidfd)?,
            });
        }
        if chdir_fails.is_some() {
            return Err(io::Error::from_raw_os_error(rc)); // the child's setup error
        }
        if let Next::Stop(e) = search.after(rc) {
            return Err(io::Error::from_raw_os_error(e));
        }
    }
    Err(io::Error::from_raw_os_error(search.result()))
}

/// The child `pidfd_spawn` made, its pid read from the pidfd (`pidfd_info.rs`).
fn spawned_with_pidfd(raw: libc::c_int) -> io::Result<Spawned> {
    // SAFETY: the new pidfd pidfd_spawn stored, owned by nobody else.
    let fd = unsafe { OwnedFd::from_raw_fd(raw) };
    let found = pidfd::identify(&fd);
    spawned_from(fd, found)
}

/// A started child is never a failed spawn: one already reaped (`SIGCHLD` ignored) is a
/// `Child` with no pid (0), known through its pidfd. Only one whose pid cannot be had at
/// all (no `PIDFD_GET_INFO`, no `/proc` of this pid namespace) is an error, after it has been
/// killed and reaped through the pidfd.
fn spawned_from(fd: OwnedFd, found: io::Result<pidfd::Identity>) -> io::Result<Spawned> {
    let pid = match found {
        Ok(pidfd::Identity::Pid(pid)) => pid,
        Ok(pidfd::Identity::Reaped(_)) => 0,
        Err(e) => {
            let e = io::Error::new(
                e.kind(),
                format!("pidfd_spawn started the program, but its pid cannot be read here (no PIDFD_GET_INFO, Linux 6.13, and no /proc of this pid namespace: {e}); it was killed and reaped"),
            );
            return Err(pidfd::abandon(fd, e));
        }
    };
    Ok(Spawned {
        pid,
        pidfd: Some(Ok(fd)),
        autoreaped: false,
    })
}

/// chdir/fchdir, then the fd plan.
/// The copies must stay open until `posix_spawn` has returned.
fn file_actions(p: &Prepared) -> io::Result<(FileActions, Vec<OwnedFd>)> {
    let mut fa = FileActions::new()?;
    let missing = || unsupported(Strategy::PosixSpawn, "change directory");
    if let Some(path) = &p.cwd_path {
        fa.chdir(spawn_ext::addchdir().ok_or_else(missing)?.func, path)?;
    }
    if let Some(fd) = p.cwd_fd {
        fa.fchdir(spawn_ext::addfchdir().ok_or_else(missing)?.func, fd)?;
    }
    if let Some(tty) = p.foreground {
        let f = spawn_ext::addtcsetpgrp()
            .ok_or_else(|| unsupported(Strategy::PosixSpawn, "set the foreground group"))?;
        // glibc runs it after setpgid (attributes come before every file action), as
        // `tcsetpgrp(tty, getpgrp())`: the child's own group, as the other strategies do.
        fa.tcsetpgrp(f.func, tty)?;
    }
    let mut copies = Vec::new();
    for m in &p.fds.moves {
        let src = if m.via_tmp {
            let copy = copy_above(m.src, p.fds.high)?;
            let n = copy.as_raw_fd();
            copies.push(copy);
            n
        } else {
            m.src
        };
        fa.dup2(src, m.dst)?;
    }
    if let Some(close) = &p.close {
        let stdio = closing::stdio_open(p.fds.moves.iter().map(|m| m.dst));
        closing::add_actions(&mut fa, close_fds_closer()?, close, stdio)?;
    }
    Ok((fa, copies))
}

/// How `close_fds` is done here (`cannot_express` has refused a libc without a way).
fn close_fds_closer() -> io::Result<closing::Closer> {
    closing::closer().ok_or_else(|| unsupported(Strategy::PosixSpawn, "close other fds"))
}

/// Signal defaults (always: SIGPIPE), mask, process group, session.
fn attributes(p: &Prepared) -> io::Result<Attr> {
    let mut attr = Attr::new()?;
    let mut flags = libc::POSIX_SPAWN_SETSIGDEF as libc::c_short;
    let mut defaults = sigs::set_of(&p.default_signals, "reset to SIG_DFL")?;
    // Else the libc's child would ignore its own reserved signals (32, 33 on glibc) from then
    // on: the same dispositions as every other strategy gives.
    platform::add_reserved_unless_ignored(&mut defaults);
    attr.set_sigdefault(&defaults)?;
    if let Some(mask) = &p.mask {
        attr.set_sigmask(mask)?;
        flags |= libc::POSIX_SPAWN_SETSIGMASK as libc::c_short;
    }
    if let Some(pgid) = p.pgid {
        attr.set_pgroup(pgid)?;
        flags |= libc::POSIX_SPAWN_SETPGROUP as libc::c_short;
    }
    if p.setsid {
        flags |= setsid_flag()
            .ok_or_else(|| unsupported(Strategy::PosixSpawn, "start a new session"))?;
    }
    if p.close.is_some() {
        flags |= closing::attr_flag(close_fds_closer()?);
    }
    attr.set_flags(flags)?;
    Ok(attr)
}

/// `POSIX_SPAWN_SETSID`, if this target has it.
fn setsid_flag() -> Option<libc::c_short> {
    crate::sys::flags::by_name("POSIX_SPAWN_SETSID").map(|f| f.value)
}

/// Where `posix_spawn` would resolve a relative program before its chdir action: the
/// candidates made absolute against the new directory. `None` when nothing needs it.
fn absolute_candidates(p: &Prepared) -> io::Result<Option<Vec<CString>>> {
    let Some(cwd) = &p.cwd_path else {
        return Ok(None);
    };
    if platform::POSIX_SPAWN_RELATIVE_AFTER_CHDIR || !p.relative_after_chdir() {
        return Ok(None);
    }
    p.candidate_strings
        .iter()
        .map(|c| absolute_in(cwd, c))
        .collect::<io::Result<_>>()
        .map(Some)
}

#[cfg(test)]
mod tests;
