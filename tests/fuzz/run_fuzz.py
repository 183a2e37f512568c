#!/usr/bin/env python3
"""Runs the API fuzzer (caldera-fuzz) through a chosen glvnd EGL vendor and judges each run.

A run fails on: a non-zero exit (crash, hang caught by the watchdog, GL-state assertion), a missing summary
line, the wrong vendor, a sanitizer report, or (with --validation) any message of the Khronos validation
layer with synchronization validation. Lines matching suppressions.txt are known defects and tolerated;
its "avoid:" lines are passed to the driver as --avoid. On failure the input (api, seed, call count) is
appended to regressions/cases.txt, which meson registers as one test per line, so a found bug stays a
regression case; the replay is deterministic. --seeds A-B runs one seed after another (a long run) and
reports every failure instead of stopping at the first.
"""
import argparse
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration", "windows"))
from run_windows_test import Xvfb  # noqa: E402  (a private X server, stopped by its pid)

VALIDATION_MARKERS = ("vulkan-validation", "VUID-", "SYNC-HAZARD")
SANITIZER_MARKERS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:", "ThreadSanitizer")


def load_suppressions(path):
    """(regular expressions of tolerated failure lines, names of defects the driver must avoid)."""
    patterns, avoid = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            text = line.split("#", 1)[0].strip()
            if text.startswith("avoid:"):
                avoid.append(text[len("avoid:"):])
            elif text:
                patterns.append(re.compile(text))
    return patterns, avoid


def run_process(cmd, env, timeout):
    try:
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, errors="replace", timeout=timeout)
        return proc.returncode, proc.stdout + proc.stderr
    except subprocess.TimeoutExpired as e:
        log = (e.stdout or b"").decode(errors="replace") + (e.stderr or b"").decode(errors="replace")
        return "timeout", log


def run_one(args, seed, suppressions, avoid):
    """Runs one seed; returns (failed, log, summary line or None, problems, suppressed counts, seconds)."""
    env = dict(os.environ)
    env["__EGL_VENDOR_LIBRARY_FILENAMES"] = args.vendor_json
    if args.api == "glx":
        # glvnd's libGLX loads libGLX_caldera.so.0 from the library path, next to the vendor JSON's build dir.
        env["__GLX_VENDOR_LIBRARY_NAME"] = "caldera"
        icd = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(args.vendor_json))), "icd")
        env["LD_LIBRARY_PATH"] = icd + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    if args.validation:
        env["VK_INSTANCE_LAYERS"] = "VK_LAYER_KHRONOS_validation"
        env["VK_LAYER_ENABLES"] = "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT"
    cmd = [args.binary, "--api", args.api, "--seed", str(seed), "--calls", args.calls, "--watchdog",
           str(args.watchdog)]
    for name in avoid:
        cmd += ["--avoid", name]
    if args.egl is not None:
        cmd += ["--egl", str(args.egl)]
    print("running:", " ".join(f"{k}={env[k]}" for k in ("__EGL_VENDOR_LIBRARY_FILENAMES", "VK_INSTANCE_LAYERS",
                                                          "VK_LAYER_ENABLES") if k in env), " ".join(cmd),
          flush=True)
    start = time.monotonic()
    if args.api == "glx":
        with Xvfb() as x:
            env["DISPLAY"] = x.display
            rc, log = run_process(cmd, env, args.timeout)
    else:
        rc, log = run_process(cmd, env, args.timeout)
    elapsed = time.monotonic() - start

    problems, suppressed = [], {}
    for line in log.splitlines():
        is_finding = line.startswith(("FUZZ-", "fuzz: set-up failed")) or any(m in line for m in SANITIZER_MARKERS)
        if args.validation or "vulkan-validation" in line:
            is_finding = is_finding or any(m in line for m in VALIDATION_MARKERS)
        if not is_finding:
            continue
        hit = next((p.pattern for p in suppressions if p.search(line)), None)
        if hit:
            suppressed[hit] = suppressed.get(hit, 0) + 1
        else:
            problems.append(line)

    summary = re.search(r"^fuzz: seed .* calls \(.*$", log, re.M)
    vendor = re.search(r"^GL_VENDOR (.*?),", log, re.M)
    expected_vendor = "Mesa" if "mesa" in os.path.basename(args.vendor_json) else "Caldera"
    # Exit status 1 means GL-state assertions only; if every one of them is suppressed the run passes.
    if rc != 0 and not (rc == 1 and not problems and summary):
        problems.insert(0, f"exit status {rc}")
    if not summary:
        problems.append("no summary line")
    if not vendor or expected_vendor not in vendor.group(1):
        problems.append(f"expected GL_VENDOR containing {expected_vendor!r}, got {vendor.group(1) if vendor else None!r}")
    return bool(problems), log, summary.group(0) if summary else None, problems, suppressed, elapsed


