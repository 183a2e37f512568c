#!/usr/bin/env python3
"""Generates Caldera's GL entry points, proc-address table and enum name table from the Khronos gl.xml.

Every command of desktop GL <= 4.6 core and GLES <= 3.2 gets an entry point, and every extension command the
extension table (extensions.txt, gen_extensions.py) resolves to one of them is exported under its own name.
Which ones are implemented is read from the frontend's headers, so adding `void Foo(Context& ctx, ...)` to `gl_impl.h` (and optionally a
`bool Foo(Context& ctx, ...)` to `validate.h`) is all it takes to wire a command: the entry point looks up the
current context, validates, and calls the implementation. A command with no implementation records
GL_INVALID_OPERATION and logs its name once, never crashes and never silently succeeds.
"""
import argparse
import re
import xml.etree.ElementTree as ET

import gen_extensions
from khronos_xml import declaration as text_of

DESKTOP_MAX = (4, 6)
ES_MAX = (3, 2)


def version_tuple(text):
    major, minor = text.split(".")
    return int(major), int(minor)


def collect_commands(root):
    """Names of commands in GL core <= 4.6 and GLES 2.0..3.2 (the union, in registry order)."""
    core, removed, es = set(), set(), set()
    for feature in root.findall("feature"):
        api = feature.get("api")
        number = version_tuple(feature.get("number"))
        if api == "gl" and number <= DESKTOP_MAX:
            for req in feature.findall("require"):
                if req.get("profile") in (None, "core"):
                    core.update(c.get("name") for c in req.findall("command"))
            for rem in feature.findall("remove"):
                if rem.get("profile") in (None, "core"):
                    removed.update(c.get("name") for c in rem.findall("command"))
        elif api == "gles2" and number <= ES_MAX:
            for req in feature.findall("require"):
                es.update(c.get("name") for c in req.findall("command"))
    return (core - removed) | es


def collect_compat_commands(root):
    """Commands of the compatibility profile only: every GL <= 3.3 command the core profile removed (glBegin,
    matrices, display lists...). Their entry points work in compatibility contexts (frontend/compat/) and
    record GL_INVALID_OPERATION in core and ES ones, as the core profile requires."""
    removed = set()
    for feature in root.findall("feature"):
        if feature.get("api") == "gl" and version_tuple(feature.get("number")) <= DESKTOP_MAX:
            for rem in feature.findall("remove"):
                if rem.get("profile") in (None, "core"):
                    removed.update(c.get("name") for c in rem.findall("command"))
    return removed


def collect_es1_commands(root, every=False):
    """OpenGL ES 1.1's commands that desktop GL lacks (glOrthof, glTranslatex, glGetFixedv...). They work in
    ES 1.1 contexts only (frontend/compat/es1_fixed.h); elsewhere they record GL_INVALID_OPERATION. With
    `every`, all of ES 1.1's commands: the others are refused in ES 1.1 contexts."""
    es1, desktop = set(), set()
    for feature in root.findall("feature"):
        names = {c.get("name") for req in feature.findall("require") for c in req.findall("command")}
        if feature.get("api") == "gles1":
            es1 |= names
        elif feature.get("api") == "gl":
            desktop |= names
    return es1 if every else es1 - desktop


CPP_RESERVED = {"near", "far", "near_", "far_", "string", "template", "class", "new", "delete", "index"}


class Command:
    def __init__(self, elem):
        self.ret, self.name = text_of(elem.find("proto"))
        self.params = []
        for p in elem.findall("param"):
            ctype, pname = text_of(p)
            if pname in CPP_RESERVED:
                pname = pname + "_"
            self.params.append((ctype, pname))
        self.short = self.name[2:]  # glDrawArrays -> DrawArrays

    def decl_params(self):
        if not self.params:
            return "void"
        return ", ".join(f"{t} {n}" for t, n in self.params)

    def call_args(self):
        return "".join(f", {n}" for _, n in self.params)


DECL_RE = re.compile(r"^\s*(?:[\w:<>]+[\s\*&]+)+?([A-Z]\w*)\s*\(\s*(?:Context|const Context)\s*&")


def declared_names(paths):
    names = set()
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = DECL_RE.match(line)
                if m:
                    names.add(m.group(1))
    return names


