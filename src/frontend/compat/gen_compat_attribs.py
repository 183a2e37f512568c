#!/usr/bin/env python3
"""Generates the per-type variants of the compatibility profile's vertex attribute commands (glVertex3f,
glColor4ubv, glNormal3s, glTexCoord2iv, glMultiTexCoord4dv, glRectf, glFogCoordf, glIndexub, glEvalCoord2f...): each converts its arguments to floats by
the rules of GL 2.1 §2.7 (colours and normals of integer types are normalized, other attributes are not) and
calls one of the few hand-written implementations in immediate.cpp. Also generates OpenGL ES 1.1's own
variants of existing commands (es1_variants): the 16.16 fixed-point `x` commands (glTranslatex, glLightxv,
glGetMaterialxv...) and the float forms of double commands (glOrthof, glFrustumf), each converting its
arguments and calling the float (or double) implementation. Writes a header the entry-point generator reads
(a declaration wires a command) and the definitions."""
import argparse
import re
import xml.etree.ElementTree as ET

FAMILY_RE = re.compile(
    r"^gl(Vertex|Color|SecondaryColor|Normal|TexCoord|MultiTexCoord|Rect|RasterPos|WindowPos|FogCoord|Index|EvalCoord)([1-4]?)"
    r"(b|s|i|f|d|ub|us|ui)(v?)$")
CTYPES = {"b": "GLbyte", "s": "GLshort", "i": "GLint", "f": "GLfloat", "d": "GLdouble", "ub": "GLubyte",
          "us": "GLushort", "ui": "GLuint"}


def normalize(t, expr):
    """GL 2.1 table 2.9: integer colour/normal components map to [-1, 1] or [0, 1]."""
    return {
        "b": f"(2.0f * float({expr}) + 1.0f) / 255.0f",
        "s": f"(2.0f * float({expr}) + 1.0f) / 65535.0f",
        "i": f"float((2.0 * double({expr}) + 1.0) / 4294967295.0)",
        "ub": f"float({expr}) / 255.0f",
        "us": f"float({expr}) / 65535.0f",
        "ui": f"float(double({expr}) / 4294967295.0)",
    }.get(t, f"float({expr})")


DECL_RE = re.compile(r"^\s*[\w:<>* ]+?\b(\w+)\(Context& ctx", re.M)


def params_of(cmd):
    out = []
    for p in cmd.findall("param"):
        text = "".join(p.itertext()).strip()
        pname = p.find("name").text
        out.append((text[: text.rfind(pname)].strip(), pname, p.get("len")))
    return out


def es1_commands(root):
    names = set()
    for feature in root.findall("feature"):
        if feature.get("api") == "gles1":
            for req in feature.findall("require"):
                names.update(c.get("name") for c in req.findall("command"))
    return names


def es1_target(name, known):
    """The implemented command an ES 1 variant converts its arguments for, or None."""
    short = name[2:]
    if short.endswith("xv"):
        candidates = [short[:-2] + "fv"]
    elif short.endswith("x"):
        candidates = [short[:-1] + "f", short[:-1]]
    elif short.endswith("f"):
        candidates = [short[:-1]]  # glOrthof -> glOrtho (doubles)
    else:
        return None
    return next((c for c in candidates if c in known), None)


