// Pixel transfers. Pixel buffer objects (GL 3.3 §4.3.2, §3.7.2): glReadPixels into a GL_PIXEL_PACK_BUFFER and
// glTex(Sub)Image from a GL_PIXEL_UNPACK_BUFFER, with the pixel store state, the GL errors, and the bytes
// checked exactly (through glGetBufferSubData and glMapBufferRange). Runs against Caldera and Mesa
// llvmpipe (meson.build): a check that fails on Mesa is a wrong expectation. Also glReadPixels of depth and
// stencil (GL_DEPTH_COMPONENT, GL_STENCIL_INDEX, GL_DEPTH_STENCIL) in every type.
// Usage: gl_pixel_buffers [--expect-device-copies|--expect-no-device-copies] (Caldera only: reads the
// CALDERA_STATS probe to show the device-copy path engaged, or that its kill switch turned it off).
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "gl_harness.h"

namespace {

constexpr int kSize = 16;
constexpr uint8_t kFill = 0xAB;
GLuint packed_sink[2];  // destination of reads that must fail

void Clean() {
  while (glGetError() != GL_NO_ERROR) {
  }
}

// Four quadrants of distinct colours in the current framebuffer.
const uint8_t kQuadrant[4][4] = {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 0, 255}};
void DrawQuadrants() {
  glEnable(GL_SCISSOR_TEST);
  for (int q = 0; q < 4; ++q) {
    glScissor((q % 2) * kSize / 2, (q / 2) * kSize / 2, kSize / 2, kSize / 2);
    glClearColor(kQuadrant[q][0] / 255.0f, kQuadrant[q][1] / 255.0f, kQuadrant[q][2] / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
  }
  glDisable(GL_SCISSOR_TEST);
}
const uint8_t* Expected(int x, int y) {
  return kQuadrant[(y >= kSize / 2 ? 2 : 0) + (x >= kSize / 2 ? 1 : 0)];
}

GLuint NewBuffer(GLenum target, size_t size, uint8_t fill) {
  GLuint b;
  glGenBuffers(1, &b);
  glBindBuffer(target, b);
  std::vector<uint8_t> bytes(size, fill);
  glBufferData(target, GLsizeiptr(size), bytes.data(), GL_STREAM_READ);
  return b;
}

void ResetPixelStore() {
  for (GLenum p : {GL_PACK_ROW_LENGTH, GL_PACK_SKIP_PIXELS, GL_PACK_SKIP_ROWS, GL_UNPACK_ROW_LENGTH,
                   GL_UNPACK_SKIP_PIXELS, GL_UNPACK_SKIP_ROWS})
    glPixelStorei(p, 0);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
}

void Errors() {
  Clean();
  GLuint pack = NewBuffer(GL_PIXEL_PACK_BUFFER, 64, 0);
  uint8_t* none = nullptr;
  // 4x4 RGBA8 needs 64 bytes: offset 4 reaches past the end.
  glReadPixels(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, none + 4);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glReadPixels(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, none);
  CHECK_GL_ERROR(GL_NO_ERROR);
  // Skips count too.
  glPixelStorei(GL_PACK_SKIP_ROWS, 1);
  glReadPixels(0, 0, 4, 3, GL_RGBA, GL_UNSIGNED_BYTE, none);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glReadPixels(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, none);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  ResetPixelStore();
  // An offset that is not a multiple of the type's size.
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_FLOAT, none + 2);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  // A mapped pack buffer.
  glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, 64, GL_MAP_READ_BIT);
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, none);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);

  GLuint unpack = NewBuffer(GL_PIXEL_UNPACK_BUFFER, 64, 0);
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, none + 1);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, none);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, none + 4);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA, GL_FLOAT, none + 1);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glMapBufferRange(GL_PIXEL_UNPACK_BUFFER, 0, 64, GL_MAP_WRITE_BIT);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, none);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glUnmapBuffer(GL_PIXEL_UNPACK_BUFFER);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  glDeleteTextures(1, &tex);
  GLuint buffers[2] = {pack, unpack};
  glDeleteBuffers(2, buffers);
}

