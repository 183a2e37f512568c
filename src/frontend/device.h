// Device and Surface internals (platform.h has the window-system-facing API).
#pragma once

#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "frontend/platform.h"
#include "pipe/backend.h"
#include "pipe/handles.h"
#include "pipe/pipe.h"

namespace caldera {

struct SharedImageStorage;  // objects.h
struct Texture;

class Device {
 public:
  explicit Device(std::unique_ptr<pipe::Backend> backend);
  ~Device();

  pipe::Backend& backend() { return *backend_; }
  pipe::HandleAllocator& handles() { return handles_; }
  // A pipe for work that belongs to no GL context (surface images). Guarded by resource_mutex().
  pipe::Pipe& resource_pipe() { return *resource_pipe_; }
  std::mutex& resource_mutex() { return resource_mutex_; }
  // Orders every pipe of the device where contexts meet (shared objects, EGL images): pipe/apply_order.h.
  pipe::ApplyOrder& apply_order() { return apply_order_; }

  std::mutex registry_mutex;
  std::set<Surface*> surfaces;
  std::set<Context*> contexts;

 private:
  std::unique_ptr<pipe::Backend> backend_;
  pipe::HandleAllocator handles_;
  std::mutex resource_mutex_;
  pipe::ApplyOrder apply_order_;  // before the pipes: they leave it as they go
  std::unique_ptr<pipe::Pipe> resource_pipe_;
};

class Surface {
 public:
  Surface(Device& device, const SurfaceDesc& desc);
  ~Surface();

  Device& device;
  SurfaceDesc desc;
  const uint64_t lifetime_id = pipe::NextLifetimeId();
  pipe::Handle color;
  pipe::Handle depth_stencil;
  pipe::Format color_format = pipe::Format::kRGBA8;
  pipe::Format depth_format = pipe::Format::kUndefined;
  int current_count = 0;  // contexts that have it bound; destruction waits for zero
  bool destroy_pending = false;

  // Window surfaces only (window_surface.cpp).
  std::unique_ptr<NativeWindow> window;
  std::unique_ptr<pipe::Presenter> presenter;  // null: frames are read back and given to `window`
  int32_t swap_interval = 1;
  // GLX_EXT_swap_control_tear (a negative interval): a frame that misses its vblank is shown at once,
  // where the presenter can (Vulkan FIFO_RELAXED), instead of waiting for the next one.
  bool late_swaps_tear = false;
  // Whether a swap showed these images' contents (EGL_EXT_buffer_age): a swap copies the default framebuffer
  // to the window and leaves it as it was, so after one the back buffer holds the previous frame (age 1);
  // new images (creation, resize) have undefined contents (age 0).
  bool swapped_since_images = false;
  std::vector<uint8_t> readback;  // the software path's frame memory
  // The software path has put a whole frame of these images into the window, so a swap with damage may put
  // only the damaged part (the rest of the window still shows what the frame before left there).
  bool readback_shown = false;
  // A pixmap surface (window is then the pixmap): single-buffered, its images are the front buffer, copied
  // into the pixmap at glFlush / glFinish / eglWaitClient / glXWaitGL (ShowFrontBuffer). Swaps do nothing.
  bool pixmap = false;
  // Double-buffered windows whose front buffer GL has named (glDrawBuffer / glReadBuffer GL_FRONT): the image
  // that holds what the window shows, made on first use (default_framebuffer.cpp); each later swap copies
  // the frame into it. `front_drawn`: rendered to since the window last showed it.
  pipe::Handle front;
  bool front_drawn = false;
  // GL_FRONT_AND_BACK (default_framebuffer.cpp): while both buffers hold the same frame, drawing to both is
  // drawing to the back one with the front defined as its copy (`front_follows_back`), made when the front is
  // next read, shown or drawn alone. `front_equals_back`: no draw has gone to one buffer alone since they
  // were last the same (a swap, the front's first copy).
  bool front_follows_back = false;
  bool front_equals_back = true;
  // Multisampled surfaces: a single-sampled image reads resolve into first (neither a Vulkan copy to memory
  // nor a GLES glReadPixels can read samples), made on first use.
  pipe::Handle resolved;
  // eglBindTexImage (surface_texture in egl_image.cpp): once a texture has been bound to the colour image,
  // the image is this shared storage (the texture holds a share; whoever lets go last destroys it), and
  // `bound_texture` is the texture it was last bound to.
  std::shared_ptr<SharedImageStorage> color_storage;
  std::weak_ptr<Texture> bound_texture;

  // Gives the surface new images of `width` x `height` (their contents undefined), recorded on `pipe` so
  // the old ones are destroyed after the work that uses them.
  void Resize(pipe::Pipe& pipe, int32_t width, int32_t height);

 private:
  void CreateImages(pipe::Pipe& pipe);
};

// glFlush / glFinish and the window systems' waits, after the work is submitted: where the context draws to
// a pixmap, a single-buffered window or a window's front buffer, the front buffer is shown
// (default_framebuffer.cpp).
void ShowFrontBuffer(Context& context);
// Puts `image` (the surface's size, GL orientation) into the window or pixmap: through the presenter, else
// read back (window_surface.cpp). False when the context is lost.
bool ShowImage(Context& context, Surface& surface, pipe::Handle image);

}  // namespace caldera
