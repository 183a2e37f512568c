// A GLES-backend context: host context lifetime, current-ness, and the record dispatch.
#include "backend/gles/gles_context.h"

#include <cstdio>

#include "util/log.h"

namespace caldera::gles {

Context::Context(Device& device)
    : device_(device),
      gl_(device.gl()),
      state_(device.gl(), util::EnvFlag("CALDERA_GLES_SHADOW", true), device.has_depth_clamp(),
             device.has_multisample_compat()),
      uniform_ring_(util::EnvFlag("CALDERA_GLES_UNIFORM_RING", true)) {
  std::string why;
  host_context_ = device_.host().CreateContext(device_.root(), &why);
  if (host_context_ == EGL_NO_CONTEXT) {
    util::Log(util::LogLevel::kError, "gles", "host context creation failed: " + why);
    lost_ = true;
  }
}

Context::~Context() {
  if (host_context_ == EGL_NO_CONTEXT) return;
  std::lock_guard lock(device_.execute_mutex());
  EGLContext previous = ThreadHostContext();
  if (initialized_ && BindHostContext(device_.host(), host_context_)) {
    for (auto& [id, q] : queries_) gl_.DeleteQueries(1, &q.name);
    for (auto& [object, name] : xfb_objects_) gl_.DeleteTransformFeedbacks(1, &name);
    for (auto& [key, fbo] : framebuffers_) gl_.DeleteFramebuffers(1, &fbo);
    GLuint buffers[] = {uniform_ubo_, zero_ubo_, index_stream_};
    gl_.DeleteBuffers(3, buffers);
    gl_.DeleteVertexArrays(1, &vao_);
    gl_.Flush();
  }
  if (stats_.draws || stats_.clears || stats_.pbo_copies || stats_.compressed_uploads ||
      stats_.readback_host_direct)
    WriteStats();
  BindHostContext(device_.host(), previous != host_context_ ? previous : EGL_NO_CONTEXT);
  device_.host().DestroyContext(host_context_);
}

bool Context::MakeCurrent() {
  if (lost_) return false;
  if (!BindHostContext(device_.host(), host_context_)) {
    util::Log(util::LogLevel::kError, "gles", "the host refused to make Caldera's host context current");
    lost_ = true;
    return false;
  }
  if (!initialized_) InitHostObjects();
  return true;
}

void Context::InitHostObjects() {
  initialized_ = true;
  gl_.GenVertexArrays(1, &vao_);
  state_.BindVertexArray(vao_);
  GLuint buffers[3];
  gl_.GenBuffers(3, buffers);
  uniform_ubo_ = buffers[0];
  zero_ubo_ = buffers[1];
  index_stream_ = buffers[2];
  std::vector<uint8_t> zeros(16384, 0);
  state_.BindBuffer(GL_UNIFORM_BUFFER, zero_ubo_);
  gl_.BufferData(GL_UNIFORM_BUFFER, static_cast<GLsizeiptr>(zeros.size()), zeros.data(), GL_STATIC_DRAW);
  seen_shared_epoch_ = device_.shared_epoch;
}

bool Context::Execute(const pipe::CommandChunk& chunk) {
  std::lock_guard lock(device_.execute_mutex());
  if (!MakeCurrent()) return false;
  if (seen_shared_epoch_ != device_.shared_epoch) {
    state_.InvalidateObjectBindings();
    // A real switch of vertex arrays: host drivers (Mesa) skip re-binding the bound array with unchanged
    // pointers, and would keep reading a buffer's old storage after another context re-specified it.
    state_.BindVertexArray(0);
    state_.BindVertexArray(vao_);
    attribs_known_ = false;
    vertex_dirty_ = uniform_buffers_dirty_ = textures_dirty_ = uniforms_dirty_ = targets_dirty_ = true;
    PurgeFramebuffers();
    seen_shared_epoch_ = device_.shared_epoch;
  }
  chunk.ForEach(
      [this](pipe::Op op, const uint8_t* record, const uint8_t* payload) { Apply(op, record, payload); });
  return !lost_;
}

void Context::ReleaseThread() {
  if (ThreadHostContext() != host_context_) return;
  std::lock_guard lock(device_.execute_mutex());
  gl_.Flush();  // GL: releasing a context flushes it
  BindHostContext(device_.host(), EGL_NO_CONTEXT);
}

void Context::Apply(pipe::Op op, const uint8_t* record, const uint8_t* payload) {
  switch (op) {
    case pipe::Op::kBufferStorage:
      OnBufferStorage(pipe::As<pipe::CmdBufferStorage>(record));
      break;
    case pipe::Op::kBufferUpload:
      OnBufferUpload(pipe::As<pipe::CmdBufferUpload>(record), payload);
      break;
    case pipe::Op::kBufferCopy:
      OnBufferCopy(pipe::As<pipe::CmdBufferCopy>(record));
      break;
    case pipe::Op::kBufferDestroy:
      OnBufferDestroy(pipe::As<pipe::CmdBufferDestroy>(record).buffer);
      break;
    case pipe::Op::kImageCreate:
      OnImageCreate(pipe::As<pipe::CmdImageCreate>(record));
      break;
    case pipe::Op::kImageUpload:
      OnImageUpload(pipe::As<pipe::CmdImageUpload>(record), payload);
      break;
    case pipe::Op::kImageDestroy:
      OnImageDestroy(pipe::As<pipe::CmdImageDestroy>(record).image);
      break;
    case pipe::Op::kGenerateMipmaps:
      OnGenerateMipmaps(pipe::As<pipe::CmdGenerateMipmaps>(record));
      break;
    case pipe::Op::kProgramCreate:
      OnProgramCreate(pipe::As<pipe::CmdProgramCreate>(record), payload);
      break;
    case pipe::Op::kProgramDestroy:
      OnProgramDestroy(pipe::As<pipe::CmdProgramDestroy>(record).program);
      break;
    case pipe::Op::kSetRenderTargets:
      targets_ = pipe::As<pipe::CmdSetRenderTargets>(record);
      targets_dirty_ = true;
      fixed_dirty_ = true;  // RGB targets mask alpha writes
      break;
    case pipe::Op::kSetFixedState:
      fixed_ = pipe::As<pipe::CmdSetFixedState>(record);
      fixed_dirty_ = true;
      break;
    case pipe::Op::kSetVertexInput:
      vertex_ = pipe::As<pipe::CmdSetVertexInput>(record);
      vertex_dirty_ = true;
      break;
    case pipe::Op::kSetProgram:
      program_ = pipe::As<pipe::CmdSetProgram>(record).program;
      uniforms_dirty_ = vertex_dirty_ = true;
      break;
    case pipe::Op::kSetUniforms: {
      auto& c = pipe::As<pipe::CmdSetUniforms>(record);
      uniforms_.assign(payload, payload + c.payload_size);
      uniforms_dirty_ = true;
      break;
    }
    case pipe::Op::kSetUniformBuffers:
      uniform_buffers_ = pipe::As<pipe::CmdSetUniformBuffers>(record);
      uniform_buffers_dirty_ = true;
      break;
    case pipe::Op::kSetTextures:
      textures_ = pipe::As<pipe::CmdSetTextures>(record);
      textures_dirty_ = true;
      break;
    case pipe::Op::kClear:
      OnClear(pipe::As<pipe::CmdClear>(record));
      break;
    case pipe::Op::kBlit:
      OnBlit(pipe::As<pipe::CmdBlit>(record));
      break;
    case pipe::Op::kCopyImage:  // glCopyTex(Sub)Image: a same-size nearest host blit
      OnBlit(pipe::CopyAsBlit(pipe::As<pipe::CmdCopyImage>(record)));
      break;
    case pipe::Op::kDraw:
      OnDraw(pipe::As<pipe::CmdDraw>(record));
      break;
    case pipe::Op::kDrawInlineIndices:
      OnDrawInlineIndices(pipe::As<pipe::CmdDrawInlineIndices>(record), payload);
      break;
    case pipe::Op::kReadPixelsToBuffer:
      OnReadPixelsToBuffer(pipe::As<pipe::CmdReadPixelsToBuffer>(record));
      break;
    case pipe::Op::kImageUploadFromBuffer:
      OnImageUploadFromBuffer(pipe::As<pipe::CmdImageUploadFromBuffer>(record));
      break;
    case pipe::Op::kBufferRead:
      OnBufferRead(pipe::As<pipe::CmdBufferRead>(record));
      break;
    case pipe::Op::kReadPixels:
      OnReadPixels(pipe::As<pipe::CmdReadPixels>(record));
      break;
    case pipe::Op::kFlush:
      gl_.Flush();
      break;
    case pipe::Op::kFinish: {
      auto& c = pipe::As<pipe::CmdFinish>(record);
      gl_.Finish();
      c.done->store(true);
      c.done->notify_all();
      break;
    }
    case pipe::Op::kFenceSync: {
      auto& c = pipe::As<pipe::CmdFenceSync>(record);
      uint64_t serial = device_.InsertFence();
      gl_.Flush();  // a fence another thread waits on must reach the host's queue
      c.fence->Publish(&device_, serial);
      c.fence->Release();
      break;
    }
    case pipe::Op::kWaitSync: {
      auto& c = pipe::As<pipe::CmdWaitSync>(record);
      uint64_t serial = c.fence->serial();
      if (serial) {
        EGLSync sync = device_.PendingSync(serial);
        if (sync != EGL_NO_SYNC) device_.host().ServerWait(sync);
      }
      c.fence->Release();
      break;
    }
    case pipe::Op::kQueryBegin:
      OnQueryBegin(pipe::As<pipe::CmdQueryBegin>(record));
      break;
    case pipe::Op::kQueryEnd:
      OnQueryEnd(pipe::As<pipe::CmdQueryEnd>(record));
      break;
    case pipe::Op::kQueryTimestamp:
      OnQueryTimestamp(pipe::As<pipe::CmdQueryTimestamp>(record));
      break;
    case pipe::Op::kQueryResult:
      OnQueryResult(pipe::As<pipe::CmdQueryResult>(record));
      break;
    case pipe::Op::kQueryDestroy:
      OnQueryDestroy(pipe::As<pipe::CmdQueryDestroy>(record).query);
      break;
    case pipe::Op::kTransformFeedbackBegin:
      OnTransformFeedbackBegin(pipe::As<pipe::CmdTransformFeedbackBegin>(record));
      break;
    case pipe::Op::kTransformFeedbackPause:
      OnTransformFeedbackPause(pipe::As<pipe::CmdTransformFeedbackPause>(record).object);
      break;
    case pipe::Op::kTransformFeedbackResume:
      OnTransformFeedbackResume(pipe::As<pipe::CmdTransformFeedbackResume>(record).object);
      break;
    case pipe::Op::kTransformFeedbackEnd:
      OnTransformFeedbackEnd(pipe::As<pipe::CmdTransformFeedbackEnd>(record).object);
      break;
    case pipe::Op::kTransformFeedbackDestroy:
      OnTransformFeedbackDestroy(pipe::As<pipe::CmdTransformFeedbackDestroy>(record).object);
      break;
    case pipe::Op::kDrawTransformFeedback:
      break;  // never sent: BackendCaps::draw_transform_feedback is false (GLES has no such draw)
    case pipe::Op::kPresent:
      break;  // never sent: this backend has no presenter (windows use the read-back path)
    case pipe::Op::kCount:
      break;
  }
}

void Context::WriteStats() {
  const char* path = util::Env("CALDERA_STATS");
  if (!path) return;
  if (FILE* f = std::fopen(path, "a")) {
    const auto& c = state_.counters();
    std::fprintf(f,
                 "{\"backend\": \"gles\", \"draws\": %llu, \"clears\": %llu, \"blits\": %llu, "
                 "\"framebuffers_created\": %llu, \"host_state_calls\": %llu, \"host_state_skipped\": %llu, "
                 "\"uniform_ring_writes\": %llu, \"uniform_orphans\": %llu, \"pbo_copies\": %llu, "
                 "\"compressed_uploads\": %llu, \"readback_host_direct\": %llu}\n",
                 (unsigned long long)stats_.draws, (unsigned long long)stats_.clears,
                 (unsigned long long)stats_.blits, (unsigned long long)stats_.framebuffers_created,
                 (unsigned long long)c.issued, (unsigned long long)c.skipped,
                 (unsigned long long)stats_.uniform_ring_writes, (unsigned long long)stats_.uniform_orphans,
                 (unsigned long long)stats_.pbo_copies, (unsigned long long)stats_.compressed_uploads,
                 (unsigned long long)stats_.readback_host_direct);
    std::fclose(f);
  }
}

}  // namespace caldera::gles
