// EGL devices: EGL_EXT_device_base (= device_enumeration + device_query) and EGL_EXT_platform_device, the way
// headless programs pick a GPU. One EGLDeviceEXT per Vulkan 1.3 physical device (frontend PhysicalDevices),
// and one display per device (egl_display.cpp), opened on exactly that device. glvnd merges every vendor's
// eglQueryDevicesEXT and routes eglQueryDevice*EXT through the dispatch stubs of glvnd_vendor.cpp.
#include <dlfcn.h>

#include <atomic>
#include <string>
#include <vector>

#include "egl_api.h"
#include "egl_objects.h"
#include "frontend/platform.h"
#include "util/log.h"

namespace caldera::egl {
namespace {

struct DeviceObj {
  pipe::VulkanDeviceInfo info;
  std::string extensions;
};

std::atomic<bool> g_devices_built{false};

// Keeps the calling thread's EGL binding across the enumeration's Vulkan instance. A driver may drop it
// meanwhile: NVIDIA's (580) releases the thread's current context through glvnd when its Vulkan driver fails
// to start, so an application that asked for devices with a Caldera context current lost it. Its binding,
// which it never asked to change, is made again through glvnd's eglMakeCurrent (what the application calls).
class KeepBinding {
 public:
  KeepBinding() : saved_(Current()) {}
  ~KeepBinding() {
    if (!saved_.context) return;
    using GetContext = EGLContext (*)();
    using MakeCurrent = EGLBoolean (*)(EGLDisplay, EGLSurface, EGLSurface, EGLContext);
    auto get = reinterpret_cast<GetContext>(dlsym(RTLD_DEFAULT, "eglGetCurrentContext"));
    auto make = reinterpret_cast<MakeCurrent>(dlsym(RTLD_DEFAULT, "eglMakeCurrent"));
    if (!get || !make || get() == static_cast<EGLContext>(saved_.context)) return;
    util::LogOnce(
        util::LogLevel::kWarning, "eglQueryDevicesEXT",
        "the Vulkan driver released this thread's current context while Caldera enumerated devices: "
        "made current again");
    make(saved_.display, saved_.draw, saved_.read, saved_.context);
  }
  KeepBinding(const KeepBinding&) = delete;
  KeepBinding& operator=(const KeepBinding&) = delete;

 private:
  const ThreadCurrent saved_;
};

// Built once and never freed: an EGLDeviceEXT stays valid for the life of the process.
std::vector<DeviceObj>& Devices() {
  static auto* devices = [] {
    auto* list = new std::vector<DeviceObj>;
    KeepBinding keep;
    for (const pipe::VulkanDeviceInfo& info : PhysicalDevices()) {
      DeviceObj d;
      d.info = info;
      if (!info.drm_primary.empty()) d.extensions += "EGL_EXT_device_drm ";
      if (!info.drm_render.empty()) d.extensions += "EGL_EXT_device_drm_render_node ";
      if (info.software) d.extensions += "EGL_MESA_device_software ";
      if (!d.extensions.empty()) d.extensions.pop_back();
      list->push_back(std::move(d));
    }
    g_devices_built.store(true, std::memory_order_release);
    return list;
  }();
  return *devices;
}

// The devices, or none (not remembered) while they cannot be enumerated yet: asked from inside Caldera's own
// Vulkan setup or from inside a Vulkan call (NVIDIA's driver asks glvnd for EGL devices during an
// application's vkCreateInstance, and glvnd asks every vendor), where a nested instance would wait forever on
// the loader's lock.
std::vector<DeviceObj>& DevicesIfSafe() {
  static std::vector<DeviceObj> none;
  if (!g_devices_built.load(std::memory_order_acquire) && InsideDeviceSetup()) return none;
  return Devices();
}

DeviceObj* LookupDevice(EGLDeviceEXT handle) {
  for (DeviceObj& d : DevicesIfSafe())
    if (static_cast<void*>(&d) == handle) return &d;
  SetError(EGL_BAD_DEVICE_EXT);
  return nullptr;
}

}  // namespace

EGLBoolean QueryDevicesEXT(EGLint max_devices, EGLDeviceEXT* devices, EGLint* num_devices) {
  EntryLock lock;
  if (!num_devices || (devices && max_devices <= 0)) {
    SetError(EGL_BAD_PARAMETER);
    return EGL_FALSE;
  }
  std::vector<DeviceObj>& all = DevicesIfSafe();
  EGLint n = static_cast<EGLint>(all.size());
  if (devices) {
    n = std::min(n, max_devices);
    for (EGLint i = 0; i < n; ++i) devices[i] = &all[i];
  }
  *num_devices = n;
  return EGL_TRUE;
}

const char* QueryDeviceStringEXT(EGLDeviceEXT device, EGLint name) {
  EntryLock lock;
  DeviceObj* d = LookupDevice(device);
  if (!d) return nullptr;
  switch (name) {
    case EGL_EXTENSIONS:
      return d->extensions.c_str();
    case EGL_DRM_DEVICE_FILE_EXT:
      if (!d->info.drm_primary.empty()) return d->info.drm_primary.c_str();
      break;
    case EGL_DRM_RENDER_NODE_FILE_EXT:
      if (!d->info.drm_render.empty()) return d->info.drm_render.c_str();
      break;
    default:
      break;
  }
  SetError(EGL_BAD_PARAMETER);
  return nullptr;
}

EGLBoolean QueryDeviceAttribEXT(EGLDeviceEXT device, EGLint attribute, EGLAttrib* value) {
  EntryLock lock;
  if (!LookupDevice(device)) return EGL_FALSE;
  (void)attribute;
  (void)value;
  SetError(EGL_BAD_ATTRIBUTE);  // no device attribute is defined without further extensions
  return EGL_FALSE;
}

EGLBoolean QueryDisplayAttribEXT(EGLDisplay handle, EGLint attribute, EGLAttrib* value) {
  EntryLock lock;
  Display* dpy = LookupInitializedDisplay(handle);
  if (!dpy) return EGL_FALSE;
  if (attribute != EGL_DEVICE_EXT || !value) {
    SetError(attribute != EGL_DEVICE_EXT ? EGL_BAD_ATTRIBUTE : EGL_BAD_PARAMETER);
    return EGL_FALSE;
  }
  const int32_t index = DeviceVulkanIndex(*dpy->device);
  for (DeviceObj& d : DevicesIfSafe()) {
    if (d.info.index == index) {
      *value = reinterpret_cast<EGLAttrib>(&d);
      return EGL_TRUE;
    }
  }
  // The GLES backend (the host's driver) or a spawned server: no Vulkan device of ours is behind it.
  util::LogOnce(util::LogLevel::kWarning, "eglQueryDisplayAttribEXT",
                "this display runs on no enumerated Vulkan device (GLES backend): EGL_DEVICE_EXT is unknown");
  SetError(EGL_BAD_ATTRIBUTE);
  return EGL_FALSE;
}

bool LookupDeviceIndex(EGLDeviceEXT device, int32_t* vulkan_index) {
  DeviceObj* d = LookupDevice(device);
  if (!d) return false;
  *vulkan_index = d->info.index;
  return true;
}

}  // namespace caldera::egl
