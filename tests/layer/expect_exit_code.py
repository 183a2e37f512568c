#!/usr/bin/env python3
"""Runs a program and passes only if it exits with the given status (for CALDERA_GUARD_FAIL=1)."""
import subprocess
import sys

expected = int(sys.argv[1])
status = subprocess.run(sys.argv[2:]).returncode
if status != expected:
    sys.exit(f"expected exit status {expected}, got {status}")
