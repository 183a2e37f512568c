// Shared scaffolding for the guard layer's test programs: a headless Vulkan 1.3 device on the first
// physical device, small resource helpers, and checks against the layer's JSON report.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace guard_test {

[[noreturn]] void Fail(const std::string& message);

#define GUARD_CHECK(condition)                                                  \
  do {                                                                          \
    if (!(condition))                                                           \
      ::guard_test::Fail(std::string(__FILE__ ":") + std::to_string(__LINE__) + \
                         ": check failed: " #condition);                        \
  } while (0)

#define GUARD_VK(call)                                                                       \
  do {                                                                                       \
    const VkResult guard_vk_result = (call);                                                 \
    if (guard_vk_result != VK_SUCCESS)                                                       \
      ::guard_test::Fail(std::string(#call " returned ") + std::to_string(guard_vk_result)); \
  } while (0)

// A zeroed Vulkan structure with its sType set (brace-initialising only sType trips
// -Wmissing-field-initializers).
template <typename T>
T Init(VkStructureType type) {
  T value{};
  value.sType = type;
  return value;
}

struct Buffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
};

struct Image {
  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
};

// A storage-buffer compute pipeline (compute_increment.comp) with its set layout and one set.
struct ComputePipeline {
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkDescriptorSet set = VK_NULL_HANDLE;
};

// Extensions beyond the core 1.3 device, for tests that need WSI.
struct ContextOptions {
  std::vector<const char*> instance_extensions;
  std::vector<const char*> device_extensions;
};

class Context {
 public:
  // Creates instance, device (timeline semaphores, synchronization2, dynamic rendering), one
  // queue and a resettable command pool.
  explicit Context(const ContextOptions& options = {});
  // Waits for the device, runs the registered cleanups in reverse order, destroys device and
  // instance (which makes the layer write its report).
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  VkInstance instance() const { return instance_; }
  VkPhysicalDevice physical_device() const { return physical_device_; }
  uint32_t queue_family() const { return queue_family_; }
  VkDevice device() const { return device_; }
  VkQueue queue() const { return queue_; }
  VkCommandPool command_pool() const { return command_pool_; }

  // Registers a destroy call to run at teardown; objects a test destroys itself are not registered.
  void AtTeardown(std::function<void()> cleanup) { cleanups_.push_back(std::move(cleanup)); }

  Buffer CreateBuffer(VkDeviceSize size, VkBufferUsageFlags usage, bool host_visible,
                      bool register_cleanup = true);
  Image CreateColorImage(uint32_t width, uint32_t height, bool register_cleanup = true);
  VkCommandBuffer AllocateCommandBuffer();
  void Begin(VkCommandBuffer command_buffer, VkCommandBufferUsageFlags flags = 0);
  void End(VkCommandBuffer command_buffer);
  void Submit(VkCommandBuffer command_buffer, VkFence fence = VK_NULL_HANDLE);
  VkFence CreateFence(bool signaled);
  // Builds the compute pipeline bound to `storage` (a storage buffer).
  ComputePipeline CreateComputePipeline(VkBuffer storage, VkDeviceSize size,
                                        VkDescriptorPoolCreateFlags pool_flags = 0);
  // Transitions a fresh image to GENERAL, recorded into `command_buffer`.
  void ToGeneralLayout(VkCommandBuffer command_buffer, VkImage image);

 private:
  uint32_t FindMemoryType(uint32_t type_bits, VkMemoryPropertyFlags properties) const;

  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  VkCommandPool command_pool_ = VK_NULL_HANDLE;
  std::vector<std::function<void()>> cleanups_;
};

// The report the layer writes to $CALDERA_GUARD_REPORT.
class Report {
 public:
  // Reads the report; fails the test when there is none (the layer was not loaded).
  static Report Load();
  // Removes a stale report so that a run that never loads the layer cannot pass on old output.
  static void RemoveStale();
  static bool Exists();

  uint64_t Category(const std::string& category) const;
  uint64_t Total(const std::string& metric) const;  // from "totals"
  uint64_t CommandCalls(const std::string& command) const;
  uint64_t Frames() const { return NumberAfter("frames"); }
  std::string Syncval() const;
  // Every category must have exactly the expected count (unnamed ones zero); `at_least` relaxes
  // the named category to ">= count".
  void ExpectOnly(const std::string& category, uint64_t count, bool at_least = false) const;
  void ExpectClean() const { ExpectOnly("", 0); }

 private:
  uint64_t NumberAfter(const std::string& key, size_t from = 0) const;
  std::string text_;
};

}  // namespace guard_test