# After a context is lost (device loss), every command records GL_CONTEXT_LOST and has no side effect
# (GL 4.5 §2.3.1, GL_KHR_robustness) and returns 0 (glClientWaitSync: 0, never GL_TIMEOUT_EXPIRED, so a
# wait loop ends), except these, which answer so that error checks and polling loops end: they see the
# loss themselves (frontend/gl_robustness.cpp, gl_sync.cpp, gl_query.cpp).
LOST_CONTEXT_EXEMPT = {
    "GetError", "GetGraphicsResetStatus", "GetSynciv",
    "GetQueryObjectiv", "GetQueryObjectuiv", "GetQueryObjecti64v", "GetQueryObjectui64v",
}


# Draw-delta classes (src/api/entry_classes.txt, gen_entry_classes.py): what each class's entry bumps before
# it runs (draw_delta.h). `free` entries bump nothing.
CLASS_BUMPS = {"context": "false", "program": "true", "share": "true"}  # vao: BumpVaoEpoch


def read_classes(path):
    classes = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if len(line) == 2:
                classes[line[0]] = line[1]
    return classes


# Compatibility contexts (frontend/compat/hooks.h): commands allowed between glBegin and glEnd. Those of the
# first set only feed the vertex being built and never end a batch of vertices waiting to be drawn; those of the
# second change state a batched draw depends on (materials) or run lists, so outside glBegin/glEnd they draw the
# batch first, as every other command does.
BEGIN_END_ATTRIB_RE = re.compile(
    r"^(Vertex[234]|Color[34]|SecondaryColor3|Normal3|TexCoord[1-4]|MultiTexCoord[1-4]|EdgeFlagv?$|"
    r"Index(d|f|i|s|ub)v?$|FogCoord[df](EXT)?v?$|"
    r"EvalCoord|EvalPoint|VertexAttrib[1-4]|VertexAttribI[1-4]|VertexAttribP[1-4]|ArrayElement|End$)")
BEGIN_END_STATE_RE = re.compile(r"^(Material|CallList)")

# Display lists: which commands glNewList compiles rather than executes. Every compatibility-only command that
# returns nothing, except those GL executes immediately (client state, lists themselves, feedback and
# selection buffers, queries), and the core state commands listed here. A pointer parameter is copied at
# compile time: the element count comes from the command's name or, for the parameter-vector commands, from
# compat::ParamCount(pname). Commands whose pointed-to data has any other shape run immediately (a documented
# limitation: docs/CONFORMANCE.md).
NOT_LISTABLE = {
    "NewList", "EndList", "GenLists", "DeleteLists", "IsList", "FeedbackBuffer", "SelectBuffer", "RenderMode",
    "VertexPointer", "ColorPointer", "NormalPointer", "TexCoordPointer", "EdgeFlagPointer", "IndexPointer",
    "InterleavedArrays", "FogCoordPointer", "SecondaryColorPointer", "EnableClientState", "DisableClientState",
    "ClientActiveTexture", "PushClientAttrib", "PopClientAttrib", "CallLists", "ArrayElement",
    "PolygonStipple",  # compiles its own list entry: the bitmap is unpacked when the list is compiled
    "LockArraysEXT", "UnlockArraysEXT",  # client state (GL_EXT_compiled_vertex_array)
    "BindFramebufferEXT", "BindRenderbufferEXT",  # execute at once, as the core binds they stand for do
}
CORE_LISTABLE = {
    "DrawBuffer", "ReadBuffer", "TexParameterfv", "TexParameteriv", "TexImage1D", "TexImage2D", "TexImage3D",
    "TexSubImage1D", "TexSubImage2D", "TexSubImage3D",
    "Enable", "Disable", "BlendFunc", "BlendFuncSeparate", "BlendEquation", "BlendEquationSeparate",
    "BlendColor", "DepthFunc", "DepthMask", "DepthRange", "ColorMask", "CullFace", "FrontFace", "PolygonMode",
    "PolygonOffset", "LineWidth", "PointSize", "Scissor", "Viewport", "StencilFunc", "StencilOp", "StencilMask",
    "Clear", "ClearColor", "ClearDepth", "ClearStencil", "BindTexture", "ActiveTexture", "TexParameteri",
    "TexParameterf", "UseProgram", "Hint", "LogicOp", "Uniform1f", "Uniform2f", "Uniform3f", "Uniform4f",
    "Uniform1i", "VertexAttrib1f", "VertexAttrib2f", "VertexAttrib3f", "VertexAttrib4f", "PointParameterf",
    "PointParameteri", "PointParameterfv", "PointParameteriv",
}
FIXED_COUNT_RE = re.compile(
    r"^(Vertex|Color|SecondaryColor|TexCoord|MultiTexCoord|RasterPos|WindowPos|EvalCoord)([1-4])[a-z]+v$")
