// Every Xlib and xcb symbol Caldera uses, with the library that defines it: the one list x11_loader.cpp
// looks up with dlsym and egl_x11.cpp / glx_api.cpp call through (x11_loader.h). libEGL_caldera.so.0 and
// libGLX_caldera.so.0 do not link these libraries, so a machine without X can still load them; a new
// call to an X function needs its line here (the link fails with --no-undefined otherwise).
#pragma once

// The libraries, in the order they are opened: L(index, soname).
#define CALDERA_X11_LIBRARIES(L)   \
  L(kLibX11, "libX11.so.6")        \
  L(kLibX11Xcb, "libX11-xcb.so.1") \
  L(kLibXcb, "libxcb.so.1")        \
  L(kLibXcbPresent, "libxcb-present.so.0")

// Functions: F(library index, name).
#define CALDERA_X11_FUNCTIONS(F)                 \
  F(kLibX11, XAddExtension)                      \
  F(kLibX11, XCloseDisplay)                      \
  F(kLibX11, XDefaultScreen)                     \
  F(kLibX11, XDisplayString)                     \
  F(kLibX11, XESetCloseDisplay)                  \
  F(kLibX11, XGetVisualInfo)                     \
  F(kLibX11, XOpenDisplay)                       \
  F(kLibX11, XQueryExtension)                    \
  F(kLibX11, XSync)                              \
  F(kLibX11, _XError)                            \
  F(kLibX11Xcb, XGetXCBConnection)               \
  F(kLibXcb, xcb_connect)                        \
  F(kLibXcb, xcb_connection_has_error)           \
  F(kLibXcb, xcb_create_gc)                      \
  F(kLibXcb, xcb_create_pixmap)                  \
  F(kLibXcb, xcb_depth_next)                     \
  F(kLibXcb, xcb_depth_visuals_iterator)         \
  F(kLibXcb, xcb_disconnect)                     \
  F(kLibXcb, xcb_flush)                          \
  F(kLibXcb, xcb_format_next)                    \
  F(kLibXcb, xcb_free_gc)                        \
  F(kLibXcb, xcb_free_pixmap)                    \
  F(kLibXcb, xcb_generate_id)                    \
  F(kLibXcb, xcb_get_extension_data)             \
  F(kLibXcb, xcb_get_file_descriptor)            \
  F(kLibXcb, xcb_get_geometry)                   \
  F(kLibXcb, xcb_get_geometry_reply)             \
  F(kLibXcb, xcb_get_image)                      \
  F(kLibXcb, xcb_get_image_data)                 \
  F(kLibXcb, xcb_get_image_data_length)          \
  F(kLibXcb, xcb_get_image_reply)                \
  F(kLibXcb, xcb_get_maximum_request_length)     \
  F(kLibXcb, xcb_get_setup)                      \
  F(kLibXcb, xcb_get_window_attributes)          \
  F(kLibXcb, xcb_get_window_attributes_reply)    \
  F(kLibXcb, xcb_image_text_16)                  \
  F(kLibXcb, xcb_image_text_8)                   \
  F(kLibXcb, xcb_poll_for_event)                 \
  F(kLibXcb, xcb_poll_for_special_event)         \
  F(kLibXcb, xcb_poly_fill_rectangle)            \
  F(kLibXcb, xcb_put_image_checked)              \
  F(kLibXcb, xcb_query_font)                     \
  F(kLibXcb, xcb_query_font_char_infos)          \
  F(kLibXcb, xcb_query_font_char_infos_length)   \
  F(kLibXcb, xcb_query_font_reply)               \
  F(kLibXcb, xcb_register_for_special_xge)       \
  F(kLibXcb, xcb_request_check)                  \
  F(kLibXcb, xcb_screen_allowed_depths_iterator) \
  F(kLibXcb, xcb_screen_next)                    \
  F(kLibXcb, xcb_setup_pixmap_formats_iterator)  \
  F(kLibXcb, xcb_setup_roots_iterator)           \
  F(kLibXcb, xcb_unregister_for_special_event)   \
  F(kLibXcb, xcb_visualtype_next)                \
  F(kLibXcbPresent, xcb_present_notify_msc)      \
  F(kLibXcbPresent, xcb_present_select_input)    \
  F(kLibXcbPresent, xcb_present_select_input_checked)

// Data: D(library index, name). The looked-up address is the object's address (xcb_present_id is the
// Present extension's id, which xcb_get_extension_data and special event queues take by pointer).
#define CALDERA_X11_DATA(D) D(kLibXcbPresent, xcb_present_id)

// Optional: libxcb-shm (MIT-SHM for the read-back path, x11_shm.cpp). Opened only the first time a window
// presents by read-back, not with the others; without it that path uses plain PutImage, and nothing else
// changes. Functions: S(name); data: SD(name).
#define CALDERA_X11_SHM_LIBRARY "libxcb-shm.so.0"
#define CALDERA_X11_SHM_FUNCTIONS(S) \
  S(xcb_shm_attach_fd_checked)       \
  S(xcb_shm_detach)                  \
  S(xcb_shm_put_image_checked)       \
  S(xcb_shm_query_version)           \
  S(xcb_shm_query_version_reply)
#define CALDERA_X11_SHM_DATA(SD) SD(xcb_shm_id)
