// GLX_MESA_query_renderer: what a screen's renderer is (PCI ids, acceleration, memory, the API versions its
// contexts can have) before any context exists, and the same for the current context's. Each screen has one
// renderer (index 0): Caldera's device for that display. Unknown attributes and renderer indices give False
// (NULL for the strings) and no X error, as the extension says.
#include <cstdio>

#include "glx_objects.h"

namespace caldera::glx {
namespace {

// The three parts of CALDERA_VERSION ("0.1.0"), GLX_RENDERER_VERSION_MESA's values.
void DriverVersion(unsigned int* value) {
  unsigned major = 0, minor = 0, patch = 0;
  std::sscanf(CALDERA_VERSION, "%u.%u.%u", &major, &minor, &patch);
  value[0] = major;
  value[1] = minor;
  value[2] = patch;
}

void PutVersion(ApiVersion version, unsigned int* value) {
  value[0] = unsigned(version.major);
  value[1] = unsigned(version.minor);
}

Bool RendererInteger(GlxDisplay* d, int attribute, unsigned int* value) {
  if (!d || !value) return False;
  const DeviceRendererInfo info = DescribeDeviceRenderer(*d->device);
  switch (attribute) {
    case GLX_RENDERER_VENDOR_ID_MESA:
      *value = info.pci_vendor_id;
      return True;
    case GLX_RENDERER_DEVICE_ID_MESA:
      *value = info.pci_device_id;
      return True;
    case GLX_RENDERER_VERSION_MESA:
      DriverVersion(value);
      return True;
    case GLX_RENDERER_ACCELERATED_MESA:
      *value = info.accelerated ? 1u : 0u;
      return True;
    case GLX_RENDERER_VIDEO_MEMORY_MESA:
      *value = info.video_memory_mb;
      return True;
    case GLX_RENDERER_UNIFIED_MEMORY_ARCHITECTURE_MESA:
      *value = info.unified_memory ? 1u : 0u;
      return True;
    case GLX_RENDERER_PREFERRED_PROFILE_MESA:
      // Core: what new programs should ask for (compatibility contexts run on generated shaders).
      *value = GLX_CONTEXT_CORE_PROFILE_BIT_ARB;
      return True;
    case GLX_RENDERER_OPENGL_CORE_PROFILE_VERSION_MESA:
    case GLX_RENDERER_OPENGL_COMPATIBILITY_PROFILE_VERSION_MESA:
      PutVersion(kNewestGL, value);
      return True;
    case GLX_RENDERER_OPENGL_ES_PROFILE_VERSION_MESA:
      PutVersion(kNewestES1, value);
      return True;
    case GLX_RENDERER_OPENGL_ES2_PROFILE_VERSION_MESA:
      PutVersion(kNewestES, value);
      return True;
    default:
      return False;
  }
}

const char* RendererString(GlxDisplay* d, int attribute) {
  if (!d) return nullptr;
  switch (attribute) {
    case GLX_RENDERER_VENDOR_ID_MESA:
      return "Caldera";
    case GLX_RENDERER_DEVICE_ID_MESA:  // GL_RENDERER's string, kept with the display
      if (d->renderer_name.empty()) d->renderer_name = DeviceRendererName(*d->device);
      return d->renderer_name.c_str();
    default:
      return nullptr;
  }
}

GlxDisplay* CurrentDisplay() {
  ContextRec* rec = CurrentContextRecord();
  return rec ? rec->display : nullptr;
}

}  // namespace

Bool QueryRendererIntegerMESA(::Display* dpy, int screen, int renderer, int attribute, unsigned int* value) {
  std::lock_guard lock(Lock());
  if (renderer != 0) return False;
  return RendererInteger(GetDisplay(dpy, screen), attribute, value);
}

const char* QueryRendererStringMESA(::Display* dpy, int screen, int renderer, int attribute) {
  std::lock_guard lock(Lock());
  if (renderer != 0) return nullptr;
  return RendererString(GetDisplay(dpy, screen), attribute);
}

Bool QueryCurrentRendererIntegerMESA(int attribute, unsigned int* value) {
  std::lock_guard lock(Lock());
  return RendererInteger(CurrentDisplay(), attribute, value);
}

const char* QueryCurrentRendererStringMESA(int attribute) {
  std::lock_guard lock(Lock());
  return RendererString(CurrentDisplay(), attribute);
}

}  // namespace caldera::glx
