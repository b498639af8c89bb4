//! Everything one spawn needs, prepared in the parent where allocating is allowed: C strings,
//! pointer arrays, program candidates, the fd plan and signal sets. The child only reads it
//! (through [`ChildView`]).

use std::ffi::{c_char, CString};
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;

use crate::child_side::{ChildCwd, ChildView};
use crate::platform::fd::set_cloexec;
use crate::request::{Cwd, Defaults, Ids, InputError, Mask, PreExec, Request, Rlimit, StdioKind};
use close_plan::ClosePlan;
use cstr::{c_string, no_nul};
use cstr_array::CStrArray;
use fdplan::FdPlan;

pub(crate) mod close_plan;
pub(crate) mod cstr;
pub(crate) mod cstr_array;
mod env;
pub(crate) mod fdplan;
mod initial_env;
pub(crate) mod search;
pub(crate) mod sigs;
mod stdio;

/// The parent's ends of piped stdio.
#[derive(Default)]
pub(crate) struct ParentEnds {
    pub stdin: Option<OwnedFd>,
    pub stdout: Option<OwnedFd>,
    pub stderr: Option<OwnedFd>,
}

/// One spawn, ready to run.
pub(crate) struct Prepared {
    pub argv: CStrArray,
    pub envp: CStrArray,
    pub candidate_strings: Vec<CString>,
    pub candidates: Vec<*const c_char>,
    /// The working directory as given (`current_dir`), for strategies that must make a
    /// relative program absolute themselves.
    pub cwd_path: Option<CString>,
    pub cwd_fd: Option<RawFd>,
    pub fds: FdPlan,
    pub setsid: bool,
    pub pgid: Option<libc::pid_t>,
    pub rlimits: Vec<Rlimit>,
    pub umask: Option<libc::mode_t>,
    /// The child's mask if not the calling thread's.
    pub mask: Option<libc::sigset_t>,
    /// `SIGPIPE` and the signals asked to be reset.
    pub default_signals: Vec<libc::c_int>,
    /// Fds made for this spawn whose other ends the parent keeps; closed after the spawn.
    _child_ends: Vec<OwnedFd>,
    /// What the child keeps when it closes the other fds (`Command::close_fds`).
    pub close: Option<ClosePlan>,
    /// The ids the child takes.
    pub ids: Ids,
    /// The command's `pre_exec` closures (only a forked child may run them).
    pre_exec: *mut PreExec,
    pub pre_exec_len: usize,
    /// Whether the spawn takes the child's pidfd (`create_pidfd` or `Command::exit_fd`).
    pub want_pidfd: bool,
    /// The parent-death signal, and the pid the child's `getppid()` must still return
    /// after setting it (this process's, taken before the spawn).
    pub pdeathsig: Option<(libc::c_int, libc::pid_t)>,
    /// Whether the child runs with `no_new_privs`.
    pub no_new_privs: bool,
    /// Whether the clone call itself sets `no_new_privs` (clone3's `CLONE_NNP`), so the
    /// child does not: set by the clone3 strategy for its call only.
    pub nnp_by_clone: bool,
    /// `Command::kill_on_parent_death`: the parent-death signal (`SIGKILL`, this process's
    /// pid) the child sets unless the clone call made it `CLONE_PIDFD_AUTOKILL`.
    pub kill_on_parent_death: Option<(libc::c_int, libc::pid_t)>,
    /// Whether clone3 may make it `CLONE_PIDFD_AUTOKILL`: the child runs with
    /// `no_new_privs` (which the kernel demands without `CAP_SYS_ADMIN`) and its pidfd is
    /// not handed out (the `Child` owns the only one, whose drop kills it).
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))] // read by clone3 only
    pub autokill_allowed: bool,
    /// Whether the clone call made it `CLONE_PIDFD_AUTOKILL` (so the child sets no signal):
    /// set by the clone3 strategy for its call only.
    pub autokill_by_clone: bool,
    /// Whether clone3 may make the child `CLONE_AUTOREAP` (`Command::spawn_detached`).
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))] // read by clone3 only
    pub autoreap_allowed: bool,
    /// The terminal the child takes as its controlling one (`Command::controlling_terminal`).
    pub ctty: Option<RawFd>,
    /// The terminal whose foreground group becomes the child's (`Command::foreground`).
    pub foreground: Option<RawFd>,
    /// The cgroup v2 directory for `CLONE_INTO_CGROUP` (`Command::cgroup`).
    pub cgroup: Option<RawFd>,
}

