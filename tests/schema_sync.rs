//! The JSON Schemas in schema/ must describe exactly what the Rust types read and write:
//! every object's `properties` are the fields the type serializes, and a property is
//! `required` exactly when deserialization fails without it. Stored reports are also checked
//! to parse; `.ci/run` validates them against the schema with check-jsonschema.

use std::collections::BTreeMap;
use std::path::PathBuf;

use rstest::rstest;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

use spawnmatrix::matrix::model::{
    Alternative, Boundary, Claim, Evidence, FamilyInfo, Group, Matrix, Reason, Row, SharedClaim,
    State, StateKind,
};
use spawnmatrix::matrix::{Cell, Column};
use spawnmatrix::report::{
    Capability, CaseResult, Fuzz, FuzzExplained, FuzzFinding, FuzzSubject, Libc, Perf, PerfEntry,
    Platform, Provenance, Report, SandboxRun,
};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn schema(name: &str) -> Value {
    let text = std::fs::read_to_string(root().join("schema").join(name)).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn some(s: &str) -> Option<String> {
    Some(s.to_string())
}

/// A report with every optional field set and every collection non-empty.
fn full_report() -> Report {
    let mut caps = BTreeMap::new();
    caps.insert(
        String::from("posix_spawn"),
        Capability {
            available: true,
            how: String::from("dlsym"),
            note: some("n"),
            source: some("s"),
        },
    );
    let mut subjects = BTreeMap::new();
    subjects.insert(
        String::from("libc"),
        CaseResult {
            outcome: String::from("ok"),
            facts: [(String::from("cwd"), json!("/"))].into_iter().collect(),
            verdict: String::from("pass"),
            note: some("n"),
        },
    );
    Report {
        schema_version: 1,
        suite_version: String::from("0.1.0"),
        generated_at: String::from("2026-11-30T07:00:00Z"),
        platform: full_platform(),
        capabilities: caps,
        cases: [(String::from("exec-enoent"), subjects)]
            .into_iter()
            .collect(),
        auto_strategy: some("clone3"),
        perf: Some(Perf {
            floor: String::from("vfork"),
            iterations: 10,
            pinned_cpu: Some(1),
            entries: vec![PerfEntry {
                strategy: String::from("auto"),
                parent_mib: 64,
                // Not the default, so that the field is serialised and checked.
                shape: spawnmatrix::report::ParentShape::Fragmented,
                min_us: 1.0,
                median_us: 2.0,
                p90_us: 3.0,
                ratio_to_floor: 1.1,
            }],
        }),
        fuzz: Some(Fuzz {
            seed: 1,
            sequences: 2,
            seconds: 3.0,
            jobs: 4,
            load_average: Some(0.5),
            subjects: [(
                String::from("libc"),
                FuzzSubject {
                    compared: 1,
                    unsupported: 1,
                },
            )]
            .into_iter()
            .collect(),
            explained: [(
                String::from("add-no-upper-bound"),
                FuzzExplained {
                    case: String::from("fa-add-ebadf"),
                    count: 1,
                },
            )]
            .into_iter()
            .collect(),
            unexplained: vec![FuzzFinding {
                index: 0,
                subject: String::from("libc"),
                reference: String::from("ok"),
                got: String::from("add:EBADF"),
                sequence: String::from("{}"),
            }],
        }),
        sandbox: [(
            String::from("clone3-eperm"),
            SandboxRun {
                auto: String::from("clone_vfork"),
                forced: [(String::from("clone3"), String::from("unsupported"))].into(),
                libc: [(
                    String::from("posix_spawn_missing"),
                    String::from("error lost: returned 0, the child exited 127"),
                )]
                .into(),
            },
        )]
        .into(),
        guest: Some(spawnmatrix::report::Guest {
            uname: some("Linux 5.10.0-32-cloud-amd64 x86_64"),
            page_size: some("4 kB"),
            emulator: String::from("-accel tcg -cpu max"),
            accel: String::from("tcg"),
            kernel_package: some("linux-image-5.10.0-32-cloud-amd64 5.10.223-1 amd64"),
            kernel_config: [(String::from("CONFIG_SECCOMP"), String::from("y"))].into(),
            boot_seconds: Some(1.5),
            boot_and_run_seconds: 100,
            programs: [(
                String::from("spawn"),
                spawnmatrix::report::ProgramRun {
                    seconds: 10,
                    passed: 5,
                    failed: 0,
                    ignored: 1,
                },
            )]
            .into(),
            mechanism: [(String::from("clone3"), String::from("ok"))].into(),
        }),
    }
}

fn full_platform() -> Platform {
    Platform {
        os: String::from("linux"),
        os_version: some("debian 12"),
        kernel: some("6.18"),
        arch: String::from("x86_64"),
        target: String::from("x86_64-unknown-linux-gnu"),
        libc: Libc {
            name: String::from("glibc"),
            version: some("2.36"),
            detail: some("d"),
        },
        provenance: Provenance {
            kind: String::from("native"),
            image: some("i"),
            host: some("h"),
        },
    }
}

fn full_matrix() -> Matrix {
    let cell = Cell {
        value: spawnmatrix::matrix::Value::Bool(true),
        evidence: Evidence::Run,
        how: some("dlsym"),
        verdict: some("pass"),
        note: some("n"),
        source: some("s"),
        since: some("2.29"),
        began: Some(Boundary::Interval {
            after: some("2.28"),
            first: String::from("2.29"),
            last: String::from("2.30"),
            floor: some("functions.posix_spawn"),
        }),
        claim: some("GL-USE-GNU"),
        states: vec![State {
            state: StateKind::Needs,
            began: Some(Boundary::AtMost {
                release: String::from("2.29"),
            }),
            ends: some("before 2.37"),
            condition: some("_GNU_SOURCE"),
            errno: some("ENOSYS"),
            symbol: some("posix_spawn_file_actions_addchdir_np"),
            note: some("n"),
            source: String::from("s"),
            claim: some("GL-USE-GNU"),
            text: String::from("needs _GNU_SOURCE (before 2.37)"),
        }],
        doc: Some(Claim {
            from: some("2.29"),
            began: Some(Boundary::Exact {
                release: String::from("2.29"),
                after: some("2.28"),
                floor: None,
            }),
            value: spawnmatrix::matrix::Value::Bool(false),
            source: String::from("s"),
            note: some("n"),
            claim: some("GL-USE-GNU"),
        }),
        conflicts: vec![Alternative {
            value: spawnmatrix::matrix::Value::Bool(false),
            evidence: Evidence::Doc,
            origin: String::from("s"),
        }],
    };
    Matrix {
        schema_version: 1,
        suite_version: String::from("0.1.0"),
        generated_at: String::from("2026-11-30T07:00:00Z"),
        families: vec![FamilyInfo {
            id: String::from("linux-glibc"),
            title: String::from("glibc"),
            os: String::from("linux"),
            version_of: String::from("libc"),
            releases: vec![String::from("2.29")],
            shared_claims: vec![SharedClaim {
                id: String::from("GL-USE-GNU"),
                rows: vec![String::from("flags.POSIX_SPAWN_SETSID")],
            }],
            unread: vec![Reason {
                rows: vec![String::from("cases.exec-enoent.libc")],
                why: String::from("no readable source"),
            }],
            unsettled: vec![Reason {
                rows: vec![String::from("functions.posix_spawn")],
                why: String::from("no history"),
            }],
        }],
        columns: vec![Column {
            key: String::from("k"),
            label: String::from("glibc 2.36"),
            family: some("linux-glibc"),
            evidence: Evidence::Run,
            platform: full_platform(),
            suite_versions: vec![String::from("0.1.0")],
            generated_at: some("2026-11-30T07:00:00Z"),
            origins: vec![String::from("r.json")],
        }],
        groups: vec![Group {
            id: String::from("functions"),
            title: String::from("Functions"),
        }],
        rows: vec![Row {
            id: String::from("functions.posix_spawn"),
            group: String::from("functions"),
            title: some("t"),
            uses: vec![String::from("functions.posix_spawn")],
            cells: [(String::from("k"), cell)].into_iter().collect(),
        }],
    }
}

/// Follows `$ref` (local, or into a sibling schema file).
fn resolve(doc: &Value, node: &Value) -> (Value, Value) {
    let Some(reference) = node.get("$ref").and_then(Value::as_str) else {
        return (doc.clone(), node.clone());
    };
    let (file, pointer) = reference.split_once('#').unwrap();
    let doc = if file.is_empty() {
        doc.clone()
    } else {
        schema(file)
    };
    let target = doc.pointer(pointer).unwrap().clone();
    resolve(&doc, &target)
}

/// Walks the instance along the schema; collects, per struct node, its pointer and schema.
fn walk(
    doc: &Value,
    node: &Value,
    instance: &Value,
    pointer: String,
    out: &mut Vec<(String, Value)>,
) {
    let (doc, node) = resolve(doc, node);
    if let (Some(props), Some(obj)) = (node.get("properties"), instance.as_object()) {
        out.push((pointer.clone(), node.clone()));
        for (k, v) in obj {
            if let Some(sub) = props.get(k) {
                walk(&doc, sub, v, format!("{pointer}/{k}"), out);
            }
        }
    } else if let (Some(sub), Some(obj)) = (
        node.get("additionalProperties").filter(|a| a.is_object()),
        instance.as_object(),
    ) {
        for (k, v) in obj {
            walk(&doc, sub, v, format!("{pointer}/{k}"), out);
        }
    } else if let (Some(sub), Some(items)) = (node.get("items"), instance.as_array()) {
        for (i, v) in items.iter().enumerate() {
            walk(&doc, sub, v, format!("{pointer}/{i}"), out);
        }
    }
}

fn check_in_sync<T: DeserializeOwned>(schema_file: &str, full: Value) {
    let doc = schema(schema_file);
    let mut nodes = Vec::new();
    walk(&doc, &doc, &full, String::new(), &mut nodes);
    assert!(nodes.len() > 3, "the walk reached the nested objects");
    for (pointer, node) in nodes {
        let object = full.pointer(&pointer).unwrap().as_object().unwrap();
        let mut props: Vec<&String> = node["properties"].as_object().unwrap().keys().collect();
        let mut fields: Vec<&String> = object.keys().collect();
        props.sort();
        fields.sort();
        assert_eq!(props, fields, "{schema_file} properties at {pointer:?}");
        let required: Vec<&str> = node["required"].as_array().map_or(Vec::new(), |r| {
            r.iter().map(|v| v.as_str().unwrap()).collect()
        });
        for field in object.keys() {
            let mut without = full.clone();
            without
                .pointer_mut(&pointer)
                .unwrap()
                .as_object_mut()
                .unwrap()
                .remove(field);
            let fails = serde_json::from_value::<T>(without).is_err();
            assert_eq!(
                fails,
                required.contains(&field.as_str()),
                "{schema_file}: {pointer}/{field} is required in Rust ({fails}) and the schema must agree"
            );
        }
    }
}

#[test]
fn report_schema_matches_the_report_type() {
    check_in_sync::<Report>(
        "report.v1.schema.json",
        serde_json::to_value(full_report()).unwrap(),
    );
}

#[test]
fn matrix_schema_matches_the_matrix_type() {
    check_in_sync::<Matrix>(
        "matrix.v1.schema.json",
        serde_json::to_value(full_matrix()).unwrap(),
    );
}

#[rstest]
#[case("report.v1.schema.json", spawnmatrix::report::SCHEMA_VERSION)]
#[case(
    "matrix.v1.schema.json",
    spawnmatrix::matrix::model::MATRIX_SCHEMA_VERSION
)]
fn schema_versions_match(#[case] file: &str, #[case] version: u32) {
    assert_eq!(
        schema(file)["properties"]["schema_version"]["const"],
        json!(version)
    );
    assert!(file.contains(&format!(".v{version}.")));
}

