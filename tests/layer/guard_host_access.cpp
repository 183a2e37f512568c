// Plants one host-access hazard per run:
//   unmap / flush: mapped memory bound to a buffer that a pending submission writes is unmapped, or
//                  flushed (host writes published) before the app waited for the submission;
//   free_mapped:   the same memory freed while still mapped;
//   fence:         vkWaitForFences on a fence that nothing was ever submitted to signal;
//   query:         vkGetQueryPoolResults without WAIT or WITH_AVAILABILITY on a query written by a
//                  submission the app has not waited for.
#include <string>

#include "guard_test_util.h"

using namespace guard_test;

namespace {

void MappedMemoryCase(Context& ctx, bool unmap) {
  const Buffer buffer = ctx.CreateBuffer(256, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
  void* data = nullptr;
  GUARD_VK(vkMapMemory(ctx.device(), buffer.memory, 0, VK_WHOLE_SIZE, 0, &data));
  VkCommandBuffer cb = ctx.AllocateCommandBuffer();
  ctx.Begin(cb);
  vkCmdFillBuffer(cb, buffer.buffer, 0, VK_WHOLE_SIZE, 7);
  ctx.End(cb);
  ctx.Submit(cb);
  if (unmap) {
    vkUnmapMemory(ctx.device(), buffer.memory);  // the hazard
  } else {
    static_cast<uint32_t*>(data)[0] = 1;
    auto range = Init<VkMappedMemoryRange>(VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE);
    range.memory = buffer.memory;
    range.size = VK_WHOLE_SIZE;
    GUARD_VK(vkFlushMappedMemoryRanges(ctx.device(), 1, &range));  // the hazard
    GUARD_VK(vkQueueWaitIdle(ctx.queue()));
    vkUnmapMemory(ctx.device(), buffer.memory);  // after the wait: fine
  }
}

// Freeing memory that is still mapped and backs a pending submission's buffer (run with
// CALDERA_GUARD_PROTECT=1: the free is deferred, so lavapipe does not write into freed memory).
void FreeMappedCase(Context& ctx) {
  const Buffer buffer = ctx.CreateBuffer(256, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true, false);
  void* data = nullptr;
  GUARD_VK(vkMapMemory(ctx.device(), buffer.memory, 0, VK_WHOLE_SIZE, 0, &data));
  VkCommandBuffer cb = ctx.AllocateCommandBuffer();
  ctx.Begin(cb);
  vkCmdFillBuffer(cb, buffer.buffer, 0, VK_WHOLE_SIZE, 7);
  ctx.End(cb);
  ctx.Submit(cb);
  vkFreeMemory(ctx.device(), buffer.memory, nullptr);  // the hazard
  ctx.AtTeardown([&ctx, buffer] { vkDestroyBuffer(ctx.device(), buffer.buffer, nullptr); });
}

void FenceCase(Context& ctx) {
  VkFence fence = ctx.CreateFence(false);
  // A short timeout: with UINT64_MAX this would hang, which is why the layer reports it first.
  const VkResult result = vkWaitForFences(ctx.device(), 1, &fence, VK_TRUE, 1000000);
  GUARD_CHECK(result == VK_TIMEOUT);
}

void QueryCase(Context& ctx) {
  auto pool_info = Init<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
  pool_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  pool_info.queryCount = 2;
  VkQueryPool pool = VK_NULL_HANDLE;
  GUARD_VK(vkCreateQueryPool(ctx.device(), &pool_info, nullptr, &pool));
  ctx.AtTeardown([&ctx, pool] { vkDestroyQueryPool(ctx.device(), pool, nullptr); });
  VkCommandBuffer cb = ctx.AllocateCommandBuffer();
  ctx.Begin(cb);
  vkCmdResetQueryPool(cb, pool, 0, 2);
  vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 0);
  vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 1);
  ctx.End(cb);
  ctx.Submit(cb);
  uint64_t results[2] = {};
  const VkResult result =
      vkGetQueryPoolResults(ctx.device(), pool, 0, 2, sizeof results, results, sizeof(uint64_t),
                            VK_QUERY_RESULT_64_BIT);  // the hazard
  GUARD_CHECK(result == VK_SUCCESS || result == VK_NOT_READY);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) Fail("usage: guard_host_access unmap|flush|free_mapped|fence|query");
  const std::string which = argv[1];
  Report::RemoveStale();
  std::string expected;
  {
    Context ctx;
    if (which == "unmap" || which == "flush") {
      MappedMemoryCase(ctx, which == "unmap");
      expected = "mapped-memory-in-use";
    } else if (which == "free_mapped") {
      FreeMappedCase(ctx);
      expected = "mapped-memory-in-use";
    } else if (which == "fence") {
      FenceCase(ctx);
      expected = "wait-unsubmitted-fence";
    } else if (which == "query") {
      QueryCase(ctx);
      expected = "query-without-availability";
    } else {
      Fail("unknown case " + which);
    }
  }
  Report::Load().ExpectOnly(expected, 1);
  return 0;
}
