#!/usr/bin/env python3
"""Window tests under a private Xvfb: starts `Xvfb -displayfd` (the server picks a free display), runs one check and
stops the server by its process id.

  --check window   the x11_egl_window program (pixels read back from the X server); --validation runs it
                   under the Khronos validation layer with sync validation and fails on any finding
  --check default-display  eglGetDisplay(EGL_DEFAULT_DISPLAY) under $DISPLAY is an X11 display (a window shows its
                   frame); with EGL_PLATFORM=surfaceless it is surfaceless (no window configs)
  --check interval interval 1 ~ 60 fps (Xvfb's fake vblank), interval 0 far above with the GL thread's time
                   in eglSwapBuffers near zero; with CALDERA_PRESENT_WORKER=0 that time comes back;
                   intervals 2, 1, 3 set at run time give 30 / 60 / 20 fps on both presentation paths
  --check shm-cost the read-back path's 640x480 swap costs less with MIT-SHM than by plain PutImage
  --check gears    es2gears_x11, unmodified, on Caldera and on Mesa llvmpipe: screenshots of the root window
                   (xwd) must be non-black and alike; the PNG is kept with --screenshot
  --check glmark2  glmark2-es2 --validate on Caldera and llvmpipe: no failure outside the known list and as
                   many successes as llvmpipe minus those
"""
import argparse
import json
import os
import re
import select
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib

VALIDATION_MARKERS = ("vulkan-validation", "VUID-", "SYNC-HAZARD")
MESA_JSON = "/usr/share/glvnd/egl_vendor.d/50_mesa.json"


class Xvfb:
    def __init__(self, width=640, height=480, extra_args=()):
        self.size = (width, height)
        self.extra_args = list(extra_args)
        self.proc = None

    def __enter__(self):
        # -displayfd: the server itself takes the first free display number and writes it to the pipe once it
        # listens. Choosing a number here and then starting a server on it raced with tests starting at the
        # same time: two servers on one number, the loser exiting after its client had already seen the
        # winner's socket, and that client's display vanishing when the winner's test stopped.
        read_end, write_end = os.pipe()
        try:
            self.proc = subprocess.Popen(
                ["Xvfb", "-displayfd", str(write_end), "-screen", "0", f"{self.size[0]}x{self.size[1]}x24"] +
                ([] if "tcp" in self.extra_args else ["-nolisten", "tcp"]) + self.extra_args,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=(write_end,))
        finally:
            os.close(write_end)
        with os.fdopen(read_end, "rb") as pipe:
            number = b""
            deadline = time.monotonic() + 20
            while not number.endswith(b"\n") and time.monotonic() < deadline:
                ready, _, _ = select.select([pipe], [], [], max(0.0, deadline - time.monotonic()))
                chunk = os.read(pipe.fileno(), 16) if ready else b""
                if not chunk:
                    break
                number += chunk
        if not number.strip().isdigit() or self.proc.poll() is not None:
            self.__exit__()
            raise RuntimeError("Xvfb did not start")
        n = int(number)
        # "-listen tcp" among the extra arguments: clients reach it over TCP as 127.0.0.1:N.
        self.display = f"127.0.0.1:{n}" if "tcp" in self.extra_args else f":{n}"
        return self

    def __exit__(self, *exc):
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


def base_env(display, vendor_json, validation=False):
    env = dict(os.environ)
    env["DISPLAY"] = display
    env["__EGL_VENDOR_LIBRARY_FILENAMES"] = vendor_json
    env.setdefault("CALDERA_DEBUG", "info")
    if validation:
        env["VK_INSTANCE_LAYERS"] = "VK_LAYER_KHRONOS_validation"
        env["VK_LAYER_ENABLES"] = "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT"
    return env


def run(cmd, env, timeout=120):
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    return proc.returncode, proc.stdout + proc.stderr


