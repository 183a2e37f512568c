// Presentation on the GLES backend (gles_present.h): the presenter, its worker, and the executing
// context's copy of each frame (Context::Apply(CmdPresent)).
#include "backend/gles/gles_present.h"

#include <pthread.h>

#include <algorithm>
#include <chrono>

#include "backend/gles/gles_context.h"
#include "backend/gles/gles_formats.h"
#include "util/clock.h"
#include "util/log.h"

namespace caldera::gles {
namespace {

// The frame's bytes as stored: an sRGB frame goes into a UNORM slot where the host copies without converting
// (GL_EXT_sRGB_write_control off), since the window surface is linear. A multisampled one gets there through
// Slot::resolved.
pipe::Format SlotFormat(const ImageObject& src, bool srgb_write_control) {
  if (!srgb_write_control) return src.format;
  if (src.format == pipe::Format::kSRGB8A8) return pipe::Format::kRGBA8;
  if (src.format == pipe::Format::kSRGB8) return pipe::Format::kRGB8;
  return src.format;
}

}  // namespace

std::unique_ptr<Presenter> Presenter::Create(Device& device, const pipe::NativeWindowHandle& window,
                                             std::string* why) {
  if (window.system == pipe::WindowSystem::kNone || device.host().window_system() != window.system) {
    *why = "the host's EGL display is surfaceless (see the log's gles-present line)";
    return nullptr;
  }
  // On a CPU renderer the window surface costs more than reading frames back: the frame is copied twice on
  // the host (into the slot, into the surface) before Mesa's software swap copies it to the X server, against
  // one glReadPixels and an MIT-SHM put (640x480 at interval 0 on llvmpipe: about 600 against 1300 frames/s).
  // CALDERA_GLES_NATIVE_PRESENT=1 takes the surface anyway (how the tests run it on llvmpipe).
  const char* forced = util::Env("CALDERA_GLES_NATIVE_PRESENT");
  if (!device.caps().accelerated && !(forced && util::EnvFlag("CALDERA_GLES_NATIVE_PRESENT", false))) {
    *why =
        "the host renders on the CPU, where reading frames back costs less than its window surface; "
        "CALDERA_GLES_NATIVE_PRESENT=1 uses the surface";
    return nullptr;
  }
  std::unique_ptr<Presenter> presenter(new Presenter(device, window));
  if (!presenter->StartWorker(why)) return nullptr;
  return presenter;
}

Presenter::Presenter(Device& device, const pipe::NativeWindowHandle& window)
    : device_(device), window_(window) {
  latency_ = pipe::FrameLatencyFromEnv();
  server_waits_ = device.caps().accelerated;
  pipe::InstallPresentExitGuard();
  use_worker_ = util::EnvFlag("CALDERA_PRESENT_WORKER", true);
  // CALDERA_VBLANK_PACING as on Vulkan: auto holds every frame at interval >= 1 on a CPU renderer (Mesa's
  // software X11 path takes a swap interval but never waits for a vblank) and, elsewhere, what the host
  // does not pace itself (intervals above its EGL_MAX_SWAP_INTERVAL); 1 every frame, above-1 only the
  // latter, 0 nothing.
  const char* pacing = util::Env("CALDERA_VBLANK_PACING");
  const std::string mode = pacing ? pacing : "auto";
  if (mode == "auto")
    pace_every_frame_ = !device.caps().accelerated;
  else if (mode != "above-1")
    pace_every_frame_ = util::EnvFlag("CALDERA_VBLANK_PACING", false);
  if (mode != "0" && mode != "off" && mode != "false") clock_ = window.clock;
  // One slot the worker presents from, one waiting, one being copied into (as on Vulkan).
  slots_.resize(size_t(std::max(latency_, 2) + 1));
}

bool Presenter::StartWorker(std::string* why) {
  worker_ = std::thread([this] {
    pthread_setname_np(pthread_self(), "caldera-present");
    WorkerLoop();
  });
  std::unique_lock lock(mutex_);
  free_cv_.wait(lock, [&] { return started_ || start_failed_; });
  if (start_failed_) {
    lock.unlock();
    worker_.join();
    *why = "the host made no window surface for it";
    return false;
  }
  util::LogOnce(
      util::LogLevel::kInfo, "present",
      std::string("host EGL window presentation (GLES backend), ") +
          (use_worker_ ? "present worker thread" : "waiting for each frame (CALDERA_PRESENT_WORKER=0)") +
          ", frame latency " + std::to_string(latency_) + ", host swap interval up to " +
          std::to_string(host_max_interval_) +
          (clock_ ? ", intervals the host does not pace held to the window system's vblank" : ""));
  return true;
}

Presenter::~Presenter() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  work_cv_.notify_all();
  if (worker_.joinable()) worker_.join();  // it shows what is queued, then frees the host objects
  pipe::WritePresentStats(stats_, path());
}

