// libwayland-client, opened on first use (dlopen, RTLD_LAZY | RTLD_LOCAL) instead of linked: see
// wayland_symbols.h for what is looked up and docs/WINDOWS.md for when. The protocol header is included for
// its opcodes, listener structs and interface declarations only: its inline request functions reference
// the library directly and must not be called (requests go through wl_proxy_marshal_flags here).
#pragma once

#include <wayland-client-core.h>
#include <wayland-client-protocol.h>

#include <string>

#include "wayland_symbols.h"

namespace caldera::egl::wl {

// One pointer per symbol of wayland_symbols.h, typed from its declaration in the header.
struct WaylandLibrary {
#define CALDERA_WAYLAND_POINTER(name) decltype(&::name) name = nullptr;
  CALDERA_WAYLAND_FUNCTIONS(CALDERA_WAYLAND_POINTER)
  CALDERA_WAYLAND_DATA(CALDERA_WAYLAND_POINTER)
#undef CALDERA_WAYLAND_POINTER
};

// Opens the library and looks every symbol up, once per process (later calls return the first answer).
// Null when the library or a symbol is missing; LoadFailure() then says which.
const WaylandLibrary* LoadWaylandLibrary();
// Why LoadWaylandLibrary() failed; empty when it did not.
const std::string& LoadFailure();
// The table; only after LoadWaylandLibrary() returned it (every caller sits behind a Wayland display).
const WaylandLibrary& Wayland();

}  // namespace caldera::egl::wl
