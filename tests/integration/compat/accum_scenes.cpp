// The accumulation buffer (GL 2.1 §4.2.4): a motion blur of four passes summed with GL_ACCUM, and below it
// GL_LOAD, a scissored GL_MULT and GL_ADD, all brought back with GL_RETURN. Compared with Mesa llvmpipe like
// the scenes in compat_scenes.cpp; Mesa's EGL configs have no accumulation buffer, so where
// GL_ACCUM_RED_BITS is 0 the scene draws the same picture by blending (each step's sum or product made in
// the colour buffer instead), and the comparison checks what glAccum gives against it. Where there is a
// buffer, the scene also probes its own pixels.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "compat_gl.h"
#include "scene_probes.h"

using namespace compat_gl;
using namespace compat_scenes;

namespace {

constexpr GLenum kAccum = 0x0100, kLoad = 0x0101, kReturn = 0x0102, kMult = 0x0103, kAccumRedBits = 0x0D58;
constexpr GLbitfield kAccumBufferBit = 0x200;

bool Near(int x, int y, int r, int g, int b) {
  uint8_t p[4] = {};
  glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, p);
  const bool ok = std::abs(p[0] - r) <= 2 && std::abs(p[1] - g) <= 2 && std::abs(p[2] - b) <= 2;
  if (!ok) std::fprintf(stderr, "(%d, %d) is %d %d %d, not %d %d %d\n", x, y, p[0], p[1], p[2], r, g, b);
  return ok;
}

}  // namespace

void AccumScene() {
  auto accum = Proc<void(APIENTRY*)(GLenum, GLfloat)>("glAccum");
  auto clear_accum = Proc<void(APIENTRY*)(GLfloat, GLfloat, GLfloat, GLfloat)>("glClearAccum");
  GLint bits = 0;
  glGetIntegerv(kAccumRedBits, &bits);
  const bool buffer = bits > 0;
  PixelOrtho(64);
  glClearColor(0, 0, 0, 0);
  glClear(GL_COLOR_BUFFER_BIT);
  if (buffer) {
    clear_accum(0, 0, 0, 0);
    glClear(kAccumBufferBit);
  }

  // Top: an orange square moving right in four passes, each worth a quarter.
  if (!buffer) {
    glEnable(GL_BLEND);
    glBlendColor(0.25f, 0.25f, 0.25f, 0.25f);
    glBlendFunc(GL_CONSTANT_COLOR, GL_ONE);
  }
  for (int pass = 0; pass < 4; ++pass) {
    if (buffer) glClear(GL_COLOR_BUFFER_BIT);
    Color4f(1, 0.5f, 0, 1);
    Rectf(8 + 6 * float(pass), 36, 28 + 6 * float(pass), 56);
    if (buffer) accum(kAccum, 0.25f);
  }
  glDisable(GL_BLEND);

  // Bottom: a blue-grey band loaded, halved on the left (scissored) and raised by a quarter on the right.
  const float band[4] = {0.2f, 0.4f, 0.6f, 1};
  glEnable(GL_SCISSOR_TEST);
  glScissor(0, 0, 64, 30);
  if (buffer) {
    glClearColor(band[0], band[1], band[2], band[3]);
    glClear(GL_COLOR_BUFFER_BIT);
    accum(kLoad, 1);
  } else {
    Color4f(band[0], band[1], band[2], band[3]);
    Rectf(0, 0, 64, 30);
  }
  glScissor(4, 4, 24, 22);
  if (buffer) {
    accum(kMult, 0.5f);
  } else {
    glEnable(GL_BLEND);
    glBlendColor(0.5f, 0.5f, 0.5f, 0.5f);
    glBlendFunc(GL_ZERO, GL_CONSTANT_COLOR);
    Rectf(0, 0, 64, 64);
  }
  glScissor(32, 4, 28, 22);
  if (buffer) {
    accum(GL_ADD, 0.25f);
  } else {
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE);
    Color4f(0.25f, 0.25f, 0.25f, 0.25f);
    Rectf(0, 0, 64, 64);
  }
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
  if (buffer) {
    glClearColor(0, 0, 0, 0);
    glClear(GL_COLOR_BUFFER_BIT);
    accum(kReturn, 1);
  }

  if (!buffer) return;
  Expect(Near(27, 46, 255, 128, 0), "the four passes overlap fully: their sum");
  Expect(Near(10, 46, 64, 32, 0), "the first pass alone: a quarter");
  Expect(Near(32, 46, 191, 96, 0), "three passes: three quarters");
  Expect(Near(2, 15, 51, 102, 153), "GL_LOAD outside the scissored operations");
  Expect(Near(15, 15, 26, 51, 77), "GL_MULT in its scissor box");
  Expect(Near(45, 15, 115, 166, 217), "GL_ADD in its scissor box");
  Expect(Near(30, 60, 0, 0, 0), "nothing accumulated above the squares");
}