# XWD (X Window Dump) of a 24/32-bit TrueColor screen -> rows of (r, g, b).
def read_xwd(data):
    header = struct.unpack(">25I", data[:100])
    header_size, width, height = header[0], header[4], header[5]
    byte_order, bits_per_pixel, bytes_per_line = header[7], header[11], header[12]
    red_mask, green_mask, blue_mask, ncolors = header[14], header[15], header[16], header[19]
    offset = header_size + ncolors * 12
    if bits_per_pixel not in (24, 32):
        raise RuntimeError(f"xwd: {bits_per_pixel} bits per pixel not handled")
    shift = lambda m: (m & -m).bit_length() - 1
    rs, gs, bs = shift(red_mask), shift(green_mask), shift(blue_mask)
    step = bits_per_pixel // 8
    order = "little" if byte_order == 0 else "big"
    rows = []
    for y in range(height):
        line = data[offset + y * bytes_per_line: offset + y * bytes_per_line + width * step]
        px = [int.from_bytes(line[i:i + step], order) for i in range(0, width * step, step)]
        rows.append([((p >> rs) & 255, (p >> gs) & 255, (p >> bs) & 255) for p in px])
    return width, height, rows


def write_png(path, width, height, rows):
    raw = b"".join(b"\x00" + bytes(c for px in row for c in px) for row in rows)
    chunk = lambda tag, body: (struct.pack(">I", len(body)) + tag + body +
                               struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF))
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


def screenshot(display):
    data = subprocess.run(["xwd", "-root", "-silent", "-display", display], capture_output=True,
                          check=True, timeout=30).stdout
    return read_xwd(data)


def colour_stats(rows):
    """Fractions of the image that are lit, and reddish / greenish / bluish (es2gears' three gears)."""
    total = lit = red = green = blue = 0
    for row in rows:
        for r, g, b in row:
            total += 1
            if r + g + b > 60:
                lit += 1
                if r > g + 40 and r > b + 40:
                    red += 1
                elif g > r + 40 and g > b + 40:
                    green += 1
                elif b > r + 40 and b > g + 40:
                    blue += 1
    return {k: v / total for k, v in (("lit", lit), ("red", red), ("green", green), ("blue", blue))}


def read_stats(path, kind):
    """The CALDERA_STATS lines of one kind ({"present": kind, ...})."""
    lines = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                if entry.get("present") == kind:
                    lines.append(entry)
    return lines


X11_PATH_MARKERS = {"shm": "frames reach the X server through MIT-SHM",
                    "plain": "frames reach the X server by plain PutImage"}


def check_x11_path(log, stats_path, want):
    """The read-back path's probe: every frame by MIT-SHM (want "shm") or none (want "plain")."""
    failed = False
    stats = read_stats(stats_path, "x11-readback")
    shm = sum(e["x11_shm_frames"] for e in stats)
    plain = sum(e["x11_put_image_frames"] for e in stats)
    print(f"read-back frames: {shm} through MIT-SHM, {plain} by plain PutImage")
    if want == "shm" and (shm == 0 or plain != 0):
        print("FAIL: the read-back frames did not all go through MIT-SHM")
        failed = True
    if want == "plain" and (plain == 0 or shm != 0):
        print("FAIL: the read-back frames did not all go by plain PutImage")
        failed = True
    other = "plain" if want == "shm" else "shm"
    if X11_PATH_MARKERS[want] not in log or X11_PATH_MARKERS[other] in log:
        print(f"FAIL: the log does not say {X11_PATH_MARKERS[want]!r} alone")
        failed = True
    return failed


def check_native_frames(stats_path, want_path):
    """The presenters' CALDERA_STATS lines: frames shown by `want_path` ("vulkan-swapchain", "host-egl") and by
    no other; None: no native presenter showed any (the read-back path)."""
    native = read_stats(stats_path, "native")
    shown = {}
    for e in native:
        shown[e.get("path")] = shown.get(e.get("path"), 0) + e.get("frames_presented", 0)
    print(f"frames shown by native presenters: {shown or 'none'}")
    others = {p: n for p, n in shown.items() if p != want_path and n}
    if (want_path and not shown.get(want_path)) or others:
        print(f"FAIL: want frames from {want_path or 'no native presenter'}, got {shown}")
        return True
    return False


