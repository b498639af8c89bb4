//! `spawnmatrix publish`: the committed summary (`docs/SUMMARY.md`, `docs/summary.json` and
//! what changed, `docs/CHANGES.md`) and the compile-time caps (`docs/spawnmatrix_caps.h`, `docs/spawnmatrix_caps.rs`), built
//! only from `targets/` so that it is byte-identical on every rerun; `--check` fails when
//! the committed files are stale (what `ci/checks/45-published.sh` runs).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use spawnmatrix::caps_header::Caps;
use spawnmatrix::matrix::render::summary;
use spawnmatrix::matrix::summary::Summary;
use spawnmatrix::matrix::Matrix;
use spawnmatrix::published::baseline_view as view;
use spawnmatrix::published::changes::changes_md;
use spawnmatrix::published::json as release_render;
use spawnmatrix::published::kernel::Kernel;
use spawnmatrix::published::markdown as baselines_md;
use spawnmatrix::published::tree_hash::tree_hash_hex;
use spawnmatrix::published::{GeneratedFrom, Published};

use super::CliResult;

#[derive(clap::Args)]
pub struct Args {
    /// The platform families and stored reports [default: the working tree's targets/].
    #[arg(long, value_name = "DIR")]
    targets: Option<PathBuf>,
    /// Folder for SUMMARY.md, summary.json, CHANGES.md, spawnmatrix_caps.{h,rs}; the summary
    /// already there is the release this one replaces [default: the working tree's docs/].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Write nothing; exit 1 when a file in the folder differs from what would be written.
    #[arg(long)]
    check: bool,
}

/// Everything `publish` and `query` read off `targets/`: the stored matrix, its summary, the
/// compile-time caps and the (not yet versioned) published document.
pub struct Built {
    pub matrix: Matrix,
    pub summary: Summary,
    pub caps: Caps,
    pub published: Published,
}

/// Builds the published data of `targets`.
pub fn build(targets: &Path) -> Result<Built, Box<dyn std::error::Error>> {
    let matrix = super::stored::matrix(targets)?;
    let summary = spawnmatrix::matrix::summary::build(&matrix);
    let mut caps = spawnmatrix::caps_header::build(&summary, &matrix)?;
    let view = view::of_targets(&caps, &matrix, targets)?;
    caps.baselines = view
        .iter()
        .flat_map(|v| &v.baselines)
        .map(|b| spawnmatrix::caps_header::Preset {
            id: b.id.clone(),
            family: b.family.clone(),
            release: b.release.clone(),
        })
        .collect();
    let generated_from = GeneratedFrom {
        targets_tree: tree_hash_hex(targets)
            .map_err(|e| format!("hashing {}: {e}", targets.display()))?,
        generator: format!("spawnmatrix {}", env!("CARGO_PKG_VERSION")),
        newest_evidence: matrix.generated_at.clone(),
        generated_at: spawnmatrix::published::generation_time(),
    };
    let kernel = Kernel::load(targets)?;
    let published = Published::build(&summary, &matrix, view, kernel.as_ref(), generated_from);
    // A summary that contradicts itself is not published (issues 20 and 29): checked as
    // consumers read it, with every note and source behind each answer.
    let problems = spawnmatrix::matrix::consistency::check(&published.summary());
    if !problems.is_empty() {
        let list: Vec<String> = problems.iter().map(|p| format!("  {p}")).collect();
        return Err(format!(
            "the summary contradicts itself ({} problems; fix targets/*/platform.yaml):\n{}",
            problems.len(),
            list.join("\n")
        )
        .into());
    }
    Ok(Built {
        matrix,
        summary,
        caps,
        published,
    })
}

/// Reads `dir/name`, `None` when it is not there.
fn previous(dir: &Path, name: &str) -> Result<Option<String>, Box<dyn std::error::Error>> {
    match std::fs::read_to_string(dir.join(name)) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("reading {}: {e}", dir.join(name).display()).into()),
    }
}

