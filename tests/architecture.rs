//! Keeps `ARCHITECTURE.md` a map that matches the tree, and checks the layering rules it
//! states that a source scan can check.
//!
//! - Every top-level folder, and every folder under `src/` and `spawn/src/`, has an entry.
//!   A folder counts as named when its path appears in backticks (`` `src/bench/` ``), or, below
//!   the first level, when its path from `src/` or `spawn/src/` (`` `bench/scale/` ``) appears in
//!   the same `###` section as its first-level folder.
//! - The file stays under 20,000 bytes.
//! - Every `**Invariant:**` paragraph names at least one test or check, and every test, check
//!   or file it names exists (`path::name` must be a test function in that file).
//! - Data flows one way (`data_flows_one_way`), the child side of a spawn names no allocating,
//!   locking or panicking call (`child_side_code_allocates_and_panics_nowhere`), the Linux
//!   child calls the kernel, never a libc wrapper (`the_linux_child_calls_the_kernel_directly`),
//!   and commands write their files only through `atomic` (`outputs_go_through_atomic`).
//! - The map's timing line names every test file that times a wait (`timed_tests_are_named`).
//! - The module graph (`architecture/modgraph.rs`): `module_graph` prints, per crate, its
//!   modules, cycles and upward imports by the layer tables below; the tool has no cycle and
//!   no upward import (`the_tool_has_no_module_cycle`).
//!
//! The source scans read code only: comments and everything from a file's first `#[cfg(test)]`
//! on are skipped, as are `tests.rs` files and `tests/` folders.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

const LIMIT_BYTES: usize = 20_000;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn architecture() -> String {
    fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md is readable")
}

/// The `###` sections of the map: heading plus body, in order.
fn sections(doc: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    for line in doc.lines() {
        if line.starts_with("### ") {
            out.push(String::new());
        }
        let last = out.last_mut().expect("one section exists");
        last.push_str(line);
        last.push('\n');
    }
    out
}

/// The texts between backticks.
fn spans(text: &str) -> BTreeSet<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// Folder names `.gitignore` ignores at the top (`/target`), plus `.git`.
fn ignored_at_top() -> BTreeSet<String> {
    let gitignore = fs::read_to_string(root().join(".gitignore")).unwrap_or_default();
    let mut names: BTreeSet<String> = gitignore
        .lines()
        .filter_map(|l| l.strip_prefix('/'))
        .filter(|l| !l.contains('/') && !l.contains('*'))
        .map(str::to_string)
        .collect();
    names.insert(".git".to_string());
    names
}

fn holds_a_file(dir: &Path) -> bool {
    fs::read_dir(dir).into_iter().flatten().flatten().any(|e| {
        let p = e.path();
        if p.is_dir() {
            holds_a_file(&p)
        } else {
            true
        }
    })
}

/// The folders directly in `dir` that hold at least one file (an emptied folder a branch switch
/// left behind is no part of the tree), as paths relative to the repository root.
fn subfolders(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir() && holds_a_file(p))
        .map(|p| {
            p.strip_prefix(root())
                .expect("below the root")
                .to_path_buf()
        })
        .collect();
    out.sort();
    out
}

fn all_subfolders(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for sub in subfolders(dir) {
        out.push(sub.clone());
        out.extend(all_subfolders(&sub));
    }
    out
}

fn slash(p: &Path) -> String {
    format!("{}/", p.display())
}

/// Which folders the map leaves out.
fn missing_entries(doc: &str) -> Vec<String> {
    let all: BTreeSet<String> = spans(doc);
    let secs = sections(doc);
    let mut missing = Vec::new();
    let ignored = ignored_at_top();
    for top in subfolders(Path::new("")) {
        let name = top.display().to_string();
        if !ignored.contains(&name) && !all.contains(&slash(&top)) {
            missing.push(slash(&top));
        }
    }
    for base in ["src", "spawn/src"] {
        for dir in all_subfolders(Path::new(base)) {
            let rel = dir.strip_prefix(base).expect("below its base");
            let mut parts = rel.components();
            let first = Path::new(base).join(parts.next().expect("one component"));
            let named = all.contains(&slash(&dir))
                || (dir != first
                    && secs.iter().any(|s| {
                        let s = spans(s);
                        s.contains(&slash(&first)) && s.contains(&slash(rel))
                    }));
            if !named {
                missing.push(slash(&dir));
            }
        }
    }
    missing
}

#[test]
fn every_folder_has_an_entry() {
    let missing = missing_entries(&architecture());
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md has no entry for {missing:?}: add one short entry each (a first-level \
         folder of src/ or spawn/src/ by its full path in backticks, a deeper one by its path \
         from src/ or spawn/src/ in the section of its first-level folder)"
    );
}

#[test]
fn a_folder_without_an_entry_is_found() {
    let doc = architecture().replace("`src/sandbox/`", "`src/sandbox`");
    assert!(missing_entries(&doc).contains(&"src/sandbox/".to_string()));
    let doc = architecture().replace("`bench/scale/`", "`scale`");
    assert!(missing_entries(&doc).contains(&"src/bench/scale/".to_string()));
}

