#!/usr/bin/env python3
"""Runs a list of piglit tests through Caldera (surfaceless EGL, -auto -fbo) and compares each result with
the expectations file. Every line there is `<test> <pass|fail|skip|crash>` and any non-pass line carries a
`# reason`. Unexpected results (including unexpected passes) fail the run. `piglit run` exits 0 even on
failures, so this runner reads each test's own PIGLIT result line instead."""
import argparse
import os
import re
import shlex
import subprocess
import sys

PIGLIT_ROOT = "/usr/lib/x86_64-linux-gnu/piglit"


def load_expectations(path):
    tests = []
    for lineno, raw in enumerate(open(path, encoding="utf-8"), 1):
        line = raw.split("#", 1)
        body, reason = line[0].strip(), (line[1].strip() if len(line) > 1 else "")
        if not body:
            continue
        parts = body.split()
        if len(parts) < 2 or parts[-1] not in ("pass", "fail", "skip", "warn", "crash", "host-error"):
            raise SystemExit(f"{path}:{lineno}: expected '<command...> <pass|fail|skip|warn|crash|host-error>'")
        if parts[-1] != "pass" and not reason:
            raise SystemExit(f"{path}:{lineno}: a non-pass expectation needs a '# reason'")
        tests.append((" ".join(parts[:-1]), parts[-1]))
    return tests


def take_shard(tests, spec):
    """Part K of N (`K/N`, from 1) of a list: every Nth test from the Kth, so that the shards of a list, run as
    separate meson tests, take about the same time."""
    if not spec:
        return tests
    k, n = (int(v) for v in spec.split("/"))
    if not 1 <= k <= n:
        raise SystemExit(f"--shard {spec}: want K/N with 1 <= K <= N")
    return tests[k - 1::n]


def run_one(command, env, timeout):
    argv = shlex.split(command)
    exe = argv[0]
    if not os.path.isabs(exe):
        exe = os.path.join(PIGLIT_ROOT, "bin", exe)
    argv = [exe] + [a.replace("@TESTS@", os.path.join(PIGLIT_ROOT, "tests")) for a in argv[1:]]
    try:
        proc = subprocess.run(argv + ["-auto", "-fbo"], env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", ""
    out = proc.stdout + proc.stderr
    m = re.findall(r'PIGLIT: \{"result": "(\w+)"', out)
    if m:
        result = m[-1]
    else:
        result = "crash"
    if "vulkan-validation" in out:
        result = "validation-error"
    if "the host rejected a translated program" in out:
        result = "host-error"  # GLES backend: the host refused a shader Caldera accepted
    return result, out


def run_list(tests, run, record=None):
    """Runs each (name, command, expected) as run(command) -> (result, output) and compares the result with
    the expectation (None: prints the result only, as sweeps do). Writes `<name> <result>` lines to `record`.
    Returns (passed, failed)."""
    passed = failed = 0
    actual = []
    for name, command, expected in tests:
        result, out = run(command)
        actual.append((name, result))
        if expected is None:
            print(f"{name}: {result}", flush=True)
        elif result == expected:
            passed += 1
        else:
            failed += 1
            print(f"UNEXPECTED {command}: expected {expected}, got {result}")
            print("\n".join("    " + l for l in out.strip().splitlines()[-15:]))
    if record:
        with open(record, "w", encoding="utf-8") as f:
            f.writelines(f"{name} {result}\n" for name, result in actual)
    return passed, failed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--expectations", required=True)
    ap.add_argument("--vendor-json", required=True, help="glvnd EGL vendor manifest to run through")
    ap.add_argument("--validation", action="store_true", help="Khronos validation + sync validation on")
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--backend", choices=["vulkan", "gles"], help="CALDERA_BACKEND for the run")
    ap.add_argument("--overrides", help="expectations (same format) that replace the main file's for this run")
    ap.add_argument("--record", help="write actual results here (for docs/CONFORMANCE.md)")
    ap.add_argument("--shard", help="K/N: run only part K of N of the list (see take_shard)")
    args = ap.parse_args()

    if not os.path.isdir(os.path.join(PIGLIT_ROOT, "bin")):
        print("piglit is not installed (scripts/setup-debian.sh installs it)")
        return 1
    env = dict(os.environ)
    env.update({"PIGLIT_PLATFORM": "surfaceless_egl", "__EGL_VENDOR_LIBRARY_FILENAMES": args.vendor_json,
                "CALDERA_DEBUG": env.get("CALDERA_DEBUG", "0")})
    if args.validation:
        env.update({"VK_INSTANCE_LAYERS": "VK_LAYER_KHRONOS_validation",
                    "VK_LAYER_ENABLES": "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT"})
    if args.backend:
        env["CALDERA_BACKEND"] = args.backend
    tests = load_expectations(args.expectations)
    if args.overrides:
        override = dict(load_expectations(args.overrides))
        unknown = set(override) - {command for command, _ in tests}
        if unknown:
            raise SystemExit(f"{args.overrides}: not in {args.expectations}: {sorted(unknown)}")
        tests = [(command, override.get(command, expected)) for command, expected in tests]
    tests = take_shard(tests, args.shard)
    passed, failed = run_list([(command, command, expected) for command, expected in tests],
                              lambda command: run_one(command, env, args.timeout), args.record)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