impl Prepared {
    /// Checks the command and prepares a spawn; nothing is started yet.
    pub(crate) fn new(cmd: &Request, defaults: Defaults) -> io::Result<(Prepared, ParentEnds)> {
        if cmd.program.is_empty() {
            return Err(io::Error::from_raw_os_error(libc::ENOENT));
        }
        let program = c_string(&cmd.program, || "the program name".into())?;
        let mut argv = cstr_array::Builder::new();
        for (i, a) in cmd.argv.iter().enumerate() {
            no_nul(a.as_bytes(), || format!("argument {i} ({a:?})"))?;
            argv.push(&[a.as_bytes()]);
        }
        let argv = argv.finish();
        let (envp, path) = cmd.env.build(!program.as_bytes().contains(&b'/'))?;
        let cwd_path = match &cmd.cwd {
            Some(Cwd::Path(p)) => Some(c_string(p.as_os_str(), || {
                format!("the working directory {p:?}")
            })?),
            _ => None,
        };
        let cwd_fd = match &cmd.cwd {
            Some(Cwd::Fd(fd)) => Some(fd.as_raw_fd()),
            _ => None,
        };
        let mask = match &cmd.mask {
            Mask::Inherit => None,
            Mask::Signals(list) => Some(sigs::set_of(list, "masked")?),
            Mask::Set(set) => Some(*set),
        };
        sigs::check_resettable(&cmd.reset_signals)?;
        let mut default_signals = Vec::with_capacity(cmd.reset_signals.len() + 1);
        default_signals.push(libc::SIGPIPE);
        default_signals.extend_from_slice(&cmd.reset_signals);

        let pdeathsig = match cmd.pdeathsig {
            Some(sig) => {
                sigs::set_of(&[sig], "a parent-death signal")?;
                // SAFETY: getpid cannot fail.
                Some((sig, unsafe { libc::getpid() }))
            }
            None => None,
        };
        let kill_on_parent_death = match cmd.kill_on_parent_death {
            // SAFETY: getpid cannot fail.
            true => Some((libc::SIGKILL, unsafe { libc::getpid() })),
            false => None,
        };
        let raw = |fd: &Option<OwnedFd>| fd.as_ref().map(|f| f.as_raw_fd());
        for fd in [&cmd.ctty, &cmd.foreground, &cmd.cgroup].into_iter().flatten() {
            set_cloexec(fd.as_raw_fd())?;
        }

        let candidate_strings = search::candidates(&program, path.as_deref());
        let candidates = candidate_strings.iter().map(|c| c.as_ptr()).collect();

        let fd_setup = fd_pairs(cmd, defaults)?;
        let fds = FdPlan::new(&fd_setup.pairs);
        let close = cmd
            .close_fds
            .then(|| ClosePlan::new(fds.moves.iter().map(|m| m.dst)));
        Ok((
            Prepared {
                argv,
                envp,
                candidate_strings,
                candidates,
                cwd_path,
                cwd_fd,
                fds,
                setsid: cmd.setsid,
                pgid: cmd.pgid,
                rlimits: cmd.rlimits.clone(),
                umask: cmd.umask,
                mask,
                default_signals,
                _child_ends: fd_setup.child_ends,
                close,
                ids: cmd.ids.clone(),
                pre_exec: std::ptr::null_mut(),
                pre_exec_len: 0,
                want_pidfd: cmd.create_pidfd || cmd.exit_fd || cmd.kill_on_parent_death,
                pdeathsig,
                no_new_privs: cmd.no_new_privs,
                nnp_by_clone: false,
                kill_on_parent_death,
                autokill_allowed: cmd.kill_on_parent_death && cmd.no_new_privs && !cmd.create_pidfd,
                autokill_by_clone: false,
                autoreap_allowed: cmd.autoreap && !cmd.create_pidfd && !cmd.exit_fd,
                ctty: raw(&cmd.ctty),
                foreground: raw(&cmd.foreground),
                cgroup: raw(&cmd.cgroup),
            },
            fd_setup.parent,
        ))
    }

    /// The view the child runs from. `mask` is the child's mask (the caller's own unless the
    /// command set one); `reset_handlers` is false when the kernel already reset them.
    pub(crate) fn view(&mut self, mask: *const libc::sigset_t, reset_handlers: bool) -> ChildView {
        ChildView {
            candidates: self.candidates.as_ptr(),
            candidates_len: self.candidates.len(),
            argv: self.argv.as_ptr(),
            envp: self.envp.as_ptr(),
            cwd: match (&self.cwd_path, self.cwd_fd) {
                (Some(p), _) => ChildCwd::Path(p.as_ptr()),
                (None, Some(fd)) => ChildCwd::Fd(fd),
                (None, None) => ChildCwd::Keep,
            },
            setsid: self.setsid || self.ctty.is_some(),
            ctty: self.ctty,
            pgid: self.pgid,
            foreground: self.foreground,
            rlimits: self.rlimits.as_ptr(),
            rlimits_len: self.rlimits.len(),
            umask: self.umask,
            pdeathsig: match self.autokill_by_clone {
                true => self.pdeathsig,
                false => self.pdeathsig.or(self.kill_on_parent_death),
            },
            no_new_privs: self.no_new_privs && !self.nnp_by_clone,
            moves: self.fds.moves.as_mut_ptr(),
            moves_len: self.fds.moves.len(),
            high: self.fds.high,
            default_signals: self.default_signals.as_ptr(),
            default_signals_len: self.default_signals.len(),
            reset_handlers,
            mask,
            close_keep: self
                .close
                .as_ref()
                .map_or(std::ptr::null(), |c| c.keep.as_ptr()),
            close_keep_len: self.close.as_ref().map_or(0, |c| c.keep.len()),
            close_limit: self.close.as_ref().map(|c| c.limit),
            ids: &self.ids,
            pre_exec: self.pre_exec,
            pre_exec_len: self.pre_exec_len,
        }
    }

