// Faults a driver meets, injected with CALDERA_TEST_FAULT (test-only):
//   gl_faults device-lost   (CALDERA_TEST_FAULT=device-lost@N) — a submission fails as a lost device: the
//     robust context reports GL_UNKNOWN_CONTEXT_RESET once, every later command records GL_CONTEXT_LOST
//     with no side effect, polling idioms end (sync status SIGNALED, query available TRUE, a wait returns),
//     eglSwapBuffers and eglMakeCurrent answer EGL_CONTEXT_LOST, and nothing crashes or hangs;
//   gl_faults stall         (CALDERA_TEST_FAULT=stall@N, CALDERA_GPU_TIMEOUT=1) — the queue stops as a hung
//     GPU's does: the wait gives up after the timeout and the context is lost as above, within seconds;
//   gl_faults oom           (CALDERA_TEST_FAULT=oom@N) — one object's storage cannot be allocated: glGetError
//     reports GL_OUT_OF_MEMORY after the sync point that applied it, and the program keeps going (the same
//     buffer specified again works and draws).
//   gl_faults oom-order     (CALDERA_TEST_FAULT=oom@A,oom@B) — glGetError reports errors in the order of the
//     calls that made them, a backend allocation failure among the GL errors the frontend finds at call
//     time: a failed allocation before an invalid enum comes first (without a sync point in between), one
//     after it comes second.
// Run without the variable, each mode must fail (negative controls: the fault is what the test sees).
#include <cstring>
#include <string>

#include "gl_harness.h"

namespace {

constexpr int kSize = 16;

const char* kVs = R"(#version 330 core
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 color;
out vec4 v_color;
void main() { v_color = color; gl_Position = vec4(pos, 0.0, 1.0); })";
const char* kFs = R"(#version 330 core
in vec4 v_color;
out vec4 frag;
void main() { frag = v_color; })";

// A robust context that asks to be told of resets (EGL_EXT_create_context_robustness / EGL 1.5).
harness::Window OpenRobust() {
  harness::Window w = harness::Open(kSize, kSize);
  const EGLint robust_attribs[] = {EGL_CONTEXT_OPENGL_ROBUST_ACCESS, EGL_TRUE,
                                   EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY, EGL_LOSE_CONTEXT_ON_RESET,
                                   EGL_NONE};
  EGLContext robust = harness::CreateContext(w, EGL_NO_CONTEXT, robust_attribs);
  eglMakeCurrent(w.display, w.surface, w.surface, robust);
  eglDestroyContext(w.display, w.context);
  w.context = robust;
  return w;
}

struct Scene {
  GLuint program = 0, vao = 0, positions = 0, colors = 0;
};

void FillColors(GLuint buffer, float r, float g, float b) {
  const float c[] = {r, g, b, 1, r, g, b, 1, r, g, b, 1, r, g, b, 1};
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferData(GL_ARRAY_BUFFER, sizeof(c), c, GL_STATIC_DRAW);
}

Scene MakeScene() {
  Scene s;
  s.program = harness::CompileProgram(kVs, kFs);
  glGenVertexArrays(1, &s.vao);
  glBindVertexArray(s.vao);
  const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  glGenBuffers(1, &s.positions);
  glBindBuffer(GL_ARRAY_BUFFER, s.positions);
  glBufferData(GL_ARRAY_BUFFER, sizeof(quad), quad, GL_STATIC_DRAW);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  glGenBuffers(1, &s.colors);
  FillColors(s.colors, 0, 1, 0);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(1);
  glUseProgram(s.program);
  glViewport(0, 0, kSize, kSize);
  return s;
}

