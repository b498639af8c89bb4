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

#[test]
fn html_embeds_the_data_safely_and_loads_nothing() {
    let mut m = sample();
    m.rows[0].cells.values_mut().next().unwrap().note =
        Some(String::from("</script><script>alert(1)</script><!--"));
    let page = html::render(&m);
    assert_eq!(
        page.matches("</script>").count(),
        3,
        "only the page's two data blocks and its own script end"
    );
    assert!(!page.contains("/*MATRIX_JSON*/") && !page.contains("/*SUMMARY_JSON*/"));
    for remote in ["http://", "https://", "src=\"", "@import"] {
        assert!(!page.contains(remote), "the page must not load {remote}");
    }
    let start =
        page.find("type=\"application/json\">").unwrap() + "type=\"application/json\">".len();
    let end = start + page[start..].find("</script>").unwrap();
    let data: serde_json::Value = serde_json::from_str(&page[start..end]).unwrap();
    assert_eq!(data["columns"].as_array().unwrap().len(), m.columns.len());
}
