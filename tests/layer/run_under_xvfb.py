#!/usr/bin/env python3
"""Runs a test program inside a private Xvfb server (xvfb-run -a) for the WSI tests.

The screen is asked for at depth 24 because xvfb-run's default is 8-bit, which Vulkan's X11 WSI
cannot present to. XDG_RUNTIME_DIR points at a fresh mode-700 directory, as X and Mesa expect one
and a CI runner may have none.
"""
import os
import subprocess
import sys
import tempfile

with tempfile.TemporaryDirectory(prefix="caldera-guard-xdg-") as runtime_dir:
    os.chmod(runtime_dir, 0o700)
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime_dir)
    command = ["xvfb-run", "-a", "-s", "-screen 0 640x480x24 -nolisten tcp"] + sys.argv[1:]
    sys.exit(subprocess.run(command, env=env).returncode)