def check_window(args):
    failed = False
    with Xvfb(extra_args=args.xvfb_arg or ()) as x, tempfile.TemporaryDirectory() as tmp:
        env = base_env(x.display, args.vendor_json, args.validation)
        if args.present:
            env["CALDERA_PRESENT"] = args.present
        stats_path = os.path.join(tmp, "stats.jsonl")
        env["CALDERA_STATS"] = stats_path
        code, log = run([args.binary], env)
        sys.stdout.write(log)
        if args.x11_path:
            failed |= check_x11_path(log, stats_path, args.x11_path)
        if args.damage_regions:
            # The swapchain's present regions, or on the read-back path the frames of which only the damaged
            # box was put into the window.
            native = read_stats(stats_path, "native")
            regions = sum(e.get("damage_regions", 0) for e in native)
            regions += sum(e.get("x11_damage_frames", 0) for e in read_stats(stats_path, "x11-readback"))
            print(f"frames presented with damage regions: {regions}")
            if (args.damage_regions == "some") != (regions > 0):
                print(f"FAIL: damage regions {regions}, want {args.damage_regions}")
                failed = True
        if args.want_log and args.want_log not in log:
            print(f"FAIL: the log does not say {args.want_log!r}")
            failed = True
        if code != 0 or not re.search(r"^\d+ passed, 0 failed$", log, re.M):
            print(f"FAIL: x11_egl_window exited {code} without a clean summary")
            failed = True
        gles = env.get("CALDERA_BACKEND") == "gles"
        # On llvmpipe the GLES backend presents through the host's window surface only when asked to.
        readback = args.present == "shm" or (gles and env.get("CALDERA_GLES_NATIVE_PRESENT") != "1")
        want = ("frames are read back" if readback else
                "host EGL window presentation" if gles else "Vulkan swapchain presentation")
        if want not in log:
            print(f"FAIL: the log does not say {want!r}: another presentation path ran")
            failed = True
        failed |= check_native_frames(stats_path, None if readback else "host-egl" if gles else "vulkan-swapchain")
        if args.validation and any(m in log for m in VALIDATION_MARKERS):
            print("FAIL: Vulkan validation reported problems")
            failed = True
    return failed


def check_hud(args):
    """x11_egl_window --hud with CALDERA_HUD (every counter) and CALDERA_HUD_LOG: the HUD in the window's corner
    (read back from the X server by the program, and in a screenshot kept with --screenshot), and a CSV row per
    frame with a frame time in each. Run without CALDERA_HUD (the negative control) it must fail."""
    failed = False
    with Xvfb(640, 480) as x, tempfile.TemporaryDirectory() as tmp:
        env = base_env(x.display, args.vendor_json, args.validation)
        log_path = os.path.join(tmp, "hud.csv")
        env["CALDERA_HUD_LOG"] = log_path
        frames = 40
        # The program holds its window after its checks until told to go on: the screenshot is taken then.
        proc = subprocess.Popen([args.binary, "--hud", "--hold", "--frames", str(frames)], env=env,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        log = ""
        for line in proc.stdout:
            log += line
            if line.startswith("holding the window"):
                if args.screenshot:
                    write_png(args.screenshot, *screenshot(x.display))
                    print(f"screenshot: {args.screenshot}")
                proc.stdin.write("go\n")
                proc.stdin.flush()
        code = proc.wait(timeout=120)
        sys.stdout.write(log)
        if code != 0 or not re.search(r"^\d+ passed, 0 failed$", log, re.M):
            print(f"FAIL: x11_egl_window --hud exited {code} without a clean summary")
            failed = True
        lines = open(log_path, encoding="utf-8").read().splitlines() if os.path.exists(log_path) else []
        header = lines[0].split(",") if lines else []
        data = [dict(zip(header, l.split(","))) for l in lines[1:]]
        print(f"CALDERA_HUD_LOG: {len(data)} rows, columns {header}")
        # The first swap only starts the clock: a row per later frame.
        if len(data) != frames - 1 or "frametime_ms" not in header:
            print(f"FAIL: the log has {len(data)} rows (want {frames - 1}) or lacks frametime_ms")
            failed = True
        elif any(float(r["frametime_ms"]) <= 0 for r in data):
            print("FAIL: a frame time in the log is not positive")
            failed = True
        if args.validation and any(m in log for m in VALIDATION_MARKERS):
            print("FAIL: Vulkan validation reported problems")
            failed = True
    return failed


def check_glx_errors(args):
    """A GLX program (x11_glx_errors, x11_glx_renderer) on Caldera and on Mesa (the expectations' own reference),
    each through glvnd. --stat NAME=some|none: Caldera's presenters counted some (or no) NAME in CALDERA_STATS."""
    failed = False
    name = os.path.basename(args.binary)
    with Xvfb() as x, tempfile.TemporaryDirectory() as tmp:
        for vendor in ("caldera", "mesa"):
            env = base_env(x.display, args.vendor_json)
            env["__GLX_VENDOR_LIBRARY_NAME"] = vendor
            stats_path = os.path.join(tmp, f"stats-{vendor}.jsonl")
            if vendor == "caldera":
                icd = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(args.vendor_json))), "icd")
                env["LD_LIBRARY_PATH"] = icd + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
                env["CALDERA_STATS"] = stats_path
            code, log = run([args.binary], env)
            print(f"--- {vendor}")
            sys.stdout.write(log)
            want_vendor = "Caldera" if vendor == "caldera" else "Mesa"
            if code != 0 or not re.search(r"^\d+ passed, 0 failed$", log, re.M) or want_vendor not in log:
                print(f"FAIL: {name} on {vendor} exited {code} without a clean summary")
                failed = True
            if vendor == "caldera" and args.stat:
                stat, want = args.stat.split("=")
                total = sum(e.get(stat, 0) for e in read_stats(stats_path, "native"))
                print(f"Caldera's presenters: {stat} {total}")
                if (want == "some") != (total > 0):
                    print(f"FAIL: {stat} is {total}, want {want}")
                    failed = True
    return failed


