// The Vulkan physical devices a display can be opened on, for EGL_EXT_device_enumeration (pipe/backend.h).
// A short-lived instance of its own enumerates them once per process: no logical device is created, and
// the indices are those vk::Device::Create takes, since both walk vkEnumeratePhysicalDevices in order.
#include <vulkan/vulkan.h>

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
  vkDestroyInstance(instance, nullptr);
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

const std::vector<pipe::VulkanDeviceInfo>& pipe::VulkanDevices() {
  static const std::vector<VulkanDeviceInfo> list = Enumerate();
  return list;
}

}  // namespace caldera
