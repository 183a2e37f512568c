// glDisable(GL_MULTISAMPLE) on a multisampled target: GL rasterizes as if single-sampled, so each pixel is
// covered by all its samples or none, and a resolve shows no partial edge pixels. With GL_MULTISAMPLE on,
// slanted edges do resolve to partial values (which shows the check can see the difference).
// Usage: msaa_single_sample_raster [--expect-per-sample]
// --expect-per-sample asserts the opposite for GL_MULTISAMPLE off: devices without VK_EXT_sample_locations
// (lavapipe) still rasterize per sample there (docs/CONFORMANCE.md); that run goes red if it changes.
#include <cstdio>
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
void main() { frag = vec4(1.0); }
)";

// Draws a slanted white triangle into the 4-sample target, resolves it into `resolve` and returns how many
// pixels are neither black nor white.
int PartialPixels(GLuint msaa, GLuint resolve, bool multisample) {
  glBindFramebuffer(GL_FRAMEBUFFER, msaa);
  glViewport(0, 0, kSize, kSize);
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  if (multisample)
    glEnable(GL_MULTISAMPLE);
  else
    glDisable(GL_MULTISAMPLE);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glEnable(GL_MULTISAMPLE);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolve);
  glBlitFramebuffer(0, 0, kSize, kSize, 0, 0, kSize, kSize, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, resolve);
  std::vector<uint8_t> rgba = harness::ReadRGBA(kSize, kSize);
  int partial = 0, white = 0;
  for (int i = 0; i < kSize * kSize; ++i) {
    if (rgba[i * 4] == 255) ++white;
    if (rgba[i * 4] != 0 && rgba[i * 4] != 255) ++partial;
  }
  std::printf("GL_MULTISAMPLE %s: %d white, %d partial pixels\n", multisample ? "on" : "off", white, partial);
  CHECK(white > 100);  // the triangle was drawn
  return partial;
}

GLuint Framebuffer(int samples) {
  GLuint fbo, rb;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glGenRenderbuffers(1, &rb);
  glBindRenderbuffer(GL_RENDERBUFFER, rb);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_RGBA8, kSize, kSize);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  return fbo;
}

}  // namespace

int main(int argc, char** argv) {
  const bool expect_per_sample = argc > 1 && std::string(argv[1]) == "--expect-per-sample";
  harness::Window w = harness::Open(kSize, kSize);
  harness::PrintVendor();
  glUseProgram(harness::CompileProgram(kVS, kFS));
  const float tri[] = {-0.9f, -0.8f, 0.85f, -0.3f, -0.2f, 0.9f};  // no edge along a pixel row or column
  harness::Positions2D(tri, 6);
  GLuint msaa = Framebuffer(4), resolve = Framebuffer(0);
  CHECK(PartialPixels(msaa, resolve, true) > 0);
  int off = PartialPixels(msaa, resolve, false);
  CHECK(expect_per_sample ? off > 0 : off == 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);
  return harness::Summary();
}
