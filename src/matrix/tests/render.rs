//! Renderers: every cell shows value and evidence; notes, sources and disagreements show.

use super::*;
use crate::matrix::merge;
use crate::matrix::render::{html, json, markdown};

fn sample() -> crate::matrix::Matrix {
    let r = with_case(
        with_cap(
            report("glibc", "2.36", "native"),
            "posix_spawn_file_actions_addchdir_np",
            false,
        ),
        "exec-enoent",
        "libc",
        "returned:ENOENT",
        "pass",
    );
    merge(&[sourced("r.json", r)], &glibc_docs()).unwrap()
}

#[test]
fn markdown_marks_evidence_sources_and_disagreements() {
    let md = markdown::render(&sample());
    let full = &md[md
        .find("# Full tables")
        .expect("full tables after the summary")..];
    assert!(
        full.lines().any(
            |l| l.starts_with("| `posix_spawn_file_actions_addchdir_np` |")
                && l.contains("| no ✅ ⚠️[^")
        ),
        "{md}"
    );
    assert!(md.contains("## Disagreements"), "{md}");
    assert!(md.contains("Source: GL-NEWS: the NEWS file (bminor/glibc@04e750e75b1cc79ad9a3d4d4b1d8e44b4a73b2a4:NEWS:10)"), "{md}");
    assert!(md.contains("| glibc 2.28 | 📄 doc |"), "{md}");
    assert!(md.contains("`exec-enoent · libc`"), "{md}");
}

#[test]
fn json_round_trips() {
    let m = sample();
    let text = json::render(&m);
    let back = crate::matrix::load::parse_matrix(std::path::Path::new("m.json"), &text).unwrap();
    assert_eq!(back, m);
}

/// The JSON of the page's `<script id="ID" type="application/json">` block.
fn embedded(page: &str, id: &str) -> serde_json::Value {
    let open = format!("<script id=\"{id}\" type=\"application/json\">");
    let start = page.find(&open).unwrap() + open.len();
    let end = start + page[start..].find("</script>").unwrap();
    serde_json::from_str(&page[start..end]).unwrap()
}

#[test]
fn html_embeds_the_data_safely_and_loads_nothing() {
    let mut m = sample();
    m.rows[0].cells.values_mut().next().unwrap().note =
        Some(String::from("</script><script>alert(1)</script><!--"));
    let baselines = r#"{"baselines":[],"rows":[],"note":"</script><!--"}"#;
    let sections = r#"{"families":[],"sections":[],"note":"</script><!--"}"#;
    let page = html::render_with_views(&m, Some(baselines), Some(sections));
    assert_eq!(
        page.matches("</script>").count(),
        6,
        "only the page's five data blocks and its own script end"
    );
    assert_eq!(
        embedded(&page, "sections-data"),
        serde_json::from_str::<serde_json::Value>(sections).unwrap()
    );
    assert_eq!(
        embedded(&page, "baseline-data"),
        serde_json::from_str::<serde_json::Value>(baselines).unwrap()
    );
    assert!(!page.contains("_JSON*/"), "every placeholder is replaced");
    for remote in ["http://", "https://", "src=\"", "@import"] {
        assert!(!page.contains(remote), "the page must not load {remote}");
    }
    let data = embedded(&page, "matrix-data");
    assert_eq!(data["columns"].as_array().unwrap().len(), m.columns.len());
    assert_eq!(
        embedded(&page, "summary-data"),
        serde_json::from_str::<serde_json::Value>(&crate::matrix::render::summary::json(
            &crate::matrix::summary::build(&m)
        ))
        .unwrap()
    );
}

/// The full table's release cells are the summary's merged steps, one per release, per row.
#[test]
fn html_release_cells_follow_the_summary_releases() {
    let m = sample();
    let page = html::render(&m);
    let summary = crate::matrix::summary::build(&m);
    let releases: Vec<_> = summary.families.iter().flat_map(|f| &f.releases).collect();
    let mut covered: Vec<&str> = releases
        .iter()
        .flat_map(|r| r.columns.iter().map(String::as_str))
        .collect();
    covered.sort_unstable();
    let mut all: Vec<&str> = m.columns.iter().map(|c| c.key.as_str()).collect();
    all.sort_unstable();
    assert_eq!(covered, all, "every column stands in exactly one release");
    let cells = embedded(&page, "release-data");
    assert_eq!(cells.as_object().unwrap().len(), m.rows.len());
    let row = "functions.posix_spawn_file_actions_addchdir_np";
    let got = cells[row].as_array().unwrap();
    assert_eq!(got.len(), releases.len());
    let history = &summary
        .rows()
        .find(|r| r.id == row)
        .unwrap()
        .answers
        .iter()
        .find(|a| a.family == "linux-glibc")
        .unwrap()
        .history;
    for (release, cell) in releases.iter().zip(got) {
        match history.iter().find(|s| s.release == release.release) {
            Some(step) => {
                assert_eq!(cell[0], serde_json::to_value(&step.value).unwrap());
                assert_eq!(cell[1], serde_json::to_value(&step.evidence).unwrap());
                assert_eq!(cell.get(2).is_some(), step.disagreement, "{release:?}");
            }
            None => assert!(cell.is_null(), "{release:?}: {cell}"),
        }
    }
}
