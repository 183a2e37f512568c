#!/usr/bin/env python3
"""Runs layer_overhead with VK_LAYER_CALDERA_guard off and on (and with sync validation) and prints
a table of per-frame wall time and per-draw recording time; the median of --repeats runs each.

Usage: run_overhead.py <layer_overhead binary> <guard layer data dir> [--frames N] [--draws N] [--repeats N]
       [--skip-validation]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile


def run(binary, env, frames, draws):
    out = subprocess.run([binary, "--frames", str(frames), "--draws", str(draws)], env=env,
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{binary} failed ({out.returncode}):\n{out.stderr}")
    match = re.search(r"ms_per_frame=([\d.]+) record_ns_per_draw=([\d.]+)", out.stdout)
    return float(match.group(1)), float(match.group(2))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("layer_data_dir")
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--draws", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--skip-validation", action="store_true",
                        help="machines without VK_LAYER_KHRONOS_validation: off vs guard only")
    args = parser.parse_args()

    base = dict(os.environ, LP_NUM_THREADS="0")
    for key in [k for k in base if k.startswith("CALDERA_GUARD") or k in ("VK_INSTANCE_LAYERS", "VK_LAYER_ENABLES")]:
        del base[key]
    report = os.path.join(tempfile.gettempdir(), "caldera-guard-bench-report.json")
    guard = dict(base, XDG_DATA_DIRS=f"{args.layer_data_dir}:/usr/local/share:/usr/share", CALDERA_GUARD="1")
    everything = dict(guard, CALDERA_GUARD_PROTECT="1", CALDERA_GUARD_MAX_RUNAHEAD="3",
                      CALDERA_GUARD_REPORT=report)
    validation = {"VK_INSTANCE_LAYERS": "VK_LAYER_KHRONOS_validation"}
    configurations = [
        ("layer off", base),
        ("guard: counters + run-ahead checks + protect", everything),
        ("validation layer, syncval, no guard", dict(
            base, **validation,
            VK_LAYER_ENABLES="VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT")),
        ("guard everything on + syncval beneath", dict(everything, **validation, CALDERA_GUARD_SYNCVAL="1")),
    ]
    if args.skip_validation:
        configurations = configurations[:2]
    print(f"layer_overhead: {args.frames} frames x {args.draws} draws, median of {args.repeats}")
    print(f"{'configuration':48} {'ms/frame':>10} {'record ns/draw':>15} {'vs off':>8}")
    baseline = None
    for name, env in configurations:
        runs = [run(args.binary, env, args.frames, args.draws) for _ in range(args.repeats)]
        frame_ms = statistics.median(r[0] for r in runs)
        record_ns = statistics.median(r[1] for r in runs)
        baseline = baseline or record_ns
        print(f"{name:48} {frame_ms:10.3f} {record_ns:15.1f} {record_ns / baseline:7.2f}x")


if __name__ == "__main__":
    main()