// Reads a 5x3 block at (6,6) (crossing all quadrants) into a pack buffer under row length 9, skip 2 pixels
// and 1 row, at byte offset 16: every byte outside the block keeps its fill value.
void PackLayoutExact(GLenum format, int bpp) {
  Clean();
  DrawQuadrants();
  const int row_length = 9, skip_pixels = 2, skip_rows = 1, offset = 16, w = 5, h = 3;
  const size_t size = offset + size_t(row_length) * bpp * (skip_rows + h) + 32;
  GLuint pack = NewBuffer(GL_PIXEL_PACK_BUFFER, size, kFill);
  glPixelStorei(GL_PACK_ROW_LENGTH, row_length);
  glPixelStorei(GL_PACK_SKIP_PIXELS, skip_pixels);
  glPixelStorei(GL_PACK_SKIP_ROWS, skip_rows);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(6, 6, w, h, format, GL_UNSIGNED_BYTE, reinterpret_cast<void*>(offset));
  CHECK_GL_ERROR(GL_NO_ERROR);
  ResetPixelStore();
  std::vector<uint8_t> got(size);
  glGetBufferSubData(GL_PIXEL_PACK_BUFFER, 0, GLsizeiptr(size), got.data());
  int bad = 0;
  for (size_t i = 0; i < size; ++i) {
    uint8_t want = kFill;
    if (i >= size_t(offset)) {
      size_t rel = i - offset, row = rel / (row_length * bpp), col = rel % (row_length * bpp) / bpp;
      size_t c = rel % bpp;
      if (row >= size_t(skip_rows) && row < size_t(skip_rows + h) && col >= size_t(skip_pixels) &&
          col < size_t(skip_pixels + w))
        want = Expected(6 + int(col) - skip_pixels, 6 + int(row) - skip_rows)[c];
    }
    if (got[i] != want && bad++ < 4) std::fprintf(stderr, "  byte %zu = %d want %d\n", i, got[i], want);
  }
  CHECK(bad == 0);
  // The same bytes through a read mapping.
  auto* mapped = static_cast<const uint8_t*>(
      glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, GLsizeiptr(size), GL_MAP_READ_BIT));
  CHECK(mapped && std::memcmp(mapped, got.data(), size) == 0);
  glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glDeleteBuffers(1, &pack);
}

// A read partly outside the framebuffer writes only the pixels inside it.
void PackOutside() {
  Clean();
  DrawQuadrants();
  GLuint pack = NewBuffer(GL_PIXEL_PACK_BUFFER, 4 * 4 * 2, kFill);
  glReadPixels(kSize - 2, 0, 4, 2, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK_GL_ERROR(GL_NO_ERROR);
  auto* p = static_cast<const uint8_t*>(glMapBuffer(GL_PIXEL_PACK_BUFFER, GL_READ_ONLY));
  CHECK(p != nullptr);
  if (p) {
    CHECK(std::memcmp(p, Expected(kSize - 1, 0), 4) == 0);
    CHECK(p[2 * 4] == kFill && p[3 * 4 + 3] == kFill);  // x = kSize, kSize + 1: outside
    CHECK(std::memcmp(p + 16 + 4, Expected(kSize - 1, 1), 4) == 0);
  }
  glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glDeleteBuffers(1, &pack);
}

// Reads the 2D texture `tex` back through a framebuffer.
std::vector<uint8_t> ReadTexture(GLuint tex, int w, int h) {
  GLuint fbo;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
  std::vector<uint8_t> px(size_t(w) * h * 4);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  return px;
}

// Texels from an unpack buffer under row length, skips and alignment; RGBA (a device copy on Caldera) and
// RGB (converted) sources.
void UnpackLayoutExact(GLenum format, int bpp) {
  Clean();
  const int w = 3, h = 2, row_length = 5, skip_pixels = 1, skip_rows = 1, offset = 8, align = 8;
  int stride = (row_length * bpp + align - 1) / align * align;
  std::vector<uint8_t> bytes(size_t(offset) + size_t(stride) * (skip_rows + h), kFill);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < bpp; ++c)
        bytes[offset + size_t(y + skip_rows) * stride + size_t(x + skip_pixels) * bpp + c] =
            uint8_t(10 * (y * w + x) + c + 1);
  GLuint unpack;
  glGenBuffers(1, &unpack);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, unpack);
  glBufferData(GL_PIXEL_UNPACK_BUFFER, GLsizeiptr(bytes.size()), bytes.data(), GL_STATIC_DRAW);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, row_length);
  glPixelStorei(GL_UNPACK_SKIP_PIXELS, skip_pixels);
  glPixelStorei(GL_UNPACK_SKIP_ROWS, skip_rows);
  glPixelStorei(GL_UNPACK_ALIGNMENT, align);
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, format, GL_UNSIGNED_BYTE,
               reinterpret_cast<void*>(offset));
  CHECK_GL_ERROR(GL_NO_ERROR);
  ResetPixelStore();
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  std::vector<uint8_t> px = ReadTexture(tex, w, h);
  int bad = 0;
  for (int i = 0; i < w * h; ++i)
    for (int c = 0; c < 4; ++c) {
      uint8_t want = c < bpp ? uint8_t(10 * i + c + 1) : 255;
      if (px[size_t(i) * 4 + c] != want && bad++ < 4)
        std::fprintf(stderr, "  texel %d.%d = %d want %d\n", i, c, px[size_t(i) * 4 + c], want);
    }
  CHECK(bad == 0);
  glDeleteTextures(1, &tex);
  glDeleteBuffers(1, &unpack);
}

