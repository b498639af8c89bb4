//! Finding summary rows from what a user types: `addchdir_np`, `addchdir`, `SETSID`,
//! `posix_spawn_file_actions_addchdir_np`, `functions.pidfd_spawn`, `exec-enoent`.
//!
//! Ranks, best first: the id or label exactly; the label ends with the text (so `addchdir_np`
//! finds `posix_spawn_file_actions_addchdir_np` before `..._addfchdir_np`); the text inside the
//! id; the text's characters in order (`fa_addchdir`). Case, `-` and `_` are ignored.

use super::summary::{Summary, SummaryRow};

/// Lowercase, with `-` and `_` dropped: `add_chdir-NP` == `addchdirnp`.
fn fold(text: &str) -> String {
    text.chars()
        .filter(|c| *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether every character of `needle` occurs in `hay` in order.
fn subsequence(needle: &str, hay: &str) -> bool {
    let mut chars = hay.chars();
    needle.chars().all(|n| chars.any(|h| h == n))
}

/// How well `row` matches the folded text; `None` when it does not.
fn rank(row: &SummaryRow, text: &str) -> Option<u8> {
    let (id, label) = (fold(&row.id), fold(&row.label));
    if id == text || label == text {
        Some(0)
    } else if label.ends_with(text) {
        Some(1)
    } else if id.contains(text) {
        Some(2)
    } else if subsequence(text, &label) {
        Some(3)
    } else {
        None
    }
}

/// The rows matching `text`, best first (then in summary order). An exact match stands alone
/// (`posix_spawn` is not every `posix_spawn_*`); otherwise every suffix and substring match is
/// listed, so `addchdir` finds both the POSIX name and the `_np` one. The characters-in-order
/// match is only a fallback.
pub fn find<'s>(summary: &'s Summary, text: &str) -> Vec<&'s SummaryRow> {
    let text = fold(text.trim());
    if text.is_empty() {
        return Vec::new();
    }
    let mut hits: Vec<(u8, usize, &SummaryRow)> = summary
        .rows()
        .enumerate()
        .filter_map(|(i, row)| Some((rank(row, &text)?, i, row)))
        .collect();
    hits.sort_by_key(|(r, i, _)| (*r, *i));
    match hits.first().map(|(r, _, _)| *r) {
        Some(0) => hits.retain(|(r, _, _)| *r == 0),
        Some(1 | 2) => hits.retain(|(r, _, _)| *r <= 2),
        _ => {}
    }
    hits.into_iter().map(|(_, _, row)| row).collect()
}

/// Row labels closest to `text` (edit distance), for "did you mean".
pub fn suggestions<'s>(summary: &'s Summary, text: &str, n: usize) -> Vec<&'s str> {
    let text = fold(text);
    let mut all: Vec<(usize, &str)> = summary
        .rows()
        .map(|r| (distance(&text, &fold(&r.label)), r.label.as_str()))
        .collect();
    all.sort();
    all.into_iter().take(n).map(|(_, l)| l).collect()
}

/// Levenshtein distance.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::summary::Section;
    use rstest::rstest;

    fn row(id: &str) -> SummaryRow {
        let rest = id.split_once('.').map_or(id, |(_, r)| r);
        let label = match id.starts_with("cases.") {
            true => rest.rsplit_once('.').map_or(rest, |(c, _)| c),
            false => rest,
        };
        SummaryRow {
            id: id.to_string(),
            label: label.to_string(),
            title: None,
            uses: Vec::new(),
            answers: Vec::new(),
        }
    }

    fn summary() -> Summary {
        let ids = [
            "functions.posix_spawn",
            "functions.posix_spawn_file_actions_addchdir",
            "functions.posix_spawn_file_actions_addchdir_np",
            "functions.posix_spawn_file_actions_addfchdir_np",
            "flags.POSIX_SPAWN_SETSID",
            "cases.exec-enoent.libc",
        ];
        Summary {
            families: Vec::new(),
            sections: vec![Section {
                id: "features".into(),
                title: String::new(),
                rows: ids.iter().map(|i| row(i)).collect(),
            }],
        }
    }

    #[rstest]
    #[case("addchdir_np", &["functions.posix_spawn_file_actions_addchdir_np"])]
    #[case("ADDCHDIR-NP", &["functions.posix_spawn_file_actions_addchdir_np"])]
    #[case("functions.posix_spawn_file_actions_addchdir_np", &["functions.posix_spawn_file_actions_addchdir_np"])]
    #[case("addchdir", &["functions.posix_spawn_file_actions_addchdir", "functions.posix_spawn_file_actions_addchdir_np"])]
    #[case("posix_spawn", &["functions.posix_spawn"])]
    #[case("setsid", &["flags.POSIX_SPAWN_SETSID"])]
    #[case("exec-enoent", &["cases.exec-enoent.libc"])]
    #[case("fchdir", &["functions.posix_spawn_file_actions_addfchdir_np"])]
    #[case("chdir_np", &["functions.posix_spawn_file_actions_addchdir_np", "functions.posix_spawn_file_actions_addfchdir_np"])]
    #[case("fa_addchdir", &["functions.posix_spawn_file_actions_addchdir", "functions.posix_spawn_file_actions_addchdir_np", "functions.posix_spawn_file_actions_addfchdir_np"])]
    #[case("nothing_like_it", &[])]
    #[case("  ", &[])]
    fn finds(#[case] text: &str, #[case] expected: &[&str]) {
        let s = summary();
        let got: Vec<&str> = find(&s, text).iter().map(|r| r.id.as_str()).collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn suggests_the_closest_label() {
        let s = summary();
        assert_eq!(suggestions(&s, "posix_spwan", 1), ["posix_spawn"]);
    }
}
