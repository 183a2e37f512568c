#!/usr/bin/env python3
"""Runs one GL test program through a chosen glvnd EGL vendor and checks its outcome: exit status 0, the
harness summary line, that the vendor glvnd picked is the one asked for (a missing vendor JSON would
otherwise silently fall back to Mesa), and, with --validation, that the Khronos validation layer (with
synchronization validation) reported nothing."""
import argparse
import os
import re
import subprocess
import sys

VALIDATION_MARKERS = ("vulkan-validation", "VUID-", "SYNC-HAZARD")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--vendor-json", required=True, help="EGL vendor JSON for __EGL_VENDOR_LIBRARY_FILENAMES")
    ap.add_argument("--expect-vendor", required=True, help="GL_VENDOR substring the run must report")
    ap.add_argument("--validation", action="store_true")
    ap.add_argument("--forbid", action="append", default=[], help="fail when the output contains this text")
    ap.add_argument("--env", action="append", default=[], help="NAME=VALUE for the program's environment")
    ap.add_argument("--arg", action="append", default=[], help="an argument for the program")
    args = ap.parse_args()

    env = dict(os.environ)
    env["__EGL_VENDOR_LIBRARY_FILENAMES"] = args.vendor_json
    for pair in args.env:
        name, _, value = pair.partition("=")
        env[name] = value
    if args.validation:
        env["VK_INSTANCE_LAYERS"] = "VK_LAYER_KHRONOS_validation"
        env["VK_LAYER_ENABLES"] = "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT"
    proc = subprocess.run([args.binary] + args.arg, env=env, capture_output=True, text=True, timeout=120)
    log = proc.stdout + proc.stderr
    sys.stdout.write(log)

    failed = False
    if proc.returncode != 0:
        print(f"FAIL: {os.path.basename(args.binary)} exited {proc.returncode}")
        failed = True
    vendor = re.search(r"^GL_VENDOR (.*?),", log, re.M)
    if not vendor or args.expect_vendor not in vendor.group(1):
        print(f"FAIL: expected GL_VENDOR containing {args.expect_vendor!r}, "
              f"got {vendor.group(1) if vendor else 'none'!r}")
        failed = True
    if not re.search(r"^\d+ passed, 0 failed$", proc.stdout, re.M):
        print("FAIL: no clean harness summary line")
        failed = True
    if args.validation and any(m in log for m in VALIDATION_MARKERS):
        print("FAIL: Vulkan validation reported problems")
        failed = True
    for text in args.forbid:
        if text in log:
            print(f"FAIL: the output contains {text!r}")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
