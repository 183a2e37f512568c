#!/usr/bin/env python3
"""`meson install` into a scratch root, then programs run against the installed files alone.

What a user gets from `meson install` (the default prefix /usr/local included):
  - the EGL vendor manifest lies in a folder glvnd reads (its own datadir's glvnd/egl_vendor.d, or
    /etc/glvnd/egl_vendor.d), never only under our prefix's share/, which glvnd does not search;
  - the guard layer's manifest lies in <prefix>/share/vulkan/implicit_layer.d (the Vulkan loader's default
    search covers /usr/local/share and /usr/share) and names its library so that it loads from there;
  - the installed caldera-demo renders through the installed EGL vendor (found through
    __EGL_VENDOR_LIBRARY_DIRS pointed at the staged copy of glvnd's folder: the only vendor there), with
    the installed guard layer loaded (its report written), and glxinfo finds the installed GLX vendor.
Nothing from the build tree is on any path: the libraries come from the staged libdir.

Usage: install_check.py BUILD_DIR SCRATCH_DIR   (run under an X server: the GLX half needs one)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

build, scratch = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


shutil.rmtree(scratch, ignore_errors=True)
subprocess.run(["meson", "install", "-C", build, "--destdir", scratch, "--no-rebuild", "--quiet"], check=True,
               stdout=subprocess.DEVNULL)

# Where meson put each file (the real, unstaged destinations).
installed = json.loads(subprocess.run(["meson", "introspect", build, "--installed"], check=True,
                                      capture_output=True, text=True).stdout)
by_name = {os.path.basename(dest): dest for dest in installed.values()}


def staged(dest):
    return scratch + dest


glvnd_datadir = subprocess.run(["pkg-config", "--variable=datadir", "libglvnd"], capture_output=True,
                               text=True).stdout.strip() or "/usr/share"
glvnd_dirs = [os.path.join(glvnd_datadir, "glvnd", "egl_vendor.d"), "/etc/glvnd/egl_vendor.d"]
egl_manifest = by_name.get("10_caldera.json")
check(egl_manifest is not None, "the EGL vendor manifest is installed")
check(egl_manifest is not None and os.path.dirname(egl_manifest) in glvnd_dirs,
      f"the EGL vendor manifest ({egl_manifest}) is in a folder glvnd reads ({', '.join(glvnd_dirs)})")
for name in ["libEGL_caldera.so.0", "libGLX_caldera.so.0", "caldera-server", "libVkLayer_CALDERA_guard.so",
             "VkLayer_CALDERA_guard.json", "caldera-demo"]:
    check(name in by_name and os.path.exists(staged(by_name[name])), f"{name} is installed")
if failures:
    sys.exit(1)

libdir = os.path.dirname(staged(by_name["libEGL_caldera.so.0"]))
check(os.path.dirname(staged(by_name["caldera-server"])) == libdir, "caldera-server lies beside the vendor library")
layer_manifest = staged(by_name["VkLayer_CALDERA_guard.json"])
layer_path = json.load(open(layer_manifest))["layer"]["library_path"]
resolved = os.path.normpath(os.path.join(os.path.dirname(layer_manifest), layer_path))
check(not os.path.isabs(layer_path) and resolved == staged(by_name["libVkLayer_CALDERA_guard.so"]),
      f"the layer manifest's library path ({layer_path}) is relative and reaches the installed layer")
# datadir of the layer manifest: <prefix>/share/vulkan/implicit_layer.d → XDG_DATA_DIRS entry <prefix>/share.
layer_data_dir = os.path.dirname(os.path.dirname(os.path.dirname(layer_manifest)))

with tempfile.TemporaryDirectory(prefix="caldera-install-xdg-") as runtime:
    os.chmod(runtime, 0o700)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("__EGL_VENDOR") and not k.startswith("__GLX") and k != "LD_LIBRARY_PATH"}
    report = os.path.join(scratch, "guard.json")
    png = os.path.join(scratch, "demo.png")
    env.update(XDG_RUNTIME_DIR=runtime, LD_LIBRARY_PATH=libdir,
               __EGL_VENDOR_LIBRARY_DIRS=os.path.dirname(staged(egl_manifest)),
               XDG_DATA_DIRS=layer_data_dir + ":/usr/share", CALDERA_GUARD="1", CALDERA_GUARD_REPORT=report)
    demo = subprocess.run([staged(by_name["caldera-demo"]), png], env=env, capture_output=True, text=True,
                          timeout=120)
    print(demo.stdout + demo.stderr)
    check(demo.returncode == 0, "the installed caldera-demo ran through the installed EGL vendor")
    check("Caldera" in demo.stdout + demo.stderr, "the demo's GL_VENDOR/GL_RENDERER names Caldera")
    ok_png = False
    if os.path.exists(png):
        data = open(png, "rb").read()
        ok_png = data.startswith(b"\x89PNG") and len(data) > 1000
    check(ok_png, "the demo wrote its picture")
    check(os.path.exists(report), "the installed guard layer loaded (it wrote its report)")

    glx_env = dict(env, __GLX_VENDOR_LIBRARY_NAME="caldera")
    glx = subprocess.run(["glxinfo", "-B"], env=glx_env, capture_output=True, text=True, timeout=120)
    check(glx.returncode == 0 and "OpenGL vendor string: Caldera" in glx.stdout,
          "glxinfo finds the installed GLX vendor")
    if glx.returncode != 0 or "Caldera" not in glx.stdout:
        print(glx.stdout + glx.stderr)

print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
