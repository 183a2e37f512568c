// The staging arena (src/pipe/staging.h): large glTexSubImage2D and glBufferSubData payloads are copied at
// call time into the arena, and the device copies from there. The program reuses one client array for every
// upload and scribbles over it the moment each call returns, keeps many uploads in flight before drawing,
// then draws every texture and every buffer range (as a texture buffer) and compares each pixel with the
// bytes it uploaded. With a small arena (CALDERA_STAGING_ARENA_BYTES) more bytes are in flight than it holds,
// so the GL thread must wait for room: for the apply thread, for a submission it asks for, for the device.
//   --expect staged    the arena carried the payloads; device-read regions were freed only once retired
//   --expect pressure  the same, and the GL thread waited for room (on Vulkan: it asked for a submission);
//                      of the two uploads larger than the arena, the texture travelled in the chunk and the
//                      buffer's was staged in pieces
//   --expect off       nothing was staged (CALDERA_STAGING_ARENA=0)
// Without an argument only the pixels are checked (the validation runs).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gl_harness.h"

namespace {

constexpr int kSize = 256;  // one full upload: 256 KiB, above the staging threshold
constexpr size_t kScreenBytes = size_t(kSize) * kSize * 4;
constexpr int kTextures = 10;
constexpr int kScreens = 10;  // buffer ranges of one screen each

const char* kVs = R"(#version 330 core
void main() {
  vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;
  gl_Position = vec4(p, 0.0, 1.0);
})";
const char* kTextureFs = R"(#version 330 core
uniform sampler2D u_tex;
out vec4 frag;
void main() { frag = texelFetch(u_tex, ivec2(gl_FragCoord.xy), 0); })";
const char* kBufferFs = R"(#version 330 core
uniform samplerBuffer u_buf;
uniform int u_base;
out vec4 frag;
void main() { frag = texelFetch(u_buf, u_base + int(gl_FragCoord.y) * 256 + int(gl_FragCoord.x)); })";

uint8_t Pattern(int upload, size_t i) {
  return static_cast<uint8_t>((i * 131u) ^ (i >> 9) ^ (unsigned(upload) * 77u + 19u));
}

void Fill(std::vector<uint8_t>& bytes, size_t n, int upload) {
  for (size_t i = 0; i < n; ++i) bytes[i] = Pattern(upload, i);
}

void Scribble(std::vector<uint8_t>& bytes) {
  std::memset(bytes.data(), 0xA5, bytes.size());  // the application reuses its memory at once
}

void Draw() {
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

// Reads the target back and compares it with `want`; prints the first difference.
bool Matches(const std::vector<uint8_t>& want, const char* what, int index) {
  std::vector<uint8_t> got = harness::ReadRGBA(kSize, kSize);
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i] && bad++ == 0) first = i;
  if (bad)
    std::printf("  %s %d: %zu bytes differ, first at texel %zu (got %d, want %d)\n", what, index, bad,
                first / 4, got[first], want[first]);
  return bad == 0;
}

