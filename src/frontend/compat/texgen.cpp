// Texture-coordinate generation (GL 2.1 §2.12.4): glTexGen and glGetTexGen per texture unit. Only state is
// kept here: the generated vertex programs compute the coordinates (ff_program.cpp), keyed by the modes of
// the enabled coordinates, with the planes as uniforms. Eye planes are stored in eye space, transformed by
// the inverse of the modelview matrix current when they are specified, as GL says.
#include <algorithm>
#include <cmath>

#include "frontend/compat/compat_impl.h"
#include "frontend/compat/hooks.h"
#include "frontend/compat/immediate.h"

namespace caldera::compat {
namespace {

// The coordinate's index (S T R Q), -1 when `coord` is none.
int CoordIndex(GLenum coord) {
  return coord >= GL_S && coord <= GL_Q ? int(coord - GL_S) : -1;
}

// Which modes a coordinate takes: the sphere map makes S and T only, reflection and normal maps S, T and R.
bool ModeAllowed(int coord, GLenum mode) {
  switch (mode) {
    case GL_OBJECT_LINEAR:
    case GL_EYE_LINEAR:
      return true;
    case GL_SPHERE_MAP:
      return coord <= 1;
    case GL_REFLECTION_MAP:
    case GL_NORMAL_MAP:
      return coord <= 2;
    default:
      return false;
  }
}

// A float parameter naming an enum; 0 (no mode) when it is not a whole number in range.
GLenum EnumOf(double v) {
  return v >= 0 && v < 65536 && v == std::floor(v) ? GLenum(v) : 0;
}

// The unit glTexGen and glGetTexGen address, or null after recording the error. Units past the
// fixed-function ones (up to GL_MAX_TEXTURE_COORDS) are valid but generate nothing here: `scratch` stands in.
TexGen* Addressed(Context& ctx, const char* name, GLenum coord, TexGen& scratch) {
  if (ctx.active_texture >= GLuint(kLegacyTexCoordSets)) {
    ctx.Error(GL_INVALID_OPERATION, name, "active texture unit is past GL_MAX_TEXTURE_COORDS");
    return nullptr;
  }
  const int c = CoordIndex(coord);
  if (c < 0) {
    ctx.Error(GL_INVALID_ENUM, name, "invalid coordinate");
    return nullptr;
  }
  if (ctx.active_texture >= GLuint(kTexUnits)) {
    scratch = InitialTexGen()[size_t(c)];
    return &scratch;
  }
  return &ctx.compat->units[ctx.active_texture].gen[size_t(c)];
}

// glTexGen's common path: `p` holds ParamCount(pname) values.
void SetTexGen(Context& ctx, const char* name, GLenum coord, GLenum pname, const double* p) {
  TexGen scratch;
  TexGen* g = Addressed(ctx, name, coord, scratch);
  if (!g) return;
  switch (pname) {
    case GL_TEXTURE_GEN_MODE: {
      const GLenum mode = EnumOf(p[0]);
      if (!ModeAllowed(CoordIndex(coord), mode))
        return ctx.Error(GL_INVALID_ENUM, name, "invalid mode for this coordinate");
      g->mode = mode;
      return;
    }
    case GL_OBJECT_PLANE:
      for (int i = 0; i < 4; ++i) g->object_plane[i] = float(p[i]);
      return;
    case GL_EYE_PLANE: {
      // p' = p M^-1: element j is the plane's dot product with column j of the inverse.
      const Mat4 inv = Inverse(ctx.compat->modelview.back());
      for (int j = 0; j < 4; ++j) {
        double sum = 0;
        for (int i = 0; i < 4; ++i) sum += p[i] * double(inv.m[size_t(j * 4 + i)]);
        g->eye_plane[j] = float(sum);
      }
      return;
    }
    default:
      return ctx.Error(GL_INVALID_ENUM, name, "invalid pname");
  }
}

void SetTexGenScalar(Context& ctx, const char* name, GLenum coord, GLenum pname, double param) {
  if ((pname == GL_OBJECT_PLANE || pname == GL_EYE_PLANE) && !ScalarFormsOfVectors(ctx)) {
    // The coordinate is checked first, as for the vector forms.
    if (CoordIndex(coord) < 0) return ctx.Error(GL_INVALID_ENUM, name, "invalid coordinate");
    return ctx.Error(GL_INVALID_ENUM, name, "pname takes a vector");
  }
  const double padded[4] = {param, 0, 0, 0};
  SetTexGen(ctx, name, coord, pname, padded);
}

// glGetTexGen's common path: fills ParamCount(pname) values; false after recording an error.
bool GetTexGen(Context& ctx, const char* name, GLenum coord, GLenum pname, double* out) {
  TexGen scratch;
  const TexGen* g = Addressed(ctx, name, coord, scratch);
  if (!g) return false;
  switch (pname) {
    case GL_TEXTURE_GEN_MODE:
      out[0] = g->mode;
      return true;
    case GL_OBJECT_PLANE:
      for (int i = 0; i < 4; ++i) out[i] = g->object_plane[i];
      return true;
    case GL_EYE_PLANE:
      for (int i = 0; i < 4; ++i) out[i] = g->eye_plane[i];
      return true;
    default:
      ctx.Error(GL_INVALID_ENUM, name, "invalid pname");
      return false;
  }
}

int Count(GLenum pname) {
  return pname == GL_TEXTURE_GEN_MODE ? 1 : ParamCount(pname);
}

}  // namespace
}  // namespace caldera::compat

