#include "backend/vulkan/vk_device.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <type_traits>

#include "pipe/device_list.h"
#include "util/log.h"

namespace caldera::vk {
namespace {

bool HasExtension(const std::vector<VkExtensionProperties>& list, const char* name) {
  for (auto& e : list)
    if (!std::strcmp(e.extensionName, name)) return true;
  return false;
}

// Whether every RGTC format's BC counterpart can be a sampled image, filtered linearly and written and read
// by copies (uploads; nothing renders to or blits into them).
bool SamplesBlockCompressed(VkPhysicalDevice physical, std::initializer_list<VkFormat> formats) {
  constexpr VkFormatFeatureFlags kNeeded =
      VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
      VK_FORMAT_FEATURE_TRANSFER_DST_BIT | VK_FORMAT_FEATURE_TRANSFER_SRC_BIT;
  for (VkFormat f : formats) {
    VkFormatProperties props{};
    vkGetPhysicalDeviceFormatProperties(physical, f, &props);
    if ((props.optimalTilingFeatures & kNeeded) != kNeeded) return false;
  }
  return true;
}

// GL_EXT_texture_norm16's formats: the UNORM ones rendered to, blended, filtered and copied; the SNORM ones
// (and RGB16, stored as RGBA16) filtered and copied.
bool HasNorm16Formats(VkPhysicalDevice physical) {
  constexpr VkFormatFeatureFlags kSampled =
      VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
      VK_FORMAT_FEATURE_TRANSFER_DST_BIT | VK_FORMAT_FEATURE_TRANSFER_SRC_BIT;
  constexpr VkFormatFeatureFlags kRendered =
      kSampled | VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT;
  struct Need {
    VkFormat format;
    VkFormatFeatureFlags features;
  };
  for (Need n : {Need{VK_FORMAT_R16_UNORM, kRendered}, Need{VK_FORMAT_R16G16_UNORM, kRendered},
                 Need{VK_FORMAT_R16G16B16A16_UNORM, kRendered}, Need{VK_FORMAT_R16_SNORM, kSampled},
                 Need{VK_FORMAT_R16G16_SNORM, kSampled}, Need{VK_FORMAT_R16G16B16A16_SNORM, kSampled}}) {
    VkFormatProperties props{};
    vkGetPhysicalDeviceFormatProperties(physical, n.format, &props);
    if ((props.optimalTilingFeatures & n.features) != n.features) return false;
  }
  return true;
}

int DeviceTypeRank(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return 3;
    default:
      return 4;
  }
}

}  // namespace

std::unique_ptr<Device> Device::Create(std::string* why, int32_t vulkan_index) {
  std::unique_ptr<Device> d(new Device());
  d->requested_index_ = vulkan_index;
  if (!d->Init(why)) return nullptr;
  return d;
}

VKAPI_ATTR VkBool32 VKAPI_CALL Device::OnDebugMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                      VkDebugUtilsMessageTypeFlagsEXT types,
                                                      const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                      void* user) {
  auto* self = static_cast<Device*>(user);
  if (!(severity &
        (VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)))
    return VK_FALSE;
  const char* text = data->pMessage ? data->pMessage : "";
  if (types & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT) {
    self->validation_messages_.fetch_add(1);
    // Validation findings are Caldera bugs: always print them (tests fail on this marker).
    std::fprintf(stderr, "caldera vulkan-validation: %s\n", text);
  } else {
    // Driver chatter (e.g. lavapipe's SPIR-V parser warnings) is worth seeing but is not a validation
    // finding.
    util::LogOnce(util::LogLevel::kWarning, "vulkan driver", text);
  }
  return VK_FALSE;
}

