// Presentation on the GLES backend: a window surface of the host's EGL on the application's X server, fed
// by a present worker. The executing context copies each frame (resolved, sRGB bytes as stored) into a
// staging texture of the host's share group and fences it; the worker, with a host context of its own
// bound to the window surface, waits for that fence, blits the texture into the surface's back buffer
// (scaled to the window's size) and swaps with the host's swap interval. EGL binds a surface to one thread
// at a time, so the worker is the only thread that ever binds it, and the GL thread never waits for the
// display. CALDERA_PRESENT_WORKER=0: the executing context waits until each frame is shown (the negative
// control of the worker).
#pragma once

#include <EGL/egl.h>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "backend/gles/gles_device.h"
#include "pipe/commands.h"
#include "pipe/present.h"

namespace caldera::gles {

class Presenter final : public pipe::Presenter {
 public:
  // Null with *why when the device's host display is not on the window's window system.
  static std::unique_ptr<Presenter> Create(Device& device, const pipe::NativeWindowHandle& window,
                                           std::string* why);
  ~Presenter() override;

  pipe::PresentStats stats() const override;
  const char* path() const override { return "host-egl"; }
  void WaitForFrameSlot(int32_t interval) override;

  enum class SlotState { kFree, kCopying, kQueued, kPresenting };
  struct Slot {
    SlotState state = SlotState::kFree;
    ImageObject image;  // GL_TEXTURE_2D of the frame's size, in the host's share group
    // Multisampled sRGB frames are resolved here first, in their own format (a resolving blit keeps the
    // format), then copied into `image` as the UNORM bits the window shows. Made on first need.
    ImageObject resolved;
    uint64_t generation = 0;         // bumped when `image` is made again (the worker re-attaches it then)
    EGLSync copied = EGL_NO_SYNC;    // after the executing context's copy; the worker waits for it
    EGLSync released = EGL_NO_SYNC;  // after the worker's blit from it; the next copy waits for it
    uint64_t sequence = 0;           // order of queueing
    pipe::CmdPresent frame{};        // interval, damage, the swap's time
    // The worker's read framebuffer of `image` (framebuffers are not shared between contexts).
    GLuint worker_fbo = 0;
    uint64_t worker_generation = 0;
  };

  // The executing context's half of a swap (its host context current): a free slot (waiting as the throttle
  // does), whose previous blit has finished on the host. Null when the presenter has stopped.
  Slot* BeginFrame(int32_t interval);
  // Hands the slot, filled and fenced (`copied`, with the copy flushed), to the worker; at interval 0 a frame
  // still waiting is dropped for it (a mailbox).
  void QueueFrame(Slot* slot, EGLSync copied, const pipe::CmdPresent& frame);
  // A slot taken by BeginFrame whose copy could not be made.
  void AbandonFrame(Slot* slot);

 private:
  Presenter(Device& device, const pipe::NativeWindowHandle& window);
  Slot* FreeSlotLocked(int32_t interval);
  void WorkerLoop();
  bool StartWorker(std::string* why);  // the worker's context and the window surface, made on its thread
  void Present(Slot& slot);
  void FinishWorker();
  void WaitFence(EGLSync fence);  // then destroys it; EGL_NO_SYNC: nothing
  // Waits on `cv` until ready() (checked under mutex_), with the device's lock released meanwhile.
  template <typename Ready>
  void WaitUnlocked(std::condition_variable& cv, Ready ready);

  Device& device_;
  const pipe::NativeWindowHandle window_;
  int32_t latency_ = 2;
  bool use_worker_ = true;
  bool pace_every_frame_ = false;  // CALDERA_VBLANK_PACING=1
  bool server_waits_ = false;      // fences are waited for on the host's queue (a GPU), else on the thread
  pipe::VblankClock* clock_ = nullptr;

  // Worker-thread state.
  EGLContext context_ = EGL_NO_CONTEXT;
  EGLSurface surface_ = EGL_NO_SURFACE;
  EGLint host_max_interval_ = 1;
  EGLint host_interval_ = -1;  // as last set on the surface (-1: never)

  mutable std::mutex mutex_;
  std::condition_variable work_cv_, free_cv_, shown_cv_;
  std::vector<Slot> slots_;
  uint64_t next_sequence_ = 1;
  uint64_t shown_sequence_ = 0;  // the newest frame the worker finished with (shown or dropped)
  bool stop_ = false;
  bool started_ = false, start_failed_ = false;
  pipe::PresentStats stats_;
  std::thread worker_;
};

}  // namespace caldera::gles
