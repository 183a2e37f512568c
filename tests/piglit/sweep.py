#!/usr/bin/env python3
"""Runs piglit tests from `piglit print-cmd <profile>` output against one GL driver configuration and writes
`<test name> <result>` lines: the raw material for expectations.txt and docs/CONFORMANCE.md. Not a CI test.

  piglit print-cmd quick > cmds.txt
  sweep.py --cmds cmds.txt --filter 'spec@glsl-1.50@execution' --config caldera --out caldera.txt
Configurations: caldera (build/json/caldera_dev.json), llvmpipe (Mesa), zink (Mesa's Zink on lavapipe)."""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MESA_JSON = "/usr/share/glvnd/egl_vendor.d/50_mesa.json"


def config_env(name, caldera_json):
    env = dict(os.environ, PIGLIT_PLATFORM="surfaceless_egl", CALDERA_DEBUG="0")
    if name == "caldera":
        env["__EGL_VENDOR_LIBRARY_FILENAMES"] = caldera_json
    else:
        env["__EGL_VENDOR_LIBRARY_FILENAMES"] = MESA_JSON
        if name == "zink":
            env.update(LIBGL_ALWAYS_SOFTWARE="1", GALLIUM_DRIVER="zink")
    return env


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cmds", required=True)
    ap.add_argument("--filter", default="")
    ap.add_argument("--config", choices=["caldera", "llvmpipe", "zink"], required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--timeout", type=int, default=30)
    # A copy of the vendor library keeps a long sweep independent of rebuilds of build/.
    ap.add_argument("--caldera-json", default=os.path.join(ROOT, "build", "json", "caldera_dev.json"))
    args = ap.parse_args()
    env = config_env(args.config, args.caldera_json)
    pattern = re.compile(args.filter)
    lines = [l.rstrip("\n") for l in open(args.cmds, encoding="utf-8") if " ::: " in l]
    with open(args.out, "w", encoding="utf-8") as out:
        for line in lines:
            name, cmd = line.split(" ::: ", 1)
            if not pattern.search(name):
                continue
            argv = cmd.split()
            if argv[0].startswith("../"):
                argv[0] = os.path.normpath(os.path.join("/usr/bin", argv[0]))
            argv = [a if not a.startswith("tests/") else os.path.join("/usr/lib/x86_64-linux-gnu/piglit", a)
                    for a in argv]
            try:
                p = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=args.timeout,
                                   cwd="/usr/lib/x86_64-linux-gnu/piglit")
                found = re.findall(r'PIGLIT: \{"result": "(\w+)"', p.stdout + p.stderr)
                result = found[-1] if found else "crash"
            except subprocess.TimeoutExpired:
                result = "timeout"
            except FileNotFoundError:  # a test the installed piglit lacks
                result = "missing"
            out.write(f"{name} {result}\n")
            out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
