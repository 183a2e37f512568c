#!/usr/bin/env python3
"""The trace gate: real programs captured with apitrace on Mesa llvmpipe, replayed with `eglretrace --headless`
through Caldera and through llvmpipe in the same run, the frames compared.

  trace_gate.py --program glmark2-es2 --vendor-json build/json/caldera_dev.json [--png-dir DIR]

Capture (not committed: the trace is made here, from the installed program, under a private Xvfb) limits
the extensions Mesa offers to those Caldera's ES context advertises (MESA_EXTENSION_OVERRIDE), so that the
trace calls nothing Caldera lacks. Replay snapshots every --interval-th frame on both; a frame fails when more
than --max-bad-fraction of its pixels differ by more than --max-channel-diff in some channel. Prints each
replay's frames per second (the benchmark's numbers) and the worst frames; --png-dir keeps them as PNGs.

Both replays run the trace's shaders with every precision qualifier made highp (`--keep-precision` skips it):
Mesa llvmpipe computes mediump and lowp floats at 16 bits (its glGetShaderPrecisionFormat says range 15,
precision 10), Caldera on lavapipe at 32 (it says 127/23). Both are what ES allows; glmark2's terrain noise is
sensitive enough that the two pictures differ on most pixels, so the gate compares at one precision."""
import argparse
import os
import pickle
import re
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration", "windows"))
from run_windows_test import Xvfb, write_png  # noqa: E402  (the windows tests' private X server)

MESA_JSON = "/usr/share/glvnd/egl_vendor.d/50_mesa.json"
# glmark2's scenes, each briefly: every scene of its default run.
GLMARK2_SCENES = ["build", "texture", "shading", "bump", "effect2d", "pulsar", "desktop", "terrain", "buffer",
                  "ideas", "jellyfish", "shadow", "refract", "conditionals", "function", "loop"]
LOW_PRECISION = re.compile(r"\b(mediump|lowp)\b")


def es_extensions(display, vendor_json):
    """GL_EXTENSIONS of an ES 2 context on `vendor_json` (es2_info from mesa-utils)."""
    env = dict(os.environ, DISPLAY=display, __EGL_VENDOR_LIBRARY_FILENAMES=vendor_json, CALDERA_DEBUG="0")
    out = subprocess.run(["es2_info"], env=env, capture_output=True, text=True, timeout=60).stdout
    at = out.find("\nGL_EXTENSIONS:")
    return set(re.findall(r"\bGL_\w+", out[at + len("\nGL_EXTENSIONS:"):])) if at >= 0 else set()


def capture(program, display, caldera_json, trace, seconds, scenes):
    hidden = sorted(es_extensions(display, MESA_JSON) - es_extensions(display, caldera_json))
    env = dict(os.environ, DISPLAY=display, __EGL_VENDOR_LIBRARY_FILENAMES=MESA_JSON,
               MESA_EXTENSION_OVERRIDE=" ".join("-" + e for e in hidden), MESA_GLES_VERSION_OVERRIDE="3.0")
    if program == "glmark2-es2":
        argv = ["glmark2-es2", "-s", "320x240"]
        for scene in scenes:
            argv += ["-b", f"{scene}:duration={seconds}"]
        timeout = 600
    elif program == "es2gears":
        argv = ["es2gears_x11"]
        timeout = seconds
    else:
        raise SystemExit(f"unknown program {program}")
    cmd = ["apitrace", "trace", "--api", "egl", "-o", trace] + argv
    # In a process group of its own: the program runs under apitrace's wrapper, and a program that runs until
    # stopped (es2gears) is stopped with SIGINT to the whole group, so that the trace is closed cleanly.
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    try:
        log, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGINT)
        try:
            log, _ = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            log, _ = proc.communicate()
    print(f"captured {program} with {len(hidden)} Mesa extensions hidden: {os.path.getsize(trace)} bytes")
    return log


class _Opaque:
    """Stands in for the blobs and pointers `apitrace pickle` writes as objects of its own module."""

    def __init__(self, *args, **kwargs):
        pass

    def __setstate__(self, state):
        pass


class _TraceUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        return _Opaque


