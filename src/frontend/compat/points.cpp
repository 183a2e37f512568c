// Points of the compatibility profile (GL 2.1 §3.4, ARB_point_parameters and ARB_point_sprite as GL 2.0 took
// them; ES 1.1's glPointParameter and OES_point_sprite share them): the size clamps and distance attenuation,
// GL_POINT_SPRITE with per-unit GL_COORD_REPLACE, their queries and glPushAttrib. Only state is kept here:
// the generated programs of point draws write gl_PointSize and read gl_PointCoord (ff_program.cpp), with the
// parameters as uniforms; the core point state (size, fade threshold, sprite origin) lives in Context.
#include <algorithm>

#include "frontend/compat/compat_impl.h"
#include "frontend/compat/immediate.h"

namespace caldera::compat {

bool SetPointParameter(Context& ctx, GLenum pname, const GLfloat* values, bool vector, const char* function) {
  auto& s = ctx.state;
  switch (pname) {
    case GL_POINT_SIZE_MIN:
    case GL_POINT_SIZE_MAX: {
      if (values[0] < 0.0f)
        return ctx.Error(GL_INVALID_VALUE, function, "point size bound is negative"), true;
      GLfloat& bound = pname == GL_POINT_SIZE_MIN ? s.point_size_min : s.point_size_max;
      if (bound == values[0]) return true;
      bound = values[0];
      ctx.MarkDirty(kDirtyFixedState);  // glPointSize's size is clamped in the fixed state
      return true;
    }
    case GL_POINT_DISTANCE_ATTENUATION:
      // Three coefficients: the scalar forms cannot give them.
      if (!vector) return ctx.Error(GL_INVALID_ENUM, function, "pname takes a vector"), true;
      std::copy_n(values, 3, ctx.compat->point_attenuation);
      return true;
    default:
      return false;
  }
}

int QueryPointState(Context& ctx, GLenum pname, double* out) {
  switch (pname) {
    case GL_POINT_SIZE_MIN:
      return out[0] = ctx.state.point_size_min, 1;
    case GL_POINT_SIZE_MAX:
      return out[0] = ctx.state.point_size_max, 1;
    case GL_POINT_DISTANCE_ATTENUATION:
      for (int i = 0; i < 3; ++i) out[i] = ctx.compat->point_attenuation[i];
      return 3;
    default:
      return 0;
  }
}

void PointSpriteEnv(Context& ctx, GLenum pname, const GLfloat* params) {
  if (pname != GL_COORD_REPLACE) return ctx.Error(GL_INVALID_ENUM, "glTexEnv", "invalid point sprite pname");
  if (params[0] != GL_TRUE && params[0] != GL_FALSE)
    return ctx.Error(GL_INVALID_VALUE, "glTexEnv", "GL_COORD_REPLACE takes GL_TRUE or GL_FALSE");
  if (ctx.active_texture < kTexUnits) ctx.compat->units[ctx.active_texture].coord_replace = params[0] != 0;
}

AttribRestore SavePointState(Context& ctx, bool point_bit, bool enable_bit) {
  State& st = *ctx.compat;
  const auto& s = ctx.state;
  std::array<bool, kTexUnits> replace{};
  for (int u = 0; u < kTexUnits; ++u) replace[u] = st.units[u].coord_replace;
  const std::array<float, 6> v = {s.point_size_min,        s.point_size_max,        s.point_fade_threshold,
                                  st.point_attenuation[0], st.point_attenuation[1], st.point_attenuation[2]};
  const GLenum origin = s.point_sprite_origin;
  const bool sprite = st.point_sprite;
  return [point_bit, enable_bit, replace, v, origin, sprite](Context& c) {
    State& st = *c.compat;
    auto& s = c.state;
    if (enable_bit || point_bit) st.point_sprite = sprite;  // both groups hold the enable
    if (!point_bit) return;
    for (int u = 0; u < kTexUnits; ++u) st.units[u].coord_replace = replace[u];
    s.point_size_min = v[0], s.point_size_max = v[1], s.point_fade_threshold = v[2];
    std::copy_n(v.begin() + 3, 3, st.point_attenuation);
    s.point_sprite_origin = origin;
    c.MarkDirty(kDirtyFixedState);
  };
}

void SetGeneratedPointSize(Context& ctx, bool on) {
  if (ctx.state.generated_point_size == on) return;
  ctx.state.generated_point_size = on;
  ctx.MarkDirty(kDirtyFixedState);
}

}  // namespace caldera::compat
