#include "backend/vulkan/vk_pipelines.h"

#include <algorithm>
#include <cstddef>
#include <vector>

#include "backend/vulkan/vk_device.h"
#include "backend/vulkan/vk_resources.h"
#include "util/log.h"

namespace caldera::vk {

VkPrimitiveTopology TopologyClass(VkPrimitiveTopology t) {
  switch (t) {
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST:
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP:
      return VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN:
      return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    default:  // points; adjacency topologies stay exact (a geometry shader's input primitive must match)
      return t;
  }
}

size_t PipelineKeyHash::operator()(const PipelineKey& k) const {
  const auto* p = reinterpret_cast<const uint8_t*>(&k);
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < sizeof(k); ++i) h = (h ^ p[i]) * 1099511628211ull;
  return static_cast<size_t>(h);
}

PipelineCache::PipelineCache(Device& device) : device_(device) {
  VkDevice dev = device.device();
  // Set 0: the default uniform block, one dynamic UBO so a per-draw offset is all a uniform change costs.
  constexpr VkShaderStageFlags kStages =
      VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_GEOMETRY_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, kStages, nullptr};
  VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  info.bindingCount = 1;
  info.pBindings = &binding;
  device_.Check(vkCreateDescriptorSetLayout(dev, &info, nullptr, &uniform_set_layout_),
                "vkCreateDescriptorSetLayout");
  layout_ = MakeLayout(0, {}, &resource_set_layout_);
}

