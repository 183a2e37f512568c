#!/usr/bin/env python3
"""Run by `meson install`: refresh the dynamic loader's cache so glvnd finds the vendor libraries by soname.

The installed EGL manifest and glvnd's GLX lookup both name the vendor library by soname (libEGL_caldera.so.0,
libGLX_caldera.so.0), so a library newly installed under a folder of ld.so.conf (Debian lists
/usr/local/lib/<triplet>) is found only once ldconfig has run. Skipped for staged installs (DESTDIR: the
packager's tools do it) and for unprivileged ones (no cache to write; use LD_LIBRARY_PATH then).
"""
import os
import shutil
import subprocess
import sys

staged = os.environ.get("DESTDIR") or (
    os.environ.get("MESON_INSTALL_DESTDIR_PREFIX", "") != os.environ.get("MESON_INSTALL_PREFIX", ""))
if staged or os.geteuid() != 0:
    sys.exit(0)
ldconfig = shutil.which("ldconfig") or ("/sbin/ldconfig" if os.path.exists("/sbin/ldconfig") else None)
if ldconfig:
    subprocess.run([ldconfig], check=False)
