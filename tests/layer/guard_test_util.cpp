#include "guard_test_util.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "compute_increment.spv.h"

namespace guard_test {
namespace {

constexpr const char* kCategories[] = {
    "destroyed-while-pending",    "reset-while-pending", "mapped-memory-in-use", "wait-unsubmitted-fence",
    "query-without-availability", "runahead-exceeded",   "sync-hazard",          "validation-error"};

std::string ReportPath() {
  const char* path = std::getenv("CALDERA_GUARD_REPORT");
  if (path == nullptr || path[0] == '\0') Fail("CALDERA_GUARD_REPORT is not set");
  return path;
}

}  // namespace

void Fail(const std::string& message) {
  std::fprintf(stderr, "FAIL: %s\n", message.c_str());
  std::fflush(stderr);
  std::exit(1);
}

Context::Context(const ContextOptions& options) {
  auto app = Init<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "caldera-guard-test";
  app.apiVersion = VK_API_VERSION_1_3;
  auto instance_info = Init<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  instance_info.pApplicationInfo = &app;
  instance_info.enabledExtensionCount = uint32_t(options.instance_extensions.size());
  instance_info.ppEnabledExtensionNames = options.instance_extensions.data();
  GUARD_VK(vkCreateInstance(&instance_info, nullptr, &instance_));

  uint32_t count = 1;
  VkResult result = vkEnumeratePhysicalDevices(instance_, &count, &physical_device_);
  if ((result != VK_SUCCESS && result != VK_INCOMPLETE) || count == 0) Fail("no Vulkan physical device");

  uint32_t family_count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device_, &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device_, &family_count, families.data());
  queue_family_ = family_count;
  for (uint32_t i = 0; i < family_count; ++i) {
    if (families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) {
      queue_family_ = i;
      break;
    }
  }
  if (queue_family_ == family_count) Fail("no graphics queue");

  const float priority = 1.0f;
  auto queue_info = Init<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  queue_info.queueFamilyIndex = queue_family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  auto features13 =
      Init<VkPhysicalDeviceVulkan13Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
  features13.synchronization2 = VK_TRUE;
  features13.dynamicRendering = VK_TRUE;
  auto features12 =
      Init<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  features12.pNext = &features13;
  features12.timelineSemaphore = VK_TRUE;
  features12.hostQueryReset = VK_TRUE;
  auto device_info = Init<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  device_info.pNext = &features12;
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  device_info.enabledExtensionCount = uint32_t(options.device_extensions.size());
  device_info.ppEnabledExtensionNames = options.device_extensions.data();
  GUARD_VK(vkCreateDevice(physical_device_, &device_info, nullptr, &device_));
  vkGetDeviceQueue(device_, queue_family_, 0, &queue_);

  auto pool_info = Init<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = queue_family_;
  GUARD_VK(vkCreateCommandPool(device_, &pool_info, nullptr, &command_pool_));
}

Context::~Context() {
  vkDeviceWaitIdle(device_);
  for (auto it = cleanups_.rbegin(); it != cleanups_.rend(); ++it) (*it)();
  if (command_pool_ != VK_NULL_HANDLE) vkDestroyCommandPool(device_, command_pool_, nullptr);
  vkDestroyDevice(device_, nullptr);
  vkDestroyInstance(instance_, nullptr);
}

uint32_t Context::FindMemoryType(uint32_t type_bits, VkMemoryPropertyFlags properties) const {
  VkPhysicalDeviceMemoryProperties memory{};
  vkGetPhysicalDeviceMemoryProperties(physical_device_, &memory);
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
    if ((type_bits & (1u << i)) && (memory.memoryTypes[i].propertyFlags & properties) == properties) return i;
  }
  Fail("no suitable memory type");
}

