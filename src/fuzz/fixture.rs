//! The world a sequence runs in: a fresh directory tree and the parent's fixture fds at fixed
//! numbers. Each executor gets its own fixture, so files one run creates cannot change the
//! next run's outcome; observations are normalised to names, so the runs still compare.

use std::ffi::CString;
use std::fs;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::model::{FixtureFd, Node, PathRef, Sequence};
use super::sys;

/// Content of the fixture file `a`.
pub const FILE_A_CONTENT: &[u8] = b"alpha\n";

/// A fixture directory plus the fixture fds, which stay open (at their fixed numbers) until
/// the fixture is dropped.
pub struct Fixture {
    dir: tempfile::TempDir,
    root: PathBuf,
    fds: Vec<OwnedFd>,
    /// `(dev, ino)` of each fixture object, with the name observations use for it.
    labels: Vec<((u64, u64), String)>,
}

fn cstring(bytes: &[u8]) -> io::Result<CString> {
    CString::new(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))
}

fn open_cloexec(path: &Path, flags: libc::c_int) -> io::Result<OwnedFd> {
    let c = cstring(path.as_os_str().as_bytes())?;
    // SAFETY: c is NUL-terminated; the fd is owned right away.
    let fd = unsafe { libc::open(c.as_ptr(), flags | libc::O_CLOEXEC) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: fd was just opened and nothing else owns it.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// Device and inode of an open fd.
fn dev_ino(fd: &OwnedFd) -> io::Result<(u64, u64)> {
    let file = fs::File::from(fd.try_clone()?);
    let m = file.metadata()?;
    Ok((m.dev(), m.ino()))
}

impl Fixture {
    /// Builds the tree and places the fixture fds at their numbers, clearing `FD_CLOEXEC` on
    /// the ones `seq.inherit` names. Fails if a fixture number is already taken.
    pub fn new(seq: &Sequence) -> io::Result<Fixture> {
        let dir = tempfile::Builder::new()
            .prefix("spawnmatrix-fuzz-")
            .tempdir_in(sys::scratch_dir())?;
        let root = fs::canonicalize(dir.path())?.join("t");
        fs::create_dir_all(root.join(Node::Deeper.rel()))?;
        fs::write(root.join(Node::FileA.rel()), FILE_A_CONTENT)?;

        let (pipe_r, pipe_w) = sys::pipe_cloexec()?;
        let file_a = open_cloexec(&root.join(Node::FileA.rel()), libc::O_RDONLY)?;
        // SAFETY: file_a is open; lseek only moves its offset.
        if unsafe { libc::lseek(file_a.as_raw_fd(), 1, libc::SEEK_SET) } != 1 {
            return Err(io::Error::last_os_error());
        }
        let dir_sub = open_cloexec(
            &root.join(Node::Sub.rel()),
            libc::O_RDONLY | libc::O_DIRECTORY,
        )?;
        let dev_null = open_cloexec(Path::new("/dev/null"), libc::O_WRONLY)?;
        let sources = [pipe_r, pipe_w, file_a, dir_sub, dev_null];

        let mut labels = Vec::new();
        for node in [Node::Root, Node::Sub, Node::Deeper, Node::FileA] {
            let m = fs::metadata(root.join(node.rel()))?;
            let name = match node.rel() {
                "" => String::from("$FIX"),
                rel => format!("$FIX/{rel}"),
            };
            labels.push(((m.dev(), m.ino()), name));
        }
        let above = fs::metadata(dir.path())?;
        labels.push(((above.dev(), above.ino()), String::from("$FIX/..")));
        labels.push((dev_ino(&sources[0])?, String::from("fixture-pipe")));

        let mut fds = Vec::new();
        for (which, src) in FixtureFd::ALL.iter().zip(sources) {
            let target = which.fd();
            // SAFETY: F_GETFD only queries whether target is open.
            if unsafe { libc::fcntl(target, libc::F_GETFD) } >= 0 {
                return Err(io::Error::new(
                    io::ErrorKind::AddrInUse,
                    format!("fixture fd {target} is already open in this process"),
                ));
            }
            sys::dup_cloexec_to(src.as_raw_fd(), target)?;
            // SAFETY: target now holds a new fd that only this fixture owns.
            let owned = unsafe { OwnedFd::from_raw_fd(target) };
            if seq.inherit.contains(which) {
                // SAFETY: clears FD_CLOEXEC on an fd this fixture owns.
                if unsafe { libc::fcntl(target, libc::F_SETFD, 0) } < 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            fds.push(owned);
        }
        Ok(Fixture {
            dir,
            root,
            fds,
            labels,
        })
    }

    /// Moves this process's cwd to the fixture root until the guard drops, so relative paths
    /// in actions resolve inside the fixture and never touch the caller's directory. The cwd
    /// is process-wide: only a runner that spawns from one thread may do this.
    pub fn enter(&self) -> io::Result<InFixture> {
        let previous = std::env::current_dir()?;
        std::env::set_current_dir(&self.root)?;
        Ok(InFixture { previous })
    }

    /// The canonical path of the fixture tree's root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Where the child helper writes its report: outside the tree, so actions cannot touch it.
    pub fn report_path(&self) -> PathBuf {
        self.dir.path().join("report.json")
    }

    /// The bytes of a path as an action passes it to the libc.
    pub fn resolve(&self, path: &PathRef) -> PathBuf {
        match path {
            PathRef::Fixture(Node::Root) => self.root.clone(),
            PathRef::Fixture(node) => self.root.join(node.rel()),
            PathRef::Relative(rel) => PathBuf::from(rel),
        }
    }

    /// The path as a C string (fixture paths never hold NUL bytes).
    pub fn resolve_c(&self, path: &PathRef) -> io::Result<CString> {
        cstring(self.resolve(path).as_os_str().as_bytes())
    }

    /// The name an observation uses for the object with this `(dev, ino)` or `target`.
    pub fn label(&self, dev: u64, ino: u64, target: Option<&str>) -> String {
        if let Some((_, name)) = self.labels.iter().find(|(k, _)| *k == (dev, ino)) {
            return name.clone();
        }
        target.map_or_else(|| String::from("?"), |t| self.normalise_path(t))
    }

    /// A path reported by the child, with the fixture root replaced by `$FIX` (and the
    /// temporary directory above it by `$FIX/..`).
    pub fn normalise_path(&self, path: &str) -> String {
        let root = self.root.to_string_lossy();
        if let Some(rest) = path.strip_prefix(root.as_ref()) {
            return format!("$FIX{rest}");
        }
        let above = self.root.parent().map(|p| p.to_string_lossy().into_owned());
        match above.as_deref().and_then(|a| path.strip_prefix(a)) {
            Some(rest) => format!("$FIX/..{rest}"),
            None => path.to_string(),
        }
    }

    /// The directory a parent fd refers to, for the fixture fd opened on `sub`.
    pub fn dir_of_fd(&self, fd: i32) -> Option<PathBuf> {
        (fd == FixtureFd::DirSub.fd()).then(|| self.root.join(Node::Sub.rel()))
    }

    /// The fixture fds, so a caller can hand duplicates to an API that takes `OwnedFd`.
    pub fn fd(&self, which: FixtureFd) -> &OwnedFd {
        let i = FixtureFd::ALL.iter().position(|f| *f == which).unwrap_or(0);
        &self.fds[i]
    }
}

/// The cwd a [`Fixture::enter`] replaced; restored on drop.
pub struct InFixture {
    previous: PathBuf,
}

impl Drop for InFixture {
    fn drop(&mut self) {
        // Nothing to do on failure: the previous directory is gone, and every path this crate
        // uses is absolute.
        let _ = std::env::set_current_dir(&self.previous);
    }
}

extern "C" fn noop_handler(_: libc::c_int) {}

/// Sets the parent's signal dispositions the sequences rely on: a handler for `SIGUSR1`,
/// `SIG_IGN` for `SIGUSR2` and `SIGHUP`, and `SIG_DFL` for `SIGPIPE` (which the Rust runtime
/// ignores and the shared implementation resets, as std does). Process-wide, so only the fuzz
/// runner calls it.
pub fn prepare_parent() -> io::Result<()> {
    let handler = noop_handler as extern "C" fn(libc::c_int) as libc::sighandler_t;
    for (sig, disposition) in [
        (libc::SIGUSR1, handler),
        (libc::SIGUSR2, libc::SIG_IGN),
        (libc::SIGHUP, libc::SIG_IGN),
        (libc::SIGPIPE, libc::SIG_DFL),
    ] {
        // SAFETY: a zeroed sigaction with an empty mask is valid; the handler is a no-op.
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = disposition;
            sa.sa_flags = libc::SA_RESTART;
            if libc::sigemptyset(&mut sa.sa_mask) != 0
                || libc::sigaction(sig, &sa, std::ptr::null_mut()) != 0
            {
                return Err(io::Error::last_os_error());
            }
        }
    }
    Ok(())
}
