//! Notes against the cells of their family: a note that says a call fails with an errno
//! ("setflags rejects unknown flags with EINVAL") must agree with the error row that tests
//! that call for that errno, at every release both speak of.

use super::{exact, problem, section, Check, Problem};
use crate::matrix::summary::{Answer, Summary, SummaryRow};

pub(super) fn check(s: &Summary, out: &mut Vec<Problem>) {
    let errors = section(s, "errors");
    for row in s.rows() {
        for a in &row.answers {
            let notes = a
                .notes
                .iter()
                .chain(a.states.iter().filter_map(|st| st.note.as_ref()));
            for note in notes {
                for (errno, call, case) in claims_of(note, &errors, &row.id) {
                    contradicted(a, row, case, errno, call, note, out);
                }
            }
        }
    }
}

/// The words of a text: runs of letters, digits and `_`.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// The words by which a note says a call fails with an errno.
const FAILS: [&str; 5] = ["fail", "reject", "return", "give", "error"];

/// `ENOSYS`, `EINVAL`: an errno name.
fn is_errno(w: &str) -> bool {
    w.len() > 2
        && w.starts_with('E')
        && w.bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
}

/// A spawn call's name as notes and case titles write it (`setflags`, `adddup2`,
/// `addfchdir_np`, `posix_spawnp`).
fn is_call(w: &str) -> bool {
    w.len() >= 5 && (w.starts_with("add") || w.starts_with("set") || w.starts_with("posix_spawn"))
}

/// What a note says of a call's errno, as (errno, call, the error row whose case title
/// names both): the rows that test it. A row's own notes explain its own value, and a note
/// that names the row defers to it: both are left out.
fn claims_of<'n, 'r>(
    note: &'n str,
    errors: &[&'r SummaryRow],
    own: &str,
) -> Vec<(&'n str, &'n str, &'r SummaryRow)> {
    // A note that says a call fails ("rejects … with EINVAL", "returns EBADF"), not one that
    // tells what happens after an error ("retries ENOEXEC under sh").
    let lower = note.to_ascii_lowercase();
    if !FAILS.iter().any(|w| lower.contains(w)) {
        return Vec::new();
    }
    let errnos: Vec<&str> = words(note).filter(|w| is_errno(w)).collect();
    let calls: Vec<&str> = words(note).filter(|w| is_call(w)).collect();
    let mut out = Vec::new();
    // A note that names the row it speaks of defers to it ("what setflags does with its bit
    // is the attr-setflags-undefined-bit row"): it states nothing of its own to check.
    for case in errors
        .iter()
        .filter(|r| r.id != own && !note.contains(r.label.as_str()))
    {
        let title = case.title.as_deref().unwrap_or_default();
        let title_words: Vec<&str> = words(title).collect();
        for errno in errnos.iter().filter(|e| title_words.contains(e)) {
            for call in calls.iter().filter(|c| title_words.contains(c)) {
                out.push((*errno, *call, *case));
            }
        }
    }
    out
}

/// The note of `a` (row `row`) says `call` fails with `errno`; the family's answer on
/// `case` must show that errno at every release both have.
fn contradicted(
    a: &Answer,
    row: &SummaryRow,
    case: &SummaryRow,
    errno: &str,
    call: &str,
    note: &str,
    out: &mut Vec<Problem>,
) {
    let Some(c) = case.answers.iter().find(|c| c.family == a.family) else {
        return;
    };
    let releases: Vec<&str> = a
        .history
        .iter()
        .filter(|st| exact(&st.release).is_some())
        .map(|st| st.release.as_str())
        .collect();
    let clash = c
        .history
        .iter()
        .filter(|st| releases.contains(&st.release.as_str()))
        .find(|st| !st.value.to_string().contains(errno));
    if let Some(st) = clash {
        out.push(problem(
            Check::NoteContradictsCell,
            &a.family,
            &row.id,
            format!(
                "the note {note:?} says {call} gives {errno}, but {} is {} at {}",
                case.label, st.value, st.release
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn case(id: &str, title: &str) -> SummaryRow {
        SummaryRow {
            id: format!("cases.{id}.libc"),
            label: id.to_string(),
            title: Some(title.to_string()),
            uses: Vec::new(),
            answers: Vec::new(),
        }
    }

    /// Which error rows a note speaks of: (note, the row it is on, the case ids it is
    /// checked against).
    #[rstest]
    #[case("setflags rejects unknown flags with EINVAL", "flags.POSIX_SPAWN_SETSID", &["attr-setflags-undefined-bit"])]
    // What happens after an error is not a claim that the call fails.
    #[case("posix_spawnp retries ENOEXEC under sh", "functions.posix_spawnp", &[])]
    // A note that names the row defers to it.
    #[case(
        "what setflags does with its bit is the attr-setflags-undefined-bit row (EINVAL after 14.0)",
        "flags.POSIX_SPAWN_SETSID",
        &[]
    )]
    // A row's own note explains its own value.
    #[case("adddup2 gives EBADF for a target beyond OPEN_MAX", "cases.dup2-add-fd-beyond-open-max.libc", &[])]
    #[case("adddup2 gives EBADF for a target beyond OPEN_MAX", "flags.POSIX_SPAWN_SETSID", &["dup2-add-fd-beyond-open-max"])]
    fn a_note_is_checked_against_the_rows_it_speaks_of(
        #[case] note: &str,
        #[case] own: &str,
        #[case] want: &[&str],
    ) {
        let rows = [
            case(
                "attr-setflags-undefined-bit",
                "setflags with an undefined bit (0x2000) fails with EINVAL, or is accepted and ignored; recorded",
            ),
            case(
                "dup2-add-fd-beyond-open-max",
                "adddup2(1, 1<<30), a target beyond OPEN_MAX, fails with EBADF when added (else the spawn is tried)",
            ),
            case(
                "spawnp-script-no-shebang",
                "A script without '#!' found on PATH fails with ENOEXEC, or runs under sh where posix_spawnp falls back",
            ),
        ];
        let refs: Vec<&SummaryRow> = rows.iter().collect();
        let got: Vec<&str> = claims_of(note, &refs, own)
            .into_iter()
            .map(|(_, _, r)| r.label.as_str())
            .collect();
        assert_eq!(got, want);
    }
}
