// Input at the edges of what GL accepts must become valid device calls and GL's result: viewports far off
// the framebuffer (and clamped sizes), indexed draws whose indices run past the element buffer, blits
// within one image whose rectangles overlap, the scissor test on blits (colour, depth, stencil; unscaled,
// scaled, mirrored), and every pixel-store parameter read back through every glGet form. Runs through
// Caldera (plain, under the Vulkan validation layer, on the GLES backend) and Mesa llvmpipe (meson.build): a
// check that fails on Mesa is a wrong expectation, except where GL leaves the result undefined, which only
// Caldera's runs check (and say so).
#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gl_harness.h"

namespace {

constexpr int kSize = 32;

const char* kVS = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }
)";
const char* kFS = R"(#version 330 core
out vec4 frag;
void main() { frag = vec4(0.0, 1.0, 0.0, 1.0); }
)";

void Clean() {
  while (glGetError() != GL_NO_ERROR) {
  }
}

bool Green(const std::vector<uint8_t>& px, int x, int y) {
  const uint8_t* p = &px[(size_t(y) * kSize + x) * 4];
  return p[0] == 0 && p[1] == 255 && p[2] == 0;
}
bool Red(const std::vector<uint8_t>& px, int x, int y) {
  const uint8_t* p = &px[(size_t(y) * kSize + x) * 4];
  return p[0] == 255 && p[1] == 0 && p[2] == 0;
}

// Every pixel green where inside(x, y), red elsewhere; prints the first mismatch.
template <typename F>
bool Matches(const char* what, F inside) {
  std::vector<uint8_t> px = harness::ReadRGBA(kSize, kSize);
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x)
      if (inside(x, y) ? !Green(px, x, y) : !Red(px, x, y)) {
        const uint8_t* p = &px[(size_t(y) * kSize + x) * 4];
        std::fprintf(stderr, "  %s: pixel (%d,%d) is %d,%d,%d, want %s\n", what, x, y, p[0], p[1], p[2],
                     inside(x, y) ? "green" : "red");
        return false;
      }
  return true;
}

