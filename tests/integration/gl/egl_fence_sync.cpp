// EGL fence syncs (EGL 1.5 core, EGL_KHR_fence_sync, EGL_KHR_wait_sync) through glvnd, on Caldera and on
// Mesa llvmpipe in the same run:
//  - the extensions are listed (GL_OES_EGL_sync in ES contexts too) and their KHR entry points resolve
//    (glvnd reaches them through dispatch stubs);
//  - the errors EGL names: an unknown type or attribute, no current context, a destroyed sync, bad flags;
//  - a fence is a real fence: created behind slow work it is not yet signalled (a zero-timeout wait expires,
//    EGL_SYNC_STATUS is EGL_UNSIGNALED), and a wait for ever returns once the work is done, with its pixels;
//  - another thread with no context waits on it, while this thread's EGL calls go on (the wait holds no EGL
//    lock), and eglDestroySync during that wait leaves the wait to finish;
//  - eglWaitSyncKHR orders a second, shared context's commands after the fence.
#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

#include "gl_harness.h"

namespace {

constexpr int kSize = 256;

PFNEGLCREATESYNCKHRPROC CreateSyncKHR;
PFNEGLDESTROYSYNCKHRPROC DestroySyncKHR;
PFNEGLCLIENTWAITSYNCKHRPROC ClientWaitSyncKHR;
PFNEGLGETSYNCATTRIBKHRPROC GetSyncAttribKHR;
PFNEGLWAITSYNCKHRPROC WaitSyncKHR;

const char* kVs = R"(#version 330 core
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); })";
// Slow on purpose: `iterations` rounds per pixel. The output depends on the loop (blue is 1 unless the sum
// is below -1e30, which it never is), so no compiler can drop it.
const char* kFs = R"(#version 330 core
uniform int iterations;
out vec4 frag;
void main() {
  float acc = gl_FragCoord.x;
  for (int i = 0; i < iterations; ++i) acc = sin(acc) * 1.0001 + cos(acc * 0.5);
  frag = vec4(0.0, 1.0, step(-1e30, acc), 1.0);
})";

bool HasExtension(EGLDisplay dpy, const char* name) {
  const char* list = eglQueryString(dpy, EGL_EXTENSIONS);
  if (!list) return false;
  const size_t n = std::strlen(name);
  for (const char* p = std::strstr(list, name); p; p = std::strstr(p + 1, name))
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
  return false;
}