bool CentreIs(uint8_t r, uint8_t g, uint8_t b) {
  uint8_t px[4] = {};
  glReadPixels(kSize / 2, kSize / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  return px[0] == r && px[1] == g && px[2] == b;
}

int DeviceLost() {
  harness::Window w = OpenRobust();
  harness::PrintVendor();
  GLint strategy = 0;
  glGetIntegerv(GL_RESET_NOTIFICATION_STRATEGY, &strategy);
  CHECK(strategy == GL_LOSE_CONTEXT_ON_RESET);
  CHECK(glGetGraphicsResetStatus() == GL_NO_ERROR);
  Scene s = MakeScene();
  // Frames until the injected loss strikes (the fault counts submissions from the start).
  int frames = 0;
  bool lost = false;
  for (; frames < 20 && !lost; ++frames) {
    glClear(GL_COLOR_BUFFER_BIT);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glFinish();
    bool green = CentreIs(0, 255, 0);  // the readback submits too: the loss may strike here
    GLenum status = glGetGraphicsResetStatus();
    lost = status != GL_NO_ERROR;
    if (lost) {
      CHECK(status == GL_UNKNOWN_CONTEXT_RESET);
    } else {
      CHECK(green);
      CHECK_GL_ERROR(GL_NO_ERROR);
    }
  }
  std::printf("device lost after %d frames\n", frames);
  CHECK(lost);
  if (!lost) {
    harness::Close(w);
    return harness::Summary();
  }
  // Reported once; the context stays lost.
  CHECK(glGetGraphicsResetStatus() == GL_NO_ERROR);
  while (glGetError() != GL_NO_ERROR) {
  }
  // Every command: GL_CONTEXT_LOST, no side effect.
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  CHECK_GL_ERROR(GL_CONTEXT_LOST);
  uint8_t px[4] = {1, 2, 3, 4};
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  CHECK_GL_ERROR(GL_CONTEXT_LOST);
  CHECK(px[0] == 1 && px[1] == 2 && px[2] == 3 && px[3] == 4);  // memory passed by pointer untouched
  GLint value = 1234;
  glGetIntegerv(GL_VIEWPORT, &value);
  CHECK_GL_ERROR(GL_CONTEXT_LOST);
  CHECK(value == 1234);
  GLuint created = 77;
  glGenBuffers(1, &created);
  CHECK_GL_ERROR(GL_CONTEXT_LOST);
  CHECK(glIsBuffer(s.colors) == GL_FALSE);  // returns 0
  CHECK_GL_ERROR(GL_CONTEXT_LOST);
  glFinish();  // returns, never waits on a lost device
  CHECK_GL_ERROR(GL_CONTEXT_LOST);
  // Polling idioms end.
  GLsync sync = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);  // returns 0 on a lost context
  CHECK_GL_ERROR(GL_CONTEXT_LOST);
  CHECK(glClientWaitSync(sync, GL_SYNC_FLUSH_COMMANDS_BIT, 0) != GL_TIMEOUT_EXPIRED);
  CHECK_GL_ERROR(GL_CONTEXT_LOST);
  GLuint available = 0;
  glGetQueryObjectuiv(1, GL_QUERY_RESULT_AVAILABLE, &available);
  CHECK(available == GL_TRUE);
  while (glGetError() != GL_NO_ERROR) {
  }
  // EGL: the swap and making the context current again report the loss.
  CHECK(eglSwapBuffers(w.display, w.surface) == EGL_FALSE);
  CHECK(eglGetError() == EGL_CONTEXT_LOST);
  CHECK(eglMakeCurrent(w.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT) == EGL_TRUE);
  CHECK(eglMakeCurrent(w.display, w.surface, w.surface, w.context) == EGL_FALSE);
  CHECK(eglGetError() == EGL_CONTEXT_LOST);
  // Destroying and terminating neither hangs nor crashes.
  CHECK(eglDestroyContext(w.display, w.context) == EGL_TRUE);
  eglDestroySurface(w.display, w.surface);
  CHECK(eglTerminate(w.display) == EGL_TRUE);
  return harness::Summary();
}

// Debug output of out-of-band failures: the GL_OUT_OF_MEMORY glGetError takes is also a message.
struct OomMessages {
  int count = 0;
  bool fields_ok = true;
};
void APIENTRY RecordOom(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei, const GLchar*,
                        const void* user) {
  auto* m = static_cast<OomMessages*>(const_cast<void*>(user));
  if (id != GL_OUT_OF_MEMORY) return;
  ++m->count;
  m->fields_ok &=
      source == GL_DEBUG_SOURCE_API && type == GL_DEBUG_TYPE_ERROR && severity == GL_DEBUG_SEVERITY_HIGH;
}