namespace caldera::gl {
using namespace caldera::compat;

void TexGeni(Context& ctx, GLenum coord, GLenum pname, GLint param) {
  SetTexGenScalar(ctx, "glTexGeni", coord, pname, param);
}
void TexGenf(Context& ctx, GLenum coord, GLenum pname, GLfloat param) {
  SetTexGenScalar(ctx, "glTexGenf", coord, pname, param);
}
void TexGend(Context& ctx, GLenum coord, GLenum pname, GLdouble param) {
  SetTexGenScalar(ctx, "glTexGend", coord, pname, param);
}

void TexGeniv(Context& ctx, GLenum coord, GLenum pname, const GLint* params) {
  if (!params) return;
  double p[4] = {};
  for (int i = 0; i < Count(pname); ++i) p[i] = params[i];
  SetTexGen(ctx, "glTexGeniv", coord, pname, p);
}
void TexGenfv(Context& ctx, GLenum coord, GLenum pname, const GLfloat* params) {
  if (!params) return;
  double p[4] = {};
  for (int i = 0; i < Count(pname); ++i) p[i] = params[i];
  SetTexGen(ctx, "glTexGenfv", coord, pname, p);
}
void TexGendv(Context& ctx, GLenum coord, GLenum pname, const GLdouble* params) {
  if (!params) return;
  double p[4] = {};
  for (int i = 0; i < Count(pname); ++i) p[i] = params[i];
  SetTexGen(ctx, "glTexGendv", coord, pname, p);
}

void GetTexGeniv(Context& ctx, GLenum coord, GLenum pname, GLint* params) {
  double v[4];
  if (!GetTexGen(ctx, "glGetTexGeniv", coord, pname, v) || !params) return;
  // Planes are not colours: integer queries round them (GL 2.1 §6.1.2).
  for (int i = 0; i < Count(pname); ++i)
    params[i] = GLint(std::lround(std::clamp(v[i], -2147483648.0, 2147483647.0)));
}
void GetTexGenfv(Context& ctx, GLenum coord, GLenum pname, GLfloat* params) {
  double v[4];
  if (!GetTexGen(ctx, "glGetTexGenfv", coord, pname, v) || !params) return;
  for (int i = 0; i < Count(pname); ++i) params[i] = GLfloat(v[i]);
}
void GetTexGendv(Context& ctx, GLenum coord, GLenum pname, GLdouble* params) {
  double v[4];
  if (!GetTexGen(ctx, "glGetTexGendv", coord, pname, v) || !params) return;
  for (int i = 0; i < Count(pname); ++i) params[i] = v[i];
}

}  // namespace caldera::gl