void ClearRed() {
  glClearColor(1, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
}

// ---- Viewports -------------------------------------------------------------------------------------------

void DrawFullScreen() {
  glDrawArrays(GL_TRIANGLES, 0, 6);
}

void Viewports(bool caldera) {
  Clean();
  GLint dims[2] = {0, 0};
  glGetIntegerv(GL_MAX_VIEWPORT_DIMS, dims);
  CHECK(dims[0] >= kSize && dims[1] >= kSize);
  // GL 3.3 §2.13.1: width and height are clamped to GL_MAX_VIEWPORT_DIMS, and glGet returns the clamped size.
  GLint v[4] = {};
  glViewport(0, 0, 1000000000, 1000000000);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glGetIntegerv(GL_VIEWPORT, v);
  CHECK(v[0] == 0 && v[1] == 0 && v[2] == dims[0] && v[3] == dims[1]);
  GLfloat f[4] = {};
  glGetFloatv(GL_VIEWPORT, f);
  CHECK(f[2] == float(dims[0]) && f[3] == float(dims[1]));
  glViewport(1000000000, -1000000000, 16, 16);
  glGetIntegerv(GL_VIEWPORT, v);
  // GL 3.3 keeps any origin; GL 4.1's viewport arrays clamp it to GL_VIEWPORT_BOUNDS_RANGE, which Mesa
  // (with ARB_viewport_array) applies in every version.
  if (caldera)
    CHECK(v[0] == 1000000000 && v[1] == -1000000000 && v[2] == 16 && v[3] == 16);
  else
    CHECK(v[0] > 0 && v[1] < 0 && v[2] == 16 && v[3] == 16);
  CHECK_GL_ERROR(GL_NO_ERROR);

  GLuint program = harness::CompileProgram(kVS, kFS);
  glUseProgram(program);
  const float quad[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
  GLuint vbo = harness::Positions2D(quad, 12);
  GLuint fb = harness::ColorTarget(kSize, kSize);
  struct Case {
    const char* what;
    GLint x, y, w, h;
    int green_x, green_y;  // the full-screen quad covers columns < green_x and rows < green_y
  };
  const GLint mx = dims[0], my = dims[1];
  const Case cases[] = {
      {"far right and up", 1000000000, 1000000000, kSize, kSize, 0, 0},
      {"far left and down", -1000000000, -1000000000, kSize, kSize, 0, 0},
      {"INT_MAX origin", INT_MAX, INT_MAX, 1000000000, 1000000000, 0, 0},
      {"INT_MIN origin", INT_MIN, INT_MIN, 1000000000, 1000000000, 0, 0},
      {"far left, clamped width", -1000000000, 0, 1000000000, kSize, 0, 0},
      {"far up, zero size", 0, 1000000000, 0, 0, 0, 0},
      // Partly on the framebuffer: the mapping must stay GL's (16 columns / 8 rows of the quad land).
      {"partly left", 16 - mx, 0, mx, kSize, 16, kSize},
      {"partly below", 0, 8 - my, kSize, my, kSize, 8},
      {"largest", 0, 0, 1000000000, 1000000000, kSize, kSize},
      {"ordinary", 0, 0, kSize, kSize, kSize, kSize},
  };
  GLuint query = 0;
  glGenQueries(1, &query);
  for (const Case& c : cases) {
    ClearRed();
    glViewport(c.x, c.y, c.w, c.h);
    // The draw still runs (primitives are counted) even when nothing of it lands.
    glBeginQuery(GL_PRIMITIVES_GENERATED, query);
    DrawFullScreen();
    glEndQuery(GL_PRIMITIVES_GENERATED);
    GLuint primitives = 0;
    glGetQueryObjectuiv(query, GL_QUERY_RESULT, &primitives);
    if (primitives != 2) std::fprintf(stderr, "  %s: %u primitives generated\n", c.what, primitives);
    CHECK(primitives == 2);
    CHECK(Matches(c.what, [&](int x, int y) { return x < c.green_x && y < c.green_y; }));
  }
  CHECK_GL_ERROR(GL_NO_ERROR);
  glViewport(0, 0, kSize, kSize);
  // Scissor boxes whose far edge lies past INT_MAX (or whose origin is far off): draws and clears alike.
  struct Box {
    const char* what;
    GLint x, y, w, h;
    int x0, y0, x1, y1;  // the part of the target inside
  };
  const Box boxes[] = {
      {"box to INT_MAX and past", 16, 8, INT_MAX, INT_MAX, 16, 8, kSize, kSize},
      {"box far left and down", INT_MIN, INT_MIN, INT_MAX, INT_MAX, 0, 0, 0, 0},
      {"box around everything", -1000000000, -1000000000, 2000000000, 2000000000, 0, 0, kSize, kSize},
      {"box far right and up", INT_MAX, INT_MAX, INT_MAX, INT_MAX, 0, 0, 0, 0},
  };
  for (const Box& b : boxes) {
    auto inside = [&](int x, int y) { return x >= b.x0 && x < b.x1 && y >= b.y0 && y < b.y1; };
    for (bool clear : {false, true}) {
      ClearRed();
      glEnable(GL_SCISSOR_TEST);
      glScissor(b.x, b.y, b.w, b.h);
      if (clear) {
        glClearColor(0, 1, 0, 1);
        glClear(GL_COLOR_BUFFER_BIT);
      } else {
        DrawFullScreen();
      }
      glDisable(GL_SCISSOR_TEST);
      // Mesa computes x + width in 32 bits: its box to INT_MAX wraps and holds nothing.
      if (caldera || b.w != INT_MAX || b.x != 16) CHECK(Matches(b.what, inside));
    }
  }
  CHECK_GL_ERROR(GL_NO_ERROR);
  glDeleteQueries(1, &query);
  glDeleteFramebuffers(1, &fb);
  glDeleteBuffers(1, &vbo);
  glDeleteProgram(program);
}

// ---- Indexed draws past the end of the element buffer -----------------------------------------------------

void IndexOverruns(bool caldera) {
  Clean();
  GLuint program = harness::CompileProgram(kVS, kFS);
  glUseProgram(program);
  // Vertices 0-3: the left half of the target; 4-7: the right half.
  const float xy[] = {-1, -1, 0, -1, 0, 1, -1, 1, 0, -1, 1, -1, 1, 1, 0, 1};
  GLuint vbo = harness::Positions2D(xy, 16);
  GLuint fb = harness::ColorTarget(kSize, kSize);
  glViewport(0, 0, kSize, kSize);
  GLuint ebo[3];
  glGenBuffers(3, ebo);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo[0]);
  const uint16_t quad16[] = {0, 1, 2, 0, 2, 3};
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof(quad16), quad16, GL_STATIC_DRAW);
  auto left = [](int x, int) { return x < kSize / 2; };
  auto right = [](int x, int) { return x >= kSize / 2; };
  auto all = [](int, int) { return true; };
  auto none = [](int, int) { return false; };
  // GL leaves indices read past the buffer undefined; Caldera draws the indices that are there. Mesa fetches
  // index 0 for them, which makes degenerate triangles: both draw the in-range part and nothing else.
  ClearRed();
  glDrawElements(GL_TRIANGLES, 600, GL_UNSIGNED_SHORT, nullptr);
  CHECK(Matches("count past the end", left));
  ClearRed();
  glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, reinterpret_cast<const void*>(1200));
  CHECK(Matches("offset past the end", none));
  ClearRed();
  glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_SHORT, reinterpret_cast<const void*>(12));
  CHECK(Matches("offset at the end", none));
  ClearRed();
  glDrawElementsBaseVertex(GL_TRIANGLES, 600, GL_UNSIGNED_SHORT, nullptr, 4);
  CHECK(Matches("base vertex", right));
  ClearRed();
  glDrawElementsInstanced(GL_TRIANGLES, 600, GL_UNSIGNED_SHORT, nullptr, 3);
  CHECK(Matches("instanced", left));
  ClearRed();
  glDrawElementsInstancedBaseVertex(GL_TRIANGLES, 6000, GL_UNSIGNED_SHORT, nullptr, 2, 4);
  CHECK(Matches("instanced base vertex", right));
  ClearRed();
  glDrawRangeElements(GL_TRIANGLES, 0, 3, 600, GL_UNSIGNED_SHORT, nullptr);
  CHECK(Matches("range", left));
  ClearRed();
  glDrawRangeElementsBaseVertex(GL_TRIANGLES, 0, 3, 600, GL_UNSIGNED_SHORT, nullptr, 4);
  CHECK(Matches("range base vertex", right));
  // Offset at index 3: indices {0, 2, 3}, the upper-left triangle of the left half.
  ClearRed();
  glDrawElements(GL_TRIANGLES, 600, GL_UNSIGNED_SHORT, reinterpret_cast<const void*>(6));
  std::vector<uint8_t> px = harness::ReadRGBA(kSize, kSize);
  CHECK(Green(px, 2, 28) && Red(px, 14, 2) && Red(px, 20, 16));
  // A count whose last triangle is cut by the end: the whole triangles before it are drawn.
  ClearRed();
  glDrawElements(GL_TRIANGLES, 5, GL_UNSIGNED_SHORT, nullptr);
  px = harness::ReadRGBA(kSize, kSize);
  CHECK(Green(px, 14, 2) && Red(px, 2, 28));
  // Multi-draws and runs of draws with nothing between them (merged into one device draw where the device
  // can): each member past the end on its own.
  ClearRed();
  const GLsizei counts[2] = {600, 1 << 20};
  const void* offsets[2] = {nullptr, nullptr};
  const GLint bases[2] = {0, 4};
  glMultiDrawElementsBaseVertex(GL_TRIANGLES, counts, GL_UNSIGNED_SHORT, offsets, 2, bases);
  CHECK(Matches("multi-draw", all));
  ClearRed();
  glMultiDrawElements(GL_TRIANGLES, counts, GL_UNSIGNED_SHORT, offsets, 2);
  CHECK(Matches("multi-draw without base vertex", left));
  ClearRed();
  for (int i = 0; i < 8; ++i)
    glDrawElementsBaseVertex(GL_TRIANGLES, 600 + i, GL_UNSIGNED_SHORT, nullptr, 4 * (i & 1));
  CHECK(Matches("run of draws", all));
  // Other index types.
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo[1]);
  const uint8_t quad8[] = {4, 5, 6, 4, 6, 7};
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof(quad8), quad8, GL_STATIC_DRAW);
  ClearRed();
  glDrawElements(GL_TRIANGLES, 601, GL_UNSIGNED_BYTE, nullptr);
  CHECK(Matches("8-bit indices", right));
  const uint32_t quad32[] = {0, 1, 2, 0, 2, 3};
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof(quad32), quad32, GL_STATIC_DRAW);
  ClearRed();
  glDrawElements(GL_TRIANGLES, 1 << 24, GL_UNSIGNED_INT, nullptr);
  CHECK(Matches("32-bit indices", left));
  // The buffer shrinks after a draw; then it has no storage at all.
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, 12, quad32, GL_STATIC_DRAW);  // indices {0, 1, 2}
  ClearRed();
  glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_INT, nullptr);
  px = harness::ReadRGBA(kSize, kSize);
  CHECK(Green(px, 14, 2) && Red(px, 2, 28));
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo[2]);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, 0, nullptr, GL_STATIC_DRAW);
  ClearRed();
  glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_INT, nullptr);
  CHECK(Matches("empty element buffer", none));
  // A zero-sized store with a real pointer (piglit's ppgtt_memory_alignment does this) copies nothing; the
  // sanitizer lane catches a copy into the empty store.
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, 0, quad32, GL_STATIC_DRAW);
  ClearRed();
  glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_INT, nullptr);
  CHECK(Matches("empty element buffer with a data pointer", none));
  // Primitive restart rewrites indices from the buffer's copy: the same rule applies there.
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo[0]);
  glEnable(GL_PRIMITIVE_RESTART);
  glPrimitiveRestartIndex(7);
  ClearRed();
  glDrawElements(GL_TRIANGLES, 600, GL_UNSIGNED_SHORT, nullptr);
  CHECK(Matches("restart rewrite", left));
  glDisable(GL_PRIMITIVE_RESTART);
  CHECK_GL_ERROR(GL_NO_ERROR);
  (void)caldera;
  glDeleteBuffers(3, ebo);
  glDeleteFramebuffers(1, &fb);
  glDeleteBuffers(1, &vbo);
  glDeleteProgram(program);
}