// Framebuffer -> pack buffer -> the same buffer as unpack source -> texture: device to device on Caldera.
// Then a draw-free read of the texture matches the framebuffer.
void RoundTrip() {
  Clean();
  DrawQuadrants();
  GLuint buffer = NewBuffer(GL_PIXEL_PACK_BUFFER, kSize * kSize * 4, 0);
  glReadPixels(0, 0, kSize, kSize, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buffer);
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, kSize, kSize, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  std::vector<uint8_t> px = ReadTexture(tex, kSize, kSize);
  int bad = 0;
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x)
      bad += std::memcmp(&px[(size_t(y) * kSize + x) * 4], Expected(x, y), 4) != 0;
  CHECK(bad == 0);
  glDeleteTextures(1, &tex);
  glDeleteBuffers(1, &buffer);
}

// GL_DEPTH_COMPONENT, GL_STENCIL_INDEX and GL_DEPTH_STENCIL reads of depth-stencil attachments (the
// depth/stencil half of issue 3): cleared regions, a drawn region, every type, a pack buffer, errors.
bool Near(double got, double want, double tolerance, const char* what) {
  bool ok = got >= want - tolerance && got <= want + tolerance;
  if (!ok) std::fprintf(stderr, "  %s = %.9g want %.9g\n", what, got, want);
  return ok;
}

