//! `${tmp}` and `${helper}` in case strings, so case files never name a machine's paths.

use std::path::Path;

/// The values templates expand to for one run of one case.
#[derive(Debug, Clone)]
pub struct Vars {
    /// The case's private directory, canonical (no symlinks), without a trailing slash.
    pub tmp: String,
    pub helper: String,
}

impl Vars {
    pub fn new(tmp: &Path, helper: &Path) -> Vars {
        Vars {
            tmp: tmp.display().to_string(),
            helper: helper.display().to_string(),
        }
    }

    /// Expands every `${tmp}` and `${helper}`.
    pub fn expand(&self, text: &str) -> String {
        text.replace("${tmp}", &self.tmp)
            .replace("${helper}", &self.helper)
    }

    /// Expands, then makes a relative setup path absolute under `${tmp}`.
    pub fn path(&self, text: &str) -> String {
        let expanded = self.expand(text);
        if expanded.starts_with('/') {
            expanded
        } else {
            format!("{}/{}", self.tmp, expanded)
        }
    }

    /// The reverse of [`expand`](Self::expand) for reported values, so facts in a report do
    /// not carry one run's temporary paths.
    pub fn unexpand(&self, text: &str) -> String {
        text.replace(&self.helper, "${helper}")
            .replace(&self.tmp, "${tmp}")
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use rstest::rstest;

    use super::Vars;

    #[rstest]
    #[case("${tmp}/sub", "/t/x/sub")]
    #[case("${helper}", "/c/h")]
    #[case("plain", "plain")]
    fn expands_and_back(#[case] text: &str, #[case] expanded: &str) {
        let vars = Vars::new(Path::new("/t/x"), Path::new("/c/h"));
        assert_eq!(vars.expand(text), expanded);
        assert_eq!(vars.unexpand(expanded), text);
    }

    #[rstest]
    #[case("sub/f", "/t/x/sub/f")]
    #[case("/abs", "/abs")]
    fn paths(#[case] text: &str, #[case] expected: &str) {
        let vars = Vars::new(Path::new("/t/x"), Path::new("/c/h"));
        assert_eq!(vars.path(text), expected);
    }
}