VkPipelineLayout PipelineCache::MakeLayout(uint32_t texel_buffer_mask,
                                           const std::array<uint8_t, pipe::kMaxSamplers>& arrays,
                                           VkDescriptorSetLayout* set1) {
  VkDevice dev = device_.device();
  constexpr VkShaderStageFlags kStages =
      VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_GEOMETRY_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
  std::vector<VkDescriptorSetLayoutBinding> resources;
  for (uint32_t i = 0; i < pipe::kMaxUniformBlocks; ++i)
    resources.push_back({i, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, kStages, nullptr});
  // A sampler array of n elements at index i is binding kSamplerBindingBase + i with n descriptors; the
  // bindings of its later elements are left out, so that the set keeps within maxPushDescriptors (32 on
  // lavapipe: 12 blocks and 16 samplers fit).
  for (uint32_t i = 0; i < pipe::kMaxSamplers; i += std::max<uint32_t>(arrays[i], 1))
    resources.push_back({kSamplerBindingBase + i,
                         (texel_buffer_mask & (1u << i)) ? VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER
                                                         : VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                         std::max<uint32_t>(arrays[i], 1), kStages, nullptr});
  VkDescriptorSetLayoutCreateInfo rinfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  rinfo.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
  rinfo.bindingCount = static_cast<uint32_t>(resources.size());
  rinfo.pBindings = resources.data();
  if (!device_.Check(vkCreateDescriptorSetLayout(dev, &rinfo, nullptr, set1), "vkCreateDescriptorSetLayout"))
    return VK_NULL_HANDLE;
  VkDescriptorSetLayout sets[2] = {uniform_set_layout_, *set1};
  VkPipelineLayoutCreateInfo pli{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  pli.setLayoutCount = 2;
  pli.pSetLayouts = sets;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  if (!device_.Check(vkCreatePipelineLayout(dev, &pli, nullptr, &layout), "vkCreatePipelineLayout"))
    return VK_NULL_HANDLE;
  return layout;
}

VkPipelineLayout PipelineCache::Layout(uint32_t texel_buffer_mask,
                                       const std::array<uint8_t, pipe::kMaxSamplers>& arrays) {
  const bool plain = std::all_of(arrays.begin(), arrays.end(), [](uint8_t n) { return n <= 1; });
  if (texel_buffer_mask == 0 && plain) return layout_;
  std::array<uint8_t, pipe::kMaxSamplers> counts{};
  for (size_t i = 0; i < counts.size(); ++i) counts[i] = arrays[i] > 1 ? arrays[i] : 0;
  std::lock_guard lock(mutex_);
  for (const auto& m : mask_layouts_)
    if (m.mask == texel_buffer_mask && m.arrays == counts) return m.layout;
  MaskLayout m{texel_buffer_mask, counts, VK_NULL_HANDLE, VK_NULL_HANDLE};
  m.layout = MakeLayout(texel_buffer_mask, counts, &m.set1);
  mask_layouts_.push_back(m);
  return m.layout;
}

PipelineCache::~PipelineCache() {
  VkDevice dev = device_.device();
  for (auto& [key, pipeline] : pipelines_) vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyPipelineLayout(dev, layout_, nullptr);
  for (const auto& m : mask_layouts_) {
    vkDestroyPipelineLayout(dev, m.layout, nullptr);
    vkDestroyDescriptorSetLayout(dev, m.set1, nullptr);
  }
  vkDestroyDescriptorSetLayout(dev, uniform_set_layout_, nullptr);
  vkDestroyDescriptorSetLayout(dev, resource_set_layout_, nullptr);
}

PipelineStats PipelineCache::stats() {
  std::lock_guard lock(mutex_);
  PipelineStats s = stats_;
  s.live = pipelines_.size();
  return s;
}

void PipelineCache::TakePipelines(pipe::Handle program, std::vector<VkPipeline>* out) {
  std::lock_guard lock(mutex_);
  for (auto it = pipelines_.begin(); it != pipelines_.end();) {
    if (it->first.program_slot == program.slot && it->first.program_generation == program.generation) {
      out->push_back(it->second);
      it = pipelines_.erase(it);
    } else {
      ++it;
    }
  }
}

VkPipeline PipelineCache::Get(const PipelineKey& key, const ProgramObject& program) {
  std::lock_guard lock(mutex_);
  ++stats_.lookups;
  auto it = pipelines_.find(key);
  if (it != pipelines_.end()) return it->second;
  VkPipeline p = Create(key, program);
  if (p) {
    pipelines_.emplace(key, p);
    ++stats_.created;
  }
  return p;
}

VkPipeline PipelineCache::Create(const PipelineKey& key, const ProgramObject& program) {
  // GL's point rules (src/shader/spirv_points.cpp); every stage gets the same map, a module ignores the
  // constants it does not declare.
  struct PointSpec {
    VkBool32 use_shader_size;
    float size;
    VkBool32 flip_coord;
  } point_spec{!(key.point_flags & PipelineKey::kPointApiSize), 1.0f,
               (key.point_flags & PipelineKey::kPointFlipCoord) != 0};
  std::memcpy(&point_spec.size, &key.point_size_bits, sizeof(float));
  if (point_spec.use_shader_size) point_spec.size = 1.0f;
  const VkSpecializationMapEntry spec_entries[] = {
      {pipe::kSpecUseShaderPointSize, offsetof(PointSpec, use_shader_size), sizeof(VkBool32)},
      {pipe::kSpecPointSize, offsetof(PointSpec, size), sizeof(float)},
      {pipe::kSpecFlipPointCoord, offsetof(PointSpec, flip_coord), sizeof(VkBool32)}};
  const VkSpecializationInfo spec{3, spec_entries, sizeof(point_spec), &point_spec};
  VkPipelineShaderStageCreateInfo stages[3] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT,
       program.vertex, "main", &spec},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT,
       program.fragment, "main", &spec},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_GEOMETRY_BIT,
       program.geometry, "main", &spec}};

  std::vector<VkVertexInputBindingDescription> bindings;
  std::vector<VkVertexInputAttributeDescription> attribs;
  std::vector<VkVertexInputBindingDivisorDescriptionEXT> divisors;
  for (uint32_t loc = 0; loc < pipe::kMaxVertexAttribs; ++loc) {
    if (!(key.attrib_mask & (1u << loc))) continue;
    const auto& a = key.attribs[loc];
    VkVertexInputRate rate = a.per_instance ? VK_VERTEX_INPUT_RATE_INSTANCE : VK_VERTEX_INPUT_RATE_VERTEX;
    bindings.push_back({loc, 0, rate});  // stride is dynamic
    attribs.push_back({loc, loc, static_cast<VkFormat>(a.format), a.offset});
    if (a.per_instance && a.divisor > 1) divisors.push_back({loc, a.divisor});
  }
  VkPipelineVertexInputDivisorStateCreateInfoEXT divisor_info{
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT};
  divisor_info.vertexBindingDivisorCount = static_cast<uint32_t>(divisors.size());
  divisor_info.pVertexBindingDivisors = divisors.data();
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  if (!divisors.empty()) vi.pNext = &divisor_info;
  vi.vertexBindingDescriptionCount = static_cast<uint32_t>(bindings.size());
  vi.pVertexBindingDescriptions = bindings.data();
  vi.vertexAttributeDescriptionCount = static_cast<uint32_t>(attribs.size());
  vi.pVertexAttributeDescriptions = attribs.data();

  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = static_cast<VkPrimitiveTopology>(key.topology);

  VkPipelineViewportDepthClipControlCreateInfoEXT clip{
      VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLIP_CONTROL_CREATE_INFO_EXT, nullptr, VK_TRUE};
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  if (device_.features().depth_clip_control) vp.pNext = &clip;  // GL clip depth is -1..1
  vp.viewportCount = 1;
  vp.scissorCount = 1;

  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rs.depthClampEnable = key.depth_clamp;
  rs.polygonMode = static_cast<VkPolygonMode>(key.polygon_mode);
  rs.lineWidth = 1.0f;
  VkPipelineRasterizationProvokingVertexStateCreateInfoEXT provoking{
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT, nullptr,
      VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT};
  if (key.provoking_last) rs.pNext = &provoking;
  VkPipelineRasterizationLineStateCreateInfoEXT line_state{
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT};
  if (key.line_stipple_factor) {
    line_state.lineRasterizationMode = device_.features().line_stipple_mode;
    line_state.stippledLineEnable = VK_TRUE;
    line_state.lineStippleFactor = key.line_stipple_factor;
    line_state.lineStipplePattern = key.line_stipple_pattern;
    line_state.pNext = const_cast<void*>(rs.pNext);
    rs.pNext = &line_state;
  }

  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = static_cast<VkSampleCountFlagBits>(key.samples);
  ms.alphaToCoverageEnable = key.alpha_to_coverage;
  VkSampleMask sample_mask = key.sample_mask;
  ms.pSampleMask = &sample_mask;
  // GL's single-sample rasterization of a multisampled target: all samples at the centre are covered
  // together and see the same depth. A 1x1 grid divides every device's maximum grid.
  VkSampleLocationEXT centre[32];
  for (auto& c : centre) c = {0.5f, 0.5f};
  VkPipelineSampleLocationsStateCreateInfoEXT locations{
      VK_STRUCTURE_TYPE_PIPELINE_SAMPLE_LOCATIONS_STATE_CREATE_INFO_EXT};
  if (key.centre_samples) {
    locations.sampleLocationsEnable = VK_TRUE;
    locations.sampleLocationsInfo = {VK_STRUCTURE_TYPE_SAMPLE_LOCATIONS_INFO_EXT,
                                     nullptr,
                                     static_cast<VkSampleCountFlagBits>(key.samples),
                                     {1, 1},
                                     key.samples,
                                     centre};
    ms.pNext = &locations;
  }

  VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};

  VkPipelineColorBlendAttachmentState blend[pipe::kMaxColorAttachments] = {};
  uint32_t color_count = 0;
  VkFormat color_formats[pipe::kMaxColorAttachments];
  for (uint32_t i = 0; i < pipe::kMaxColorAttachments; ++i) {
    color_formats[i] = static_cast<VkFormat>(key.color_formats[i]);
    if (key.color_formats[i]) color_count = i + 1;
    const auto& b = key.blend[i];
    blend[i].blendEnable = b.enable;
    blend[i].srcColorBlendFactor = static_cast<VkBlendFactor>(b.src_rgb);
    blend[i].dstColorBlendFactor = static_cast<VkBlendFactor>(b.dst_rgb);
    blend[i].srcAlphaBlendFactor = static_cast<VkBlendFactor>(b.src_alpha);
    blend[i].dstAlphaBlendFactor = static_cast<VkBlendFactor>(b.dst_alpha);
    blend[i].colorBlendOp = static_cast<VkBlendOp>(b.op_rgb);
    blend[i].alphaBlendOp = static_cast<VkBlendOp>(b.op_alpha);
    blend[i].colorWriteMask = b.mask;
  }
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  cb.attachmentCount = color_count;
  cb.logicOpEnable = key.logic_op != 0;
  cb.logicOp = key.logic_op ? static_cast<VkLogicOp>(key.logic_op - 1) : VK_LOGIC_OP_COPY;
  cb.pAttachments = blend;

  static const VkDynamicState kDynamic[] = {
      VK_DYNAMIC_STATE_VIEWPORT,
      VK_DYNAMIC_STATE_SCISSOR,
      VK_DYNAMIC_STATE_LINE_WIDTH,
      VK_DYNAMIC_STATE_DEPTH_BIAS,
      VK_DYNAMIC_STATE_BLEND_CONSTANTS,
      VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK,
      VK_DYNAMIC_STATE_STENCIL_WRITE_MASK,
      VK_DYNAMIC_STATE_STENCIL_REFERENCE,
      VK_DYNAMIC_STATE_CULL_MODE,
      VK_DYNAMIC_STATE_FRONT_FACE,
      VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE,
      VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE,
      VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE,
      VK_DYNAMIC_STATE_DEPTH_COMPARE_OP,
      VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE,
      VK_DYNAMIC_STATE_STENCIL_OP,
      VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE,
      VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE,
      VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE,
      VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY,  // within the key's topology class (TopologyClass)
  };
  std::vector<VkDynamicState> dynamic(std::begin(kDynamic), std::end(kDynamic));
  const bool dynamic_vertex_input = device_.features().vertex_input_dynamic;
  // With dynamic vertex input the strides come with vkCmdSetVertexInputEXT, or with vkCmdBindVertexBuffers2
  // when only they changed (both states dynamic: the later call sets them). Without dynamic vertex input and
  // without vertex bindings the stride is not dynamic: Vulkan would otherwise demand a
  // vkCmdBindVertexBuffers2 call with nothing to bind.
  if (!dynamic_vertex_input && key.attrib_mask == 0)
    dynamic.erase(std::find(dynamic.begin(), dynamic.end(), VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE));
  if (dynamic_vertex_input) dynamic.push_back(VK_DYNAMIC_STATE_VERTEX_INPUT_EXT);
  AppendDynamicStates3(device_.features().dynamic3, &dynamic);
  VkPipelineDynamicStateCreateInfo dyn{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dyn.dynamicStateCount = static_cast<uint32_t>(dynamic.size());
  dyn.pDynamicStates = dynamic.data();

  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  rendering.colorAttachmentCount = color_count;
  rendering.pColorAttachmentFormats = color_formats;
  VkFormat depth = static_cast<VkFormat>(key.depth_format);
  rendering.depthAttachmentFormat = depth;
  bool stencil = depth == VK_FORMAT_D24_UNORM_S8_UINT || depth == VK_FORMAT_D32_SFLOAT_S8_UINT;
  rendering.stencilAttachmentFormat = stencil ? depth : VK_FORMAT_UNDEFINED;

  VkGraphicsPipelineCreateInfo gp{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
  gp.stageCount = program.geometry ? 3 : 2;
  gp.pStages = stages;
  gp.pVertexInputState = dynamic_vertex_input ? nullptr : &vi;
  gp.pInputAssemblyState = &ia;
  gp.pViewportState = &vp;
  gp.pRasterizationState = &rs;
  gp.pMultisampleState = &ms;
  gp.pDepthStencilState = &ds;
  gp.pColorBlendState = &cb;
  gp.pDynamicState = &dyn;
  gp.layout = program.layout ? program.layout : layout_;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkResult r =
      vkCreateGraphicsPipelines(device_.device(), device_.pipeline_cache(), 1, &gp, nullptr, &pipeline);
  if (!device_.Check(r, "vkCreateGraphicsPipelines")) return VK_NULL_HANDLE;
  return pipeline;
}

}  // namespace caldera::vk
