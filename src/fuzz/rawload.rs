//! The raw libc as a load [`Spawner`]: `posix_spawn` with two `adddup2` actions.

use std::ffi::CString;
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use super::load::{Ended, Pipes, Running, Spawner};

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

fn check(rc: libc::c_int) -> io::Result<()> {
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::from_raw_os_error(rc))
    }
}

impl Spawner for RawPosixSpawn {
    fn start(&self, program: &Path, pipes: Pipes) -> io::Result<Box<dyn Running>> {
        let prog = CString::new(program.as_os_str().as_bytes())
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        let argv = [prog.as_ptr() as *mut libc::c_char, std::ptr::null_mut()];
        let envp: [*mut libc::c_char; 1] = [std::ptr::null_mut()];
        let mut pid: libc::pid_t = -1;
        // SAFETY: the actions object is initialised before use and destroyed on every path;
        // argv and envp are NULL-terminated and outlive the call.
        unsafe {
            let mut fa: libc::posix_spawn_file_actions_t = std::mem::zeroed();
            check(libc::posix_spawn_file_actions_init(&mut fa))?;
            let rc = (|| {
                check(libc::posix_spawn_file_actions_adddup2(
                    &mut fa,
                    pipes.stdin.as_raw_fd(),
                    0,
                ))?;
                check(libc::posix_spawn_file_actions_adddup2(
                    &mut fa,
                    pipes.stdout.as_raw_fd(),
                    1,
                ))?;
                check(libc::posix_spawn(
                    &mut pid,
                    prog.as_ptr(),
                    &fa,
                    std::ptr::null(),
                    argv.as_ptr(),
                    envp.as_ptr(),
                ))
            })();
            libc::posix_spawn_file_actions_destroy(&mut fa);
            rc?;
        }
        drop(pipes);
        Ok(Box::new(RawChild(pid)))
    }
}
