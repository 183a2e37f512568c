// Graphics pipelines keyed by a packed, memcmp-able key (Zink's approach): only state Vulkan cannot set
// dynamically is in it. Viewport, scissor, cull mode, front face, depth/stencil tests and ops, stencil
// masks/reference, depth bias, blend constants, line width, primitive restart, rasterizer discard and the
// primitive topology within its class are dynamic (Vulkan 1.3 core); with VK_EXT_vertex_input_dynamic_state
// the whole vertex layout is too (the key's attribs stay zero), and with VK_EXT_extended_dynamic_state3
// blending, colour masks, polygon mode, depth clamp, provoking vertex, logic op, sample mask and
// alpha-to-coverage (StripDynamicState3). Changing them never creates a pipeline or ends a render pass.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "pipe/commands.h"

namespace caldera::vk {

class Device;
struct ProgramObject;

// The representative of a topology's class (points, lines, triangles; adjacency kinds stay exact): pipelines
// are made per class and the draw sets the exact topology dynamically.
VkPrimitiveTopology TopologyClass(VkPrimitiveTopology t);

#pragma pack(push, 1)
struct PipelineKey {
  uint32_t program_slot = 0, program_generation = 0;
  uint16_t color_formats[pipe::kMaxColorAttachments] = {};  // VkFormat (all fit in 16 bits)
  uint16_t depth_format = 0;
  uint8_t samples = 1;
  uint8_t topology = 0;  // TopologyClass(VkPrimitiveTopology): the exact topology is dynamic
  uint8_t polygon_mode = 0;
  uint8_t depth_clamp = 0;
  uint8_t provoking_last = 0;  // VK_EXT_provoking_vertex: GL's last-vertex convention
  uint8_t alpha_to_coverage = 0;
  uint8_t logic_op = 0;  // GL_COLOR_LOGIC_OP: 0 off, else VkLogicOp + 1
  // GL_MULTISAMPLE disabled on a multisampled target: every sample at the pixel centre
  // (VK_EXT_sample_locations).
  uint8_t centre_samples = 0;
  // Point draws only (zero otherwise, so other pipelines never multiply): kPointApiSize takes
  // `point_size_bits` (glPointSize) instead of the shader's gl_PointSize; kPointFlipCoord flips
  // gl_PointCoord's y (GL_UPPER_LEFT on GL-oriented images). Applied through the pipe::kSpec* specialization
  // constants.
  static constexpr uint8_t kPointApiSize = 1, kPointFlipCoord = 2;
  uint8_t point_flags = 0;
  uint32_t point_size_bits = 0;  // float bits: a float member would make equal keys' bytes differ (-0/+0)
  // GL_LINE_STIPPLE on a line draw (lines, or polygons drawn as lines): factor and pattern are pipeline
  // state, not dynamic (patterns seldom change; no extension entry point to load). Zero when off.
  uint16_t line_stipple_factor = 0;
  uint16_t line_stipple_pattern = 0;
  uint32_t sample_mask = ~0u;    // coverage mask (glSampleMaski and the glSampleCoverage approximation)
  struct Blend {
    uint8_t enable = 0, src_rgb = 0, dst_rgb = 0, src_alpha = 0, dst_alpha = 0, op_rgb = 0, op_alpha = 0,
            mask = 0;
  } blend[pipe::kMaxColorAttachments];
  uint32_t attrib_mask = 0;
  struct Attrib {
    uint16_t format = 0;  // VkFormat
    uint8_t per_instance = 0;
    uint8_t pad = 0;
    uint32_t divisor = 0;
    uint32_t offset = 0;
  } attribs[pipe::kMaxVertexAttribs];

  bool operator==(const PipelineKey& o) const { return std::memcmp(this, &o, sizeof(*this)) == 0; }
};
#pragma pack(pop)

struct DynamicState3Support;

// Zeroes the fields of `key` this device sets per command buffer (Context::ApplyDynamicState3 sets them from
// the full key), so one pipeline serves every value.
void StripDynamicState3(const DynamicState3Support& dynamic, PipelineKey* key);
// The VkDynamicState values pipelines declare for them.
void AppendDynamicStates3(const DynamicState3Support& dynamic, std::vector<VkDynamicState>* states);

struct PipelineKeyHash {
  size_t operator()(const PipelineKey& k) const;  // FNV-1a over the packed bytes
};

struct PipelineStats {
  uint64_t created = 0;
  uint64_t lookups = 0;
  uint64_t live = 0;  // in the cache now (pipelines of destroyed programs leave it)
};

class PipelineCache {
 public:
  explicit PipelineCache(Device& device);
  ~PipelineCache();

  VkPipelineLayout layout() const { return layout_; }  // no texel buffers (mask 0)
  // The layout of programs whose sampler bindings in `texel_buffer_mask` are samplerBuffers (uniform texel
  // buffers); the others are combined image samplers. Set 0 is the same in every layout, so the uniform set
  // stays bound across programs. Made once per mask, owned by the cache. Pipelines need no key for it: the
  // key names the program, which fixes the mask and the arrays.
  // `arrays`: ProgramObject::sampler_arrays (bindings of several descriptors).
  VkPipelineLayout Layout(uint32_t texel_buffer_mask, const std::array<uint8_t, pipe::kMaxSamplers>& arrays);
  VkDescriptorSetLayout uniform_set_layout() const { return uniform_set_layout_; }
  // Set 1 is a push-descriptor set: uniform blocks at bindings 0..11, samplers at kSamplerBindingBase + i.
  static constexpr uint32_t kSamplerBindingBase = 16;
  // Null on failure (logged).
  VkPipeline Get(const PipelineKey& key, const ProgramObject& program);
  PipelineStats stats();
  // Removes the pipelines of `program` (destroyed or re-created) into *out, for the caller's garbage: they
  // may still be in use by pending work.
  void TakePipelines(pipe::Handle program, std::vector<VkPipeline>* out);

 private:
  VkPipeline Create(const PipelineKey& key, const ProgramObject& program);

  Device& device_;
  VkDescriptorSetLayout uniform_set_layout_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout resource_set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  std::mutex mutex_;
  std::unordered_map<PipelineKey, VkPipeline, PipelineKeyHash> pipelines_;
  struct MaskLayout {
    uint32_t mask;
    std::array<uint8_t, pipe::kMaxSamplers> arrays;
    VkDescriptorSetLayout set1;
    VkPipelineLayout layout;
  };
  std::vector<MaskLayout> mask_layouts_;  // other than mask 0 without arrays; few in practice
  VkPipelineLayout MakeLayout(uint32_t texel_buffer_mask,
                              const std::array<uint8_t, pipe::kMaxSamplers>& arrays,
                              VkDescriptorSetLayout* set1);
  PipelineStats stats_;
};

}  // namespace caldera::vk
