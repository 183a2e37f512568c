// Hooks that record how objects relate (views to images, resources to memory, sets to their
// contents and pools, command buffers to pools) and that reset command buffers and pools.
#include "guard_tracking.h"

namespace guard::hooks {
namespace {

// Descriptor contents are keyed by where they were written, so a rewrite replaces the old object.
uint64_t DescriptorSlot(uint32_t binding, uint32_t element, uint32_t kind) {
  return (uint64_t(binding) << 34) | (uint64_t(element) << 2) | kind;
}

void RecordWriteLocked(DescriptorSetState& set, const VkWriteDescriptorSet& write) {
  for (uint32_t i = 0; i < write.descriptorCount; ++i) {
    const uint32_t element = write.dstArrayElement + i;
    // Only the array that matches the descriptor type is valid; the others may hold garbage.
    switch (write.descriptorType) {
      case VK_DESCRIPTOR_TYPE_SAMPLER:
        set.contents[DescriptorSlot(write.dstBinding, element, 0)] = {HandleKey(write.pImageInfo[i].sampler),
                                                                      VK_OBJECT_TYPE_SAMPLER};
        break;
      case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
        set.contents[DescriptorSlot(write.dstBinding, element, 0)] = {HandleKey(write.pImageInfo[i].sampler),
                                                                      VK_OBJECT_TYPE_SAMPLER};
        [[fallthrough]];
      case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
      case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
      case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT:
        set.contents[DescriptorSlot(write.dstBinding, element, 1)] = {
            HandleKey(write.pImageInfo[i].imageView), VK_OBJECT_TYPE_IMAGE_VIEW};
        break;
      case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
      case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
        set.contents[DescriptorSlot(write.dstBinding, element, 1)] = {HandleKey(write.pTexelBufferView[i]),
                                                                      VK_OBJECT_TYPE_BUFFER_VIEW};
        break;
      case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
      case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
      case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
      case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
        set.contents[DescriptorSlot(write.dstBinding, element, 1)] = {HandleKey(write.pBufferInfo[i].buffer),
                                                                      VK_OBJECT_TYPE_BUFFER};
        break;
      default:
        break;  // inline uniform blocks and acceleration structures are not tracked
    }
  }
}

template <typename Predicate>
void EraseCommandBuffersLocked(DeviceState& device, Predicate&& matches) {
  std::erase_if(device.command_buffers, [&](const auto& entry) { return matches(entry.second); });
  g_command_buffer_generation.fetch_add(1, std::memory_order_acq_rel);
}

}  // namespace

VkResult vkAllocateCommandBuffers(DeviceState& device, VkDevice handle,
                                  const VkCommandBufferAllocateInfo* info, VkCommandBuffer* command_buffers) {
  const VkResult result = device.dispatch.AllocateCommandBuffers(handle, info, command_buffers);
  if (result == VK_SUCCESS) {
    std::lock_guard lock(device.mutex);
    for (uint32_t i = 0; i < info->commandBufferCount; ++i) {
      device.command_buffers[command_buffers[i]].pool = HandleKey(info->commandPool);
    }
  }
  return result;
}

VkResult vkBeginCommandBuffer(DeviceState& device, VkCommandBuffer command_buffer,
                              const VkCommandBufferBeginInfo* begin_info) {
  // Beginning a command buffer resets it implicitly.
  CheckResetWhilePending(device, "vkBeginCommandBuffer", HandleKey(command_buffer),
                         VK_OBJECT_TYPE_COMMAND_BUFFER);
  RecordingStateFor(device, command_buffer).Clear();
  return device.dispatch.BeginCommandBuffer(command_buffer, begin_info);
}

VkResult vkResetCommandBuffer(DeviceState& device, VkCommandBuffer command_buffer,
                              VkCommandBufferResetFlags flags) {
  CheckResetWhilePending(device, "vkResetCommandBuffer", HandleKey(command_buffer),
                         VK_OBJECT_TYPE_COMMAND_BUFFER);
  RecordingStateFor(device, command_buffer).Clear();
  return device.dispatch.ResetCommandBuffer(command_buffer, flags);
}

VkResult vkResetCommandPool(DeviceState& device, VkDevice handle, VkCommandPool pool,
                            VkCommandPoolResetFlags flags) {
  // Pending command buffers put their pool in the submission's object list, so this finds them.
  CheckResetWhilePending(device, "vkResetCommandPool", HandleKey(pool), VK_OBJECT_TYPE_COMMAND_POOL);
  {
    std::lock_guard lock(device.mutex);
    for (auto& [command_buffer, recording] : device.command_buffers) {
      if (recording.pool == HandleKey(pool)) recording.Clear();
    }
  }
  return device.dispatch.ResetCommandPool(handle, pool, flags);
}

void vkDestroyCommandPool(DeviceState& device, VkDevice handle, VkCommandPool pool,
                          const VkAllocationCallbacks* allocator) {
  device.dispatch.DestroyCommandPool(handle, pool, allocator);
  std::lock_guard lock(device.mutex);
  EraseCommandBuffersLocked(device, [&](const CommandBufferState& cb) { return cb.pool == HandleKey(pool); });
}

void vkCmdExecuteCommands(DeviceState& device, VkCommandBuffer command_buffer, uint32_t count,
                          const VkCommandBuffer* secondaries) {
  // Bound state is undefined after secondaries ran: nothing bound next counts as redundant.
  RecordingStateFor(device, command_buffer).bound_state.clear();
  device.dispatch.CmdExecuteCommands(command_buffer, count, secondaries);
}

VkResult vkAllocateDescriptorSets(DeviceState& device, VkDevice handle,
                                  const VkDescriptorSetAllocateInfo* info, VkDescriptorSet* sets) {
  const VkResult result = device.dispatch.AllocateDescriptorSets(handle, info, sets);
  if (result == VK_SUCCESS) {
    std::lock_guard lock(device.mutex);
    for (uint32_t i = 0; i < info->descriptorSetCount; ++i) {
      device.descriptor_sets[HandleKey(sets[i])] = {HandleKey(info->descriptorPool), {}};
    }
  }
  return result;
}

VkResult vkResetDescriptorPool(DeviceState& device, VkDevice handle, VkDescriptorPool pool,
                               VkDescriptorPoolResetFlags flags) {
  CheckResetWhilePending(device, "vkResetDescriptorPool", HandleKey(pool), VK_OBJECT_TYPE_DESCRIPTOR_POOL);
  const VkResult result = device.dispatch.ResetDescriptorPool(handle, pool, flags);
  std::lock_guard lock(device.mutex);
  std::erase_if(device.descriptor_sets,
                [&](const auto& entry) { return entry.second.pool == HandleKey(pool); });
  return result;
}

void vkDestroyDescriptorPool(DeviceState& device, VkDevice handle, VkDescriptorPool pool,
                             const VkAllocationCallbacks* allocator) {
  device.dispatch.DestroyDescriptorPool(handle, pool, allocator);
  std::lock_guard lock(device.mutex);
  std::erase_if(device.descriptor_sets,
                [&](const auto& entry) { return entry.second.pool == HandleKey(pool); });
}

void vkUpdateDescriptorSets(DeviceState& device, VkDevice handle, uint32_t write_count,
                            const VkWriteDescriptorSet* writes, uint32_t copy_count,
                            const VkCopyDescriptorSet* copies) {
  {
    std::lock_guard lock(device.mutex);
    for (uint32_t i = 0; i < write_count; ++i) {
      RecordWriteLocked(device.descriptor_sets[HandleKey(writes[i].dstSet)], writes[i]);
    }
    for (uint32_t i = 0; i < copy_count; ++i) {
      // Copies are tracked coarsely: the destination may now reference anything the source does.
      auto source = device.descriptor_sets.find(HandleKey(copies[i].srcSet));
      if (source == device.descriptor_sets.end()) continue;
      const auto contents = source->second.contents;
      DescriptorSetState& destination = device.descriptor_sets[HandleKey(copies[i].dstSet)];
      for (const auto& [slot, ref] : contents) destination.contents[slot ^ (1ull << 63)] = ref;
    }
  }
  device.dispatch.UpdateDescriptorSets(handle, write_count, writes, copy_count, copies);
}

VkResult vkBindBufferMemory(DeviceState& device, VkDevice handle, VkBuffer buffer, VkDeviceMemory memory,
                            VkDeviceSize offset) {
  const VkResult result = device.dispatch.BindBufferMemory(handle, buffer, memory, offset);
  std::lock_guard lock(device.mutex);
  device.parents[HandleKey(buffer)] = {HandleKey(memory), VK_OBJECT_TYPE_DEVICE_MEMORY};
  return result;
}

VkResult vkBindBufferMemory2(DeviceState& device, VkDevice handle, uint32_t count,
                             const VkBindBufferMemoryInfo* infos) {
  const VkResult result = device.dispatch.BindBufferMemory2(handle, count, infos);
  std::lock_guard lock(device.mutex);
  for (uint32_t i = 0; i < count; ++i) {
    device.parents[HandleKey(infos[i].buffer)] = {HandleKey(infos[i].memory), VK_OBJECT_TYPE_DEVICE_MEMORY};
  }
  return result;
}

VkResult vkBindImageMemory(DeviceState& device, VkDevice handle, VkImage image, VkDeviceMemory memory,
                           VkDeviceSize offset) {
  const VkResult result = device.dispatch.BindImageMemory(handle, image, memory, offset);
  std::lock_guard lock(device.mutex);
  device.parents[HandleKey(image)] = {HandleKey(memory), VK_OBJECT_TYPE_DEVICE_MEMORY};
  return result;
}

VkResult vkBindImageMemory2(DeviceState& device, VkDevice handle, uint32_t count,
                            const VkBindImageMemoryInfo* infos) {
  const VkResult result = device.dispatch.BindImageMemory2(handle, count, infos);
  std::lock_guard lock(device.mutex);
  for (uint32_t i = 0; i < count; ++i) {
    // Swapchain-bound images (memory == VK_NULL_HANDLE) have no memory the app can free.
    if (infos[i].memory != VK_NULL_HANDLE) {
      device.parents[HandleKey(infos[i].image)] = {HandleKey(infos[i].memory), VK_OBJECT_TYPE_DEVICE_MEMORY};
    }
  }
  return result;
}

VkResult vkCreateImageView(DeviceState& device, VkDevice handle, const VkImageViewCreateInfo* create_info,
                           const VkAllocationCallbacks* allocator, VkImageView* view) {
  const VkResult result = device.dispatch.CreateImageView(handle, create_info, allocator, view);
  if (result == VK_SUCCESS) {
    std::lock_guard lock(device.mutex);
    device.parents[HandleKey(*view)] = {HandleKey(create_info->image), VK_OBJECT_TYPE_IMAGE};
  }
  return result;
}

VkResult vkCreateBufferView(DeviceState& device, VkDevice handle, const VkBufferViewCreateInfo* create_info,
                            const VkAllocationCallbacks* allocator, VkBufferView* view) {
  const VkResult result = device.dispatch.CreateBufferView(handle, create_info, allocator, view);
  if (result == VK_SUCCESS) {
    std::lock_guard lock(device.mutex);
    device.parents[HandleKey(*view)] = {HandleKey(create_info->buffer), VK_OBJECT_TYPE_BUFFER};
  }
  return result;
}

VkResult vkCreateFramebuffer(DeviceState& device, VkDevice handle, const VkFramebufferCreateInfo* create_info,
                             const VkAllocationCallbacks* allocator, VkFramebuffer* framebuffer) {
  const VkResult result = device.dispatch.CreateFramebuffer(handle, create_info, allocator, framebuffer);
  // Imageless framebuffers get their views at vkCmdBeginRenderPass, which the wrapper records.
  if (result == VK_SUCCESS && (create_info->flags & VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT) == 0) {
    std::vector<ObjectRef> attachments;
    for (uint32_t i = 0; i < create_info->attachmentCount; ++i) {
      attachments.push_back({HandleKey(create_info->pAttachments[i]), VK_OBJECT_TYPE_IMAGE_VIEW});
    }
    std::lock_guard lock(device.mutex);
    device.framebuffer_attachments[HandleKey(*framebuffer)] = std::move(attachments);
  }
  return result;
}

}  // namespace guard::hooks
