// The default framebuffer's front and back colour buffers (default_framebuffer.h). A window's default
// framebuffer is Caldera's own images: `color` is the back buffer, and a swap copies it into the window and
// leaves it as it was. The front buffer — what the window shows — needs an image only once GL names it
// (front-buffer rendering is rare, and its image costs a copy per swap), so it is made then, holding the
// frame the back buffer still has. Single-buffered windows and pixmaps have only `color`, which is their
// front buffer; glFlush and glFinish show it.
#include "frontend/default_framebuffer.h"

#include "frontend/context.h"
#include "frontend/device.h"
#include "util/log.h"

namespace caldera {
namespace {

bool IsFrontName(GLenum buffer) {
  return buffer == GL_FRONT || buffer == GL_FRONT_LEFT || buffer == GL_FRONT_AND_BACK || buffer == GL_LEFT;
}

GLenum OwnBuffer(const Surface* surface) {
  if (!surface) return GL_NONE;
  return SurfaceHasBackBuffer(*surface) ? GL_BACK : GL_FRONT;
}

// A full-size copy of one colour image into another of the same surface (same format and size).
void CopySurfaceImage(Context& context, const Surface& surface, pipe::Handle from, pipe::Handle to) {
  pipe::CmdCopyImage copy{};
  copy.src = {from, 0, 0};
  copy.dst = {to, 0, 0};
  copy.width = uint32_t(surface.desc.width);
  copy.height = uint32_t(surface.desc.height);
  copy.mask = pipe::kClearColor;
  context.pipe().Record(copy);
}

// Whether the context draws to both buffers of `surface` (GL_FRONT_AND_BACK / GL_LEFT), where that is done
// with the front following the back buffer (single-sampled double-buffered windows).
bool DrawingBoth(const Context& context, const Surface& surface) {
  GLenum buffer = DefaultDrawBuffer(context);
  return context.draw_surface() == &surface && (buffer == GL_FRONT_AND_BACK || buffer == GL_LEFT) &&
         SurfaceDoubleBuffered(surface) && surface.desc.samples <= 1;
}

// The front buffer's image. On a double-buffered window it is made on the context's own stream, so the
// copy that fills it and every later use are ordered after it. A front that follows the back buffer
// (GL_FRONT_AND_BACK) gets its copy here, before anything uses it alone.
pipe::Handle FrontImage(Context& context, Surface& surface) {
  if (!SurfaceDoubleBuffered(surface)) return surface.color;
  if (!surface.front.valid()) {
    surface.front = surface.device.handles().Allocate();
    context.pipe().Record(pipe::CmdImageCreate{
        surface.front, surface.color_format, static_cast<uint8_t>(surface.desc.samples), 1,
        static_cast<uint32_t>(surface.desc.width), static_cast<uint32_t>(surface.desc.height), 1});
    // What the window shows: the last frame swapped, which the back buffer holds unless drawn to since.
    CopySurfaceImage(context, surface, surface.color, surface.front);
    surface.front_follows_back = false;
    surface.front_equals_back = true;
  } else if (surface.front_follows_back) {
    CopySurfaceImage(context, surface, surface.color, surface.front);
    // Still drawing to both: the front goes on following from this copy.
    surface.front_follows_back = DrawingBoth(context, surface);
    surface.front_equals_back = true;
  }
  return surface.front;
}

// GL_FRONT_AND_BACK for drawing: exact while both buffers hold the same frame (after a swap, or a clear or
// draws to both since), as the back buffer with the front following it; once they differ, the back buffer
// only, said once (both at once would need every fragment output written twice).
pipe::ImageRef BothBuffers(Surface& surface) {
  if (surface.front_equals_back || !surface.front.valid()) {
    surface.front_follows_back = true;
    surface.front_drawn = true;
  } else {
    util::LogOnce(util::LogLevel::kWarning, "glDrawBuffer",
                  "GL_FRONT_AND_BACK on a double-buffered window whose buffers differ draws to the back "
                  "buffer only");
  }
  return {surface.color, 0, 0};
}

pipe::ImageRef BufferImage(Context& context, Surface* surface, GLenum buffer, bool draw) {
  if (!surface || buffer == GL_NONE) return {};
  if (!SurfaceDoubleBuffered(*surface)) return {surface->color, 0, 0};
  const bool both = buffer == GL_FRONT_AND_BACK || buffer == GL_LEFT;
  if (both && draw && surface->desc.samples <= 1) return BothBuffers(*surface);
  if (both) return {surface->color, 0, 0};  // reads of both: the back buffer (GL reads one buffer)
  if (!IsFrontName(buffer)) {
    if (draw) {
      // Drawing to the back buffer alone: a following front gets its copy first (ordered before the draws).
      if (surface->front_follows_back) FrontImage(context, *surface);
      surface->front_equals_back = false;
    }
    return {surface->color, 0, 0};
  }
  if (surface->desc.samples > 1) {
    // A multisampled front buffer could be neither filled nor shown by the copies the front buffer takes.
    util::LogOnce(util::LogLevel::kWarning, draw ? "glDrawBuffer" : "glReadBuffer",
                  "the front buffer of a multisampled window is its back buffer");
    return {surface->color, 0, 0};
  }
  pipe::Handle front = FrontImage(context, *surface);
  if (draw) {
    surface->front_drawn = true;
    surface->front_equals_back = false;
  }
  return {front, 0, 0};
}

}  // namespace

bool SurfaceHasBackBuffer(const Surface& surface) {
  return !surface.pixmap && !surface.desc.single_buffered;
}

bool SurfaceDoubleBuffered(const Surface& surface) {
  return surface.window && SurfaceHasBackBuffer(surface);
}

bool SurfaceHasColorBuffer(const Surface& surface, GLenum buffer) {
  // A pbuffer's one buffer answers to the front names too (as Mesa's pbuffers do): programs written for
  // windows draw to GL_FRONT on them.
  if (IsFrontName(buffer)) return true;
  return SurfaceHasBackBuffer(surface);
}

GLenum DefaultDrawBuffer(const Context& context) {
  if (!context.draw_surface()) return GL_NONE;
  return context.default_draw_buffer != Context::kSurfaceOwnBuffer ? context.default_draw_buffer
                                                                   : OwnBuffer(context.draw_surface());
}

GLenum DefaultReadBuffer(const Context& context) {
  if (!context.read_surface()) return GL_NONE;
  return context.default_read_buffer != Context::kSurfaceOwnBuffer ? context.default_read_buffer
                                                                   : OwnBuffer(context.read_surface());
}

pipe::ImageRef DefaultDrawImage(Context& context) {
  return BufferImage(context, context.draw_surface(), DefaultDrawBuffer(context), true);
}

pipe::ImageRef DefaultReadImage(Context& context) {
  return BufferImage(context, context.read_surface(), DefaultReadBuffer(context), false);
}

pipe::ImageRef ResolvedForRead(pipe::Pipe& pipe, Surface& surface, pipe::ImageRef image) {
  if (surface.desc.samples <= 1 || !image.image.valid()) return image;
  auto w = static_cast<uint32_t>(surface.desc.width), h = static_cast<uint32_t>(surface.desc.height);
  if (!surface.resolved.valid()) {
    surface.resolved = surface.device.handles().Allocate();
    pipe.Record(pipe::CmdImageCreate{surface.resolved, surface.color_format, 1, 1, w, h, 1});
  }
  pipe::CmdBlit resolve{};
  resolve.src = image;
  resolve.dst = {surface.resolved, 0, 0};
  resolve.src_rect[2] = resolve.dst_rect[2] = int32_t(w);
  resolve.src_rect[3] = resolve.dst_rect[3] = int32_t(h);
  resolve.mask = pipe::kClearColor;
  pipe.Record(resolve);
  return {surface.resolved, 0, 0};
}

void NoteWholeColorClear(Context& context) {
  Surface* surface = context.draw_surface();
  if (context.draw_framebuffer || !surface || !DrawingBoth(context, *surface)) return;
  surface->front_equals_back = true;
  surface->front_follows_back = true;
  surface->front_drawn = true;
}

void CopyBackToFront(Context& context, Surface& surface) {
  surface.front_follows_back = false;
  surface.front_equals_back = true;
  if (surface.front.valid()) {
    CopySurfaceImage(context, surface, surface.color, surface.front);
    surface.front_drawn = false;
  }
  // Drawing to both buffers goes on into the next frame: the front follows again (the render targets, which
  // would say so when rebuilt, stay as they are across a swap).
  surface.front_follows_back = DrawingBoth(context, surface);
}

void ShowFrontBuffer(Context& context) {
  Surface* surface = context.draw_surface();
  if (!surface || !surface->window) return;
  if (!SurfaceDoubleBuffered(*surface)) {
    ShowImage(context, *surface, surface->color);  // pixmaps and single-buffered windows
    return;
  }
  // A double-buffered window shows its front buffer when it was drawn to, or is the draw buffer now.
  GLenum buffer = DefaultDrawBuffer(context);
  bool front_is_target = !context.draw_framebuffer &&
                         (buffer == GL_FRONT || buffer == GL_FRONT_LEFT || DrawingBoth(context, *surface));
  if (!surface->front_drawn && !front_is_target) return;
  if (!surface->front.valid() && !surface->front_follows_back) return;
  surface->front_drawn = false;
  // A front following the back buffer is the back buffer's frame: shown from there, without a copy.
  ShowImage(context, *surface, surface->front_follows_back ? surface->color : surface->front);
}

}  // namespace caldera