#[test]
fn the_map_stays_under_20_kb() {
    let len = architecture().len();
    assert!(
        len < LIMIT_BYTES,
        "ARCHITECTURE.md is {len} bytes, the limit is {LIMIT_BYTES}: move rationale to the \
         module docs of the code it explains"
    );
}

/// The `**Invariant:**` paragraphs.
fn invariants(doc: &str) -> Vec<String> {
    doc.split("\n\n")
        .map(str::trim)
        .filter(|p| p.starts_with("**Invariant:**"))
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// A file reference in backticks: `tests/spawn.rs`, `ci/checks/25-downstream.sh`,
/// `tests/spawn.rs::failed_spawns_leak_no_fd`.
fn references(paragraph: &str) -> Vec<(String, Option<String>)> {
    spans(paragraph)
        .into_iter()
        .filter_map(|s| {
            let (path, name) = match s.split_once("::") {
                Some((p, n)) => (p.to_string(), Some(n.to_string())),
                None => (s.clone(), None),
            };
            let is_file =
                path.contains('/') && [".rs", ".sh", ".py"].iter().any(|ext| path.ends_with(ext));
            is_file.then_some((path, name))
        })
        .collect()
}

/// Whether `name` is a test function in `text`: a `fn name(` with a test attribute above it.
fn is_test_fn(text: &str, name: &str) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    lines.iter().enumerate().any(|(i, line)| {
        let t = line.trim_start();
        let declares = ["fn ", "pub fn ", "async fn "]
            .iter()
            .any(|p| t.starts_with(&format!("{p}{name}(")));
        declares
            && lines[..i]
                .iter()
                .rev()
                .take_while(|l| !l.contains("fn ") && !l.trim().starts_with('}'))
                .any(|l| {
                    let l = l.trim_start();
                    l.starts_with("#[test]")
                        || l.starts_with("#[rstest")
                        || l.starts_with("#[apply(")
                })
    })
}

fn is_test_or_check(path: &str) -> bool {
    ["tests/", "spawn/tests/", "ci/checks/"]
        .iter()
        .any(|p| path.starts_with(p))
}

/// What is wrong with the invariants' references.
fn invariant_problems(doc: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let all = invariants(doc);
    if all.is_empty() {
        problems.push("no **Invariant:** paragraph".to_string());
    }
    for inv in &all {
        let head: String = inv.chars().take(70).collect();
        let refs = references(inv);
        let mut holds = false;
        for (path, name) in &refs {
            let Ok(text) = fs::read_to_string(root().join(path)) else {
                problems.push(format!("{head}…: `{path}` does not exist"));
                continue;
            };
            match name {
                Some(n) if is_test_fn(&text, n) => holds = true,
                Some(n) => problems.push(format!("{head}…: `{path}` has no test `{n}`")),
                None => holds |= is_test_or_check(path),
            }
        }
        if !holds {
            problems.push(format!("{head}…: names no test or check that holds it"));
        }
    }
    problems
}

