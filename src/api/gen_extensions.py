#!/usr/bin/env python3
"""Caldera's extension table (src/api/extensions.txt): reading it, resolving each row's entry points against
gl.xml and the frontend's implementations, and writing what is generated from it.

Generated:
  --out-frontend  the advertised rows per context kind and capability condition (frontend/gl_get.cpp)
  --out-tests     every advertised extension's entry points and GLSL directives (tests/.../gl_extensions.cpp)
  --out-doc       docs/EXTENSIONS.md (checked in; the extensions-table test fails when it is stale)
gen_gl_api.py imports `resolve` to export the extension entry points beside the core ones.
"""
import argparse
import os
import sys
import xml.etree.ElementTree as ET

# "compat": desktop compatibility contexts only (extensions of the deprecated functionality: texture
# environments, glWindowPos...); "gl" rows are advertised in compatibility contexts too.
# A row's `where` joins these with '+' (gl+es, es+compat), or is "exported".
KINDS = ("gl", "es", "compat")
# Each condition: its enum, and the pipe::BackendCaps test that makes it hold (ConditionBits is generated
# from these, so a new condition is one line here).
CONDITIONS = {"-": ("kNone", None),
              "timer": ("kTimer", "caps.timestamp_bits > 0"),
              "xfb-draw": ("kXfbDraw", "caps.draw_transform_feedback"),
              "anisotropy": ("kAnisotropy", "caps.max_anisotropy > 0.0f"),
              "srgb-decode": ("kSrgbDecode", "caps.srgb_decode"),
              "norm16": ("kNorm16", "caps.norm16"),
              "robust-access": ("kRobustAccess", "caps.robust_buffer_access")}
# Extensions of the Khronos registries that gl.xml does not carry (it lists only extensions with enums or
# commands, or that someone entered): the APIs they are defined for. They bring no commands.
OUTSIDE_GL_XML = {"GL_OES_EGL_sync": {"gles2"}}
# Extensions Mesa lists in contexts gl.xml defines them for no API of, so programs test for them there too:
# the APIs added to gl.xml's (GL_OES_EGL_image in desktop contexts, as Mesa's core and compatibility lists).
LISTED_BEYOND_GL_XML = {"GL_OES_EGL_image": {"gl", "glcore"}}
# gl.xml's API names for Caldera's context kinds (a desktop core context takes core-profile requires).
XML_API = {"gl": ("gl", "glcore"), "es": ("gles2",), "compat": ("gl",)}


class Row:
    def __init__(self, fields, line):
        (self.name, where, self.condition, glsl, entries, self.test, self.note) = fields
        kinds = () if where == "exported" else tuple(where.split("+"))
        if not all(k in KINDS for k in kinds) or len(set(kinds)) != len(kinds):
            raise SystemExit(f"extensions.txt:{line}: unknown 'where' {where!r}")
        if self.condition not in CONDITIONS:
            raise SystemExit(f"extensions.txt:{line}: unknown condition {self.condition!r}")
        if glsl not in ("-", "directive"):
            raise SystemExit(f"extensions.txt:{line}: glsl column must be '-' or 'directive'")
        self.where = kinds
        self.where_text = where
        self.glsl = glsl == "directive"
        self.overrides = {}
        if entries != "-":
            for pair in entries.split():
                name, _, target = pair.partition("=")
                if not target:
                    raise SystemExit(f"extensions.txt:{line}: entry {pair!r} is not NAME=TARGET")
                self.overrides[name] = target
        self.entries = {}  # exported name -> core command serving it (filled by resolve)
        self.pointer_entries = set()  # those of `entries` taking a pointer parameter


