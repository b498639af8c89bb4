//! Apple has no pipe2: pipe, then FD_CLOEXEC on each end (as std does there).

use std::io;

pub fn pipe_cloexec(fds: &mut [libc::c_int; 2]) -> io::Result<()> {
    // SAFETY: `fds` has room for the two descriptors; every return code is checked and both
    // ends are closed again on failure.
    unsafe {
        if libc::pipe(fds.as_mut_ptr()) != 0 {
            return Err(io::Error::last_os_error());
        }
        for &fd in fds.iter() {
            if libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) != 0 {
                let err = io::Error::last_os_error();
                libc::close(fds[0]);
                libc::close(fds[1]);
                return Err(err);
            }
        }
    }
    Ok(())
}
