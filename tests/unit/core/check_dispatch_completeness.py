#!/usr/bin/env python3
"""The pipe's dispatch is complete by construction: a handler that lacks an Apply for one record does not
compile. Compiles (syntax only) a handler declaring every Apply (CALDERA_PIPE_APPLY_DECLS) — must succeed —
and one missing CmdPresent's — must fail, naming the record. Usage: check_dispatch_completeness.py
--src-include DIR --build-include DIR -- COMPILER..."""
import argparse
import os
import subprocess
import sys
import tempfile

COMPLETE = """
#include "pipe/commands.h"
struct Handler {
  CALDERA_PIPE_APPLY_DECLS
};
void Walk(Handler& h, caldera::pipe::Op op, const uint8_t* r, const uint8_t* p) {
  caldera::pipe::Dispatch(h, op, r, p);
}
"""

# Every record but one, written out from the generated declarations.
MISSING = """
#include "pipe/commands.h"
struct Handler {
  void Apply(const caldera::pipe::CmdDraw&, const uint8_t*);
};
void Walk(Handler& h, caldera::pipe::Op op, const uint8_t* r, const uint8_t* p) {
  caldera::pipe::Dispatch(h, op, r, p);
}
"""


def compiles(compiler, includes, code):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "t.cpp")
        with open(path, "w") as f:
            f.write(code)
        r = subprocess.run(compiler + ["-std=c++20", "-fsyntax-only"] + includes + [path],
                           capture_output=True, text=True)
        return r.returncode == 0, r.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src-include", required=True)
    ap.add_argument("--build-include", required=True)
    ap.add_argument("compiler", nargs="+")
    args = ap.parse_args()
    inc = ["-I" + args.src_include, "-I" + args.build_include]
    ok, err = compiles(args.compiler, inc, COMPLETE)
    if not ok:
        print("FAIL: a handler with every Apply does not compile:\n" + err)
        return 1
    print("PASS: a handler with every Apply compiles")
    ok, err = compiles(args.compiler, inc, MISSING)
    if ok:
        print("FAIL: a handler missing Apply overloads compiles")
        return 1
    if "CmdPresent" not in err:
        print("FAIL: the error does not name the missing record:\n" + err[:2000])
        return 1
    print("PASS: a handler missing Apply(CmdPresent) does not compile, and the error names it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
