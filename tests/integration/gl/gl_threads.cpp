// Threads rendering at once, each with its own context: two in one share group (drawing from a shared
// buffer that one of them keeps re-specifying) and two with their own groups. Every thread checks its own
// pixels every frame; nothing waits for another thread. Run plainly, under validation with sync
// validation, and once under ThreadSanitizer (docs/RELIABILITY.md).
#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "gl_harness.h"

namespace {

constexpr int kSize = 32;
constexpr int kFrames = 150;

const char* kVs = R"(#version 330 core
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 color;
out vec4 v_color;
void main() { v_color = color; gl_Position = vec4(pos, 0.0, 1.0); })";
const char* kFs = R"(#version 330 core
in vec4 v_color;
uniform vec4 tint;
out vec4 frag;
void main() { frag = v_color * tint; })";

struct Shared {
  EGLDisplay display;
};

void FillColors(GLuint buffer, float r, float g, float b) {
  const float c[] = {r, g, b, 1, r, g, b, 1, r, g, b, 1, r, g, b, 1};
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferData(GL_ARRAY_BUFFER, sizeof(c), c, GL_DYNAMIC_DRAW);
}

// One thread's life: surfaceless context, its own framebuffer, kFrames frames each checked. `colors` is a
// buffer of the share group (0: make one); `respecify` re-specifies it every frame (same contents).
void Render(const Shared& s, EGLContext context, GLuint colors, bool respecify, float tint_red,
            std::atomic<int>* failures) {
  if (!eglMakeCurrent(s.display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    ++*failures;
    return;
  }
  GLuint fbo = harness::ColorTarget(kSize, kSize);
  GLuint program = harness::CompileProgram(kVs, kFs);
  GLint tint = glGetUniformLocation(program, "tint");
  GLuint vao, positions;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  glGenBuffers(1, &positions);
  glBindBuffer(GL_ARRAY_BUFFER, positions);
  glBufferData(GL_ARRAY_BUFFER, sizeof(quad), quad, GL_STATIC_DRAW);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  if (!colors) {
    glGenBuffers(1, &colors);
    FillColors(colors, 1, 1, 1);
  }
  glBindBuffer(GL_ARRAY_BUFFER, colors);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(1);
  glUseProgram(program);
  glViewport(0, 0, kSize, kSize);
  for (int frame = 0; frame < kFrames; ++frame) {
    if (respecify) {
      FillColors(colors, 1, 1, 1);  // the other context of the group draws from it meanwhile
      glBindVertexArray(vao);
      glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
    }
    float g = float(frame % 5) / 4.0f;
    glUniform4f(tint, tint_red, g, 1.0f, 1.0f);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    uint8_t px[4] = {};
    glReadPixels(kSize / 2, kSize / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    auto near = [](int a, int b) { return a - b <= 1 && b - a <= 1; };
    if (!near(px[0], int(tint_red * 255 + 0.5f)) || !near(px[1], int(g * 255 + 0.5f)) || px[2] != 255) {
      std::fprintf(stderr, "  thread tint %.2f frame %d: %d,%d,%d\n", tint_red, frame, px[0], px[1], px[2]);
      ++*failures;
    }
  }
  if (glGetError() != GL_NO_ERROR) ++*failures;
  glDeleteFramebuffers(1, &fbo);
  glDeleteProgram(program);
  eglMakeCurrent(s.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

}  // namespace

int main() {
  harness::Window w = harness::Open(kSize, kSize);
  harness::PrintVendor();
  Shared s{w.display};
  // The shared buffer is made by the main context, which then lets go of the thread.
  GLuint shared_colors;
  glGenBuffers(1, &shared_colors);
  FillColors(shared_colors, 1, 1, 1);
  glFinish();
  std::vector<EGLContext> contexts = {harness::CreateContext(w, w.context), harness::CreateContext(w, w.context),
                                      harness::CreateContext(w, EGL_NO_CONTEXT),
                                      harness::CreateContext(w, EGL_NO_CONTEXT)};
  eglMakeCurrent(w.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  threads.emplace_back(Render, std::cref(s), contexts[0], shared_colors, true, 1.0f, &failures);
  threads.emplace_back(Render, std::cref(s), contexts[1], shared_colors, false, 0.5f, &failures);
  threads.emplace_back(Render, std::cref(s), contexts[2], 0u, false, 0.25f, &failures);
  threads.emplace_back(Render, std::cref(s), contexts[3], 0u, true, 0.0f, &failures);
  for (auto& t : threads) t.join();
  CHECK(failures.load() == 0);
  for (EGLContext c : contexts) CHECK(eglDestroyContext(w.display, c) == EGL_TRUE);
  eglMakeCurrent(w.display, w.surface, w.surface, w.context);
  harness::Close(w);
  return harness::Summary();
}
