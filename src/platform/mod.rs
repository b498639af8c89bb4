//! What this platform is: os, os version, kernel, arch, target, libc (name, version and how
//! the version was found) and how the observation was made (provenance).
//!
//! One module per platform family supplies the os version and the libc; `uname.rs` and
//! `os_release.rs` are shared helpers.

pub mod provenance;
mod uname;

spawnmatrix_spawn::family_module!(family, linux = "linux/mod.rs");

// Elsewhere only its parser tests use it, so the file reader is unused there.
#[cfg(any(target_os = "linux", test))]
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
mod os_release;

pub use provenance::{provenance_from_env, ProvenanceError, PROVENANCE_KINDS};

use crate::report::{Platform, Provenance};

/// The Rust target triple this crate was built for (from `build.rs`).
pub const TARGET: &str = env!("SPAWNMATRIX_TARGET");

/// This platform, observed with provenance `native`. See [`detect_from_env`] for runs that
/// say where they ran (containers, CI).
pub fn detect() -> Platform {
    detect_with(Provenance {
        kind: "native".to_string(),
        image: None,
        host: None,
    })
}

/// This platform, with the provenance `SPAWNMATRIX_PROVENANCE` / `SPAWNMATRIX_IMAGE` /
/// `SPAWNMATRIX_HOST` give (`native` when unset); an invalid kind is an error.
pub fn detect_from_env() -> Result<Platform, ProvenanceError> {
    Ok(match provenance_from_env()? {
        Some(provenance) => detect_with(provenance),
        None => detect(),
    })
}

/// This platform, observed with the given provenance.
pub fn detect_with(provenance: Provenance) -> Platform {
    let uname = uname::uname();
    Platform {
        os: std::env::consts::OS.to_string(),
        os_version: family::os_version(uname.as_ref()),
        kernel: uname.as_ref().map(|u| u.release.clone()),
        arch: std::env::consts::ARCH.to_string(),
        target: TARGET.to_string(),
        libc: family::libc(uname.as_ref()),
        provenance,
    }
}

#[cfg(test)]
mod tests;
