#!/usr/bin/env python3
"""Writes or checks src/api/entry_classes.txt: the draw-delta class of every exported GL entry point.

Classes (what an entry can change that a draw reads; src/frontend/draw_delta.h):
  free     changes nothing a draw derives beyond VAO-, program- and uniform-value work the draw redoes:
           draws, glBindVertexArray, glUseProgram, float uniform values, glGetError. No epoch bump.
  vao      vertex array object state (attribute formats, bindings, divisors). Bumps the vertex arrays' epoch
           only (their validation slice); the draw after keeps the fast path.
  program  program objects (links, integer uniforms: sampler units, block bindings). Programs are shared:
           bumps the context and share-group epochs.
  share    other share-group objects (textures, buffers, samplers, renderbuffers, shaders, syncs). Bumps both.
  context  everything else: context state, bindings, queries, framebuffers. Bumps the context epoch.
When in doubt an entry is not free: a spare bump costs one slow draw, a missing one a stale draw.

  gen_entry_classes.py --xml gl.xml --impl H.. --extensions extensions.txt --write src/api/entry_classes.txt
  gen_entry_classes.py ... --check src/api/entry_classes.txt   (the completeness test: every exported entry
      has a class, no row names an entry that is not exported, and each class is what the rules give)
"""
import argparse
import re
import sys
import xml.etree.ElementTree as ET

import gen_extensions
import gen_gl_api

CLASSES = ("free", "vao", "program", "share", "context")

FREE = {"BindVertexArray", "UseProgram", "GetError"}
NOT_DRAWS = {"DrawBuffer", "DrawBuffers"}  # framebuffer state, not draws
FLOAT_UNIFORM = re.compile(r"^(Program)?Uniform(Matrix\d(x\d)?|\d)(f|d)v?$")
VAO = re.compile(r"^(VertexAttrib\w*(Pointer|Format|Binding|Divisor)\w*|(Enable|Disable)VertexAttribArray|"
                 r"BindVertexBuffers?|VertexBindingDivisor|VertexArray\w+|GenVertexArrays|CreateVertexArrays)$")
PROGRAM = re.compile(r"(Program|Uniform|Shader|AttribLocation|FragData|TransformFeedbackVaryings)")
SHARE = re.compile(r"^(Tex(Image|SubImage|Storage|Parameter|Buffer)\w*|Texture\w+|CompressedTex\w+|CopyTex\w+|"
                   r"GenerateMipmap|GenerateTextureMipmap|(Gen|Delete|Create)(Textures|Buffers|Samplers|"
                   r"Renderbuffers)|Buffer(Data|SubData|Storage)|NamedBuffer\w+|MapBuffer\w*|UnmapBuffer|"
                   r"FlushMappedBufferRange|CopyBufferSubData|ClearBuffer(Sub)?Data|Sampler\w+|"
                   r"Renderbuffer\w+|NamedRenderbuffer\w+|FenceSync|DeleteSync|ClientWaitSync|WaitSync|"
                   r"CopyImageSubData|InvalidateTex\w+|InvalidateBuffer\w+|EGLImageTarget\w+)$")
QUERY = re.compile(r"^(Get|Is)")


def classify(short):
    """The class of a core command (its name without the gl prefix)."""
    if short in FREE or FLOAT_UNIFORM.match(short):
        return "free"
    if (short.startswith("Draw") or short.startswith("MultiDraw")) and short not in NOT_DRAWS:
        return "free"
    if QUERY.match(short):
        return "context"  # queries change nothing, but some make default objects on first use: bump
    if VAO.match(short):
        return "vao"
    if SHARE.match(short):
        return "share"
    if PROGRAM.search(short):
        return "program"
    return "context"


def exported_entries(xml, impl, extensions):
    """{entry name: core command it runs} for every name the proc table exports."""
    root = ET.parse(xml).getroot()
    wanted = gen_gl_api.collect_commands(root)
    implemented = gen_gl_api.declared_names(impl)
    entries = {name: name for name in wanted}
    # Compatibility-only commands (glBegin, glMaterialfv, ...) are exported too. Compatibility contexts take no
    # fast path (their draws depend on fixed-function state the epochs do not follow), so their classes only
    # decide bumps nobody reads; the rules give them the safe ones.
    for name in gen_gl_api.collect_compat_commands(root) - wanted:
        entries[name] = name
    for name in gen_gl_api.collect_es1_commands(root) - wanted:  # glOrthof, glTranslatex...: ES 1.1 only
        entries[name] = name
    for row in gen_extensions.resolve(extensions, root, wanted, implemented):
        for name, target in row.entries.items():
            entries.setdefault(name, target)
    return entries


def expected_table(entries):
    return {name: classify(target[2:]) for name, target in entries.items()}


def read_table(path):
    table = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            if len(parts) != 2 or parts[1] not in CLASSES:
                raise SystemExit(f"{path}:{number}: want 'glName class' with class one of {CLASSES}")
            if parts[0] in table:
                raise SystemExit(f"{path}:{number}: {parts[0]} listed twice")
            table[parts[0]] = parts[1]
    return table


HEADER = """# Generated by src/api/gen_entry_classes.py (--write); checked by the entry-classes test. Do not edit by
# hand: change the rules in the generator. One row per exported GL entry (core commands and extension
# aliases): its draw-delta class (free, vao, program, share, context; see the generator and
# src/frontend/draw_delta.h). The generated entry points bump the epochs their class names.
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--xml", required=True)
    ap.add_argument("--impl", nargs="+", required=True)
    ap.add_argument("--extensions", required=True)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write")
    mode.add_argument("--check")
    args = ap.parse_args()
    expected = expected_table(exported_entries(args.xml, args.impl, args.extensions))
    if args.write:
        with open(args.write, "w", encoding="utf-8") as f:
            f.write(HEADER)
            for name in sorted(expected):
                f.write(f"{name} {expected[name]}\n")
        return 0
    table = read_table(args.check)
    problems = [f"{n}: exported but has no class" for n in sorted(set(expected) - set(table))]
    problems += [f"{n}: names no exported entry" for n in sorted(set(table) - set(expected))]
    problems += [f"{n}: class {table[n]}, the rules give {expected[n]}" for n in sorted(set(table) & set(expected))
                 if table[n] != expected[n]]
    counts = {c: sum(1 for v in table.values() if v == c) for c in CLASSES}
    print(f"{len(table)} entries: " + ", ".join(f"{c} {counts[c]}" for c in CLASSES))
    if problems:
        print("entry class table problems (regenerate with --write):\n  " + "\n  ".join(problems))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
