// Evaluators (GL 2.1 §5.1): a lit bicubic dome drawn with glEvalMesh2 and GL_AUTO_NORMAL, a patch coloured
// by a bilinear GL_MAP2_COLOR_4 map, and a curve from glEvalMesh1 compiled into a display list. Compared
// with Mesa llvmpipe like the scenes in compat_scenes.cpp; the scene also probes its own pixels, so that a
// missing mesh, an ignored automatic normal (the current normal points away from the light here) or an
// ignored colour map fail even within the comparison's tolerance.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "compat_gl.h"
#include "scene_probes.h"

using namespace compat_gl;
using namespace compat_scenes;

namespace {

constexpr int kSize = 64;
constexpr GLenum kMap1Vertex3 = 0x0D97, kMap2Vertex3 = 0x0DB7, kMap2Color4 = 0x0DB0, kAutoNormal = 0x0D80;
using Map1fFn = void(APIENTRY*)(GLenum, GLfloat, GLfloat, GLint, GLint, const GLfloat*);
using Map2fFn = void(APIENTRY*)(GLenum, GLfloat, GLfloat, GLint, GLint, GLfloat, GLfloat, GLint, GLint,
                                const GLfloat*);
using MapGrid1fFn = void(APIENTRY*)(GLint, GLfloat, GLfloat);
using MapGrid2fFn = void(APIENTRY*)(GLint, GLfloat, GLfloat, GLint, GLfloat, GLfloat);
using EvalMesh1Fn = void(APIENTRY*)(GLenum, GLint, GLint);
using EvalMesh2Fn = void(APIENTRY*)(GLenum, GLint, GLint, GLint, GLint);

void Pixel(int x, int y, uint8_t p[4]) {
  glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, p);
}

}  // namespace

void EvaluatorScene() {
  auto map1f = Proc<Map1fFn>("glMap1f");
  auto map2f = Proc<Map2fFn>("glMap2f");
  auto map_grid1f = Proc<MapGrid1fFn>("glMapGrid1f");
  auto map_grid2f = Proc<MapGrid2fFn>("glMapGrid2f");
  auto eval_mesh1 = Proc<EvalMesh1Fn>("glEvalMesh1");
  auto eval_mesh2 = Proc<EvalMesh2Fn>("glEvalMesh2");
  const uint8_t clear = 25;
  glClearColor(0.1f, 0.1f, 0.1f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  PixelOrtho(kSize);

  // Left: a dome over x, y in [2, 30] rising to z = 13.5 in the middle (the depth range widened to hold it),
  // lit by the default light along +z. The current normal points away from the light: only GL_AUTO_NORMAL's
  // normals light the dome.
  MatrixMode(GL_PROJECTION);
  LoadIdentity();
  Ortho(0, kSize, 0, kSize, -40, 40);
  MatrixMode(GL_MODELVIEW);
  GLfloat dome[4][4][3];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const bool inner = (i == 1 || i == 2) && (j == 1 || j == 2);
      dome[i][j][0] = 2 + float(i) * 28 / 3;
      dome[i][j][1] = 34 + float(j) * 28 / 3;
      dome[i][j][2] = inner ? 24.0f : 0;
    }
  map2f(kMap2Vertex3, 0, 1, 12, 4, 0, 1, 3, 4, &dome[0][0][0]);
  glEnable(kMap2Vertex3);
  glEnable(kAutoNormal);
  glEnable(GL_LIGHTING);
  glEnable(GL_LIGHT0);
  Normal3f(0, 0, -1);
  map_grid2f(8, 0, 1, 8, 0, 1);
  eval_mesh2(GL_FILL, 0, 8, 0, 8);
  glDisable(GL_LIGHTING);
  glDisable(kAutoNormal);

  // Right: a flat patch whose colour runs red, green, blue, white at its corners (a bilinear colour map).
  const GLfloat flat[2][2][3] = {{{34, 34, 0}, {34, 62, 0}}, {{62, 34, 0}, {62, 62, 0}}};
  const GLfloat colors[2][2][4] = {{{1, 0, 0, 1}, {0, 0, 1, 1}}, {{0, 1, 0, 1}, {1, 1, 1, 1}}};
  map2f(kMap2Vertex3, 0, 1, 6, 2, 0, 1, 3, 2, &flat[0][0][0]);
  map2f(kMap2Color4, 0, 1, 8, 2, 0, 1, 4, 2, &colors[0][0][0]);
  glEnable(kMap2Color4);
  Color3f(0.5f, 0.5f, 0.5f);
  map_grid2f(4, 0, 1, 4, 0, 1);
  eval_mesh2(GL_FILL, 0, 4, 0, 4);
  glDisable(kMap2Color4);
  glDisable(kMap2Vertex3);

  // Bottom: a quadratic curve arching from (4.5, 4.5) to (60.5, 4.5) with its apex at y = 26.5, as a yellow
  // line strip of 16 segments from a display list; and its ends and apex as 3-pixel points from
  // glEvalCoord1f (at pixel centres, where no rasterisation rule decides which pixels they cover).
  const GLfloat arch[3][3] = {{4.5f, 4.5f, 0}, {32.5f, 48.5f, 0}, {60.5f, 4.5f, 0}};
  map1f(kMap1Vertex3, 0, 1, 3, 3, &arch[0][0]);
  glEnable(kMap1Vertex3);
  map_grid1f(16, 0, 1);
  const GLuint list = GenLists(1);
  NewList(list, GL_COMPILE);
  Color3f(1, 1, 0);
  eval_mesh1(GL_LINE, 0, 16);
  EndList();
  Color3f(0, 1, 1);
  CallList(list);
  DeleteLists(list, 1);
  glPointSize(3);
  Color3f(1, 0, 1);
  auto eval_coord1f = Proc<void(APIENTRY*)(GLfloat)>("glEvalCoord1f");
  Begin(GL_POINTS);
  for (int i = 0; i <= 2; ++i) eval_coord1f(float(i) / 2);
  End();
  glPointSize(1);
  glDisable(kMap1Vertex3);

  uint8_t p[4];
  Pixel(16, 48, p);
  Expect(p[0] > 150 && p[0] == p[1], "the dome is lit by its automatic normals");
  Expect(!Background(16, 48, clear) && DrawnIn(2, 34, 28, 28, clear) > 600, "the dome covers its square");
  Pixel(35, 35, p);
  Expect(p[0] > 200 && p[1] < 60 && p[2] < 60, "the colour map's red corner");
  Pixel(61, 35, p);
  Expect(p[1] > 200 && p[0] < 60 && p[2] < 60, "the colour map's green corner");
  Pixel(35, 61, p);
  Expect(p[2] > 200 && p[0] < 60 && p[1] < 60, "the colour map's blue corner");
  Pixel(48, 48, p);
  Expect(p[0] > 90 && p[0] < 170 && p[1] > 90 && p[1] < 170, "the colour map blends in the middle");
  Pixel(32, 26, p);  // the apex: at u = 0.5 the curve is at y = 4.5 + (48.5 - 4.5) / 2 = 26.5
  Expect(p[0] > 200 && p[1] < 60 && p[2] > 200, "an evaluated point sits at the curve's apex");
  Expect(DrawnIn(0, 0, kSize, 30, clear) > 60, "the listed curve is drawn");
  GLfloat current[4] = {};
  glGetFloatv(GL_CURRENT_COLOR, current);
  Expect(current[0] == 1 && current[1] == 0 && current[2] == 1, "evaluation leaves the current colour alone");
}
