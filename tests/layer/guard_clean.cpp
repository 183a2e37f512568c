// A correct application that touches everything the layer checks: two frames in flight with fences,
// per-frame command buffers re-recorded only after their fence, descriptor sets, queries read with
// WAIT, timeline semaphores, mapped memory flushed after the wait, objects destroyed after idle.
// The layer must report nothing. Also run with sync validation on (VK_LAYER_KHRONOS_validation
// beneath): zero hazards and zero validation errors.
//
// With --expect-no-layer (CALDERA_GUARD_DISABLE=1) it checks that the layer stayed out.
#include <cstring>

#include "guard_test_util.h"

using namespace guard_test;

namespace {

constexpr int kFramesInFlight = 2;
constexpr int kFrames = 8;

void Run(Context& ctx) {
  VkDevice device = ctx.device();
  const Buffer storage = ctx.CreateBuffer(64 * sizeof(uint32_t), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false);
  const Buffer upload = ctx.CreateBuffer(256, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
  const ComputePipeline compute = ctx.CreateComputePipeline(storage.buffer, 64 * sizeof(uint32_t));
  ctx.AtTeardown([=] {
    vkDestroyDescriptorPool(device, compute.pool, nullptr);
    vkDestroyPipeline(device, compute.pipeline, nullptr);
    vkDestroyPipelineLayout(device, compute.layout, nullptr);
    vkDestroyDescriptorSetLayout(device, compute.set_layout, nullptr);
  });
  auto pool_info = Init<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
  pool_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  pool_info.queryCount = 2 * kFramesInFlight;
  VkQueryPool queries = VK_NULL_HANDLE;
  GUARD_VK(vkCreateQueryPool(device, &pool_info, nullptr, &queries));
  ctx.AtTeardown([=] { vkDestroyQueryPool(device, queries, nullptr); });

  VkCommandBuffer command_buffers[kFramesInFlight];
  VkFence fences[kFramesInFlight];
  for (int i = 0; i < kFramesInFlight; ++i) {
    command_buffers[i] = ctx.AllocateCommandBuffer();
    fences[i] = ctx.CreateFence(true);
  }
  for (int frame = 0; frame < kFrames; ++frame) {
    const int slot = frame % kFramesInFlight;
    GUARD_VK(vkWaitForFences(device, 1, &fences[slot], VK_TRUE, UINT64_MAX));
    if (frame >= kFramesInFlight) {
      uint64_t stamps[2] = {};
      GUARD_VK(vkGetQueryPoolResults(device, queries, uint32_t(2 * slot), 2, sizeof stamps, stamps,
                                     sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    }
    GUARD_VK(vkResetFences(device, 1, &fences[slot]));
    VkCommandBuffer cb = command_buffers[slot];
    ctx.Begin(cb, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
    vkCmdResetQueryPool(cb, queries, uint32_t(2 * slot), 2);
    vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queries, uint32_t(2 * slot));
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, compute.pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, compute.layout, 0, 1, &compute.set, 0,
                            nullptr);
    vkCmdDispatch(cb, 64, 1, 1);
    // Frames write the same storage buffer: order them against the previous frame's dispatch.
    auto barrier = Init<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                         &barrier, 0, nullptr, 0, nullptr);
    vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, uint32_t(2 * slot + 1));
    ctx.End(cb);
    ctx.Submit(cb, fences[slot]);
  }
  GUARD_VK(vkWaitForFences(device, kFramesInFlight, fences, VK_TRUE, UINT64_MAX));

  // A timeline semaphore as the only completion signal; the host waits on its value.
  auto type_info = Init<VkSemaphoreTypeCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO);
  type_info.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  auto semaphore_info = Init<VkSemaphoreCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO);
  semaphore_info.pNext = &type_info;
  VkSemaphore timeline = VK_NULL_HANDLE;
  GUARD_VK(vkCreateSemaphore(device, &semaphore_info, nullptr, &timeline));
  VkCommandBuffer cb = ctx.AllocateCommandBuffer();
  ctx.Begin(cb);
  vkCmdFillBuffer(cb, upload.buffer, 0, VK_WHOLE_SIZE, 3);
  ctx.End(cb);
  const uint64_t signal_value = 1;
  auto timeline_submit =
      Init<VkTimelineSemaphoreSubmitInfo>(VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
  timeline_submit.signalSemaphoreValueCount = 1;
  timeline_submit.pSignalSemaphoreValues = &signal_value;
  auto submit = Init<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  submit.pNext = &timeline_submit;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb;
  submit.signalSemaphoreCount = 1;
  submit.pSignalSemaphores = &timeline;
  GUARD_VK(vkQueueSubmit(ctx.queue(), 1, &submit, VK_NULL_HANDLE));
  auto wait = Init<VkSemaphoreWaitInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO);
  wait.semaphoreCount = 1;
  wait.pSemaphores = &timeline;
  wait.pValues = &signal_value;
  GUARD_VK(vkWaitSemaphores(device, &wait, UINT64_MAX));
  // The fill is known complete: touching its memory from the host and freeing are safe now.
  void* data = nullptr;
  GUARD_VK(vkMapMemory(device, upload.memory, 0, VK_WHOLE_SIZE, 0, &data));
  auto range = Init<VkMappedMemoryRange>(VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE);
  range.memory = upload.memory;
  range.size = VK_WHOLE_SIZE;
  GUARD_VK(vkFlushMappedMemoryRanges(device, 1, &range));
  vkUnmapMemory(device, upload.memory);
  vkFreeCommandBuffers(device, ctx.command_pool(), 1, &cb);
  vkDestroySemaphore(device, timeline, nullptr);
}

}  // namespace

int main(int argc, char** argv) {
  const bool expect_no_layer = argc > 1 && std::strcmp(argv[1], "--expect-no-layer") == 0;
  Report::RemoveStale();
  {
    Context ctx;
    Run(ctx);
  }
  if (expect_no_layer) {
    GUARD_CHECK(!Report::Exists());
    return 0;
  }
  const Report report = Report::Load();
  report.ExpectClean();
  GUARD_CHECK(report.Total("dispatches") == kFrames);
  GUARD_CHECK(report.Total("max_runahead") <= kFramesInFlight);
  return 0;
}
