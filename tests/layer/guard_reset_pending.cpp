// Plants one "reset while pending" hazard per run: a command buffer, its pool, or the descriptor pool
// of a bound set is reset while a submission using it has not been waited for. Runs with
// CALDERA_GUARD_PROTECT=1, under which the layer waits for the submission before the reset.
#include <string>

#include "guard_test_util.h"

using namespace guard_test;

int main(int argc, char** argv) {
  if (argc != 2) Fail("usage: guard_reset_pending <case>");
  const std::string which = argv[1];
  Report::RemoveStale();
  {
    Context ctx;
    const Buffer storage = ctx.CreateBuffer(64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false);
    const ComputePipeline compute = ctx.CreateComputePipeline(storage.buffer, 64);
    VkDevice device = ctx.device();
    ctx.AtTeardown([=] {
      vkDestroyDescriptorPool(device, compute.pool, nullptr);
      vkDestroyPipeline(device, compute.pipeline, nullptr);
      vkDestroyPipelineLayout(device, compute.layout, nullptr);
      vkDestroyDescriptorSetLayout(device, compute.set_layout, nullptr);
    });
    VkCommandBuffer cb = ctx.AllocateCommandBuffer();
    ctx.Begin(cb);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, compute.pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, compute.layout, 0, 1, &compute.set, 0,
                            nullptr);
    vkCmdDispatch(cb, 16, 1, 1);
    ctx.End(cb);
    ctx.Submit(cb);

    if (which == "command_buffer_reset") {
      GUARD_VK(vkResetCommandBuffer(cb, 0));
    } else if (which == "command_buffer_begin") {
      ctx.Begin(cb);  // implicit reset
      ctx.End(cb);
    } else if (which == "command_pool_reset") {
      GUARD_VK(vkResetCommandPool(device, ctx.command_pool(), 0));
    } else if (which == "descriptor_pool_reset") {
      GUARD_VK(vkResetDescriptorPool(device, compute.pool, 0));
    } else {
      Fail("unknown case " + which);
    }
  }
  Report::Load().ExpectOnly("reset-while-pending", 1);
  return 0;
}