#[test]
fn stored_reports_parse() {
    let dir = root().join("targets/reports");
    let reports = spawnmatrix::matrix::load::read_report_dir(&dir).unwrap();
    let files = std::fs::read_dir(&dir).map_or(0, |d| {
        d.filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "json")
        })
        .count()
    });
    assert_eq!(reports.len(), files);
}

/// Each schema names itself with `$id`, and every `$ref` to another file names a schema's
/// `$id`, so a validator given both schemas (a registry) resolves them without file paths.
#[test]
fn cross_file_refs_name_an_id() {
    let ids: Vec<String> = ["report.v1.schema.json", "matrix.v1.schema.json"]
        .iter()
        .map(|n| {
            let s = schema(n);
            let id = s["$id"].as_str().unwrap_or_default().to_string();
            assert_eq!(id, *n, "{n}: $id");
            id
        })
        .collect();
    fn refs(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(r)) = m.get("$ref") {
                    out.push(r.clone());
                }
                m.values().for_each(|x| refs(x, out));
            }
            Value::Array(a) => a.iter().for_each(|x| refs(x, out)),
            _ => {}
        }
    }
    let mut all = Vec::new();
    refs(&schema("matrix.v1.schema.json"), &mut all);
    let external: Vec<&String> = all.iter().filter(|r| !r.starts_with('#')).collect();
    assert!(!external.is_empty());
    for r in external {
        let file = r.split('#').next().unwrap_or_default();
        assert!(ids.iter().any(|i| i == file), "{r} names no schema $id");
    }
}

