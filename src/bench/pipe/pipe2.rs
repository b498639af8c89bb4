//! pipe2(O_CLOEXEC): no window in which another thread's fork could inherit the pipe.

use std::io;

pub fn pipe_cloexec(fds: &mut [libc::c_int; 2]) -> io::Result<()> {
    // SAFETY: `fds` has room for the two descriptors.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}
