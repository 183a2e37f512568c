#!/usr/bin/env python3
"""Runs gl_soak (a seeded scene mixing uploads, reads, fences and queries) on Caldera with the inline and the
inproc pipe, on Caldera/GLES inproc and on Mesa llvmpipe, and checks: every run passes, every run prints the
same hash (the same pixels, buffer reads and sample counts), and on Caldera resident memory after warm-up
grows by at most --rss-growth-kib (not checked under sanitizers, CALDERA_SANITIZED=1)."""
import argparse
import os
import re
import subprocess
import sys

MESA = "/usr/share/glvnd/egl_vendor.d/50_mesa.json"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--vendor-json", required=True)
    ap.add_argument("--frames", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rss-growth-kib", type=int, default=8192)
    args = ap.parse_args()
    runs = [("caldera inline", args.vendor_json, {"CALDERA_PIPE": "inline"}),
            ("caldera inproc", args.vendor_json, {"CALDERA_PIPE": "inproc"}),
            ("caldera-gles inproc", args.vendor_json, {"CALDERA_PIPE": "inproc", "CALDERA_BACKEND": "gles"}),
            ("mesa", MESA, {})]
    hashes = {}
    failed = False
    for name, vendor, extra in runs:
        env = dict(os.environ, __EGL_VENDOR_LIBRARY_FILENAMES=vendor, **extra)
        proc = subprocess.run([args.binary, "--frames", str(args.frames), "--seed", str(args.seed)], env=env,
                              capture_output=True, text=True, timeout=600)
        out = proc.stdout + proc.stderr
        m = re.search(r"soak: .* hash (\w+) resident_kib_warm (\d+) resident_kib_end (\d+)", out)
        if proc.returncode != 0 or not m:
            print(f"FAIL: {name} exited {proc.returncode}\n{out[-3000:]}")
            failed = True
            continue
        hashes[name] = m.group(1)
        warm, end = int(m.group(2)), int(m.group(3))
        print(f"{name}: hash {m.group(1)}, resident {warm} -> {end} KiB")
        if name.startswith("caldera") and not os.environ.get("CALDERA_SANITIZED") and end - warm > args.rss_growth_kib:
            print(f"FAIL: {name} resident memory grew {end - warm} KiB after warm-up")
            failed = True
    if len(set(hashes.values())) > 1:
        print(f"FAIL: the runs disagree: {hashes}")
        failed = True
    print("FAIL" if failed else f"PASS: {len(hashes)} runs, {args.frames} frames, one hash")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