bool Device::Init(std::string* why) {
  if (pipe::VulkanLoaderOnStack()) {
    // Reached from inside a Vulkan call (a driver's EGL call through glvnd): the loader holds its lock for
    // that call, and an instance made here would wait on it forever.
    *why = "called from inside a Vulkan call, where no instance can be made";
    return false;
  }
  pipe::VulkanSetupScope setup;  // EGL questions the driver asks meanwhile must not re-enter Vulkan
  ParseFaults();
  if (const char* t = util::Env("CALDERA_GPU_TIMEOUT"))
    gpu_timeout_ns_ = std::max<uint64_t>(1, std::strtoull(t, nullptr, 10)) * 1'000'000'000ull;
  uint32_t api = 0;
  if (vkEnumerateInstanceVersion(&api) != VK_SUCCESS || api < VK_API_VERSION_1_3) {
    *why = "the Vulkan loader is older than 1.3";
    return false;
  }
  uint32_t count = 0;
  std::vector<VkExtensionProperties> inst_ext;
  if (vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr) == VK_SUCCESS) {
    inst_ext.resize(count);
    // VK_INCOMPLETE (a layer added one meanwhile) keeps what was returned.
    if (vkEnumerateInstanceExtensionProperties(nullptr, &count, inst_ext.data()) < 0) count = 0;
    inst_ext.resize(count);
  }
  std::vector<const char*> enabled;
  features_.debug_utils = HasExtension(inst_ext, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  if (features_.debug_utils) enabled.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  // Window presentation (vk_swapchain.cpp) where the loader has it; without it windows use the
  // read-back path.
  // CALDERA_VK_WSI=0 leaves the window-system extensions off (every window then reads back).
  bool wsi = util::EnvFlag("CALDERA_VK_WSI", true) && HasExtension(inst_ext, VK_KHR_SURFACE_EXTENSION_NAME);
  features_.xcb_surface = wsi && HasExtension(inst_ext, "VK_KHR_xcb_surface");
  features_.wayland_surface = wsi && HasExtension(inst_ext, "VK_KHR_wayland_surface");
  if (features_.xcb_surface || features_.wayland_surface) enabled.push_back(VK_KHR_SURFACE_EXTENSION_NAME);
  if (features_.xcb_surface) enabled.push_back("VK_KHR_xcb_surface");
  if (features_.wayland_surface) enabled.push_back("VK_KHR_wayland_surface");

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "Caldera";
  app.pEngineName = "Caldera";
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  ici.enabledExtensionCount = static_cast<uint32_t>(enabled.size());
  ici.ppEnabledExtensionNames = enabled.data();
  VkResult r = vkCreateInstance(&ici, nullptr, &instance_);
  if (r != VK_SUCCESS) {
    *why = "vkCreateInstance failed (" + std::to_string(r) + ")";
    return false;
  }
  if (features_.debug_utils) {
    VkDebugUtilsMessengerCreateInfoEXT mci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    mci.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
    mci.messageType =
        VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
    mci.pfnUserCallback = &Device::OnDebugMessage;
    mci.pUserData = this;
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
    if (create) create(instance_, &mci, nullptr, &messenger_);
  }
  if (!PickPhysicalDevice(why) || !CreateLogicalDevice(why)) return false;
  memory_ = std::make_unique<MemoryAllocator>(device_, physical_, limits_.max_allocation);
  LoadPipelineCache();
  VkSemaphoreTypeCreateInfo type_info{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, nullptr,
                                      VK_SEMAPHORE_TYPE_TIMELINE, 0};
  VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &type_info};
  if (vkCreateSemaphore(device_, &sci, nullptr, &timeline_) != VK_SUCCESS) {
    *why = "cannot create a timeline semaphore";
    return false;
  }
  if (fault_stall_at_ && vkCreateSemaphore(device_, &sci, nullptr, &stall_) != VK_SUCCESS)
    stall_ = VK_NULL_HANDLE;
  return true;
}

bool Device::PickPhysicalDevice(std::string* why) {
  uint32_t count = 0;
  std::vector<VkPhysicalDevice> devices;
  if (vkEnumeratePhysicalDevices(instance_, &count, nullptr) == VK_SUCCESS) {
    devices.resize(count);
    if (vkEnumeratePhysicalDevices(instance_, &count, devices.data()) < 0) count = 0;
    devices.resize(count);
  }
  if (devices.empty()) {
    *why = "no Vulkan device";
    return false;
  }
  const char* wanted = requested_index_ >= 0 ? nullptr : util::Env("CALDERA_VK_DEVICE");
  int best = -1, best_rank = 99;
  std::string rejected;
  for (size_t i = 0; i < devices.size(); ++i) {
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(devices[i], &p);
    if (requested_index_ >= 0 && static_cast<size_t>(requested_index_) != i) continue;
    if (wanted) {
      char* end = nullptr;
      long index = std::strtol(wanted, &end, 10);
      bool by_index = end && *end == '\0';
      bool match = by_index ? static_cast<size_t>(index) == i : std::strstr(p.deviceName, wanted) != nullptr;
      if (!match) continue;
    }
    if (p.apiVersion < VK_API_VERSION_1_3) {
      rejected += std::string(p.deviceName) + ": Vulkan 1.3 missing; ";
      continue;
    }
    int rank = DeviceTypeRank(p.deviceType);
    if (rank < best_rank) best = static_cast<int>(i), best_rank = rank;
  }
  if (best < 0) {
    *why = requested_index_ >= 0 ? "no Vulkan 1.3 device at index " + std::to_string(requested_index_)
           : wanted              ? std::string("no device matches CALDERA_VK_DEVICE=") + wanted
                                 : "no device with Vulkan 1.3 (" + rejected + ")";
    return false;
  }
  physical_ = devices[best];
  physical_index_ = static_cast<uint32_t>(best);
  vkGetPhysicalDeviceProperties(physical_, &properties_);
  VkPhysicalDeviceVulkan13Properties v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};
  VkPhysicalDeviceVulkan11Properties v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES, &v13};
  VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &v11};
  vkGetPhysicalDeviceProperties2(physical_, &p2);
  limits_.max_allocation = v11.maxMemoryAllocationSize;
  limits_.max_buffer = v13.maxBufferSize;
  return true;
}

void Device::LoadDynamicState3Commands() {
  auto& d3 = features_.dynamic3;
  auto load = [&](bool& supported, auto& pfn, const char* name) {
    if (supported)
      pfn = reinterpret_cast<std::remove_reference_t<decltype(pfn)>>(vkGetDeviceProcAddr(device_, name));
    if (!pfn) supported = false;
  };
  auto& c = dynamic3;
  load(d3.polygon_mode, c.polygon_mode, "vkCmdSetPolygonModeEXT");
  load(d3.depth_clamp, c.depth_clamp, "vkCmdSetDepthClampEnableEXT");
  load(d3.provoking_vertex, c.provoking_vertex, "vkCmdSetProvokingVertexModeEXT");
  load(d3.sample_mask, c.sample_mask, "vkCmdSetSampleMaskEXT");
  load(d3.alpha_to_coverage, c.alpha_to_coverage, "vkCmdSetAlphaToCoverageEnableEXT");
  load(d3.logic_op, c.logic_op_enable, "vkCmdSetLogicOpEnableEXT");
  load(d3.logic_op, c.logic_op, "vkCmdSetLogicOpEXT");
  load(d3.blend, c.blend_enable, "vkCmdSetColorBlendEnableEXT");
  load(d3.blend, c.blend_equation, "vkCmdSetColorBlendEquationEXT");
  load(d3.blend, c.color_write_mask, "vkCmdSetColorWriteMaskEXT");
  if (d3.any())
    util::Log(util::LogLevel::kInfo, "vulkan",
              std::string("dynamic state 3:") + (d3.polygon_mode ? " polygon-mode" : "") +
                  (d3.depth_clamp ? " depth-clamp" : "") + (d3.provoking_vertex ? " provoking-vertex" : "") +
                  (d3.sample_mask ? " sample-mask" : "") +
                  (d3.alpha_to_coverage ? " alpha-to-coverage" : "") + (d3.logic_op ? " logic-op" : "") +
                  (d3.blend ? " blend" : ""));
}

