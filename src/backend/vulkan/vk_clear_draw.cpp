// Clears vkCmdClearAttachments cannot make. It writes every component of a colour attachment and every bit
// of the stencil, while glClear honours glColorMask and glStencilMask (GL 3.3 §4.2.3: a masked-off component
// or bit keeps its value). A clear with a partial colour or stencil mask is drawn instead: one triangle over
// the render area, cut by the clear's scissor, through a pipeline whose colour write mask is the GL mask (one
// attachment per draw, so each gets the fragment output of its numeric kind) or whose stencil test replaces
// the masked bits with the clear value. The clear colour comes as push constants; the shaders are compiled
// at build time (gen_clear_spirv.py). Depth needs none of this: GL's depth mask is all or nothing.
#include <algorithm>
#include <cstring>

#include "backend/vulkan/vk_clear_spirv.h"
#include "backend/vulkan/vk_context.h"
#include "backend/vulkan/vk_device.h"
#include "backend/vulkan/vk_formats.h"
#include "backend/vulkan/vk_resources.h"
#include "util/log.h"

namespace caldera::vk {
namespace {

constexpr uint8_t kNoAttachment = 0xFF;

VkShaderModule MakeModule(VkDevice device, const uint32_t* words, size_t bytes) {
  VkShaderModuleCreateInfo ci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  ci.codeSize = bytes;
  ci.pCode = words;
  VkShaderModule module = VK_NULL_HANDLE;
  if (vkCreateShaderModule(device, &ci, nullptr, &module) != VK_SUCCESS) return VK_NULL_HANDLE;
  return module;
}

int KindOf(pipe::Format f) {
  if (!pipe::IsIntegerFormat(f)) return 0;
  return pipe::Info(f).type == pipe::FormatType::kSint ? 1 : 2;
}

}  // namespace

ClearDraws::~ClearDraws() {
  if (!device_) return;
  for (auto& [key, pipeline] : pipelines_) vkDestroyPipeline(device_, pipeline, nullptr);
  for (VkShaderModule m : modules_)
    if (m) vkDestroyShaderModule(device_, m, nullptr);
  if (layout_) vkDestroyPipelineLayout(device_, layout_, nullptr);
}

VkPipeline ClearDraws::Get(Device& device, const ClearPipelineKey& key) {
  if (auto it = pipelines_.find(key); it != pipelines_.end()) return it->second;
  device_ = device.device();
  if (!layout_) {
    VkPushConstantRange range{VK_SHADER_STAGE_FRAGMENT_BIT, 0, 16};
    VkPipelineLayoutCreateInfo li{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    li.pushConstantRangeCount = 1;
    li.pPushConstantRanges = &range;
    if (!device.Check(vkCreatePipelineLayout(device_, &li, nullptr, &layout_), "vkCreatePipelineLayout"))
      return VK_NULL_HANDLE;
  }
  // modules_[0]: the vertex shader; 1 + kind * 8 + location: the fragment shaders, made when first needed.
  if (modules_.empty()) modules_.assign(1 + 3 * pipe::kMaxColorAttachments, VK_NULL_HANDLE);
  auto module = [&](size_t index, const uint32_t* words, size_t bytes) {
    if (!modules_[index]) modules_[index] = MakeModule(device_, words, bytes);
    return modules_[index];
  };
  VkPipelineShaderStageCreateInfo stages[2] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT,
       module(0, clear_spirv::kVertex, sizeof(clear_spirv::kVertex)), "main", nullptr},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT,
       VK_NULL_HANDLE, "main", nullptr}};
  uint32_t stage_count = 1;
  if (key.attachment != kNoAttachment) {
    const auto& code = clear_spirv::kFragment[key.kind][key.attachment];
    stages[1].module =
        module(1 + size_t(key.kind) * pipe::kMaxColorAttachments + key.attachment, code.words, code.bytes);
    stage_count = 2;
  }
  for (uint32_t i = 0; i < stage_count; ++i)
    if (!stages[i].module) {
      util::LogOnce(util::LogLevel::kError, "vulkan", "vkCreateShaderModule failed for a masked clear");
      return VK_NULL_HANDLE;
    }

  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  vp.viewportCount = vp.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rs.polygonMode = VK_POLYGON_MODE_FILL;
  rs.cullMode = VK_CULL_MODE_NONE;
  rs.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = static_cast<VkSampleCountFlagBits>(key.samples);
  VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  ds.stencilTestEnable = key.stencil;
  ds.front = {
      VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS, 0xFF, 0, 0};
  ds.back = ds.front;  // write mask and reference are dynamic
  VkPipelineColorBlendAttachmentState blend[pipe::kMaxColorAttachments] = {};
  uint32_t color_count = 0;
  for (uint32_t i = 0; i < pipe::kMaxColorAttachments; ++i) {
    if (key.color_formats[i]) color_count = i + 1;
    blend[i].colorWriteMask = i == key.attachment ? key.color_mask : 0;
  }
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  cb.attachmentCount = color_count;
  cb.pAttachments = blend;
  static const VkDynamicState kDynamic[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR,
                                            VK_DYNAMIC_STATE_STENCIL_WRITE_MASK,
                                            VK_DYNAMIC_STATE_STENCIL_REFERENCE};
  VkPipelineDynamicStateCreateInfo dyn{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dyn.dynamicStateCount = 4;
  dyn.pDynamicStates = kDynamic;
  VkFormat color_formats[pipe::kMaxColorAttachments];
  for (uint32_t i = 0; i < pipe::kMaxColorAttachments; ++i) color_formats[i] = VkFormat(key.color_formats[i]);
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  rendering.colorAttachmentCount = color_count;
  rendering.pColorAttachmentFormats = color_formats;
  const VkFormat depth = VkFormat(key.depth_format);
  rendering.depthAttachmentFormat = depth;
  const bool has_stencil = depth == VK_FORMAT_D24_UNORM_S8_UINT || depth == VK_FORMAT_D32_SFLOAT_S8_UINT;
  rendering.stencilAttachmentFormat = has_stencil ? depth : VK_FORMAT_UNDEFINED;

  VkGraphicsPipelineCreateInfo gp{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
  gp.stageCount = stage_count;
  gp.pStages = stages;
  gp.pVertexInputState = &vi;
  gp.pInputAssemblyState = &ia;
  gp.pViewportState = &vp;
  gp.pRasterizationState = &rs;
  gp.pMultisampleState = &ms;
  gp.pDepthStencilState = &ds;
  gp.pColorBlendState = &cb;
  gp.pDynamicState = &dyn;
  gp.layout = layout_;
  VkPipeline pipeline = VK_NULL_HANDLE;
  if (!device.Check(vkCreateGraphicsPipelines(device_, device.pipeline_cache(), 1, &gp, nullptr, &pipeline),
                    "vkCreateGraphicsPipelines"))
    return VK_NULL_HANDLE;
  pipelines_.emplace(key, pipeline);
  return pipeline;
}

uint8_t Context::DrawMaskedClears(const pipe::CmdClear& cmd, const VkClearColorValue* values, bool color,
                                  bool stencil, const VkRect2D& rect, bool* stencil_drawn) {
  *stencil_drawn = false;
  if (!clear_draws_enabled_) return 0;
  auto& images = shared_.resources->images;
  ClearPipelineKey base{};
  RenderingFormats(base.color_formats, &base.depth_format, &base.samples);
  // Per attachment: a draw where the mask leaves components out (the implicit alpha of an RGB format stored
  // as RGBA counts as written: it stays 1 either way).
  struct Draw {
    uint8_t attachment, kind, mask;
  } draws[pipe::kMaxColorAttachments + 1];
  uint32_t count = 0;
  uint8_t drawn = 0;
  for (uint8_t i = 0; color && i < pipe::kMaxColorAttachments; ++i) {
    ImageObject* img = images.Get(targets_.color[i].image);
    if (!img || !(cmd.color_targets & (1u << i))) continue;
    uint8_t mask = cmd.color_write_mask & 0xF;
    if (pipe::HasImplicitAlpha(img->pipe_format)) mask |= 0x8;
    if (mask == 0xF) continue;
    draws[count++] = {i, uint8_t(KindOf(img->pipe_format)), uint8_t(cmd.color_write_mask & 0xF)};
    drawn |= uint8_t(1u << i);
  }
  const bool partial_stencil = stencil && (cmd.stencil_write_mask & 0xFF) != 0xFF;
  if (partial_stencil) draws[count++] = {kNoAttachment, 0, 0};
  if (count == 0) return 0;
  if (targets_.layers != 0) {
    // A draw reaches layer 0 only; vkCmdClearAttachments reaches them all.
    util::LogOnce(util::LogLevel::kWarning, "glClear",
                  "partial colour or stencil masks are not applied to clears of layered framebuffers");
    return 0;
  }
  BeginPass();
  // No pipeline may be bound while transform feedback is active: the capture's segment ends with the pass
  // and resumes at its next draw.
  if (xfb_.in_pass) {
    EndPass();
    BeginPass();
  }
  // Occlusion and primitive queries count the application's draws, not clears: their open segments end here
  // and the next draw begins new ones.
  EndOcclusionSegment();
  EndPrimitiveSegment(0);
  EndPrimitiveSegment(1);
  const VkViewport viewport{0, 0, float(targets_.width), float(targets_.height), 0, 1};
  for (uint32_t d = 0; d < count; ++d) {
    ClearPipelineKey key = base;
    key.attachment = draws[d].attachment;
    key.kind = draws[d].kind;
    key.color_mask = draws[d].mask;
    key.stencil = draws[d].attachment == kNoAttachment;
    VkPipeline pipeline = clear_draws_.Get(*shared_.device, key);
    if (!pipeline) {  // cleared unmasked by the caller instead
      if (!key.stencil) drawn &= uint8_t(~(1u << draws[d].attachment));
      continue;
    }
    vkCmdBindPipeline(cmd_, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdSetViewport(cmd_, 0, 1, &viewport);
    vkCmdSetScissor(cmd_, 0, 1, &rect);
    vkCmdSetStencilWriteMask(cmd_, VK_STENCIL_FACE_FRONT_AND_BACK, cmd.stencil_write_mask & 0xFF);
    vkCmdSetStencilReference(cmd_, VK_STENCIL_FACE_FRONT_AND_BACK, cmd.stencil & 0xFF);
    if (!key.stencil)
      vkCmdPushConstants(cmd_, clear_draws_.layout(), VK_SHADER_STAGE_FRAGMENT_BIT, 0, 16,
                         &values[draws[d].attachment]);
    vkCmdDraw(cmd_, 3, 1, 0, 0);
    ++stats_.clears_drawn;
    if (key.stencil) *stencil_drawn = true;
  }
  ForgetBoundState();  // the application's next draw binds and sets everything again
  return drawn;
}

}  // namespace caldera::vk
