// Pixel rectangle scenes (compared with Mesa llvmpipe like the others, registered in compat_scenes.cpp):
// glDrawPixels of RGBA and LUMINANCE images at raster positions set by glRasterPos and glWindowPos, zoomed,
// with the depth test and blending on, a depth image; glBitmap glyphs through display lists advancing the
// raster position, GL_UNPACK_LSB_FIRST; glCopyPixels of a region, zoomed.
#include <cstdlib>
#include <cstring>
#include <vector>

#include "compat_gl.h"

using namespace compat_gl;

#define PIXEL_GL_FUNCTIONS(X)                                                             \
  X(RasterPos2i, void, (GLint, GLint))                                                    \
  X(RasterPos3f, void, (GLfloat, GLfloat, GLfloat))                                       \
  X(WindowPos2i, void, (GLint, GLint))                                                    \
  X(WindowPos3f, void, (GLfloat, GLfloat, GLfloat))                                       \
  X(DrawPixels, void, (GLsizei, GLsizei, GLenum, GLenum, const void*))                    \
  X(PixelZoom, void, (GLfloat, GLfloat))                                                  \
  X(Bitmap, void, (GLsizei, GLsizei, GLfloat, GLfloat, GLfloat, GLfloat, const GLubyte*)) \
  X(CopyPixels, void, (GLint, GLint, GLsizei, GLsizei, GLenum))