def check_glx(args):
    failed = False
    with Xvfb() as x, tempfile.TemporaryDirectory() as tmp:
        env = base_env(x.display, args.vendor_json, args.validation)
        env["__GLX_VENDOR_LIBRARY_NAME"] = "caldera"
        icd = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(args.vendor_json))), "icd")
        env["LD_LIBRARY_PATH"] = icd + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
        stats_path = os.path.join(tmp, "stats.jsonl")
        env["CALDERA_STATS"] = stats_path
        code, log = run([args.binary], env)
        sys.stdout.write(log)
        # The windows' frames: the Vulkan swapchain, or the host's window surface (GLES, when asked to).
        gles = env.get("CALDERA_BACKEND") == "gles"
        native_gles = gles and env.get("CALDERA_GLES_NATIVE_PRESENT") == "1"
        failed |= check_native_frames(stats_path, "host-egl" if native_gles else None if gles else "vulkan-swapchain")
        if code != 0 or not re.search(r"^\d+ passed, 0 failed$", log, re.M) or "GL_VENDOR Caldera" not in log:
            print(f"FAIL: x11_glx_window exited {code} without a clean summary on Caldera")
            failed = True
        if args.validation and any(m in log for m in VALIDATION_MARKERS):
            print("FAIL: Vulkan validation reported problems")
            failed = True
    return failed


def check_default_display(args):
    """eglGetDisplay(EGL_DEFAULT_DISPLAY) under $DISPLAY is an X11 display (window surfaces shown), as on
    Mesa; EGL_PLATFORM=surfaceless keeps it surfaceless; without $DISPLAY (every other test) it is surfaceless."""
    failed = False
    with Xvfb() as x:
        for extra, flags in (({}, []), ({"EGL_PLATFORM": "surfaceless"}, ["--expect-surfaceless"])):
            env = base_env(x.display, args.vendor_json, args.validation)
            env.update(extra)
            code, log = run([args.binary, "--default-display"] + flags, env)
            print(f"--- {extra or 'DISPLAY set'}")
            sys.stdout.write(log)
            if code != 0 or not re.search(r"^\d+ passed, 0 failed$", log, re.M):
                print(f"FAIL: the default display run {extra or ''} exited {code}")
                failed = True
    return failed


