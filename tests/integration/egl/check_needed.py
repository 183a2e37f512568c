#!/usr/bin/env python3
"""Checks that a shared library has no DT_NEEDED entry for the window-system libraries (libX11*, libxcb*,
libwayland*).

libEGL_caldera.so.0 and libGLX_caldera.so.0 open those at run time (icd/x11_loader.cpp,
icd/wayland_loader.cpp): a NEEDED entry would make the dynamic loader refuse the whole vendor on a machine without X, and glvnd would then fall
back to the next vendor without a word.
"""
import subprocess
import sys

FORBIDDEN = ("libX11", "libxcb", "libwayland")


def needed(library: str) -> list:
    out = subprocess.run(["readelf", "-d", library], check=True, capture_output=True, text=True).stdout
    names = []
    for line in out.splitlines():
        if "(NEEDED)" in line and "[" in line:
            names.append(line[line.index("[") + 1:line.rindex("]")])
    return names


def main() -> int:
    if len(sys.argv) != 2:
        print(f"usage: {sys.argv[0]} LIBRARY", file=sys.stderr)
        return 2
    names = needed(sys.argv[1])
    # A parse that finds nothing would pass vacuously: every vendor needs libc.
    if not any(n.startswith("libc.so") for n in names):
        print(f"could not read the NEEDED entries of {sys.argv[1]}: {names}", file=sys.stderr)
        return 1
    bad = [n for n in names if n.startswith(FORBIDDEN)]
    if bad:
        print(f"{sys.argv[1]} needs {bad} at load time; the window-system libraries must be opened on first use",
              file=sys.stderr)
        return 1
    print(f"NEEDED: {' '.join(names)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
