// The EGL 1.5 implementation, independent of how it is exposed: glvnd's vendor ABI (glvnd_vendor.cpp)
// today, a plain libEGL on Android later. Signatures match the EGL entry points one to one.
#pragma once

#include <EGL/egl.h>
#include <EGL/eglext.h>

namespace caldera::egl {

// Display (egl_display.cpp)
EGLDisplay GetPlatformDisplay(EGLenum platform, void* native_display, const EGLAttrib* attrib_list);
EGLBoolean Initialize(EGLDisplay dpy, EGLint* major, EGLint* minor);
EGLBoolean Terminate(EGLDisplay dpy);
const char* QueryString(EGLDisplay dpy, EGLint name);
const char* ClientExtensions();    // eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS)
const char* PlatformExtensions();  // the platform_* subset of ClientExtensions()
EGLint GetError();
EGLBoolean BindAPI(EGLenum api);  // vendor-local API tracking, for a non-glvnd libEGL
EGLenum QueryAPI();
EGLBoolean ReleaseThread();
// EGL_MESA_query_driver: the driver's name, and its configuration as driconf XML (freed by the caller).
const char* GetDisplayDriverName(EGLDisplay dpy);
char* GetDisplayDriverConfig(EGLDisplay dpy);

// Configs (egl_config.cpp)
EGLBoolean GetConfigs(EGLDisplay dpy, EGLConfig* configs, EGLint config_size, EGLint* num_config);
EGLBoolean ChooseConfig(EGLDisplay dpy, const EGLint* attrib_list, EGLConfig* configs, EGLint config_size,
                        EGLint* num_config);
EGLBoolean GetConfigAttrib(EGLDisplay dpy, EGLConfig config, EGLint attribute, EGLint* value);

// Contexts and current-ness (egl_context.cpp)
EGLContext CreateContext(EGLDisplay dpy, EGLConfig config, EGLContext share_context,
                         const EGLint* attrib_list);
EGLBoolean DestroyContext(EGLDisplay dpy, EGLContext ctx);
EGLBoolean QueryContext(EGLDisplay dpy, EGLContext ctx, EGLint attribute, EGLint* value);
EGLBoolean MakeCurrent(EGLDisplay dpy, EGLSurface draw, EGLSurface read, EGLContext ctx);
EGLContext GetCurrentContext();
EGLSurface GetCurrentSurface(EGLint readdraw);
EGLDisplay GetCurrentDisplay();
EGLBoolean WaitClient();
EGLBoolean WaitGL();
EGLBoolean WaitNative(EGLint engine);

// Surfaces (egl_surface.cpp)
EGLSurface CreatePbufferSurface(EGLDisplay dpy, EGLConfig config, const EGLint* attrib_list);
EGLSurface CreateWindowSurface(EGLDisplay dpy, EGLConfig config, EGLNativeWindowType win,
                               const EGLint* attrib_list);
EGLSurface CreatePixmapSurface(EGLDisplay dpy, EGLConfig config, EGLNativePixmapType pixmap,
                               const EGLint* attrib_list);
EGLSurface CreatePlatformWindowSurface(EGLDisplay dpy, EGLConfig config, void* native_window,
                                       const EGLAttrib* attrib_list);
// EGL_EXT_platform_base's variants (EGLint attribute lists).
EGLSurface CreatePlatformWindowSurfaceEXT(EGLDisplay dpy, EGLConfig config, void* native_window,
                                          const EGLint* attrib_list);
EGLSurface CreatePlatformPixmapSurfaceEXT(EGLDisplay dpy, EGLConfig config, void* native_pixmap,
                                          const EGLint* attrib_list);
EGLSurface CreatePlatformPixmapSurface(EGLDisplay dpy, EGLConfig config, void* native_pixmap,
                                       const EGLAttrib* attrib_list);
EGLSurface CreatePbufferFromClientBuffer(EGLDisplay dpy, EGLenum buftype, EGLClientBuffer buffer,
                                         EGLConfig config, const EGLint* attrib_list);
EGLBoolean DestroySurface(EGLDisplay dpy, EGLSurface surface);
EGLBoolean QuerySurface(EGLDisplay dpy, EGLSurface surface, EGLint attribute, EGLint* value);
EGLBoolean SurfaceAttrib(EGLDisplay dpy, EGLSurface surface, EGLint attribute, EGLint value);
EGLBoolean BindTexImage(EGLDisplay dpy, EGLSurface surface, EGLint buffer);
EGLBoolean ReleaseTexImage(EGLDisplay dpy, EGLSurface surface, EGLint buffer);
EGLBoolean SwapBuffers(EGLDisplay dpy, EGLSurface surface);
EGLBoolean SwapBuffersWithDamage(EGLDisplay dpy, EGLSurface surface, const EGLint* rects, EGLint n_rects);
EGLBoolean SetDamageRegion(EGLDisplay dpy, EGLSurface surface, EGLint* rects, EGLint n_rects);
EGLBoolean SwapInterval(EGLDisplay dpy, EGLint interval);
EGLBoolean CopyBuffers(EGLDisplay dpy, EGLSurface surface, EGLNativePixmapType target);

// Syncs and images (egl_sync.cpp)
EGLSync CreateSync(EGLDisplay dpy, EGLenum type, const EGLAttrib* attrib_list);
EGLBoolean DestroySync(EGLDisplay dpy, EGLSync sync);
EGLint ClientWaitSync(EGLDisplay dpy, EGLSync sync, EGLint flags, EGLTime timeout);
EGLBoolean WaitSync(EGLDisplay dpy, EGLSync sync, EGLint flags);
EGLBoolean GetSyncAttrib(EGLDisplay dpy, EGLSync sync, EGLint attribute, EGLAttrib* value);
// Devices (egl_device.cpp): EGL_EXT_device_enumeration, EGL_EXT_device_query, EGL_EXT_platform_device.
EGLBoolean QueryDevicesEXT(EGLint max_devices, EGLDeviceEXT* devices, EGLint* num_devices);
const char* QueryDeviceStringEXT(EGLDeviceEXT device, EGLint name);
EGLBoolean QueryDeviceAttribEXT(EGLDeviceEXT device, EGLint attribute, EGLAttrib* value);
EGLBoolean QueryDisplayAttribEXT(EGLDisplay dpy, EGLint attribute, EGLAttrib* value);
// The Vulkan index behind an EGLDeviceEXT of ours; false with EGL_BAD_DEVICE_EXT otherwise.
bool LookupDeviceIndex(EGLDeviceEXT device, int32_t* vulkan_index);

// EGL_KHR_fence_sync / EGL_KHR_wait_sync: the same syncs with EGLint attributes (EGLSyncKHR is EGLSync).
EGLSyncKHR CreateSyncKHR(EGLDisplay dpy, EGLenum type, const EGLint* attrib_list);
EGLBoolean GetSyncAttribKHR(EGLDisplay dpy, EGLSync sync, EGLint attribute, EGLint* value);
EGLint WaitSyncKHR(EGLDisplay dpy, EGLSync sync, EGLint flags);

// EGLImages (egl_image.cpp): EGL 1.5 core and EGL_KHR_image_base (EGLint attributes; EGLImageKHR is
// EGLImage), made from GL 2D textures (EGL_KHR_gl_texture_2D_image) and renderbuffers
// (EGL_KHR_gl_renderbuffer_image).
EGLImage CreateImage(EGLDisplay dpy, EGLContext ctx, EGLenum target, EGLClientBuffer buffer,
                     const EGLAttrib* attrib_list);
EGLBoolean DestroyImage(EGLDisplay dpy, EGLImage image);
EGLImageKHR CreateImageKHR(EGLDisplay dpy, EGLContext ctx, EGLenum target, EGLClientBuffer buffer,
                           const EGLint* attrib_list);

}  // namespace caldera::egl
