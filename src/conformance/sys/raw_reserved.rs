//! Putting the signals the libc keeps for itself back to their default action, through the
//! kernel's `rt_sigaction` (the libc's own `sigaction` refuses these numbers).

use crate::sys::kernel_sigaction::{rt_sigaction, KernelSigaction};

/// Sets every signal of [`super::libc_reserved_signals`] that is not at `SIG_DFL` to it. A
/// number the kernel itself refuses (one an emulator such as valgrind keeps) cannot be
/// inherited either, so it is left alone.
pub fn reset_reserved_signals() -> Result<(), String> {
    for sig in super::libc_reserved_signals() {
        let mut old = KernelSigaction::default();
        // SAFETY: a query into a local.
        if unsafe { rt_sigaction(sig, std::ptr::null(), &mut old) } != 0 {
            continue;
        }
        if old.handler == libc::SIG_DFL {
            continue;
        }
        let default = KernelSigaction::default();
        // SAFETY: a valid action to read; no old action is written.
        if unsafe { rt_sigaction(sig, &default, std::ptr::null_mut()) } != 0 {
            return Err(format!(
                "rt_sigaction({sig}, SIG_DFL): {}",
                std::io::Error::last_os_error()
            ));
        }
    }
    Ok(())
}