bool Device::CreateLogicalDevice(std::string* why) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical_, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_, &count, families.data());
  bool found = false;
  for (uint32_t i = 0; i < count; ++i) {
    if (families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) {
      queue_family_ = i;
      found = true;
      break;
    }
  }
  if (!found) {
    *why = "no graphics queue";
    return false;
  }
  std::vector<VkExtensionProperties> ext;
  if (vkEnumerateDeviceExtensionProperties(physical_, nullptr, &count, nullptr) == VK_SUCCESS) {
    ext.resize(count);
    if (vkEnumerateDeviceExtensionProperties(physical_, nullptr, &count, ext.data()) < 0) count = 0;
    ext.resize(count);
  }

  VkPhysicalDeviceDepthClipControlFeaturesEXT clip{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_CONTROL_FEATURES_EXT};
  VkPhysicalDeviceIndexTypeUint8FeaturesEXT u8{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INDEX_TYPE_UINT8_FEATURES_EXT};
  VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT divisor{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT};
  VkPhysicalDeviceProvokingVertexFeaturesEXT provoking{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT};
  VkPhysicalDevicePrimitiveTopologyListRestartFeaturesEXT list_restart{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVE_TOPOLOGY_LIST_RESTART_FEATURES_EXT};
  VkPhysicalDeviceCustomBorderColorFeaturesEXT border{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT};
  VkPhysicalDeviceVertexInputDynamicStateFeaturesEXT vertex_input{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_INPUT_DYNAMIC_STATE_FEATURES_EXT};
  VkPhysicalDeviceExtendedDynamicState2FeaturesEXT eds2{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT};
  VkPhysicalDeviceExtendedDynamicState3FeaturesEXT eds3{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT};
  VkPhysicalDeviceMultiDrawFeaturesEXT multi_draw{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT};
  VkPhysicalDeviceTransformFeedbackFeaturesEXT xfb{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT};
  VkPhysicalDevicePrimitivesGeneratedQueryFeaturesEXT prims{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVES_GENERATED_QUERY_FEATURES_EXT};
  VkPhysicalDeviceLineRasterizationFeaturesEXT lines{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT};
  VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &f13};
  VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f12};
  std::vector<const char*> enabled;
  VkBaseOutStructure* tail = reinterpret_cast<VkBaseOutStructure*>(&f13);
  auto chain = [&](const char* name, void* feature) {
    if (!HasExtension(ext, name)) return false;
    enabled.push_back(name);
    tail->pNext = static_cast<VkBaseOutStructure*>(feature);
    tail = tail->pNext;
    return true;
  };
  chain(VK_EXT_DEPTH_CLIP_CONTROL_EXTENSION_NAME, &clip);
  chain(VK_EXT_INDEX_TYPE_UINT8_EXTENSION_NAME, &u8);
  chain(VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME, &divisor);
  chain(VK_EXT_PROVOKING_VERTEX_EXTENSION_NAME, &provoking);
  chain(VK_EXT_PRIMITIVE_TOPOLOGY_LIST_RESTART_EXTENSION_NAME, &list_restart);
  chain(VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME, &border);
  chain(VK_EXT_LINE_RASTERIZATION_EXTENSION_NAME, &lines);
  features_.swapchain = (features_.xcb_surface || features_.wayland_surface) &&
                        HasExtension(ext, VK_KHR_SWAPCHAIN_EXTENSION_NAME);
  if (features_.swapchain) enabled.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
  features_.incremental_present = features_.swapchain &&
                                  HasExtension(ext, VK_KHR_INCREMENTAL_PRESENT_EXTENSION_NAME) &&
                                  util::EnvFlag("CALDERA_INCREMENTAL_PRESENT", true);
  if (features_.incremental_present) enabled.push_back(VK_KHR_INCREMENTAL_PRESENT_EXTENSION_NAME);
  const char* dvi = util::Env("CALDERA_DYNAMIC_VERTEX_INPUT");
  if (!(dvi && std::strcmp(dvi, "0") == 0))
    chain(VK_EXT_VERTEX_INPUT_DYNAMIC_STATE_EXTENSION_NAME, &vertex_input);
  const char* ds3 = util::Env("CALDERA_DYNAMIC_STATE3");
  if (!(ds3 && std::strcmp(ds3, "0") == 0)) {
    chain(VK_EXT_EXTENDED_DYNAMIC_STATE_2_EXTENSION_NAME,
          &eds2);  // for its logic-op feature (the rest is 1.3)
    chain(VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME, &eds3);
  }
  if (util::EnvFlag("CALDERA_MULTI_DRAW", true)) chain(VK_EXT_MULTI_DRAW_EXTENSION_NAME, &multi_draw);
  // No feature struct: the extension's properties say which sample counts take custom locations. Test
  // knob CALDERA_SAMPLE_LOCATIONS=0 behaves like a device without it (lavapipe).
  const char* locations = util::Env("CALDERA_SAMPLE_LOCATIONS");
  if (HasExtension(ext, VK_EXT_SAMPLE_LOCATIONS_EXTENSION_NAME) &&
      !(locations && std::strcmp(locations, "0") == 0)) {
    enabled.push_back(VK_EXT_SAMPLE_LOCATIONS_EXTENSION_NAME);
    VkPhysicalDeviceSampleLocationsPropertiesEXT sl{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLE_LOCATIONS_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &sl};
    vkGetPhysicalDeviceProperties2(physical_, &p2);
    // The centre must be a representable location.
    if (sl.sampleLocationCoordinateRange[0] <= 0.5f && sl.sampleLocationCoordinateRange[1] >= 0.5f)
      features_.centre_sample_counts = sl.sampleLocationSampleCounts;
  }
  chain(VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME, &xfb);
  chain(VK_EXT_PRIMITIVES_GENERATED_QUERY_EXTENSION_NAME, &prims);
  // Textures and uniform blocks are pushed per draw (no descriptor-set allocation on the hot path).
  features_.push_descriptor = HasExtension(ext, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  if (!features_.push_descriptor) {
    *why = std::string(properties_.deviceName) + " lacks VK_KHR_push_descriptor";
    return false;
  }
  enabled.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  vkGetPhysicalDeviceFeatures2(physical_, &f2);
  if (!f13.dynamicRendering || !f13.synchronization2 || !f12.timelineSemaphore) {
    *why = std::string(properties_.deviceName) +
           " lacks dynamicRendering, synchronization2 or timelineSemaphore";
    return false;
  }
  features_.depth_clip_control = clip.depthClipControl;
  features_.index_type_uint8 = u8.indexTypeUint8;
  features_.provoking_vertex_last = provoking.provokingVertexLast;
  if (!features_.provoking_vertex_last)
    util::LogOnce(util::LogLevel::kWarning, "vulkan",
                  "VK_EXT_provoking_vertex missing: flat varyings come from the first vertex, not GL's last");
  features_.vertex_attribute_divisor = divisor.vertexAttributeInstanceRateDivisor;
  // Samplers are cached by GL state, not by the image they meet, so border colours are given without a
  // format.
  features_.custom_border_color = border.customBorderColors && border.customBorderColorWithoutFormat;
  features_.list_restart = list_restart.primitiveTopologyListRestart;
  features_.vertex_input_dynamic = vertex_input.vertexInputDynamicState;
  if (multi_draw.multiDraw) {
    VkPhysicalDeviceMultiDrawPropertiesEXT md{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &md};
    vkGetPhysicalDeviceProperties2(physical_, &p2);
    features_.max_multi_draw = md.maxMultiDrawCount;
  }
  // Only state whose every GL value the device can also set dynamically: non-fill polygon modes, depth
  // clamp, the last-vertex convention and logic ops need their base features too.
  auto& d3 = features_.dynamic3;
  d3.polygon_mode = eds3.extendedDynamicState3PolygonMode && f2.features.fillModeNonSolid;
  d3.depth_clamp = eds3.extendedDynamicState3DepthClampEnable && f2.features.depthClamp;
  d3.provoking_vertex = eds3.extendedDynamicState3ProvokingVertexMode && provoking.provokingVertexLast;
  d3.sample_mask = eds3.extendedDynamicState3SampleMask;
  d3.alpha_to_coverage = eds3.extendedDynamicState3AlphaToCoverageEnable;
  d3.logic_op =
      eds3.extendedDynamicState3LogicOpEnable && eds2.extendedDynamicState2LogicOp && f2.features.logicOp;
  // Lavapipe (Mesa 22.3) applies a new vkCmdSetLogicOpEXT operation only when the enable changes too: a
  // second operation in a row draws with the first (test dynamic-fixed-state). There logic ops stay in the
  // pipeline key.
  VkPhysicalDeviceTransformFeedbackPropertiesEXT xfb_props{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_PROPERTIES_EXT};
  VkPhysicalDeviceDriverProperties driver{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES,
      HasExtension(ext, VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME) ? &xfb_props : nullptr};
  VkPhysicalDeviceProperties2 props2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &driver};
  vkGetPhysicalDeviceProperties2(physical_, &props2);
  if (driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE) d3.logic_op = false;
  d3.blend = eds3.extendedDynamicState3ColorBlendEnable && eds3.extendedDynamicState3ColorBlendEquation &&
             eds3.extendedDynamicState3ColorWriteMask;
  // Enable exactly what is used.
  eds3 = VkPhysicalDeviceExtendedDynamicState3FeaturesEXT{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT, eds3.pNext};
  eds3.extendedDynamicState3PolygonMode = d3.polygon_mode;
  eds3.extendedDynamicState3DepthClampEnable = d3.depth_clamp;
  eds3.extendedDynamicState3ProvokingVertexMode = d3.provoking_vertex;
  eds3.extendedDynamicState3SampleMask = d3.sample_mask;
  eds3.extendedDynamicState3AlphaToCoverageEnable = d3.alpha_to_coverage;
  eds3.extendedDynamicState3LogicOpEnable = d3.logic_op;
  eds3.extendedDynamicState3ColorBlendEnable = eds3.extendedDynamicState3ColorBlendEquation =
      eds3.extendedDynamicState3ColorWriteMask = d3.blend;
  eds2.extendedDynamicState2LogicOp = d3.logic_op;
  eds2.extendedDynamicState2PatchControlPoints = VK_FALSE;  // no tessellation
  // GL captures one stream; GL_PRIMITIVES_GENERATED must count while GL_RASTERIZER_DISCARD is on.
  features_.transform_feedback = xfb.transformFeedback;
  features_.transform_feedback_draw = xfb.transformFeedback && xfb_props.transformFeedbackDraw;
  xfb.geometryStreams = VK_FALSE;
  features_.primitives_generated_query =
      prims.primitivesGeneratedQuery && prims.primitivesGeneratedQueryWithRasterizerDiscard;
  prims.primitivesGeneratedQueryWithNonZeroStreams = VK_FALSE;
  list_restart.primitiveTopologyPatchListRestart = VK_FALSE;  // no tessellation
  features_.wide_lines = f2.features.wideLines;
  // GL_LINE_STIPPLE: Bresenham lines are GL's aliased lines (the pixels and stipple counter GL 2.1 §3.4.2
  // describes, which Mesa and piglit's linestipple follow); rectangular stippled lines where only those
  // stipple. Unstippled lines keep the device's default mode. Only the modes used stay enabled.
  const bool strict = properties_.limits.strictLines;
  if (lines.bresenhamLines && lines.stippledBresenhamLines)
    features_.line_stipple_mode = VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT;
  else if (strict && lines.rectangularLines && lines.stippledRectangularLines)
    features_.line_stipple_mode = VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT;
  const bool rect = features_.line_stipple_mode == VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT;
  const bool bresenham = features_.line_stipple_mode == VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT;
  lines = VkPhysicalDeviceLineRasterizationFeaturesEXT{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT, lines.pNext};
  lines.rectangularLines = lines.stippledRectangularLines = rect;
  lines.bresenhamLines = lines.stippledBresenhamLines = bresenham;
  features_.fill_mode_non_solid = f2.features.fillModeNonSolid;
  features_.depth_clamp = f2.features.depthClamp;
  features_.dual_src_blend = f2.features.dualSrcBlend;
  features_.logic_op = f2.features.logicOp;
  features_.large_points = f2.features.largePoints;
  features_.independent_blend = f2.features.independentBlend;
  if (!features_.depth_clip_control)
    util::LogOnce(util::LogLevel::kWarning, "vulkan",
                  "VK_EXT_depth_clip_control missing: GL depth range is approximated");

  // Enable only what Caldera uses; unused optional features stay off.
  VkPhysicalDeviceFeatures want{};
  want.wideLines = f2.features.wideLines;
  want.fillModeNonSolid = f2.features.fillModeNonSolid;
  want.depthClamp = f2.features.depthClamp;
  want.dualSrcBlend = f2.features.dualSrcBlend;
  want.logicOp = f2.features.logicOp;
  want.largePoints = f2.features.largePoints;
  want.independentBlend = f2.features.independentBlend;
  want.depthBiasClamp = f2.features.depthBiasClamp;
  want.geometryShader = f2.features.geometryShader;          // GL 3.2+ geometry shaders
  want.shaderClipDistance = f2.features.shaderClipDistance;  // gl_ClipDistance (GL 3.0)
  want.shaderCullDistance = f2.features.shaderCullDistance;
  want.occlusionQueryPrecise = f2.features.occlusionQueryPrecise;
  // Robust buffer access for GL robust contexts (EGL_CONTEXT_OPENGL_ROBUST_ACCESS, GL_KHR_robustness):
  // out-of-bounds buffer reads stay inside the buffer or read zero, writes outside are dropped. It is a
  // device-wide switch and contexts come after the device, so it is on wherever the device has it, as
  // D3D-on-Vulkan layers do. CALDERA_ROBUST_BUFFER_ACCESS=0 turns it off (robust contexts are then refused).
  features_.robust_buffer_access =
      f2.features.robustBufferAccess && util::EnvFlag("CALDERA_ROBUST_BUFFER_ACCESS", true);
  want.robustBufferAccess = features_.robust_buffer_access;
  // GL_EXT_texture_filter_anisotropic; CALDERA_ANISOTROPY=0 leaves it off (a device without it: the
  // extension is not advertised).
  features_.sampler_anisotropy = f2.features.samplerAnisotropy && util::EnvFlag("CALDERA_ANISOTROPY", true);
  want.samplerAnisotropy = features_.sampler_anisotropy;
  features_.norm16 = HasNorm16Formats(physical_);
  features_.native_rgtc =
      f2.features.textureCompressionBC &&
      SamplesBlockCompressed(physical_, {VK_FORMAT_BC4_UNORM_BLOCK, VK_FORMAT_BC4_SNORM_BLOCK,
                                         VK_FORMAT_BC5_UNORM_BLOCK, VK_FORMAT_BC5_SNORM_BLOCK});
  features_.native_s3tc =
      f2.features.textureCompressionBC &&
      SamplesBlockCompressed(
          physical_, {VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_BC1_RGBA_UNORM_BLOCK,
                      VK_FORMAT_BC2_UNORM_BLOCK, VK_FORMAT_BC3_UNORM_BLOCK, VK_FORMAT_BC1_RGB_SRGB_BLOCK,
                      VK_FORMAT_BC1_RGBA_SRGB_BLOCK, VK_FORMAT_BC2_SRGB_BLOCK, VK_FORMAT_BC3_SRGB_BLOCK});
  features_.native_bptc =
      f2.features.textureCompressionBC &&
      SamplesBlockCompressed(physical_, {VK_FORMAT_BC6H_UFLOAT_BLOCK, VK_FORMAT_BC6H_SFLOAT_BLOCK,
                                         VK_FORMAT_BC7_UNORM_BLOCK, VK_FORMAT_BC7_SRGB_BLOCK});
  want.textureCompressionBC = features_.native_rgtc || features_.native_s3tc || features_.native_bptc;
  features_.occlusion_query_precise = f2.features.occlusionQueryPrecise;
  features_.host_query_reset = f12.hostQueryReset;
  // Test knob: CALDERA_HOST_QUERY_RESET=0 exercises the in-command-buffer reset path of devices without it.
  if (const char* e = util::Env("CALDERA_HOST_QUERY_RESET"); e && std::strcmp(e, "0") == 0)
    features_.host_query_reset = false;
  features_.timestamp_valid_bits = families[queue_family_].timestampValidBits;
  f2.features = want;
  VkPhysicalDeviceVulkan13Features want13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, f13.pNext};
  want13.dynamicRendering = VK_TRUE;
  want13.synchronization2 = VK_TRUE;
  VkPhysicalDeviceVulkan12Features want12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &want13};
  want12.timelineSemaphore = VK_TRUE;
  want12.hostQueryReset = features_.host_query_reset;
  f2.pNext = &want12;
  divisor.vertexAttributeInstanceRateZeroDivisor = VK_FALSE;

  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{
      VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, queue_family_, 1, &priority};
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &f2};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  dci.enabledExtensionCount = static_cast<uint32_t>(enabled.size());
  dci.ppEnabledExtensionNames = enabled.data();
  VkResult r = vkCreateDevice(physical_, &dci, nullptr, &device_);
  if (r != VK_SUCCESS) {
    *why = "vkCreateDevice failed (" + std::to_string(r) + ")";
    return false;
  }
  vkGetDeviceQueue(device_, queue_family_, 0, &queue_);
  push_descriptor_set = reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(
      vkGetDeviceProcAddr(device_, "vkCmdPushDescriptorSetKHR"));
  if (features_.vertex_input_dynamic) {
    set_vertex_input =
        reinterpret_cast<PFN_vkCmdSetVertexInputEXT>(vkGetDeviceProcAddr(device_, "vkCmdSetVertexInputEXT"));
    features_.vertex_input_dynamic = set_vertex_input != nullptr;
  }
  LoadDynamicState3Commands();
  if (features_.max_multi_draw) {
    draw_multi = reinterpret_cast<PFN_vkCmdDrawMultiEXT>(vkGetDeviceProcAddr(device_, "vkCmdDrawMultiEXT"));
    draw_multi_indexed = reinterpret_cast<PFN_vkCmdDrawMultiIndexedEXT>(
        vkGetDeviceProcAddr(device_, "vkCmdDrawMultiIndexedEXT"));
    if (!draw_multi || !draw_multi_indexed) features_.max_multi_draw = 0;
  }
  if (features_.transform_feedback) {
    bind_xfb_buffers = reinterpret_cast<PFN_vkCmdBindTransformFeedbackBuffersEXT>(
        vkGetDeviceProcAddr(device_, "vkCmdBindTransformFeedbackBuffersEXT"));
    begin_xfb = reinterpret_cast<PFN_vkCmdBeginTransformFeedbackEXT>(
        vkGetDeviceProcAddr(device_, "vkCmdBeginTransformFeedbackEXT"));
    end_xfb = reinterpret_cast<PFN_vkCmdEndTransformFeedbackEXT>(
        vkGetDeviceProcAddr(device_, "vkCmdEndTransformFeedbackEXT"));
    begin_query_indexed = reinterpret_cast<PFN_vkCmdBeginQueryIndexedEXT>(
        vkGetDeviceProcAddr(device_, "vkCmdBeginQueryIndexedEXT"));
    end_query_indexed = reinterpret_cast<PFN_vkCmdEndQueryIndexedEXT>(
        vkGetDeviceProcAddr(device_, "vkCmdEndQueryIndexedEXT"));
    draw_indirect_byte_count = reinterpret_cast<PFN_vkCmdDrawIndirectByteCountEXT>(
        vkGetDeviceProcAddr(device_, "vkCmdDrawIndirectByteCountEXT"));
  }
  features_.transform_feedback_draw = features_.transform_feedback_draw && draw_indirect_byte_count;

  VkFormatProperties fp;
  vkGetPhysicalDeviceFormatProperties(physical_, VK_FORMAT_D24_UNORM_S8_UINT, &fp);
  if (!(fp.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT))
    depth_stencil_format_ = VK_FORMAT_D32_SFLOAT_S8_UINT;
  return true;
}

