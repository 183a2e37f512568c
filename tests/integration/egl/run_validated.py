#!/usr/bin/env python3
"""Runs a test program with the Khronos validation layer (synchronization validation on) and fails when
the program fails or the layer reports anything, the same markers tests/integration/compare.py uses."""
import os
import subprocess
import sys


def main() -> int:
    env = dict(os.environ)
    env.update({
        "VK_INSTANCE_LAYERS": "VK_LAYER_KHRONOS_validation",
        "VK_LAYER_ENABLES": "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT",
    })
    proc = subprocess.run(sys.argv[1:], env=env, capture_output=True, text=True)
    log = proc.stdout + proc.stderr
    sys.stdout.write(log)
    if proc.returncode != 0:
        print(f"FAIL: exited {proc.returncode}")
        return 1
    if "vulkan-validation" in log or "VUID-" in log or "SYNC-HAZARD" in log:
        print("FAIL: Vulkan validation reported problems")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
