//! The shared implementation as a fuzz subject. Its API is `std::process`-shaped (a working
//! directory, an fd map, attributes), not a list of file actions, so a sequence is first
//! interpreted here, with POSIX semantics, into the fd table and working directory the child
//! must end up with; that end state becomes a `Command`. Files the actions open are opened by
//! the parent (close-on-exec) and mapped.
//!
//! Not every sequence has such an end state: a failing open or dup2, or closing an fd the
//! parent lets the child inherit, cannot be said to a `Command`. Those are `unsupported` for
//! the shared subject. A failing chdir or fchdir can (the `Command` gets the same directory).

use std::collections::BTreeMap;
use std::ffi::{CString, OsStr};
use std::io;
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

use crate::spawn::os::unix::process::CommandExt;
use crate::spawn::Command;

use super::command::ChildCommand;
use super::fixture::Fixture;
use super::model::{Action, PathRef, Sequence, CREATE_MODE};
use super::rawspawn::{open_flags, pgroup_id};
use super::reference::first_refusal;
use super::sys;

/// Where an fd of the model's table comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    /// The parent's fd with this number.
    Parent(i32),
    /// A file the parent opened for the sequence (index into `Model::opened`).
    Opened(usize),
}

#[derive(Debug, Clone)]
struct Entry {
    source: Source,
    cloexec: bool,
    /// The directory's path, when the fd is a directory whose path is known.
    dir: Option<PathBuf>,
}

/// The child's working directory as the sequence leaves it.
enum Cwd {
    Unchanged,
    Path(PathBuf),
    /// Set by fchdir on this fd: the `Command` uses `current_dir_fd`.
    Fd(Source),
}

struct Model<'a> {
    fx: &'a Fixture,
    table: BTreeMap<i32, Entry>,
    opened: Vec<OwnedFd>,
    cwd: PathBuf,
    last_cwd: Cwd,
}

/// What a sequence becomes for the shared implementation.
pub enum Translation {
    /// Ready to spawn.
    Command(Box<Command>),
    /// The sequence cannot be said to a `Command`; the reason says why.
    Inexpressible(String),
}

fn dup_cloexec(fd: i32) -> io::Result<OwnedFd> {
    // SAFETY: F_DUPFD_CLOEXEC returns a new fd we then own.
    let d = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 0) };
    if d < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: d is fresh.
    Ok(unsafe { OwnedFd::from_raw_fd(d) })
}

/// Marks every open fd from 3 up close-on-exec, except `keep`: fds a test harness
/// left inheritable would otherwise reach every child and make any sequence that closes them
/// inexpressible. Only the fuzz runner calls this (its process spawns nothing else).
pub fn cloexec_strays(keep: &[i32]) -> io::Result<()> {
    for fd in sys::open_fds().into_iter().filter(|&fd| fd >= 3) {
        if let Some(f) = sys::fd_flags(fd) {
            // SAFETY: sets a flag on an fd that is open.
            if !keep.contains(&fd)
                && unsafe { libc::fcntl(fd, libc::F_SETFD, f | libc::FD_CLOEXEC) } < 0
            {
                return Err(io::Error::last_os_error());
            }
        }
    }
    Ok(())
}

/// Whether an open fd refers to a directory.
fn is_dir(fd: i32) -> bool {
    // SAFETY: fstat writes into a zeroed stat that outlives the call.
    unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        libc::fstat(fd, &mut st) == 0 && st.st_mode & libc::S_IFMT == libc::S_IFDIR
    }
}

