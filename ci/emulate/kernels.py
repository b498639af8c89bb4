#!/usr/bin/env python3
"""Host side of the kernel guests (ci/emulate.sh linux-VER): what a guest's report must
share with this machine's, and the per-kernel bench table.

  kernels.py compare GUEST_REPORT HOST_REPORT --kernel-yaml targets/linux-kernel/kernel.yaml
      The guest ran this machine's build on this machine's glibc, so only the kernel
      differs. Fails (exit 1) on any difference that is not the kernel's to make:
      - a conformance case whose outcome or verdict differs, for any subject;
      - a sandbox profile (spawnmatrix sandbox, the seccomp-faked kernels) whose rows differ:
        a filter that fakes a kernel must give the same answers on every real one;
      - a function or flag capability (the libc's) that differs;
      - Auto's choice other than the one the docs predict for the guest's kernel: clone3 from
        the release that has both clone3 and CLONE_CLEAR_SIGHAND (kernel.yaml), else
        clone_vfork (the strategy order in ARCHITECTURE.md and the crate docs).
      Prints what it compared, and each difference.
  kernels.py bench REPORT...
      The bench table: per kernel, shared:auto's median over the floor's (ratios measured in
      the same run, at each parent size), as Markdown.
  kernels.py table REPORT... [--check FILE]
      docs/KERNELS.md: per kernel guest, what its stored report records (kernel package, page
      size, accel, boot and run seconds, each test program's passed/failed/ignored, Auto's
      choice, strace's verdict per strategy, the libc), then the bench table. Derived from the
      reports alone, so the page cannot drift from them: --check FILE fails (exit 1) when FILE
      differs from what the reports give.
"""

import argparse
import json
import re
import sys
from pathlib import Path

import yaml

ORDER = ["clone3", "clone_vfork", "posix_spawn", "fork"]


def release(text):
    m = re.match(r"(\d+(?:\.\d+)*)", text or "")
    return tuple(int(p) for p in m.group(1).split(".")) if m else None


def predicted_auto(kernel_yaml, guest):
    """The strategy the docs predict: clone3 where the kernel has clone3 and
    CLONE_CLEAR_SIGHAND by their documented releases, else clone_vfork."""
    since = {f["row"]: f.get("since") for f in yaml.safe_load(Path(kernel_yaml).read_text())["features"]}
    need = max(release(since["kernel.clone3"]), release(since["kernel.CLONE_CLEAR_SIGHAND"]))
    running = release(guest["platform"].get("kernel"))
    return ("clone3" if running and running >= need else "clone_vfork"), need, running


def compare(args):
    guest = json.loads(Path(args.guest).read_text())
    host = json.loads(Path(args.host).read_text())
    problems = []
    compared = 0
    for case, subjects in sorted(host.get("cases", {}).items()):
        for subject, h in sorted(subjects.items()):
            g = guest.get("cases", {}).get(case, {}).get(subject)
            if g is None:
                problems.append(f"case {case} ({subject}): not run in the guest")
                continue
            compared += 1
            for field in ("outcome", "verdict"):
                if g.get(field) != h.get(field):
                    problems.append(f"case {case} ({subject}): {field} {g.get(field)!r} here {h.get(field)!r}")
    extra = sorted(set(guest.get("cases", {})) - set(host.get("cases", {})))
    problems.extend(f"case {c}: run in the guest only" for c in extra)
    profiles = 0
    for profile, h in sorted(host.get("sandbox", {}).items()):
        g = guest.get("sandbox", {}).get(profile)
        if g is None:
            # valgrind and qemu-user are tools of this machine, not of the guest.
            if profile not in ("valgrind", "qemu-user"):
                problems.append(f"sandbox {profile}: not run in the guest")
            continue
        profiles += 1
        if g != h:
            problems.append(f"sandbox {profile}: guest {json.dumps(g, sort_keys=True)} here {json.dumps(h, sort_keys=True)}")
    caps = 0
    for name, h in sorted(host.get("capabilities", {}).items()):
        if h.get("how", "").startswith("kernel") or name.startswith("crate."):
            continue
        caps += 1
        g = guest.get("capabilities", {}).get(name)
        if g is None or (g["available"], g["how"]) != (h["available"], h["how"]):
            problems.append(f"capability {name}: guest {g} here {h}")
    want, need, running = predicted_auto(args.kernel_yaml, guest)
    got = guest.get("auto_strategy")
    if got != want:
        problems.append(f"Auto took {got}; the docs predict {want} on {guest['platform'].get('kernel')} "
                        f"(clone3 needs {'.'.join(map(str, need))})")
    print(f"kernels: {guest['platform'].get('kernel')}: {compared} case results, {profiles} sandbox "
          f"profiles, {caps} libc capabilities compared with this machine's; Auto took {got} "
          f"(predicted {want}); {len(problems)} differences")
    for p in problems:
        print(f"kernels: DIFFERENT: {p}")
    return 1 if problems else 0


def bench(args):
    print("\n".join(bench_lines(args.reports)))
    return 0


