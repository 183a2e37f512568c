// Edge flags and the outlines of polygons in GL_LINE and GL_POINT polygon modes (GL 2.1 §2.6.2, §3.5.4).
// A device told to outline triangles would draw the diagonals Caldera splits quads and polygons along, and
// has no edge flags; so glEnd and legacy array draws hand such primitives to the device as the lines (or
// points) of their flagged boundary edges (immediate.h). Culling then happens here, from the fixed-function
// transform, where the facing can be known; where it cannot, the triangles go to the device as before (logged
// once).
#include <algorithm>

#include "frontend/compat/compat_impl.h"
#include "frontend/compat/immediate.h"
#include "util/log.h"

namespace caldera::compat {
namespace {

// The primitives outlined here: in GL_LINE mode those whose outline differs from their triangles' (split
// diagonals, edge flags); in GL_POINT mode every polygon, so that its points take the point size the
// generated program of a point draw writes.
bool HasPolygons(GLenum mode, GLenum polygon_mode) {
  if (polygon_mode == GL_POINT) return mode >= GL_TRIANGLES && mode <= GL_POLYGON;
  return mode == GL_TRIANGLES || mode == GL_QUADS || mode == GL_QUAD_STRIP || mode == GL_POLYGON;
}

// The vertex whose colour a flat-shaded polygon takes (GL 2.1 table 2.12, GL 3.2 table 2.15; triangles follow
// the provoking vertex convention, quads and polygons keep theirs), as an index among its corners
// (ForEachPolygon's order: a strip's odd triangles start on their second vertex).
size_t ProvokingCorner(const Context& ctx, GLenum mode, const size_t* corners) {
  const bool first = ctx.state.provoking_vertex == GL_FIRST_VERTEX_CONVENTION;
  switch (mode) {
    case GL_TRIANGLES:
      return first ? 0 : 2;
    case GL_TRIANGLE_STRIP:
      return !first ? 2 : corners[0] < corners[1] ? 0 : 1;
    case GL_TRIANGLE_FAN:
      return first ? 1 : 2;
    case GL_QUADS:
      return 3;
    case GL_QUAD_STRIP:
      return 2;  // vertex 2i+3 (GL's 2i+2, counted from 1): quad i is listed 2i, 2i+1, 2i+3, 2i+2
    default:
      return 0;  // GL_POLYGON: its first vertex
  }
}

// The open primitive's polygon of these corners, culled or not, appended in `face_mode`: triangles (a fan)
// for GL_FILL, else its outline's lines or points. Flat-shaded, every vertex takes the provoking vertex's
// colour (and normal, for lighting), so that neither the fan nor the outline changes it.
class PolygonSink {
 public:
  explicit PolygonSink(Context& ctx) : ctx_(ctx), st_(*ctx.compat) {}

  void Add(const size_t* corners, size_t count, GLenum face_mode) {
    polygon_.clear();
    for (size_t k = 0; k < count; ++k) polygon_.push_back(st_.primitive[corners[k]]);
    if (st_.shade_model == GL_FLAT) {
      const Vertex provoking = polygon_[ProvokingCorner(ctx_, st_.begin_mode, corners)];
      for (Vertex& v : polygon_) {
        std::copy_n(provoking.color, 4, v.color);
        std::copy_n(provoking.secondary, 3, v.secondary);
        std::copy_n(provoking.normal, 3, v.normal);
      }
    }
    if (face_mode == GL_FILL) {
      for (size_t k = 1; k + 1 < count; ++k) {
        triangles.push_back(polygon_[0]);
        triangles.push_back(polygon_[k]);
        triangles.push_back(polygon_[k + 1]);
      }
      return;
    }
    local_.resize(count);
    for (size_t k = 0; k < count; ++k) local_[k] = k;
    OutlinePolygon(
        st_.begin_mode, face_mode, local_.data(), count,
        [&](size_t k) { return st_.primitive_edges[corners[k]] != 0; },
        [&](size_t k) { points.push_back(polygon_[k]); },
        [&](size_t a, size_t b) {
          lines.push_back(polygon_[a]);
          lines.push_back(polygon_[b]);
        });
  }
  // The facing of the polygon of these corners by the fixed-function transform (FacingByFixedFunction).
  int Facing(const size_t* corners, size_t count) {
    polygon_.clear();
    for (size_t k = 0; k < count; ++k) polygon_.push_back(st_.primitive[corners[k]]);
    return FacingByFixedFunction(ctx_, polygon_);
  }

