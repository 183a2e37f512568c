// Robust contexts, desktop GL through EGL 1.5's attribute names and ES through
// EGL_EXT_create_context_robustness's (the extension is written for ES; Mesa refuses its names for desktop
// contexts, Caldera takes both), on Caldera and on Mesa llvmpipe with the same binary:
//   gl_robust_context gl|es — a robust-access context that loses itself on reset: GL_CONTEXT_ROBUST_ACCESS
//   and GL_RESET_NOTIFICATION_STRATEGY say so, the
//     reset status is GL_NO_ERROR, and a uniform block read far past the end of a small bound buffer gives
//     either the buffer's own values or zero (what robust buffer access promises), never a crash;
//     Desktop contexts also list GL_ARB_robustness, whose bounded queries (glGetnTexImageARB,
//     glGetnCompressedTexImageARB, glGetnUniformdvARB) fail with GL_INVALID_OPERATION and write nothing when
//     bufSize bytes cannot hold the result, and fill exactly the result when they can;
//   gl_robust_context noerror — a GL_KHR_no_error context (EGL_KHR_create_context_no_error) lists the
//     extension and reports GL_CONTEXT_FLAG_NO_ERROR_BIT_KHR; no-error with the debug flag is EGL_BAD_MATCH;
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

template <typename F>
F Proc(const char* name) {
  return reinterpret_cast<F>(eglGetProcAddress(name));
}

// GL_ARB_robustness's bounded queries: too small a bufSize is GL_INVALID_OPERATION with nothing written.
void BoundedQueries() {
  auto get_tex = Proc<void (*)(GLenum, GLint, GLenum, GLenum, GLsizei, void*)>("glGetnTexImageARB");
  auto get_compressed = Proc<void (*)(GLenum, GLint, GLsizei, void*)>("glGetnCompressedTexImageARB");
  auto get_uniform = Proc<void (*)(GLuint, GLint, GLsizei, GLdouble*)>("glGetnUniformdvARB");
  CHECK(get_tex && get_compressed && get_uniform);
  if (!get_tex || !get_compressed || !get_uniform) return;
  GLuint tex[2];
  glGenTextures(2, tex);
  glBindTexture(GL_TEXTURE_2D, tex[0]);
  const uint8_t texels[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  uint8_t out[20];
  std::memset(out, 0xee, sizeof out);
  get_tex(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, 15, out);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(out[0] == 0xee);
  get_tex(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, 16, out);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(std::memcmp(out, texels, 16) == 0 && out[16] == 0xee);
  // One 4x4 RGTC1 block: 8 bytes.
  glBindTexture(GL_TEXTURE_2D, tex[1]);
  const uint8_t block[8] = {200, 10, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24};
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 4, 4, 0, 8, block);
  CHECK_GL_ERROR(GL_NO_ERROR);
  std::memset(out, 0xee, sizeof out);
  get_compressed(GL_TEXTURE_2D, 0, 7, out);
  // Mesa (23.x llvmpipe) does not bound this query: it writes the 8 bytes without an error.
  if (std::strstr(reinterpret_cast<const char*>(glGetString(GL_VENDOR)), "Caldera")) {
    CHECK_GL_ERROR(GL_INVALID_OPERATION);
    CHECK(out[0] == 0xee);
  }
  glGetError();
  get_compressed(GL_TEXTURE_2D, 0, 8, out);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(std::memcmp(out, block, 8) == 0 && out[8] == 0xee);
  glDeleteTextures(2, tex);
  // A vec2 uniform read as doubles: 16 bytes.
  const GLuint program = harness::CompileProgram(
      kVsGl, "#version 330 core\nuniform vec2 tint;\nout vec4 frag;\nvoid main() { frag = vec4(tint, 0, 1); }");
  const GLint location = glGetUniformLocation(program, "tint");
  glUseProgram(program);
  glUniform2f(location, 0.5f, -2.0f);
  GLdouble d[3] = {7, 7, 7};
  get_uniform(program, location, 15, d);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(d[0] == 7);
  get_uniform(program, location, 16, d);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(d[0] == 0.5 && d[1] == -2.0 && d[2] == 7);
  glUseProgram(0);
  glDeleteProgram(program);
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
  if (!es) {
    CHECK(ListsExtension("GL_ARB_robustness"));
    BoundedQueries();
  }
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

// GL_KHR_no_error: the flag a no-error context reports; no-error cannot be combined with debug.
int NoError() {
  harness::Window w = harness::Open(kSize, kSize);
  EGLConfig config = nullptr;
  EGLint n = 0, id = 0;
  eglQueryContext(w.display, w.context, EGL_CONFIG_ID, &id);
  const EGLint by_id[] = {EGL_CONFIG_ID, id, EGL_NONE};
  eglChooseConfig(w.display, by_id, &config, 1, &n);
  const EGLint with_debug[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                               EGL_CONTEXT_OPENGL_NO_ERROR_KHR, EGL_TRUE, EGL_CONTEXT_OPENGL_DEBUG, EGL_TRUE,
                               EGL_NONE};
  CHECK(eglCreateContext(w.display, config, EGL_NO_CONTEXT, with_debug) == EGL_NO_CONTEXT);
  CHECK(eglGetError() == EGL_BAD_MATCH);
  const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                            EGL_CONTEXT_OPENGL_NO_ERROR_KHR, EGL_TRUE, EGL_NONE};
  EGLContext no_error = eglCreateContext(w.display, config, EGL_NO_CONTEXT, attribs);
  CHECK(no_error != EGL_NO_CONTEXT);
  if (no_error == EGL_NO_CONTEXT) return harness::Summary();
  CHECK(eglMakeCurrent(w.display, w.surface, w.surface, no_error));
  eglDestroyContext(w.display, w.context);
  w.context = no_error;
  harness::PrintVendor();
  CHECK(ListsExtension("GL_KHR_no_error"));
  GLint flags = 0;
  glGetIntegerv(GL_CONTEXT_FLAGS, &flags);
  CHECK((flags & GL_CONTEXT_FLAG_NO_ERROR_BIT_KHR) != 0);
  CHECK((flags & GL_CONTEXT_FLAG_DEBUG_BIT) == 0);
  // A validating context cannot share with a no-error one.
  const EGLint validating[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3, EGL_NONE};
  CHECK(eglCreateContext(w.display, config, no_error, validating) == EGL_NO_CONTEXT);
  CHECK(eglGetError() == EGL_BAD_MATCH);
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
  if (std::strcmp(mode, "noerror") == 0) return NoError();
  return Robust(std::strcmp(mode, "es") == 0);
}