// ---- Blits ------------------------------------------------------------------------------------------------

// A colour per pixel, distinct in every channel pattern, so a misplaced pixel shows.
std::vector<uint8_t> Pattern(int w, int h) {
  std::vector<uint8_t> px(size_t(w) * h * 4);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      uint8_t* p = &px[(size_t(y) * w + x) * 4];
      p[0] = uint8_t(x * 7 + 3), p[1] = uint8_t(y * 7 + 5), p[2] = uint8_t((x * 13 + y * 29) & 0xFF),
      p[3] = 255;
    }
  return px;
}

struct ColorFb {
  GLuint fb = 0, tex = 0;
};

ColorFb MakeColorFb(const std::vector<uint8_t>* contents) {
  ColorFb c;
  glGenTextures(1, &c.tex);
  glBindTexture(GL_TEXTURE_2D, c.tex);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, kSize, kSize, 0, GL_RGBA, GL_UNSIGNED_BYTE,
               contents ? contents->data() : nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glGenFramebuffers(1, &c.fb);
  glBindFramebuffer(GL_FRAMEBUFFER, c.fb);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, c.tex, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  if (!contents) {
    glClearColor(0, 0, 0, 0);
    glClear(GL_COLOR_BUFFER_BIT);
  }
  return c;
}

void DeleteColorFb(ColorFb& c) {
  glDeleteFramebuffers(1, &c.fb);
  glDeleteTextures(1, &c.tex);
}

std::vector<uint8_t> ReadFb(GLuint fb) {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
  return harness::ReadRGBA(kSize, kSize);
}

// Where a nearest blit reads destination pixel d of [d0, d1) from [s0, s1) (GL 3.3 §4.3.2: pixel centres,
// mirrored when the rectangles' directions differ); -1 when d is outside the destination rectangle.
int NearestSource(int d, int s0, int s1, int d0, int d1) {
  if (d < std::min(d0, d1) || d >= std::max(d0, d1)) return -1;
  double t = (d + 0.5 - d0) / double(d1 - d0);
  return int(std::floor(s0 + t * (s1 - s0)));
}

struct Blit {
  const char* what;
  int s[4], d[4];
  GLenum filter;
};