    /// Hands the command's `pre_exec` closures to the child; they stay owned by the command,
    /// which outlives the spawn.
    pub(crate) fn set_pre_exec(&mut self, closures: &mut [PreExec]) {
        self.pre_exec = closures.as_mut_ptr();
        self.pre_exec_len = closures.len();
    }

    /// Why only a forked child can run this request, if so: `pre_exec` closures, and ids.
    /// A child that changes its effective ids while it shares the parent's memory makes the
    /// parent non-dumpable for good (the kernel's `commit_creds` resets the dumpable flag of
    /// the shared mm), so ids never run in a `CLONE_VM` child; std forks for them too.
    pub(crate) fn needs_fork(&self) -> Option<&'static str> {
        if self.pre_exec_len > 0 {
            return Some("run pre_exec closures (they need a forked child)");
        }
        self.ids.any().then_some(
            "set user or group ids (they need a forked child: a child sharing the parent's memory would make the parent non-dumpable)",
        )
    }

    /// Why no strategy on this platform can run this request, if so.
    pub(crate) fn platform_cannot(&self) -> Option<&'static str> {
        let pdeathsig = self.pdeathsig.is_some() || self.kill_on_parent_death.is_some();
        if pdeathsig && !crate::child_side::calls::HAS_PDEATHSIG {
            return Some("set a parent-death signal (only Linux, Android and FreeBSD have one)");
        }
        if self.no_new_privs && !crate::child_side::calls::HAS_NO_NEW_PRIVS {
            return Some("set no_new_privs (only Linux and Android have it)");
        }
        if self.cgroup.is_some() && !cfg!(target_os = "linux") {
            return Some("start the child in a cgroup (clone3's CLONE_INTO_CGROUP is Linux-only)");
        }
        None
    }

    /// Why only clone3 can run this request, if so: a cgroup (`CLONE_INTO_CGROUP`).
    pub(crate) fn needs_clone3(&self) -> Option<&'static str> {
        self.cgroup
            .is_some()
            .then_some("start the child in a cgroup (only clone3's CLONE_INTO_CGROUP can)")
    }

    /// Whether the program is a relative path that the child must resolve after changing
    /// directory (a bare name's relative `PATH` entries included).
    pub(crate) fn relative_after_chdir(&self) -> bool {
        (self.cwd_path.is_some() || self.cwd_fd.is_some())
            && self
                .candidate_strings
                .iter()
                .any(|c| !c.as_bytes().starts_with(b"/"))
    }
}

/// A command's fds for one spawn.
struct FdSetup {
    /// `(child fd, parent fd)`.
    pairs: Vec<(RawFd, RawFd)>,
    /// Fds created for the child's side, closed in the parent after the spawn.
    child_ends: Vec<OwnedFd>,
    parent: ParentEnds,
}

/// Sets up stdio and checks the fd mappings.
fn fd_pairs(cmd: &Request, defaults: Defaults) -> io::Result<FdSetup> {
    let mut pairs = Vec::new();
    let mut child_ends = Vec::new();
    let mut parent = ParentEnds::default();
    let output_default = [StdioKind::Null, StdioKind::Piped, StdioKind::Piped];
    for (slot, given) in cmd.stdio.iter().enumerate() {
        let kind = match (given, defaults) {
            (Some(s), _) => s,
            (None, Defaults::Inherit) => &StdioKind::Inherit,
            (None, Defaults::Output) => &output_default[slot],
        };
        let setup = kind.setup(slot == 0)?;
        if let Some(src) = setup.child_src {
            pairs.push((slot as RawFd, src));
        }
        child_ends.extend(setup.child_owned);
        let end = match slot {
            0 => &mut parent.stdin,
            1 => &mut parent.stdout,
            _ => &mut parent.stderr,
        };
        *end = setup.parent;
    }
    for (&child_fd, fd) in &cmd.fds {
        if child_fd < 0 {
            return Err(InputError::NegativeFd { fd: child_fd }.into());
        }
        set_cloexec(fd.as_raw_fd())?;
        pairs.push((child_fd, fd.as_raw_fd()));
    }
    if let Some(Cwd::Fd(fd)) = &cmd.cwd {
        set_cloexec(fd.as_raw_fd())?;
    }
    Ok(FdSetup {
        pairs,
        child_ends,
        parent,
    })
}

/// The program path made absolute against `cwd` (itself made absolute against the parent's
/// directory), for a `posix_spawn` that resolves paths before its chdir action.
pub(crate) fn absolute_in(cwd: &CString, candidate: &CString) -> io::Result<CString> {
    let cwd = std::path::Path::new(std::ffi::OsStr::from_bytes(cwd.as_bytes()));
    let cand = std::path::Path::new(std::ffi::OsStr::from_bytes(candidate.as_bytes()));
    let full = std::env::current_dir()?.join(cwd).join(cand);
    c_string(full.as_os_str(), || format!("the program path {full:?}"))
}
