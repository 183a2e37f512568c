#!/usr/bin/env python3
"""Compatibility-profile checks that need more than a picture:

steady-state  compat_scene draws a scene for N frames with CALDERA_STATS: the fixed-function programs are
              built once (ff_programs_built stays at the first frame's count however many frames follow),
              and glBegin/glEnd pairs are batched (compat_draws per frame at most --max-draws). Negative
              control: CALDERA_COMPAT_PROGRAM_CACHE=0 must build a program per draw, or the counter proves
              nothing. Uniform names (built-ins of GLSL 1.x programs, the generated programs' own) are
              searched at the first draws only (uniform_name_lookups stays flat); negative control
              CALDERA_COMPAT_UNIFORM_CACHE=0. --glsl: the scene draws with its own GLSL 1.x program.
glxgears      the real glxgears (mesa-utils) under a private Xvfb through Caldera's GLX, then through Mesa's:
              glxgears animates by the clock, so the screenshots are compared by coverage (lit, red, green
              and blue fractions) rather than pixel by pixel; it must exit cleanly on Escape, build a
              handful of programs in all and draw each frame with a handful of draws.
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "windows"))
import run_windows_test as windows  # noqa: E402  (Xvfb, screenshots, colour coverage)

MESA_JSON = "/usr/share/glvnd/egl_vendor.d/50_mesa.json"


def stats(path):
    """Sums every numeric counter over the JSON lines of a CALDERA_STATS file."""
    total = {}
    if not os.path.exists(path):
        return total
    for line in open(path):
        for key, value in re.findall(r'"(\w+)": (\d+)', line):
            total[key] = total.get(key, 0) + int(value)
    return total


def scene_run(args, frames, extra_env):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "stats.json")
        env = dict(os.environ)
        env.update({"__EGL_VENDOR_LIBRARY_FILENAMES": args.vendor_json, "CALDERA_STATS": path,
                    "COMPAT_SCENE_FRAMES": str(frames)})
        env.update(extra_env)
        proc = subprocess.run([args.binary, args.scene, os.path.join(tmp, "out.rgba")], env=env,
                              capture_output=True, text=True, timeout=300)
        sys.stdout.write(proc.stdout + proc.stderr)
        if proc.returncode != 0:
            raise SystemExit(f"FAIL: compat_scene exited {proc.returncode}")
        return stats(path)


def check_uniform_names(args, one, many):
    """The built-in and fixed-function uniforms' names are searched at a program's first draws only; with
    the kill switch (the negative control) the searches grow with the frames."""
    failed = False
    first, steady = one.get("uniform_name_lookups", 0), many.get("uniform_name_lookups", 0)
    print(f"uniform name searches: {first} for 1 frame, {steady} for {args.frames + 2} frames")
    if not first:
        print("FAIL: no uniform name was searched: the probe is broken")
        failed = True
    if steady != first:
        print("FAIL: uniform names were searched after the first frame")
        failed = True
    uncached = scene_run(args, args.frames, {"CALDERA_COMPAT_UNIFORM_CACHE": "0"})
    print(f"name cache off: {uncached.get('uniform_name_lookups')} searches")
    if uncached.get("uniform_name_lookups", 0) < first * args.frames:
        print("FAIL: negative control: with the name cache off the searches did not grow with the frames")
        failed = True
    return failed


def check_steady_state(args):
    failed = False
    one = scene_run(args, 0, {})
    many = scene_run(args, args.frames, {})
    failed |= check_uniform_names(args, one, many)
    if args.glsl:
        return failed  # an application program: no fixed-function program to count
    print(f"1 frame: {one.get('ff_programs_built')} programs, {one.get('compat_draws')} draws; "
          f"{args.frames + 2} frames: {many.get('ff_programs_built')} programs, {many.get('compat_draws')} draws")
    if not one.get("ff_programs_built"):
        print("FAIL: the first frame built no fixed-function program")
        failed = True
    if many.get("ff_programs_built") != one.get("ff_programs_built"):
        print("FAIL: programs were built after the first frame (a compile per frame)")
        failed = True
    per_frame = one.get("compat_draws", 0)
    if per_frame == 0 or per_frame > args.max_draws:
        print(f"FAIL: {per_frame} draws for one frame, want 1..{args.max_draws}")
        failed = True
    if args.batch_switch:
        # Negative control of the batching the draw count relies on: with its kill switch the frame takes
        # more draws than the limit.
        unbatched = scene_run(args, 0, {args.batch_switch: "0"})
        print(f"{args.batch_switch}=0: {unbatched.get('compat_draws')} draws for one frame")
        if unbatched.get("compat_draws", 0) <= args.max_draws:
            print("FAIL: negative control: with the batching off the frame still fits the draw limit")
            failed = True
    uncached = scene_run(args, args.frames, {"CALDERA_COMPAT_PROGRAM_CACHE": "0"})
    print(f"cache off: {uncached.get('ff_programs_built')} programs")
    if uncached.get("ff_programs_built", 0) < args.frames:
        print("FAIL: negative control: with the cache off the counter did not grow with the frames")
        failed = True
    return failed


def run_glxgears(display, vendor, icd_dir, stats_path, seconds):
    env = windows.base_env(display, MESA_JSON)
    env["__GLX_VENDOR_LIBRARY_NAME"] = vendor
    if vendor == "caldera":
        env["LD_LIBRARY_PATH"] = icd_dir + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
        env["CALDERA_STATS"] = stats_path
    proc = subprocess.Popen(["glxgears", "-info"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    time.sleep(seconds)
    shot = windows.screenshot(display) if proc.poll() is None else None
    closed = subprocess.run([args_global.send_key, "glxgears"], env=env).returncode == 0
    try:
        out, _ = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGKILL)
        out, _ = proc.communicate()
        closed = False
    return shot, out, closed and proc.returncode == 0


def check_glxgears(args):
    failed = False
    icd = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(args.vendor_json))), "icd")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "stats.json")
        with windows.Xvfb(400, 400) as x:
            caldera, log, clean = run_glxgears(x.display, "caldera", icd, path, args.seconds)
        sys.stdout.write(log)
        counters = stats(path)
        with windows.Xvfb(400, 400) as x:
            mesa, mesa_log, _ = run_glxgears(x.display, "mesa", icd, None, args.seconds)
    if "GL_RENDERER   = Caldera" not in log or "Compatibility Profile" not in log:
        print("FAIL: glxgears did not run on a Caldera compatibility context")
        failed = True
    if not clean:
        print("FAIL: glxgears did not exit cleanly on Escape")
        failed = True
    if caldera is None or mesa is None:
        print("FAIL: glxgears did not keep running")
        return True
    if args.screenshot:
        windows.write_png(args.screenshot, *caldera)
        print(f"screenshot: {args.screenshot}")
    a, b = windows.colour_stats(caldera[2]), windows.colour_stats(mesa[2])
    print(f"Caldera: {a}\nllvmpipe: {b}")
    if a["lit"] < 0.05:
        print("FAIL: the Caldera screenshot is black")
        failed = True
    for key in ("lit", "red", "green", "blue"):
        if b[key] > 0.005 and not 0.85 <= a[key] / b[key] <= 1.15:
            print(f"FAIL: {key} coverage {a[key]:.4f} vs llvmpipe {b[key]:.4f}")
            failed = True
    frames = counters.get("render_passes", 0)
    programs, draws = counters.get("ff_programs_built", 0), counters.get("compat_draws", 0)
    print(f"Caldera: {frames} frames (render passes), {programs} fixed-function programs, {draws} draws, "
          f"{counters.get('list_calls', 0)} display-list calls")
    if frames < 20:
        print("FAIL: fewer than 20 frames (a compile or a stall per frame?)")
        failed = True
    if not 1 <= programs <= 4:
        print(f"FAIL: {programs} programs built: glxgears needs two (flat and smooth)")
        failed = True
    if frames and draws / frames > 8:
        print(f"FAIL: {draws / frames:.1f} draws per frame: glBegin/glEnd is not batched")
        failed = True
    return failed


def main():
    global args_global
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", required=True, choices=["steady-state", "glxgears"])
    ap.add_argument("--vendor-json", required=True)
    ap.add_argument("--binary", help="compat_scene (steady-state)")
    ap.add_argument("--scene", default="gears_lists")
    ap.add_argument("--frames", type=int, default=30)
    ap.add_argument("--max-draws", type=int, default=8)
    ap.add_argument("--batch-switch", help="steady-state: the kill switch of the batching --max-draws counts on")
    ap.add_argument("--glsl", action="store_true", help="steady-state: the scene draws with a GLSL 1.x program")
    ap.add_argument("--send-key", help="x11_send_key (glxgears)")
    ap.add_argument("--seconds", type=float, default=4)
    ap.add_argument("--screenshot")
    args = ap.parse_args()
    args_global = args
    failed = check_steady_state(args) if args.check == "steady-state" else check_glxgears(args)
    print("FAIL" if failed else "1 passed, 0 failed")
    return 1 if failed else 0


args_global = None

if __name__ == "__main__":
    sys.exit(main())
