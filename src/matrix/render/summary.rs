//! The summary as Markdown (the top of MATRIX.md and the published `docs/SUMMARY.md`) and as
//! compact JSON (one row per line, so a diff of the published file reads well).

use std::fmt::Write;

use crate::matrix::model::{State, StateKind, Value, IGNORED};
use crate::matrix::summary::{Answer, Summary, SummaryFamily, SummaryRow};

pub use crate::matrix::model::letters;

/// Whether a call will work, in a few words, from its value (`None`: nothing known) and its
/// states: `yes`, `no`, `no: a stub, every call fails with ENOSYS`, `yes, if _GNU_SOURCE`,
/// `yes, in a direct call only (dlsym finds nothing)`, `accepted, no effect`.
pub fn works(value: Option<&Value>, states: &[State]) -> String {
    if let Some(stub) = states.iter().find(|s| s.state == StateKind::Stub) {
        return match stub.errno.as_deref() {
            Some(e) => format!("no: a stub, every call fails with {e}"),
            None => String::from("no: a stub, every call fails"),
        };
    }
    let ignored = states.iter().any(|s| s.state == StateKind::Ignored);
    let mut text = match value {
        None => return String::from("?"),
        Some(Value::Bool(false)) => return String::from("no"),
        Some(Value::Text(t)) if t == IGNORED => String::from("accepted, no effect"),
        Some(_) if ignored => String::from("accepted, no effect"),
        Some(_) => String::from("yes"),
    };
    for st in states {
        let more = match st.state {
            StateKind::Needs => format!(
                "if {}",
                st.condition
                    .as_deref()
                    .unwrap_or("a build-time condition holds")
            ),
            StateKind::HeaderOnly => String::from("in a direct call only (dlsym finds nothing)"),
            StateKind::Deprecated => String::from("deprecated"),
            StateKind::KnownBug => String::from("with a known bug"),
            StateKind::Ignored | StateKind::Stub => continue,
        };
        text.push_str(", ");
        text.push_str(&more);
    }
    text
}

/// One answer in a few characters: `2.29 LD`, `no L`, `?` when nothing is known; `!` marks a
/// disagreement between the evidence. States are not included (see `with_states`).
pub fn short(answer: Option<&Answer>) -> String {
    match answer {
        None => String::from("?"),
        Some(a) => {
            let warn = if a.disagreement { " !" } else { "" };
            format!("{} {}{warn}", a.text, letters(&a.evidence))
        }
    }
}

/// The answer with its states, each pointing to its numbered note: `10.15 LD · deprecated
/// since 26 [3]`. `notes` collects `(number, family title, row label, state)`.
fn with_states<'a>(
    answer: Option<&'a Answer>,
    family: &str,
    row: &str,
    notes: &mut Vec<(usize, String, String, &'a State)>,
) -> String {
    let mut text = short(answer);
    for state in answer.map(|a| a.states.as_slice()).unwrap_or_default() {
        let n = notes.len() + 1;
        notes.push((n, family.to_string(), row.to_string(), state));
        match state.state {
            // The value already says "ignored"; the note number points to why.
            StateKind::Ignored => {
                let _ = write!(text, " [{n}]");
            }
            _ => {
                let _ = write!(text, " · {} [{n}]", state.short());
            }
        }
    }
    text
}

/// One numbered state note: what, note, source.
fn state_note(n: usize, family: &str, row: &str, state: &State) -> String {
    let note = state
        .note
        .as_deref()
        .map(|t| format!(": {t}"))
        .unwrap_or_default();
    format!(
        "- [{n}] {family} `{row}`, {}{note}. Source: {}",
        state.short(),
        state.source
    )
}

/// The reasons a table's cells give once below it, each as `[?k]` (a `?` cell's `unread`) or
/// `[~k]` (an interval's `unsettled`), with the labels of the rows that point to it.
pub struct ReasonMarks {
    sign: char,
    why: for<'f> fn(&'f SummaryFamily, &str) -> Option<&'f str>,
    marks: Vec<(String, String, Vec<String>)>,
}

impl ReasonMarks {
    /// Why cells with no answer print `?`: their family's `unread`.
    pub fn unread() -> ReasonMarks {
        ReasonMarks {
            sign: '?',
            why: SummaryFamily::unread_why,
            marks: Vec::new(),
        }
    }

    /// Why a first release stays an interval: the family's `unsettled`.
    pub fn unsettled() -> ReasonMarks {
        ReasonMarks {
            sign: '~',
            why: SummaryFamily::unsettled_why,
            marks: Vec::new(),
        }
    }

    /// `[?k]` (or `[~k]`) for a cell of `family` on row `id` (shown as `label`), when the
    /// family says why.
    pub fn mark(&mut self, family: &SummaryFamily, id: &str, label: &str) -> Option<String> {
        let why = (self.why)(family, id)?;
        let k = match self
            .marks
            .iter()
            .position(|(f, w, _)| *f == family.title && w == why)
        {
            Some(k) => k,
            None => {
                self.marks
                    .push((family.title.clone(), why.to_string(), Vec::new()));
                self.marks.len() - 1
            }
        };
        self.marks[k].2.push(format!("`{label}`"));
        Some(format!("[{}{}]", self.sign, k + 1))
    }

