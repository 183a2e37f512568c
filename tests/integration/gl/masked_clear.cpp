// glClear under partial colour and stencil masks (GL 3.3 §4.2.3: masked-off components and bits keep their
// values): normalised, float and integer attachments, two draw buffers, the scissor, the stencil, and a draw
// after the clears (the Vulkan backend draws these clears with its own pipeline, and the application's next
// draw must find its own state again), occlusion queries that must not count them; and glDrawBuffer(GL_NONE)
// on the default framebuffer, which masks every colour write (it once named the surface's own buffer
// instead). Usage:
//   masked_clear [--expect-drawn]
// --expect-drawn checks the probe: CALDERA_STATS' clears_drawn counts the drawn clears. The negative control
// runs it under CALDERA_VK_CLEAR_DRAWS=0 (clears ignore the masks) and must fail. Mesa runs it without a
// flag.
#include <cstdio>
#include <cstring>
#include <string>

#include "gl_harness.h"

namespace {

constexpr int kSize = 32;

const char* kVS = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }
)";
const char* kFS = R"(#version 330 core
out vec4 frag;
void main() { frag = vec4(0.25, 0.5, 0.75, 1.0); }
)";

bool Pixel(int x, int y, int r, int g, int b, int a) {
  uint8_t p[4] = {};
  glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, p);
  const bool ok = std::abs(p[0] - r) <= 1 && std::abs(p[1] - g) <= 1 && std::abs(p[2] - b) <= 1 &&
                  std::abs(p[3] - a) <= 1;
  if (!ok)
    std::fprintf(stderr, "(%d, %d) is %d %d %d %d, not %d %d %d %d\n", x, y, p[0], p[1], p[2], p[3], r, g, b,
                 a);
  return ok;
}

// A framebuffer with colour renderbuffers of the given formats (draw buffers for all) and a depth-stencil
// one; left bound.
GLuint Framebuffer(std::initializer_list<GLenum> formats, GLuint* renderbuffers) {
  GLuint fbo = 0;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  GLenum buffers[4];
  int i = 0;
  for (GLenum f : formats) {
    glGenRenderbuffers(1, &renderbuffers[i]);
    glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers[i]);
    glRenderbufferStorage(GL_RENDERBUFFER, f, kSize, kSize);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + GLenum(i), GL_RENDERBUFFER,
                              renderbuffers[i]);
    buffers[i] = GL_COLOR_ATTACHMENT0 + GLenum(i);
    ++i;
  }
  glGenRenderbuffers(1, &renderbuffers[i]);
  glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers[i]);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, kSize, kSize);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, renderbuffers[i]);
  glDrawBuffers(i, buffers);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  return fbo;
}

