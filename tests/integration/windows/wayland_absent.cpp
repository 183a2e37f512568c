// The Wayland platform where libwayland-client cannot be opened (CALDERA_TEST_WAYLAND_LIB_DIR pointing at a
// directory without it) and, with --present, the control where it can. This program links only libEGL and
// GLES, so the library is mapped only if Caldera opened it.
//   wayland_absent            the platform is absent: not in the client string, EGL_BAD_PARAMETER from
//                             eglGetPlatformDisplay, libwayland-client not mapped, surfaceless still works
//   wayland_absent --present  the control: the platform is in the string and the library mapped
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "window_checks.h"

namespace {

bool HasToken(const char* list, const char* token) {
  if (!list) return false;
  size_t n = std::strlen(token);
  for (const char* p = list; (p = std::strstr(p, token)); p += n)
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
  return false;
}

bool Mapped(const char* name) {
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);)
    if (line.find(name) != std::string::npos) return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  bool present = argc > 1 && !std::strcmp(argv[1], "--present");
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  CHECK(client != nullptr);
  std::printf("client extensions: %s\n", client ? client : "(null)");
  CHECK(HasToken(client, "EGL_KHR_platform_wayland") == present);
  CHECK(HasToken(client, "EGL_EXT_platform_wayland") == present);
  CHECK(Mapped("libwayland-client") == present);
  if (!present) {
    // No such platform here: EGL_BAD_PARAMETER (glvnd passes the vendor's error on).
    CHECK(eglGetPlatformDisplay(EGL_PLATFORM_WAYLAND_KHR, EGL_DEFAULT_DISPLAY, nullptr) == EGL_NO_DISPLAY);
    CHECK(eglGetError() == EGL_BAD_PARAMETER);
  }
  // Surfaceless displays and pbuffers are unaffected.
  EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  CHECK(dpy != EGL_NO_DISPLAY && eglInitialize(dpy, nullptr, nullptr));
  const EGLint cfg_attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
                                EGL_NONE};
  EGLConfig cfg = nullptr;
  EGLint n = 0;
  CHECK(eglChooseConfig(dpy, cfg_attribs, &cfg, 1, &n) && n == 1);
  const EGLint pb[] = {EGL_WIDTH, 4, EGL_HEIGHT, 4, EGL_NONE};
  EGLSurface surf = eglCreatePbufferSurface(dpy, cfg, pb);
  eglBindAPI(EGL_OPENGL_ES_API);
  const EGLint ctx_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attribs);
  CHECK(surf && ctx && eglMakeCurrent(dpy, surf, surf, ctx));
  glClearColor(0.0f, 0.0f, 1.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  unsigned char p[4] = {};
  glReadPixels(1, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, p);
  CHECK(p[0] == 0 && p[1] == 0 && p[2] == 255);
  eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroySurface(dpy, surf);
  eglDestroyContext(dpy, ctx);
  eglTerminate(dpy);
  std::printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed ? 1 : 0;
}