// Overlapping rectangles of one image: GL leaves the result undefined; Caldera copies through a temporary,
// so the result is the blit of the image as it was (checked on Caldera; Mesa's result is only reported).
void OverlappingBlits(bool caldera) {
  Clean();
  const std::vector<uint8_t> pattern = Pattern(kSize, kSize);
  const Blit blits[] = {
      {"shifted", {0, 0, 24, 24}, {4, 6, 28, 30}, GL_NEAREST},
      {"mirrored", {0, 0, 24, 24}, {28, 30, 4, 6}, GL_NEAREST},
      {"scaled down", {0, 0, 32, 32}, {8, 8, 24, 24}, GL_NEAREST},
      {"scaled up, mirrored", {4, 4, 12, 12}, {30, 30, 2, 2}, GL_NEAREST},
      {"scaled, linear", {0, 0, 32, 32}, {3, 5, 20, 29}, GL_LINEAR},
  };
  for (const Blit& b : blits) {
    // The reference: the same blit from a second image holding the same pixels.
    ColorFb ref_src = MakeColorFb(&pattern), ref = MakeColorFb(&pattern), same = MakeColorFb(&pattern);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, ref_src.fb);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, ref.fb);
    glBlitFramebuffer(b.s[0], b.s[1], b.s[2], b.s[3], b.d[0], b.d[1], b.d[2], b.d[3], GL_COLOR_BUFFER_BIT,
                      b.filter);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, same.fb);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, same.fb);
    glBlitFramebuffer(b.s[0], b.s[1], b.s[2], b.s[3], b.d[0], b.d[1], b.d[2], b.d[3], GL_COLOR_BUFFER_BIT,
                      b.filter);
    CHECK_GL_ERROR(GL_NO_ERROR);
    bool equal = ReadFb(same.fb) == ReadFb(ref.fb);
    if (caldera) {
      if (!equal)
        std::fprintf(stderr, "  overlapping blit %s differs from the blit through a copy\n", b.what);
      CHECK(equal);
    } else {
      std::printf("  (Mesa: overlapping blit %s %s the blit through a copy)\n", b.what,
                  equal ? "matches" : "differs from");
    }
    DeleteColorFb(ref_src), DeleteColorFb(ref), DeleteColorFb(same);
  }
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// The scissor test applies to a blit's destination (GL 3.3 §4.3.2), without changing where pixels come from.
void ScissoredColorBlits(bool exact_extremes) {
  Clean();
  const std::vector<uint8_t> pattern = Pattern(kSize, kSize);
  const int sc[4] = {5, 3, 17, 22};  // x, y, width, height
  auto in_scissor = [&](int x, int y) {
    return x >= sc[0] && x < sc[0] + sc[2] && y >= sc[1] && y < sc[1] + sc[3];
  };
  const Blit blits[] = {
      {"unscaled", {0, 0, 32, 32}, {0, 0, 32, 32}, GL_NEAREST},
      {"moved", {2, 1, 30, 31}, {0, 0, 28, 30}, GL_NEAREST},
      {"mirrored x", {0, 0, 32, 32}, {32, 0, 0, 32}, GL_NEAREST},
      {"mirrored y", {0, 32, 32, 0}, {0, 0, 32, 32}, GL_NEAREST},
      {"scaled 2x", {4, 4, 20, 20}, {0, 0, 32, 32}, GL_NEAREST},
      {"scaled 3x, mirrored", {1, 2, 11, 12}, {31, 31, 1, 1}, GL_NEAREST},
      {"scaled down", {0, 0, 32, 32}, {2, 2, 18, 26}, GL_NEAREST},
      {"partly outside", {0, 0, 32, 32}, {-8, -4, 24, 28}, GL_NEAREST},
      {"scaled, partly outside", {0, 0, 16, 16}, {-16, -8, 48, 56}, GL_NEAREST},
  };
  ColorFb src = MakeColorFb(&pattern);
  for (const Blit& b : blits) {
    ColorFb dst = MakeColorFb(nullptr);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, src.fb);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, dst.fb);
    glEnable(GL_SCISSOR_TEST);
    glScissor(sc[0], sc[1], sc[2], sc[3]);
    glBlitFramebuffer(b.s[0], b.s[1], b.s[2], b.s[3], b.d[0], b.d[1], b.d[2], b.d[3], GL_COLOR_BUFFER_BIT,
                      b.filter);
    glDisable(GL_SCISSOR_TEST);
    CHECK_GL_ERROR(GL_NO_ERROR);
    std::vector<uint8_t> got = ReadFb(dst.fb);
    int bad = 0;
    for (int y = 0; y < kSize; ++y)
      for (int x = 0; x < kSize; ++x) {
        int sx = NearestSource(x, b.s[0], b.s[2], b.d[0], b.d[2]);
        int sy = NearestSource(y, b.s[1], b.s[3], b.d[1], b.d[3]);
        uint8_t want[4] = {0, 0, 0, 0};
        if (in_scissor(x, y) && sx >= 0 && sy >= 0)
          std::memcpy(want, &pattern[(size_t(sy) * kSize + sx) * 4], 4);
        if (std::memcmp(want, &got[(size_t(y) * kSize + x) * 4], 4) != 0 && bad++ == 0) {
          const uint8_t* p = &got[(size_t(y) * kSize + x) * 4];
          std::fprintf(stderr, "  scissored blit %s: pixel (%d,%d) is %d,%d,%d,%d, want %d,%d,%d,%d\n",
                       b.what, x, y, p[0], p[1], p[2], p[3], want[0], want[1], want[2], want[3]);
        }
      }
    CHECK(bad == 0);
    DeleteColorFb(dst);
  }
  // Linear filtering: the scissored blit equals the unscissored one inside the scissor, untouched outside.
  for (const Blit b : {Blit{"linear 2x", {4, 4, 20, 20}, {0, 0, 32, 32}, GL_LINEAR},
                       Blit{"linear, mirrored", {0, 0, 32, 32}, {30, 29, 3, 1}, GL_LINEAR}}) {
    ColorFb full = MakeColorFb(nullptr), cut = MakeColorFb(nullptr);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, src.fb);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, full.fb);
    glBlitFramebuffer(b.s[0], b.s[1], b.s[2], b.s[3], b.d[0], b.d[1], b.d[2], b.d[3], GL_COLOR_BUFFER_BIT,
                      GL_LINEAR);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, cut.fb);
    glEnable(GL_SCISSOR_TEST);
    glBlitFramebuffer(b.s[0], b.s[1], b.s[2], b.s[3], b.d[0], b.d[1], b.d[2], b.d[3], GL_COLOR_BUFFER_BIT,
                      GL_LINEAR);
    glDisable(GL_SCISSOR_TEST);
    std::vector<uint8_t> want = ReadFb(full.fb), got = ReadFb(cut.fb);
    int bad = 0;
    for (int y = 0; y < kSize; ++y)
      for (int x = 0; x < kSize; ++x) {
        const uint8_t* w = &want[(size_t(y) * kSize + x) * 4];
        const uint8_t* g = &got[(size_t(y) * kSize + x) * 4];
        const uint8_t zero[4] = {0, 0, 0, 0};
        if (std::memcmp(in_scissor(x, y) ? w : zero, g, 4) != 0 && bad++ == 0)
          std::fprintf(stderr, "  scissored blit %s: pixel (%d,%d) is %d,%d,%d,%d\n", b.what, x, y, g[0],
                       g[1], g[2], g[3]);
      }
    CHECK(bad == 0);
    DeleteColorFb(full), DeleteColorFb(cut);
  }
  // Rectangles at the ends of the integer range: valid device calls whatever they are. Where the destination
  // covers the target, each of its pixels maps to a middle pixel of the source: (16, 16), or (15, 15)
  // mirrored (INT_MAX is one closer to the middle than INT_MIN). Mesa adds such coordinates in 32 bits and
  // blits nothing, and so does the GLES backend on it: only Caldera on Vulkan is checked for the pixels.
  struct Extreme {
    Blit blit;
    int middle;
  };
  const Extreme extremes[] = {
      {{"destination spans the integers", {0, 0, 32, 32}, {INT_MIN, INT_MIN, INT_MAX, INT_MAX}, GL_NEAREST},
       16},
      {{"mirrored, spans the integers", {0, 0, 32, 32}, {INT_MAX, INT_MAX, INT_MIN, INT_MIN}, GL_NEAREST},
       15},
  };
  for (bool scissor : {false, true})
    for (const Extreme& e : extremes) {
      const Blit& b = e.blit;
      ColorFb dst = MakeColorFb(nullptr);
      glBindFramebuffer(GL_READ_FRAMEBUFFER, src.fb);
      glBindFramebuffer(GL_DRAW_FRAMEBUFFER, dst.fb);
      if (scissor) glEnable(GL_SCISSOR_TEST);
      glBlitFramebuffer(b.s[0], b.s[1], b.s[2], b.s[3], b.d[0], b.d[1], b.d[2], b.d[3], GL_COLOR_BUFFER_BIT,
                        b.filter);
      glDisable(GL_SCISSOR_TEST);
      CHECK_GL_ERROR(GL_NO_ERROR);
      std::vector<uint8_t> got = ReadFb(dst.fb);
      int bad = 0;
      for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < kSize; ++x) {
          uint8_t want[4] = {0, 0, 0, 0};
          if (!scissor || in_scissor(x, y))
            std::memcpy(want, &pattern[(size_t(e.middle) * kSize + e.middle) * 4], 4);
          if (std::memcmp(want, &got[(size_t(y) * kSize + x) * 4], 4) != 0 && bad++ == 0) {
            const uint8_t* p = &got[(size_t(y) * kSize + x) * 4];
            if (exact_extremes)
              std::fprintf(stderr, "  blit %s%s: pixel (%d,%d) is %d,%d,%d,%d\n", b.what,
                           scissor ? ", scissored" : "", x, y, p[0], p[1], p[2], p[3]);
          }
        }
      if (exact_extremes) CHECK(bad == 0);
      DeleteColorFb(dst);
    }
  // A source spanning the integers reads outside the image (undefined in GL): only no error and, under
  // validation, valid device calls are checked.
  ColorFb dst = MakeColorFb(nullptr);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, src.fb);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, dst.fb);
  glBlitFramebuffer(INT_MIN, INT_MIN, INT_MAX, INT_MAX, 0, 0, 32, 32, GL_COLOR_BUFFER_BIT, GL_LINEAR);
  glBlitFramebuffer(INT_MIN, 0, INT_MAX, 32, 0, 32, 32, 0, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, dst.fb);
  glBlitFramebuffer(INT_MIN, INT_MIN, INT_MAX, INT_MAX, INT_MAX, INT_MAX, INT_MIN, INT_MIN,
                    GL_COLOR_BUFFER_BIT, GL_NEAREST);
  CHECK_GL_ERROR(GL_NO_ERROR);
  DeleteColorFb(dst);
  DeleteColorFb(src);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

