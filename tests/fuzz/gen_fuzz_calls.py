#!/usr/bin/env python3
"""Generates the API fuzzer's call table from the Khronos gl.xml.

For every command of desktop GL <= 3.3 core or GLES <= 3.0 that Caldera implements (the same rule the entry
point generator uses: a `gl::Name(Context&, ...)` declaration in frontend/gl_impl.h), this emits one C++
function that draws each argument from a distribution chosen by the parameter's type, its `group` (enum
values of that group plus stray ones), its `class` (names of that object kind: live, deleted, or never
generated) and its `len` (client memory exactly as large as the call may access, ending at a guard page),
then calls the command through the pointer eglGetProcAddress gave, and checks the error it left.

The argument rules for the few commands whose memory footprint the registry does not describe are in
SPECIAL_POINTERS below; commands left out altogether are in SKIPPED with the reason.
"""
import argparse
import os
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src", "api"))
import gen_gl_api  # noqa: E402  (the entry point generator: command list rules and gl_impl.h parsing)

GL_MAX = (3, 3)
ES_MAX = (3, 0)

# Commands the fuzzer never calls, and why. Everything else of GL <= 3.3 core / ES 3.0 that Caldera
# implements is fuzzed.
SKIPPED = {
    # The state it would read (a mapped pointer) is only valid between map and unmap; the fuzzer writes
    # through glMapBufferRange's result instead, where the length is known.
    "glMapBuffer": "result has no length the fuzzer knows; glMapBufferRange covers mapping",
    # The compressed image size depends on the texture's format and size, which only the implementation
    # under test could tell us; asking it would make the buffer size depend on the thing being tested.
    "glGetCompressedTexImage": "client memory size depends on texture state the fuzzer does not track",
}

# Which object pool a `class` attribute names.
CLASS_KIND = {
    "buffer": "kBuffer", "texture": "kTexture", "framebuffer": "kFramebuffer", "renderbuffer": "kRenderbuffer",
    "vertex array": "kVertexArray", "query": "kQuery", "sampler": "kSampler",
    "transform feedback": "kTransformFeedback", "program": "kProgram", "shader": "kShader",
}

# Object kinds whose deleted names must read back as "not an object" through glIsX right after deletion
# (programs and shaders are exempt: their deletion is deferred while attached or in use).
IS_AFTER_DELETE = {
    "kBuffer": "glIsBuffer", "kTexture": "glIsTexture", "kFramebuffer": "glIsFramebuffer",
    "kRenderbuffer": "glIsRenderbuffer", "kVertexArray": "glIsVertexArray", "kQuery": "glIsQuery",
    "kSampler": "glIsSampler", "kTransformFeedback": "glIsTransformFeedback",
}

# Parameters whose registry entry lacks a class but which name objects.
NAME_PARAMS = {("glBeginConditionalRender", "id"): "kQuery"}

ELEM_SIZE = {
    "GLboolean": 1, "GLbyte": 1, "GLubyte": 1, "GLchar": 1, "GLshort": 2, "GLushort": 2, "GLint": 4,
    "GLuint": 4, "GLenum": 4, "GLsizei": 4, "GLfloat": 4, "GLint64": 8, "GLuint64": 8, "GLdouble": 8,
    "void": 1,
}

# Element counts for outputs the registry sizes with COMPSIZE of the enum that selects what is returned:
# a generous bound (the largest GL 3.3 query returns a list of formats, well under this).
GETTER_ELEMENTS = 1024
# Bound on texture images the fuzzer can create (the dimension distribution in fuzz_support.cpp keeps every
# successful width/height at or below 128 and every depth/layer count at or below 8).
TEX_MAX = (128, 128, 8)

