#!/usr/bin/env python3
"""Host side of ci/emulate.sh (standard library only).

  results.py executables BUILD_JSON
      From `cargo test --no-run --message-format=json`: one line per executable,
      `KIND NAME PATH` (KIND `test` for test binaries, `bin` for the program).
  results.py summary CONSOLE_LOG WORKDIR --arch A --build-seconds N --run-seconds N
                     [--accel QEMU-ARGS] [--kernel-package P] [--kernel-config FILE] [--no-report]
      Parses the guest's console (markers from ci/emulate/init.sh), writes the files the guest
      printed into WORKDIR/files and WORKDIR/summary.json, prints a summary, and exits 1 if a
      program failed or is missing, a test failed, the probe report is not a report of an
      emulated run, or the guest never finished.
  results.py save NEW STORED [--summary SUMMARY_JSON]
      Writes the guest's report NEW over STORED; a `fuzz` section of STORED that NEW lacks
      is kept (campaigns run on their own: ci/emulate.sh --fuzz). With --summary, the
      report's `guest` section says how the guest ran: the kernel's package, release, config
      flags and page size, KVM or TCG, boot time, and per program the tests passed, failed
      and ignored (the mechanism check's verdict per strategy among them).
"""

import argparse
import json
import re
import sys
from pathlib import Path

RESULT = re.compile(
    r"test result: (\w+)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured; (\d+) filtered out"
)
FAILED = re.compile(r"^test (.+?) +\.\.\. FAILED$")
VERDICT = re.compile(r"^test (.+?) +\.\.\. (ok|FAILED|ignored)$")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def executables(build_json):
    seen = set()
    for line in Path(build_json).read_text().splitlines():
        msg = json.loads(line)
        if msg.get("reason") != "compiler-artifact" or not msg.get("executable"):
            continue
        # Several cargo runs may each report the same artifact (the tool's binary).
        if msg["executable"] in seen:
            continue
        seen.add(msg["executable"])
        target = msg["target"]
        kind = target["kind"][0]
        if msg["profile"]["test"]:
            # Unit tests of the library and of the binary share the package's name.
            name = target["name"] if kind == "test" else f"{kind}-{target['name']}"
            print("test", name, msg["executable"])
        elif kind == "bin":
            print("bin", target["name"], msg["executable"])


def parse(console):
    """The console split into programs: {name: {rc, seconds, lines}}, facts, files, done."""
    programs, files, facts = {}, {}, {}
    current, file_name, done = None, None, False
    for raw in console.splitlines():
        line = ANSI.sub("", raw.rstrip("\r"))
        # A marker the kernel's console output ran into (ppc64el's banner has no newline
        # before init's first line): the marker starts where it starts.
        at = line.find("@@emu ")
        if file_name is None and at > 0:
            line = line[at:]
        if file_name is not None:
            if line == f"@@emu file-end {file_name}":
                files[file_name] = "\n".join(files[file_name]) + "\n"
                file_name = None
            else:
                files[file_name].append(line)
            continue
        if not line.startswith("@@emu "):
            if current is not None:
                programs[current]["lines"].append(line)
            continue
        words = line.split()
        if words[1] == "begin":
            current = words[2]
            programs[current] = {"rc": None, "seconds": None, "lines": []}
        elif words[1] == "end":
            fields = dict(w.split("=", 1) for w in words[3:])
            programs[words[2]]["rc"] = int(fields["rc"])
            programs[words[2]]["seconds"] = int(fields["seconds"])
            current = None
        elif words[1] == "file-begin":
            file_name = words[2]
            files[file_name] = []
        elif words[1] == "done":
            done = True
        else:
            facts[words[1]] = " ".join(words[2:])
    return programs, files, facts, done


def tally(lines):
    counts = {"passed": 0, "failed": 0, "ignored": 0}
    seen = False
    for line in lines:
        m = RESULT.search(line)
        if m:
            seen = True
            counts["passed"] += int(m.group(2))
            counts["failed"] += int(m.group(3))
            counts["ignored"] += int(m.group(4))
    failures = [m.group(1) for m in map(FAILED.match, lines) if m]
    return (counts if seen else None), failures


def check_report(text, problems):
    try:
        report = json.loads(text)
    except ValueError as e:
        problems.append(f"probe report is not JSON: {e}")
        return None
    platform = report.get("platform", {})
    if platform.get("provenance", {}).get("kind") != "emulated":
        problems.append("probe report's provenance is not `emulated`")
    if not report.get("cases"):
        problems.append("probe report carries no conformance cases")
    if not report.get("auto_strategy"):
        problems.append("probe report does not say which strategy Auto took")
    return report


