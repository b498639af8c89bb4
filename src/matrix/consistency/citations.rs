//! Documented function and flag cells against the sources they cite (issue 29, item 7): a
//! source cited for a row says something about that row. A source that dates a different
//! function (`posix_spawn(3)` cited for `posix_spawnp` without naming it), or a release
//! note cited for every row of a family it does not name, fails here.
//!
//! A source *names* a row when its text (`KEY: note (citations)`, as the cell prints it)
//! has the row's symbol as a word, after the spellings notes use are expanded
//! (`posix_spawnattr_{get,set}cgroup_np`, `pidfd_spawn(p)`, `add(f)chdir`): the whole
//! symbol, or the part after `posix_spawnattr_` / `posix_spawn_file_actions_`
//! (`setschedparam`, `addchdir_np`), or the flag without `POSIX_SPAWN_`. A few fixed
//! phrases name a group ([`GROUPS`]). A cell that says `no` may also rest on a source that
//! names what its row is about in a list of what is absent (`no pidfd, cgroup or inherit
//! function`: [`stem`]), or on a source that read the whole header ([`COMPLETE`]).

use super::{current, problem, section, Check, Problem};
use crate::matrix::model::{Evidence, Value};
use crate::matrix::summary::{source_key, Summary};

/// Phrases that name several rows at once, and the rows they name.
const GROUPS: &[(&str, &[&str])] = &[
    ("six POSIX flags", &POSIX_FLAGS),
    (
        "sched attribute setters",
        &[
            "functions.posix_spawnattr_setschedparam",
            "functions.posix_spawnattr_setschedpolicy",
        ],
    ),
    ("POSIX spawn function family", &BASE),
    ("POSIX spawn interfaces", &BASE),
    ("posix_spawn family", &BASE),
];

const BASE: [&str; 2] = ["functions.posix_spawn", "functions.posix_spawnp"];

const POSIX_FLAGS: [&str; 6] = [
    "flags.POSIX_SPAWN_RESETIDS",
    "flags.POSIX_SPAWN_SETPGROUP",
    "flags.POSIX_SPAWN_SETSIGDEF",
    "flags.POSIX_SPAWN_SETSIGMASK",
    "flags.POSIX_SPAWN_SETSCHEDPARAM",
    "flags.POSIX_SPAWN_SETSCHEDULER",
];

/// Phrases saying a source read a complete list, so whatever it does not name is absent:
/// the whole header (functions and flags), or every flag setflags accepts (flags only).
const COMPLETE: &[(&str, Kind)] = &[
    ("the whole <spawn.h>", Kind::Any),
    ("the whole newlib <spawn.h>", Kind::Any),
    ("only the six POSIX flags", Kind::Flags),
    ("exactly those six", Kind::Flags),
    ("ALL_POSIX_SPAWN_FLAGS", Kind::Flags),
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Any,
    Flags,
}

pub(super) fn check(s: &Summary, out: &mut Vec<Problem>) {
    for row in section(s, "features") {
        let Some(symbol) = row
            .id
            .strip_prefix("functions.")
            .or_else(|| row.id.strip_prefix("flags."))
        else {
            continue;
        };
        for a in &row.answers {
            if !a.evidence.contains(&Evidence::Doc) || a.sources.is_empty() {
                continue;
            }
            let absent = matches!(current(a), Some(Value::Bool(false)));
            if a.sources
                .iter()
                .any(|text| shows(text, &row.id, symbol, absent))
            {
                continue;
            }
            let keys: Vec<&str> = a.sources.iter().map(|t| source_key(t)).collect();
            out.push(problem(
                Check::CitationMissesRow,
                &a.family,
                &row.id,
                format!(
                    "'{}' rests on {}, and no source there names {symbol} or a group it belongs \
                     to: cite a source that shows what the cell says, or name the row in its note",
                    a.text,
                    keys.join(", ")
                ),
            ));
        }
    }
}

/// Whether the source text `text` says something about row `id` (symbol `symbol`).
fn shows(text: &str, id: &str, symbol: &str, absent: bool) -> bool {
    let words = words(text);
    let named = names(id, symbol)
        .iter()
        .any(|n| words.iter().any(|w| w == n));
    let grouped = GROUPS
        .iter()
        .any(|(phrase, rows)| text.contains(phrase) && rows.contains(&id));
    if named || grouped {
        return true;
    }
    absent
        && (stem(id, symbol).is_some_and(|s| words.iter().any(|w| w.contains(s.as_str())))
            || COMPLETE.iter().any(|(phrase, kind)| {
                text.contains(phrase) && (*kind == Kind::Any || id.starts_with("flags."))
            }))
}

/// The spellings that name the row: the symbol, and its short form.
fn names(id: &str, symbol: &str) -> Vec<String> {
    let mut out = vec![symbol.to_string()];
    if id.starts_with("flags.") {
        out.extend(symbol.strip_prefix("POSIX_SPAWN_").map(str::to_string));
    } else {
        for prefix in ["posix_spawn_file_actions_", "posix_spawnattr_"] {
            out.extend(symbol.strip_prefix(prefix).map(str::to_string));
        }
    }
    out
}

