//! One meaning per option in every command (`--out DIR` a folder, `--json` a switch printing
//! JSON on stdout), and `probe --help` telling what plain `probe` does.

use rstest::rstest;

use super::{bin, run, stderr};

/// The subcommands `spawnmatrix help` lists (so a new one is checked too).
fn subcommands() -> Vec<String> {
    let out = run(bin().arg("help"));
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(String::from)
        .collect()
}

/// The value an option takes in `-h` output (`<DIR>`), `""` for a switch, `None` if absent.
fn value_of(help: &str, option: &str) -> Option<String> {
    help.lines().find_map(|l| {
        let mut words = l
            .split_whitespace()
            .skip_while(|w| w.starts_with("-") && *w != option);
        (words.next()? == option).then(|| {
            words
                .next()
                .filter(|w| w.starts_with('<'))
                .unwrap_or("")
                .to_string()
        })
    })
}

#[test]
fn out_is_a_folder_and_json_a_switch_everywhere() {
    let commands = subcommands();
    assert!(commands.len() >= 10, "{commands:?}");
    let main = String::from_utf8(run(bin().arg("-h")).stdout).unwrap();
    let mut helps = vec![(String::from("(main job)"), main)];
    for c in commands {
        let help = String::from_utf8(run(bin().args([&c, "-h"])).stdout).unwrap();
        helps.push((c, help));
    }
    for (command, help) in &helps {
        if let Some(v) = value_of(help, "--out") {
            assert_eq!(v, "<DIR>", "{command}: --out takes a folder");
        }
        if let Some(v) = value_of(help, "--json") {
            assert_eq!(v, "", "{command}: --json is a switch");
        }
        assert!(!help.contains("--output"), "{command}: --output, not --out");
    }
}

/// `--json` puts one JSON document on stdout, and `--out DIR` writes the same under a fixed
/// name, in each command that writes a single file.
#[rstest]
#[case::probe(&["probe", "--no-cases"], "report.json")]
#[case::fuzz(&["fuzz", "--sequences", "2", "--seed", "1"], "fuzz-summary.json")]
#[case::soak(&["soak", "--spawns", "50", "--threads", "1", "--samples", "2"], "soak.json")]
fn json_on_stdout_and_the_same_in_the_out_folder(#[case] args: &[&str], #[case] file: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("new");
    let out = run(bin().args(args).arg("--json").arg("--out").arg(&dir));
    assert!(out.status.success(), "{}", stderr(&out));
    let printed: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    let written: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join(file)).unwrap()).unwrap();
    assert_eq!(printed, written);
}

/// Plain `probe` runs no case (so it never reads the case folder), as its help says; the
/// report does run them.
#[test]
fn plain_probe_runs_no_case_as_its_help_says() {
    let help = String::from_utf8(run(bin().args(["probe", "--help"])).stdout).unwrap();
    assert!(help.contains("runs no case"), "{help}");
    let tmp = tempfile::tempdir().unwrap();
    let nowhere = tmp.path().join("no-cases-here");
    let plain = run(bin().arg("probe").arg("--cases").arg(&nowhere));
    assert!(plain.status.success());
    let report = run(bin().args(["probe", "--json", "--cases"]).arg(&nowhere));
    assert_eq!(report.status.code(), Some(2));
    assert!(stderr(&report).contains("no conformance cases at"));
}