void Textures(GLuint program) {
  glUseProgram(program);
  glUniform1i(glGetUniformLocation(program, "u_tex"), 0);
  std::vector<GLuint> tex(kTextures);
  glGenTextures(kTextures, tex.data());
  for (GLuint t : tex) {
    glBindTexture(GL_TEXTURE_2D, t);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, kSize, kSize, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  }
  // A sub-rectangle of 80 KiB (still staged) over each full upload: the two land in order.
  constexpr int kSubX = 32, kSubY = 48, kSubW = 128, kSubH = 160;
  std::vector<uint8_t> client(kScreenBytes);
  std::vector<std::vector<uint8_t>> want(kTextures, std::vector<uint8_t>(kScreenBytes));
  for (int round = 0; round < 2; ++round) {
    for (int t = 0; t < kTextures; ++t) {
      int upload = round * 100 + t;
      glBindTexture(GL_TEXTURE_2D, tex[t]);
      Fill(client, kScreenBytes, upload);
      want[t] = client;
      glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, kSize, kSize, GL_RGBA, GL_UNSIGNED_BYTE, client.data());
      Scribble(client);
      Fill(client, size_t(kSubW) * kSubH * 4, upload + 1000);
      for (int y = 0; y < kSubH; ++y)
        std::memcpy(&want[t][(size_t(kSubY + y) * kSize + kSubX) * 4], &client[size_t(y) * kSubW * 4],
                    size_t(kSubW) * 4);
      glTexSubImage2D(GL_TEXTURE_2D, 0, kSubX, kSubY, kSubW, kSubH, GL_RGBA, GL_UNSIGNED_BYTE, client.data());
      Scribble(client);
    }
  }
  // A draw that samples texture 0, then an upload into it before the read: the draw sees the old texels.
  glBindTexture(GL_TEXTURE_2D, tex[0]);
  Draw();
  Fill(client, kScreenBytes, 999);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, kSize, kSize, GL_RGBA, GL_UNSIGNED_BYTE, client.data());
  Scribble(client);
  CHECK(Matches(want[0], "texture before its re-upload", 0));
  Fill(want[0], kScreenBytes, 999);
  for (int t = 0; t < kTextures; ++t) {
    glBindTexture(GL_TEXTURE_2D, tex[t]);
    Draw();
    CHECK(Matches(want[t], "texture", t));
  }
  glDeleteTextures(kTextures, tex.data());
  CHECK_GL_ERROR(GL_NO_ERROR);

  // 2 MiB in one call: larger than the small arena of the pressure runs, so it travels in the chunk there.
  constexpr int kBigW = 1024, kBigH = 512;
  GLuint big = 0;
  glGenTextures(1, &big);
  glBindTexture(GL_TEXTURE_2D, big);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  std::vector<uint8_t> large(size_t(kBigW) * kBigH * 4);
  Fill(large, large.size(), 77);
  std::vector<uint8_t> corner(kScreenBytes);
  for (int y = 0; y < kSize; ++y)
    std::memcpy(&corner[size_t(y) * kSize * 4], &large[size_t(y) * kBigW * 4], size_t(kSize) * 4);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, kBigW, kBigH, 0, GL_RGBA, GL_UNSIGNED_BYTE, large.data());
  Scribble(large);
  Draw();
  CHECK(Matches(corner, "large texture", 0));
  glDeleteTextures(1, &big);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void Buffers(GLuint program) {
  glUseProgram(program);
  glUniform1i(glGetUniformLocation(program, "u_buf"), 0);
  GLint base = glGetUniformLocation(program, "u_base");
  GLuint buffers[2] = {}, views[2] = {};
  glGenBuffers(2, buffers);
  glGenTextures(2, views);
  std::vector<uint8_t> client(kScreenBytes);
  std::vector<std::vector<uint8_t>> want(kScreens, std::vector<uint8_t>(kScreenBytes));
  // Buffer 0: kScreens screens, each written by glBufferSubData; screen 0 twice (the second wins).
  glBindBuffer(GL_TEXTURE_BUFFER, buffers[0]);
  glBufferData(GL_TEXTURE_BUFFER, GLsizeiptr(kScreens * kScreenBytes), nullptr, GL_DYNAMIC_DRAW);
  for (int s = 0; s < kScreens; ++s) {
    Fill(client, kScreenBytes, 500 + s);
    want[s] = client;
    glBufferSubData(GL_TEXTURE_BUFFER, GLintptr(s * kScreenBytes), GLsizeiptr(kScreenBytes), client.data());
    Scribble(client);
  }
  Fill(client, kScreenBytes, 600);
  want[0] = client;
  glBufferSubData(GL_TEXTURE_BUFFER, 0, GLsizeiptr(kScreenBytes), client.data());
  Scribble(client);
  // Screens 2..9 again in one 2 MiB call: larger than the small arena, so it is staged in pieces there.
  std::vector<uint8_t> span((kScreens - 2) * kScreenBytes);
  Fill(span, span.size(), 800);
  for (int s = 2; s < kScreens; ++s) std::memcpy(want[s].data(), &span[(s - 2) * kScreenBytes], kScreenBytes);
  glBufferSubData(GL_TEXTURE_BUFFER, GLintptr(2 * kScreenBytes), GLsizeiptr(span.size()), span.data());
  Scribble(span);
  // Buffer 1: one screen given by glBufferData with data.
  glBindBuffer(GL_TEXTURE_BUFFER, buffers[1]);
  Fill(client, kScreenBytes, 700);
  std::vector<uint8_t> want_data = client;
  glBufferData(GL_TEXTURE_BUFFER, GLsizeiptr(kScreenBytes), client.data(), GL_STATIC_DRAW);
  Scribble(client);
  // A texture buffer holds 65536 texels at least (one screen): each range is copied on the device into a
  // one-screen buffer that is drawn.
  GLuint screen = 0;
  glGenBuffers(1, &screen);
  glBindBuffer(GL_COPY_WRITE_BUFFER, screen);
  glBufferData(GL_COPY_WRITE_BUFFER, GLsizeiptr(kScreenBytes), nullptr, GL_DYNAMIC_COPY);
  glBindTexture(GL_TEXTURE_BUFFER, views[0]);
  glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA8, screen);
  glBindTexture(GL_TEXTURE_BUFFER, views[1]);
  glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA8, buffers[1]);
  glBindTexture(GL_TEXTURE_BUFFER, views[0]);
  glBindBuffer(GL_COPY_READ_BUFFER, buffers[0]);
  glUniform1i(base, 0);
  for (int s = 0; s < kScreens; ++s) {
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, GLintptr(s * kScreenBytes), 0,
                        GLsizeiptr(kScreenBytes));
    Draw();
    CHECK(Matches(want[s], "buffer screen", s));
  }
  glBindTexture(GL_TEXTURE_BUFFER, views[1]);
  glUniform1i(base, 0);
  Draw();
  CHECK(Matches(want_data, "glBufferData screen", 0));
  glDeleteTextures(2, views);
  glDeleteBuffers(2, buffers);
  glDeleteBuffers(1, &screen);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

}  // namespace