def interval_runs(x, args, intervals, frames, extra, size=None, want_log=None):
    """One x11_egl_window run: `frames` swaps at intervals[0], then at each later interval, set with
    eglSwapInterval on the same surface. Returns [(fps, blocked_ms)] per interval, and the log."""
    env = base_env(x.display, args.vendor_json)
    env.update(extra)
    cmd = [args.binary, "--interval", str(intervals[0]), "--frames", str(frames)]
    for later in intervals[1:]:
        cmd += ["--then", str(later)]
    if size:
        cmd += ["--size", size]
    code, log = run(cmd, env)
    found = re.findall(r"interval=(\d+) .*fps=([\d.]+) swap_ms=([\d.]+) blocked_ms=([-\d.]+)", log)
    if code != 0 or len(found) != len(intervals):
        sys.stdout.write(log)
        raise RuntimeError(f"interval run failed ({code})")
    results = []
    for (interval, fps, swap_ms, blocked_ms) in found:
        print(f"interval {interval} {extra or ''}{' ' + size if size else ''}: {float(fps):.1f} fps, "
              f"{float(swap_ms):.3f} ms per frame in eglSwapBuffers, {float(blocked_ms):.3f} ms of it blocked")
        results.append((float(fps), float(blocked_ms), float(swap_ms)))
    return results, log


def interval_run(x, args, interval, frames, extra):
    """fps and the median time a swap blocked (ms) of one run at `interval`."""
    ((fps, _, _),), log = interval_runs(x, args, [interval], frames, extra)
    median = re.search(r"blocked_median_ms=([-\d.]+)", log)
    if not median:
        raise RuntimeError("no blocked_median_ms in the run's line")
    print(f"  median blocked per swap: {float(median.group(1)):.3f} ms")
    return fps, float(median.group(1))


def within(fps, rate, tolerance=0.03):
    return rate * (1 - tolerance) <= fps <= rate * (1 + tolerance)


