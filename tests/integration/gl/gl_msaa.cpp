// Multisampling GL rules (GL 3.3 core): sample-count limits and rounding, framebuffer completeness with
// mixed counts, GL_SAMPLES / GL_SAMPLE_BUFFERS of the bound framebuffer, the glBlitFramebuffer resolve rules
// and glReadPixels from a multisampled framebuffer, plus one resolved pixel read back. Runs against Caldera
// and Mesa llvmpipe (meson.build): a check that fails on Mesa is a wrong expectation.
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "gl_harness.h"

namespace {

void Clean() {
  while (glGetError() != GL_NO_ERROR) {
  }
}

GLuint Renderbuffer(GLsizei samples, GLenum format, GLsizei w, GLsizei h) {
  GLuint rb;
  glGenRenderbuffers(1, &rb);
  glBindRenderbuffer(GL_RENDERBUFFER, rb);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, format, w, h);
  return rb;
}

GLuint Framebuffer(GLenum target, GLuint color, GLuint depth) {
  GLuint fb;
  glGenFramebuffers(1, &fb);
  glBindFramebuffer(target, fb);
  if (color) glFramebufferRenderbuffer(target, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
  if (depth) glFramebufferRenderbuffer(target, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, depth);
  return fb;
}

void Limits() {
  Clean();
  GLint max_samples = 0, v = 0;
  glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
  CHECK(max_samples >= 4);  // GL 3.3 requires 4
  for (GLenum pname : {GL_MAX_COLOR_TEXTURE_SAMPLES, GL_MAX_DEPTH_TEXTURE_SAMPLES, GL_MAX_INTEGER_SAMPLES}) {
    v = 0;
    glGetIntegerv(pname, &v);
    CHECK(v >= 1);
  }
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLuint rb = Renderbuffer(4, GL_RGBA8, 8, 8);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_SAMPLES, &v);
  CHECK(v >= 4);
  // Requests round up to a supported count, never down.
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, 3, GL_RGBA8, 8, 8);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_SAMPLES, &v);
  CHECK(v >= 3);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, max_samples + 1, GL_RGBA8, 8, 8);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);  // Mesa (ARB_internalformat_query) and GL 4.2+ say so
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, -1, GL_RGBA8, 8, 8);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glDeleteRenderbuffers(1, &rb);
}

