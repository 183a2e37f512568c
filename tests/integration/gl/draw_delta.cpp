// Draw-delta caches (src/frontend/draw_delta.h): every way a texture set, uniform-buffer set or framebuffer
// status can change between two draws, each checked by pixels (or the GL error) right after the change,
// with the caches warm from the draws before it.
// Usage: draw_delta [--expect-hits|--expect-no-hits] [--ignore-pixels]
//   --expect-hits     CALDERA_STATS must show cache hits (texture, uniform buffer, framebuffer status)
//   --expect-no-hits  none (the kill switch CALDERA_DRAW_DELTA=0)
//   --ignore-pixels   pixel and error checks only print: with CALDERA_PIPE_VERIFY=1 and a dropped version
//                     bump (CALDERA_DRAW_DELTA_DROP), verify mode alone must make the run fail.
// Without flags it runs against any driver (Mesa too).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gl_harness.h"

namespace {

constexpr int kSize = 16;
bool g_ignore_pixels = false;

const char* kVS = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }
)";
const char* kFS = R"(#version 330 core
uniform sampler2D u_tex;
layout(std140) uniform Block { vec4 u_add; };
out vec4 frag;
void main() { frag = texture(u_tex, vec2(0.5)) + u_add; }
)";

struct Rgba {
  int r, g, b, a;
};

Rgba Pixel(int x, int y) {
  uint8_t p[4] = {};
  glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, p);
  return {p[0], p[1], p[2], p[3]};
}

void Expect(const char* what, int x, int r, int g, int b) {
  Rgba p = Pixel(x, kSize / 2);
  bool ok = p.r == r && p.g == g && p.b == b;
  if (!ok)
    std::fprintf(stderr, "  %s: pixel (%d, %d, %d), want (%d, %d, %d)\n", what, p.r, p.g, p.b, r, g, b);
  if (g_ignore_pixels) {
    if (!ok) std::fprintf(stderr, "  (ignored: --ignore-pixels)\n");
    return;
  }
  harness::Check(ok, what, __FILE__, __LINE__);
}

// No clear between draws: every quad covers the target with opaque colour, and a clear (a state-changing
// entry) would move the draw epochs between the change under test and the draw that must see it.
void Draw() {
  glDrawArrays(GL_TRIANGLES, 0, 6);
}

bool HasExtension(const char* name) {
  GLint n = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &n);
  for (GLint i = 0; i < n; ++i)
    if (std::strcmp(reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i))), name) == 0)
      return true;
  return false;
}

// Draws twice (so the second draw finds the caches warm), checks the centre and draws once more: the read
// is a state-changing entry, and the change a scenario makes next must be the only one before its draw.
void DrawAndExpect(const char* what, int r, int g, int b) {
  Draw();
  Draw();
  Expect(what, kSize / 2, r, g, b);
  Draw();
}

// 2x2 of one colour, level 0 only: a mipmapped minification filter makes it incomplete.
void Solid(uint8_t r, uint8_t g, uint8_t b) {
  uint8_t texels[16];
  for (int i = 0; i < 4; ++i)
    texels[i * 4] = r, texels[i * 4 + 1] = g, texels[i * 4 + 2] = b, texels[i * 4 + 3] = 255;
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
}

GLuint SolidTexture(uint8_t r, uint8_t g, uint8_t b) {
  GLuint t;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  Solid(r, g, b);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  return t;
}

void Respecify(GLuint texture, uint8_t r, uint8_t g, uint8_t b) {
  glBindTexture(GL_TEXTURE_2D, texture);
  Solid(r, g, b);
}

// A full-viewport quad, or its left half, in a new vertex array (left bound).
GLuint Quad(bool left_half, GLuint* vbo) {
  float x1 = left_half ? 0.0f : 1.0f;
  const float xy[12] = {-1, -1, x1, -1, x1, 1, -1, -1, x1, 1, -1, 1};
  GLuint vao;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glGenBuffers(1, vbo);
  glBindBuffer(GL_ARRAY_BUFFER, *vbo);
  glBufferData(GL_ARRAY_BUFFER, sizeof(xy), xy, GL_STATIC_DRAW);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  return vao;
}

}  // namespace