def check_interval(args):
    if os.environ.get("CALDERA_BACKEND") == "gles":
        return check_interval_gles(args)
    failed = False
    with Xvfb() as x:
        fps1, _ = interval_run(x, args, 1, 180, {})
        if not 58.2 <= fps1 <= 61.8:
            print(f"FAIL: interval 1 gave {fps1:.1f} fps, not 60 +- 3 %")
            failed = True
        # Both interval-0 runs use the inline pipe: what they compare is the present worker. With run-ahead
        # the GL thread's time in the swap is the frame credit's wait for the apply thread instead (on two
        # cores a wake-up per frame, 0.05-0.1 ms), which says nothing about presentation.
        # Time blocked in a swap is wall time the GL thread did not run: on a loaded 2-core machine a
        # preemption counts as blocked, so the pair compares each run's median swap (a wait every swap makes
        # moves it, preemptions of a few frames do not), and is measured up to three times, the first pair that
        # passes standing (a worker that really blocks, or an inline swap that really waits, fails all three).
        for attempt in range(3):
            fps0, swap0 = interval_run(x, args, 0, 600, {"CALDERA_PIPE": "inline"})
            inline_fps, inline_swap = interval_run(x, args, 0, 600, {"CALDERA_PRESENT_WORKER": "0",
                                                                     "CALDERA_PIPE": "inline"})
            if fps0 >= 3 * 60 and swap0 <= 0.15 and inline_swap >= max(3 * swap0, 0.1):
                break
            print(f"attempt {attempt + 1}: outside the bounds, measured again")
        if fps0 < 3 * 60:
            print(f"FAIL: interval 0 gave {fps0:.1f} fps: still paced")
            failed = True
        # The present worker takes acquire, the blit's completion and the present off the GL thread; inline,
        # the GL thread waits for all of it at every swap (the negative control).
        if swap0 > 0.15:
            print(f"FAIL: interval 0 blocked the GL thread {swap0:.3f} ms per swap")
            failed = True
        if inline_swap < 3 * swap0 or inline_swap < 0.1:
            print(f"FAIL: inline presentation ({inline_swap:.3f} ms) does not show the wait the worker hides "
                  f"({swap0:.3f} ms): the measurement cannot tell them apart")
            failed = True
        fps_shm, _ = interval_run(x, args, 1, 120, {"CALDERA_PRESENT": "shm"})
        if not 58.2 <= fps_shm <= 61.8:
            print(f"FAIL: interval 1 on the read-back path gave {fps_shm:.1f} fps")
            failed = True
        # Interval n shows each frame for n vblanks: 2 -> 30 fps, 3 -> 20 fps, on the swapchain path and the
        # read-back path; and the interval changed at run time on a presenting surface (1 -> 2 -> 1).
        for path, extra in (("swapchain", {}), ("read-back", {"CALDERA_PRESENT": "shm"})):
            results, _ = interval_runs(x, args, [2, 1, 3], 90, extra)
            for (fps, _, _), (interval, rate) in zip(results, ((2, 30.0), (1, 60.0), (3, 20.0))):
                if not within(fps, rate):
                    print(f"FAIL: interval {interval} on the {path} path gave {fps:.1f} fps, not {rate:.0f} +- 3 %")
                    failed = True
        # What a device whose WSI paces FIFO itself gets: only intervals above 1 are held by Caldera. On
        # lavapipe interval 1 is then unpaced, interval 2 still 30 fps.
        results, _ = interval_runs(x, args, [2, 1], 90, {"CALDERA_VBLANK_PACING": "above-1"})
        if not within(results[0][0], 30.0):
            print(f"FAIL: interval 2 holding only intervals above 1 gave {results[0][0]:.1f} fps, not 30 +- 3 %")
            failed = True
        # Held to the 60 Hz clock it could not pass 61.8 fps; well above that it is not held (under a
        # sanitizer or a loaded machine the unheld rate may be far below the usual hundreds).
        if results[1][0] < 1.25 * 60:
            print(f"FAIL: interval 1 with CALDERA_VBLANK_PACING=above-1 gave {results[1][0]:.1f} fps: still paced")
            failed = True
        # Negative control: without the vblank clock (CALDERA_VBLANK_PACING=0) lavapipe's WSI does not pace,
        # so interval 2 is far above 30 fps: the rate above is Caldera holding the frames.
        (fps_free, _, _), = interval_runs(x, args, [2], 90, {"CALDERA_VBLANK_PACING": "0"})[0]
        if fps_free < 2 * 30:
            print(f"FAIL: interval 2 without the vblank clock still gave {fps_free:.1f} fps: the control shows "
                  "no difference")
            failed = True
    return failed


def presenter_wait_ms(x, args, extra, frames=300):
    """Interval 0 at 640x480 (inline pipe): the time the GL thread waited inside the presenter per frame
    (PresentStats gl_wait_ms, the presenter's own probe), and the frame rate."""
    with tempfile.TemporaryDirectory() as tmp:
        stats_path = os.path.join(tmp, "stats.jsonl")
        env = {"CALDERA_PIPE": "inline", "CALDERA_STATS": stats_path}
        env.update(extra)
        ((fps, _, _),), _ = interval_runs(x, args, [0], frames, env, size="640x480")
        native = [e for e in read_stats(stats_path, "native") if e.get("path") == "host-egl"]
        if not native:
            raise RuntimeError("no host-egl presenter stats")
        wait = sum(e["gl_wait_ms"] for e in native) / frames
        print(f"  {extra or 'worker'}: {wait:.4f} ms per frame waited for the presenter")
        return wait, fps