PNAME_COUNT_RE = re.compile(r"^(Material|Light|LightModel|Fog|TexEnv|TexGen|PointParameter|TexParameter)[ifd]v$")
# Commands that read an image under the unpack state: a list keeps the bytes and the unpack state of compile
# time (compat::SnapshotUnpack), and runs the command under them. Values: the extent parameters.
IMAGE_COMMANDS = {
    "TexImage1D": ("width", "1", "1"), "TexImage2D": ("width", "height", "1"),
    "TexImage3D": ("width", "height", "depth"), "TexSubImage1D": ("width", "1", "1"),
    "TexSubImage2D": ("width", "height", "1"), "TexSubImage3D": ("width", "height", "depth"),
}
# Commands whose implementation compiles itself into a list (it converts what it reads first: pixel
# rectangles, draws read from the arrays, pixel maps). Met between glBegin and glEnd under
# GL_COMPILE_AND_EXECUTE they fail at once; the list keeps a call that fails the same way when it runs.
SELF_COMPILED = {
    "Bitmap", "DrawPixels", "PolygonStipple", "DrawArrays", "DrawElements", "DrawRangeElements",
    "PixelMapfv", "PixelMapuiv", "PixelMapusv", "Map1f", "Map1d", "Map2f", "Map2d",
}


def pointer_copy(cmd, ctype, pname):
    """How a list copies pointer parameter `pname`: (element type, count expression), or None."""
    elem = ctype.replace("const", "").replace("*", "").strip()
    short = cmd.short
    if m := FIXED_COUNT_RE.match(short):
        return elem, m.group(2)
    if re.match(r"^Normal3[a-z]+v$", short):
        return elem, "3"
    if re.match(r"^(Index|EdgeFlag|FogCoord)[a-z]*v$", short):
        return elem, "1"
    if re.match(r"^Rect[sifd]v$", short):
        return elem, "2"
    if re.match(r"^(Load|Mult)(Transpose)?Matrix[fd]$", short):
        return elem, "16"
    if short == "ClipPlane":
        return elem, "4"
    if PNAME_COUNT_RE.match(short):
        return elem, "compat::ParamCount(pname)"
    return None


def list_capture(cmd, compat_only):
    """The C++ that copies pointer parameters and the argument list the recorded call passes, or None when
    the command is never compiled into a display list."""
    if cmd.ret != "void" or cmd.short in NOT_LISTABLE:
        return None
    if not compat_only and cmd.short not in CORE_LISTABLE:
        return None
    copies, args = [], []
    if cmd.short in IMAGE_COMMANDS:
        w, h, d = IMAGE_COMMANDS[cmd.short]
        three_d = "true" if cmd.short.endswith("3D") else "false"
        copies.append(f"      auto snapshot = compat::SnapshotUnpack(*ctx, format, type, {w}, {h}, {d}, {three_d}, "
                      f"pixels);\n")
        args = [pname if "*" not in ctype else "image" for ctype, pname in cmd.params]
        return "".join(copies), args
    for ctype, pname in cmd.params:
        if "*" not in ctype:
            args.append(pname)
            continue
        how = pointer_copy(cmd, ctype, pname)
        if how is None:
            return None
        elem, count = how
        copies.append(f"      std::array<{elem}, 16> copy_{pname}{{}};\n"
                      f"      if ({pname}) std::copy_n({pname}, std::min<size_t>({count}, 16), copy_{pname}.begin());\n")
        args.append(f"{pname} ? copy_{pname}.data() : nullptr")
    return "".join(copies), args


