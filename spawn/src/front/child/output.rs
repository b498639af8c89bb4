//! Reading a child's stdout and stderr together without a thread, so neither pipe can fill
//! up and block the child while the other is read.

use std::io::{self, Read};
use std::os::fd::{AsRawFd, OwnedFd};

use crate::platform::errno::check;

/// Reads both fds to end of file.
pub(crate) fn read2(out: Option<OwnedFd>, err: Option<OwnedFd>) -> io::Result<(Vec<u8>, Vec<u8>)> {
    let mut bufs = (Vec::new(), Vec::new());
    let mut open = [out.map(std::fs::File::from), err.map(std::fs::File::from)];
    loop {
        let mut polls: Vec<libc::pollfd> = open
            .iter()
            .flatten()
            .map(|f| libc::pollfd {
                fd: f.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            })
            .collect();
        if polls.is_empty() {
            return Ok(bufs);
        }
        // SAFETY: poll reads and writes `polls`, whose length is passed with it.
        match check(unsafe { libc::poll(polls.as_mut_ptr(), polls.len() as libc::nfds_t, -1) }) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
            Ok(_) => {}
        }
        for (slot, buf) in open.iter_mut().zip([&mut bufs.0, &mut bufs.1]) {
            let ready = match slot {
                Some(f) => polls
                    .iter()
                    .any(|p| p.fd == f.as_raw_fd() && p.revents != 0),
                None => false,
            };
            if ready {
                read_some(slot, buf)?;
            }
        }
    }
}

/// One read into `buf`; at end of file the slot is closed.
fn read_some(slot: &mut Option<std::fs::File>, buf: &mut Vec<u8>) -> io::Result<()> {
    let Some(f) = slot else { return Ok(()) };
    let mut chunk = [0u8; 8192];
    match f.read(&mut chunk) {
        Ok(0) => *slot = None,
        Ok(n) => buf.extend_from_slice(&chunk[..n]),
        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
        Err(e) => return Err(e),
    }
    Ok(())
}