pipe::PresentStats Presenter::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

Presenter::Slot* Presenter::FreeSlotLocked(int32_t interval) {
  return pipe::TakeableFrameSlot(slots_, interval, latency_);
}

void Presenter::WaitForFrameSlot(int32_t interval) {
  std::unique_lock lock(mutex_);
  uint64_t start = util::SteadyNowNs();
  free_cv_.wait(lock, [&] { return stop_ || FreeSlotLocked(interval); });
  stats_.gl_wait_ns += util::SteadyNowNs() - start;
}

template <typename Ready>
void Presenter::WaitUnlocked(std::condition_variable& cv, Ready ready) {
  std::unique_lock lock(mutex_);
  if (ready()) return;
  uint64_t start = util::SteadyNowNs();
  // The executing thread holds the device's lock (Context::Execute), which the worker takes for its host
  // calls: it waits without it.
  lock.unlock();
  device_.execute_mutex().unlock();
  lock.lock();
  cv.wait(lock, ready);
  stats_.gl_wait_ns += util::SteadyNowNs() - start;
  lock.unlock();
  device_.execute_mutex().lock();
}

Presenter::Slot* Presenter::BeginFrame(int32_t interval) {
  Slot* slot = nullptr;
  EGLSync released = EGL_NO_SYNC;
  for (;;) {
    WaitUnlocked(free_cv_, [&] { return stop_ || FreeSlotLocked(interval); });
    std::lock_guard lock(mutex_);
    if (stop_) return nullptr;
    slot = FreeSlotLocked(interval);
    if (!slot) continue;  // another context of this window took it while this one took the device's lock
    slot->state = SlotState::kCopying;
    released = slot->released;
    slot->released = EGL_NO_SYNC;
    break;
  }
  // The worker's blit from this texture must be done before the copy overwrites it.
  WaitFence(released);
  return slot;
}

void Presenter::WaitFence(EGLSync fence) {
  if (fence == EGL_NO_SYNC) return;
  HostEgl& host = device_.host();
  // A GPU waits on its own queue (eglWaitSync). A CPU renderer's server wait returns at once (llvmpipe's
  // contexts rasterize on their own threads), and the two contexts would then touch the slot together.
  if (!server_waits_ || !host.ServerWait(fence)) host.ClientWait(fence, UINT64_MAX);
  host.DestroySync(fence);
}

void Presenter::AbandonFrame(Slot* slot) {
  std::lock_guard lock(mutex_);
  slot->state = SlotState::kFree;
  free_cv_.notify_all();
}

void Presenter::QueueFrame(Slot* slot, EGLSync copied, const pipe::CmdPresent& frame) {
  std::vector<EGLSync> dropped;
  uint64_t sequence = 0;
  {
    std::lock_guard lock(mutex_);
    ++stats_.frames_queued;
    if (frame.interval == 0) {  // mailbox: the newest frame replaces one still waiting
      for (auto& s : slots_) {
        if (s.state != SlotState::kQueued) continue;
        dropped.push_back(s.copied);
        s.copied = EGL_NO_SYNC;
        s.state = SlotState::kFree;
        ++stats_.frames_dropped;
      }
    }
    slot->copied = copied;
    slot->frame = frame;
    slot->sequence = sequence = next_sequence_++;
    slot->state = SlotState::kQueued;
  }
  for (EGLSync s : dropped) device_.host().DestroySync(s);
  free_cv_.notify_all();
  work_cv_.notify_all();
  if (!use_worker_)  // the negative control: the executing thread waits until the frame is shown
    WaitUnlocked(shown_cv_, [&] { return stop_ || shown_sequence_ >= sequence; });
}

