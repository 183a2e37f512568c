// glGetTexImage: every layer (array layer, 3D slice; cube faces one at a time) of one level read back
// through the same pack path as glReadPixels (pack state, pack buffers, every format/type conversion).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "frontend/context.h"
#include "frontend/device.h"
#include "frontend/gl_formats.h"
#include "frontend/gl_impl.h"
#include "frontend/pixel_buffer.h"
#include "frontend/texture_util.h"
#include "pipe/texels.h"

namespace caldera {
namespace {

// The readbacks the device cannot do as plain reads: `fill(layer, rgba)` writes each layer's w x h texels
// on the CPU (tight rows, in `cpu_layout`; false: the device was lost), then they are packed as any other
// readback.
template <typename Fill>
void PackCpuLayers(Context& ctx, const Texture& tex, GLint level, GLint first_layer, int32_t layers,
                   pipe::Format read_format, pipe::ReadLayout cpu_layout, GLenum format, GLenum type,
                   const PixelLayout& layout, void* pixels, const char* fn, Fill&& fill) {
  int32_t w = std::max(tex.width >> level, 1), h = std::max(tex.height >> level, 1);
  std::vector<uint8_t> rgba(size_t(w) * h * LayoutSize(cpu_layout));
  for (int32_t layer = 0; layer < layers; ++layer) {
    pipe::ImageRef image{tex.handle, static_cast<uint16_t>(level),
                         static_cast<uint16_t>(first_layer + layer)};
    if (!fill(image, w, h, rgba.data())) return ctx.Error(GL_CONTEXT_LOST, fn, "device lost");
    CpuTexels cpu{cpu_layout, rgba.data()};
    uint64_t first = layout.skip + uint64_t(layer) * layout.image_stride;
    if (!PackImage(ctx, image, {}, read_format, 0, 0, w, h, format, type, layout, first, pixels, fn, &cpu))
      return;
  }
}

// glGetTexImage of a native block-compressed texture: each layer decoded from the blocks (8-bit values, as
// Mesa decodes them too; BC6H: halves) and packed as any other readback. Signed and BC6H values travel as
// floats (no clamping to 0..1).
void GetCompressedTexImageDecoded(Context& ctx, Texture& tex, GLint level, GLint first_layer, int32_t layers,
                                  GLenum format, GLenum type, const PixelLayout& layout, void* pixels,
                                  const char* fn) {
  pipe::Format decoded = pipe::CompressedDecodedFormat(tex.format);
  const pipe::FormatInfo& info = pipe::Info(decoded);
  bool is_signed = info.type == pipe::FormatType::kSnorm;
  bool is_float = info.type == pipe::FormatType::kFloat;  // BC6H: four halves a texel (RGBA16F storage)
  bool wide = is_signed || is_float;
  std::vector<uint8_t> texels;
  auto decode = [&](pipe::ImageRef image, int32_t w, int32_t h, uint8_t* rgba) {
    if (!DecodeCompressedBox(ctx, tex, image.level, image.layer, 0, 0, w, h, &texels)) return false;
    for (size_t t = 0; t < size_t(w) * h; ++t) {
      float v[4] = {0.0f, 0.0f, 0.0f, 1.0f};
      for (int c = 0; c < info.components; ++c) {
        if (is_float) {
          uint16_t half;
          std::memcpy(&half, &texels[t * 8 + size_t(c) * 2], 2);
          v[c] = pipe::HalfToFloat(half);
          continue;
        }
        uint8_t b = texels[t * info.components + c];
        v[c] = is_signed ? std::max(float(int8_t(b)) / 127.0f, -1.0f) : float(b) / 255.0f;
      }
      if (wide) {
        std::memcpy(&rgba[t * 16], v, 16);
      } else {
        for (int c = 0; c < 4; ++c) rgba[t * 4 + c] = static_cast<uint8_t>(std::lround(v[c] * 255.0f));
      }
    }
    return true;
  };
  PackCpuLayers(ctx, tex, level, first_layer, layers, decoded,
                wide ? pipe::ReadLayout::kRGBA32F : pipe::ReadLayout::kRGBA8, format, type, layout, pixels,
                fn, decode);
}

// Alpha and luminance-alpha textures keep alpha in their R8/RG8 storage's red or green, which a plain read of
// the storage returns as red or green. glGetTexImage gives luminance as red and alpha as alpha (GL 2.1
// §6.1.4): read the stored components as bytes (every backend reads its 8-bit images so) and place them so.
// Luminance and intensity formats read right as they are (their one stored component is red, alpha one).
// Only desktop compatibility contexts have glGetTexImage, and only the 8-bit forms.
bool StoresAlphaOffAlpha(pipe::Format f) {
  if (!pipe::IsLegacyFormat(f)) return false;
  const pipe::Swizzle s = pipe::LegacyStorage(f).swizzle;
  return s.c[3] != pipe::SwizzleSource::kOne && s.c[3] != s.c[0];
}

void GetLegacyAlphaTexImage(Context& ctx, const Texture& tex, GLint level, GLint first_layer, int32_t layers,
                            GLenum format, GLenum type, const PixelLayout& layout, void* pixels,
                            const char* fn) {
  const pipe::Swizzle swizzle = pipe::LegacyStorage(tex.format).swizzle;
  const bool has_luminance = swizzle.c[0] <= pipe::SwizzleSource::kA;
  std::vector<uint8_t> stored;
  auto place = [&](pipe::ImageRef image, int32_t w, int32_t h, uint8_t* rgba) {
    stored.resize(size_t(w) * h * 4);
    pipe::CmdReadPixels cmd{};
    cmd.image = image;
    cmd.layout = pipe::ReadLayout::kRGBA8;
    cmd.width = w, cmd.height = h;
    cmd.row_stride = static_cast<uint32_t>(w) * 4;
    cmd.dst = stored.data();
    if (!ctx.pipe().RecordAndWait(cmd)) return false;
    for (size_t t = 0; t < size_t(w) * h; ++t) {
      const uint8_t* in = &stored[t * 4];
      uint8_t* out = &rgba[t * 4];
      out[0] = has_luminance ? in[int(swizzle.c[0])] : 0;
      out[1] = out[2] = 0;
      out[3] = in[int(swizzle.c[3])];
    }
    return true;
  };
  PackCpuLayers(ctx, tex, level, first_layer, layers, pipe::Format::kRGBA8, pipe::ReadLayout::kRGBA8, format,
                type, layout, pixels, fn, place);
}

}  // namespace

namespace gl {

namespace {

// glGetTexImage and glGetnTexImage (buf_size bytes of client memory; -1: unbounded).
void GetTexImageInto(Context& ctx, GLenum target, GLint level, GLenum format, GLenum type, GLsizei buf_size,
                     void* pixels, const char* fn) {
  bool face = target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z;
  switch (target) {
    case GL_TEXTURE_1D:
    case GL_TEXTURE_2D:
    case GL_TEXTURE_3D:
    case GL_TEXTURE_1D_ARRAY:
    case GL_TEXTURE_2D_ARRAY:
    case GL_TEXTURE_RECTANGLE:
      break;
    default:
      if (!face) return ctx.Error(GL_INVALID_ENUM, fn, "invalid target");
  }
  GLsizei max = static_cast<GLsizei>(ctx.device().backend().caps().max_texture_size);
  GLint max_level = 0;
  while ((max >> (max_level + 1)) > 0) ++max_level;
  if (level < 0 || level > max_level) return ctx.Error(GL_INVALID_VALUE, fn, "level out of range");
  if (target == GL_TEXTURE_RECTANGLE && level != 0)
    return ctx.Error(GL_INVALID_VALUE, fn, "rectangle textures have only level 0");
  glformat::ClientLayout client;
  if (GLenum error = glformat::CheckClientFormat(format, type, &client, ctx.IsCompat()))
    return ctx.Error(error, fn, "invalid format/type pair");
  if (client.stencil && !client.depth)
    return ctx.Error(GL_INVALID_ENUM, fn, "GL_STENCIL_INDEX is not a texture image format");
  auto* slot = BoundTexture(ctx, face ? GL_TEXTURE_CUBE_MAP : target, fn);
  if (!slot) return;
  const Texture& tex = **slot;
  int face_index = face ? static_cast<int>(target - GL_TEXTURE_CUBE_MAP_POSITIVE_X) : 0;
  bool has = tex.handle.valid() && level < tex.levels && (tex.defined[face_index] & (1u << level));
  if (!has) return;  // an undefined level returns nothing (no error)
  if (!glformat::ClientFormatMatches(client, tex.format))
    return ctx.Error(GL_INVALID_OPERATION, fn,
                     "format does not match the internal format (integer, depth or colour)");
  if (client.stencil && pipe::Info(tex.format).bits[1] == 0)
    return ctx.Error(GL_INVALID_OPERATION, fn, "GL_DEPTH_STENCIL needs a depth-stencil texture");
  const auto& caps = ctx.device().backend().caps();
  if ((client.depth && !caps.read_depth) || (client.stencil && !caps.read_stencil))
    return ctx.Error(GL_INVALID_OPERATION, fn,
                     "the backend's host cannot read depth/stencil (documented gap)");

  int32_t w = std::max(tex.width >> level, 1), h = std::max(tex.height >> level, 1);
  int32_t layers = face ? 1 : tex.LayersAt(level);
  // A 1D array is one image whose rows are its layers (each stored as a layer of one row); 2D arrays and 3D
  // textures are `layers` images (pack image height and skip images apply).
  bool rows_are_layers = tex.target == GL_TEXTURE_1D_ARRAY;
  PixelLayout layout = rows_are_layers ? PackLayout(ctx, format, type, w, layers)
                                       : PackLayout3D(ctx, format, type, w, h, layers);
  Buffer* pbo = ctx.pixel_pack_buffer.get();
  if (pbo && !CheckPixelBuffer(ctx, *pbo, reinterpret_cast<uintptr_t>(pixels), layout, type, fn)) return;
  // Client memory of bufSize bytes must hold every byte the image writes (GL 4.5 §8.11.4).
  if (!pbo && buf_size >= 0 && layout.size > uint64_t(buf_size))
    return ctx.Error(GL_INVALID_OPERATION, fn, "bufSize is smaller than the image");
  if (!pbo && !pixels) return;
  ctx.FlushRenderTargets();  // a pending clear of a texture that is also the current target is resolved
  // Native RGTC levels are decoded from their block shadow (the device cannot read them back as texels).
  if (pipe::IsBlockCompressed(tex.format))
    return GetCompressedTexImageDecoded(ctx, **slot, level, face ? face_index : 0, layers, format, type,
                                        layout, pixels, fn);
  if (StoresAlphaOffAlpha(tex.format) && !rows_are_layers)
    return GetLegacyAlphaTexImage(ctx, tex, level, face ? face_index : 0, layers, format, type, layout,
                                  pixels, fn);
  for (int32_t layer = 0; layer < layers; ++layer) {
    pipe::ImageRef image{tex.handle, static_cast<uint16_t>(level),
                         static_cast<uint16_t>(face ? face_index : layer)};
    uint64_t first = layout.skip + (rows_are_layers ? uint64_t(layer) * layout.row_stride
                                                    : uint64_t(layer) * layout.image_stride);
    pipe::ImageRef depth = client.depth || !client.stencil ? image : pipe::ImageRef{};
    pipe::ImageRef stencil = client.stencil ? image : pipe::ImageRef{};
    if (!PackImage(ctx, depth, stencil, tex.format, 0, 0, w, rows_are_layers ? 1 : h, format, type, layout,
                   first, pixels, fn))
      return;
  }
}

}  // namespace

void GetTexImage(Context& ctx, GLenum target, GLint level, GLenum format, GLenum type, void* pixels) {
  GetTexImageInto(ctx, target, level, format, type, -1, pixels, "glGetTexImage");
}

void GetnTexImage(Context& ctx, GLenum target, GLint level, GLenum format, GLenum type, GLsizei buf_size,
                  void* pixels) {
  GetTexImageInto(ctx, target, level, format, type, std::max<GLsizei>(buf_size, 0), pixels, "glGetnTexImage");
}

}  // namespace gl
}  // namespace caldera
