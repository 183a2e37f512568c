// Clears, readback and the flush/finish sync points.
#include <algorithm>
#include <cstring>
#include <vector>

#include "frontend/context.h"
#include "frontend/framebuffer_util.h"
#include "frontend/gl_formats.h"
#include "frontend/gl_impl.h"

namespace caldera::gl {
namespace {

// The layout the backend returns for a format: lossless for every format glReadPixels can name.
pipe::ReadLayout LayoutFor(pipe::Format f) {
  const pipe::FormatInfo& info = pipe::Info(f);
  if (pipe::IsDepthFormat(f)) return pipe::ReadLayout::kDepth32F;
  if (pipe::IsIntegerFormat(f)) return pipe::ReadLayout::kRGBA32I;
  bool wide = info.bits[0] > 8 || info.bits[3] > 8;
  return info.type == pipe::FormatType::kFloat || wide ? pipe::ReadLayout::kRGBA32F
                                                       : pipe::ReadLayout::kRGBA8;
}

uint32_t LayoutSize(pipe::ReadLayout layout) {
  return layout == pipe::ReadLayout::kRGBA8 || layout == pipe::ReadLayout::kDepth32F ? 4 : 16;
}

// One pixel of a backend readback as the values glformat::PackPixel takes.
glformat::PixelValue FromLayout(pipe::ReadLayout layout, const uint8_t* p, bool int_signed) {
  glformat::PixelValue v;
  switch (layout) {
    case pipe::ReadLayout::kRGBA8:
      for (int c = 0; c < 4; ++c) v.f[c] = float(p[c]) / 255.0f;
      break;
    case pipe::ReadLayout::kRGBA32F:
      std::memcpy(v.f, p, 16);
      break;
    case pipe::ReadLayout::kRGBA32I:
      std::memcpy(v.i, p, 16);
      v.int_signed = int_signed;
      break;
    case pipe::ReadLayout::kDepth32F:
      std::memcpy(&v.depth, p, 4);
      break;
  }
  return v;
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
  const char* fn = "glReadPixels";
  glformat::ClientLayout client;
  if (GLenum error = glformat::CheckClientFormat(format, type, &client))
    return ctx.Error(error, fn, "invalid format/type pair");
  if (client.stencil) return ctx.Error(GL_INVALID_OPERATION, fn, "stencil readback is not implemented yet");
  int32_t fb_w = 0, fb_h = 0;
  pipe::Format image_format;
  pipe::ImageRef image = ctx.ReadImage(client.depth, &fb_w, &fb_h, &image_format);
  if (!image.image.valid())
    return ctx.Error(GL_INVALID_OPERATION, fn,
                     client.depth ? "no depth buffer to read" : "no colour buffer to read");
  if (!client.depth && client.integer != pipe::IsIntegerFormat(image_format))
    return ctx.Error(GL_INVALID_OPERATION, fn, "integer and non-integer formats do not mix");
  if (width == 0 || height == 0) return;
  const GLState& s = ctx.state;
  uint32_t bpp = static_cast<uint32_t>(client.bytes);
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
  pipe::ReadLayout layout = LayoutFor(image_format);
  uint32_t layout_size = LayoutSize(layout);
  std::vector<uint8_t> read(size_t(w) * h * layout_size);
  pipe::CmdReadPixels cmd{};
  cmd.image = image;
  cmd.layout = layout;
  cmd.x = x0, cmd.y = y0, cmd.width = w, cmd.height = h;
  cmd.row_stride = static_cast<uint32_t>(w) * layout_size;
  cmd.dst = read.data();
  ctx.FlushRenderTargets();
  if (!ctx.pipe().RecordAndWait(cmd)) return ctx.Error(GL_CONTEXT_LOST, "glReadPixels", "device lost");

  uint8_t* out_base = base;
  std::vector<uint8_t> staging;
  if (to_buffer) {
    staging.resize(uint64_t(row_stride) * height);
    out_base = staging.data() + (s.pack_skip_rows * row_stride + s.pack_skip_pixels * bpp);
  }
  bool int_signed = pipe::Info(image_format).type == pipe::FormatType::kSint;
  for (int32_t row = 0; row < h; ++row) {
    uint8_t* dst = out_base + uint64_t(row + (y0 - y)) * row_stride + uint64_t(x0 - x) * bpp;
    const uint8_t* src = read.data() + size_t(row) * cmd.row_stride;
    for (int32_t i = 0; i < w; ++i)
      glformat::PackPixel(format, type, FromLayout(layout, src + size_t(i) * layout_size, int_signed),
                          dst + size_t(i) * bpp);
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
