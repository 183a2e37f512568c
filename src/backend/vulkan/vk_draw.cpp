// The draw path of the Vulkan context: pipeline key, dynamic state, vertex input, uniforms.
#include <algorithm>
#include <bit>
#include <cstring>

#include "backend/vulkan/vk_context.h"
#include "backend/vulkan/vk_device.h"
#include "backend/vulkan/vk_formats.h"
#include "util/log.h"

namespace caldera::vk {
namespace {

constexpr VkDeviceSize kUniformRange = 16384;
constexpr uint32_t kRingSetsPerPool = 256;
// 64 MiB of uniform and upload pages (at 4 MiB a page) in one submission at most.
constexpr uint32_t kRingPagesPerSubmission = 16;

VkBlendFactor ToVk(pipe::BlendFactor f) {
  using F = pipe::BlendFactor;
  switch (f) {
    case F::kSrcAlphaSaturate:
      return VK_BLEND_FACTOR_SRC_ALPHA_SATURATE;
    case F::kSrc1Color:
      return VK_BLEND_FACTOR_SRC1_COLOR;
    case F::kOneMinusSrc1Color:
      return VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR;
    case F::kSrc1Alpha:
      return VK_BLEND_FACTOR_SRC1_ALPHA;
    case F::kOneMinusSrc1Alpha:
      return VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA;
    default:
      return static_cast<VkBlendFactor>(f);  // kZero..kOneMinusConstantAlpha match Vulkan's order
  }
}

bool IsListTopology(pipe::Topology t) {
  using T = pipe::Topology;
  return t == T::kPointList || t == T::kLineList || t == T::kTriangleList || t == T::kLineListAdjacency ||
         t == T::kTriangleListAdjacency;
}

}  // namespace

void Context::RenderingFormats(uint16_t color[pipe::kMaxColorAttachments], uint16_t* depth,
                               uint8_t* samples) const {
  auto& images = shared_.resources->images;
  for (int i = 0; i < pipe::kMaxColorAttachments; ++i) {
    ImageObject* img = images.Get(targets_.color[i].image);
    // The format of the view BeginPass renders through (sRGB images: UNORM while encoding is off).
    VkFormat view_format = img ? img->format : VK_FORMAT_UNDEFINED;
    if (view_format == VK_FORMAT_R8G8B8A8_SRGB && !targets_.srgb_encode)
      view_format = VK_FORMAT_R8G8B8A8_UNORM;
    color[i] = static_cast<uint16_t>(view_format);
    if (img) *samples = static_cast<uint8_t>(img->samples);
  }
  *depth = 0;
  if (ImageObject* ds = images.Get(targets_.depth_stencil.image)) {
    *depth = static_cast<uint16_t>(ds->format);
    *samples = static_cast<uint8_t>(ds->samples);
  }
}

bool Context::BindPipeline(pipe::Topology topology, ProgramObject& program) {
  auto& images = shared_.resources->images;
  PipelineKey key{};
  key.program_slot = program_.slot;
  key.program_generation = program_.generation;
  RenderingFormats(key.color_formats, &key.depth_format, &key.samples);
  for (int i = 0; i < pipe::kMaxColorAttachments; ++i) {
    ImageObject* img = images.Get(targets_.color[i].image);
    const auto& b = fixed_.blend[i];
    auto& kb = key.blend[i];
    // GL blends only float and normalised attachments; Vulkan forbids blending integer ones.
    kb.enable = b.enable && !(img && pipe::IsIntegerFormat(img->pipe_format));
    if (kb.enable) {  // factors only matter when blending: keep them out of the key otherwise
      kb.src_rgb = static_cast<uint8_t>(ToVk(b.src_rgb));
      kb.dst_rgb = static_cast<uint8_t>(ToVk(b.dst_rgb));
      kb.src_alpha = static_cast<uint8_t>(ToVk(b.src_alpha));
      kb.dst_alpha = static_cast<uint8_t>(ToVk(b.dst_alpha));
      kb.op_rgb = static_cast<uint8_t>(b.op_rgb);
      kb.op_alpha = static_cast<uint8_t>(b.op_alpha);
    }
    kb.mask = program.no_color_outputs ? 0 : b.write_mask;
    if (img && pipe::HasImplicitAlpha(img->pipe_format)) kb.mask &= 0x7;  // alpha of RGB formats stays 1
  }
  const VkPrimitiveTopology vk_topology = ToVkTopology(topology);
  key.topology = static_cast<uint8_t>(TopologyClass(vk_topology));
  key.polygon_mode = static_cast<uint8_t>(fixed_.polygon_mode);  // pipe order == VkPolygonMode
  key.depth_clamp = fixed_.depth_clamp && shared_.device->features().depth_clamp;
  key.provoking_last = fixed_.provoking_last && shared_.device->features().provoking_vertex_last;
  // Points (lists, or polygons rasterized as points): glPointSize unless GL_PROGRAM_POINT_SIZE, and
  // gl_PointCoord's origin. Vulkan's PointCoord origin is the lowest framebuffer row, GL's bottom here.
  if (topology == pipe::Topology::kPointList || fixed_.polygon_mode == pipe::PolygonMode::kPoint) {
    if (!fixed_.program_point_size) {
      key.point_flags |= PipelineKey::kPointApiSize;
      const float* range = shared_.device->properties().limits.pointSizeRange;
      float size = std::clamp(fixed_.point_size, range[0], range[1]);
      std::memcpy(&key.point_size_bits, &size, sizeof(size));
    }
    if (!fixed_.point_origin_lower_left) key.point_flags |= PipelineKey::kPointFlipCoord;
  }
  const bool line_draw = key.topology == VK_PRIMITIVE_TOPOLOGY_LINE_LIST ||
                         key.topology == VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY ||
                         key.topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY ||
                         (key.topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST &&
                          fixed_.polygon_mode == pipe::PolygonMode::kLine);
  if (fixed_.line_stipple && line_draw) {
    // Vulkan forbids alpha-to-coverage with Bresenham lines (VUID-...-lineRasterizationMode-02766).
    const bool coverage = key.samples > 1 && fixed_.alpha_to_coverage;
    if (coverage)
      util::LogOnce(util::LogLevel::kWarning, "vulkan",
                    "GL_LINE_STIPPLE ignored while GL_SAMPLE_ALPHA_TO_COVERAGE is on (multisampled)");
    else if (shared_.device->features().line_stipple_mode != VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT) {
      key.line_stipple_factor = static_cast<uint16_t>(fixed_.line_stipple_factor);
      key.line_stipple_pattern = fixed_.line_stipple_pattern;
    } else {
      util::LogOnce(util::LogLevel::kWarning, "vulkan",
                    "GL_LINE_STIPPLE ignored: the device cannot stipple lines (VK_EXT_line_rasterization)");
    }
  }
  if (fixed_.logic_op_enable) {
    if (shared_.device->features().logic_op) {
      key.logic_op =
          static_cast<uint8_t>(static_cast<uint8_t>(fixed_.logic_op) + 1);  // pipe order == VkLogicOp
      // GL disables blending while the logic op is on (float targets included). Vulkan ignores the blend
      // state then anyway; clearing it keeps logic-op draws from multiplying pipelines by blend settings.
      for (auto& kb : key.blend) {
        const uint8_t mask = kb.mask;
        kb = {};
        kb.mask = mask;
      }
    } else
      util::LogOnce(util::LogLevel::kWarning, "vulkan",
                    "GL_COLOR_LOGIC_OP ignored: the device has no logicOp feature");
  }
  if (key.samples > 1 && !fixed_.multisample) {
    // GL_MULTISAMPLE disabled: GL wants single-sample rasterization (coverage decided at the pixel centre
    // for all samples). rasterizationSamples must equal the attachments' count
    // (VK_AMD_mixed_attachment_samples /VK_NV_framebuffer_mixed_samples aside), so every sample moves to the
    // centre with VK_EXT_sample_locations. Without it (lavapipe) rasterization stays per sample; the frontend
    // already turned the multisample fragment operations off, as GL says.
    if (shared_.device->features().centre_sample_counts & key.samples)
      key.centre_samples = 1;
    else
      util::LogOnce(util::LogLevel::kWarning, "GL_MULTISAMPLE",
                    "glDisable(GL_MULTISAMPLE): multisampled targets still rasterize per sample on Vulkan");
  }
  // GL applies the multisample coverage operations to multisampled targets only.
  if (key.samples > 1) {
    // Without a colour output there is no alpha to take coverage from (GL: undefined; Vulkan: invalid).
    key.alpha_to_coverage = fixed_.alpha_to_coverage && !program.no_color_outputs;
    uint32_t mask = fixed_.sample_mask;
    if (fixed_.sample_coverage) {
      // Vulkan has no coverage value: keep round(value * samples) samples, the lowest ones (GL leaves the
      // choice of samples to the implementation; the count is what GL asks for).
      uint32_t n = static_cast<uint32_t>(fixed_.coverage_value * float(key.samples) + 0.5f);
      uint32_t cover = n >= 32 ? ~0u : (1u << n) - 1;
      mask &= fixed_.coverage_invert ? ~cover : cover;
    }
    key.sample_mask = key.samples >= 32 ? mask : mask & ((1u << key.samples) - 1);
  }
  // With dynamic vertex input the layout is set by BindVertexInput and stays out of the key.
  key.attrib_mask = shared_.device->features().vertex_input_dynamic ? 0 : vertex_.attrib_mask;
  for (uint32_t loc = 0; loc < pipe::kMaxVertexAttribs; ++loc) {
    if (!(key.attrib_mask & (1u << loc))) continue;
    const auto& a = vertex_.attribs[loc];
    auto& ka = key.attribs[loc];
    if (a.enabled) {
      ka.format = static_cast<uint16_t>(ToVkVertexFormat(a.format));
      ka.divisor = vertex_.bindings[a.binding].divisor;
      ka.per_instance = ka.divisor > 0;
      ka.offset = a.offset;
    } else {
      // The generic value's words as glVertexAttrib{,I}* stored them (an integer input needs an integer
      // format).
      ka.format = static_cast<uint16_t>(
          a.constant_kind == pipe::GenericKind::kInt    ? VK_FORMAT_R32G32B32A32_SINT
          : a.constant_kind == pipe::GenericKind::kUInt ? VK_FORMAT_R32G32B32A32_UINT
                                                        : VK_FORMAT_R32G32B32A32_SFLOAT);
    }
  }
  const PipelineKey full = key;
  StripDynamicState3(shared_.device->features().dynamic3, &key);
  if (!bound_pipeline_ || !(key == key_)) {
    VkPipeline pipeline = shared_.pipelines->Get(key, program);
    if (!pipeline) return false;
    key_ = key;
    if (pipeline != bound_pipeline_) {
      // vkCmdBindPipeline is not allowed while transform feedback is active: the capture's segment ends
      // with the pass (counters written) and resumes in the next one.
      if (xfb_.in_pass) {
        EndPass();
        BeginPass();
      }
      vkCmdBindPipeline(cmd_, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
      bound_pipeline_ = pipeline;
      // Without a dynamic layout, a pipeline without vertex bindings has a static stride, which leaves the
      // dynamic strides undefined for the next pipeline: bind the vertex buffers again with theirs.
      if (!shared_.device->features().vertex_input_dynamic && key.attrib_mask == 0) {
        bound_vertex_mask_ = 0;
        vertex_dirty_ = true;
      }
    }
  }
  if (vk_topology != dynamic_topology_) {  // every pipeline has it dynamic, so it survives pipeline binds
    vkCmdSetPrimitiveTopology(cmd_, vk_topology);
    dynamic_topology_ = vk_topology;
  }
  ApplyDynamicState3(full);
  return true;
}

namespace {

// Bytes one element of `f` spans in its buffer (a packed format is one 32-bit word).
uint32_t VertexElementBytes(const pipe::VertexFormat& f) {
  using V = pipe::VertexFormat;
  switch (f.type) {
    case V::kInt2101010:
    case V::kUInt2101010:
      return 4;
    case V::kByte:
    case V::kUByte:
      return f.components;
    case V::kHalf:
    case V::kShort:
    case V::kUShort:
      return 2u * f.components;
    case V::kDouble:
      return 8u * f.components;
    default:
      return 4u * f.components;
  }
}

}  // namespace

void Context::BindVertexInput() {
  auto& buffers = shared_.resources->buffers;
  const bool dynamic_layout = shared_.device->features().vertex_input_dynamic;
  BoundVertexBuffer want[pipe::kMaxVertexAttribs] = {};
  uint32_t mask = 0;
  // vkCmdBindVertexBuffers2 may carry a stride only when it spans the attribute (or is 0, the generic
  // value repeated); GL allows a smaller one, which then goes with the layout.
  bool strides_fit = true;
  for (uint32_t loc = 0; loc < pipe::kMaxVertexAttribs; ++loc) {
    if (!(vertex_.attrib_mask & (1u << loc))) continue;
    const auto& a = vertex_.attribs[loc];
    BoundVertexBuffer& w = want[loc];
    BufferObject* b = a.enabled ? buffers.Get(vertex_.bindings[a.binding].buffer) : nullptr;
    if (b) {
      w.buffer = b->buffer;
      w.offset = vertex_.bindings[a.binding].offset;
      w.stride = vertex_.bindings[a.binding].stride;
      if (w.offset >= std::max<uint64_t>(b->size, 4)) w.offset = 0;  // out of range: GL leaves it undefined
      if (w.stride != 0 && w.stride < a.offset + VertexElementBytes(a.format)) strides_fit = false;
    } else {
      // A disabled array (or a missing buffer) feeds the generic value: stride 0 repeats it.
      UploadRing::Span span = ring_.Allocate(16, 16);
      if (!span.data) continue;  // no ring page could be made (logged): the attribute stays unbound
      std::memcpy(span.data, a.constant, 16);
      w.buffer = span.buffer;
      w.offset = span.offset;
    }
    mask |= 1u << loc;
  }
  // Pipelines take the stride dynamically (VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE, beside the dynamic
  // layout where there is one), so a stride change alone needs no new layout.
  const bool strides_by_bind = !dynamic_layout || (strides_fit && vertex_delta_);
  if (dynamic_layout) SetDynamicVertexLayout(strides_by_bind);
  // One vkCmdBindVertexBuffers2 per run of consecutive locations whose binding moved (the stride counts only
  // where the bind carries it).
  uint32_t stale = 0;
  for (uint32_t loc = 0; loc < pipe::kMaxVertexAttribs; ++loc) {
    const uint32_t bit = 1u << loc;
    if (!(mask & bit)) continue;
    const BoundVertexBuffer& bound = bound_vertex_buffers_[loc];
    const bool same = (bound_vertex_mask_ & bit) && want[loc].buffer == bound.buffer &&
                      want[loc].offset == bound.offset &&
                      (!strides_by_bind || want[loc].stride == bound.stride || test_stale_stride_);
    if (!vertex_delta_ || !same) stale |= bit;
  }
  stats_.vertex_binds_skipped += std::popcount(mask & ~stale);
  for (uint32_t loc = 0; loc < pipe::kMaxVertexAttribs;) {
    if (!(stale & (1u << loc))) {
      ++loc;
      continue;
    }
    uint32_t end = loc;
    VkBuffer handles[pipe::kMaxVertexAttribs];
    VkDeviceSize offsets[pipe::kMaxVertexAttribs], strides[pipe::kMaxVertexAttribs];
    for (; end < pipe::kMaxVertexAttribs && (stale & (1u << end)); ++end) {
      handles[end - loc] = want[end].buffer;
      offsets[end - loc] = want[end].offset;
      strides[end - loc] = want[end].stride;
      bound_vertex_buffers_[end] = want[end];
    }
    vkCmdBindVertexBuffers2(cmd_, loc, end - loc, handles, offsets, nullptr,
                            strides_by_bind ? strides : nullptr);
    loc = end;
  }
  if (vertex_delta_) bound_vertex_mask_ |= mask;
  vertex_dirty_ = false;
}

void Context::SetDynamicVertexLayout(bool strides_by_bind) {
  // One binding per location, as in pipelines made without the extension (BindPipeline's key attribs).
  VkVertexInputBindingDescription2EXT bindings[pipe::kMaxVertexAttribs];
  VkVertexInputAttributeDescription2EXT attribs[pipe::kMaxVertexAttribs];
  SentVertexLayout layout;
  uint32_t n = 0;
  for (uint32_t loc = 0; loc < pipe::kMaxVertexAttribs; ++loc) {
    if (!(vertex_.attrib_mask & (1u << loc))) continue;
    const auto& a = vertex_.attribs[loc];
    auto& b = bindings[n];
    b = {VK_STRUCTURE_TYPE_VERTEX_INPUT_BINDING_DESCRIPTION_2_EXT};
    b.binding = loc;
    b.inputRate = VK_VERTEX_INPUT_RATE_VERTEX;
    b.divisor = 1;
    auto& at = attribs[n];
    at = {VK_STRUCTURE_TYPE_VERTEX_INPUT_ATTRIBUTE_DESCRIPTION_2_EXT};
    at.location = loc;
    at.binding = loc;
    if (a.enabled) {
      const auto& vb = vertex_.bindings[a.binding];
      b.stride = vb.stride;
      if (vb.divisor > 0) {
        b.inputRate = VK_VERTEX_INPUT_RATE_INSTANCE;
        // Divisors above 1 need vertexAttributeInstanceRateDivisor, as in pipelines without the extension.
        b.divisor = shared_.device->features().vertex_attribute_divisor ? vb.divisor : 1;
      }
      at.format = ToVkVertexFormat(a.format);
      at.offset = a.offset;
    } else {
      b.stride = 0;  // the generic value, repeated
      at.format = VK_FORMAT_R32G32B32A32_SFLOAT;
    }
    layout.entries[n] = {
        loc,      strides_by_bind ? 0u : b.stride, uint32_t(b.inputRate), b.divisor, uint32_t(at.format),
        at.offset};
    ++n;
  }
  layout.valid = true;
  layout.strides_by_bind = strides_by_bind;
  layout.count = n;
  const SentVertexLayout& sent = sent_vertex_layout_;
  if (vertex_delta_ && sent.valid && sent.strides_by_bind == strides_by_bind && sent.count == n &&
      std::equal(layout.entries, layout.entries + n, sent.entries)) {
    ++stats_.vertex_layouts_skipped;
    return;
  }
  // The call sets every binding's stride too, to the values the binds carry: bound buffers stay valid.
  shared_.device->set_vertex_input(cmd_, n, bindings, n, attribs);
  sent_vertex_layout_ = layout;
}

void Context::RetirePipelines(pipe::Handle program) {
  // CALDERA_TEST_KEEP_PIPELINES=1 (test-only) leaves them cached: the resource-bounds negative control.
  static const bool keep = util::EnvFlag("CALDERA_TEST_KEEP_PIPELINES", false);
  if (keep) return;
  Garbage g;
  shared_.pipelines->TakePipelines(program, &g.pipelines);
  if (g.pipelines.empty()) return;
  if (std::find(g.pipelines.begin(), g.pipelines.end(), bound_pipeline_) != g.pipelines.end())
    bound_pipeline_ = VK_NULL_HANDLE;  // a later pipeline may reuse the handle value
  retired_.push_back(std::move(g));
}

VkDescriptorSet Context::AllocateRingSet() {
  VkDevice dev = shared_.device->device();
  VkDescriptorSetLayout layout = shared_.pipelines->uniform_set_layout();
  // Pools are never reset (a set lives as long as its ring page): when one is full, the next one is made.
  // Devices do enforce pool limits (VK_ERROR_OUT_OF_POOL_MEMORY), whatever lavapipe does.
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (attempt == 1 || descriptor_pools_.empty()) {
      VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, kRingSetsPerPool};
      VkDescriptorPoolCreateInfo dpi{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
      dpi.maxSets = kRingSetsPerPool;
      dpi.poolSizeCount = 1;
      dpi.pPoolSizes = &size;
      VkDescriptorPool pool = VK_NULL_HANDLE;
      if (!CheckVk(vkCreateDescriptorPool(dev, &dpi, nullptr, &pool), "vkCreateDescriptorPool"))
        return VK_NULL_HANDLE;
      descriptor_pools_.push_back(pool);
    }
    VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr,
                                   descriptor_pools_.back(), 1, &layout};
    VkDescriptorSet set = VK_NULL_HANDLE;
    VkResult r = vkAllocateDescriptorSets(dev, &ai, &set);
    if (r == VK_SUCCESS) return set;
    if (r != VK_ERROR_OUT_OF_POOL_MEMORY && r != VK_ERROR_FRAGMENTED_POOL) {
      CheckVk(r, "vkAllocateDescriptorSets");
      return VK_NULL_HANDLE;
    }
  }
  CheckVk(VK_ERROR_OUT_OF_POOL_MEMORY, "vkAllocateDescriptorSets (fresh pool)");
  return VK_NULL_HANDLE;
}