void Presenter::WorkerLoop() {
  std::string why;
  bool made = false;
  {
    // Host calls of every thread go one at a time (Device::execute_mutex): Mesa's llvmpipe crashes when
    // two contexts of its share group blit at once.
    std::lock_guard device_lock(device_.execute_mutex());
    context_ = device_.host().CreateContext(device_.root(), &why);
    if (context_ != EGL_NO_CONTEXT)
      surface_ = device_.host().CreateWindowSurface(window_, &host_max_interval_, &why);
    made = surface_ != EGL_NO_SURFACE && device_.host().MakeCurrentWithSurface(context_, surface_);
  }
  if (!made) {
    util::LogOnce(util::LogLevel::kWarning, "gles-present", "no host window surface: " + why);
    FinishWorker();
    std::lock_guard lock(mutex_);
    start_failed_ = true;
    free_cv_.notify_all();
    return;
  }
  {
    std::lock_guard lock(mutex_);
    started_ = true;
  }
  free_cv_.notify_all();
  for (;;) {
    Slot* slot = nullptr;
    std::vector<EGLSync> dropped;
    {
      std::unique_lock lock(mutex_);
      work_cv_.wait(lock, [&] {
        return stop_ || std::any_of(slots_.begin(), slots_.end(),
                                    [](const Slot& s) { return s.state == SlotState::kQueued; });
      });
      for (auto& s : slots_)
        if (s.state == SlotState::kQueued && (!slot || s.sequence < slot->sequence)) slot = &s;
      if (!slot) break;  // stopped with nothing queued
      slot->state = SlotState::kPresenting;
    }
    if (pipe::BeginPresentWork()) {
      Present(*slot);
      pipe::EndPresentWork();
    } else {  // the process is exiting: the host driver may be gone
      std::lock_guard lock(mutex_);
      ++stats_.frames_dropped;
    }
    {
      std::lock_guard lock(mutex_);
      slot->state = SlotState::kFree;
      shown_sequence_ = std::max(shown_sequence_, slot->sequence);
    }
    free_cv_.notify_all();
    shown_cv_.notify_all();
  }
  FinishWorker();
}

