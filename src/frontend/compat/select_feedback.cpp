// Selection and feedback (GL 2.1 §5.2, §5.3): outside GL_RENDER, primitives go through the fixed-function
// transform and the clip volume on the CPU, as Mesa does, and become hit records (the name stack and the
// depth range of what met the clip volume) or feedback values (tokens and window-space vertices); nothing
// reaches the pipe. The vertex colour is the current colour clamped, not lit, and texture coordinates go
// through texture unit 0's matrix without texgen (documented limitations, like an application program being
// ignored here).
#include <algorithm>
#include <cmath>

#include "frontend/compat/compat_impl.h"
#include "frontend/compat/hooks.h"
#include "frontend/compat/immediate.h"
#include "util/log.h"

namespace caldera::compat {
namespace {

// A vertex after the modelview and projection matrices, with what feedback reports of it.
struct ClipVertex {
  float clip[4];
  float eye[4];  // user clip planes are in eye space
  float color[4];
  float texcoord[4];
};

ClipVertex Transform(const State& st, const Vertex& v) {
  ClipVertex o;
  TransformPoint(st.modelview.back(), v.position, o.eye);
  TransformPoint(st.projection.back(), o.eye, o.clip);
  for (int i = 0; i < 4; ++i) o.color[i] = std::clamp(v.color[i], 0.0f, 1.0f);
  TransformPoint(st.units[0].matrix.back(), v.texcoord[0], o.texcoord);
  return o;
}

ClipVertex Lerp(const ClipVertex& a, const ClipVertex& b, float t) {
  ClipVertex o;
  for (int i = 0; i < 4; ++i) {
    o.clip[i] = a.clip[i] + (b.clip[i] - a.clip[i]) * t;
    o.eye[i] = a.eye[i] + (b.eye[i] - a.eye[i]) * t;
    o.color[i] = a.color[i] + (b.color[i] - a.color[i]) * t;
    o.texcoord[i] = a.texcoord[i] + (b.texcoord[i] - a.texcoord[i]) * t;
  }
  return o;
}

// The clip volume as half-spaces: -w <= x, y, z <= w (z only without GL_DEPTH_CLAMP) and each enabled user
// clip plane; a vertex is inside where every distance is >= 0.
class ClipVolume {
 public:
  explicit ClipVolume(const Context& ctx) : st_(*ctx.compat) {
    planes_ = ctx.state.depth_clamp ? 4 : 6;
    user_ = EnabledClipPlanes(ctx);
  }
  template <typename Fn>
  void ForEachPlane(Fn&& fn) const {
    for (int p = 0; p < planes_; ++p) fn(p);
    for (int p = 0; p < kClipPlanes; ++p)
      if (user_ & (1u << p)) fn(6 + p);
  }
  float Distance(int plane, const ClipVertex& v) const {
    if (plane < 6) {
      const float c = v.clip[plane / 2];
      return v.clip[3] + ((plane & 1) ? -c : c);
    }
    const auto& e = st_.clip_planes[size_t(plane - 6)];
    return e[0] * v.eye[0] + e[1] * v.eye[1] + e[2] * v.eye[2] + e[3] * v.eye[3];
  }
  bool Inside(const ClipVertex& v) const {
    bool in = true;
    ForEachPlane([&](int p) { in = in && Distance(p, v) >= 0; });
    return in;
  }
  // Trims segment a-b to the volume; false when nothing of it is inside.
  bool ClipSegment(ClipVertex& a, ClipVertex& b) const {
    float t0 = 0, t1 = 1;
    bool visible = true;
    ForEachPlane([&](int p) {
      const float da = Distance(p, a), db = Distance(p, b);
      if (da < 0 && db < 0)
        visible = false;
      else if (da < 0)
        t0 = std::max(t0, da / (da - db));
      else if (db < 0)
        t1 = std::min(t1, da / (da - db));
    });
    if (!visible || t0 > t1) return false;
    const ClipVertex a0 = a, b0 = b;
    if (t0 > 0) a = Lerp(a0, b0, t0);
    if (t1 < 1) b = Lerp(a0, b0, t1);
    return true;
  }
  // Sutherland-Hodgman against each half-space in turn.
  void ClipPolygon(std::vector<ClipVertex>& poly) const {
    std::vector<ClipVertex> out;
    ForEachPlane([&](int p) {
      if (poly.empty()) return;
      out.clear();
      for (size_t i = 0; i < poly.size(); ++i) {
        const ClipVertex& a = poly[i];
        const ClipVertex& b = poly[(i + 1) % poly.size()];
        const float da = Distance(p, a), db = Distance(p, b);
        if (da >= 0) out.push_back(a);
        if ((da >= 0) != (db >= 0)) out.push_back(Lerp(a, b, da / (da - db)));
      }
      poly.swap(out);
    });
  }

