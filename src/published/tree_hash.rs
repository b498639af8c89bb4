//! The git tree hash of a folder, computed from the files themselves: what `git rev-parse
//! COMMIT:targets` prints for a commit whose `targets/` holds exactly these files. A published
//! summary names the inputs it was made from this way, so it stays the same when only its own
//! commit changes, and anyone can find the commits it belongs to (`git log --format=%H
//! --all -- targets` and compare `git rev-parse <commit>:targets`).

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

fn sha1(kind: &str, body: &[u8]) -> [u8; 20] {
    let mut h = sha1_smol::Sha1::new();
    h.update(format!("{kind} {}\0", body.len()).as_bytes());
    h.update(body);
    h.digest().bytes()
}

/// The tree hash of `dir` (files, executables, symlinks and subfolders; empty folders, which
/// git does not store, are left out). `None` for an empty folder.
pub fn tree_hash(dir: &Path) -> std::io::Result<Option<[u8; 20]>> {
    let mut entries: Vec<(Vec<u8>, &'static str, [u8; 20])> = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().into_encoded_bytes();
        let meta = std::fs::symlink_metadata(entry.path())?;
        let kind = meta.file_type();
        if kind.is_dir() {
            if let Some(h) = tree_hash(&entry.path())? {
                // git sorts a folder as if its name ended with '/'.
                let mut key = name.clone();
                key.push(b'/');
                entries.push((key, "40000", h));
            }
        } else if kind.is_symlink() {
            let target = std::fs::read_link(entry.path())?.into_os_string();
            entries.push((name, "120000", sha1("blob", target.as_encoded_bytes())));
        } else {
            let mode = match meta.permissions().mode() & 0o111 {
                0 => "100644",
                _ => "100755",
            };
            entries.push((name, mode, sha1("blob", &std::fs::read(entry.path())?)));
        }
    }
    if entries.is_empty() {
        return Ok(None);
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    let mut body = Vec::new();
    for (key, mode, hash) in entries {
        let name = key.strip_suffix(b"/").unwrap_or(&key);
        body.extend_from_slice(mode.as_bytes());
        body.push(b' ');
        body.extend_from_slice(name);
        body.push(0);
        body.extend_from_slice(&hash);
    }
    Ok(Some(sha1("tree", &body)))
}

/// [`tree_hash`] as 40 hex digits (the empty tree's hash for an empty folder).
pub fn tree_hash_hex(dir: &Path) -> std::io::Result<String> {
    const EMPTY_TREE: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
    Ok(match tree_hash(dir)? {
        Some(h) => h.iter().map(|b| format!("{b:02x}")).collect(),
        None => EMPTY_TREE.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whatever git itself says about the same files: a folder with a file, an executable,
    /// a nested folder and names that sort differently as folders ("a" vs "a.b"). Without
    /// git it skips, and says so on stderr (uncaptured, so a bare runner's log shows it).
    #[test]
    fn agrees_with_git() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let git = |args: &[&str]| {
            std::process::Command::new("git")
                .args(args)
                .current_dir(root)
                .env("GIT_CONFIG_GLOBAL", "/dev/null")
                .output()
        };
        if let Err(e) = git(&["--version"]) {
            use std::io::Write;
            let _ = writeln!(std::io::stderr(), "skipped: agrees_with_git: no git ({e})");
            return;
        }
        let git = |args: &[&str]| {
            let out = git(args).unwrap();
            assert!(out.status.success(), "{out:?}");
            String::from_utf8(out.stdout).unwrap().trim().to_string()
        };
        std::fs::create_dir_all(root.join("t/a")).unwrap();
        std::fs::write(root.join("t/a/x.yaml"), "x: 1\n").unwrap();
        std::fs::write(root.join("t/a.b"), "dot\n").unwrap();
        let script = root.join("t/run.sh");
        std::fs::write(&script, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        git(&["init", "-q"]);
        git(&["add", "t"]);
        // A git whose stat reports no exec bit (Git for Windows under Cygwin) stores 100644
        // whatever the file says: the index is told the mode the file system reports, the
        // one tree_hash reads.
        let executable = std::fs::metadata(&script).unwrap().permissions().mode() & 0o111 != 0;
        let chmod = if executable {
            "--chmod=+x"
        } else {
            "--chmod=-x"
        };
        git(&["update-index", chmod, "t/run.sh"]);
        let tree = git(&["write-tree", "--prefix=t/"]);
        assert_eq!(tree_hash_hex(&root.join("t")).unwrap(), tree);
    }
}
