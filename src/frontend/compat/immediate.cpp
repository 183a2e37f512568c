// glBegin/glEnd: vertices are gathered per primitive, decomposed at glEnd into points, lines or triangles
// (quads, quad strips and polygons too, ordered so that each triangle's last vertex is the one GL's flat
// shading takes its colour from) and appended to one batch, which is drawn when a command that may change
// the state it depends on arrives (hooks.h). A frame of glVertex calls becomes a handful of draws.
#include "frontend/compat/immediate.h"

#include <cstring>

#include "frontend/compat/compat_impl.h"
#include "frontend/compat/hooks.h"
#include "frontend/gl_impl.h"

namespace caldera::compat {
namespace {

int ClassOf(GLenum mode) {
  switch (mode) {
    case GL_POINTS:
      return 1;
    case GL_LINES:
    case GL_LINE_STRIP:
    case GL_LINE_LOOP:
      return 2;
    default:
      return 3;
  }
}

GLenum ModeOfClass(int c) {
  return c == 1 ? GL_POINTS : c == 2 ? GL_LINES : GL_TRIANGLES;
}

// Appends the primitive's vertices to the batch as a list, drawn with the context's provoking-vertex
// convention (`first`: GL_FIRST_VERTEX_CONVENTION): flat-shaded primitives take the colour of the vertex GL
// 2.1 table 2.12 (and GL 3.2 table 2.15 for the first-vertex convention) names.
// Smooth-shaded quads are split along the diagonal Mesa uses (from the first vertex), so colours interpolate
// the same; flat-shaded GL_QUADS along the other, so both triangles end on the provoking vertex.
void Decompose(GLenum mode, bool flat, bool first, const std::vector<Vertex>& v, std::vector<Vertex>& out) {
  const size_t n = v.size();
  auto tri = [&](size_t a, size_t b, size_t c) {
    out.push_back(v[a]);
    out.push_back(v[b]);
    out.push_back(v[c]);
  };
  switch (mode) {
    case GL_POINTS:
      out.insert(out.end(), v.begin(), v.end());
      break;
    case GL_LINES:
      out.insert(out.end(), v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n & ~size_t(1)));
      break;
    case GL_LINE_STRIP:
    case GL_LINE_LOOP:
      if (n < 2) break;
      for (size_t i = 0; i + 1 < n; ++i) {
        out.push_back(v[i]);
        out.push_back(v[i + 1]);
      }
      if (mode == GL_LINE_LOOP) {  // the closing segment's provoking vertex is the first one
        out.push_back(v[n - 1]);
        out.push_back(v[0]);
      }
      break;
    case GL_TRIANGLES:
      out.insert(out.end(), v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n - n % 3));
      break;
    case GL_TRIANGLE_STRIP:
      // Odd triangles swap two vertices to keep the strip's winding; which two keeps the provoking vertex (i
      // first, i + 2 last) in its place.
      for (size_t i = 0; i + 2 < n; ++i) {
        if (i % 2 == 0)
          tri(i, i + 1, i + 2);
        else if (first)
          tri(i, i + 2, i + 1);
        else
          tri(i + 1, i, i + 2);
      }
      break;
    case GL_TRIANGLE_FAN:
      for (size_t i = 1; i + 1 < n; ++i) first ? tri(i, i + 1, 0) : tri(0, i, i + 1);
      break;
    case GL_QUADS:
    case GL_QUAD_STRIP:
    case GL_POLYGON:
      PolygonTriangles(mode, flat, first, n, tri);
      break;
    default:
      break;
  }
}

// The class of the batch glBegin(`mode`) joins: polygons outlined by the frontend are points or lines.
int BatchClass(const Context& ctx, GLenum mode) {
  return OutlinesPolygons(ctx, mode, true) ? OutlineClass(ctx) : ClassOf(mode);
}

bool ValidBeginMode(GLenum mode) {
  return mode <= GL_POLYGON;  // GL_POINTS (0) .. GL_POLYGON (9)
}

}  // namespace

