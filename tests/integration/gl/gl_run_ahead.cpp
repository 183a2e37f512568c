// The rules run-ahead (CALDERA_PIPE=inproc) must keep, checked in whichever mode the environment picks:
//   - polling idioms end: `while (glClientWaitSync(s, GL_SYNC_FLUSH_COMMANDS_BIT, 0) == GL_TIMEOUT_EXPIRED)`,
//     `while (glGetSynciv(GL_SYNC_STATUS) != GL_SIGNALED)` after a glFlush and
//     `while (!available) glGetQueryObjectuiv(q, GL_QUERY_RESULT_AVAILABLE, &available)` — each under a
//     watchdog, so a poll that never ends fails the test instead of hanging CI;
//   - bytes are copied at call time: client memory overwritten the moment glBufferSubData, glTexSubImage2D,
//     glUniform4fv and glBufferData return does not change what is drawn;
//   - synchronous reads wait for the work recorded before them: glGetBufferSubData and glMapBufferRange of a
//     buffer the device wrote (glReadPixels into a pack buffer), glGetTexImage of a rendered texture,
//     glGetQueryObjectuiv(GL_QUERY_RESULT) with no poll first, conditional rendering with GL_QUERY_WAIT,
//     glClientWaitSync with a timeout; conditional rendering with GL_QUERY_NO_WAIT returns;
//   - with --expect-inproc, the context's pipe ran inproc: CALDERA_STATS names the mode and counts the
//     chunks its apply thread applied (the negative control runs it with CALDERA_PIPE=inline).
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "gl_harness.h"

namespace {

constexpr int kSize = 16;

const char* kVs = R"(#version 330 core
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); })";
const char* kFs = R"(#version 330 core
uniform vec4 u_color;
uniform sampler2D u_tex;
uniform float u_use_tex;
out vec4 frag;
void main() { frag = mix(u_color, texture(u_tex, vec2(0.5)), u_use_tex); })";

