// Turning on the Khronos validation layer's synchronization validation from above it, and
// collecting what it reports.
#pragma once

#include <vulkan/vulkan_core.h>

#include <vector>

#include "guard_state.h"

namespace guard {

// VK_EXT_layer_settings postdates the 1.3.239 headers; these mirror its definitions so the layer
// can drive newer validation layers too.
struct LayerSettingEXT {
  const char* layer_name;
  const char* setting_name;
  int32_t type;  // VkLayerSettingTypeEXT
  uint32_t value_count;
  const void* values;
};
struct LayerSettingsCreateInfoEXT {
  VkStructureType type;
  const void* next;
  uint32_t setting_count;
  const LayerSettingEXT* settings;
};

// Owns the instance create info passed down when sync validation is requested.
struct SyncvalSetup {
  VkInstanceCreateInfo create_info{};
  std::vector<const char*> extensions;
  VkValidationFeatureEnableEXT enable = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
  VkValidationFeaturesEXT features{};
  VkBool32 validate_sync = VK_TRUE;
  LayerSettingEXT setting{};
  LayerSettingsCreateInfoEXT settings{};
  bool install_messenger = false;
};

// Chooses the mechanism by what the layers beneath advertise and rewrites the create info
// (pNext, extensions) accordingly; leaves it untouched when syncval is off or impossible.
void PrepareSyncval(const VkInstanceCreateInfo& app_info, SyncvalSetup& setup);
void InstallMessenger(InstanceState& instance);
void RemoveMessenger(InstanceState& instance);

}  // namespace guard