int main(int argc, char** argv) {
  std::string expect;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--ignore-pixels") == 0)
      g_ignore_pixels = true;
    else
      expect = argv[i];
  }
  harness::StatsFile stats;
  harness::Window w = harness::Open(kSize, kSize);
  // Caldera refuses a draw whose enabled attribute has no buffer (GL 4.6 §10.3.9 leaves it to the
  // implementation in the core profile; Mesa draws).
  const bool caldera = harness::PrintVendor().find("Caldera") != std::string::npos;

  GLuint program = harness::CompileProgram(kVS, kFS);
  glUseProgram(program);
  GLint u_tex = glGetUniformLocation(program, "u_tex");
  glUniform1i(u_tex, 0);
  glUniformBlockBinding(program, glGetUniformBlockIndex(program, "Block"), 0);
  GLuint target_fbo = harness::ColorTarget(kSize, kSize);
  glViewport(0, 0, kSize, kSize);
  glClearColor(0, 0, 0, 1);

  GLuint vbo;
  GLuint vao = Quad(false, &vbo);

  // Uniform buffer: 0 at offset 0, (0, 0, 1, 0) at offset 256; binding point 1 holds (0, 1, 0, 0).
  GLint align = 256;
  glGetIntegerv(GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT, &align);
  std::vector<float> words(size_t(align) / 4 + 4, 0.0f);
  words[size_t(align) / 4 + 2] = 1.0f;
  GLuint ubo, ubo_green;
  glGenBuffers(1, &ubo);
  glBindBuffer(GL_UNIFORM_BUFFER, ubo);
  glBufferData(GL_UNIFORM_BUFFER, GLsizeiptr(words.size() * 4), words.data(), GL_STATIC_DRAW);
  glBindBufferRange(GL_UNIFORM_BUFFER, 0, ubo, 0, 16);
  const float green[4] = {0, 1, 0, 0};
  glGenBuffers(1, &ubo_green);
  glBindBuffer(GL_UNIFORM_BUFFER, ubo_green);
  glBufferData(GL_UNIFORM_BUFFER, sizeof(green), green, GL_STATIC_DRAW);
  glBindBufferBase(GL_UNIFORM_BUFFER, 1, ubo_green);

  GLuint red = SolidTexture(255, 0, 0);
  GLuint blue = SolidTexture(0, 0, 255);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, red);
  DrawAndExpect("red texture", 255, 0, 0);

  // glTexParameteri: a mipmapped filter on a one-level texture makes it incomplete (black), and back.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  Draw();
  Expect("glTexParameteri made the texture incomplete", kSize / 2, 0, 0, 0);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  DrawAndExpect("glTexParameteri made it complete again", 255, 0, 0);

  // glBindTexture on the unit the sampler reads.
  glBindTexture(GL_TEXTURE_2D, blue);
  Draw();
  Expect("glBindTexture", kSize / 2, 0, 0, 255);
  glBindTexture(GL_TEXTURE_2D, red);
  DrawAndExpect("glBindTexture back", 255, 0, 0);

  // glUniform1i moves the sampler to another unit.
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, blue);
  glActiveTexture(GL_TEXTURE0);
  glUniform1i(u_tex, 1);
  Draw();
  Expect("glUniform1i to unit 1", kSize / 2, 0, 0, 255);
  glUniform1i(u_tex, 0);
  DrawAndExpect("glUniform1i back to unit 0", 255, 0, 0);

  // A sampler object and its parameters.
  GLuint sampler;
  glGenSamplers(1, &sampler);
  glSamplerParameteri(sampler, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glBindSampler(0, sampler);
  DrawAndExpect("sampler object bound", 255, 0, 0);
  glSamplerParameteri(sampler, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  Draw();
  Expect("glSamplerParameteri made the texture incomplete", kSize / 2, 0, 0, 0);
  glSamplerParameteri(sampler, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  DrawAndExpect("glSamplerParameteri back", 255, 0, 0);
  glBindSampler(0, 0);

  // Storage re-specified behind the bound texture.
  Respecify(red, 0, 255, 0);
  Draw();
  Expect("glTexImage2D re-specified the bound texture", kSize / 2, 0, 255, 0);
  Respecify(red, 255, 0, 0);
  DrawAndExpect("glTexImage2D back", 255, 0, 0);

  // glTexImage2D of a missing mipmap level completes the texture without new storage.
  {
    GLuint mip = SolidTexture(0, 0, 255);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
    DrawAndExpect("level 1 missing: incomplete", 0, 0, 0);
    const uint8_t texel[4] = {0, 0, 255, 255};
    glTexImage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, texel);
    Draw();
    Expect("glTexImage2D of level 1 completed the texture", kSize / 2, 0, 0, 255);
    glBindTexture(GL_TEXTURE_2D, red);
    glDeleteTextures(1, &mip);
    DrawAndExpect("red again", 255, 0, 0);
  }

  // Another context of the share group changes the texture this one has bound.
  {
    EGLContext other = harness::CreateContext(w, w.context);
    CHECK(eglMakeCurrent(w.display, w.surface, w.surface, other));
    glBindTexture(GL_TEXTURE_2D, red);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glFinish();
    CHECK(eglMakeCurrent(w.display, w.surface, w.surface, w.context));
    // GL makes another context's changes visible here once the object is bound again (GL 4.6 §5.3.3);
    // rebinding the same texture keeps every binding as it was, so only its version tells Caldera.
    glBindTexture(GL_TEXTURE_2D, red);
    Draw();
    Expect("another context made the texture incomplete", kSize / 2, 0, 0, 0);
    CHECK(eglMakeCurrent(w.display, w.surface, w.surface, other));
    Respecify(red, 255, 255, 0);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glFinish();
    CHECK(eglMakeCurrent(w.display, w.surface, w.surface, w.context));
    glBindTexture(GL_TEXTURE_2D, red);
    Draw();
    Expect("another context re-specified the texture", kSize / 2, 255, 255, 0);
    eglDestroyContext(w.display, other);
    Respecify(red, 255, 0, 0);
    DrawAndExpect("texture back to red", 255, 0, 0);
  }

  // Blending: glEnable, and an extension alias of glEnablei (GL_EXT_draw_buffers2's glEnableIndexedEXT).
  // (Queries are state-changing entries too: the extension is looked up first.)
  auto enable_indexed =
      HasExtension("GL_EXT_draw_buffers2")
          ? reinterpret_cast<void (*)(GLenum, GLuint)>(eglGetProcAddress("glEnableIndexedEXT"))
          : nullptr;
  glBlendFunc(GL_ZERO, GL_ZERO);  // no effect while blending is off
  DrawAndExpect("blending off", 255, 0, 0);
  glEnable(GL_BLEND);
  Draw();
  Expect("glEnable(GL_BLEND) with zero factors", kSize / 2, 0, 0, 0);
  glDisable(GL_BLEND);
  DrawAndExpect("glDisable(GL_BLEND)", 255, 0, 0);
  if (HasExtension("GL_EXT_draw_buffers2")) {
    CHECK(enable_indexed != nullptr);
    DrawAndExpect("before glEnableIndexedEXT", 255, 0, 0);
    if (enable_indexed) {
      enable_indexed(GL_BLEND, 0);
      Draw();
      Expect("glEnableIndexedEXT(GL_BLEND, 0) with zero factors", kSize / 2, 0, 0, 0);
    }
    glDisable(GL_BLEND);
    DrawAndExpect("blending off again", 255, 0, 0);
  }
  glBlendFunc(GL_ONE, GL_ZERO);

  // glBindFramebuffer between two draws: the second lands in the other framebuffer.
  {
    GLuint other_fbo = harness::ColorTarget(kSize, kSize);  // bound, checked complete
    glClear(GL_COLOR_BUFFER_BIT);
    glBindFramebuffer(GL_FRAMEBUFFER, target_fbo);
    DrawAndExpect("drawn into the first framebuffer", 255, 0, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, other_fbo);
    Draw();
    Expect("glBindFramebuffer: drawn into the second framebuffer", kSize / 2, 255, 0, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, target_fbo);
    glDeleteFramebuffers(1, &other_fbo);
    DrawAndExpect("back in the first framebuffer", 255, 0, 0);
  }

  // Uniform buffers: binding point 0 rebound whole, the bound range, the block's binding point, the buffer's
  // storage.
  glBindBufferBase(GL_UNIFORM_BUFFER, 0, ubo_green);
  Draw();
  Expect("glBindBufferBase of the green word", kSize / 2, 255, 255, 0);
  glBindBufferRange(GL_UNIFORM_BUFFER, 0, ubo, 0, 16);
  DrawAndExpect("uniform buffer range at 0", 255, 0, 0);
  glBindBufferRange(GL_UNIFORM_BUFFER, 0, ubo, align, 16);
  Draw();
  Expect("glBindBufferRange to the blue word", kSize / 2, 255, 0, 255);
  glUniformBlockBinding(program, 0, 1);
  Draw();
  Expect("glUniformBlockBinding to point 1", kSize / 2, 255, 255, 0);
  glUniformBlockBinding(program, 0, 0);
  DrawAndExpect("glUniformBlockBinding back", 255, 0, 255);
  // Re-specified smaller than the bound range's offset: nothing left to read there (GL: undefined values,
  // so only the record is checked, by verify mode), then given the blue word back.
  glBindBuffer(GL_UNIFORM_BUFFER, ubo);
  glBufferData(GL_UNIFORM_BUFFER, 16, words.data(), GL_STATIC_DRAW);
  Draw();
  glGetError();  // drivers may refuse the draw whose range lies past the buffer's end
  glBufferData(GL_UNIFORM_BUFFER, GLsizeiptr(words.size() * 4), words.data(), GL_STATIC_DRAW);
  DrawAndExpect("glBufferData re-specified the uniform buffer", 255, 0, 255);
  glBindBufferRange(GL_UNIFORM_BUFFER, 0, ubo, 0, 16);
  DrawAndExpect("uniform buffer range back", 255, 0, 0);

  // Framebuffer completeness follows the attached texture's storage.
  {
    GLuint color;
    glGenTextures(1, &color);
    glBindTexture(GL_TEXTURE_2D, color);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, kSize, kSize, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    GLuint fbo;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color, 0);
    glBindTexture(GL_TEXTURE_2D, red);
    DrawAndExpect("texture target", 255, 0, 0);
    CHECK_GL_ERROR(GL_NO_ERROR);
    glBindTexture(GL_TEXTURE_2D, color);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 0, 0, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glBindTexture(GL_TEXTURE_2D, red);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    GLenum err = glGetError();
    if (err != GL_INVALID_FRAMEBUFFER_OPERATION)
      std::fprintf(stderr, "  draw to an emptied attachment: error 0x%04x, want 0x0506\n", err);
    if (!g_ignore_pixels) CHECK(err == GL_INVALID_FRAMEBUFFER_OPERATION);
    glBindTexture(GL_TEXTURE_2D, color);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, kSize, kSize, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glBindTexture(GL_TEXTURE_2D, red);
    DrawAndExpect("attachment storage back", 255, 0, 0);
    CHECK_GL_ERROR(GL_NO_ERROR);
    glBindFramebuffer(GL_FRAMEBUFFER, target_fbo);
    glDeleteFramebuffers(1, &fbo);
    glDeleteTextures(1, &color);
  }

  // An enabled attribute without a buffer: the draw is an error, and again once sourced.
  // (Set up first, so that the only entry between the last good draw and the failing one is
  // glVertexAttribPointer.)
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(1);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  DrawAndExpect("attribute 1 sourced from a buffer", 255, 0, 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, nullptr);  // no GL_ARRAY_BUFFER: no source
  Draw();
  {
    GLenum err = glGetError();
    if (err != GL_INVALID_OPERATION)
      std::fprintf(stderr,
                   "  glVertexAttribPointer left attribute 1 without a buffer: error 0x%04x, want 0x0502\n",
                   err);
    if (!g_ignore_pixels && caldera) CHECK(err == GL_INVALID_OPERATION);
  }
  glDisableVertexAttribArray(1);
  DrawAndExpect("attribute 1 disabled again", 255, 0, 0);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // A vertex array deleted and a new one made (GL may give it the same name) with other contents.
  glDeleteVertexArrays(1, &vao);
  glDeleteBuffers(1, &vbo);
  vao = Quad(true, &vbo);
  glClear(GL_COLOR_BUFFER_BIT);
  Draw();
  Expect("new vertex array: left half drawn", kSize / 4, 255, 0, 0);
  Expect("new vertex array: right half clear", kSize * 3 / 4, 0, 0, 0);
  CHECK_GL_ERROR(GL_NO_ERROR);

  glDeleteSamplers(1, &sampler);
  harness::Close(w);

  if (!expect.empty()) {
    long texture_hits = stats.Sum("texture_hits"), ubo_hits = stats.Sum("uniform_buffer_hits");
    long fb_hits = stats.Sum("framebuffer_status_hits");
    long disabled = stats.Sum("texture_miss_disabled");
    std::printf(
        "texture hits %ld, uniform-buffer hits %ld, framebuffer-status hits %ld, disabled misses %ld\n",
        texture_hits, ubo_hits, fb_hits, disabled);
    if (expect == "--expect-hits") CHECK(texture_hits > 0 && ubo_hits > 0 && fb_hits > 0);
    if (expect == "--expect-no-hits")
      CHECK(texture_hits == 0 && ubo_hits == 0 && fb_hits == 0 && disabled > 0);
  }
  return harness::Summary();
}
