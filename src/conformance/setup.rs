//! Preparing a case's world in the runner process: files, descriptors at fixed numbers,
//! signal state, limits and identities. The runner is a fresh single-threaded process per
//! trial, so none of this can leak into another case.

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use super::case::{Builtin, PipeEnd, RunAs, Setup, Signals};
use super::names;
use super::template::Vars;

/// Temporary descriptors are parked at or above this number so that placing one at a case's
/// fixed number never clobbers another.
const PARK_AT: RawFd = 900;

/// The uid and gid of `nobody` on the platforms the suite runs on.
pub const NOBODY: u32 = 65534;

/// The descriptors a case placed; they close when this is dropped.
#[derive(Debug, Default)]
pub struct Placed {
    pub fds: Vec<OwnedFd>,
}

impl Placed {
    /// Closes the runner's copy of `fd` (so a pipe's reader sees end of file).
    pub fn close(&mut self, fd: RawFd) {
        self.fds.retain(|f| f.as_raw_fd() != fd);
    }
}

fn check(rc: libc::c_int, what: &str) -> Result<libc::c_int, String> {
    if rc < 0 {
        Err(format!("{what}: {}", io::Error::last_os_error()))
    } else {
        Ok(rc)
    }
}

/// Files, directories and symlinks under `vars.tmp`. Directory modes are applied last so a
/// mode without write permission does not stop files from being created inside.
pub fn make_files(setup: &Setup, vars: &Vars, helper: &Path) -> Result<(), String> {
    let err = |what: &str, path: &str, e: io::Error| format!("{what} {path}: {e}");
    for dir in &setup.dirs {
        let path = vars.path(&dir.path);
        std::fs::create_dir_all(&path).map_err(|e| err("creating", &path, e))?;
    }
    for file in &setup.files {
        let path = vars.path(&file.path);
        match (&file.content, file.copy, file.zeros) {
            (Some(text), None, None) => std::fs::write(&path, vars.expand(text)),
            (None, Some(Builtin::Helper), None) => std::fs::copy(helper, &path).map(|_| ()),
            (None, None, Some(n)) => std::fs::write(&path, vec![0u8; n]),
            _ => {
                return Err(format!(
                    "{}: give exactly one of content, copy, zeros",
                    file.path
                ))
            }
        }
        .map_err(|e| err("writing", &path, e))?;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(file.mode))
            .map_err(|e| err("chmod", &path, e))?;
    }
    for link in &setup.symlinks {
        let path = vars.path(&link.path);
        std::os::unix::fs::symlink(vars.expand(&link.target), &path)
            .map_err(|e| err("symlink", &path, e))?;
    }
    for dir in setup.dirs.iter().rev() {
        let path = vars.path(&dir.path);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(dir.mode))
            .map_err(|e| err("chmod", &path, e))?;
    }
    Ok(())
}

/// Opens every setup descriptor and moves it to its number, with its close-on-exec flag and
/// offset. Pipe peers are kept close-on-exec.
pub fn place_fds(setup: &Setup, vars: &Vars) -> Result<Placed, String> {
    let mut parked: Vec<(OwnedFd, RawFd, bool, Option<i64>)> = Vec::new();
    for spec in &setup.fds {
        if let Some(open) = &spec.open {
            let path = CString::new(vars.path(&open.path)).map_err(|e| e.to_string())?;
            let flags = names::open_flags(&open.flags).map_err(|f| format!("unknown flag {f}"))?;
            // SAFETY: plain syscalls on a NUL-terminated path.
            let fd = check(
                unsafe { libc::open(path.as_ptr(), flags | libc::O_CLOEXEC, 0o644) },
                &format!("open {}", open.path),
            )?;
            parked.push((park(fd)?, spec.fd, spec.cloexec, spec.seek));
        } else if let Some(pipe) = &spec.pipe {
            let mut ends = [0; 2];
            // SAFETY: `ends` has room for two descriptors.
            check(unsafe { libc::pipe(ends.as_mut_ptr()) }, "pipe")?;
            let (read, write) = (park(ends[0])?, park(ends[1])?);
            let (mine, peer) = match pipe.end {
                PipeEnd::Read => (read, write),
                PipeEnd::Write => (write, read),
            };
            parked.push((mine, spec.fd, spec.cloexec, None));
            parked.push((peer, pipe.peer, true, None));
        }
    }
    let mut placed = Placed::default();
    for (fd, number, cloexec, seek) in parked {
        // SAFETY: dup2 onto a number the case owns; the parked original closes on drop.
        check(unsafe { libc::dup2(fd.as_raw_fd(), number) }, "dup2")?;
        let owned = unsafe { OwnedFd::from_raw_fd(number) };
        let flag = if cloexec { libc::FD_CLOEXEC } else { 0 };
        // SAFETY: `number` is open.
        check(
            unsafe { libc::fcntl(number, libc::F_SETFD, flag) },
            "F_SETFD",
        )?;
        if let Some(offset) = seek {
            // SAFETY: as above.
            check(
                unsafe { libc::lseek(number, offset as libc::off_t, libc::SEEK_SET) }
                    as libc::c_int,
                "lseek",
            )?;
        }
        placed.fds.push(owned);
    }
    Ok(placed)
}

