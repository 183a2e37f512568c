#!/usr/bin/env python3
"""Checks that a glvnd vendor library exports exactly one dynamic symbol: __egl_Main (EGL vendors), or the
name given as the second argument (__glx_Main for the GLX vendor).

Anything else leaking out (frontend, glslang, libstdc++ inlines) could interpose on the application's own
symbols or another vendor's, so the version script must keep the export table to the one entry point.
"""
import subprocess
import sys


def main() -> int:
    if len(sys.argv) not in (2, 3):
        print(f"usage: {sys.argv[0]} LIBRARY [SYMBOL]", file=sys.stderr)
        return 2
    symbol = sys.argv[2] if len(sys.argv) == 3 else "__egl_Main"
    out = subprocess.run(["nm", "-D", "--defined-only", sys.argv[1]], check=True, capture_output=True,
                         text=True).stdout
    names = sorted(line.split()[-1] for line in out.splitlines() if line.strip())
    if names != [symbol]:
        print(f"expected exactly [{symbol!r}], got {len(names)} symbols: {names[:50]}", file=sys.stderr)
        return 1
    print(f"exports: {symbol}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
