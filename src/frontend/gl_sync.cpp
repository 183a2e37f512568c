// Fence sync objects (GL 3.2 / ES 3.0). A GLsync is a pipe::FenceState: glFenceSync records a pipe command
// whose backend submits the work before it and publishes that submission's serial; completion is then the
// backend's device timeline reaching the serial — never a frame count. The share group's table says which
// GLsync values are live and holds one reference each; waits hold their own, so glDeleteSync from another
// thread cannot pull a fence out from under a wait.
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "frontend/context.h"
#include "frontend/gl_impl.h"
#include "frontend/gl_sync.h"
#include "util/log.h"

namespace caldera {

struct SyncTable {
  std::unordered_set<pipe::FenceState*> live;
  std::unordered_map<pipe::FenceState*, std::string> labels;  // glObjectPtrLabel; erased with the sync
  ~SyncTable() {
    for (auto* f : live) f->Release();
  }
};

std::string* SyncLabel(Context& ctx, GLsync sync) {
  auto& table = ctx.shared().syncs;  // the caller holds ctx.shared().mutex
  auto* fence = reinterpret_cast<pipe::FenceState*>(sync);
  if (!table || !sync || !table->live.count(fence)) return nullptr;
  return &table->labels[fence];
}

namespace gl {
namespace {

// Polling entry points hand what was recorded on (inline: applied; inproc: published to the apply thread),
// so that a poll loop ends. CALDERA_TEST_NO_POLL_PUBLISH=1 (tests only) drops that: the negative control of
// gl_run_ahead's poll loops, which must then hang (caught by its watchdog).
void PublishForPoll(Context& ctx) {
  static const bool drop = util::EnvFlag("CALDERA_TEST_NO_POLL_PUBLISH", false);
  if (!drop) ctx.pipe().Submit();
}

pipe::FenceState* AsFence(GLsync sync) {
  return reinterpret_cast<pipe::FenceState*>(sync);
}

// A new reference to the fence behind `sync`, or null when it is not a live sync object of this share group.
pipe::FenceState* Acquire(Context& ctx, GLsync sync) {
  std::lock_guard lock(ctx.shared().mutex);
  auto& table = ctx.shared().syncs;
  if (!table || !sync || !table->live.count(AsFence(sync))) return nullptr;
  AsFence(sync)->Retain();
  return AsFence(sync);
}

// Holds an acquired reference for the length of a call.
struct FenceRef {
  pipe::FenceState* fence;
  ~FenceRef() {
    if (fence) fence->Release();
  }
};

}  // namespace

GLsync FenceSync(Context& ctx, GLenum condition, GLbitfield flags) {
  if (condition != GL_SYNC_GPU_COMMANDS_COMPLETE) {
    ctx.Error(GL_INVALID_ENUM, "glFenceSync", "condition must be GL_SYNC_GPU_COMMANDS_COMPLETE");
    return nullptr;
  }
  if (flags != 0) {
    ctx.Error(GL_INVALID_VALUE, "glFenceSync", "flags must be 0");
    return nullptr;
  }
  pipe::FenceState* fence = RecordFence(ctx);  // the share group's reference
  {
    std::lock_guard lock(ctx.shared().mutex);
    auto& table = ctx.shared().syncs;
    if (!table) table = std::make_shared<SyncTable>();
    table->live.insert(fence);
  }
  return reinterpret_cast<GLsync>(fence);
}

pipe::FenceState* RecordFence(Context& ctx) {
  pipe::FenceState* fence = pipe::FenceState::Create();  // the caller's reference
  fence->Retain();  // the record's reference, dropped by the backend once it has published the serial
  ctx.pipe().Record(pipe::CmdFenceSync{fence});
  return fence;
}

void RecordDeviceWait(Context& ctx, pipe::FenceState* fence) {
  if (fence->Signaled()) return;  // nothing to order against
  fence->Retain();                // the record's reference
  ctx.pipe().Record(pipe::CmdWaitSync{fence});
}

GLboolean IsSync(Context& ctx, GLsync sync) {
  FenceRef ref{Acquire(ctx, sync)};
  return ref.fence ? GL_TRUE : GL_FALSE;
}

void DeleteSync(Context& ctx, GLsync sync) {
  if (!sync) return;  // GL: deleting 0 is silently ignored
  pipe::FenceState* fence = nullptr;
  {
    std::lock_guard lock(ctx.shared().mutex);
    auto& table = ctx.shared().syncs;
    if (table && table->live.erase(AsFence(sync))) {
      fence = AsFence(sync);
      table->labels.erase(fence);  // a later sync at the same address starts unlabelled
    }
  }
  if (!fence) return ctx.Error(GL_INVALID_VALUE, "glDeleteSync", "not a sync object");
  fence->Release();  // waits in progress and unapplied records keep their own references
}

GLenum ClientWaitSync(Context& ctx, GLsync sync, GLbitfield flags, GLuint64 timeout) {
  FenceRef ref{Acquire(ctx, sync)};
  if (!ref.fence) {
    ctx.Error(GL_INVALID_VALUE, "glClientWaitSync", "not a sync object");
    return GL_WAIT_FAILED;
  }
  if (flags & ~GLbitfield(GL_SYNC_FLUSH_COMMANDS_BIT)) {
    ctx.Error(GL_INVALID_VALUE, "glClientWaitSync", "unknown flags");
    return GL_WAIT_FAILED;
  }
  if (ref.fence->Signaled()) return GL_ALREADY_SIGNALED;
  // Hand what this context recorded (the fence itself, when it is ours) to the backend. GL asks for it with
  // SYNC_FLUSH_COMMANDS_BIT; a real wait on our own unflushed fence gets it too, since it could never end
  // otherwise. A zero-timeout poll without the bit stays cheap.
  if ((flags & GL_SYNC_FLUSH_COMMANDS_BIT) || (timeout > 0 && !ref.fence->published())) PublishForPoll(ctx);
  if (timeout == 0) return GL_TIMEOUT_EXPIRED;
  switch (ref.fence->Wait(timeout)) {
    case pipe::Timeline::WaitResult::kSignaled:
      return GL_CONDITION_SATISFIED;
    case pipe::Timeline::WaitResult::kTimeout:
      return GL_TIMEOUT_EXPIRED;
    case pipe::Timeline::WaitResult::kLost:
      break;
  }
  ctx.Error(GL_CONTEXT_LOST, "glClientWaitSync", "device lost");
  return GL_WAIT_FAILED;
}

void WaitSync(Context& ctx, GLsync sync, GLbitfield flags, GLuint64 timeout) {
  FenceRef ref{Acquire(ctx, sync)};
  if (!ref.fence) return ctx.Error(GL_INVALID_VALUE, "glWaitSync", "not a sync object");
  if (flags != 0) return ctx.Error(GL_INVALID_VALUE, "glWaitSync", "flags must be 0");
  if (timeout != GL_TIMEOUT_IGNORED)
    return ctx.Error(GL_INVALID_VALUE, "glWaitSync", "timeout must be GL_TIMEOUT_IGNORED");
  RecordDeviceWait(ctx, ref.fence);
}

void GetSynciv(Context& ctx, GLsync sync, GLenum pname, GLsizei count, GLsizei* length, GLint* values) {
  FenceRef ref{Acquire(ctx, sync)};
  if (!ref.fence) return ctx.Error(GL_INVALID_VALUE, "glGetSynciv", "not a sync object");
  if (count < 0) return ctx.Error(GL_INVALID_VALUE, "glGetSynciv", "negative count");
  GLint value = 0;
  switch (pname) {
    case GL_OBJECT_TYPE:
      value = GL_SYNC_FENCE;
      break;
    case GL_SYNC_CONDITION:
      value = GL_SYNC_GPU_COMMANDS_COMPLETE;
      break;
    case GL_SYNC_FLAGS:
      value = 0;
      break;
    case GL_SYNC_STATUS:
      // A polling entry point: what was recorded is handed on (run-ahead would otherwise keep an unpublished
      // fence from ever signalling a `while (status != GL_SIGNALED)` loop). A lost context reports SIGNALED
      // (GL 4.5 §2.3.1), so that a polling loop ends.
      if (!ref.fence->published()) PublishForPoll(ctx);
      value = ctx.lost() || ref.fence->Wait(0) != pipe::Timeline::WaitResult::kTimeout ? GL_SIGNALED
                                                                                       : GL_UNSIGNALED;
      break;
    default:
      return ctx.Error(GL_INVALID_ENUM, "glGetSynciv", "unknown pname");
  }
  GLsizei written = 0;
  if (count >= 1 && values) {
    values[0] = value;
    written = 1;
  }
  if (length) *length = written;
}

}  // namespace gl
}  // namespace caldera