/// Moves `fd` to a close-on-exec number at or above [`PARK_AT`].
fn park(fd: RawFd) -> Result<OwnedFd, String> {
    // SAFETY: `fd` was just opened by us; it is closed after the duplicate exists.
    unsafe {
        let high = libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, PARK_AT);
        libc::close(fd);
        check(high, "F_DUPFD_CLOEXEC")?;
        Ok(OwnedFd::from_raw_fd(high))
    }
}

extern "C" fn do_nothing(_: libc::c_int) {}

/// Blocks, defaults, ignores and handles signals as the case asks (on the calling thread and process),
/// then makes the listed ones pending. First it puts back the default action of every signal
/// the runner inherited as ignored (SIGHUP under `nohup`, SIGINT and SIGQUIT under a
/// background `&` of a non-interactive shell), so a case's dispositions are the ones it
/// names, whoever started the suite. SIGPIPE is left as Rust's runtime set it unless the case
/// names it.
pub fn apply_signals(signals: &Signals) -> Result<(), String> {
    default_inherited_ignores()?;
    let number = |name: &String| names::signal(name).ok_or(format!("unknown signal {name}"));
    // SAFETY: sigset and sigaction structs are initialised before use; the handler is
    // async-signal-safe (it does nothing).
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        check(libc::sigemptyset(&mut set), "sigemptyset")?;
        for sig in &signals.blocked {
            check(libc::sigaddset(&mut set, number(sig)?), "sigaddset")?;
        }
        let rc = libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
        if rc != 0 {
            return Err(format!("pthread_sigmask: {}", crate::errno::name(rc)));
        }
        let defaulted = signals.defaulted.iter().map(|s| (s, libc::SIG_DFL));
        let ignored = signals.ignored.iter().map(|s| (s, libc::SIG_IGN));
        let handled = signals.handled.iter().map(|s| {
            (
                s,
                do_nothing as extern "C" fn(libc::c_int) as libc::sighandler_t,
            )
        });
        for (sig, handler) in defaulted.chain(ignored).chain(handled) {
            install(number(sig)?, handler, 0)?;
        }
        // Blocked above (the case loader insists), so these stay pending.
        for sig in &signals.pending {
            check(libc::kill(libc::getpid(), number(sig)?), "kill")?;
        }
        for sig in &signals.thread_pending {
            let rc = libc::pthread_kill(libc::pthread_self(), number(sig)?);
            if rc != 0 {
                return Err(format!("pthread_kill: {}", crate::errno::name(rc)));
            }
        }
    }
    Ok(())
}

/// Sets every signal this process ignores, but SIGPIPE, back to its default action.
fn default_inherited_ignores() -> Result<(), String> {
    let reserved = super::sys::libc_reserved_signals();
    for sig in (1..=super::sys::max_signal()).filter(|s| !reserved.contains(s)) {
        // SAFETY: a query into a local; nothing is installed.
        let mut old: libc::sigaction = unsafe { std::mem::zeroed() };
        check(
            unsafe { libc::sigaction(sig, std::ptr::null(), &mut old) },
            "sigaction",
        )?;
        if old.sa_sigaction == libc::SIG_IGN && sig != libc::SIGPIPE {
            install(sig, libc::SIG_DFL, 0)?;
        }
    }
    Ok(())
}

/// Installs `handler` for `sig` with `flags` (plus SA_RESTART).
pub fn install(
    sig: libc::c_int,
    handler: libc::sighandler_t,
    flags: libc::c_int,
) -> Result<(), String> {
    // SAFETY: a zeroed sigaction with an empty mask and a valid handler value.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = handler;
        action.sa_flags = flags | libc::SA_RESTART;
        check(libc::sigemptyset(&mut action.sa_mask), "sigemptyset")?;
        check(
            libc::sigaction(sig, &action, std::ptr::null_mut()),
            "sigaction",
        )?;
    }
    Ok(())
}

