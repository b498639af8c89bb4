//! Where a documented claim's evidence is, in a form a program can check: a URL, or
//! `owner/repo@COMMIT:path:LINE` (`LINE` or `FIRST-LAST`, 1-based, COMMIT the full 40 hex
//! digits), so that anyone can open the quoted text at exactly that place.

use std::fmt;
use std::str::FromStr;

/// One checked citation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Citation {
    /// An `https://` (or `http://`) address.
    Url(String),
    /// A line range of a file at one commit of a repository.
    Repo {
        repo: String,
        commit: String,
        path: String,
        first: u32,
        last: u32,
    },
}

/// Text that is neither form, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a citation ({why}); write a URL or owner/repo@COMMIT:path:LINE")]
pub struct BadCitation {
    pub text: String,
    pub why: &'static str,
}

fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

fn line_number(s: &str) -> Option<u32> {
    let n: u32 = s.parse().ok()?;
    (n > 0 && !s.starts_with('0')).then_some(n)
}

impl FromStr for Citation {
    type Err = BadCitation;

    fn from_str(text: &str) -> Result<Self, BadCitation> {
        let bad = |why| BadCitation {
            text: text.to_string(),
            why,
        };
        if text.chars().any(char::is_whitespace) || text.is_empty() {
            return Err(bad("empty or contains whitespace"));
        }
        if let Some(rest) = text
            .strip_prefix("https://")
            .or_else(|| text.strip_prefix("http://"))
        {
            let host = rest.split(['/', '?', '#']).next().unwrap_or("");
            if !host.contains('.') || host.starts_with('.') || host.ends_with('.') {
                return Err(bad("a URL needs a host name"));
            }
            return Ok(Citation::Url(text.to_string()));
        }
        let (repo, rest) = text
            .split_once('@')
            .ok_or(bad("no URL scheme and no '@'"))?;
        let (owner, name) = repo.split_once('/').ok_or(bad("repo is not owner/name"))?;
        if !is_name(owner) || !is_name(name) {
            return Err(bad("repo is not owner/name"));
        }
        let (commit, rest) = rest.split_once(':').ok_or(bad("no ':' after the commit"))?;
        if commit.len() != 40 || !commit.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(bad("the commit must be 40 hex digits"));
        }
        let (path, lines) = rest
            .rsplit_once(':')
            .ok_or(bad("no ':LINE' after the path"))?;
        if path.is_empty() || path.starts_with('/') || path.split('/').any(|p| p == "..") {
            return Err(bad("the path must be relative to the repository"));
        }
        let (first, last) = match lines.split_once('-') {
            Some((a, b)) => (line_number(a), line_number(b)),
            None => (line_number(lines), line_number(lines)),
        };
        let (Some(first), Some(last)) = (first, last) else {
            return Err(bad("LINE must be a line number or FIRST-LAST"));
        };
        if first > last {
            return Err(bad("the line range runs backwards"));
        }
        Ok(Citation::Repo {
            repo: repo.to_string(),
            commit: commit.to_ascii_lowercase(),
            path: path.to_string(),
            first,
            last,
        })
    }
}

impl fmt::Display for Citation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Citation::Url(u) => f.write_str(u),
            Citation::Repo {
                repo,
                commit,
                path,
                first,
                last,
            } => {
                write!(f, "{repo}@{commit}:{path}:{first}")?;
                if last != first {
                    write!(f, "-{last}")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    const C: &str = "04e750e75b1cc79ad9a3d4d4b1d8e44b4a73b2a4";

    #[rstest]
    #[case("https://reviews.freebsd.org/rS353789")]
    #[case("bminor/glibc@04e750e75b1cc79ad9a3d4d4b1d8e44b4a73b2a4:NEWS:12")]
    #[case("bminor/glibc@04e750e75b1cc79ad9a3d4d4b1d8e44b4a73b2a4:posix/spawn.c:3-40")]
    fn citations_round_trip(#[case] text: &str) {
        let c: Citation = text.parse().unwrap();
        assert_eq!(c.to_string(), text);
    }

    #[rstest]
    #[case::free_text("bminor/glibc NEWS @ 04e750e7", "whitespace")]
    #[case::empty("", "empty")]
    #[case::no_host("https://localhost/x", "host")]
    #[case::short_commit("bminor/glibc@04e750e7:NEWS:1", "40 hex")]
    #[case::no_line(&format!("bminor/glibc@{C}:NEWS"), "LINE")]
    #[case::line_zero(&format!("bminor/glibc@{C}:NEWS:0"), "LINE")]
    #[case::backwards(&format!("bminor/glibc@{C}:NEWS:9-3"), "backwards")]
    #[case::absolute_path(&format!("bminor/glibc@{C}:/etc/NEWS:1"), "relative")]
    #[case::no_owner(&format!("glibc@{C}:NEWS:1"), "owner/name")]
    #[case::tag_not_commit("bminor/glibc@glibc-2.34:NEWS:1", "40 hex")]
    fn malformed_citations_are_rejected(#[case] text: &str, #[case] why: &str) {
        let err = text.parse::<Citation>().unwrap_err();
        assert!(err.to_string().contains(why), "{err}");
    }
}
