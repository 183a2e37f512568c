// The Vulkan device a Caldera display renders with: instance, physical device choice, logical device,
// the one graphics queue, feature flags, the timeline that orders every submission, and the pipeline cache.
#pragma once

#include <vulkan/vulkan.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backend/vulkan/vk_memory.h"
#include "pipe/sync.h"

namespace caldera::vk {

// Which of the pipeline's remaining fixed-function state this device can set per command buffer
// (VK_EXT_extended_dynamic_state3, and VK_EXT_extended_dynamic_state2's logic op). What is dynamic leaves the
// PipelineKey, so changing it never creates a pipeline (kill switch CALDERA_DYNAMIC_STATE3=0).
struct DynamicState3Support {
  bool polygon_mode = false;
  bool depth_clamp = false;
  bool provoking_vertex = false;
  bool sample_mask = false;
  bool alpha_to_coverage = false;
  bool logic_op = false;  // enable (EDS3) and operation (EDS2) together
  bool blend = false;     // enable, equation and write mask together
  bool any() const {
    return polygon_mode || depth_clamp || provoking_vertex || sample_mask || alpha_to_coverage || logic_op ||
           blend;
  }
};

// The vkCmdSet* entry points of DynamicState3Support (null where unsupported).
struct DynamicState3Commands {
  PFN_vkCmdSetPolygonModeEXT polygon_mode = nullptr;
  PFN_vkCmdSetDepthClampEnableEXT depth_clamp = nullptr;
  PFN_vkCmdSetProvokingVertexModeEXT provoking_vertex = nullptr;
  PFN_vkCmdSetSampleMaskEXT sample_mask = nullptr;
  PFN_vkCmdSetAlphaToCoverageEnableEXT alpha_to_coverage = nullptr;
  PFN_vkCmdSetLogicOpEnableEXT logic_op_enable = nullptr;
  PFN_vkCmdSetLogicOpEXT logic_op = nullptr;
  PFN_vkCmdSetColorBlendEnableEXT blend_enable = nullptr;
  PFN_vkCmdSetColorBlendEquationEXT blend_equation = nullptr;
  PFN_vkCmdSetColorWriteMaskEXT color_write_mask = nullptr;
};

struct DeviceFeatures {
  bool depth_clip_control = false;     // GL's -1..1 clip depth without shader patching
  bool index_type_uint8 = false;       // GL_UNSIGNED_BYTE indices
  bool provoking_vertex_last = false;  // VK_EXT_provoking_vertex: flat varyings from the last vertex, as GL
  bool list_restart = false;           // primitive restart in list topologies (GL restarts every topology)
  bool vertex_attribute_divisor = false;
  bool debug_utils = false;
  bool wide_lines = false;
  // VK_EXT_line_rasterization: the mode stippled lines are drawn in; VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT
  // when the device cannot stipple (GL_LINE_STIPPLE is then ignored, logged once).
  VkLineRasterizationModeEXT line_stipple_mode = VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT;
  bool fill_mode_non_solid = false;
  bool depth_clamp = false;
  bool dual_src_blend = false;
  bool logic_op = false;      // GL_COLOR_LOGIC_OP
  bool large_points = false;  // point sizes other than 1
  bool independent_blend = false;
  bool push_descriptor = false;
  bool sampler_anisotropy = false;       // samplerAnisotropy enabled (CALDERA_ANISOTROPY=0 leaves it off)
  bool robust_buffer_access = false;     // robustBufferAccess enabled: GL robust contexts can be offered
  bool host_query_reset = false;         // query slots reset on the host, so never inside a render pass
  bool occlusion_query_precise = false;  // GL_SAMPLES_PASSED counts exactly
  bool custom_border_color = false;      // VK_EXT_custom_border_color without a format: any GL border colour
  // VK_EXT_sample_locations at these sample counts: with GL_MULTISAMPLE disabled every sample sits at the
  // pixel centre, which is GL's single-sample rasterization of a multisampled target.
  VkSampleCountFlags centre_sample_counts = 0;
  // VK_EXT_vertex_input_dynamic_state: vertex formats, offsets, strides and divisors are command-buffer
  // state, so a vertex-layout change never creates a pipeline (kill switch CALDERA_DYNAMIC_VERTEX_INPUT=0).
  bool vertex_input_dynamic = false;
  // VK_EXT_multi_draw: consecutive GL draws with nothing between them become one vkCmdDrawMulti*EXT
  // (kill switch CALDERA_MULTI_DRAW=0). 0: unsupported.
  uint32_t max_multi_draw = 0;
  DynamicState3Support dynamic3;
  uint32_t timestamp_valid_bits = 0;  // of the graphics queue; 0: no timestamps
  // VK_EXT_transform_feedback (GL transform feedback, GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN) and
  // VK_EXT_primitives_generated_query (GL_PRIMITIVES_GENERATED, counted with rasterizer discard too).
  bool transform_feedback = false;
  bool transform_feedback_draw = false;  // transformFeedbackDraw: glDrawTransformFeedback from the counters
  bool primitives_generated_query = false;
  // textureCompressionBC, and BC4/BC5 (UNORM and SNORM) images can be sampled with linear filtering and
  // written by copies: RGTC textures are stored as their blocks (BackendCaps::native_rgtc).
  bool native_rgtc = false;
  // R16/RG16/RGBA16 render targets and their SNORM forms sampled with filtering (BackendCaps::norm16).
  bool norm16 = false;
  bool native_s3tc = false;      // the same for BC1-BC3 (S3TC, sRGB forms included)
  bool native_bptc = false;      // the same for BC6H and BC7 (BPTC)
  bool xcb_surface = false;      // VK_KHR_surface + VK_KHR_xcb_surface on the instance
  bool wayland_surface = false;  // VK_KHR_surface + VK_KHR_wayland_surface on the instance
  bool swapchain = false;        // VK_KHR_swapchain on the device (with xcb_surface or wayland_surface)
  // VK_KHR_incremental_present (with swapchain): swap damage passed on as present regions.
  // CALDERA_INCREMENTAL_PRESENT=0 leaves it off.
  bool incremental_present = false;
};

class Device final : public pipe::Timeline {
 public:
  // Returns null and fills *why when no usable device exists (no loader, no device, missing feature).
  // `vulkan_index` >= 0 opens that physical device (vkEnumeratePhysicalDevices order: an EGL device),
  // before CALDERA_VK_DEVICE and the type ranking.
  static std::unique_ptr<Device> Create(std::string* why, int32_t vulkan_index = -1);
  ~Device();