// Exits the process (status 3, "HANG in ...") when a polling loop has not ended within the limit.
class Watchdog {
 public:
  explicit Watchdog(const char* what, int seconds = 10) : what_(what) {
    thread_ = std::thread([this, seconds] {
      for (int i = 0; i < seconds * 100 && !done_.load(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      if (!done_.load()) {
        std::fprintf(stderr, "HANG in %s: the polling loop never ended\n", what_);
        std::fflush(stderr);
        std::_Exit(3);
      }
    });
  }
  ~Watchdog() {
    done_.store(true);
    thread_.join();
  }

 private:
  const char* what_;
  std::atomic<bool> done_{false};
  std::thread thread_;
};

void DrawQuad() {
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

bool CentreIs(uint8_t r, uint8_t g, uint8_t b) {
  uint8_t px[4] = {};
  glReadPixels(kSize / 2, kSize / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  bool ok = px[0] == r && px[1] == g && px[2] == b;
  if (!ok) std::printf("  centre is %d,%d,%d, want %d,%d,%d\n", px[0], px[1], px[2], r, g, b);
  return ok;
}

void PollingLoopsEnd() {
  glClear(GL_COLOR_BUFFER_BIT);
  DrawQuad();
  {
    Watchdog w("glClientWaitSync(GL_SYNC_FLUSH_COMMANDS_BIT, 0)");
    GLsync s = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    long polls = 0;
    while (glClientWaitSync(s, GL_SYNC_FLUSH_COMMANDS_BIT, 0) == GL_TIMEOUT_EXPIRED) ++polls;
    glDeleteSync(s);
    CHECK_GL_ERROR(GL_NO_ERROR);
  }
  DrawQuad();
  {
    Watchdog w("glGetSynciv(GL_SYNC_STATUS) after glFlush");
    GLsync s = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    glFlush();
    GLint status = GL_UNSIGNALED;
    while (status != GL_SIGNALED) glGetSynciv(s, GL_SYNC_STATUS, 1, nullptr, &status);
    glDeleteSync(s);
    CHECK_GL_ERROR(GL_NO_ERROR);
  }
  {
    Watchdog w("glGetQueryObjectuiv(GL_QUERY_RESULT_AVAILABLE)");
    GLuint q = 0;
    glGenQueries(1, &q);
    glBeginQuery(GL_SAMPLES_PASSED, q);
    DrawQuad();
    glEndQuery(GL_SAMPLES_PASSED);
    GLuint available = 0;
    while (!available) glGetQueryObjectuiv(q, GL_QUERY_RESULT_AVAILABLE, &available);
    GLuint samples = 0;
    glGetQueryObjectuiv(q, GL_QUERY_RESULT, &samples);
    CHECK(samples == kSize * kSize);
    glDeleteQueries(1, &q);
    CHECK_GL_ERROR(GL_NO_ERROR);
  }
}

void CopiedAtCallTime(GLuint program, GLuint positions) {
  GLint color = glGetUniformLocation(program, "u_color");
  GLint use_tex = glGetUniformLocation(program, "u_use_tex");
  // glBufferSubData: the quad, then the client array is made degenerate before the draw is applied.
  std::vector<float> quad = {-1, -1, 1, -1, -1, 1, 1, 1};
  glBindBuffer(GL_ARRAY_BUFFER, positions);
  glBufferSubData(GL_ARRAY_BUFFER, 0, quad.size() * sizeof(float), quad.data());
  std::fill(quad.begin(), quad.end(), 0.0f);
  glUniform1f(use_tex, 0.0f);
  // glUniform4fv: green, then the array says red.
  float green[4] = {0, 1, 0, 1};
  glUniform4fv(color, 1, green);
  green[0] = 1;
  green[1] = 0;
  glClear(GL_COLOR_BUFFER_BIT);
  DrawQuad();
  CHECK(CentreIs(0, 255, 0));

  // glBufferData with data: the same.
  std::vector<float> again = {-1, -1, 1, -1, -1, 1, 1, 1};
  glBufferData(GL_ARRAY_BUFFER, again.size() * sizeof(float), again.data(), GL_DYNAMIC_DRAW);
  std::fill(again.begin(), again.end(), 0.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  DrawQuad();
  CHECK(CentreIs(0, 255, 0));

  // glTexSubImage2D: blue texels, then the client memory says white.
  GLuint tex = 0;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  std::vector<uint8_t> texels(4 * 4 * 4);
  for (size_t i = 0; i < texels.size(); i += 4) texels[i + 2] = texels[i + 3] = 255;
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
  std::fill(texels.begin(), texels.end(), 255);
  glUniform1f(use_tex, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  DrawQuad();
  CHECK(CentreIs(0, 0, 255));
  glDeleteTextures(1, &tex);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// Each read follows device-side work recorded just before it and must see that work's result.
void SynchronousReadsWait(GLint color, GLint use_tex) {
  glUniform1f(use_tex, 0.0f);
  const float green[4] = {0, 1, 0, 1}, blue[4] = {0, 0, 1, 1};
  // glReadPixels into a pack buffer is a device write; glGetBufferSubData and a read mapping wait for it.
  GLuint pack = 0;
  glGenBuffers(1, &pack);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, pack);
  glBufferData(GL_PIXEL_PACK_BUFFER, kSize * kSize * 4, nullptr, GL_STREAM_READ);
  glUniform4fv(color, 1, green);
  glClear(GL_COLOR_BUFFER_BIT);
  DrawQuad();
  glReadPixels(0, 0, kSize, kSize, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  std::vector<uint8_t> bytes(kSize * kSize * 4, 7);
  glGetBufferSubData(GL_PIXEL_PACK_BUFFER, 0, GLsizeiptr(bytes.size()), bytes.data());
  CHECK(bytes[0] == 0 && bytes[1] == 255 && bytes[2] == 0 && bytes[bytes.size() - 3] == 255);
  glUniform4fv(color, 1, blue);
  DrawQuad();
  glReadPixels(0, 0, kSize, kSize, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  auto* mapped = static_cast<const uint8_t*>(
      glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, kSize * kSize * 4, GL_MAP_READ_BIT));
  CHECK(mapped && mapped[1] == 0 && mapped[2] == 255);
  glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glDeleteBuffers(1, &pack);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // glGetTexImage of a texture just rendered into.
  GLuint tex = 0, fbo = 0;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, kSize, kSize, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
  glUniform4fv(color, 1, green);
  DrawQuad();
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  std::fill(bytes.begin(), bytes.end(), 7);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, bytes.data());
  CHECK(bytes[0] == 0 && bytes[1] == 255 && bytes[2] == 0 && bytes[3] == 255);
  glDeleteFramebuffers(1, &fbo);
  glDeleteTextures(1, &tex);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // GL_QUERY_RESULT with no availability poll first, and conditional rendering that waits on it.
  GLuint passed = 0, none = 0;
  glGenQueries(1, &passed);
  glGenQueries(1, &none);
  glBeginQuery(GL_SAMPLES_PASSED, passed);
  DrawQuad();
  glEndQuery(GL_SAMPLES_PASSED);
  GLuint samples = 0;
  glGetQueryObjectuiv(passed, GL_QUERY_RESULT, &samples);
  CHECK(samples == kSize * kSize);
  glEnable(GL_SCISSOR_TEST);
  glScissor(0, 0, 0, 0);
  glBeginQuery(GL_SAMPLES_PASSED, none);
  DrawQuad();
  glEndQuery(GL_SAMPLES_PASSED);
  glDisable(GL_SCISSOR_TEST);
  glClear(GL_COLOR_BUFFER_BIT);
  glUniform4fv(color, 1, blue);
  glBeginConditionalRender(none, GL_QUERY_WAIT);
  DrawQuad();
  glEndConditionalRender();
  CHECK(CentreIs(255, 0, 0));
  glBeginConditionalRender(passed, GL_QUERY_WAIT);
  DrawQuad();
  glEndConditionalRender();
  CHECK(CentreIs(0, 0, 255));
  {
    Watchdog w("glBeginConditionalRender(GL_QUERY_NO_WAIT)");
    glBeginConditionalRender(none, GL_QUERY_NO_WAIT);
    DrawQuad();
    glEndConditionalRender();
    glFinish();
  }
  glDeleteQueries(1, &passed);
  glDeleteQueries(1, &none);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // glClientWaitSync with a timeout: the fence signals within it.
  DrawQuad();
  GLsync s = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  GLenum r = glClientWaitSync(s, GL_SYNC_FLUSH_COMMANDS_BIT, 5'000'000'000ull);
  CHECK(r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED);
  glDeleteSync(s);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

}  // namespace

int main(int argc, char** argv) {
  const bool expect_inproc = argc > 1 && std::strcmp(argv[1], "--expect-inproc") == 0;
  harness::StatsFile stats;
  {
    harness::Window w = harness::Open(kSize, kSize);
    harness::PrintVendor();
    GLuint program = harness::CompileProgram(kVs, kFs);
    glUseProgram(program);
    glUniform1i(glGetUniformLocation(program, "u_tex"), 0);
    GLuint vao = 0, positions = 0;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &positions);
    glBindBuffer(GL_ARRAY_BUFFER, positions);
    const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
    glBufferData(GL_ARRAY_BUFFER, sizeof(quad), quad, GL_DYNAMIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    glEnableVertexAttribArray(0);
    glViewport(0, 0, kSize, kSize);
    glClearColor(1, 0, 0, 1);
    PollingLoopsEnd();
    CopiedAtCallTime(program, positions);
    SynchronousReadsWait(glGetUniformLocation(program, "u_color"), glGetUniformLocation(program, "u_use_tex"));
    harness::Close(w);
  }
  if (expect_inproc) {
    // Each context appends {"pipe": "inproc"|"inline", "chunks_published": N, ...} when destroyed.
    long published = stats.Sum("chunks_published");
    std::printf("inproc chunks published: %ld\n", published);
    CHECK(published > 0);
  }
  return harness::Summary();
}