impl<'a> Model<'a> {
    fn new(fx: &'a Fixture) -> io::Result<Model<'a>> {
        let table = sys::open_fds()
            .into_iter()
            .filter_map(|fd| {
                sys::fd_flags(fd).map(|f| {
                    let entry = Entry {
                        source: Source::Parent(fd),
                        cloexec: f & libc::FD_CLOEXEC != 0,
                        dir: fx.dir_of_fd(fd),
                    };
                    (fd, entry)
                })
            })
            .collect();
        Ok(Model {
            fx,
            table,
            opened: Vec::new(),
            cwd: std::env::current_dir()?,
            last_cwd: Cwd::Unchanged,
        })
    }

    fn path(&self, p: &PathRef) -> PathBuf {
        self.cwd.join(self.fx.resolve(p))
    }

    fn lowest_free(&self) -> i32 {
        (0..).find(|n| !self.table.contains_key(n)).unwrap_or(0)
    }

    /// Applies one action; `Err(reason)` when the sequence stops being expressible, and
    /// `Ok(Some(cmd_change))` when the sequence ends in a chdir failure the Command can make.
    fn apply(&mut self, action: &Action) -> io::Result<Result<Option<Cwd>, String>> {
        match action {
            Action::Open {
                fd,
                path,
                mode,
                cloexec,
            } => {
                let abs = self.path(path);
                let c = CString::new(abs.as_os_str().as_bytes())
                    .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
                let flags = open_flags(*mode, false) | libc::O_CLOEXEC;
                // SAFETY: c is NUL-terminated; the result is owned at once.
                let got = unsafe { libc::open(c.as_ptr(), flags, CREATE_MODE as libc::c_uint) };
                if got < 0 {
                    return Ok(Err(format!("open of {} fails", abs.display())));
                }
                // SAFETY: got is fresh.
                self.opened.push(unsafe { OwnedFd::from_raw_fd(got) });
                self.table.remove(fd);
                let lands_directly = self.lowest_free() == *fd;
                self.table.insert(
                    *fd,
                    Entry {
                        source: Source::Opened(self.opened.len() - 1),
                        cloexec: *cloexec && lands_directly,
                        // Whatever the mode, an fd on a directory is one fchdir can use (a
                        // plain O_RDONLY open of a directory succeeds).
                        dir: is_dir(got).then_some(abs),
                    },
                );
            }
            Action::Close { fd } => {
                self.table.remove(fd);
            }
            Action::Dup2 { from, to } => {
                let Some(src) = self.table.get(from).cloned() else {
                    return Ok(Err(format!(
                        "dup2 from fd {from}, which is not open, fails"
                    )));
                };
                self.table.insert(
                    *to,
                    Entry {
                        cloexec: false,
                        ..src
                    },
                );
            }
            Action::Chdir { path } => {
                let abs = self.path(path);
                if !abs.is_dir() {
                    return Ok(Ok(Some(Cwd::Path(abs))));
                }
                self.cwd = abs.clone();
                self.last_cwd = Cwd::Path(abs);
            }
            Action::Fchdir { fd } => {
                let Some(e) = self.table.get(fd).cloned() else {
                    return Ok(Err(format!("fchdir of fd {fd}, which is not open, fails")));
                };
                match e.dir {
                    Some(d) => {
                        self.cwd = d;
                        self.last_cwd = Cwd::Fd(e.source);
                    }
                    None => return Ok(Ok(Some(Cwd::Fd(e.source)))),
                }
            }
            Action::Closefrom { low } => {
                self.table.retain(|fd, _| fd < low);
            }
        }
        Ok(Ok(None))
    }

    fn owned(&self, s: Source) -> io::Result<OwnedFd> {
        match s {
            Source::Parent(p) => dup_cloexec(p),
            Source::Opened(i) => self.opened[i].try_clone(),
        }
    }

    fn set_cwd(&self, cmd: &mut Command, cwd: &Cwd) -> io::Result<()> {
        match cwd {
            Cwd::Unchanged => {}
            Cwd::Path(p) => {
                cmd.current_dir(p);
            }
            Cwd::Fd(s) => {
                cmd.current_dir_fd(self.owned(*s)?);
            }
        }
        Ok(())
    }

    /// Maps the final table onto `cmd`; `Err(reason)` when an inherited fd would survive.
    fn map_fds(
        &self,
        cmd: &mut Command,
        parent: &BTreeMap<i32, bool>,
    ) -> io::Result<Result<(), String>> {
        for (fd, parent_cloexec) in parent {
            let kept = self.table.get(fd).is_some_and(|e| !e.cloexec);
            if !parent_cloexec && !kept {
                return Ok(Err(format!(
                    "the sequence closes fd {fd}, which the child inherits"
                )));
            }
        }
        for (fd, e) in self.table.iter().filter(|(_, e)| !e.cloexec) {
            let inherited = e.source == Source::Parent(*fd) && parent.get(fd) == Some(&false);
            if !inherited {
                cmd.fd(*fd, self.owned(e.source)?);
            }
        }
        Ok(Ok(()))
    }
}

/// The `Command` for `seq` in `fx` (whose root is the process's cwd), or why there is none.
pub fn translate(seq: &Sequence, fx: &Fixture, child: &ChildCommand) -> io::Result<Translation> {
    if let Some((i, _, why)) = first_refusal(seq) {
        return Ok(Translation::Inexpressible(format!(
            "action {i} has an fd the reference refuses when it is added ({why:?})"
        )));
    }
    let mut model = Model::new(fx)?;
    let parent: BTreeMap<i32, bool> = model.table.iter().map(|(fd, e)| (*fd, e.cloexec)).collect();
    let mut cmd = Command::new(OsStr::from_bytes(child.program().to_bytes()));
    cmd.args(child.args().map(|a| OsStr::from_bytes(a.to_bytes())))
        .env_clear();
    for entry in child.env() {
        let bytes = entry.to_bytes();
        let eq = bytes.iter().position(|b| *b == b'=').unwrap_or(bytes.len());
        let value = bytes.get(eq + 1..).unwrap_or_default();
        cmd.env(OsStr::from_bytes(&bytes[..eq]), OsStr::from_bytes(value));
    }
    let attrs = &seq.attrs;
    if let Some(sigs) = &attrs.sigmask {
        cmd.signal_mask(&sigs.iter().map(|s| s.number()).collect::<Vec<_>>());
    }
    if let Some(sigs) = &attrs.sigdefault {
        cmd.reset_signals(&sigs.iter().map(|s| s.number()).collect::<Vec<_>>());
    }
    if let Some(p) = attrs.pgroup {
        cmd.process_group(pgroup_id(p));
    }
    cmd.setsid(attrs.setsid);
    for action in &seq.actions {
        match model.apply(action)? {
            Err(reason) => return Ok(Translation::Inexpressible(reason)),
            Ok(Some(failing_cwd)) => {
                model.set_cwd(&mut cmd, &failing_cwd)?;
                return Ok(Translation::Command(Box::new(cmd)));
            }
            Ok(None) => {}
        }
    }
    if let Err(reason) = model.map_fds(&mut cmd, &parent)? {
        return Ok(Translation::Inexpressible(reason));
    }
    model.set_cwd(&mut cmd, &model.last_cwd)?;
    Ok(Translation::Command(Box::new(cmd)))
}
