//! The three ways of spawning the scale benchmarks compare side by side: this crate's
//! `Command` with `Auto`, `std::process::Command`, and the libc's `posix_spawn` handed the
//! live `environ` (what a C program does). Each builds its request afresh per spawn, as
//! callers do, and waits for the child, which must exit 0.

use std::ffi::{CString, OsString};
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::ExitStatusExt;

use crate::spawn::os::unix::process::ExitStatusExt as _;
use std::path::Path;

/// One way of spawning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spawner {
    SharedAuto,
    /// `shared:auto` with `close_fds(true)`: the child gets a clean fd table.
    SharedCloseFds,
    Std,
    LibcPosixSpawn,
}

extern "C" {
    static environ: *const *const libc::c_char;
}

impl Spawner {
    pub const SIDE_BY_SIDE: [Spawner; 3] =
        [Spawner::SharedAuto, Spawner::Std, Spawner::LibcPosixSpawn];

    pub fn name(self) -> &'static str {
        match self {
            Spawner::SharedAuto => "shared:auto",
            Spawner::SharedCloseFds => "shared:auto+close_fds",
            Spawner::Std => "std:plain",
            Spawner::LibcPosixSpawn => "libc:posix_spawn",
        }
    }

    /// Spawns `program` with `args` and the parent's environment, and waits.
    pub fn spawn_wait(self, program: &Path, args: &[OsString]) -> io::Result<()> {
        let raw = match self {
            Spawner::SharedAuto | Spawner::SharedCloseFds => {
                let mut cmd = crate::spawn::Command::new(program);
                cmd.args(args).close_fds(self == Spawner::SharedCloseFds);
                cmd.spawn()?.wait()?.into_raw()
            }
            Spawner::Std => std::process::Command::new(program)
                .args(args)
                .spawn()?
                .wait()?
                .into_raw(),
            Spawner::LibcPosixSpawn => libc_spawn_wait(program, args)?,
        };
        if libc::WIFEXITED(raw) && libc::WEXITSTATUS(raw) == 0 {
            Ok(())
        } else {
            Err(io::Error::other(format!(
                "{}: the child ended with wait status {raw:#x}",
                self.name()
            )))
        }
    }
}

fn cstring(bytes: &[u8]) -> io::Result<CString> {
    CString::new(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))
}

fn libc_spawn_wait(program: &Path, args: &[OsString]) -> io::Result<libc::c_int> {
    let path = cstring(program.as_os_str().as_bytes())?;
    let mut strings = Vec::with_capacity(args.len() + 1);
    strings.push(path.clone());
    for a in args {
        strings.push(cstring(a.as_bytes())?);
    }
    let mut argv: Vec<*const libc::c_char> = strings.iter().map(|s| s.as_ptr()).collect();
    argv.push(std::ptr::null());
    let mut pid = 0;
    // SAFETY: path and argv are NUL-terminated and outlive the call; `environ` is the live
    // environment, which nothing in the benchmark changes while it spawns.
    let rc = unsafe {
        libc::posix_spawn(
            &mut pid,
            path.as_ptr(),
            std::ptr::null(),
            std::ptr::null(),
            argv.as_ptr() as *const *mut libc::c_char,
            environ as *const *mut libc::c_char,
        )
    };
    if rc != 0 {
        return Err(io::Error::from_raw_os_error(rc));
    }
    crate::fuzz::reap(pid)
}