def summary(args):
    console = Path(args.log).read_text(errors="replace")
    programs, files, facts, done = parse(console)
    work = Path(args.workdir)
    (work / "files").mkdir(exist_ok=True)
    for name, text in files.items():
        (work / "files" / name).write_text(text)
    expected = []
    run_list = work / "root" / "suite" / "run.list"
    if run_list.exists():
        expected = [l.split("\t", 1)[0] for l in run_list.read_text().splitlines() if l]
    expected += [name for name in programs if name not in expected]
    skipped = {}
    skip_file = work / "skipped"
    if skip_file.exists():
        skipped = dict(l.split("\t", 1) for l in skip_file.read_text().splitlines() if l)

    problems, rows = [], []
    total = {"passed": 0, "failed": 0, "ignored": 0}
    for name in expected:
        program = programs.get(name)
        if program is None or program["rc"] is None:
            problems.append(f"{name}: no end marker (the guest stopped or timed out in it)")
            continue
        counts, failures = tally(program["lines"])
        if counts:
            for k in total:
                total[k] += counts[k]
        if program["rc"] != 0:
            problems.append(f"{name}: exit status {program['rc']}")
        problems.extend(f"{name}: test failed: {f}" for f in failures)
        rows.append((name, program["rc"], program["seconds"], counts))
    report = None
    report_files = [n for n in files if n.endswith(".json")]
    if not report_files and not args.no_report:
        problems.append("the guest printed no probe report")
    for name in report_files:
        report = check_report(files[name], problems)
    if not done:
        problems.append("the guest never reached the end of its run list")

    config = {}
    if args.kernel_config and Path(args.kernel_config).exists():
        for line in Path(args.kernel_config).read_text().splitlines():
            if "=" in line:
                k, v = line.split("=", 1)
                config[k] = v
    # Each strategy's verdict from tests/mechanism.rs: the observer's check, by case name.
    mechanism = {}
    for line in programs.get("mechanism", {}).get("lines", []):
        m = VERDICT.match(line)
        if m and "::case_" in m.group(1):
            mechanism[m.group(1).rsplit("::case_", 1)[1].split("_", 1)[-1]] = m.group(2)
    boot = facts.get("boot-seconds")
    result = {
        "arch": args.arch,
        "accel": args.accel,
        "kernel_package": args.kernel_package,
        "kernel_config": config,
        "boot_seconds": float(boot) if boot else None,
        "mechanism": mechanism,
        "uname": facts.get("uname"),
        "page_size": facts.get("pagesize"),
        "byte_order": facts.get("byteorder"),
        "build_seconds": args.build_seconds,
        "boot_and_run_seconds": args.run_seconds,
        "auto_strategy": report.get("auto_strategy") if report else None,
        "tests": total,
        "programs": {n: {"rc": rc, "seconds": s, "counts": c} for n, rc, s, c in rows},
        "skipped_programs": skipped,
        "problems": problems,
    }
    (work / "summary.json").write_text(json.dumps(result, indent=2) + "\n")

    print(f"== {args.arch}: {facts.get('uname', 'no uname (did the guest boot?)')}")
    print(f"   {facts.get('pagesize', '?')} pages, {facts.get('byteorder', '?')}")
    print(f"   build {args.build_seconds} s, boot {result['boot_seconds']} s, "
          f"boot + run {args.run_seconds} s, Auto took {result['auto_strategy']}"
          + (f", {args.accel}" if args.accel else ""))
    if mechanism:
        print("   mechanism (strace): " + ", ".join(f"{k} {v}" for k, v in mechanism.items()))
    for name, rc, seconds, counts in rows:
        c = counts or {}
        print(f"   {name:<18} rc={rc:<3} {seconds:>5} s  passed {c.get('passed', '-')}"
              f"  failed {c.get('failed', '-')}  ignored {c.get('ignored', '-')}")
    for name, why in skipped.items():
        print(f"   {name:<18} skipped: {why}")
    print(f"   total: {total['passed']} passed, {total['failed']} failed, "
          f"{total['ignored']} ignored, {len(skipped)} programs skipped")
    for p in problems:
        print(f"   PROBLEM: {p}")
    return 1 if problems else 0


def guest_section(summary):
    """The report's `guest` section from a summary.json of `summary`."""
    s = json.loads(Path(summary).read_text())
    guest = {
        "uname": s["uname"],
        "page_size": s["page_size"],
        "emulator": s.get("accel") or "",
        "accel": "kvm" if "kvm" in (s.get("accel") or "") else "tcg",
        "boot_seconds": s["boot_seconds"],
        "boot_and_run_seconds": s["boot_and_run_seconds"],
        "programs": {
            name: {"seconds": p["seconds"], **(p["counts"] or {"passed": 0, "failed": 0, "ignored": 0})}
            for name, p in s["programs"].items()
        },
    }
    if s.get("kernel_package"):
        guest["kernel_package"] = s["kernel_package"]
    if s.get("kernel_config"):
        guest["kernel_config"] = s["kernel_config"]
    if s.get("mechanism"):
        guest["mechanism"] = s["mechanism"]
    return guest


def save(new, stored, summary=None):
    report = json.loads(Path(new).read_text())
    if summary:
        report["guest"] = guest_section(summary)
    stored = Path(stored)
    if "fuzz" not in report and stored.exists():
        old = json.loads(stored.read_text())
        if "fuzz" in old:
            report["fuzz"] = old["fuzz"]
    tmp = stored.with_name(stored.name + ".tmp")
    tmp.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    tmp.replace(stored)


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("executables")
    ex.add_argument("build_json")
    su = sub.add_parser("summary")
    su.add_argument("log")
    su.add_argument("workdir")
    su.add_argument("--arch", required=True)
    su.add_argument("--build-seconds", type=int, required=True)
    su.add_argument("--run-seconds", type=int, required=True)
    su.add_argument("--accel", default="", help="the emulator's accelerator and CPU arguments")
    su.add_argument("--kernel-package", default="")
    su.add_argument("--kernel-config", default="", help="CONFIG_X=value lines")
    su.add_argument("--no-report", action="store_true",
                    help="no probe ran (ci/emulate.sh --no-probe): expect no report")
    sv = sub.add_parser("save")
    sv.add_argument("new")
    sv.add_argument("stored")
    sv.add_argument("--summary", help="the guest's summary.json: adds the `guest` section")
    args = parser.parse_args()
    if args.command == "executables":
        executables(args.build_json)
        return 0
    if args.command == "save":
        save(args.new, args.stored, args.summary)
        return 0
    return summary(args)


if __name__ == "__main__":
    sys.exit(main())