/// Sets the soft RLIMIT_NOFILE and returns the previous one.
pub fn set_nofile_soft(soft: u64) -> Result<u64, String> {
    // SAFETY: plain struct arguments.
    unsafe {
        let mut limit: libc::rlimit = std::mem::zeroed();
        check(
            libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit),
            "getrlimit",
        )?;
        let old = limit.rlim_cur as u64;
        limit.rlim_cur = soft as libc::rlim_t;
        check(libc::setrlimit(libc::RLIMIT_NOFILE, &limit), "setrlimit")?;
        Ok(old)
    }
}

/// The runner's own environment, as the case asks; the runner is single-threaded here.
pub fn apply_parent_env(setup: &Setup, vars: &Vars) {
    for (name, value) in &setup.parent_env {
        match value {
            Some(v) => std::env::set_var(name, vars.expand(v)),
            None => std::env::remove_var(name),
        }
    }
}

/// Process-wide state: process group, touched memory. Runs once, while the runner is still
/// single-threaded.
pub fn apply_process(setup: &Setup) -> Result<(), String> {
    if setup.own_pgroup {
        // SAFETY: plain syscall.
        check(unsafe { libc::setpgid(0, 0) }, "setpgid")?;
    }
    if setup.memory_mib > 0 {
        touch_memory(setup.memory_mib)?;
    }
    Ok(())
}

/// Maps and touches `mib` MiB that stay mapped for the rest of the runner's life, so the
/// spawn happens from a large parent.
fn touch_memory(mib: u64) -> Result<(), String> {
    let len = (mib as usize) << 20;
    // SAFETY: an anonymous private mapping we write to within its bounds and never unmap.
    unsafe {
        let p = libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANON,
            -1,
            0,
        );
        if p == libc::MAP_FAILED {
            return Err(format!("mmap {mib} MiB: {}", io::Error::last_os_error()));
        }
        let bytes = p.cast::<u8>();
        for offset in (0..len).step_by(4096) {
            bytes.add(offset).write_volatile(1);
        }
    }
    Ok(())
}

/// Changes identities for the spawning step (in a forked runner, so cleanup stays root).
pub fn become_user(run_as: RunAs) -> Result<(), String> {
    // SAFETY: plain syscalls; their results are checked.
    unsafe {
        check(libc::setgroups(0, std::ptr::null()), "setgroups")?;
        match run_as {
            RunAs::Nobody => {
                check(libc::setgid(NOBODY as libc::gid_t), "setgid")?;
                check(libc::setuid(NOBODY as libc::uid_t), "setuid")?;
            }
            RunAs::SetuidRoot => {
                check(libc::setregid(NOBODY as libc::gid_t, 0), "setregid")?;
                check(libc::setreuid(NOBODY as libc::uid_t, 0), "setreuid")?;
            }
        }
    }
    Ok(())
}

/// `pthread_atfork` handlers for `atfork_child_exit`: the prepare and parent handlers count
/// their calls, the child handler `_exit`s with the case's code. Registered once per runner.
pub mod atfork {
    use std::sync::atomic::{AtomicI32, AtomicU32, Ordering};
    use std::sync::Once;

    static PREPARE: AtomicU32 = AtomicU32::new(0);
    static PARENT: AtomicU32 = AtomicU32::new(0);
    static CHILD_EXIT: AtomicI32 = AtomicI32::new(0);
    static REGISTER: Once = Once::new();

    extern "C" fn prepare() {
        PREPARE.fetch_add(1, Ordering::SeqCst);
    }

    extern "C" fn parent() {
        PARENT.fetch_add(1, Ordering::SeqCst);
    }

    /// Runs in a forked child: an atomic load and `_exit` are async-signal-safe.
    extern "C" fn child() {
        // SAFETY: `_exit` is async-signal-safe and never returns.
        unsafe { libc::_exit(CHILD_EXIT.load(Ordering::SeqCst)) }
    }

    /// Registers the handlers (the first time) with `code` for the child.
    pub fn register(code: u8) -> Result<(), String> {
        CHILD_EXIT.store(i32::from(code), Ordering::SeqCst);
        let mut rc = 0;
        // SAFETY: the handlers are plain `extern "C"` functions that live forever.
        REGISTER.call_once(|| {
            rc = unsafe { libc::pthread_atfork(Some(prepare), Some(parent), Some(child)) }
        });
        match rc {
            0 => Ok(()),
            e => Err(format!(
                "pthread_atfork: {}",
                std::io::Error::from_raw_os_error(e)
            )),
        }
    }

    /// Sets both counters to zero before a spawn.
    pub fn reset() {
        PREPARE.store(0, Ordering::SeqCst);
        PARENT.store(0, Ordering::SeqCst);
    }

    /// How often the prepare and the parent handler ran since [`reset`].
    pub fn counts() -> (u32, u32) {
        (
            PREPARE.load(Ordering::SeqCst),
            PARENT.load(Ordering::SeqCst),
        )
    }
}