def write_entrypoints(out, commands, implemented, validated, extension_aliases, classes,
                      compat_only=frozenset(), es1_only=frozenset(), es1_commands=frozenset()):
    w = out.write
    w("// Generated by src/api/gen_gl_api.py from gl.xml. Do not edit.\n")
    w('#include <algorithm>\n#include <array>\n\n')
    w('#include "api/gl_entry_support.h"\n#include "frontend/compat/compat_impl.h"\n'
      '#include "frontend/compat/hooks.h"\n#include "frontend/gl_impl.h"\n#include "frontend/texture_proxy.h"\n'
      '#include "frontend/validate.h"\n\n')
    w("namespace caldera::api {\nnamespace {\n\n")
    missing = [cmd.name for cmd in commands if cmd.name not in classes]
    missing += [alias for alias in extension_aliases if alias not in classes]
    if missing:
        raise SystemExit(f"entries without a draw-delta class (regenerate src/api/entry_classes.txt): {missing}")
    entry_ids = {cmd.name: i for i, cmd in enumerate(commands)}
    for cmd in commands:
        ret = cmd.ret
        is_void = ret == "void"
        w(f"{ret} APIENTRY ep_{cmd.name}({cmd.decl_params()}) {{\n")
        w("  Context* ctx = CurrentContextFast();\n")
        fail = "return;" if is_void else "return {};"
        w(f'  if (!ctx) [[unlikely]] {{\n    NoCurrentContext("{cmd.name}");\n    {fail}\n  }}\n')
        if cmd.short not in LOST_CONTEXT_EXEMPT:
            w(f'  if (ctx->lost()) [[unlikely]] {{\n    LostContext(*ctx, "{cmd.name}");\n    {fail}\n  }}\n')
        if cmd.name in compat_only:
            w(f'  if (!ctx->IsCompat()) [[unlikely]] {{\n    CompatibilityOnly(*ctx, "{cmd.name}");\n    {fail}\n  }}\n')
        if cmd.name in es1_only:
            w(f'  if (!ctx->IsES1()) [[unlikely]] {{\n    ES1Only(*ctx, "{cmd.name}");\n    {fail}\n  }}\n')
        if cmd.short in implemented and cmd.short not in ("GetError",):
            capture = list_capture(cmd, cmd.name in compat_only)
            w("  if (ctx->compat_hooks) [[unlikely]] {\n")
            if capture is not None:
                copies, args = capture
                # A texture image of a proxy target runs at once, never in a list (GL 2.1 §5.4).
                proxy = (" && !ProxyBindTarget(target)"
                         if cmd.short in ("TexImage1D", "TexImage2D", "TexImage3D") else "")
                w(f"    if (compat::Compiling(*ctx){proxy}) {{\n")
                w(copies)
                lambda_args = ", ".join(args)
                if cmd.short in IMAGE_COMMANDS:
                    w(f"      compat::Record(*ctx, [=] {{\n"
                      f"        compat::RunWithUnpack(*snapshot, [&](const void* image) {{ ep_{cmd.name}({lambda_args}); }});\n"
                      f"      }});\n")
                else:
                    w(f"      compat::Record(*ctx, [=] {{ ep_{cmd.name}({lambda_args}); }});\n")
                w("      if (!compat::ExecutingWhileCompiling(*ctx)) return;\n    }\n")
            kind = ("compat::kBegin" if cmd.short == "Begin"
                    else "compat::kAttribute" if BEGIN_END_ATTRIB_RE.match(cmd.short)
                    else "compat::kBeginEndState" if BEGIN_END_STATE_RE.match(cmd.short) else "compat::kOther")
            if cmd.short in SELF_COMPILED:
                w(f'    if (compat::Compiling(*ctx) && compat::InBeginEnd(*ctx)) compat::RecordBeginEndError(*ctx, "{cmd.name}");\n')
            es1 = "true" if cmd.name in es1_commands else "false"
            w(f'    if (!compat::BeforeCommand(*ctx, "{cmd.name}", {kind}, {es1})) {fail}\n  }}\n')
        if cmd.short in implemented:
            cls = classes[cmd.name]
            if cls != "free":
                if cls == "vao":
                    w(f"  BumpVaoEpoch(*ctx, {entry_ids[cmd.name]});  // {cls}\n")
                else:
                    w(f"  BumpDrawEpochs(*ctx, {entry_ids[cmd.name]}, {CLASS_BUMPS[cls]});  // {cls}\n")
            if cmd.short in validated:
                w(f"  if (!validate::{cmd.short}(*ctx{cmd.call_args()})) {fail}\n")
            call = f"gl::{cmd.short}(*ctx{cmd.call_args()})"
            w(f"  {call};\n" if is_void else f"  return {call};\n")
        else:
            for _, n in cmd.params:
                w(f"  (void){n};\n")
            w(f'  Unimplemented(*ctx, "{cmd.name}");\n')
            if not is_void:
                w("  return {};\n")
        w("}\n\n")
    w("}  // namespace\n\n")
    w("extern const ProcEntry kGLProcTable[] = {\n")
    by_name = {cmd.name: cmd for cmd in commands}
    rows = [(cmd.name, cmd) for cmd in commands]
    # Extension names of core commands (src/api/extensions.txt): an advertised extension promises them.
    for alias, target in sorted(extension_aliases.items()):
        if target not in by_name:
            raise SystemExit(f"extension alias {alias} names {target}, which is not a generated command")
        rows.append((alias, by_name[target]))
    for name, cmd in sorted(rows, key=lambda r: r[0]):
        w(f'    {{"{name}", reinterpret_cast<void*>(&ep_{cmd.name}), '
          f'{"true" if cmd.short in implemented else "false"}, {entry_ids[cmd.name]}}},\n')
    w("};\n")
    w(f"extern const size_t kGLProcCount = {len(rows)};\n\n")
    w("}  // namespace caldera::api\n")


