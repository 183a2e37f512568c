// The Vulkan physical devices a display can be opened on (EGL_EXT_device_enumeration), as plain data: the
// window-system side (frontend/platform.h) and the backend (pipe/backend.h) both name it, neither sees
// Vulkan types.
#pragma once

#include <cstdint>
#include <string>

namespace caldera::pipe {

// Every physical device with Vulkan 1.3, in vkEnumeratePhysicalDevices order.
struct VulkanDeviceInfo {
  int32_t index = 0;      // in vkEnumeratePhysicalDevices order: CreateVulkanBackend's vulkan_index
  std::string name;       // VkPhysicalDeviceProperties::deviceName
  bool software = false;  // a CPU device (lavapipe)
  // DRM nodes from VK_EXT_physical_device_drm ("/dev/dri/card0", "/dev/dri/renderD128"); "" when unknown.
  std::string drm_primary, drm_render;
};

// Whether this thread is inside Caldera's own Vulkan instance or device creation. A driver may call EGL
// from there (NVIDIA's Vulkan driver enumerates EGL devices while its instance is made), and glvnd then
// asks every vendor, Caldera included, for its devices: answering by making another instance from inside
// the first deadlocks the driver. Such re-entrant questions get no devices (and nothing is cached).
bool InsideVulkanSetup();

// Whether a frame of the Vulkan loader is on this thread's stack: Caldera was reached from inside someone
// else's Vulkan call (NVIDIA's driver asks glvnd for EGL devices during an application's vkCreateInstance,
// and glvnd asks every vendor). The loader holds its lock for that whole call, so no instance may be made
// here: it would wait on the lock forever. Found by unwinding this thread's stack (a rare question: device
// enumeration before it has run once, and display initialisation).
bool VulkanLoaderOnStack();

// Marks this thread as inside Vulkan setup for its lifetime (vk::Device::Init, the device enumeration).
class VulkanSetupScope {
 public:
  VulkanSetupScope();
  ~VulkanSetupScope();
  VulkanSetupScope(const VulkanSetupScope&) = delete;
  VulkanSetupScope& operator=(const VulkanSetupScope&) = delete;
};

}  // namespace caldera::pipe
