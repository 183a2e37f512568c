// Helpers the compatibility scenes share: a pixel-aligned projection and probes of their own pixels against
// the clear colour, so that a scene can fail where the comparison with Mesa's tolerance would let it through.
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

#include "compat_gl.h"

namespace compat_scenes {

// Object x, y = window x, y on a size x size target.
inline void PixelOrtho(int size) {
  using namespace compat_gl;
  MatrixMode(GL_PROJECTION);
  LoadIdentity();
  Ortho(0, size, 0, size, -1, 1);
  MatrixMode(GL_MODELVIEW);
  LoadIdentity();
}

// Whether pixel (x, y) still has the grey clear colour `clear` (one byte for R, G and B).
inline bool Background(int x, int y, uint8_t clear) {
  uint8_t p[4] = {};
  glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, p);
  return p[0] == clear && p[1] == clear && p[2] == clear;
}

// How many pixels of the w x h box at (x, y) differ from the clear colour.
inline int DrawnIn(int x, int y, int w, int h, uint8_t clear) {
  std::vector<uint8_t> p(size_t(w * h * 4));
  glReadPixels(x, y, w, h, GL_RGBA, GL_UNSIGNED_BYTE, p.data());
  int drawn = 0;
  for (int i = 0; i < w * h; ++i)
    drawn += p[size_t(i) * 4] != clear || p[size_t(i) * 4 + 1] != clear || p[size_t(i) * 4 + 2] != clear;
  return drawn;
}

inline void Expect(bool ok, const char* what) {
  if (!ok) std::fprintf(stderr, "probe failed: %s\n", what);
  CHECK(ok);
}

}  // namespace compat_scenes
