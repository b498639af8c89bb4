//! musl has no version API, so the version stays unknown (its `default.yaml` applies).

use super::LibcId;

pub fn libc_identity() -> LibcId {
    LibcId {
        name: "musl",
        version: None,
        family: "linux-musl",
    }
}