# Commands whose pointer arguments have footprints the registry cannot express; C++ expressions per
# parameter (other parameters are in scope by name, `f` is the fuzzer).
SPECIAL_POINTERS = {
    ("glShaderSource", "string_"): "f.SourceStrings(count)",
    ("glShaderSource", "length"): "f.SourceLengths(count)",
    ("glTransformFeedbackVaryings", "varyings"): "f.NameStrings(count)",
    ("glGetUniformIndices", "uniformNames"): "f.NameStrings(uniformCount)",
    ("glVertexAttribPointer", "pointer"): "f.AttribOffset()",
    ("glVertexAttribIPointer", "pointer"): "f.AttribOffset()",
    ("glDrawElements", "indices"): "f.ElementOffset()",
    ("glDrawElementsInstanced", "indices"): "f.ElementOffset()",
    ("glDrawRangeElements", "indices"): "f.ElementOffset()",
    ("glDrawElementsBaseVertex", "indices"): "f.ElementOffset()",
    ("glDrawRangeElementsBaseVertex", "indices"): "f.ElementOffset()",
    ("glDrawElementsInstancedBaseVertex", "indices"): "f.ElementOffset()",
    ("glMultiDrawElements", "indices"): "f.IndexOffsets(drawcount)",
    ("glMultiDrawElementsBaseVertex", "indices"): "f.IndexOffsets(drawcount)",
    ("glMultiDrawArrays", "first"): "f.DrawValues(drawcount, DrawValue::kFirst)",
    ("glMultiDrawArrays", "count"): "f.DrawValues(drawcount, DrawValue::kCount)",
    ("glMultiDrawElements", "count"): "f.DrawValues(drawcount, DrawValue::kCount)",
    ("glMultiDrawElementsBaseVertex", "count"): "f.DrawValues(drawcount, DrawValue::kCount)",
    ("glMultiDrawElementsBaseVertex", "basevertex"): "f.DrawValues(drawcount, DrawValue::kFirst)",
    ("glGetTexImage", "pixels"): f"f.PixelsOut(format, type, {TEX_MAX[0]}, {TEX_MAX[1]}, {TEX_MAX[2]})",
    ("glReadPixels", "pixels"): "f.PixelsOut(format, type, width, height, 1)",
    ("glBufferData", "data"): "f.BytesOrNull(size)",
}

# Argument adjustments before the call (C++ statements).
FIXUPS = {
    "glClientWaitSync": ["f.AdjustWait(&flags, timeout);"],
    "glViewport": ["f.AvoidHugeViewport(&x, &y);"],
}

# Scalars that size a client array: their distribution stays within what the fuzzer's arenas hold.
INDICES_LEN = "COMPSIZE(count,type)"


def version_tuple(text):
    major, minor = text.split(".")
    return int(major), int(minor)


def wanted_commands(root):
    """Commands of GL <= 3.3 core and of GLES <= 3.0: name -> (in GL, in ES)."""
    gl, removed, es = set(), set(), set()
    for feature in root.findall("feature"):
        api, number = feature.get("api"), version_tuple(feature.get("number"))
        if api == "gl" and number <= GL_MAX:
            for req in feature.findall("require"):
                if req.get("profile") in (None, "core"):
                    gl.update(c.get("name") for c in req.findall("command"))
            for rem in feature.findall("remove"):
                if rem.get("profile") in (None, "core"):
                    removed.update(c.get("name") for c in rem.findall("command"))
        elif api == "gles2" and number <= ES_MAX:
            for req in feature.findall("require"):
                es.update(c.get("name") for c in req.findall("command"))
    gl -= removed
    return {name: (name in gl, name in es) for name in gl | es}


def enum_groups(root):
    groups, everything = {}, set()
    for enums in root.findall("enums"):
        for e in enums.findall("enum"):
            if e.get("api") not in (None, "gl", "gles2"):
                continue
            try:
                v = int(e.get("value"), 0)
            except (TypeError, ValueError):
                continue
            if v < 0 or v > 0xFFFFFFFF:
                continue
            if enums.get("type") != "bitmask":
                everything.add(v)
            for g in (e.get("group") or "").split(","):
                if g:
                    groups.setdefault(g, set()).add(v)
    return groups, everything


def base_type(ctype):
    """'const GLuint *' -> ('GLuint', 1 pointer level, const?)."""
    stars = ctype.count("*")
    core = ctype.replace("const", "").replace("*", "").strip()
    return core, stars, ctype.strip().startswith("const")


