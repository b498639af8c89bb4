//! The C probes: one tiny program per spawn function and one per flag macro.
//!
//! A function probe takes the function's address through a volatile pointer, so the object file
//! holds a real reference that the linker must resolve against the sysroot's libc. A flag probe
//! reads the macro's value; one preprocessor run per sysroot shows every flag's expansion. Both include only `<spawn.h>`, with `_GNU_SOURCE` so glibc shows its
//! extensions (the BSDs and macOS show theirs by default).

use std::collections::BTreeMap;

/// What a probe checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A function: declared in `<spawn.h>` and resolvable by the linker.
    Function,
    /// A flag macro for `posix_spawnattr_setflags`.
    Flag,
}

/// One probe: a name as it appears in reports (the C identifier) and its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Probe {
    pub name: &'static str,
    pub kind: Kind,
    /// Also link against the bare symbol (own declaration) when the header's declaration
    /// links: for names a header may redirect to another symbol (glibc 2.44 maps the POSIX
    /// `addchdir` names onto the `_np` symbols with an asm label).
    pub check_own_symbol: bool,
}

const fn function(name: &'static str) -> Probe {
    Probe {
        name,
        kind: Kind::Function,
        check_own_symbol: false,
    }
}

const fn redirectable(name: &'static str) -> Probe {
    Probe {
        name,
        kind: Kind::Function,
        check_own_symbol: true,
    }
}

const fn flag(name: &'static str) -> Probe {
    Probe {
        name,
        kind: Kind::Flag,
        check_own_symbol: false,
    }
}

/// Every probe linkcheck runs, in report order.
pub const ALL: &[Probe] = &[
    function("posix_spawn"),
    function("posix_spawnp"),
    function("posix_spawn_file_actions_addchdir_np"),
    function("posix_spawn_file_actions_addfchdir_np"),
    redirectable("posix_spawn_file_actions_addchdir"),
    redirectable("posix_spawn_file_actions_addfchdir"),
    function("posix_spawn_file_actions_addclosefrom_np"),
    function("posix_spawn_file_actions_addtcsetpgrp_np"),
    function("posix_spawn_file_actions_addinherit_np"),
    function("pidfd_spawn"),
    function("pidfd_spawnp"),
    function("posix_spawnattr_setcgroup_np"),
    function("posix_spawnattr_setschedpolicy"),
    function("posix_spawnattr_setschedparam"),
    function("posix_spawnattr_setexecfd_np"),
    flag("POSIX_SPAWN_RESETIDS"),
    flag("POSIX_SPAWN_SETPGROUP"),
    flag("POSIX_SPAWN_SETSIGDEF"),
    flag("POSIX_SPAWN_SETSIGMASK"),
    flag("POSIX_SPAWN_SETSCHEDPARAM"),
    flag("POSIX_SPAWN_SETSCHEDULER"),
    flag("POSIX_SPAWN_USEVFORK"),
    flag("POSIX_SPAWN_SETSID"),
    flag("POSIX_SPAWN_SETCGROUP"),
    flag("POSIX_SPAWN_CLOEXEC_DEFAULT"),
    flag("POSIX_SPAWN_SETEXEC"),
    flag("POSIX_SPAWN_START_SUSPENDED"),
    flag("POSIX_SPAWN_DISABLE_ASLR_NP"),
];

/// The program that decides whether a sysroot can link anything at all.
pub const BASELINE: &str = "int main(void) { return 0; }\n";

/// The marker that precedes a flag's name and expansion in preprocessor output.
pub const VALUE_MARKER: &str = "spawnmatrix_flag_value";

impl Probe {
    /// The probe's C source, compiled and linked as a program.
    pub fn source(&self) -> String {
        match self.kind {
            Kind::Function => format!(
                "#define _GNU_SOURCE 1\n#include <spawn.h>\n#include <stddef.h>\n\
                 int main(void) {{\n    void *volatile p = (void *)&{name};\n    return p == NULL;\n}}\n",
                name = self.name
            ),
            Kind::Flag => format!(
                "#define _GNU_SOURCE 1\n#include <spawn.h>\n\
                 int main(void) {{\n    volatile long v = (long)({name});\n    return v == -1;\n}}\n",
                name = self.name
            ),
        }
    }

    /// For a function: the same reference through an own declaration instead of the header's,
    /// to tell "no symbol" from "symbol without a declaration", and a real symbol from a
    /// header redirect.
    pub fn own_declaration_source(&self) -> Option<String> {
        (self.kind == Kind::Function).then(|| {
            format!(
                "#include <stddef.h>\nextern int {name}(void);\n\
                 int main(void) {{\n    void *volatile p = (void *)&{name};\n    return p == NULL;\n}}\n",
                name = self.name
            )
        })
    }
}

/// One source for all flags: its preprocessed form has a line `MARKER "NAME" = EXPANSION` for
/// every flag the header defines (the name is quoted so that it is not expanded).
pub fn values_source() -> String {
    let mut src = String::from("#define _GNU_SOURCE 1\n#include <spawn.h>\n");
    for p in ALL.iter().filter(|p| p.kind == Kind::Flag) {
        src.push_str(&format!(
            "#ifdef {name}\n{VALUE_MARKER} \"{name}\" = {name}\n#endif\n",
            name = p.name
        ));
    }
    src
}

/// Flag expansions from the preprocessed [`values_source`], whitespace collapsed.
pub fn parse_values(preprocessed: &str) -> BTreeMap<String, String> {
    preprocessed
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix(VALUE_MARKER))
        .filter_map(|rest| rest.split_once('='))
        .map(|(name, value)| {
            let value = value.split_whitespace().collect::<Vec<_>>().join(" ");
            (name.trim().trim_matches('"').to_string(), value)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(
        "# 1 \"x.c\"\nspawnmatrix_flag_value \"POSIX_SPAWN_SETSID\" = 0x80\n",
        "POSIX_SPAWN_SETSID",
        Some("0x80")
    )]
    #[case(
        "spawnmatrix_flag_value \"A\" = ( 1 <<   7 )\n",
        "A",
        Some("( 1 << 7 )")
    )]
    #[case("spawnmatrix_flag_value \"A\" = 1\n", "B", None)]
    #[case("int x;\n", "A", None)]
    fn values(#[case] text: &str, #[case] name: &str, #[case] expected: Option<&str>) {
        assert_eq!(parse_values(text).get(name).map(String::as_str), expected);
    }

    #[test]
    fn values_source_guards_every_flag() {
        let src = values_source();
        for p in ALL.iter().filter(|p| p.kind == Kind::Flag) {
            assert!(src.contains(&format!("#ifdef {}\n", p.name)), "{}", p.name);
        }
    }

    #[rstest]
    #[case(function("posix_spawn"), "&posix_spawn;")]
    #[case(flag("POSIX_SPAWN_SETSID"), "(long)(POSIX_SPAWN_SETSID)")]
    fn sources_reference_the_name(#[case] probe: Probe, #[case] needle: &str) {
        assert!(probe.source().contains(needle), "{}", probe.source());
    }

    #[test]
    fn names_are_unique() {
        let mut names: Vec<_> = ALL.iter().map(|p| p.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ALL.len());
    }
}
