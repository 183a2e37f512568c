#include "frontend/context.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "frontend/client_arrays.h"
#include "frontend/compat/hooks.h"
#include "frontend/compat/immediate.h"
#include "frontend/compat/state.h"
#include "frontend/default_framebuffer.h"
#include "frontend/device.h"
#include "frontend/framebuffer_util.h"
#include "frontend/gl_enums.h"
#include "frontend/hud.h"
#include "util/log.h"

namespace caldera {

namespace {

GLenum BackendErrorToGL(pipe::BackendError error) {
  switch (error) {
    case pipe::BackendError::kOutOfMemory:
      return GL_OUT_OF_MEMORY;  // the backend could not allocate storage for a command already applied
  }
  return GL_OUT_OF_MEMORY;
}

}  // namespace

Context::Context(Device& device, const ContextDesc& desc, std::shared_ptr<ShareGroup> share)
    : debug(desc.debug), device_(device), desc_(desc), share_(std::move(share)) {
  pipe_ = std::make_unique<pipe::Pipe>(device.backend().CreateContext(), pipe::PipeModeFromEnv(),
                                       &device.apply_order());
  pixel_transfers_on_device_ = util::EnvFlag("CALDERA_PBO_DEVICE_COPIES", true);
  pixel_row_copy_ = util::EnvFlag("CALDERA_PIXEL_ROW_COPY", true);
  // CALDERA_COMPRESSED_DECODE=1 stores every compressed format decoded (the forced-decode path).
  bool native_bc =
      util::EnvFlag("CALDERA_NATIVE_BC", true) && !util::EnvFlag("CALDERA_COMPRESSED_DECODE", false);
  native_rgtc_ = device.backend().caps().native_rgtc && native_bc;
  native_s3tc_ = device.backend().caps().native_s3tc && native_bc;
  native_bptc_ = device.backend().caps().native_bptc && native_bc;
  for (auto& mask : state.color_mask) mask = {true, true, true, true};
  for (auto& v : state.generic_attrib) {
    v[0] = v[1] = v[2] = 0;
    v[3] = 0x3f800000u;  // 1.0f
  }
  // ES (1.1 too) has no GL_FRAMEBUFFER_SRGB switch (Caldera offers no GL_EXT_sRGB_write_control): sRGB
  // attachments and sRGB window surfaces always encode, and blits between sRGB buffers convert.
  if (IsES() || IsES1()) state.framebuffer_srgb = true;
  dirty_.set();
  compat_ = (desc.api == ClientApi::kOpenGL && !desc.core_profile) || IsES1();
  if (compat_) compat = std::make_unique<compat::State>();
  state.point_size_max = device.backend().caps().point_size_range[1];
  // ES 1.1 refuses the commands it lacks (shaders, glBegin...): every implemented entry point asks
  // compat::BeforeCommand, only in ES 1.1 contexts.
  if (IsES1()) compat_hooks = compat::kHookES1;
  if (IsES() || compat_) {
    // ES and the compatibility profile have a default vertex array object (name 0) that behaves like a
    // generated one.
    default_vertex_array = std::make_shared<VertexArray>();
    default_vertex_array->is_default = true;
    vertex_array = default_vertex_array;
  }
}

Context::~Context() {
  // Objects only this context owns go with it; shared ones live as long as their share group.
  vertex_arrays = {};
  framebuffers = {};
  transform_feedbacks = {};
  transform_feedback = default_transform_feedback = nullptr;
  if (hud_) hud_->Release(*pipe_, *this);
  pipe_->Submit();
  WritePipeStats();
  WritePixelStats();
  WriteProgramStats();
  WriteDrawDeltaStats(draw_delta_stats);
  compat::WriteStats(*this);
}

void Context::WritePixelStats() const {
  const PixelStats& p = pixel_stats;
  if (!p.row_copies && !p.loop_conversions && !p.general_conversions && !p.compressed_decoded_blocks) return;
  const char* path = util::Env("CALDERA_STATS");
  if (!path) return;
  if (FILE* f = std::fopen(path, "a")) {
    std::fprintf(f,
                 "{\"frontend\": \"pixels\", \"pixel_row_copies\": %llu, \"pixel_loop_conversions\": %llu, "
                 "\"pixel_general_conversions\": %llu, \"compressed_decoded_blocks\": %llu}\n",
                 (unsigned long long)p.row_copies, (unsigned long long)p.loop_conversions,
                 (unsigned long long)p.general_conversions, (unsigned long long)p.compressed_decoded_blocks);
    std::fclose(f);
  }
}

void Context::WriteProgramStats() const {
  const ProgramStats& p = program_stats;
  if (!p.links && !p.binaries_written && !p.binary_loads && !p.binary_refusals) return;
  const char* path = util::Env("CALDERA_STATS");
  if (!path) return;
  if (FILE* f = std::fopen(path, "a")) {
    std::fprintf(
        f,
        "{\"frontend\": \"programs\", \"links\": %llu, \"link_ms\": %.3f, \"binaries_written\": %llu, "
        "\"binary_loads\": %llu, \"binary_load_ms\": %.3f, \"binary_refusals\": %llu}\n",
        (unsigned long long)p.links, double(p.link_ns) * 1e-6, (unsigned long long)p.binaries_written,
        (unsigned long long)p.binary_loads, double(p.binary_load_ns) * 1e-6,
        (unsigned long long)p.binary_refusals);
    std::fclose(f);
  }
}

void Context::WritePipeStats() {
  const char* path = util::Env("CALDERA_STATS");
  if (!path) return;
  pipe::PipeStats s = pipe_->stats();
  if (FILE* f = std::fopen(path, "a")) {
    std::fprintf(
        f,
        "{\"pipe\": \"%s\", \"pipe_source\": \"%s\", \"chunks_submitted\": %llu, \"chunks_published\": %llu, "
        "\"parks\": %llu, \"wakes\": %llu, \"full_waits\": %llu, \"apply_thread_cpu_ms\": %.3f, "
        "\"staged_bytes\": %llu, \"staged_regions\": %llu, \"staging_released_at_applied\": %llu, "
        "\"staging_released_at_retired\": %llu, \"staging_device_released_at_applied\": %llu, "
        "\"staging_waits_apply\": %llu, \"staging_waits_submit\": %llu, \"staging_waits_retire\": %llu, "
        "\"staging_chunk_fallbacks\": %llu, \"staging_split_uploads\": %llu, \"ordered_chunks\": %llu, "
        "\"order_waits\": %llu}\n",
        pipe_->mode() == pipe::PipeMode::kInproc ? "inproc" : "inline", pipe::PipeModeSource(),
        (unsigned long long)pipe_->chunks_submitted(), (unsigned long long)s.chunks,
        (unsigned long long)s.parks, (unsigned long long)s.wakes, (unsigned long long)s.full_waits,
        double(s.apply_thread_cpu_ns) * 1e-6, (unsigned long long)s.staging.staged_bytes,
        (unsigned long long)s.staging.staged_regions, (unsigned long long)s.staging.released_at_applied,
        (unsigned long long)s.staging.released_at_retired,
        (unsigned long long)s.staging.device_released_at_applied, (unsigned long long)s.staging.waits_apply,
        (unsigned long long)s.staging.waits_submit, (unsigned long long)s.staging.waits_retire,
        (unsigned long long)s.staging.chunk_fallbacks, (unsigned long long)s.staging.split_uploads,
        (unsigned long long)s.ordered_chunks, (unsigned long long)s.order_waits);
    std::fclose(f);
  }
}

Hud* Context::HudForSwap() {
  if (hud_) return hud_.get();
  static const uint32_t counters = HudCountersFromEnv();
  static const std::string log_path = util::Env("CALDERA_HUD_LOG") ? util::Env("CALDERA_HUD_LOG") : "";
  if (!counters && log_path.empty()) return nullptr;
  hud_ = std::make_unique<Hud>(counters, log_path);
  return hud_.get();
}

GLenum Context::TakeError() {
  pipe::BackendError failure;
  if (error_ == GL_NO_ERROR) {
    // Only failures of records already applied: with no GL error latched, glGetError never waits.
    return pipe_->TakeError(&failure) ? ReportBackendError(failure) : GLenum(GL_NO_ERROR);
  }
  // A failure the backend finds in a call made before the latched error's comes first. Applying up to that
  // call tells; only a program that made an error waits here.
  pipe_->ApplyThrough(error_at_);
  if (pipe_->TakeError(&failure, &error_at_)) return ReportBackendError(failure);
  GLenum e = error_;
  error_ = GL_NO_ERROR;
  return e;
}

GLenum Context::ReportBackendError(pipe::BackendError failure) {
  GLenum error = BackendErrorToGL(failure);
  // Found out of band (inproc: on the apply thread), so no entry point can be named: the message says which
  // call reports it.
  if (debug.active()) [[unlikely]]
    debug.ApiError(error, "glGetError", "the device could not allocate storage for an earlier command");
  return error;
}

void Context::Error(GLenum error, const char* function, const char* why) {
  // The message first, then the latch (as Mesa does): a callback calling glGetError sees the errors of
  // earlier calls, never this one, which the application's own glGetError then reads.
  if (debug.active()) [[unlikely]]
    debug.ApiError(error, function, why);
  RecordError(error);
  if (util::LogEnabled(util::LogLevel::kInfo)) util::LogOnce(util::LogLevel::kInfo, function, why);
}

void Context::Bind(Surface* draw, Surface* read) {
  draw_surface_ = draw;
  read_surface_ = read;
  if (draw && !ever_current) {
    // GL: the first time a context is made current with a surface, viewport and scissor take its size.
    state.viewport[2] = state.scissor[2] = draw->desc.width;
    state.viewport[3] = state.scissor[3] = draw->desc.height;
  }
  if (draw || read) ever_current = true;
  MarkDirty(kDirtyRenderTargets);
  MarkDirty(kDirtyFixedState);
  BumpDrawEpoch();  // no GL entry runs for make-current or a surface resize: the next draw re-derives
}

pipe::Handle Context::NewHandle() {
  return device_.handles().Allocate();
}
void Context::ReleaseHandle(pipe::Handle handle) {
  device_.handles().Free(handle);
}

void Context::DrawFramebufferSize(int32_t* width, int32_t* height) {
  *width = *height = 0;
  if (!draw_framebuffer) {
    if (draw_surface_) {
      *width = draw_surface_->desc.width;
      *height = draw_surface_->desc.height;
    }
    return;
  }
  bool first = true;
  for (auto& a : draw_framebuffer->attachments) {
    if (!a.attached()) continue;
    int32_t w, h;
    AttachmentSize(a, &w, &h);
    *width = first ? w : std::min(*width, w);
    *height = first ? h : std::min(*height, h);
    first = false;
  }
}

bool Context::FlushRenderTargets() {
  const Framebuffer* fb = draw_framebuffer.get();
  uint64_t lifetime = fb ? fb->lifetime_id : (draw_surface_ ? draw_surface_->lifetime_id : 0);
  uint64_t version = fb ? FramebufferVersion(*fb) : 0;
  if (!dirty_.test(kDirtyRenderTargets) && lifetime == sent_framebuffer_lifetime &&
      version == sent_framebuffer_version)
    return false;
  dirty_.reset(kDirtyRenderTargets);
  sent_framebuffer_lifetime = lifetime;
  sent_framebuffer_version = version;

  const bool stencil_present =
      fb ? fb->attachments[kStencilAttachment].attached()
         : draw_surface_ && draw_surface_->depth_stencil.valid() && draw_surface_->desc.stencil;
  if (stencil_present != sent_stencil_present) {
    sent_stencil_present = stencil_present;
    MarkDirty(kDirtyFixedState);
  }

  pipe::CmdSetRenderTargets cmd{};
  cmd.srgb_encode = state.framebuffer_srgb ? 1 : 0;
  cmd.layers = FramebufferLayers(fb);
  DrawFramebufferSize(reinterpret_cast<int32_t*>(&cmd.width), reinterpret_cast<int32_t*>(&cmd.height));
  if (!fb) {
    if (draw_surface_) {
      cmd.color[0] = DefaultDrawImage(*this);
      cmd.depth_stencil.image = draw_surface_->depth_stencil;
    }
  } else {
    // Fragment output location i writes to draw_buffers[i].
    for (int i = 0; i < pipe::kMaxColorAttachments; ++i) {
      GLenum buf = fb->draw_buffers[i];
      if (buf < GL_COLOR_ATTACHMENT0 || buf >= GL_COLOR_ATTACHMENT0 + pipe::kMaxColorAttachments) continue;
      auto& a = fb->attachments[buf - GL_COLOR_ATTACHMENT0];
      if (a.attached()) cmd.color[i] = AttachmentImage(a);
    }
    auto& depth = fb->attachments[kDepthAttachment];
    auto& stencil = fb->attachments[kStencilAttachment];
    if (depth.attached())
      cmd.depth_stencil = AttachmentImage(depth);
    else if (stencil.attached())
      cmd.depth_stencil = AttachmentImage(stencil);
  }
  pipe_->Record(cmd);
  return true;
}

pipe::ImageRef Context::ReadColorImage(int32_t* width, int32_t* height, pipe::Format* format) {
  *width = *height = 0;
  if (format) *format = pipe::Format::kUndefined;
  if (!read_framebuffer) {
    if (!read_surface_) return {};
    *width = read_surface_->desc.width;
    *height = read_surface_->desc.height;
    if (format) *format = read_surface_->color_format;
    return ResolvedForRead(*pipe_, *read_surface_, DefaultReadImage(*this));
  }
  GLenum buf = read_framebuffer->read_buffer;
  if (buf < GL_COLOR_ATTACHMENT0 || buf >= GL_COLOR_ATTACHMENT0 + pipe::kMaxColorAttachments) return {};
  auto& a = read_framebuffer->attachments[buf - GL_COLOR_ATTACHMENT0];
  if (!a.attached()) return {};
  AttachmentSize(a, width, height);
  if (format) *format = a.image->format;
  return AttachmentImage(a);
}

pipe::ImageRef Context::ReadDepthStencilImage(bool stencil, int32_t* width, int32_t* height,
                                              pipe::Format* format) {
  *width = *height = 0;
  *format = pipe::Format::kUndefined;
  if (!read_framebuffer) {
    if (!read_surface_ || !read_surface_->depth_stencil.valid() || (stencil && !read_surface_->desc.stencil))
      return {};
    *width = read_surface_->desc.width;
    *height = read_surface_->desc.height;
    *format = pipe::Format::kD24S8;  // CreatePbufferSurface's depth-stencil format
    return {read_surface_->depth_stencil, 0, 0};
  }
  auto& a = read_framebuffer->attachments[stencil ? kStencilAttachment : kDepthAttachment];
  if (!a.attached()) return {};
  *format = a.image->format;
  if (stencil && !pipe::HasStencil(*format)) return {};
  AttachmentSize(a, width, height);
  return AttachmentImage(a);
}

namespace {

pipe::StencilFace ResolveStencil(const StencilState& s) {
  pipe::StencilFace f;
  f.func = *glenum::CompareFunc(s.func);
  f.fail = *glenum::StencilOperation(s.fail);
  f.depth_fail = *glenum::StencilOperation(s.zfail);
  f.pass = *glenum::StencilOperation(s.zpass);
  f.reference = static_cast<uint32_t>(s.ref);
  f.value_mask = s.value_mask;
  f.write_mask = s.write_mask;
  return f;
}

pipe::CullMode ResolveCull(const GLState& s) {
  if (!s.cull_face) return pipe::CullMode::kNone;
  switch (s.cull_mode) {
    case GL_FRONT:
      return pipe::CullMode::kFront;
    case GL_BACK:
      return pipe::CullMode::kBack;
    default:
      return pipe::CullMode::kFrontAndBack;
  }
}

}  // namespace

void Context::FlushFixedState() {
  const GLState& s = state;
  pipe::CmdSetFixedState cmd{};
  for (int i = 0; i < 4; ++i) cmd.viewport[i] = static_cast<float>(s.viewport[i]);
  cmd.depth_range[0] = s.depth_range[0];
  cmd.depth_range[1] = s.depth_range[1];
  cmd.scissor_enable = s.scissor_test;
  std::memcpy(cmd.scissor, s.scissor, sizeof(cmd.scissor));
  cmd.cull = ResolveCull(s);
  cmd.front_ccw = s.front_face == GL_CCW;
  cmd.polygon_mode = s.polygon_mode == GL_LINE    ? pipe::PolygonMode::kLine
                     : s.polygon_mode == GL_POINT ? pipe::PolygonMode::kPoint
                                                  : pipe::PolygonMode::kFill;
  cmd.depth_test = s.depth_test;
  cmd.depth_write = s.depth_mask;
  cmd.depth_clamp = s.depth_clamp;
  cmd.depth_func = *glenum::CompareFunc(s.depth_func);
  cmd.stencil_test = s.stencil_test && sent_stencil_present;
  cmd.stencil_front = ResolveStencil(s.stencil[0]);
  cmd.stencil_back = ResolveStencil(s.stencil[1]);
  for (int i = 0; i < pipe::kMaxColorAttachments; ++i) {
    auto& b = cmd.blend[i];
    const auto& bs = s.blend_state[i];
    b.enable = s.blend.test(i);
    b.src_rgb = *glenum::BlendFactor(bs.src_rgb);
    b.dst_rgb = *glenum::BlendFactor(bs.dst_rgb);
    b.src_alpha = *glenum::BlendFactor(bs.src_alpha);
    b.dst_alpha = *glenum::BlendFactor(bs.dst_alpha);
    b.op_rgb = *glenum::BlendEquation(bs.eq_rgb);
    b.op_alpha = *glenum::BlendEquation(bs.eq_alpha);
    const auto& m = s.color_mask[i];
    b.write_mask = static_cast<uint8_t>(m[0] | (m[1] << 1) | (m[2] << 2) | (m[3] << 3));
  }
  std::memcpy(cmd.blend_color, s.blend_color, sizeof(cmd.blend_color));
  cmd.line_width = s.line_width;
  cmd.polygon_offset_fill = s.polygon_offset_fill;
  cmd.polygon_offset_factor = s.polygon_offset_factor;
  cmd.polygon_offset_units = s.polygon_offset_units;
  cmd.primitive_restart = s.primitive_restart || s.primitive_restart_fixed;
  cmd.rasterizer_discard = s.rasterizer_discard;
  cmd.provoking_last = s.provoking_vertex == GL_LAST_VERTEX_CONVENTION;
  // GL 3.3 §3.6.3/§4.1.3: with GL_MULTISAMPLE disabled the multisample fragment operations do not run.
  // Resolved here, so backends whose host or device cannot rasterize single-sampled into multisampled
  // targets (see docs) still honour this part.
  cmd.alpha_to_coverage = s.multisample && s.sample_alpha_to_coverage;
  cmd.sample_coverage = s.multisample && s.sample_coverage;
  cmd.coverage_value = s.sample_coverage_value;
  cmd.coverage_invert = s.sample_coverage_invert;
  cmd.sample_mask = s.multisample && s.sample_mask ? s.sample_mask_value : ~0u;
  cmd.multisample = s.multisample;
  cmd.logic_op_enable = s.color_logic_op;
  cmd.logic_op = static_cast<pipe::LogicOp>(s.logic_op - GL_CLEAR);
  cmd.program_point_size = s.program_point_size || s.generated_point_size;
  cmd.point_origin_lower_left = s.point_sprite_origin == GL_LOWER_LEFT;
  cmd.point_size = std::min(std::max(s.point_size, s.point_size_min), s.point_size_max);
  cmd.line_stipple = s.line_stipple;
  cmd.line_stipple_pattern = s.line_stipple_pattern;
  cmd.line_stipple_factor = uint32_t(s.line_stipple_factor);
  pipe_->Record(cmd);
}

namespace {

pipe::GenericKind InputKind(GLenum gl_type) {
  switch (gl_type) {
    case GL_INT:
    case GL_INT_VEC2:
    case GL_INT_VEC3:
    case GL_INT_VEC4:
      return pipe::GenericKind::kInt;
    case GL_UNSIGNED_INT:
    case GL_UNSIGNED_INT_VEC2:
    case GL_UNSIGNED_INT_VEC3:
    case GL_UNSIGNED_INT_VEC4:
      return pipe::GenericKind::kUInt;
    default:
      return pipe::GenericKind::kFloat;
  }
}

// A generic value read by an input of another base type is undefined in GL; converting it numerically
// keeps the backends' vertex formats matching the shader (Vulkan requires it) and gives the app's numbers.
void ConvertGeneric(const uint32_t* in, pipe::GenericKind from, pipe::GenericKind to, uint32_t* out) {
  for (int c = 0; c < 4; ++c) {
    double v;
    if (from == pipe::GenericKind::kFloat) {
      float f;
      std::memcpy(&f, &in[c], 4);
      v = f;
    } else {
      v = from == pipe::GenericKind::kInt ? double(int32_t(in[c])) : double(in[c]);
    }
    if (to == pipe::GenericKind::kFloat) {
      float f = static_cast<float>(v);
      std::memcpy(&out[c], &f, 4);
    } else if (to == pipe::GenericKind::kInt) {
      out[c] = static_cast<uint32_t>(static_cast<int32_t>(std::clamp(v, -2147483648.0, 2147483647.0)));
    } else {
      out[c] = static_cast<uint32_t>(std::clamp(v, 0.0, 4294967295.0));
    }
  }
}

}  // namespace

void Context::FlushVertexInput() {
  pipe::CmdSetVertexInput cmd{};
  const auto& linked = program->linked;
  pipe::GenericKind input_kind[pipe::kMaxVertexAttribs] = {};
  for (const auto& attr : linked->attributes) {
    for (int32_t slot = 0; slot < attr.array_size; ++slot) {
      int32_t loc = attr.location + slot;
      if (loc >= 0 && loc < pipe::kMaxVertexAttribs) {
        cmd.attrib_mask |= 1u << loc;
        input_kind[loc] = InputKind(attr.gl_type);
      }
    }
  }
  for (int i = 0; i < pipe::kMaxVertexAttribs; ++i) {
    auto& out = cmd.attribs[i];
    std::memcpy(out.constant, state.generic_attrib[i], sizeof(out.constant));
    out.constant_kind = state.generic_kind[i];
    if (out.constant_kind != input_kind[i]) {
      ConvertGeneric(state.generic_attrib[i], state.generic_kind[i], input_kind[i], out.constant);
      out.constant_kind = input_kind[i];
    }
    if (!vertex_array) continue;
    const auto& a = vertex_array->attribs[i];
    // A streamed array (ES client memory, or a type the backend converts) reads its stream buffer, staged by
    // the draw (client_arrays.cpp): from its start, and as floats where converted.
    const bool streamed = vertex_array->streamed_mask & (1u << i);
    const Buffer* source = streamed ? client_streams[i].get() : a.buffer.get();
    if (!a.enabled || !source) continue;
    auto type = *glenum::VertexType(a.type, a.integer);
    const bool converted = streamed && ArrayIsConverted(*this, a);
    out.enabled = true;
    out.binding = static_cast<uint8_t>(i);
    out.format =
        converted ? pipe::VertexFormat{pipe::VertexFormat::kFloat, static_cast<uint8_t>(a.size), false, false}
                  : pipe::VertexFormat{static_cast<uint8_t>(type), static_cast<uint8_t>(a.size), a.normalized,
                                       a.integer};
    out.offset = 0;
    auto& b = cmd.bindings[i];
    b.buffer = source->handle;
    b.offset = streamed ? 0 : a.offset;
    if (converted) {
      b.stride = static_cast<uint32_t>(a.size) * 4;
      b.divisor = a.divisor;
      continue;
    }
    b.stride = a.stride ? static_cast<uint32_t>(a.stride)
                        : static_cast<uint32_t>(a.size) * glenum::VertexTypeSize(type);
    if (type == pipe::VertexFormat::kInt2101010 || type == pipe::VertexFormat::kUInt2101010)
      b.stride = a.stride ? a.stride : 4;
    b.divisor = a.divisor;
  }
  pipe_->Record(cmd);
}

void Context::FlushProgram() {
  if (program->handle != sent_program) {
    sent_program = program->handle;
    sent_uniform_version = 0;
    pipe_->Record(pipe::CmdSetProgram{program->handle});
  }
  if (program->uniform_version != sent_uniform_version && !program->default_block.empty()) {
    sent_uniform_version = program->uniform_version;
    pipe_->Record(pipe::CmdSetUniforms{static_cast<uint32_t>(program->default_block.size())},
                  program->default_block.data(), program->default_block.size());
  }
}

void Context::FlushStateForDraw() {
  const DrawDeltaConfig& config = GetDrawDeltaConfig();
  DrawDeltaStats& stats = draw_delta_stats;
  ++stats.draws;
  // Read before any shared object is: a change made by another thread after this point moves the epoch
  // past the value kept for the next draw.
  const uint64_t share_epoch = share_->epoch.load(std::memory_order_relaxed);
  bool fast = false;
  if (!config.enabled) {
    ++stats.fast_misses[size_t(FastPathMiss::kDisabled)];
  } else if (!fast_path_.valid) {
    ++stats.fast_misses[size_t(FastPathMiss::kFirst)];
  } else if (draw_epoch_ != fast_path_.epoch) {
    ++stats.fast_misses[size_t(FastPathMiss::kContextEpoch)];
  } else if (share_epoch != fast_path_.share_epoch) {
    ++stats.fast_misses[size_t(FastPathMiss::kShareEpoch)];
  } else {
    fast = true;
    ++stats.fast_hits;
  }
  // Context-global steps: render targets and fixed state. The fast path skips them; verify mode runs them
  // and fails when one would have recorded something the fast path left out.
  if (!fast || config.verify) {
    if (FlushRenderTargets() && fast)
      DrawDeltaVerifyFailed(stats.draws, "the state the fast path skips", "render targets");
    if (dirty_.test(kDirtyFixedState)) {
      if (fast) DrawDeltaVerifyFailed(stats.draws, "the state the fast path skips", "fixed state");
      dirty_.reset(kDirtyFixedState);
      ++stats.fixed_state_records;
      FlushFixedState();
    }
  }
  // VAO-, program- and uniform-derived work: every draw.
  if (program && program->linked) {
    // A new program can consume different attribute locations: re-send vertex input with it.
    if (program->handle != sent_program) dirty_.set(kDirtyVertexInput);
    FlushProgram();
    if (dirty_.test(kDirtyVertexInput)) {
      dirty_.reset(kDirtyVertexInput);
      ++stats.vertex_input_records;
      FlushVertexInput();
    }
    FlushProgramResources(fast);
  }
  if (config.enabled) {
    fast_path_.valid = true;
    fast_path_.epoch = draw_epoch_;
    fast_path_.share_epoch = share_epoch;
  }
}

}  // namespace caldera