struct DepthFb {
  GLuint fb = 0, rb = 0;
};

DepthFb MakeDepthFb() {
  DepthFb d;
  glGenRenderbuffers(1, &d.rb);
  glBindRenderbuffer(GL_RENDERBUFFER, d.rb);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, kSize, kSize);
  glGenFramebuffers(1, &d.fb);
  glBindFramebuffer(GL_FRAMEBUFFER, d.fb);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, d.rb);
  glDrawBuffer(GL_NONE);
  glReadBuffer(GL_NONE);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  return d;
}

// Packed 24_8 values of the bound read framebuffer: depth in the top 24 bits, stencil in the low 8.
std::vector<uint32_t> ReadDepthStencil(GLuint fb) {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
  std::vector<uint32_t> v(size_t(kSize) * kSize);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glReadPixels(0, 0, kSize, kSize, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, v.data());
  return v;
}

// Depth and stencil: the source holds a value per 4x4 block (cleared through the scissor), the destination
// depth 1 / stencil 0; each aspect alone and both together, unscaled, mirrored and scaled.
void ScissoredDepthStencilBlits() {
  Clean();
  DepthFb src = MakeDepthFb();
  glEnable(GL_SCISSOR_TEST);
  for (int by = 0; by < kSize / 4; ++by)
    for (int bx = 0; bx < kSize / 4; ++bx) {
      glScissor(bx * 4, by * 4, 4, 4);
      glClearDepth((bx * 8 + by + 1) / 80.0);
      glClearStencil(bx * 16 + by + 1);
      glClear(GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    }
  glDisable(GL_SCISSOR_TEST);
  glClearDepth(1.0);
  glClearStencil(0);
  const std::vector<uint32_t> source = ReadDepthStencil(src.fb);
  const int sc[4] = {3, 6, 21, 13};
  const Blit blits[] = {
      {"unscaled", {0, 0, 32, 32}, {0, 0, 32, 32}, GL_NEAREST},
      {"moved", {4, 0, 32, 28}, {0, 4, 28, 32}, GL_NEAREST},
      {"mirrored", {0, 0, 32, 32}, {32, 32, 0, 0}, GL_NEAREST},
      {"scaled 2x", {8, 8, 24, 24}, {0, 0, 32, 32}, GL_NEAREST},
      {"scaled 4x, mirrored x", {0, 0, 8, 8}, {32, 0, 0, 32}, GL_NEAREST},
  };
  const GLbitfield masks[3] = {GL_DEPTH_BUFFER_BIT, GL_STENCIL_BUFFER_BIT,
                               GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT};
  for (const Blit& b : blits)
    for (GLbitfield mask : masks) {
      DepthFb dst = MakeDepthFb();
      glClear(GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
      glBindFramebuffer(GL_READ_FRAMEBUFFER, src.fb);
      glBindFramebuffer(GL_DRAW_FRAMEBUFFER, dst.fb);
      glEnable(GL_SCISSOR_TEST);
      glScissor(sc[0], sc[1], sc[2], sc[3]);
      glBlitFramebuffer(b.s[0], b.s[1], b.s[2], b.s[3], b.d[0], b.d[1], b.d[2], b.d[3], mask, GL_NEAREST);
      glDisable(GL_SCISSOR_TEST);
      CHECK_GL_ERROR(GL_NO_ERROR);
      std::vector<uint32_t> got = ReadDepthStencil(dst.fb);
      int bad = 0;
      for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < kSize; ++x) {
          uint32_t want = 0xFFFFFF00u;  // depth 1, stencil 0
          int sx = NearestSource(x, b.s[0], b.s[2], b.d[0], b.d[2]);
          int sy = NearestSource(y, b.s[1], b.s[3], b.d[1], b.d[3]);
          bool inside = x >= sc[0] && x < sc[0] + sc[2] && y >= sc[1] && y < sc[1] + sc[3];
          if (inside && sx >= 0 && sy >= 0) {
            uint32_t s = source[size_t(sy) * kSize + sx];
            if (mask & GL_DEPTH_BUFFER_BIT) want = (want & 0xFF) | (s & 0xFFFFFF00u);
            if (mask & GL_STENCIL_BUFFER_BIT) want = (want & 0xFFFFFF00u) | (s & 0xFF);
          }
          uint32_t g = got[size_t(y) * kSize + x];
          // Mesa's depth blits go through floats: one unit of the 24-bit value either way is allowed.
          int64_t depth_diff = int64_t(g >> 8) - int64_t(want >> 8);
          bool same = (g & 0xFF) == (want & 0xFF) && depth_diff >= -1 && depth_diff <= 1;
          if (!same && bad++ == 0)
            std::fprintf(stderr, "  scissored %s blit %s: pixel (%d,%d) is 0x%08x, want 0x%08x\n",
                         mask == GL_DEPTH_BUFFER_BIT     ? "depth"
                         : mask == GL_STENCIL_BUFFER_BIT ? "stencil"
                                                         : "depth+stencil",
                         b.what, x, y, g, want);
        }
      CHECK(bad == 0);
      glDeleteFramebuffers(1, &dst.fb);
      glDeleteRenderbuffers(1, &dst.rb);
    }
  glDeleteFramebuffers(1, &src.fb);
  glDeleteRenderbuffers(1, &src.rb);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// Multisample resolves take the scissor test too: colour (one resolve command) and depth+stencil (a
// rendering scope with resolve attachments on Vulkan), each cleared to one value, resolved into a target
// holding another.
void ScissoredResolves() {
  Clean();
  GLuint rbs[4], fbs[2];
  glGenRenderbuffers(4, rbs);
  glGenFramebuffers(2, fbs);
  const GLenum formats[2] = {GL_RGBA8, GL_DEPTH24_STENCIL8};
  const GLenum attachments[2] = {GL_COLOR_ATTACHMENT0, GL_DEPTH_STENCIL_ATTACHMENT};
  for (int i = 0; i < 2; ++i) {  // i = 0: multisampled source; 1: single-sampled destination
    glBindFramebuffer(GL_FRAMEBUFFER, fbs[i]);
    for (int a = 0; a < 2; ++a) {
      glBindRenderbuffer(GL_RENDERBUFFER, rbs[i * 2 + a]);
      glRenderbufferStorageMultisample(GL_RENDERBUFFER, i == 0 ? 4 : 0, formats[a], kSize, kSize);
      glFramebufferRenderbuffer(GL_FRAMEBUFFER, attachments[a], GL_RENDERBUFFER, rbs[i * 2 + a]);
    }
    CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
    glClearColor(i == 0 ? 0.0f : 1.0f, i == 0 ? 1.0f : 0.0f, 0, 1);  // source green, destination red
    glClearDepth(i == 0 ? 0.25 : 1.0);
    glClearStencil(i == 0 ? 0x5A : 0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  }
  glClearDepth(1.0);
  glClearStencil(0);
  const int sc[4] = {6, 9, 13, 17};
  auto inside = [&](int x, int y) {
    return x >= sc[0] && x < sc[0] + sc[2] && y >= sc[1] && y < sc[1] + sc[3];
  };
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbs[0]);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbs[1]);
  glEnable(GL_SCISSOR_TEST);
  glScissor(sc[0], sc[1], sc[2], sc[3]);
  glBlitFramebuffer(0, 0, kSize, kSize, 0, 0, kSize, kSize,
                    GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT, GL_NEAREST);
  glDisable(GL_SCISSOR_TEST);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbs[1]);
  CHECK(Matches("scissored colour resolve", inside));
  std::vector<uint32_t> ds = ReadDepthStencil(fbs[1]);
  int bad = 0;
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x) {
      uint32_t v = ds[size_t(y) * kSize + x];
      bool ok =
          inside(x, y) ? ((v & 0xFF) == 0x5A && std::abs(int64_t(v >> 8) - 0x400000) <= 1) : v == 0xFFFFFF00u;
      if (!ok && bad++ == 0)
        std::fprintf(stderr, "  scissored depth/stencil resolve: (%d,%d) is 0x%08x\n", x, y, v);
    }
  CHECK(bad == 0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(2, fbs);
  glDeleteRenderbuffers(4, rbs);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// ---- Pixel store ------------------------------------------------------------------------------------------

struct PixelStoreName {
  GLenum pname;
  const char* name;
  bool es;       // accepted by ES 3.0's glPixelStorei
  bool boolean;  // SWAP_BYTES / LSB_FIRST
  GLint initial;
  GLint set;  // a value to set and read back
};

const PixelStoreName kPixelStore[] = {
    {GL_PACK_SWAP_BYTES, "GL_PACK_SWAP_BYTES", false, true, 0, 0},
    {GL_PACK_LSB_FIRST, "GL_PACK_LSB_FIRST", false, true, 0, 0},
    {GL_PACK_ROW_LENGTH, "GL_PACK_ROW_LENGTH", true, false, 0, 17},
    {GL_PACK_IMAGE_HEIGHT, "GL_PACK_IMAGE_HEIGHT", false, false, 0, 9},
    {GL_PACK_SKIP_ROWS, "GL_PACK_SKIP_ROWS", true, false, 0, 3},
    {GL_PACK_SKIP_PIXELS, "GL_PACK_SKIP_PIXELS", true, false, 0, 5},
    {GL_PACK_SKIP_IMAGES, "GL_PACK_SKIP_IMAGES", false, false, 0, 2},
    {GL_PACK_ALIGNMENT, "GL_PACK_ALIGNMENT", true, false, 4, 8},
    {GL_UNPACK_SWAP_BYTES, "GL_UNPACK_SWAP_BYTES", false, true, 0, 0},
    {GL_UNPACK_LSB_FIRST, "GL_UNPACK_LSB_FIRST", false, true, 0, 0},
    {GL_UNPACK_ROW_LENGTH, "GL_UNPACK_ROW_LENGTH", true, false, 0, 19},
    {GL_UNPACK_IMAGE_HEIGHT, "GL_UNPACK_IMAGE_HEIGHT", true, false, 0, 11},
    {GL_UNPACK_SKIP_ROWS, "GL_UNPACK_SKIP_ROWS", true, false, 0, 6},
    {GL_UNPACK_SKIP_PIXELS, "GL_UNPACK_SKIP_PIXELS", true, false, 0, 7},
    {GL_UNPACK_SKIP_IMAGES, "GL_UNPACK_SKIP_IMAGES", true, false, 0, 4},
    {GL_UNPACK_ALIGNMENT, "GL_UNPACK_ALIGNMENT", true, false, 4, 2},
};

// The value of pname through glGetIntegerv, glGetInteger64v, glGetFloatv and glGetBooleanv (and
// glGetDoublev on desktop); false with a message when they disagree with `want` or raise an error.
bool ReadsBack(const PixelStoreName& p, GLint want, bool es) {
  GLint i = -1;
  GLint64 i64 = -1;
  GLfloat f = -1;
  GLboolean b = 2;
  glGetIntegerv(p.pname, &i);
  glGetInteger64v(p.pname, &i64);
  glGetFloatv(p.pname, &f);
  glGetBooleanv(p.pname, &b);
  GLdouble d = want;
  if (!es) glGetDoublev(p.pname, &d);
  GLenum err = glGetError();
  bool ok = err == GL_NO_ERROR && i == want && i64 == want && f == float(want) && d == double(want) &&
            b == (want != 0 ? GL_TRUE : GL_FALSE);
  if (!ok)
    std::fprintf(stderr, "  %s%s: error 0x%04x, int %d, int64 %lld, float %g, double %g, bool %d; want %d\n",
                 es ? "ES " : "", p.name, err, i, static_cast<long long>(i64), f, d, b, want);
  return ok;
}

void PixelStoreQueries(bool es, bool caldera) {
  Clean();
  for (const PixelStoreName& p : kPixelStore) {
    if (es && !p.es) {
      // Not ES 3.0 state: neither settable nor queryable.
      glPixelStorei(p.pname, p.initial);
      GLenum set_error = glGetError();
      GLint v = -1;
      glGetIntegerv(p.pname, &v);
      GLenum get_error = glGetError();
      if (set_error != GL_INVALID_ENUM || get_error != GL_INVALID_ENUM)
        std::fprintf(stderr, "  ES %s: glPixelStorei error 0x%04x, glGetIntegerv error 0x%04x\n", p.name,
                     set_error, get_error);
      // Mesa's ES contexts take PACK_IMAGE_HEIGHT (set and get) and PACK_SKIP_IMAGES (set only), which
      // ES 3.0's pack table (§4.3.1) does not list: only Caldera's answer is checked for those two.
      bool mesa_extension = p.pname == GL_PACK_IMAGE_HEIGHT || p.pname == GL_PACK_SKIP_IMAGES;
      if (caldera || !mesa_extension) CHECK(set_error == GL_INVALID_ENUM && get_error == GL_INVALID_ENUM);
      continue;
    }
    CHECK(ReadsBack(p, p.initial, es));
    glPixelStorei(p.pname, p.set);
    CHECK_GL_ERROR(GL_NO_ERROR);
    CHECK(ReadsBack(p, p.set, es));
    if (!p.boolean && !es) {
      // glPixelStoref (desktop only) rounds to the nearest integer for integer parameters.
      glPixelStoref(p.pname, p.pname == GL_PACK_ALIGNMENT || p.pname == GL_UNPACK_ALIGNMENT ? 1.2f : 12.6f);
      CHECK_GL_ERROR(GL_NO_ERROR);
      CHECK(ReadsBack(p, p.pname == GL_PACK_ALIGNMENT || p.pname == GL_UNPACK_ALIGNMENT ? 1 : 13, es));
    }
    if (!p.boolean) {
      // Negative values are INVALID_VALUE and change nothing.
      glPixelStorei(p.pname, -1);
      CHECK_GL_ERROR(GL_INVALID_VALUE);
    }
    glPixelStorei(p.pname, p.initial);
    CHECK(ReadsBack(p, p.initial, es));
  }
}

// ES 3.0 §4.3.3: a blit whose source and destination buffers are the same image is INVALID_OPERATION.
void ESBlitSameBuffer() {
  Clean();
  const std::vector<uint8_t> pattern = Pattern(kSize, kSize);
  ColorFb c = MakeColorFb(&pattern);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, c.fb);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, c.fb);
  glBlitFramebuffer(0, 0, 8, 8, 16, 16, 24, 24, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(ReadFb(c.fb) == pattern);
  DeleteColorFb(c);
}

}  // namespace