def scalar_category(cmd, pname, ctype, group, sized_by):
    """The Fuzzer call producing a scalar argument."""
    n = pname.rstrip("_")
    # GLint parameters with an enum group (internalformat, texture parameter values) take enums too.
    takes_enum = ctype == "GLenum" or (ctype == "GLint" and group not in (None, "CheckedInt32", "DrawBufferName"))
    if takes_enum:
        return f"static_cast<{ctype}>(f.Enum(kGroup_{group}))" if group else f"static_cast<{ctype}>(f.Enum(kNoGroup))"
    if ctype == "GLbitfield":
        return f"f.Bits(kGroup_{group})" if group else "f.Bits(kNoGroup)"
    if ctype == "GLboolean":
        return "f.Bool()"
    if ctype in ("GLfloat", "GLdouble"):
        return f"static_cast<{ctype}>(f.Float())"
    if ctype in ("GLshort", "GLushort", "GLbyte", "GLubyte"):
        return f"static_cast<{ctype}>(f.Next())"
    if ctype == "GLuint64":
        return "f.Timeout()" if n == "timeout" else "static_cast<GLuint64>(f.Next())"
    if ctype == "GLint64":
        return "static_cast<GLint64>(f.Next())"
    if sized_by:
        return f"static_cast<{ctype}>(f.Int(Cat::kArrayLength))"
    if ctype == "GLsizeiptr":
        return "static_cast<GLsizeiptr>(f.Int64(Cat64::kSize))"
    if ctype == "GLintptr":
        return "static_cast<GLintptr>(f.Int64(Cat64::kOffset))"
    if cmd.startswith(("glDraw", "glMultiDraw")):
        if n in ("count", "instancecount", "primcount"):
            return f"static_cast<{ctype}>(f.Int(Cat::kDrawCount))"
        if n in ("first", "basevertex", "start", "end"):
            return f"static_cast<{ctype}>(f.Int(Cat::kDrawFirst))"
    if n in ("width", "height"):
        return f"static_cast<{ctype}>(f.Int(Cat::kDim))"
    if n == "depth":
        return f"static_cast<{ctype}>(f.Int(Cat::kLayers))"
    if n in ("level", "samples", "border", "levels"):
        return f"static_cast<{ctype}>(f.Int(Cat::kLevel))"
    if n in ("x", "y", "z", "xoffset", "yoffset", "zoffset", "srcX0", "srcY0", "srcX1", "srcY1", "dstX0",
             "dstY0", "dstX1", "dstY1", "layer", "ref", "units", "param"):
        return f"static_cast<{ctype}>(f.Int(Cat::kCoord))"
    if n in ("mask", "color", "sampleMask", "maskNumber"):
        return f"static_cast<{ctype}>(f.Next())"
    return f"static_cast<{ctype}>(f.Int(Cat::kIndex))"


def len_bytes(expr, elem, params):
    """C++ expression for the bytes a pointer with registry `len` expr may access, or None if unknown."""
    names = {n for _, n in params}
    if expr is None:
        return None
    if expr.isdigit():
        return f"int64_t{{{int(expr) * elem}}}"
    m = re.fullmatch(r"(\w+)\*(\d+)", expr)
    if m and m.group(1) in names:
        return f"int64_t{{{m.group(1)}}} * {int(m.group(2)) * elem}"
    if expr in names:
        return f"int64_t{{{expr}}} * {elem}"
    if expr == "COMPSIZE(pname)":
        return f"int64_t{{{GETTER_ELEMENTS * elem}}}"
    if expr in ("COMPSIZE(buffer)", "COMPSIZE(target)"):
        return f"int64_t{{{16 * elem}}}"
    if expr in ("COMPSIZE(program,location)", "COMPSIZE(program,uniformBlockIndex,pname)"):
        return f"int64_t{{{GETTER_ELEMENTS * elem}}}"
    if expr in ("COMPSIZE(uniformCount,pname)", "COMPSIZE(uniformCount)"):
        return f"int64_t{{uniformCount}} * {elem}"
    return None


