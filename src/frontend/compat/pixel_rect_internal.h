// Between the pixel rectangle commands (pixel_rect.cpp) and their draw (pixel_rect_draw.cpp).
#pragma once

#include <cstdint>
#include <memory>

#include "frontend/compat/state.h"
#include "frontend/context.h"

namespace caldera::compat {

// What the image's texels are: colours, depth values (red), bitmap coverage (red: 0 or 1) or stencil
// indices (red: the integer value).
enum class RectKind : uint8_t { kColor, kDepth, kBitmap, kStencil, kBitmapRun };

// An internal RGBA32F texture of width x height holding `rgba` (rows bottom-up, tight); `reuse` is
// re-uploaded when it has that size already.
std::shared_ptr<Texture> MakeRectImage(Context& ctx, int32_t width, int32_t height, const float* rgba,
                                       std::shared_ptr<Texture> reuse = nullptr);
// Draws `image` with its lower-left corner at window position (x, y), each pixel zoom_x by zoom_y
// fragments, colours and depth as `kind` says (the raster position's colour and depth for the others).
// kStencil draws only where bit `stencil_bit` of the index is set (all fragments for -1).
void DrawRectImage(Context& ctx, RectKind kind, const std::shared_ptr<Texture>& image, float x, float y,
                   float zoom_x, float zoom_y, float stencil_bit = -1);
// The draw of `count` vertices (triangles) of a pixel rectangle program sampling `image`, with the state GL
// does not apply to pixel rectangles set aside.
void DrawRectVertices(Context& ctx, const std::shared_ptr<Program>& program,
                      const std::shared_ptr<Texture>& image, const Vertex* vertices, size_t count);
// Queues a glBitmap: drawn with the bitmaps that follow it, before the next other command.
void QueueBitmap(Context& ctx, PendingBitmap bitmap);
// Writes a kStencil image's indices into the stencil buffer (GL 2.1 §4.3.1: the scissor test and the
// stencil write mask apply; colour, depth and the stencil test do not).
void DrawStencilImage(Context& ctx, const std::shared_ptr<Texture>& image, float x, float y, float zoom_x,
                      float zoom_y);

}  // namespace caldera::compat
