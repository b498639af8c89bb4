//! The `libc` subject: the raw `posix_spawn` / `posix_spawnp` of this platform's C library,
//! with file actions and attributes exactly as the case lists them. Functions newer than the
//! build baseline come from [`crate::conformance::sys`].

use std::ffi::CString;
use std::io;
use std::ptr;

use libc::{c_char, c_int, posix_spawn_file_actions_t, posix_spawnattr_t};

use super::wait::Pid;
use super::{NotStarted, Running, Spawner};
use crate::conformance::case::{Attrs, Case, ChdirApi, PidArg, SpawnFn};
use crate::conformance::names;
use crate::conformance::outcome::Outcome;
use crate::conformance::plan::{Plan, PlannedAction};
use crate::conformance::sys;
use crate::errno;
use crate::sys::spawn_objects::{FileActions, SpawnAttr};

/// Initialised file actions and attributes, destroyed on drop; reused for every spawn.
pub struct LibcSpawner {
    actions: Option<FileActions>,
    attr: Option<SpawnAttr>,
    program: CString,
    function: SpawnFn,
    pid_arg: PidArg,
}

// SAFETY: the objects are only read by posix_spawn after preparation, which POSIX allows from
// several threads at once; nothing mutates them until drop.
unsafe impl Sync for LibcSpawner {}
unsafe impl Send for LibcSpawner {}

fn add_failed(function: &str, rc: c_int) -> NotStarted {
    NotStarted::new(
        Outcome::Add(errno::name(rc)),
        format!("{function} returned {}", errno::name(rc)),
    )
}

/// An `*_init` that failed: `spawn_objects` gives the libc's code as the OS error.
fn init_failed(function: &str, e: io::Error) -> NotStarted {
    match e.raw_os_error() {
        Some(rc) => add_failed(function, rc),
        None => NotStarted::new(
            Outcome::Skipped("init-failed".into()),
            format!("{function}: {e}"),
        ),
    }
}

fn absent(function: &str) -> NotStarted {
    NotStarted::new(Outcome::Unsupported, format!("{function} is absent here"))
}

fn cstring(bytes: &[u8]) -> Result<CString, NotStarted> {
    CString::new(bytes.to_vec())
        .map_err(|_| NotStarted::new(Outcome::Skipped("nul-in-string".into()), None))
}

impl LibcSpawner {
    pub fn new(case: &Case, plan: &Plan) -> Result<LibcSpawner, NotStarted> {
        let mut spawner = LibcSpawner {
            actions: None,
            attr: None,
            program: cstring(&plan.program)?,
            function: case.spawn,
            pid_arg: case.pid,
        };
        if let Some(list) = &plan.actions {
            let fa =
                FileActions::new().map_err(|e| init_failed("posix_spawn_file_actions_init", e))?;
            let fa = spawner.actions.insert(fa).as_mut_ptr();
            for action in list {
                add_action(fa, action)?;
            }
        }
        if let Some(attrs) = &case.attrs {
            let at = SpawnAttr::new().map_err(|e| init_failed("posix_spawnattr_init", e))?;
            set_attrs(spawner.attr.insert(at).as_mut_ptr(), attrs)?;
        }
        Ok(spawner)
    }
}

fn add_action(
    fa: *mut posix_spawn_file_actions_t,
    action: &PlannedAction,
) -> Result<(), NotStarted> {
    let ext = sys::ext();
    // SAFETY: `fa` is initialised; strings are NUL-terminated and copied by the callee (P7,
    // P11), and they outlive the call anyway.
    let (name, rc) = unsafe {
        match action {
            PlannedAction::Open {
                fd,
                path,
                flags,
                mode,
            } => {
                let path = cstring(path)?;
                (
                    "posix_spawn_file_actions_addopen",
                    libc::posix_spawn_file_actions_addopen(
                        fa,
                        *fd,
                        path.as_ptr(),
                        *flags,
                        *mode as libc::mode_t,
                    ),
                )
            }
            PlannedAction::Close(fd) => (
                "posix_spawn_file_actions_addclose",
                libc::posix_spawn_file_actions_addclose(fa, *fd),
            ),
            PlannedAction::Dup2(fd, to) => (
                "posix_spawn_file_actions_adddup2",
                libc::posix_spawn_file_actions_adddup2(fa, *fd, *to),
            ),
            PlannedAction::Chdir(path, api) => {
                let path = cstring(path)?;
                let (name, f) = match api {
                    ChdirApi::Np => ("posix_spawn_file_actions_addchdir_np", ext.addchdir_np),
                    ChdirApi::Posix => ("posix_spawn_file_actions_addchdir", ext.addchdir),
                };
                (name, f.ok_or_else(|| absent(name))?(fa, path.as_ptr()))
            }
            PlannedAction::Fchdir(fd, api) => {
                let (name, f) = match api {
                    ChdirApi::Np => ("posix_spawn_file_actions_addfchdir_np", ext.addfchdir_np),
                    ChdirApi::Posix => ("posix_spawn_file_actions_addfchdir", ext.addfchdir),
                };
                (name, f.ok_or_else(|| absent(name))?(fa, *fd))
            }
            PlannedAction::Closefrom(fd) => {
                let name = "posix_spawn_file_actions_addclosefrom_np";
                (
                    name,
                    ext.addclosefrom_np.ok_or_else(|| absent(name))?(fa, *fd),
                )
            }
        }
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(add_failed(name, rc))
    }
}

