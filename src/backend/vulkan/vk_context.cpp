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

bool Context::PendingClear::any() const {
  if (depth || stencil) return true;
  for (bool c : color)
    if (c) return true;
  return false;
}

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
        "\"direct_buffer_writes\": %llu, \"descriptor_writes_skipped\": %llu, \"clears_drawn\": %llu}\n",
        (unsigned long long)stats_.clears_deferred, (unsigned long long)stats_.clears_folded,
        (unsigned long long)stats_.clears_in_pass, (unsigned long long)stats_.render_passes,
        (unsigned long long)stats_.draws, (unsigned long long)stats_.submits,
        (unsigned long long)pipelines.created, (unsigned long long)stats_.pbo_copies,
        (unsigned long long)stats_.dynamic_sets, (unsigned long long)stats_.dynamic3_sets,
        (unsigned long long)stats_.draws_merged, (unsigned long long)stats_.multi_draws,
        (unsigned long long)stats_.compressed_uploads, (unsigned long long)stats_.handover_submits,
        (unsigned long long)stats_.ring_splits, (unsigned long long)stats_.readback_row_copies,
        (unsigned long long)stats_.readback_row_loops, (unsigned long long)stats_.direct_buffer_writes,
        (unsigned long long)stats_.descriptor_writes_skipped, (unsigned long long)stats_.clears_drawn);
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