void DrawPendingBatch(Context& ctx) {
  if (!ctx.compat) return;
  State& st = *ctx.compat;
  ctx.compat_hooks &= static_cast<uint8_t>(~kHookBatch);
  if (!st.pixel.pending.empty()) DrawPendingBitmaps(ctx);
  if (st.batch.empty()) return;
  std::vector<Vertex> batch;
  batch.swap(st.batch);
  int c = st.batch_class;
  st.batch_class = 0;
  DrawVertices(ctx, ModeOfClass(c), batch.data(), batch.size());
  batch.clear();
  if (st.batch.empty()) st.batch.swap(batch);  // keep the storage for the next batch
}

bool BeforeCommand(Context& ctx, const char* name, CommandKind kind, bool es1_command) {
  if ((ctx.compat_hooks & kHookES1) && !es1_command) {
    ctx.Error(GL_INVALID_OPERATION, name, "not an OpenGL ES 1.1 command");
    return false;
  }
  if (ctx.compat_hooks & kHookInBegin) {
    if (kind == kOther || kind == kBegin) {
      ctx.Error(GL_INVALID_OPERATION, name, "not allowed between glBegin and glEnd");
      return false;
    }
    return true;
  }
  if ((kind == kOther || kind == kBeginEndState) && (ctx.compat_hooks & kHookBatch)) DrawPendingBatch(ctx);
  return true;
}

void VertexCommon(Context& ctx, float x, float y, float z, float w) {
  State& st = *ctx.compat;
  if (!(ctx.compat_hooks & kHookInBegin)) return;  // outside glBegin/glEnd: undefined, Caldera ignores it
  Vertex v;
  v.position[0] = x, v.position[1] = y, v.position[2] = z, v.position[3] = w;
  std::memcpy(v.color, st.color, sizeof v.color);
  std::memcpy(v.normal, st.normal, sizeof v.normal);
  std::memcpy(v.secondary, st.secondary, sizeof v.secondary);
  std::memcpy(v.texcoord, st.texcoord, sizeof v.texcoord);
  v.fog_coord = st.fog_coord;
  st.primitive.push_back(v);
  st.primitive_edges.push_back(st.edge_flag);
  if (st.materials_per_vertex) [[unlikely]]
    st.primitive_materials.push_back({st.material[0], st.material[1]});
  ++st.stats.vertices;
}

void SetColor(Context& ctx, float r, float g, float b, float a) {
  State& st = *ctx.compat;
  float* c = st.color;
  c[0] = r, c[1] = g, c[2] = b, c[3] = a;
  if (st.color_material) ApplyColorMaterial(st);
}

void SetSecondaryColor(Context& ctx, float r, float g, float b) {
  float* c = ctx.compat->secondary;
  c[0] = r, c[1] = g, c[2] = b;
}

void SetNormal(Context& ctx, float x, float y, float z) {
  float* n = ctx.compat->normal;
  n[0] = x, n[1] = y, n[2] = z;
}

void SetTexCoord(Context& ctx, GLenum unit, float s, float t, float r, float q) {
  if (unit < GL_TEXTURE0 || unit >= GL_TEXTURE0 + kTexUnits) {
    if (unit >= GL_TEXTURE0 && unit < GL_TEXTURE0 + 32) return;  // a unit with no fixed-function coordinates
    return ctx.Error(GL_INVALID_ENUM, "glMultiTexCoord", "invalid texture unit");
  }
  float* c = ctx.compat->texcoord[unit - GL_TEXTURE0];
  c[0] = s, c[1] = t, c[2] = r, c[3] = q;
}

void SetFogCoord(Context& ctx, float coord) {
  ctx.compat->fog_coord = coord;
}

void RectCommon(Context& ctx, float x1, float y1, float x2, float y2) {
  // GL 2.1 §2.10: glBegin(GL_POLYGON) with the four corners, counter-clockwise from (x1, y1).
  gl::Begin(ctx, GL_POLYGON);
  VertexCommon(ctx, x1, y1, 0, 1);
  VertexCommon(ctx, x2, y1, 0, 1);
  VertexCommon(ctx, x2, y2, 0, 1);
  VertexCommon(ctx, x1, y2, 0, 1);
  gl::End(ctx);
}

}  // namespace caldera::compat

