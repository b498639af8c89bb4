//! What each spawn runs: the child program, its arguments, environment, directory and stdio,
//! for the plain benchmark and the two presets. Every method runs the same workload.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::raw::c_int;
use std::path::{Path, PathBuf};

use super::pipe::pipe;
use super::plan::{cstring, CStringArray, ChildPlan};
use super::BenchError;

/// Which workload to measure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Preset {
    /// Spawn and wait for a tiny static program that only exits.
    #[default]
    Spawn,
    /// The program from rust-lang/rust#77455 (std uses posix_spawn when the program is a
    /// path): PATH overridden in the child, `/bin/sh -c "echo hello"` (stdout to /dev/null).
    RustPr,
    /// A CGI-style spawn: the child starts in the script's directory (fchdir where the method
    /// can) with its stdin and stdout on fresh pipes.
    Cgi,
}

impl Preset {
    pub fn name(self) -> &'static str {
        match self {
            Preset::Spawn => "spawn",
            Preset::RustPr => "rust-pr",
            Preset::Cgi => "cgi",
        }
    }
}

/// The PATH the rust-pr preset sets in the child.
const RUST_PR_PATH: &str = "/usr/bin:/bin";
const SHELL: &str = "/bin/sh";

/// Where the child's stdin and stdout go.
pub enum Stdio {
    /// The parent's own.
    Inherit,
    /// Stdout to /dev/null (opened once, close-on-exec).
    NullStdout(OwnedFd),
    /// Fresh close-on-exec pipes for stdin and stdout on every spawn.
    Pipes,
}

/// A directory the child starts in: the path (for methods that can only chdir) and an open
/// descriptor (for methods that can fchdir).
pub struct WorkDir {
    pub path: PathBuf,
    pub fd: OwnedFd,
}

/// One workload, with the C arrays the raw methods pass to execve prepared once.
pub struct Workload {
    /// Absolute path of the program.
    pub program: PathBuf,
    /// Arguments after argv[0].
    pub args: Vec<OsString>,
    /// PATH in the child, when the workload overrides it.
    pub path_env: Option<OsString>,
    pub dir: Option<WorkDir>,
    pub stdio: Stdio,
    pub exec_path: std::ffi::CString,
    pub argv: CStringArray,
    pub envp: CStringArray,
}

impl Workload {
    /// Builds the workload of `preset`; `true_program` is the tiny program that only exits.
    pub fn new(preset: Preset, true_program: &Path) -> Result<Workload, BenchError> {
        let (program, args, path_env, dir, stdio) = match preset {
            Preset::Spawn => (
                true_program.to_path_buf(),
                vec![],
                None,
                None,
                Stdio::Inherit,
            ),
            Preset::RustPr => (
                PathBuf::from(SHELL),
                vec!["-c".into(), "echo hello".into()],
                Some(OsString::from(RUST_PR_PATH)),
                None,
                Stdio::NullStdout(open(Path::new("/dev/null"), libc::O_WRONLY)?),
            ),
            Preset::Cgi => {
                let dir = true_program
                    .parent()
                    .ok_or_else(|| workload_error(true_program, "has no directory"))?;
                let fd = open(dir, libc::O_RDONLY | libc::O_DIRECTORY)?;
                let dir = WorkDir {
                    path: dir.to_path_buf(),
                    fd,
                };
                (
                    true_program.to_path_buf(),
                    vec![],
                    None,
                    Some(dir),
                    Stdio::Pipes,
                )
            }
        };
        if !program.is_absolute() {
            return Err(workload_error(&program, "is not an absolute path"));
        }
        let env = child_env(path_env.as_deref());
        let argv0 = std::iter::once(program.as_os_str().to_os_string());
        let bad = |source| BenchError::Workload {
            what: format!("arguments for {}", program.display()),
            source,
        };
        let exec_path = cstring(program.as_os_str()).map_err(bad)?;
        let argv = CStringArray::new(argv0.chain(args.iter().cloned())).map_err(bad)?;
        let envp = CStringArray::new(env).map_err(bad)?;
        Ok(Workload {
            program,
            args,
            path_env,
            dir,
            stdio,
            exec_path,
            argv,
            envp,
        })
    }

