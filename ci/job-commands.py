#!/usr/bin/env python3
"""Checks that every workflow job runs one of this repository's scripts with its column as
the only argument, and nothing that the local checks do not run.

    ci/job-commands.py [WORKFLOW]      (default .github/workflows/matrix.yml)
    ci/job-commands.py --self-test

The first run of the workflow failed in review because its container job ran
`ci/containers.sh` with other options than the local check did. So, for every `run:` of the
workflow (the FreeBSD VM's `with: run:` too):
- each line calls a `ci/` script, or is one of a few plumbing forms (`cd`, `status=...`,
  `echo "$status" > F`, `exit "$(cat F)"`, appending to the step summary);
- a script gets positional arguments only, never an option (`-x`, `--x`);
- a column argument (`"$COLUMN"` from the job's matrix, or a word) must be one the script
  accepts (the labels of its `case`), and for a script that .ci/run runs here, one that a
  local check passes too (or one listed in LOCAL_SKIP with the reason it cannot run here);
- a script that no local check runs must be listed in OFF_LINUX with the reason;
- no job or step sets a SPAWNMATRIX_* or CARGO_* variable: the scripts decide those, the same
  way here and there.
"""
import glob
import re
import shlex
import sys

import yaml

# Columns of a locally-run script that this machine cannot run, and why.
LOCAL_SKIP = {
    ("ci/linux-column.sh", "alpine"): "built FROM a registry image; this machine has no registry",
}
# Scripts that only the workflow runs, and why.
OFF_LINUX = {
    "ci/probe-column.sh": "builds and probes on macOS, FreeBSD and Cygwin, none of which runs here",
    "ci/test-column.sh": "cargo test on macOS, FreeBSD and Cygwin, none of which runs here",
}
# Where a script's accepted columns are (the labels of its `case`).
COLUMN_SOURCES = {
    "ci/linux-column.sh": "ci/linux-column.sh",
    "ci/probe-column.sh": "ci/column.sh",
    "ci/test-column.sh": "ci/column.sh",
}
PLUMBING = [
    r"cd \S+$", r'cd "\$\(cygpath -u "\$GITHUB_WORKSPACE"\)"$', r"status=0$",
    r'echo "\$status" > [\w.-]+$', r'exit "\$\(cat [\w.-]+\)"$', r'exit "\$status"$',
    r'\{ cat [^}]*; \} >> "\$GITHUB_STEP_SUMMARY"$',
]
SCRIPT = re.compile(r'^(?:bash\s+)?(ci/[\w./-]+\.(?:sh|py))\b(.*)$')
ALLOWED_ENV = {"CARGO_TERM_COLOR"}


def lines_of(text):
    """The shell lines of a run block, continuations joined, comments and blanks dropped."""
    out, cur = [], ""
    for raw in text.splitlines():
        s = raw.strip()
        if not s or s.startswith("#"):
            continue
        if s.endswith("\\"):
            cur += s[:-1] + " "
            continue
        out.append(cur + s)
        cur = ""
    if cur:
        out.append(cur)
    return out


def invocation(line):
    """(script, args) for a line that runs a ci/ script (up to `||`, `&&`, `;`), or None."""
    m = SCRIPT.match(line)
    if not m:
        return None
    rest = re.split(r"\s(?:\|\||&&|;|\|)\s|\s*>", m.group(2), maxsplit=1)[0]
    return m.group(1), shlex.split(rest, posix=False)


def case_labels(path):
    """The words of the `case` labels in a script (`a|b|c)` at the start of a line)."""
    labels = set()
    for m in re.finditer(r"^\s*([\w.|-]+)\)", open(path).read(), re.M):
        labels.update(w for w in m.group(1).split("|") if w and w != "*")
    return labels


def local_invocations():
    """script -> list of argument lists, from .ci/run and ci/checks/*.sh."""
    found = {}
    for path in [".ci/run"] + sorted(glob.glob("ci/checks/*.sh")):
        for line in lines_of(open(path).read()):
            for part in re.split(r"\s(?:\|\||&&|;)\s|\$\(", line):
                inv = invocation(part.strip())
                if inv:
                    found.setdefault(inv[0], []).append(inv[1])
    return found


def check(workflow_text):
    wf = yaml.safe_load(workflow_text)
    local = local_invocations()
    problems = []
    for job_id, job in wf.get("jobs", {}).items():
        matrix = (job.get("strategy") or {}).get("matrix") or {}
        job_env = job.get("env") or {}
        for scope, env in [(job_id, job_env)] + [
                (f"{job_id} step {i + 1}", s.get("env") or {}) for i, s in enumerate(job.get("steps", []))]:
            for k in env:
                if (k.startswith("SPAWNMATRIX_") or k.startswith("CARGO_")) and k not in ALLOWED_ENV:
                    problems.append(f"{scope}: sets {k}: the scripts decide that, the same way here")
        for i, step in enumerate(job.get("steps", [])):
            where = f"{job_id} step {i + 1} ({step.get('name') or step.get('uses', '')})"
            texts = [step["run"]] if "run" in step else []
            if isinstance(step.get("with"), dict) and "run" in step["with"]:
                texts.append(step["with"]["run"])
            for text in texts:
                for line in lines_of(text):
                    problems += check_line(where, line, job_env, matrix, local)
    return problems


