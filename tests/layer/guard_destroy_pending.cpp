// Plants one "destroyed while pending" hazard per run: a command buffer using the object is submitted
// and, without waiting for it, the object is destroyed or freed. Runs with CALDERA_GUARD_PROTECT=1
// so that lavapipe, which would crash on the real use-after-free, survives to write the report.
#include <cstring>
#include <string>

#include "guard_test_util.h"

using namespace guard_test;

namespace {

void BufferCase(Context& ctx) {
  const Buffer buffer = ctx.CreateBuffer(256, VK_BUFFER_USAGE_TRANSFER_DST_BIT, false, false);
  ctx.AtTeardown([&ctx, buffer] { vkFreeMemory(ctx.device(), buffer.memory, nullptr); });
  VkCommandBuffer cb = ctx.AllocateCommandBuffer();
  ctx.Begin(cb);
  vkCmdFillBuffer(cb, buffer.buffer, 0, VK_WHOLE_SIZE, 7);
  ctx.End(cb);
  ctx.Submit(cb);
  vkDestroyBuffer(ctx.device(), buffer.buffer, nullptr);  // the hazard
}

void MemoryCase(Context& ctx) {
  const Buffer buffer = ctx.CreateBuffer(256, VK_BUFFER_USAGE_TRANSFER_DST_BIT, false, false);
  VkCommandBuffer cb = ctx.AllocateCommandBuffer();
  ctx.Begin(cb);
  vkCmdFillBuffer(cb, buffer.buffer, 0, VK_WHOLE_SIZE, 7);
  ctx.End(cb);
  ctx.Submit(cb);
  vkFreeMemory(ctx.device(), buffer.memory, nullptr);  // the hazard: memory bound to a used buffer
  ctx.AtTeardown([&ctx, buffer] { vkDestroyBuffer(ctx.device(), buffer.buffer, nullptr); });
}

void ImageCase(Context& ctx, bool destroy_view) {
  const Image image = ctx.CreateColorImage(8, 8, false);
  VkCommandBuffer cb = ctx.AllocateCommandBuffer();
  ctx.Begin(cb);
  ctx.ToGeneralLayout(cb, image.image);
  if (destroy_view) {
    // The view is only reachable through dynamic rendering.
    auto attachment = Init<VkRenderingAttachmentInfo>(VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO);
    attachment.imageView = image.view;
    attachment.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
    attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    auto rendering = Init<VkRenderingInfo>(VK_STRUCTURE_TYPE_RENDERING_INFO);
    rendering.renderArea = {{0, 0}, {8, 8}};
    rendering.layerCount = 1;
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachments = &attachment;
    vkCmdBeginRendering(cb, &rendering);
    vkCmdEndRendering(cb);
  } else {
    const VkClearColorValue color{{0.0f, 1.0f, 0.0f, 1.0f}};
    const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(cb, image.image, VK_IMAGE_LAYOUT_GENERAL, &color, 1, &range);
  }
  ctx.End(cb);
  ctx.Submit(cb);
  if (destroy_view) {
    vkDestroyImageView(ctx.device(), image.view, nullptr);  // the hazard
    ctx.AtTeardown([&ctx, image] {
      vkDestroyImage(ctx.device(), image.image, nullptr);
      vkFreeMemory(ctx.device(), image.memory, nullptr);
    });
  } else {
    vkDestroyImageView(ctx.device(), image.view, nullptr);  // unused by the submission: fine
    vkDestroyImage(ctx.device(), image.image, nullptr);     // the hazard
    ctx.AtTeardown([&ctx, image] { vkFreeMemory(ctx.device(), image.memory, nullptr); });
  }
}

void FramebufferCase(Context& ctx) {
  const Image image = ctx.CreateColorImage(8, 8);
  VkAttachmentDescription attachment{};
  attachment.format = VK_FORMAT_R8G8B8A8_UNORM;
  attachment.samples = VK_SAMPLE_COUNT_1_BIT;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  attachment.finalLayout = VK_IMAGE_LAYOUT_GENERAL;
  VkAttachmentReference reference{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &reference;
  auto pass_info = Init<VkRenderPassCreateInfo>(VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO);
  pass_info.attachmentCount = 1;
  pass_info.pAttachments = &attachment;
  pass_info.subpassCount = 1;
  pass_info.pSubpasses = &subpass;
  VkRenderPass pass = VK_NULL_HANDLE;
  GUARD_VK(vkCreateRenderPass(ctx.device(), &pass_info, nullptr, &pass));
  ctx.AtTeardown([&ctx, pass] { vkDestroyRenderPass(ctx.device(), pass, nullptr); });
  auto fb_info = Init<VkFramebufferCreateInfo>(VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO);
  fb_info.renderPass = pass;
  fb_info.attachmentCount = 1;
  fb_info.pAttachments = &image.view;
  fb_info.width = 8;
  fb_info.height = 8;
  fb_info.layers = 1;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  GUARD_VK(vkCreateFramebuffer(ctx.device(), &fb_info, nullptr, &framebuffer));

  VkCommandBuffer cb = ctx.AllocateCommandBuffer();
  ctx.Begin(cb);
  const VkClearValue clear{};
  auto begin = Init<VkRenderPassBeginInfo>(VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO);
  begin.renderPass = pass;
  begin.framebuffer = framebuffer;
  begin.renderArea = {{0, 0}, {8, 8}};
  begin.clearValueCount = 1;
  begin.pClearValues = &clear;
  vkCmdBeginRenderPass(cb, &begin, VK_SUBPASS_CONTENTS_INLINE);
  vkCmdEndRenderPass(cb);
  ctx.End(cb);
  ctx.Submit(cb);
  vkDestroyFramebuffer(ctx.device(), framebuffer, nullptr);  // the hazard
}

// Cases that use the compute pipeline: the storage buffer is reached through the descriptor set.
void ComputeCase(Context& ctx, const std::string& which) {
  const Buffer storage = ctx.CreateBuffer(64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false);
  const VkDescriptorPoolCreateFlags flags =
      which == "descriptor_set" ? VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT : 0;
  const ComputePipeline compute = ctx.CreateComputePipeline(storage.buffer, 64, flags);
  VkDevice device = ctx.device();

  VkSampler sampler = VK_NULL_HANDLE;
  VkDescriptorSetLayout sampler_layout = VK_NULL_HANDLE;
  VkPipelineLayout sampler_pipeline_layout = VK_NULL_HANDLE;
  VkDescriptorPool sampler_pool = VK_NULL_HANDLE;
  VkDescriptorSet sampler_set = VK_NULL_HANDLE;
  if (which == "sampler") {
    // A sampler is only ever used through a descriptor set.
    auto sampler_info = Init<VkSamplerCreateInfo>(VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO);
    GUARD_VK(vkCreateSampler(device, &sampler_info, nullptr, &sampler));
    VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT,
                                         nullptr};
    auto set_info =
        Init<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
    set_info.bindingCount = 1;
    set_info.pBindings = &binding;
    GUARD_VK(vkCreateDescriptorSetLayout(device, &set_info, nullptr, &sampler_layout));
    auto layout_info = Init<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &sampler_layout;
    GUARD_VK(vkCreatePipelineLayout(device, &layout_info, nullptr, &sampler_pipeline_layout));
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_SAMPLER, 1};
    auto pool_info = Init<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
    pool_info.maxSets = 1;
    pool_info.poolSizeCount = 1;
    pool_info.pPoolSizes = &size;
    GUARD_VK(vkCreateDescriptorPool(device, &pool_info, nullptr, &sampler_pool));
    auto allocate = Init<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
    allocate.descriptorPool = sampler_pool;
    allocate.descriptorSetCount = 1;
    allocate.pSetLayouts = &sampler_layout;
    GUARD_VK(vkAllocateDescriptorSets(device, &allocate, &sampler_set));
    VkDescriptorImageInfo image_info{sampler, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_UNDEFINED};
    auto write = Init<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    write.dstSet = sampler_set;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_SAMPLER;
    write.pImageInfo = &image_info;
    vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
    ctx.AtTeardown([=] {
      vkDestroyDescriptorPool(device, sampler_pool, nullptr);
      vkDestroyPipelineLayout(device, sampler_pipeline_layout, nullptr);
      vkDestroyDescriptorSetLayout(device, sampler_layout, nullptr);
    });
  }