    /// The descriptors one spawn uses; pipes are made fresh each time.
    pub fn spawn_fds(&self) -> io::Result<SpawnFds> {
        match &self.stdio {
            Stdio::Inherit => Ok(SpawnFds::none()),
            Stdio::NullStdout(fd) => Ok(SpawnFds {
                stdout: fd.as_raw_fd(),
                ..SpawnFds::none()
            }),
            Stdio::Pipes => {
                let (in_read, in_write) = pipe()?;
                let (out_read, out_write) = pipe()?;
                Ok(SpawnFds {
                    stdin: in_read.as_raw_fd(),
                    stdout: out_write.as_raw_fd(),
                    child_ends: vec![in_read, out_write],
                    _parent_ends: vec![in_write, out_read],
                })
            }
        }
    }

    /// The plan for a child made by fork, vfork or clone. The result borrows `self`, `fds`,
    /// `reset` and `mask` through raw pointers: keep them alive until the child has exec'd.
    pub fn child_plan(
        &self,
        fds: &SpawnFds,
        reset: &[c_int],
        mask: Option<&libc::sigset_t>,
    ) -> ChildPlan {
        ChildPlan {
            path: self.exec_path.as_ptr(),
            argv: self.argv.as_ptr(),
            envp: self.envp.as_ptr(),
            dir_fd: self.dir.as_ref().map_or(-1, |d| d.fd.as_raw_fd()),
            stdin_fd: fds.stdin,
            stdout_fd: fds.stdout,
            reset: reset.as_ptr(),
            reset_len: reset.len(),
            mask: mask.map_or(std::ptr::null(), |m| m as *const _),
        }
    }

    /// The program's file name, for spawning it by PATH search.
    pub fn bare_name(&self) -> &OsStr {
        self.program.file_name().unwrap_or(self.program.as_os_str())
    }

    /// The PATH under which [`Self::bare_name`] finds the program.
    pub fn search_path(&self) -> OsString {
        match (&self.path_env, self.program.parent()) {
            (Some(path), _) => path.clone(),
            (None, Some(dir)) => dir.as_os_str().to_os_string(),
            (None, None) => OsString::new(),
        }
    }
}

/// The descriptors of one spawn. The child's ends are closed by [`SpawnFds::spawned`], the
/// parent's when this value is dropped (after the child has been reaped).
pub struct SpawnFds {
    /// Fd for the child's stdin, or -1.
    pub stdin: c_int,
    /// Fd for the child's stdout, or -1.
    pub stdout: c_int,
    child_ends: Vec<OwnedFd>,
    /// Held only so the parent's ends stay open until the child is reaped.
    _parent_ends: Vec<OwnedFd>,
}

impl SpawnFds {
    fn none() -> SpawnFds {
        SpawnFds {
            stdin: -1,
            stdout: -1,
            child_ends: vec![],
            _parent_ends: vec![],
        }
    }

    /// Closes the child's ends once the child has them (or the spawn failed).
    pub fn spawned(&mut self) {
        self.child_ends.clear();
    }
}

/// The parent's environment, with PATH replaced when the workload overrides it.
fn child_env(path: Option<&OsStr>) -> Vec<OsString> {
    let mut env: Vec<OsString> = std::env::vars_os()
        .filter(|(k, _)| path.is_none() || k != "PATH")
        .map(|(k, v)| {
            let mut kv = k;
            kv.push("=");
            kv.push(v);
            kv
        })
        .collect();
    if let Some(path) = path {
        let mut kv = OsString::from("PATH=");
        kv.push(path);
        env.push(kv);
    }
    env
}

fn open(path: &Path, flags: c_int) -> Result<OwnedFd, BenchError> {
    use std::os::unix::fs::OpenOptionsExt;
    let write = flags & libc::O_ACCMODE == libc::O_WRONLY;
    File::options()
        .read(!write)
        .write(write)
        .custom_flags(flags & !libc::O_ACCMODE)
        .open(path)
        .map(OwnedFd::from)
        .map_err(|source| BenchError::Workload {
            what: format!("opening {}", path.display()),
            source,
        })
}

fn workload_error(path: &Path, what: &str) -> BenchError {
    BenchError::Workload {
        what: format!("{} {what}", path.display()),
        source: io::Error::new(io::ErrorKind::InvalidInput, what.to_string()),
    }
}
