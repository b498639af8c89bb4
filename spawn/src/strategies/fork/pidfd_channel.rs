//! How a forked child hands the parent its own pidfd, so `fork` gets a pidfd with no window
//! in which the pid could be reaped and reused: the child opens `pidfd_open(getpid())` (it is
//! alive, so the pidfd is its own) and sends it over the close-on-exec socket its errno report
//! travels on, before anything else (`child_side/fork_entry.rs`). The message is two ints, `MARK` and `pidfd_open`'s
//! errno (0 when an fd is attached), so the parent can tell it from a 4-byte errno report of a
//! child whose send failed.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::ptr;

use crate::child_side::pidfd_send::{CmsgBuf, INT, MARK};
use crate::platform::errno::last;

/// What the parent read first on the channel.
pub(crate) enum Report {
    /// The child's pidfd, or why it has none.
    Pidfd(io::Result<OwnedFd>),
    /// A 4-byte errno report: the child could not send its pidfd and then failed.
    Errno(libc::c_int),
    /// End of file before any report: the child exec'd or died without sending.
    Nothing,
}

/// A connected pair of close-on-exec stream sockets: (parent's read end, child's write end).
pub(crate) fn channel() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    let ty = libc::SOCK_STREAM | libc::SOCK_CLOEXEC;
    // SAFETY: socketpair writes two fds into the array when it returns 0.
    if unsafe { libc::socketpair(libc::AF_UNIX, ty, 0, fds.as_mut_ptr()) } == -1 {
        return Err(last());
    }
    // SAFETY: both fds are new and owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// In the parent: reads the child's first report on `sock` (the pidfd received close-on-exec).
pub(crate) fn receive(sock: &OwnedFd) -> io::Result<Report> {
    let mut words = [0 as libc::c_int; 2];
    let mut got = 0;
    let mut pidfd: Option<OwnedFd> = None;
    let mut truncated = false;
    while got < 2 * INT {
        let mut iov = libc::iovec {
            // SAFETY: within `words`.
            iov_base: unsafe { words.as_mut_ptr().cast::<u8>().add(got).cast() },
            iov_len: 2 * INT - got,
        };
        let mut buf = CmsgBuf([0; 64]);
        // SAFETY: an all-zero msghdr is valid.
        let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = buf.0.as_mut_ptr().cast();
        msg.msg_controllen = buf.0.len() as _;
        // SAFETY: every pointer in `msg` is valid for its length.
        let n = unsafe { libc::recvmsg(sock.as_raw_fd(), &mut msg, libc::MSG_CMSG_CLOEXEC) };
        if n == -1 {
            let e = last();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        truncated |= msg.msg_flags & libc::MSG_CTRUNC != 0;
        // SAFETY: `msg` as recvmsg filled it; the data is one fd when the header says so.
        unsafe {
            let cmsg = libc::CMSG_FIRSTHDR(&msg);
            if !cmsg.is_null()
                && (*cmsg).cmsg_level == libc::SOL_SOCKET
                && (*cmsg).cmsg_type == libc::SCM_RIGHTS
            {
                let fd = ptr::read_unaligned(libc::CMSG_DATA(cmsg).cast::<libc::c_int>());
                pidfd = Some(OwnedFd::from_raw_fd(fd));
            }
        }
        match usize::try_from(n) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(_) => return Err(io::Error::other("recvmsg returned a negative length")),
        }
    }
    let [first, second] = words;
    let whole = got == 2 * INT && first == MARK;
    Ok(match got {
        0 => Report::Nothing,
        INT => Report::Errno(first),
        _ if whole && second == 0 => Report::Pidfd(pidfd.ok_or_else(|| match truncated {
            true => io::Error::other("the child's pidfd did not fit (MSG_CTRUNC: fd limit?)"),
            false => io::Error::other("the child's pidfd message carried no fd"),
        })),
        _ if whole => Report::Pidfd(Err(io::Error::from_raw_os_error(second))),
        _ => return Err(io::Error::other("malformed report from the forked child")),
    })
}
