// The Vulkan context's call table: one Apply per pipe record (declared by CALDERA_PIPE_APPLY_DECLS from the
// generated record table, reached through pipe::Dispatch). Small records are handled here; the rest hand over
// to the files of their concern (vk_draw.cpp, vk_context.cpp, vk_queries.cpp, vk_transform_feedback.cpp,
// ...).
#include "backend/vulkan/vk_context.h"
#include "backend/vulkan/vk_device.h"
#include "backend/vulkan/vk_formats.h"
#include "backend/vulkan/vk_pipelines.h"
#include "util/log.h"

namespace caldera::vk {

void Context::Apply(const pipe::CmdBufferStorage& c, const uint8_t* payload) {
  Resources& res = *shared_.resources;
  // Small storage is made host-visible, so that the glBufferData contents that follow are written directly.
  if (!res.CreateBuffer(c.buffer, c.size, &retired_, direct_writes_ && c.size <= kDirectWriteMax)) {
    util::LogOnce(util::LogLevel::kWarning, "vulkan", "buffer allocation failed: GL_OUT_OF_MEMORY");
    RaiseError(pipe::BackendError::kOutOfMemory, &c);
  }
  // Bound vertex/index, uniform and texel buffers may have new storage: rebind and re-push.
  vertex_dirty_ = resources_dirty_ = true;
  fresh_buffer_ = c.buffer;  // nothing has used it yet (until the next record: Execute clears this)
}

void Context::Apply(const pipe::CmdBufferUpload& c, const uint8_t* payload) {
  OnBufferUpload(c, c.staged.data ? c.staged.data : payload);  // a staged payload lies in the arena
}

void Context::Apply(const pipe::CmdBufferCopy& c, const uint8_t* payload) {
  OnBufferCopy(c);
}

void Context::Apply(const pipe::CmdBufferDestroy& c, const uint8_t* payload) {
  Resources& res = *shared_.resources;
  res.DestroyBuffer(c.buffer, &retired_);
}

void Context::Apply(const pipe::CmdImageCreate& c, const uint8_t* payload) {
  Resources& res = *shared_.resources;
  ImageDesc desc{c.format, pipe::StorageKind(c.kind), c.width, c.height, c.depth, c.layers, c.levels,
                 c.samples};
  if (!res.CreateImage(c.image, desc, &retired_)) {
    util::LogOnce(util::LogLevel::kWarning, "vulkan", "image allocation failed: GL_OUT_OF_MEMORY");
    RaiseError(pipe::BackendError::kOutOfMemory, &c);
  }
}

void Context::Apply(const pipe::CmdImageUpload& c, const uint8_t* payload) {
  OnImageUpload(c, c.staged.data ? c.staged.data : payload);
}

void Context::Apply(const pipe::CmdImageDestroy& c, const uint8_t* payload) {
  Resources& res = *shared_.resources;
  auto h = c.image;
  bool bound = h == targets_.depth_stencil.image;
  for (auto& target : targets_.color) bound |= target.image == h;
  if (bound) {
    FlushPendingClears(ClearResolve::kSubmit);
    EndPass();
    targets_ = {};
  }
  res.DestroyImage(h, &retired_);
}

void Context::Apply(const pipe::CmdImageAlias& c, const uint8_t* payload) {
  if (!shared_.resources->CreateAlias(c.image, c.parent, c.level, c.layer, &retired_))
    util::LogOnce(util::LogLevel::kWarning, "vulkan", "an EGLImage of a subresource could not be made");
}

void Context::Apply(const pipe::CmdProgramCreate& c, const uint8_t* payload) {
  Resources& res = *shared_.resources;
  auto* words = reinterpret_cast<const uint32_t*>(payload);
  const uint32_t* fragment = words + c.vertex_words;
  if (res.programs.Get(c.program)) RetirePipelines(c.program);  // re-created: its pipelines are stale
  if (!res.CreateProgram(c.program, words, c.vertex_words, fragment, c.fragment_words,
                         fragment + c.fragment_words, c.geometry_words, c.default_block_size,
                         c.texel_buffer_mask, c.sampler_array_sizes, &retired_))
    util::Log(util::LogLevel::kError, "vulkan", "shader module creation failed");
  else if (ProgramObject* p = res.programs.Get(c.program)) {
    p->layout = shared_.pipelines->Layout(p->texel_buffer_mask, p->sampler_arrays);
    p->no_color_outputs = c.no_color_outputs != 0;
  }
}

void Context::Apply(const pipe::CmdProgramDestroy& c, const uint8_t* payload) {
  Resources& res = *shared_.resources;
  auto h = c.program;
  RetirePipelines(h);
  res.DestroyProgram(h, &retired_);
}

void Context::Apply(const pipe::CmdSetRenderTargets& c, const uint8_t* payload) {
  OnSetRenderTargets(c);
}

void Context::Apply(const pipe::CmdSetFixedState& c, const uint8_t* payload) {
  fixed_ = c;
  fixed_dirty_ = true;
}

void Context::Apply(const pipe::CmdSetVertexInput& c, const uint8_t* payload) {
  vertex_ = c;
  vertex_dirty_ = true;
  // Arrays of a type with no Vulkan vertex format (GL_DOUBLE, GL_FIXED, 32-bit scaled or normalised) reach
  // here converted to floats (BackendLimits::vertex_types_converted). Should one come through anyway, it
  // would be an invalid vertex layout: the generic value stands in for it (logged once).
  for (auto& a : vertex_.attribs) {
    if (!a.enabled || ToVkVertexFormat(a.format) != VK_FORMAT_UNDEFINED) continue;
    a.enabled = false;
    util::LogOnce(util::LogLevel::kWarning, "glVertexAttribPointer",
                  "a vertex array of a type with no Vulkan format was not converted: the attribute's generic "
                  "value is used");
  }
}

void Context::Apply(const pipe::CmdSetProgram& c, const uint8_t* payload) {
  program_ = c.program;
  uniforms_dirty_ = true;
}

void Context::Apply(const pipe::CmdSetUniforms& c, const uint8_t* payload) {
  uniforms_.assign(payload, payload + c.payload_size);
  uniforms_dirty_ = true;
}

void Context::Apply(const pipe::CmdSetUniformBuffers& c, const uint8_t* payload) {
  uniform_buffers_ = c;
  resources_dirty_ = true;
}

void Context::Apply(const pipe::CmdSetTextures& c, const uint8_t* payload) {
  textures_ = c;
  resources_dirty_ = textures_need_layout_check_ = true;
}

void Context::Apply(const pipe::CmdClear& c, const uint8_t* payload) {
  OnClear(c);
}

void Context::Apply(const pipe::CmdBlit& c, const uint8_t* payload) {
  OnBlit(c);
}

// glCopyTex(Sub)Image: a same-size nearest blit, with its own clear resolve
void Context::Apply(const pipe::CmdCopyImage& c, const uint8_t* payload) {
  OnBlit(pipe::CopyAsBlit(c), ClearResolve::kCopy);
}

void Context::Apply(const pipe::CmdGenerateMipmaps& c, const uint8_t* payload) {
  OnGenerateMipmaps(c);
}

void Context::Apply(const pipe::CmdDraw& c, const uint8_t* payload) {
  OnDraw(c);
}

void Context::Apply(const pipe::CmdDrawInlineIndices& c, const uint8_t* payload) {
  OnDrawInlineIndices(c, payload);
}

void Context::Apply(const pipe::CmdReadPixels& c, const uint8_t* payload) {
  OnReadPixels(c);
}

void Context::Apply(const pipe::CmdReadPixelsToBuffer& c, const uint8_t* payload) {
  OnReadPixelsToBuffer(c);
}

void Context::Apply(const pipe::CmdImageUploadFromBuffer& c, const uint8_t* payload) {
  OnImageUploadFromBuffer(c);
}

void Context::Apply(const pipe::CmdBufferRead& c, const uint8_t* payload) {
  OnBufferRead(c);
}

void Context::Apply(const pipe::CmdFlush& c, const uint8_t* payload) {
  FlushPendingClears(ClearResolve::kSubmit);
  uint64_t serial;
  SubmitAndStamp(&serial);
}

void Context::Apply(const pipe::CmdFinish& c, const uint8_t* payload) {
  FlushPendingClears(ClearResolve::kSubmit);
  uint64_t serial;
  SubmitAndStamp(&serial);
  if (serial) shared_.device->WaitSerial(serial);
  for (auto& s : in_flight_) shared_.device->WaitSerial(s.serial);
  Collect();
  if (sample_every_ && ++finishes_ % sample_every_ == 0) WriteSample();
  c.done->store(true);
  c.done->notify_all();
}

void Context::Apply(const pipe::CmdFenceSync& c, const uint8_t* payload) {
  OnFenceSync(c);
}

void Context::Apply(const pipe::CmdWaitSync& c, const uint8_t* payload) {
  OnWaitSync(c);
}

void Context::Apply(const pipe::CmdQueryBegin& c, const uint8_t* payload) {
  OnQueryBegin(c);
}

void Context::Apply(const pipe::CmdQueryEnd& c, const uint8_t* payload) {
  OnQueryEnd(c);
}

void Context::Apply(const pipe::CmdQueryTimestamp& c, const uint8_t* payload) {
  OnQueryTimestamp(c);
}

void Context::Apply(const pipe::CmdQueryResult& c, const uint8_t* payload) {
  OnQueryResult(c);
}

void Context::Apply(const pipe::CmdQueryDestroy& c, const uint8_t* payload) {
  OnQueryDestroy(c);
}

void Context::Apply(const pipe::CmdTransformFeedbackBegin& c, const uint8_t* payload) {
  OnTransformFeedbackBegin(c);
}

void Context::Apply(const pipe::CmdTransformFeedbackPause& c, const uint8_t* payload) {
  OnTransformFeedbackPause(c);
}

void Context::Apply(const pipe::CmdTransformFeedbackResume& c, const uint8_t* payload) {
  OnTransformFeedbackResume(c);
}

void Context::Apply(const pipe::CmdTransformFeedbackEnd& c, const uint8_t* payload) {
  OnTransformFeedbackEnd(c);
}

void Context::Apply(const pipe::CmdTransformFeedbackDestroy& c, const uint8_t* payload) {
  OnTransformFeedbackDestroy(c);
}

void Context::Apply(const pipe::CmdDrawTransformFeedback& c, const uint8_t* payload) {
  OnDrawTransformFeedback(c);
}

void Context::Apply(const pipe::CmdPresent& c, const uint8_t* payload) {
  OnPresent(c);
}

}  // namespace caldera::vk