// Storage larger than any device (16 TiB, and the largest size GL can name) is GL_OUT_OF_MEMORY at once, not
// a device call: NVIDIA's driver spends minutes on such an allocation. The buffer keeps its old storage and
// the context goes on working.
void ImpossibleBufferSizes() {
  Clean();
  GLuint program = harness::CompileProgram(kVS, kFS);
  glUseProgram(program);
  glViewport(0, 0, kSize, kSize);
  glDisable(GL_SCISSOR_TEST);
  GLuint vao = 0, buffer = 0;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  glBufferData(GL_ARRAY_BUFFER, sizeof(quad), quad, GL_STATIC_DRAW);
  for (GLsizeiptr size : {GLsizeiptr(1) << 44, GLsizeiptr(INT64_MAX)}) {
    auto start = std::chrono::steady_clock::now();
    glBufferData(GL_ARRAY_BUFFER, size, nullptr, GL_STATIC_DRAW);
    glFinish();
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    GLenum e = glGetError();
    if (e != GL_OUT_OF_MEMORY) std::printf("  glBufferData(%lld): error 0x%04x\n", (long long)size, e);
    CHECK(e == GL_OUT_OF_MEMORY);
    CHECK(seconds < 2.0);
  }
  glBufferData(GL_ARRAY_BUFFER, sizeof(quad), quad, GL_STATIC_DRAW);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  ClearRed();
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  unsigned char px[4] = {};
  glReadPixels(kSize / 2, kSize / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  CHECK(px[0] == 0 && px[1] == 255);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glBindVertexArray(0);
  glDeleteVertexArrays(1, &vao);
  glDeleteBuffers(1, &buffer);
  glDeleteProgram(program);
}

int main() {
  harness::Window w = harness::Open(kSize, kSize);
  const std::string renderer = harness::PrintVendor();
  const bool caldera = renderer.find("Caldera") != std::string::npos;
  PixelStoreQueries(false, caldera);
  Viewports(caldera);
  IndexOverruns(caldera);
  OverlappingBlits(caldera);
  ScissoredColorBlits(renderer.find("Caldera (Vulkan") != std::string::npos);
  ScissoredDepthStencilBlits();
  ScissoredResolves();
  ImpossibleBufferSizes();
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);
  harness::Window es = harness::Open(kSize, kSize, /*es=*/true);
  PixelStoreQueries(true, caldera);
  ESBlitSameBuffer();
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(es);
  return harness::Summary();
}
