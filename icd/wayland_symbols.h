// Every libwayland-client symbol Caldera uses: the one list wayland_loader.cpp looks up with dlsym and
// egl_wayland.cpp / wayland_shm.cpp call through (wayland_loader.h). libEGL_caldera.so.0 does not link
// libwayland-client, so it loads where Wayland is not installed; a new call needs its line here (the link
// fails with --no-undefined otherwise, which is also what catches a protocol header's inline request).
#pragma once

#define CALDERA_WAYLAND_SONAME "libwayland-client.so.0"

// Functions: F(name).
#define CALDERA_WAYLAND_FUNCTIONS(F)   \
  F(wl_display_cancel_read)            \
  F(wl_display_connect)                \
  F(wl_display_create_queue)           \
  F(wl_display_disconnect)             \
  F(wl_display_dispatch_queue_pending) \
  F(wl_display_flush)                  \
  F(wl_display_get_error)              \
  F(wl_display_get_fd)                 \
  F(wl_display_prepare_read_queue)     \
  F(wl_display_read_events)            \
  F(wl_display_roundtrip_queue)        \
  F(wl_event_queue_destroy)            \
  F(wl_proxy_add_listener)             \
  F(wl_proxy_create_wrapper)           \
  F(wl_proxy_destroy)                  \
  F(wl_proxy_get_version)              \
  F(wl_proxy_marshal_flags)            \
  F(wl_proxy_set_queue)                \
  F(wl_proxy_wrapper_destroy)

// Data: D(name), the protocol's interface descriptions (the looked-up address is the object's address).
#define CALDERA_WAYLAND_DATA(D) \
  D(wl_buffer_interface)        \
  D(wl_callback_interface)      \
  D(wl_output_interface)        \
  D(wl_registry_interface)      \
  D(wl_shm_interface)           \
  D(wl_shm_pool_interface)
