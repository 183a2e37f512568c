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

bool HasPolygons(GLenum mode) {
  return mode == GL_TRIANGLES || mode == GL_QUADS || mode == GL_QUAD_STRIP || mode == GL_POLYGON;
}

// The vertex whose colour a flat-shaded polygon takes (GL 2.1 table 2.12; triangles follow the provoking
// vertex convention, quads and polygons keep theirs), as an index among its corners.
size_t ProvokingCorner(const Context& ctx, GLenum mode) {
  switch (mode) {
    case GL_TRIANGLES:
      return ctx.state.provoking_vertex == GL_FIRST_VERTEX_CONVENTION ? 0 : 2;
    case GL_QUADS:
      return 3;
    case GL_QUAD_STRIP:
      return 2;  // vertex 2i+2: the strip's quads are listed 2i, 2i+1, 2i+3, 2i+2
    default:
      return 0;  // GL_POLYGON: its first vertex
  }
}

}  // namespace

bool OutlinesPolygons(const Context& ctx, GLenum mode, bool immediate) {
  const GLState& s = ctx.state;
  if (s.polygon_mode == GL_FILL || !HasPolygons(mode)) return false;
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
  State& st = *ctx.compat;
  const GLenum mode = st.begin_mode;
  const GLenum polygon_mode = ctx.state.polygon_mode;
  const bool flat = st.shade_model == GL_FLAT;
  std::vector<Vertex> polygon;
  ForEachPolygon(mode, st.primitive.size(), [&](const size_t* corners, size_t count) {
    polygon.clear();
    for (size_t k = 0; k < count; ++k) polygon.push_back(st.primitive[corners[k]]);
    if (CulledByFixedFunction(ctx, polygon)) return;
    // A flat-shaded polygon's edges all take its provoking vertex's colour (and normal, for lighting).
    const Vertex& provoking = polygon[ProvokingCorner(ctx, mode)];
    auto put = [&](size_t index) {
      Vertex v = st.primitive[index];
      if (flat) {
        std::copy_n(provoking.color, 4, v.color);
        std::copy_n(provoking.secondary, 3, v.secondary);
        std::copy_n(provoking.normal, 3, v.normal);
      }
      out.push_back(v);
    };
    OutlinePolygon(
        mode, polygon_mode, corners, count, [&](size_t i) { return st.primitive_edges[i] != 0; }, put,
        [&](size_t a, size_t b) {
          put(a);
          put(b);
        });
  });
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