  VkInstance instance() const { return instance_; }
  VkPhysicalDevice physical() const { return physical_; }
  uint32_t physical_index() const { return physical_index_; }  // in vkEnumeratePhysicalDevices order
  VkDevice device() const { return device_; }
  VkQueue queue() const { return queue_; }
  uint32_t queue_family() const { return queue_family_; }
  const VkPhysicalDeviceProperties& properties() const { return properties_; }
  const DeviceFeatures& features() const { return features_; }
  // What one buffer may be: at most maxBufferSize, maxMemoryAllocationSize and the largest heap. Larger
  // requests are GL_OUT_OF_MEMORY before any Vulkan call (which would be invalid, and slow on NVIDIA).
  uint64_t max_buffer_bytes() const;
  MemoryAllocator& memory() { return *memory_; }
  VkPipelineCache pipeline_cache() const { return pipeline_cache_; }
  VkFormat depth_stencil_format() const { return depth_stencil_format_; }
  PFN_vkCmdPushDescriptorSetKHR push_descriptor_set = nullptr;
  PFN_vkCmdSetVertexInputEXT set_vertex_input = nullptr;  // with features().vertex_input_dynamic
  DynamicState3Commands dynamic3;                         // with features().dynamic3
  PFN_vkCmdDrawMultiEXT draw_multi = nullptr;             // with features().max_multi_draw
  PFN_vkCmdDrawMultiIndexedEXT draw_multi_indexed = nullptr;
  PFN_vkCmdBindTransformFeedbackBuffersEXT bind_xfb_buffers = nullptr;
  PFN_vkCmdBeginTransformFeedbackEXT begin_xfb = nullptr;
  PFN_vkCmdEndTransformFeedbackEXT end_xfb = nullptr;
  PFN_vkCmdDrawIndirectByteCountEXT draw_indirect_byte_count =
      nullptr;  // with features().transform_feedback_draw
  PFN_vkCmdBeginQueryIndexedEXT begin_query_indexed = nullptr;
  PFN_vkCmdEndQueryIndexedEXT end_query_indexed = nullptr;