int main(int argc, char** argv) {
  std::string expect = argc > 2 && std::strcmp(argv[1], "--expect") == 0 ? argv[2] : "";
  harness::StatsFile stats;
  bool vulkan = false;
  {
    harness::Window w = harness::Open(kSize, kSize);
    vulkan = harness::PrintVendor().find("Vulkan") != std::string::npos;
    harness::ColorTarget(kSize, kSize);
    glViewport(0, 0, kSize, kSize);
    GLuint vao = 0;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    Textures(harness::CompileProgram(kVs, kTextureFs));
    Buffers(harness::CompileProgram(kVs, kBufferFs));
    harness::Close(w);
  }
  long staged = stats.Sum("staged_bytes");
  long at_applied = stats.Sum("staging_released_at_applied");
  long at_retired = stats.Sum("staging_released_at_retired");
  long guessed = stats.Sum("staging_device_released_at_applied");
  long fallbacks = stats.Sum("staging_chunk_fallbacks");
  long splits = stats.Sum("staging_split_uploads");
  long waits_apply = stats.Sum("staging_waits_apply"), waits_submit = stats.Sum("staging_waits_submit"),
       waits_retire = stats.Sum("staging_waits_retire");
  std::printf(
      "staged %ld bytes; released at applied %ld, at retired %ld, device-read at applied %ld; "
      "waits for room: apply %ld, submit %ld, retire %ld; chunk fallbacks %ld, split uploads %ld\n",
      staged, at_applied, at_retired, guessed, waits_apply, waits_submit, waits_retire, fallbacks, splits);
  if (expect == "off") CHECK(staged == 0);
  if (expect == "staged" || expect == "pressure") {
    CHECK(staged >= long(2 * kTextures * kScreenBytes));
    CHECK(guessed == 0);  // a region the device reads is never freed before its submission retired
    // The 2 MiB uploads, larger than the small arena: the texture travels in the chunk, the buffer in pieces.
    // (On the H200 one run in several also sent one more payload through the chunk, logged as "had no
    // submission after a flush": the chunk path is always correct, so that is counted, not failed.)
    if (expect == "pressure")
      CHECK(fallbacks >= 1 && fallbacks <= 2);
    else
      CHECK(fallbacks == 0);
    CHECK(splits == (expect == "pressure" ? 1 : 0));
    // Vulkan copies from the arena on the device; the GLES host consumes every payload at its call.
    if (vulkan) CHECK(at_retired > 0);
    if (!vulkan) CHECK(at_retired == 0 && at_applied > 0);
  }
  if (expect == "pressure") {
    CHECK(waits_apply + waits_submit + waits_retire > 0);
    // Vulkan: an applied region's copy sat in an open command buffer, so the GL thread asked for a
    // submission (waiting for the device after it depends on how fast the device was).
    if (vulkan) CHECK(waits_submit > 0);
  }
  return harness::Summary();
}