def check_interval_gles(args):
    """The GLES backend's host-EGL presenter against Xvfb's 60 Hz vblank: intervals 1, 2, 1, 3 (set at run time),
    interval 0 unpaced with the GL thread not waiting for the presenter, and the two negative controls: the
    present worker off (CALDERA_PRESENT_WORKER=0: the GL thread waits for each frame to be shown) and the vblank
    clock off (interval 2 unpaced: Mesa's software X11 swap does not wait for the vblank, so the rates above are
    Caldera holding the frames). The GL thread's blocked time in eglSwapBuffers is not the measure here: on
    llvmpipe, the host renders at each flush with the calling thread waiting for its rasterizer threads."""
    failed = False
    with Xvfb() as x:
        # Measured up to three times, the first run in bounds standing: on a loaded 2-core machine a run can lose
        # a few vblanks (a presenter that does not pace fails all three).
        want = ((1, 60.0), (2, 30.0), (1, 60.0), (3, 20.0))
        for attempt in range(3):
            results, log = interval_runs(x, args, [1, 2, 1, 3], 90, {})
            if all(within(fps, rate) for (fps, _, _), (_, rate) in zip(results, want)):
                break
            print(f"attempt {attempt + 1}: outside the bounds, measured again")
        if "host EGL window presentation" not in log:
            print("FAIL: the runs did not present through the host's EGL")
            failed = True
        for (fps, _, _), (interval, rate) in zip(results, want):
            if not within(fps, rate):
                print(f"FAIL: interval {interval} gave {fps:.1f} fps, not {rate:.0f} +- 3 %")
                failed = True
        wait0, fps0 = presenter_wait_ms(x, args, {})
        waited, _ = presenter_wait_ms(x, args, {"CALDERA_PRESENT_WORKER": "0"})
        if fps0 < 1.5 * 60:
            print(f"FAIL: interval 0 gave {fps0:.1f} fps: still paced")
            failed = True
        if wait0 > 0.02:
            print(f"FAIL: at interval 0 the GL thread waited {wait0:.4f} ms per frame for the presenter")
            failed = True
        if waited < max(10 * wait0, 0.02):
            print(f"FAIL: CALDERA_PRESENT_WORKER=0 ({waited:.4f} ms) does not show the wait the worker hides")
            failed = True
        (fps_free, _, _), = interval_runs(x, args, [2], 90, {"CALDERA_VBLANK_PACING": "0"})[0]
        if fps_free < 2 * 30:
            print(f"FAIL: interval 2 without the vblank clock still gave {fps_free:.1f} fps")
            failed = True
    return failed


def check_shm_cost(args):
    """The read-back path's swap of a 640x480 frame with MIT-SHM and with plain PutImage (CALDERA_X11_SHM=0),
    interleaved three times each at interval 0: MIT-SHM must cost less (median time in eglSwapBuffers)."""
    failed = False
    with Xvfb() as x:
        times = {"shm": [], "plain": []}
        for _ in range(3):
            for path, extra in (("shm", {}), ("plain", {"CALDERA_X11_SHM": "0"})):
                env = {"CALDERA_PRESENT": "shm", "CALDERA_PIPE": "inline"}
                env.update(extra)
                (_, _, swap_ms), = interval_runs(x, args, [0], 300, env, size="640x480")[0]
                times[path].append(swap_ms)
        shm, plain = sorted(times["shm"])[1], sorted(times["plain"])[1]
        print(f"640x480 swap on the read-back path: {shm:.3f} ms with MIT-SHM, {plain:.3f} ms by plain PutImage "
              f"(medians of three)")
        if shm >= 0.9 * plain:
            print("FAIL: MIT-SHM does not make the swap cheaper")
            failed = True
    return failed


