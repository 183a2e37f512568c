#!/usr/bin/env python3
"""Generates the context-state code and test data from src/frontend/state_table.txt (its header says what
each column means):

  gen_state_table.py --table state_table.txt --out-header H --out-source CPP --out-tests T

H / CPP (frontend): state_table::Read (glGet* of every row), CapField / MarkCapChanged (the enable caps),
and one inline setter per single-field row with a dirty group, which marks the group only on real change.
T (tests): one StateRow per row, with the call that changes it and the draw-time re-sends a change costs.
A malformed row stops the build with its line number.
"""
import argparse
import re
import sys

TYPES = {"bool": "kBool", "int": "kInt", "enum": "kInt", "float": "kFloat", "color": "kColor"}
CONTEXTS = ("all", "gl")
DIRTY_GROUPS = {"fixed": ["kDirtyFixedState"], "fixed+targets": ["kDirtyFixedState", "kDirtyRenderTargets"]}
FIELD = re.compile(r"^[a-z_]+(\[\d+\])?(\.[a-z_]+)?(\[\d+\])?$")
RANGE = re.compile(r"^(.*)\[(\d+):(\d+)\]$")


class Row:
    pass


def fail(line_no, why):
    sys.exit(f"state_table.txt:{line_no}: {why}")


def expand_fields(text, line_no):
    fields = []
    for part in (p.strip() for p in text.split(",")):
        m = RANGE.match(part)
        names = [f"{m.group(1)}[{i}]" for i in range(int(m.group(2)), int(m.group(3)))] if m else [part]
        for name in names:
            if not FIELD.match(name):
                fail(line_no, f"'{name}' is not a GLState member expression")
            fields.append(name)
    return fields


def split_values(text):
    return [v.strip() for v in text.split(",") if v.strip()]


def parse(path):
    rows, seen = [], set()
    with open(path, encoding="utf-8") as f:
        for line_no, raw in enumerate(f, 1):
            line = raw.rstrip()
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            main, _, test = line.partition("|")
            # The field list may hold ", " between members: columns are the first three words, then the
            # fields up to the contexts word, then dirty and the default.
            words = main.split()
            if len(words) < 7:
                fail(line_no, "expected kind, pname, type, fields, contexts, dirty, default")
            r = Row()
            r.line = line_no
            r.kind, r.pname, r.type = words[0], words[1], words[2]
            ctx_at = next((i for i in range(3, len(words)) if words[i] in CONTEXTS), None)
            if ctx_at is None or ctx_at + 2 >= len(words):
                fail(line_no, "no contexts column (all | gl)")
            r.fields = expand_fields(" ".join(words[3:ctx_at]), line_no)
            r.contexts = words[ctx_at]
            r.dirty = words[ctx_at + 1]
            r.default = " ".join(words[ctx_at + 2:])
            if r.kind not in ("cap", "value"):
                fail(line_no, f"kind '{r.kind}' is neither cap nor value")
            if r.type not in TYPES:
                fail(line_no, f"type '{r.type}' is not one of {', '.join(TYPES)}")
            r.condition = None
            if r.dirty.startswith("fixed?"):
                r.condition = r.dirty[len("fixed?"):]
                if not FIELD.match(r.condition):
                    fail(line_no, f"condition '{r.condition}' is not a GLState member")
            elif r.dirty != "-" and r.dirty not in DIRTY_GROUPS:
                fail(line_no, f"dirty '{r.dirty}' is not -, fixed, fixed+targets or fixed?FIELD")
            r.defaults = [] if r.default == "-" else split_values(r.default)
            if r.defaults and len(r.defaults) != len(r.fields):
                fail(line_no, f"{len(r.defaults)} default values for {len(r.fields)} fields")
            if r.kind == "cap":
                if len(r.fields) != 1 or r.type != "bool" or test.strip():
                    fail(line_no, "a cap is one bool field, with no test call (the test toggles it)")
                r.call, r.values = None, [("0" if r.defaults == ["1"] else "1")]
            else:
                call, arrow, values = test.partition("->")
                if not arrow or not call.strip():
                    fail(line_no, "a value row needs '| call -> values'")
                r.call, r.values = call.strip(), split_values(values)
                if len(r.values) != len(r.fields):
                    fail(line_no, f"{len(r.values)} test values for {len(r.fields)} fields")
            if r.pname in seen:
                fail(line_no, f"{r.pname} has two rows")
            seen.add(r.pname)
            rows.append(r)
    return rows


def camel(pname):
    return "".join(w.capitalize() for w in pname[3:].split("_"))


def dirty_marks(r):
    if r.condition:
        return [f"if (ctx.state.{r.condition}) ctx.MarkDirty(kDirtyFixedState);"]
    return [f"ctx.MarkDirty({g});" for g in DIRTY_GROUPS.get(r.dirty, [])]


def has_setter(r):
    return r.kind == "value" and r.dirty != "-" and len(r.fields) == 1 and re.match(r"^[a-z_]+$", r.fields[0])


def context_test(r):
    return "" if r.contexts == "all" else "if (ctx.IsES()) return false;\n      "


