// The raster position (GL 2.1 §2.13, glWindowPos of GL 1.4), glPixelZoom, glPixelTransfer and the pixel
// rectangle commands glDrawPixels, glBitmap and glCopyPixels (§3.6-3.7, §4.3.3). The commands check their
// arguments, convert the client's pixels on the GL thread (unpack state and a bound
// GL_PIXEL_UNPACK_BUFFER applied, pixel transfer scale and bias) and hand an image to pixel_rect_draw.cpp.
// Compiled into a display list, glDrawPixels and glBitmap keep the converted image, as GL requires (the
// unpack state of compile time applies), and their errors are raised when the list runs.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "frontend/buffer_util.h"
#include "frontend/compat/compat_impl.h"
#include "frontend/compat/hooks.h"
#include "frontend/compat/immediate.h"
#include "frontend/compat/pixel_rect_internal.h"
#include "frontend/gl_formats.h"
#include "frontend/gl_impl.h"
#include "frontend/pixel_buffer.h"
#include "frontend/texture_util.h"
#include "util/log.h"

namespace caldera::compat {
namespace {

using namespace legacy;

void Clamp01(const float* in, float* out, int n) {
  for (int i = 0; i < n; ++i) out[i] = std::clamp(in[i], 0.0f, 1.0f);
}

// The raster colour and texture coordinates of a new raster position (glRasterPos: through the texture
// matrices). With lighting on, glRasterPos lights the colours afterwards (LightVertex).
void TakeCurrentAttributes(State& st, bool transform_texcoord) {
  PixelRectState& p = st.pixel;
  Clamp01(st.color, p.color, 4);
  Clamp01(st.secondary, p.secondary, 3);
  p.secondary[3] = 1;
  static_assert(sizeof(p.texcoord) == sizeof(st.texcoord));
  for (int u = 0; u < kTexUnits; ++u) {
    if (transform_texcoord)
      TransformPoint(st.units[u].matrix.back(), st.texcoord[u], p.texcoord[u]);
    else
      std::memcpy(p.texcoord[u], st.texcoord[u], sizeof(p.texcoord[u]));
  }
}

// A pixel rectangle's image once converted: what a display list keeps, and what the command draws.
struct Image {
  GLenum error = GL_NO_ERROR;  // the error the command raises (at execution when compiled)
  const char* why = "";
  RectKind kind = RectKind::kColor;
  int32_t width = 0, height = 0;
  std::vector<float> texels;  // RGBA per pixel, rows bottom-up
  bool empty() const { return width == 0 || height == 0; }
};

Image FailedImage(GLenum error, const char* why) {
  Image img;
  img.error = error, img.why = why;
  return img;
}

// Where the client's pixels are: client memory or the unpack buffer's shadow (checked against `layout`).
// Null with *error set when the buffer check fails; null with no error when there is nothing to read.
const uint8_t* SourcePixels(Context& ctx, const void* pixels, const PixelLayout& layout, GLenum type,
                            const char* fn, bool* failed) {
  *failed = false;
  Buffer* pbo = ctx.pixel_unpack_buffer.get();
  if (!pbo) return static_cast<const uint8_t*>(pixels);
  uint64_t offset = reinterpret_cast<uintptr_t>(pixels);
  if (!CheckPixelBuffer(ctx, *pbo, offset, layout, type, fn)) return *failed = true, nullptr;
  if (!SyncShadow(ctx, *pbo)) {
    ctx.Error(GL_CONTEXT_LOST, fn, "device lost");
    return *failed = true, nullptr;
  }
  return pbo->shadow.data() + offset;
}

// A stencil index of client type `type` (glformat::UnpackPixel reads depth and colours only).
int64_t StencilIndex(GLenum type, const uint8_t* src) {
  auto read = [src](auto value) {
    std::memcpy(&value, src, sizeof value);
    return value;
  };
  switch (type) {
    case GL_BYTE:
      return read(int8_t{});
    case GL_UNSIGNED_SHORT:
      return read(uint16_t{});
    case GL_SHORT:
      return read(int16_t{});
    case GL_UNSIGNED_INT:
      return read(uint32_t{});
    case GL_INT:
      return read(int32_t{});
    case GL_FLOAT:
      return int64_t(read(float{}));
    default:
      return read(uint8_t{});
  }
}

bool IsColorIndexOrStencil(GLenum format) {
  return format == kColorIndex || format == GL_STENCIL_INDEX;
}

// The client layout of a GL_BITMAP image: one bit per pixel, rows of the unpack row length (in bits) at the
// unpack alignment (bytes), skip pixels counted in bits (GL 2.1 §3.6.4).
PixelLayout BitmapLayout(const GLState& s, GLsizei width, GLsizei height) {
  const uint64_t row_bits = uint64_t(s.unpack_row_length > 0 ? s.unpack_row_length : width);
  const uint64_t align = uint64_t(s.unpack_alignment);
  PixelLayout layout;
  layout.bytes_per_pixel = 1;
  layout.row_stride = ((row_bits + 7) / 8 + align - 1) / align * align;
  layout.skip = uint64_t(s.unpack_skip_rows) * layout.row_stride;
  layout.size = layout.skip + uint64_t(height - 1) * layout.row_stride +
                (uint64_t(s.unpack_skip_pixels) + uint64_t(width) + 7) / 8;
  return layout;
}

// Bit x of a GL_BITMAP row, GL_UNPACK_LSB_FIRST choosing the bit order.
bool BitmapBit(const GLState& s, const uint8_t* row, GLsizei x) {
  const uint64_t bit = uint64_t(s.unpack_skip_pixels) + uint64_t(x);
  const int shift = s.unpack_lsb_first ? int(bit % 8) : 7 - int(bit % 8);
  return (row[bit / 8] >> shift) & 1;
}

bool IsIndexType(GLenum type) {
  switch (type) {
    case GL_UNSIGNED_BYTE:
    case GL_BYTE:
    case GL_UNSIGNED_SHORT:
    case GL_SHORT:
    case GL_UNSIGNED_INT:
    case GL_INT:
    case GL_FLOAT:
    case kBitmap:
      return true;
    default:
      return false;
  }
}

// glDrawPixels' image: format/type checks (GL 2.1 §3.6.4, GL 3.3 compatibility §3.7.4), then conversion.
Image ConvertDrawPixels(Context& ctx, GLsizei width, GLsizei height, GLenum format, GLenum type,
                        const void* pixels, bool* failed_now) {
  const char* fn = "glDrawPixels";
  *failed_now = false;
  if (width < 0 || height < 0) return FailedImage(GL_INVALID_VALUE, "negative width or height");
  if (type == kBitmap && !IsColorIndexOrStencil(format))
    return FailedImage(GL_INVALID_ENUM, "GL_BITMAP needs an index format");
  glformat::ClientLayout client;
  const bool color_index = format == kColorIndex;
  if (color_index) {
    if (!IsIndexType(type)) return FailedImage(GL_INVALID_ENUM, "invalid type for GL_COLOR_INDEX");
  } else if (type != kBitmap) {
    if (GLenum error = glformat::CheckClientFormat(format, type, &client, true))
      return FailedImage(
          error, error == GL_INVALID_ENUM ? "invalid format or type" : "format and type do not match");
  } else {
    client.stencil = true;
  }
  if (client.integer)
    return FailedImage(GL_INVALID_OPERATION, "integer formats need an integer colour buffer");
  Image img;
  // GL_DEPTH_STENCIL images write their depth only (logged).
  img.kind = client.depth ? RectKind::kDepth : client.stencil ? RectKind::kStencil : RectKind::kColor;
  if (client.depth && client.stencil)
    util::LogOnce(util::LogLevel::kWarning, "glDrawPixels", "GL_DEPTH_STENCIL images write their depth only");
  img.width = width, img.height = height;
  if (img.empty()) return img;
  const GLState& s = ctx.state;
  // A colour-index image is laid out as a stencil image of the same type is: one index per pixel.
  PixelLayout layout = type == kBitmap ? BitmapLayout(s, width, height)
                                       : UnpackLayout(ctx, color_index ? GL_STENCIL_INDEX : format, type,
                                                      width, height, 1, false);
  const uint8_t* base =
      SourcePixels(ctx, pixels, layout, type == kBitmap ? GL_UNSIGNED_BYTE : type, fn, failed_now);
  if (!base) {
    img.width = img.height = 0;
    return img;
  }
  const PixelRectState& p = ctx.compat->pixel;
  const bool luminance = format == kLuminance || format == kLuminanceAlpha;
  img.texels.resize(size_t(width) * size_t(height) * 4);
  float* dst = img.texels.data();
  for (GLsizei y = 0; y < height; ++y) {
    const uint8_t* row = base + layout.skip + size_t(y) * layout.row_stride;
    for (GLsizei x = 0; x < width; ++x, dst += 4) {
      const uint8_t* src = row + size_t(x) * layout.bytes_per_pixel;
      if (color_index || img.kind == RectKind::kStencil) {
        // Indices: shift and offset, then the maps (GL 2.1 §3.6.5).
        int64_t index = type == kBitmap ? int64_t(BitmapBit(s, row, x)) : StencilIndex(type, src);
        index = ShiftAndOffset(p, index);
        if (color_index) {
          IndexToRgba(p, index, dst);
          continue;
        }
        if (p.map_stencil) index = MapStencil(p, index);
        dst[0] = float(index & 0xff);
        dst[1] = dst[2] = 0, dst[3] = 1;
        continue;
      }
      glformat::PixelValue v;
      glformat::UnpackPixel(format, type, src, &v);
      if (img.kind == RectKind::kDepth) {
        dst[0] = std::clamp(v.depth * p.scale[4] + p.bias[4], 0.0f, 1.0f);
        dst[1] = dst[2] = 0, dst[3] = 1;
        continue;
      }
      if (luminance) v.f[1] = v.f[2] = v.f[0];  // GL 2.1 §3.6.4, conversion to RGB
      for (int c = 0; c < 4; ++c) dst[c] = v.f[c] * p.scale[c] + p.bias[c];
      if (p.map_color) MapColor(p, dst);
    }
  }
  return img;
}

// glBitmap's coverage: one bit per pixel, rows of the unpack row length (in bits) at the unpack alignment
// (bytes), skip pixels counted in bits, GL_UNPACK_LSB_FIRST choosing the bit order (GL 2.1 §3.6.4).
Image ConvertBitmap(Context& ctx, GLsizei width, GLsizei height, const GLubyte* bitmap, bool* failed_now) {
  *failed_now = false;
  if (width < 0 || height < 0) return FailedImage(GL_INVALID_VALUE, "negative width or height");
  Image img;
  img.kind = RectKind::kBitmap;
  if (width == 0 || height == 0) return img;
  const GLState& s = ctx.state;
  const PixelLayout layout = BitmapLayout(s, width, height);
  const uint8_t* base = SourcePixels(ctx, bitmap, layout, GL_UNSIGNED_BYTE, "glBitmap", failed_now);
  if (!base) return img;
  img.width = width, img.height = height;
  img.texels.assign(size_t(width) * size_t(height) * 4, 0.0f);
  for (GLsizei y = 0; y < height; ++y) {
    const uint8_t* row = base + layout.skip + size_t(y) * layout.row_stride;
    for (GLsizei x = 0; x < width; ++x)
      if (BitmapBit(s, row, x)) img.texels[(size_t(y) * size_t(width) + size_t(x)) * 4] = 1.0f;
  }
  return img;
}

// Where glDrawPixels and glCopyPixels put the image's lower-left corner: the raster position rounded to
// the nearest pixel corner, as Mesa places it, so that a position the float transform left a hair off an
// integer draws where the program meant (GL's zoom rule on the exact position would pick the same
// fragments for integer positions).
float RasterX(const PixelRectState& p) {
  return std::round(p.position[0]);
}
float RasterY(const PixelRectState& p) {
  return std::round(p.position[1]);
}

bool HasAttachment(Context& ctx, int index) {
  Framebuffer* fb = ctx.draw_framebuffer.get();
  return !fb || fb->attachments[size_t(index)].attached();  // the default framebuffer has depth and stencil
}

// Runs a converted glDrawPixels (now, or from a display list).
void ExecuteDrawPixels(Context& ctx, const Image& img, std::shared_ptr<Texture>* cached) {
  const char* fn = "glDrawPixels";
  if (img.error != GL_NO_ERROR) return ctx.Error(img.error, fn, img.why);
  if (img.kind == RectKind::kStencil && !HasAttachment(ctx, kStencilAttachment))
    return ctx.Error(GL_INVALID_OPERATION, fn, "GL_STENCIL_INDEX without a stencil buffer");
  if (img.kind == RectKind::kDepth && !HasAttachment(ctx, kDepthAttachment))
    return ctx.Error(GL_INVALID_OPERATION, fn, "GL_DEPTH_COMPONENT without a depth buffer");
  PixelRectState& p = ctx.compat->pixel;
  if (OutsideRender(*ctx.compat)) return FeedbackRasterToken(ctx, GL_DRAW_PIXEL_TOKEN);
  if (!p.valid || img.empty()) return;
  std::shared_ptr<Texture> image;
  if (cached && *cached) {
    image = *cached;
  } else {
    // The shared image is re-uploaded per command; a display list keeps its own.
    image = MakeRectImage(ctx, img.width, img.height, img.texels.data(), cached ? nullptr : p.image);
    (cached ? *cached : p.image) = image;
  }
  if (img.kind == RectKind::kStencil)
    DrawStencilImage(ctx, image, RasterX(p), RasterY(p), p.zoom[0], p.zoom[1]);
  else
    DrawRectImage(ctx, img.kind, image, RasterX(p), RasterY(p), p.zoom[0], p.zoom[1]);
}

void ExecuteBitmap(Context& ctx, const std::shared_ptr<Image>& img, float xorig, float yorig, float xmove,
                   float ymove) {
  if (img->error != GL_NO_ERROR) return ctx.Error(img->error, "glBitmap", img->why);
  PixelRectState& p = ctx.compat->pixel;
  if (!p.valid) return;  // GL 2.1 §3.7: ignored, the raster position does not move
  if (OutsideRender(*ctx.compat)) {
    FeedbackRasterToken(ctx, GL_BITMAP_TOKEN);
  } else if (!img->empty() && !ctx.conditional_render.discard) {
    // The bitmap's lower-left corner is at (floor(xr - xo), floor(yr - yo)); zoom does not apply. The
    // small bias keeps a position meant to be an integer, which the float transform of glRasterPos may
    // leave a hair below it, on that integer (Mesa does the same).
    constexpr float kBias = 1e-4f;
    PendingBitmap b;
    b.x = std::floor(p.position[0] + kBias - xorig);
    b.y = std::floor(p.position[1] + kBias - yorig);
    b.width = img->width, b.height = img->height;
    std::copy_n(p.color, 4, b.color);
    b.depth = p.position[2];
    b.texels = img->texels.data();
    b.keep = img;
    QueueBitmap(ctx, std::move(b));
  }
  p.position[0] += xmove;
  p.position[1] += ymove;
}

// A recorded pixel command runs from a display list without its entry point: draw what glBegin/glEnd
// batched first, and refuse it inside glBegin/glEnd as the entry point would.
bool BeforeRecorded(Context& ctx, const char* fn, bool keep_bitmaps = false) {
  if (ctx.compat_hooks & kHookInBegin) {
    ctx.Error(GL_INVALID_OPERATION, fn, "not allowed between glBegin and glEnd");
    return false;
  }
  // A glBitmap draws only glBegin/glEnd's vertices: bitmaps queued before it stay queued to be drawn with
  // it.
  if (!keep_bitmaps || !ctx.compat->batch.empty()) DrawPendingBatch(ctx);
  return true;
}

}  // namespace

void RasterPosCommon(Context& ctx, float x, float y, float z, float w) {
  State& st = *ctx.compat;
  PixelRectState& p = st.pixel;
  const float object[4] = {x, y, z, w};
  float eye[4], clip[4];
  TransformPoint(st.modelview.back(), object, eye);
  TransformPoint(st.projection.back(), eye, clip);
  // GL 2.1 §2.13: a position outside the clip volume makes the raster position invalid.
  for (int i = 0; i < 3; ++i) {
    if (!(clip[i] >= -clip[3] && clip[i] <= clip[3])) {
      p.valid = false;
      return;
    }
  }
  if (clip[3] == 0) {
    p.valid = false;
    return;
  }
  const GLint* vp = ctx.state.viewport;
  const float n = ctx.state.depth_range[0], f = ctx.state.depth_range[1];
  const float nx = clip[0] / clip[3], ny = clip[1] / clip[3], nz = clip[2] / clip[3];
  p.position[0] = float(vp[0]) + (nx + 1) * float(vp[2]) * 0.5f;
  p.position[1] = float(vp[1]) + (ny + 1) * float(vp[3]) * 0.5f;
  p.position[2] = n + (nz + 1) * (f - n) * 0.5f;
  p.position[3] = clip[3];
  p.valid = true;
  p.distance = std::sqrt(eye[0] * eye[0] + eye[1] * eye[1] + eye[2] * eye[2]);
  TakeCurrentAttributes(st, true);
  if (st.lighting) LightVertex(st, st.normal, eye, p.color, p.secondary);  // GL 2.1 §2.13
  SelectRasterHit(ctx);
}

void WindowPosCommon(Context& ctx, float x, float y, float z) {
  State& st = *ctx.compat;
  PixelRectState& p = st.pixel;
  const float n = ctx.state.depth_range[0], f = ctx.state.depth_range[1];
  p.position[0] = x;
  p.position[1] = y;
  p.position[2] = n + std::clamp(z, 0.0f, 1.0f) * (f - n);
  p.position[3] = 1;
  p.valid = true;  // glWindowPos is never clipped
  p.distance = 0;
  TakeCurrentAttributes(st, false);
}

int QueryPixelRectState(Context& ctx, GLenum pname, double* out, bool* color) {
  const PixelRectState& p = ctx.compat->pixel;
  auto put = [&](const float* v, int n) {
    for (int i = 0; i < n; ++i) out[i] = v[i];
    return n;
  };
  switch (pname) {
    case kCurrentRasterPosition:
      return put(p.position, 4);
    case kCurrentRasterPositionValid:
      return out[0] = p.valid, 1;
    case kCurrentRasterColor:
      *color = true;
      return put(p.color, 4);
    case kCurrentRasterSecondaryColor:
      *color = true;
      return put(p.secondary, 4);
    case kCurrentRasterTextureCoords:
      return put(p.texcoord[ctx.active_texture < GLuint(kTexUnits) ? ctx.active_texture : 0], 4);
    case kCurrentRasterDistance:
      return out[0] = p.distance, 1;
    case kCurrentRasterIndex:
      return out[0] = 1, 1;
    case kZoomX:
      return out[0] = p.zoom[0], 1;
    case kZoomY:
      return out[0] = p.zoom[1], 1;
    case kRedScale:
    case kGreenScale:
    case kBlueScale:
    case kAlphaScale:
    case kDepthScale:
    case kRedBias:
    case kGreenBias:
    case kBlueBias:
    case kAlphaBias:
    case kDepthBias: {
      static const GLenum kScales[5] = {kRedScale, kGreenScale, kBlueScale, kAlphaScale, kDepthScale};
      static const GLenum kBiases[5] = {kRedBias, kGreenBias, kBlueBias, kAlphaBias, kDepthBias};
      for (int i = 0; i < 5; ++i) {
        if (pname == kScales[i]) return out[0] = p.scale[i], 1;
        if (pname == kBiases[i]) return out[0] = p.bias[i], 1;
      }
      return 0;
    }
    case kMapColor:
      return out[0] = p.map_color, 1;
    case kMapStencil:
      return out[0] = p.map_stencil, 1;
    case kIndexShift:
      return out[0] = p.index_shift, 1;
    case kIndexOffset:
      return out[0] = p.index_offset, 1;
    default:
      return 0;
  }
}

}  // namespace caldera::compat