  // Submissions from every context are ordered on one timeline semaphore; serial N completes in order.
  // `wait_serial` (0: none) makes the submission wait on the device for an earlier serial (glWaitSync).
  uint64_t Submit(VkCommandBuffer cmd,
                  uint64_t wait_serial = 0);  // returns the serial that signals when it completes
  // vkQueuePresentKHR under the same lock as every vkQueueSubmit2: the queue is externally synchronised.
  VkResult Present(const VkPresentInfoKHR& info);
  uint64_t CompletedSerial();
  uint64_t LastSubmittedSerial();                                        // 0 before the first submission
  bool WaitSerial(uint64_t serial);                                      // false on device loss
  WaitResult WaitSerial(uint64_t serial, uint64_t timeout_ns) override;  // GL fences
  bool lost() const { return lost_.load(); }
  // Every VkResult goes through here: false (and a one-time error line naming `what`) unless VK_SUCCESS;
  // VK_ERROR_DEVICE_LOST marks the device lost. Callers skip the work that needed the result.
  bool Check(VkResult result, const char* what);
  // Test-only fault injection (CALDERA_TEST_FAULT, docs/ENVIRONMENT.md): true when this object storage
  // creation must fail as if the device were out of memory ("oom@N": the N-th one from the start; the list
  // may name several).
  bool InjectOutOfMemory();
  uint64_t validation_messages() const { return validation_messages_.load(); }

 private:
  Device() = default;
  bool Init(std::string* why);
  bool PickPhysicalDevice(std::string* why);
  bool CreateLogicalDevice(std::string* why);
  void LoadDynamicState3Commands();
  void LoadPipelineCache();
  void SavePipelineCache();
  static VKAPI_ATTR VkBool32 VKAPI_CALL OnDebugMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                       VkDebugUtilsMessageTypeFlagsEXT types,
                                                       const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                       void* user);

  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  int32_t requested_index_ = -1;  // Create's vulkan_index
  uint32_t physical_index_ = 0;
  VkPhysicalDeviceProperties properties_{};
  struct {
    uint64_t max_allocation = 0, max_buffer = 0;  // 0: not reported
  } limits_;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  DeviceFeatures features_;
  VkFormat depth_stencil_format_ = VK_FORMAT_D24_UNORM_S8_UINT;
  std::unique_ptr<MemoryAllocator> memory_;
  VkPipelineCache pipeline_cache_ = VK_NULL_HANDLE;
  std::string pipeline_cache_path_;

  std::mutex queue_mutex_;
  VkSemaphore timeline_ = VK_NULL_HANDLE;
  uint64_t next_serial_ = 1;
  std::atomic<bool> lost_{false};
  // CALDERA_TEST_FAULT: 0 = never; else the 1-based count at which the fault strikes.
  uint64_t fault_lost_at_ = 0, fault_stall_at_ = 0;
  std::vector<uint64_t> fault_oom_at_;  // every oom@N of the list (several storage creations may fail)
  // stall@N (test-only): submission N also waits on this semaphore, which only the host signals (once the
  // device is given up as stalled, or at teardown), so the queue stops as a hung GPU's would.
  VkSemaphore stall_ = VK_NULL_HANDLE;
  std::atomic<bool> stall_released_{false};
  void ReleaseStall();
  uint64_t gpu_timeout_ns_ = 60'000'000'000ull;  // CALDERA_GPU_TIMEOUT (seconds)
  std::atomic<uint64_t> submissions_{0}, storage_creations_{0};
  void ParseFaults();
  std::atomic<uint64_t> validation_messages_{0};
};

}  // namespace caldera::vk