void NormalisedAndScissored() {
  GLuint rb[2];
  GLuint fbo = Framebuffer({GL_RGBA8}, rb);
  glClearColor(0, 0, 0, 0);
  glClear(GL_COLOR_BUFFER_BIT);
  glColorMask(GL_TRUE, GL_FALSE, GL_TRUE, GL_FALSE);
  glClearColor(1, 1, 1, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  CHECK(Pixel(5, 5, 255, 0, 255, 0));
  // Scissored: green to half on the left half only.
  glColorMask(GL_FALSE, GL_TRUE, GL_FALSE, GL_FALSE);
  glEnable(GL_SCISSOR_TEST);
  glScissor(0, 0, kSize / 2, kSize);
  glClearColor(0.5f, 0.5f, 0.5f, 0.5f);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  CHECK(Pixel(5, 5, 255, 128, 255, 0));
  CHECK(Pixel(kSize - 5, 5, 255, 0, 255, 0));
  // A draw after the masked clears sees its own program, vertex array and state again.
  GLuint program = harness::CompileProgram(kVS, kFS);
  glUseProgram(program);
  const float quad[] = {-1, -1, 0, -1, -1, 1, 0, -1, 0, 1, -1, 1};  // the left half
  GLuint buffer = harness::Positions2D(quad, 12);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  CHECK(Pixel(5, 5, 64, 128, 191, 255));
  CHECK(Pixel(kSize - 5, 5, 255, 0, 255, 0));
  glDeleteBuffers(1, &buffer);
  glDeleteProgram(program);
  glDeleteFramebuffers(1, &fbo);
  glDeleteRenderbuffers(2, rb);
}

void TwoBuffersFloatAndStencil() {
  GLuint rb[3];
  GLuint fbo = Framebuffer({GL_RGBA8, GL_RGBA16F}, rb);
  glClearColor(0, 0, 0, 0);
  glClearStencil(0);
  glClear(GL_COLOR_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  // The mask applies to both draw buffers; the stencil keeps the bits its mask leaves out.
  glColorMask(GL_FALSE, GL_FALSE, GL_TRUE, GL_TRUE);
  glStencilMask(0x0F);
  glClearColor(0.5f, 0.5f, 0.5f, 0.5f);
  glClearStencil(0xFF);
  glClear(GL_COLOR_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  glStencilMask(0xFF);
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  CHECK(Pixel(3, 3, 0, 0, 128, 128));
  glReadBuffer(GL_COLOR_ATTACHMENT1);
  float f[4] = {-1, -1, -1, -1};
  glReadPixels(3, 3, 1, 1, GL_RGBA, GL_FLOAT, f);
  CHECK(f[0] == 0 && f[1] == 0 && f[2] == 0.5f && f[3] == 0.5f);
  GLubyte stencil = 0;
  glReadPixels(3, 3, 1, 1, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, &stencil);
  if (stencil != 0x0F) std::fprintf(stderr, "stencil 0x%02x, not 0x0f\n", stencil);
  CHECK(stencil == 0x0F);
  glDeleteFramebuffers(1, &fbo);
  glDeleteRenderbuffers(3, rb);
}

void Integer() {
  GLuint rb[2];
  GLuint fbo = Framebuffer({GL_RGBA32I}, rb);
  const GLint first[] = {1, 2, 3, 4}, second[] = {9, 9, 9, 9};
  glClearBufferiv(GL_COLOR, 0, first);
  glColorMask(GL_FALSE, GL_TRUE, GL_FALSE, GL_TRUE);
  glClearBufferiv(GL_COLOR, 0, second);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  GLint v[4] = {};
  glReadPixels(7, 7, 1, 1, GL_RGBA_INTEGER, GL_INT, v);
  if (!(v[0] == 1 && v[1] == 9 && v[2] == 3 && v[3] == 9))
    std::fprintf(stderr, "integer texel %d %d %d %d, not 1 9 3 9\n", v[0], v[1], v[2], v[3]);
  CHECK(v[0] == 1 && v[1] == 9 && v[2] == 3 && v[3] == 9);
  glDeleteFramebuffers(1, &fbo);
  glDeleteRenderbuffers(2, rb);
}

// A drawn clear is still a clear: occlusion queries do not count its samples.
void ClearsPassNoSamples() {
  GLuint rb[2];
  GLuint fbo = Framebuffer({GL_RGBA8}, rb);
  GLuint query = 0;
  glGenQueries(1, &query);
  GLuint program = harness::CompileProgram(kVS, kFS);
  glUseProgram(program);
  const float quad[] = {-1, -1, 1, -1, -1, 1, 1, -1, 1, 1, -1, 1};
  GLuint buffer = harness::Positions2D(quad, 12);
  glBeginQuery(GL_SAMPLES_PASSED, query);
  // A draw whose every sample fails the depth test first: the query is counting when the clear comes.
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_NEVER);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glDisable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glColorMask(GL_TRUE, GL_FALSE, GL_FALSE, GL_FALSE);
  glClear(GL_COLOR_BUFFER_BIT);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  glEndQuery(GL_SAMPLES_PASSED);
  GLuint samples = 99;
  glGetQueryObjectuiv(query, GL_QUERY_RESULT, &samples);
  if (samples != 0) std::fprintf(stderr, "the masked clear passed %u samples\n", samples);
  CHECK(samples == 0);
  glDeleteQueries(1, &query);
  glDeleteBuffers(1, &buffer);
  glDeleteProgram(program);
  glDeleteFramebuffers(1, &fbo);
  glDeleteRenderbuffers(2, rb);
}

// The default framebuffer with glDrawBuffer(GL_NONE): clears and draws leave the colour buffer alone.
void DefaultDrawBufferNone() {
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glClearColor(0, 0, 1, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glDrawBuffer(GL_NONE);
  GLint buffer = -1;
  glGetIntegerv(GL_DRAW_BUFFER, &buffer);
  CHECK(buffer == GL_NONE);
  glClearColor(1, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glDrawBuffer(GL_BACK);
  CHECK(Pixel(4, 4, 0, 0, 255, 255));
}

}  // namespace

int main(int argc, char** argv) {
  const bool expect_drawn = argc > 1 && std::strcmp(argv[1], "--expect-drawn") == 0;
  harness::StatsFile stats;
  harness::Window w = harness::Open(kSize, kSize);
  harness::PrintVendor();
  glViewport(0, 0, kSize, kSize);
  NormalisedAndScissored();
  TwoBuffersFloatAndStencil();
  Integer();
  ClearsPassNoSamples();
  DefaultDrawBufferNone();
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);  // backend contexts write their counters when destroyed
  if (expect_drawn) {
    const long drawn = stats.Sum("clears_drawn");
    std::printf("masked clears drawn: %ld\n", drawn);
    CHECK(drawn >= 6);
  }
  return harness::Summary();
}