void Completeness() {
  Clean();
  GLuint ms_color = Renderbuffer(4, GL_RGBA8, 8, 8);
  GLuint ms_depth = Renderbuffer(4, GL_DEPTH24_STENCIL8, 8, 8);
  GLuint ss_depth = Renderbuffer(0, GL_DEPTH24_STENCIL8, 8, 8);
  GLuint fb = Framebuffer(GL_FRAMEBUFFER, ms_color, ms_depth);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  GLint samples = 0, buffers = 0;
  glGetIntegerv(GL_SAMPLES, &samples);
  glGetIntegerv(GL_SAMPLE_BUFFERS, &buffers);
  CHECK(samples >= 4);
  CHECK(buffers == 1);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, ss_depth);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE);
  glClear(GL_COLOR_BUFFER_BIT);
  CHECK_GL_ERROR(GL_INVALID_FRAMEBUFFER_OPERATION);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glGetIntegerv(GL_SAMPLES, &samples);
  glGetIntegerv(GL_SAMPLE_BUFFERS, &buffers);
  CHECK(samples == 0 && buffers == 0);  // the test window is single-sampled
  glDeleteFramebuffers(1, &fb);
  GLuint rbs[3] = {ms_color, ms_depth, ss_depth};
  glDeleteRenderbuffers(3, rbs);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void BlitAndRead(bool caldera) {
  Clean();
  GLuint ms_color = Renderbuffer(4, GL_RGBA8, 16, 16);
  GLuint ms_color2 = Renderbuffer(4, GL_RGBA8, 16, 16);
  GLuint ss_color = Renderbuffer(0, GL_RGBA8, 16, 16);
  GLuint ss_other = Renderbuffer(0, GL_RGB565, 16, 16);
  GLuint ms_fb = Framebuffer(GL_FRAMEBUFFER, ms_color, 0);
  glClearColor(0.0f, 1.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  // Reading a multisampled framebuffer is an error; resolving it is how.
  uint8_t px[4] = {1, 2, 3, 4};
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(px[0] == 1 && px[3] == 4);  // untouched
  GLuint ss_fb = Framebuffer(GL_DRAW_FRAMEBUFFER, ss_color, 0);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, ms_fb);
  // A scaled resolve is an error in every GL version.
  glBlitFramebuffer(0, 0, 16, 16, 0, 0, 8, 8, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  // GL 3.3 §4.3.2 also forbids a moved rectangle, a multisampled destination and a format change. Later GL
  // versions relaxed those three and Mesa implements the relaxed rules in every desktop context, so Mesa's
  // answer here is no error; Caldera implements the GL 3.3 rules it advertises.
  const GLenum rule33 = caldera ? GL_INVALID_OPERATION : GL_NO_ERROR;
  glBlitFramebuffer(0, 0, 8, 8, 1, 0, 9, 8, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  CHECK_GL_ERROR(rule33);
  GLuint ms_fb2 = Framebuffer(GL_DRAW_FRAMEBUFFER, ms_color2, 0);
  glBlitFramebuffer(0, 0, 16, 16, 0, 0, 16, 16, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  CHECK_GL_ERROR(rule33);
  GLuint other_fb = Framebuffer(GL_DRAW_FRAMEBUFFER, ss_other, 0);
  glBlitFramebuffer(0, 0, 16, 16, 0, 0, 16, 16, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  CHECK_GL_ERROR(rule33);
  // The valid resolve, then the resolved pixels are readable.
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, ss_fb);
  glBlitFramebuffer(0, 0, 16, 16, 0, 0, 16, 16, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, ss_fb);
  glReadPixels(5, 7, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(px[0] == 0 && px[1] == 255 && px[2] == 0 && px[3] == 255);
  // Depth/stencil resolve (Vulkan: a SAMPLE_ZERO resolve attachment; GLES host and Mesa natively): the
  // cleared values arrive; a depth-only resolve leaves the destination's stencil alone.
  GLuint ms_depth = Renderbuffer(4, GL_DEPTH24_STENCIL8, 16, 16),
         ss_depth = Renderbuffer(0, GL_DEPTH24_STENCIL8, 16, 16);
  glBindFramebuffer(GL_FRAMEBUFFER, ms_fb);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, ms_depth);
  glClearDepth(0.25);
  glClearStencil(3);
  glClear(GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  glBindFramebuffer(GL_FRAMEBUFFER, ss_fb);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, ss_depth);
  glClearDepth(1.0);
  glClearStencil(9);
  glClear(GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  glClearStencil(0);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, ms_fb);
  glBlitFramebuffer(0, 0, 16, 16, 0, 0, 16, 16, GL_DEPTH_BUFFER_BIT, GL_NEAREST);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, ss_fb);
  float depth = 0;
  uint8_t stencil = 0;
  glReadPixels(4, 4, 1, 1, GL_DEPTH_COMPONENT, GL_FLOAT, &depth);
  glReadPixels(4, 4, 1, 1, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, &stencil);
  if (std::abs(depth - 0.25f) >= 1e-3f || stencil != 9)
    std::printf("  depth %f stencil %d\n", depth, stencil);
  CHECK(std::abs(depth - 0.25f) < 1e-3f && stencil == 9);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, ms_fb);
  glBlitFramebuffer(0, 0, 16, 16, 0, 0, 16, 16, GL_STENCIL_BUFFER_BIT, GL_NEAREST);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, ss_fb);
  glReadPixels(4, 4, 1, 1, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, &stencil);
  CHECK(stencil == 3);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  GLuint depths[2] = {ms_depth, ss_depth};
  glDeleteRenderbuffers(2, depths);
  GLuint fbs[4] = {ms_fb, ss_fb, ms_fb2, other_fb};
  glDeleteFramebuffers(4, fbs);
  GLuint rbs[4] = {ms_color, ms_color2, ss_color, ss_other};
  glDeleteRenderbuffers(4, rbs);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void MultisampleTextures() {
  Clean();
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, tex);
  glTexImage2DMultisample(GL_TEXTURE_2D, 4, GL_RGBA8, 8, 8, GL_TRUE);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glTexImage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, 0, GL_RGBA8, 8, 8, GL_TRUE);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glTexImage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, 4, GL_RGBA8, -1, 8, GL_TRUE);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  GLint max_color = 0;
  glGetIntegerv(GL_MAX_COLOR_TEXTURE_SAMPLES, &max_color);
  glTexImage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, max_color + 1, GL_RGBA8, 8, 8, GL_TRUE);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glTexImage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, 4, GL_RGBA8, 8, 8, GL_TRUE);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glTexParameteri(GL_TEXTURE_2D_MULTISAMPLE, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  CHECK_GL_ERROR(GL_INVALID_ENUM);  // sampler state does not apply to texelFetch
  // Level 0 only; a texture and a renderbuffer of the same count make one complete framebuffer.
  GLuint fb;
  glGenFramebuffers(1, &fb);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D_MULTISAMPLE, tex, 1);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D_MULTISAMPLE, tex, 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLuint depth = Renderbuffer(4, GL_DEPTH24_STENCIL8, 8, 8);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, depth);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  // The standard 4x positions (what both Vulkan and llvmpipe use), and the index range.
  const float expect[4][2] = {{0.375f, 0.125f}, {0.875f, 0.375f}, {0.125f, 0.625f}, {0.625f, 0.875f}};
  for (GLuint i = 0; i < 4; ++i) {
    float pos[2] = {-1, -1};
    glGetMultisamplefv(GL_SAMPLE_POSITION, i, pos);
    CHECK(pos[0] == expect[i][0] && pos[1] == expect[i][1]);
  }
  float pos[2];
  glGetMultisamplefv(GL_SAMPLE_POSITION, 4, pos);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glGetMultisamplefv(GL_SAMPLES, 0, pos);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fb);
  glDeleteRenderbuffers(1, &depth);
  glDeleteTextures(1, &tex);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// A multisample texture asked for with one sample (piglit's layered-rendering framebuffertexture does) is