void Device::LoadPipelineCache() {
  // The cache file is keyed by the device's pipeline-cache UUID so a driver update never reads stale data.
  const char* disable = util::Env("CALDERA_PIPELINE_CACHE");
  std::vector<char> data;
  if (!disable || std::strcmp(disable, "0") != 0) {
    std::string dir;
    if (const char* xdg = util::Env("XDG_CACHE_HOME"))
      dir = xdg;
    else if (const char* home = util::Env("HOME"))
      dir = std::string(home) + "/.cache";
    if (!dir.empty()) {
      char uuid[2 * VK_UUID_SIZE + 1];
      for (uint32_t i = 0; i < VK_UUID_SIZE; ++i)
        std::snprintf(uuid + 2 * i, 3, "%02x", properties_.pipelineCacheUUID[i]);
      pipeline_cache_path_ = dir + "/caldera/pipelines-" + uuid + ".bin";
      std::ifstream in(pipeline_cache_path_, std::ios::binary);
      if (in) data.assign(std::istreambuf_iterator<char>(in), {});
    }
  }
  VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  info.initialDataSize = data.size();
  info.pInitialData = data.empty() ? nullptr : data.data();
  if (vkCreatePipelineCache(device_, &info, nullptr, &pipeline_cache_) != VK_SUCCESS && !data.empty()) {
    info.initialDataSize = 0;
    info.pInitialData = nullptr;
    // Without a cache pipelines are still made (VK_NULL_HANDLE is a valid "no cache").
    if (!Check(vkCreatePipelineCache(device_, &info, nullptr, &pipeline_cache_), "vkCreatePipelineCache"))
      pipeline_cache_ = VK_NULL_HANDLE;
  }
}

