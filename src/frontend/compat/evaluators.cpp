// Evaluators (GL 2.1 §5.1): glMap1/glMap2 define Bézier curves and patches over a domain; glEvalCoord
// evaluates every enabled map at a parameter and issues the vertex (with the evaluated colour, index,
// normal and texture coordinates, or the normal GL_AUTO_NORMAL derives from the patch) as glVertex would,
// leaving the current attributes as they were; glMapGrid/glEvalMesh/glEvalPoint walk evenly spaced
// parameters. Evaluation runs on the CPU by de Casteljau's construction, so an evaluated surface is ordinary
// immediate-mode vertices (batched, in display lists, in selection and feedback) and costs the programs
// nothing. Old programs draw their teapots this way (GLUT's glutSolidTeapot).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "frontend/compat/compat_impl.h"
#include "frontend/compat/hooks.h"
#include "frontend/compat/immediate.h"

namespace caldera::compat {
namespace {

constexpr int kComponents[kEvalTargets] = {4, 1, 3, 1, 2, 3, 4, 3, 4};
constexpr GLenum kMap1First = 0x0D90, kMap2First = 0x0DB0;  // GL_MAP1_COLOR_4, GL_MAP2_COLOR_4
constexpr GLenum kAutoNormal = 0x0D80;
constexpr GLenum kCoeff = 0x0A00, kOrder = 0x0A01, kDomain = 0x0A02;
constexpr GLenum kGrid1Domain = 0x0DD0, kGrid1Segments = 0x0DD1, kGrid2Domain = 0x0DD2,
                 kGrid2Segments = 0x0DD3, kMaxEvalOrderName = 0x0D30;
constexpr GLenum kPoint = 0x1B00, kLine = 0x1B01, kFill = 0x1B02;  // glEvalMesh modes

int TargetOf(GLenum target, GLenum first) {
  return target >= first && target < first + kEvalTargets ? int(target - first) : -1;
}

// The curve through `order` control points of k components, `stride` floats apart, at t in [0, 1]: its
// value and, when `deriv` is given, its derivative in t (de Casteljau: the last two intermediate points give
// both).
void Bezier(const float* cp, size_t stride, int k, int order, float t, float* out, float* deriv) {
  float tmp[kMaxEvalOrder][4] = {};
  for (int i = 0; i < order; ++i)
    for (int c = 0; c < k; ++c) tmp[i][c] = cp[size_t(i) * stride + size_t(c)];
  if (order == 1) {
    for (int c = 0; c < k; ++c) {
      out[c] = tmp[0][c];
      if (deriv) deriv[c] = 0;
    }
    return;
  }
  for (int m = order; m > 2; --m)
    for (int i = 0; i < m - 1; ++i)
      for (int c = 0; c < k; ++c) tmp[i][c] += t * (tmp[i + 1][c] - tmp[i][c]);
  for (int c = 0; c < k; ++c) {
    out[c] = tmp[0][c] + t * (tmp[1][c] - tmp[0][c]);
    if (deriv) deriv[c] = float(order - 1) * (tmp[1][c] - tmp[0][c]);
  }
}

// A map's value at (u, v) and, for patches when asked, its partial derivatives in u and v.
void Evaluate(const EvalMap& m, int k, bool two_d, float u, float v, float* out, float* du, float* dv) {
  const float s = (u - m.u1) / (m.u2 - m.u1);
  if (!two_d) return Bezier(m.points.data(), size_t(k), k, m.uorder, s, out, nullptr);
  const float t = (v - m.v1) / (m.v2 - m.v1);
  // Each row of constant u is a curve in v: its value and v-derivative at t; then the curve through those.
  float rows[kMaxEvalOrder][4] = {}, row_dv[kMaxEvalOrder][4] = {};
  for (int i = 0; i < m.uorder; ++i)
    Bezier(m.points.data() + size_t(i) * size_t(m.vorder) * size_t(k), size_t(k), k, m.vorder, t, rows[i],
           dv ? row_dv[i] : nullptr);
  Bezier(&rows[0][0], 4, k, m.uorder, s, out, du);
  if (dv) Bezier(&row_dv[0][0], 4, k, m.uorder, s, dv, nullptr);
  for (int c = 0; du && c < k; ++c) du[c] /= (m.u2 - m.u1);
  for (int c = 0; dv && c < k; ++c) dv[c] /= (m.v2 - m.v1);
}

// GL_AUTO_NORMAL: the normalised cross product of the patch's partial derivatives (of x/w, y/w, z/w for
// GL_MAP2_VERTEX_4, by the quotient rule up to the positive factor 1/w^2).
bool AutoNormal(const float* p, const float* du, const float* dv, bool rational, float n[3]) {
  float a[3], b[3];
  for (int c = 0; c < 3; ++c) {
    a[c] = rational ? du[c] * p[3] - p[c] * du[3] : du[c];
    b[c] = rational ? dv[c] * p[3] - p[c] * dv[3] : dv[c];
  }
  n[0] = a[1] * b[2] - a[2] * b[1];
  n[1] = a[2] * b[0] - a[0] * b[2];
  n[2] = a[0] * b[1] - a[1] * b[0];
  const float len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (len == 0) return false;
  for (int c = 0; c < 3; ++c) n[c] /= len;
  return true;
}

void EvalCoordAt(Context& ctx, bool two_d, float u, float v) {
  State& st = *ctx.compat;
  const auto& maps = two_d ? st.eval.map2 : st.eval.map1;
  const int vertex = maps[kEvalVertex4].enabled   ? kEvalVertex4
                     : maps[kEvalVertex3].enabled ? kEvalVertex3
                                                  : -1;
  if (vertex < 0) return;  // no vertex map: nothing is issued (GL 2.1 §5.1)
  // The evaluated attributes go with this vertex only: the current values are put back after it.
  float color[4], normal[3], texcoord[4];
  std::memcpy(color, st.color, sizeof color);
  std::memcpy(normal, st.normal, sizeof normal);
  std::memcpy(texcoord, st.texcoord[0], sizeof texcoord);
  const float index = st.index;
  float value[4] = {};
  auto eval = [&](int target) {
    Evaluate(maps[size_t(target)], kComponents[target], two_d, u, v, value, nullptr, nullptr);
  };
  if (maps[kEvalColor4].enabled) eval(kEvalColor4), std::memcpy(st.color, value, sizeof st.color);
  if (maps[kEvalIndex].enabled) eval(kEvalIndex), st.index = value[0];
  // Only the texture map of the most coordinates counts.
  for (int target = kEvalTexCoord4; target >= kEvalTexCoord1; --target) {
    if (!maps[size_t(target)].enabled) continue;
    eval(target);
    const int n = kComponents[target];
    for (int c = 0; c < 4; ++c) st.texcoord[0][c] = c < n ? value[c] : c == 3 ? 1.0f : 0.0f;
    break;
  }
  float position[4] = {0, 0, 0, 1}, du[4] = {}, dv[4] = {};
  const bool auto_normal = two_d && st.eval.auto_normal;
  Evaluate(maps[size_t(vertex)], kComponents[vertex], two_d, u, v, position, auto_normal ? du : nullptr,
           auto_normal ? dv : nullptr);
  if (vertex == kEvalVertex3) du[3] = dv[3] = 0;
  float n[3];
  if (auto_normal) {
    if (AutoNormal(position, du, dv, vertex == kEvalVertex4, n)) std::memcpy(st.normal, n, sizeof n);
  } else if (maps[kEvalNormal].enabled) {
    eval(kEvalNormal);
    std::memcpy(st.normal, value, sizeof st.normal);
  }
  VertexCommon(ctx, position[0], position[1], position[2], position[3]);
  std::memcpy(st.color, color, sizeof color);
  std::memcpy(st.normal, normal, sizeof normal);
  std::memcpy(st.texcoord[0], texcoord, sizeof texcoord);
  st.index = index;
}

// Grid parameter i of n steps from a to b: b itself at i == n (GL 2.1 §5.1).
float GridAt(int i, int n, float a, float b) {
  return i == n ? b : a + float(i) * (b - a) / float(n);
}

// A glMap call's map, checked and copied; or the error it raises (when it runs, from a display list).
struct LoadedEvalMap {
  GLenum error = GL_NO_ERROR;
  const char* why = "";
  int target = -1;
  bool two_d = false;
  EvalMap map;
};

LoadedEvalMap FailedEvalMap(GLenum error, const char* why) {
  LoadedEvalMap m;
  m.error = error, m.why = why;
  return m;
}

template <typename T>
LoadedEvalMap LoadMap(bool two_d, GLenum target, T u1, T u2, GLint ustride, GLint uorder, T v1, T v2,
                      GLint vstride, GLint vorder, const T* points) {
  const int t = TargetOf(target, two_d ? kMap2First : kMap1First);
  if (t < 0) return FailedEvalMap(GL_INVALID_ENUM, "invalid target");
  const int k = kComponents[t];
  if (u1 == u2 || (two_d && v1 == v2)) return FailedEvalMap(GL_INVALID_VALUE, "empty domain");
  if (uorder < 1 || uorder > kMaxEvalOrder || (two_d && (vorder < 1 || vorder > kMaxEvalOrder)))
    return FailedEvalMap(GL_INVALID_VALUE, "order out of range");
  if (ustride < k || (two_d && vstride < k))
    return FailedEvalMap(GL_INVALID_VALUE, "stride below the target's size");
  if (!points) return FailedEvalMap(GL_INVALID_VALUE, "points is null");
  LoadedEvalMap m;
  m.target = t, m.two_d = two_d;
  EvalMap& map = m.map;
  map.uorder = uorder, map.vorder = two_d ? vorder : 1;
  map.u1 = float(u1), map.u2 = float(u2), map.v1 = two_d ? float(v1) : 0, map.v2 = two_d ? float(v2) : 1;
  map.points.reserve(size_t(uorder) * size_t(map.vorder) * size_t(k));
  for (int i = 0; i < uorder; ++i)
    for (int j = 0; j < map.vorder; ++j)
      for (int c = 0; c < k; ++c)
        map.points.push_back(
            float(points[size_t(i) * size_t(ustride) + size_t(j) * size_t(vstride) + size_t(c)]));
  return m;
}

void StoreMap(Context& ctx, const char* fn, const LoadedEvalMap& m) {
  if (m.error != GL_NO_ERROR) return ctx.Error(m.error, fn, m.why);
  EvalMap& dst = (m.two_d ? ctx.compat->eval.map2 : ctx.compat->eval.map1)[size_t(m.target)];
  const bool enabled = dst.enabled;
  dst = m.map;
  dst.enabled = enabled;
}

// glMap1/glMap2: compiled into a display list with the control points read now (GL 2.1 §5.4).
template <typename T>
void Map(Context& ctx, const char* fn, bool two_d, GLenum target, T u1, T u2, GLint ustride, GLint uorder,
         T v1, T v2, GLint vstride, GLint vorder, const T* points) {
  auto loaded = std::make_shared<LoadedEvalMap>(
      LoadMap(two_d, target, u1, u2, ustride, uorder, v1, v2, vstride, vorder, points));
  CompileOrRun(ctx, fn, [fn, loaded](Context& c) { StoreMap(c, fn, *loaded); });
}

template <typename T>
void GetMap(Context& ctx, const char* fn, GLenum target, GLenum query, T* out) {
  const EvalState& e = ctx.compat->eval;
  int t = TargetOf(target, kMap1First);
  const bool two_d = t < 0;
  if (two_d) t = TargetOf(target, kMap2First);
  if (t < 0) return ctx.Error(GL_INVALID_ENUM, fn, "invalid target");
  const EvalMap& m = (two_d ? e.map2 : e.map1)[size_t(t)];
  if (query != kCoeff && query != kOrder && query != kDomain)
    return ctx.Error(GL_INVALID_ENUM, fn, "invalid query");
  if (!out) return;
  auto put = [](float v) {
    if constexpr (std::is_integral_v<T>) return T(std::lround(v));
    return T(v);
  };
  if (query == kCoeff) {
    for (size_t i = 0; i < m.points.size(); ++i) out[i] = put(m.points[i]);
  } else if (query == kOrder) {
    out[0] = T(m.uorder);
    if (two_d) out[1] = T(m.vorder);
  } else {
    out[0] = put(m.u1), out[1] = put(m.u2);
    if (two_d) out[2] = put(m.v1), out[3] = put(m.v2);
  }
}

}  // namespace

EvalState::EvalState() {
  // GL 2.1 table 6.24: order 1, domain [0, 1], and the control point of each target's initial value.
  static const float kInitial[kEvalTargets][4] = {{1, 1, 1, 1}, {1},          {0, 0, 1}, {0},         {0, 0},
                                                  {0, 0, 0},    {0, 0, 0, 1}, {0, 0, 0}, {0, 0, 0, 1}};
  for (int t = 0; t < kEvalTargets; ++t) {
    map1[size_t(t)].points.assign(kInitial[t], kInitial[t] + kComponents[t]);
    map2[size_t(t)].points = map1[size_t(t)].points;
  }
}

void EvalCoord(Context& ctx, int dims, float u, float v) {
  EvalCoordAt(ctx, dims == 2, u, v);
}

bool SetEvalCapability(Context& ctx, GLenum cap, bool value) {
  EvalState& e = ctx.compat->eval;
  if (ctx.IsES1()) return false;
  if (cap == kAutoNormal) return e.auto_normal = value, true;
  if (int t = TargetOf(cap, kMap1First); t >= 0) return e.map1[size_t(t)].enabled = value, true;
  if (int t = TargetOf(cap, kMap2First); t >= 0) return e.map2[size_t(t)].enabled = value, true;
  return false;
}

bool QueryEvalCapability(const Context& ctx, GLenum cap, bool* value) {
  const EvalState& e = ctx.compat->eval;
  if (ctx.IsES1()) return false;
  if (cap == kAutoNormal) return *value = e.auto_normal, true;
  if (int t = TargetOf(cap, kMap1First); t >= 0) return *value = e.map1[size_t(t)].enabled, true;
  if (int t = TargetOf(cap, kMap2First); t >= 0) return *value = e.map2[size_t(t)].enabled, true;
  return false;
}

int QueryEvalState(const Context& ctx, GLenum pname, double* out) {
  const EvalState& e = ctx.compat->eval;
  if (ctx.IsES1()) return 0;
  switch (pname) {
    case kGrid1Domain:
      return out[0] = e.grid1_u1, out[1] = e.grid1_u2, 2;
    case kGrid1Segments:
      return out[0] = e.grid1_n, 1;
    case kGrid2Domain:
      return out[0] = e.grid2_u1, out[1] = e.grid2_u2, out[2] = e.grid2_v1, out[3] = e.grid2_v2, 4;
    case kGrid2Segments:
      return out[0] = e.grid2_un, out[1] = e.grid2_vn, 2;
    case kMaxEvalOrderName:
      return out[0] = kMaxEvalOrder, 1;
    default:
      return 0;
  }
}

AttribRestore SaveEvalState(Context& ctx, bool grids) {
  State& st = *ctx.compat;
  EvalState saved = st.eval;
  for (auto& m : saved.map1) m.points.clear();  // control points are in no attribute group
  for (auto& m : saved.map2) m.points.clear();
  return [saved, grids](Context& c) {
    EvalState& e = c.compat->eval;
    for (int t = 0; t < kEvalTargets; ++t) {
      e.map1[size_t(t)].enabled = saved.map1[size_t(t)].enabled;
      e.map2[size_t(t)].enabled = saved.map2[size_t(t)].enabled;
    }
    e.auto_normal = saved.auto_normal;
    if (!grids) return;
    e.grid1_n = saved.grid1_n, e.grid1_u1 = saved.grid1_u1, e.grid1_u2 = saved.grid1_u2;
    e.grid2_un = saved.grid2_un, e.grid2_vn = saved.grid2_vn;
    e.grid2_u1 = saved.grid2_u1, e.grid2_u2 = saved.grid2_u2, e.grid2_v1 = saved.grid2_v1,
    e.grid2_v2 = saved.grid2_v2;
  };
}

}  // namespace caldera::compat

