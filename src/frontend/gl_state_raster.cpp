// Rasterization and per-fragment state beyond gl_state.cpp: logic ops, point size and sprite coordinate
// origin, read colour clamping, and glPixelStoref. Setters mark the fixed state dirty only on real change
// (the state table's setters, state_table.txt).
#include <cmath>

#include "frontend/compat/immediate.h"
#include "frontend/context.h"
#include "frontend/gl_impl.h"
#include "frontend/state_table_gen.h"

namespace caldera::gl {

void LogicOp(Context& ctx, GLenum opcode) {
  if (opcode < GL_CLEAR || opcode > GL_SET)
    return ctx.Error(GL_INVALID_ENUM, "glLogicOp", "invalid logic operation");
  state_table::SetLogicOpMode(ctx, opcode);  // marks the fixed state only while the logic op is enabled
}

void PointSize(Context& ctx, GLfloat size) {
  if (!(size > 0.0f)) return ctx.Error(GL_INVALID_VALUE, "glPointSize", "size must be positive");
  state_table::SetPointSize(ctx, size);
}

namespace {

// The core-profile point parameters; the others (GL_POINT_SIZE_MIN/MAX, GL_POINT_DISTANCE_ATTENUATION) are
// compatibility state (compat/points.cpp) and GL_INVALID_ENUM in core contexts, whose spec lists neither
// (Mesa's core contexts accept them).
void SetPointParameter(Context& ctx, GLenum pname, const GLfloat* values, bool vector, const char* function) {
  const GLfloat value = values[0];
  switch (pname) {
    case GL_POINT_FADE_THRESHOLD_SIZE:
      if (value < 0.0f) return ctx.Error(GL_INVALID_VALUE, function, "fade threshold is negative");
      ctx.state.point_fade_threshold = value;
      return;
    case GL_POINT_SPRITE_COORD_ORIGIN: {
      auto origin = static_cast<GLenum>(value);
      if (origin != GL_LOWER_LEFT && origin != GL_UPPER_LEFT)
        return ctx.Error(GL_INVALID_VALUE, function, "origin must be GL_LOWER_LEFT or GL_UPPER_LEFT");
      return state_table::SetPointSpriteCoordOrigin(ctx, origin);
    }
    default:
      if (ctx.IsCompat() && compat::SetPointParameter(ctx, pname, values, vector, function)) return;
      return ctx.Error(GL_INVALID_ENUM, function, "invalid point parameter");
  }
}

}  // namespace

void PointParameterf(Context& ctx, GLenum pname, GLfloat param) {
  SetPointParameter(ctx, pname, &param, false, "glPointParameterf");
}
void PointParameterfv(Context& ctx, GLenum pname, const GLfloat* params) {
  if (!params) return;
  SetPointParameter(ctx, pname, params, true, "glPointParameterfv");
}
void PointParameteri(Context& ctx, GLenum pname, GLint param) {
  const GLfloat value = static_cast<GLfloat>(param);
  SetPointParameter(ctx, pname, &value, false, "glPointParameteri");
}
void PointParameteriv(Context& ctx, GLenum pname, const GLint* params) {
  if (!params) return;
  // Only GL_POINT_DISTANCE_ATTENUATION reads three values.
  const GLfloat values[3] = {GLfloat(params[0]), pname == 0x8129 ? GLfloat(params[1]) : 0.0f,
                             pname == 0x8129 ? GLfloat(params[2]) : 0.0f};
  SetPointParameter(ctx, pname, values, true, "glPointParameteriv");
}

void ClampColor(Context& ctx, GLenum target, GLenum clamp) {
  // GL_CLAMP_VERTEX_COLOR and GL_CLAMP_FRAGMENT_COLOR are compatibility-profile targets.
  if (target != GL_CLAMP_READ_COLOR) return ctx.Error(GL_INVALID_ENUM, "glClampColor", "invalid target");
  if (clamp != GL_TRUE && clamp != GL_FALSE && clamp != GL_FIXED_ONLY)
    return ctx.Error(GL_INVALID_ENUM, "glClampColor", "clamp must be GL_TRUE, GL_FALSE or GL_FIXED_ONLY");
  ctx.state.clamp_read_color = clamp;
}

// GL converts the float: boolean parameters are non-zero, integer ones round to the nearest integer.
void PixelStoref(Context& ctx, GLenum pname, GLfloat param) {
  PixelStorei(ctx, pname, static_cast<GLint>(std::lround(param)));
}

}  // namespace caldera::gl
