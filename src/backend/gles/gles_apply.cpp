// The GLES context's call table: one Apply per pipe record (declared by CALDERA_PIPE_APPLY_DECLS from the
// generated record table, reached through pipe::Dispatch). Small records are handled here; the rest hand over
// to the files of their concern (gles_draw.cpp, gles_framebuffer.cpp, gles_queries.cpp, ...).
#include "backend/gles/gles_context.h"
#include "util/log.h"

namespace caldera::gles {

void Context::Apply(const pipe::CmdBufferStorage& c, const uint8_t* payload) {
  OnBufferStorage(c);
}

void Context::Apply(const pipe::CmdBufferUpload& c, const uint8_t* payload) {
  OnBufferUpload(c, c.staged.data ? c.staged.data : payload);  // a staged payload lies in the arena
}

void Context::Apply(const pipe::CmdBufferCopy& c, const uint8_t* payload) {
  OnBufferCopy(c);
}

void Context::Apply(const pipe::CmdBufferDestroy& c, const uint8_t* payload) {
  OnBufferDestroy(c.buffer);
}

void Context::Apply(const pipe::CmdImageCreate& c, const uint8_t* payload) {
  OnImageCreate(c);
}

void Context::Apply(const pipe::CmdImageUpload& c, const uint8_t* payload) {
  OnImageUpload(c, c.staged.data ? c.staged.data : payload);
}

void Context::Apply(const pipe::CmdImageDestroy& c, const uint8_t* payload) {
  OnImageDestroy(c.image);
}

void Context::Apply(const pipe::CmdImageAlias& c, const uint8_t* payload) {
  OnImageAlias(c);
}

void Context::Apply(const pipe::CmdGenerateMipmaps& c, const uint8_t* payload) {
  OnGenerateMipmaps(c);
}

void Context::Apply(const pipe::CmdProgramCreate& c, const uint8_t* payload) {
  OnProgramCreate(c, payload);
}

void Context::Apply(const pipe::CmdProgramDestroy& c, const uint8_t* payload) {
  OnProgramDestroy(c.program);
}

void Context::Apply(const pipe::CmdSetRenderTargets& c, const uint8_t* payload) {
  targets_ = c;
  targets_dirty_ = true;
  fixed_dirty_ = true;  // RGB targets mask alpha writes
}

void Context::Apply(const pipe::CmdSetFixedState& c, const uint8_t* payload) {
  fixed_ = c;
  fixed_dirty_ = true;
}

void Context::Apply(const pipe::CmdSetVertexInput& c, const uint8_t* payload) {
  vertex_ = c;
  vertex_dirty_ = true;
}

void Context::Apply(const pipe::CmdSetProgram& c, const uint8_t* payload) {
  program_ = c.program;
  uniforms_dirty_ = vertex_dirty_ = true;
}

void Context::Apply(const pipe::CmdSetUniforms& c, const uint8_t* payload) {
  uniforms_.assign(payload, payload + c.payload_size);
  uniforms_dirty_ = true;
}

void Context::Apply(const pipe::CmdSetUniformBuffers& c, const uint8_t* payload) {
  uniform_buffers_ = c;
  uniform_buffers_dirty_ = true;
}

void Context::Apply(const pipe::CmdSetTextures& c, const uint8_t* payload) {
  textures_ = c;
  textures_dirty_ = true;
}

void Context::Apply(const pipe::CmdClear& c, const uint8_t* payload) {
  OnClear(c);
}

void Context::Apply(const pipe::CmdBlit& c, const uint8_t* payload) {
  OnBlit(c);
}

// glCopyTex(Sub)Image: a same-size nearest host blit
void Context::Apply(const pipe::CmdCopyImage& c, const uint8_t* payload) {
  OnBlit(pipe::CopyAsBlit(c));
}

void Context::Apply(const pipe::CmdDraw& c, const uint8_t* payload) {
  OnDraw(c);
}

void Context::Apply(const pipe::CmdDrawInlineIndices& c, const uint8_t* payload) {
  OnDrawInlineIndices(c, payload);
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

void Context::Apply(const pipe::CmdReadPixels& c, const uint8_t* payload) {
  OnReadPixels(c);
}

void Context::Apply(const pipe::CmdFlush& c, const uint8_t* payload) {
  gl_.Flush();
}

void Context::Apply(const pipe::CmdFinish& c, const uint8_t* payload) {
  gl_.Finish();
  c.done->store(true);
  c.done->notify_all();
}

void Context::Apply(const pipe::CmdFenceSync& c, const uint8_t* payload) {
  uint64_t serial = device_.InsertFence();
  gl_.Flush();  // a fence another thread waits on must reach the host's queue
  c.fence->Publish(&device_, serial);
  c.fence->Release();
}

void Context::Apply(const pipe::CmdWaitSync& c, const uint8_t* payload) {
  uint64_t serial = c.fence->serial();
  if (serial) {
    EGLSync sync = device_.PendingSync(serial);
    if (sync != EGL_NO_SYNC) device_.host().ServerWait(sync);
  }
  c.fence->Release();
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
  OnQueryDestroy(c.query);
}

void Context::Apply(const pipe::CmdTransformFeedbackBegin& c, const uint8_t* payload) {
  OnTransformFeedbackBegin(c);
}

void Context::Apply(const pipe::CmdTransformFeedbackPause& c, const uint8_t* payload) {
  OnTransformFeedbackPause(c.object);
}

void Context::Apply(const pipe::CmdTransformFeedbackResume& c, const uint8_t* payload) {
  OnTransformFeedbackResume(c.object);
}

void Context::Apply(const pipe::CmdTransformFeedbackEnd& c, const uint8_t* payload) {
  OnTransformFeedbackEnd(c.object);
}

void Context::Apply(const pipe::CmdTransformFeedbackDestroy& c, const uint8_t* payload) {
  OnTransformFeedbackDestroy(c.object);
}

// Never sent: BackendCaps::draw_transform_feedback is false (GLES has no such draw).
void Context::Apply(const pipe::CmdDrawTransformFeedback&, const uint8_t*) {
  util::LogOnce(util::LogLevel::kError, "gles",
                "CmdDrawTransformFeedback reached a backend without it: ignored");
}

void Context::Apply(const pipe::CmdPresent& c, const uint8_t*) {
  OnPresent(c);
}

}  // namespace caldera::gles