Buffer Context::CreateBuffer(VkDeviceSize size, VkBufferUsageFlags usage, bool host_visible,
                             bool register_cleanup) {
  Buffer out;
  auto info = Init<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  info.size = size;
  info.usage = usage;
  GUARD_VK(vkCreateBuffer(device_, &info, nullptr, &out.buffer));
  VkMemoryRequirements requirements{};
  vkGetBufferMemoryRequirements(device_, out.buffer, &requirements);
  auto allocate = Init<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex =
      FindMemoryType(requirements.memoryTypeBits, host_visible ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT
                                                               : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  GUARD_VK(vkAllocateMemory(device_, &allocate, nullptr, &out.memory));
  GUARD_VK(vkBindBufferMemory(device_, out.buffer, out.memory, 0));
  if (register_cleanup) {
    AtTeardown([device = device_, out] {
      vkDestroyBuffer(device, out.buffer, nullptr);
      vkFreeMemory(device, out.memory, nullptr);
    });
  }
  return out;
}

Image Context::CreateColorImage(uint32_t width, uint32_t height, bool register_cleanup) {
  Image out;
  auto info = Init<VkImageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = VK_FORMAT_R8G8B8A8_UNORM;
  info.extent = {width, height, 1};
  info.mipLevels = 1;
  info.arrayLayers = 1;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage =
      VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  GUARD_VK(vkCreateImage(device_, &info, nullptr, &out.image));
  VkMemoryRequirements requirements{};
  vkGetImageMemoryRequirements(device_, out.image, &requirements);
  auto allocate = Init<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = FindMemoryType(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  GUARD_VK(vkAllocateMemory(device_, &allocate, nullptr, &out.memory));
  GUARD_VK(vkBindImageMemory(device_, out.image, out.memory, 0));
  auto view = Init<VkImageViewCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO);
  view.image = out.image;
  view.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view.format = info.format;
  view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  GUARD_VK(vkCreateImageView(device_, &view, nullptr, &out.view));
  if (register_cleanup) {
    AtTeardown([device = device_, out] {
      vkDestroyImageView(device, out.view, nullptr);
      vkDestroyImage(device, out.image, nullptr);
      vkFreeMemory(device, out.memory, nullptr);
    });
  }
  return out;
}

VkCommandBuffer Context::AllocateCommandBuffer() {
  auto info = Init<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  info.commandPool = command_pool_;
  info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  info.commandBufferCount = 1;
  VkCommandBuffer command_buffer = VK_NULL_HANDLE;
  GUARD_VK(vkAllocateCommandBuffers(device_, &info, &command_buffer));
  return command_buffer;
}

void Context::Begin(VkCommandBuffer command_buffer, VkCommandBufferUsageFlags flags) {
  auto info = Init<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  info.flags = flags;
  GUARD_VK(vkBeginCommandBuffer(command_buffer, &info));
}

void Context::End(VkCommandBuffer command_buffer) {
  GUARD_VK(vkEndCommandBuffer(command_buffer));
}

void Context::Submit(VkCommandBuffer command_buffer, VkFence fence) {
  auto submit = Init<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &command_buffer;
  GUARD_VK(vkQueueSubmit(queue_, 1, &submit, fence));
}

VkFence Context::CreateFence(bool signaled) {
  auto info = Init<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  info.flags = signaled ? VK_FENCE_CREATE_SIGNALED_BIT : 0;
  VkFence fence = VK_NULL_HANDLE;
  GUARD_VK(vkCreateFence(device_, &info, nullptr, &fence));
  AtTeardown([device = device_, fence] { vkDestroyFence(device, fence, nullptr); });
  return fence;
}

ComputePipeline Context::CreateComputePipeline(VkBuffer storage, VkDeviceSize size,
                                               VkDescriptorPoolCreateFlags pool_flags) {
  ComputePipeline out;
  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT,
                                       nullptr};
  auto set_info = Init<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
  set_info.bindingCount = 1;
  set_info.pBindings = &binding;
  GUARD_VK(vkCreateDescriptorSetLayout(device_, &set_info, nullptr, &out.set_layout));
  auto layout_info = Init<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &out.set_layout;
  GUARD_VK(vkCreatePipelineLayout(device_, &layout_info, nullptr, &out.layout));

  auto module_info = Init<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  module_info.codeSize = sizeof kComputeIncrementSpirv;
  module_info.pCode = kComputeIncrementSpirv;
  VkShaderModule module = VK_NULL_HANDLE;
  GUARD_VK(vkCreateShaderModule(device_, &module_info, nullptr, &module));
  auto pipeline_info = Init<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  pipeline_info.stage =
      Init<VkPipelineShaderStageCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
  pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipeline_info.stage.module = module;
  pipeline_info.stage.pName = "main";
  pipeline_info.layout = out.layout;
  GUARD_VK(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &out.pipeline));
  vkDestroyShaderModule(device_, module, nullptr);

  VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
  auto pool_info = Init<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
  pool_info.flags = pool_flags;
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &pool_size;
  GUARD_VK(vkCreateDescriptorPool(device_, &pool_info, nullptr, &out.pool));
  auto allocate = Init<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
  allocate.descriptorPool = out.pool;
  allocate.descriptorSetCount = 1;
  allocate.pSetLayouts = &out.set_layout;
  GUARD_VK(vkAllocateDescriptorSets(device_, &allocate, &out.set));
  VkDescriptorBufferInfo buffer_info{storage, 0, size};
  auto write = Init<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
  write.dstSet = out.set;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write.pBufferInfo = &buffer_info;
  vkUpdateDescriptorSets(device_, 1, &write, 0, nullptr);
  return out;
}