// Slow work into the bound framebuffer: `passes` full-screen quads of `iterations` rounds per pixel.
void SlowDraw(GLuint program, int iterations, int passes) {
  glUseProgram(program);
  glUniform1i(glGetUniformLocation(program, "iterations"), iterations);
  glClearColor(1, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  for (int i = 0; i < passes; ++i) glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

bool CentreIsCyan() {
  uint8_t px[4] = {};
  glReadPixels(kSize / 2, kSize / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  return px[0] == 0 && px[1] == 255 && px[2] == 255;
}

void Errors(const harness::Window& w) {
  EGLDisplay dpy = w.display;
  // An unknown type: EGL_KHR_fence_sync names EGL_BAD_ATTRIBUTE, EGL 1.5's eglCreateSync EGL_BAD_PARAMETER.
  CHECK(CreateSyncKHR(dpy, 0x1234, nullptr) == EGL_NO_SYNC_KHR);
  CHECK(eglGetError() == EGL_BAD_ATTRIBUTE);
  CHECK(eglCreateSync(dpy, 0x1234, nullptr) == EGL_NO_SYNC);
  CHECK(eglGetError() == EGL_BAD_PARAMETER);
  const EGLint attribs[] = {EGL_SYNC_STATUS_KHR, EGL_SIGNALED_KHR, EGL_NONE};
  CHECK(CreateSyncKHR(dpy, EGL_SYNC_FENCE_KHR, attribs) == EGL_NO_SYNC_KHR);
  CHECK(eglGetError() == EGL_BAD_ATTRIBUTE);

  EGLSyncKHR sync = CreateSyncKHR(dpy, EGL_SYNC_FENCE_KHR, nullptr);
  CHECK(sync != EGL_NO_SYNC_KHR);
  EGLint value = 0;
  CHECK(GetSyncAttribKHR(dpy, sync, EGL_SYNC_TYPE_KHR, &value) && value == EGL_SYNC_FENCE_KHR);
  CHECK(GetSyncAttribKHR(dpy, sync, EGL_SYNC_CONDITION_KHR, &value) &&
        value == EGL_SYNC_PRIOR_COMMANDS_COMPLETE_KHR);
  CHECK(!GetSyncAttribKHR(dpy, sync, EGL_WIDTH, &value));
  CHECK(eglGetError() == EGL_BAD_ATTRIBUTE);
  CHECK(WaitSyncKHR(dpy, sync, 1) == EGL_FALSE);
  CHECK(eglGetError() == EGL_BAD_PARAMETER);
  CHECK(ClientWaitSyncKHR(dpy, sync, EGL_SYNC_FLUSH_COMMANDS_BIT_KHR, EGL_FOREVER_KHR) ==
        EGL_CONDITION_SATISFIED_KHR);
  CHECK(DestroySyncKHR(dpy, sync));
  CHECK(!DestroySyncKHR(dpy, sync));
  CHECK(eglGetError() == EGL_BAD_PARAMETER);
  CHECK(!GetSyncAttribKHR(dpy, sync, EGL_SYNC_STATUS_KHR, &value));
  CHECK(eglGetError() == EGL_BAD_PARAMETER);

  // A fence goes into the current context: none is current, so there is nothing to put it in.
  eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  CHECK(CreateSyncKHR(dpy, EGL_SYNC_FENCE_KHR, nullptr) == EGL_NO_SYNC_KHR);
  CHECK(eglGetError() == EGL_BAD_MATCH);
  CHECK(eglCreateSync(dpy, EGL_SYNC_FENCE, nullptr) == EGL_NO_SYNC);
  CHECK(eglGetError() == EGL_BAD_MATCH);
  eglMakeCurrent(dpy, w.surface, w.surface, w.context);
}

// Slow work, then a fence: not signalled at first (tried with more work each time, at most 4 times, so a
// fast machine still sees it), then signalled by a wait for ever, with the work's pixels.
void RealFence(const harness::Window& w, GLuint program) {
  EGLDisplay dpy = w.display;
  bool seen_unsignalled = false;
  int iterations = 200;
  for (int attempt = 0; attempt < 4 && !seen_unsignalled; ++attempt, iterations *= 3) {
    SlowDraw(program, iterations, 2);
    EGLSyncKHR sync = CreateSyncKHR(dpy, EGL_SYNC_FENCE_KHR, nullptr);
    CHECK(sync != EGL_NO_SYNC_KHR);
    EGLint status = 0;
    CHECK(GetSyncAttribKHR(dpy, sync, EGL_SYNC_STATUS_KHR, &status));
    const EGLint polled = ClientWaitSyncKHR(dpy, sync, 0, 0);
    CHECK(polled == EGL_TIMEOUT_EXPIRED_KHR || polled == EGL_CONDITION_SATISFIED_KHR);
    seen_unsignalled = status == EGL_UNSIGNALED_KHR && polled == EGL_TIMEOUT_EXPIRED_KHR;
    const auto start = std::chrono::steady_clock::now();
    CHECK(ClientWaitSyncKHR(dpy, sync, EGL_SYNC_FLUSH_COMMANDS_BIT_KHR, EGL_FOREVER_KHR) ==
          EGL_CONDITION_SATISFIED_KHR);
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(GetSyncAttribKHR(dpy, sync, EGL_SYNC_STATUS_KHR, &status) && status == EGL_SIGNALED_KHR);
    std::printf("fence behind %d rounds a pixel: %s at first, then waited %.3f s\n", iterations,
                seen_unsignalled ? "unsignalled" : "already signalled", waited);
    CHECK(CentreIsCyan());
    CHECK(DestroySyncKHR(dpy, sync));
  }
  CHECK(seen_unsignalled);  // a fence born signalled (the work finished at creation) fails here
}

// A thread with no context waits for ever; meanwhile this thread queries EGL and destroys the sync.
void CrossThread(const harness::Window& w, GLuint program) {
  EGLDisplay dpy = w.display;
  bool exercised = false;
  int iterations = 600;
  for (int attempt = 0; attempt < 4 && !exercised; ++attempt, iterations *= 3) {
    SlowDraw(program, iterations, 2);
    EGLSyncKHR sync = CreateSyncKHR(dpy, EGL_SYNC_FENCE_KHR, nullptr);
    CHECK(sync != EGL_NO_SYNC_KHR);
    std::atomic<bool> waiting{false}, done{false};
    EGLint result = 0;
    std::thread waiter([&] {
      waiting = true;
      result = ClientWaitSyncKHR(dpy, sync, 0, EGL_FOREVER_KHR);
      done = true;
    });
    while (!waiting) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (!done) {
      // The waiter is inside its wait: EGL calls of this thread must not queue behind it.
      CHECK(eglQueryString(dpy, EGL_VENDOR) != nullptr);
      CHECK(DestroySyncKHR(dpy, sync));  // allowed during a wait: the wait still ends
      exercised = !done;
    } else {
      CHECK(DestroySyncKHR(dpy, sync));
    }
    waiter.join();
    CHECK(result == EGL_CONDITION_SATISFIED_KHR);
  }
  std::printf("cross-thread wait %s\n",
              exercised ? "overlapped this thread's EGL calls" : "never overlapped");
  CHECK(exercised);
}

// eglWaitSyncKHR in a second context of the same share group: its commands come after the fence's.
void ServerWait(const harness::Window& w, GLuint program) {
  EGLDisplay dpy = w.display;
  SlowDraw(program, 200, 1);
  EGLSyncKHR sync = CreateSyncKHR(dpy, EGL_SYNC_FENCE_KHR, nullptr);
  CHECK(sync != EGL_NO_SYNC_KHR);
  EGLContext other = harness::CreateContext(w, w.context);
  CHECK(eglMakeCurrent(dpy, w.surface, w.surface, other));
  CHECK(WaitSyncKHR(dpy, sync, 0) == EGL_TRUE);
  CHECK(eglWaitSync(dpy, sync, 0) == EGL_TRUE);
  // The second context draws over the first one's result after the wait.
  glViewport(0, 0, kSize, kSize);
  glClearColor(0, 0, 1, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  uint8_t px[4] = {};
  glReadPixels(kSize / 2, kSize / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  CHECK(px[0] == 0 && px[1] == 0 && px[2] == 255);
  eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  CHECK(WaitSyncKHR(dpy, sync, 0) == EGL_FALSE);  // no current context to wait in
  CHECK(eglGetError() == EGL_BAD_MATCH);
  CHECK(eglMakeCurrent(dpy, w.surface, w.surface, w.context));
  eglDestroyContext(dpy, other);
  CHECK(DestroySyncKHR(dpy, sync));
}

}  // namespace

int main() {
  {
    // GL_OES_EGL_sync: an ES context says EGL fences work with it.
    harness::Window es = harness::Open(kSize, kSize, true);
    const char* extensions = reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS));
    CHECK(extensions && std::strstr(extensions, "GL_OES_EGL_sync"));
    harness::Close(es);
  }
  harness::Window w = harness::Open(kSize, kSize);
  harness::PrintVendor();
  CHECK(HasExtension(w.display, "EGL_KHR_fence_sync"));
  CHECK(HasExtension(w.display, "EGL_KHR_wait_sync"));
  CreateSyncKHR = reinterpret_cast<PFNEGLCREATESYNCKHRPROC>(eglGetProcAddress("eglCreateSyncKHR"));
  DestroySyncKHR = reinterpret_cast<PFNEGLDESTROYSYNCKHRPROC>(eglGetProcAddress("eglDestroySyncKHR"));
  ClientWaitSyncKHR =
      reinterpret_cast<PFNEGLCLIENTWAITSYNCKHRPROC>(eglGetProcAddress("eglClientWaitSyncKHR"));
  GetSyncAttribKHR = reinterpret_cast<PFNEGLGETSYNCATTRIBKHRPROC>(eglGetProcAddress("eglGetSyncAttribKHR"));
  WaitSyncKHR = reinterpret_cast<PFNEGLWAITSYNCKHRPROC>(eglGetProcAddress("eglWaitSyncKHR"));
  CHECK(CreateSyncKHR && DestroySyncKHR && ClientWaitSyncKHR && GetSyncAttribKHR && WaitSyncKHR);
  if (!(CreateSyncKHR && DestroySyncKHR && ClientWaitSyncKHR && GetSyncAttribKHR && WaitSyncKHR))
    return harness::Summary();

  const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  harness::Positions2D(quad, 8);
  glViewport(0, 0, kSize, kSize);
  GLuint program = harness::CompileProgram(kVs, kFs);
  Errors(w);
  RealFence(w, program);
  CrossThread(w, program);
  ServerWait(w, program);
  harness::Close(w);
  return harness::Summary();
}