def check_line(where, line, job_env, matrix, local):
    inv = invocation(line.split(" || ")[0].strip())
    if inv is None:
        if any(re.match(p, line) for p in PLUMBING):
            return []
        return [f"{where}: runs `{line}` of its own; put it in the script the job calls"]
    script, args = inv
    problems = []
    for a in args:
        if a.lstrip("\"'").startswith("-"):
            problems.append(f"{where}: passes the option {a} to {script}; the job takes none")
    if script not in local and script not in OFF_LINUX:
        problems.append(f"{where}: {script} is run by no local check (.ci/run, ci/checks/) "
                        "and is not listed in OFF_LINUX with a reason")
    if script in local and not any(len(l) == len(args) or script in COLUMN_SOURCES for l in local[script]):
        problems.append(f"{where}: {script} gets {len(args)} argument(s); no local check passes as many")
    if script not in COLUMN_SOURCES:
        return problems
    accepted = case_labels(COLUMN_SOURCES[script])
    here = {w for l in local.get(script, []) for w in l}
    for a in args:
        values = column_values(a, job_env, matrix)
        if values is None:
            problems.append(f"{where}: {script} argument {a} is neither a column nor $COLUMN of the matrix")
            continue
        for v in values:
            if v not in accepted:
                problems.append(f"{where}: {script} does not know the column {v}")
            elif script in local and v not in here and (script, v) not in LOCAL_SKIP:
                problems.append(f"{where}: column {v} of {script} is run by no local check "
                                "(add it to ci/checks/, or to LOCAL_SKIP with the reason)")
    return problems


def column_values(arg, job_env, matrix):
    """The values a column argument takes over the job's matrix, or None."""
    a = arg.strip("\"'")
    m = re.fullmatch(r"\$\{?(\w+)\}?", a)
    if m:
        ref = str(job_env.get(m.group(1), ""))
        mm = re.fullmatch(r"\$\{\{\s*matrix\.(\w+)\s*\}\}", ref)
        if not mm or mm.group(1) not in matrix:
            return None
        return [str(v) for v in matrix[mm.group(1)]]
    return [a] if re.fullmatch(r"[\w.-]+", a) else None


MUTANTS = [
    ("an option the local check does not pass", 'bash ci/linux-column.sh "$COLUMN"',
     'bash ci/containers.sh --pull --no-musl --out results/reports "$COLUMN"'),
    ("an option to the column script", 'bash ci/linux-column.sh "$COLUMN"',
     'bash ci/linux-column.sh --pull "$COLUMN"'),
    ("a variable that configures the scripts", "      COLUMN: ${{ matrix.column }}\n",
     "      COLUMN: ${{ matrix.column }}\n      SPAWNMATRIX_ENGINE: docker\n"),
    ("a command of the job's own", 'bash ci/test-column.sh "$COLUMN"', "cargo test --locked"),
    ("a column no script knows", "runner: [macos-15, macos-15-intel]", "runner: [macos-15, macos-26]"),
    ("a Linux column no local check runs", "column: [bullseye, bookworm, trixie, sid, alpine]",
     "column: [bullseye, bookworm, trixie, sid, alpine, forky]"),
]


def self_test(path):
    text = open(path).read()
    if check(text):
        print("job-commands self-test: the workflow itself fails", file=sys.stderr)
        return 1
    missed = []
    for what, old, new in MUTANTS:
        if old not in text:
            missed.append(f"{what} (its pattern is no longer in {path})")
        elif not check(text.replace(old, new, 1)):
            missed.append(what)
    if missed:
        print("job-commands self-test: not caught: " + "; ".join(missed), file=sys.stderr)
        return 1
    print(f"job-commands self-test: {len(MUTANTS)} broken workflows refused")
    return 0


def main(argv):
    path = ".github/workflows/matrix.yml"
    if argv[1:2] == ["--self-test"]:
        return self_test(argv[2] if len(argv) > 2 else path)
    path = argv[1] if len(argv) > 1 else path
    problems = check(open(path).read())
    for p in problems:
        print(f"{path}: {p}", file=sys.stderr)
    if problems:
        return 1
    print(f"job-commands: {path}: every job runs a script with its column only, as the local checks do")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