void Context::ToGeneralLayout(VkCommandBuffer command_buffer, VkImage image) {
  auto barrier = Init<VkImageMemoryBarrier>(VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
  barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  barrier.newLayout = VK_IMAGE_LAYOUT_GENERAL;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = image;
  barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkCmdPipelineBarrier(command_buffer, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                       VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0,
                       nullptr, 0, nullptr, 1, &barrier);
}

Report Report::Load() {
  std::ifstream file(ReportPath());
  if (!file) Fail("no guard report at " + ReportPath() + " (was the layer loaded?)");
  std::stringstream text;
  text << file.rdbuf();
  Report report;
  report.text_ = text.str();
  return report;
}

void Report::RemoveStale() {
  std::remove(ReportPath().c_str());
}

bool Report::Exists() {
  return static_cast<bool>(std::ifstream(ReportPath()));
}

uint64_t Report::NumberAfter(const std::string& key, size_t from) const {
  const std::string quoted = "\"" + key + "\": ";
  const size_t at = text_.find(quoted, from);
  if (at == std::string::npos) Fail("report has no \"" + key + "\"");
  return std::strtoull(text_.c_str() + at + quoted.size(), nullptr, 10);
}

uint64_t Report::Category(const std::string& category) const {
  return NumberAfter(category, text_.find("\"violations_by_category\""));
}

uint64_t Report::Total(const std::string& metric) const {
  return NumberAfter(metric, text_.find("\"totals\""));
}

uint64_t Report::CommandCalls(const std::string& command) const {
  const size_t at = text_.find("\"" + command + "\": {\"total\"");
  return at == std::string::npos ? 0 : NumberAfter("total", at);
}

std::string Report::Syncval() const {
  const std::string key = "\"syncval\": \"";
  const size_t at = text_.find(key);
  if (at == std::string::npos) Fail("report has no syncval status");
  return text_.substr(at + key.size(), text_.find('"', at + key.size()) - at - key.size());
}

void Report::ExpectOnly(const std::string& category, uint64_t count, bool at_least) const {
  for (const char* name : kCategories) {
    const uint64_t found = Category(name);
    const uint64_t expected = name == category ? count : 0;
    const bool ok = (name == category && at_least) ? found >= expected : found == expected;
    if (!ok) {
      Fail(std::string("category ") + name + ": expected " + (at_least && name == category ? ">= " : "") +
           std::to_string(expected) + ", report says " + std::to_string(found));
    }
  }
}

}  // namespace guard_test
