// compat_api: selection and feedback (GL 2.1 §5.2, §5.3). Hit records with the name stack and the depth range
// of what met the clip volume (clipped parts and culled faces left out), feedback tokens and vertices in
// window coordinates, buffer overflow (-1), the errors and queries, and nothing drawn while outside
// GL_RENDER.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "compat_api.h"

using namespace compat_gl;

namespace compat_api {
namespace {

constexpr GLenum kRender = 0x1C00, kFeedback = 0x1C01, kSelect = 0x1C02;
constexpr GLenum k3DColor = 0x0602, k2D = 0x0600;
constexpr GLenum kPassThroughToken = 0x0700, kPointToken = 0x0701, kLineToken = 0x0702,
                 kPolygonToken = 0x0703, kBitmapToken = 0x0704, kLineResetToken = 0x0707;
constexpr GLenum kRenderModeQuery = 0x0C40, kNameStackDepth = 0x0D70, kMaxNameStackDepth = 0x0D37;
constexpr GLenum kCullFace = 0x0B44;

GLint Integer(GLenum pname) {
  GLint v = -1;
  glGetIntegerv(pname, &v);
  return v;
}

// A hit record's depth word against a window depth in [0, 1].
bool DepthNear(GLuint word, double z) {
  return std::fabs(double(word) / 4294967295.0 - z) < 1e-4;
}

void SetUp16x16() {
  glViewport(0, 0, 16, 16);
  MatrixMode(GL_PROJECTION);
  LoadIdentity();
  Ortho(0, 16, 0, 16, -1, 1);  // object x, y = window x, y; window z = (1 - z) / 2
  MatrixMode(GL_MODELVIEW);
  LoadIdentity();
}

void Triangle(float x, float y, float size, float z) {
  Begin(GL_TRIANGLES);
  Vertex3f(x, y, z);
  Vertex3f(x + size, y, z);
  Vertex3f(x, y + size, z);
  End();
}

void Errors() {
  CHECK(Integer(kRenderModeQuery) == GLint(kRender));
  CHECK(Integer(kMaxNameStackDepth) >= 64);
  // A command that fails has no effect (GL 2.1 §2.5); Mesa 22.3 enters the mode all the same, so only
  // Caldera's mode is checked afterwards and Mesa is put back in GL_RENDER.
  const bool caldera =
      std::strstr(reinterpret_cast<const char*>(glGetString(GL_RENDERER)), "Caldera") != nullptr;
  CHECK(RenderMode(kSelect) == 0);  // no glSelectBuffer yet
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  if (caldera) CHECK(Integer(kRenderModeQuery) == GLint(kRender));
  CHECK(RenderMode(kFeedback) == 0);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  if (caldera) CHECK(Integer(kRenderModeQuery) == GLint(kRender));
  if (!caldera) RenderMode(kRender);
  RenderMode(0x1234);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  GLuint names[4];
  GLfloat values[4];
  SelectBuffer(-1, names);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  FeedbackBuffer(4, 0x1234, values);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  FeedbackBuffer(-1, k2D, values);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  // Outside selection mode the name stack is left alone.
  PushName(5);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(Integer(kNameStackDepth) == 0);
}

void Selection() {
  glClearColor(1, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  SetUp16x16();
  GLuint buffer[64];
  for (GLuint& v : buffer) v = 0xDEADBEEF;
  SelectBuffer(64, buffer);
  CHECK(RenderMode(kSelect) == 0);
  CHECK(Integer(kRenderModeQuery) == GLint(kSelect));
  LoadName(1);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);  // empty name stack
  PopName();
  CHECK_GL_ERROR(GL_STACK_UNDERFLOW);
  glClearColor(0, 1, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);  // draws nothing in selection mode
  InitNames();
  PushName(7);
  CHECK(Integer(kNameStackDepth) == 1);
  Rectf(2, 2, 6, 6);        // window depth 0.5
  Triangle(8, 8, 4, 0.5f);  // 0.25
  PushName(8);
  Triangle(20, 2, 4, 0.0f);  // outside the view volume: no hit
  LoadName(9);
  Triangle(14, 2, 8, -0.5f);  // partly outside: clipped, still a hit at 0.75
  PopName();
  PushName(10);
  glEnable(kCullFace);  // back faces culled: a clockwise triangle is no hit
  Begin(GL_TRIANGLES);
  Vertex3f(2, 2, 0.8f);
  Vertex3f(2, 6, 0.8f);
  Vertex3f(6, 2, 0.8f);
  End();
  glDisable(kCullFace);
  PopName();
  PopName();
  // Arrays drawn with glDrawArrays: one hit under name 11.
  static const GLfloat kStrip[] = {1, 10, 0.2f, 4, 10, 0.2f, 1, 13, 0.2f, 4, 13, 0.2f};
  PushName(11);
  EnableClientState(GL_VERTEX_ARRAY);
  VertexPointer(3, GL_FLOAT, 0, kStrip);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  DisableClientState(GL_VERTEX_ARRAY);
  CHECK_GL_ERROR(GL_NO_ERROR);
  const GLint hits = RenderMode(kRender);
  CHECK(hits == 3);
  CHECK(Integer(kRenderModeQuery) == GLint(kRender));
  // Records: {7} 0.25..0.5; {7, 9} 0.75; {11} 0.4.
  const GLuint* r = buffer;
  CHECK(r[0] == 1 && DepthNear(r[1], 0.25) && DepthNear(r[2], 0.5) && r[3] == 7);
  r += 3 + r[0];
  CHECK(r[0] == 2 && DepthNear(r[1], 0.75) && DepthNear(r[2], 0.75) && r[3] == 7 && r[4] == 9);
  r += 3 + r[0];
  CHECK(r[0] == 1 && DepthNear(r[1], 0.4) && DepthNear(r[2], 0.4) && r[3] == 11);
  r += 3 + r[0];
  CHECK(*r == 0xDEADBEEF);
  GLubyte px[4] = {};
  glReadPixels(3, 3, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  CHECK(px[0] == 255 && px[1] == 0);  // neither the clear nor the rectangles reached the framebuffer
  // Overflow: a record of four words in a buffer of two makes glRenderMode return -1.
  GLuint small[2];
  SelectBuffer(2, small);
  RenderMode(kSelect);
  InitNames();
  PushName(1);
  Rectf(2, 2, 6, 6);
  CHECK(RenderMode(kRender) == -1);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void Feedback() {
  SetUp16x16();
  std::vector<GLfloat> buffer(128, -7.0f);
  FeedbackBuffer(GLsizei(buffer.size()), k3DColor, buffer.data());
  CHECK(RenderMode(kFeedback) == 0);
  PassThrough(42);
  Color4f(0.25f, 0.5f, 0.75f, 1);
  Begin(GL_POINTS);
  Vertex3f(4, 5, 0);
  Vertex3f(40, 5, 0);  // clipped away
  End();
  Begin(GL_LINES);
  Vertex3f(8, 8, 0);
  Vertex3f(24, 8, 0);  // clipped at x = 16
  End();
  Triangle(1, 1, 2, 0.5f);
  using RasterPosFn = void(APIENTRY*)(GLfloat, GLfloat);
  using BitmapFn = void(APIENTRY*)(GLsizei, GLsizei, GLfloat, GLfloat, GLfloat, GLfloat, const GLubyte*);
  auto raster_pos = reinterpret_cast<RasterPosFn>(eglGetProcAddress("glRasterPos2f"));
  auto bitmap = reinterpret_cast<BitmapFn>(eglGetProcAddress("glBitmap"));
  CHECK(raster_pos && bitmap);
  if (!raster_pos || !bitmap) return;
  raster_pos(3, 4);
  bitmap(0, 0, 0, 0, 1, 0, nullptr);
  const GLint count = RenderMode(kRender);
  // 2 + (1 + 7) + (1 + 2 * 7) + (2 + 3 * 7) + (1 + 7)
  CHECK(count == 56);
  if (count != 56) return;
  const GLfloat* f = buffer.data();
  auto vertex = [&](float x, float y, float z) {
    bool ok = std::fabs(f[0] - x) < 1e-3f && std::fabs(f[1] - y) < 1e-3f && std::fabs(f[2] - z) < 1e-4f &&
              std::fabs(f[3] - 0.25f) < 1e-3f && std::fabs(f[4] - 0.5f) < 1e-3f &&
              std::fabs(f[5] - 0.75f) < 1e-3f && std::fabs(f[6] - 1) < 1e-3f;
    f += 7;
    return ok;
  };
  CHECK(f[0] == GLfloat(kPassThroughToken) && f[1] == 42);
  f += 2;
  CHECK(f[0] == GLfloat(kPointToken));
  f += 1;
  CHECK(vertex(4, 5, 0.5f));
  CHECK(f[0] == GLfloat(kLineResetToken) || f[0] == GLfloat(kLineToken));
  f += 1;
  CHECK(vertex(8, 8, 0.5f));
  CHECK(vertex(16, 8, 0.5f));
  CHECK(f[0] == GLfloat(kPolygonToken) && f[1] == 3);
  f += 2;
  CHECK(vertex(1, 1, 0.25f));
  CHECK(vertex(3, 1, 0.25f));
  CHECK(vertex(1, 3, 0.25f));
  CHECK(f[0] == GLfloat(kBitmapToken));
  f += 1;
  CHECK(vertex(3, 4, 0.5f));
  CHECK(buffer[56] == -7.0f);
  // Overflow.
  GLfloat small[3];
  FeedbackBuffer(3, k2D, small);
  RenderMode(kFeedback);
  Triangle(1, 1, 2, 0);
  CHECK(RenderMode(kRender) == -1);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

}  // namespace

void SelectionAndFeedback() {
  Errors();
  Selection();
  Feedback();
}

}  // namespace compat_api
