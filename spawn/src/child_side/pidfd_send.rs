//! How a forked child sends the parent its own pidfd (Linux), first thing: `pidfd_open` of
//! itself (it is alive, so the pidfd is its own), sent over the close-on-exec socket its errno
//! report travels on. The parent's end is `strategies/fork/pidfd_channel.rs`, which reads the
//! message laid out here.

use std::os::fd::RawFd;
use std::ptr;

use crate::platform::errno::errno;

/// The first int of a pidfd message.
pub(crate) const MARK: libc::c_int = 0x7f1d_fd00;

pub(crate) const INT: usize = std::mem::size_of::<libc::c_int>();

/// Room for one `cmsghdr` carrying one fd, suitably aligned.
#[repr(C, align(8))]
pub(crate) struct CmsgBuf(pub [u8; 64]);

/// In the forked child, first thing: sends its own pidfd (or `pidfd_open`'s errno) on `sock`.
/// Async-signal-safe: system calls on stack data only. A failed send is left for the parent
/// to notice (no message arrives).
///
/// # Safety
/// Must run in the child, with `sock` the child's end of the parent's channel
/// (`strategies/fork/pidfd_channel.rs`).
pub(crate) unsafe fn send_own(sock: RawFd) {
    let me = libc::syscall(libc::SYS_getpid);
    let pidfd = libc::syscall(libc::SYS_pidfd_open, me, 0 as libc::c_uint) as libc::c_int;
    let mut words = [MARK, if pidfd < 0 { errno() } else { 0 }];
    let mut iov = libc::iovec {
        iov_base: words.as_mut_ptr().cast(),
        iov_len: 2 * INT,
    };
    let mut buf = CmsgBuf([0; 64]);
    let mut msg: libc::msghdr = std::mem::zeroed();
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    if pidfd >= 0 {
        msg.msg_control = buf.0.as_mut_ptr().cast();
        msg.msg_controllen = libc::CMSG_SPACE(INT as libc::c_uint) as _;
        let cmsg = libc::CMSG_FIRSTHDR(&msg);
        (*cmsg).cmsg_level = libc::SOL_SOCKET;
        (*cmsg).cmsg_type = libc::SCM_RIGHTS;
        (*cmsg).cmsg_len = libc::CMSG_LEN(INT as libc::c_uint) as _;
        ptr::write_unaligned(libc::CMSG_DATA(cmsg).cast::<libc::c_int>(), pidfd);
    }
    // Raw calls, as everywhere in the child (`calls/`).
    libc::syscall(
        libc::SYS_sendmsg,
        sock,
        &msg as *const libc::msghdr,
        libc::MSG_NOSIGNAL,
    );
    if pidfd >= 0 {
        super::calls::close(pidfd);
    }
}