void Device::SavePipelineCache() {
  if (pipeline_cache_path_.empty() || pipeline_cache_ == VK_NULL_HANDLE) return;
  size_t size = 0;
  if (vkGetPipelineCacheData(device_, pipeline_cache_, &size, nullptr) != VK_SUCCESS || size == 0) return;
  std::vector<char> data(size);
  if (vkGetPipelineCacheData(device_, pipeline_cache_, &size, data.data()) != VK_SUCCESS) return;
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(pipeline_cache_path_).parent_path(), ec);
  std::string tmp = pipeline_cache_path_ + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return;
    out.write(data.data(), static_cast<std::streamsize>(size));
  }
  std::filesystem::rename(tmp, pipeline_cache_path_,
                          ec);  // atomic: concurrent processes never see half a file
}

void Device::ReleaseStall() {
  if (!stall_ || stall_released_.exchange(true)) return;  // a timeline value is signalled once
  VkSemaphoreSignalInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, nullptr, stall_, 1};
  vkSignalSemaphore(device_, &info);
}

Device::~Device() {
  if (device_) {
    ReleaseStall();
    vkDeviceWaitIdle(device_);
    SavePipelineCache();
    memory_.reset();
    if (pipeline_cache_) vkDestroyPipelineCache(device_, pipeline_cache_, nullptr);
    if (timeline_) vkDestroySemaphore(device_, timeline_, nullptr);
    if (stall_) vkDestroySemaphore(device_, stall_, nullptr);
    vkDestroyDevice(device_, nullptr);
  }
  if (messenger_) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy) destroy(instance_, messenger_, nullptr);
  }
  if (instance_) vkDestroyInstance(instance_, nullptr);
}

