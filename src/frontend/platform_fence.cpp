// EGL fence syncs over the pipe's fences (frontend/platform.h). The same pipe::FenceState as a GLsync, but
// outside any share group's sync table: an EGLSync is not a GL object, so glIsSync must not see it.
#include "api/gl_entry_support.h"
#include "frontend/compat/hooks.h"
#include "frontend/context.h"
#include "frontend/gl_impl.h"
#include "frontend/gl_sync.h"
#include "frontend/platform.h"

namespace caldera {

namespace {

// PlatformFence stays an incomplete type: its pointer is the FenceState's.
pipe::FenceState* StateOf(PlatformFence* fence) {
  return reinterpret_cast<pipe::FenceState*>(fence);
}

}  // namespace

PlatformFence* CreateFenceInCurrent() {
  Context* c = api::tls_current_context;
  if (!c) return nullptr;
  if (c->compat_hooks) compat::DrawPendingBatch(*c);  // a pending immediate-mode batch comes before the fence
  pipe::FenceState* state = gl::RecordFence(*c);      // the caller's reference
  c->pipe().Submit();
  return reinterpret_cast<PlatformFence*>(state);
}

void RetainFence(PlatformFence* fence) {
  if (fence) StateOf(fence)->Retain();
}

void ReleaseFence(PlatformFence* fence) {
  if (fence) StateOf(fence)->Release();
}

FenceStatus WaitFence(PlatformFence* fence, uint64_t timeout_ns) {
  switch (StateOf(fence)->Wait(timeout_ns)) {
    case pipe::Timeline::WaitResult::kSignaled:
      return FenceStatus::kSignaled;
    case pipe::Timeline::WaitResult::kTimeout:
      return FenceStatus::kTimeout;
    case pipe::Timeline::WaitResult::kLost:
      break;
  }
  return FenceStatus::kLost;
}

bool WaitFenceInCurrent(PlatformFence* fence) {
  Context* c = api::tls_current_context;
  if (!c) return false;
  gl::RecordDeviceWait(*c, StateOf(fence));
  return true;
}

}  // namespace caldera
