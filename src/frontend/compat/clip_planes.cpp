// User clip planes (GL 2.1 §2.12): glClipPlane stores each plane in eye space, multiplied by the inverse of
// the modelview matrix current when it is given, so that later matrix changes do not move it. The enables
// are the core GL_CLIP_DISTANCEi flags (GL_CLIP_PLANEi has the same value). Drawing clips through
// gl_ClipDistance: the fixed-function programs write one distance per enabled plane (ff_program.cpp), GLSL
// 1.x programs get them from gl_ClipVertex or gl_Position (shader/compat_builtins.cpp, builtin_uniforms.cpp).
#include "frontend/compat/compat_impl.h"
#include "frontend/compat/immediate.h"

namespace caldera::compat {

int ClipPlaneIndex(GLenum plane) {
  return plane >= GL_CLIP_PLANE0 && plane < GLenum(GL_CLIP_PLANE0 + kClipPlanes) ? int(plane - GL_CLIP_PLANE0)
                                                                                 : -1;
}

uint32_t EnabledClipPlanes(const Context& ctx) {
  uint32_t mask = 0;
  for (int i = 0; i < kClipPlanes; ++i)
    if (ctx.state.clip_distance[size_t(i)]) mask |= 1u << i;
  return mask;
}

}  // namespace caldera::compat

namespace caldera::gl {
using namespace caldera::compat;

namespace {

template <typename T>
void SetPlane(Context& ctx, GLenum plane, const T* equation, const char* function) {
  const int i = ClipPlaneIndex(plane);
  if (i < 0) return ctx.Error(GL_INVALID_ENUM, function, "plane is not GL_CLIP_PLANEi");
  if (!equation) return;
  // (p1 p2 p3 p4) times the inverse modelview: a row vector, so column c of the result dots the plane with
  // column c of the inverse.
  const Mat4 inv = Inverse(ctx.compat->modelview.back());
  auto& out = ctx.compat->clip_planes[size_t(i)];
  for (int c = 0; c < 4; ++c) {
    float s = 0;
    for (int r = 0; r < 4; ++r) s += float(equation[r]) * inv.m[size_t(c * 4 + r)];
    out[size_t(c)] = s;
  }
}

template <typename T>
void GetPlane(Context& ctx, GLenum plane, T* equation, const char* function) {
  const int i = ClipPlaneIndex(plane);
  if (i < 0) return ctx.Error(GL_INVALID_ENUM, function, "plane is not GL_CLIP_PLANEi");
  if (!equation) return;
  for (int c = 0; c < 4; ++c) equation[c] = T(ctx.compat->clip_planes[size_t(i)][size_t(c)]);
}

}  // namespace

void ClipPlane(Context& ctx, GLenum plane, const GLdouble* equation) {
  SetPlane(ctx, plane, equation, "glClipPlane");
}

void GetClipPlane(Context& ctx, GLenum plane, GLdouble* equation) {
  GetPlane(ctx, plane, equation, "glGetClipPlane");
}

void ClipPlanef(Context& ctx, GLenum p, const GLfloat* eqn) {
  SetPlane(ctx, p, eqn, "glClipPlanef");
}

void GetClipPlanef(Context& ctx, GLenum plane, GLfloat* equation) {
  GetPlane(ctx, plane, equation, "glGetClipPlanef");
}

}  // namespace caldera::gl
