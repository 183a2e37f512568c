// Pixel buffer objects (GL 3.3 §4.3.2, §3.7.2): glReadPixels into a GL_PIXEL_PACK_BUFFER and
// glTex(Sub)Image from a GL_PIXEL_UNPACK_BUFFER, with the pixel store state, the GL errors, and the bytes
// checked exactly (through glGetBufferSubData and glMapBufferRange). Runs against Caldera and Mesa
// llvmpipe (meson.build): a check that fails on Mesa is a wrong expectation.
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
  const char* vendor = reinterpret_cast<const char*>(glGetString(GL_VENDOR));
  const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  std::printf("GL_VENDOR %s, GL_RENDERER %s\n", vendor ? vendor : "(null)", renderer ? renderer : "(null)");
  Errors();
  PackLayoutExact(GL_RGBA, 4);  // a device copy on Caldera
  PackLayoutExact(GL_RGB, 3);   // converted on the CPU
  PackOutside();
  UnpackLayoutExact(GL_RGBA, 4);
  UnpackLayoutExact(GL_RGB, 3);
  RoundTrip();
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
