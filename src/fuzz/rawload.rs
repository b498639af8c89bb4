//! The raw libc as a load [`Spawner`]: `posix_spawn` with two `adddup2` actions.

use std::ffi::CString;
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use super::load::{Ended, Pipes, Running, Spawner};
use crate::sys::check_rc;
use crate::sys::spawn_objects::FileActions;

/// Starts the program through the libc's `posix_spawn`, stdin and stdout from the pipes.
pub struct RawPosixSpawn;

/// A child started by pid, waited for with `waitpid`.
pub struct RawChild(pub libc::pid_t);

impl Running for RawChild {
    fn pid(&self) -> u32 {
        self.0 as u32
    }

    fn wait(self: Box<Self>) -> io::Result<Ended> {
        let status = super::reap(self.0)?;
        Ok(if libc::WIFSIGNALED(status) {
            Ended::Signal(libc::WTERMSIG(status))
        } else {
            Ended::Code(libc::WEXITSTATUS(status))
        })
    }
}

impl Spawner for RawPosixSpawn {
    fn start(&self, program: &Path, pipes: Pipes) -> io::Result<Box<dyn Running>> {
        let prog = CString::new(program.as_os_str().as_bytes())
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        let argv = [prog.as_ptr() as *mut libc::c_char, std::ptr::null_mut()];
        let envp: [*mut libc::c_char; 1] = [std::ptr::null_mut()];
        let mut pid: libc::pid_t = -1;
        let mut fa = FileActions::new()?;
        check_rc(fa.adddup2(pipes.stdin.as_raw_fd(), 0))?;
        check_rc(fa.adddup2(pipes.stdout.as_raw_fd(), 1))?;
        // SAFETY: an initialised actions object; argv and envp are NULL-terminated and
        // outlive the call.
        check_rc(unsafe {
            libc::posix_spawn(
                &mut pid,
                prog.as_ptr(),
                fa.as_ptr(),
                std::ptr::null(),
                argv.as_ptr(),
                envp.as_ptr(),
            )
        })?;
        drop(pipes);
        Ok(Box::new(RawChild(pid)))
    }
}