def run_gears(display, vendor_json, seconds):
    env = base_env(display, vendor_json)
    proc = subprocess.Popen(["es2gears_x11"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    time.sleep(seconds)
    shot = None
    if proc.poll() is None:
        shot = screenshot(display)
    proc.send_signal(signal.SIGTERM)
    try:
        out, _ = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    return shot, out


def check_gears(args):
    failed = False
    with Xvfb(400, 400) as x:
        caldera, log = run_gears(x.display, args.vendor_json, 6)
        sys.stdout.write(log)
    with Xvfb(400, 400) as x:
        mesa, _ = run_gears(x.display, MESA_JSON, 6)
    if caldera is None or mesa is None:
        print("FAIL: es2gears_x11 did not keep running")
        return True
    if args.screenshot:
        write_png(args.screenshot, *caldera)
        print(f"screenshot: {args.screenshot}")
    a, b = colour_stats(caldera[2]), colour_stats(mesa[2])
    print(f"Caldera: {a}\nllvmpipe: {b}")
    if a["lit"] < 0.05:
        print("FAIL: the Caldera screenshot is black")
        failed = True
    for key in ("lit", "red", "green", "blue"):
        if b[key] > 0.005 and not 0.7 <= a[key] / b[key] <= 1.4:
            print(f"FAIL: {key} coverage {a[key]:.3f} vs llvmpipe {b[key]:.3f}")
            failed = True
    if "Caldera" not in log:
        print("FAIL: es2gears_x11 did not run on Caldera")
        failed = True
    return failed


# Scenes that fail on Caldera for reasons outside window presentation (glmark2 validates with glReadPixels).
# Empty since GL_OES_mapbuffer (the buffer scenes' update-method=map): every scene validates as on llvmpipe.
# Kept as a list so a scene that cannot be fixed at once is named here, and any other failure is caught.
GLMARK2_KNOWN_FAILURES = []


def glmark2_results(display, vendor_json):
    env = base_env(display, vendor_json)
    code, log = run(["glmark2-es2", "-s", "320x240", "--validate"], env, timeout=600)
    results = dict(re.findall(r"^(\[.*?\].*?): Validation: (\w+)", log, re.M))
    return code, log, results


def check_glmark2(args):
    with Xvfb() as x:
        code, log, mine = glmark2_results(x.display, args.vendor_json)
        sys.stdout.write(log)
        _, _, mesa = glmark2_results(x.display, MESA_JSON)
    count = lambda r, v: sum(1 for s in r.values() if s == v)
    print(f"Caldera: {count(mine, 'Success')} success, {count(mine, 'Failure')} failure, "
          f"{count(mine, 'Unknown')} unknown; llvmpipe: {count(mesa, 'Success')} success, "
          f"{count(mesa, 'Failure')} failure, {count(mesa, 'Unknown')} unknown")
    failed = code != 0 or "GL_VENDOR:      Caldera" not in log
    new = [s for s, v in mine.items() if v == "Failure" and s not in GLMARK2_KNOWN_FAILURES]
    for s in new:
        print(f"FAIL: new validation failure: {s}")
    fixed = [s for s in GLMARK2_KNOWN_FAILURES if mine.get(s) == "Success"]
    for s in fixed:
        print(f"note: known failure now passes, remove it from the list: {s}")
    expected_success = count(mesa, "Success") - sum(1 for s in GLMARK2_KNOWN_FAILURES
                                                    if mesa.get(s) == "Success" and mine.get(s) != "Success")
    if count(mine, "Success") < expected_success:
        print(f"FAIL: {count(mine, 'Success')} successes, llvmpipe less known failures has {expected_success}")
        failed = True
    return failed or bool(new)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", required=True, choices=["window", "default-display", "hud", "glx", "glx-errors", "interval", "shm-cost", "gears", "glmark2"])
    ap.add_argument("--binary")
    ap.add_argument("--vendor-json", required=True)
    ap.add_argument("--validation", action="store_true")
    ap.add_argument("--present", help="CALDERA_PRESENT for the window check")
    ap.add_argument("--screenshot", help="gears, hud: where to write the Caldera screenshot (PNG)")
    ap.add_argument("--xvfb-arg", action="append", help="window: an extra Xvfb argument (repeatable)")
    ap.add_argument("--x11-path", choices=["shm", "plain"],
                    help="window: how the read-back frames must reach the X server (CALDERA_STATS probe, log)")
    ap.add_argument("--want-log", help="window: a line the log must contain")
    ap.add_argument("--stat", help="glx-errors: NAME=some|none, a presenter counter of Caldera's run")
    ap.add_argument("--damage-regions", choices=["some", "none"],
                    help="window: whether swaps with damage reached the swapchain as present regions (probe)")
    args = ap.parse_args()
    checks = {"window": check_window, "default-display": check_default_display, "hud": check_hud, "glx": check_glx, "glx-errors": check_glx_errors, "interval": check_interval,
              "shm-cost": check_shm_cost, "gears": check_gears,
              "glmark2": check_glmark2}
    return 1 if checks[args.check](args) else 0


if __name__ == "__main__":
    sys.exit(main())
