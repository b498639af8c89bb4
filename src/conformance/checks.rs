//! Comparing what the helper reported (and what the parent sees afterwards) with a case's
//! `expect.child`. Every checked value becomes a named fact; every mismatch a failure.

use std::collections::BTreeMap;
use std::os::fd::RawFd;
use std::os::unix::fs::{MetadataExt, PermissionsExt};

use serde_json::{json, Value};

use super::case::{ChildChecks, FdCheck, IdRel, KernelChecks};
use super::plan::arg_bytes;
use super::template::Vars;
use super::{names, sys};
use crate::child::{Access, ChildState, KernelSignals};

/// Facts observed and the checks that failed.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Findings {
    pub facts: BTreeMap<String, Value>,
    pub failures: Vec<String>,
}

impl Findings {
    fn record(&mut self, name: String, observed: Value, ok: bool, wanted: impl std::fmt::Display) {
        if !ok {
            self.failures
                .push(format!("{name}: observed {observed}, expected {wanted}"));
        }
        self.facts.insert(name, observed);
    }

    pub fn merge(&mut self, other: Findings) {
        self.facts.extend(other.facts);
        self.failures.extend(other.failures);
    }
}

/// The runner's side of a comparison.
pub struct Ctx<'a> {
    pub vars: &'a Vars,
    /// The argv handed to the spawn call, to compare with what the child saw.
    pub passed_argv: &'a [Vec<u8>],
    /// Whether the child must see exactly `passed_argv` (the image is the helper itself).
    pub argv_as_passed: bool,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Each element in hex, with this run's temporary paths put back as `${tmp}` and `${helper}`
/// (in text elements), so the fact is the same in every run.
fn portable_hex(elements: &[Vec<u8>], vars: &Vars) -> Vec<String> {
    elements
        .iter()
        .map(|e| match std::str::from_utf8(e) {
            Ok(text) => hex(vars.unexpand(text).as_bytes()),
            Err(_) => hex(e),
        })
        .collect()
}

/// Device and inode of `fd` in this process.
fn fd_identity(fd: RawFd) -> Option<(u64, u64)> {
    // SAFETY: fstat fills a plain struct.
    unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        (libc::fstat(fd, &mut st) == 0).then_some((st.st_dev as u64, st.st_ino as u64))
    }
}

/// Checks on the helper's report.
pub fn child(checks: &ChildChecks, state: &ChildState, ctx: &Ctx) -> Findings {
    let mut f = Findings::default();
    let vars = ctx.vars;
    if !state.errors.is_empty() {
        f.failures
            .push(format!("the helper reported errors: {:?}", state.errors));
    }
    let argv: Vec<String> = state.argv_hex.clone();
    if let Some(want) = &checks.argv {
        let want: Vec<String> = want
            .iter()
            .map(|a| arg_bytes(a, vars).map(|b| hex(&b)).unwrap_or_default())
            .collect();
        let ok = argv == want;
        let seen = portable_hex(&state.argv_bytes(), vars);
        f.record("argv_hex".into(), json!(seen), ok, json!(want));
    } else if ctx.argv_as_passed {
        let want: Vec<String> = ctx.passed_argv.iter().map(|a| hex(a)).collect();
        let ok = argv == want;
        // Not a reported fact: it holds one run's temporary paths.
        if !ok {
            f.failures
                .push(format!("argv: observed {argv:?}, passed {want:?} (hex)"));
        }
    }
    if let Some(cwd) = &checks.cwd {
        let want = std::fs::canonicalize(vars.expand(cwd))
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| vars.expand(cwd));
        let seen = state.cwd.clone().unwrap_or_default();
        let ok = seen == want;
        f.record("cwd".into(), json!(vars.unexpand(&seen)), ok, cwd);
    }
    for check in &checks.fds {
        fd_check(&mut f, check, state, vars);
    }
    for n in &checks.record_fds {
        let seen = state.fd(*n).map(|info| info.cloexec);
        let value = match seen {
            None => json!("closed"),
            Some(true) => json!("open, close-on-exec"),
            Some(false) => json!("open"),
        };
        f.facts.insert(format!("fd {n}"), value);
    }
    if let Some(want) = &checks.fds_exact {
        let seen: Vec<i32> = state.fds.iter().map(|d| d.fd).collect();
        let ok = &seen == want;
        f.record("fds".into(), json!(seen), ok, json!(want));
    }
    if let Some(want) = &checks.env {
        let want: Vec<String> = want
            .iter()
            .map(|a| arg_bytes(a, vars).map(|b| hex(&b)).unwrap_or_default())
            .collect();
        let ok = state.env_hex == want;
        let seen = portable_hex(&state.env_bytes(), vars);
        f.record("env_hex".into(), json!(seen), ok, json!(want));
    }
    for entry in &checks.env_has {
        let entry = vars.expand(entry);
        let ok = state.env.contains(&entry);
        f.record(
            format!("env has {}", vars.unexpand(&entry)),
            json!(ok),
            ok,
            true,
        );
    }
    for name in &checks.env_lacks {
        let ok = state.env_var(name).is_none();
        f.record(format!("env lacks {name}"), json!(ok), ok, true);
    }
    let exact = [
        ("sigmask", &checks.sigmask, &state.sigmask),
        ("handled", &checks.handled, &state.handled),
        ("pending", &checks.pending, &state.pending),
    ];
    for (name, want, seen) in exact {
        if let Some(want) = want {
            let ok = sorted(seen) == sorted(&canonical(want));
            f.record(name.into(), json!(seen), ok, json!(want));
        }
    }
    for sig in &checks.sigmask_has {
        let ok = state.sigmask.contains(&names::canonical_signal(sig));
        f.record(format!("{sig} blocked"), json!(ok), ok, true);
    }
    for sig in &checks.ignored_has {
        let ok = state.ignored.contains(&names::canonical_signal(sig));
        f.record(format!("{sig} ignored"), json!(ok), ok, true);
    }
    for sig in &checks.ignored_lacks {
        let ok = !state.ignored.contains(&names::canonical_signal(sig));
        f.record(format!("{sig} ignored"), json!(!ok), ok, false);
    }
    if let (Some(want), Some(seen)) = (&checks.kernel, &state.kernel_signals) {
        kernel_check(&mut f, want, seen);
    }
    id_check(
        &mut f,
        "pgid",
        checks.pgid,
        state.pgid,
        state.pid,
        parent_pgid(),
    );
    // SAFETY: getsid(0) only queries.
    id_check(&mut f, "sid", checks.sid, state.sid, state.pid, unsafe {
        libc::getsid(0)
    });
    if let Some(want) = checks.euid {
        f.record("euid".into(), json!(state.euid), state.euid == want, want);
    }
    if let Some(want) = checks.egid {
        f.record("egid".into(), json!(state.egid), state.egid == want, want);
    }
    if let Some(want) = &checks.sched_policy {
        let seen = state.sched.as_ref().map(|s| s.policy.clone());
        let ok = seen.as_deref() == Some(want.as_str());
        f.record("sched_policy".into(), json!(seen), ok, want);
    }
    for (fd, want) in &checks.reads {
        let seen = state.reads.get(fd);
        let ok = seen == Some(want);
        f.record(format!("read fd {fd}"), json!(seen), ok, json!(want));
    }
    for (fd, want) in &checks.writes {
        let seen = state.writes.get(fd);
        let ok = seen == Some(want);
        f.record(format!("write fd {fd}"), json!(seen), ok, want);
    }
    f
}

