// Multisampling scenes: rendering into 4x renderbuffers (colour and depth/stencil), clears of multisampled
// targets, and the glBlitFramebuffer resolve into a single-sampled framebuffer that is then read back. Both
// Caldera backends and Mesa llvmpipe use the standard 4x sample positions, so resolved edges compare within
// compare.py's tolerance.
#include <cstdlib>

#include "gl_harness.h"
#include "scenes.h"

namespace scenes {
namespace {

const char* kVS = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
uniform vec2 u_offset;
uniform float u_depth;
void main() { gl_Position = vec4(a_pos + u_offset, u_depth, 1.0); }
)";
const char* kFS = R"(#version 330 core
uniform vec4 u_color;
out vec4 frag;
void main() { frag = u_color; }
)";

GLuint Renderbuffer(GLsizei samples, GLenum format) {
  GLuint rb;
  glGenRenderbuffers(1, &rb);
  glBindRenderbuffer(GL_RENDERBUFFER, rb);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, format, kWidth, kHeight);
  return rb;
}

// A 4x colour + depth/stencil framebuffer (bound to GL_FRAMEBUFFER) and its single-sampled resolve target.
struct Targets {
  GLuint ms_fb, ss_fb, rbs[3];
};

Targets MakeTargets() {
  Targets t{};
  t.rbs[0] = Renderbuffer(4, GL_RGBA8);
  t.rbs[1] = Renderbuffer(4, GL_DEPTH24_STENCIL8);
  t.rbs[2] = Renderbuffer(0, GL_RGBA8);
  glGenFramebuffers(1, &t.ss_fb);
  glBindFramebuffer(GL_FRAMEBUFFER, t.ss_fb);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, t.rbs[2]);
  glGenFramebuffers(1, &t.ms_fb);
  glBindFramebuffer(GL_FRAMEBUFFER, t.ms_fb);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, t.rbs[0]);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, t.rbs[1]);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) std::exit(3);
  glViewport(0, 0, kWidth, kHeight);
  return t;
}

// Resolves the multisampled framebuffer into the single-sampled one, reads that back, cleans up.
void ResolveAndRead(Targets& t) {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, t.ms_fb);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, t.ss_fb);
  glBlitFramebuffer(0, 0, kWidth, kHeight, 0, 0, kWidth, kHeight, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, t.ss_fb);
  g_pixels = harness::ReadRGBA(kWidth, kHeight);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &t.ms_fb);
  glDeleteFramebuffers(1, &t.ss_fb);
  glDeleteRenderbuffers(3, t.rbs);
}

struct Program {
  GLuint id;
  GLint offset, depth, color;
};

Program MakeProgram() {
  Program p{harness::CompileProgram(kVS, kFS), 0, 0, 0};
  glUseProgram(p.id);
  p.offset = glGetUniformLocation(p.id, "u_offset");
  p.depth = glGetUniformLocation(p.id, "u_depth");
  p.color = glGetUniformLocation(p.id, "u_color");
  return p;
}

GLuint Triangles() {
  // Two thin, slanted triangles: long anti-aliased edges at several slopes.
  const float v[] = {-0.9f, -0.9f, 0.7f, -0.6f, -0.2f, 0.9f, -0.8f, 0.3f, 0.9f, -0.2f, 0.6f, 0.8f};
  return harness::Positions2D(v, sizeof(v) / sizeof(float));
}

void MsaaResolve() {
  // Depth-tested, overlapping triangles: the second is behind the first where they cross, so the resolve
  // shows both coverage edges and depth-test edges computed per sample.
  Targets t = MakeTargets();
  glClearColor(0.1f, 0.1f, 0.3f, 1.0f);
  glClearDepth(1.0);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  Program p = MakeProgram();
  GLuint vbo = Triangles();
  glUniform2f(p.offset, 0, 0);
  glUniform1f(p.depth, 0.2f);
  glUniform4f(p.color, 1, 0.5f, 0, 1);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glUniform1f(p.depth, 0.5f);
  glUniform4f(p.color, 0, 1, 1, 1);
  glDrawArrays(GL_TRIANGLES, 3, 3);
  glDisable(GL_DEPTH_TEST);
  ResolveAndRead(t);
  glDeleteBuffers(1, &vbo);
}

