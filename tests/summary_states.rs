//! The four states beyond yes/no (issue 20, item 3: accepted but ignored, deprecated, known
//! bug, needs) in every rendering of the committed summary: `docs/summary.json`,
//! `docs/SUMMARY.md` and `spawnmatrix query` (text and `--json`), each with its note and
//! source. The page renders the same JSON in the browser; `ci/browser-test.py` checks it there.
//!
//! The named cells are the examples; a test fails when a claim behind one is dropped
//! from `targets/`, and when a renderer drops a state or its note or source.

use std::path::Path;
use std::process::Command;

use spawnmatrix::matrix::model::{State, StateKind};
use spawnmatrix::matrix::summary::{Answer, Summary};
use spawnmatrix::published::Published;

/// (family, row, state): one cell for each kind of state, as issue 20 names them.
const NAMED: &[(&str, &str, StateKind)] = &[
    (
        "macos",
        "functions.posix_spawn_file_actions_addchdir_np",
        StateKind::KnownBug,
    ),
    (
        "macos",
        "functions.posix_spawn_file_actions_addchdir_np",
        StateKind::Deprecated,
    ),
    (
        "macos",
        "functions.posix_spawn_file_actions_addchdir_np",
        StateKind::Needs,
    ),
    (
        "linux-glibc",
        "flags.POSIX_SPAWN_USEVFORK",
        StateKind::Ignored,
    ),
    (
        "linux-glibc",
        "flags.POSIX_SPAWN_USEVFORK",
        StateKind::Needs,
    ),
    (
        "android",
        "functions.posix_spawn_file_actions_addchdir_np",
        StateKind::Needs,
    ),
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn committed() -> Summary {
    let text = std::fs::read_to_string(root().join("docs/summary.json")).unwrap();
    Published::parse(Path::new("docs/summary.json"), &text)
        .expect("docs/summary.json parses")
        .summary()
}

fn answer<'s>(s: &'s Summary, family: &str, row: &str) -> &'s Answer {
    s.rows()
        .find(|r| r.id == row)
        .unwrap_or_else(|| panic!("no row {row}"))
        .answers
        .iter()
        .find(|a| a.family == family)
        .unwrap_or_else(|| panic!("no answer of {family} on {row}"))
}

fn state<'s>(s: &'s Summary, family: &str, row: &str, kind: StateKind) -> &'s State {
    let a = answer(s, family, row);
    a.states
        .iter()
        .find(|st| st.state == kind)
        .unwrap_or_else(|| panic!("{family} {row}: no {} state in {:?}", kind.name(), a.states))
}

fn label(row: &str) -> &str {
    row.split_once('.').map_or(row, |(_, l)| l)
}

#[test]
fn the_named_cells_cover_all_four_states() {
    for kind in [
        StateKind::Ignored,
        StateKind::Deprecated,
        StateKind::KnownBug,
        StateKind::Needs,
    ] {
        assert!(
            NAMED.iter().any(|n| n.2 == kind),
            "no named cell with {}",
            kind.name()
        );
    }
}

#[test]
fn summary_json_has_each_named_state_with_note_and_source() {
    let s = committed();
    for &(family, row, kind) in NAMED {
        let st = state(&s, family, row, kind);
        assert!(
            st.source.contains(':') && st.source.len() > 10,
            "{family} {row} {}: source {:?}",
            kind.name(),
            st.source
        );
        // A known bug and a deprecation say what; needs says under which condition.
        match kind {
            StateKind::Needs => assert!(st.condition.is_some(), "{st:?}"),
            _ => assert!(st.note.as_deref().is_some_and(|n| !n.is_empty()), "{st:?}"),
        }
    }
    // The macOS bug: the relative program path, the ENOENT, and both projects that work
    // around it, cited at a commit.
    let bug = state(
        &s,
        "macos",
        "functions.posix_spawn_file_actions_addchdir_np",
        StateKind::KnownBug,
    );
    let note = bug.note.as_deref().unwrap_or_default();
    assert!(
        note.contains("relative") && note.contains("ENOENT"),
        "{note}"
    );
    assert!(
        bug.source.contains("rust-lang/rust@") && bug.source.contains("libuv/libuv@"),
        "{}",
        bug.source
    );
    assert_eq!(
        bug.began.as_ref().map(|b| b.text()).as_deref(),
        Some("10.15")
    );
}

/// The Markdown cell of `label` in the column of `title`, and the numbered state notes.
fn markdown_cell<'m>(md: &'m str, titles: &[&str], label: &str, title: &str) -> &'m str {
    let line = md
        .lines()
        .find(|l| l.starts_with(&format!("| `{label}` |")))
        .unwrap_or_else(|| panic!("SUMMARY.md has no row {label}"));
    let cells: Vec<&str> = line.trim_matches('|').split(" | ").collect();
    let i = titles.iter().position(|t| *t == title).unwrap();
    cells[i + 1].trim()
}