void Device::ParseFaults() {
  const char* spec = util::Env("CALDERA_TEST_FAULT");
  if (!spec) return;
  // A comma-separated list of kind@N.
  std::string list = spec;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    std::string item = list.substr(start, end - start);
    size_t at = item.find('@');
    uint64_t n = at == std::string::npos ? 0 : std::strtoull(item.c_str() + at + 1, nullptr, 10);
    std::string kind = item.substr(0, at);
    if (kind == "device-lost" && n > 0)
      fault_lost_at_ = n;
    else if (kind == "oom" && n > 0)
      fault_oom_at_.push_back(n);
    else if (kind == "stall" && n > 0)
      fault_stall_at_ = n;
    else if (!item.empty())
      util::LogOnce(util::LogLevel::kWarning, "CALDERA_TEST_FAULT", "ignored: " + item);
    start = end + 1;
  }
  util::LogOnce(util::LogLevel::kWarning, "CALDERA_TEST_FAULT",
                std::string("set: ") + spec + " (test-only, fails on purpose)");
}

bool Device::InjectOutOfMemory() {
  if (fault_oom_at_.empty()) return false;
  const uint64_t creation = ++storage_creations_;
  return std::find(fault_oom_at_.begin(), fault_oom_at_.end(), creation) != fault_oom_at_.end();
}

