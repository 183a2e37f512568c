// compat_api: evaluators (GL 2.1 §5.1). The initial maps and grids (table 6.24), glGetMap of what
// glMap1/glMap2 stored (strides packed away), the errors, glMap compiled into a display list with its points
// read at compile time, the values evaluation gives (read back exactly through feedback), the current
// attributes left alone, and GL_EVAL_BIT.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "compat_api.h"

using namespace compat_gl;

namespace compat_api {
namespace {

constexpr GLenum kMap1Color4 = 0x0D90, kMap1Vertex3 = 0x0D97, kMap2Vertex3 = 0x0DB7, kMap2Vertex4 = 0x0DB8,
                 kMap2TexCoord2 = 0x0DB4, kAutoNormal = 0x0D80;
constexpr GLenum kCoeff = 0x0A00, kOrder = 0x0A01, kDomain = 0x0A02;
constexpr GLenum kGrid1Domain = 0x0DD0, kGrid1Segments = 0x0DD1, kGrid2Domain = 0x0DD2,
                 kGrid2Segments = 0x0DD3, kMaxEvalOrder = 0x0D30, kEvalBit = 0x10000;
constexpr GLenum kFeedback = 0x1C01, kRender = 0x1C00, k3DColor = 0x0602, kPointToken = 0x0701;

struct EvalProcs {
  using Map1f = void(APIENTRY*)(GLenum, GLfloat, GLfloat, GLint, GLint, const GLfloat*);
  using Map2f = void(APIENTRY*)(GLenum, GLfloat, GLfloat, GLint, GLint, GLfloat, GLfloat, GLint, GLint,
                                const GLfloat*);
  using Map1d = void(APIENTRY*)(GLenum, GLdouble, GLdouble, GLint, GLint, const GLdouble*);
  using GetMapfv = void(APIENTRY*)(GLenum, GLenum, GLfloat*);
  using GetMapiv = void(APIENTRY*)(GLenum, GLenum, GLint*);
  Map1f map1f = Proc<Map1f>("glMap1f");
  Map2f map2f = Proc<Map2f>("glMap2f");
  Map1d map1d = Proc<Map1d>("glMap1d");
  GetMapfv get_mapfv = Proc<GetMapfv>("glGetMapfv");
  GetMapiv get_mapiv = Proc<GetMapiv>("glGetMapiv");
  void(APIENTRY* map_grid1f)(GLint, GLfloat, GLfloat) = Proc<decltype(map_grid1f)>("glMapGrid1f");
  void(APIENTRY* map_grid2f)(GLint, GLfloat, GLfloat, GLint, GLfloat,
                             GLfloat) = Proc<decltype(map_grid2f)>("glMapGrid2f");
  void(APIENTRY* eval_coord1f)(GLfloat) = Proc<decltype(eval_coord1f)>("glEvalCoord1f");
  void(APIENTRY* eval_coord2f)(GLfloat, GLfloat) = Proc<decltype(eval_coord2f)>("glEvalCoord2f");
  void(APIENTRY* eval_point1)(GLint) = Proc<decltype(eval_point1)>("glEvalPoint1");
  void(APIENTRY* eval_mesh1)(GLenum, GLint, GLint) = Proc<decltype(eval_mesh1)>("glEvalMesh1");
};

bool Near(GLfloat a, GLfloat b) {
  return std::fabs(a - b) < 1e-3f;
}

void InitialState(const EvalProcs& e) {
  CHECK(!glIsEnabled(kMap1Vertex3) && !glIsEnabled(kMap2Vertex4) && !glIsEnabled(kAutoNormal));
  GLint order[2] = {-1, -1};
  e.get_mapiv(kMap1Color4, kOrder, order);
  CHECK(order[0] == 1);
  GLfloat v[4] = {-1, -1, -1, -1};
  e.get_mapfv(kMap1Color4, kCoeff, v);
  CHECK(v[0] == 1 && v[1] == 1 && v[2] == 1 && v[3] == 1);
  e.get_mapfv(kMap2Vertex4, kDomain, v);
  CHECK(v[0] == 0 && v[1] == 1 && v[2] == 0 && v[3] == 1);
  e.get_mapfv(kMap2Vertex4, kCoeff, v);
  CHECK(v[0] == 0 && v[1] == 0 && v[2] == 0 && v[3] == 1);
  GLint n = -1;
  glGetIntegerv(kMaxEvalOrder, &n);
  CHECK(n >= 8);
  glGetIntegerv(kGrid1Segments, &n);
  CHECK(n == 1);
  glGetFloatv(kGrid2Domain, v);
  CHECK(v[0] == 0 && v[1] == 1 && v[2] == 0 && v[3] == 1);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void MapsAndErrors(const EvalProcs& e) {
  // A 2 x 3 texture-coordinate patch given with padded strides: glGetMap returns it packed, u major.
  const GLfloat padded[2][3][4] = {{{1, 2, 0, 0}, {3, 4, 0, 0}, {5, 6, 0, 0}},
                                   {{7, 8, 0, 0}, {9, 10, 0, 0}, {11, 12, 0, 0}}};
  e.map2f(kMap2TexCoord2, -1, 3, 12, 2, 5, 7, 4, 3, &padded[0][0][0]);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLint order[2] = {};
  e.get_mapiv(kMap2TexCoord2, kOrder, order);
  CHECK(order[0] == 2 && order[1] == 3);
  GLfloat coeff[12] = {};
  e.get_mapfv(kMap2TexCoord2, kCoeff, coeff);
  bool packed = true;
  for (int i = 0; i < 12; ++i) packed &= coeff[i] == GLfloat(i + 1);
  CHECK(packed);
  GLfloat domain[4] = {};
  e.get_mapfv(kMap2TexCoord2, kDomain, domain);
  CHECK(domain[0] == -1 && domain[1] == 3 && domain[2] == 5 && domain[3] == 7);

  const GLfloat points[8] = {};
  e.map1f(kMap2Vertex3, 0, 1, 3, 2, points);  // a two-dimensional target
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  e.map1f(kMap1Vertex3, 1, 1, 3, 2, points);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  e.map1f(kMap1Vertex3, 0, 1, 3, 0, points);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  GLint max_order = 0;
  glGetIntegerv(kMaxEvalOrder, &max_order);
  e.map1f(kMap1Vertex3, 0, 1, 3, max_order + 1, points);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  e.map1f(kMap1Vertex3, 0, 1, 2, 2, points);  // stride below the three components
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  e.get_mapfv(kMap1Vertex3, 0x0A03, coeff);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  e.map_grid1f(0, 0, 1);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  e.eval_mesh1(GL_FILL, 0, 1);  // GL_FILL is for glEvalMesh2 only
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  Begin(GL_POINTS);
  e.map1f(kMap1Vertex3, 0, 1, 3, 2, points);
  End();
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  // Nothing failed above changed the map.
  e.get_mapiv(kMap1Vertex3, kOrder, order);
  CHECK(order[0] == 1);
}

// glMap in a display list keeps the points it was given when compiled.
void ListedMaps(const EvalProcs& e) {
  GLdouble line[6] = {1, 2, 3, 4, 5, 6};
  const GLuint list = GenLists(1);
  NewList(list, GL_COMPILE);
  e.map1d(kMap1Vertex3, 0, 2, 3, 2, line);
  EndList();
  line[0] = 100;
  GLint order = 0;
  e.get_mapiv(kMap1Vertex3, kOrder, &order);
  CHECK(order == 1);  // GL_COMPILE: not run yet
  CallList(list);
  DeleteLists(list, 1);
  GLfloat coeff[6] = {};
  e.get_mapfv(kMap1Vertex3, kCoeff, coeff);
  CHECK(coeff[0] == 1 && coeff[5] == 6);
  GLfloat domain[2] = {};
  e.get_mapfv(kMap1Vertex3, kDomain, domain);
  CHECK(domain[0] == 0 && domain[1] == 2);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// Window positions and colours of evaluated vertices, read exactly through feedback.
void EvaluatedValues(const EvalProcs& e) {
  GLint viewport[4] = {};
  glGetIntegerv(GL_VIEWPORT, viewport);
  MatrixMode(GL_PROJECTION);
  LoadIdentity();
  Ortho(0, viewport[2], 0, viewport[3], -1, 1);  // object x, y = window x, y
  MatrixMode(GL_MODELVIEW);
  LoadIdentity();
  // A quadratic curve over the domain [2, 4]: at u = 3 it is 1/4 P0 + 1/2 P1 + 1/4 P2.
  const GLfloat curve[3][3] = {{0, 0, 0}, {8, 16, 0}, {4, 0, 0}};
  e.map1f(kMap1Vertex3, 2, 4, 3, 3, &curve[0][0]);
  const GLfloat colors[2][4] = {{1, 0, 0, 1}, {0, 0, 1, 1}};
  e.map1f(kMap1Color4, 2, 4, 4, 2, &colors[0][0]);
  glEnable(kMap1Vertex3);
  glEnable(kMap1Color4);
  Color4f(0, 1, 0, 1);
  e.map_grid1f(4, 2, 4);
  std::vector<GLfloat> fb(64, -7);
  FeedbackBuffer(GLsizei(fb.size()), k3DColor, fb.data());
  RenderMode(kFeedback);
  Begin(GL_POINTS);
  e.eval_coord1f(3);
  e.eval_point1(1);  // u = 2.5
  End();
  const GLint count = RenderMode(kRender);
  CHECK(count == 16);
  if (count == 16) {
    CHECK(fb[0] == GLfloat(kPointToken) && Near(fb[1], 5) && Near(fb[2], 8));
    CHECK(Near(fb[4], 0.5f) && fb[5] == 0 && Near(fb[6], 0.5f));  // colour halfway from red to blue
    // u = 2.5 (s = 1/4): 9/16 P0 + 6/16 P1 + 1/16 P2.
    CHECK(fb[8] == GLfloat(kPointToken) && Near(fb[9], 3.25f) && Near(fb[10], 6));
    CHECK(Near(fb[12], 0.75f) && Near(fb[14], 0.25f));
  }
  GLfloat current[4] = {};
  glGetFloatv(GL_CURRENT_COLOR, current);
  CHECK(current[0] == 0 && current[1] == 1 && current[2] == 0);  // evaluation leaves the current colour
  // Without an enabled vertex map nothing is issued.
  glDisable(kMap1Vertex3);
  FeedbackBuffer(GLsizei(fb.size()), k3DColor, fb.data());
  RenderMode(kFeedback);
  Begin(GL_POINTS);
  e.eval_coord1f(3);
  End();
  CHECK(RenderMode(kRender) == 0);
  glDisable(kMap1Color4);
  // GL_MAP2_VERTEX_4 is homogeneous: (2, 4, 0, 2) at every parameter lands at (1, 2).
  const GLfloat homogeneous[4] = {2, 4, 0, 2};
  e.map2f(kMap2Vertex4, 0, 1, 4, 1, 0, 1, 4, 1, homogeneous);
  glEnable(kMap2Vertex4);
  FeedbackBuffer(GLsizei(fb.size()), k3DColor, fb.data());
  RenderMode(kFeedback);
  Begin(GL_POINTS);
  e.eval_coord2f(0.5f, 0.5f);
  End();
  CHECK(RenderMode(kRender) == 8);
  CHECK(Near(fb[1], 1) && Near(fb[2], 2));
  glDisable(kMap2Vertex4);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void EvalAttribBit(const EvalProcs& e) {
  glEnable(kMap1Vertex3);
  e.map_grid2f(3, 0, 1, 5, -1, 1);
  PushAttrib(kEvalBit);
  glDisable(kMap1Vertex3);
  glEnable(kAutoNormal);
  e.map_grid2f(7, 0, 2, 9, 0, 2);
  e.map_grid1f(2, 7, 8);
  PopAttrib();
  CHECK(glIsEnabled(kMap1Vertex3) && !glIsEnabled(kAutoNormal));
  GLint segments[2] = {};
  glGetIntegerv(kGrid2Segments, segments);
  CHECK(segments[0] == 3 && segments[1] == 5);
  GLfloat domain[2] = {};
  glGetFloatv(kGrid1Domain, domain);
  CHECK(domain[0] == 2 && domain[1] == 4);  // EvaluatedValues's glMapGrid1f, from before the push
  // The enables are in GL_ENABLE_BIT too; the grids are not.
  PushAttrib(GL_ENABLE_BIT);
  glDisable(kMap1Vertex3);
  glEnable(kMap2Vertex3);
  e.map_grid1f(6, 0, 1);
  PopAttrib();
  CHECK(glIsEnabled(kMap1Vertex3) && !glIsEnabled(kMap2Vertex3));
  GLint segments1 = 0;
  glGetIntegerv(kGrid1Segments, &segments1);
  CHECK(segments1 == 6);
  glDisable(kMap1Vertex3);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

}  // namespace

void Evaluators() {
  const EvalProcs e;
  InitialState(e);
  MapsAndErrors(e);
  ListedMaps(e);
  EvaluatedValues(e);
  EvalAttribBit(e);
}

}  // namespace compat_api
