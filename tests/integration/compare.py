#!/usr/bin/env python3
"""Differential test: render one scene through Caldera and through Mesa llvmpipe (the reference), in the same
test run, and compare the pictures. Caldera's run has the Khronos validation layer with synchronization
validation on when --validation is given; any validation message fails the test.

Mesa's picture of a scene does not depend on which Caldera variant (validation, guard, backend, pipe mode) is
being tested, so it is rendered once per build of the scene binary and kept in a cache beside that binary: the
key names the binary, the scene, the Mesa vendor file, the Mesa libraries it loads (path, size, mtime),
every Mesa/llvmpipe environment variable and what the scene programs read themselves, so a rebuilt binary or an upgraded Mesa renders afresh.
CALDERA_TEST_REF_CACHE=0 turns the cache off; the log says "reference: cached" or "reference: rendered"."""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

MESA_LIBRARY_DIRS = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu/dri"]
MESA_LIBRARIES = ["libEGL_mesa.so.0", "swrast_dri.so", "libgallium_dri.so", "libGLX_mesa.so.0"]
# Mesa's and llvmpipe's environment, and what the scene programs themselves read (point_sprites draws for the
# backend named in CALDERA_BACKEND; COMPAT_SCENE_FRAMES repeats frames).
MESA_ENV_PREFIXES = ("LIBGL_", "GALLIUM_", "LP_", "MESA_", "EGL_", "__EGL_", "__GLX_", "CALDERA_BACKEND",
                     "COMPAT_SCENE_")


def run(binary, scene, out, env_extra, png=None):
    env = dict(os.environ)
    env.update(env_extra)
    cmd = [binary, scene, out] + ([png] if png else [])
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout + proc.stderr


def file_identity(path):
    st = os.stat(path)
    return [os.path.realpath(path), st.st_size, st.st_mtime_ns]


def reference_cache_key(args):
    libs = []
    for name in MESA_LIBRARIES:
        for d in MESA_LIBRARY_DIRS:
            path = os.path.join(d, name)
            if os.path.exists(path):
                libs.append(file_identity(path))
    env = sorted((k, v) for k, v in os.environ.items() if k.startswith(MESA_ENV_PREFIXES))
    key = {"binary": file_identity(args.binary), "scene": args.scene, "mesa_json": file_identity(args.mesa_json),
           "libraries": libs, "env": env}
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()


def render_reference(args, ref):
    """Mesa's picture of the scene into `ref`, from the cache when this exact reference was rendered before.
    Returns (rc, log)."""
    use_cache = os.environ.get("CALDERA_TEST_REF_CACHE", "1") != "0"
    cached = None
    if use_cache:
        cache_dir = os.environ.get("CALDERA_TEST_REF_CACHE_DIR") or os.path.join(
            os.path.dirname(os.path.realpath(args.binary)), "reference-cache")
        cached = os.path.join(cache_dir, reference_cache_key(args) + ".rgba")
        if os.path.exists(cached):
            shutil.copyfile(cached, ref)
            print("reference: cached")
            return 0, ""
    rc, log = run(args.binary, args.scene, ref, {"__EGL_VENDOR_LIBRARY_FILENAMES": args.mesa_json})
    if rc == 0:
        print("reference: rendered")
        if cached:
            # Written under a unique name and renamed: tests running in parallel never see half a picture.
            os.makedirs(os.path.dirname(cached), exist_ok=True)
            fd, tmp_path = tempfile.mkstemp(dir=os.path.dirname(cached))
            os.close(fd)
            shutil.copyfile(ref, tmp_path)
            os.replace(tmp_path, cached)
    return rc, log


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--scene", required=True)
    ap.add_argument("--caldera-json", required=True)
    ap.add_argument("--mesa-json", default="/usr/share/glvnd/egl_vendor.d/50_mesa.json")
    ap.add_argument("--validation", action="store_true")
    ap.add_argument("--max-channel-diff", type=int, default=3)
    ap.add_argument("--max-bad-fraction", type=float, default=0.01)
    ap.add_argument("--png-dir", default=None)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        ours, ref = os.path.join(tmp, "caldera.rgba"), os.path.join(tmp, "mesa.rgba")
        caldera_env = {"__EGL_VENDOR_LIBRARY_FILENAMES": args.caldera_json}
        if args.validation:
            caldera_env.update({
                "VK_INSTANCE_LAYERS": "VK_LAYER_KHRONOS_validation",
                "VK_LAYER_ENABLES": "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT",
            })
        png = os.path.join(args.png_dir, args.scene + ".png") if args.png_dir else None
        rc, log = run(args.binary, args.scene, ours, caldera_env, png)
        sys.stdout.write(log)
        if rc != 0:
            print(f"FAIL: Caldera run exited {rc}")
            return 1
        if "vulkan-validation" in log or "VUID-" in log or "SYNC-HAZARD" in log:
            print("FAIL: Vulkan validation reported problems")
            return 1
        if "Caldera" not in log:
            print("FAIL: the Caldera run did not render through Caldera (GL_RENDERER)")
            return 1
        rc, log = render_reference(args, ref)
        if rc != 0:
            sys.stdout.write(log)
            print(f"FAIL: reference (Mesa) run exited {rc}")
            return 1
        a, b = open(ours, "rb").read(), open(ref, "rb").read()
    if len(a) != len(b):
        print("FAIL: sizes differ")
        return 1
    pixels = len(a) // 4
    bad = 0
    worst = 0
    for i in (range(pixels) if a != b else []):  # identical pictures need no per-pixel walk
        d = max(abs(a[i * 4 + c] - b[i * 4 + c]) for c in range(4))
        worst = max(worst, d)
        if d > args.max_channel_diff:
            bad += 1
    distinct = len({a[i * 4:i * 4 + 4] for i in range(pixels)})
    print(f"{args.scene}: {bad}/{pixels} pixels differ by more than {args.max_channel_diff} "
          f"(worst {worst}), {distinct} distinct colours")
    if distinct < 2:
        print("FAIL: the picture is a single colour: the scene drew nothing")
        return 1
    if bad > args.max_bad_fraction * pixels:
        print("FAIL: too many pixels differ from the reference")
        return 1
    print("1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