void Presenter::Present(Slot& slot) {
  HostEgl& host = device_.host();
  const HostGL& gl = device_.gl();
  std::unique_lock device_lock(device_.execute_mutex());
  WaitFence(slot.copied);
  slot.copied = EGL_NO_SYNC;
  const pipe::CmdPresent& frame = slot.frame;
  // The host paces what it can (up to EGL_MAX_SWAP_INTERVAL); the rest is held to the vblank clock below.
  EGLint interval = std::min<EGLint>(frame.interval, host_max_interval_);
  if (interval != host_interval_ && host.SwapInterval(interval)) host_interval_ = interval;
  EGLint width = 0, height = 0;
  if (window_.foreign) {
    // Wayland: the client sizes its buffers. The host's next buffer is the frame's size (its surface size
    // follows only once that buffer is made).
    window_.foreign->Resize(GLint(slot.image.width), GLint(slot.image.height));
    width = GLint(slot.image.width), height = GLint(slot.image.height);
  } else if (!host.QuerySurfaceSize(surface_, &width, &height) || width <= 0 || height <= 0) {
    std::lock_guard lock(mutex_);
    ++stats_.frames_dropped;
    return;
  }
  if (!slot.worker_fbo) gl.GenFramebuffers(1, &slot.worker_fbo);
  gl.BindFramebuffer(GL_READ_FRAMEBUFFER, slot.worker_fbo);
  if (slot.worker_generation != slot.generation) {
    gl.FramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, slot.image.texture, 0);
    slot.worker_generation = slot.generation;
  }
  gl.BindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  const auto src_w = GLint(slot.image.width), src_h = GLint(slot.image.height);
  const bool same_size = src_w == width && src_h == height;
  // GL's rows are bottom-up on both sides: no flip. A window that changed size since the frame was drawn
  // gets it scaled (the next frame is drawn at the new size).
  gl.BlitFramebuffer(0, 0, src_w, src_h, 0, 0, width, height, GL_COLOR_BUFFER_BIT,
                     same_size ? GL_NEAREST : GL_LINEAR);
  slot.released = host.CreateFence();
  EGLint rects[pipe::CmdPresent::kMaxDamageRects * 4];
  EGLint n_rects = same_size ? frame.damage_count : 0;
  for (EGLint i = 0; i < n_rects; ++i)
    for (int k = 0; k < 4; ++k) rects[4 * i + k] = frame.damage[i][k];
  gl.Flush();
  device_lock.unlock();
  bool shown = host.SwapBuffers(surface_, rects, n_rects);
  if (!shown) {
    EGLint error = host.LastError();
    util::LogOnce(util::LogLevel::kWarning, "gles-present",
                  "the host's eglSwapBuffers failed (0x" + std::to_string(error) + "): frames are dropped");
    std::lock_guard lock(mutex_);
    ++stats_.frames_dropped;
    if (error == EGL_BAD_NATIVE_WINDOW || error == EGL_BAD_SURFACE) stats_.window_lost = true;
    return;
  }
  bool hold = clock_ && frame.interval > 0 && (pace_every_frame_ || frame.interval > host_max_interval_);
  bool paced = hold && clock_->WaitForVblank(frame.interval);
  std::lock_guard lock(mutex_);
  ++stats_.frames_presented;
  if (n_rects > 0) ++stats_.damage_regions;
  if (paced) ++stats_.paced;
  stats_.AddLatency(util::SteadyNowNs() - frame.recorded_ns);
}

void Presenter::FinishWorker() {
  HostEgl& host = device_.host();
  std::lock_guard device_lock(device_.execute_mutex());
  if (context_ != EGL_NO_CONTEXT) {
    // Frames still waiting were shown above; what the slots hold goes with the worker's context current
    // (the textures are the share group's, the framebuffers this context's).
    if (host.MakeCurrentWithSurface(context_, EGL_NO_SURFACE)) {
      for (auto& s : slots_) {
        if (s.worker_fbo) device_.gl().DeleteFramebuffers(1, &s.worker_fbo);
        if (s.image.texture) device_.gl().DeleteTextures(1, &s.image.texture);
        if (s.resolved.texture) device_.gl().DeleteTextures(1, &s.resolved.texture);
        s.worker_fbo = s.image.texture = s.resolved.texture = 0;
      }
      device_.gl().Finish();
    }
    for (auto& s : slots_) {
      host.DestroySync(s.copied);
      host.DestroySync(s.released);
      s.copied = s.released = EGL_NO_SYNC;
    }
    host.MakeCurrentWithSurface(EGL_NO_CONTEXT, EGL_NO_SURFACE);
  }
  host.DestroySurface(surface_);
  host.DestroyContext(context_);
  surface_ = EGL_NO_SURFACE;
  context_ = EGL_NO_CONTEXT;
}