/// The signal set of `names_list`.
pub(super) fn sigset(names_list: &[String]) -> Result<libc::sigset_t, NotStarted> {
    // SAFETY: the set is initialised by sigemptyset before use.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for name in names_list {
            let sig = names::signal(name).ok_or_else(|| {
                NotStarted::new(Outcome::Skipped("bad-signal".into()), name.clone())
            })?;
            libc::sigaddset(&mut set, sig);
        }
        Ok(set)
    }
}

/// The `setflags` value of `attrs.flags`; `unsupported` for a flag this libc lacks.
pub(super) fn requested_flags(attrs: &Attrs) -> Result<libc::c_short, NotStarted> {
    attrs.flags.iter().try_fold(0, |flags, name| {
        names::spawn_flag(name).map(|f| flags | f).ok_or_else(|| {
            NotStarted::new(
                Outcome::Unsupported,
                format!("POSIX_SPAWN_{name} is not defined here"),
            )
        })
    })
}

/// Sets every attribute the case lists on the initialised object `at`.
pub(super) fn set_attrs(at: *mut posix_spawnattr_t, attrs: &Attrs) -> Result<(), NotStarted> {
    let flags = requested_flags(attrs)?;
    let ok = |name: &str, rc: c_int| {
        if rc == 0 {
            Ok(())
        } else {
            Err(add_failed(name, rc))
        }
    };
    // SAFETY: `at` is initialised; every argument is a valid value or pointer to a local.
    unsafe {
        ok(
            "posix_spawnattr_setflags",
            libc::posix_spawnattr_setflags(at, flags),
        )?;
        if let Some(pgroup) = attrs.pgroup {
            let pgid = super::pgid_for(pgroup);
            ok(
                "posix_spawnattr_setpgroup",
                libc::posix_spawnattr_setpgroup(at, pgid),
            )?;
        }
        if !attrs.sigmask.is_empty() || attrs.flags.iter().any(|f| f == "SETSIGMASK") {
            let set = sigset(&attrs.sigmask)?;
            ok(
                "posix_spawnattr_setsigmask",
                libc::posix_spawnattr_setsigmask(at, &set),
            )?;
        }
        if !attrs.sigdefault.is_empty() {
            let set = sigset(&attrs.sigdefault)?;
            ok(
                "posix_spawnattr_setsigdefault",
                libc::posix_spawnattr_setsigdefault(at, &set),
            )?;
        }
    }
    if let Some(sched) = &attrs.sched {
        let policy = names::sched_policy(&sched.policy).ok_or_else(|| {
            NotStarted::new(
                Outcome::Unsupported,
                format!("{} is not defined here", sched.policy),
            )
        })?;
        // SAFETY: `at` is initialised.
        match unsafe { sys::set_sched(at, policy, sched.priority) } {
            Ok(()) => {}
            Err(libc::ENOSYS) => {
                return Err(NotStarted::new(
                    Outcome::Unsupported,
                    "the sched attribute setters return ENOSYS".to_string(),
                ))
            }
            Err(rc) => return Err(add_failed("posix_spawnattr_setsched*", rc)),
        }
    }
    Ok(())
}

impl Spawner for LibcSpawner {
    fn spawn(
        &self,
        argv: &[Vec<u8>],
        envp: Option<&[Vec<u8>]>,
    ) -> Result<Box<dyn Running>, NotStarted> {
        let argv_c = argv
            .iter()
            .map(|a| cstring(a))
            .collect::<Result<Vec<_>, _>>()?;
        let mut argv_p: Vec<*mut c_char> = argv_c.iter().map(|c| c.as_ptr().cast_mut()).collect();
        argv_p.push(ptr::null_mut());
        let envp_c = envp
            .map(|list| {
                list.iter()
                    .map(|e| cstring(e))
                    .collect::<Result<Vec<_>, _>>()
            })
            .transpose()?;
        let mut envp_p: Option<Vec<*mut c_char>> = envp_c.as_ref().map(|list| {
            list.iter()
                .map(|c| c.as_ptr().cast_mut())
                .chain([ptr::null_mut()])
                .collect()
        });
        let mut pid: libc::pid_t = -1;
        let pid_p = match self.pid_arg {
            PidArg::Out => &mut pid as *mut _,
            PidArg::Null => ptr::null_mut(),
        };
        let fa = self
            .actions
            .as_ref()
            .map_or(ptr::null(), FileActions::as_ptr);
        let at = self.attr.as_ref().map_or(ptr::null(), SpawnAttr::as_ptr);
        let envp_ptr = envp_p.as_mut().map_or(ptr::null(), |v| v.as_ptr());
        let spawn = match self.function {
            SpawnFn::PosixSpawn => libc::posix_spawn,
            SpawnFn::PosixSpawnp => libc::posix_spawnp,
        };
        // SAFETY: every pointer is valid for the call: NUL-terminated strings and
        // NULL-terminated arrays that outlive it, initialised objects or NULL.
        let rc = unsafe {
            spawn(
                pid_p,
                self.program.as_ptr(),
                fa,
                at,
                argv_p.as_ptr(),
                envp_ptr,
            )
        };
        if rc != 0 {
            return Err(NotStarted::new(
                Outcome::Returned(errno::name(rc)),
                (pid != -1 && self.pid_arg == PidArg::Out)
                    .then(|| format!("*pid was set to {pid} despite the error")),
            ));
        }
        Ok(Box::new(Pid(match self.pid_arg {
            PidArg::Out => pid,
            PidArg::Null => -1,
        })))
    }
}