uint64_t Device::Submit(VkCommandBuffer cmd, uint64_t wait_serial) {
  std::lock_guard lock(queue_mutex_);
  uint64_t serial = next_serial_++;
  uint64_t submission = ++submissions_;
  if (fault_lost_at_ && submission == fault_lost_at_) {
    util::Log(util::LogLevel::kError, "vkQueueSubmit2", "injected VK_ERROR_DEVICE_LOST (CALDERA_TEST_FAULT)");
    lost_ = true;
  }
  if (lost_) return serial;  // nothing reaches a lost device; every wait reports the loss
  VkCommandBufferSubmitInfo cbi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, nullptr, cmd, 0};
  VkSemaphoreSubmitInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, nullptr, timeline_, serial,
                               VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,    0};
  VkSubmitInfo2 si{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
  si.commandBufferInfoCount = cmd ? 1 : 0;
  si.pCommandBufferInfos = &cbi;
  si.signalSemaphoreInfoCount = 1;
  si.pSignalSemaphoreInfos = &signal;
  VkSemaphoreSubmitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, nullptr, timeline_, wait_serial,
                             VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,    0};
  VkSemaphoreSubmitInfo waits[2] = {
      wait,
      {VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, nullptr, stall_, 1, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0}};
  if (fault_stall_at_ && submission == fault_stall_at_ && stall_)
    util::Log(util::LogLevel::kError, "vkQueueSubmit2", "injected queue stall (CALDERA_TEST_FAULT)");
  if (fault_stall_at_ && submission >= fault_stall_at_ && stall_) {
    // From the stall on nothing executes, as on a hung GPU: the batches only wait, and once released (after
    // their command buffers and resources are gone) signal their serials in order.
    si.commandBufferInfoCount = 0;
    if (!wait_serial) waits[0] = waits[1];
    si.waitSemaphoreInfoCount = wait_serial ? 2 : 1;
    si.pWaitSemaphoreInfos = waits;
  } else if (wait_serial) {
    si.waitSemaphoreInfoCount = 1;
    si.pWaitSemaphoreInfos = &wait;
  }
  VkResult r = vkQueueSubmit2(queue_, 1, &si, VK_NULL_HANDLE);
  if (r != VK_SUCCESS) {
    util::Log(util::LogLevel::kError, "vkQueueSubmit2", "failed: " + std::to_string(r) + " (device lost)");
    lost_ = true;
  }
  return serial;
}