def write_enums(out, root):
    values = {}
    for enums in root.findall("enums"):
        if enums.get("type") == "bitmask":
            continue
        for e in enums.findall("enum"):
            api = e.get("api")
            if api not in (None, "gl", "gles2"):
                continue
            name, value = e.get("name"), e.get("value")
            try:
                v = int(value, 0)
            except (TypeError, ValueError):
                continue
            if v > 0xFFFFFFFF or v < 0:
                continue
            # Prefer core names (no vendor suffix) for reverse lookup.
            prev = values.get(v)
            if prev is None or (re.search(r"_(ARB|EXT|OES|NV|AMD|KHR|SGIX?|APPLE|ATI|IBM|INTEL|MESA|QCOM|ANGLE|IMG)$",
                                          prev) and not re.search(r"_[A-Z]{2,}$", name[-6:])):
                values[v] = name
    w = out.write
    w("// Generated by src/api/gen_gl_api.py from gl.xml. Do not edit.\n")
    w('#include "api/gl_enum_names.h"\n\nnamespace caldera::api {\n\n')
    w("extern const EnumName kGLEnumNames[] = {\n")
    for v in sorted(values):
        w(f'    {{0x{v:X}u, "{values[v]}"}},\n')
    w("};\n")
    w(f"extern const size_t kGLEnumNameCount = {len(values)};\n\n}}  // namespace caldera::api\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--xml", required=True)
    ap.add_argument("--impl", nargs="+", required=True, help="headers declaring gl:: implementations")
    ap.add_argument("--validate", nargs="+", required=True, help="headers declaring validate:: functions")
    ap.add_argument("--extensions", required=True, help="the extension table, src/api/extensions.txt")
    ap.add_argument("--classes", required=True, help="the draw-delta class table, src/api/entry_classes.txt")
    ap.add_argument("--out-entry", required=True)
    ap.add_argument("--out-enums", required=True)
    args = ap.parse_args()

    root = ET.parse(args.xml).getroot()
    wanted = collect_commands(root)
    compat_only = collect_compat_commands(root) - wanted
    es1_only = collect_es1_commands(root) - wanted - compat_only
    implemented = declared_names(args.impl)
    validated = declared_names(args.validate)
    rows = gen_extensions.resolve(args.extensions, root, wanted, implemented)
    # Extension commands with no core equivalent (glEGLImageTargetTexture2DOES...) get entry points too.
    own = {name for row in rows for name, target in row.entries.items() if name == target and name not in wanted}
    # Those of extensions only compatibility contexts advertise (glLockArraysEXT) are refused elsewhere as the
    # compatibility profile's own commands are.
    compat_only |= {name for row in rows if row.where == ("compat",) for name in row.entries if name in own}
    commands = [Command(c) for c in root.find("commands").findall("command")
                if c.find("proto").find("name").text in wanted | compat_only | es1_only | own]
    missing = sorted(v for v in validated if v not in implemented)
    if missing:
        raise SystemExit(f"validate:: functions without an implementation: {missing}")
    known = {c.short for c in commands}
    unknown = sorted(n for n in implemented if n not in known)
    if unknown:
        raise SystemExit(f"gl:: implementations that are not GL commands: {unknown}")

    extension_aliases = {}
    for row in rows:
        for name, target in row.entries.items():
            if name == target:
                continue
            if extension_aliases.setdefault(name, target) != target:
                raise SystemExit(f"{name} is served by both {extension_aliases[name]} and {target}")
    with open(args.out_entry, "w", encoding="utf-8") as f:
        write_entrypoints(f, commands, implemented, validated, extension_aliases, read_classes(args.classes),
                          compat_only, es1_only, collect_es1_commands(root, every=True))
    with open(args.out_enums, "w", encoding="utf-8") as f:
        write_enums(f, root)


if __name__ == "__main__":
    main()
