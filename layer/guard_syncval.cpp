#include "guard_syncval.h"

#include <dlfcn.h>
#include <fnmatch.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "guard_config.h"
#include "guard_report.h"

namespace guard {
namespace {

constexpr const char* kValidationLayerName = "VK_LAYER_KHRONOS_validation";
constexpr VkStructureType kLayerSettingsCreateInfoType = static_cast<VkStructureType>(1000496000);
constexpr int32_t kLayerSettingTypeBool32 = 0;

enum class Mechanism { kNone, kValidationFeatures, kLayerSettings };

// Whether the validation layer is enabled for this instance. Implicit layers always sit above
// explicit ones, so enabled means beneath this layer. Asking the next layer in the chain instead is
// not safe: pre-instance entry points of other implicit layers (Mesa's device-select) crash when
// called from inside vkCreateInstance.
bool ValidationEnabled(const VkInstanceCreateInfo& info) {
  for (uint32_t i = 0; i < info.enabledLayerCount; ++i) {
    if (std::strcmp(info.ppEnabledLayerNames[i], kValidationLayerName) == 0) return true;
  }
  const auto listed = [](const char* variable, char separator, bool globs) {
    const char* value = std::getenv(variable);
    if (value == nullptr) return false;
    std::string list = value;
    size_t start = 0;
    while (start <= list.size()) {
      size_t end = list.find(separator, start);
      if (end == std::string::npos) end = list.size();
      const std::string item = list.substr(start, end - start);
      if (item == kValidationLayerName || (globs && fnmatch(item.c_str(), kValidationLayerName, 0) == 0)) {
        return true;
      }
      start = end + 1;
    }
    return false;
  };
  return listed("VK_INSTANCE_LAYERS", ':', false) || listed("VK_LOADER_LAYERS_ENABLE", ',', true);
}

// Which mechanism the validation layer supports, from the instance extensions it advertises
// (vkEnumerateInstanceExtensionProperties with its layer name, through the loader the app uses).
Mechanism DetectMechanism() {
  void* loader = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (loader == nullptr) return Mechanism::kNone;
  auto enumerate = reinterpret_cast<PFN_vkEnumerateInstanceExtensionProperties>(
      dlsym(loader, "vkEnumerateInstanceExtensionProperties"));
  Mechanism mechanism = Mechanism::kNone;
  uint32_t count = 0;
  if (enumerate != nullptr && enumerate(kValidationLayerName, &count, nullptr) == VK_SUCCESS && count > 0) {
    std::vector<VkExtensionProperties> extensions(count);
    if (enumerate(kValidationLayerName, &count, extensions.data()) >= VK_SUCCESS) {
      for (uint32_t i = 0; i < count; ++i) {
        if (std::strcmp(extensions[i].extensionName, "VK_EXT_layer_settings") == 0) {
          mechanism = Mechanism::kLayerSettings;
          break;
        }
        if (std::strcmp(extensions[i].extensionName, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME) == 0) {
          mechanism = Mechanism::kValidationFeatures;
        }
      }
    }
  }
  dlclose(loader);
  return mechanism;
}

bool ChainHas(const void* next, VkStructureType type) {
  for (auto* s = static_cast<const VkBaseInStructure*>(next); s != nullptr; s = s->pNext) {
    if (s->sType == type) return true;
  }
  return false;
}

void AddExtension(SyncvalSetup& setup, const char* name) {
  for (const char* present : setup.extensions) {
    if (std::strcmp(present, name) == 0) return;
  }
  setup.extensions.push_back(name);
}

VKAPI_ATTR VkBool32 VKAPI_CALL OnValidationMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                   VkDebugUtilsMessageTypeFlagsEXT,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  const char* id = data->pMessageIdName ? data->pMessageIdName : "";
  const bool hazard = std::strncmp(id, "SYNC-", 5) == 0;
  const bool error = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) != 0;
  if (!hazard && !error) return VK_FALSE;
  CountValidationMessage(id);
  uint64_t object = 0;
  VkObjectType type = VK_OBJECT_TYPE_UNKNOWN;
  if (data->objectCount > 0) {
    object = data->pObjects[0].objectHandle;
    type = data->pObjects[0].objectType;
  }
  const std::string message = data->pMessage ? data->pMessage : "";
  ReportViolation(hazard ? Category::kSyncHazard : Category::kValidationError, id, object, type,
                  message.substr(0, 600));
  return VK_FALSE;
}

}  // namespace

void PrepareSyncval(const VkInstanceCreateInfo& app_info, SyncvalSetup& setup) {
  setup.create_info = app_info;
  if (!GetConfig().syncval) return;
  const Mechanism mechanism = ValidationEnabled(app_info) ? DetectMechanism() : Mechanism::kNone;
  if (mechanism == Mechanism::kNone) {
    static std::once_flag once;
    std::call_once(once, [] {
      std::fprintf(stderr,
                   "caldera-guard: CALDERA_GUARD_SYNCVAL=1 but %s is not enabled beneath this layer; sync "
                   "validation is off (enable it, e.g. VK_INSTANCE_LAYERS=%s)\n",
                   kValidationLayerName, kValidationLayerName);
    });
    SetSyncvalStatus("unavailable");
    return;
  }
  setup.extensions.assign(app_info.ppEnabledExtensionNames,
                          app_info.ppEnabledExtensionNames + app_info.enabledExtensionCount);
  AddExtension(setup, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  const void* next = app_info.pNext;
  if (mechanism == Mechanism::kLayerSettings) {
    AddExtension(setup, "VK_EXT_layer_settings");
    setup.setting = {kValidationLayerName, "validate_sync", kLayerSettingTypeBool32, 1, &setup.validate_sync};
    setup.settings = {kLayerSettingsCreateInfoType, next, 1, &setup.setting};
    next = &setup.settings;
    SetSyncvalStatus("on (VK_EXT_layer_settings)");
  } else if (ChainHas(next, VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT)) {
    // A second VkValidationFeaturesEXT in one chain is invalid; respect the application's.
    SetSyncvalStatus("application's VkValidationFeaturesEXT");
  } else {
    AddExtension(setup, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
    setup.features = {VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT, next, 1, &setup.enable, 0, nullptr};
    next = &setup.features;
    SetSyncvalStatus("on (VkValidationFeaturesEXT)");
  }
  setup.create_info.pNext = next;
  setup.create_info.enabledExtensionCount = static_cast<uint32_t>(setup.extensions.size());
  setup.create_info.ppEnabledExtensionNames = setup.extensions.data();
  setup.install_messenger = true;
}

void InstallMessenger(InstanceState& instance) {
  if (instance.dispatch.CreateDebugUtilsMessengerEXT == nullptr) return;
  VkDebugUtilsMessengerCreateInfoEXT info{};
  info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
  info.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
  info.pfnUserCallback = &OnValidationMessage;
  instance.dispatch.CreateDebugUtilsMessengerEXT(instance.handle, &info, nullptr, &instance.messenger);
}

void RemoveMessenger(InstanceState& instance) {
  if (instance.messenger != VK_NULL_HANDLE && instance.dispatch.DestroyDebugUtilsMessengerEXT != nullptr) {
    instance.dispatch.DestroyDebugUtilsMessengerEXT(instance.handle, instance.messenger, nullptr);
  }
  instance.messenger = VK_NULL_HANDLE;
}

}  // namespace guard