def bench_lines(reports):
    lines = []
    rows = []
    sizes = set()
    for path in reports:
        r = json.loads(Path(path).read_text())
        perf = r.get("perf") or {}
        entries = perf.get("entries", [])
        by = {}
        for e in entries:
            if e.get("shape", "touched") != "touched":
                continue
            by.setdefault(e["strategy"], {})[e["parent_mib"]] = e
            sizes.add(e["parent_mib"])
        guest = r.get("guest", {})
        rows.append((release(r["platform"].get("kernel")) or (0,), r["platform"].get("kernel"),
                     guest.get("accel", "?"), perf.get("floor", "?"), by))
    sizes = sorted(sizes)
    head = "| kernel | accel | floor | " + " | ".join(f"shared:auto / floor, {s} MiB" for s in sizes)
    head += " | " + " | ".join(f"raw fork / floor, {s} MiB" for s in sizes) + " |"
    lines.append(head)
    lines.append("|" + "---|" * (3 + 2 * len(sizes)))
    for _, kernel, accel, floor, by in sorted(rows):
        def ratio(strategy, size):
            e = by.get(strategy, {}).get(size)
            return f"{e['ratio_to_floor']:.2f} ({e['median_us']:.0f} µs)" if e else "—"
        cells = [ratio("shared:auto", s) for s in sizes] + [ratio("raw:fork", s) for s in sizes]
        lines.append(f"| {kernel} | {accel} | {floor} | " + " | ".join(cells) + " |")
    return lines


PROGRAMS = ["spawn", "conformance", "lib-spawnmatrix_spawn", "mechanism", "kernel_releases", "pidfd"]
STRATEGIES = ["auto", "posix_spawn", "clone3", "clone_vfork", "fork"]


def table_text(reports):
    loaded = sorted(((json.loads(Path(p).read_text()), p) for p in reports),
                    key=lambda rp: release(rp[0]["platform"].get("kernel")) or (0,))
    out = [
        "# The kernel guests: what each stored run recorded",
        "",
        "Generated from the stored reports (`bash ci/emulate.sh --save ... linux-VER`, ci/README.md)",
        "by `python3 ci/emulate/kernels.py table targets/reports/kernel-*-x86_64-linux-gnu.json`; do not edit:",
        "`ci/checks/45-published.sh` fails when this page differs from them. Each guest ran this",
        "machine's x86_64 build on the libc named below; only the kernel differs. Cells: passed /",
        "failed (+ ignored) per test program, and seconds of wall time in the guest; a blank: not",
        "run in that stored run. strace: tests/mechanism.rs's verdict, per strategy, on which",
        "system call and flags made the child.",
        "",
        "| kernel | package | libc | accel | page | boot s | boot + run s | "
        + " | ".join(PROGRAMS) + " | probe s | Auto | strace: " + ", ".join(STRATEGIES) + " |",
        "|" + "---|" * (10 + len(PROGRAMS)),
    ]
    for r, _ in loaded:
        g = r.get("guest", {})
        progs = g.get("programs", {})

        def counts(name):
            p = progs.get(name)
            if p is None:
                return ""
            extra = f" (+{p['ignored']})" if p.get("ignored") else ""
            return f"{p['passed']} / {p['failed']}{extra}, {p['seconds']} s"
        libc = r["platform"].get("libc", {})
        mech = g.get("mechanism", {})
        probe = progs.get("spawnmatrix-probe", {}).get("seconds", "")
        out.append(
            f"| {r['platform'].get('kernel')} | {g.get('kernel_package', '?')} | "
            f"{libc.get('name', '?')} {libc.get('version', '')} | {g.get('accel', '?')} | "
            f"{g.get('page_size', '?')} | {g.get('boot_seconds', '?')} | {g.get('boot_and_run_seconds', '?')} | "
            + " | ".join(counts(n) for n in PROGRAMS)
            + f" | {probe} | {r.get('auto_strategy', '?')} | "
            + ", ".join(mech.get(s, "—") for s in STRATEGIES) + " |")
    out += [
        "",
        "## The bench per kernel",
        "",
        "`spawnmatrix probe --bench 0,256M` in each guest: `shared:auto` and raw fork over the",
        "floor (the fastest raw method), medians of the same run; the report's `perf.*` rows are",
        "these ratios per kernel column (`spawnmatrix matrix targets/reports/kernel-*.json`). Under",
        "TCG the emulator's cost is part of every figure; compare ratios, not microseconds.",
        "",
    ]
    out += bench_lines([p for _, p in loaded])
    return "\n".join(out) + "\n"


def table(args):
    text = table_text(args.reports)
    if args.check is None:
        sys.stdout.write(text)
        return 0
    if Path(args.check).read_text() != text:
        print(f"kernels: {args.check} differs from what the reports give; regenerate it with "
              f"python3 ci/emulate/kernels.py table targets/reports/kernel-*-x86_64-linux-gnu.json >{args.check}")
        return 1
    print(f"kernels: {args.check} matches {len(args.reports)} reports")
    return 0


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("compare")
    c.add_argument("guest")
    c.add_argument("host")
    c.add_argument("--kernel-yaml", required=True)
    b = sub.add_parser("bench")
    b.add_argument("reports", nargs="+")
    t = sub.add_parser("table")
    t.add_argument("reports", nargs="+")
    t.add_argument("--check", metavar="FILE")
    args = parser.parse_args()
    return {"compare": compare, "bench": bench, "table": table}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