/// The outcome grammar is a schema pattern: what the parser accepts matches, what it refuses
/// does not.
#[rstest]
#[case("ok", true)]
#[case("add:EBADF", true)]
#[case("returned:ENOENT", true)]
#[case("child-exit:127", true)]
#[case("child-signal:SIGKILL", true)]
#[case("unsupported", true)]
#[case("skipped:not-expressible", true)]
#[case("child-exit:0", false)]
#[case("child-exit:256", false)]
#[case("returned:enoent", false)]
#[case("returned ENOENT", false)]
fn outcome_pattern_is_the_grammar(#[case] outcome: &str, #[case] valid: bool) {
    let pattern = schema("report.v1.schema.json")["$defs"]["outcome"]["pattern"]
        .as_str()
        .unwrap()
        .to_string();
    let re = regex::Regex::new(&pattern).unwrap().is_match(outcome);
    assert_eq!(re, valid, "{outcome} against {pattern}");
    let parsed = outcome
        .parse::<spawnmatrix::conformance::outcome::Outcome>()
        .is_ok();
    assert_eq!(parsed, valid, "the parser agrees on {outcome}");
}

/// A flag row's third value (`model::IGNORED`) is a valid cell value in the matrix schema.
#[test]
fn ignored_flag_value_is_in_the_matrix_schema() {
    let values = schema("matrix.v1.schema.json")["$defs"]["value"]["anyOf"].clone();
    let consts: Vec<&str> = values
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|v| v["const"].as_str())
        .collect();
    assert_eq!(consts, [spawnmatrix::matrix::model::IGNORED]);
}