int OutOfMemory() {
  harness::Window w = harness::Open(kSize, kSize);
  harness::PrintVendor();
  Scene s = MakeScene();
  glFinish();
  CHECK_GL_ERROR(GL_NO_ERROR);
  OomMessages messages;
  glEnable(GL_DEBUG_OUTPUT);
  glDebugMessageCallback(RecordOom, &messages);
  // Buffers until one cannot be allocated (the fault counts object storage creations from the start).
  int oom_at = -1;
  GLuint buffers[16];
  glGenBuffers(16, buffers);
  for (int i = 0; i < 16 && oom_at < 0; ++i) {
    FillColors(buffers[i], 0, 0, 1);
    glFinish();  // the sync point that applies the allocation
    GLenum e = glGetError();
    if (e == GL_OUT_OF_MEMORY) {
      oom_at = i;
    } else {
      CHECK(e == GL_NO_ERROR);
    }
  }
  std::printf("GL_OUT_OF_MEMORY at buffer %d\n", oom_at);
  CHECK(oom_at >= 0);
  CHECK(messages.count == 1 && messages.fields_ok);
  glDebugMessageCallback(nullptr, nullptr);
  if (oom_at < 0) {
    harness::Close(w);
    return harness::Summary();
  }
  // The program keeps going: it frees something and specifies the buffer again; it draws with it.
  glDeleteBuffers(1, &buffers[0]);
  FillColors(buffers[oom_at], 1, 0, 0);
  glBindVertexArray(s.vao);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
  glClear(GL_COLOR_BUFFER_BIT);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  CHECK(CentreIs(255, 0, 0));
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(glGetGraphicsResetStatus() == GL_NO_ERROR);  // an allocation failure is not a reset
  harness::Close(w);
  return harness::Summary();
}

// Specifies buffers[first..last) with no sync point in between.
void FillMany(const GLuint* buffers, int first, int last) {
  for (int i = first; i < last; ++i) FillColors(buffers[i], 0, 0, 1);
}

int OutOfMemoryOrder() {
  harness::Window w = harness::Open(kSize, kSize);
  harness::PrintVendor();
  Scene s = MakeScene();
  glFinish();
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLuint buffers[32];
  glGenBuffers(32, buffers);
  // The first injected failure lies among these allocations; the invalid enum comes after all of them.
  FillMany(buffers, 0, 16);
  glEnable(0x1234);  // GL_INVALID_ENUM, found on the GL thread at the call
  GLenum first = glGetError(), second = glGetError(), third = glGetError();
  std::printf("failure, then a bad enum: 0x%04x 0x%04x 0x%04x\n", first, second, third);
  CHECK(first == GL_OUT_OF_MEMORY);
  CHECK(second == GL_INVALID_ENUM);
  CHECK(third == GL_NO_ERROR);
  // The other way round: the bad enum first, the second injected failure in the allocations after it.
  glEnable(0x1234);
  FillMany(buffers, 16, 32);
  glFinish();  // applies the allocations
  first = glGetError(), second = glGetError(), third = glGetError();
  std::printf("a bad enum, then a failure: 0x%04x 0x%04x 0x%04x\n", first, second, third);
  CHECK(first == GL_INVALID_ENUM);
  CHECK(second == GL_OUT_OF_MEMORY);
  CHECK(third == GL_NO_ERROR);
  // The context keeps working.
  glBindVertexArray(s.vao);
  glClear(GL_COLOR_BUFFER_BIT);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  CHECK(CentreIs(0, 255, 0));
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);
  return harness::Summary();
}

}  // namespace

int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "device-lost" || mode == "stall") return DeviceLost();
  if (mode == "oom") return OutOfMemory();
  if (mode == "oom-order") return OutOfMemoryOrder();
  std::fprintf(stderr, "usage: gl_faults device-lost|stall|oom|oom-order\n");
  return 2;
}