void MsaaClear() {
  // A clear folded into the pass's load, a draw, then a scissored clear inside the open pass (a clear of
  // attachments there) and another draw over it: every kind of clear of a multisampled target, resolved.
  Targets t = MakeTargets();
  glClearColor(0.8f, 0.2f, 0.2f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  Program p = MakeProgram();
  GLuint vbo = Triangles();
  glUniform2f(p.offset, 0, 0);
  glUniform1f(p.depth, 0.0f);
  glUniform4f(p.color, 1, 1, 0, 1);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glEnable(GL_SCISSOR_TEST);
  glScissor(8, 20, 40, 24);
  glClearColor(0.2f, 0.8f, 0.2f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  glUniform2f(p.offset, 0.3f, -0.2f);
  glUniform4f(p.color, 0.3f, 0.3f, 1, 1);
  glDrawArrays(GL_TRIANGLES, 3, 3);
  ResolveAndRead(t);
  glDeleteBuffers(1, &vbo);
}

void MsaaTexture() {
  // Triangles rendered into a 4x GL_TEXTURE_2D_MULTISAMPLE, then read sample by sample with
  // texelFetch(sampler2DMS, coord, sample): each window quadrant shows one sample at half resolution, so a
  // sample taken from the wrong position or the wrong sample index shows as shifted edges.
  GLuint tex, fb;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, tex);
  glTexImage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, 4, GL_RGBA8, kWidth, kHeight, GL_TRUE);
  glGenFramebuffers(1, &fb);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D_MULTISAMPLE, tex, 0);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) std::exit(3);
  glViewport(0, 0, kWidth, kHeight);
  glClearColor(0.1f, 0.1f, 0.3f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  Program p = MakeProgram();
  GLuint vbo = Triangles();
  glUniform2f(p.offset, 0, 0);
  glUniform1f(p.depth, 0.0f);
  glUniform4f(p.color, 1, 0.5f, 0, 1);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glUniform4f(p.color, 0, 1, 1, 1);
  glDrawArrays(GL_TRIANGLES, 3, 3);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  const char* vs = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }
)";
  const char* fs = R"(#version 330 core
uniform sampler2DMS u_tex;
// Nothing bound: GL reads (0, 0, 0, 1); Mesa reads (0, 0, 0, 0) from missing multisample textures, so only
// the colour channels are compared (the read itself is what validation checks on Vulkan).
uniform sampler2DMS u_unbound;
out vec4 frag;
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  int quadrant = (p.x >= 32 ? 1 : 0) + (p.y >= 32 ? 2 : 0);
  frag = texelFetch(u_tex, (p * 2) % 64, quadrant) + vec4(texelFetch(u_unbound, ivec2(0), 0).rgb, 0.0);
}
)";
  GLuint prog = harness::CompileProgram(vs, fs);
  glUseProgram(prog);
  glUniform1i(glGetUniformLocation(prog, "u_tex"), 0);
  glUniform1i(glGetUniformLocation(prog, "u_unbound"), 1);
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  DrawFullWindowQuad();
  glDeleteBuffers(1, &vbo);
  glDeleteFramebuffers(1, &fb);
  glDeleteTextures(1, &tex);
}

