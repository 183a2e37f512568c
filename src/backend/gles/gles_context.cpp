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
    if (present_fbo_) gl_.DeleteFramebuffers(1, &present_fbo_);
    if (present_read_fbo_) gl_.DeleteFramebuffers(1, &present_read_fbo_);
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
  chunk.ForEach([this](pipe::Op op, const uint8_t* record, const uint8_t* payload) {
    pipe::Dispatch(*this, op, record, payload);
  });
  // The HUD's counters: the host driver's passes, submissions and pipelines are its own business.
  SetCounter(live_counters_.draws, stats_.draws);
  return !lost_;
}

void Context::ReleaseThread() {
  if (ThreadHostContext() != host_context_) return;
  std::lock_guard lock(device_.execute_mutex());
  gl_.Flush();  // GL: releasing a context flushes it
  BindHostContext(device_.host(), EGL_NO_CONTEXT);
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
