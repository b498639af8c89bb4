//! Where a report was observed, from the environment (for container and CI runs).

use crate::report::Provenance;

/// The provenance kinds a live probe may claim (`link` and `doc` are not live observations).
/// `emulated`: a real kernel under full-system emulation (`ci/emulate.sh`); the image names the
/// emulator and the kernel package.
pub const PROVENANCE_KINDS: &[&str] = &["native", "container", "ci", "emulated"];

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ProvenanceError {
    #[error("{origin}: provenance kind {kind:?} is not one of native, container, ci, emulated")]
    UnknownKind { origin: String, kind: String },
    #[error("{origin}: provenance {kind} needs an image or runner label ({image_origin})")]
    MissingImage {
        origin: String,
        kind: String,
        image_origin: String,
    },
}

/// `SPAWNMATRIX_PROVENANCE` (kind), `SPAWNMATRIX_IMAGE`, `SPAWNMATRIX_HOST`; `None` when the
/// kind is unset or empty.
pub fn provenance_from_env() -> Result<Option<Provenance>, ProvenanceError> {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let Some(kind) = var("SPAWNMATRIX_PROVENANCE") else {
        return Ok(None);
    };
    build(
        "SPAWNMATRIX_PROVENANCE",
        &kind,
        var("SPAWNMATRIX_IMAGE"),
        var("SPAWNMATRIX_HOST"),
        "SPAWNMATRIX_IMAGE",
    )
    .map(Some)
}

/// A checked provenance. `origin` names where `kind` came from (a flag or variable) and
/// `image_origin` where the image should come from, for the error messages.
pub fn build(
    origin: &str,
    kind: &str,
    image: Option<String>,
    host: Option<String>,
    image_origin: &str,
) -> Result<Provenance, ProvenanceError> {
    if !PROVENANCE_KINDS.contains(&kind) {
        return Err(ProvenanceError::UnknownKind {
            origin: origin.to_string(),
            kind: kind.to_string(),
        });
    }
    if kind != "native" && image.is_none() {
        return Err(ProvenanceError::MissingImage {
            origin: origin.to_string(),
            kind: kind.to_string(),
            image_origin: image_origin.to_string(),
        });
    }
    Ok(Provenance {
        kind: kind.to_string(),
        image,
        host,
    })
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::{build, ProvenanceError};

    #[rstest]
    #[case("native", None, true)]
    #[case("native", Some("x"), true)]
    #[case("container", Some("spawnmatrix/debian:bullseye"), true)]
    #[case("ci", Some("macos-14"), true)]
    #[case("emulated", Some("qemu-system-aarch64 7.2 virt"), true)]
    #[case("container", None, false)]
    #[case("emulated", None, false)]
    #[case("doc", Some("x"), false)]
    #[case("Native", None, false)]
    fn kinds(#[case] kind: &str, #[case] image: Option<&str>, #[case] ok: bool) {
        let result = build(
            "--provenance",
            kind,
            image.map(String::from),
            None,
            "--image",
        );
        assert_eq!(result.is_ok(), ok, "{result:?}");
    }

    #[test]
    fn errors_name_their_origin() {
        let err = build(
            "SPAWNMATRIX_PROVENANCE",
            "vm",
            None,
            None,
            "SPAWNMATRIX_IMAGE",
        );
        assert_eq!(
            err.unwrap_err(),
            ProvenanceError::UnknownKind {
                origin: "SPAWNMATRIX_PROVENANCE".into(),
                kind: "vm".into()
            }
        );
    }
}
