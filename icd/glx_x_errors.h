// X errors for GLX calls that fail, raised on the application's Display as the server would send them (the
// application's XSetErrorHandler sees them; Xlib's default handler prints them and exits). glvnd reports what
// it detects itself (a context or drawable no vendor owns) and tells the vendor through notifyError.
#pragma once

#include <X11/Xlib.h>

namespace caldera::glx {

// The GLX protocol's numbers this file's callers use (glxproto.h's GLXBad* errors and X_GLX* minor opcodes;
// checked against it in glx_x_errors.cpp, which can include it without GL/glx.h beside it).
enum GlxErrorCode : unsigned char {
  kGLXBadContext = 0,
  kGLXBadContextState = 1,
  kGLXBadDrawable = 2,
  kGLXBadPixmap = 3,
  kGLXBadCurrentWindow = 5,
  kGLXBadFBConfig = 9,
  kGLXBadPbuffer = 10,
  kGLXBadWindow = 12,
  kGLXBadProfileARB = 13,
};
enum GlxRequest : unsigned char {
  kXGLXCreateContext = 3,
  kXGLXDestroyContext = 4,
  kXGLXMakeCurrent = 5,
  kXGLXCopyContext = 10,
  kXGLXSwapBuffers = 11,
  kXGLXUseXFont = 12,
  kXGLXCreateGLXPixmap = 13,
  kXGLXDestroyGLXPixmap = 15,
  kXGLXCreatePixmap = 22,
  kXGLXDestroyPixmap = 23,
  kXGLXCreateNewContext = 24,
  kXGLXQueryContext = 25,
  kXGLXMakeContextCurrent = 26,
  kXGLXCreatePbuffer = 27,
  kXGLXDestroyPbuffer = 28,
  kXGLXGetDrawableAttributes = 29,
  kXGLXCreateWindow = 31,
  kXGLXDestroyWindow = 32,
  kXGLXCreateContextAttribsARB = 34,
};

// A core X error (BadMatch, BadValue, BadWindow, BadAlloc, BadAccess, ...), for the GLX request `minor`
// (glxproto.h's X_GLX* opcodes) naming `resource`.
void RaiseCoreError(::Display* dpy, unsigned char code, XID resource, unsigned char minor);
// A GLX error (glxproto.h's GLXBadContext, GLXBadDrawable, GLXBadFBConfig, GLXBadWindow, GLXBadProfileARB,
// ...), numbered from the GLX extension's error base on this display. Without the GLX extension on the server
// no GLX error number exists: said once in the log, nothing raised.
void RaiseGlxError(::Display* dpy, unsigned char code, XID resource, unsigned char minor);
// The display is being closed: its GLX numbers are forgotten (a later display may get its address).
void ForgetErrorCodes(::Display* dpy);

}  // namespace caldera::glx