#[test]
fn every_invariant_names_a_test_or_check_that_exists() {
    let problems = invariant_problems(&architecture());
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn a_missing_test_or_an_unheld_invariant_is_found() {
    let doc = "**Invariant:** x. Held by `tests/spawn.rs::no_such_test`.\n\n\
               **Invariant:** y, held by nothing.\n\n\
               **Invariant:** z. Held by `ci/checks/00-no-such-check.sh`.\n";
    let problems = invariant_problems(doc);
    assert_eq!(problems.len(), 5, "{problems:#?}");
    let doc = "**Invariant:** x. Held by `tests/spawn.rs::failed_spawns_leak_no_fd` and \
               `ci/checks/25-downstream.sh`.\n";
    assert_eq!(invariant_problems(doc), Vec::<String>::new());
    // A helper in a test file is not a test.
    let doc = "**Invariant:** x. Held by `tests/spawn.rs::thread_mask`.\n";
    assert_eq!(invariant_problems(doc).len(), 2);
}

/// A source file's code: comment lines dropped, and nothing from its first `#[cfg(test)]` on.
fn code(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .take_while(|l| !l.trim_start().starts_with("#[cfg(test)]"))
        .filter(|l| !l.trim_start().starts_with("//"))
        .map(|l| l.split(" // ").next().unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `.rs` file at `rel` (a file, or a folder walked recursively), test files left out.
fn rust_files(rel: &str) -> Vec<PathBuf> {
    let path = root().join(rel);
    if path.is_file() {
        return vec![path];
    }
    let mut out = Vec::new();
    for e in fs::read_dir(&path).into_iter().flatten().flatten() {
        let p = e.path();
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if p.is_dir() && name != "tests" {
            out.extend(rust_files(
                &p.strip_prefix(root()).unwrap().display().to_string(),
            ));
        } else if name.ends_with(".rs") && name != "tests.rs" {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// The tool modules a file names as `crate::<module>`: `crate::matrix::model::Cell` gives
/// `matrix::model::Cell`, `crate::{atomic, matrix::model}` both of its entries.
fn crate_paths(code: &str) -> BTreeSet<String> {
    let path_char = |c: char| c.is_alphanumeric() || c == '_' || c == ':';
    let mut out = BTreeSet::new();
    for (i, _) in code.match_indices("crate::") {
        if code[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue; // `spawnmatrix_crate::`, not ours
        }
        let rest = &code[i + "crate::".len()..];
        if let Some(list) = rest.strip_prefix('{') {
            let list = &list[..list.find('}').unwrap_or(list.len())];
            for entry in list.split(',') {
                let entry: String = entry.trim().chars().take_while(|&c| path_char(c)).collect();
                if !entry.is_empty() {
                    out.insert(entry.trim_end_matches(':').to_string());
                }
            }
        } else {
            let path: String = rest.chars().take_while(|&c| path_char(c)).collect();
            out.insert(path.trim_end_matches(':').to_string());
        }
    }
    out
}

fn module_of(path: &str) -> &str {
    path.split("::").next().unwrap_or(path)
}

/// The layering rules of the map's `src/` entry, checked on `src/<module>`.
fn layering_violations() -> Vec<String> {
    const PRODUCERS: &[&str] = &[
        "platform",
        "conformance",
        "bench",
        "fuzz",
        "sandbox",
        "linkcheck",
        "child",
    ];
    const DOWNSTREAM: &[&str] = &["matrix", "caps_header", "published"];
    let mut out = Vec::new();
    let mut check = |dir: &str, allowed: &dyn Fn(&str) -> bool| {
        for file in rust_files(dir) {
            for path in crate_paths(&code(&file)) {
                if !allowed(&path) {
                    let shown = file.strip_prefix(root()).unwrap().display().to_string();
                    out.push(format!("{shown} names crate::{path}"));
                }
            }
        }
    };
    for p in PRODUCERS {
        let own = *p;
        check(&format!("src/{p}"), &|path| {
            let m = module_of(path);
            m == own || !DOWNSTREAM.contains(&m)
        });
    }
    check("src/report", &|path| {
        matches!(module_of(path), "report" | "caps")
    });
    check("src/matrix", &|path| match module_of(path) {
        "matrix" | "report" | "atomic" | "yaml" | "version" => true,
        // Case files and the outcome grammar only: the matrix never runs a case.
        "conformance" => [
            "conformance::load",
            "conformance::outcome",
            "conformance::LoadedCase",
            "conformance::LoadError",
        ]
        .iter()
        .any(|ok| path.starts_with(ok)),
        _ => false,
    });
    // Renderers read the merged model and the summary computed from it, nothing earlier.
    check("src/matrix/render", &|path| {
        [
            "matrix::model",
            "matrix::summary",
            "matrix::error",
            "matrix::render",
            "atomic",
        ]
        .iter()
        .any(|ok| path.starts_with(ok))
    });
    out
}

#[test]
fn data_flows_one_way() {
    let violations = layering_violations();
    assert!(
        violations.is_empty(),
        "producers → report → matrix → renderers (see ARCHITECTURE.md, src/):\n{}",
        violations.join("\n")
    );
}

#[test]
fn crate_paths_are_read_from_code() {
    let code = "use crate::matrix::model::{Cell, Matrix};\nlet x = crate::atomic::write(p);\n\
                use crate::{report, bench::plan};\nspawnmatrix_crate::x;";
    let got: Vec<String> = crate_paths(code).into_iter().collect();
    assert_eq!(
        got,
        ["atomic::write", "bench::plan", "matrix::model", "report"]
    );
}

/// What may not appear in code that runs in a child sharing the parent's memory (after
/// `CLONE_VM`, or `fork` in a threaded parent), each with why: the child runs on a small stack
/// with the parent's heap and locks frozen in whatever state another thread left them, so an
/// allocation, a lock or a panic can deadlock it or corrupt the parent. (`OnceLock` is allowed:
/// `platform/freebsd.rs` fills one in the parent and the child only `get`s it, an atomic load.
/// `assert!` in a `const _` is checked by the compiler, not in the child, and is allowed too.)
const NOT_IN_THE_CHILD: &[(&str, &str)] = &[
    ("Vec<", "a heap buffer: malloc"),
    ("Vec::", "a heap buffer: malloc"),
    ("vec!", "a heap buffer: malloc"),
    ("String", "a heap string (String, OsString): malloc"),
    (
        "CString",
        "CString::new allocates and can fail on a NUL; the plan makes C strings",
    ),
    ("PathBuf", "a heap path: malloc"),
    ("Box<", "a heap allocation"),
    ("Box::", "a heap allocation"),
    ("Arc<", "a heap allocation whose drop may free"),
    ("Arc::", "a heap allocation whose drop may free"),
    ("Rc<", "a heap allocation whose drop may free"),
    ("Rc::", "a heap allocation whose drop may free"),
    (
        "HashMap",
        "a heap table (and its RandomState reads thread-locals)",
    ),
    ("HashSet", "a heap table"),
    ("BTreeMap", "a heap tree"),
    ("format!", "formats into a String: malloc"),
    ("print!", "takes stdout's lock and may allocate its buffer"),
    (
        "println!",
        "takes stdout's lock and may allocate its buffer",
    ),
    ("eprintln!", "takes stderr's lock"),
    ("dbg!", "takes stderr's lock and formats"),
    ("io::stdout", "std's stdout is behind a reentrant lock"),
    ("io::stderr", "std's stderr is behind a reentrant lock"),
    (".to_vec(", "copies into a Vec: malloc"),
    (".to_owned(", "copies into an owned value: malloc"),
    (".to_string(", "formats into a String: malloc"),
    (".collect", "builds a collection: malloc"),
    (".join(", "joins into a new String or Vec: malloc"),
    (".concat(", "concatenates into a new String or Vec: malloc"),
    ("Error::new(", "io::Error::new boxes its payload: malloc"),
    ("Error::other(", "boxes its payload: malloc"),
    (
        ".unwrap()",
        "panics: unwinding formats, allocates and runs the parent's hook",
    ),
    (
        ".expect(",
        "panics: unwinding formats, allocates and runs the parent's hook",
    ),
    (
        "panic!",
        "panics: unwinding formats, allocates and runs the parent's hook",
    ),
    ("unreachable!", "panics"),
    ("todo!", "panics"),
    ("unimplemented!", "panics"),
    (
        "Mutex",
        "a lock another thread of the parent may hold forever in this copy",
    ),
    (
        "RwLock",
        "a lock another thread of the parent may hold forever in this copy",
    ),
    ("Condvar", "waits on a lock"),
    (
        "Once::",
        "call_once takes a lock and may wait for another thread",
    ),
    (".lock(", "takes a lock"),
    (
        "std::env",
        "std's environment functions take the environment lock and allocate",
    ),
    ("env::var", "takes the environment lock and allocates"),
    (
        "thread::",
        "threads, sleeps and thread-locals: allocation and locks in the runtime",
    ),
    (
        "thread_local!",
        "a thread-local's first use may allocate and register a destructor",
    ),
];

/// The child side of the `spawn` library: what runs between the child's creation and
/// `execve`. `spawn/src/child_side/` is scanned whole, so a new file there is too; below it,
/// the platform code the child calls: the signal calls, `errno`, the clone3 trampolines (whose
/// child half is the child's first instructions) and the family files (`NSIG`, FreeBSD's
/// looked-up `close_range`).
const CHILD_SIDE: &[&str] = &[
    "spawn/src/child_side",
    "spawn/src/platform/sigaction_raw.rs",
    "spawn/src/platform/sigaction_libc.rs",
    "spawn/src/platform/sigmask_raw.rs",
    "spawn/src/platform/sigmask_libc.rs",
    "spawn/src/platform/errno.rs",
    "spawn/src/platform/clone3",
    "spawn/src/platform/linux.rs",
    "spawn/src/platform/freebsd.rs",
];

/// The child-side files a Linux child runs (after `CLONE_VM` too): they call the kernel
/// through `libc::syscall` only, never a libc wrapper (a cancellation point on the parent
/// thread's TCB, or an `LD_PRELOAD` interposer). `libc::abort` ends a forked child whose
/// `pre_exec` closure panicked. Every file of `child_side/` but the libc alternatives (a
/// forked child's elsewhere, `exec`'s process-wide ids) and the other platforms' files.
fn linux_child(base: &Path) -> Vec<PathBuf> {
    let other = [
        "libc_calls.rs",
        "sigaction_libc.rs",
        "freebsd.rs",
        "other.rs",
    ];
    let mut files: Vec<PathBuf> = rust_files_under(&base.join("spawn/src/child_side"))
        .into_iter()
        .filter(|f| !other.iter().any(|o| f.ends_with(o)))
        .collect();
    for rel in [
        "spawn/src/platform/sigaction_raw.rs",
        "spawn/src/platform/sigmask_raw.rs",
        "spawn/src/sys/kernel_sigaction/mod.rs",
    ] {
        files.push(base.join(rel));
    }
    files
}

/// Every `libc::name(` call in `code` but `syscall` and `abort`.
fn libc_calls_in(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices("libc::") {
        let rest = &code[at + "libc::".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let called = rest[name.len()..].starts_with('(');
        let lower = name.chars().next().is_some_and(|c| c.is_ascii_lowercase());
        if called && lower && name != "syscall" && name != "abort" {
            found.push(name);
        }
    }
    found
}

/// The libc wrappers the Linux child side of the tree at `base` calls, per file.
fn libc_wrappers_in_the_child(base: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for file in linux_child(base) {
        let calls = libc_calls_in(&code(&file));
        if !calls.is_empty() {
            found.push(format!("{}: {calls:?}", file.display()));
        }
    }
    found
}

#[test]
fn the_linux_child_calls_the_kernel_directly() {
    assert_eq!(
        libc_calls_in("libc::syscall(1); libc::open(p); libc::SIGINT; libc::c_int::MAX"),
        ["open"]
    );
    let found = libc_wrappers_in_the_child(&root());
    assert!(
        found.is_empty(),
        "libc wrappers on the Linux child side: {found:#?}"
    );
}

fn forbidden_in(code: &str) -> Vec<&'static str> {
    NOT_IN_THE_CHILD
        .iter()
        .map(|&(t, _)| t)
        .filter(|t| code.contains(t))
        .collect()
}

/// Why each of `found` may not be in the child.
fn reasons(found: &[String]) -> String {
    NOT_IN_THE_CHILD
        .iter()
        .filter(|(t, _)| found.iter().any(|f| f.contains(&format!("{t:?}"))))
        .map(|(t, why)| format!("  {t}: {why}\n"))
        .collect()
}

/// What the child side of the tree at `base` names that allocates, locks or panics, per file.
fn child_side_violations(base: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for rel in CHILD_SIDE {
        let path = base.join(rel);
        let files = if path.is_file() {
            vec![path]
        } else {
            rust_files_under(&path)
        };
        assert!(
            !files.is_empty(),
            "{rel} holds no Rust file: update CHILD_SIDE"
        );
        for file in files {
            let bad = forbidden_in(&code(&file));
            if !bad.is_empty() {
                found.push(format!("{}: {bad:?}", file.display()));
            }
        }
    }
    found
}

#[test]
fn child_side_code_allocates_and_panics_nowhere() {
    let found = child_side_violations(&root());
    assert!(
        found.is_empty(),
        "child-side code: {found:#?}\nwhy not:\n{}",
        reasons(&found)
    );
}

#[test]
fn the_child_side_scan_sees_what_it_looks_for() {
    assert_eq!(
        forbidden_in("let v = vec![1];\nx.unwrap();"),
        ["vec!", ".unwrap()"]
    );
    assert_eq!(
        forbidden_in("let c = CString::new(p);\nlet l = RwLock::new(0);\nstd::env::var_os(k);"),
        ["String", "CString", "RwLock", "std::env", "env::var"]
    );
    assert!(forbidden_in(&code(&root().join("spawn/src/child_side/mod.rs"))).is_empty());
    assert!(!forbidden_in(&code(&root().join("spawn/src/plan/close_plan.rs"))).is_empty());
}

/// Writing a file in place, which a reader could see half-written. (`File::options` is left
/// alone: the bench opens its workload's stdio with it.)
const IN_PLACE_WRITES: &[&str] = &["fs::write(", "File::create("];

#[test]
fn outputs_go_through_atomic() {
    let mut found = Vec::new();
    for dir in ["src/cli", "src/matrix", "src/report", "src/bench"] {
        for file in rust_files(dir) {
            let code = code(&file);
            for w in IN_PLACE_WRITES.iter().filter(|w| code.contains(*w)) {
                found.push(format!("{}: {w}", file.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "outputs must go through spawnmatrix::atomic: {found:#?}"
    );
}

#[path = "architecture/modgraph.rs"]
mod modgraph;

use modgraph::{Crate, Layers};

/// Where the module graph is read: this checkout, or the one `SPAWNMATRIX_GRAPH_ROOT` names
/// (say an older commit, `git archive REV | tar -x -C DIR`), so both are measured alike.
fn graph_root() -> PathBuf {
    std::env::var_os("SPAWNMATRIX_GRAPH_ROOT").map_or_else(root, PathBuf::from)
}

/// The library's layers, highest first, one folder of `spawn/src/` each; `caps`, `platform`
/// and `sys` are the platform facts, in that order. A module may name only its own layer and
/// the ones below. The order is the map's (ARCHITECTURE.md, `spawn/`).
const SPAWN_LAYERS: Layers = &[
    ("interop", &["interop"]),
    ("front", &["front"]),
    ("strategies", &["strategies"]),
    ("plan", &["plan"]),
    ("child side", &["child_side"]),
    ("request", &["request"]),
    ("caps", &["caps"]),
    ("platform", &["platform"]),
    ("sys", &["sys"]),
];

/// The layer each top-level module of the library moved to in 8803779 (issue 33), as they
/// were named the commit before (4a373bd): the table the "before" figures were taken with
/// (`SPAWNMATRIX_GRAPH_ROOT` at 8803779^, `SPAWNMATRIX_GRAPH_LAYERS=before`; the summary counts
/// the modules in no layer, 0 there).
const SPAWN_LAYERS_BEFORE: Layers = &[
    (
        "interop",
        &[
            "os",
            "tokio",
            "async_io",
            "async_adopt",
            "async_thread",
            "from_std",
        ],
    ),
    (
        "front",
        &[
            "command",
            "command_setup",
            "command_debug",
            "command_iters",
            "child",
            "stdio",
            "status",
            "output",
            "wait_timeout",
            "exit_notifier",
            "pidfd",
            "exec",
            "retry",
            "reaper",
            "process_group",
        ],
    ),
    (
        "strategies",
        &["dispatch", "posix", "linux", "fork", "no_clone", "learned"],
    ),
    (
        "plan",
        &[
            "plan",
            "fdplan",
            "cstr",
            "cstr_array",
            "env",
            "initial_env",
            "sigs",
        ],
    ),
    (
        "child side",
        &["exec_child", "child_calls", "closefds", "ids", "search"],
    ),
    ("request", &["rlimit", "error", "strategy"]),
    ("caps", &["caps"]),
    ("platform", &["platform", "glibc_version"]),
    ("sys", &["sys"]),
];

/// The tool's layers, highest first: the renderers over the matrix over the producers over
/// the report over the shared helpers (ARCHITECTURE.md, `src/`).
const TOOL_LAYERS: Layers = &[
    ("published", &["published"]),
    ("caps_header", &["caps_header"]),
    ("matrix", &["matrix"]),
    ("bench", &["bench"]),
    ("sandbox, linkcheck", &["sandbox", "linkcheck"]),
    ("fuzz", &["fuzz"]),
    ("conformance", &["conformance"]),
    ("platform, child", &["platform", "child"]),
    ("report", &["report"]),
    ("helpers", &["atomic", "worktree", "yaml", "version"]),
];

/// The crates measured: name, root file, layers.
const CRATES: &[(&str, &str, Layers)] = &[
    ("spawnmatrix-spawn", "spawn/src/lib.rs", SPAWN_LAYERS),
    ("spawnmatrix (lib)", "src/lib.rs", TOOL_LAYERS),
    ("spawnmatrix (bin)", "src/main.rs", &[]),
];

/// One crate's graph, counted.
struct Measured {
    name: &'static str,
    krate: Crate,
    edges: BTreeSet<(String, String)>,
    cycles: Vec<Vec<String>>,
    upward: Vec<(String, String)>,
    layers: Layers<'static>,
}

fn measure() -> Vec<Measured> {
    let base = graph_root();
    CRATES
        .iter()
        .map(|&(name, file, layers)| {
            let before = std::env::var("SPAWNMATRIX_GRAPH_LAYERS").is_ok_and(|v| v == "before");
            let layers = if before && layers == SPAWN_LAYERS {
                SPAWN_LAYERS_BEFORE
            } else {
                layers
            };
            let krate = Crate::read(&base.join(file));
            let edges = krate.edges();
            let cycles = modgraph::cycles(&krate, &edges);
            let upward = modgraph::upward(layers, &edges)
                .into_iter()
                .cloned()
                .collect();
            Measured {
                name,
                krate,
                edges,
                cycles,
                upward,
                layers,
            }
        })
        .collect()
}

impl Measured {
    /// `104 modules (109 files), 266 edges, 2 cycles (16 + 2 modules), 41 upward imports
    /// (front: 3, …)`.
    fn summary(&self) -> String {
        let files: BTreeSet<&PathBuf> =
            self.krate.modules.values().flat_map(|m| &m.files).collect();
        let sizes: Vec<String> = self.cycles.iter().map(|c| c.len().to_string()).collect();
        let mut per_layer = Vec::new();
        for (rank, (layer, _)) in self.layers.iter().enumerate() {
            let n = self
                .upward
                .iter()
                .filter(|(a, _)| modgraph::layer_of(self.layers, a) == Some(rank))
                .count();
            per_layer.push(format!("{layer}: {n}"));
        }
        let unplaced = self.unplaced().len();
        format!(
            "{}: {} modules ({} files), {} edges, {} cycles{}, {} upward imports{}{}",
            self.name,
            self.krate.modules.len(),
            files.len(),
            self.edges.len(),
            self.cycles.len(),
            if sizes.is_empty() {
                String::new()
            } else {
                format!(" ({} modules)", sizes.join(" + "))
            },
            self.upward.len(),
            if self.layers.is_empty() {
                " (no layers declared)".to_string()
            } else {
                format!(" ({})", per_layer.join(", "))
            },
            if unplaced == 0 || self.layers.is_empty() {
                String::new()
            } else {
                format!(", {unplaced} top-level modules in no layer")
            },
        )
    }

    /// The crate root's modules no layer holds (their imports count as neither up nor down).
    fn unplaced(&self) -> Vec<&String> {
        self.krate.modules[""]
            .children()
            .filter(|name| modgraph::layer_of(self.layers, name).is_none())
            .collect()
    }

    /// The cycles and the upward imports, one per line.
    fn details(&self) -> String {
        let mut out = String::new();
        for c in &self.cycles {
            out.push_str(&format!("  cycle: {}\n", c.join(", ")));
            for (a, b) in &self.edges {
                let side = |m: &str| c.iter().position(|x| modgraph::is_within(m, x));
                if let (Some(x), Some(y)) = (side(a), side(b)) {
                    if x != y {
                        out.push_str(&format!("    {a} → {b}\n"));
                    }
                }
            }
        }
        for (a, b) in &self.upward {
            let layer =
                |m: &str| modgraph::layer_of(self.layers, m).map_or("?", |r| self.layers[r].0);
            out.push_str(&format!(
                "  upward: {a} ({}) → {b} ({})\n",
                layer(a),
                layer(b)
            ));
        }
        out
    }
}

/// The module graph of both crates: modules, cycles, upward imports per layer. Run with
/// `cargo test --test architecture module_graph -- --nocapture` (and
/// `SPAWNMATRIX_GRAPH_ROOT=DIR` for another checkout) to see the figures. It fails if the
/// reader missed a source file, so the figures cover the whole crate.
#[test]
fn module_graph() {
    let base = graph_root();
    let measured = measure();
    let mut seen = BTreeSet::new();
    for m in &measured {
        println!("{}\n{}", m.summary(), m.details());
        seen.extend(
            m.krate
                .modules
                .values()
                .flat_map(|x| x.files.iter().cloned()),
        );
    }
    let missed: Vec<String> = ["spawn/src", "src"]
        .iter()
        .flat_map(|dir| rust_files_under(&base.join(dir)))
        .filter(|f| !seen.contains(f))
        .map(|f| f.display().to_string())
        .collect();
    assert!(missed.is_empty(), "the graph reader missed {missed:#?}");
}

/// Every `.rs` file below `dir`, test files and folders left out.
fn rust_files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if p.is_dir() && name != "tests" {
            out.extend(rust_files_under(&p));
        } else if name.ends_with(".rs") && name != "tests.rs" {
            out.push(p);
        }
    }
    out
}

#[test]
fn the_tool_has_no_module_cycle() {
    for m in measure()
        .iter()
        .filter(|m| m.name.starts_with("spawnmatrix ("))
    {
        assert!(m.cycles.is_empty(), "{}\n{}", m.summary(), m.details());
        assert!(m.upward.is_empty(), "{}\n{}", m.summary(), m.details());
        // A module in no layer would escape the upward check (`version` did).
        if !m.layers.is_empty() {
            assert!(
                m.unplaced().is_empty(),
                "{}: in no layer of TOOL_LAYERS: {:?}",
                m.name,
                m.unplaced()
            );
        }
    }
}

/// The library's problems with its layers: cycles, upward imports, and top-level modules in
/// no layer (which the order would not see).
fn layer_problems(m: &Measured) -> Vec<String> {
    let mut out: Vec<String> = m.details().lines().map(str::to_string).collect();
    for name in m.unplaced() {
        out.push(format!("  {name} is in no layer of SPAWN_LAYERS"));
    }
    out
}

#[test]
fn the_library_layers_import_only_downward() {
    let measured = measure();
    let m = &measured[0];
    let problems = layer_problems(m);
    assert!(
        problems.is_empty(),
        "{}\n{}",
        m.summary(),
        problems.join("\n")
    );
}

/// A copy of `spawn/src` in a temporary folder, with `text` put into `rel` after its module
/// docs (so a scan that stops at `#[cfg(test)]` sees it).
fn library_with(rel: &str, text: &str) -> tempfile::TempDir {
    fn copy(from: &Path, to: &Path) {
        fs::create_dir_all(to).expect("mkdir");
        for e in fs::read_dir(from).expect("readable").flatten() {
            let (src, dst) = (e.path(), to.join(e.file_name()));
            if src.is_dir() {
                copy(&src, &dst);
            } else {
                fs::copy(&src, &dst).expect("copy");
            }
        }
    }
    let dir = tempfile::tempdir().expect("a temporary folder");
    copy(&root().join("spawn/src"), &dir.path().join("spawn/src"));
    let path = dir.path().join(rel);
    let old = fs::read_to_string(&path).expect("the planted file exists");
    let at = old
        .lines()
        .take_while(|l| l.starts_with("//!"))
        .map(|l| l.len() + 1)
        .sum::<usize>();
    fs::write(&path, format!("{}\n{text}\n{}", &old[..at], &old[at..])).expect("write");
    dir
}

#[test]
fn a_planted_upward_import_fails_the_layer_order() {
    let dir = library_with("spawn/src/platform/errno.rs", "use crate::front::Command;");
    let krate = Crate::read(&dir.path().join("spawn/src/lib.rs"));
    let edges = krate.edges();
    let upward: Vec<String> = modgraph::upward(SPAWN_LAYERS, &edges)
        .into_iter()
        .map(|(a, b)| format!("{a} → {b}"))
        .collect();
    println!("planted `use crate::front::Command;` in platform/errno.rs: upward {upward:?}");
    assert_eq!(upward, ["platform::errno → front::command"]);
}

#[test]
fn a_planted_allocation_or_lock_fails_the_child_side_rule() {
    let planted: [(&str, &str, &[&str]); 2] = [
        (
            "an allocation",
            "fn planted() -> Vec<u8> { Vec::new() }",
            &["Vec<", "Vec::"],
        ),
        (
            "a lock",
            "fn planted(m: &std::sync::Mutex<u8>) -> bool { m.lock().is_ok() }",
            &["Mutex", ".lock("],
        ),
    ];
    for (what, text, want) in planted {
        let dir = library_with("spawn/src/child_side/search.rs", text);
        let found = child_side_violations(dir.path());
        println!("planted {what} in child_side/search.rs: {found:?}");
        let file = dir.path().join("spawn/src/child_side/search.rs");
        assert_eq!(found, [format!("{}: {want:?}", file.display())]);
    }
    let dir = library_with(
        "spawn/src/child_side/search.rs",
        "fn planted() { unsafe { libc::close(3) }; }",
    );
    let found = libc_wrappers_in_the_child(dir.path());
    println!("planted libc::close in child_side/search.rs: {found:?}");
    assert_eq!(found.len(), 1, "{found:#?}");
}

/// A crate in a temporary folder, from (file, text) pairs.
fn planted_crate(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for (name, text) in files {
        let path = dir.path().join(name);
        fs::create_dir_all(path.parent().expect("a folder")).expect("mkdir");
        fs::write(path, text).expect("write");
    }
    dir
}

#[test]
fn the_graph_finds_a_planted_cycle_and_an_upward_import() {
    let dir = planted_crate(&[
        ("lib.rs", "mod a;\nmod b;\nmod c;\npub use a::A;\n"),
        ("a.rs", "pub struct A;\npub fn f() { crate::b::g() }\n"),
        ("b.rs", "pub fn g() { let _ = super::a::f; }\n"),
        (
            "c.rs",
            "use crate::A;\n// use crate::b;\nconst S: &str = \"crate::b::g\";\n\
             #[path = \"x/d.rs\"]\nmod d;\n#[cfg(test)]\nmod tests { use crate::b; }\n",
        ),
        ("x/d.rs", "fn h() { super::super::a::f() }\n"),
    ]);
    let krate = Crate::read(&dir.path().join("lib.rs"));
    let edges = krate.edges();
    let pairs: Vec<(&str, &str)> = edges
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    // `crate::A` is followed through the root's re-export to `a`; comments, strings and test
    // code name nothing.
    assert_eq!(
        pairs,
        [("", "a"), ("a", "b"), ("b", "a"), ("c", "a"), ("c::d", "a")]
    );
    assert_eq!(modgraph::cycles(&krate, &edges), [["a", "b"]]);
    let layers: Layers = &[("top", &["a"]), ("bottom", &["b", "c"])];
    let up: Vec<_> = modgraph::upward(layers, &edges);
    assert_eq!(up.len(), 3, "{up:?}");
}

/// The test files that time something (`elapsed()`), as the map names them: a file by its
/// name, a file in a folder by the folder (`async_adapters/`).
fn timed_test_files(base: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for dir in ["spawn/tests", "tests"] {
        let dir = base.join(dir);
        let mut stack = vec![dir.clone()];
        while let Some(d) = stack.pop() {
            for e in fs::read_dir(&d).into_iter().flatten().flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                    continue;
                }
                if p.extension().is_none_or(|x| x != "rs") || p.ends_with("architecture.rs") {
                    continue;
                }
                if !code(&p).contains("elapsed()") {
                    continue;
                }
                let rel = p.strip_prefix(&dir).expect("below its folder");
                let mut parts = rel.components();
                let first = parts.next().expect("one component");
                let name = first.as_os_str().to_string_lossy().into_owned();
                out.insert(if parts.next().is_some() {
                    format!("{name}/")
                } else {
                    name
                });
            }
        }
    }
    out
}

/// The map's "Deliberately absent" line on timing names every test file that times a wait.
fn unnamed_timed_tests(doc: &str, base: &Path) -> Vec<String> {
    let line = doc
        .split("\n- ")
        .find(|p| p.starts_with("No performance assertions in tests"))
        .unwrap_or("");
    let named = spans(line);
    timed_test_files(base)
        .into_iter()
        .filter(|f| !named.contains(f))
        .collect()
}

#[test]
fn timed_tests_are_named() {
    let missing = unnamed_timed_tests(&architecture(), &root());
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md's 'No performance assertions in tests' line does not name {missing:?}, \
         which time a wait (elapsed())"
    );
}

#[test]
fn an_unnamed_timed_test_is_found() {
    let found = timed_test_files(&root());
    println!("test files that time a wait: {found:?}");
    assert!(found.contains("async_adapters/") && found.contains("lifecycle.rs"));
    let doc = architecture().replace("`lifecycle.rs`,", "");
    assert_eq!(unnamed_timed_tests(&doc, &root()), ["lifecycle.rs"]);
}