 private:
  const State& st_;
  int planes_ = 6;
  uint32_t user_ = 0;
};

// Window coordinates (GL 2.1 §2.11): the viewport and depth range applied to normalized device coordinates;
// w stays the clip w.
struct Window {
  float v[4];
};

Window ToWindow(const Context& ctx, const ClipVertex& c) {
  const GLint* vp = ctx.state.viewport;
  const float n = ctx.state.depth_range[0], f = ctx.state.depth_range[1];
  const float inv = c.clip[3] != 0 ? 1.0f / c.clip[3] : 0.0f;
  Window w;
  w.v[0] = float(vp[0]) + (c.clip[0] * inv + 1) * float(vp[2]) * 0.5f;
  w.v[1] = float(vp[1]) + (c.clip[1] * inv + 1) * float(vp[3]) * 0.5f;
  w.v[2] = n + (c.clip[2] * inv + 1) * (f - n) * 0.5f;
  w.v[3] = c.clip[3];
  return w;
}

// --- selection -----------------------------------------------------------------------------------------

void PutSelect(SelectFeedbackState& s, GLuint value) {
  if (s.select_count < uint64_t(s.select_size)) s.select_buffer[s.select_count] = value;
  ++s.select_count;
}

GLuint DepthWord(float z) {
  // GL 2.1 §5.2: depths in [0, 1] scaled to [0, 2^32 - 1].
  const double scaled = std::round(double(std::clamp(z, 0.0f, 1.0f)) * 4294967295.0);
  return GLuint(std::min(scaled, 4294967295.0));
}

// The hit record of what was hit since the last one: the name stack's depth, min and max depth, the names.
void WriteHitRecord(SelectFeedbackState& s) {
  PutSelect(s, GLuint(s.names.size()));
  PutSelect(s, DepthWord(s.hit_min));
  PutSelect(s, DepthWord(s.hit_max));
  for (GLuint name : s.names) PutSelect(s, name);
  ++s.hits;
  s.hit = false;
  s.hit_min = 1;
  s.hit_max = 0;
}

void Hit(SelectFeedbackState& s, float z) {
  s.hit = true;
  s.hit_min = std::min(s.hit_min, z);
  s.hit_max = std::max(s.hit_max, z);
}

// Name-stack commands write the pending hit record first; outside selection mode they are ignored.
bool BeforeNameStackChange(Context& ctx) {
  SelectFeedbackState& s = ctx.compat->select;
  if (s.mode != GL_SELECT) return false;
  if (s.hit) WriteHitRecord(s);
  return true;
}

// --- feedback ------------------------------------------------------------------------------------------

void PutFeedback(SelectFeedbackState& s, float value) {
  if (s.feedback_count < uint64_t(s.feedback_size)) s.feedback_buffer[s.feedback_count] = value;
  ++s.feedback_count;
}

// One vertex in the layout of the feedback type (GL 2.1 table 5.2).
void PutFeedbackVertex(SelectFeedbackState& s, const float window[4], const float color[4],
                       const float texcoord[4]) {
  const GLenum type = s.feedback_type;
  const int coords = type == GL_2D ? 2 : type == GL_4D_COLOR_TEXTURE ? 4 : 3;
  for (int i = 0; i < coords; ++i) PutFeedback(s, window[i]);
  if (type == GL_2D || type == GL_3D) return;
  for (int i = 0; i < 4; ++i) PutFeedback(s, color[i]);
  if (type == GL_3D_COLOR) return;
  for (int i = 0; i < 4; ++i) PutFeedback(s, texcoord[i]);
}

void PutFeedbackVertex(Context& ctx, const ClipVertex& v) {
  const Window w = ToWindow(ctx, v);
  PutFeedbackVertex(ctx.compat->select, w.v, v.color, v.texcoord);
}

// --- primitives ----------------------------------------------------------------------------------------

void Point(Context& ctx, const ClipVolume& volume, const ClipVertex& v) {
  if (!volume.Inside(v)) return;
  SelectFeedbackState& s = ctx.compat->select;
  if (s.mode == GL_SELECT) return Hit(s, ToWindow(ctx, v).v[2]);
  PutFeedback(s, float(GL_POINT_TOKEN));
  PutFeedbackVertex(ctx, v);
}

// `reset`: the first segment of a primitive, where line stipple restarts (GL_LINE_RESET_TOKEN).
void Segment(Context& ctx, const ClipVolume& volume, ClipVertex a, ClipVertex b, bool reset) {
  if (!volume.ClipSegment(a, b)) return;
  SelectFeedbackState& s = ctx.compat->select;
  if (s.mode == GL_SELECT) {
    Hit(s, ToWindow(ctx, a).v[2]);
    return Hit(s, ToWindow(ctx, b).v[2]);
  }
  PutFeedback(s, float(reset ? GL_LINE_RESET_TOKEN : GL_LINE_TOKEN));
  PutFeedbackVertex(ctx, a);
  PutFeedbackVertex(ctx, b);
}

// Whether the polygon is front-facing, from its window-space signed area (GL 2.1 §2.14.1).
bool FrontFacing(const Context& ctx, const std::vector<Window>& w) {
  float area = 0;
  for (size_t i = 0; i < w.size(); ++i) {
    const Window& a = w[i];
    const Window& b = w[(i + 1) % w.size()];
    area += a.v[0] * b.v[1] - b.v[0] * a.v[1];
  }
  return (area > 0) == (ctx.state.front_face == GL_CCW);
}

// Whether GL_CULL_FACE discards the polygon (GL 2.1 §3.5.1).
bool Culled(const Context& ctx, const std::vector<Window>& w) {
  return ctx.state.cull_face && FaceCulled(ctx, FrontFacing(ctx, w));
}

void Triangle(Context& ctx, const ClipVolume& volume, const ClipVertex& a, const ClipVertex& b,
              const ClipVertex& c) {
  std::vector<ClipVertex> poly{a, b, c};
  volume.ClipPolygon(poly);
  if (poly.size() < 3) return;
  std::vector<Window> window;
  window.reserve(poly.size());
  for (const ClipVertex& v : poly) window.push_back(ToWindow(ctx, v));
  if (Culled(ctx, window)) return;
  SelectFeedbackState& s = ctx.compat->select;
  if (s.mode == GL_SELECT) {
    for (const Window& w : window) Hit(s, w.v[2]);
    return;
  }
  // GL_POLYGON_MODE (one mode for both faces here, as the core state keeps it): edges and corners are
  // reported as lines and points.
  const GLenum mode = ctx.state.polygon_mode;
  if (mode == GL_POINT) {
    for (size_t i = 0; i < poly.size(); ++i) {
      PutFeedback(s, float(GL_POINT_TOKEN));
      PutFeedbackVertex(s, window[i].v, poly[i].color, poly[i].texcoord);
    }
    return;
  }
  if (mode == GL_LINE) {
    for (size_t i = 0; i < poly.size(); ++i) {
      const size_t j = (i + 1) % poly.size();
      PutFeedback(s, float(i == 0 ? GL_LINE_RESET_TOKEN : GL_LINE_TOKEN));
      PutFeedbackVertex(s, window[i].v, poly[i].color, poly[i].texcoord);
      PutFeedbackVertex(s, window[j].v, poly[j].color, poly[j].texcoord);
    }
    return;
  }
  PutFeedback(s, float(GL_POLYGON_TOKEN));
  PutFeedback(s, float(poly.size()));
  for (size_t i = 0; i < poly.size(); ++i) PutFeedbackVertex(s, window[i].v, poly[i].color, poly[i].texcoord);
}

void NoteLimitations(const Context& ctx) {
  if (ctx.program)
    util::LogOnce(
        util::LogLevel::kWarning, "select/feedback program",
        "selection and feedback transform vertices with the fixed-function matrices; the program in "
        "use is not run for them");
  if (ctx.compat->lighting && ctx.compat->select.mode == GL_FEEDBACK)
    util::LogOnce(util::LogLevel::kWarning, "feedback lighting",
                  "feedback reports the current colour: lighting is not applied on the CPU");
}

}  // namespace

void SelectFeedbackPrimitive(Context& ctx, GLenum mode, const std::vector<Vertex>& vertices,
                             const std::vector<Vertex>& triangles) {
  const State& st = *ctx.compat;
  NoteLimitations(ctx);
  const ClipVolume volume(ctx);
  std::vector<ClipVertex> v;
  const auto& source =
      (mode == GL_POINTS || mode == GL_LINES || mode == GL_LINE_STRIP || mode == GL_LINE_LOOP) ? vertices
                                                                                               : triangles;
  v.reserve(source.size());
  for (const Vertex& in : source) v.push_back(Transform(st, in));
  const size_t n = v.size();
  switch (mode) {
    case GL_POINTS:
      for (const ClipVertex& p : v) Point(ctx, volume, p);
      break;
    case GL_LINES:
      for (size_t i = 0; i + 1 < n; i += 2) Segment(ctx, volume, v[i], v[i + 1], true);
      break;
    case GL_LINE_STRIP:
    case GL_LINE_LOOP:
      for (size_t i = 0; i + 1 < n; ++i) Segment(ctx, volume, v[i], v[i + 1], i == 0);
      if (mode == GL_LINE_LOOP && n >= 2) Segment(ctx, volume, v[n - 1], v[0], false);
      break;
    default:
      for (size_t i = 0; i + 2 < n; i += 3) Triangle(ctx, volume, v[i], v[i + 1], v[i + 2]);
      break;
  }
}

void FeedbackRasterToken(Context& ctx, GLenum token) {
  State& st = *ctx.compat;
  SelectFeedbackState& s = st.select;
  if (s.mode != GL_FEEDBACK || !st.pixel.valid) return;
  PutFeedback(s, float(token));
  PutFeedbackVertex(s, st.pixel.position, st.pixel.color, st.pixel.texcoord[0]);
}

void SelectRasterHit(Context& ctx) {
  State& st = *ctx.compat;
  if (st.select.mode == GL_SELECT && st.pixel.valid) Hit(st.select, st.pixel.position[2]);
}

bool FaceCulled(const Context& ctx, bool front) {
  const GLenum cull = ctx.state.cull_mode;
  return cull == GL_FRONT_AND_BACK || (cull == GL_FRONT) == front;
}

int FacingByFixedFunction(Context& ctx, const std::vector<Vertex>& polygon) {
  const ClipVolume volume(ctx);
  std::vector<ClipVertex> clipped;
  clipped.reserve(polygon.size());
  for (const Vertex& v : polygon) clipped.push_back(Transform(*ctx.compat, v));
  volume.ClipPolygon(clipped);
  if (clipped.size() < 3) return -1;  // nothing of it is inside: nothing to draw either way
  std::vector<Window> window;
  window.reserve(clipped.size());
  for (const ClipVertex& v : clipped) window.push_back(ToWindow(ctx, v));
  return FrontFacing(ctx, window) ? 1 : 0;
}

bool CulledByFixedFunction(Context& ctx, const std::vector<Vertex>& polygon) {
  if (!ctx.state.cull_face) return false;
  const int facing = FacingByFixedFunction(ctx, polygon);
  return facing < 0 || FaceCulled(ctx, facing == 1);
}

bool RenderModeDrawsNothing(const Context& ctx) {
  return ctx.compat && OutsideRender(*ctx.compat);
}

int QuerySelectFeedbackState(Context& ctx, GLenum pname, double* out) {
  const SelectFeedbackState& s = ctx.compat->select;
  switch (pname) {
    case GL_RENDER_MODE:
      return out[0] = s.mode, 1;
    case GL_NAME_STACK_DEPTH:
      return out[0] = double(s.names.size()), 1;
    case GL_MAX_NAME_STACK_DEPTH:
      return out[0] = double(SelectFeedbackState::kMaxNameStackDepth), 1;
    case GL_SELECTION_BUFFER_SIZE:
      return out[0] = s.select_size, 1;
    case GL_FEEDBACK_BUFFER_SIZE:
      return out[0] = s.feedback_size, 1;
    case GL_FEEDBACK_BUFFER_TYPE:
      return out[0] = s.feedback_type, 1;
    default:
      return 0;
  }
}

bool QuerySelectFeedbackPointer(const Context& ctx, GLenum pname, const void** out) {
  const SelectFeedbackState& s = ctx.compat->select;
  if (pname == GL_SELECTION_BUFFER_POINTER) return *out = s.select_buffer, true;
  if (pname == GL_FEEDBACK_BUFFER_POINTER) return *out = s.feedback_buffer, true;
  return false;
}

}  // namespace caldera::compat