/// What holds for every child: it is the process the spawn returned, and the runner's child.
pub fn identity(state: &ChildState, returned_pid: Option<i32>) -> Findings {
    let mut f = Findings::default();
    if let Some(pid) = returned_pid {
        if state.pid != pid {
            f.failures.push(format!(
                "the child reports pid {}, the spawn returned {pid}",
                state.pid
            ));
        }
    }
    // SAFETY: getpid only queries.
    let me = unsafe { libc::getpid() };
    if state.ppid != me {
        f.failures.push(format!(
            "the child's parent is {}, not the spawning process {me}",
            state.ppid
        ));
    }
    f
}

fn parent_pgid() -> i32 {
    // SAFETY: getpgrp only queries.
    unsafe { libc::getpgrp() }
}

fn id_check(f: &mut Findings, name: &str, rel: Option<IdRel>, seen: i32, pid: i32, parent: i32) {
    let (want, label) = match rel {
        None => return,
        Some(IdRel::Pid) => (pid, "the child's pid"),
        Some(IdRel::Parent) => (parent, "the parent's"),
    };
    let relation = if seen == pid {
        "pid"
    } else if seen == parent {
        "parent"
    } else {
        "other"
    };
    f.record(format!("{name} is"), json!(relation), seen == want, label);
}

fn sorted(list: &[String]) -> Vec<String> {
    let mut v = list.to_vec();
    v.sort();
    v
}

/// The names a helper report uses for a case's list (`SIGRTMIN` becomes `SIG34` on glibc).
fn canonical(list: &[String]) -> Vec<String> {
    list.iter().map(|s| names::canonical_signal(s)).collect()
}

fn signal_names(numbers: &[i32]) -> Vec<String> {
    numbers.iter().map(|&n| names::signal_name(n)).collect()
}

/// The kernel's sets, compared exactly over the signals an application can name here; the
/// numbers the libc keeps for itself are facts of their own (`kernel ignored, libc-reserved`),
/// recorded for every set, since only the kernel shows them.
fn kernel_check(f: &mut Findings, want: &KernelChecks, seen: &KernelSignals) {
    let reserved = sys::libc_reserved_signals();
    let sets = [
        ("ignored", &want.ignored, &seen.ignored),
        ("caught", &want.caught, &seen.caught),
        ("blocked", &want.blocked, &seen.blocked),
        ("pending", &want.pending, &seen.pending),
    ];
    for (name, want, seen) in sets {
        let (hidden, visible): (Vec<i32>, Vec<i32>) =
            seen.iter().partition(|n| reserved.contains(n));
        f.facts.insert(
            format!("kernel {name}, libc-reserved"),
            json!(signal_names(&hidden)),
        );
        let Some(want) = want else { continue };
        let mut wanted: Vec<i32> = want.iter().filter_map(|s| names::signal(s)).collect();
        wanted.sort_unstable();
        let mut visible = visible;
        visible.sort_unstable();
        f.record(
            format!("kernel {name}"),
            json!(signal_names(&visible)),
            visible == wanted,
            json!(want),
        );
    }
}

