//! Smoke tests of `spawnmatrix bench` through the binary: every preset runs every method at
//! parent size 0 and writes consistent outputs. No timing is asserted (that is the
//! benchmark's job, not a test's).

use std::process::Command;

use rstest::rstest;
use spawnmatrix::report::Perf;

fn bench(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_spawnmatrix"))
        .arg("bench")
        .args(args)
        .output()
        .expect("running spawnmatrix bench")
}

#[rstest]
#[case("spawn", "bench")]
#[case("rust-pr", "bench-rust-pr")]
#[case("cgi", "bench-cgi")]
fn every_method_runs_and_outputs_agree(#[case] preset: &str, #[case] stem: &str) {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().to_str().unwrap();
    let args = [
        "--sizes",
        "0",
        "--iterations",
        "20",
        "--warmup",
        "2",
        "--quiet",
        "--json",
    ];
    let out = bench(&[&args[..], &["--preset", preset, "--out", out_dir]].concat());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "bench failed: {stderr}");

    let perf: Perf = serde_json::from_slice(&out.stdout).expect("stdout is the perf JSON");
    assert_eq!(perf.iterations, 20);
    assert_eq!(perf.entries[0].strategy, perf.floor);
    assert_eq!(perf.entries[0].ratio_to_floor, 1.0);
    for name in [
        "raw:fork",
        "std:plain",
        "std:path_override",
        "std:pre_exec",
        "shared:auto",
    ] {
        assert!(
            perf.entries.iter().any(|e| e.strategy == name),
            "{name} missing"
        );
    }
    for e in &perf.entries {
        assert_eq!(e.parent_mib, 0);
        assert!(
            0.0 < e.min_us && e.min_us <= e.median_us && e.median_us <= e.p90_us,
            "{e:?}"
        );
    }

    let file = |ext: &str| std::fs::read_to_string(dir.path().join(format!("{stem}.{ext}")));
    let stored: Perf = serde_json::from_str(&file("json").unwrap()).unwrap();
    assert_eq!(stored, perf);
    assert!(file("md")
        .unwrap()
        .contains(&format!("floor `{}`", perf.floor)));
    let svg = file("svg").unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains(&perf.floor),
        "not the plot: {svg:.200}"
    );
}

#[rstest]
#[case(&["--sizes", "1T"], "parent size 1024 GiB refused")]
#[case(&["--sizes", "1.5G"], "unknown unit")]
#[case(&["--sizes", "0", "--methods", "raw:nope"], "unknown method \"raw:nope\"")]
#[case(&["--sizes", "0", "--iterations", "0"], "iterations")]
#[case(&["--sizes", "sparse:1G"], "unknown shape")]
fn bad_requests_are_refused_before_measuring(#[case] args: &[&str], #[case] message: &str) {
    let out = bench(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(message), "{stderr}");
    assert!(out.stdout.is_empty());
}

/// A fragmented and a reserved parent are measured beside a touched one, each entry saying
/// its shape, and the Markdown names them in its columns.
#[test]
fn parent_shapes_are_measured_and_labelled() {
    let dir = tempfile::tempdir().unwrap();
    let out = bench(&[
        "--sizes",
        "0,fragmented:64M,reserved:4G",
        "--methods",
        "raw:fork",
        "--iterations",
        "5",
        "--warmup",
        "1",
        "--quiet",
        "--json",
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "bench failed: {stderr}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let fork: Vec<(u64, Option<&str>)> = v["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["strategy"] == "raw:fork")
        .map(|e| (e["parent_mib"].as_u64().unwrap(), e["shape"].as_str()))
        .collect();
    assert_eq!(
        fork,
        [
            (0, None),
            (64, Some("fragmented")),
            (4096, Some("reserved"))
        ]
    );
    let md = std::fs::read_to_string(dir.path().join("bench.md")).unwrap();
    assert!(
        md.contains("| 64 MiB fragmented |") && md.contains("| 4 GiB reserved |"),
        "{md}"
    );
}

/// `--scale` measures every dimension for every spawner side by side and writes one SVG per
/// dimension; with 10 spawns per point it takes seconds (the 10k points are the slow ones).
#[test]
fn scale_measures_every_dimension() {
    let dir = tempfile::tempdir().unwrap();
    let out = bench(&[
        "--scale",
        "--iterations",
        "5",
        "--quiet",
        "--json",
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "bench --scale failed: {stderr}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let tables = v["tables"].as_array().unwrap();
    let dims: Vec<&str> = tables
        .iter()
        .map(|t| t["dimension"].as_str().unwrap())
        .collect();
    assert_eq!(dims, ["threads", "env_vars", "args", "open_fds"]);
    for t in tables {
        let points = t["points"].as_array().unwrap();
        let spawners: std::collections::BTreeSet<&str> = points
            .iter()
            .map(|p| p["spawner"].as_str().unwrap())
            .collect();
        assert!(spawners.contains("shared:auto") && spawners.contains("libc:posix_spawn"));
        for p in points {
            assert!(p["median_us"].as_f64().unwrap() > 0.0, "{p}");
            assert!(p["ratio_to_first"].as_f64().unwrap() > 0.0, "{p}");
        }
        let svg = dir.path().join(format!(
            "bench-scale-{}.svg",
            t["dimension"].as_str().unwrap()
        ));
        assert!(std::fs::read_to_string(svg).unwrap().starts_with("<svg"));
    }
}
