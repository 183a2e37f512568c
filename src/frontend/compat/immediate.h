// Internal interface of the compatibility code: current attributes, glBegin/glEnd batching, the generated
// fixed-function programs and the draws they make.
#pragma once

#include <GL/glcorearb.h>

#include <functional>
#include <string>
#include <vector>

#include "frontend/compat/state.h"
#include "frontend/context.h"

namespace caldera::compat {

// GL_QUADS, GL_QUAD_STRIP and GL_POLYGON of `n` vertices as triangles: tri(a, b, c) for each, with vertex
// indices in [0, n). Each triangle ends on the vertex GL 2.1 table 2.12 takes a flat-shaded primitive's
// colour from, as GL_LAST_VERTEX_CONVENTION draws them; under GL_FIRST_VERTEX_CONVENTION (`first`) each is
// rotated to start on it (the winding stays): quads and polygons keep their provoking vertex whatever the
// convention (GL_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION is false). Smooth-shaded quads split along the
// diagonal Mesa uses (from the first vertex), so colours interpolate the same; flat-shaded GL_QUADS along the
// other. glBegin/glEnd and array draws (arrays.cpp) share it.
template <typename Tri>
void PolygonTriangles(GLenum mode, bool flat, bool first, size_t n, Tri&& emit) {
  auto tri = [&](size_t a, size_t b, size_t c) { first ? emit(c, a, b) : emit(a, b, c); };
  switch (mode) {
    case GL_QUADS:
      // Quad a b c d, flat: (a b d) and (b c d) keep its winding and both end on d, its provoking vertex.
      for (size_t i = 0; i + 3 < n; i += 4) {
        if (flat) {
          tri(i, i + 1, i + 3);
          tri(i + 1, i + 2, i + 3);
        } else {
          tri(i, i + 1, i + 2);
          tri(i, i + 2, i + 3);
        }
      }
      break;
    case GL_QUAD_STRIP:
      // Quad i is 2i, 2i+1, 2i+3, 2i+2 in polygon order, split from its first vertex as quads are; both
      // triangles end on 2i+3, its provoking vertex.
      for (size_t i = 0; i + 3 < n; i += 2) {
        tri(i, i + 1, i + 3);
        tri(i + 2, i, i + 3);
      }
      break;
    case GL_POLYGON:
      // A fan whose triangles end on vertex 0, the polygon's provoking vertex.
      for (size_t i = 1; i + 1 < n; ++i) tri(i, i + 1, size_t(0));
      break;
    default:
      break;
  }
}

// edge_flags.cpp: in GL_LINE and GL_POINT polygon modes, independent triangles, quads, quad strips and
// polygons are drawn by the frontend as the lines of their boundary edges (or the points of their corners)
// whose edge flag is set (GL 2.1 §2.6.2, §3.5.4), instead of as triangles the device outlines: that would add
// the diagonals of the split and ignore edge flags. True when `mode` is drawn so now; false (logged once)
// where the frontend cannot stand in for the device: culling with a program or vertex arrays (the facing
// needs the transformed positions) and polygon offset of lines or points (a device bias of polygons only).
bool OutlinesPolygons(const Context& ctx, GLenum mode, bool immediate);
// glEnd's outline of the open primitive (OutlinesPolygons true): its flagged edges as points or lines, culled
// by the fixed-function transform, flat-shaded edges in their polygon's colour; appended to `out`.
void OutlinePrimitive(Context& ctx, std::vector<Vertex>& out);
// glMaterial between glBegin and glEnd (vertex_materials.cpp): starts keeping each vertex's materials.
void MaterialInPrimitive(Context& ctx);
// glEnd of a primitive whose vertices have materials of their own: when lighting uses them, the primitive is
// drawn now by `batch_primitive` (which adds it to the batch) under state that feeds the varying material to
// the program per vertex. False when glEnd should batch it as usual.
bool DrawWithVertexMaterials(Context& ctx, const std::function<void()>& batch_primitive);
// Front and back polygon modes differ (compatibility contexts): a fixed-function glBegin/glEnd or legacy
// array draw of polygons (`mode` GL_TRIANGLES ... GL_POLYGON) draws each face in its own mode, sorted on the
// CPU. False (logged once) with an application program, whose transform is unknown here: the device draws
// every face in the front mode.
bool SplitsFaces(const Context& ctx, GLenum mode);
// glEnd's half of it: the open primitive's polygons drawn now, filled ones as triangles, the others'
// outlines as lines or points.
void DrawPrimitiveByFace(Context& ctx);
// The batch class (immediate.cpp) of glBegin(`mode`) under the current polygon mode: 1 points, 2 lines,
// 3 triangles.
int OutlineClass(const Context& ctx);
// Each polygon of a `mode` primitive of `n` vertices (GL_TRIANGLES ... GL_POLYGON) in polygon order:
// polygon(corners[], count) with the vertex indices of its corners. Quad strips' quads run 2i, 2i+1, 2i+3,
// 2i+2; a triangle strip's odd triangles i+1, i, i+2 (the strip's winding).
template <typename Polygon>
void ForEachPolygon(GLenum mode, size_t n, Polygon&& polygon) {
  size_t corners[4];
  switch (mode) {
    case GL_TRIANGLES:
      for (size_t i = 0; i + 2 < n; i += 3) {
        corners[0] = i, corners[1] = i + 1, corners[2] = i + 2;
        polygon(corners, size_t(3));
      }
      break;
    case GL_TRIANGLE_STRIP:
      for (size_t i = 0; i + 2 < n; ++i) {
        corners[0] = i % 2 ? i + 1 : i, corners[1] = i % 2 ? i : i + 1, corners[2] = i + 2;
        polygon(corners, size_t(3));
      }
      break;
    case GL_TRIANGLE_FAN:
      for (size_t i = 1; i + 1 < n; ++i) {
        corners[0] = 0, corners[1] = i, corners[2] = i + 1;
        polygon(corners, size_t(3));
      }
      break;
    case GL_QUADS:
      for (size_t i = 0; i + 3 < n; i += 4) {
        corners[0] = i, corners[1] = i + 1, corners[2] = i + 2, corners[3] = i + 3;
        polygon(corners, size_t(4));
      }
      break;
    case GL_QUAD_STRIP:
      for (size_t i = 0; i + 3 < n; i += 2) {
        corners[0] = i, corners[1] = i + 1, corners[2] = i + 3, corners[3] = i + 2;
        polygon(corners, size_t(4));
      }
      break;
    case GL_POLYGON:
      if (n >= 3) {
        std::vector<size_t> all(n);
        for (size_t i = 0; i < n; ++i) all[i] = i;
        polygon(all.data(), n);
      }
      break;
    default:
      break;
  }
}
// The outline of one polygon (corner indices in polygon order): line(a, b) for each boundary edge whose first
// vertex's flag is set, or point(a) for each such corner in GL_POINT mode. Edge flags apply to independent
// triangles, quads and polygons only; every edge of a strip's or fan's polygons is drawn (GL 2.1 §2.6.2).
template <typename Flag, typename Point, typename Line>
void OutlinePolygon(GLenum mode, GLenum polygon_mode, const size_t* corners, size_t count, Flag&& flag,
                    Point&& point, Line&& line) {
  for (size_t k = 0; k < count; ++k) {
    const size_t a = corners[k];
    const bool independent = mode == GL_TRIANGLES || mode == GL_QUADS || mode == GL_POLYGON;
    if (independent && !flag(a)) continue;
    if (polygon_mode == GL_POINT)
      point(a);
    else
      line(a, corners[(k + 1) % count]);
  }
}
// select_feedback.cpp: the facing of the polygon of these vertices from the fixed-function transform
// (clipped, in window coordinates): 1 front, 0 back, -1 when nothing of it is inside the clip volume.
int FacingByFixedFunction(Context& ctx, const std::vector<Vertex>& polygon);
// Whether GL_CULL_FACE's mode discards a polygon of this facing (culling enabled or not).
bool FaceCulled(const Context& ctx, bool front);
// Whether GL_CULL_FACE discards the polygon of these vertices (FacingByFixedFunction).
bool CulledByFixedFunction(Context& ctx, const std::vector<Vertex>& polygon);

// The attribute setters the generated variants (compat_attribs_gen.cpp) call.
void VertexCommon(Context& ctx, float x, float y, float z, float w);
void SetColor(Context& ctx, float r, float g, float b, float a);
void SetSecondaryColor(Context& ctx, float r, float g, float b);
void SetNormal(Context& ctx, float x, float y, float z);
void SetTexCoord(Context& ctx, GLenum unit, float s, float t, float r, float q);
void SetFogCoord(Context& ctx, float coord);
void SetIndex(Context& ctx, float index);  // color_index.cpp
void RectCommon(Context& ctx, float x1, float y1, float x2, float y2);

// ff_program.cpp: draws `count` vertices as `mode` (GL_POINTS, GL_LINES or GL_TRIANGLES) with the program the
// current fixed-function state asks for (or the application's program, if one is in use), through the
// ordinary draw path.
void DrawVertices(Context& ctx, GLenum mode, const Vertex* vertices, size_t count);
// DrawVertices with `program` (a generated one: pixel rectangles) in place of the fixed-function state's.
void DrawVerticesWith(Context& ctx, const std::shared_ptr<Program>& program, GLenum mode,
                      const Vertex* vertices, size_t count);
// The end of a generated fragment shader's main: the alpha test (`alpha`: 0 off, else func - GL_NEVER + 1)
// on colour `c` against u_alpha_ref, then the output and the closing brace.
std::string AlphaTestAndOutput(int alpha);
// Compiles and links a generated GLSL 3.30 program through the ordinary shader path (null: it failed, logged
// once); counted in ff_programs_built.
std::shared_ptr<Program> BuildInternalProgram(Context& ctx, const std::string& vertex,
                                              const std::string& fragment);
// The generated program for the current fixed-function state drawing `mode` (the draw's primitive: the
// polygon stipple applies to polygons only, points add their size and sprite code), its uniforms up to date
// (null: it failed to build, logged once).
std::shared_ptr<Program> FixedFunctionProgram(Context& ctx, GLenum mode);
// builtin_uniforms.cpp: writes the compatibility state into the built-in uniforms (gl_ModelViewMatrix,
// gl_LightSource...) an application program of GLSL 1.x uses; values that did not change upload nothing.
void LoadBuiltinUniforms(Context& ctx, Program& program);
// cpu_lighting.cpp: the fixed-function lighting of one front-facing vertex at eye-space position `eye` with
// object-space normal `object_normal` (the raster position's colours).
void LightVertex(const State& st, const float object_normal[3], const float eye[4], float primary[4],
                 float secondary[4]);
// The inverse transpose of the modelview's upper 3x3 (column-major), which transforms normals.
void NormalMatrix(const Mat4& mv, float out[9]);
// The general inverse by cofactors (builtin_uniforms.cpp); a singular matrix gives zeros (GL leaves its
// inverse undefined).
Mat4 Inverse(const Mat4& a);
// arrays.cpp: whether a draw call must go through the compatibility code (legacy arrays enabled, no program
// in use, or a GL_QUADS/GL_QUAD_STRIP/GL_POLYGON mode), and those draws. The counts are validated.
bool TakesArrayDraw(const Context& ctx, GLenum mode);
void DrawArrays(Context& ctx, GLenum mode, GLint first, GLsizei count, GLsizei instances);
void DrawElements(Context& ctx, GLenum mode, GLsizei count, GLenum type, const void* indices,
                  GLsizei instances, GLint base_vertex);
// glGet* of the legacy array state (arrays.cpp): as QueryState.
int QueryArrayState(Context& ctx, GLenum pname, double* out);
// Whether cap is one of the legacy arrays' glEnableClientState names.
bool IsArrayCap(GLenum cap);
// glGetPointerv of a legacy array; false if pname is not one.
bool QueryArrayPointer(Context& ctx, GLenum pname, const void** out);
// lighting.cpp: glEnable/glDisable/glIsEnabled of a compatibility capability; false if `cap` is not one.
bool SetCapability(Context& ctx, GLenum cap, bool value);
bool QueryCapability(Context& ctx, GLenum cap, bool* value);
// Writes the current colour into the material parameters GL_COLOR_MATERIAL tracks.
void ApplyColorMaterial(State& st);
// glGet* of compatibility state (queries.cpp): fills up to 16 values, returns their count (0: not one).
int QueryState(Context& ctx, GLenum pname, double* out, bool* color);
// The current matrix of `mode`'s stack (matrix.cpp).
Mat4& Top(State& st, GLenum mode, GLuint unit);
// clip_planes.cpp: GL_CLIP_PLANEi's index (-1: not one), and the enabled planes as a bit mask.
int ClipPlaneIndex(GLenum plane);
uint32_t EnabledClipPlanes(const Context& ctx);
// points.cpp: the compatibility point parameters (false: pname is not one; `vector`: the v form, which
// alone takes GL_POINT_DISTANCE_ATTENUATION), their glGet* (as QueryState), glTexEnv(GL_POINT_SPRITE).
bool SetPointParameter(Context& ctx, GLenum pname, const GLfloat* values, bool vector, const char* function);
int QueryPointState(Context& ctx, GLenum pname, double* out);
// glGet* of the colour-index and accumulation state (color_index.cpp), and of the pixel map sizes
// (pixel_maps.cpp): as QueryState.
int QueryIndexState(const Context& ctx, GLenum pname, double* out);
int QueryPixelMapState(const Context& ctx, GLenum pname, double* out);
// Evaluators (evaluators.cpp): glEvalCoord1/2 (the generated variants call it), the GL_MAP*_ and
// GL_AUTO_NORMAL enables, the grid queries, and what GL_ENABLE_BIT (the enables) and GL_EVAL_BIT (`grids`
// too) save: the restore to run at glPopAttrib.
void EvalCoord(Context& ctx, int dims, float u, float v);
bool SetEvalCapability(Context& ctx, GLenum cap, bool value);
bool QueryEvalCapability(const Context& ctx, GLenum cap, bool* value);
int QueryEvalState(const Context& ctx, GLenum pname, double* out);
AttribRestore SaveEvalState(Context& ctx, bool grids);
void PointSpriteEnv(Context& ctx, GLenum pname, const GLfloat* params);
// glPushAttrib of the point state: GL_POINT_BIT's parameters, sprite enable and per-unit GL_COORD_REPLACE,
// and GL_ENABLE_BIT's GL_POINT_SPRITE; the returned call puts them back.
AttribRestore SavePointState(Context& ctx, bool point_bit, bool enable_bit);
// Whether a generated program drawing `mode` writes gl_PointSize (every fixed-function point draw: its size
// is glPointSize clamped, attenuated by distance), and the switch that makes the draw take that size.
inline bool FixedFunctionPoints(GLenum mode) {
  return mode == GL_POINTS;
}
void SetGeneratedPointSize(Context& ctx, bool on);
// Whether generated programs take fog distances from the fog coordinate (GL_FOG_COORD_SRC GL_FOG_COORD, fog
// on): they then read it at location 6, which glBegin/glEnd and array draws feed.
inline bool ReadsFogCoord(const State& st) {
  return st.fog && st.fog_coord_src == GL_FOG_COORD;
}
constexpr int kFogCoordLocation = 6;
// CALDERA_STATS: the fixed-function counters (lists.cpp writes them when the context goes).
void WriteStats(const Context& ctx);

// select_feedback.cpp: outside GL_RENDER (glRenderMode) primitives are transformed and clipped on the CPU
// into hit records or feedback values and never drawn. glEnd hands over the primitive (`vertices` as glBegin
// got them; `triangles` its decomposition when it is a polygon-class primitive); array draws reach glEnd
// through glArrayElement-style replay (arrays.cpp).
inline bool OutsideRender(const State& st) {
  return st.select.mode != GL_RENDER;
}
void SelectFeedbackPrimitive(Context& ctx, GLenum mode, const std::vector<Vertex>& vertices,
                             const std::vector<Vertex>& triangles);
// glBitmap, glDrawPixels and glCopyPixels with a valid raster position: in feedback mode, `token` and the
// raster position's vertex.
void FeedbackRasterToken(Context& ctx, GLenum token);
// A valid raster position set in selection mode is a hit at its depth (as Mesa counts it).
void SelectRasterHit(Context& ctx);
int QuerySelectFeedbackState(Context& ctx, GLenum pname, double* out);

}  // namespace caldera::compat
