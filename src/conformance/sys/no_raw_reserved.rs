//! Where the library declares no kernel `struct sigaction`: the reserved signals cannot be
//! reached around the libc (there are none outside Linux), so nothing is done.

/// Nothing to do: see the module doc.
pub fn reset_reserved_signals() -> Result<(), String> {
    Ok(())
}
