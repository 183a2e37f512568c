#!/usr/bin/env python3
"""Runs piglit's window-system tests (the `glx` and `spec@egl*` groups) under a private Xvfb, through glvnd.
GLX tests run with PIGLIT_PLATFORM=glx, the others with x11_egl; every test has its own time limit and its
whole process group is stopped when it runs over (some tests fork).

CI mode compares each result with an expectations file (the format of run_piglit.py's: `<command> <result>`,
a `# reason` on every non-pass; unexpected passes fail the run too):
  run_piglit_windows.py --expectations expectations-windows.txt --vendor-json build/json/caldera_dev.json
Sweep mode runs `piglit print-cmd` output (`<name> ::: <command>` lines) on one configuration and writes
`<name> <result>` lines for conformance.py (docs/CONFORMANCE.md):
  piglit print-cmd --format '{name} ::: {command}' -t '^glx@' -t '^spec@egl' quick > cmds.txt
  run_piglit_windows.py --cmds cmds.txt --config zink --record zink.txt --vendor-json build/json/caldera_dev.json
Configurations: caldera (the build's vendor libraries), llvmpipe (Mesa), zink (Mesa's Zink on lavapipe)."""
import argparse
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "integration", "windows"))
from run_piglit import PIGLIT_ROOT, load_expectations, run_list  # noqa: E402
from run_windows_test import MESA_JSON, Xvfb  # noqa: E402


def config_env(config, display, vendor_json):
    vendor_json = os.path.abspath(vendor_json)  # the tests run in piglit's directory
    env = dict(os.environ, DISPLAY=display, CALDERA_DEBUG=os.environ.get("CALDERA_DEBUG", "0"))
    if config == "caldera":
        icd = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(vendor_json))), "icd")
        env["LD_LIBRARY_PATH"] = icd + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
        env["__GLX_VENDOR_LIBRARY_NAME"] = "caldera"
        env["__EGL_VENDOR_LIBRARY_FILENAMES"] = vendor_json
    else:
        env["__GLX_VENDOR_LIBRARY_NAME"] = "mesa"
        env["__EGL_VENDOR_LIBRARY_FILENAMES"] = MESA_JSON
        if config == "zink":
            env.update(LIBGL_ALWAYS_SOFTWARE="1", GALLIUM_DRIVER="zink")
    return env


def platform_of(exe):
    return "glx" if os.path.basename(exe).startswith("glx-") else "x11_egl"


def run_one(command, env, timeout):
    """Runs one piglit command (a binary of piglit's bin/ and its arguments, `-auto` added). Returns the
    result: the test's last PIGLIT result line, or crash / timeout / missing."""
    argv = shlex.split(command)
    # `PIGLIT_PLATFORM=glx test ...`: a test of another group that needs what only a GLX visual has (an
    # accumulation buffer) names its platform.
    platform = argv.pop(0).partition("=")[2] if argv[0].startswith("PIGLIT_PLATFORM=") else None
    exe = argv[0] if os.path.isabs(argv[0]) else os.path.join(PIGLIT_ROOT, "bin", argv[0])
    if not os.path.exists(exe):
        return "missing", ""
    if "-auto" not in argv:
        argv.append("-auto")
    env = dict(env, PIGLIT_PLATFORM=platform or platform_of(exe))
    proc = subprocess.Popen([exe] + argv[1:], env=env, cwd=PIGLIT_ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
        result = None
    except subprocess.TimeoutExpired:
        result = "timeout"
    finally:
        # The test's own session: any child it forked goes too.
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    if result == "timeout":
        out, _ = proc.communicate()
        return "timeout", out or ""
    found = re.findall(r'PIGLIT: \{"result": "(\w+)"', out)
    return (found[-1] if found else "crash"), out


def command_of(cmd_line):
    """A print-cmd command (`../lib/.../piglit/bin/x args -auto`) as a command relative to piglit's bin/."""
    argv = shlex.split(cmd_line)
    argv[0] = os.path.basename(argv[0])
    return " ".join(shlex.quote(a) for a in argv if a != "-auto")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vendor-json", required=True, help="Caldera's glvnd EGL vendor manifest (build/json)")
    ap.add_argument("--expectations")
    ap.add_argument("--cmds", help="sweep: `piglit print-cmd` lines")
    ap.add_argument("--config", choices=["caldera", "llvmpipe", "zink"], default="caldera")
    ap.add_argument("--record", help="write `<name> <result>` lines here")
    ap.add_argument("--timeout", type=int, default=20)
    args = ap.parse_args()
    if not os.path.isdir(os.path.join(PIGLIT_ROOT, "bin")):
        print("piglit is not installed (scripts/setup-debian.sh installs it)")
        return 1
    if args.cmds:
        tests = [(name, command_of(cmd), None) for name, _, cmd in
                 (l.rstrip("\n").partition(" ::: ") for l in open(args.cmds, encoding="utf-8")) if cmd]
    elif args.expectations:
        tests = [(command, command, expected) for command, expected in load_expectations(args.expectations)]
    else:
        ap.error("--expectations or --cmds is required")
    start = time.monotonic()
    # A private XDG_RUNTIME_DIR (mode 700): without one the Vulkan loader's Wayland WSI prints errors.
    # -noreset: by default Xvfb resets when its last client leaves, and a test connecting during the reset
    # finds no display ("couldn't open display"); here every test is a new last client.
    with Xvfb(extra_args=["-noreset"]) as x, tempfile.TemporaryDirectory(prefix="piglit-windows-") as runtime_dir:
        env = config_env(args.config, x.display, args.vendor_json)
        env["XDG_RUNTIME_DIR"] = runtime_dir
        passed, failed = run_list(tests, lambda command: run_one(command, env, args.timeout), args.record)
    if args.expectations:
        print(f"{passed} passed, {failed} failed in {time.monotonic() - start:.1f} s")
        return 0 if failed == 0 else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
