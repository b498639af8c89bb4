//! A Linux target environment this crate has no libc probe for.

use crate::report::Libc;

pub(super) fn libc() -> Libc {
    Libc {
        name: "unknown".to_string(),
        version: None,
        detail: Some(format!("no libc probe for target {}", super::super::TARGET)),
    }
}