bool Context::BindUniforms(const ProgramObject& program) {
  if (program.default_block_size == 0) return true;
  // Unchanged uniforms and an existing binding: nothing to record (a rebind makes drivers re-upload).
  if (!uniforms_dirty_ && uniform_bound_) return true;
  {
    // A fresh copy also when only the binding was lost (a new command buffer): the old span's page may
    // have been recycled since its submission.
    VkDeviceSize align = shared_.device->properties().limits.minUniformBufferOffsetAlignment;
    // Reserve the descriptor's whole range so offset + range stays inside the page.
    UploadRing::Span span = ring_.Allocate(kUniformRange, align);
    if (!span.data) return false;
    uniform_span_ = span;
    size_t n = std::min<size_t>(uniforms_.size(), kUniformRange);
    std::memcpy(uniform_span_.data, uniforms_.data(), n);
    if (n < program.default_block_size)
      std::memset(uniform_span_.data + n, 0, program.default_block_size - n);
    uniforms_dirty_ = false;
  }
  while (ring_sets_.size() <= uniform_span_.page) {
    VkDescriptorSet set = AllocateRingSet();
    if (!set) return false;  // the draw is skipped; the error was logged
    ring_sets_.push_back(set);
    ring_set_buffers_.push_back(VK_NULL_HANDLE);
  }
  VkDescriptorSet set = ring_sets_[uniform_span_.page];
  if (ring_set_buffers_[uniform_span_.page] != uniform_span_.buffer) {
    VkDescriptorBufferInfo info{uniform_span_.buffer, 0, kUniformRange};
    VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,    nullptr, set,   0,      0, 1,
                           VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, nullptr, &info, nullptr};
    vkUpdateDescriptorSets(shared_.device->device(), 1, &w, 0, nullptr);
    ring_set_buffers_[uniform_span_.page] = uniform_span_.buffer;
  }
  uint32_t dynamic_offset = static_cast<uint32_t>(uniform_span_.offset);
  // Set 0 bound with another layout than set 1 was pushed with may disturb set 1 (pipeline layout
  // compatibility): the next draw that samples pushes it whole again.
  if (program.layout != pushed_layout_) {
    pushed_set_.Invalidate();
    pushed_layout_ = VK_NULL_HANDLE;
  }
  vkCmdBindDescriptorSets(cmd_, VK_PIPELINE_BIND_POINT_GRAPHICS, program.layout, 0, 1, &set, 1,
                          &dynamic_offset);
  uniform_bound_ = true;
  return true;
}