  VkCommandBuffer cb = ctx.AllocateCommandBuffer();
  ctx.Begin(cb);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, compute.pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, compute.layout, 0, 1, &compute.set, 0, nullptr);
  vkCmdDispatch(cb, 16, 1, 1);
  if (sampler_set != VK_NULL_HANDLE) {
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, sampler_pipeline_layout, 0, 1, &sampler_set,
                            0, nullptr);
  }
  ctx.End(cb);
  ctx.Submit(cb);

  // Exactly one hazard; everything else is destroyed at teardown, after vkDeviceWaitIdle.
  const bool keep_pipeline = which != "pipeline";
  const bool keep_pool = which != "descriptor_pool";
  if (which == "pipeline") vkDestroyPipeline(device, compute.pipeline, nullptr);
  if (which == "descriptor_pool") vkDestroyDescriptorPool(device, compute.pool, nullptr);
  if (which == "descriptor_set") GUARD_VK(vkFreeDescriptorSets(device, compute.pool, 1, &compute.set));
  if (which == "sampler") vkDestroySampler(device, sampler, nullptr);
  if (which == "command_buffer") vkFreeCommandBuffers(device, ctx.command_pool(), 1, &cb);
  ctx.AtTeardown([=] {
    if (keep_pipeline) vkDestroyPipeline(device, compute.pipeline, nullptr);
    if (keep_pool) vkDestroyDescriptorPool(device, compute.pool, nullptr);
    vkDestroyPipelineLayout(device, compute.layout, nullptr);
    vkDestroyDescriptorSetLayout(device, compute.set_layout, nullptr);
  });
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) Fail("usage: guard_destroy_pending <case>");
  const std::string which = argv[1];
  Report::RemoveStale();
  {
    Context ctx;
    if (which == "buffer") {
      BufferCase(ctx);
    } else if (which == "memory") {
      MemoryCase(ctx);
    } else if (which == "image") {
      ImageCase(ctx, false);
    } else if (which == "image_view") {
      ImageCase(ctx, true);
    } else if (which == "framebuffer") {
      FramebufferCase(ctx);
    } else if (which == "pipeline" || which == "descriptor_pool" || which == "descriptor_set" ||
               which == "sampler" || which == "command_buffer") {
      ComputeCase(ctx, which);
    } else {
      Fail("unknown case " + which);
    }
  }
  Report::Load().ExpectOnly("destroyed-while-pending", 1);
  return 0;
}