def shader_sources(trace):
    """Every string glShaderSource passes in the trace, exactly as captured."""
    proc = subprocess.Popen(["apitrace", "pickle", trace], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    reader, found = _TraceUnpickler(proc.stdout), set()
    while True:
        try:
            call = reader.load()
        except EOFError:
            break
        if call[1] == "glShaderSource":
            strings = dict(call[2]).get("string") or []
            found.update(s for s in strings if isinstance(s, str))
    proc.wait()
    return found


def all_highp(trace, workdir):
    """A copy of the trace whose shaders say highp wherever they said mediump or lowp (the module docstring says
    why); the number of shader strings changed."""
    edits = []
    for i, source in enumerate(sorted(shader_sources(trace))):
        if not LOW_PRECISION.search(source):
            continue
        before, after = (os.path.join(workdir, f"shader{i}.{k}") for k in ("from", "to"))
        with open(before, "w") as f:
            f.write(source)
        with open(after, "w") as f:
            f.write(LOW_PRECISION.sub("highp", source))
        edits += ["-e", f"s|@file({before})|@file({after})|"]
    if not edits:
        return trace, 0
    edited = trace + ".highp"
    subprocess.run(["apitrace", "sed", "-o", edited] + edits + [trace], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return edited, len(edits) // 2


def replay(trace, vendor_json, interval, extra_env):
    """Frames snapshotted by eglretrace, as (call number, width, height, RGB bytes); its exit code and log."""
    # eglretrace's window-system library (waffle) picks GLX when DISPLAY is set, which would bypass the EGL
    # vendor: the replay asks for surfaceless EGL, with no X server at all.
    env = dict(os.environ, __EGL_VENDOR_LIBRARY_FILENAMES=vendor_json, CALDERA_DEBUG="info",
               WAFFLE_PLATFORM="surfaceless_egl")
    env.pop("DISPLAY", None)
    env.update(extra_env)
    proc = subprocess.run(["eglretrace", "--headless", "-s", "-", f"--snapshot-interval={interval}", trace],
                          env=env, capture_output=True, timeout=900)
    data, frames, at = proc.stdout, [], 0
    header = re.compile(rb"P6\n#(\d+)\n(\d+) (\d+)\n255\n")
    while at < len(data):
        m = header.match(data, at)
        if not m:
            break
        call, w, h = int(m.group(1)), int(m.group(2)), int(m.group(3))
        start = m.end()
        frames.append((call, w, h, data[start:start + w * h * 3]))
        at = start + w * h * 3
    return frames, proc.returncode, proc.stderr.decode(errors="replace")


def replay_fps(trace, vendor_json, extra_env):
    """The replay's frames per second with no snapshots taken (eglretrace prints it only then)."""
    env = dict(os.environ, __EGL_VENDOR_LIBRARY_FILENAMES=vendor_json, CALDERA_DEBUG="0",
               WAFFLE_PLATFORM="surfaceless_egl")
    env.pop("DISPLAY", None)
    env.update(extra_env)
    proc = subprocess.run(["eglretrace", "--headless", trace], env=env, capture_output=True, text=True,
                          timeout=900)
    m = re.search(r"Rendered (\d+) frames in ([\d.]+) secs, average of ([\d.]+) fps", proc.stdout + proc.stderr)
    return float(m.group(3)) if m else 0.0


def bad_fraction(a, b, max_diff):
    if a == b:
        return 0.0
    bad = 0
    for i in range(0, len(a), 3):
        if (abs(a[i] - b[i]) > max_diff or abs(a[i + 1] - b[i + 1]) > max_diff or
                abs(a[i + 2] - b[i + 2]) > max_diff):
            bad += 1
    return bad / (len(a) // 3)


def to_rows(w, h, rgb):
    # Snapshots are top row first already (eglretrace flips GL's rows).
    return [[tuple(rgb[(y * w + x) * 3:(y * w + x) * 3 + 3]) for x in range(w)] for y in range(h)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--program", required=True, choices=["glmark2-es2", "es2gears"])
    ap.add_argument("--vendor-json", required=True, help="Caldera's glvnd EGL vendor manifest")
    ap.add_argument("--seconds", type=float, default=0.4, help="per glmark2 scene; es2gears' whole capture")
    ap.add_argument("--interval", type=int, default=10, help="snapshot every N-th frame")
    ap.add_argument("--max-channel-diff", type=int, default=8)
    ap.add_argument("--max-bad-fraction", type=float, default=0.01)
    ap.add_argument("--validation", action="store_true", help="Caldera's replay under the validation layer")
    ap.add_argument("--scenes", help="glmark2 scenes, comma-separated (default: all of its default run)")
    ap.add_argument("--caldera-env", action="append", default=[], metavar="NAME=VALUE",
                    help="set for Caldera's replay only (the negative control breaks a mechanism this way)")
    ap.add_argument("--fps", action="store_true", help="also time a replay on each driver (frames per second)")
    ap.add_argument("--png-dir")
    ap.add_argument("--keep-precision", action="store_true",
                    help="replay the shaders' mediump/lowp as captured (see the module docstring)")
    args = ap.parse_args()
    failed = False
    with Xvfb(640, 480) as x, tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, args.program + ".trace")
        scenes = args.scenes.split(",") if args.scenes else GLMARK2_SCENES
        log = capture(args.program, x.display, args.vendor_json, trace, args.seconds, scenes)
        if not os.path.exists(trace) or os.path.getsize(trace) < 1024:
            print("FAIL: no trace was captured\n" + log)
            return 1
        if not args.keep_precision:
            trace, edited = all_highp(trace, tmp)
            print(f"{edited} shader sources replayed with highp for mediump/lowp")
        extra = {"XDG_RUNTIME_DIR": tmp}
        extra.update(dict(kv.split("=", 1) for kv in args.caldera_env))
        if args.validation:
            extra.update({"VK_INSTANCE_LAYERS": "VK_LAYER_KHRONOS_validation",
                          "VK_LAYER_ENABLES": "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT"})
        ref, ref_rc, ref_err = replay(trace, MESA_JSON, args.interval, {"XDG_RUNTIME_DIR": tmp})
        got, got_rc, got_err = replay(trace, args.vendor_json, args.interval, extra)
        ref_fps = got_fps = 0.0
        if args.fps:  # the benchmark's numbers: two more replays, without snapshots
            ref_fps = replay_fps(trace, MESA_JSON, {"XDG_RUNTIME_DIR": tmp})
            got_fps = replay_fps(trace, args.vendor_json, extra)
    print(f"{len(got)} / {len(ref)} snapshots" +
          (f"; replay fps: Caldera {got_fps:.1f}, llvmpipe {ref_fps:.1f}" if args.fps else ""))
    if "eglInitialize backend: Caldera" not in got_err:
        print("FAIL: the Caldera replay did not run on Caldera\n" + got_err[-2000:])
        failed = True
    if got_rc != 0 or ref_rc != 0:
        print(f"FAIL: eglretrace exited {got_rc} (Caldera) / {ref_rc} (llvmpipe)\n{got_err[-2000:]}")
        failed = True
    if not ref or len(got) != len(ref):
        print("FAIL: the replays took different numbers of snapshots (or none)")
        return 1
    if args.validation and any(m in got_err for m in ("vulkan-validation", "VUID-", "SYNC-HAZARD")):
        print("FAIL: Vulkan validation reported problems\n" + got_err[-2000:])
        failed = True
    worst = []
    for (call, w, h, a), (rcall, rw, rh, b) in zip(got, ref):
        if (call, w, h) != (rcall, rw, rh):
            print(f"FAIL: snapshot at call {call} ({w}x{h}) vs {rcall} ({rw}x{rh})")
            failed = True
            continue
        frac = bad_fraction(a, b, args.max_channel_diff)
        worst.append((frac, call, w, h, a, b))
        if frac > args.max_bad_fraction:
            print(f"FAIL: call {call}: {frac * 100:.2f} % of the pixels differ by more than "
                  f"{args.max_channel_diff}")
            failed = True
    worst.sort(key=lambda t: -t[0])
    identical = sum(1 for t in worst if t[0] == 0.0)
    print(f"{len(worst)} frames compared: {identical} identical, worst "
          + ", ".join(f"call {c}: {f * 100:.3f} %" for f, c, *_ in worst[:5]))
    if args.png_dir:
        os.makedirs(args.png_dir, exist_ok=True)
        for f, call, w, h, a, b in worst[:3]:
            write_png(os.path.join(args.png_dir, f"{args.program}-{call}-caldera.png"), w, h, to_rows(w, h, a))
            write_png(os.path.join(args.png_dir, f"{args.program}-{call}-llvmpipe.png"), w, h, to_rows(w, h, b))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
