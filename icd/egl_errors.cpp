// Per-thread EGL error state, the global EGL lock and the per-thread current binding.
#include "egl_api.h"
#include "egl_objects.h"

namespace caldera::egl {
namespace {

thread_local EGLint t_error = EGL_SUCCESS;
thread_local ThreadCurrent t_current;
// Only used without glvnd: glvnd answers eglBindAPI/eglQueryAPI itself and we ask it (CurrentApi()).
thread_local EGLenum t_api = EGL_OPENGL_ES_API;  // EGL's initial value
CurrentApiFn g_api_source = nullptr;

}  // namespace

// Recursive: a driver Caldera initialises may call back into EGL through glvnd on the same thread (NVIDIA's
// Vulkan ICD opens its own EGL display while Caldera's eglInitialize creates the Vulkan instance). Such a
// call reaches our getPlatformDisplay and must not deadlock on the lock eglInitialize holds.
std::recursive_mutex& Lock() {
  static std::recursive_mutex mutex;
  return mutex;
}

EntryLock::EntryLock() : guard(Lock()) {
  t_error = EGL_SUCCESS;
}

void SetError(EGLint error) {
  t_error = error;
}

EGLint TakeError() {
  EGLint error = t_error;
  t_error = EGL_SUCCESS;
  return error;
}

EGLint GetError() {
  return TakeError();
}

ThreadCurrent& Current() {
  return t_current;
}

void SetCurrentApiSource(CurrentApiFn fn) {
  g_api_source = fn;
}

EGLenum CurrentApi() {
  return g_api_source ? g_api_source() : t_api;
}

EGLBoolean BindAPI(EGLenum api) {
  if (api != EGL_OPENGL_API && api != EGL_OPENGL_ES_API) {
    SetError(EGL_BAD_PARAMETER);
    return EGL_FALSE;
  }
  t_api = api;
  t_error = EGL_SUCCESS;
  return EGL_TRUE;
}

EGLenum QueryAPI() {
  return CurrentApi();
}

}  // namespace caldera::egl