class Gen:
    def __init__(self, root, groups):
        self.root, self.groups, self.used_groups = root, groups, set()

    def group_ref(self, group):
        if group and group in self.groups:
            self.used_groups.add(group)
            return group
        return None

    def command(self, elem, in_gl, in_es, w):
        cmd = gen_gl_api.Command(elem)
        pelems = elem.findall("param")
        params = cmd.params
        # Scalars referenced by a pointer's len are array lengths: keep them within the arenas.
        sized = set()
        for (ctype, pname), p in zip(params, pelems):
            ln = p.get("len") or ""
            for token in re.findall(r"[A-Za-z_]\w*", ln):
                if token not in ("COMPSIZE", "pname", "target", "buffer", "program", "location", "format", "type",
                                 "width", "height", "depth", "name", "uniformBlockIndex", "level"):
                    sized.add(token)
        # glShaderBinary/glProgramBinary lengths and glCompressedTex* imageSize use the same bounded
        # distribution; draw `count` with indices is bounded by the draw distribution already.
        if cmd.name.startswith(("glDraw", "glMultiDraw")):
            sized.discard("count")
        if cmd.name == "glBufferData":
            sized.discard("size")  # huge sizes go with a null pointer (f.BytesOrNull)
        fn = f"call_{cmd.name}"
        ptype = ", ".join(t for t, _ in params) or "void"
        w(f"using PFN_{cmd.name} = {cmd.ret}(APIENTRYP)({ptype});\n")
        w(f"PFN_{cmd.name} p_{cmd.name};\n")
        w(f"void {fn}(Fuzzer& f) {{\n")
        pointer_lines, names_out, names_in = [], [], []
        for (ctype, pname), p in zip(params, pelems):
            core, stars, const = base_type(ctype)
            group = self.group_ref(p.get("group"))
            kind = CLASS_KIND.get(p.get("class")) or NAME_PARAMS.get((cmd.name, pname))
            if stars == 0:
                if core == "GLsync":
                    expr = "f.Sync()"
                elif kind and core == "GLuint":
                    expr = f"f.Name(Kind::{kind})"
                else:
                    expr = scalar_category(cmd.name, pname, core, group, pname in sized)
                w(f"  {ctype} {pname} = {expr};\n")
                continue
            pointer_lines.append(self.pointer(cmd, ctype, pname, p, core, stars, const, group, kind, params))
            if kind and not const and stars == 1:
                names_out.append((pname, kind, p.get("len")))
            if kind and const and stars == 1:
                names_in.append((pname, kind, p.get("len")))
        for line in pointer_lines:
            w(line)
        for line in FIXUPS.get(cmd.name, []):
            w(f"  {line}\n")
        if cmd.name.startswith(("glDraw", "glMultiDraw")):
            w("  f.BeforeDraw();\n")
        if pointer_lines:
            w("  if (f.TakeSkip()) return;\n")
        args = ", ".join(n for _, n in params)
        rec = ", ".join(f"Bits64({n})" for _, n in params[:8])
        w(f"  f.Record(kIndex_{cmd.name}, {{{rec}}});\n")
        if cmd.ret == "void":
            w(f"  p_{cmd.name}({args});\n")
        else:
            w(f"  {cmd.ret} result = p_{cmd.name}({args});\n")
        w("  GLenum error = f.AfterCall();\n")
        self.post(cmd, w, names_out, names_in)
        if cmd.ret != "void":
            w("  (void)result;\n")
        w("  (void)error;\n}\n\n")
        flags = ("kInGL" if in_gl else "0") + " | " + ("kInES" if in_es else "0")
        return f'    {{"{cmd.name}", {flags}, reinterpret_cast<void**>(&p_{cmd.name}), &{fn}}},\n'

    def pointer(self, cmd, ctype, pname, p, core, stars, const, group, kind, params):
        special = SPECIAL_POINTERS.get((cmd.name, pname))
        if special:
            return f"  auto {pname} = reinterpret_cast<{ctype}>({special});\n"
        ln = p.get("len")
        elem = ELEM_SIZE.get(core, 8)
        if core == "GLchar" and const and stars == 1:
            return f"  {ctype} {pname} = f.NameString();\n"
        if ln and ln.startswith("COMPSIZE(format,type"):
            dims = ln[len("COMPSIZE(format,type"):].strip(",)").split(",")
            dims = [d for d in dims if d] + ["1"] * (3 - len([d for d in dims if d]))
            nullable = "true" if cmd.name.startswith("glTexImage") else "false"
            fn = "PixelsIn" if const else "PixelsOut"
            extra = f", {nullable}" if const else ""
            return f"  auto {pname} = static_cast<{ctype}>(f.{fn}(format, type, {', '.join(dims)}{extra}));\n"
        if ln == INDICES_LEN:
            return f"  auto {pname} = static_cast<{ctype}>(f.Indices(&count, type));\n"
        if stars == 2 and not const:  # void** outputs: one pointer
            return f"  auto {pname} = static_cast<{ctype}>(f.Out(sizeof(void*)));\n"
        if not const and cmd.name.startswith("glGet") and pname in ("params", "data") and ln and ln.isdigit():
            # The registry's fixed lengths for query outputs are not always right (glGetVertexAttribIuiv
            # says 1, GL_CURRENT_VERTEX_ATTRIB returns 4): treat them like any other query output.
            ln = "COMPSIZE(pname)"
        nbytes = len_bytes(ln, elem, params)
        if nbytes is None:
            raise SystemExit(f"{cmd.name}.{pname}: no size rule for len={ln!r}; add one to SPECIAL_POINTERS")
        if not const:
            nullable = pname == "length" and core == "GLsizei"
            fn = "OutOrNull" if nullable else "Out"
            return f"  auto {pname} = static_cast<{ctype}>(f.{fn}({nbytes}));\n"
        if kind:
            fill = f"f.NamesIn(Kind::{kind}, {nbytes} / 4)"
        elif core == "GLenum":
            fill = f"f.EnumsIn(kGroup_{group}, {nbytes} / 4)" if group else f"f.EnumsIn(kNoGroup, {nbytes} / 4)"
        elif core in ("GLfloat", "GLdouble"):
            fill = f"f.FloatsIn<{core}>({nbytes} / {elem})"
        else:
            fill = f"f.BytesIn({nbytes})"
        return f"  auto {pname} = static_cast<{ctype}>({fill});\n"

    def post(self, cmd, w, names_out, names_in):
        """Bookkeeping and assertions after the call: names that now exist or are gone, return values."""
        name = cmd.name
        if name.startswith("glGen") and names_out:
            pname, kind, ln = names_out[0]
            w(f"  if (error == GL_NO_ERROR) f.Generated(Kind::{kind}, {pname}, {ln}, \"{name}\");\n")
        if name.startswith("glDelete") and names_in:
            pname, kind, ln = names_in[0]
            is_fn = IS_AFTER_DELETE.get(kind)
            check = f"p_{is_fn}" if is_fn else "nullptr"
            w(f"  if (error == GL_NO_ERROR) f.Deleted(Kind::{kind}, {pname}, {ln}, {check}, \"{name}\");\n")
        if name in ("glDeleteProgram", "glDeleteShader"):
            kind = "kProgram" if name == "glDeleteProgram" else "kShader"
            arg = cmd.params[0][1]
            w(f"  if (error == GL_NO_ERROR) f.Deleted(Kind::{kind}, &{arg}, 1, nullptr, \"{name}\");\n")
        if name in ("glCreateProgram", "glCreateShader"):
            kind = "kProgram" if name == "glCreateProgram" else "kShader"
            w(f"  f.Created(Kind::{kind}, result, error, \"{name}\");\n")
        if name == "glFenceSync":
            w("  f.FenceCreated(result, error);\n")
        if name == "glDeleteSync":
            w("  if (error == GL_NO_ERROR) f.SyncDeleted(sync);\n")
        if name in ("glGetString", "glGetStringi"):
            w(f"  f.CheckString(result, error, \"{name}\");\n")
        if name == "glCheckFramebufferStatus":
            w("  f.CheckFramebufferStatus(result, error);\n")
        if name == "glClientWaitSync":
            w("  f.CheckWaitResult(result, error);\n")
        if name == "glMapBufferRange":
            w("  f.WriteMapped(result, error, length, access);\n")
        if name == "glPixelStorei" or name == "glPixelStoref":
            w("  if (error == GL_NO_ERROR) f.PixelStore(pname, static_cast<double>(param));\n")
        if cmd.ret == "GLboolean":
            w(f"  f.CheckBoolean(result, \"{name}\");\n")
        if name in ("glGetUniformLocation", "glGetAttribLocation", "glGetFragDataLocation", "glGetFragDataIndex"):
            w(f"  f.CheckLocation(result, \"{name}\");\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--xml", required=True)
    ap.add_argument("--impl", required=True, help="frontend/gl_impl.h")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    root = ET.parse(args.xml).getroot()
    wanted = wanted_commands(root)
    implemented = gen_gl_api.declared_names([args.impl])
    groups, everything = enum_groups(root)
    gen = Gen(root, groups)
    body, rows = [], []
    elems = [c for c in root.find("commands").findall("command") if c.find("proto").find("name").text in wanted]
    selected = [c for c in elems if c.find("proto").find("name").text[2:] in implemented
                and c.find("proto").find("name").text not in SKIPPED]
    # Commands post-call checks call even when not fuzzed themselves.
    index = {c.find("proto").find("name").text: i for i, c in enumerate(selected)}
    for c in selected:
        name = c.find("proto").find("name").text
        rows.append(gen.command(c, *wanted[name], body.append))

    out = []
    w = out.append
    w("// Generated by tests/fuzz/gen_fuzz_calls.py from gl.xml. Do not edit.\n")
    w('#include "fuzz_support.h"\n\nnamespace fuzz {\nnamespace {\n\n')
    for g in sorted(gen.used_groups):
        vals = ", ".join(f"0x{v:X}u" for v in sorted(groups[g]))
        w(f"const uint32_t kGroupValues_{g}[] = {{{vals}}};\n")
        w(f"[[maybe_unused]] const EnumGroup kGroup_{g}{{kGroupValues_{g}, {len(groups[g])}}};\n")
    w("const EnumGroup kNoGroup{nullptr, 0};\n\n")
    for name, i in index.items():
        w(f"constexpr int kIndex_{name} = {i};\n")
    w("\n")
    for is_fn in sorted(set(IS_AFTER_DELETE.values())):
        if is_fn not in index:
            w(f"using PFN_{is_fn} = GLboolean(APIENTRYP)(GLuint);\nPFN_{is_fn} p_{is_fn};\n")
    # Forward declarations so post-call checks can use any command's pointer.
    decl_out = []
    for c in selected:
        cmd = gen_gl_api.Command(c)
        ptype = ", ".join(t for t, _ in cmd.params) or "void"
        decl_out.append(f"using PFN_{cmd.name} = {cmd.ret}(APIENTRYP)({ptype});\nPFN_{cmd.name} p_{cmd.name};\n")
    w("".join(decl_out))
    w("\n")
    text = "".join(body)
    # The per-command blocks re-declare their pointer type and variable; the forward block above already did.
    text = re.sub(r"using PFN_\w+ = [^\n]*\nPFN_\w+ p_\w+;\n", "", text)
    # The fuzzer is `fz` in the emitted code: GL parameter names include `f` (glDepthRange).
    text = re.sub(r"\bf\.", "fz.", text).replace("(Fuzzer& f)", "(Fuzzer& fz)")
    w(text)
    w("}  // namespace\n\n")
    w("const CallEntry kCalls[] = {\n")
    w("".join(rows))
    w("};\n")
    w(f"const size_t kCallCount = {len(rows)};\n\n")
    w("const uint32_t kAllEnumValues[] = {" + ", ".join(f"0x{v:X}u" for v in sorted(everything)) + "};\n")
    w("const EnumGroup kAllEnums{kAllEnumValues, " + str(len(everything)) + "};\n\n")
    w("// Entry points the checks use even when the command itself is not fuzzed.\n")
    w("const ExtraEntry kExtraEntries[] = {\n")
    for is_fn in sorted(set(IS_AFTER_DELETE.values())):
        if is_fn not in index:
            w(f'    {{"{is_fn}", reinterpret_cast<void**>(&p_{is_fn})}},\n')
    w("    {nullptr, nullptr}};\n\n")
    w("}  // namespace fuzz\n")
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("".join(out))


if __name__ == "__main__":
    main()
