// Robust contexts, desktop GL through EGL 1.5's attribute names and ES through
// EGL_EXT_create_context_robustness's (the extension is written for ES; Mesa refuses its names for desktop
// contexts, Caldera takes both), on Caldera and on Mesa llvmpipe with the same binary:
//   gl_robust_context gl|es — a robust-access context that loses itself on reset: GL_CONTEXT_ROBUST_ACCESS
//   and GL_RESET_NOTIFICATION_STRATEGY say so, the
//     reset status is GL_NO_ERROR, and a uniform block read far past the end of a small bound buffer gives
//     either the buffer's own values or zero (what robust buffer access promises), never a crash;
//   gl_robust_context refused — run with CALDERA_ROBUST_BUFFER_ACCESS=0 (the device bounds nothing): a
//     robust-access context is EGL_BAD_MATCH (and GL_KHR_robustness is not listed), while one asking only
//     for reset notification is made.
#include <cstring>

#include "gl_harness.h"

namespace {

constexpr int kSize = 8;
constexpr GLenum kContextRobustAccess = 0x90F3;        // GL_CONTEXT_ROBUST_ACCESS(_EXT/_KHR)
constexpr GLenum kResetNotificationStrategy = 0x8256;  // GL_RESET_NOTIFICATION_STRATEGY(_EXT/_KHR)
constexpr GLenum kLoseContextOnReset = 0x8252;

EGLContext CreateRobust(const harness::Window& w, bool es, bool robust_access) {
  EGLConfig config = nullptr;
  EGLint n = 0, id = 0;
  eglQueryContext(w.display, w.context, EGL_CONFIG_ID, &id);
  const EGLint by_id[] = {EGL_CONFIG_ID, id, EGL_NONE};
  eglChooseConfig(w.display, by_id, &config, 1, &n);
  const EGLint gl_attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                               3,
                               EGL_CONTEXT_MINOR_VERSION,
                               3,
                               EGL_CONTEXT_OPENGL_PROFILE_MASK,
                               EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                               EGL_CONTEXT_OPENGL_ROBUST_ACCESS,
                               robust_access ? EGL_TRUE : EGL_FALSE,
                               EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY,
                               EGL_LOSE_CONTEXT_ON_RESET,
                               EGL_NONE};
  const EGLint es_attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                               3,
                               EGL_CONTEXT_MINOR_VERSION,
                               0,
                               EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT,
                               robust_access ? EGL_TRUE : EGL_FALSE,
                               EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT,
                               EGL_LOSE_CONTEXT_ON_RESET_EXT,
                               EGL_NONE};
  return eglCreateContext(w.display, config, EGL_NO_CONTEXT, es ? es_attribs : gl_attribs);
}

const char* kVsGl = R"(#version 330 core
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); })";
const char* kFsGl = R"(#version 330 core
layout(std140) uniform Data { vec4 values[256]; };
uniform int index;
out vec4 frag;
void main() { frag = values[index]; })";
const char* kVsEs = R"(#version 300 es
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); })";
const char* kFsEs = R"(#version 300 es
precision highp float;
precision highp int;
layout(std140) uniform Data { vec4 values[256]; };
uniform int index;
out vec4 frag;
void main() { frag = values[index]; })";

// Draws values[index] from a uniform buffer of 4 vec4s (all green) bound whole, reads the centre.
void DrawBlockRead(bool es, int index, uint8_t px[4]) {
  static GLuint program = 0;
  if (!program) {
    program = harness::CompileProgram(es ? kVsEs : kVsGl, es ? kFsEs : kFsGl);
    const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
    harness::Positions2D(quad, 8);
    const float green[16] = {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1};
    GLuint ubo = 0;
    glGenBuffers(1, &ubo);
    glBindBuffer(GL_UNIFORM_BUFFER, ubo);
    glBufferData(GL_UNIFORM_BUFFER, sizeof(green), green, GL_STATIC_DRAW);
    glBindBufferBase(GL_UNIFORM_BUFFER, 0, ubo);
    glUniformBlockBinding(program, glGetUniformBlockIndex(program, "Data"), 0);
  }
  glUseProgram(program);
  glUniform1i(glGetUniformLocation(program, "index"), index);
  glViewport(0, 0, kSize, kSize);
  glClearColor(1, 0, 1, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glReadPixels(kSize / 2, kSize / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
}

bool ListsExtension(const char* name) {
  GLint n = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &n);
  for (GLint i = 0; i < n; ++i)
    if (std::strcmp(reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, i)), name) == 0) return true;
  return false;
}

int Robust(bool es) {
  harness::Window w = harness::Open(kSize, kSize, es);
  EGLContext robust = CreateRobust(w, es, true);
  CHECK(robust != EGL_NO_CONTEXT);
  if (robust == EGL_NO_CONTEXT) return harness::Summary();
  CHECK(eglMakeCurrent(w.display, w.surface, w.surface, robust));
  eglDestroyContext(w.display, w.context);
  w.context = robust;
  harness::PrintVendor();
  CHECK(ListsExtension(es ? "GL_EXT_robustness" : "GL_KHR_robustness"));
  GLint value = 0;
  glGetIntegerv(kContextRobustAccess, &value);
  CHECK(value == GL_TRUE);
  glGetIntegerv(kResetNotificationStrategy, &value);
  CHECK(value == GLint(kLoseContextOnReset));
  CHECK(glGetGraphicsResetStatus() == GL_NO_ERROR);
  CHECK_GL_ERROR(GL_NO_ERROR);

  uint8_t px[4] = {};
  DrawBlockRead(es, 2, px);  // inside the buffer: green
  CHECK(px[0] == 0 && px[1] == 255 && px[2] == 0 && px[3] == 255);
  for (int index : {4, 100, 255}) {  // past the 64 bytes bound: the buffer's own values or zero
    DrawBlockRead(es, index, px);
    const bool in_buffer = px[0] == 0 && px[1] == 255 && px[2] == 0 && px[3] == 255;
    const bool zero = px[0] == 0 && px[1] == 0 && px[2] == 0 && (px[3] == 0 || px[3] == 255);
    std::printf("values[%d] past the buffer reads %d %d %d %d\n", index, px[0], px[1], px[2], px[3]);
    CHECK(in_buffer || zero);
  }
  CHECK(glGetGraphicsResetStatus() == GL_NO_ERROR);
  harness::Close(w);
  return harness::Summary();
}

// With the device's bounds off, robust access cannot be promised; reset notification alone still can.
int Refused() {
  harness::Window w = harness::Open(kSize, kSize);
  harness::PrintVendor();
  CHECK(!ListsExtension("GL_KHR_robustness"));  // it promises robust access, which this device cannot give
  CHECK(CreateRobust(w, false, true) == EGL_NO_CONTEXT);
  CHECK(eglGetError() == EGL_BAD_MATCH);
  EGLContext reset_only = CreateRobust(w, false, false);
  CHECK(reset_only != EGL_NO_CONTEXT);
  if (reset_only != EGL_NO_CONTEXT) eglDestroyContext(w.display, reset_only);
  harness::Close(w);
  return harness::Summary();
}

}  // namespace

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "gl";
  if (std::strcmp(mode, "refused") == 0) return Refused();
  return Robust(std::strcmp(mode, "es") == 0);
}
