//! Linux: `sched_setaffinity` on the calling thread.

use std::io;
use std::mem;

/// The calling thread pinned to one CPU; dropping it restores the CPUs it was allowed before.
pub struct Pin {
    cpu: usize,
    previous: libc::cpu_set_t,
}

impl Pin {
    /// Pins the calling thread to the highest-numbered CPU it may run on (CPU 0 tends to take
    /// more of the machine's interrupts). `Ok(None)` when it may run on one CPU only already.
    pub fn to_one_cpu() -> io::Result<Option<Pin>> {
        // SAFETY: an all-zero cpu_set_t is the empty set.
        let mut previous: libc::cpu_set_t = unsafe { mem::zeroed() };
        // SAFETY: pid 0 is the calling thread; the size is the set's.
        if unsafe { libc::sched_getaffinity(0, mem::size_of::<libc::cpu_set_t>(), &mut previous) }
            == -1
        {
            return Err(io::Error::last_os_error());
        }
        let allowed: Vec<usize> = (0..libc::CPU_SETSIZE as usize)
            // SAFETY: every index is below CPU_SETSIZE.
            .filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &previous) })
            .collect();
        let Some(&cpu) = allowed.last() else {
            return Ok(None);
        };
        if allowed.len() == 1 {
            return Ok(None);
        }
        // SAFETY: as above.
        let mut one: libc::cpu_set_t = unsafe { mem::zeroed() };
        // SAFETY: cpu is below CPU_SETSIZE.
        unsafe { libc::CPU_SET(cpu, &mut one) };
        set(&one)?;
        Ok(Some(Pin { cpu, previous }))
    }

    /// The CPU the thread runs on.
    pub fn cpu(&self) -> usize {
        self.cpu
    }
}

impl Drop for Pin {
    fn drop(&mut self) {
        // Restoring a set the kernel gave us cannot fail unless CPUs went offline meanwhile;
        // then the thread stays pinned, which only affects this process's scheduling.
        let _ = set(&self.previous);
    }
}

fn set(cpus: &libc::cpu_set_t) -> io::Result<()> {
    // SAFETY: pid 0 is the calling thread; the size is the set's.
    if unsafe { libc::sched_setaffinity(0, mem::size_of::<libc::cpu_set_t>(), cpus) } == -1 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Pin;

    fn allowed() -> usize {
        // SAFETY: as in `to_one_cpu`.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        assert_eq!(
            unsafe { libc::sched_getaffinity(0, std::mem::size_of_val(&set), &mut set) },
            0
        );
        // SAFETY: a set the kernel filled.
        (unsafe { libc::CPU_COUNT(&set) }) as usize
    }

    /// While pinned the thread may run on one CPU only; afterwards on as many as before.
    #[test]
    fn pins_and_restores() {
        std::thread::spawn(|| {
            let before = allowed();
            let pin = Pin::to_one_cpu().unwrap();
            match &pin {
                Some(p) => {
                    assert_eq!(allowed(), 1);
                    // SAFETY: sched_getcpu has no preconditions.
                    assert_eq!(unsafe { libc::sched_getcpu() } as usize, p.cpu());
                }
                None => assert_eq!(before, 1),
            }
            drop(pin);
            assert_eq!(allowed(), before);
        })
        .join()
        .unwrap();
    }
}
