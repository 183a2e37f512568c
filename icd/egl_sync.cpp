// EGL 1.5 core fence syncs and images. A fence finishes the current context when it is created, so it is
// born signalled: correct, if slower than a real GPU fence, and enough until something needs overlap.
// No EGLImage target is supported yet.
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
    SetError(EGL_BAD_ATTRIBUTE);
    return EGL_NO_SYNC;
  }
  const ThreadCurrent& cur = Current();
  if (!cur.context || cur.display != dpy) {
    SetError(EGL_BAD_MATCH);
    return EGL_NO_SYNC;
  }
  caldera::FinishCurrent();
  auto* sync = new SyncObj;
  sync->display = dpy;
  dpy->syncs.insert(sync);
  return sync;
}

EGLBoolean DestroySync(EGLDisplay handle, EGLSync sync) {
  EntryLock lock;
  Display* dpy = LookupInitializedDisplay(handle);
  if (!dpy) return EGL_FALSE;
  SyncObj* s = LookupSync(dpy, sync);
  if (!s) return EGL_FALSE;
  dpy->syncs.erase(s);
  delete s;
  return EGL_TRUE;
}

EGLint ClientWaitSync(EGLDisplay handle, EGLSync sync, EGLint flags, EGLTime timeout) {
  EntryLock lock;
  Display* dpy = LookupInitializedDisplay(handle);
  if (!dpy) return EGL_FALSE;
  if (!LookupSync(dpy, sync)) return EGL_FALSE;
  if (flags & ~EGL_SYNC_FLUSH_COMMANDS_BIT) {
    SetError(EGL_BAD_PARAMETER);
    return EGL_FALSE;
  }
  return EGL_CONDITION_SATISFIED;
}

EGLBoolean WaitSync(EGLDisplay handle, EGLSync sync, EGLint flags) {
  EntryLock lock;
  Display* dpy = LookupInitializedDisplay(handle);
  if (!dpy) return EGL_FALSE;
  if (!LookupSync(dpy, sync)) return EGL_FALSE;
  if (flags != 0) {
    SetError(EGL_BAD_PARAMETER);
    return EGL_FALSE;
  }
  if (!Current().context) {
    SetError(EGL_BAD_MATCH);
    return EGL_FALSE;
  }
  return EGL_TRUE;
}

EGLBoolean GetSyncAttrib(EGLDisplay handle, EGLSync sync, EGLint attribute, EGLAttrib* value) {
  EntryLock lock;
  Display* dpy = LookupInitializedDisplay(handle);
  if (!dpy) return EGL_FALSE;
  if (!LookupSync(dpy, sync)) return EGL_FALSE;
  EGLAttrib v = 0;
  switch (attribute) {
    case EGL_SYNC_TYPE:
      v = EGL_SYNC_FENCE;
      break;
    case EGL_SYNC_STATUS:
      v = EGL_SIGNALED;
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

EGLImage CreateImage(EGLDisplay handle, EGLContext, EGLenum, EGLClientBuffer, const EGLAttrib*) {
  EntryLock lock;
  if (!LookupInitializedDisplay(handle)) return EGL_NO_IMAGE;
  SetError(EGL_BAD_PARAMETER);  // no EGLImage target is supported
  return EGL_NO_IMAGE;
}

EGLBoolean DestroyImage(EGLDisplay handle, EGLImage) {
  EntryLock lock;
  if (!LookupInitializedDisplay(handle)) return EGL_FALSE;
  SetError(EGL_BAD_PARAMETER);  // no image can exist
  return EGL_FALSE;
}

}  // namespace caldera::egl
