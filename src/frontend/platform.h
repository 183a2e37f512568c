// What a window-system binding (EGL today, GLX and Android's EGL next) needs from the GL frontend:
// devices, surfaces, contexts, current-ness and GL proc lookup. No EGL or GLX types appear here, so
// icd/ stays a thin translation of the window-system API onto these calls.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pipe/device_list.h"  // plain data about Vulkan devices
#include "pipe/present.h"      // opaque window handles only: no window-system or Vulkan types

namespace caldera {

class Device;   // one per initialised display: owns the backend (Vulkan or GLES) and shared objects
class Surface;  // a drawable: pbuffer today, window later; owns its colour and depth-stencil images
class Context;  // one GL state tracker

enum class ClientApi : uint8_t { kOpenGL, kOpenGLES };

// The newest version of each API a context can have: CreateContext refuses later ones, and
// GLX_MESA_query_renderer reports these. Desktop GL has core and compatibility profiles at kNewestGL.
struct ApiVersion {
  int32_t major, minor;
  constexpr bool Admits(int32_t want_major, int32_t want_minor) const {
    return want_major < major || (want_major == major && want_minor <= minor);
  }
};
constexpr ApiVersion kNewestGL{3, 3}, kNewestES1{1, 1}, kNewestES{3, 0};

enum class BackendChoice : uint8_t { kAuto, kVulkan, kGles };

struct DeviceOpenResult {
  Device* device = nullptr;  // null on failure
  std::string error;         // why, when device is null (already logged once)
};

// Picks the backend from CALDERA_BACKEND (auto|vulkan|gles). vulkan_index >= 0 (an EGL device's display)
// opens that Vulkan physical device, with no GLES fallback unless CALDERA_BACKEND=gles asks for GLES (the
// host's driver, which has no device choice) or CALDERA_PIPE=spawn (the server chooses). `display`: the
// window system's display the device serves (the GLES backend presents to its windows through the host).
DeviceOpenResult OpenDevice(int32_t vulkan_index = -1, const pipe::NativeDisplayHandle& display = {});
// The devices EGL_EXT_device_enumeration lists (enumerated once per process). While InsideDeviceSetup() it
// is empty, and the caller reports no devices without remembering that (pipe::VulkanDevices).
const std::vector<pipe::VulkanDeviceInfo>& PhysicalDevices();
// No Vulkan instance may be made on this thread now: Caldera's own Vulkan setup runs, or Caldera was reached
// from inside a Vulkan call (a driver asking EGL through glvnd), where the loader holds its lock.
bool InsideDeviceSetup();
// This process is a caldera-server (CALDERA_PIPE=spawn's backend process): the window-system vendors loaded
// into it decline to serve, so that a driver calling EGL from inside the server's backend never re-enters
// Caldera (pipe::InsideSpawnServer says why).
bool InsideSpawnServer();
// The Vulkan physical device a device runs on (an index into PhysicalDevices' indices); -1 on GLES.
int32_t DeviceVulkanIndex(const Device& device);
void CloseDevice(Device* device);                      // destroys every surface/context still alive on it
std::string DeviceRendererName(const Device& device);  // what GL_RENDERER reports
// What GLX_MESA_query_renderer reports of a device (pipe::BackendLimits says what each field means).
struct DeviceRendererInfo {
  uint32_t pci_vendor_id = 0xFFFFFFFF, pci_device_id = 0xFFFFFFFF;
  uint32_t video_memory_mb = 0;
  bool accelerated = false, unified_memory = false;
};
DeviceRendererInfo DescribeDeviceRenderer(const Device& device);
// Whether surfaces (colour and depth-stencil) may have `samples` samples on this device: multisampled
// configs are offered only then.
bool DeviceHasSampleCount(const Device& device, int32_t samples);

// Colour formats a config may ask for. Depth-stencil is D24S8 (or the closest the device has) or none.
enum class ColorFormat : uint8_t { kRGBA8, kRGB8, kRGB565, kNone };

struct SurfaceDesc {
  int32_t width = 1;
  int32_t height = 1;
  ColorFormat color = ColorFormat::kRGBA8;
  bool depth_stencil = false;
  // With depth_stencil: whether the config has stencil bits. Without, the image's stencil aspect is never
  // used: GL has no stencil buffer there (the stencil test passes, GL_STENCIL_BITS is 0).
  bool stencil = true;
  int32_t samples = 1;
  // Windows only: no back buffer (EGL_RENDER_BUFFER EGL_SINGLE_BUFFER, a GLX config without
  // GLX_DOUBLEBUFFER). Rendering goes to the front buffer, shown at glFlush / glFinish; swaps only flush.
  bool single_buffered = false;
  // sRGB-encoded colour (EGL_GL_COLORSPACE_SRGB, GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB): 8-bit colour formats of
  // single-sampled surfaces only.
  bool srgb = false;
};

// Returns null (and sets *error) when the device cannot allocate the images.
Surface* CreatePbufferSurface(Device& device, const SurfaceDesc& desc, std::string* error);
void DestroySurface(Surface* surface);  // deferred while the surface is current somewhere
int32_t SurfaceWidth(const Surface& surface);
int32_t SurfaceHeight(const Surface& surface);
// EGL_EXT_buffer_age / GLX_EXT_buffer_age: frames since the back buffer's contents were shown — 1 after a
// swap (Caldera's default framebuffer keeps its contents across a swap), 0 for new images and non-windows.
int32_t SurfaceBufferAge(const Surface& surface);

struct ContextDesc {
  ClientApi api = ClientApi::kOpenGL;
  int32_t major = 3;
  int32_t minor = 3;
  bool core_profile = true;
  bool forward_compatible = false;
  bool debug = false;
  bool robust = false;
  bool no_error = false;
  bool lose_context_on_reset =
      false;  // reset notification strategy LOSE_CONTEXT_ON_RESET (else NO_RESET_NOTIFICATION)
  // KHR_context_flush_control (EGL_CONTEXT_RELEASE_BEHAVIOR_KHR, GLX_CONTEXT_RELEASE_BEHAVIOR_ARB): false
  // (NONE) makes releasing the context skip the implicit flush; GL_CONTEXT_RELEASE_BEHAVIOR reports it.
  bool release_flush = true;
};

// Returns null (and sets *error) for versions Caldera cannot provide. `share` joins its share group.
Context* CreateContext(Device& device, const ContextDesc& desc, Context* share, std::string* error);
void DestroyContext(Context* context);  // deferred while current on some thread

// Binds `context` to the calling thread with its draw/read surfaces (either may be null: surfaceless).
// Passing null context releases the current one (flushing its commands first, as GL requires, unless it was
// created with release behaviour NONE: ContextDesc::release_flush).
// Returns false only when the context is current on another thread.
bool MakeCurrent(Context* context, Surface* draw, Surface* read);
Context* CurrentContext();
bool ContextLost(Context* context);  // the device was lost under this context (GL_CONTEXT_LOST)
// glXCopyContext: the attribute groups `mask` names (glPushAttrib's bits) of `src` as they are now, put into
// `dst` when it is next made current. False (nothing copied) unless both are compatibility contexts, the only
// ones with attribute groups.
bool CopyContextState(Context& src, Context& dst, uint32_t mask);

// A native window as the window-system binding sees it (icd/ implements it for X11). Calls come from the
// thread that swaps.
class NativeWindow : public pipe::VblankClock {
 public:
  ~NativeWindow() override = default;
  // The window's size now; false when the window no longer exists.
  virtual bool QuerySize(int32_t* width, int32_t* height) = 0;
  // The software path: shows `pixels`, RGBA8 rows in GL order (bottom row first), `stride` bytes apart.
  // False when the window is gone.
  virtual bool PutFrame(const uint8_t* pixels, int32_t width, int32_t height, uint32_t stride) = 0;
  // The software path with a swap's damage: only the box at (x, y) (width x height, GL's bottom-up
  // coordinates) of a frame_width x frame_height frame changed since the frame the window shows; `pixels`
  // holds just that box, rows `stride` bytes apart in GL order. False when the binding cannot put part of a
  // frame (the caller then puts the whole frame) or the window is gone.
  virtual bool PutFrameRegion(const uint8_t* pixels, uint32_t stride, int32_t frame_width,
                              int32_t frame_height, int32_t x, int32_t y, int32_t width, int32_t height) {
    return false;
  }
  // What a backend needs to present natively; system kNone when only the software path can reach it.
  virtual pipe::NativeWindowHandle Handle() const = 0;
  // A swap has just handed on a frame of this size (Wayland: what wl_egl_window_get_attached_size reports).
  virtual void FrameShown(int32_t width, int32_t height) {}
  // What the window system holds in it now (X11 pixmaps: what X drew), as RGBA8 rows in GL order, tightly
  // packed; false when it cannot say.
  virtual bool GetFrame(int32_t width, int32_t height, std::vector<uint8_t>* rgba) { return false; }
};

// A window surface: desc's size is ignored (the window's own is used). The backend presents natively
// where it can, unless CALDERA_PRESENT=shm; otherwise frames are read back and given to `window`.
Surface* CreateWindowSurface(Device& device, const SurfaceDesc& desc, std::unique_ptr<NativeWindow> window,
                             std::string* error);
// A pixmap surface: single-buffered, of the pixmap's size, shown in the pixmap (NativeWindow::PutFrame) at
// glFlush, glFinish and the window systems' waits; `pixmap`'s Handle() is never used.
Surface* CreatePixmapSurface(Device& device, const SurfaceDesc& desc, std::unique_ptr<NativeWindow> pixmap,
                             std::string* error);
// glXWaitX / eglWaitNative: the current context's pixmap surfaces take what X has drawn into their pixmaps
// since (as at their creation), ordered after the context's earlier commands.
void ReloadCurrentPixmaps();
bool IsWindowSurface(const Surface& surface);
// eglCopyBuffers: the surface's colour buffer (resolved) into `target` (a pixmap of the surface's size),
// after the calling thread's context flushes. False when the size differs or the read fails.
bool CopySurfaceTo(Surface& surface, NativeWindow& target);
// The largest swap interval (EGL_MAX_SWAP_INTERVAL, GLX_MAX_SWAP_INTERVAL_EXT): interval n shows each frame
// for n vblanks. Larger ones are clamped to it, as EGL asks; past a few vblanks nobody asks for more.
constexpr int32_t kMaxSwapInterval = 8;
// Windows only; 0 = unpaced; clamped. A negative interval is its absolute value with late swaps tearing
// (GLX_EXT_swap_control_tear): a frame later than its vblank is shown at once where the presenter can.
void SetSwapInterval(Surface& surface, int32_t interval);
// Whether windows like `window` (a window of the screen, say its root) show late swaps at once when asked to
// (GLX_EXT_swap_control_tear is listed only then). False on the read-back path.
bool DeviceWindowsTearLateSwaps(Device& device, const pipe::NativeWindowHandle& window);
// How a window surface presents, for logs and tests: "vulkan-swapchain" or "readback".
const char* PresentPath(const Surface& surface);

enum class SwapResult : uint8_t { kOk, kContextLost, kWindowLost };
// eglSwapBuffers on a pbuffer is a flush; on a window it presents, and then follows the window's size (the
// next frame is drawn at the new size).
// `rects` (x, y, width, height, GL's bottom-up pixels; n_rects of them, 0: the whole frame) is the swap's
// damage, a hint the presenter may pass on to the window system.
SwapResult SwapBuffers(Context* context, Surface& surface, const int32_t* rects = nullptr,
                       int32_t n_rects = 0);
void FlushCurrent();   // glFlush on the current context, for eglWaitClient / eglWaitGL
void FinishCurrent();  // glFinish on the current context

// EGL fence syncs (EGL 1.5, EGL_KHR_fence_sync, EGL_KHR_wait_sync): a fence recorded in the current context's
// command stream, then waited for from any thread. Reference counted, so a wait outlives eglDestroySync.
struct PlatformFence;
// Records the fence and hands what the context recorded on to the device (as Mesa does: a fence another
// thread waits for must not depend on this one flushing later). Null without a current context.
PlatformFence* CreateFenceInCurrent();
void RetainFence(PlatformFence* fence);
void ReleaseFence(PlatformFence* fence);
enum class FenceStatus : uint8_t { kSignaled, kTimeout, kLost };
// Any thread, no lock held: timeout_ns 0 polls, UINT64_MAX waits for ever.
FenceStatus WaitFence(PlatformFence* fence, uint64_t timeout_ns);
// The current context's later commands wait on the device for the fence (eglWaitSync); false without one.
bool WaitFenceInCurrent(PlatformFence* fence);

// EGLImages of GL objects (EGL_KHR_image_base, EGL_KHR_gl_texture_2D_image, _cubemap_image,
// EGL_KHR_gl_renderbuffer_image; frontend/egl_image.cpp): the image shares its source's storage with every
// texture or renderbuffer that glEGLImageTarget*OES makes from it, on any context of the device. The pointer
// is the EGLImage handle.
struct PlatformImage;
enum class ImageSourceKind : uint8_t { kTexture2D, kTextureCubeFace, kRenderbuffer };
enum class ImageCreateError : uint8_t { kNone, kBadParameter, kBadMatch, kBadAccess };
// `name` in `context`'s share group; `level` for textures, `face` (0-5, GL order) for cube faces. Null with
// *error set when it cannot be made.
PlatformImage* CreateImageFromGL(Context* context, ImageSourceKind kind, uint32_t name, int32_t level,
                                 int32_t face, ImageCreateError* error);
// Whether images of one level above 0 or one cube face can be made on the device (BackendLimits::
// subresource_images): EGL_KHR_gl_texture_cubemap_image is listed only then.
bool DeviceHasSubresourceImages(const Device& device);
// eglBindTexImage / eglReleaseTexImage of a pbuffer: the current context's GL_TEXTURE_2D shares the
// surface's colour image as its level 0 (`rgba`: EGL_TEXTURE_RGBA, else RGB), until released. Bind: true
// when done or ignored (no current context); false when the surface's image cannot be a texture.
bool BindSurfaceTexImage(Surface& surface, bool rgba);
void ReleaseSurfaceTexImage(Surface& surface);
void DestroyImage(PlatformImage* image);  // siblings keep the storage

// Every GL command Caldera has an entry point for (implemented or not), core and ES; null when unknown.
void* GetGLProcAddress(const char* name);

}  // namespace caldera
