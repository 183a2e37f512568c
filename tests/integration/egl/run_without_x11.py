#!/usr/bin/env python3
"""Runs a test program as if some or all of the X libraries were not installed.

CALDERA_TEST_X11_LIB_DIR makes Caldera open the X libraries from one directory only. This script fills a
fresh directory with links to the real libraries except the --missing ones (all four by default), runs the
program there, and requires it to pass and Caldera's log to name the first missing library. With
--missing none every library is linked: the control showing the directory itself is not what fails.

Usage: run_without_x11.py [--missing SONAME[,SONAME...]|all|none] -- PROGRAM [ARGS...]
"""
import argparse
import os
import subprocess
import sys
import tempfile

SONAMES = ["libX11.so.6", "libX11-xcb.so.1", "libxcb.so.1", "libxcb-present.so.0"]  # the loader's order


def system_paths() -> dict:
    """soname -> path of this machine's copy, from the dynamic loader's cache."""
    out = subprocess.run(["/sbin/ldconfig", "-p"], check=True, capture_output=True, text=True).stdout
    paths = {}
    for line in out.splitlines():
        name = line.strip().split(" ", 1)[0]
        if name in SONAMES and "=>" in line and name not in paths:
            paths[name] = line.split("=>", 1)[1].strip()
    return paths


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--missing", default="all")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        ap.error("no program given")
    if args.missing == "all":
        missing = list(SONAMES)
    elif args.missing == "none":
        missing = []
    else:
        missing = args.missing.split(",")
    unknown = [m for m in missing if m not in SONAMES]
    if unknown:
        ap.error(f"not an X library the loader opens: {unknown}")
    paths = system_paths()
    with tempfile.TemporaryDirectory(prefix="caldera-x11-") as libdir:
        for soname in SONAMES:
            if soname in missing:
                continue
            if soname not in paths:
                print(f"FAIL: {soname} is not installed here; the control needs it")
                return 1
            os.symlink(paths[soname], os.path.join(libdir, soname))
        env = dict(os.environ)
        env["CALDERA_TEST_X11_LIB_DIR"] = libdir
        proc = subprocess.run(command, env=env, capture_output=True, text=True, timeout=240)
    log = proc.stdout + proc.stderr
    sys.stdout.write(log)
    if proc.returncode != 0:
        print(f"FAIL: exited {proc.returncode}")
        return 1
    if missing:
        first = next(s for s in SONAMES if s in missing)
        if f"{first} cannot be opened" not in log:
            print(f"FAIL: the log does not say that {first} cannot be opened")
            return 1
    elif "cannot be opened" in log:
        print("FAIL: a library was reported missing although all were there")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
