// Window surfaces: the default framebuffer is Caldera's own images (as for pbuffers); a swap hands the
// colour image to the backend's presenter (CmdPresent), or reads it back and gives it to the window-system
// binding (the software path: backends without native presentation, devices that cannot present to the
// window, CALDERA_PRESENT=shm). After presenting, the surface follows the window's size.
#include <algorithm>
#include <chrono>
#include <cstring>

#include "frontend/compat/hooks.h"
#include "frontend/context.h"
#include "frontend/default_framebuffer.h"
#include "frontend/device.h"
#include "frontend/hud.h"
#include "pipe/texels.h"
#include "util/clock.h"
#include "util/log.h"

namespace caldera {
namespace {

bool ForceReadback() {
  const char* v = util::Env("CALDERA_PRESENT");
  if (!v || !std::strcmp(v, "auto")) return false;
  if (!std::strcmp(v, "shm") || !std::strcmp(v, "readback")) return true;
  util::LogOnce(util::LogLevel::kWarning, "CALDERA_PRESENT",
                std::string("unknown value '") + v + "', using auto");
  return false;
}

// An upload of the pixmap's contents into the surface's colour image; false when the binding cannot read it
// or the image cannot take it (multisampled).
bool PixmapContentsUpload(Surface& surface, pipe::CmdImageUpload* cmd, std::vector<uint8_t>* texels) {
  const int32_t w = surface.desc.width, h = surface.desc.height;
  if (!surface.color.valid() || surface.desc.samples > 1) return false;
  std::vector<uint8_t> rgba;
  if (!surface.window->GetFrame(w, h, &rgba) || rgba.size() < size_t(w) * size_t(h) * 4) return false;
  const pipe::Format format = surface.color_format;
  if (format == pipe::Format::kRGBA8 || format == pipe::Format::kSRGB8A8) {
    *texels = std::move(rgba);  // the pixmap's bytes as stored
  } else {
    const uint32_t size = pipe::TexelSize(format);
    texels->resize(size_t(w) * size_t(h) * size);
    for (size_t i = 0; i < size_t(w) * size_t(h); ++i) {
      const float v[4] = {rgba[4 * i] / 255.0f, rgba[4 * i + 1] / 255.0f, rgba[4 * i + 2] / 255.0f,
                          rgba[4 * i + 3] / 255.0f};
      pipe::EncodeFloat(format, v, texels->data() + i * size);
    }
  }
  *cmd = pipe::CmdImageUpload{surface.color, 0, 0, 0, uint32_t(w), uint32_t(h), uint32_t(texels->size())};
  return true;
}

// The surface's `image` as RGBA8 rows (GL order) in surface.readback, read through `pipe`: the whole
// image, or the w x h box at (x, y).
bool ReadBack(pipe::Pipe& pipe, Surface& surface, pipe::Handle image, int32_t x = 0, int32_t y = 0,
              int32_t w = -1, int32_t h = -1) {
  if (w < 0) w = surface.desc.width, h = surface.desc.height;
  surface.readback.resize(size_t(w) * size_t(h) * 4);
  pipe::CmdReadPixels cmd{};
  cmd.image = ResolvedForRead(pipe, surface, {image, 0, 0});
  cmd.layout = pipe::ReadLayout::kRGBA8;
  cmd.x = x;
  cmd.y = y;
  cmd.width = w;
  cmd.height = h;
  cmd.row_stride = uint32_t(w) * 4;
  cmd.dst = surface.readback.data();
  return pipe.RecordAndWait(cmd);
}

// The software path: the frame comes back and the binding puts it in the window (or the pixmap).
bool PutByReadback(Context& context, Surface& surface, pipe::Handle image) {
  if (!ReadBack(context.pipe(), surface, image)) return false;
  surface.window->PutFrame(surface.readback.data(), surface.desc.width, surface.desc.height,
                           uint32_t(surface.desc.width) * 4);
  return true;
}

// The swap's damage rectangles clipped to the surface (x, y, width, height; empty ones and those outside
// dropped) into `out` (up to `max_out`), their count (also past max_out), and their bounding box
// (x0, y0, x1, y1) in `box`.
int32_t ClipDamage(const Surface& surface, const int32_t* rects, int32_t n_rects, int32_t (*out)[4],
                   int32_t max_out, int32_t box[4]) {
  int32_t w = surface.desc.width, h = surface.desc.height;
  box[0] = w, box[1] = h, box[2] = 0, box[3] = 0;
  int32_t n = 0;
  for (int32_t i = 0; i < n_rects; ++i) {
    const int32_t* r = rects + 4 * i;
    int32_t x0 = std::max(r[0], 0), y0 = std::max(r[1], 0);
    int32_t x1 = std::min(r[0] + std::max(r[2], 0), w), y1 = std::min(r[1] + std::max(r[3], 0), h);
    if (x0 >= x1 || y0 >= y1) continue;
    box[0] = std::min(box[0], x0), box[1] = std::min(box[1], y0);
    box[2] = std::max(box[2], x1), box[3] = std::max(box[3], y1);
    if (n < max_out) out[n][0] = x0, out[n][1] = y0, out[n][2] = x1 - x0, out[n][3] = y1 - y0;
    ++n;
  }
  return n;
}

// The swap's damage into the present record; more rectangles than the record holds become their bounding
// box. Nothing left (all empty or outside): the whole frame.
void SetDamage(pipe::CmdPresent* cmd, const Surface& surface, const int32_t* rects, int32_t n_rects) {
  int32_t box[4];
  int32_t n = ClipDamage(surface, rects, n_rects, cmd->damage, pipe::CmdPresent::kMaxDamageRects, box);
  if (n > pipe::CmdPresent::kMaxDamageRects) {
    int32_t* d = cmd->damage[0];
    d[0] = box[0], d[1] = box[1], d[2] = box[2] - box[0], d[3] = box[3] - box[1];
    n = 1;
  }
  cmd->damage_count = n;
}

// CALDERA_READBACK_DAMAGE=0 turns the read-back path's damage off (the negative control: whole frames).
bool ReadbackDamageEnabled() {
  static const bool enabled = util::EnvFlag("CALDERA_READBACK_DAMAGE", true);
  return enabled;
}

// The read-back path with the swap's damage: only the damage's bounding box is read back and put into the
// window, which still shows this surface's previous frame outside it (the application says nothing changed
// there). False when it does not apply (no damage, the whole frame, a window that does not show the previous
// frame, a binding that cannot put part of a frame): the caller puts the whole frame.
bool PutDamageByReadback(Context& context, Surface& surface, const int32_t* rects, int32_t n_rects) {
  if (!ReadbackDamageEnabled() || !rects || n_rects <= 0 || !surface.readback_shown) return false;
  int32_t box[4];
  if (ClipDamage(surface, rects, n_rects, nullptr, 0, box) == 0) return false;  // nothing left: whole frame
  const int32_t w = box[2] - box[0], h = box[3] - box[1];
  if (w == surface.desc.width && h == surface.desc.height) return false;
  if (!ReadBack(context.pipe(), surface, surface.color, box[0], box[1], w, h)) return false;
  return surface.window->PutFrameRegion(surface.readback.data(), uint32_t(w) * 4, surface.desc.width,
                                        surface.desc.height, box[0], box[1], w, h);
}

bool PresentByReadback(Context& context, Surface& surface, const int32_t* rects, int32_t n_rects) {
  if (!PutDamageByReadback(context, surface, rects, n_rects)) {
    if (!PutByReadback(context, surface, surface.color)) return false;
    surface.readback_shown = true;
  }
  // Nothing else paces this path: at interval >= 1 the GL thread waits for the vblank itself.
  if (surface.swap_interval > 0) surface.window->WaitForVblank(surface.swap_interval);
  return true;
}

}  // namespace

Surface* CreateWindowSurface(Device& device, const SurfaceDesc& desc, std::unique_ptr<NativeWindow> window,
                             std::string* error) {
  SurfaceDesc d = desc;
  if (!window || !window->QuerySize(&d.width, &d.height)) {
    if (error) *error = "not a window";
    return nullptr;
  }
  // Images of at least 1x1 while the window is 0x0 (frames are dropped then).
  d.width = d.width > 0 ? d.width : 1;
  d.height = d.height > 0 ? d.height : 1;
  auto max = static_cast<int32_t>(device.backend().caps().max_texture_size);
  if (d.width > max || d.height > max) {
    if (error) *error = "window larger than the largest image";
    return nullptr;
  }
  std::unique_ptr<pipe::Presenter> presenter;
  pipe::NativeWindowHandle handle = window->Handle();
  if (ForceReadback()) {
    util::LogOnce(util::LogLevel::kInfo, "present",
                  "CALDERA_PRESENT=shm: frames are read back into the window");
  } else if (handle.system != pipe::WindowSystem::kNone) {
    std::string why;
    presenter = device.backend().CreatePresenter(handle, &why);
    if (!presenter)  // a slower path than the user may expect: said once, by default
      util::LogOnce(util::LogLevel::kWarning, "present",
                    "no native presentation (" + why + "): frames are read back into the window");
  }
  auto* surface = new Surface(device, d);
  surface->window = std::move(window);
  surface->presenter = std::move(presenter);
  std::lock_guard lock(device.registry_mutex);
  device.surfaces.insert(surface);
  return surface;
}

Surface* CreatePixmapSurface(Device& device, const SurfaceDesc& desc, std::unique_ptr<NativeWindow> pixmap,
                             std::string* error) {
  SurfaceDesc d = desc;
  if (!pixmap || !pixmap->QuerySize(&d.width, &d.height) || d.width <= 0 || d.height <= 0) {
    if (error) *error = "not a pixmap";
    return nullptr;
  }
  auto max = static_cast<int32_t>(device.backend().caps().max_texture_size);
  if (d.width > max || d.height > max) {
    if (error) *error = "pixmap larger than the largest image";
    return nullptr;
  }
  auto* surface = new Surface(device, d);
  surface->window = std::move(pixmap);
  surface->pixmap = true;
  // GL draws over what the pixmap holds: its contents become the surface's (GLX 1.4 §2.2: the pixmap is the
  // GLX pixmap's front buffer).
  pipe::CmdImageUpload upload{};
  std::vector<uint8_t> texels;
  if (PixmapContentsUpload(*surface, &upload, &texels))
    RecordDeviceWide(device, [&](pipe::Pipe& p) { p.Record(upload, texels.data(), texels.size()); });
  std::lock_guard lock(device.registry_mutex);
  device.surfaces.insert(surface);
  return surface;
}

bool ShowImage(Context& context, Surface& surface, pipe::Handle image) {
  if (!surface.window) return true;
  if (surface.pixmap || !surface.presenter) {
    int32_t width = 0, height = 0;
    if (!surface.pixmap && (!surface.window->QuerySize(&width, &height) || width <= 0 || height <= 0))
      return true;  // gone or unmapped: nothing to show it in
    return PutByReadback(context, surface, image);
  }
  // Front-buffer rendering through the presenter: throttled like a swap, never resizing (GL resizes the
  // default framebuffer at swaps only).
  pipe::Pipe& pipe = context.pipe();
  if (!pipe.Submit()) return false;
  surface.presenter->WaitForFrameSlot(surface.swap_interval);
  pipe::CmdPresent present{
      {image, 0, 0}, surface.presenter.get(), surface.swap_interval, util::SteadyNowNs()};
  present.late_swaps_tear = surface.late_swaps_tear;
  pipe.Record(present);
  return pipe.EndFrame();
}

bool CopySurfaceTo(Surface& surface, NativeWindow& target) {
  int32_t w = 0, h = 0;
  if (!target.QuerySize(&w, &h) || w != surface.desc.width || h != surface.desc.height) return false;
  bool read = false;
  if (Context* context = CurrentContext()) {
    if (context->compat_hooks) compat::DrawPendingBatch(*context);
    context->pipe().Record(pipe::CmdFlush{});  // the implicit glFlush
    read = ReadBack(context->pipe(), surface, surface.color);
  } else {
    // No context: what earlier contexts flushed, read on the device's own stream.
    std::lock_guard lock(surface.device.resource_mutex());
    read = ReadBack(surface.device.resource_pipe(), surface, surface.color);
    surface.device.resource_pipe().ReleaseThread();
  }
  return read && target.PutFrame(surface.readback.data(), w, h, uint32_t(w) * 4);
}

bool IsWindowSurface(const Surface& surface) {
  return surface.window != nullptr;
}

void SetSwapInterval(Surface& surface, int32_t interval) {
  surface.late_swaps_tear = interval < 0;
  int64_t frames = interval < 0 ? -int64_t(interval) : interval;  // INT32_MIN has no int32_t opposite
  surface.swap_interval = int32_t(frames > kMaxSwapInterval ? kMaxSwapInterval : frames);
}

bool DeviceWindowsTearLateSwaps(Device& device, const pipe::NativeWindowHandle& window) {
  return !ForceReadback() && device.backend().WindowTearsLateSwaps(window);
}

const char* PresentPath(const Surface& surface) {
  if (!surface.window) return "none";
  return surface.presenter ? "vulkan-swapchain" : "readback";
}

void ReloadCurrentPixmaps() {
  Context* context = CurrentContext();
  if (!context) return;
  if (context->compat_hooks) compat::DrawPendingBatch(*context);
  Surface* draw = context->draw_surface();
  Surface* read = context->read_surface();
  for (Surface* surface : {draw, read != draw ? read : nullptr}) {
    if (!surface || !surface->pixmap) continue;
    pipe::CmdImageUpload cmd{};
    std::vector<uint8_t> texels;
    if (PixmapContentsUpload(*surface, &cmd, &texels))
      context->pipe().Record(cmd, texels.data(), texels.size());
  }
}

SwapResult SwapBuffers(Context* context, Surface& surface, const int32_t* rects, int32_t n_rects) {
  if (!context) return SwapResult::kContextLost;
  if (context->compat_hooks) compat::DrawPendingBatch(*context);  // glBegin/glEnd vertices not drawn yet
  pipe::Pipe& pipe = context->pipe();
  // Pbuffers and pixmaps (single-buffered: a swap has no effect on them) only flush.
  if (!surface.window || surface.pixmap) return pipe.EndFrame() ? SwapResult::kOk : SwapResult::kContextLost;
  int32_t width = 0, height = 0;
  if (!surface.window->QuerySize(&width, &height)) {
    pipe.Submit();
    return SwapResult::kWindowLost;
  }
  if (surface.desc.single_buffered) {  // no back buffer to swap: the swap's implicit flush shows the front
    if (!pipe.Submit()) return SwapResult::kContextLost;
    return ShowImage(*context, surface, surface.color) ? SwapResult::kOk : SwapResult::kContextLost;
  }
  if (width > 0 && height > 0)
    if (Hud* hud = context->HudForSwap()) hud->OnSwap(*context, surface);
  if (surface.presenter) {
    // Everything recorded so far goes to the backend first, then the throttle waits with no lock held.
    if (!pipe.Submit()) return SwapResult::kContextLost;
    surface.presenter->WaitForFrameSlot(surface.swap_interval);
    pipe::CmdPresent present{
        {surface.color, 0, 0}, surface.presenter.get(), surface.swap_interval, util::SteadyNowNs()};
    present.late_swaps_tear = surface.late_swaps_tear;
    if (rects && n_rects > 0) SetDamage(&present, surface, rects, n_rects);
    pipe.Record(present);
    if (!pipe.EndFrame()) return SwapResult::kContextLost;
    if (surface.presenter->stats().window_lost) return SwapResult::kWindowLost;
  } else if (width > 0 && height > 0) {
    if (!PresentByReadback(*context, surface, rects, n_rects)) return SwapResult::kContextLost;
  } else {
    pipe.Submit();
  }
  if (width > 0 && height > 0) surface.window->FrameShown(surface.desc.width, surface.desc.height);
  CopyBackToFront(*context, surface);   // where GL named the front buffer, it now holds the frame shown
  surface.swapped_since_images = true;  // the images keep what was shown (a resize below makes new ones)
  // The next frame is drawn at the window's new size. GL leaves the viewport alone (applications follow
  // their window's resize events); only the default framebuffer's images change.
  if (width > 0 && height > 0 && (width != surface.desc.width || height != surface.desc.height)) {
    surface.Resize(pipe, width, height);
    context->Bind(context->draw_surface(), context->read_surface());
    if (!pipe.Submit()) return SwapResult::kContextLost;
  }
  return SwapResult::kOk;
}

}  // namespace caldera
