// Copies from the read framebuffer into textures: glCopyTexImage1D/2D and glCopyTexSubImage1D/2D/3D.
// The source is the read framebuffer's read buffer (colour) or its depth/stencil image (depth textures).
// Pairs a nearest blit converts as GL asks are a device copy (CmdCopyImage, which resolves pending clears of
// the source itself); the others — a destination without alpha (stored as RGBA, alpha kept at 1) fed by a
// source with alpha, RGB9_E5 destinations (not blittable), depth of another format — read the source back
// and upload converted texels, in order with everything else.
#include <algorithm>
#include <vector>

#include "frontend/context.h"
#include "frontend/device.h"
#include "frontend/framebuffer_util.h"
#include "frontend/gl_formats.h"
#include "frontend/gl_impl.h"
#include "frontend/pixel_buffer.h"
#include "frontend/texture_util.h"
#include "pipe/texels.h"

namespace caldera {
namespace {

struct CopySource {
  pipe::ImageRef image, stencil;
  pipe::Format format = pipe::Format::kUndefined;
  int32_t width = 0, height = 0;  // of the read framebuffer
  uint8_t mask = 0;               // pipe::ClearBits
};

// GL 3.3 §3.8.2 / GL 4.6 §8.6: what the read framebuffer must offer for a texture of format `dst`. False
// after recording the GL error.
bool CheckSource(Context& ctx, pipe::Format dst, CopySource* out, const char* fn) {
  if (FramebufferStatus(ctx, ctx.read_framebuffer.get()) != GL_FRAMEBUFFER_COMPLETE) {
    ctx.Error(GL_INVALID_FRAMEBUFFER_OPERATION, fn, "read framebuffer incomplete");
    return false;
  }
  if (FramebufferSamples(ctx.read_framebuffer.get(), ctx.read_surface()) > 0) {
    ctx.Error(GL_INVALID_OPERATION, fn, "the read framebuffer is multisampled");
    return false;
  }
  if (pipe::IsDepthFormat(dst)) {
    out->image = ctx.ReadDepthStencilImage(false, &out->width, &out->height, &out->format);
    if (!out->image.image.valid()) {
      ctx.Error(GL_INVALID_OPERATION, fn, "a depth texture needs a depth buffer to copy from");
      return false;
    }
    out->mask = pipe::kClearDepth;
    int32_t w, h;
    pipe::Format stencil_format;
    out->stencil = ctx.ReadDepthStencilImage(true, &w, &h, &stencil_format);
    if (pipe::Info(dst).bits[1] > 0 && out->stencil.image.valid()) out->mask |= pipe::kClearStencil;
    return true;
  }
  out->image = ctx.ReadColorImage(&out->width, &out->height, &out->format);
  if (!out->image.image.valid()) {
    ctx.Error(GL_INVALID_OPERATION, fn, "no colour buffer to read");
    return false;
  }
  bool src_int = pipe::IsIntegerFormat(out->format), dst_int = pipe::IsIntegerFormat(dst);
  if (src_int != dst_int) {
    ctx.Error(GL_INVALID_OPERATION, fn, "integer and non-integer formats do not mix");
    return false;
  }
  // Signed and unsigned integers do not convert into each other (GL 4.6 §8.6; Vulkan blits refuse too).
  if (src_int && pipe::Info(out->format).type != pipe::Info(dst).type) {
    ctx.Error(GL_INVALID_OPERATION, fn, "signed and unsigned integer formats do not mix");
    return false;
  }
  out->mask = pipe::kClearColor;
  return true;
}

// Whether a nearest blit gives what GL asks for the pair (see the file comment).
bool DeviceCopies(pipe::Format src, pipe::Format dst) {
  if (pipe::IsDepthFormat(dst)) return src == dst;
  if (dst == pipe::Format::kRGB9E5) return false;
  // A blit into R8/RG8 storage keeps red (and green): luminance is red, but alpha has to be picked out.
  if (pipe::IsLegacyFormat(dst))
    return pipe::LegacyStorage(dst).swizzle.c[3] == pipe::SwizzleSource::kOne;  // luminance only
  return pipe::Info(dst).bits[3] > 0 || pipe::Info(src).bits[3] == 0;
}

// The CPU path: reads the source rectangle back and uploads it converted to the texture's format.
void CopyThroughHost(Context& ctx, const CopySource& src, const LevelSpec& dst, int32_t sx, int32_t sy,
                     int32_t dx, int32_t dy, int32_t layer, int32_t w, int32_t h, const char* fn) {
  const auto& caps = ctx.device().backend().caps();
  bool depth = src.mask & pipe::kClearDepth;
  if ((depth && !caps.read_depth) || ((src.mask & pipe::kClearStencil) && !caps.read_stencil))
    return ctx.Error(GL_INVALID_OPERATION, fn,
                     "the backend's host cannot read depth/stencil (documented gap)");
  size_t n = size_t(w) * h;
  pipe::ReadLayout layout = depth ? pipe::ReadLayout::kDepth32F : LayoutFor(src.format);
  uint32_t size = LayoutSize(layout);
  std::vector<uint8_t> read(n * size), stencil(src.mask & pipe::kClearStencil ? n : 0);
  for (int i = 0; i < (stencil.empty() ? 1 : 2); ++i) {
    pipe::CmdReadPixels cmd{};
    cmd.image = i == 0 ? src.image : src.stencil;
    cmd.layout = layout;
    cmd.aspect = i == 1  ? pipe::ReadAspect::kStencil
                 : depth ? pipe::ReadAspect::kDepth
                         : pipe::ReadAspect::kColor;
    cmd.x = sx, cmd.y = sy, cmd.width = w, cmd.height = h;
    cmd.row_stride = static_cast<uint32_t>(w) * (i == 0 ? size : 1);
    cmd.dst = i == 0 ? read.data() : stencil.data();
    if (!ctx.pipe().RecordAndWait(cmd)) return ctx.Error(GL_CONTEXT_LOST, fn, "device lost");
  }
  uint32_t texel = pipe::TexelSize(dst.format);
  bool alpha = pipe::Info(dst.format).bits[3] > 0,
       int_signed = pipe::Info(src.format).type == pipe::FormatType::kSint;
  std::vector<uint8_t> texels(n * texel, 0);
  for (size_t i = 0; i < n; ++i) {
    glformat::PixelValue v = FromLayout(layout, read.data() + i * size, int_signed);
    uint8_t* out = texels.data() + i * texel;
    if (depth) {
      pipe::EncodeDepth(dst.format, v.depth, stencil.empty() ? 0 : stencil[i], out);
    } else if (pipe::IsIntegerFormat(dst.format)) {
      if (!alpha) v.i[3] = 1;  // RGB formats are stored with alpha 1
      pipe::EncodeInt(dst.format, v.i, int_signed, out);
    } else {
      if (!alpha) v.f[3] = 1.0f;
      pipe::EncodeFloat(dst.format, v.f, out);
    }
  }
  pipe::CmdImageUpload cmd{
      dst.tex->handle,          static_cast<uint32_t>(dst.level),    dx, dy, static_cast<uint32_t>(w),
      static_cast<uint32_t>(h), static_cast<uint32_t>(texels.size())};
  cmd.z = static_cast<uint32_t>(layer);
  cmd.depth = 1;
  ctx.pipe().Record(cmd, texels.data(), texels.size());
}

// A copy into a native RGTC level: the whole (block-aligned) destination box is decoded from the shadow,
// the source pixels inside the read framebuffer are read back and laid over it, and the box is compressed
// again and uploaded as blocks (GL leaves the parts outside the framebuffer undefined: they keep the old
// texels).
void CopyIntoCompressed(Context& ctx, const CopySource& src, const LevelSpec& dst, GLint x, GLint y,
                        const char* fn) {
  std::vector<uint8_t> texels;
  if (!DecodeCompressedBox(ctx, *dst.tex, dst.level, dst.z, dst.x, dst.y, dst.w, dst.h, &texels))
    return ctx.Error(GL_CONTEXT_LOST, fn, "device lost");
  int32_t x0 = std::max(x, 0), y0 = std::max(y, 0);
  int32_t x1 = std::min(x + dst.w, src.width), y1 = std::min(y + dst.h, src.height);
  if (x0 < x1 && y0 < y1) {
    pipe::ReadLayout layout = LayoutFor(src.format);
    uint32_t size = LayoutSize(layout);
    int32_t w = x1 - x0, h = y1 - y0;
    std::vector<uint8_t> read(size_t(w) * h * size);
    pipe::CmdReadPixels cmd{};
    cmd.image = src.image;
    cmd.layout = layout;
    cmd.x = x0, cmd.y = y0, cmd.width = w, cmd.height = h;
    cmd.row_stride = static_cast<uint32_t>(w) * size;
    cmd.dst = read.data();
    if (!ctx.pipe().RecordAndWait(cmd)) return ctx.Error(GL_CONTEXT_LOST, fn, "device lost");
    pipe::Format decoded = pipe::CompressedDecodedFormat(dst.tex->format);
    uint32_t texel = pipe::TexelSize(decoded);
    for (int32_t row = 0; row < h; ++row) {
      for (int32_t col = 0; col < w; ++col) {
        glformat::PixelValue v = FromLayout(layout, read.data() + (size_t(row) * w + col) * size, false);
        size_t at = size_t(y0 - y + row) * dst.w + size_t(x0 - x + col);
        pipe::EncodeFloat(decoded, v.f, texels.data() + at * texel);
      }
    }
  }
  StoreCompressedTexels(ctx, *dst.tex, dst.level, dst.x, dst.y, dst.z, dst.w, dst.h, 1, texels.data());
  UploadCompressedBox(ctx, *dst.tex, dst.level, dst.x, dst.y, dst.z, dst.w, dst.h, 1);
}

// Copies the w x h rectangle at (x, y) of the source into the box of `dst` (dst.x/y/z; a 1D array takes
// one source row per layer). Parts outside the read framebuffer are not copied (GL leaves them undefined).
void Copy(Context& ctx, const CopySource& src, const LevelSpec& dst, GLint x, GLint y, const char* fn) {
  if (ctx.conditional_render.discard) return;
  bool rows_to_layers = dst.tex->target == GL_TEXTURE_1D_ARRAY;
  GLsizei rows = rows_to_layers ? dst.d : dst.h;
  int32_t x0 = std::max(x, 0), y0 = std::max(y, 0);
  int32_t x1 = std::min(x + dst.w, src.width), y1 = std::min(y + rows, src.height);
  if (x0 >= x1 || y0 >= y1) return;
  ctx.FlushRenderTargets();
  if (pipe::IsBlockCompressed(dst.tex->format)) return CopyIntoCompressed(ctx, src, dst, x, y, fn);
  // An RGTC destination's blocks are re-encoded from the device when next asked for.
  ForgetCompressedLevels(*dst.tex, dst.level, dst.level);
  bool device = DeviceCopies(src.format, dst.format);
  // One copy per destination layer: a 1D array's rows, else one rectangle into layer/face/slice z.
  int32_t passes = rows_to_layers ? y1 - y0 : 1;
  for (int32_t i = 0; i < passes; ++i) {
    int32_t sy = rows_to_layers ? y0 + i : y0, h = rows_to_layers ? 1 : y1 - y0;
    int32_t dx = dst.x + (x0 - x), dy = rows_to_layers ? 0 : dst.y + (y0 - y);
    int32_t layer = rows_to_layers ? dst.z + (y0 - y) + i : dst.z;
    if (!device) {
      CopyThroughHost(ctx, src, dst, x0, sy, dx, dy, layer, x1 - x0, h, fn);
      continue;
    }
    pipe::CmdCopyImage cmd{};
    cmd.src = src.image;
    cmd.dst = {dst.tex->handle, static_cast<uint16_t>(dst.level), static_cast<uint16_t>(layer)};
    cmd.src_x = x0, cmd.src_y = sy;
    cmd.dst_x = dx, cmd.dst_y = dy;
    cmd.width = static_cast<uint32_t>(x1 - x0), cmd.height = static_cast<uint32_t>(h);
    cmd.mask = src.mask;
    ctx.pipe().Record(cmd);
  }
}

void CopyTexImage(Context& ctx, int dims, GLenum target, GLint level, GLenum internalformat, GLint x, GLint y,
                  GLsizei w, GLsizei h, GLint border, const char* fn) {
  internalformat = ComponentCountFormat(ctx, internalformat);
  LevelSpec spec;
  if (!CheckTexImage(ctx, dims, target, level, static_cast<GLint>(internalformat), w, h, 1, border, &spec,
                     fn))
    return;
  if (RefuseUncompressedWrite(ctx, internalformat, fn)) return;
  CopySource src;
  if (!CheckSource(ctx, spec.format, &src, fn)) return;
  if (!DefineLevel(ctx, spec, internalformat)) return;
  Copy(ctx, src, spec, x, y, fn);
}

void CopyTexSubImage(Context& ctx, int dims, GLenum target, GLint level, GLint xoffset, GLint yoffset,
                     GLint zoffset, GLint x, GLint y, GLsizei w, GLsizei h, const char* fn) {
  LevelSpec spec;
  if (!CheckTexSubImage(ctx, dims, target, level, xoffset, yoffset, zoffset, w, h, 1, &spec, fn)) return;
  if (RefuseUncompressedWrite(ctx, spec.tex->internal_format, fn)) return;
  CopySource src;
  if (!CheckSource(ctx, spec.format, &src, fn)) return;
  if (spec.w == 0 || spec.h == 0 || spec.d == 0) return;
  Copy(ctx, src, spec, x, y, fn);
}

}  // namespace

namespace gl {

void CopyTexImage1D(Context& ctx, GLenum target, GLint level, GLenum internalformat, GLint x, GLint y,
                    GLsizei width, GLint border) {
  CopyTexImage(ctx, 1, target, level, internalformat, x, y, width, 1, border, "glCopyTexImage1D");
}

void CopyTexImage2D(Context& ctx, GLenum target, GLint level, GLenum internalformat, GLint x, GLint y,
                    GLsizei width, GLsizei height, GLint border) {
  CopyTexImage(ctx, 2, target, level, internalformat, x, y, width, height, border, "glCopyTexImage2D");
}

void CopyTexSubImage1D(Context& ctx, GLenum target, GLint level, GLint xoffset, GLint x, GLint y,
                       GLsizei width) {
  CopyTexSubImage(ctx, 1, target, level, xoffset, 0, 0, x, y, width, 1, "glCopyTexSubImage1D");
}

void CopyTexSubImage2D(Context& ctx, GLenum target, GLint level, GLint xoffset, GLint yoffset, GLint x,
                       GLint y, GLsizei width, GLsizei height) {
  CopyTexSubImage(ctx, 2, target, level, xoffset, yoffset, 0, x, y, width, height, "glCopyTexSubImage2D");
}

void CopyTexSubImage3D(Context& ctx, GLenum target, GLint level, GLint xoffset, GLint yoffset, GLint zoffset,
                       GLint x, GLint y, GLsizei width, GLsizei height) {
  CopyTexSubImage(ctx, 3, target, level, xoffset, yoffset, zoffset, x, y, width, height,
                  "glCopyTexSubImage3D");
}

}  // namespace gl
}  // namespace caldera
