//! The conformance suite as one libtest-mimic trial per case and subject
//! (`exec-enoent::libc`, `exec-enoent::std`), so `cargo test -- exec-`, `--list`, `--exact`
//! and `--ignored` work. Each trial runs in its own runner process (this test binary started
//! again with the runner argument), so trials are independent and run in parallel.
//! Trials a subject cannot express are listed as ignored; `--ignored` shows why.

use std::process::ExitCode;
use std::sync::Arc;

use libtest_mimic::{Arguments, Failed, Trial};
use spawnmatrix::conformance::{self, verdict, Options, Subject, Suite};

fn main() -> ExitCode {
    if let Some(code) = conformance::main_if_runner() {
        return code;
    }
    let args = Arguments::from_args();
    let suite = match Suite::load_default() {
        Ok(s) => Arc::new(s),
        Err(e) => {
            eprintln!("conformance: cannot load the suite: {e}");
            return ExitCode::from(2);
        }
    };
    let options = match Options::current() {
        Ok(o) => Arc::new(o),
        Err(e) => {
            eprintln!("conformance: {e}");
            return ExitCode::from(2);
        }
    };
    let mut trials = Vec::new();
    for (index, loaded) in suite.cases.iter().enumerate() {
        for subject in Subject::ALL {
            let (suite, options) = (Arc::clone(&suite), Arc::clone(&options));
            let ignored = subject.inexpressible(&loaded.case).is_some();
            let name = format!("{}::{}", loaded.case.id, subject.name());
            let label = name.clone();
            let trial = Trial::test(name, move || {
                let case = &suite.cases[index];
                let result = conformance::run_trial(&suite, case, subject, &options);
                let note = result.note.as_deref().unwrap_or("");
                if !verdict::passes(&result.verdict) {
                    return Err(Failed::from(format!("{}: {note}", result.outcome)));
                }
                if result.verdict != verdict::PASS && result.verdict != verdict::RECORDED {
                    println!("{label}: {} ({}) {note}", result.outcome, result.verdict);
                }
                Ok(())
            })
            .with_kind(format!("{:?}", loaded.case.area))
            .with_ignored_flag(ignored);
            trials.push(trial);
        }
    }
    libtest_mimic::run(&args, trials).exit_code()
}