namespace caldera::gl {
using namespace caldera::compat;
using namespace caldera::compat::legacy;

void PixelZoom(Context& ctx, GLfloat xfactor, GLfloat yfactor) {
  ctx.compat->pixel.zoom[0] = xfactor;
  ctx.compat->pixel.zoom[1] = yfactor;
}

void PixelTransferf(Context& ctx, GLenum pname, GLfloat param) {
  PixelRectState& p = ctx.compat->pixel;
  static const GLenum kScales[5] = {kRedScale, kGreenScale, kBlueScale, kAlphaScale, kDepthScale};
  static const GLenum kBiases[5] = {kRedBias, kGreenBias, kBlueBias, kAlphaBias, kDepthBias};
  for (int i = 0; i < 5; ++i) {
    if (pname == kScales[i]) return void(p.scale[i] = param);
    if (pname == kBiases[i]) return void(p.bias[i] = param);
  }
  switch (pname) {
    case kMapColor:
      p.map_color = param != 0;
      break;
    case kMapStencil:
      p.map_stencil = param != 0;
      break;
    case kIndexShift:
      p.index_shift = GLint(param);
      break;
    case kIndexOffset:
      p.index_offset = GLint(param);
      break;
    default:
      return ctx.Error(GL_INVALID_ENUM, "glPixelTransfer", "invalid pname");
  }
  if (p.map_color || p.map_stencil)
    util::LogOnce(util::LogLevel::kWarning, "glPixelTransfer",
                  "pixel maps apply to glDrawPixels only (not to glCopyPixels, texture images or readback)");
}

void PixelTransferi(Context& ctx, GLenum pname, GLint param) {
  PixelTransferf(ctx, pname, GLfloat(param));
}

void DrawPixels(Context& ctx, GLsizei width, GLsizei height, GLenum format, GLenum type, const void* pixels) {
  bool failed = false;
  auto img = std::make_shared<Image>(ConvertDrawPixels(ctx, width, height, format, type, pixels, &failed));
  if (failed) return;  // the unpack buffer check recorded its error
  if (Compiling(ctx)) {
    Context* c = &ctx;
    auto cached = std::make_shared<std::shared_ptr<Texture>>();
    Record(ctx, [c, img, cached] {
      if (BeforeRecorded(*c, "glDrawPixels")) ExecuteDrawPixels(*c, *img, cached.get());
    });
    if (!ExecutingWhileCompiling(ctx)) return;
  }
  ExecuteDrawPixels(ctx, *img, nullptr);
}

void Bitmap(Context& ctx, GLsizei width, GLsizei height, GLfloat xorig, GLfloat yorig, GLfloat xmove,
            GLfloat ymove, const GLubyte* bitmap) {
  bool failed = false;
  auto img = std::make_shared<Image>(ConvertBitmap(ctx, width, height, bitmap, &failed));
  if (failed) return;
  if (Compiling(ctx)) {
    // Bitmap fonts are lists of glBitmap: running a glCallLists of them queues each glyph, and the run is
    // drawn as one.
    Context* c = &ctx;
    Record(ctx, [=] {
      if (BeforeRecorded(*c, "glBitmap", true)) ExecuteBitmap(*c, img, xorig, yorig, xmove, ymove);
    });
    if (!ExecutingWhileCompiling(ctx)) return;
  }
  ExecuteBitmap(ctx, img, xorig, yorig, xmove, ymove);
}

}  // namespace caldera::gl