// still multisampled, with a count the device has for the format (lavapipe has 4 but not 2): a draw into it
// resolves to the drawn colour, and the validation run sees no unsupported sample count.
void SingleSampleRequests() {
  Clean();
  const char* vs = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }
)";
  const char* fs = R"(#version 330 core
out vec4 frag;
void main() { frag = vec4(0.0, 1.0, 0.0, 1.0); }
)";
  GLuint program = harness::CompileProgram(vs, fs);
  glUseProgram(program);
  const float quad[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
  GLuint vbo = harness::Positions2D(quad, sizeof(quad) / sizeof(float));
  GLuint ss = Renderbuffer(0, GL_RGBA8, 6, 6);
  GLuint ss_fb = Framebuffer(GL_FRAMEBUFFER, ss, 0);
  glViewport(0, 0, 6, 6);
  for (GLenum target : {GL_TEXTURE_2D_MULTISAMPLE, GL_TEXTURE_2D_MULTISAMPLE_ARRAY}) {
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(target, tex);
    if (target == GL_TEXTURE_2D_MULTISAMPLE)
      glTexImage2DMultisample(target, 1, GL_RGBA8, 6, 6, GL_FALSE);
    else
      glTexImage3DMultisample(target, 1, GL_RGBA8, 6, 6, 3, GL_FALSE);
    CHECK_GL_ERROR(GL_NO_ERROR);
    GLint samples = 0;
    glGetTexLevelParameteriv(target, 0, GL_TEXTURE_SAMPLES, &samples);
    CHECK(samples >= 1);
    GLuint fb;
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex, 0);  // layered for the array
    CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, ss_fb);
    glBlitFramebuffer(0, 0, 6, 6, 0, 0, 6, 6, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, ss_fb);
    uint8_t px[4] = {};
    glReadPixels(2, 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    if (px[0] != 0 || px[1] != 255 || px[2] != 0)
      std::printf("  single-sample request 0x%x: %d %d %d\n", target, px[0], px[1], px[2]);
    CHECK(px[0] == 0 && px[1] == 255 && px[2] == 0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fb);
    glDeleteTextures(1, &tex);
  }
  glDeleteFramebuffers(1, &ss_fb);
  glDeleteRenderbuffers(1, &ss);
  glDeleteBuffers(1, &vbo);
  glDeleteProgram(program);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// glSampleCoverage keeps a fraction of the samples (which ones is the implementation's choice, so only the
// resolved intensity is checked), and glSampleMaski takes one mask word.
void Coverage() {
  Clean();
  glSampleMaski(1, 0x1);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  GLuint ms = Renderbuffer(4, GL_RGBA8, 8, 8), ss = Renderbuffer(0, GL_RGBA8, 8, 8);
  GLuint ss_fb = Framebuffer(GL_FRAMEBUFFER, ss, 0);
  GLuint ms_fb = Framebuffer(GL_FRAMEBUFFER, ms, 0);
  glViewport(0, 0, 8, 8);
  const char* vs = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }
)";
  const char* fs = R"(#version 330 core
out vec4 frag;
void main() { frag = vec4(1.0); }
)";
  glUseProgram(harness::CompileProgram(vs, fs));
  const float quad[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
  GLuint vbo = harness::Positions2D(quad, sizeof(quad) / sizeof(float));
  struct Case {
    float value;
    GLboolean invert;
    int expect;
  } cases[] = {{0.5f, GL_FALSE, 128}, {0.25f, GL_FALSE, 64}, {0.25f, GL_TRUE, 191}, {1.0f, GL_FALSE, 255}};
  glEnable(GL_SAMPLE_COVERAGE);
  for (const Case& c : cases) {
    glBindFramebuffer(GL_FRAMEBUFFER, ms_fb);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glSampleCoverage(c.value, c.invert);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, ss_fb);
    glBlitFramebuffer(0, 0, 8, 8, 0, 0, 8, 8, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, ss_fb);
    uint8_t px[4] = {};
    glReadPixels(3, 3, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    if (std::abs(int(px[0]) - c.expect) > 3)
      std::printf("  coverage %.2f invert %d: red %d\n", c.value, c.invert, px[0]);
    CHECK(std::abs(int(px[0]) - c.expect) <= 3);
  }
  glDisable(GL_SAMPLE_COVERAGE);
  glSampleCoverage(1.0f, GL_FALSE);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &ms_fb);
  glDeleteFramebuffers(1, &ss_fb);
  GLuint rbs[2] = {ms, ss};
  glDeleteRenderbuffers(2, rbs);
  glDeleteBuffers(1, &vbo);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

}  // namespace

int main() {
  harness::Window w = harness::Open(32, 32);
  const std::string renderer = harness::PrintVendor();
  Limits();
  Completeness();
  MultisampleTextures();
  SingleSampleRequests();
  Coverage();
  BlitAndRead(renderer.find("Caldera") != std::string::npos);
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);
  return harness::Summary();
}
