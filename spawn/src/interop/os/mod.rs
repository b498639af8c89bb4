//! Platform-specific extensions, where std has them: `os::unix::process` (`CommandExt`,
//! `ExitStatusExt`) and `os::linux::process` (`PidFd`, `ChildExt`, `CommandExt`), so
//! `use std::os::unix::process::CommandExt` becomes `use <this crate>::os::unix::process::CommandExt`.

/// Unix extensions, as in `std::os::unix`.
pub mod unix {
    pub mod process;
}

/// Linux extensions, as in `std::os::linux`.
#[cfg(target_os = "linux")]
pub mod linux {
    pub mod process;
}

/// Keeps the extension traits implementable only here, as std's are.
mod sealed {
    pub trait Sealed {}
    impl Sealed for crate::Command {}
    impl Sealed for crate::Child {}
    impl Sealed for crate::ExitStatus {}
}
