// Draw-heavy Vulkan program for measuring VK_LAYER_CALDERA_guard's overhead: every frame records
// --draws small triangles into a 64x64 target with dynamic rendering, each draw binding its
// pipeline, setting viewport/scissor and pushing constants (the bind/state traffic the layer
// hashes), with two frames in flight. The layer is switched on and off from the environment;
// run_overhead.py runs the configurations side by side.
//
// Prints one line: frames, draws per frame, wall time per frame, CPU recording time per draw.
#include <vulkan/vulkan.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "triangle.frag.h"
#include "triangle.vert.h"

namespace {

constexpr uint32_t kSize = 64;
constexpr int kFramesInFlight = 2;

[[noreturn]] void Die(const char* what, VkResult result) {
  std::fprintf(stderr, "layer_overhead: %s failed (%d)\n", what, result);
  std::exit(1);
}

#define BENCH_VK(call)                                        \
  do {                                                        \
    const VkResult bench_result = (call);                     \
    if (bench_result != VK_SUCCESS) Die(#call, bench_result); \
  } while (0)

template <typename T>
T Init(VkStructureType type) {
  T value{};
  value.sType = type;
  return value;
}

struct Options {
  int frames = 200;
  int draws = 1000;
};

Options ParseOptions(int argc, char** argv) {
  Options options;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--frames") == 0) options.frames = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--draws") == 0) options.draws = std::atoi(argv[i + 1]);
  }
  return options;
}

struct Gpu {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t family = 0;
};

Gpu CreateGpu() {
  Gpu gpu;
  auto app = Init<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "caldera-layer-overhead";
  app.apiVersion = VK_API_VERSION_1_3;
  auto instance_info = Init<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  instance_info.pApplicationInfo = &app;
  BENCH_VK(vkCreateInstance(&instance_info, nullptr, &gpu.instance));
  uint32_t count = 1;
  const VkResult enumerated = vkEnumeratePhysicalDevices(gpu.instance, &count, &gpu.physical_device);
  if ((enumerated != VK_SUCCESS && enumerated != VK_INCOMPLETE) || count == 0)
    Die("finding a device", enumerated);
  const float priority = 1.0f;
  auto queue_info = Init<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  queue_info.queueFamilyIndex = 0;  // lavapipe and desktop drivers: family 0 does graphics
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  auto features13 =
      Init<VkPhysicalDeviceVulkan13Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
  features13.dynamicRendering = VK_TRUE;
  auto device_info = Init<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  device_info.pNext = &features13;
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  BENCH_VK(vkCreateDevice(gpu.physical_device, &device_info, nullptr, &gpu.device));
  vkGetDeviceQueue(gpu.device, 0, 0, &gpu.queue);
  return gpu;
}

VkShaderModule CreateModule(VkDevice device, const uint32_t* code, size_t size) {
  auto info = Init<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  info.codeSize = size;
  info.pCode = code;
  VkShaderModule module = VK_NULL_HANDLE;
  BENCH_VK(vkCreateShaderModule(device, &info, nullptr, &module));
  return module;
}

VkPipeline CreatePipeline(VkDevice device, VkPipelineLayout layout) {
  VkShaderModule vertex = CreateModule(device, kTriangleVertSpirv, sizeof kTriangleVertSpirv);
  VkShaderModule fragment = CreateModule(device, kTriangleFragSpirv, sizeof kTriangleFragSpirv);
  VkPipelineShaderStageCreateInfo stages[2] = {
      Init<VkPipelineShaderStageCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO),
      Init<VkPipelineShaderStageCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO)};
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = vertex;
  stages[0].pName = "main";
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = fragment;
  stages[1].pName = "main";
  auto vertex_input =
      Init<VkPipelineVertexInputStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO);
  auto assembly = Init<VkPipelineInputAssemblyStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO);
  assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  auto viewport =
      Init<VkPipelineViewportStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO);
  viewport.viewportCount = 1;
  viewport.scissorCount = 1;
  auto raster = Init<VkPipelineRasterizationStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO);
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.lineWidth = 1.0f;
  auto multisample =
      Init<VkPipelineMultisampleStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO);
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineColorBlendAttachmentState blend_attachment{};
  blend_attachment.colorWriteMask = 0xF;
  auto blend =
      Init<VkPipelineColorBlendStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO);
  blend.attachmentCount = 1;
  blend.pAttachments = &blend_attachment;
  const VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  auto dynamic = Init<VkPipelineDynamicStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO);
  dynamic.dynamicStateCount = 2;
  dynamic.pDynamicStates = dynamic_states;
  const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
  auto rendering = Init<VkPipelineRenderingCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO);
  rendering.colorAttachmentCount = 1;
  rendering.pColorAttachmentFormats = &format;
  auto info = Init<VkGraphicsPipelineCreateInfo>(VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO);
  info.pNext = &rendering;
  info.stageCount = 2;
  info.pStages = stages;
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &assembly;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pColorBlendState = &blend;
  info.pDynamicState = &dynamic;
  info.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  BENCH_VK(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline));
  vkDestroyShaderModule(device, vertex, nullptr);
  vkDestroyShaderModule(device, fragment, nullptr);
  return pipeline;
}

struct Target {
  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
};

