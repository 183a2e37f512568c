// Clears, readback and the flush/finish sync points.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "frontend/buffer_util.h"
#include "frontend/compat/hooks.h"
#include "frontend/context.h"
#include "frontend/default_framebuffer.h"
#include "frontend/device.h"
#include "frontend/framebuffer_util.h"
#include "frontend/gl_enums.h"
#include "frontend/gl_formats.h"
#include "frontend/gl_impl.h"
#include "frontend/pixel_buffer.h"
#include "frontend/pixel_convert.h"

namespace caldera {

// The layout the backend returns for a format: lossless for every format glReadPixels can name.
pipe::ReadLayout LayoutFor(pipe::Format f) {
  const pipe::FormatInfo& info = pipe::Info(f);
  if (pipe::IsDepthFormat(f)) return pipe::ReadLayout::kDepth32F;
  if (pipe::IsIntegerFormat(f)) return pipe::ReadLayout::kRGBA32I;
  bool wide = info.bits[0] > 8 || info.bits[3] > 8;
  // SNORM values are negative too: RGBA8 would clamp them to zero.
  bool is_signed = info.type == pipe::FormatType::kSnorm;
  return info.type == pipe::FormatType::kFloat || wide || is_signed ? pipe::ReadLayout::kRGBA32F
                                                                    : pipe::ReadLayout::kRGBA8;
}

uint32_t LayoutSize(pipe::ReadLayout layout) {
  // kStored depends on the image's format (TexelSize); the frontend asks for it only for direct reads.
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
    case pipe::ReadLayout::kStored:
      break;  // never converted (direct reads only)
  }
  return v;
}

namespace gl {

void Clear(Context& ctx, GLbitfield mask) {
  if (ctx.compat && compat::RenderModeDrawsNothing(ctx)) [[unlikely]]
    return;  // selection and feedback modes (glRenderMode) draw nothing
  uint8_t bits = ((mask & GL_COLOR_BUFFER_BIT) ? pipe::kClearColor : 0) |
                 ((mask & GL_DEPTH_BUFFER_BIT) ? pipe::kClearDepth : 0) |
                 ((mask & GL_STENCIL_BUFFER_BIT) ? pipe::kClearStencil : 0);
  const GLState& s = ctx.state;
  const auto& mask0 = s.color_mask[0];
  if ((bits & pipe::kClearColor) && !s.scissor_test && mask0[0] && mask0[1] && mask0[2] && mask0[3] &&
      !s.rasterizer_discard)
    NoteWholeColorClear(ctx);  // GL_FRONT_AND_BACK: both buffers the same from here
  if (bits)
    RecordClear(ctx, bits, 0xFF, s.clear_color, s.clear_depth, static_cast<uint32_t>(s.clear_stencil));
  if (mask & glenum::kAccumBufferBit)
    compat::ClearAccumBuffer(ctx);  // accepted by validation in compat contexts only
}

void Flush(Context& ctx) {
  ctx.pipe().Record(pipe::CmdFlush{});
  ctx.pipe().Submit();
  ShowFrontBuffer(ctx);  // a pixmap surface's front buffer reaches the pixmap
}

void Finish(Context& ctx) {
  ctx.pipe().RecordAndWait(pipe::CmdFinish{});
  ShowFrontBuffer(ctx);
}

}  // namespace gl

