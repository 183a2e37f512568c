// Matrix stacks (GL 2.1 §2.11.2): modelview, projection and one texture stack per fixed-function unit. The
// matrices become uniforms of the generated programs at draw time (ff_program.cpp).
#include <cmath>

#include "frontend/compat/compat_impl.h"
#include "frontend/compat/immediate.h"

namespace caldera::compat {

Mat4 Multiply(const Mat4& a, const Mat4& b) {
  Mat4 r;
  for (int c = 0; c < 4; ++c)
    for (int row = 0; row < 4; ++row) {
      float s = 0;
      for (int k = 0; k < 4; ++k) s += a.m[k * 4 + row] * b.m[c * 4 + k];
      r.m[c * 4 + row] = s;
    }
  return r;
}

void TransformPoint(const Mat4& a, const float in[4], float out[4]) {
  for (int row = 0; row < 4; ++row)
    out[row] = a.m[row] * in[0] + a.m[4 + row] * in[1] + a.m[8 + row] * in[2] + a.m[12 + row] * in[3];
}

namespace {

std::vector<Mat4>& Stack(State& st, GLenum mode, GLuint unit) {
  switch (mode) {
    case GL_PROJECTION:
      return st.projection;
    case GL_TEXTURE:
      return st.units[unit < kTexUnits ? unit : 0].matrix;
    default:
      return st.modelview;
  }
}

size_t MaxDepth(GLenum mode) {
  return mode == GL_MODELVIEW ? kModelviewDepth : mode == GL_PROJECTION ? kProjectionDepth : kTextureDepth;
}

GLuint Unit(const Context& ctx) {
  return ctx.active_texture;
}

void MultCurrent(Context& ctx, const Mat4& m) {
  State& st = *ctx.compat;
  Mat4& top = Top(st, st.matrix_mode, Unit(ctx));
  top = Multiply(top, m);
}

template <typename T>
Mat4 FromArray(const T* v, bool transpose) {
  Mat4 m;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) m.m[c * 4 + r] = float(transpose ? v[r * 4 + c] : v[c * 4 + r]);
  return m;
}

}  // namespace

Mat4& Top(State& st, GLenum mode, GLuint unit) {
  return Stack(st, mode, unit).back();
}

}  // namespace caldera::compat