void DepthStencilReadback(GLenum depth_format) {
  Clean();
  GLuint fbo, color, ds;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glGenRenderbuffers(1, &color);
  glBindRenderbuffer(GL_RENDERBUFFER, color);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, kSize, kSize);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
  glGenRenderbuffers(1, &ds);
  glBindRenderbuffer(GL_RENDERBUFFER, ds);
  glRenderbufferStorage(GL_RENDERBUFFER, depth_format, kSize, kSize);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, ds);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glViewport(0, 0, kSize, kSize);
  // Depth 0.25 / stencil 0x5A everywhere, then depth 0.75 on the left half and stencil 0x33 on the top half.
  glClearDepth(0.25);
  glClearStencil(0x5A);
  glClear(GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  glEnable(GL_SCISSOR_TEST);
  glScissor(0, 0, kSize / 2, kSize);
  glClearDepth(0.75);
  glClear(GL_DEPTH_BUFFER_BIT);
  glScissor(0, kSize / 2, kSize, kSize / 2);
  glClearStencil(0x33);
  glClear(GL_STENCIL_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  // A draw writes depth 0.5 (z = 0) and stencil 0x77 in the bottom-right quadrant.
  GLuint program = harness::CompileProgram(R"(#version 330 core
layout(location = 0) in vec2 a_pos;
void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }
)",
                                           R"(#version 330 core
out vec4 frag;
void main() { frag = vec4(1.0); }
)");
  glUseProgram(program);
  GLuint vao, vbo;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glGenBuffers(1, &vbo);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  const float quad[12] = {0, -1, 1, -1, 1, 0, 0, -1, 1, 0, 0, 0};
  glBufferData(GL_ARRAY_BUFFER, sizeof(quad), quad, GL_STATIC_DRAW);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_ALWAYS);
  glEnable(GL_STENCIL_TEST);
  glStencilFunc(GL_ALWAYS, 0x77, 0xFF);
  glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_STENCIL_TEST);
  glDepthFunc(GL_LESS);
  CHECK_GL_ERROR(GL_NO_ERROR);

  auto want_depth = [](int x, int y) { return x < kSize / 2 ? 0.75 : y < kSize / 2 ? 0.5 : 0.25; };
  auto want_stencil = [](int x, int y) {
    return x >= kSize / 2 && y < kSize / 2 ? 0x77 : y >= kSize / 2 ? 0x33 : 0x5A;
  };
  const double d24 = 1.0 / 16777215.0;
  std::vector<float> f(kSize * kSize);
  glReadPixels(0, 0, kSize, kSize, GL_DEPTH_COMPONENT, GL_FLOAT, f.data());
  CHECK_GL_ERROR(GL_NO_ERROR);
  int bad = 0;
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x) bad += !Near(f[y * kSize + x], want_depth(x, y), d24, "depth");
  CHECK(bad == 0);
  std::vector<uint8_t> st(kSize * kSize);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, kSize, kSize, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, st.data());
  CHECK_GL_ERROR(GL_NO_ERROR);
  bad = 0;
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x) bad += st[y * kSize + x] != want_stencil(x, y);
  CHECK(bad == 0);
  // Other types, one pixel of each region.
  const int px[3][2] = {{2, 2}, {12, 2}, {12, 12}};
  for (auto& p : px) {
    double d = want_depth(p[0], p[1]);
    GLushort us = 0;
    glReadPixels(p[0], p[1], 1, 1, GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT, &us);
    CHECK(Near(us, d * 65535.0, 1.0, "depth ushort"));
    GLuint ui = 0;
    glReadPixels(p[0], p[1], 1, 1, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, &ui);
    CHECK(Near(ui, d * 4294967295.0, 4294967295.0 * d24 * 2, "depth uint"));
    GLuint packed = 0;
    glReadPixels(p[0], p[1], 1, 1, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, &packed);
    CHECK((packed & 0xFF) == GLuint(want_stencil(p[0], p[1])));
    CHECK(Near(packed >> 8, d * 16777215.0, 1.0, "depth 24_8"));
    struct {
      float depth;
      GLuint stencil;
    } fs{};
    glReadPixels(p[0], p[1], 1, 1, GL_DEPTH_STENCIL, GL_FLOAT_32_UNSIGNED_INT_24_8_REV, &fs);
    CHECK(Near(fs.depth, d, d24, "depth float_32"));
    CHECK((fs.stencil & 0xFF) == GLuint(want_stencil(p[0], p[1])));
    GLuint s32 = 0;
    glReadPixels(p[0], p[1], 1, 1, GL_STENCIL_INDEX, GL_UNSIGNED_INT, &s32);
    CHECK(s32 == GLuint(want_stencil(p[0], p[1])));
  }
  CHECK_GL_ERROR(GL_NO_ERROR);
  // Into a pack buffer, then through a mapping.
  GLuint pack = NewBuffer(GL_PIXEL_PACK_BUFFER, kSize * 4, kFill);
  glReadPixels(0, 3, kSize, 1, GL_DEPTH_COMPONENT, GL_FLOAT, nullptr);
  if (auto* m =
          static_cast<const float*>(glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, kSize * 4, GL_MAP_READ_BIT))) {
    CHECK(Near(m[1], 0.75, d24, "pbo depth left") && Near(m[kSize - 1], 0.5, d24, "pbo depth right"));
    glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
  } else {
    CHECK(false);
  }
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glDeleteBuffers(1, &pack);
  ResetPixelStore();

  // Errors: packed types with other formats and the reverse; no depth or stencil buffer to read.
  glReadPixels(0, 0, 1, 1, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT_24_8, &packed_sink);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glReadPixels(0, 0, 1, 1, GL_DEPTH_STENCIL, GL_FLOAT, &packed_sink);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, 0);
  glReadPixels(0, 0, 1, 1, GL_DEPTH_COMPONENT, GL_FLOAT, &packed_sink);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glReadPixels(0, 0, 1, 1, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, &packed_sink);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);

  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  GLuint rbs[2] = {color, ds};
  glDeleteRenderbuffers(2, rbs);
  glDeleteBuffers(1, &vbo);
  glDeleteVertexArrays(1, &vao);
  glDeleteProgram(program);
}

}  // namespace

int main(int argc, char** argv) {
  std::string expect = argc > 1 ? argv[1] : "";
  char stats_path[] = "/tmp/caldera-stats-XXXXXX";
  if (!expect.empty()) {
    int fd = mkstemp(stats_path);
    if (fd >= 0) close(fd);
    setenv("CALDERA_STATS", stats_path, 1);
  }
  harness::Window w = harness::Open(kSize, kSize);
  harness::PrintVendor();
  Errors();
  PackLayoutExact(GL_RGBA, 4);  // a device copy on Caldera
  PackLayoutExact(GL_RGB, 3);   // converted on the CPU
  PackOutside();
  UnpackLayoutExact(GL_RGBA, 4);
  UnpackLayoutExact(GL_RGB, 3);
  RoundTrip();
  DepthStencilReadback(GL_DEPTH24_STENCIL8);
  DepthStencilReadback(GL_DEPTH32F_STENCIL8);
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);
  if (!expect.empty()) {
    long copies = harness::StatSum(stats_path, "pbo_copies");
    std::printf("pixel buffer device copies %ld\n", copies);
    if (expect == "--expect-device-copies") CHECK(copies > 0);
    if (expect == "--expect-no-device-copies") CHECK(copies == 0);
    unlink(stats_path);
  }
  return harness::Summary();
}
