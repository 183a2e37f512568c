// Polygons in GL_LINE and GL_POINT polygon modes with edge flags (GL 2.1 §2.6.2, §3.5.4), compared with Mesa
// llvmpipe like the scenes in compat_scenes.cpp. The scene also probes its own pixels: a quad's diagonal, an
// edge whose flag is off and a culled polygon must stay background, which a comparison tolerance could let
// through. Vertices sit a quarter pixel off the pixel centres, where the line conventions of GL and Vulkan
// agree on which end pixels a segment covers.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "compat_gl.h"
#include "scene_probes.h"

using namespace compat_gl;
using namespace compat_scenes;

namespace {

constexpr int kSize = 64;

using EdgeFlagFn = void(APIENTRY*)(GLboolean);
using EdgeFlagvFn = void(APIENTRY*)(const GLboolean*);

}  // namespace

void PolygonOutlinesScene() {
  auto edge_flag = reinterpret_cast<EdgeFlagFn>(eglGetProcAddress("glEdgeFlag"));
  auto edge_flagv = reinterpret_cast<EdgeFlagvFn>(eglGetProcAddress("glEdgeFlagv"));
  CHECK(edge_flag && edge_flagv);
  if (!edge_flag || !edge_flagv) return;
  const float clear = 0.1f;
  const auto c8 = uint8_t(26);
  glClearColor(clear, clear, clear, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  PixelOrtho(kSize);
  glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);

  // Row 1: a quad (no diagonal), a polygon whose vertical edges are flagged off, a quad strip of two quads.
  Color3f(1, 0.8f, 0.2f);
  Begin(GL_QUADS);
  Vertex2f(2.25f, 2.25f), Vertex2f(14.25f, 2.25f), Vertex2f(14.25f, 14.25f), Vertex2f(2.25f, 14.25f);
  End();
  Color3f(0.3f, 1, 0.4f);
  Begin(GL_POLYGON);
  edge_flag(GL_TRUE), Vertex2f(18.25f, 2.25f);
  edge_flag(GL_FALSE), Vertex2f(30.25f, 2.25f);
  edge_flag(GL_TRUE), Vertex2f(30.25f, 14.25f);
  edge_flag(GL_FALSE), Vertex2f(18.25f, 14.25f);
  End();
  edge_flag(GL_TRUE);
  Color3f(0.4f, 0.6f, 1);
  Begin(GL_QUAD_STRIP);
  Vertex2f(34.25f, 2.25f), Vertex2f(34.25f, 14.25f), Vertex2f(46.25f, 2.25f), Vertex2f(46.25f, 14.25f);
  Vertex2f(58.25f, 2.25f), Vertex2f(58.25f, 14.25f);
  End();

  // Row 2: triangles with one edge flagged off each (glEdgeFlagv), and, culled, a clockwise quad (gone)
  // beside a counter-clockwise one.
  Color3f(1, 0.4f, 0.8f);
  const GLboolean on = GL_TRUE, off = GL_FALSE;
  Begin(GL_TRIANGLES);
  edge_flagv(&on), Vertex2f(2.25f, 18.25f);
  edge_flagv(&off), Vertex2f(14.25f, 18.25f);  // the hypotenuse from here is hidden
  edge_flagv(&on), Vertex2f(2.25f, 30.25f);
  edge_flagv(&off), Vertex2f(18.25f, 18.25f);  // the base from here is hidden
  edge_flagv(&on), Vertex2f(30.25f, 18.25f);
  edge_flagv(&on), Vertex2f(30.25f, 30.25f);
  End();
  edge_flag(GL_TRUE);
  glEnable(GL_CULL_FACE);
  Color3f(1, 1, 1);
  Begin(GL_QUADS);
  Vertex2f(34.25f, 18.25f), Vertex2f(34.25f, 30.25f), Vertex2f(46.25f, 30.25f),
      Vertex2f(46.25f, 18.25f);  // clockwise
  Vertex2f(50.25f, 18.25f), Vertex2f(61.25f, 18.25f), Vertex2f(61.25f, 30.25f), Vertex2f(50.25f, 30.25f);
  End();
  glDisable(GL_CULL_FACE);

  // Row 3: arrays with an edge flag array (glDrawArrays of quads, glDrawElements of a polygon), and a
  // flat-shaded polygon in a display list whose edges take its first vertex's colour.
  static const float quads[] = {2.25f, 34.25f, 14.25f, 34.25f, 14.25f, 46.25f, 2.25f, 46.25f};
  static const GLboolean quad_flags[] = {GL_TRUE, GL_FALSE, GL_TRUE, GL_FALSE};  // horizontal edges only
  VertexPointer(2, GL_FLOAT, 0, quads);
  EdgeFlagPointer(0, quad_flags);
  EnableClientState(GL_VERTEX_ARRAY);
  EnableClientState(GL_EDGE_FLAG_ARRAY);
  Color3f(0.9f, 0.9f, 0.3f);
  glDrawArrays(GL_QUADS, 0, 4);
  static const float pentagon[] = {24.25f, 34.25f, 30.25f, 40.25f, 24.25f,
                                   46.25f, 18.25f, 46.25f, 18.25f, 34.25f};
  static const GLboolean pentagon_flags[] = {GL_TRUE, GL_FALSE, GL_TRUE, GL_TRUE, GL_TRUE};
  static const GLubyte order[] = {0, 1, 2, 3, 4};
  VertexPointer(2, GL_FLOAT, 0, pentagon);
  EdgeFlagPointer(0, pentagon_flags);
  Color3f(0.3f, 0.9f, 0.9f);
  glDrawElements(GL_POLYGON, 5, GL_UNSIGNED_BYTE, order);
  // Independent triangles from arrays take the frontend's outline only while edge flags can hide an edge.
  static const float triangle[] = {50.25f, 34.25f, 62.25f, 34.25f, 50.25f, 46.25f};
  static const GLboolean triangle_flags[] = {GL_TRUE, GL_FALSE, GL_TRUE};
  VertexPointer(2, GL_FLOAT, 0, triangle);
  EdgeFlagPointer(0, triangle_flags);
  Color3f(0.8f, 0.5f, 1);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  DisableClientState(GL_EDGE_FLAG_ARRAY);
  DisableClientState(GL_VERTEX_ARRAY);
  const GLuint list = GenLists(1);
  NewList(list, GL_COMPILE);
  ShadeModel(GL_FLAT);
  Begin(GL_POLYGON);
  Color3f(1, 0.2f, 0.2f), Vertex2f(34.25f, 34.25f);
  Color3f(0.2f, 0.2f, 1), edge_flag(GL_FALSE), Vertex2f(46.25f, 34.25f);
  edge_flag(GL_TRUE), Vertex2f(46.25f, 46.25f);
  Vertex2f(34.25f, 46.25f);
  End();
  ShadeModel(GL_SMOOTH);
  EndList();
  edge_flag(GL_TRUE);
  CallList(list);

  // Row 4: GL_POINT mode, 3-pixel points at the corners whose flags are on.
  glPolygonMode(GL_FRONT_AND_BACK, GL_POINT);
  glPointSize(3);
  Color3f(1, 0.6f, 0.1f);
  Begin(GL_POLYGON);
  Vertex2f(4.25f, 52.25f);
  edge_flag(GL_FALSE), Vertex2f(16.25f, 52.25f);
  edge_flag(GL_TRUE), Vertex2f(16.25f, 60.25f);
  Vertex2f(4.25f, 60.25f);
  End();
  // Inside row 1's polygon: independent triangles from the vertex array, their corners 3 pixels wide.
  static const float corners[] = {21.25f, 5.25f, 27.25f, 5.25f, 24.25f, 10.25f};
  VertexPointer(2, GL_FLOAT, 0, corners);
  EnableClientState(GL_VERTEX_ARRAY);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  DisableClientState(GL_VERTEX_ARRAY);
  glPointSize(1);

  // Row 4, right: front faces filled, back faces outlined, from glBegin/glEnd and from the vertex array.
  glPolygonMode(GL_FRONT, GL_FILL);
  glPolygonMode(GL_BACK, GL_LINE);
  Color3f(0.5f, 1, 0.9f);
  Begin(GL_QUADS);
  Vertex2f(20.25f, 50.25f), Vertex2f(30.25f, 50.25f), Vertex2f(30.25f, 60.25f), Vertex2f(20.25f, 60.25f);
  Vertex2f(34.25f, 50.25f), Vertex2f(34.25f, 60.25f), Vertex2f(44.25f, 60.25f), Vertex2f(44.25f, 50.25f);
  End();
  static const float faces[] = {48.25f, 50.25f, 54.25f, 50.25f, 54.25f, 60.25f, 48.25f, 60.25f,
                                56.25f, 50.25f, 56.25f, 60.25f, 62.25f, 60.25f, 62.25f, 50.25f};
  VertexPointer(2, GL_FLOAT, 0, faces);
  EnableClientState(GL_VERTEX_ARRAY);
  Color3f(1, 0.9f, 0.5f);
  glDrawArrays(GL_QUADS, 0, 8);
  DisableClientState(GL_VERTEX_ARRAY);
  glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
  DeleteLists(list, 1);

  // Probes.
  Expect(!Background(8, 2, c8) && !Background(2, 8, c8) && !Background(14, 8, c8),
         "the quad's edges are drawn");
  Expect(Background(8, 8, c8) && Background(6, 6, c8), "the quad has no diagonal");
  Expect(!Background(24, 2, c8) && !Background(24, 14, c8), "the polygon's flagged edges are drawn");
  Expect(Background(18, 8, c8) && Background(30, 8, c8), "the polygon's unflagged edges are not");
  Expect(!Background(46, 8, c8), "the quad strip's inner edge is drawn");
  Expect(Background(40, 8, c8) && Background(52, 8, c8), "the quad strip's quads have no diagonals");
  Expect(Background(8, 24, c8), "the first triangle's hypotenuse is hidden");
  Expect(!Background(2, 24, c8) && !Background(8, 18, c8), "the first triangle's other edges are drawn");
  Expect(Background(24, 18, c8) && !Background(30, 24, c8), "the second triangle's base is hidden");
  Expect(Background(34, 24, c8) && Background(40, 30, c8), "the clockwise quad is culled");
  Expect(!Background(50, 24, c8) && !Background(56, 18, c8), "the counter-clockwise quad is drawn");
  Expect(!Background(8, 34, c8) && Background(2, 40, c8) && Background(14, 40, c8),
         "the edge flag array hides the array quad's vertical edges");
  Expect(Background(27, 43, c8) && !Background(27, 37, c8) && !Background(21, 46, c8),
         "the element polygon's second edge is hidden");
  Expect(Background(56, 40, c8) && !Background(50, 40, c8) && !Background(56, 34, c8),
         "the edge flag array hides the array triangle's hypotenuse");
  Expect(!Background(40, 34, c8) && Background(46, 40, c8), "the listed polygon's unflagged edge is hidden");
  uint8_t top[4] = {};
  glReadPixels(40, 46, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, top);
  Expect(top[0] > 200 && top[2] < 100, "the flat polygon's edges take its first vertex's colour");
  Expect(!Background(4, 52, c8) && Background(16, 52, c8) && !Background(16, 60, c8),
         "GL_POINT mode draws the flagged corners only");
  Expect(Background(10, 56, c8), "GL_POINT mode draws no edges");
  Expect(!Background(22, 6, c8) && !Background(20, 4, c8) && Background(24, 7, c8),
         "GL_POINT mode's array corners take the point size");
  Expect(!Background(25, 55, c8) && !Background(51, 55, c8), "front faces are filled");
  Expect(Background(39, 55, c8) && Background(59, 55, c8), "back faces are not");
  Expect(!Background(34, 55, c8) && !Background(39, 50, c8) && !Background(56, 55, c8),
         "back faces are outlined");
}
