// The Vulkan physical devices a display can be opened on, for EGL_EXT_device_enumeration (pipe/backend.h).
// An instance of its own enumerates them once per process: no logical device is created, and
// the indices are those vk::Device::Create takes, since both walk vkEnumeratePhysicalDevices in order.
#include <dlfcn.h>
#include <unwind.h>
#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>

#include "pipe/backend.h"

namespace caldera {
namespace {

thread_local int t_vulkan_setup_depth = 0;

bool HasDeviceExtension(VkPhysicalDevice physical, const char* name) {
  uint32_t count = 0;
  if (vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr) != VK_SUCCESS) return false;
  std::vector<VkExtensionProperties> exts(count);
  if (vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, exts.data()) < 0) return false;
  for (uint32_t i = 0; i < count && i < exts.size(); ++i)
    if (std::strcmp(exts[i].extensionName, name) == 0) return true;
  return false;
}

std::vector<pipe::VulkanDeviceInfo> Enumerate() {
  pipe::VulkanSetupScope setup;
  std::vector<pipe::VulkanDeviceInfo> list;
  uint32_t api = 0;
  if (vkEnumerateInstanceVersion(&api) != VK_SUCCESS || api < VK_API_VERSION_1_3) return list;
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "Caldera device list";
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  if (vkCreateInstance(&ici, nullptr, &instance) != VK_SUCCESS) return list;
  uint32_t count = 0;
  std::vector<VkPhysicalDevice> devices;
  if (vkEnumeratePhysicalDevices(instance, &count, nullptr) == VK_SUCCESS) {
    devices.resize(count);
    if (vkEnumeratePhysicalDevices(instance, &count, devices.data()) < 0) count = 0;
    devices.resize(count);
  }
  for (size_t i = 0; i < devices.size(); ++i) {
    VkPhysicalDeviceDrmPropertiesEXT drm{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRM_PROPERTIES_EXT};
    const bool has_drm = HasDeviceExtension(devices[i], VK_EXT_PHYSICAL_DEVICE_DRM_EXTENSION_NAME);
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, has_drm ? &drm : nullptr};
    vkGetPhysicalDeviceProperties2(devices[i], &p2);
    if (p2.properties.apiVersion < VK_API_VERSION_1_3) continue;  // vk::Device would refuse it
    pipe::VulkanDeviceInfo info;
    info.index = static_cast<int32_t>(i);
    info.name = p2.properties.deviceName;
    info.software = p2.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    if (has_drm && drm.hasPrimary) info.drm_primary = "/dev/dri/card" + std::to_string(drm.primaryMinor);
    if (has_drm && drm.hasRender) info.drm_render = "/dev/dri/renderD" + std::to_string(drm.renderMinor);
    list.push_back(std::move(info));
  }
  // The instance is kept for the life of the process, never destroyed: NVIDIA's driver (580) releases the
  // calling thread's current EGL context through glvnd when an instance is destroyed and no other is left,
  // so an application that asked for EGL devices with a context current (a GLES-backend display, or another
  // vendor's context) would find it gone. One idle instance per process is the price.
  [[maybe_unused]] static const VkInstance kept = instance;  // reachable, so leak checkers see it held
  return list;
}

}  // namespace

bool pipe::InsideVulkanSetup() {
  return t_vulkan_setup_depth > 0;
}

pipe::VulkanSetupScope::VulkanSetupScope() {
  ++t_vulkan_setup_depth;
}

pipe::VulkanSetupScope::~VulkanSetupScope() {
  --t_vulkan_setup_depth;
}

namespace {

// Whether a frame of the Vulkan loader (the module holding vkCreateInstance) is on this thread's stack.
struct LoaderWalk {
  const void* loader_base;
  int frames = 0;
  bool found = false;
};

_Unwind_Reason_Code VisitFrame(_Unwind_Context* context, void* arg) {
  auto* walk = static_cast<LoaderWalk*>(arg);
  const uintptr_t ip = _Unwind_GetIP(context);
  Dl_info info;
  // ip - 1: inside the call instruction, so a call at a function's very end still names that function.
  if (ip && dladdr(reinterpret_cast<void*>(ip - 1), &info) && info.dli_fbase == walk->loader_base) {
    walk->found = true;
    return _URC_END_OF_STACK;
  }
  return ++walk->frames >= 512 ? _URC_END_OF_STACK : _URC_NO_REASON;
}

std::atomic<bool> g_enumerated{false};

}  // namespace

bool pipe::VulkanLoaderOnStack() {
  Dl_info loader;
  if (!dladdr(reinterpret_cast<void*>(&vkCreateInstance), &loader) || !loader.dli_fbase) return false;
  LoaderWalk walk{loader.dli_fbase};
  _Unwind_Backtrace(VisitFrame, &walk);
  return walk.found;
}

const std::vector<pipe::VulkanDeviceInfo>& pipe::VulkanDevices() {
  // Asked from inside a Vulkan call on this thread (a driver's EGL query through glvnd while an application's
  // vkCreateInstance runs: NVIDIA's does), or from Caldera's own setup: the loader holds its lock for the
  // whole call, so an instance made here would wait on it forever. No devices now, and nothing remembered.
  static const std::vector<VulkanDeviceInfo> none;
  if (!g_enumerated.load(std::memory_order_acquire) && (InsideVulkanSetup() || VulkanLoaderOnStack()))
    return none;
  static const std::vector<VulkanDeviceInfo> list = [] {
    auto found = Enumerate();
    g_enumerated.store(true, std::memory_order_release);
    return found;
  }();
  return list;
}

}  // namespace caldera
