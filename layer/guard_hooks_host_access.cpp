// Hooks on host access to device memory and to query results, and the query bookkeeping behind
// the "results read without availability" check.
#include <string>

#include "guard_tracking.h"

namespace guard::hooks {
namespace {

void RecordQueryOp(DeviceState& device, VkCommandBuffer command_buffer, VkQueryPool pool, uint32_t first,
                   uint32_t count, bool is_reset) {
  RecordingStateFor(device, command_buffer).query_ops.push_back({HandleKey(pool), first, count, is_reset});
}

void ReportMappedMemoryInUse(DeviceState& device, const char* call, VkDeviceMemory memory, const char* what) {
  std::lock_guard lock(device.mutex);
  const uint64_t key = HandleKey(memory);
  if (!IsPendingLocked(device, key)) return;
  ReportViolation(Category::kMappedMemoryInUse, call, key, VK_OBJECT_TYPE_DEVICE_MEMORY,
                  std::string(what) + " while bound to a resource of submission #" +
                      std::to_string(FirstPendingUserLocked(device, key)) +
                      ", which the application has not waited for");
}

}  // namespace

VkResult vkMapMemory(DeviceState& device, VkDevice handle, VkDeviceMemory memory, VkDeviceSize offset,
                     VkDeviceSize size, VkMemoryMapFlags flags, void** data) {
  const VkResult result = device.dispatch.MapMemory(handle, memory, offset, size, flags, data);
  if (result == VK_SUCCESS) {
    std::lock_guard lock(device.mutex);
    device.mapped_memory.insert(HandleKey(memory));
  }
  return result;
}

void vkUnmapMemory(DeviceState& device, VkDevice handle, VkDeviceMemory memory) {
  ReportMappedMemoryInUse(device, "vkUnmapMemory", memory, "unmapped");
  {
    std::lock_guard lock(device.mutex);
    device.mapped_memory.erase(HandleKey(memory));
  }
  device.dispatch.UnmapMemory(handle, memory);
}

VkResult vkFlushMappedMemoryRanges(DeviceState& device, VkDevice handle, uint32_t count,
                                   const VkMappedMemoryRange* ranges) {
  for (uint32_t i = 0; i < count; ++i) {
    ReportMappedMemoryInUse(device, "vkFlushMappedMemoryRanges", ranges[i].memory, "host writes flushed");
  }
  return device.dispatch.FlushMappedMemoryRanges(handle, count, ranges);
}

VkResult vkGetQueryPoolResults(DeviceState& device, VkDevice handle, VkQueryPool pool, uint32_t first,
                               uint32_t count, size_t data_size, void* data, VkDeviceSize stride,
                               VkQueryResultFlags flags) {
  // Waiting, or asking for availability alongside the results, are the two safe ways to read.
  constexpr VkQueryResultFlags kSafe =
      VK_QUERY_RESULT_WAIT_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT | VK_QUERY_RESULT_PARTIAL_BIT;
  if ((flags & kSafe) == 0) {
    std::lock_guard lock(device.mutex);
    const std::vector<QueryState>& states = device.queries[HandleKey(pool)];
    for (uint32_t q = first; q < first + count; ++q) {
      const QueryState state = q < states.size() ? states[q] : QueryState{};
      std::string problem;
      if (state.kind != QueryState::Kind::kWritten) {
        problem = "was not written by any submitted command buffer since it was reset";
      } else if (device.pending.count(state.submission) != 0) {
        problem = "is written by submission #" + std::to_string(state.submission) +
                  ", which the application has not waited for";
      } else {
        continue;
      }
      ReportViolation(Category::kQueryWithoutAvailability, "vkGetQueryPoolResults", HandleKey(pool),
                      VK_OBJECT_TYPE_QUERY_POOL,
                      "query " + std::to_string(q) + " " + problem +
                          "; read without VK_QUERY_RESULT_WAIT_BIT or WITH_AVAILABILITY_BIT");
      break;  // one finding per call
    }
  }
  return device.dispatch.GetQueryPoolResults(handle, pool, first, count, data_size, data, stride, flags);
}

void vkResetQueryPool(DeviceState& device, VkDevice handle, VkQueryPool pool, uint32_t first,
                      uint32_t count) {
  {
    std::lock_guard lock(device.mutex);
    std::vector<QueryState>& states = device.queries[HandleKey(pool)];
    if (states.size() < size_t(first) + count) states.resize(size_t(first) + count);
    for (uint32_t q = first; q < first + count; ++q) states[q] = {QueryState::Kind::kReset, 0};
  }
  device.dispatch.ResetQueryPool(handle, pool, first, count);
}

void vkCmdResetQueryPool(DeviceState& device, VkCommandBuffer command_buffer, VkQueryPool pool,
                         uint32_t first, uint32_t count) {
  RecordQueryOp(device, command_buffer, pool, first, count, true);
  device.dispatch.CmdResetQueryPool(command_buffer, pool, first, count);
}

void vkCmdEndQuery(DeviceState& device, VkCommandBuffer command_buffer, VkQueryPool pool, uint32_t query) {
  RecordQueryOp(device, command_buffer, pool, query, 1, false);
  device.dispatch.CmdEndQuery(command_buffer, pool, query);
}

void vkCmdEndQueryIndexedEXT(DeviceState& device, VkCommandBuffer command_buffer, VkQueryPool pool,
                             uint32_t query, uint32_t index) {
  RecordQueryOp(device, command_buffer, pool, query, 1, false);
  device.dispatch.CmdEndQueryIndexedEXT(command_buffer, pool, query, index);
}

void vkCmdWriteTimestamp(DeviceState& device, VkCommandBuffer command_buffer, VkPipelineStageFlagBits stage,
                         VkQueryPool pool, uint32_t query) {
  RecordQueryOp(device, command_buffer, pool, query, 1, false);
  device.dispatch.CmdWriteTimestamp(command_buffer, stage, pool, query);
}

void vkCmdWriteTimestamp2(DeviceState& device, VkCommandBuffer command_buffer, VkPipelineStageFlags2 stage,
                          VkQueryPool pool, uint32_t query) {
  RecordQueryOp(device, command_buffer, pool, query, 1, false);
  device.dispatch.CmdWriteTimestamp2(command_buffer, stage, pool, query);
}

}  // namespace guard::hooks
