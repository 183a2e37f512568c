// Sync validation through the guard layer (CALDERA_GUARD_SYNCVAL=1).
//   hazard:  two vkCmdCopyBuffer into one buffer with no barrier between them, a write-after-write
//            the validation layer beneath reports as SYNC-HAZARD-WRITE-AFTER-WRITE;
//   clean:   the same copies with a barrier between them: no hazard, no validation error;
//   missing: the validation layer is not enabled beneath: the report says syncval is unavailable.
#include <string>

#include "guard_test_util.h"

using namespace guard_test;

int main(int argc, char** argv) {
  if (argc != 2) Fail("usage: guard_syncval hazard|clean|missing");
  const std::string which = argv[1];
  Report::RemoveStale();
  {
    Context ctx;
    const Buffer source = ctx.CreateBuffer(256, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, false);
    const Buffer destination = ctx.CreateBuffer(256, VK_BUFFER_USAGE_TRANSFER_DST_BIT, false);
    VkCommandBuffer cb = ctx.AllocateCommandBuffer();
    ctx.Begin(cb);
    const VkBufferCopy region{0, 0, 256};
    vkCmdCopyBuffer(cb, source.buffer, destination.buffer, 1, &region);
    if (which == "clean") {
      auto barrier = Init<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
      barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &barrier,
                           0, nullptr, 0, nullptr);
    }
    vkCmdCopyBuffer(cb, source.buffer, destination.buffer, 1, &region);
    ctx.End(cb);
    VkFence fence = ctx.CreateFence(false);
    ctx.Submit(cb, fence);
    GUARD_VK(vkWaitForFences(ctx.device(), 1, &fence, VK_TRUE, UINT64_MAX));
  }
  const Report report = Report::Load();
  if (which == "hazard") {
    report.ExpectOnly("sync-hazard", 1, /*at_least=*/true);
  } else if (which == "clean") {
    report.ExpectClean();
    GUARD_CHECK(report.Syncval().rfind("on", 0) == 0);
  } else if (which == "missing") {
    report.ExpectClean();
    GUARD_CHECK(report.Syncval() == "unavailable");
  } else {
    Fail("unknown case " + which);
  }
  return 0;
}