namespace caldera::gl {
using namespace caldera::compat;

void Begin(Context& ctx, GLenum mode) {
  State& st = *ctx.compat;
  if (ctx.compat_hooks & kHookInBegin)
    return ctx.Error(GL_INVALID_OPERATION, "glBegin", "already between glBegin and glEnd");
  if (!ValidBeginMode(mode)) return ctx.Error(GL_INVALID_ENUM, "glBegin", "invalid mode");
  if (!st.pixel.pending.empty()) DrawPendingBitmaps(ctx);  // glBegin does not end a batch by itself
  if (st.batch_class != 0 && st.batch_class != BatchClass(ctx, mode)) DrawPendingBatch(ctx);
  st.begin_mode = mode;
  st.primitive.clear();
  st.primitive_edges.clear();
  st.primitive_materials.clear();
  st.materials_per_vertex = false;
  ctx.compat_hooks |= kHookInBegin;
}

void End(Context& ctx) {
  State& st = *ctx.compat;
  if (!(ctx.compat_hooks & kHookInBegin)) return ctx.Error(GL_INVALID_OPERATION, "glEnd", "no glBegin");
  ctx.compat_hooks &= static_cast<uint8_t>(~kHookInBegin);
  if (OutsideRender(st)) [[unlikely]] {  // selection or feedback: nothing is drawn
    std::vector<Vertex> triangles;
    if (ClassOf(st.begin_mode) == 3) Decompose(st.begin_mode, false, false, st.primitive, triangles);
    SelectFeedbackPrimitive(ctx, st.begin_mode, st.primitive, triangles);
    st.primitive.clear();
    return;
  }
  if (SplitsFaces(ctx, st.begin_mode)) [[unlikely]] {  // front and back polygon modes differ
    DrawPendingBatch(ctx);
    DrawPrimitiveByFace(ctx);
    st.primitive.clear();
    return;
  }
  // A stippled strip or loop keeps its stipple counter along all its segments (GL 2.1 §3.4.2): it is drawn
  // as a strip of its own rather than joining the batch as independent segments, which restart it.
  if (ctx.state.line_stipple && (st.begin_mode == GL_LINE_STRIP || st.begin_mode == GL_LINE_LOOP)) {
    if (st.begin_mode == GL_LINE_LOOP && st.primitive.size() >= 2) st.primitive.push_back(st.primitive[0]);
    if (st.primitive.size() >= 2) {
      DrawPendingBatch(ctx);
      DrawVertices(ctx, GL_LINE_STRIP, st.primitive.data(), st.primitive.size());
    }
    st.primitive.clear();
    return;
  }
  auto batch_primitive = [&ctx, &st] {
    const size_t before = st.batch.size();
    const int batch_class = BatchClass(ctx, st.begin_mode);
    if (batch_class != ClassOf(st.begin_mode))
      OutlinePrimitive(ctx, st.batch);
    else
      Decompose(st.begin_mode, st.shade_model == GL_FLAT,
                ctx.state.provoking_vertex == GL_FIRST_VERTEX_CONVENTION, st.primitive, st.batch);
    if (st.batch.size() == before) return;
    st.batch_class = batch_class;
    ctx.compat_hooks |= kHookBatch;
  };
  // glMaterial between glBegin and glEnd gave vertices materials of their own (vertex_materials.cpp).
  if (!st.primitive_materials.empty() && DrawWithVertexMaterials(ctx, batch_primitive)) [[unlikely]] {
    st.primitive.clear();
    st.primitive_edges.clear();
    return;
  }
  batch_primitive();
  st.primitive.clear();
  st.primitive_edges.clear();
  // Bound the batch: a very long frame of immediate-mode calls is drawn in pieces of a few MiB.
  if (st.batch.size() >= 65536) DrawPendingBatch(ctx);
}

}  // namespace caldera::gl
