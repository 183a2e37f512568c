#!/usr/bin/env python3
"""The Mesa reference cache of compare.py: a second run of a scene reuses the picture; a change in what the
scene program reads (CALDERA_BACKEND: point_sprites draws for the backend it names) or the kill switch
(CALDERA_TEST_REF_CACHE=0) renders afresh, and every run still passes."""
import argparse
import os
import subprocess
import sys
import tempfile


def compare(args, env_extra):
    env = dict(os.environ)
    env.update(env_extra)
    proc = subprocess.run([sys.executable, args.compare, "--binary", args.binary, "--scene", args.scene,
                           "--caldera-json", args.caldera_json], env=env, capture_output=True, text=True,
                          timeout=240)
    out = proc.stdout + proc.stderr
    if proc.returncode != 0:
        sys.stdout.write(out)
        raise SystemExit(f"FAIL: compare.py exited {proc.returncode} with {env_extra}")
    for marker in ("reference: cached", "reference: rendered"):
        if marker in out:
            return marker.split(": ")[1]
    sys.stdout.write(out)
    raise SystemExit("FAIL: compare.py printed no reference marker")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compare", required=True)
    ap.add_argument("--binary", required=True)
    ap.add_argument("--scene", default="point_sprites")
    ap.add_argument("--caldera-json", required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        base = {"CALDERA_TEST_REF_CACHE_DIR": cache, "CALDERA_BACKEND": "vulkan"}
        steps = [("first run", base, "rendered"),
                 ("second run", base, "cached"),
                 ("another backend named to the scene", dict(base, CALDERA_BACKEND="gles"), "rendered"),
                 ("kill switch", dict(base, CALDERA_TEST_REF_CACHE="0"), "rendered")]
        failed = 0
        for name, env, expected in steps:
            got = compare(args, env)
            print(f"{name}: reference {got} (expected {expected})")
            failed += got != expected
    print(f"{len(steps) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