void Context::CreateDummies() {
  // Created and filled once, outside any render pass (callers guarantee that): one 1x1 (0,0,0,1) image per
  // view type and sample type, so an unbound sampler of any kind reads what GL requires through a matching
  // view. Every stand-in is 4 bytes a texel; integer ones hold 0,0,0,1 as integers.
  static constexpr pipe::TextureKind kKinds[kDummyKinds] = {
      pipe::TextureKind::k2D, pipe::TextureKind::k2DArray,       pipe::TextureKind::kCube,
      pipe::TextureKind::k3D, pipe::TextureKind::k2DMultisample, pipe::TextureKind::k2DMultisampleArray};
  static constexpr pipe::Format kFormats[kDummyTypes] = {pipe::Format::kRGBA8, pipe::Format::kRGBA8I,
                                                         pipe::Format::kRGBA8UI};
  UploadRing::Span span = ring_.Allocate(4 * 6 * kDummyTypes, 4);
  if (!span.data) return;
  for (uint32_t t = 0; t < kDummyTypes; ++t) {
    const uint8_t black[4] = {0, 0, 0, uint8_t(t == 0 ? 255 : 1)};
    for (uint32_t i = 0; i < 6; ++i) std::memcpy(span.data + (t * 6 + i) * 4, black, 4);
  }
  for (uint32_t t = 0; t < kDummyTypes; ++t) {
    for (uint32_t k = 0; k < kDummyKinds; ++k) {
      ImageObject& dummy = dummies_[t][k];
      ImageDesc desc;
      desc.format = kFormats[t];
      desc.kind = kKinds[k];
      bool multisample = desc.kind == pipe::TextureKind::k2DMultisample ||
                         desc.kind == pipe::TextureKind::k2DMultisampleArray;
      // sampler2DMS needs a multisampled view; any count the device samples will do.
      if (multisample) desc.samples = DummySampleCount(static_cast<pipe::SampleType>(t));
      shared_.resources->CreateStandaloneImage(desc, &dummy);
      TransitionImage(dummy, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
      if (multisample) {  // buffer copies cannot write multisampled images; a clear can
        VkClearColorValue color{};
        if (t == 0)
          color.float32[3] = 1.0f;
        else
          color.uint32[3] = 1;  // (0,0,0,1) as signed or unsigned integers alike
        VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        vkCmdClearColorImage(cmd_, dummy.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1, &range);
        TransitionImage(dummy, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
        continue;
      }
      VkBufferImageCopy region{};
      region.bufferOffset = span.offset + t * 6 * 4;
      region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, dummy.layers};
      region.imageExtent = {1, 1, 1};
      vkCmdCopyBufferToImage(cmd_, span.buffer, dummy.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                             &region);
      TransitionImage(dummy, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    }
  }
  dummy_ready_ = true;
}

uint8_t Context::DummySampleCount(pipe::SampleType type) const {
  const VkPhysicalDeviceLimits& limits = shared_.device->properties().limits;
  VkSampleCountFlags counts = type == pipe::SampleType::kFloat ? limits.sampledImageColorSampleCounts
                                                               : limits.sampledImageIntegerSampleCounts;
  for (uint8_t n = 2; n <= 64; n <<= 1)
    if (counts & n) return n;
  return 1;  // no multisampled sampling: GL_MAX_SAMPLES is 1 and no program gets this far
}

ImageObject& Context::Dummy(pipe::TextureKind kind, pipe::SampleType type) {
  if (!dummy_ready_) CreateDummies();
  auto& row = dummies_[std::min<uint32_t>(static_cast<uint32_t>(type), kDummyTypes - 1)];
  switch (pipe::StorageKind(kind)) {
    case pipe::TextureKind::k2DArray:
      return row[1];
    case pipe::TextureKind::kCube:
      return row[2];
    case pipe::TextureKind::k3D:
      return row[3];
    case pipe::TextureKind::k2DMultisample:
      return row[4];
    case pipe::TextureKind::k2DMultisampleArray:
      return row[5];
    default:
      return row[0];
  }
}

void Context::PrepareTextures() {
  textures_need_layout_check_ = false;
  for (uint32_t i = 0; i < textures_.count; ++i) {
    const auto& t = textures_.textures[i];
    if (t.kind == pipe::TextureKind::kBuffer) continue;  // no image (PushResources makes the view)
    pipe::Handle storage = t.image;
    uint32_t level = 0, layer = 0;
    ImageObject* img = t.image.valid() ? shared_.resources->Resolve(&storage, &level, &layer) : nullptr;
    if (!img) {
      if (!dummy_ready_) {
        EndPass();
        CreateDummies();
      }
      continue;
    }
    // A current render target is sampled in the layout it is drawn in (TargetLayout); GL leaves reading
    // the very level drawn into undefined, other levels of the image are fine. An alias is its parent here.
    bool target = storage == targets_.depth_stencil.image;
    for (auto& c : targets_.color) target |= c.image == storage;
    VkImageLayout layout = target ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    if (img->layout == layout) {
      // No transition orders an earlier pass's writes to the sampled levels before a new pass reads them.
      if (target && !pass_open_) ImageBarrier(*img, layout);
      continue;
    }
    EndPass();
    TransitionImage(*img, layout);
  }
}

VkImageLayout Context::TargetLayout(pipe::Handle image, VkImageLayout optimal) const {
  // `image` is a target (never an alias); sampled aliases count as their parents.
  for (uint32_t i = 0; i < textures_.count && i < pipe::kMaxSamplers; ++i)
    if (textures_.textures[i].kind != pipe::TextureKind::kBuffer &&
        shared_.resources->StorageHandle(textures_.textures[i].image) == image)
      return VK_IMAGE_LAYOUT_GENERAL;
  return optimal;
}

bool Context::PushResources(const ProgramObject& program) {
  auto& res = *shared_.resources;
  VkDescriptorBufferInfo buffers[pipe::kMaxUniformBlocks];
  VkDescriptorImageInfo images[pipe::kMaxSamplers];
  VkBufferView texel_views[pipe::kMaxSamplers];
  VkWriteDescriptorSet writes[pipe::kMaxUniformBlocks + pipe::kMaxSamplers];
  uint32_t n = 0;
  for (uint32_t i = 0; i < uniform_buffers_.count; ++i) {
    const auto& b = uniform_buffers_.blocks[i];
    BufferObject* buffer = b.buffer.valid() ? res.buffers.Get(b.buffer) : nullptr;
    if (!buffer || b.size == 0 || b.offset >= buffer->size) {
      // Unbound block: GL leaves reads undefined; Vulkan needs a valid descriptor, so point it at zeros.
      UploadRing::Span zeros =
          ring_.Allocate(16384, shared_.device->properties().limits.minUniformBufferOffsetAlignment);
      if (!zeros.data) return false;
      std::memset(zeros.data, 0, 16384);
      buffers[n] = {zeros.buffer, zeros.offset, 16384};
    } else {
      buffers[n] = {buffer->buffer, b.offset, std::min<uint64_t>(b.size, buffer->size - b.offset)};
    }
    writes[n] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, VK_NULL_HANDLE, i,      0, 1,
                 VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,      nullptr, &buffers[n],    nullptr};
    ++n;
  }
  // One write per sampler binding: a sampler array's elements (consecutive sampler indices) are one write of
  // that many descriptors from its first element's info, filled in by the time of the push. (lavapipe 22.3
  // drops a push write's dstArrayElement, so elements are never written one by one.)
  auto add_sampler_write = [&](uint32_t i, VkDescriptorType type, const VkDescriptorImageInfo* image,
                               const VkBufferView* texel) {
    if (program.sampler_first[i] != i) return;  // written with its array's first element
    const uint32_t count = program.sampler_arrays[i] > 1
                               ? std::min<uint32_t>(program.sampler_arrays[i], textures_.count - i)
                               : 1;
    writes[n++] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                   nullptr,
                   VK_NULL_HANDLE,
                   PipelineCache::kSamplerBindingBase + i,
                   0,
                   count,
                   type,
                   image,
                   nullptr,
                   texel};
  };
  for (uint32_t i = 0; i < textures_.count; ++i) {
    const auto& t = textures_.textures[i];
    if (program.texel_buffer_mask & (1u << program.sampler_first[i])) {  // an array: its first binding's type
      // samplerBuffer: the layout says uniform texel buffer, whatever the frontend bound.
      pipe::TexelBufferRange none{};
      texel_views[i] =
          res.TexelView(t.kind == pipe::TextureKind::kBuffer ? t.texel_buffer : none, t.sample_type);
      if (!texel_views[i]) return false;  // not even the zero view could be made (logged)
      add_sampler_write(i, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, nullptr, &texel_views[i]);
      continue;
    }
    ImageObject* img = t.image.valid() ? res.images.Get(t.image) : nullptr;
    // A view of another type than the shader declares is invalid in Vulkan; GL's per-target bindings rule
    // that out, but a stale or missing image reads the stand-in of the declared type.
    auto view_class = [](pipe::TextureKind k) {
      return k == pipe::TextureKind::kRect ? pipe::TextureKind::k2D : pipe::StorageKind(k);
    };
    auto sample_type = [](pipe::Format f) {
      pipe::FormatType type = pipe::Info(f).type;
      return type == pipe::FormatType::kSint   ? pipe::SampleType::kSint
             : type == pipe::FormatType::kUint ? pipe::SampleType::kUint
                                               : pipe::SampleType::kFloat;
    };
    bool matches = img && img->sample_view && view_class(img->kind) == view_class(t.kind) &&
                   sample_type(img->pipe_format) == t.sample_type;
    if (!matches) img = &Dummy(t.kind, t.sample_type);
    // Integer views cannot be filtered linearly in Vulkan; GL reads them by nearest texels anyway (a complete
    // integer texture has nearest filters; the stand-in for an incomplete one may inherit linear ones).
    pipe::SamplerState sampler = t.sampler;
    sampler.skip_srgb_decode = 0;  // a property of the view here: one VkSampler serves both
    if (t.sample_type != pipe::SampleType::kFloat) {
      sampler.min_linear = sampler.mag_linear = 0;
      if (sampler.mip_mode == 2) sampler.mip_mode = 1;
    }
    uint32_t slot = i;
    VkSampler vk_sampler = res.GetSampler(sampler);
    if (!vk_sampler) return false;  // logged by Check; the draw is skipped
    // Stand-ins read (0,0,0,1) unswizzled; images through the binding's swizzle and level range.
    VkImageView view =
        matches ? res.SampleView(*img, t.swizzle, t.sampler.skip_srgb_decode, t.base_level, t.max_level)
                : img->sample_view;
    if (!view) return false;                        // logged by Check; the draw is skipped
    const ImageObject* holder = res.Storage(*img);  // an alias's texels are in its parent's layout
    const VkImageLayout layout = holder ? holder->layout : VK_IMAGE_LAYOUT_UNDEFINED;
    images[slot] = {vk_sampler, view,
                    layout == VK_IMAGE_LAYOUT_UNDEFINED ? VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL : layout};
    add_sampler_write(i, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, &images[slot], nullptr);
  }
  // Only what set 1 does not hold already (vk_push_delta.h).
  const uint32_t kept = pushed_set_.Filter(push_delta_, program.layout, writes, n);
  stats_.descriptor_writes_skipped += n - kept;
  if (kept > 0)
    shared_.device->push_descriptor_set(cmd_, VK_PIPELINE_BIND_POINT_GRAPHICS, program.layout, 1, kept,
                                        writes);
  pushed_layout_ = program.layout;
  resources_dirty_ = false;
  return true;
}