namespace caldera::gl {
using namespace caldera::compat;
using namespace caldera::compat::legacy;

// glCopyPixels: the region is copied into an internal texture through glCopyTexImage2D's path (a device
// copy in pipe order), then drawn as glDrawPixels draws. Pixel transfer scale and bias are not applied to
// copies; GL_STENCIL is not drawn (no shader stencil export).
void CopyPixels(Context& ctx, GLint x, GLint y, GLsizei width, GLsizei height, GLenum type) {
  const char* fn = "glCopyPixels";
  if (type != kColor && type != kDepth && type != kStencil)
    return ctx.Error(GL_INVALID_ENUM, fn, "invalid type");
  if (width < 0 || height < 0) return ctx.Error(GL_INVALID_VALUE, fn, "negative width or height");
  if (type == kDepth && !HasAttachment(ctx, kDepthAttachment))
    return ctx.Error(GL_INVALID_OPERATION, fn, "no depth buffer");
  if (type == kStencil) {
    if (!HasAttachment(ctx, kStencilAttachment))
      return ctx.Error(GL_INVALID_OPERATION, fn, "no stencil buffer");
    util::LogOnce(util::LogLevel::kWarning, fn, "GL_STENCIL copies are not drawn");
    return;
  }
  PixelRectState& p = ctx.compat->pixel;
  if (OutsideRender(*ctx.compat)) return FeedbackRasterToken(ctx, GL_COPY_PIXEL_TOKEN);
  if (!p.valid || width == 0 || height == 0) return;
  auto copy = std::make_shared<Texture>();
  copy->target = GL_TEXTURE_2D;
  copy->sampler.min_filter = copy->sampler.mag_filter = GL_NEAREST;
  copy->max_level = 0;
  auto& slot = ctx.textures[ctx.active_texture][size_t(TextureTargetIndex(GL_TEXTURE_2D))];
  std::shared_ptr<Texture> saved = std::move(slot);
  slot = copy;
  GLenum before = ctx.PeekError();
  CopyTexImage2D(ctx, GL_TEXTURE_2D, 0, type == kDepth ? GL_DEPTH_COMPONENT32F : GL_RGBA32F, x, y, width,
                 height, 0);
  slot = std::move(saved);
  if (ctx.PeekError() != before || !copy->handle.valid()) return;  // the read framebuffer could not be read
  DrawRectImage(ctx, type == kDepth ? RectKind::kDepth : RectKind::kColor, copy, RasterX(p), RasterY(p),
                p.zoom[0], p.zoom[1]);
}

}  // namespace caldera::gl