def record(args, seed):
    case = f"{args.api}-{seed}-{args.calls}{'-validation' if args.validation else ''}"
    allowed = "".join(f" allow:{a}" for a in args.allow)
    line = f"{case} {args.api} {seed} {args.calls}{' validation' if args.validation else ''}{allowed} open\n"
    try:
        with open(args.regressions, encoding="utf-8") as f:
            known = f.read()
        if f" {args.api} {seed} {args.calls}" not in known:
            with open(args.regressions, "a", encoding="utf-8") as f:
                f.write(line)
            print(f"recorded regression case in {args.regressions}: {line.strip()}")
    except OSError as e:
        print(f"could not record the regression case: {e}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--vendor-json", required=True)
    ap.add_argument("--api", default="gl", help="gl, es, glx, or a comma list (each seed on each)")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--seeds", help="A-B: run every seed from A to B (inclusive), report all failures")
    ap.add_argument("--calls", default="10000")
    ap.add_argument("--egl", type=int, help="EGL (or, --api glx, GLX) calls per thousand; the driver's default else")
    ap.add_argument("--validation", action="store_true")
    ap.add_argument("--suppressions", required=True)
    ap.add_argument("--regressions", help="cases file a failing input is appended to")
    ap.add_argument("--allow", action="append", default=[],
                    help="do not pass this suppressions.txt avoid: entry (a regression case of that very defect)")
    ap.add_argument("--no-record", action="store_true", help="a regression replay: do not record again")
    ap.add_argument("--watchdog", type=int, default=60, help="seconds one call may take before it is a hang")
    ap.add_argument("--timeout", type=int, default=3600)
    ap.add_argument("--quiet", action="store_true", help="print only the judgement, not the whole log")
    args = ap.parse_args()

    suppressions, avoid = load_suppressions(args.suppressions)
    avoid = [a for a in avoid if a not in args.allow]
    if args.seeds:
        first, last = (int(x) for x in args.seeds.split("-"))
        seeds = list(range(first, last + 1))
    else:
        seeds = [int(args.seed)]
    total_start = time.monotonic()
    failures = []
    apis = args.api.split(",")
    if any(a not in ("gl", "es", "glx") for a in apis):
        ap.error("--api takes gl, es, glx or a comma list of them")
    runs = [(seed, api) for seed in seeds for api in apis]
    for seed, api in runs:
        args.api = api
        failed, log, summary, problems, suppressed, elapsed = run_one(args, seed, suppressions, avoid)
        if not (args.quiet or args.seeds) or failed:
            out = log if len(log) < 200000 else log[:100000] + "\n[...]\n" + log[-100000:]
            sys.stdout.write(out if not args.seeds else "\n".join(log.splitlines()[-70:]) + "\n")
        if summary:
            print(summary)
        for pattern, count in sorted(suppressed.items()):
            print(f"suppressed (known issue): {count} x {pattern}")
        print(f"{api} seed {seed}: {'FAIL' if failed else 'pass'}, wall time {elapsed:.1f} s", flush=True)
        if failed:
            for p in problems[:40]:
                print("FAIL:", p)
            failures.append((f"{api} seed {seed}", problems[0] if problems else ""))
            if args.regressions and not args.no_record:
                record(args, seed)
    if len(runs) > 1:
        print(f"{len(runs)} runs x {args.calls} calls ({','.join(apis)}{', validation' if args.validation else ''}): "
              f"{len(runs) - len(failures)} passed, {len(failures)} failed, {time.monotonic() - total_start:.0f} s")
        for what, first_problem in failures:
            print(f"  {what}: {first_problem}")
    if failures:
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
