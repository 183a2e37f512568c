// Objects shared between two contexts of one share group outlive every context's pending use, and changes
// become visible as GL's shared-object rules say (GL 3.3 core, appendix D):
// - context B records draws that read a shared buffer and sample shared textures, without flushing;
// - context A then re-specifies the buffer (glBufferData) and a texture (glTexImage2D), deletes another
//   texture and buffer that B still has bound, relinks a shared program, and calls glFinish;
// - B's earlier draws must have used the old contents (and must not touch freed storage: under the
//   Vulkan validation layer a destroyed VkBuffer in B's command buffer is an error);
// - after A's glFinish, B re-binds and draws again: now it must see A's new contents; the deleted objects,
//   still bound in B, keep working there.
// The same sequence runs with B current on a second thread (each context on its own thread, handing over
// in order), and a context destroyed with unflushed work that reads objects A then deletes.
#include <condition_variable>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>

#include "gl_harness.h"

namespace {

constexpr int kSize = 64;  // B's target: 8 columns of 8-pixel cells, one per check

const char* kVs = R"(#version 330 core
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 color;
uniform vec2 cell;  // the cell's lower-left corner in [0,8)
out vec4 v_color;
out vec2 v_uv;
void main() {
  v_color = color;
  v_uv = pos * 0.5 + 0.5;
  gl_Position = vec4((cell + v_uv) / 4.0 - 1.0, 0.0, 1.0);
})";
// mode 0: the vertex colour; mode 1: the texture.
const char* kFsMixed = R"(#version 330 core
in vec4 v_color;
in vec2 v_uv;
uniform sampler2D tex;
uniform int mode;
out vec4 frag;
void main() { frag = mode == 0 ? v_color : texture(tex, v_uv); })";
const char* kFsConstA = R"(#version 330 core
out vec4 frag;
void main() { frag = vec4(0.0, 1.0, 1.0, 1.0); })";  // cyan
const char* kFsConstB = R"(#version 330 core
out vec4 frag;
void main() { frag = vec4(1.0, 0.5, 0.0, 1.0); })";  // orange

struct Rgba {
  uint8_t r, g, b, a;
};
constexpr Rgba kRed{255, 0, 0, 255}, kBlue{0, 0, 255, 255}, kGreen{0, 255, 0, 255},
    kYellow{255, 255, 0, 255}, kMagenta{255, 0, 255, 255}, kWhite{255, 255, 255, 255},
    kCyan{0, 255, 255, 255}, kOrange{255, 128, 0, 255};

struct Shared {
  GLuint color_buffer = 0;    // vec4 per vertex, re-specified by A
  GLuint doomed_buffer = 0;   // vec4 per vertex, deleted by A while B's vertex array holds it
  GLuint texture = 0;         // re-specified by A
  GLuint doomed_texture = 0;  // deleted by A while bound in B
  GLuint program = 0;         // kVs + kFsMixed
  GLuint relinked = 0;        // kVs + kFsConstA, relinked by A to kFsConstB
  GLuint relinked_fs = 0;
};

void FillColorBuffer(GLuint buffer, Rgba c) {
  float v[4 * 4];
  for (int i = 0; i < 4; ++i) {
    v[i * 4 + 0] = c.r / 255.0f;
    v[i * 4 + 1] = c.g / 255.0f;
    v[i * 4 + 2] = c.b / 255.0f;
    v[i * 4 + 3] = c.a / 255.0f;
  }
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferData(GL_ARRAY_BUFFER, sizeof(v), v, GL_STATIC_DRAW);
}

void FillTexture(GLuint texture, Rgba c) {
  uint8_t texels[4 * 4 * 4];
  for (int i = 0; i < 16; ++i) std::memcpy(texels + i * 4, &c, 4);
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
}

Shared CreateShared() {
  Shared s;
  glGenBuffers(1, &s.color_buffer);
  glGenBuffers(1, &s.doomed_buffer);
  FillColorBuffer(s.color_buffer, kRed);
  FillColorBuffer(s.doomed_buffer, kWhite);
  glGenTextures(1, &s.texture);
  glGenTextures(1, &s.doomed_texture);
  FillTexture(s.texture, kGreen);
  FillTexture(s.doomed_texture, kMagenta);
  s.program = harness::CompileProgram(kVs, kFsMixed);
  s.relinked = harness::CompileProgram(kVs, kFsConstA);
  GLuint shaders[2];
  GLsizei n = 0;
  glGetAttachedShaders(s.relinked, 2, &n, shaders);
  for (GLsizei i = 0; i < n; ++i) {
    GLint type = 0;
    glGetShaderiv(shaders[i], GL_SHADER_TYPE, &type);
    if (type == GL_FRAGMENT_SHADER) s.relinked_fs = shaders[i];
  }
  glFinish();
  return s;
}

// B's own objects: vertex arrays and the framebuffer are per context in GL.
struct ContextB {
  GLuint fbo = 0, positions = 0;
  GLuint vao_color = 0;   // attribute 1 from Shared::color_buffer
  GLuint vao_doomed = 0;  // attribute 1 from Shared::doomed_buffer
};

