// Clears, readback and the flush/finish sync points.
#include <algorithm>
#include <cstring>
#include <vector>

#include "frontend/context.h"
#include "frontend/framebuffer_util.h"
#include "frontend/gl_impl.h"

namespace caldera::gl {
namespace {

// Converts one RGBA8 pixel row to the requested format/type. Returns false for unsupported combinations.
bool ConvertRow(const uint8_t* src, int width, GLenum format, GLenum type, uint8_t* dst) {
  auto channel = [](GLenum f, int i) -> int {  // which RGBA component lands at position i, -1 none
    switch (f) {
      case GL_RGBA:
        return i;
      case GL_RGBA_INTEGER:
        return i;
      case GL_BGRA: {
        static const int m[4] = {2, 1, 0, 3};
        return m[i];
      }
      case GL_RGB:
        return i < 3 ? i : -1;
      case GL_RG:
        return i < 2 ? i : -1;
      case GL_RED:
        return i == 0 ? 0 : -1;
      case GL_GREEN:
        return i == 0 ? 1 : -1;
      case GL_BLUE:
        return i == 0 ? 2 : -1;
      case GL_ALPHA:
        return i == 0 ? 3 : -1;
      default:
        return -1;
    }
  };
  int n = 0;
  while (n < 4 && channel(format, n) >= 0) ++n;
  if (n == 0) return false;
  for (int x = 0; x < width; ++x) {
    for (int i = 0; i < n; ++i) {
      uint8_t v = src[x * 4 + channel(format, i)];
      switch (type) {
        case GL_UNSIGNED_BYTE:
          dst[x * n + i] = v;
          break;
        case GL_FLOAT:
          reinterpret_cast<float*>(dst)[x * n + i] = v / 255.0f;
          break;
        case GL_UNSIGNED_SHORT:
          reinterpret_cast<uint16_t*>(dst)[x * n + i] = static_cast<uint16_t>(v * 257);
          break;
        case GL_UNSIGNED_INT:
          reinterpret_cast<uint32_t*>(dst)[x * n + i] = v * 16843009u;
          break;
        default:
          return false;
      }
    }
  }
  return true;
}

uint32_t BytesPerPixel(GLenum format, GLenum type) {
  int n = (format == GL_RGBA || format == GL_BGRA || format == GL_RGBA_INTEGER) ? 4
          : format == GL_RGB                                                    ? 3
          : format == GL_RG                                                     ? 2
                                                                                : 1;
  int size = (type == GL_FLOAT || type == GL_UNSIGNED_INT || type == GL_INT)            ? 4
             : (type == GL_UNSIGNED_SHORT || type == GL_SHORT || type == GL_HALF_FLOAT) ? 2
                                                                                        : 1;
  return static_cast<uint32_t>(n * size);
}

}  // namespace

void Clear(Context& ctx, GLbitfield mask) {
  uint8_t bits = ((mask & GL_COLOR_BUFFER_BIT) ? pipe::kClearColor : 0) |
                 ((mask & GL_DEPTH_BUFFER_BIT) ? pipe::kClearDepth : 0) |
                 ((mask & GL_STENCIL_BUFFER_BIT) ? pipe::kClearStencil : 0);
  const GLState& s = ctx.state;
  RecordClear(ctx, bits, 0xFF, s.clear_color, s.clear_depth, static_cast<uint32_t>(s.clear_stencil));
}

void Flush(Context& ctx) {
  ctx.pipe().Record(pipe::CmdFlush{});
  ctx.pipe().Submit();
}

void Finish(Context& ctx) {
  ctx.pipe().RecordAndWait(pipe::CmdFinish{});
}

void ReadPixels(Context& ctx, GLint x, GLint y, GLsizei width, GLsizei height, GLenum format, GLenum type,
                void* pixels) {
  if (format == GL_DEPTH_COMPONENT || format == GL_STENCIL_INDEX || format == GL_DEPTH_STENCIL)
    return ctx.Error(GL_INVALID_OPERATION, "glReadPixels", "depth/stencil readback is not implemented yet");
  if (format == GL_RGBA_INTEGER)
    return ctx.Error(GL_INVALID_OPERATION, "glReadPixels", "integer read of a normalised framebuffer");
  int32_t fb_w = 0, fb_h = 0;
  pipe::ImageRef image = ctx.ReadColorImage(&fb_w, &fb_h);
  if (!image.image.valid())
    return ctx.Error(GL_INVALID_OPERATION, "glReadPixels", "no colour buffer to read");
  if (width == 0 || height == 0) return;
  const GLState& s = ctx.state;
  uint32_t bpp = BytesPerPixel(format, type);
  uint32_t row_pixels = s.pack_row_length > 0 ? static_cast<uint32_t>(s.pack_row_length) : width;
  uint32_t align = static_cast<uint32_t>(s.pack_alignment);
  uint32_t row_stride = (row_pixels * bpp + align - 1) / align * align;
  bool to_buffer = ctx.pixel_pack_buffer != nullptr;
  uint8_t* base = static_cast<uint8_t*>(pixels);
  if (to_buffer) {
    uint64_t needed = reinterpret_cast<uintptr_t>(pixels) + uint64_t(row_stride) * (height - 1) + width * bpp;
    if (needed > static_cast<uint64_t>(ctx.pixel_pack_buffer->size))
      return ctx.Error(GL_INVALID_OPERATION, "glReadPixels", "pixel pack buffer too small");
  } else if (!pixels) {
    return;
  }
  base += (uint64_t(s.pack_skip_rows) * row_stride) + uint64_t(s.pack_skip_pixels) * bpp;

  // Pixels outside the framebuffer are left untouched (GL 4.3 §18.2.6): read only the intersection.
  int32_t x0 = std::max(x, 0), y0 = std::max(y, 0);
  int32_t x1 = std::min(x + width, fb_w), y1 = std::min(y + height, fb_h);
  if (x0 >= x1 || y0 >= y1) return;
  int32_t w = x1 - x0, h = y1 - y0;
  std::vector<uint8_t> rgba(size_t(w) * h * 4);
  pipe::CmdReadPixels cmd{};
  cmd.image = image;
  cmd.x = x0, cmd.y = y0, cmd.width = w, cmd.height = h;
  cmd.row_stride = static_cast<uint32_t>(w * 4);
  cmd.dst = rgba.data();
  ctx.FlushRenderTargets();
  if (!ctx.pipe().RecordAndWait(cmd)) return ctx.Error(GL_CONTEXT_LOST, "glReadPixels", "device lost");

  uint8_t* out_base = base;
  std::vector<uint8_t> staging;
  if (to_buffer) {
    staging.resize(uint64_t(row_stride) * height);
    out_base = staging.data() + (s.pack_skip_rows * row_stride + s.pack_skip_pixels * bpp);
  }
  for (int32_t row = 0; row < h; ++row) {
    uint8_t* dst = out_base + uint64_t(row + (y0 - y)) * row_stride + uint64_t(x0 - x) * bpp;
    if (!ConvertRow(rgba.data() + size_t(row) * w * 4, w, format, type, dst))
      return ctx.Error(GL_INVALID_OPERATION, "glReadPixels", "format/type combination not supported");
  }
  if (to_buffer) {
    auto& buf = *ctx.pixel_pack_buffer;
    uint64_t offset = reinterpret_cast<uintptr_t>(pixels);
    uint64_t size = std::min<uint64_t>(staging.size(), buf.size - offset);
    std::memcpy(buf.shadow.data() + offset, staging.data(), size);
    ctx.pipe().Record(pipe::CmdBufferUpload{buf.handle, offset, static_cast<uint32_t>(size)}, staging.data(),
                      size);
  }
}

}  // namespace caldera::gl