    /// One line per reason: `- [?1] Solaris (`exec-enoent`, ...): not read here: ...`.
    pub fn lines(&self) -> Vec<String> {
        self.marks
            .iter()
            .enumerate()
            .map(|(k, (family, why, rows))| {
                format!(
                    "- [{}{}] {family} ({}): {why}",
                    self.sign,
                    k + 1,
                    rows.join(", ")
                )
            })
            .collect()
    }
}

fn escape(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// The answer of `row` for family `id`, if the family knows anything about it.
pub fn answer_for<'s>(row: &'s SummaryRow, id: &str) -> Option<&'s Answer> {
    row.answers.iter().find(|a| a.family == id)
}

/// The summary tables, starting with a level-2 heading.
pub fn markdown(s: &Summary) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "## Summary\n");
    let _ = writeln!(
        out,
        "One row per feature, one column per platform family. The answer is the value in the\n\
         newest release known and where it began: `2.29`, the first release (documented as the\n\
         first, the release before is known to differ, or the family's first posix_spawn\n\
         release); `13.1–14.0`, the first release lies in this range (13.0 is known to differ,\n\
         14.0 known to have it); `≤15`, only 15 is known to have it. `no (10.14–27.0)`: absent\n\
         in every release read, which the parentheses give; `no addfchdir (8.3–15.1)`: the case\n\
         could not run, the function it calls is absent there; `… through 2.43; ? from 2.44`:\n\
         known through 2.43, and 2.44 changed a function the case calls; `?`: nothing known;\n\
         `? not read here [?n]`: no source for it can be read from here, why below the table;\n\
         `[~n]` after a range: the history cannot settle the first release, why below the table.\n\
         Letters: every evidence for the value and its start, R run, L link, D doc (with\n\
         source); `!`: the evidence disagrees (see the full tables). `· deprecated since 26\n\
         [n]`, `· known bug [n]`, `· needs _GNU_SOURCE [n]`, `· stub, every call fails with\n\
         ENOSYS [n]`, `· header only [n]` (dlsym does not find it), `ignored`: a state of the\n\
         cell, with its note and source below the table.\n"
    );
    let titles: Vec<String> = s.families.iter().map(|f| escape(&f.title)).collect();
    for section in &s.sections {
        if section.rows.is_empty() {
            continue;
        }
        let _ = writeln!(out, "### {}\n", escape(&section.title));
        let _ = writeln!(out, "| {} | {} |", section.id, titles.join(" | "));
        let _ = writeln!(out, "|---|{}", "---|".repeat(titles.len()));
        let mut notes = Vec::new();
        let mut unread = ReasonMarks::unread();
        let mut unsettled = ReasonMarks::unsettled();
        for row in &section.rows {
            let cells: Vec<String> = s
                .families
                .iter()
                .map(|f| {
                    let a = answer_for(row, &f.id);
                    let mut text = with_states(a, &f.title, &row.label, &mut notes);
                    if let Some(mark) = a
                        .is_none()
                        .then(|| unread.mark(f, &row.id, &row.label))
                        .flatten()
                    {
                        text = format!("? not read here {mark}");
                    }
                    let ranged = a.and_then(Answer::range).is_some();
                    if let Some(mark) = ranged
                        .then(|| unsettled.mark(f, &row.id, &row.label))
                        .flatten()
                    {
                        text = format!("{text} {mark}");
                    }
                    escape(&text)
                })
                .collect();
            let _ = writeln!(out, "| `{}` | {} |", row.label, cells.join(" | "));
        }
        if !notes.is_empty() {
            out.push('\n');
            for (n, family, row, state) in &notes {
                let _ = writeln!(out, "{}", escape(&state_note(*n, family, row, state)));
            }
        }
        let reasons = [unread.lines(), unsettled.lines()].concat();
        if !reasons.is_empty() {
            out.push('\n');
            for line in reasons {
                let _ = writeln!(out, "{}", escape(&line));
            }
        }
        let titled: Vec<&SummaryRow> = section.rows.iter().filter(|r| r.title.is_some()).collect();
        if !titled.is_empty() {
            out.push('\n');
            for row in titled {
                let _ = writeln!(
                    out,
                    "- `{}`: {}",
                    row.label,
                    escape(row.title.as_deref().unwrap_or(""))
                );
            }
        }
        out.push('\n');
    }
    let _ = writeln!(out, "### Releases behind each column\n");
    for f in &s.families {
        let releases: Vec<String> = f
            .releases
            .iter()
            .map(|r| format!("{} {}", r.release, letters(&r.evidence)))
            .collect();
        let _ = writeln!(out, "- {}: {}", escape(&f.title), releases.join(", "));
    }
    out
}

/// One value as single-line JSON. Summary types hold only strings, bools, enums and vectors:
/// they always serialize.
fn line<T: serde::Serialize + ?Sized>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// Compact JSON: each family on one line, then one line per row.
pub fn json(s: &Summary) -> String {
    let families: Vec<String> = s.families.iter().map(line).collect();
    let sections: Vec<String> = s
        .sections
        .iter()
        .map(|sec| {
            let rows: Vec<String> = sec.rows.iter().map(line).collect();
            format!(
                "{{\"id\": {}, \"title\": {}, \"rows\": [\n{}\n]}}",
                line(&sec.id),
                line(&sec.title),
                rows.join(",\n")
            )
        })
        .collect();
    format!(
        "{{\n\"families\": [\n{}\n],\n\"sections\": [\n{}\n]\n}}\n",
        families.join(",\n"),
        sections.join(",\n")
    )
}