namespace pixel_gl {
#define PIXEL_DECLARE(name, ret, args) ret(APIENTRY* name) args = nullptr;
PIXEL_GL_FUNCTIONS(PIXEL_DECLARE)
#undef PIXEL_DECLARE
void Load() {
#define PIXEL_LOAD(name, ret, args)                                            \
  name = reinterpret_cast<ret(APIENTRY*) args>(eglGetProcAddress("gl" #name)); \
  if (!name) {                                                                 \
    std::fprintf(stderr, "eglGetProcAddress(gl%s) returned null\n", #name);    \
    std::exit(1);                                                              \
  }
  PIXEL_GL_FUNCTIONS(PIXEL_LOAD)
#undef PIXEL_LOAD
}
}  // namespace pixel_gl

namespace {

constexpr int kSize = 64;
constexpr GLenum kLuminance = 0x1909, kColor = 0x1800;

void Ortho2D() {
  MatrixMode(GL_PROJECTION);
  LoadIdentity();
  Ortho(0, kSize, 0, kSize, -1, 1);
  MatrixMode(GL_MODELVIEW);
  LoadIdentity();
}

void Expect(int x, int y, int r, int g, int b, int tolerance = 10) {
  uint8_t p[4] = {};
  glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, p);
  const bool near =
      std::abs(p[0] - r) <= tolerance && std::abs(p[1] - g) <= tolerance && std::abs(p[2] - b) <= tolerance;
  if (!near)
    std::fprintf(stderr, "(%d, %d) is %d %d %d, expected %d %d %d\n", x, y, p[0], p[1], p[2], r, g, b);
  CHECK(near);
}

}  // namespace

// RGBA (unsigned bytes, with row length and skip pixels) and LUMINANCE (floats) images; zoom 2 and -1;
// depth test against a quad at z 0 (the image at raster z behind it is hidden where the quad is); blending
// of an image with alpha 0.5; a depth image from glWindowPos writing depth that a later quad is tested
// against.
void PixelRectScene() {
  using namespace pixel_gl;
  pixel_gl::Load();
  glClearColor(0.1f, 0.1f, 0.1f, 1);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  Ortho2D();
  // An 8x6 RGBA image inside a 10-pixel-wide client array: skip 1 pixel, row length 10.
  std::vector<uint8_t> rgba(10 * 6 * 4);
  for (int y = 0; y < 6; ++y)
    for (int x = 0; x < 10; ++x) {
      uint8_t* p = &rgba[(y * 10 + x) * 4];
      p[0] = uint8_t(x * 28), p[1] = uint8_t(y * 50), p[2] = uint8_t(255 - x * 20), p[3] = 128;
    }
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 10);
  glPixelStorei(GL_UNPACK_SKIP_PIXELS, 1);
  RasterPos2i(2, 2);
  DrawPixels(8, 6, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  PixelZoom(2, 2);
  RasterPos2i(14, 2);
  DrawPixels(8, 6, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);

  // A LUMINANCE float ramp, mirrored (zoom -1 in x) from raster (46, 2).
  std::vector<float> lum(12 * 8);
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 12; ++x) lum[y * 12 + x] = float(x) / 11.0f * (y < 4 ? 1.0f : 0.5f);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  PixelZoom(-1, 1);
  WindowPos2i(46, 2);
  DrawPixels(12, 8, kLuminance, GL_FLOAT, lum.data());
  PixelZoom(1, 1);

  // Depth test: a green quad at z 0 (depth 0.5); the image at raster z 0.5 (depth 0.25 under this ortho,
  // nearer) covers it, the one at z -0.5 (depth 0.75) is hidden behind it. From here on the 10-pixel rows
  // are read as tight 8-pixel rows.
  glEnable(GL_DEPTH_TEST);
  Color3f(0, 1, 0);
  Rectf(2, 20, 30, 34);
  RasterPos3f(4, 22, 0.5f);
  DrawPixels(8, 6, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  RasterPos3f(18, 22, -0.5f);
  DrawPixels(8, 6, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  // Blending: the half-transparent image over a white quad.
  glDisable(GL_DEPTH_TEST);
  Color3f(1, 1, 1);
  Rectf(34, 20, 60, 34);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  PixelZoom(2, 2);
  RasterPos2i(38, 22);
  DrawPixels(8, 6, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  PixelZoom(1, 1);
  glDisable(GL_BLEND);

  // A depth image (GL_DEPTH_COMPONENT, unsigned shorts) from glWindowPos: depth 0.2 on the left half,
  // 0.9 on the right, drawn in the raster colour (red); a blue quad at depth 0.5 then shows on the right
  // only.
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_ALWAYS);
  std::vector<uint16_t> depth(20 * 10);
  for (int y = 0; y < 10; ++y)
    for (int x = 0; x < 20; ++x) depth[y * 20 + x] = x < 10 ? 13107 : 58981;
  Color3f(1, 0, 0);
  WindowPos3f(4, 40, 0);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 2);
  DrawPixels(20, 10, GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT, depth.data());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glDepthFunc(GL_LESS);
  Color3f(0, 0, 1);
  Rectf(2, 38, 30, 52);
  glDisable(GL_DEPTH_TEST);

  // A stencil image (GL_STENCIL_INDEX bytes: 3 on the left, 4 on the right, write mask 0x3 turning 4 into 0),
  // then a yellow quad where the stencil is 3.
  glClear(GL_STENCIL_BUFFER_BIT);
  std::vector<uint8_t> stencil(16 * 8);
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 16; ++x) stencil[y * 16 + x] = x < 8 ? 3 : 4;
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glStencilMask(0x3);
  WindowPos2i(40, 40);
  DrawPixels(16, 8, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, stencil.data());
  glStencilMask(0xff);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glEnable(GL_STENCIL_TEST);
  glStencilFunc(GL_EQUAL, 3, 0xff);
  Color3f(1, 1, 0);
  Rectf(36, 38, 60, 50);
  glStencilFunc(GL_EQUAL, 0, 0xff);  // the right half's 4 was masked to 0
  Color3f(0, 1, 1);
  Rectf(36, 38, 60, 50);
  glDisable(GL_STENCIL_TEST);

  // An invalid raster position (outside the clip volume) draws nothing.
  RasterPos2i(-10, 58);
  DrawPixels(8, 6, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());

  Expect(2, 2, 28, 0, 235, 12);      // image 1, pixel (0, 0) = client column 1
  Expect(3, 2, 56, 0, 215, 12);      // pixel (1, 0)
  Expect(15, 3, 28, 0, 235, 12);     // zoomed copy: pixel (0, 0) spans 2x2
  Expect(29, 13, 224, 250, 95, 12);  // zoomed: pixel (7, 5)
  Expect(45, 3, 0, 0, 0, 4);         // the mirrored ramp: pixel 0 at x 45
  Expect(35, 3, 232, 232, 232, 6);   // pixel 10 at x 35
  Expect(34, 3, 255, 255, 255, 6);   // pixel 11 at x 34
  Expect(34, 7, 128, 128, 128, 8);   // upper half at half intensity
  Expect(5, 23, 252, 0, 75, 12);     // in front of the green quad: pixel (1, 1), client byte 9 * 4
  Expect(20, 23, 0, 255, 0, 4);      // behind it
  Expect(6, 45, 255, 0, 0, 4);       // depth image, near half (red, the raster colour); the quad is behind
  Expect(20, 45, 0, 0, 255, 4);      // far half: the blue quad passes
  Expect(42, 42, 255, 255, 0, 4);    // stencil 3: yellow
  Expect(52, 42, 0, 255, 255, 4);    // stencil 4, masked to 0: cyan
  Expect(37, 39, 0, 255, 255, 4);    // outside the stencil image: 0, cyan
  Expect(39, 23, 128, 128, 255, 8);  // pixel (0, 0), (0, 0, 255) at alpha 0.5, blended over white
}

// Bitmap glyphs compiled into display lists and drawn by glCallLists (each advances the raster position),
// a bitmap drawn with GL_UNPACK_LSB_FIRST, a NULL 0x0 bitmap that only moves the raster position, and
// glCopyPixels of a region of the picture, zoomed.
void BitmapCopyScene() {
  using namespace pixel_gl;
  pixel_gl::Load();
  glClearColor(0.1f, 0.1f, 0.3f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  Ortho2D();
  // Three 8x10 glyphs: a box, a diagonal and a cross.
  GLubyte glyphs[3][10];
  for (int row = 0; row < 10; ++row) {
    glyphs[0][row] = row == 0 || row == 9 ? 0xFF : 0x81;
    glyphs[1][row] = GLubyte(0x80 >> (row * 8 / 10));
    glyphs[2][row] = row == 4 || row == 5 ? 0xFF : 0x18;
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  GLuint base = GenLists(3);
  for (int i = 0; i < 3; ++i) {
    NewList(base + GLuint(i), GL_COMPILE);
    Bitmap(8, 10, 0, 0, 10, 0, glyphs[i]);
    EndList();
  }
  GLubyte direct[3][10];
  std::memcpy(direct, glyphs, sizeof glyphs);
  std::memset(glyphs, 0, sizeof glyphs);  // the lists copied the bitmaps
  const GLubyte text[] = {0, 1, 2, 2, 1, 0};
  Color3f(1, 1, 0);
  RasterPos2i(2, 4);
  Color3f(0, 1, 1);  // after glRasterPos: the glyphs keep the raster colour (yellow)
  ListBase(base);
  CallLists(6, GL_UNSIGNED_BYTE, text);
  // A second line: move down with an empty bitmap, then the glyphs again in another colour.
  Color3f(1, 0.5f, 1);
  RasterPos2i(2, 20);
  Bitmap(0, 0, 0, 0, 4, 0, nullptr);  // the raster position moves 4 to the right
  CallLists(3, GL_UNSIGNED_BYTE, text);
  ListBase(0);
  // The same glyphs drawn directly, one after another (each replaces the previous one's image).
  for (int i = 2; i >= 0; --i) Bitmap(8, 10, 0, 0, 10, 0, direct[i]);
  // LSB first: the byte 0x01 lights the leftmost pixel.
  const GLubyte lsb[4] = {0x01, 0x01, 0x01, 0x01};
  glPixelStorei(GL_UNPACK_LSB_FIRST, GL_TRUE);
  Color3f(1, 1, 1);
  RasterPos2i(50, 20);
  Bitmap(8, 4, 0, 0, 0, 0, lsb);
  glPixelStorei(GL_UNPACK_LSB_FIRST, GL_FALSE);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  DeleteLists(base, 3);

  // glCopyPixels: the first line's first glyphs copied up, at zoom 1 and 2.
  RasterPos2i(2, 34);
  CopyPixels(2, 4, 30, 10, kColor);
  PixelZoom(2, 2);
  RasterPos2i(34, 34);
  CopyPixels(2, 4, 14, 12, kColor);
  PixelZoom(1, 1);

  Expect(2, 4, 255, 255, 0, 4);      // box glyph, lower-left corner (yellow: the raster colour)
  Expect(5, 8, 25, 25, 76, 4);       // inside the box: background
  Expect(22, 8, 255, 255, 0, 4);     // third glyph (cross), its middle rows
  Expect(56, 4, 255, 255, 0, 4);     // sixth glyph (box) at x 52..59
  Expect(6, 20, 255, 128, 255, 6);   // second line, box glyph moved 4 right (x 6)
  Expect(36, 24, 255, 128, 255, 6);  // direct glyphs: the cross at x 36..43, its middle rows
  Expect(39, 21, 255, 128, 255, 6);  //   and its centre column
  Expect(37, 21, 25, 25, 76, 4);
  Expect(46, 20, 255, 128, 255, 6);  // the diagonal's lowest row at x 46 + 7 * 0... (0x80 >> 0: leftmost)
  Expect(56, 29, 255, 128, 255, 6);  // the box's top row (x 56..63)
  Expect(50, 20, 255, 255, 255, 4);  // LSB first: leftmost pixel
  Expect(51, 20, 25, 25, 76, 4);
  Expect(2, 34, 255, 255, 0, 4);   // copy of the box glyph's corner
  Expect(35, 35, 255, 255, 0, 4);  // zoomed copy: the corner pixel spans 2x2
}
