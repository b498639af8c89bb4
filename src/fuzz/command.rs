//! The child command every executor starts (the helper, told where to report), prepared as C
//! strings and pointer arrays before any spawn so the forked child allocates nothing.

use std::ffi::{CStr, CString};
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use super::model::Sig;

/// argv and envp as C strings, plus the NULL-terminated pointer arrays over them.
pub struct ChildCommand {
    program: CString,
    argv: Vec<CString>,
    envp: Vec<CString>,
    argv_ptrs: Vec<*const libc::c_char>,
    envp_ptrs: Vec<*const libc::c_char>,
}

fn c(bytes: &[u8]) -> io::Result<CString> {
    CString::new(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))
}

fn ptrs(strings: &[CString]) -> Vec<*const libc::c_char> {
    strings
        .iter()
        .map(|s| s.as_ptr())
        .chain(std::iter::once(std::ptr::null()))
        .collect()
}

impl ChildCommand {
    /// `helper --report REPORT`, with a fixed small environment.
    pub fn helper(helper: &Path, report: &Path) -> io::Result<ChildCommand> {
        let program = c(helper.as_os_str().as_bytes())?;
        let argv = vec![
            program.clone(),
            c(b"--report")?,
            c(report.as_os_str().as_bytes())?,
        ];
        let envp = vec![c(b"PATH=/usr/bin:/bin")?, c(b"SPAWNMATRIX_FUZZ=1")?];
        let argv_ptrs = ptrs(&argv);
        let envp_ptrs = ptrs(&envp);
        Ok(ChildCommand {
            program,
            argv,
            envp,
            argv_ptrs,
            envp_ptrs,
        })
    }

    pub fn program(&self) -> &CStr {
        &self.program
    }

    /// The arguments after `argv[0]`, as Rust strings for APIs that take them.
    pub fn args(&self) -> impl Iterator<Item = &CStr> {
        self.argv.iter().skip(1).map(|s| s.as_c_str())
    }

    /// The environment entries.
    pub fn env(&self) -> impl Iterator<Item = &CStr> {
        self.envp.iter().map(|s| s.as_c_str())
    }

    /// NULL-terminated argv, as `execve` takes it.
    pub fn argv(&self) -> *const *const libc::c_char {
        self.argv_ptrs.as_ptr()
    }

    /// NULL-terminated envp, as `execve` takes it.
    pub fn envp(&self) -> *const *const libc::c_char {
        self.envp_ptrs.as_ptr()
    }
}

/// A `sigset_t` holding exactly `sigs`, every libc call checked.
pub fn sigset(sigs: &[Sig]) -> io::Result<libc::sigset_t> {
    // SAFETY: sigemptyset initialises the set before any use; sigaddset only writes into it.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        if libc::sigemptyset(&mut set) != 0 {
            return Err(io::Error::last_os_error());
        }
        for s in sigs {
            if libc::sigaddset(&mut set, s.number()) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(set)
    }
}