  std::vector<Vertex> points, lines, triangles;

 private:
  Context& ctx_;
  State& st_;
  std::vector<Vertex> polygon_;
  std::vector<size_t> local_;  // 0 .. corners - 1: the outline's indices into polygon_
};

}  // namespace

bool SplitsFaces(const Context& ctx, GLenum mode) {
  if (ctx.state.polygon_mode == ctx.state.polygon_mode_back || mode < GL_TRIANGLES || mode > GL_POLYGON)
    return false;
  if (!ctx.program) return true;
  util::LogOnce(util::LogLevel::kWarning, "separate polygon modes",
                "front and back polygon modes differ under an application program: every face is drawn in "
                "the front mode");
  return false;
}

void DrawPrimitiveByFace(Context& ctx) {
  GLState& s = ctx.state;
  PolygonSink sink(ctx);
  ForEachPolygon(ctx.compat->begin_mode, ctx.compat->primitive.size(),
                 [&](const size_t* corners, size_t count) {
                   const int facing = sink.Facing(corners, count);
                   if (facing < 0 || (s.cull_face && FaceCulled(ctx, facing == 1))) return;
                   sink.Add(corners, count, facing == 1 ? s.polygon_mode : s.polygon_mode_back);
                 });
  if (!sink.triangles.empty()) {
    // The device fills them: its polygon mode is the front faces' (GLState::polygon_mode).
    const GLenum saved = s.polygon_mode;
    s.polygon_mode = GL_FILL;
    ctx.MarkDirty(kDirtyFixedState);
    DrawVertices(ctx, GL_TRIANGLES, sink.triangles.data(), sink.triangles.size());
    s.polygon_mode = saved;
    ctx.MarkDirty(kDirtyFixedState);
    ctx.BumpDrawEpoch();
  }
  if (!sink.lines.empty()) DrawVertices(ctx, GL_LINES, sink.lines.data(), sink.lines.size());
  if (!sink.points.empty()) DrawVertices(ctx, GL_POINTS, sink.points.data(), sink.points.size());
}

bool OutlinesPolygons(const Context& ctx, GLenum mode, bool immediate) {
  const GLState& s = ctx.state;
  if (s.polygon_mode == GL_FILL || !HasPolygons(mode, s.polygon_mode)) return false;
  if ((s.polygon_mode == GL_LINE && s.polygon_offset_line) ||
      (s.polygon_mode == GL_POINT && s.polygon_offset_point)) {
    util::LogOnce(
        util::LogLevel::kWarning, "outlines with polygon offset",
        "polygons drawn as lines or points with GL_POLYGON_OFFSET_LINE/POINT are outlined by the device: "
        "edge flags are ignored and split quads and polygons show their diagonals");
    return false;
  }
  if (s.cull_face && (!immediate || ctx.program)) {
    util::LogOnce(
        util::LogLevel::kWarning, "culled outlines",
        "culled polygons drawn as lines or points from vertex arrays or by a program are outlined by "
        "the device: edge flags are ignored and split quads and polygons show their diagonals");
    return false;
  }
  return true;
}

int OutlineClass(const Context& ctx) {
  return ctx.state.polygon_mode == GL_POINT ? 1 : 2;
}

// glEnd's half (immediate.cpp): the open primitive's outline appended to `out` as points or lines.
void OutlinePrimitive(Context& ctx, std::vector<Vertex>& out) {
  PolygonSink sink(ctx);
  ForEachPolygon(ctx.compat->begin_mode, ctx.compat->primitive.size(),
                 [&](const size_t* corners, size_t count) {
                   if (ctx.state.cull_face) {
                     const int facing = sink.Facing(corners, count);
                     if (facing < 0 || FaceCulled(ctx, facing == 1)) return;
                   }
                   sink.Add(corners, count, ctx.state.polygon_mode);
                 });
  std::vector<Vertex>& drawn = ctx.state.polygon_mode == GL_POINT ? sink.points : sink.lines;
  out.insert(out.end(), drawn.begin(), drawn.end());
}

}  // namespace caldera::compat

namespace caldera::gl {

void EdgeFlag(Context& ctx, GLboolean flag) {
  ctx.compat->edge_flag = flag != GL_FALSE;
}

void EdgeFlagv(Context& ctx, const GLboolean* flag) {
  if (!flag) return ctx.Error(GL_INVALID_VALUE, "glEdgeFlagv", "null pointer");
  EdgeFlag(ctx, *flag);
}

}  // namespace caldera::gl