/// The files `publish` writes, by name. `previous` is the folder holding the release this one
/// replaces (its `summary.json` and `CHANGES.md`), normally the output folder itself.
pub fn render(
    targets: &Path,
    previous_dir: &Path,
) -> Result<Vec<(&'static str, String)>, Box<dyn std::error::Error>> {
    let built = build(targets)?;
    let prev_json = previous(previous_dir, "summary.json")?;
    let prev = prev_json
        .as_deref()
        .map(|t| Published::parse(&previous_dir.join("summary.json"), t))
        .transpose()?;
    let (published, diff) = built.published.release(prev.as_ref());
    let version = published.data_version.clone().unwrap_or_default();
    let tree = published
        .generated_from
        .as_ref()
        .map_or("", |g| g.targets_tree.as_str());
    // A republish that moves no data version (a new targets tree whose cells, notes and
    // history are the same) keeps the history as it is: rewriting this version's section
    // from a diff against itself would empty it.
    let same_version = prev.as_ref().and_then(|p| p.data_version.as_deref()) == Some(&*version);
    let section = diff.filter(|_| !same_version).map(|d| {
        let heading = format!(
            "{version} (targets tree {})",
            tree.get(..12).unwrap_or(tree)
        );
        (version.as_str(), d.markdown(&heading))
    });
    let changes = changes_md(section, previous(previous_dir, "CHANGES.md")?.as_deref());
    let header = format!(
        "# spawnmatrix: the summary\n\n\
         Generated by `spawnmatrix publish` from `targets/` only ({} stored columns; no live\n\
         probe), so it changes only when the stored reports or the documented claims do; do\n\
         not edit. Data version {version} (`summary.json`, what changed: `CHANGES.md`); every\n\
         cell with its evidence: `cargo run --release` writes `out/MATRIX.md` and\n\
         `out/index.html`; one feature: `spawnmatrix query addchdir_np`, for a baseline:\n\
         `spawnmatrix query addchdir_np --baseline manylinux2014`.\n\n",
        built.matrix.columns.len()
    );
    let mut markdown = header + &summary::markdown(&built.summary);
    if let Some(kernel) = published.sections.iter().find(|s| s.id == "kernel") {
        markdown.push_str(&baselines_md::kernel(kernel, &published));
    }
    let sandbox_id = spawnmatrix::published::sandbox::SECTION;
    if let Some(sandbox) = published.sections.iter().find(|s| s.id == sandbox_id) {
        markdown.push_str(&baselines_md::sandbox(sandbox, &published));
    }
    if let Some(view) = &published.baselines {
        markdown.push_str(&baselines_md::markdown(view, &built.summary));
    }
    Ok(vec![
        ("SUMMARY.md", markdown),
        ("summary.json", release_render::json(&published)),
        ("CHANGES.md", changes),
        (
            "spawnmatrix_caps.h",
            spawnmatrix::caps_header::c::render(&built.caps),
        ),
        (
            "spawnmatrix_caps.rs",
            spawnmatrix::caps_header::rust::render(&built.caps),
        ),
    ])
}

pub fn run(args: Args) -> CliResult {
    let targets = super::stored::targets_dir(args.targets.as_deref())?;
    let out = args.out.unwrap_or_else(|| {
        targets
            .parent()
            .map_or_else(|| PathBuf::from("docs"), |p| p.join("docs"))
    });
    let files = render(&targets, &out)?;
    if args.check {
        let stale: Vec<String> = files
            .iter()
            .filter(|(name, text)| {
                std::fs::read(out.join(name)).ok().as_deref() != Some(text.as_bytes())
            })
            .map(|(name, _)| out.join(name).display().to_string())
            .collect();
        if stale.is_empty() {
            outln!("{}: up to date", out.display())?;
            return Ok(ExitCode::SUCCESS);
        }
        eprintln!(
            "spawnmatrix publish --check: stale: {} (run `cargo run -- publish` and commit)",
            stale.join(", ")
        );
        return Ok(ExitCode::from(1));
    }
    std::fs::create_dir_all(&out).map_err(|e| format!("creating {}: {e}", out.display()))?;
    let paths: Vec<(PathBuf, &[u8])> = files
        .iter()
        .map(|(name, text)| (out.join(name), text.as_bytes()))
        .collect();
    let refs: Vec<(&Path, &[u8])> = paths.iter().map(|(p, b)| (p.as_path(), *b)).collect();
    spawnmatrix::atomic::write_all(&refs).map_err(|e| format!("writing {}: {e}", out.display()))?;
    let names: Vec<&str> = files.iter().map(|(name, _)| *name).collect();
    outln!("wrote {}/{{{}}}", out.display(), names.join(","))?;
    Ok(ExitCode::SUCCESS)
}
