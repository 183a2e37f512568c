// The Vulkan backend: one Device, its resource tables and pipeline cache, and a Context per GL context.
#include <algorithm>
#include <cstdint>
#include <memory>

#include "backend/vulkan/vk_context.h"
#include "backend/vulkan/vk_device.h"
#include "backend/vulkan/vk_swapchain.h"
#include "pipe/backend.h"

namespace caldera {
namespace vk {
namespace {

class Backend final : public pipe::Backend {
 public:
  explicit Backend(std::unique_ptr<Device> device) : device_(std::move(device)) {
    resources_ = std::make_unique<Resources>(*device_);
    pipelines_ = std::make_unique<PipelineCache>(*device_);
    const auto& limits = device_->properties().limits;
    caps_.renderer = std::string("Caldera (Vulkan: ") + device_->properties().deviceName + ")";
    caps_.vulkan_device_index = static_cast<int32_t>(device_->physical_index());
    caps_.robust_buffer_access = device_->features().robust_buffer_access;
    caps_.max_texture_size = std::min<uint32_t>(limits.maxImageDimension2D, 16384);
    caps_.max_viewport[0] = std::min<uint32_t>(limits.maxViewportDimensions[0], 16384);
    caps_.max_viewport[1] = std::min<uint32_t>(limits.maxViewportDimensions[1], 16384);
    if (device_->features().wide_lines) {
      caps_.line_width_range[0] = limits.lineWidthRange[0];
      caps_.line_width_range[1] = limits.lineWidthRange[1];
    }
    caps_.point_size_range[0] = limits.pointSizeRange[0];
    caps_.point_size_range[1] = limits.pointSizeRange[1];
    caps_.max_color_attachments = std::min<uint32_t>(limits.maxColorAttachments, pipe::kMaxColorAttachments);
    caps_.max_uniform_block_size = std::min<uint32_t>(limits.maxUniformBufferRange, 16384);
    caps_.max_buffer_size = device_->max_buffer_bytes();
    caps_.vertex_types_converted = 1u << pipe::VertexFormat::kInt | 1u << pipe::VertexFormat::kUInt |
                                   1u << pipe::VertexFormat::kFixed | 1u << pipe::VertexFormat::kDouble;
    caps_.timestamp_bits = device_->features().timestamp_valid_bits;
    caps_.draw_transform_feedback = device_->features().transform_feedback_draw;
    // Multisampled images are render targets and sampled images (sampler2DMS) of any colour or depth
    // format: only the counts every use allows.
    VkSampleCountFlags counts = limits.framebufferColorSampleCounts & limits.framebufferDepthSampleCounts &
                                limits.framebufferStencilSampleCounts & limits.sampledImageColorSampleCounts &
                                limits.sampledImageDepthSampleCounts & 0x7F;
    caps_.sample_counts = counts | 1u;
    for (uint32_t n = 64; n > 1; n >>= 1) {
      if (caps_.sample_counts & n) {
        caps_.max_samples = n;
        break;
      }
    }
    // Depth/stencil resolves are rendering scopes with a SAMPLE_ZERO resolve attachment (Vulkan 1.2 core
    // VK_KHR_depth_stencil_resolve: every device supports SAMPLE_ZERO for both aspects).
    caps_.resolve_depth_stencil = true;
    caps_.native_rgtc = device_->features().native_rgtc;
    caps_.max_anisotropy = device_->features().sampler_anisotropy ? limits.maxSamplerAnisotropy : 0.0f;
    // sRGB images are created mutable (vk_resources.cpp): their UNORM views read the encoded values.
    caps_.srgb_decode = true;
    caps_.norm16 = device_->features().norm16;
    caps_.native_s3tc = device_->features().native_s3tc;
    caps_.native_bptc = device_->features().native_bptc;
    caps_.subresource_images = true;  // views and subresource ranges of the parent (vk_resources.cpp)
    DescribeRenderer();
  }

  ~Backend() override {
    vkDeviceWaitIdle(device_->device());
    pipelines_.reset();
    resources_.reset();
    device_.reset();
  }

  const pipe::BackendCaps& caps() const override { return caps_; }

  std::unique_ptr<pipe::BackendContext> CreateContext() override {
    return std::make_unique<Context>(Shared{device_.get(), resources_.get(), pipelines_.get()});
  }

  std::unique_ptr<pipe::Presenter> CreatePresenter(const pipe::NativeWindowHandle& window,
                                                   std::string* why) override {
    return Swapchain::Create(*device_, *resources_, window, why);
  }

  bool WindowTearsLateSwaps(const pipe::NativeWindowHandle& window) override {
    return Swapchain::TearsLateSwaps(*device_, window);
  }

 private:
  // GLX_MESA_query_renderer's facts. Vulkan vendor ids above 0xFFFF are Khronos ids of non-PCI vendors
  // (Mesa's for lavapipe): no PCI ids then.
  void DescribeRenderer() {
    const VkPhysicalDeviceProperties& props = device_->properties();
    if (props.vendorID <= 0xFFFF) {
      caps_.pci_vendor_id = props.vendorID;
      caps_.pci_device_id = props.deviceID;
    }
    caps_.accelerated = props.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU;
    caps_.unified_memory = props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ||
                           props.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;
    VkPhysicalDeviceMemoryProperties memory{};
    vkGetPhysicalDeviceMemoryProperties(device_->physical(), &memory);
    uint64_t local = 0;
    for (uint32_t i = 0; i < memory.memoryHeapCount; ++i)
      if (memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) local += memory.memoryHeaps[i].size;
    caps_.video_memory_mb = uint32_t(std::min<uint64_t>(local >> 20, UINT32_MAX));
  }

  std::unique_ptr<Device> device_;
  std::unique_ptr<Resources> resources_;
  std::unique_ptr<PipelineCache> pipelines_;
  pipe::BackendCaps caps_;
};

}  // namespace
}  // namespace vk

std::unique_ptr<pipe::Backend> pipe::CreateVulkanBackend(std::string* why, int32_t vulkan_index) {
  auto device = vk::Device::Create(why, vulkan_index);
  if (!device) return nullptr;
  return std::make_unique<vk::Backend>(std::move(device));
}

}  // namespace caldera