def write_header(rows, path):
    out = ["// Generated by gen_state_table.py from state_table.txt: do not edit.", "#pragma once", "",
           "#include <cstdint>", "#include <type_traits>", "", '#include "frontend/context.h"', "",
           "namespace caldera::gl::state_table {", "",
           "enum class ValueKind : uint8_t { kInt, kFloat, kBool, kColor };  // kColor: normalised", "",
           "struct Reading {", "  ValueKind kind = ValueKind::kInt;", "  int count = 0;", "  double v[4] = {};",
           "};", "",
           "// glGet* of a table row: false when `pname` is no row of this context kind.",
           "bool Read(const Context& ctx, GLenum pname, Reading* out);",
           "// The GLState flag of an enable cap of this context kind, or null.",
           "bool* CapField(Context& ctx, GLenum cap);",
           "// Marks what a change of `cap` makes a draw re-send.",
           "void MarkCapChanged(Context& ctx, GLenum cap);",
           "// Test-only negative control (CALDERA_TEST_STATE_ALWAYS_DIRTY=1): the setters below mark their group",
           "// on every call, as if the compare were missing; gl_state_table must then fail.",
           "bool AlwaysDirty();", "",
           "// Setters of single-field rows: the row's dirty group is marked only when the value changes.", ""]
    for r in rows:
        if not has_setter(r):
            continue
        field = r.fields[0]
        out.append(f"inline void Set{camel(r.pname)}(Context& ctx, std::remove_cvref_t<decltype(GLState::{field})> value) {{")
        out.append(f"  if (ctx.state.{field} == value && !AlwaysDirty()) return;")
        out.append(f"  ctx.state.{field} = value;")
        out += ["  " + m for m in dirty_marks(r)]
        out.append("}")
    out += ["", "}  // namespace caldera::gl::state_table", ""]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out))


def write_source(rows, path, header_name):
    out = ["// Generated by gen_state_table.py from state_table.txt: do not edit.",
           f'#include "frontend/{header_name}"', "", '#include "util/log.h"', "",
           "namespace caldera::gl::state_table {", "",
           "bool AlwaysDirty() {",
           '  static const bool always = util::EnvFlag("CALDERA_TEST_STATE_ALWAYS_DIRTY", false);',
           "  return always;", "}", "",
           "bool Read(const Context& ctx, GLenum pname, Reading* out) {",
           "  const GLState& s = ctx.state;", "  switch (pname) {"]
    for r in rows:
        out.append(f"    case {r.pname}:")
        if r.contexts != "all":
            out.append("      if (ctx.IsES()) return false;")
        out.append(f"      out->kind = ValueKind::{TYPES[r.type]};")
        out.append(f"      out->count = {len(r.fields)};")
        for i, field in enumerate(r.fields):
            out.append(f"      out->v[{i}] = double(s.{field});")
        out.append("      return true;")
    out += ["    default:", "      return false;", "  }", "}", "",
            "bool* CapField(Context& ctx, GLenum cap) {", "  GLState& s = ctx.state;", "  switch (cap) {"]
    for r in rows:
        if r.kind != "cap":
            continue
        out.append(f"    case {r.pname}:")
        if r.contexts != "all":
            out.append("      if (ctx.IsES()) return nullptr;")
        out.append(f"      return &s.{r.fields[0]};")
    out += ["    default:", "      return nullptr;", "  }", "}", "",
            "void MarkCapChanged(Context& ctx, GLenum cap) {", "  switch (cap) {"]
    groups = {}
    for r in rows:
        if r.kind == "cap":
            groups.setdefault(tuple(dirty_marks(r)), []).append(r.pname)
    for marks, pnames in groups.items():
        out += [f"    case {p}:" for p in pnames]
        out += ["      " + m for m in marks] + ["      return;"]
    out += ["    default:", "      ctx.MarkDirty(kDirtyFixedState);  // not a table cap: assume a draw reads it",
            "      return;", "  }", "}", "", "}  // namespace caldera::gl::state_table", ""]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out))


def write_tests(rows, path):
    out = ["// Generated by gen_state_table.py from state_table.txt: do not edit. Test data for gl_state_table.",
           "#pragma once", "", "// Needs the GL prototypes (gl_harness.h) included first.", "",
           "namespace state_table_test {", "",
           "enum class Redraw { kNothing, kFixedState, kFixedStateWhileEnabled };", "",
           "struct StateRow {", "  const char* name;", "  GLenum pname;", "  bool cap;",
           "  bool es;            // also in ES 3 contexts",
           "  bool normalized;    // colour-like: integer getters map it to the full range",
           "  int count;", "  bool has_default;", "  double defaults[4];",
           "  void (*change)();   // sets the test value (cap rows: null, the test toggles them)",
           "  double values[4];   // what the change reads back",
           "  Redraw redraw;      // what a real change makes the next draw re-send", "};", ""]
    for r in rows:
        if r.call:
            out.append(f"inline void Change{camel(r.pname)}() {{ {r.call}; }}")
    out += ["", "inline const StateRow kRows[] = {"]
    for r in rows:
        redraw = ("Redraw::kFixedStateWhileEnabled" if r.condition
                  else "Redraw::kNothing" if r.dirty == "-" else "Redraw::kFixedState")

        def arr(values):
            return "{" + ", ".join(f"double({v.rstrip('f')})" if v.endswith("f") else f"double({v})"
                                   for v in values) + "}"
        change = f"Change{camel(r.pname)}" if r.call else "nullptr"
        out.append(f'    {{"{r.pname}", {r.pname}, {str(r.kind == "cap").lower()}, '
                   f'{str(r.contexts == "all").lower()}, {str(r.type == "color").lower()}, {len(r.fields)}, '
                   f'{str(bool(r.defaults)).lower()}, {arr(r.defaults) if r.defaults else "{}"}, {change}, '
                   f'{arr(r.values)}, {redraw}}},')
    out += ["};", "", "}  // namespace state_table_test", ""]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--table", required=True)
    ap.add_argument("--out-header", required=True)
    ap.add_argument("--out-source", required=True)
    ap.add_argument("--out-tests", required=True)
    args = ap.parse_args()
    rows = parse(args.table)
    write_header(rows, args.out_header)
    write_source(rows, args.out_source, args.out_header.rsplit("/", 1)[-1])
    write_tests(rows, args.out_tests)


if __name__ == "__main__":
    main()