// The executing context's half of a swap: the default framebuffer's colour image (resolved if multisampled)
// is copied into a staging slot, fenced and flushed, and handed to the worker.
void Context::OnPresent(const pipe::CmdPresent& c) {
  auto* presenter = static_cast<Presenter*>(c.presenter);
  ImageObject* src = device_.images.Get(c.image.image);
  if (!presenter || !src || !src->texture) return;
  Presenter::Slot* slot = presenter->BeginFrame(c.interval);
  if (!slot) return;
  const bool srgb_control = device_.has_srgb_write_control();
  pipe::Format format = SlotFormat(*src, srgb_control);
  ImageObject& img = slot->image;
  if (!img.texture || img.width != src->width || img.height != src->height || img.format != format) {
    if (img.texture) gl_.DeleteTextures(1, &img.texture);
    img = {};
    img.format = format;
    img.host = ToHostFormat(format);
    img.width = src->width;
    img.height = src->height;
    gl_.GenTextures(1, &img.texture);
    BindScratchTexture(img);
    gl_.TexStorage2D(GL_TEXTURE_2D, 1, img.host.internal, GLsizei(img.width), GLsizei(img.height));
    ++slot->generation;
  }
  if (!present_fbo_) gl_.GenFramebuffers(1, &present_fbo_);
  state_.BindFramebuffer(GL_READ_FRAMEBUFFER, SingleImageFramebuffer(*src, c.image));
  state_.BindFramebuffer(GL_DRAW_FRAMEBUFFER, present_fbo_);
  // Multisampled sRGB into a UNORM slot: a resolving blit must keep the format, so it resolves into
  // Slot::resolved, which is then read instead of the frame.
  const bool resolve_first = src->target != GL_TEXTURE_2D && format != src->format;
  if (resolve_first) {
    ImageObject& mid = slot->resolved;
    if (!mid.texture || mid.width != src->width || mid.height != src->height || mid.format != src->format) {
      if (mid.texture) gl_.DeleteTextures(1, &mid.texture);
      mid = {};
      mid.format = src->format;
      mid.host = src->host;
      mid.width = src->width;
      mid.height = src->height;
      gl_.GenTextures(1, &mid.texture);
      BindScratchTexture(mid);
      gl_.TexStorage2D(GL_TEXTURE_2D, 1, mid.host.internal, GLsizei(mid.width), GLsizei(mid.height));
    }
    gl_.FramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, mid.texture, 0);
  } else {
    gl_.FramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, img.texture, 0);
  }
  // A blit takes the scissor test and write masks: a whole, unmasked copy; the next draw re-applies its own.
  constexpr int32_t kNoScissor[4] = {};
  state_.Scissor(false, kNoScissor);
  state_.Enable(GL_RASTERIZER_DISCARD, false);
  state_.ColorMask(0, 0xF);
  fixed_dirty_ = targets_dirty_ = true;
  if (srgb_control && host_srgb_write_) {           // stored bytes, not converted ones
    constexpr GLenum kFramebufferSrgbExt = 0x8DB9;  // GL_FRAMEBUFFER_SRGB_EXT
    gl_.Disable(kFramebufferSrgbExt);
    host_srgb_write_ = false;
  } else if (!srgb_control && pipe::Info(src->format).type == pipe::FormatType::kSrgb) {
    util::LogOnce(util::LogLevel::kWarning, "gles-present",
                  "the host lacks GL_EXT_sRGB_write_control: sRGB windows are shown decoded");
  }
  const auto w = GLint(src->width), h = GLint(src->height);
  gl_.BlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  if (resolve_first) {
    // The resolved frame's stored bytes into the slot (sRGB writes are off, as for a single-sampled frame).
    if (!present_read_fbo_) gl_.GenFramebuffers(1, &present_read_fbo_);
    state_.BindFramebuffer(GL_READ_FRAMEBUFFER, present_read_fbo_);
    gl_.FramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, slot->resolved.texture,
                             0);
    gl_.FramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, img.texture, 0);
    gl_.BlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  }
  EGLSync copied = device_.host().CreateFence();
  gl_.Flush();  // the worker's context waits for the fence: it must reach the host's queue
  if (copied == EGL_NO_SYNC) {
    util::LogOnce(util::LogLevel::kError, "gles-present",
                  "the host made no fence for a frame: it is dropped");
    presenter->AbandonFrame(slot);
    return;
  }
  presenter->QueueFrame(slot, copied, c);
}

}  // namespace caldera::gles
