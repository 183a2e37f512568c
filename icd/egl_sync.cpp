// EGL 1.5 core fence syncs, and the same under EGL_KHR_fence_sync / EGL_KHR_wait_sync (EGLint attributes and
// results, reached through glvnd dispatch stubs: glvnd_vendor.cpp). A sync is a real device fence recorded
// in the current context (frontend/platform.h): eglClientWaitSync waits for the work before it, from any
// thread, without holding the EGL lock, so other threads' EGL calls (the one that must flush, say) go on.
#include <cstdint>

#include "egl_api.h"
#include "egl_objects.h"
#include "frontend/platform.h"

namespace caldera::egl {
namespace {

SyncObj* LookupSync(Display* dpy, EGLSync handle) {
  auto it = dpy->syncs.find(static_cast<SyncObj*>(handle));
  if (it != dpy->syncs.end()) return *it;
  SetError(EGL_BAD_PARAMETER);  // EGL 1.5 §3.8.1: an invalid sync is EGL_BAD_PARAMETER
  return nullptr;
}

// A reference to the fence of a live sync of an initialised display, taken under the EGL lock so that
// eglDestroySync or eglTerminate on another thread cannot free it under the wait; null with the error set.
PlatformFence* AcquireFence(EGLDisplay handle, EGLSync sync) {
  EntryLock lock;
  Display* dpy = LookupInitializedDisplay(handle);
  if (!dpy) return nullptr;
  SyncObj* s = LookupSync(dpy, sync);
  if (!s) return nullptr;
  RetainFence(s->fence);
  return s->fence;
}

struct FenceRef {
  PlatformFence* fence;
  ~FenceRef() { ReleaseFence(fence); }
};

// EGL_SYNC_STATUS: what a poll says now. A lost device counts as signalled, so that polling loops end.
EGLAttrib StatusOf(PlatformFence* fence) {
  return WaitFence(fence, 0) == FenceStatus::kTimeout ? EGL_UNSIGNALED : EGL_SIGNALED;
}

}  // namespace

EGLSync CreateSync(EGLDisplay handle, EGLenum type, const EGLAttrib* attrib_list) {
  EntryLock lock;
  Display* dpy = LookupInitializedDisplay(handle);
  if (!dpy) return EGL_NO_SYNC;
  if (type != EGL_SYNC_FENCE) {
    SetError(EGL_BAD_PARAMETER);
    return EGL_NO_SYNC;
  }
  if (attrib_list && attrib_list[0] != EGL_NONE) {
    SetError(EGL_BAD_ATTRIBUTE);  // a fence takes no attributes
    return EGL_NO_SYNC;
  }
  const ThreadCurrent& cur = Current();
  if (!cur.context || cur.display != dpy) {
    SetError(EGL_BAD_MATCH);  // the fence goes into the current context, which must belong to dpy
    return EGL_NO_SYNC;
  }
  PlatformFence* fence = CreateFenceInCurrent();
  if (!fence) {
    SetError(EGL_BAD_MATCH);
    return EGL_NO_SYNC;
  }
  auto* sync = new SyncObj;
  sync->display = dpy;
  sync->fence = fence;
  dpy->syncs.insert(sync);
  return sync;
}

EGLSyncKHR CreateSyncKHR(EGLDisplay handle, EGLenum type, const EGLint* attrib_list) {
  // EGL_KHR_fence_sync names EGL_BAD_ATTRIBUTE for an unsupported type (EGL 1.5: EGL_BAD_PARAMETER).
  if (type != EGL_SYNC_FENCE_KHR || (attrib_list && attrib_list[0] != EGL_NONE)) {
    EntryLock lock;
    if (LookupInitializedDisplay(handle)) SetError(EGL_BAD_ATTRIBUTE);
    return EGL_NO_SYNC_KHR;
  }
  return CreateSync(handle, type, nullptr);
}

EGLBoolean DestroySync(EGLDisplay handle, EGLSync sync) {
  EntryLock lock;
  Display* dpy = LookupInitializedDisplay(handle);
  if (!dpy) return EGL_FALSE;
  SyncObj* s = LookupSync(dpy, sync);
  if (!s) return EGL_FALSE;
  dpy->syncs.erase(s);
  delete s;  // a wait in progress keeps the fence alive
  return EGL_TRUE;
}

EGLint ClientWaitSync(EGLDisplay handle, EGLSync sync, EGLint flags, EGLTime timeout) {
  FenceRef ref{AcquireFence(handle, sync)};
  if (!ref.fence) return EGL_FALSE;
  // Other flag bits are ignored: EGL names no error for them (Mesa ignores them too).
  if (flags & EGL_SYNC_FLUSH_COMMANDS_BIT) FlushCurrent();
  switch (WaitFence(ref.fence, timeout)) {  // EGL_FOREVER is UINT64_MAX: wait for ever
    case FenceStatus::kSignaled:
      return EGL_CONDITION_SATISFIED;
    case FenceStatus::kTimeout:
      return EGL_TIMEOUT_EXPIRED;
    case FenceStatus::kLost:
      break;
  }
  SetError(EGL_CONTEXT_LOST);  // the device was lost: the fence will never signal
  return EGL_FALSE;
}

EGLBoolean WaitSync(EGLDisplay handle, EGLSync sync, EGLint flags) {
  FenceRef ref{AcquireFence(handle, sync)};
  if (!ref.fence) return EGL_FALSE;
  if (flags != 0) {
    SetError(EGL_BAD_PARAMETER);
    return EGL_FALSE;
  }
  EntryLock lock;
  Display* dpy = LookupInitializedDisplay(handle);
  if (!dpy) return EGL_FALSE;
  const ThreadCurrent& cur = Current();
  if (!cur.context || cur.display != dpy) {
    SetError(EGL_BAD_MATCH);  // the wait goes into the current context, which must belong to dpy
    return EGL_FALSE;
  }
  if (!WaitFenceInCurrent(ref.fence)) {
    SetError(EGL_BAD_MATCH);
    return EGL_FALSE;
  }
  return EGL_TRUE;
}

EGLint WaitSyncKHR(EGLDisplay handle, EGLSync sync, EGLint flags) {
  return WaitSync(handle, sync, flags);
}

EGLBoolean GetSyncAttrib(EGLDisplay handle, EGLSync sync, EGLint attribute, EGLAttrib* value) {
  FenceRef ref{AcquireFence(handle, sync)};
  if (!ref.fence) return EGL_FALSE;
  EGLAttrib v = 0;
  switch (attribute) {
    case EGL_SYNC_TYPE:
      v = EGL_SYNC_FENCE;
      break;
    case EGL_SYNC_STATUS:
      v = StatusOf(ref.fence);
      break;
    case EGL_SYNC_CONDITION:
      v = EGL_SYNC_PRIOR_COMMANDS_COMPLETE;
      break;
    default:
      SetError(EGL_BAD_ATTRIBUTE);
      return EGL_FALSE;
  }
  if (!value) {
    SetError(EGL_BAD_PARAMETER);
    return EGL_FALSE;
  }
  *value = v;
  return EGL_TRUE;
}

EGLBoolean GetSyncAttribKHR(EGLDisplay handle, EGLSync sync, EGLint attribute, EGLint* value) {
  EGLAttrib wide = 0;
  if (!GetSyncAttrib(handle, sync, attribute, value ? &wide : nullptr)) return EGL_FALSE;
  *value = static_cast<EGLint>(wide);
  return EGL_TRUE;
}

}  // namespace caldera::egl
