//! `libc:posix_spawn`: the C library's own spawn, with file actions for what the workload
//! needs (dup2 for stdio, addfchdir_np for the directory).

use std::io;
use std::mem::MaybeUninit;
use std::os::fd::AsRawFd;
use std::ptr;

use super::super::reap::reap;
use super::super::workload::Workload;
use super::super::BenchError;
use super::fork::spawn_error;
use super::{Candidate, Method, Skipped};
use crate::sys::spawn_ext::{self, AddFdFn};

const NAME: &str = "libc:posix_spawn";

pub struct PosixSpawn {
    /// Present when the workload has a directory.
    addfchdir: Option<AddFdFn>,
}

impl PosixSpawn {
    pub fn candidate(w: &Workload) -> Candidate {
        let addfchdir = match &w.dir {
            None => None,
            Some(_) => Some(
                spawn_ext::addfchdir()
                    .map(|f| f.func)
                    .ok_or_else(|| Skipped {
                        name: NAME,
                        reason: "posix_spawn_file_actions_addfchdir_np is not available"
                            .to_string(),
                    })?,
            ),
        };
        Ok(Box::new(PosixSpawn { addfchdir }))
    }
}

impl Method for PosixSpawn {
    fn name(&self) -> &'static str {
        NAME
    }

    fn spawn_wait(&mut self, w: &Workload) -> Result<(), BenchError> {
        let mut fds = w.spawn_fds().map_err(|e| spawn_error(self, e))?;
        let mut actions = None;
        if fds.stdin >= 0 || fds.stdout >= 0 || w.dir.is_some() {
            let fa = actions.insert(FileActions::new().map_err(|e| spawn_error(self, e))?);
            let add = |rc| {
                if rc == 0 {
                    Ok(())
                } else {
                    Err(io::Error::from_raw_os_error(rc))
                }
            };
            let res = (|| {
                if fds.stdin >= 0 {
                    add(fa.adddup2(fds.stdin, 0))?;
                }
                if fds.stdout >= 0 {
                    add(fa.adddup2(fds.stdout, 1))?;
                }
                if let (Some(dir), Some(f)) = (&w.dir, self.addfchdir) {
                    // SAFETY: `fa` is initialised; the fd is open for the spawn.
                    add(unsafe { f(fa.as_mut_ptr(), dir.fd.as_raw_fd()) })?;
                }
                Ok(())
            })();
            res.map_err(|e| spawn_error(self, e))?;
        }
        let actions_ptr = actions
            .as_mut()
            .map_or(ptr::null(), |fa| fa.as_mut_ptr() as *const _);
        let mut pid = 0;
        // SAFETY: path, argv and envp are NUL-terminated arrays owned by the workload; the
        // file actions are initialised or NULL.
        let rc = unsafe {
            libc::posix_spawn(
                &mut pid,
                w.exec_path.as_ptr(),
                actions_ptr,
                ptr::null(),
                w.argv.as_ptr() as *const *mut libc::c_char,
                w.envp.as_ptr() as *const *mut libc::c_char,
            )
        };
        fds.spawned();
        drop(actions);
        if rc != 0 {
            return Err(spawn_error(self, io::Error::from_raw_os_error(rc)));
        }
        reap(NAME, pid)
    }
}

/// An initialised `posix_spawn_file_actions_t`, destroyed on drop.
struct FileActions(Box<MaybeUninit<libc::posix_spawn_file_actions_t>>);

impl FileActions {
    fn new() -> io::Result<FileActions> {
        let mut fa = Box::new(MaybeUninit::uninit());
        // SAFETY: initialises the boxed storage; the return code is checked.
        let rc = unsafe { libc::posix_spawn_file_actions_init(fa.as_mut_ptr()) };
        if rc != 0 {
            return Err(io::Error::from_raw_os_error(rc));
        }
        Ok(FileActions(fa))
    }

    fn as_mut_ptr(&mut self) -> *mut libc::posix_spawn_file_actions_t {
        self.0.as_mut_ptr()
    }

    fn adddup2(&mut self, fd: libc::c_int, target: libc::c_int) -> libc::c_int {
        // SAFETY: initialised in `new`.
        unsafe { libc::posix_spawn_file_actions_adddup2(self.as_mut_ptr(), fd, target) }
    }
}

impl Drop for FileActions {
    fn drop(&mut self) {
        // SAFETY: initialised in `new` and destroyed once.
        unsafe { libc::posix_spawn_file_actions_destroy(self.as_mut_ptr()) };
    }
}