GLuint MakeVao(GLuint positions, GLuint colors) {
  GLuint vao;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glBindBuffer(GL_ARRAY_BUFFER, positions);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, colors);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(1);
  return vao;
}

ContextB SetUpB(const Shared& s) {
  ContextB b;
  b.fbo = harness::ColorTarget(kSize, kSize);
  glViewport(0, 0, kSize, kSize);
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  glGenBuffers(1, &b.positions);
  glBindBuffer(GL_ARRAY_BUFFER, b.positions);
  glBufferData(GL_ARRAY_BUFFER, sizeof(quad), quad, GL_STATIC_DRAW);
  b.vao_color = MakeVao(b.positions, s.color_buffer);
  b.vao_doomed = MakeVao(b.positions, s.doomed_buffer);
  return b;
}

void DrawCell(GLuint program, GLuint vao, int mode, int cx, int cy) {
  glUseProgram(program);
  glUniform2f(glGetUniformLocation(program, "cell"), float(cx), float(cy));
  GLint mode_loc = glGetUniformLocation(program, "mode");
  if (mode_loc >= 0) glUniform1i(mode_loc, mode);
  glBindVertexArray(vao);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

bool CellIs(const std::vector<uint8_t>& px, int cx, int cy, Rgba want, const char* what) {
  // The cell's centre pixel; cells are 8x8 (kSize / 8) in a 64x64 target.
  int x = cx * 8 + 4, y = cy * 8 + 4;
  const uint8_t* p = &px[(y * kSize + x) * 4];
  auto near = [](int a, int b) { return a - b <= 2 && b - a <= 2; };
  bool ok = near(p[0], want.r) && near(p[1], want.g) && near(p[2], want.b) && near(p[3], want.a);
  if (!ok)
    std::fprintf(stderr, "  %s: cell (%d,%d) is %d,%d,%d,%d, want %d,%d,%d,%d\n", what, cx, cy, p[0], p[1], p[2],
                 p[3], want.r, want.g, want.b, want.a);
  return ok;
}

// Context B's part before A's changes: draws that read every shared object, left unflushed.
void BDrawsBefore(const Shared& s, const ContextB& b) {
  glBindFramebuffer(GL_FRAMEBUFFER, b.fbo);
  glActiveTexture(GL_TEXTURE0);
  DrawCell(s.relinked, b.vao_color, 0, 4, 0);  // program before relink: cyan
  DrawCell(s.program, b.vao_doomed, 0, 3, 0);  // doomed buffer: white
  DrawCell(s.program, b.vao_color, 0, 0, 0);   // colour buffer: red
  glBindTexture(GL_TEXTURE_2D, s.texture);
  DrawCell(s.program, b.vao_color, 1, 1, 0);  // texture: green
  glBindTexture(GL_TEXTURE_2D, s.doomed_texture);
  // Doomed texture: magenta (stays bound in B). The last draw: B's next draws change nothing but uniforms
  // and bindings of the same objects, so a backend that caches bindings must still notice A's changes.
  DrawCell(s.program, b.vao_color, 1, 2, 0);
}

// Context A's part: re-specify, delete and relink, then finish.
void AChanges(Shared& s) {
  FillColorBuffer(s.color_buffer, kBlue);
  FillTexture(s.texture, kYellow);
  glDeleteTextures(1, &s.doomed_texture);
  glDeleteBuffers(1, &s.doomed_buffer);
  glShaderSource(s.relinked_fs, 1, &kFsConstB, nullptr);
  glCompileShader(s.relinked_fs);
  glLinkProgram(s.relinked);
  GLint linked = 0;
  glGetProgramiv(s.relinked, GL_LINK_STATUS, &linked);
  CHECK(linked == GL_TRUE);
  glFinish();
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// Context B's part after A's glFinish: the earlier cells kept the old contents; re-bound objects show the
// new ones; the deleted ones, still bound or held by B's vertex array, keep working.
void BChecksAfter(const Shared& s, const ContextB& b, const char* label) {
  glBindFramebuffer(GL_FRAMEBUFFER, b.fbo);
  // Still bound to unit 0 in B when A deleted its name: the object lives on here.
  DrawCell(s.program, b.vao_color, 1, 2, 1);  // magenta
  // GL: a change made in another context is guaranteed visible once the object is bound again.
  glBindVertexArray(b.vao_color);
  glBindBuffer(GL_ARRAY_BUFFER, s.color_buffer);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
  DrawCell(s.program, b.vao_color, 0, 0, 1);  // blue
  glBindTexture(GL_TEXTURE_2D, s.texture);
  DrawCell(s.program, b.vao_color, 1, 1, 1);  // yellow
  DrawCell(s.program, b.vao_doomed, 0, 3, 1);  // the vertex array still holds the deleted buffer: white
  glUseProgram(s.relinked);
  DrawCell(s.relinked, b.vao_color, 0, 4, 1);  // relinked: orange
  auto px = harness::ReadRGBA(kSize, kSize);
  CHECK_GL_ERROR(GL_NO_ERROR);
  std::string l = label;
  CHECK(CellIs(px, 0, 0, kRed, (l + ": buffer read before glBufferData in another context").c_str()));
  CHECK(CellIs(px, 1, 0, kGreen, (l + ": texture sampled before glTexImage2D in another context").c_str()));
  CHECK(CellIs(px, 2, 0, kMagenta, (l + ": texture sampled before its deletion").c_str()));
  CHECK(CellIs(px, 3, 0, kWhite, (l + ": buffer read before its deletion").c_str()));
  CHECK(CellIs(px, 4, 0, kCyan, (l + ": program used before its relink").c_str()));
  CHECK(CellIs(px, 0, 1, kBlue, (l + ": re-specified buffer after re-binding").c_str()));
  CHECK(CellIs(px, 1, 1, kYellow, (l + ": re-specified texture after re-binding").c_str()));
  CHECK(CellIs(px, 2, 1, kMagenta, (l + ": deleted texture still bound in this context").c_str()));
  CHECK(CellIs(px, 3, 1, kWhite, (l + ": deleted buffer still held by a vertex array").c_str()));
  CHECK(CellIs(px, 4, 1, kOrange, (l + ": relinked program").c_str()));
}

void OneThread(harness::Window& w) {
  EGLContext a = w.context;
  Shared s = CreateShared();
  EGLContext bctx = harness::CreateContext(w, a);
  CHECK(eglMakeCurrent(w.display, w.surface, w.surface, bctx));
  ContextB b = SetUpB(s);
  BDrawsBefore(s, b);
  CHECK(eglMakeCurrent(w.display, w.surface, w.surface, a));  // flushes B; its work is still pending
  AChanges(s);
  CHECK(eglMakeCurrent(w.display, w.surface, w.surface, bctx));
  BChecksAfter(s, b, "one thread");
  CHECK(eglMakeCurrent(w.display, w.surface, w.surface, a));
  eglDestroyContext(w.display, bctx);
}

// B lives on a second thread; the two hand over in the same order as above, each context staying current
// on its own thread (so nothing is flushed by make-current).
void TwoThreads(harness::Window& w) {
  EGLContext a = w.context;
  Shared s = CreateShared();
  EGLContext bctx = harness::CreateContext(w, a);
  std::mutex m;
  std::condition_variable cv;
  int step = 0;
  auto wait_for = [&](int n) {
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return step >= n; });
  };
  auto advance = [&] {
    {
      std::lock_guard lock(m);
      ++step;
    }
    cv.notify_all();
  };
  std::thread tb([&] {
    if (!eglMakeCurrent(w.display, EGL_NO_SURFACE, EGL_NO_SURFACE, bctx)) {
      std::fprintf(stderr, "eglMakeCurrent on the second thread failed\n");
      std::exit(1);
    }
    ContextB b = SetUpB(s);
    BDrawsBefore(s, b);
    glFlush();  // GL: A sees nothing of B's before this; B's work may still be on the device
    advance();  // 1: B has drawn
    wait_for(2);
    BChecksAfter(s, b, "two threads");
    eglMakeCurrent(w.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  });
  wait_for(1);
  AChanges(s);
  advance();  // 2: A has changed everything
  tb.join();
  eglDestroyContext(w.display, bctx);
}

// A context destroyed with unflushed draws that read shared objects, which A then deletes: no crash, no
// use of freed storage (validation), and A keeps rendering.
void DestroyedWithPendingWork(harness::Window& w) {
  EGLContext a = w.context;
  Shared s = CreateShared();
  EGLContext bctx = harness::CreateContext(w, a);
  CHECK(eglMakeCurrent(w.display, w.surface, w.surface, bctx));
  ContextB b = SetUpB(s);
  BDrawsBefore(s, b);
  CHECK(eglMakeCurrent(w.display, w.surface, w.surface, a));
  eglDestroyContext(w.display, bctx);
  FillColorBuffer(s.color_buffer, kBlue);
  glDeleteTextures(1, &s.texture);
  glDeleteBuffers(1, &s.color_buffer);
  glDeleteProgram(s.program);
  glFinish();
  CHECK_GL_ERROR(GL_NO_ERROR);
  // A still draws: its own target, the relinked-free constant program.
  GLuint fbo = harness::ColorTarget(kSize, kSize);
  glViewport(0, 0, kSize, kSize);
  const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  GLuint positions;
  glGenBuffers(1, &positions);
  glBindBuffer(GL_ARRAY_BUFFER, positions);
  glBufferData(GL_ARRAY_BUFFER, sizeof(quad), quad, GL_STATIC_DRAW);
  GLuint vao = MakeVao(positions, s.doomed_buffer);
  DrawCell(s.relinked, vao, 0, 0, 0);
  auto px = harness::ReadRGBA(kSize, kSize);
  CHECK(CellIs(px, 0, 0, kCyan, "A draws after B was destroyed with pending work"));
  glDeleteFramebuffers(1, &fbo);
}

}  // namespace

int main() {
  harness::Window w = harness::Open(kSize, kSize);
  harness::PrintVendor();
  OneThread(w);
  TwoThreads(w);
  DestroyedWithPendingWork(w);
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);
  return harness::Summary();
}