namespace {

// Reads the depth and/or stencil of the read framebuffer for glReadPixels into tight rows of `bpp` bytes.
// Returns false after recording the GL error.
bool ReadDepthStencil(Context& ctx, pipe::ImageRef depth, pipe::ImageRef stencil, int32_t x, int32_t y,
                      int32_t w, int32_t h, GLenum format, GLenum type, uint32_t bpp,
                      std::vector<uint8_t>* rows, const char* fn) {
  std::vector<float> depth_values(depth.image.valid() ? size_t(w) * h : 0);
  std::vector<uint8_t> stencil_values(stencil.image.valid() ? size_t(w) * h : 0);
  for (int i = 0; i < 2; ++i) {
    pipe::CmdReadPixels cmd{};
    cmd.image = i == 0 ? depth : stencil;
    if (!cmd.image.image.valid()) continue;
    cmd.x = x, cmd.y = y, cmd.width = w, cmd.height = h;
    cmd.aspect = i == 0 ? pipe::ReadAspect::kDepth : pipe::ReadAspect::kStencil;
    cmd.layout = pipe::ReadLayout::kDepth32F;  // stencil reads ignore it (one byte per pixel)
    cmd.row_stride = static_cast<uint32_t>(w * (i == 0 ? sizeof(float) : 1));
    cmd.dst = i == 0 ? static_cast<void*>(depth_values.data()) : static_cast<void*>(stencil_values.data());
    if (!ctx.pipe().RecordAndWait(cmd)) {
      ctx.Error(GL_CONTEXT_LOST, fn, "device lost");
      return false;
    }
  }
  rows->resize(size_t(w) * h * bpp);
  for (int32_t row = 0; row < h; ++row) {
    const float* d = depth_values.empty() ? nullptr : depth_values.data() + size_t(row) * w;
    const uint8_t* s = stencil_values.empty() ? nullptr : stencil_values.data() + size_t(row) * w;
    if (!PackDepthStencilRow(d, s, w, format, type, rows->data() + size_t(row) * w * bpp)) {
      ctx.Error(GL_INVALID_OPERATION, fn, "this depth/stencil type is not implemented yet");
      return false;
    }
  }
  return true;
}

}  // namespace

