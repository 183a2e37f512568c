// Xlib's internals are needed here only: an error is delivered through _XError with the display's internal
// lock held (it drops the lock around the application's handler), and numbered with the display's last
// request sequence, as Xlib does for errors that come from the server.
#include "glx_x_errors.h"

#include <X11/Xlibint.h>
#include <X11/Xproto.h>
// After Xproto.h, whose types it uses.
#include <GL/glxproto.h>
// Xlibint.h's min/max macros would break the C++ headers below.
#undef min
#undef max

#include <mutex>
#include <utility>
#include <vector>

#include "util/log.h"
#include "x11_loader.h"

namespace caldera::glx {

static_assert(kGLXBadContext == GLXBadContext && kGLXBadDrawable == GLXBadDrawable &&
              kGLXBadPixmap == GLXBadPixmap && kGLXBadCurrentWindow == GLXBadCurrentWindow &&
              kGLXBadFBConfig == GLXBadFBConfig && kGLXBadPbuffer == GLXBadPbuffer &&
              kGLXBadWindow == GLXBadWindow && kGLXBadProfileARB == GLXBadProfileARB);
static_assert(kXGLXCreateContext == X_GLXCreateContext && kXGLXDestroyContext == X_GLXDestroyContext &&
              kXGLXMakeCurrent == X_GLXMakeCurrent && kXGLXSwapBuffers == X_GLXSwapBuffers &&
              kXGLXCreatePixmap == X_GLXCreatePixmap && kXGLXCreateNewContext == X_GLXCreateNewContext &&
              kXGLXQueryContext == X_GLXQueryContext && kXGLXMakeContextCurrent == X_GLXMakeContextCurrent &&
              kXGLXCreatePbuffer == X_GLXCreatePbuffer && kXGLXDestroyPbuffer == X_GLXDestroyPbuffer &&
              kXGLXCreateGLXPixmap == X_GLXCreateGLXPixmap &&
              kXGLXDestroyGLXPixmap == X_GLXDestroyGLXPixmap && kXGLXDestroyPixmap == X_GLXDestroyPixmap &&
              kXGLXGetDrawableAttributes == X_GLXGetDrawableAttributes &&
              kXGLXCreateWindow == X_GLXCreateWindow && kXGLXDestroyWindow == X_GLXDestroyWindow &&
              kXGLXCreateContextAttribsARB == X_GLXCreateContextAttribsARB);

namespace {

struct GlxCodes {
  int major_opcode = 0, error_base = 0;
  bool present = false;
};

// The GLX extension's numbers per display (a round trip the first time); forgotten when it is closed.
std::mutex g_codes_mutex;
std::vector<std::pair<::Display*, GlxCodes>> g_known;

GlxCodes CodesFor(::Display* dpy) {
  std::lock_guard lock(g_codes_mutex);
  auto& known = g_known;
  for (auto& [d, codes] : known)
    if (d == dpy) return codes;
  GlxCodes codes;
  int first_event = 0;
  codes.present =
      egl::x11::X11().XQueryExtension(dpy, "GLX", &codes.major_opcode, &first_event, &codes.error_base) != 0;
  known.emplace_back(dpy, codes);
  return codes;
}

void Raise(::Display* dpy, unsigned char code, XID resource, unsigned char minor, int major) {
  xError error{};
  LockDisplay(dpy);
  error.type = X_Error;
  error.errorCode = code;
  error.sequenceNumber = static_cast<CARD16>(dpy->request);
  error.resourceID = static_cast<CARD32>(resource);
  error.minorCode = minor;
  error.majorCode = static_cast<CARD8>(major);
  egl::x11::X11()._XError(dpy, &error);
  UnlockDisplay(dpy);
}

}  // namespace

void ForgetErrorCodes(::Display* dpy) {
  std::lock_guard lock(g_codes_mutex);
  std::erase_if(g_known, [&](const auto& entry) { return entry.first == dpy; });
}

void RaiseCoreError(::Display* dpy, unsigned char code, XID resource, unsigned char minor) {
  if (!dpy) return;
  Raise(dpy, code, resource, minor, CodesFor(dpy).major_opcode);
}

void RaiseGlxError(::Display* dpy, unsigned char code, XID resource, unsigned char minor) {
  if (!dpy) return;
  GlxCodes codes = CodesFor(dpy);
  if (!codes.present) {
    util::LogOnce(util::LogLevel::kInfo, "glx",
                  "the X server has no GLX extension: GLX errors are not raised");
    return;
  }
  Raise(dpy, static_cast<unsigned char>(codes.error_base + code), resource, minor, codes.major_opcode);
}

}  // namespace caldera::glx
