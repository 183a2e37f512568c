// Deferred clears: each read path must see a clear that is still pending (folded into the next pass's load
// op). Usage: clear_paths <readback|sample|blit|upload|copy|dynamic> [--expect-deferral|--expect-no-deferral]
// Negative controls run this with CALDERA_TEST_SKIP_CLEAR_RESOLVE=<path> and must fail (meson should_fail).
// The probe: CALDERA_STATS counters (clears folded into load ops, render passes, pipelines created).
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "gl_harness.h"

namespace {

constexpr int kSize = 32;

const char* kVS = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
out vec2 v_uv;
void main() { v_uv = a_pos * 0.5 + 0.5; gl_Position = vec4(a_pos, 0.0, 1.0); }
)";
const char* kTexFS = R"(#version 330 core
in vec2 v_uv;
uniform sampler2D u_tex;
out vec4 frag;
void main() { frag = texture(u_tex, v_uv); }
)";
const char* kColorFS = R"(#version 330 core
uniform vec4 u_color;
out vec4 frag;
void main() { frag = u_color; }
)";

GLuint g_quad_vao = 0;

void MakeQuad() {
  const float quad[12] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
  GLuint vbo;
  glGenVertexArrays(1, &g_quad_vao);
  glBindVertexArray(g_quad_vao);
  glGenBuffers(1, &vbo);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glBufferData(GL_ARRAY_BUFFER, sizeof(quad), quad, GL_STATIC_DRAW);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
}

GLuint TextureTarget(GLuint* fbo) {
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, kSize, kSize, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glGenFramebuffers(1, fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, *fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
  return tex;
}

void DrawColor(GLuint prog, float r, float g, float b) {
  glUseProgram(prog);
  glUniform4f(glGetUniformLocation(prog, "u_color"), r, g, b, 1);
  glBindVertexArray(g_quad_vao);
  glDrawArrays(GL_TRIANGLES, 0, 6);
}

void Clear(float r, float g, float b) {
  glClearColor(r, g, b, 1);
  glClear(GL_COLOR_BUFFER_BIT);
}

bool Pixel(int x, int y, int r, int g, int b) {
  uint8_t px[4] = {};
  glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  bool ok = std::abs(px[0] - r) <= 2 && std::abs(px[1] - g) <= 2 && std::abs(px[2] - b) <= 2;
  if (!ok)
    std::fprintf(stderr, "  pixel (%d,%d) = %d,%d,%d want %d,%d,%d\n", x, y, px[0], px[1], px[2], r, g, b);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(
        stderr,
        "usage: %s <readback|sample|blit|upload|copy|dynamic> [--expect-deferral|--expect-no-deferral]\n",
        argv[0]);
    return 2;
  }
  std::string mode = argv[1], expect = argc > 2 ? argv[2] : "";
  char stats_path[] = "/tmp/caldera-stats-XXXXXX";
  int fd = mkstemp(stats_path);
  if (fd >= 0) close(fd);
  setenv("CALDERA_STATS", stats_path, 1);
  harness::Window w = harness::Open(kSize, kSize);
  MakeQuad();
  GLuint color_prog = harness::CompileProgram(kVS, kColorFS);
  GLuint tex_prog = harness::CompileProgram(kVS, kTexFS);

  if (mode == "readback") {
    Clear(1, 0, 0);
    CHECK(Pixel(5, 5, 255, 0, 0));
    Clear(0, 1, 0);  // pending again: the next readback must resolve it
    CHECK(Pixel(5, 5, 0, 255, 0));
  } else if (mode == "sample") {
    GLuint fbo, tex = TextureTarget(&fbo);
    glViewport(0, 0, kSize, kSize);
    DrawColor(color_prog, 1, 0, 0);  // the texture holds red
    glFlush();                       // ends the pass: the next clear is deferred, not recorded in a pass
    Clear(0, 0, 1);                  // pending blue on the texture
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glUseProgram(tex_prog);
    glBindTexture(GL_TEXTURE_2D, tex);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    CHECK(Pixel(10, 10, 0, 0, 255));
  } else if (mode == "blit") {
    GLuint fbo;
    TextureTarget(&fbo);
    DrawColor(color_prog, 1, 0, 0);
    glFlush();
    Clear(1, 1, 0);  // pending yellow on the blit source
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    glBlitFramebuffer(0, 0, kSize, kSize, 0, 0, kSize, kSize, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    CHECK(Pixel(10, 10, 255, 255, 0));
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);  // the source itself holds the clear too
    CHECK(Pixel(10, 10, 255, 255, 0));
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  } else if (mode == "upload") {
    GLuint fbo, tex = TextureTarget(&fbo);
    DrawColor(color_prog, 1, 0, 0);
    glFlush();
    Clear(0, 1, 0);  // pending green, then an upload into the same image must land on top of it
    uint8_t white[4 * 4 * 4];
    std::memset(white, 255, sizeof(white));
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, white);
    CHECK(Pixel(1, 1, 255, 255, 255));
    CHECK(Pixel(20, 20, 0, 255, 0));
  } else if (mode == "copy") {
    // glCopyTexImage2D from the window while its clear is pending: the copy must read the clear.
    DrawColor(color_prog, 1, 0, 0);
    glFlush();
    Clear(0, 0, 1);  // pending blue on the copy's source
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 0, 0, kSize, kSize, 0);
    Clear(0, 0, 0);
    glUseProgram(tex_prog);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    CHECK(Pixel(10, 10, 0, 0, 255));
  } else if (mode == "dynamic") {
    // State Vulkan sets dynamically must neither end the pass nor create pipelines.
    Clear(0, 0, 0);
    glEnable(GL_SCISSOR_TEST);
    glEnable(GL_DEPTH_TEST);
    for (int i = 0; i < 8; ++i) {
      glViewport(i, 0, kSize - i, kSize);
      glScissor(0, i, kSize, kSize - i);
      glDepthFunc(i % 2 ? GL_LEQUAL : GL_ALWAYS);
      glDepthMask(i % 2);
      glStencilFunc(GL_ALWAYS, i, 0xFF);
      glCullFace(i % 2 ? GL_FRONT : GL_BACK);
      glFrontFace(i % 2 ? GL_CW : GL_CCW);
      glBlendColor(0.1f * i, 0, 0, 1);
      glPolygonOffset(float(i), 1.0f);
      glLineWidth(1.0f);
      DrawColor(color_prog, 0, 1, 0);
    }
    glDisable(GL_SCISSOR_TEST);
    CHECK(Pixel(20, 20, 0, 255, 0));
  } else {
    std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
    return 2;
  }
  CHECK(glGetError() == GL_NO_ERROR);
  harness::Close(w);  // backend contexts write their counters when destroyed

  long folded = harness::StatSum(stats_path, "clears_folded"),
       deferred = harness::StatSum(stats_path, "clears_deferred");
  long passes = harness::StatSum(stats_path, "render_passes"),
       pipelines = harness::StatSum(stats_path, "pipelines_created");
  std::printf("clears deferred %ld, folded into load ops %ld, render passes %ld, pipelines %ld\n", deferred,
              folded, passes, pipelines);
  if (expect == "--expect-deferral") CHECK(deferred > 0 && folded > 0);
  if (expect == "--expect-no-deferral") CHECK(deferred == 0);
  if (mode == "dynamic") {
    CHECK(passes == 1);     // one clear folded into the only pass; no state change ended it
    CHECK(pipelines == 1);  // one program, one pipeline: every change above is dynamic state
  }
  unlink(stats_path);
  return harness::Summary();
}