static const char* ResultName(VkResult r) {
  switch (r) {
    case VK_SUCCESS:
      return "VK_SUCCESS";
    case VK_NOT_READY:
      return "VK_NOT_READY";
    case VK_TIMEOUT:
      return "VK_TIMEOUT";
    case VK_INCOMPLETE:
      return "VK_INCOMPLETE";
    case VK_ERROR_OUT_OF_HOST_MEMORY:
      return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
      return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED:
      return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST:
      return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_MEMORY_MAP_FAILED:
      return "VK_ERROR_MEMORY_MAP_FAILED";
    case VK_ERROR_FORMAT_NOT_SUPPORTED:
      return "VK_ERROR_FORMAT_NOT_SUPPORTED";
    case VK_ERROR_FRAGMENTED_POOL:
      return "VK_ERROR_FRAGMENTED_POOL";
    case VK_ERROR_OUT_OF_POOL_MEMORY:
      return "VK_ERROR_OUT_OF_POOL_MEMORY";
    case VK_ERROR_SURFACE_LOST_KHR:
      return "VK_ERROR_SURFACE_LOST_KHR";
    case VK_ERROR_OUT_OF_DATE_KHR:
      return "VK_ERROR_OUT_OF_DATE_KHR";
    case VK_SUBOPTIMAL_KHR:
      return "VK_SUBOPTIMAL_KHR";
    default:
      return nullptr;
  }
}

bool Device::Check(VkResult result, const char* what) {
  if (result == VK_SUCCESS) return true;
  const char* name = ResultName(result);
  util::LogOnce(util::LogLevel::kError, what,
                std::string("failed: ") + (name ? name : std::to_string(static_cast<int>(result))));
  if (result == VK_ERROR_DEVICE_LOST) lost_ = true;
  return false;
}

uint64_t Device::max_buffer_bytes() const {
  uint64_t m = memory_->largest_heap();
  if (limits_.max_allocation) m = std::min(m, limits_.max_allocation);
  if (limits_.max_buffer) m = std::min(m, limits_.max_buffer);
  return m;
}

uint64_t Device::LastSubmittedSerial() {
  std::lock_guard lock(queue_mutex_);
  return next_serial_ - 1;
}

VkResult Device::Present(const VkPresentInfoKHR& info) {
  std::lock_guard lock(queue_mutex_);
  return vkQueuePresentKHR(queue_, &info);
}

uint64_t Device::CompletedSerial() {
  uint64_t value = 0;
  if (vkGetSemaphoreCounterValue(device_, timeline_, &value) != VK_SUCCESS) lost_ = true;
  return value;
}

bool Device::WaitSerial(uint64_t serial) {
  if (lost_) return false;
  VkSemaphoreWaitInfo wi{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, nullptr, 0, 1, &timeline_, &serial};
  // Waited in slices so that a device that stops making progress is reported (with the serials that tell
  // a never-submitted wait from a stuck queue) and, past CALDERA_GPU_TIMEOUT seconds, treated as lost
  // instead of hanging the program.
  const uint64_t kSliceNs = std::min<uint64_t>(2'000'000'000ull, gpu_timeout_ns_);
  for (uint64_t waited_ns = 0;; waited_ns += kSliceNs) {
    VkResult r = vkWaitSemaphores(device_, &wi, kSliceNs);
    if (r == VK_SUCCESS) return true;
    if (r != VK_TIMEOUT) {
      Check(r, "vkWaitSemaphores");
      lost_ = true;
      return false;
    }
    uint64_t completed = 0;
    vkGetSemaphoreCounterValue(device_, timeline_, &completed);
    util::Log(util::LogLevel::kWarning, "vulkan",
              "waiting " + std::to_string((waited_ns + kSliceNs) / 1'000'000'000ull) + " s for serial " +
                  std::to_string(serial) + " (completed " + std::to_string(completed) + ", last submitted " +
                  std::to_string(LastSubmittedSerial()) + ")");
    if (waited_ns + kSliceNs >= gpu_timeout_ns_) {
      util::Log(util::LogLevel::kError, "vulkan", "the device made no progress: treated as lost");
      lost_ = true;
      ReleaseStall();
      return false;
    }
  }
}

pipe::Timeline::WaitResult Device::WaitSerial(uint64_t serial, uint64_t timeout_ns) {
  if (lost_) return WaitResult::kLost;
  uint64_t value = 0;
  // Fast path without a wait call: most GL fence polls find the work long done.
  if (vkGetSemaphoreCounterValue(device_, timeline_, &value) == VK_SUCCESS && value >= serial)
    return WaitResult::kSignaled;
  // A wait longer than the device may stall for is the blocking wait, which gives up on a stalled device.
  if (timeout_ns >= gpu_timeout_ns_) return WaitSerial(serial) ? WaitResult::kSignaled : WaitResult::kLost;
  VkSemaphoreWaitInfo wi{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, nullptr, 0, 1, &timeline_, &serial};
  VkResult r = vkWaitSemaphores(device_, &wi, timeout_ns);
  if (r == VK_SUCCESS) return WaitResult::kSignaled;
  if (r == VK_TIMEOUT) return WaitResult::kTimeout;
  lost_ = true;
  return WaitResult::kLost;
}

}  // namespace caldera::vk