void MsaaCoverage() {
  // Coverage operations on a 4x target, resolved: bands of alpha-to-coverage at several alphas, a sample
  // mask, and a sample-mask-limited overlay on top of a full draw; every band's resolved colour is the
  // fraction of samples written.
  Targets t = MakeTargets();
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  Program p = MakeProgram();
  const float quad[] = {-1, -1, -0.5f, -1, -0.5f, 1, -1, -1, -0.5f, 1, -1, 1};
  GLuint vbo = harness::Positions2D(quad, sizeof(quad) / sizeof(float));
  glUniform1f(p.depth, 0.0f);
  // Column 0: alpha to coverage with alpha 0.25, 0.5, 0.75 in three rows (the quad is a column, moved down).
  glEnable(GL_SAMPLE_ALPHA_TO_COVERAGE);
  glEnable(GL_SCISSOR_TEST);
  for (int row = 0; row < 3; ++row) {
    glScissor(0, row * 21, kWidth, 21);
    glUniform2f(p.offset, 0, 0);
    glUniform4f(p.color, 1, 0, 0, 0.25f * float(row + 1));
    glDrawArrays(GL_TRIANGLES, 0, 6);
  }
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_SAMPLE_ALPHA_TO_COVERAGE);
  // Column 1: sample mask 0x3 (half the samples); column 2: mask 0x1; column 3: a full green draw, then a
  // blue overlay limited to mask 0xE.
  glEnable(GL_SAMPLE_MASK);
  glSampleMaski(0, 0x3);
  glUniform2f(p.offset, 0.5f, 0);
  glUniform4f(p.color, 0, 1, 0, 1);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glSampleMaski(0, 0x1);
  glUniform2f(p.offset, 1.0f, 0);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glDisable(GL_SAMPLE_MASK);
  glUniform2f(p.offset, 1.5f, 0);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glEnable(GL_SAMPLE_MASK);
  glSampleMaski(0, 0xE);
  glUniform4f(p.color, 0, 0, 1, 1);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glDisable(GL_SAMPLE_MASK);
  glSampleMaski(0, ~0u);
  ResolveAndRead(t);
  glDeleteBuffers(1, &vbo);
}

void MsaaDisable() {
  // glDisable(GL_MULTISAMPLE) turns the multisample fragment operations off: rows of alpha-to-coverage
  // (alpha 0.5), sample mask 0x1 and coverage 0.25 each drawn with GL_MULTISAMPLE enabled (right half: a
  // fraction of the samples, resolved darker) and disabled (left half: every sample). Rectangles whose edges
  // lie on pixel boundaries only (no scissor: lavapipe lets samples of the row below a scissor rectangle
  // through at 4x), so no edge depends on how each implementation rasterizes with multisampling off.
  Targets t = MakeTargets();
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  Program p = MakeProgram();
  // A 32 x 20 pixel rectangle at the window's lower left corner, moved by u_offset.
  const float w = 1.0f, h = 20.0f / 32.0f;
  const float quad[] = {-1, -1, -1 + w, -1, -1 + w, -1 + h, -1, -1, -1 + w, -1 + h, -1, -1 + h};
  GLuint vbo = harness::Positions2D(quad, sizeof(quad) / sizeof(float));
  glUniform1f(p.depth, 0.0f);
  for (int half = 0; half < 2; ++half) {
    if (half == 0)
      glDisable(GL_MULTISAMPLE);
    else
      glEnable(GL_MULTISAMPLE);
    float x = float(half);  // NDC: 32 pixels
    glUniform2f(p.offset, x, 0);
    glEnable(GL_SAMPLE_ALPHA_TO_COVERAGE);
    glUniform4f(p.color, 1, 0, 0, 0.5f);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    glDisable(GL_SAMPLE_ALPHA_TO_COVERAGE);
    glUniform2f(p.offset, x, 22.0f / 32.0f);
    glEnable(GL_SAMPLE_MASK);
    glSampleMaski(0, 0x1);
    glUniform4f(p.color, 0, 1, 0, 1);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    glDisable(GL_SAMPLE_MASK);
    glSampleMaski(0, ~0u);
    glUniform2f(p.offset, x, 44.0f / 32.0f);
    glEnable(GL_SAMPLE_COVERAGE);
    glSampleCoverage(0.25f, GL_FALSE);
    glUniform4f(p.color, 0, 0, 1, 1);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    glDisable(GL_SAMPLE_COVERAGE);
    glSampleCoverage(1.0f, GL_FALSE);
  }
  glEnable(GL_MULTISAMPLE);
  ResolveAndRead(t);
  glDeleteBuffers(1, &vbo);
}

}  // namespace

const std::vector<Scene>& MsaaScenes() {
  static const std::vector<Scene> scenes = {
      {"msaa_resolve", MsaaResolve, true},  {"msaa_clear", MsaaClear, true},
      {"msaa_texture", MsaaTexture, false}, {"msaa_coverage", MsaaCoverage, true},
      {"msaa_disable", MsaaDisable, true},
  };
  return scenes;
}

}  // namespace scenes