namespace caldera::gl {
using namespace caldera::compat;

void MatrixMode(Context& ctx, GLenum mode) {
  if (mode != GL_MODELVIEW && mode != GL_PROJECTION && mode != GL_TEXTURE)
    return ctx.Error(GL_INVALID_ENUM, "glMatrixMode", "invalid mode");
  ctx.compat->matrix_mode = mode;
}

void LoadIdentity(Context& ctx) {
  State& st = *ctx.compat;
  Top(st, st.matrix_mode, Unit(ctx)) = Mat4{};
}

void PushMatrix(Context& ctx) {
  State& st = *ctx.compat;
  auto& stack = Stack(st, st.matrix_mode, Unit(ctx));
  if (stack.size() >= MaxDepth(st.matrix_mode))
    return ctx.Error(GL_STACK_OVERFLOW, "glPushMatrix", "the matrix stack is full");
  stack.push_back(stack.back());
}

void PopMatrix(Context& ctx) {
  State& st = *ctx.compat;
  auto& stack = Stack(st, st.matrix_mode, Unit(ctx));
  if (stack.size() <= 1)
    return ctx.Error(GL_STACK_UNDERFLOW, "glPopMatrix", "the matrix stack has one entry");
  stack.pop_back();
}

void LoadMatrixf(Context& ctx, const GLfloat* m) {
  if (!m) return;
  State& st = *ctx.compat;
  Top(st, st.matrix_mode, Unit(ctx)) = FromArray(m, false);
}
void LoadMatrixd(Context& ctx, const GLdouble* m) {
  if (!m) return;
  State& st = *ctx.compat;
  Top(st, st.matrix_mode, Unit(ctx)) = FromArray(m, false);
}
void LoadTransposeMatrixf(Context& ctx, const GLfloat* m) {
  if (!m) return;
  State& st = *ctx.compat;
  Top(st, st.matrix_mode, Unit(ctx)) = FromArray(m, true);
}
void LoadTransposeMatrixd(Context& ctx, const GLdouble* m) {
  if (!m) return;
  State& st = *ctx.compat;
  Top(st, st.matrix_mode, Unit(ctx)) = FromArray(m, true);
}
void MultMatrixf(Context& ctx, const GLfloat* m) {
  if (m) MultCurrent(ctx, FromArray(m, false));
}
void MultMatrixd(Context& ctx, const GLdouble* m) {
  if (m) MultCurrent(ctx, FromArray(m, false));
}
void MultTransposeMatrixf(Context& ctx, const GLfloat* m) {
  if (m) MultCurrent(ctx, FromArray(m, true));
}
void MultTransposeMatrixd(Context& ctx, const GLdouble* m) {
  if (m) MultCurrent(ctx, FromArray(m, true));
}

void Translatef(Context& ctx, GLfloat x, GLfloat y, GLfloat z) {
  Mat4 t;
  t.m[12] = x, t.m[13] = y, t.m[14] = z;
  MultCurrent(ctx, t);
}
void Translated(Context& ctx, GLdouble x, GLdouble y, GLdouble z) {
  Translatef(ctx, float(x), float(y), float(z));
}

void Scalef(Context& ctx, GLfloat x, GLfloat y, GLfloat z) {
  Mat4 s;
  s.m[0] = x, s.m[5] = y, s.m[10] = z;
  MultCurrent(ctx, s);
}
void Scaled(Context& ctx, GLdouble x, GLdouble y, GLdouble z) {
  Scalef(ctx, float(x), float(y), float(z));
}

void Rotated(Context& ctx, GLdouble angle, GLdouble x, GLdouble y, GLdouble z) {
  // GL 2.1 §2.11.2: rotation by `angle` degrees about (x, y, z), normalized first.
  double len = std::sqrt(x * x + y * y + z * z);
  if (len == 0) return;
  x /= len, y /= len, z /= len;
  double a = angle * M_PI / 180.0, c = std::cos(a), s = std::sin(a), k = 1 - c;
  Mat4 r;
  r.m[0] = float(x * x * k + c), r.m[4] = float(x * y * k - z * s), r.m[8] = float(x * z * k + y * s);
  r.m[1] = float(y * x * k + z * s), r.m[5] = float(y * y * k + c), r.m[9] = float(y * z * k - x * s);
  r.m[2] = float(x * z * k - y * s), r.m[6] = float(y * z * k + x * s), r.m[10] = float(z * z * k + c);
  MultCurrent(ctx, r);
}
void Rotatef(Context& ctx, GLfloat angle, GLfloat x, GLfloat y, GLfloat z) {
  Rotated(ctx, angle, x, y, z);
}

void Ortho(Context& ctx, GLdouble l, GLdouble r, GLdouble b, GLdouble t, GLdouble n, GLdouble f) {
  if (l == r || b == t || n == f) return ctx.Error(GL_INVALID_VALUE, "glOrtho", "an empty volume");
  Mat4 o;
  o.m[0] = float(2 / (r - l)), o.m[5] = float(2 / (t - b)), o.m[10] = float(-2 / (f - n));
  o.m[12] = float(-(r + l) / (r - l)), o.m[13] = float(-(t + b) / (t - b)),
  o.m[14] = float(-(f + n) / (f - n));
  MultCurrent(ctx, o);
}

void Frustum(Context& ctx, GLdouble l, GLdouble r, GLdouble b, GLdouble t, GLdouble n, GLdouble f) {
  if (n <= 0 || f <= 0 || l == r || b == t || n == f)
    return ctx.Error(GL_INVALID_VALUE, "glFrustum", "invalid planes");
  Mat4 p;
  p.m[0] = float(2 * n / (r - l)), p.m[5] = float(2 * n / (t - b));
  p.m[8] = float((r + l) / (r - l)), p.m[9] = float((t + b) / (t - b)), p.m[10] = float(-(f + n) / (f - n));
  p.m[11] = -1, p.m[14] = float(-2 * f * n / (f - n)), p.m[15] = 0;
  MultCurrent(ctx, p);
}

}  // namespace caldera::gl