ProgramObject* Context::PrepareDraw(pipe::Topology topology) {
  ProgramObject* program = shared_.resources->programs.Get(program_);
  if (!program || targets_.width == 0) return nullptr;
  if (topology == pipe::Topology::kLineLoop)  // the frontend closes loops itself (BackendCaps::line_loops)
    util::LogOnce(util::LogLevel::kWarning, "GL_LINE_LOOP",
                  "line loop record reached the Vulkan backend: drawn as a line strip");
  // A long run of draws without a flush (uniforms changing every draw) would hold every ring page until
  // the one submission completes: past a bound, submit what was recorded so its pages can come back.
  if (ring_.pages_since_stamp() >= kRingPagesPerSubmission && cmd_) {
    FlushPendingClears(ClearResolve::kSubmit);
    uint64_t serial;
    SubmitAndStamp(&serial);
    ++stats_.ring_splits;
  }
  if (!Commands()) return nullptr;
  ++stats_.draws;
  if (textures_need_layout_check_ || (textures_.count > 0 && !dummy_ready_)) PrepareTextures();
  BeginPass();
  if (!BindPipeline(topology, *program)) return nullptr;  // may restart the pass while capturing
  BeginOcclusionSegment();
  BeginPrimitiveSegments();
  BeginTransformFeedbackInPass();
  // Programs differ in set 1 (texel buffers or images per sampler binding): another layout disturbs the
  // pushed set, so push again. Set 0 is identical in every layout and stays bound.
  if (program->layout != pushed_layout_) resources_dirty_ = true;
  if (resources_dirty_ && (textures_.count > 0 || uniform_buffers_.count > 0) && !PushResources(*program))
    return nullptr;
  if (fixed_dirty_) ApplyDynamicState();
  // Without primitiveTopologyListRestart, Vulkan forbids restart with list topologies: turn it off for
  // them (a restart index inside a list then draws as a vertex: a documented gap of such devices).
  bool restart =
      fixed_.primitive_restart && (shared_.device->features().list_restart || !IsListTopology(topology));
  if (restart != restart_enabled_) {
    vkCmdSetPrimitiveRestartEnable(cmd_, restart);
    restart_enabled_ = restart;
  }
  if (vertex_dirty_) BindVertexInput();
  if (!BindUniforms(*program)) return nullptr;
  return program;
}