bool PackImage(Context& ctx, pipe::ImageRef image, pipe::ImageRef stencil_image, pipe::Format read_format,
               int32_t x0, int32_t y0, int32_t w, int32_t h, GLenum format, GLenum type,
               const PixelLayout& layout, uint64_t first, void* pixels, const char* fn,
               const CpuTexels* cpu_texels, bool luminance_is_sum) {
  glformat::ClientLayout client;
  glformat::CheckClientFormat(format, type, &client, /*legacy_formats=*/true);
  // A luminance sum is computed per pixel below: no copy or row loop produces it.
  const bool sum_rgb = luminance_is_sum && glformat::IsLegacyClientFormat(format);
  // Under GL_FIXED_ONLY a fixed-point buffer's reads are clamped too, which matters once R + G + B can
  // exceed 1 (GL 3.0 §4.3.2, "Final Conversion").
  const bool clamp_sum = sum_rgb && (ctx.state.clamp_read_color == GL_TRUE ||
                                     (ctx.state.clamp_read_color == GL_FIXED_ONLY &&
                                      (pipe::Info(read_format).type == pipe::FormatType::kUnorm ||
                                       pipe::Info(read_format).type == pipe::FormatType::kSrgb)));
  bool depth_stencil = client.depth || client.stencil;
  Buffer* pbo = ctx.pixel_pack_buffer.get();
  uint64_t pbo_offset = reinterpret_cast<uintptr_t>(pixels);
  uint32_t bpp = layout.bytes_per_pixel;
  // glClampColor(GL_CLAMP_READ_COLOR): GL_TRUE clamps every non-integer colour read to [0, 1];
  // GL_FIXED_ONLY (the default) clamps fixed-point buffers only, whose values are in range already.
  const bool clamp =
      !depth_stencil && ctx.state.clamp_read_color == GL_TRUE && !pipe::IsIntegerFormat(read_format);
  if (pbo && !depth_stencil && !clamp && !sum_rgb && !cpu_texels && ctx.pixel_transfers_on_device() &&
      IsDirectPixelFormat(read_format, format, type) && layout.row_stride % bpp == 0 &&
      (pbo_offset + first) % bpp == 0) {
    // A device copy into the buffer, no wait: the shadow catches up when something reads it.
    pipe::CmdReadPixelsToBuffer cmd{};
    cmd.image = image;
    cmd.x = x0, cmd.y = y0, cmd.width = w, cmd.height = h;
    cmd.buffer = pbo->handle;
    cmd.offset = pbo_offset + first;
    cmd.row_length = static_cast<uint32_t>(layout.row_stride / bpp);
    ctx.pipe().Record(cmd);
    pbo->device_newer = true;
    return true;
  }

  bool int_signed = pipe::Info(read_format).type == pipe::FormatType::kSint;
  // Where the first pixel goes: client memory, or the pack buffer's shadow (synchronised first, so the
  // bytes around the rows keep what the device has) and uploaded after.
  auto destination = [&]() -> uint8_t* {
    if (pbo && !SyncShadow(ctx, *pbo)) return nullptr;
    return (pbo ? pbo->shadow.data() + pbo_offset : static_cast<uint8_t*>(pixels)) + first;
  };
  auto upload_rows = [&]() {
    if (!pbo) return;
    // Only the rows written: bytes between them (row padding, pixels outside the framebuffer) keep their
    // contents on the device as in the shadow.
    uint64_t begin = pbo_offset + first;
    uint64_t end = begin + uint64_t(h - 1) * layout.row_stride + uint64_t(w) * bpp;
    RecordUpload(ctx, *pbo, begin, pbo->shadow.data() + begin, end - begin);
  };
  // The backend's layout is the client's (GL_RGBA/GL_UNSIGNED_BYTE of an 8-bit colour image, GL_FLOAT of
  // a float one, GL_DEPTH_COMPONENT/GL_FLOAT): the backend writes rows straight into client memory, in
  // GL's bottom-up order as images are stored.
  pipe::ReadLayout direct_layout = client.depth ? pipe::ReadLayout::kDepth32F
                                   : cpu_texels ? cpu_texels->layout
                                                : LayoutFor(read_format);
  uint32_t direct_size = LayoutSize(direct_layout);
  bool direct_pair = pixels::ReadLayoutIsClient(direct_layout, int_signed, format, type);
  if (!direct_pair && !client.depth && !cpu_texels && pixels::StoredIsClient(read_format, format, type)) {
    // The image's own texels are the client's (R8 as GL_RED, RGBA16F as GL_HALF_FLOAT, ...).
    direct_layout = pipe::ReadLayout::kStored;
    direct_size = pipe::TexelSize(read_format);
    direct_pair = true;
  }
  bool direct = ctx.pixel_row_copy() && !cpu_texels && !clamp && !sum_rgb && !client.stencil && direct_pair &&
                layout.row_stride <= UINT32_MAX && layout.row_stride % direct_size == 0;
  if (direct) {
    uint8_t* out = destination();
    if (!out) return ctx.Error(GL_CONTEXT_LOST, fn, "device lost"), false;
    pipe::CmdReadPixels cmd{};
    cmd.image = image;
    cmd.layout = direct_layout;
    cmd.aspect = client.depth ? pipe::ReadAspect::kDepth : pipe::ReadAspect::kColor;
    cmd.x = x0, cmd.y = y0, cmd.width = w, cmd.height = h;
    cmd.row_stride = static_cast<uint32_t>(layout.row_stride);
    cmd.dst = out;
    if (!ctx.pipe().RecordAndWait(cmd)) return ctx.Error(GL_CONTEXT_LOST, fn, "device lost"), false;
    ++ctx.pixel_stats.row_copies;
    upload_rows();
    return true;
  }

  // Tight rows in the client format first, so an unsupported combination writes nothing.
  std::vector<uint8_t> rows;
  if (depth_stencil) {
    if (!ReadDepthStencil(ctx, image, stencil_image, x0, y0, w, h, format, type, bpp, &rows, fn))
      return false;
    ++ctx.pixel_stats.general_conversions;
  } else {
    // The backend returns a lossless layout for the image's format; a loop chosen here (or, without one,
    // PackPixel per pixel) writes the client's.
    pipe::ReadLayout read_layout = cpu_texels ? cpu_texels->layout : LayoutFor(read_format);
    uint32_t read_size = LayoutSize(read_layout);
    std::vector<uint8_t> read;
    const uint8_t* texels = cpu_texels ? cpu_texels->data : nullptr;
    if (!texels) {
      read.resize(size_t(w) * h * read_size);
      pipe::CmdReadPixels cmd{};
      cmd.image = image;
      cmd.layout = read_layout;
      cmd.x = x0, cmd.y = y0, cmd.width = w, cmd.height = h;
      cmd.row_stride = static_cast<uint32_t>(w) * read_size;
      cmd.dst = read.data();
      if (!ctx.pipe().RecordAndWait(cmd)) return ctx.Error(GL_CONTEXT_LOST, fn, "device lost"), false;
      texels = read.data();
    }
    pixels::RowConverter convert;
    if (ctx.pixel_row_copy() && !sum_rgb)
      convert = pixels::SelectPackRow(read_layout, int_signed, clamp, format, type);
    if (convert) {
      // Converted straight into the destination, row by row.
      uint8_t* out = destination();
      if (!out) return ctx.Error(GL_CONTEXT_LOST, fn, "device lost"), false;
      for (int32_t row = 0; row < h; ++row)
        convert(texels + size_t(row) * w * read_size, out + uint64_t(row) * layout.row_stride, w);
      ++ctx.pixel_stats.loop_conversions;
      upload_rows();
      return true;
    }
    if (ctx.debug.active() && ctx.debug.Wants(GL_DEBUG_SOURCE_API, GL_DEBUG_TYPE_PERFORMANCE,
                                              kDebugIdPixelsOnCpu, GL_DEBUG_SEVERITY_MEDIUM)) [[unlikely]] {
      char text[160];
      std::snprintf(text, sizeof(text),
                    "%s: format 0x%04X, type 0x%04X from this framebuffer has no row conversion; pixels are "
                    "converted one by one on the CPU",
                    fn, format, type);
      ctx.debug.Message(GL_DEBUG_SOURCE_API, GL_DEBUG_TYPE_PERFORMANCE, kDebugIdPixelsOnCpu,
                        GL_DEBUG_SEVERITY_MEDIUM, text);
    }
    rows.resize(size_t(w) * h * bpp);
    for (int32_t row = 0; row < h; ++row) {
      const uint8_t* src = texels + size_t(row) * w * read_size;
      uint8_t* dst = rows.data() + size_t(row) * w * bpp;
      for (int32_t i = 0; i < w; ++i) {
        glformat::PixelValue v = FromLayout(read_layout, src + size_t(i) * read_size, int_signed);
        if (clamp)
          for (float& f : v.f) f = std::clamp(f, 0.0f, 1.0f);
        if (sum_rgb) {
          v.f[0] += v.f[1] + v.f[2];
          if (clamp_sum) v.f[0] = std::clamp(v.f[0], 0.0f, 1.0f);
        }
        glformat::PackPixel(format, type, v, dst + size_t(i) * bpp);
      }
    }
    ++ctx.pixel_stats.general_conversions;
  }
  uint8_t* out = destination();
  if (!out) return ctx.Error(GL_CONTEXT_LOST, fn, "device lost"), false;
  for (int32_t row = 0; row < h; ++row)
    std::memcpy(out + uint64_t(row) * layout.row_stride, rows.data() + size_t(row) * w * bpp,
                size_t(w) * bpp);
  upload_rows();
  return true;
}