fn fd_check(f: &mut Findings, check: &FdCheck, state: &ChildState, vars: &Vars) {
    let n = check.fd;
    let info = state.fd(n);
    f.record(
        format!("fd {n} open"),
        json!(info.is_some()),
        info.is_some() == check.open,
        check.open,
    );
    let Some(info) = info else { return };
    if let Some(want) = check.cloexec {
        f.record(
            format!("fd {n} cloexec"),
            json!(info.cloexec),
            info.cloexec == want,
            want,
        );
    }
    if let Some(want) = &check.access {
        let seen = match info.access {
            Access::Read => "r",
            Access::Write => "w",
            Access::ReadWrite => "rw",
        };
        f.record(format!("fd {n} access"), json!(seen), seen == want, want);
    }
    if let Some(want) = check.append {
        f.record(
            format!("fd {n} append"),
            json!(info.append),
            info.append == want,
            want,
        );
    }
    if let Some(want) = check.offset {
        f.record(
            format!("fd {n} offset"),
            json!(info.offset),
            info.offset == Some(want),
            want,
        );
    }
    if let Some(path) = &check.same_file {
        let meta = std::fs::metadata(vars.expand(path));
        let ok = meta.is_ok_and(|m| (m.dev(), m.ino()) == (info.dev, info.ino));
        f.record(format!("fd {n} is {path}"), json!(ok), ok, true);
    }
    if let Some(parent_fd) = check.same_as_parent_fd {
        let ok = fd_identity(parent_fd) == Some((info.dev, info.ino));
        f.record(
            format!("fd {n} is the parent's fd {parent_fd}"),
            json!(ok),
            ok,
            true,
        );
    }
}

/// Checks made in the parent after the child exited: files, offsets, pipe contents.
/// `close_peer` closes the runner's copy of a pipe's write end so its reader sees EOF.
pub fn parent(checks: &ChildChecks, vars: &Vars, mut close_peer: impl FnMut(RawFd)) -> Findings {
    let mut f = Findings::default();
    for file in &checks.files {
        let path = vars.expand(&file.path);
        let meta = std::fs::symlink_metadata(&path);
        let exists = meta.is_ok();
        f.record(
            format!("{} exists", file.path),
            json!(exists),
            exists == file.exists,
            file.exists,
        );
        if let (Some(want), true) = (&file.content, exists) {
            let seen = std::fs::read_to_string(&path).unwrap_or_default();
            let ok = &seen == want;
            f.record(
                format!("{} content", file.path),
                json!(seen),
                ok,
                json!(want),
            );
        }
        if let (Some(want), Ok(meta)) = (file.mode, &meta) {
            let seen = meta.permissions().mode() & 0o7777;
            f.record(
                format!("{} mode", file.path),
                json!(format!("{seen:o}")),
                seen == want,
                format!("{want:o}"),
            );
        }
    }
    for (fd, want) in &checks.parent_offsets {
        // SAFETY: lseek with SEEK_CUR only queries.
        let seen = unsafe { libc::lseek(*fd, 0, libc::SEEK_CUR) } as i64;
        f.record(
            format!("parent fd {fd} offset"),
            json!(seen),
            seen == *want,
            want,
        );
    }
    for (fd, want) in &checks.pipe_reads {
        let seen = read_pipe(*fd, &mut close_peer);
        let ok = seen.as_deref() == Ok(want.as_str());
        f.record(
            format!("pipe fd {fd} read"),
            json!(seen.unwrap_or_else(|e| e)),
            ok,
            json!(want),
        );
    }
    f
}

/// Reads the pipe at `fd` to end of file (at most 2 s), after closing every other write end
/// the runner holds (the caller's `close_peer` knows which).
fn read_pipe(fd: RawFd, close_peer: &mut impl FnMut(RawFd)) -> Result<String, String> {
    close_peer(fd);
    let mut out = Vec::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
    loop {
        let mut pfd = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd.
        let ready = unsafe { libc::poll(&mut pfd, 1, 100) };
        if ready < 0 {
            return Err(format!("poll: {}", std::io::Error::last_os_error()));
        }
        if ready == 1 {
            let mut buf = [0u8; 4096];
            // SAFETY: reading into a local buffer of that size.
            let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
            match n {
                0 => return Ok(String::from_utf8_lossy(&out).into_owned()),
                n if n > 0 => out.extend_from_slice(&buf[..n as usize]),
                _ => return Err(format!("read: {}", std::io::Error::last_os_error())),
            }
        }
        if std::time::Instant::now() > deadline {
            return Err(format!(
                "no end of file within 2 s after {:?}",
                String::from_utf8_lossy(&out)
            ));
        }
    }
}

#[cfg(test)]
mod tests;
