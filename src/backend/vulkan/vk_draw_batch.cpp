// Draw merging: GL programs often issue runs of draws with nothing changed between them (drawoverhead's
// "no state change" cases, tiled or chunked geometry). Every record that could change what a draw sees is a
// record of its own, so two CmdDraw records in a row differ only in their ranges: the second joins the first
// in one vkCmdDrawMultiEXT / vkCmdDrawMultiIndexedEXT (VK_EXT_multi_draw), as Gallium's threaded context
// merges draws for Zink. The run is flushed before any other record and at the end of each chunk (Execute).
#include "backend/vulkan/vk_context.h"
#include "backend/vulkan/vk_device.h"

namespace caldera::vk {

bool Context::TryBatchDraw(const pipe::CmdDraw& cmd) {
  if (!batch_.count) return false;
  const bool indexed = cmd.index_type != pipe::IndexType::kNone;
  if (indexed != batch_.indexed || cmd.topology != batch_.topology || cmd.instances != batch_.instances ||
      (indexed && (cmd.index_buffer != batch_.index_buffer || cmd.index_type != batch_.index_type)) ||
      batch_.count + 1 >= shared_.device->features().max_multi_draw)  // drawCount < maxMultiDrawCount
    return false;
  if (indexed)
    batch_.indexed_draws.push_back({FirstIndex(cmd), cmd.count, cmd.base_vertex});
  else
    batch_.draws.push_back({cmd.first, cmd.count});
  ++batch_.count;
  ++stats_.draws;  // PrepareDraw counts the batch's first draw
  return true;
}

void Context::StartDrawBatch(const pipe::CmdDraw& cmd) {
  batch_.count = 1;
  batch_.indexed = cmd.index_type != pipe::IndexType::kNone;
  batch_.topology = cmd.topology;
  batch_.instances = cmd.instances;
  batch_.index_buffer = cmd.index_buffer;
  batch_.index_type = cmd.index_type;
  batch_.draws.clear();
  batch_.indexed_draws.clear();
  if (batch_.indexed)
    batch_.indexed_draws.push_back({FirstIndex(cmd), cmd.count, cmd.base_vertex});
  else
    batch_.draws.push_back({cmd.first, cmd.count});
}

void Context::FlushDrawBatch() {
  if (!batch_.count) return;
  const uint32_t n = batch_.count;
  batch_.count = 0;
  if (batch_.indexed) {
    const auto& d = batch_.indexed_draws[0];
    if (n == 1) {
      vkCmdDrawIndexed(cmd_, d.indexCount, batch_.instances, d.firstIndex, d.vertexOffset, 0);
      return;
    }
    // A null vertex offset pointer: each draw's own vertexOffset (GL's base vertex) applies.
    shared_.device->draw_multi_indexed(cmd_, n, batch_.indexed_draws.data(), batch_.instances, 0,
                                       sizeof(VkMultiDrawIndexedInfoEXT), nullptr);
  } else {
    const auto& d = batch_.draws[0];
    if (n == 1) {
      vkCmdDraw(cmd_, d.vertexCount, batch_.instances, d.firstVertex, 0);
      return;
    }
    shared_.device->draw_multi(cmd_, n, batch_.draws.data(), batch_.instances, 0, sizeof(VkMultiDrawInfoEXT));
  }
  stats_.draws_merged += n;
  ++stats_.multi_draws;
}

}  // namespace caldera::vk