Target CreateTarget(const Gpu& gpu) {
  Target target;
  auto info = Init<VkImageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = VK_FORMAT_R8G8B8A8_UNORM;
  info.extent = {kSize, kSize, 1};
  info.mipLevels = 1;
  info.arrayLayers = 1;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  BENCH_VK(vkCreateImage(gpu.device, &info, nullptr, &target.image));
  VkMemoryRequirements requirements{};
  vkGetImageMemoryRequirements(gpu.device, target.image, &requirements);
  VkPhysicalDeviceMemoryProperties properties{};
  vkGetPhysicalDeviceMemoryProperties(gpu.physical_device, &properties);
  uint32_t type = 0;
  while (type < properties.memoryTypeCount && !(requirements.memoryTypeBits & (1u << type))) ++type;
  auto allocate = Init<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = type;
  BENCH_VK(vkAllocateMemory(gpu.device, &allocate, nullptr, &target.memory));
  BENCH_VK(vkBindImageMemory(gpu.device, target.image, target.memory, 0));
  auto view = Init<VkImageViewCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO);
  view.image = target.image;
  view.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view.format = info.format;
  view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  BENCH_VK(vkCreateImageView(gpu.device, &view, nullptr, &target.view));
  return target;
}

void RecordFrame(VkCommandBuffer cb, const Target& target, VkPipeline pipeline, VkPipelineLayout layout,
                 int draws) {
  auto begin = Init<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  BENCH_VK(vkBeginCommandBuffer(cb, &begin));
  // Every frame starts from UNDEFINED (contents are cleared anyway), which also orders it after
  // the previous frame's attachment writes.
  auto barrier = Init<VkImageMemoryBarrier>(VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
  barrier.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  barrier.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = target.image;
  barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                       VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0, nullptr, 0, nullptr, 1, &barrier);
  auto attachment = Init<VkRenderingAttachmentInfo>(VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO);
  attachment.imageView = target.view;
  attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  auto rendering = Init<VkRenderingInfo>(VK_STRUCTURE_TYPE_RENDERING_INFO);
  rendering.renderArea = {{0, 0}, {kSize, kSize}};
  rendering.layerCount = 1;
  rendering.colorAttachmentCount = 1;
  rendering.pColorAttachments = &attachment;
  vkCmdBeginRendering(cb, &rendering);
  const VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
  const VkRect2D scissor{{0, 0}, {kSize, kSize}};
  for (int i = 0; i < draws; ++i) {
    // Engines commonly rebind per draw; the layer counts these as redundant binds.
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdSetViewport(cb, 0, 1, &viewport);
    vkCmdSetScissor(cb, 0, 1, &scissor);
    const float offset[2] = {float(i % 17) / 10.0f - 0.8f, float(i % 13) / 8.0f - 0.75f};
    vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof offset, offset);
    vkCmdDraw(cb, 3, 1, 0, 0);
  }
  vkCmdEndRendering(cb);
  BENCH_VK(vkEndCommandBuffer(cb));
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = ParseOptions(argc, argv);
  Gpu gpu = CreateGpu();
  const VkPushConstantRange push{VK_SHADER_STAGE_VERTEX_BIT, 0, 2 * sizeof(float)};
  auto layout_info = Init<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  layout_info.pushConstantRangeCount = 1;
  layout_info.pPushConstantRanges = &push;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  BENCH_VK(vkCreatePipelineLayout(gpu.device, &layout_info, nullptr, &layout));
  VkPipeline pipeline = CreatePipeline(gpu.device, layout);
  Target target = CreateTarget(gpu);

  auto pool_info = Init<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  VkCommandPool pool = VK_NULL_HANDLE;
  BENCH_VK(vkCreateCommandPool(gpu.device, &pool_info, nullptr, &pool));
  VkCommandBuffer command_buffers[kFramesInFlight];
  auto allocate = Init<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  allocate.commandPool = pool;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = kFramesInFlight;
  BENCH_VK(vkAllocateCommandBuffers(gpu.device, &allocate, command_buffers));
  VkFence fences[kFramesInFlight];
  auto fence_info = Init<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  fence_info.flags = VK_FENCE_CREATE_SIGNALED_BIT;
  for (VkFence& fence : fences) BENCH_VK(vkCreateFence(gpu.device, &fence_info, nullptr, &fence));

  using Clock = std::chrono::steady_clock;
  Clock::duration recording{};
  const Clock::time_point start = Clock::now();
  for (int frame = 0; frame < options.frames; ++frame) {
    const int slot = frame % kFramesInFlight;
    BENCH_VK(vkWaitForFences(gpu.device, 1, &fences[slot], VK_TRUE, UINT64_MAX));
    BENCH_VK(vkResetFences(gpu.device, 1, &fences[slot]));
    const Clock::time_point record_start = Clock::now();
    RecordFrame(command_buffers[slot], target, pipeline, layout, options.draws);
    recording += Clock::now() - record_start;
    auto submit = Init<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &command_buffers[slot];
    BENCH_VK(vkQueueSubmit(gpu.queue, 1, &submit, fences[slot]));
  }
  BENCH_VK(vkWaitForFences(gpu.device, kFramesInFlight, fences, VK_TRUE, UINT64_MAX));
  const double total_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  const double record_ms = std::chrono::duration<double, std::milli>(recording).count();
  const double total_draws = double(options.frames) * options.draws;
  std::printf("frames=%d draws_per_frame=%d ms_per_frame=%.3f record_ns_per_draw=%.1f\n", options.frames,
              options.draws, total_ms / options.frames, record_ms * 1e6 / total_draws);

  for (VkFence fence : fences) vkDestroyFence(gpu.device, fence, nullptr);
  vkDestroyCommandPool(gpu.device, pool, nullptr);
  vkDestroyImageView(gpu.device, target.view, nullptr);
  vkDestroyImage(gpu.device, target.image, nullptr);
  vkFreeMemory(gpu.device, target.memory, nullptr);
  vkDestroyPipeline(gpu.device, pipeline, nullptr);
  vkDestroyPipelineLayout(gpu.device, layout, nullptr);
  vkDestroyDevice(gpu.device, nullptr);
  vkDestroyInstance(gpu.instance, nullptr);
  return 0;
}