uint32_t FirstIndex(const pipe::CmdDraw& cmd) {
  // The index buffer stays bound at its start (fewer rebinds): GL's byte offset becomes a first index.
  const uint32_t shift = cmd.index_type == pipe::IndexType::kU32   ? 2
                         : cmd.index_type == pipe::IndexType::kU16 ? 1
                                                                   : 0;
  return cmd.first + static_cast<uint32_t>(cmd.index_offset >> shift);
}

void Context::OnDraw(const pipe::CmdDraw& cmd) {
  if (TryBatchDraw(cmd)) return;
  FlushDrawBatch();
  if (!PrepareDraw(cmd.topology)) return;
  if (cmd.index_type == pipe::IndexType::kNone) {
    if (merge_draws_)
      StartDrawBatch(cmd);
    else
      vkCmdDraw(cmd_, cmd.count, cmd.instances, cmd.first, 0);
    return;
  }
  BufferObject* ib = shared_.resources->buffers.Get(cmd.index_buffer);
  if (!ib) return;
  VkIndexType type = cmd.index_type == pipe::IndexType::kU16   ? VK_INDEX_TYPE_UINT16
                     : cmd.index_type == pipe::IndexType::kU32 ? VK_INDEX_TYPE_UINT32
                                                               : VK_INDEX_TYPE_UINT8_EXT;
  if (type == VK_INDEX_TYPE_UINT8_EXT && !shared_.device->features().index_type_uint8) {
    util::LogOnce(util::LogLevel::kWarning, "GL_UNSIGNED_BYTE",
                  "byte indices need VK_EXT_index_type_uint8: skipped");
    return;
  }
  if (ib->buffer != bound_index_buffer_ || type != bound_index_type_) {
    vkCmdBindIndexBuffer(cmd_, ib->buffer, 0, type);
    bound_index_buffer_ = ib->buffer;
    bound_index_type_ = type;
  }
  if (merge_draws_)
    StartDrawBatch(cmd);
  else
    vkCmdDrawIndexed(cmd_, cmd.count, cmd.instances, FirstIndex(cmd), cmd.base_vertex, 0);
}

void Context::OnDrawInlineIndices(const pipe::CmdDrawInlineIndices& cmd, const uint8_t* payload) {
  if (cmd.count == 0 || cmd.payload_size < uint64_t(cmd.count) * 4) return;
  // The ring is host-visible and written before the submission that reads it: no barrier, and the open
  // render pass stays open.
  UploadRing::Span span = ring_.Allocate(cmd.payload_size, 4);
  if (!span.data) return;
  std::memcpy(span.data, payload, cmd.payload_size);
  if (!PrepareDraw(cmd.topology)) return;
  vkCmdBindIndexBuffer(cmd_, span.buffer, span.offset, VK_INDEX_TYPE_UINT32);
  bound_index_buffer_ = VK_NULL_HANDLE;  // bound at an offset: the next app-buffer draw rebinds
  vkCmdDrawIndexed(cmd_, cmd.count, cmd.instances, 0, cmd.base_vertex, 0);
}

}  // namespace caldera::vk
