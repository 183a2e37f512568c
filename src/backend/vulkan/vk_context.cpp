// The Vulkan context's core: set-up, statistics, chunk execution, command buffers and their submission,
// and the barriers the other parts share. Render passes and clears are vk_pass.cpp, draws vk_draw.cpp,
// blits and mipmaps vk_blit_record.cpp, uploads, copies and reads vk_transfers.cpp, queries vk_queries.cpp,
// transform feedback vk_transform_feedback.cpp.
#include "backend/vulkan/vk_context.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "backend/vulkan/vk_device.h"
#include "backend/vulkan/vk_formats.h"
#include "pipe/texel_rows.h"
#include "util/log.h"

namespace caldera::vk {
namespace {

constexpr VkDeviceSize kRingPage = 4u << 20;

VkMemoryBarrier2 FullBarrier() {
  VkMemoryBarrier2 b{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
  b.srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  b.srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT;
  b.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  b.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
  return b;
}

}  // namespace

Context::Context(const Shared& shared) : shared_(shared), ring_(*shared.device, kRingPage) {
  deferred_clears_ = util::EnvFlag("CALDERA_DEFERRED_CLEARS", true);
  clear_draws_enabled_ = util::EnvFlag("CALDERA_VK_CLEAR_DRAWS", true);
  readback_row_copy_ = util::EnvFlag("CALDERA_PIXEL_ROW_COPY", true);
  if (const char* every = util::Env("CALDERA_STATS_SAMPLE_EVERY"))
    sample_every_ = std::strtoull(every, nullptr, 10);
  diff_dynamic_state_ = util::EnvFlag("CALDERA_DYNAMIC_STATE_DIFF", true);
  direct_writes_ = util::EnvFlag("CALDERA_DIRECT_BUFFER_WRITES", true);
  merge_draws_ = shared_.device->features().max_multi_draw > 2;  // the device honours CALDERA_MULTI_DRAW=0
  push_delta_ = util::EnvFlag("CALDERA_VK_PUSH_DELTA", true);
  vertex_delta_ = util::EnvFlag("CALDERA_VK_VERTEX_DELTA", true);
  test_stale_stride_ = util::EnvFlag("CALDERA_TEST_VERTEX_DELTA_STALE_STRIDE", false);
  if (const char* skip = util::Env("CALDERA_TEST_SKIP_CLEAR_RESOLVE")) {
    // A comma-separated list of read kinds whose resolve is skipped.
    std::string list = std::string(skip) + ",";
    static const std::pair<const char*, ClearResolve> kKinds[] = {
        {"target-switch", ClearResolve::kTargetSwitch},
        {"readback", ClearResolve::kReadback},
        {"blit", ClearResolve::kBlit},
        {"copy", ClearResolve::kCopy},
        {"upload", ClearResolve::kUpload}};
    for (auto& [name, kind] : kKinds)
      if (list.find(std::string(name) + ",") != std::string::npos)
        skip_resolve_ |= 1u << static_cast<uint32_t>(kind);
    util::LogOnce(util::LogLevel::kWarning, "CALDERA_TEST_SKIP_CLEAR_RESOLVE",
                  std::string("set: pending clears are NOT resolved before ") + skip +
                      " (test-only, renders wrongly on purpose)");
  }
  VkDevice dev = shared_.device->device();
  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pci.queueFamilyIndex = shared_.device->queue_family();
  // The spare command buffer takes what a context records after a command buffer could not be had
  // (BreakRecording); without one, the context never records (Execute reports it lost).
  broken_ = true;
  if (CheckVk(vkCreateCommandPool(dev, &pci, nullptr, &pool_), "vkCreateCommandPool")) {
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool_,
                                   VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    if (CheckVk(vkAllocateCommandBuffers(dev, &ai, &spare_cmd_), "vkAllocateCommandBuffers") &&
        CheckVk(vkBeginCommandBuffer(spare_cmd_, &bi), "vkBeginCommandBuffer"))
      broken_ = false;
  }
}

void Context::WriteSample() {
  const char* path = util::Env("CALDERA_STATS");
  if (!path) return;
  MemoryStats memory = shared_.device->memory().stats();
  Resources::Counts objects = shared_.resources->counts();
  if (FILE* f = std::fopen(path, "a")) {
    std::fprintf(
        f,
        "{\"sample\": %llu, \"device_allocations\": %llu, \"live_suballocations\": %llu, "
        "\"live_buffers\": %llu, \"live_images\": %llu, \"live_programs\": %llu, \"garbage\": %llu, "
        "\"samplers\": %llu, \"ring_pages\": %u, \"descriptor_pools\": %zu, \"command_buffers\": %zu, "
        "\"pipelines_created\": %llu, \"pipelines_live\": %llu}\n",
        (unsigned long long)finishes_, (unsigned long long)memory.device_allocations,
        (unsigned long long)memory.live_suballocations, (unsigned long long)objects.buffers,
        (unsigned long long)objects.images, (unsigned long long)objects.programs,
        (unsigned long long)objects.garbage, (unsigned long long)objects.samplers, ring_.page_count(),
        descriptor_pools_.size(), in_flight_.size() + free_cmds_.size(),
        (unsigned long long)shared_.pipelines->stats().created,
        (unsigned long long)shared_.pipelines->stats().live);
    std::fclose(f);
  }
}

void Context::WriteStats() {
  const char* path = util::Env("CALDERA_STATS");
  if (!path) return;
  auto pipelines = shared_.pipelines->stats();
  if (FILE* f = std::fopen(path, "a")) {
    std::fprintf(
        f,
        "{\"clears_deferred\": %llu, \"clears_folded\": %llu, \"clears_in_pass\": %llu, "
        "\"render_passes\": %llu, \"draws\": %llu, \"submits\": %llu, \"pipelines_created\": %llu, "
        "\"pbo_copies\": %llu, \"dynamic_sets\": %llu, \"dynamic3_sets\": %llu, \"draws_merged\": "
        "%llu, \"multi_draws\": %llu, \"compressed_uploads\": %llu, \"handover_submits\": %llu, "
        "\"ring_splits\": %llu, \"readback_row_copies\": %llu, \"readback_row_loops\": %llu, "
        "\"direct_buffer_writes\": %llu, \"descriptor_writes_skipped\": %llu, \"clears_drawn\": %llu, "
        "\"vertex_layouts_skipped\": %llu, \"vertex_binds_skipped\": %llu}\n",
        (unsigned long long)stats_.clears_deferred, (unsigned long long)stats_.clears_folded,
        (unsigned long long)stats_.clears_in_pass, (unsigned long long)stats_.render_passes,
        (unsigned long long)stats_.draws, (unsigned long long)stats_.submits,
        (unsigned long long)pipelines.created, (unsigned long long)stats_.pbo_copies,
        (unsigned long long)stats_.dynamic_sets, (unsigned long long)stats_.dynamic3_sets,
        (unsigned long long)stats_.draws_merged, (unsigned long long)stats_.multi_draws,
        (unsigned long long)stats_.compressed_uploads, (unsigned long long)stats_.handover_submits,
        (unsigned long long)stats_.ring_splits, (unsigned long long)stats_.readback_row_copies,
        (unsigned long long)stats_.readback_row_loops, (unsigned long long)stats_.direct_buffer_writes,
        (unsigned long long)stats_.descriptor_writes_skipped, (unsigned long long)stats_.clears_drawn,
        (unsigned long long)stats_.vertex_layouts_skipped, (unsigned long long)stats_.vertex_binds_skipped);
    std::fclose(f);
  }
}

Context::~Context() {
  std::unique_lock lock(shared_.resources->mutex);
  if (shared_.resources->recorder == this) shared_.resources->recorder = nullptr;
  uint64_t serial = 0;
  SubmitAndStamp(&serial);
  if (serial) shared_.device->WaitSerial(serial);
  for (auto& s : in_flight_) shared_.device->WaitSerial(s.serial);
  Collect();
  for (auto& block : staging_blocks_) {
    vkDestroyBuffer(shared_.device->device(), block->buffer, nullptr);
    shared_.device->memory().Free(block->alloc);
  }
  if (stats_.render_passes || stats_.clears_deferred || stats_.clears_in_pass || stats_.clears_drawn ||
      stats_.compressed_uploads || stats_.readback_row_copies || stats_.readback_row_loops)
    WriteStats();
  for (auto& row : dummies_)
    for (auto& dummy : row)
      if (dummy.image) shared_.resources->DestroyStandaloneImage(dummy);
  VkDevice dev = shared_.device->device();
  DestroyXfbCounters();
  for (VkDescriptorPool pool : descriptor_pools_) vkDestroyDescriptorPool(dev, pool, nullptr);
  vkDestroyCommandPool(dev, pool_, nullptr);
}

bool Context::Execute(const pipe::CommandChunk& chunk) {
  std::lock_guard lock(shared_.resources->mutex);
  TakeOverRecording();
  if (broken_) return false;
  chunk.ForEach([&](pipe::Op op, const uint8_t* record, const uint8_t* payload) {
    if (broken_) return;  // what follows a failed command buffer is dropped: the context is lost
    if (batch_.count && op != pipe::Op::kDraw) FlushDrawBatch();
    pipe::Dispatch(*this, op, record, payload);
    if (op != pipe::Op::kBufferStorage) fresh_buffer_ = {};
    if (ring_.failed()) broken_ = true;  // host-visible memory ran out (logged)
  });
  FlushDrawBatch();
  PublishLiveCounters();
  return !shared_.device->lost() && !broken_;
}

void Context::PublishLiveCounters() {
  SetCounter(live_counters_.draws, stats_.draws);
  SetCounter(live_counters_.render_passes, stats_.render_passes);
  SetCounter(live_counters_.submits, stats_.submits);
  SetCounter(live_counters_.pipelines_created, shared_.pipelines->stats().created);
  SetCounter(live_counters_.device_memory_bytes, shared_.device->memory().stats().device_bytes);
}

bool Context::CheckVk(VkResult result, const char* what) {
  return shared_.device->Check(result, what);
}

void Context::TakeOverRecording() {
  Context*& recorder = shared_.resources->recorder;
  if (recorder == this) return;
  if (recorder) {
    if (recorder->cmd_) ++recorder->stats_.handover_submits;
    uint64_t serial = 0;
    recorder->SubmitAndStamp(&serial);
  }
  recorder = this;
}

VkCommandBuffer Context::Commands() {
  if (cmd_) return cmd_;
  if (shared_.device->lost()) return BreakRecording();
  Collect();
  if (free_cmds_.empty()) {
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool_,
                                   VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VkCommandBuffer cb = VK_NULL_HANDLE;
    if (!CheckVk(vkAllocateCommandBuffers(shared_.device->device(), &ai, &cb), "vkAllocateCommandBuffers"))
      return BreakRecording();
    free_cmds_.push_back(cb);
  }
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  if (!CheckVk(vkBeginCommandBuffer(free_cmds_.back(), &bi), "vkBeginCommandBuffer")) return BreakRecording();
  cmd_ = free_cmds_.back();
  free_cmds_.pop_back();
  ForgetBoundState();  // dynamic state and bindings do not survive command buffers
  return cmd_;
}

void Context::ForgetBoundState() {
  fixed_dirty_ = vertex_dirty_ = true;
  uniform_bound_ = false;
  resources_dirty_ = true;
  pushed_set_.Invalidate();  // push descriptors start undefined in each command buffer
  bound_pipeline_ = VK_NULL_HANDLE;
  dynamic_topology_ = VK_PRIMITIVE_TOPOLOGY_MAX_ENUM;
  dynamic3_valid_ = dynamic_valid_ = false;
  bound_index_buffer_ = VK_NULL_HANDLE;
  sent_vertex_layout_.valid = false;  // vertex input starts undefined in each command buffer too
  bound_vertex_mask_ = 0;
}

VkCommandBuffer Context::BreakRecording() {
  // Every caller records into what Commands() returns; the spare (begun at creation, never submitted)
  // takes those commands, and Execute drops the rest: the context reports itself lost.
  broken_ = true;
  cmd_ = spare_cmd_;
  return cmd_;
}

bool Context::SubmitAndStamp(uint64_t* serial) {
  *serial = 0;
  if (broken_ && cmd_) {
    // A broken recording is never submitted (it may lack what its commands need); its ring pages and
    // retired objects wait only for what was submitted before.
    if (cmd_ != spare_cmd_) {
      vkResetCommandBuffer(cmd_, 0);
      free_cmds_.push_back(cmd_);
    }
    cmd_ = VK_NULL_HANDLE;
    ring_.Stamp(shared_.device->LastSubmittedSerial());
    if (pipe::StagingArena* arena = staging())
      arena->StampSubmitted(shared_.device, shared_.device->LastSubmittedSerial());
  }
  if (!cmd_) {
    if (!retired_.empty()) {
      // Nothing recorded since: what was retired is unused once every submission so far has completed
      // (other contexts' included: they may have used a shared object that this context replaced).
      uint64_t last = shared_.device->LastSubmittedSerial();
      for (auto& g : retired_) g.serial = last;
      shared_.resources->Retire(retired_);
      retired_.clear();
    }
    return true;
  }
  EndPass();
  if (!CheckVk(vkEndCommandBuffer(cmd_), "vkEndCommandBuffer")) {
    broken_ = true;  // nothing of it can run
    SubmitAndStamp(serial);
    return false;
  }
  *serial = shared_.device->Submit(cmd_, std::exchange(wait_serial_, 0));
  ++stats_.submits;
  in_flight_.push_back({cmd_, *serial});
  cmd_ = VK_NULL_HANDLE;
  ring_.Stamp(*serial);
  if (pipe::StagingArena* arena = staging()) arena->StampSubmitted(shared_.device, *serial);
  queries_.Stamp(*serial);
  for (auto& g : retired_) g.serial = *serial;
  shared_.resources->Retire(retired_);
  retired_.clear();
  return !shared_.device->lost();
}

void Context::Collect() {
  uint64_t completed = shared_.device->CompletedSerial();
  size_t kept = 0;
  for (auto& s : in_flight_) {
    if (s.serial <= completed) {
      vkResetCommandBuffer(s.cmd, 0);
      free_cmds_.push_back(s.cmd);
    } else {
      in_flight_[kept++] = s;
    }
  }
  in_flight_.resize(kept);
  ring_.Recycle(completed);
  shared_.resources->Collect(completed);
}

void Context::TransitionImage(ImageObject& image, VkImageLayout layout) {
  if (image.layout != layout) ImageBarrier(image, layout);
}

void Context::ImageBarrier(ImageObject& image, VkImageLayout layout) {
  VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
  b.srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  b.srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT;
  b.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  b.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
  b.oldLayout = image.layout;
  b.newLayout = layout;
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image.image;
  b.subresourceRange = {image.aspect, 0, image.levels, 0, image.layers};
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.imageMemoryBarrierCount = 1;
  dep.pImageMemoryBarriers = &b;
  vkCmdPipelineBarrier2(Commands(), &dep);
  image.layout = layout;
}

void Context::BeforeTransferWrite(VkBuffer buffer) {
  if (graphics_since_transfer_ ||
      std::find(transfer_written_.begin(), transfer_written_.end(), buffer) != transfer_written_.end()) {
    TransferBarrier();
    graphics_since_transfer_ = false;
  }
  transfer_written_.push_back(buffer);
}

void Context::BeforeImageTransfer(VkImage read, VkImage write) {
  auto written = [&](VkImage image) {
    return image != VK_NULL_HANDLE &&
           std::find(images_written_.begin(), images_written_.end(), image) != images_written_.end();
  };
  if (written(read) || written(write)) TransferBarrier();
  if (write != VK_NULL_HANDLE) images_written_.push_back(write);
}

void Context::TransferBarrier() {
  transfer_written_.clear();
  images_written_.clear();
  VkMemoryBarrier2 b = FullBarrier();
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.memoryBarrierCount = 1;
  dep.pMemoryBarriers = &b;
  vkCmdPipelineBarrier2(Commands(), &dep);
}

}  // namespace caldera::vk
