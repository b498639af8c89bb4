use super::{detect, TARGET};

#[test]
fn identity_matches_the_build() {
    let p = detect();
    assert_eq!(p.os, std::env::consts::OS);
    assert_eq!(p.arch, std::env::consts::ARCH);
    assert_eq!(p.target, TARGET);
    // Triples name x86 by model (i686, i586).
    let arch = match std::env::consts::ARCH {
        "x86" => "i",
        other => other,
    };
    assert!(TARGET.starts_with(arch), "{TARGET}");
    assert_eq!(p.provenance.kind, "native");
    assert!(p.kernel.as_deref().is_some_and(|k| !k.is_empty()));
}

/// On glibc the version is the library's own answer, and it matches `ldd --version`'s format.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn glibc_reports_its_version() {
    let libc = detect().libc;
    assert_eq!(libc.name, "glibc");
    let version = libc.version.unwrap();
    let parts: Vec<u32> = version.split('.').map(|p| p.parse().unwrap()).collect();
    assert!(parts.len() >= 2 && parts[0] == 2, "{version}");
}

/// Rust's bundled musl (1.2.5) has statx; the inference must say so and say how. (Linked
/// against Debian's musl 1.2.3 instead, with the RUSTFLAGS in the machine notes, this test
/// fails as it should: that build reported ">=1.2.3".)
#[cfg(all(target_os = "linux", target_env = "musl"))]
#[test]
fn bundled_musl_is_at_least_1_2_5() {
    let libc = detect().libc;
    assert_eq!(libc.name, "musl");
    assert_eq!(libc.version.as_deref(), Some(">=1.2.5"));
    assert!(libc.detail.unwrap().contains("statx"));
}

/// This machine's os-release (Debian 12 here) gives `ID VERSION_ID`. A system without one
/// (the busybox initramfs of `ci/emulate.sh`) has no os version: none is made up.
#[cfg(target_os = "linux")]
#[test]
fn linux_os_version_comes_from_os_release() {
    let expected =
        super::os_release::read().and_then(|fields| super::os_release::os_version(&fields));
    assert_eq!(detect().os_version, expected);
}

/// The seccomp profile comes from the image label `ci/containers.sh` writes, and only there.
#[rstest::rstest]
#[case(
    Some("spawnmatrix/debian:bullseye seccomp=docker-default"),
    Some("docker-default")
)]
#[case(Some("spawnmatrix/debian:bullseye"), None)]
#[case(Some("macos-15"), None)]
#[case(None, None)]
fn the_seccomp_profile_is_read_from_the_image_label(
    #[case] image: Option<&str>,
    #[case] profile: Option<&str>,
) {
    let mut p = detect();
    p.provenance.image = image.map(str::to_string);
    assert_eq!(p.seccomp_profile(), profile);
}
