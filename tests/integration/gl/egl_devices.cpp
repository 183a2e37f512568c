// EGL devices through glvnd (EGL_EXT_device_base, EGL_EXT_platform_device), on Caldera and on Mesa llvmpipe
// with the same binary: how a headless program picks a GPU.
//  - the client extensions name them; eglQueryDevicesEXT counts and lists devices, with the errors the
//    extension names (no count pointer; a list of size <= 0);
//  - each device answers eglQueryDeviceStringEXT(EGL_EXTENSIONS) and refuses unknown names and attributes;
//  - a display on a device (one per device: asked twice, the same handle) initialises, renders into a
//    pbuffer through a GL context, and reports that device as its EGL_DEVICE_EXT;
//  - the default (surfaceless) display reports one of the listed devices too (not on the GLES backend,
//    which runs on the host's driver: not checked when CALDERA_BACKEND=gles).
#include <cstring>
#include <vector>

#include "gl_harness.h"

namespace {

bool HasToken(const char* list, const char* name) {
  if (!list) return false;
  const size_t n = std::strlen(name);
  for (const char* p = std::strstr(list, name); p; p = std::strstr(p + 1, name))
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
  return false;
}

template <typename T>
T Proc(const char* name) {
  return reinterpret_cast<T>(eglGetProcAddress(name));
}

}  // namespace

int main() {
  const char* backend = std::getenv("CALDERA_BACKEND");
  const bool display_device = !(backend && std::strcmp(backend, "gles") == 0);
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  for (const char* ext : {"EGL_EXT_device_base", "EGL_EXT_device_enumeration", "EGL_EXT_device_query",
                          "EGL_EXT_platform_device"})
    CHECK(HasToken(client, ext));
  auto QueryDevices = Proc<PFNEGLQUERYDEVICESEXTPROC>("eglQueryDevicesEXT");
  auto QueryDeviceString = Proc<PFNEGLQUERYDEVICESTRINGEXTPROC>("eglQueryDeviceStringEXT");
  auto QueryDeviceAttrib = Proc<PFNEGLQUERYDEVICEATTRIBEXTPROC>("eglQueryDeviceAttribEXT");
  auto QueryDisplayAttrib = Proc<PFNEGLQUERYDISPLAYATTRIBEXTPROC>("eglQueryDisplayAttribEXT");
  CHECK(QueryDevices && QueryDeviceString && QueryDeviceAttrib && QueryDisplayAttrib);
  if (!(QueryDevices && QueryDeviceString && QueryDeviceAttrib && QueryDisplayAttrib))
    return harness::Summary();

  EGLint count = 0;
  CHECK(QueryDevices(0, nullptr, &count) && count >= 1);
  CHECK(!QueryDevices(0, nullptr, nullptr));
  CHECK(eglGetError() == EGL_BAD_PARAMETER);
  std::vector<EGLDeviceEXT> devices(count > 0 ? count : 1);
  CHECK(!QueryDevices(0, devices.data(), &count));
  CHECK(eglGetError() == EGL_BAD_PARAMETER);
  EGLint listed = 0;
  CHECK(QueryDevices(count, devices.data(), &listed) && listed == count);
  devices.resize(listed > 0 ? listed : 0);
  std::printf("%d devices\n", int(devices.size()));

  for (EGLDeviceEXT dev : devices) {
    const char* exts = QueryDeviceString(dev, EGL_EXTENSIONS);
    CHECK(exts != nullptr);
    std::printf("device %p: \"%s\"\n", dev, exts ? exts : "(null)");
    CHECK(QueryDeviceString(dev, 0x1234) == nullptr);
    CHECK(eglGetError() == EGL_BAD_PARAMETER);
    EGLAttrib value = 0;
    CHECK(!QueryDeviceAttrib(dev, 0x1234, &value));
    CHECK(eglGetError() == EGL_BAD_ATTRIBUTE);
  }
  if (devices.empty()) return harness::Summary();

  // A display on the first device: the same handle every time, refused with attributes it does not define.
  EGLDeviceEXT dev = devices[0];
  EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, dev, nullptr);
  CHECK(dpy != EGL_NO_DISPLAY);
  CHECK(eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, dev, nullptr) == dpy);
  const EGLAttrib bogus[] = {0x1234, 1, EGL_NONE};
  CHECK(eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, dev, bogus) == EGL_NO_DISPLAY);
  EGLAttrib value = 0;
  CHECK(!QueryDisplayAttrib(dpy, EGL_DEVICE_EXT, &value));  // not initialised yet
  CHECK(eglGetError() == EGL_NOT_INITIALIZED);
  EGLint major = 0, minor = 0;
  CHECK(eglInitialize(dpy, &major, &minor));
  if (display_device) {
    CHECK(QueryDisplayAttrib(dpy, EGL_DEVICE_EXT, &value) && reinterpret_cast<EGLDeviceEXT>(value) == dev);
  }
  CHECK(!QueryDisplayAttrib(dpy, 0x1234, &value));
  CHECK(eglGetError() == EGL_BAD_ATTRIBUTE);

  // Render on it: a pbuffer, a GL 3.3 core context, a clear read back.
  const EGLint config_attribs[] = {EGL_SURFACE_TYPE,
                                   EGL_PBUFFER_BIT,
                                   EGL_RENDERABLE_TYPE,
                                   EGL_OPENGL_BIT,
                                   EGL_RED_SIZE,
                                   8,
                                   EGL_GREEN_SIZE,
                                   8,
                                   EGL_BLUE_SIZE,
                                   8,
                                   EGL_ALPHA_SIZE,
                                   8,
                                   EGL_NONE};
  EGLConfig config = nullptr;
  EGLint configs = 0;
  CHECK(eglChooseConfig(dpy, config_attribs, &config, 1, &configs) && configs == 1);
  const EGLint pbuffer_attribs[] = {EGL_WIDTH, 8, EGL_HEIGHT, 8, EGL_NONE};
  EGLSurface surface = eglCreatePbufferSurface(dpy, config, pbuffer_attribs);
  CHECK(surface != EGL_NO_SURFACE);
  eglBindAPI(EGL_OPENGL_API);
  const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                                    3,
                                    EGL_CONTEXT_MINOR_VERSION,
                                    3,
                                    EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                    EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                    EGL_NONE};
  EGLContext context = eglCreateContext(dpy, config, EGL_NO_CONTEXT, context_attribs);
  CHECK(context != EGL_NO_CONTEXT);
  CHECK(eglMakeCurrent(dpy, surface, surface, context));
  harness::PrintVendor();
  glClearColor(0, 1, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  uint8_t px[4] = {};
  glReadPixels(4, 4, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  CHECK(px[0] == 0 && px[1] == 255 && px[2] == 0 && px[3] == 255);
  eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(dpy, context);
  eglDestroySurface(dpy, surface);
  eglTerminate(dpy);

  // The default display runs on one of the listed devices.
  if (display_device) {
    EGLDisplay surfaceless =
        eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    CHECK(eglInitialize(surfaceless, &major, &minor));
    CHECK(QueryDisplayAttrib(surfaceless, EGL_DEVICE_EXT, &value));
    bool listed_device = false;
    for (EGLDeviceEXT d : devices)
      listed_device = listed_device || reinterpret_cast<EGLDeviceEXT>(value) == d;
    CHECK(listed_device);
    eglTerminate(surfaceless);
  }
  return harness::Summary();
}