def read_table(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = [c.strip() for c in line.split("|")]
            if len(fields) != 7:
                raise SystemExit(f"{path}:{number}: expected 7 columns, got {len(fields)}")
            rows.append(Row(fields, number))
    names = [r.name for r in rows]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise SystemExit(f"{path}: extensions listed twice: {dupes}")
    return rows


def xml_extensions(root):
    """name -> (supported APIs, [(api, profile, [commands])])"""
    out = {}
    for ext in root.find("extensions").findall("extension"):
        requires = [(r.get("api"), r.get("profile"), [c.get("name") for c in r.findall("command")])
                    for r in ext.findall("require")]
        out[ext.get("name")] = (set((ext.get("supported") or "").split("|")), requires)
    return out


def pointer_commands(root):
    """Commands with a pointer parameter: the extension test resolves them but does not call them with zeros in
    compatibility contexts, whose vector forms (glWindowPos2dv, glMultiTexCoord1fv...) read through the
    pointer without a check on every implementation."""
    out = set()
    for cmd in root.find("commands").findall("command"):
        if any("*" in "".join(p.itertext()) for p in cmd.findall("param")):
            out.add(cmd.find("proto").find("name").text)
    return out


def xml_aliases(root):
    aliases = {}
    for cmd in root.find("commands").findall("command"):
        alias = cmd.find("alias")
        name = cmd.find("proto").find("name").text
        aliases[name] = alias.get("name") if alias is not None else None
    return aliases


def required_commands(row, requires):
    """The commands the extension brings into the context kinds `row` is advertised in."""
    wanted = []
    for kind in row.where:
        for api, profile, commands in requires:
            if api is not None and api not in XML_API[kind]:
                continue
            if kind == "gl" and profile == "compatibility":
                continue
            wanted.extend(c for c in commands if c not in wanted)
    return wanted


def resolve(table_path, root, core_commands, implemented):
    """Reads the table and fills each row's entries; exits with every problem found (the build fails).
    Rows of compatibility contexts may resolve to the compatibility profile's commands too."""
    import gen_gl_api  # noqa: E402 (imports this module: late)

    compat_commands = gen_gl_api.collect_compat_commands(root) - set(core_commands)
    with_pointers = pointer_commands(root)
    rows = read_table(table_path)
    extensions = xml_extensions(root)
    aliases = xml_aliases(root)
    errors = []
    for row in rows:
        if row.name in OUTSIDE_GL_XML:
            supported, requires = OUTSIDE_GL_XML[row.name], []
        elif row.name not in extensions:
            errors.append(f"{row.name}: not an extension in gl.xml")
            continue
        else:
            supported, requires = extensions[row.name]
        supported = supported | LISTED_BEYOND_GL_XML.get(row.name, set())
        for kind in row.where:
            if not supported & set(XML_API[kind]):
                errors.append(f"{row.name}: gl.xml does not define it for {kind} (supported: {sorted(supported)})")
        names = list(row.overrides) + [c for c in required_commands(row, requires) if c not in row.overrides]
        commands = set(core_commands) | (compat_commands if "compat" in row.where else set())
        for name in names:
            if name not in aliases:
                errors.append(f"{row.name}: {name} is not a command in gl.xml")
                continue
            if name in row.overrides:
                target = row.overrides[name]
            elif name in commands:
                target = name
            elif aliases[name] is None and name[2:] in implemented:
                # A command of the extension's own (no core equivalent), implemented under its own name:
                # gen_gl_api.py generates its entry point beside the core ones.
                row.entries[name] = name
                continue
            else:
                target = aliases[name]
                if target is None:
                    errors.append(f"{row.name}: {name} has no alias in gl.xml; name its core command (NAME=TARGET)")
                    continue
            if target not in commands:
                errors.append(f"{row.name}: {name} resolves to {target}, which is not a core command")
            elif target[2:] not in implemented:
                errors.append(f"{row.name}: advertised, but {target} (for {name}) is not implemented")
            else:
                row.entries[name] = target
        row.pointer_entries = {name for name in row.entries if name in with_pointers}
    if errors:
        raise SystemExit("extension table problems:\n  " + "\n  ".join(errors))
    return rows


def write_frontend(out, rows):
    w = out.write
    w("// Generated by src/api/gen_extensions.py from src/api/extensions.txt. Do not edit.\n#pragma once\n\n")
    w("#include <cstdint>\n\nnamespace caldera::gl::extensions {\n\n")
    w("enum class Condition : uint8_t { " + ", ".join(v[0] for v in CONDITIONS.values()) + " };\n")
    w(f"inline constexpr unsigned kConditionCount = {len(CONDITIONS) - 1};  // kNone aside\n\n")
    w("// Bit i: the device (its pipe::BackendCaps) has Condition(i + 1).\n")
    w("template <typename Caps>\nconstexpr unsigned ConditionBits(const Caps& caps) {\n  return 0u")
    for bit, (_, test) in enumerate(v for k, v in CONDITIONS.items() if k != "-"):
        w(f" |\n         ({test} ? {1 << bit}u : 0u)")
    w(";\n}\n\n")
    w("// `compat`: advertised in desktop compatibility contexts only (which advertise the desktop rows too).\n")
    w("struct Advertised {\n  const char* name;\n  bool desktop;\n  bool es;\n  bool compat;\n"
      "  Condition condition;\n};\n\n")
    w("inline constexpr Advertised kAdvertised[] = {\n")
    for row in sorted((r for r in rows if r.where), key=lambda r: r.name):
        w(f'    {{"{row.name}", {str("gl" in row.where).lower()}, {str("es" in row.where).lower()}, '
          f'{str("compat" in row.where).lower()}, Condition::{CONDITIONS[row.condition][0]}}},\n')
    w("};\n\n}  // namespace caldera::gl::extensions\n")


def write_tests(out, rows):
    w = out.write
    w("// Generated by src/api/gen_extensions.py from src/api/extensions.txt. Do not edit.\n#pragma once\n\n")
    w("namespace extension_table {\n\n")
    w("// `compat`: the row is advertised in desktop compatibility contexts only.\n")
    w("// `pointers`: the command takes a pointer parameter.\n")
    w("struct Entry {\n  const char* extension;\n  bool desktop;\n  bool es;\n  bool compat;\n"
      "  const char* command;\n  const char* target;\n  bool pointers;\n};\n\n")
    w("inline constexpr Entry kEntries[] = {\n")
    for row in rows:
        for name, target in sorted(row.entries.items()):
            w(f'    {{"{row.name}", {str("gl" in row.where).lower()}, {str("es" in row.where).lower()}, '
              f'{str("compat" in row.where).lower()}, "{name}", "{target}", '
              f'{str(name in row.pointer_entries).lower()}}},\n')
    w("};\n\n")
    w("struct Directive {\n  const char* extension;\n  bool desktop;\n  bool es;\n};\n\n")
    w("inline constexpr Directive kDirectives[] = {\n")
    for row in rows:
        if row.glsl:
            w(f'    {{"{row.name}", {str("gl" in row.where).lower()}, {str("es" in row.where).lower()}}},\n')
    w("};\n\n")
    w("struct Conditional {\n  const char* extension;\n  const char* condition;\n};\n\n")
    w("// Advertised only where the device has the capability: the tests accept their absence.\n")
    w("inline constexpr Conditional kConditional[] = {\n")
    for row in rows:
        if row.where and row.condition != "-":
            w(f'    {{"{row.name}", "{row.condition}"}},\n')
    w("};\n\n")
    w("inline constexpr const char* kAdvertisedDesktop[] = {\n")
    for row in sorted(rows, key=lambda r: r.name):
        if "gl" in row.where:
            w(f'    "{row.name}",\n')
    w("};\n\n// Advertised in compatibility contexts beside kAdvertisedDesktop (and GL_ARB_compatibility).\n")
    w("inline constexpr const char* kAdvertisedCompat[] = {\n")
    for row in sorted(rows, key=lambda r: r.name):
        if "compat" in row.where:
            w(f'    "{row.name}",\n')
    w("};\n\ninline constexpr const char* kAdvertisedES[] = {\n")
    for row in sorted(rows, key=lambda r: r.name):
        if "es" in row.where:
            w(f'    "{row.name}",\n')
    w("};\n\n}  // namespace extension_table\n")


def write_doc(out, rows, counts_path):
    w = out.write
    w("# Extensions\n\n")
    w("<!-- Generated by src/api/gen_extensions.py from src/api/extensions.txt and docs/extension-counts.md."
      " Do not edit: edit the table, then run\n     src/api/gen_extensions.py --table src/api/extensions.txt --xml /usr/share/khronos-api/gl.xml"
      " --impl src/frontend/gl_impl.h --counts docs/extension-counts.md --out-doc docs/EXTENSIONS.md -->\n\n")
    w("Caldera advertises an extension only when its functionality is there. `src/api/extensions.txt` is the one\n"
      "source: the generator builds the `GL_EXTENSIONS` lists of each context kind from it, exports each\n"
      "advertised extension's entry points (as gl.xml resolves them to core commands, or as the table names),\n"
      "and fails the build when an advertised extension's entry point is not implemented. Test\n"
      "`gl_extensions-*` (Caldera on Vulkan and on the GLES backend, and Mesa llvmpipe with the same binary)\n"
      "resolves every entry point of every advertised extension through `eglGetProcAddress` in desktop core,\n"
      "desktop compatibility, ES 2.0 and ES 3.0 contexts, calls it with invalid arguments (in compatibility\n"
      "contexts only the commands without pointer parameters) and fails on the \"not implemented\" marker;\n"
      "test `extensions-table` checks the table against gl.xml and this page against the table.\n\n")
    if counts_path and os.path.exists(counts_path):
        with open(counts_path, encoding="utf-8") as f:
            w(f.read().rstrip() + "\n\n")
    for title, kinds in (("Desktop GL (3.3 core and compatibility contexts)", "gl"),
                         ("Desktop GL compatibility contexts only", "compat"),
                         ("OpenGL ES (ES 2.0 and 3.0 contexts)", "es")):
        w(f"## {title}\n\n| Extension | Condition | Entry points (→ core command) | Test | Note |\n|---|---|---|---|---|\n")
        for row in sorted((r for r in rows if kinds in r.where), key=lambda r: r.name):
            entries = ", ".join(n if n == t else f"{n} → {t}" for n, t in sorted(row.entries.items())
                                if n != t) or "—"
            cond = "—" if row.condition == "-" else row.condition
            w(f"| {row.name} | {cond} | {entries} | `{row.test}` | {row.note} |\n")
        w("\n")
    w("## Exported, not advertised\n\n| Extension | Entry points | Test | Note |\n|---|---|---|---|\n")
    for row in (r for r in rows if not r.where):
        entries = ", ".join(f"{n} → {t}" for n, t in sorted(row.entries.items()))
        w(f"| {row.name} | {entries} | `{row.test}` | {row.note} |\n")
    w("\nLeft out (listed by Mesa llvmpipe, but not implemented by Caldera): see the comment at the top of\n"
      "`src/api/extensions.txt`.\n")


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import gen_gl_api  # noqa: E402 (shares the command set and the implementation scan)

    ap = argparse.ArgumentParser()
    ap.add_argument("--table", required=True)
    ap.add_argument("--xml", required=True)
    ap.add_argument("--impl", nargs="+", required=True)
    ap.add_argument("--out-frontend")
    ap.add_argument("--out-tests")
    ap.add_argument("--out-doc")
    ap.add_argument("--counts", help="markdown with the measured counts, included in the doc")
    ap.add_argument("--check-doc", help="fail unless this file equals the generated doc")
    ap.add_argument("--tests-json", help="meson-info/intro-tests.json: every row's test must be one of them")
    args = ap.parse_args()

    root = ET.parse(args.xml).getroot()
    rows = resolve(args.table, root, gen_gl_api.collect_commands(root), gen_gl_api.declared_names(args.impl))
    if args.out_frontend:
        with open(args.out_frontend, "w", encoding="utf-8") as f:
            write_frontend(f, rows)
    if args.out_tests:
        with open(args.out_tests, "w", encoding="utf-8") as f:
            write_tests(f, rows)
    if args.out_doc:
        with open(args.out_doc, "w", encoding="utf-8") as f:
            write_doc(f, rows, args.counts)
    if args.tests_json:
        import json
        with open(args.tests_json, encoding="utf-8") as f:
            known = {t["name"] for t in json.load(f)}
        unknown = [f"{r.name}: {r.test}" for r in rows if r.test not in known]
        if unknown:
            raise SystemExit("rows naming tests that do not exist:\n  " + "\n  ".join(unknown))
    if args.check_doc:
        import io
        buf = io.StringIO()
        write_doc(buf, rows, args.counts)
        with open(args.check_doc, encoding="utf-8") as f:
            if f.read() != buf.getvalue():
                raise SystemExit(f"{args.check_doc} is stale: regenerate it from src/api/extensions.txt")
        print(f"{len(rows)} rows resolve against gl.xml; {args.check_doc} is current")


if __name__ == "__main__":
    main()
