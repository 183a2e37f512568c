// Checks the counters against a command stream whose numbers are known exactly: per command call
// counts, redundant binds (same pipeline, same descriptor set, same viewport bound again on one
// command buffer; a different value or a new command buffer is not redundant), and headless
// frames (CALDERA_GUARD_FRAME_SUBMITS=1: one frame per submit).
#include "guard_test_util.h"

using namespace guard_test;

namespace {

constexpr int kSubmits = 3;

}  // namespace

int main() {
  Report::RemoveStale();
  {
    Context ctx;
    VkDevice device = ctx.device();
    const Buffer storage = ctx.CreateBuffer(64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false);
    const ComputePipeline compute = ctx.CreateComputePipeline(storage.buffer, 64);
    ctx.AtTeardown([=] {
      vkDestroyDescriptorPool(device, compute.pool, nullptr);
      vkDestroyPipeline(device, compute.pipeline, nullptr);
      vkDestroyPipelineLayout(device, compute.layout, nullptr);
      vkDestroyDescriptorSetLayout(device, compute.set_layout, nullptr);
    });
    const VkViewport viewport{0, 0, 64, 64, 0, 1};
    const VkViewport other_viewport{0, 0, 32, 32, 0, 1};
    for (int i = 0; i < kSubmits; ++i) {
      VkCommandBuffer cb = ctx.AllocateCommandBuffer();
      ctx.Begin(cb);
      vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, compute.pipeline);
      vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, compute.layout, 0, 1, &compute.set, 0,
                              nullptr);
      vkCmdDispatch(cb, 4, 1, 1);
      vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, compute.pipeline);  // redundant
      vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, compute.layout, 0, 1, &compute.set, 0,
                              nullptr);  // redundant
      vkCmdDispatch(cb, 4, 1, 1);
      vkCmdSetViewport(cb, 0, 1, &viewport);
      vkCmdSetViewport(cb, 0, 1, &other_viewport);
      vkCmdSetViewport(cb, 0, 1, &other_viewport);  // redundant
      ctx.End(cb);
      auto fence = ctx.CreateFence(false);
      ctx.Submit(cb, fence);
      GUARD_VK(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX));
    }
  }
  const Report report = Report::Load();
  report.ExpectClean();
  GUARD_CHECK(report.Total("redundant_binds") == 3 * kSubmits);
  GUARD_CHECK(report.Total("dispatches") == 2 * kSubmits);
  GUARD_CHECK(report.Total("submits") == kSubmits);
  GUARD_CHECK(report.CommandCalls("vkCmdSetViewport") == 3 * kSubmits);
  GUARD_CHECK(report.CommandCalls("vkCmdBindPipeline") == 2 * kSubmits);
  GUARD_CHECK(report.CommandCalls("vkQueueSubmit") == kSubmits);
  // Setup and teardown calls land in frames of their own before the first and after the last submit.
  GUARD_CHECK(report.Frames() >= kSubmits);
  return 0;
}