void Context::BeginPass() {
  if (pass_open_) return;
  VkCommandBuffer cmd = Commands();
  if (transfer_since_pass_) {
    TransferBarrier();
    transfer_since_pass_ = false;
  }
  auto& images = shared_.resources->images;
  VkRenderingAttachmentInfo colors[pipe::kMaxColorAttachments] = {};
  uint32_t color_count = 0;
  for (uint32_t i = 0; i < pipe::kMaxColorAttachments; ++i) {
    VkRenderingAttachmentInfo& a = colors[i];
    a.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
    ImageObject* img = images.Get(targets_.color[i].image);
    VkImageView view =
        img ? shared_.resources->AttachmentView(*img, targets_.color[i].level, targets_.color[i].layer,
                                                targets_.srgb_encode != 0, targets_.layers)
            : VK_NULL_HANDLE;
    if (!view) continue;
    color_count = i + 1;
    bool undefined = img->layout == VK_IMAGE_LAYOUT_UNDEFINED;
    VkImageLayout layout = TargetLayout(targets_.color[i].image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    TransitionImage(*img, layout);
    a.imageView = view;
    a.imageLayout = layout;
    // Deferred clears become the load op: no separate clear pass (Zink's trick).
    a.loadOp = pending_clear_.color[i] ? VK_ATTACHMENT_LOAD_OP_CLEAR
               : undefined             ? VK_ATTACHMENT_LOAD_OP_DONT_CARE
                                       : VK_ATTACHMENT_LOAD_OP_LOAD;
    a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    a.clearValue.color = pending_clear_.color_value[i];
  }
  VkRenderingAttachmentInfo depth{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  VkRenderingAttachmentInfo stencil{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  ImageObject* ds = images.Get(targets_.depth_stencil.image);
  VkImageView ds_view =
      ds ? shared_.resources->AttachmentView(*ds, targets_.depth_stencil.level, targets_.depth_stencil.layer,
                                             true, targets_.layers)
         : VK_NULL_HANDLE;
  if (!ds_view) ds = nullptr;
  if (ds) {
    bool undefined = ds->layout == VK_IMAGE_LAYOUT_UNDEFINED;
    VkImageLayout layout =
        TargetLayout(targets_.depth_stencil.image, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
    TransitionImage(*ds, layout);
    for (auto* a : {&depth, &stencil}) {
      bool clear = a == &depth ? pending_clear_.depth : pending_clear_.stencil;
      a->imageView = ds_view;
      a->imageLayout = layout;
      a->loadOp = clear       ? VK_ATTACHMENT_LOAD_OP_CLEAR
                  : undefined ? VK_ATTACHMENT_LOAD_OP_DONT_CARE
                              : VK_ATTACHMENT_LOAD_OP_LOAD;
      a->storeOp = VK_ATTACHMENT_STORE_OP_STORE;
      a->clearValue.depthStencil = {pending_clear_.depth_value, pending_clear_.stencil_value};
    }
  }
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, {targets_.width, targets_.height}};
  // Layered targets render (and load-op clear) every layer; gl_Layer picks one per primitive.
  ri.layerCount = std::max(targets_.layers, 1u);
  ri.colorAttachmentCount = color_count;
  ri.pColorAttachments = colors;
  bool has_stencil = ds && (ds->aspect & VK_IMAGE_ASPECT_STENCIL_BIT);
  ri.pDepthAttachment = ds ? &depth : nullptr;
  ri.pStencilAttachment = has_stencil ? &stencil : nullptr;
  vkCmdBeginRendering(cmd, &ri);
  ++stats_.render_passes;
  if (pending_clear_.any()) ++stats_.clears_folded;
  pass_open_ = true;
  pending_clear_ = {};
  graphics_since_transfer_ = true;
}

void Context::EndPass() {
  if (!pass_open_) return;
  EndOcclusionSegment();
  EndPrimitiveSegment(0);
  EndPrimitiveSegment(1);
  const bool captured = EndTransformFeedbackInPass();
  vkCmdEndRendering(cmd_);
  pass_open_ = false;
  // The next segment of the capture reads the counters just written and appends to the same buffers;
  // later commands read what was captured.
  if (captured) TransferBarrier();
}

void Context::FlushPendingClears(ClearResolve why) {
  if (!pending_clear_.any() || (skip_resolve_ & (1u << static_cast<uint32_t>(why)))) return;
  BeginPass();  // the load ops perform the clears
  EndPass();
}

void Context::OnSetRenderTargets(const pipe::CmdSetRenderTargets& cmd) {
  if (std::memcmp(&cmd, &targets_, sizeof(cmd)) == 0) return;  // redundant bind: keep the pass open
  FlushPendingClears(ClearResolve::kTargetSwitch);
  EndPass();
  targets_ = cmd;
  textures_need_layout_check_ = true;  // a former target may now be sampled
  fixed_dirty_ = true;                 // the scissor for "disabled" depends on the target size
}

void Context::ClearExtraLayers(ImageObject& img, uint32_t level, const VkClearAttachment& clear,
                               const VkRect2D& rect) {
  uint32_t layers = img.is_3d() ? std::max(img.depth >> level, 1u) : img.layers;
  if (layers <= targets_.layers) return;
  uint32_t count = layers - targets_.layers;
  VkImageView view =
      shared_.resources->AttachmentView(img, level, targets_.layers, targets_.srgb_encode != 0, count);
  if (!view) return;
  EndPass();
  Commands();
  if (transfer_since_pass_) {  // as BeginPass: earlier copies into the image come first
    TransferBarrier();
    transfer_since_pass_ = false;
  }
  bool color = clear.aspectMask == VK_IMAGE_ASPECT_COLOR_BIT;
  VkImageLayout layout =
      color ? VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  TransitionImage(img, layout);
  VkRenderingAttachmentInfo a{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  a.imageView = view;
  a.imageLayout = layout;
  a.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
  a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, {targets_.width, targets_.height}};
  ri.layerCount = count;
  if (color) {
    ri.colorAttachmentCount = 1;
    ri.pColorAttachments = &a;
  } else {
    ri.pDepthAttachment = (img.aspect & VK_IMAGE_ASPECT_DEPTH_BIT) ? &a : nullptr;
    ri.pStencilAttachment = (img.aspect & VK_IMAGE_ASPECT_STENCIL_BIT) ? &a : nullptr;
  }
  vkCmdBeginRendering(Commands(), &ri);
  VkClearRect r{rect, 0, count};
  vkCmdClearAttachments(cmd_, 1, &clear, 1, &r);
  vkCmdEndRendering(cmd_);
  ++stats_.render_passes;
  graphics_since_transfer_ = true;
}

void Context::OnClear(const pipe::CmdClear& cmd) {
  auto& images = shared_.resources->images;
  bool color = (cmd.mask & pipe::kClearColor) && cmd.color_write_mask != 0;
  bool depth = (cmd.mask & pipe::kClearDepth) && cmd.depth_write;
  bool stencil = (cmd.mask & pipe::kClearStencil) && (cmd.stencil_write_mask & 0xFF) != 0;
  int32_t x0 = 0, y0 = 0, x1 = static_cast<int32_t>(targets_.width),
          y1 = static_cast<int32_t>(targets_.height);
  if (cmd.scissor_enable) {
    x0 = std::max(x0, cmd.scissor[0]);
    y0 = std::max(y0, cmd.scissor[1]);
    x1 = std::min(x1, pipe::ScissorEnd(cmd.scissor[0], cmd.scissor[2]));
    y1 = std::min(y1, pipe::ScissorEnd(cmd.scissor[1], cmd.scissor[3]));
    if (x0 >= x1 || y0 >= y1) return;
  }
  bool whole = x0 == 0 && y0 == 0 && x1 == static_cast<int32_t>(targets_.width) &&
               y1 == static_cast<int32_t>(targets_.height);
  ImageObject* ds = images.Get(targets_.depth_stencil.image);
  bool ds_has_stencil = ds && (ds->aspect & VK_IMAGE_ASPECT_STENCIL_BIT);
  if (!ds) depth = stencil = false;
  if (!ds_has_stencil) stencil = false;

  VkClearColorValue value[pipe::kMaxColorAttachments];
  for (uint32_t i = 0; i < pipe::kMaxColorAttachments; ++i) {
    ImageObject* img = images.Get(targets_.color[i].image);
    value[i] = ClearColorFor(cmd, img ? img->pipe_format : pipe::Format::kRGBA8);
  }
  if (targets_.layers != 0) {
    // GL clears every layer of a layered attachment; the render covers only the smallest layer count, so
    // attachments with more layers get theirs cleared in a scope of their own.
    VkRect2D rect{{x0, y0}, {uint32_t(x1 - x0), uint32_t(y1 - y0)}};
    for (uint32_t i = 0; i < pipe::kMaxColorAttachments && color; ++i) {
      ImageObject* img = images.Get(targets_.color[i].image);
      if (!img || !(cmd.color_targets & (1u << i))) continue;
      VkClearAttachment a{VK_IMAGE_ASPECT_COLOR_BIT, 0, {}};
      a.clearValue.color = value[i];
      ClearExtraLayers(*img, targets_.color[i].level, a, rect);
    }
    if (depth || stencil) {
      VkClearAttachment a{VkImageAspectFlags((depth ? VK_IMAGE_ASPECT_DEPTH_BIT : 0) |
                                             (stencil ? VK_IMAGE_ASPECT_STENCIL_BIT : 0)),
                          0,
                          {}};
      a.clearValue.depthStencil = {cmd.depth, cmd.stencil & 0xFF};
      ClearExtraLayers(*ds, targets_.depth_stencil.level, a, rect);
    }
  }
  // Partial colour or stencil masks: those clears are drawn; the attachments drawn drop out of the rest.
  uint8_t color_targets = cmd.color_targets;
  if ((color && (cmd.color_write_mask & 0xF) != 0xF) ||
      (stencil && (cmd.stencil_write_mask & 0xFF) != 0xFF)) {
    bool stencil_drawn = false;
    const VkRect2D area{{x0, y0}, {uint32_t(x1 - x0), uint32_t(y1 - y0)}};
    color_targets &= uint8_t(~DrawMaskedClears(cmd, value, color, stencil, area, &stencil_drawn));
    if (stencil_drawn) stencil = false;
    if (!clear_draws_enabled_)
      util::LogOnce(util::LogLevel::kWarning, "glClear",
                    "partial colour and stencil masks are not applied to clears (CALDERA_VK_CLEAR_DRAWS=0)");
  }
  if (!pass_open_ && whole && deferred_clears_) {
    ++stats_.clears_deferred;
    // Deferred: the next pass (or the next read of these targets) loads with CLEAR.
    for (uint32_t i = 0; i < pipe::kMaxColorAttachments; ++i) {
      if (!color || !images.Get(targets_.color[i].image) || !(color_targets & (1u << i))) continue;
      pending_clear_.color[i] = true;
      pending_clear_.color_value[i] = value[i];
    }
    if (depth) pending_clear_.depth = true, pending_clear_.depth_value = cmd.depth;
    if (stencil) pending_clear_.stencil = true, pending_clear_.stencil_value = cmd.stencil & 0xFF;
    return;
  }
  // Inside an open pass (or a partial rectangle): clear attachments without ending the pass.
  ++stats_.clears_in_pass;
  BeginPass();
  VkClearAttachment attachments[pipe::kMaxColorAttachments + 1];
  uint32_t n = 0;
  for (uint32_t i = 0; i < pipe::kMaxColorAttachments && color; ++i) {
    if (!images.Get(targets_.color[i].image) || !(color_targets & (1u << i))) continue;
    VkClearAttachment& a = attachments[n++];
    a.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    a.colorAttachment = i;
    a.clearValue.color = value[i];
  }
  if (depth || stencil) {
    VkClearAttachment& a = attachments[n++];
    a.aspectMask = (depth ? VK_IMAGE_ASPECT_DEPTH_BIT : 0) | (stencil ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
    a.colorAttachment = 0;
    a.clearValue.depthStencil = {cmd.depth, cmd.stencil & 0xFF};
  }
  if (n == 0) return;
  // glClear of a layered framebuffer clears every layer (GL 3.3 §4.4.7).
  VkClearRect rect{{{x0, y0}, {static_cast<uint32_t>(x1 - x0), static_cast<uint32_t>(y1 - y0)}},
                   0,
                   std::max(targets_.layers, 1u)};
  vkCmdClearAttachments(cmd_, n, attachments, 1, &rect);
}

void Context::ResolveDepthStencil(const pipe::CmdBlit& cmd, ImageObject& src, ImageObject& dst,
                                  VkImageAspectFlags aspect) {
  // The frontend checked GL 3.3's rules: same format, same rectangle, single-sampled destination. GL lets the
  // implementation pick the sample a depth/stencil resolve keeps; sample 0 is what Mesa's blits keep too.
  auto& res = *shared_.resources;
  if (&src == &dst || dst.samples != 1) return;
  uint32_t dst_w = std::max(dst.width >> cmd.dst.level, 1u),
           dst_h = std::max(dst.height >> cmd.dst.level, 1u);
  auto span = [](int32_t a, int32_t b, uint32_t limit, int32_t* lo, uint32_t* size) {
    int32_t l = std::clamp(std::min(a, b), 0, int32_t(limit)),
            h = std::clamp(std::max(a, b), 0, int32_t(limit));
    *lo = l;
    *size = uint32_t(h - l);
  };
  VkRect2D area{};
  span(cmd.src_rect[0], cmd.src_rect[2], std::min(std::max(src.width >> cmd.src.level, 1u), dst_w),
       &area.offset.x, &area.extent.width);
  span(cmd.src_rect[1], cmd.src_rect[3], std::min(std::max(src.height >> cmd.src.level, 1u), dst_h),
       &area.offset.y, &area.extent.height);
  if (area.extent.width == 0 || area.extent.height == 0) return;
  // Resolving one aspect of a depth+stencil image: lavapipe's resolves (and its vkCmdCopyImage of one
  // aspect) write whole packed D24S8 texels, so both aspects are resolved into a scratch image and the asked
  // aspect travels through a buffer (vkCmdCopyImageToBuffer / vkCmdCopyBufferToImage of one aspect pack
  // only that aspect); the destination's other aspect stays as it was.
  bool partial = aspect != src.aspect;
  ImageObject scratch;
  ImageObject* target = &dst;
  uint32_t target_level = cmd.dst.level, target_layer = cmd.dst.layer;
  if (partial) {
    ImageDesc desc;
    desc.format = src.pipe_format;
    desc.width = dst_w;
    desc.height = dst_h;
    if (!res.CreateStandaloneImage(desc, &scratch)) return;
    target = &scratch;
    target_level = target_layer = 0;
  }
  VkImageView src_view = res.AttachmentView(src, cmd.src.level, cmd.src.layer);
  VkImageView dst_view = res.AttachmentView(*target, target_level, target_layer);
  if (!src_view || !dst_view) {
    if (partial) res.RetireStandaloneImage(scratch, &retired_);
    return;
  }
  if (transfer_since_pass_) {  // as BeginPass: earlier copies into either image come first
    TransferBarrier();
    transfer_since_pass_ = false;
  }
  TransitionImage(src, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
  TransitionImage(*target, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
  VkRenderingAttachmentInfo a[2] = {{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO},
                                    {VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO}};
  for (auto& x : a) {
    x.imageView = src_view;
    x.imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    x.resolveMode = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
    x.resolveImageView = dst_view;
    x.resolveImageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    x.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    x.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  }
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = area;
  ri.layerCount = 1;
  ri.pDepthAttachment = (src.aspect & VK_IMAGE_ASPECT_DEPTH_BIT) ? &a[0] : nullptr;
  ri.pStencilAttachment = (src.aspect & VK_IMAGE_ASPECT_STENCIL_BIT) ? &a[1] : nullptr;
  vkCmdBeginRendering(cmd_, &ri);
  vkCmdEndRendering(cmd_);
  ++stats_.render_passes;
  graphics_since_transfer_ = true;
  textures_need_layout_check_ = true;
  if (!partial) return;
  TransitionImage(scratch, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  VkDeviceSize texel = aspect == VK_IMAGE_ASPECT_STENCIL_BIT ? 1 : 4;  // D24 and D32F aspects are 4 bytes
  UploadRing::Span staging = ring_.Allocate(texel * area.extent.width * area.extent.height, 4);
  if (!staging.data) return;
  VkBufferImageCopy region{};
  region.bufferOffset = staging.offset;
  region.imageSubresource = {aspect, 0, 0, 1};
  region.imageOffset = {area.offset.x, area.offset.y, 0};
  region.imageExtent = {area.extent.width, area.extent.height, 1};
  vkCmdCopyImageToBuffer(cmd_, scratch.image, scratch.layout, staging.buffer, 1, &region);
  TransferBarrier();
  TransitionImage(dst, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  region.imageSubresource = {aspect, cmd.dst.level, cmd.dst.layer, 1};
  vkCmdCopyBufferToImage(cmd_, staging.buffer, dst.image, dst.layout, 1, &region);
  transfer_since_pass_ = true;
  res.RetireStandaloneImage(scratch, &retired_);
}

void Context::OnBlit(const pipe::CmdBlit& cmd, ClearResolve why) {
  auto& images = shared_.resources->images;
  ImageObject* src = images.Get(cmd.src.image);
  ImageObject* dst = images.Get(cmd.dst.image);
  if (!src || !dst) return;
  // Resolves are vkCmdResolveImage or rendering scopes: they need no blit support.
  if (src->samples == 1 && (!src->blittable || !dst->blittable)) {
    util::LogOnce(util::LogLevel::kWarning, "glBlitFramebuffer",
                  "the device cannot blit this format (vkCmdBlitImage): skipped");
    return;
  }
  // Both images must hold their pending clears before a transfer reads or writes them.
  FlushPendingClears(why);
  EndPass();
  Commands();
  // A blit also writes after earlier copies (an upload into the destination: syncval's write-after-write).
  if (graphics_since_transfer_ || transfer_since_pass_) {
    TransferBarrier();
    graphics_since_transfer_ = false;
  }
  VkImageAspectFlags aspect = 0;
  if (cmd.mask & pipe::kClearColor) aspect |= VK_IMAGE_ASPECT_COLOR_BIT;
  if (cmd.mask & pipe::kClearDepth) aspect |= VK_IMAGE_ASPECT_DEPTH_BIT;
  if (cmd.mask & pipe::kClearStencil) aspect |= VK_IMAGE_ASPECT_STENCIL_BIT;
  aspect &= src->aspect & dst->aspect;
  if (!aspect) return;
  BeforeImageTransfer(src->image, dst->image);
  // The scissor, the destination's edges and overlapping rectangles within one image (vk_blit.cpp).
  BlitClipped(cmd, src, dst, aspect);
}

void Context::RecordBlit(const pipe::CmdBlit& cmd, ImageObject* src, ImageObject* dst,
                         VkImageAspectFlags aspect) {
  if (src->samples > 1 && aspect != VK_IMAGE_ASPECT_COLOR_BIT)
    return ResolveDepthStencil(cmd, *src, *dst, aspect);
  if (src == dst) {
    TransitionImage(*src, VK_IMAGE_LAYOUT_GENERAL);
  } else {
    TransitionImage(*src, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    TransitionImage(*dst, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  }
  if (src->samples > 1) {
    // A multisample resolve (the frontend checked: colour, same format, same rectangle, single-sampled
    // destination). vkCmdBlitImage cannot read multisampled images.
    if (aspect != VK_IMAGE_ASPECT_COLOR_BIT || dst->samples != 1) return;
    auto span = [](int32_t a, int32_t b, uint32_t limit, int32_t* lo, uint32_t* size) {
      int32_t l = std::clamp(std::min(a, b), 0, int32_t(limit)),
              h = std::clamp(std::max(a, b), 0, int32_t(limit));
      *lo = l;
      *size = uint32_t(h - l);
    };
    VkImageResolve r{};
    r.srcSubresource = {aspect, cmd.src.level, cmd.src.layer, 1};
    r.dstSubresource = {aspect, cmd.dst.level, dst->is_3d() ? 0u : cmd.dst.layer, 1};
    uint32_t w = std::min(src->width, std::max(dst->width >> cmd.dst.level, 1u)),
             h = std::min(src->height, std::max(dst->height >> cmd.dst.level, 1u));
    span(cmd.src_rect[0], cmd.src_rect[2], w, &r.srcOffset.x, &r.extent.width);
    span(cmd.src_rect[1], cmd.src_rect[3], h, &r.srcOffset.y, &r.extent.height);
    r.dstOffset = {r.srcOffset.x, r.srcOffset.y, dst->is_3d() ? int32_t(cmd.dst.layer) : 0};
    r.extent.depth = 1;
    if (r.extent.width == 0 || r.extent.height == 0) return;
    vkCmdResolveImage(cmd_, src->image, src->layout, dst->image, dst->layout, 1, &r);
    transfer_since_pass_ = true;
    textures_need_layout_check_ = true;
    return;
  }
  // Clamp to the images: Vulkan requires offsets inside them; GL clips the same way for in-range parts.
  VkImageBlit region{};
  auto place = [&](const int32_t* r, const ImageObject& img, const pipe::ImageRef& ref, VkOffset3D* o,
                   VkImageSubresourceLayers* sub) {
    int32_t w = int32_t(std::max(img.width >> ref.level, 1u)),
            h = int32_t(std::max(img.height >> ref.level, 1u));
    int32_t z = img.is_3d() ? ref.layer : 0;
    o[0] = {std::clamp(r[0], 0, w), std::clamp(r[1], 0, h), z};
    o[1] = {std::clamp(r[2], 0, w), std::clamp(r[3], 0, h), z + 1};
    *sub = {aspect, ref.level, img.is_3d() ? 0u : ref.layer, 1};
  };
  place(cmd.src_rect, *src, cmd.src, region.srcOffsets, &region.srcSubresource);
  place(cmd.dst_rect, *dst, cmd.dst, region.dstOffsets, &region.dstSubresource);
  if (region.srcOffsets[0].x == region.srcOffsets[1].x || region.srcOffsets[0].y == region.srcOffsets[1].y ||
      region.dstOffsets[0].x == region.dstOffsets[1].x || region.dstOffsets[0].y == region.dstOffsets[1].y)
    return;
  bool depth = aspect & (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT);
  bool src_srgb = pipe::Info(src->pipe_format).type == pipe::FormatType::kSrgb;
  bool dst_srgb = pipe::Info(dst->pipe_format).type == pipe::FormatType::kSrgb;
  if (!cmd.srgb_convert && (src_srgb || dst_srgb) && !(src_srgb && dst_srgb && !cmd.linear)) {
    // GL_FRAMEBUFFER_SRGB off: stored values copy unconverted, which vkCmdBlitImage (it converts by the
    // images' formats) cannot do. An unscaled, unmirrored copy between formats of one texel size is
    // vkCmdCopyImage, which moves bytes. (sRGB to sRGB by nearest texels converts twice: an identity.)
    const VkOffset3D* so = region.srcOffsets;
    const VkOffset3D* d_o = region.dstOffsets;
    bool unscaled = so[1].x - so[0].x == d_o[1].x - d_o[0].x && so[1].y - so[0].y == d_o[1].y - d_o[0].y &&
                    so[1].x > so[0].x && so[1].y > so[0].y;
    if (unscaled && pipe::TexelSize(src->pipe_format) == pipe::TexelSize(dst->pipe_format)) {
      VkImageCopy copy{};
      copy.srcSubresource = region.srcSubresource;
      copy.dstSubresource = region.dstSubresource;
      copy.srcOffset = so[0];
      copy.dstOffset = d_o[0];
      copy.extent = {uint32_t(so[1].x - so[0].x), uint32_t(so[1].y - so[0].y), 1};
      vkCmdCopyImage(cmd_, src->image, src->layout, dst->image, dst->layout, 1, &copy);
      transfer_since_pass_ = true;
      textures_need_layout_check_ = true;
      return;
    }
    if (BlitThroughUnorm(cmd, src, dst, region, src_srgb, dst_srgb)) return;
    util::LogOnce(util::LogLevel::kWarning, "blit-srgb",
                  "glBlitFramebuffer: an unconverted scaled blit with an sRGB side could not get its "
                  "temporary images; it converts between sRGB and linear");
  }
  vkCmdBlitImage(cmd_, src->image, src->layout, dst->image, dst->layout, 1, &region,
                 cmd.linear && !depth && src->filterable ? VK_FILTER_LINEAR : VK_FILTER_NEAREST);
  transfer_since_pass_ = true;
  textures_need_layout_check_ = true;
}

bool Context::BlitThroughUnorm(const pipe::CmdBlit& cmd, ImageObject* src, ImageObject* dst,
                               const VkImageBlit& region, bool src_srgb, bool dst_srgb) {
  // A scaled or mirrored blit with GL_FRAMEBUFFER_SRGB off: vkCmdBlitImage converts by the images' formats,
  // so each sRGB side is replaced by an RGBA8 (UNORM) image of its level, bytes copied in or out raw.
  auto make = [&](const ImageObject& like, uint32_t level, ImageObject* out) {
    ImageDesc desc;
    desc.format = pipe::Format::kRGBA8;
    desc.width = std::max(like.width >> level, 1u);
    desc.height = std::max(like.height >> level, 1u);
    if (!shared_.resources->CreateStandaloneImage(desc, out)) return false;
    retired_.push_back(shared_.resources->StandaloneImageGarbage(*out));  // freed after this submission
    TransitionImage(*out, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    return true;
  };
  // The rectangle of a blit's two corners as a copy region (origin and extent).
  auto rect = [](const VkOffset3D* o, VkOffset3D* origin, VkExtent3D* extent) {
    *origin = {std::min(o[0].x, o[1].x), std::min(o[0].y, o[1].y), o[0].z};
    *extent = {uint32_t(std::abs(o[1].x - o[0].x)), uint32_t(std::abs(o[1].y - o[0].y)), 1};
  };
  const VkImageSubresourceLayers plain{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  VkImageBlit r = region;
  ImageObject temp_src, temp_dst;
  ImageObject* from = src;
  ImageObject* to = dst;
  if (src_srgb) {
    if (!make(*src, region.srcSubresource.mipLevel, &temp_src)) return false;
    VkImageCopy copy{};
    copy.srcSubresource = region.srcSubresource;
    copy.dstSubresource = plain;
    rect(region.srcOffsets, &copy.srcOffset, &copy.extent);
    copy.dstOffset = {copy.srcOffset.x, copy.srcOffset.y, 0};
    vkCmdCopyImage(cmd_, src->image, src->layout, temp_src.image, temp_src.layout, 1, &copy);
    TransitionImage(temp_src, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    r.srcSubresource = plain;
    r.srcOffsets[0].z = 0, r.srcOffsets[1].z = 1;
    from = &temp_src;
  }
  if (dst_srgb) {
    if (!make(*dst, region.dstSubresource.mipLevel, &temp_dst)) return false;
    r.dstSubresource = plain;
    r.dstOffsets[0].z = 0, r.dstOffsets[1].z = 1;
    to = &temp_dst;
  }
  vkCmdBlitImage(cmd_, from->image, from->layout, to->image, to->layout, 1, &r,
                 cmd.linear && from->filterable ? VK_FILTER_LINEAR : VK_FILTER_NEAREST);
  if (dst_srgb) {
    TransitionImage(temp_dst, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    VkImageCopy copy{};
    copy.srcSubresource = plain;
    copy.dstSubresource = region.dstSubresource;
    rect(region.dstOffsets, &copy.dstOffset, &copy.extent);
    copy.srcOffset = {copy.dstOffset.x, copy.dstOffset.y, 0};
    vkCmdCopyImage(cmd_, temp_dst.image, temp_dst.layout, dst->image, dst->layout, 1, &copy);
  }
  transfer_since_pass_ = true;
  textures_need_layout_check_ = true;
  return true;
}

void Context::OnGenerateMipmaps(const pipe::CmdGenerateMipmaps& cmd) {
  ImageObject* img = shared_.resources->images.Get(cmd.image);
  if (!img || cmd.base_level + cmd.level_count > img->levels || cmd.level_count < 2) return;
  if (!img->blittable) {  // RGB9_E5 on most devices: the levels keep what was uploaded
    util::LogOnce(util::LogLevel::kWarning, "glGenerateMipmap",
                  "the device cannot blit this format (vkCmdBlitImage): levels not generated");
    return;
  }
  FlushPendingClears(ClearResolve::kBlit);  // the base level may be a render target with a pending clear
  EndPass();
  VkCommandBuffer cb = Commands();
  // Whole image to TRANSFER_DST, then per level: the source level becomes TRANSFER_SRC before it is read.
  TransitionImage(*img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  auto level_barrier = [&](uint32_t level) {
    VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
    b.srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    b.srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT;
    b.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    b.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
    b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = img->image;
    b.subresourceRange = {img->aspect, level, 1, 0, img->layers};
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.imageMemoryBarrierCount = 1;
    dep.pImageMemoryBarriers = &b;
    vkCmdPipelineBarrier2(cb, &dep);
  };
  for (uint32_t i = 1; i < cmd.level_count; ++i) {
    uint32_t src = cmd.base_level + i - 1, dst = src + 1;
    level_barrier(src);
    VkImageBlit region{};
    // Every layer (cube face, array layer) in one region; a 3D level's depth halves like its width.
    region.srcSubresource = {img->aspect, src, 0, img->layers};
    region.dstSubresource = {img->aspect, dst, 0, img->layers};
    region.srcOffsets[1] = {int32_t(std::max(img->width >> src, 1u)),
                            int32_t(std::max(img->height >> src, 1u)),
                            int32_t(std::max(img->depth >> src, 1u))};
    region.dstOffsets[1] = {int32_t(std::max(img->width >> dst, 1u)),
                            int32_t(std::max(img->height >> dst, 1u)),
                            int32_t(std::max(img->depth >> dst, 1u))};
    vkCmdBlitImage(cb, img->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, img->image,
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region,
                   img->filterable ? VK_FILTER_LINEAR : VK_FILTER_NEAREST);
  }
  // Levels outside the chain stayed in TRANSFER_DST, like the last one: bring every level to one layout.
  for (uint32_t l = 0; l < img->levels; ++l)
    if (l < cmd.base_level || l >= cmd.base_level + cmd.level_count - 1) level_barrier(l);
  img->layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  transfer_since_pass_ = true;
  graphics_since_transfer_ = false;
  textures_need_layout_check_ = true;
}

bool Context::CreateStagingBlock(size_t size, pipe::StagingBlock* out) {
  auto block = std::make_unique<StagingBuffer>();
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  VkDevice dev = shared_.device->device();
  if (!CheckVk(vkCreateBuffer(dev, &info, nullptr, &block->buffer), "vkCreateBuffer (staging)")) return false;
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(dev, block->buffer, &req);
  if (!shared_.device->memory().Allocate(
          req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
          VK_MEMORY_PROPERTY_HOST_CACHED_BIT, &block->alloc) ||
      !block->alloc.mapped) {
    util::LogOnce(util::LogLevel::kWarning, "staging", "no host-visible memory for the staging arena");
    shared_.device->memory().Free(block->alloc);
    vkDestroyBuffer(dev, block->buffer, nullptr);
    return false;
  }
  if (!CheckVk(vkBindBufferMemory(dev, block->buffer, block->alloc.memory, block->alloc.offset),
               "vkBindBufferMemory (staging)")) {
    shared_.device->memory().Free(block->alloc);
    vkDestroyBuffer(dev, block->buffer, nullptr);
    return false;
  }
  *out = {reinterpret_cast<uint64_t>(block.get()), block->alloc.mapped, size};
  staging_blocks_.push_back(std::move(block));
  return true;
}

bool Context::StagedSource(const pipe::StagedPayload& staged, VkDeviceSize alignment, VkBuffer* buffer,
                           VkDeviceSize* offset) {
  pipe::StagingArena* arena = staging();
  if (!staged.data || !staged.block || !arena || staged.offset % alignment != 0) return false;
  *buffer = reinterpret_cast<const StagingBuffer*>(staged.block)->buffer;
  *offset = staged.offset;
  arena->MarkDeviceUse(staged.region);
  return true;
}

void Context::OnBufferUpload(const pipe::CmdBufferUpload& cmd, const uint8_t* data) {
  BufferObject* buffer = shared_.resources->buffers.Get(cmd.buffer);
  if (!buffer || cmd.offset + cmd.payload_size > buffer->size) return;
  // Storage made by the record just before (glBufferData with data) that no command has used yet: the host
  // writes it, with no copy command and no end of the render pass. Coherent memory; the submission that
  // follows makes the write visible to the device.
  if (direct_writes_ && fresh_buffer_ == cmd.buffer && buffer->alloc.mapped) {
    std::memcpy(buffer->alloc.mapped + cmd.offset, data, cmd.payload_size);
    ++stats_.direct_buffer_writes;
    return;
  }
  // Ordered with draws: copy from the staging arena or the ring inside the command stream. Earlier draws
  // read the old bytes.
  VkBuffer src = VK_NULL_HANDLE;
  VkDeviceSize src_offset = 0;
  if (!StagedSource(cmd.staged, 1, &src, &src_offset)) {
    UploadRing::Span span = ring_.Allocate(cmd.payload_size, 16);
    if (!span.data) return;
    std::memcpy(span.data, data, cmd.payload_size);
    src = span.buffer;
    src_offset = span.offset;
  }
  EndPass();
  Commands();
  BeforeTransferWrite(buffer->buffer);
  VkBufferCopy region{src_offset, cmd.offset, cmd.payload_size};
  vkCmdCopyBuffer(Commands(), src, buffer->buffer, 1, &region);
  transfer_since_pass_ = true;
}

void Context::OnBufferCopy(const pipe::CmdBufferCopy& cmd) {
  BufferObject* src = shared_.resources->buffers.Get(cmd.src);
  BufferObject* dst = shared_.resources->buffers.Get(cmd.dst);
  if (!src || !dst) return;
  EndPass();
  Commands();
  TransferBarrier();  // the source may have been written by an earlier transfer or draw
  transfer_written_.push_back(dst->buffer);
  VkBufferCopy region{cmd.src_offset, cmd.dst_offset, cmd.size};
  vkCmdCopyBuffer(Commands(), src->buffer, dst->buffer, 1, &region);
  transfer_since_pass_ = true;
  graphics_since_transfer_ = false;
}

void Context::OnImageUpload(const pipe::CmdImageUpload& cmd, const uint8_t* data) {
  ImageObject* img = shared_.resources->images.Get(cmd.image);
  if (!img || cmd.level >= img->levels ||
      cmd.z + cmd.depth > (img->is_3d() ? std::max(img->depth >> cmd.level, 1u) : img->layers))
    return;
  // An upload of a target with a pending clear must land after the clear.
  bool bound = targets_.depth_stencil.image == cmd.image;
  for (auto& c : targets_.color) bound |= c.image == cmd.image;
  if (bound) FlushPendingClears(ClearResolve::kUpload);
  // Block-compressed payloads are blocks: vkCmdCopyBufferToImage takes them as they are (texel extents).
  if (pipe::IsBlockCompressed(img->pipe_format)) ++stats_.compressed_uploads;
  // Depth/stencil texels travel packed (pipe layout); Vulkan copies each aspect separately.
  bool depth = pipe::IsDepthFormat(img->pipe_format);
  bool stencil = depth && (img->aspect & VK_IMAGE_ASPECT_STENCIL_BIT);
  size_t texels = size_t(cmd.width) * cmd.height * cmd.depth;
  VkDeviceSize depth_bytes =
      depth ? texels * CopyTexelSize(img->pipe_format, img->format, VK_IMAGE_ASPECT_DEPTH_BIT)
            : cmd.payload_size;
  VkDeviceSize stencil_offset = (depth_bytes + 15) / 16 * 16;
  // A staged payload is copied from the arena as it is; depth/stencil texels are split into the ring.
  UploadRing::Span span{};
  VkDeviceSize copy_unit = pipe::IsBlockCompressed(img->pipe_format)
                               ? pipe::BlockBytes(img->pipe_format)
                               : CopyTexelSize(img->pipe_format, img->format, VK_IMAGE_ASPECT_COLOR_BIT);
  if (depth || !StagedSource(cmd.staged, copy_unit, &span.buffer, &span.offset)) {
    span = ring_.Allocate(stencil_offset + (stencil ? texels : 0), 16);
    if (!span.data) return;
    if (depth)
      SplitDepthStencil(img->pipe_format, img->format, data, texels, span.data,
                        stencil ? span.data + stencil_offset : nullptr);
    else
      std::memcpy(span.data, data, cmd.payload_size);
  }
  EndPass();
  if (graphics_since_transfer_) {
    TransferBarrier();
    graphics_since_transfer_ = false;
  }
  BeforeImageTransfer(VK_NULL_HANDLE, img->image);
  TransitionImage(*img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  textures_need_layout_check_ = true;
  VkBufferImageCopy regions[2] = {};
  VkBufferImageCopy& region = regions[0];
  region.bufferOffset = span.offset;
  // Layers (arrays, cube faces) are array layers; 3D slices are depth.
  region.imageSubresource = {
      depth ? VkImageAspectFlags(VK_IMAGE_ASPECT_DEPTH_BIT) : VkImageAspectFlags(VK_IMAGE_ASPECT_COLOR_BIT),
      cmd.level, img->is_3d() ? 0 : cmd.z, img->is_3d() ? 1 : cmd.depth};
  region.imageOffset = {cmd.x, cmd.y, img->is_3d() ? int32_t(cmd.z) : 0};
  region.imageExtent = {cmd.width, cmd.height, img->is_3d() ? cmd.depth : 1};
  regions[1] = region;
  regions[1].bufferOffset = span.offset + stencil_offset;
  regions[1].imageSubresource.aspectMask = VK_IMAGE_ASPECT_STENCIL_BIT;
  // Commands(), not cmd_: when the image is already in the layout, TransitionImage records nothing and
  // no command buffer may have been begun since the last submission.
  VkCommandBuffer cb = Commands();
  vkCmdCopyBufferToImage(cb, span.buffer, img->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, stencil ? 2 : 1,
                         regions);
  transfer_since_pass_ = true;
}

bool Context::SubmitCopyToHostAndWait() {
  VkMemoryBarrier2 to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
  to_host.srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
  to_host.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
  to_host.dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT;
  to_host.dstAccessMask = VK_ACCESS_2_HOST_READ_BIT;
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.memoryBarrierCount = 1;
  dep.pMemoryBarriers = &to_host;
  vkCmdPipelineBarrier2(Commands(), &dep);
  graphics_since_transfer_ = false;
  uint64_t serial = 0;
  return SubmitAndStamp(&serial) && shared_.device->WaitSerial(serial);
}

void Context::OnReadPixels(const pipe::CmdReadPixels& cmd) {
  ImageObject* img = shared_.resources->images.Get(cmd.image.image);
  // Block-compressed images are read by the frontend from its block shadow, never here.
  if (!img || cmd.image.level >= img->levels || pipe::IsBlockCompressed(img->pipe_format)) {
    cmd.done->store(true);
    cmd.done->notify_all();
    return;
  }
  // Pending clears of the read target are resolved first: a read must see them.
  FlushPendingClears(ClearResolve::kReadback);
  EndPass();
  // Colour and depth come back in the layout the frontend asked for (ConvertReadback); stencil copies its
  // aspect as bytes.
  VkImageAspectFlags aspect = cmd.aspect == pipe::ReadAspect::kDepth     ? VK_IMAGE_ASPECT_DEPTH_BIT
                              : cmd.aspect == pipe::ReadAspect::kStencil ? VK_IMAGE_ASPECT_STENCIL_BIT
                                                                         : VK_IMAGE_ASPECT_COLOR_BIT;
  bool depth_layout = cmd.layout == pipe::ReadLayout::kDepth32F;
  if (!(img->aspect & aspect) || (aspect == VK_IMAGE_ASPECT_DEPTH_BIT && !depth_layout) ||
      (aspect == VK_IMAGE_ASPECT_COLOR_BIT && depth_layout)) {
    cmd.done->store(true);
    cmd.done->notify_all();
    return;
  }
  uint32_t texel =
      aspect == VK_IMAGE_ASPECT_STENCIL_BIT ? 1 : CopyTexelSize(img->pipe_format, img->format, aspect);
  VkDeviceSize size = VkDeviceSize(cmd.width) * cmd.height * texel;
  UploadRing::Span span = ring_.Allocate(size, 16);
  if (!span.data) return;
  TransitionImage(*img, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  textures_need_layout_check_ = true;
  VkBufferImageCopy region{};
  region.bufferOffset = span.offset;
  region.imageSubresource = {aspect, cmd.image.level, img->is_3d() ? 0u : cmd.image.layer, 1};
  region.imageOffset = {cmd.x, cmd.y, img->is_3d() ? int32_t(cmd.image.layer) : 0};
  region.imageExtent = {static_cast<uint32_t>(cmd.width), static_cast<uint32_t>(cmd.height), 1};
  // Commands(), not cmd_: a second read of the same image needs no transition, so nothing may have begun
  // a command buffer since the previous read's submission.
  vkCmdCopyImageToBuffer(Commands(), img->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, span.buffer, 1,
                         &region);
  if (SubmitCopyToHostAndWait()) {
    // Copied texels already in the asked layout (RGBA8 as RGBA8, float depth as floats) are copied row by
    // row; others convert with a loop chosen here for the format (pipe/texel_rows.h), or texel by texel
    // (ConvertReadback) where none is specialised.
    bool rows_as_is = aspect == VK_IMAGE_ASPECT_STENCIL_BIT ||
                      (readback_row_copy_ && ReadbackIsCopy(img->pipe_format, img->format, cmd.layout));
    pipe::ReadRowFn decode_row = nullptr;
    if (!rows_as_is && readback_row_copy_ && aspect == VK_IMAGE_ASPECT_COLOR_BIT)
      decode_row = pipe::SelectReadRow(pipe::Info(img->pipe_format).storage, cmd.layout);
    size_t src_row = size_t(cmd.width) * texel;
    if (rows_as_is && aspect != VK_IMAGE_ASPECT_STENCIL_BIT) ++stats_.readback_row_copies;
    if (decode_row) ++stats_.readback_row_loops;
    if (rows_as_is && cmd.row_stride == src_row) {
      std::memcpy(cmd.dst, span.data, src_row * size_t(cmd.height));
    } else {
      for (int32_t row = 0; row < cmd.height; ++row) {
        auto* dst = static_cast<uint8_t*>(cmd.dst) + size_t(row) * cmd.row_stride;
        const uint8_t* src = span.data + size_t(row) * src_row;
        if (rows_as_is)
          std::memcpy(dst, src, src_row);
        else if (decode_row)
          decode_row(src, cmd.width, dst);
        else
          ConvertReadback(img->pipe_format, img->format, cmd.layout, src, cmd.width, dst);
      }
    }
  }
  cmd.done->store(true);
  cmd.done->notify_all();
}

}  // namespace caldera::vk
