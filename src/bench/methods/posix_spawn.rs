//! `libc:posix_spawn`: the C library's own spawn, with file actions for what the workload
//! needs (dup2 for stdio, addfchdir_np for the directory).

use std::io;

use std::os::fd::AsRawFd;
use std::ptr;

use super::super::reap::reap;
use super::super::workload::Workload;
use super::super::BenchError;
use super::fork::spawn_error;
use super::{Candidate, Method, Skipped};
use crate::sys::check_rc;
use crate::sys::spawn_ext::{self, AddFdFn};
use crate::sys::spawn_objects::FileActions;

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
            let res = (|| {
                if fds.stdin >= 0 {
                    check_rc(fa.adddup2(fds.stdin, 0))?;
                }
                if fds.stdout >= 0 {
                    check_rc(fa.adddup2(fds.stdout, 1))?;
                }
                if let (Some(dir), Some(f)) = (&w.dir, self.addfchdir) {
                    // SAFETY: `fa` is initialised; the fd is open for the spawn.
                    check_rc(unsafe { f(fa.as_mut_ptr(), dir.fd.as_raw_fd()) })?;
                }
                Ok(())
            })();
            res.map_err(|e| spawn_error(self, e))?;
        }
        let actions_ptr = actions.as_ref().map_or(ptr::null(), FileActions::as_ptr);
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