def es1_variants(root, known, validated):
    """(declarations, definitions) for every ES 1.1 command that is not a desktop command and whose float or
    double counterpart is implemented and that is not implemented by hand (glClipPlanef: floats where the
    desktop command takes doubles). Commands without one stay unimplemented entries."""
    cmds = {c.find("proto").find("name").text: c for c in root.find("commands").findall("command")}
    desktop = set()
    for feature in root.findall("feature"):
        if feature.get("api") == "gl":
            for req in feature.findall("require"):
                desktop.update(c.get("name") for c in req.findall("command"))
    decls, defs = [], []
    for name in sorted(es1_commands(root) - desktop):
        if name[2:] in known:
            continue
        target = es1_target(name, known)
        if target is None:
            continue
        src, dst = params_of(cmds[name]), params_of(cmds["gl" + target])
        if len(src) != len(dst):
            raise SystemExit(f"{name}: {len(src)} parameters, {target} has {len(dst)}")
        has_pname = any(pn == "pname" for _, pn, _ in src)
        pre, post, args = [], [], []
        for (sty, spn, slen), (dty, _, _) in zip(src, dst):
            if sty == dty:
                args.append(spn)
            elif sty in ("GLfixed", "GLclampx"):
                scalar = "FixedParam(pname, {})" if has_pname else "FixedToFloat({})"
                args.append(f"{dty}({scalar.format(spn)})")
            elif sty == "GLfloat" and dty == "GLdouble":
                args.append(f"GLdouble({spn})")
            elif sty.endswith("*") and "GLfixed" in sty:
                count = slen if slen and slen.isdigit() else "Es1ParamCount(pname)"
                conv = f"GLfloat(FixedParam(pname, {spn}[i]))" if has_pname else f"GLfloat(FixedToFloat({spn}[i]))"
                buf = f"{spn}_f"
                pre.append(f"  GLfloat {buf}[16] = {{}};\n  const int {buf}_n = {count};")
                if sty.startswith("const"):
                    pre.append(f"  for (int i = 0; {spn} && i < {buf}_n; ++i) {buf}[i] = {conv};")
                    args.append(f"{spn} ? {buf} : nullptr")
                else:
                    # Queries: seed with the caller's values so that a failing query leaves them as they were.
                    unconv = "FloatParamToFixed(pname, {}[i])" if has_pname else "FloatToFixed({}[i])"
                    pre.append(f"  for (int i = 0; {spn} && i < {buf}_n; ++i) {buf}[i] = {conv};")
                    args.append(f"{spn} ? {buf} : nullptr")
                    post.append(f"  for (int i = 0; {spn} && i < {buf}_n; ++i) {spn}[i] = {unconv.format(buf)};")
            else:
                raise SystemExit(f"{name}: no conversion from {sty} to {dty} ({target})")
        plist = ", ".join(f"{ty} {pn}" for ty, pn, _ in src)
        decls.append(f"void {name[2:]}(Context& ctx, {plist});")
        call_args = ", ".join(args)
        # The target's entry point validates before calling it (validate.h); so must its ES 1 variant.
        check = [f"  if (!validate::{target}(ctx, {call_args})) return;"] if target in validated else []
        body = pre + check + [f"  {target}(ctx, {call_args});"] + post
        defs.append(f"void {name[2:]}(Context& ctx, {plist}) {{\n" + "\n".join(body) + "\n}\n")
    return decls, defs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--xml", required=True)
    ap.add_argument("--impl", nargs="+", required=True, help="headers declaring the gl:: implementations")
    ap.add_argument("--validate", required=True, help="the header declaring validate:: functions")
    ap.add_argument("--out-header", required=True)
    ap.add_argument("--out-source", required=True)
    args = ap.parse_args()
    root = ET.parse(args.xml).getroot()
    decls, defs = [], []
    for c in root.find("commands").findall("command"):
        proto = c.find("proto")
        name = proto.find("name").text
        m = FAMILY_RE.match(name)
        if not m:
            continue
        family, n, t, vec = m.groups()
        if family in ("Normal",) and n != "3":
            continue
        if family == "Rect" and n:
            continue
        params = []
        for p in c.findall("param"):
            text = "".join(p.itertext()).strip()
            pname = p.find("name").text
            params.append((text[: text.rfind(pname)].strip(), pname))
        ctype = CTYPES[t]
        short = name[2:]
        plist = ", ".join(f"{ty} {pn}" for ty, pn in params)
        decls.append(f"void {short}(Context& ctx, {plist});")
        norm = family in ("Color", "SecondaryColor", "Normal")
        conv = (lambda e: normalize(t, e)) if norm else (lambda e: f"float({e})")
        body = []
        if family == "Rect":
            if vec:
                a, b = params[0][1], params[1][1]
                body.append(f"  RectCommon(ctx, float({a}[0]), float({a}[1]), float({b}[0]), float({b}[1]));")
            else:
                body.append("  RectCommon(ctx, float(x1), float(y1), float(x2), float(y2));")
        else:
            count = 3 if family == "Normal" else 1 if family in ("FogCoord", "Index") else int(n)
            if vec:
                src = params[-1][1]
                comps = [conv(f"{src}[{i}]") for i in range(count)]
            else:
                comps = [conv(pn) for ty, pn in params if ty == ctype]
            defaults = ["0.0f", "0.0f", "0.0f", "1.0f"]
            if family in ("Color",):
                defaults = ["0.0f", "0.0f", "0.0f", "1.0f"]
            vals = comps + defaults[len(comps):]
            unit = "GLenum(GL_TEXTURE0)"
            if family == "MultiTexCoord":
                unit = params[0][1]
            call = {
                "Vertex": f"VertexCommon(ctx, {', '.join(vals)});",
                "Color": f"SetColor(ctx, {', '.join(vals)});",
                "SecondaryColor": f"SetSecondaryColor(ctx, {', '.join(vals[:3])});",
                "Normal": f"SetNormal(ctx, {', '.join(vals[:3])});",
                "TexCoord": f"SetTexCoord(ctx, {unit}, {', '.join(vals)});",
                "MultiTexCoord": f"SetTexCoord(ctx, {unit}, {', '.join(vals)});",
                "RasterPos": f"RasterPosCommon(ctx, {', '.join(vals)});",
                "WindowPos": f"WindowPosCommon(ctx, {', '.join(vals[:3])});",
                "FogCoord": f"SetFogCoord(ctx, {vals[0]});",
                "Index": f"SetIndex(ctx, {vals[0]});",
                "EvalCoord": f"EvalCoord(ctx, {n}, {vals[0]}, {vals[1] if n == '2' else '0.0f'});",
            }[family]
            body.append("  " + call)
        defs.append(f"void {short}(Context& ctx, {plist}) {{\n" + "\n".join(body) + "\n}\n")
    known = {d.split("(")[0].split()[-1] for d in decls}
    for path in args.impl:
        with open(path, encoding="utf-8") as f:
            known.update(DECL_RE.findall(f.read()))
    with open(args.validate, encoding="utf-8") as f:
        validated = set(DECL_RE.findall(f.read()))
    es1_decls, es1_defs = es1_variants(root, known, validated)
    decls += es1_decls
    defs += es1_defs
    with open(args.out_header, "w", encoding="utf-8") as f:
        f.write("// Generated by src/frontend/compat/gen_compat_attribs.py from gl.xml. Do not edit.\n#pragma once\n\n")
        f.write("#include <GL/glcorearb.h>\n\n// OpenGL ES 1's 16.16 fixed-point type (glcorearb.h leaves it out).\n"
                "typedef khronos_int32_t GLfixed;\ntypedef khronos_int32_t GLclampx;\n\n")
        f.write("namespace caldera {\nclass Context;\n}\n\nnamespace caldera::gl {\n\n")
        f.write("\n".join(decls) + "\n\n}  // namespace caldera::gl\n")
    with open(args.out_source, "w", encoding="utf-8") as f:
        f.write("// Generated by src/frontend/compat/gen_compat_attribs.py from gl.xml. Do not edit.\n")
        f.write('#include "frontend/compat_attribs_gen.h"\n#include "frontend/compat/compat_impl.h"\n'
                '#include "frontend/compat/es1_fixed.h"\n#include "frontend/compat/immediate.h"\n'
                '#include "frontend/compat/pixel_rect.h"\n#include "frontend/gl_impl.h"\n#include "frontend/validate.h"\n\n')
        f.write("namespace caldera::gl {\nusing namespace caldera::compat;\n\n")
        f.write("\n".join(defs) + "\n}  // namespace caldera::gl\n")


if __name__ == "__main__":
    main()