namespace gl {

namespace {

// glReadPixels and glReadnPixels; buf_size is -1 for the unbounded form.
void ReadPixelsInto(Context& ctx, GLint x, GLint y, GLsizei width, GLsizei height, GLenum format, GLenum type,
                    GLsizei buf_size, void* pixels, const char* fn) {
  glformat::ClientLayout client;
  if (GLenum error = glformat::CheckClientFormat(format, type, &client, ctx.IsCompat() && !ctx.IsES1()))
    return ctx.Error(error, fn, "invalid format/type pair");
  bool depth_stencil = client.depth || client.stencil;
  int32_t fb_w = 0, fb_h = 0;
  pipe::Format read_format = pipe::Format::kUndefined;
  pipe::ImageRef image, stencil_image;
  if (depth_stencil) {
    const auto& caps = ctx.device().backend().caps();
    if ((client.depth && !caps.read_depth) || (client.stencil && !caps.read_stencil))
      return ctx.Error(GL_INVALID_OPERATION, fn,
                       "the backend's host cannot read depth/stencil (documented gap)");
    if (client.depth) {
      image = ctx.ReadDepthStencilImage(false, &fb_w, &fb_h, &read_format);
      if (!image.image.valid()) return ctx.Error(GL_INVALID_OPERATION, fn, "no depth buffer to read");
    }
    if (client.stencil) {
      stencil_image = ctx.ReadDepthStencilImage(true, &fb_w, &fb_h, &read_format);
      if (!stencil_image.image.valid())
        return ctx.Error(GL_INVALID_OPERATION, fn, "no stencil buffer to read");
    }
  } else {
    image = ctx.ReadColorImage(&fb_w, &fb_h, &read_format);
    if (!image.image.valid()) return ctx.Error(GL_INVALID_OPERATION, fn, "no colour buffer to read");
    if (client.integer != pipe::IsIntegerFormat(read_format))
      return ctx.Error(GL_INVALID_OPERATION, fn, "integer and non-integer formats do not mix");
  }
  PixelLayout layout = PackLayout(ctx, format, type, width, height);
  Buffer* pbo = ctx.pixel_pack_buffer.get();
  uint64_t pbo_offset = reinterpret_cast<uintptr_t>(pixels);
  if (pbo && !CheckPixelBuffer(ctx, *pbo, pbo_offset, layout, type, fn)) return;
  // Client memory of bufSize bytes must hold every byte the read writes (GL 4.5 §18.2.6).
  if (!pbo && buf_size >= 0 && width > 0 && height > 0 && layout.size > uint64_t(buf_size))
    return ctx.Error(GL_INVALID_OPERATION, fn, "bufSize is smaller than the pixels read");
  if (width == 0 || height == 0 || (!pbo && !pixels)) return;

  // Pixels outside the framebuffer are left untouched (GL 4.3 §18.2.6): read only the intersection.
  int32_t x0 = std::max(x, 0), y0 = std::max(y, 0);
  int32_t x1 = std::min(x + width, fb_w), y1 = std::min(y + height, fb_h);
  if (x0 >= x1 || y0 >= y1) return;
  int32_t w = x1 - x0, h = y1 - y0;
  uint32_t bpp = layout.bytes_per_pixel;
  // Where the intersection's first pixel lands, relative to the start of the client block.
  uint64_t first = layout.skip + uint64_t(y0 - y) * layout.row_stride + uint64_t(x0 - x) * bpp;
  ctx.FlushRenderTargets();
  PackImage(ctx, image, stencil_image, read_format, x0, y0, w, h, format, type, layout, first, pixels, fn,
            nullptr, /*luminance_is_sum=*/true);
}

}  // namespace

void ReadPixels(Context& ctx, GLint x, GLint y, GLsizei width, GLsizei height, GLenum format, GLenum type,
                void* pixels) {
  ReadPixelsInto(ctx, x, y, width, height, format, type, -1, pixels, "glReadPixels");
}

void ReadnPixels(Context& ctx, GLint x, GLint y, GLsizei width, GLsizei height, GLenum format, GLenum type,
                 GLsizei buf_size, void* data) {
  ReadPixelsInto(ctx, x, y, width, height, format, type, std::max<GLsizei>(buf_size, 0), data,
                 "glReadnPixels");
}

}  // namespace gl
}  // namespace caldera