fn escape(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// Every state of every answer of the committed summary: the Markdown cell shows it (the
/// value says `ignored`; the others get ` · <state>`) with a note number, and that numbered
/// note holds the state, its note and its source.
#[test]
fn summary_md_shows_every_state_with_note_and_source() {
    let md = std::fs::read_to_string(root().join("docs/SUMMARY.md")).unwrap();
    let s = committed();
    let titles: Vec<&str> = s.families.iter().map(|f| f.title.as_str()).collect();
    let mut seen = Vec::new();
    // The kernel and sandbox rows are tables of their own (feature × kernel, profile), not
    // rows of the family table this reads.
    for row in s
        .rows()
        .filter(|r| !r.id.starts_with("kernel.") && !r.id.starts_with("sandbox."))
    {
        for a in &row.answers {
            let Some(f) = s.family(&a.family) else {
                continue;
            };
            let cell = markdown_cell(&md, &titles, &row.label, &f.title);
            // The cell's note numbers, in the order of the answer's states.
            let numbers: Vec<&str> = cell
                .split('[')
                .skip(1)
                .filter_map(|rest| rest.split_once(']').map(|(n, _)| n))
                .filter(|n| n.parse::<u32>().is_ok())
                .collect();
            assert_eq!(
                numbers.len(),
                a.states.len(),
                "{} {}: {cell:?}",
                f.title,
                row.id
            );
            for (st, n) in a.states.iter().zip(numbers) {
                match st.state {
                    // The value already says "ignored"; the number points to why.
                    StateKind::Ignored => {
                        assert!(cell.starts_with("ignored"), "{}: {cell}", row.id)
                    }
                    _ => {
                        let marker = format!(" · {} [{n}]", escape(&st.short()));
                        assert!(
                            cell.contains(&marker),
                            "{} {}: no {marker:?} in {cell:?}",
                            f.title,
                            row.id
                        );
                    }
                }
                let head = format!("- [{n}] {} `{}`, {}", f.title, row.label, st.short());
                let note = md
                    .lines()
                    .find(|l| l.starts_with(&head))
                    .unwrap_or_else(|| panic!("SUMMARY.md has no note {head:?}"));
                if let Some(text) = &st.note {
                    assert!(note.contains(&escape(text)), "{note}");
                }
                assert!(
                    note.contains(&format!("Source: {}", escape(&st.source))),
                    "{note}"
                );
                seen.push((a.family.clone(), row.id.clone(), st.state));
            }
        }
    }
    for &(family, row, kind) in NAMED {
        assert!(
            seen.iter()
                .any(|(f, r, k)| f == family && r == row && *k == kind),
            "SUMMARY.md does not show the {} state of {family} {row}",
            kind.name()
        );
    }
}

fn query(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_spawnmatrix"))
        .current_dir(root())
        .env_remove("SPAWNMATRIX_TARGETS")
        .env_remove("SPAWNMATRIX_CASES")
        .arg("query")
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `spawnmatrix query LABEL`: under the family's line, `<state>: <note>` and then
/// `source: <source>`, for each named state.
#[test]
fn query_text_shows_each_named_state_with_note_and_source() {
    let s = committed();
    for &(family, row, kind) in NAMED {
        let text = query(&[label(row)]);
        let title = &s.family(family).unwrap().title;
        let st = state(&s, family, row, kind);
        // The family's block: from its line to the next family's line.
        let block: String = text
            .lines()
            .skip_while(|l| l.trim_start() != row)
            .skip(1)
            .skip_while(|l| !l.trim_start().starts_with(title.as_str()))
            .enumerate()
            .take_while(|(i, l)| *i == 0 || l.starts_with("      ") || l.trim().is_empty())
            .map(|(_, l)| format!("{}\n", l.trim()))
            .collect();
        let note = st
            .note
            .as_deref()
            .map(|n| format!(": {n}"))
            .unwrap_or_default();
        let want = format!("{}{note}\nsource: {}\n", st.short(), st.source);
        assert!(
            block.contains(&want),
            "query {}: {title} shows no\n{want}in\n{block}",
            label(row)
        );
    }
}

/// `spawnmatrix query LABEL --json`: the family's answer carries each named state as the
/// committed summary has it.
#[test]
fn query_json_has_each_named_state_with_note_and_source() {
    let s = committed();
    for &(family, row, kind) in NAMED {
        let v: serde_json::Value = serde_json::from_str(&query(&[label(row), "--json"])).unwrap();
        let a = v["matches"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["id"] == row)
            .and_then(|m| m["answers"].as_array())
            .and_then(|a| a.iter().find(|a| a["family"] == family))
            .unwrap_or_else(|| panic!("query --json: no {family} answer on {row}"))
            .clone();
        let want = serde_json::to_value(state(&s, family, row, kind)).unwrap();
        let states = a["states"].as_array().cloned().unwrap_or_default();
        assert!(
            states.contains(&want),
            "query --json {}: {family} has no {want} in {states:?}",
            label(row)
        );
    }
}
