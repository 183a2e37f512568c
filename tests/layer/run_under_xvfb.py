#!/usr/bin/env python3
"""Runs a test program inside a private Xvfb server for the WSI tests (the windows tests' own helper: the
server picks a free display itself and is stopped by its pid).

The screen is depth 24 because Vulkan's X11 WSI cannot present to an 8-bit one. XDG_RUNTIME_DIR points at a
fresh mode-700 directory, as X and Mesa expect one and a CI runner may have none.
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration", "windows"))
from run_windows_test import Xvfb  # noqa: E402

with tempfile.TemporaryDirectory(prefix="caldera-guard-xdg-") as runtime_dir, Xvfb(640, 480) as x:
    os.chmod(runtime_dir, 0o700)
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime_dir, DISPLAY=x.display)
    sys.exit(subprocess.run(sys.argv[1:], env=env).returncode)
