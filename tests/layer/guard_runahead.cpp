// Plants one run-ahead violation: four submissions without any wait, under
// CALDERA_GUARD_MAX_RUNAHEAD=2. The bound is crossed once (3 > 2) and stays crossed, which is one
// finding; the report's maximum run-ahead must be 4.
#include "guard_test_util.h"

using namespace guard_test;

int main() {
  Report::RemoveStale();
  {
    Context ctx;
    const Buffer buffer = ctx.CreateBuffer(256, VK_BUFFER_USAGE_TRANSFER_DST_BIT, false);
    for (int i = 0; i < 4; ++i) {
      VkCommandBuffer cb = ctx.AllocateCommandBuffer();
      ctx.Begin(cb);
      vkCmdFillBuffer(cb, buffer.buffer, 0, VK_WHOLE_SIZE, uint32_t(i));
      ctx.End(cb);
      ctx.Submit(cb);
    }
    GUARD_VK(vkQueueWaitIdle(ctx.queue()));
  }
  const Report report = Report::Load();
  report.ExpectOnly("runahead-exceeded", 1);
  GUARD_CHECK(report.Total("max_runahead") == 4);
  return 0;
}
