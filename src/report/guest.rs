//! How an emulated guest ran (`ci/emulate.sh`, added by `ci/emulate/results.py save`): the
//! kernel it booted and what the suites there counted, so that a stored report carries its
//! own evidence instead of a README line.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Guest {
    /// `uname -srm` in the guest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uname: Option<String>,
    /// The kernel's page size as the guest saw it (`4 kB`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_size: Option<String>,
    /// The emulator's accelerator and CPU arguments (`-accel tcg -cpu max`).
    pub emulator: String,
    /// `kvm` or `tcg`.
    pub accel: String,
    /// The Debian package the kernel came from, with its version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernel_package: Option<String>,
    /// The kernel config flags that matter to the spawn code (`CONFIG_SECCOMP_FILTER`: `y`;
    /// `n` for one that is not set), from the package's config file.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub kernel_config: BTreeMap<String, String>,
    /// Seconds from the kernel's start to the guest's init (the guest's clock).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boot_seconds: Option<f64>,
    /// Wall seconds of the whole guest run, boot to power-off.
    pub boot_and_run_seconds: u64,
    /// Per program the guest ran (a test binary, `spawnmatrix-probe`).
    pub programs: BTreeMap<String, ProgramRun>,
    /// tests/mechanism.rs per strategy (`clone3`: `ok`): strace's view of which call made
    /// the child agreed with the strategy the library reported.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub mechanism: BTreeMap<String, String>,
}

/// One program's run in the guest: its tests' counts (all 0 for a program that is no test
/// binary) and its wall time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProgramRun {
    pub seconds: u64,
    pub passed: u64,
    pub failed: u64,
    pub ignored: u64,
}