namespace caldera::gl {
using namespace caldera::compat;

GLint RenderMode(Context& ctx, GLenum mode) {
  const char* fn = "glRenderMode";
  SelectFeedbackState& s = ctx.compat->select;
  if (mode != GL_RENDER && mode != GL_SELECT && mode != GL_FEEDBACK)
    return ctx.Error(GL_INVALID_ENUM, fn, "invalid mode"), 0;
  // GL 2.1 §5.2, §5.3: the buffer must have been named before its mode is entered.
  if (mode == GL_SELECT && !s.select_named)
    return ctx.Error(GL_INVALID_OPERATION, fn, "glSelectBuffer has not been called"), 0;
  if (mode == GL_FEEDBACK && !s.feedback_named)
    return ctx.Error(GL_INVALID_OPERATION, fn, "glFeedbackBuffer has not been called"), 0;
  // What leaving the current mode returns: hit records or values written, -1 if the buffer overflowed.
  GLint result = 0;
  if (s.mode == GL_SELECT) {
    if (s.hit) WriteHitRecord(s);
    result = s.select_count > uint64_t(s.select_size) ? -1 : s.hits;
    s.select_count = 0;
    s.hits = 0;
    s.names.clear();
  } else if (s.mode == GL_FEEDBACK) {
    result = s.feedback_count > uint64_t(s.feedback_size) ? -1 : GLint(s.feedback_count);
    s.feedback_count = 0;
  }
  s.mode = mode;
  s.hit = false;
  s.hit_min = 1;
  s.hit_max = 0;
  return result;
}

void SelectBuffer(Context& ctx, GLsizei size, GLuint* buffer) {
  SelectFeedbackState& s = ctx.compat->select;
  if (size < 0) return ctx.Error(GL_INVALID_VALUE, "glSelectBuffer", "negative size");
  if (s.mode == GL_SELECT) return ctx.Error(GL_INVALID_OPERATION, "glSelectBuffer", "in selection mode");
  if (!buffer && size > 0) return ctx.Error(GL_INVALID_VALUE, "glSelectBuffer", "no buffer");
  s.select_named = true;
  s.select_buffer = buffer;
  s.select_size = buffer ? size : 0;
  s.select_count = 0;
  s.hits = 0;
}

void FeedbackBuffer(Context& ctx, GLsizei size, GLenum type, GLfloat* buffer) {
  const char* fn = "glFeedbackBuffer";
  SelectFeedbackState& s = ctx.compat->select;
  if (type != GL_2D && type != GL_3D && type != GL_3D_COLOR && type != GL_3D_COLOR_TEXTURE &&
      type != GL_4D_COLOR_TEXTURE)
    return ctx.Error(GL_INVALID_ENUM, fn, "invalid type");
  if (size < 0) return ctx.Error(GL_INVALID_VALUE, fn, "negative size");
  if (s.mode == GL_FEEDBACK) return ctx.Error(GL_INVALID_OPERATION, fn, "in feedback mode");
  if (!buffer && size > 0) return ctx.Error(GL_INVALID_VALUE, fn, "no buffer");
  s.feedback_named = true;
  s.feedback_buffer = buffer;
  s.feedback_size = buffer ? size : 0;
  s.feedback_type = type;
  s.feedback_count = 0;
}

void InitNames(Context& ctx) {
  if (!BeforeNameStackChange(ctx)) return;
  ctx.compat->select.names.clear();
}

void LoadName(Context& ctx, GLuint name) {
  SelectFeedbackState& s = ctx.compat->select;
  if (s.mode != GL_SELECT) return;
  if (s.names.empty()) return ctx.Error(GL_INVALID_OPERATION, "glLoadName", "the name stack is empty");
  BeforeNameStackChange(ctx);
  s.names.back() = name;
}

void PushName(Context& ctx, GLuint name) {
  SelectFeedbackState& s = ctx.compat->select;
  if (!BeforeNameStackChange(ctx)) return;
  if (s.names.size() >= SelectFeedbackState::kMaxNameStackDepth)
    return ctx.Error(GL_STACK_OVERFLOW, "glPushName", "the name stack is full");
  s.names.push_back(name);
}

void PopName(Context& ctx) {
  SelectFeedbackState& s = ctx.compat->select;
  if (!BeforeNameStackChange(ctx)) return;
  if (s.names.empty()) return ctx.Error(GL_STACK_UNDERFLOW, "glPopName", "the name stack is empty");
  s.names.pop_back();
}

void PassThrough(Context& ctx, GLfloat token) {
  SelectFeedbackState& s = ctx.compat->select;
  if (s.mode != GL_FEEDBACK) return;
  PutFeedback(s, float(GL_PASS_THROUGH_TOKEN));
  PutFeedback(s, token);
}

}  // namespace caldera::gl