/// What a list of absent names calls the row (`no pidfd, cgroup or inherit function`):
/// the short form without `add`/`set` and `_np`, or `pidfd` for `pidfd_spawn(p)`. The chdir
/// actions have none: `chdir` would not tell their POSIX names from the `_np` ones.
fn stem(id: &str, symbol: &str) -> Option<String> {
    if symbol.starts_with("pidfd_spawn") {
        return Some("pidfd".into());
    }
    let short = names(id, symbol).pop()?;
    if short.contains("chdir") || short == symbol && id.starts_with("functions.") {
        return None;
    }
    let s = short.strip_suffix("_np").unwrap_or(&short);
    let s = s
        .strip_prefix("add")
        .or_else(|| s.strip_prefix("set"))
        .unwrap_or(s);
    Some(s.to_string())
}

/// The characters of the spellings [`words`] expands, which a word may contain.
const SPELLING: &str = "{},()[]";

/// The words of `text`, with `a{b,c}`, `a(b)` and `a[b]` expanded to every spelling.
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_' || SPELLING.contains(c);
    for raw in text.split(|c: char| !is_word(c)).filter(|w| !w.is_empty()) {
        let mut todo = vec![raw.to_string()];
        while let Some(w) = todo.pop() {
            if let Some((open, close)) = group(&w, '{', '}') {
                for alt in w[open + 1..close].split(',') {
                    todo.push(format!("{}{alt}{}", &w[..open], &w[close + 1..]));
                }
            } else if let Some((open, close)) = group(&w, '(', ')').or_else(|| group(&w, '[', ']'))
            {
                let inner = &w[open + 1..close];
                // `(p)` and `[f]` are optional letters; `(3C)`, a man page section, is not.
                let optional = inner.starts_with(|c: char| c.is_ascii_alphabetic())
                    && inner.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                if optional {
                    todo.push(format!("{}{inner}{}", &w[..open], &w[close + 1..]));
                    todo.push(format!("{}{}", &w[..open], &w[close + 1..]));
                } else {
                    todo.extend(w.split(|c: char| SPELLING.contains(c)).map(str::to_string));
                }
            } else {
                out.extend(
                    w.split(|c: char| SPELLING.contains(c))
                        .filter(|p| !p.is_empty())
                        .map(str::to_string),
                );
            }
        }
    }
    out
}

/// The first `open`…`close` pair in `w` with no bracket of the same kind inside.
fn group(w: &str, open: char, close: char) -> Option<(usize, usize)> {
    let end = w.find(close)?;
    let start = w[..end].rfind(open)?;
    Some((start, end))
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::{shows, words};

    #[rstest]
    #[case("posix_spawnattr_{get,set}cgroup_np", &["posix_spawnattr_getcgroup_np", "posix_spawnattr_setcgroup_np"])]
    #[case("pidfd_spawn(p)", &["pidfd_spawn", "pidfd_spawnp"])]
    #[case("the POSIX add(f)chdir", &["the", "POSIX", "addchdir", "addfchdir"])]
    #[case("for [f]chdir", &["for", "chdir", "fchdir"])]
    #[case::a_man_section("posix_spawn(3C) and f(x, y)", &["posix_spawn", "3C", "and", "f", "x", "y"])]
    fn words_expand_the_spellings_notes_use(#[case] text: &str, #[case] want: &[&str]) {
        let mut got = words(text);
        got.sort();
        let mut want: Vec<String> = want.iter().map(|w| w.to_string()).collect();
        want.sort();
        assert_eq!(got, want);
    }

    #[rstest]
    #[case::the_symbol("K: posix_spawnp(3)", "functions.posix_spawnp", false, true)]
    #[case::another_function("K: posix_spawn(3) HISTORY", "functions.posix_spawnp", false, false)]
    #[case::short_form(
        "K: setschedparam and setschedpolicy",
        "functions.posix_spawnattr_setschedpolicy",
        false,
        true
    )]
    #[case::np_is_not_posix(
        "K: addchdir_np",
        "functions.posix_spawn_file_actions_addchdir",
        false,
        false
    )]
    #[case::posix_is_not_np(
        "K: addchdir",
        "functions.posix_spawn_file_actions_addchdir_np",
        false,
        false
    )]
    #[case::a_group("K: the six POSIX flags", "flags.POSIX_SPAWN_SETSIGMASK", false, true)]
    #[case::not_in_the_group("K: the six POSIX flags", "flags.POSIX_SPAWN_SETSID", false, false)]
    #[case::flag_short("K: SETSID 0x40", "flags.POSIX_SPAWN_SETSID", false, true)]
    #[case::absent_by_stem(
        "K: no pidfd, cgroup or inherit function",
        "functions.posix_spawn_file_actions_addinherit_np",
        true,
        true
    )]
    #[case::stem_is_not_a_yes(
        "K: no pidfd, cgroup or inherit function",
        "functions.posix_spawn_file_actions_addinherit_np",
        false,
        false
    )]
    #[case::whole_header(
        "K: the whole <spawn.h> at v1",
        "functions.posix_spawnattr_setexecfd_np",
        true,
        true
    )]
    #[case::flag_list_is_not_a_function_list(
        "K: defines only the six POSIX flags",
        "functions.posix_spawnattr_setexecfd_np",
        true,
        false
    )]
    #[case::flag_list(
        "K: defines only the six POSIX flags",
        "flags.POSIX_SPAWN_SETEXEC",
        true,
        true
    )]
    #[case::no_chdir_stem(
        "K: no chdir actions",
        "functions.posix_spawn_file_actions_addchdir_np",
        true,
        false
    )]
    fn a_source_shows_its_row(
        #[case] text: &str,
        #[case] id: &str,
        #[case] absent: bool,
        #[case] want: bool,
    ) {
        let symbol = id.split_once('.').unwrap().1;
        assert_eq!(shows(text, id, symbol, absent), want, "{text} for {id}");
    }
}
