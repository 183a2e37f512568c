// The X libraries, opened on first use (dlopen, RTLD_LAZY | RTLD_LOCAL) instead of linked: see
// x11_symbols.h for what is looked up and docs/WINDOWS.md for when. Includes the X headers for their
// types; keep it out of files that do not talk to X (Xlib.h defines macros such as None, Bool, Status).
#pragma once

#include <X11/Xlib-xcb.h>
#include <X11/Xlib.h>
#include <X11/Xproto.h>
#include <X11/Xutil.h>
#include <xcb/present.h>
#include <xcb/shm.h>
#include <xcb/xcb.h>

#include <string>

#include "x11_symbols.h"

// Xlib's internal error delivery and close-display hook, as Xlibint.h declares them (only glx_x_errors.cpp
// includes that header: its macros collide with the C++ library's).
extern "C" int _XError(Display* dpy, xError* error);
extern "C" int (*XESetCloseDisplay(Display* dpy, int extension,
                                   int (*proc)(Display*, XExtCodes*)))(Display*, XExtCodes*);

namespace caldera::egl::x11 {

// One pointer per symbol of x11_symbols.h, typed from its declaration in the headers.
struct X11Library {
#define CALDERA_X11_POINTER(library, name) decltype(&::name) name = nullptr;
  CALDERA_X11_FUNCTIONS(CALDERA_X11_POINTER)
  CALDERA_X11_DATA(CALDERA_X11_POINTER)
#undef CALDERA_X11_POINTER
};

// The optional libxcb-shm (x11_symbols.h, CALDERA_X11_SHM_*).
struct X11ShmLibrary {
#define CALDERA_X11_SHM_POINTER(name) decltype(&::name) name = nullptr;
  CALDERA_X11_SHM_FUNCTIONS(CALDERA_X11_SHM_POINTER)
  CALDERA_X11_SHM_DATA(CALDERA_X11_SHM_POINTER)
#undef CALDERA_X11_SHM_POINTER
};

// Opens the libraries and looks every symbol up, once per process (later calls return the first
// answer). Null when a library or symbol is missing; LoadFailure() then says which.
const X11Library* LoadX11Library();
// Why LoadX11Library() failed ("libxcb-present.so.0 cannot be opened: ..."); empty when it did not.
const std::string& LoadFailure();
// The table; only after LoadX11Library() returned it (every caller sits behind an X display, which
// cannot exist otherwise).
const X11Library& X11();
// Opens libxcb-shm once per process (after LoadX11Library succeeded; from CALDERA_TEST_X11_LIB_DIR where
// set). Null when it or a symbol is missing, with *why set (the first answer is kept).
const X11ShmLibrary* LoadX11ShmLibrary(std::string* why);

}  // namespace caldera::egl::x11
