// wl_shm presentation for the read-back path (wayland_shm.h). Requests are made with wl_proxy_marshal_flags
// and the opcodes of wayland-client-protocol.h, through the loader's table (nothing here links
// libwayland-client).
#include "wayland_shm.h"

#include <poll.h>
#include <sys/mman.h>
#include <unistd.h>

#include <climits>
#include <cstring>
#include <string>

#include "util/log.h"
#include "wayland_loader.h"

namespace caldera::egl::wl {
namespace {

constexpr size_t kMaxBuffers = 3;  // one shown, one queued, one being filled

wl_proxy* P(void* p) {
  return static_cast<wl_proxy*>(p);
}

using Fn = void (*)();

}  // namespace

void ShmOutput::OnGlobal(void* data, wl_proxy* registry, uint32_t name, const char* interface, uint32_t) {
  auto* self = static_cast<ShmOutput*>(data);
  if (self->shm_ || std::strcmp(interface, "wl_shm") != 0) return;
  const wl_interface* shm = Wayland().wl_shm_interface;
  self->shm_ =
      Wayland().wl_proxy_marshal_flags(registry, WL_REGISTRY_BIND, shm, 1, 0, name, shm->name, 1u, nullptr);
}

void ShmOutput::OnRelease(void* data, wl_proxy*) {
  static_cast<Buffer*>(data)->busy = false;
}

void ShmOutput::OnFrameDone(void* data, wl_proxy* callback, uint32_t) {
  auto* self = static_cast<ShmOutput*>(data);
  Wayland().wl_proxy_destroy(callback);
  if (self->frame_ == callback) self->frame_ = nullptr;
  self->frame_done_ = true;
}

bool ShmOutput::Init() {
  initialised_ = true;
  const WaylandLibrary& wl = Wayland();
  queue_ = wl.wl_display_create_queue(display_);
  display_wrapper_ = static_cast<wl_proxy*>(wl.wl_proxy_create_wrapper(display_));
  surface_wrapper_ = static_cast<wl_proxy*>(wl.wl_proxy_create_wrapper(app_surface_));
  if (!queue_ || !display_wrapper_ || !surface_wrapper_) return false;
  wl.wl_proxy_set_queue(display_wrapper_, queue_);
  wl.wl_proxy_set_queue(surface_wrapper_, queue_);
  registry_ = wl.wl_proxy_marshal_flags(display_wrapper_, WL_DISPLAY_GET_REGISTRY, wl.wl_registry_interface,
                                        wl.wl_proxy_get_version(display_wrapper_), 0, nullptr);
  if (!registry_) return false;
  static const struct {
    void (*global)(void*, wl_proxy*, uint32_t, const char*, uint32_t);
    void (*global_remove)(void*, wl_proxy*, uint32_t);
  } kRegistryListener = {&ShmOutput::OnGlobal, &ShmOutput::OnGlobalRemove};
  wl.wl_proxy_add_listener(
      registry_, reinterpret_cast<Fn*>(const_cast<void*>(static_cast<const void*>(&kRegistryListener))),
      this);
  if (wl.wl_display_roundtrip_queue(display_, queue_) < 0 || !shm_) return false;
  buffers_.resize(kMaxBuffers);
  util::LogOnce(util::LogLevel::kInfo, "present", "Wayland: frames are read back into wl_shm buffers");
  return true;
}

ShmOutput::~ShmOutput() {
  if (!initialised_) return;
  const WaylandLibrary& wl = Wayland();
  for (Buffer& b : buffers_) DestroyBuffer(&b);
  if (frame_) wl.wl_proxy_destroy(frame_);
  if (shm_) wl.wl_proxy_destroy(shm_);  // wl_shm v1 has no destructor request
  if (registry_) wl.wl_proxy_destroy(registry_);
  if (surface_wrapper_) wl.wl_proxy_wrapper_destroy(surface_wrapper_);
  if (display_wrapper_) wl.wl_proxy_wrapper_destroy(display_wrapper_);
  wl.wl_display_flush(display_);
  if (queue_) wl.wl_event_queue_destroy(queue_);
}

bool ShmOutput::Dispatch(int ms) {
  const WaylandLibrary& wl = Wayland();
  while (wl.wl_display_prepare_read_queue(display_, queue_) != 0)
    if (wl.wl_display_dispatch_queue_pending(display_, queue_) < 0) return false;
  wl.wl_display_flush(display_);
  pollfd fd{wl.wl_display_get_fd(display_), POLLIN, 0};
  if (poll(&fd, 1, ms) > 0) {
    if (wl.wl_display_read_events(display_) < 0) return false;
  } else {
    wl.wl_display_cancel_read(display_);
  }
  return wl.wl_display_dispatch_queue_pending(display_, queue_) >= 0;
}

void ShmOutput::DestroyBuffer(Buffer* b) {
  if (b->buffer)
    Wayland().wl_proxy_marshal_flags(P(b->buffer), WL_BUFFER_DESTROY, nullptr,
                                     Wayland().wl_proxy_get_version(P(b->buffer)), WL_MARSHAL_FLAG_DESTROY);
  if (b->memory) munmap(b->memory, b->size);
  *b = {};
}

bool ShmOutput::CreateBuffer(Buffer* b, int32_t width, int32_t height) {
  const WaylandLibrary& wl = Wayland();
  size_t size = size_t(width) * size_t(height) * 4;
  int fd = memfd_create("caldera-wl-shm", MFD_CLOEXEC);
  if (fd < 0) return false;
  if (ftruncate(fd, off_t(size)) != 0) {
    close(fd);
    return false;
  }
  void* memory = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (memory == MAP_FAILED) {
    close(fd);
    return false;
  }
  wl_proxy* pool = wl.wl_proxy_marshal_flags(shm_, WL_SHM_CREATE_POOL, wl.wl_shm_pool_interface,
                                             wl.wl_proxy_get_version(shm_), 0, nullptr, fd, int32_t(size));
  close(fd);  // the compositor has its own copy once the request is sent; the pool keeps ours mapped
  if (!pool) {
    munmap(memory, size);
    return false;
  }
  wl_proxy* buffer = wl.wl_proxy_marshal_flags(pool, WL_SHM_POOL_CREATE_BUFFER, wl.wl_buffer_interface,
                                               wl.wl_proxy_get_version(pool), 0, nullptr, 0, width, height,
                                               width * 4, uint32_t(WL_SHM_FORMAT_XRGB8888));
  wl.wl_proxy_marshal_flags(pool, WL_SHM_POOL_DESTROY, nullptr, wl.wl_proxy_get_version(pool),
                            WL_MARSHAL_FLAG_DESTROY);
  if (!buffer) {
    munmap(memory, size);
    return false;
  }
  static const struct { void (*release)(void*, wl_proxy*); } kBufferListener = {&ShmOutput::OnRelease};
  wl.wl_proxy_add_listener(
      buffer, reinterpret_cast<Fn*>(const_cast<void*>(static_cast<const void*>(&kBufferListener))), b);
  b->buffer = reinterpret_cast<wl_buffer*>(buffer);
  b->memory = memory;
  b->size = size;
  b->width = width;
  b->height = height;
  b->busy = false;
  return true;
}

ShmOutput::Buffer* ShmOutput::FreeBuffer(int32_t width, int32_t height) {
  // Bounded: a compositor that holds every buffer for a second gets a frame dropped, never a hang.
  for (int waited = 0; waited <= 1000; waited += 10) {
    if (!Dispatch(0)) return nullptr;
    Buffer* empty = nullptr;
    for (Buffer& b : buffers_) {
      if (b.busy) continue;
      if (b.buffer && b.width == width && b.height == height) return &b;
      if (!empty) empty = &b;
    }
    if (empty) {
      DestroyBuffer(empty);  // a free buffer of another size (the window was resized), or none yet
      return CreateBuffer(empty, width, height) ? empty : nullptr;
    }
    if (!Dispatch(10)) return nullptr;
  }
  return nullptr;
}

bool ShmOutput::Put(const uint8_t* pixels, int32_t width, int32_t height, uint32_t stride) {
  if (!initialised_ && !Init()) {
    broken_ = true;
    util::LogOnce(util::LogLevel::kWarning, "present", "Wayland: wl_shm is unavailable: frames are dropped");
  }
  if (broken_) return false;
  Buffer* b = FreeBuffer(width, height);
  if (!b) {
    util::LogOnce(util::LogLevel::kWarning, "present", "Wayland: no free wl_shm buffer: a frame was dropped");
    return Wayland().wl_display_get_error(display_) == 0;
  }
  // GL's rows run bottom to top, the buffer's top to bottom; XRGB8888 is B, G, R, X in memory.
  auto* dst = static_cast<uint8_t*>(b->memory);
  for (int32_t y = 0; y < height; ++y) {
    const uint8_t* src = pixels + size_t(height - 1 - y) * stride;
    uint8_t* row = dst + size_t(y) * size_t(width) * 4;
    for (int32_t x = 0; x < width; ++x, src += 4, row += 4) {
      row[0] = src[2];
      row[1] = src[1];
      row[2] = src[0];
      row[3] = 0xFF;
    }
  }
  const WaylandLibrary& wl = Wayland();
  uint32_t version = wl.wl_proxy_get_version(surface_wrapper_);
  wl.wl_proxy_marshal_flags(surface_wrapper_, WL_SURFACE_ATTACH, nullptr, version, 0, b->buffer, 0, 0);
  if (version >= WL_SURFACE_DAMAGE_BUFFER_SINCE_VERSION)
    wl.wl_proxy_marshal_flags(surface_wrapper_, WL_SURFACE_DAMAGE_BUFFER, nullptr, version, 0, 0, 0,
                              INT32_MAX, INT32_MAX);
  else
    wl.wl_proxy_marshal_flags(surface_wrapper_, WL_SURFACE_DAMAGE, nullptr, version, 0, 0, 0, INT32_MAX,
                              INT32_MAX);
  if (frame_) wl.wl_proxy_destroy(frame_);
  frame_ = wl.wl_proxy_marshal_flags(surface_wrapper_, WL_SURFACE_FRAME, wl.wl_callback_interface, version, 0,
                                     nullptr);
  frame_done_ = false;
  if (frame_) {
    static const struct {
      void (*done)(void*, wl_proxy*, uint32_t);
    } kFrameListener = {&ShmOutput::OnFrameDone};
    wl.wl_proxy_add_listener(
        frame_, reinterpret_cast<Fn*>(const_cast<void*>(static_cast<const void*>(&kFrameListener))), this);
  }
  wl.wl_proxy_marshal_flags(surface_wrapper_, WL_SURFACE_COMMIT, nullptr, version, 0);
  b->busy = true;
  wl.wl_display_flush(display_);
  return wl.wl_display_get_error(display_) == 0;
}

bool ShmOutput::WaitForFrame(int32_t interval) {
  if (!initialised_ || broken_) return false;
  // Never an unbounded wait: a hidden surface gets no frame callbacks.
  for (int waited = 0; !frame_done_; waited += 5) {
    if (waited > 100 * (interval > 0 ? interval : 1) || !Dispatch(5)) return false;
  }
  return true;
}

}  // namespace caldera::egl::wl
