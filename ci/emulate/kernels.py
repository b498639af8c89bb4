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
    rows = []
    sizes = set()
    for path in args.reports:
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
    print(head)
    print("|" + "---|" * (3 + 2 * len(sizes)))
    for _, kernel, accel, floor, by in sorted(rows):
        def ratio(strategy, size):
            e = by.get(strategy, {}).get(size)
            return f"{e['ratio_to_floor']:.2f} ({e['median_us']:.0f} µs)" if e else "—"
        cells = [ratio("shared:auto", s) for s in sizes] + [ratio("raw:fork", s) for s in sizes]
        print(f"| {kernel} | {accel} | {floor} | " + " | ".join(cells) + " |")
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
    args = parser.parse_args()
    return compare(args) if args.command == "compare" else bench(args)


if __name__ == "__main__":
    sys.exit(main())