namespace caldera::gl {
using namespace caldera::compat;

void Map1f(Context& ctx, GLenum target, GLfloat u1, GLfloat u2, GLint stride, GLint order,
           const GLfloat* points) {
  Map<GLfloat>(ctx, "glMap1f", false, target, u1, u2, stride, order, 0, 1, 0, 1, points);
}
void Map1d(Context& ctx, GLenum target, GLdouble u1, GLdouble u2, GLint stride, GLint order,
           const GLdouble* points) {
  Map<GLdouble>(ctx, "glMap1d", false, target, u1, u2, stride, order, 0, 1, 0, 1, points);
}
void Map2f(Context& ctx, GLenum target, GLfloat u1, GLfloat u2, GLint ustride, GLint uorder, GLfloat v1,
           GLfloat v2, GLint vstride, GLint vorder, const GLfloat* points) {
  Map<GLfloat>(ctx, "glMap2f", true, target, u1, u2, ustride, uorder, v1, v2, vstride, vorder, points);
}
void Map2d(Context& ctx, GLenum target, GLdouble u1, GLdouble u2, GLint ustride, GLint uorder, GLdouble v1,
           GLdouble v2, GLint vstride, GLint vorder, const GLdouble* points) {
  Map<GLdouble>(ctx, "glMap2d", true, target, u1, u2, ustride, uorder, v1, v2, vstride, vorder, points);
}

void GetMapfv(Context& ctx, GLenum target, GLenum query, GLfloat* v) {
  GetMap(ctx, "glGetMapfv", target, query, v);
}
void GetMapdv(Context& ctx, GLenum target, GLenum query, GLdouble* v) {
  GetMap(ctx, "glGetMapdv", target, query, v);
}
void GetMapiv(Context& ctx, GLenum target, GLenum query, GLint* v) {
  GetMap(ctx, "glGetMapiv", target, query, v);
}

void MapGrid1f(Context& ctx, GLint un, GLfloat u1, GLfloat u2) {
  if (un <= 0) return ctx.Error(GL_INVALID_VALUE, "glMapGrid1", "no segments");
  EvalState& e = ctx.compat->eval;
  e.grid1_n = un, e.grid1_u1 = u1, e.grid1_u2 = u2;
}
void MapGrid1d(Context& ctx, GLint un, GLdouble u1, GLdouble u2) {
  MapGrid1f(ctx, un, GLfloat(u1), GLfloat(u2));
}
void MapGrid2f(Context& ctx, GLint un, GLfloat u1, GLfloat u2, GLint vn, GLfloat v1, GLfloat v2) {
  if (un <= 0 || vn <= 0) return ctx.Error(GL_INVALID_VALUE, "glMapGrid2", "no segments");
  EvalState& e = ctx.compat->eval;
  e.grid2_un = un, e.grid2_u1 = u1, e.grid2_u2 = u2;
  e.grid2_vn = vn, e.grid2_v1 = v1, e.grid2_v2 = v2;
}
void MapGrid2d(Context& ctx, GLint un, GLdouble u1, GLdouble u2, GLint vn, GLdouble v1, GLdouble v2) {
  MapGrid2f(ctx, un, GLfloat(u1), GLfloat(u2), vn, GLfloat(v1), GLfloat(v2));
}

void EvalPoint1(Context& ctx, GLint i) {
  const EvalState& e = ctx.compat->eval;
  EvalCoordAt(ctx, false, GridAt(i, e.grid1_n, e.grid1_u1, e.grid1_u2), 0);
}
void EvalPoint2(Context& ctx, GLint i, GLint j) {
  const EvalState& e = ctx.compat->eval;
  EvalCoordAt(ctx, true, GridAt(i, e.grid2_un, e.grid2_u1, e.grid2_u2),
              GridAt(j, e.grid2_vn, e.grid2_v1, e.grid2_v2));
}

void EvalMesh1(Context& ctx, GLenum mode, GLint i1, GLint i2) {
  if (mode != kPoint && mode != kLine) return ctx.Error(GL_INVALID_ENUM, "glEvalMesh1", "invalid mode");
  Begin(ctx, mode == kPoint ? GL_POINTS : GL_LINE_STRIP);
  for (GLint i = i1; i <= i2; ++i) EvalPoint1(ctx, i);
  End(ctx);
}

void EvalMesh2(Context& ctx, GLenum mode, GLint i1, GLint i2, GLint j1, GLint j2) {
  switch (mode) {
    case kFill: {
      // Quad strips along u, one per step in v, as GL 2.1 §5.1 writes the mesh. Smooth-shaded and filled,
      // the same vertices as a triangle strip are the same quads split along their other diagonal (how a
      // quad is split is the implementation's choice): Mesa draws them so, and evaluated colours and normals
      // then interpolate as on Mesa. Flat shading (one colour per quad) and outlines (no diagonals) need
      // the quads.
      const GLState& s = ctx.state;
      const bool as_triangles =
          ctx.compat->shade_model == GL_SMOOTH && s.polygon_mode == GL_FILL && s.polygon_mode_back == GL_FILL;
      for (GLint j = j1; j < j2; ++j) {
        Begin(ctx, as_triangles ? GL_TRIANGLE_STRIP : GL_QUAD_STRIP);
        for (GLint i = i1; i <= i2; ++i) {
          EvalPoint2(ctx, i, j);
          EvalPoint2(ctx, i, j + 1);
        }
        End(ctx);
      }
      return;
    }
    case kLine:
      for (GLint j = j1; j <= j2; ++j) {
        Begin(ctx, GL_LINE_STRIP);
        for (GLint i = i1; i <= i2; ++i) EvalPoint2(ctx, i, j);
        End(ctx);
      }
      for (GLint i = i1; i <= i2; ++i) {
        Begin(ctx, GL_LINE_STRIP);
        for (GLint j = j1; j <= j2; ++j) EvalPoint2(ctx, i, j);
        End(ctx);
      }
      return;
    case kPoint:
      Begin(ctx, GL_POINTS);
      for (GLint j = j1; j <= j2; ++j)
        for (GLint i = i1; i <= i2; ++i) EvalPoint2(ctx, i, j);
      End(ctx);
      return;
    default:
      return ctx.Error(GL_INVALID_ENUM, "glEvalMesh2", "invalid mode");
  }
}

}  // namespace caldera::gl
