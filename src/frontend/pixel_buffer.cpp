#include "frontend/pixel_buffer.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "frontend/context.h"
#include "frontend/gl_formats.h"

namespace caldera {
namespace {

// Bytes of one element of `type` (packed types: the whole packed pixel): pixel buffer offsets must be a
// multiple of it.
uint32_t TypeSize(GLenum type) {
  switch (type) {
    case GL_UNSIGNED_BYTE:
    case GL_BYTE:
    case GL_UNSIGNED_BYTE_3_3_2:
    case GL_UNSIGNED_BYTE_2_3_3_REV:
      return 1;
    case GL_UNSIGNED_SHORT:
    case GL_SHORT:
    case GL_HALF_FLOAT:
    case GL_UNSIGNED_SHORT_5_6_5:
    case GL_UNSIGNED_SHORT_5_6_5_REV:
    case GL_UNSIGNED_SHORT_4_4_4_4:
    case GL_UNSIGNED_SHORT_4_4_4_4_REV:
    case GL_UNSIGNED_SHORT_5_5_5_1:
    case GL_UNSIGNED_SHORT_1_5_5_5_REV:
      return 2;
    case GL_FLOAT_32_UNSIGNED_INT_24_8_REV:
      return 8;
    default:
      return 4;  // 32-bit scalars and the 32-bit packed types
  }
}

PixelLayout Layout(uint32_t bpp, int32_t row_length, int32_t alignment, int32_t skip_pixels,
                   int32_t skip_rows, int32_t image_height, int32_t skip_images, int32_t width,
                   int32_t height, int32_t depth) {
  PixelLayout l;
  l.bytes_per_pixel = bpp;
  uint64_t row_pixels = row_length > 0 ? uint64_t(row_length) : uint64_t(width);
  uint64_t align = alignment > 0 ? uint64_t(alignment) : 1;
  l.row_stride = (row_pixels * bpp + align - 1) / align * align;
  uint64_t rows = image_height > 0 ? uint64_t(image_height) : uint64_t(height);
  l.image_stride = rows * l.row_stride;
  l.skip = uint64_t(skip_images) * l.image_stride + uint64_t(skip_rows) * l.row_stride +
           uint64_t(skip_pixels) * bpp;
  if (width > 0 && height > 0 && depth > 0)
    l.size = l.skip + uint64_t(depth - 1) * l.image_stride + uint64_t(height - 1) * l.row_stride +
             uint64_t(width) * bpp;
  return l;
}

}  // namespace

uint32_t ClientPixelSize(GLenum format, GLenum type) {
  glformat::ClientLayout client;
  // Only a size: callers have validated the pair (ES uploads may name the luminance formats).
  return glformat::CheckClientFormat(format, type, &client, /*legacy_formats=*/true) == GL_NO_ERROR
             ? static_cast<uint32_t>(client.bytes)
             : 0;
}

PixelLayout PackLayout(const Context& ctx, GLenum format, GLenum type, int32_t width, int32_t height) {
  const GLState& s = ctx.state;
  return Layout(ClientPixelSize(format, type), s.pack_row_length, s.pack_alignment, s.pack_skip_pixels,
                s.pack_skip_rows, 0, 0, width, height, 1);
}

PixelLayout PackLayout3D(const Context& ctx, GLenum format, GLenum type, int32_t width, int32_t height,
                         int32_t depth) {
  const GLState& s = ctx.state;
  return Layout(ClientPixelSize(format, type), s.pack_row_length, s.pack_alignment, s.pack_skip_pixels,
                s.pack_skip_rows, s.pack_image_height, s.pack_skip_images, width, height, depth);
}

PixelLayout UnpackLayout(const Context& ctx, GLenum format, GLenum type, int32_t width, int32_t height,
                         int32_t depth, bool three_d) {
  const GLState& s = ctx.state;
  return Layout(ClientPixelSize(format, type), s.unpack_row_length, s.unpack_alignment, s.unpack_skip_pixels,
                s.unpack_skip_rows, three_d ? s.unpack_image_height : 0, three_d ? s.unpack_skip_images : 0,
                width, height, depth);
}

bool CheckPixelBuffer(Context& ctx, const Buffer& buffer, uint64_t offset, const PixelLayout& layout,
                      GLenum type, const char* function) {
  if (buffer.mapped) {
    ctx.Error(GL_INVALID_OPERATION, function, "the pixel buffer object is mapped");
    return false;
  }
  uint32_t type_size = TypeSize(type);
  if (type_size > 1 && offset % type_size != 0) {
    ctx.Error(GL_INVALID_OPERATION, function, "pixel buffer offset is not a multiple of the type's size");
    return false;
  }
  if (offset > uint64_t(buffer.size) || layout.size > uint64_t(buffer.size) - offset) {
    ctx.Error(GL_INVALID_OPERATION, function, "the transfer reaches past the end of the pixel buffer object");
    return false;
  }
  return true;
}

bool IsDirectPixelFormat(pipe::Format storage, GLenum format, GLenum type) {
  switch (storage) {
    case pipe::Format::kRGBA8:
      return format == GL_RGBA && type == GL_UNSIGNED_BYTE;
    case pipe::Format::kRG8:
      return format == GL_RG && type == GL_UNSIGNED_BYTE;
    case pipe::Format::kR8:
      return format == GL_RED && type == GL_UNSIGNED_BYTE;
    case pipe::Format::kRGBA32F:
      return format == GL_RGBA && type == GL_FLOAT;
    case pipe::Format::kR32F:
      return format == GL_RED && type == GL_FLOAT;
    default:
      return false;  // kRGB8 (stored as RGBA8), packed, half-float and depth formats convert on the CPU
  }
}

namespace {

template <typename T>
void Put(uint8_t* dst, int32_t i, T v) {
  std::memcpy(dst + size_t(i) * sizeof(T), &v, sizeof(T));
}

// A [0, 1] value as an unsigned normalised integer of `bits` bits.
uint32_t Unorm(float v, int bits) {
  double max = std::ldexp(1.0, bits) - 1.0;
  return static_cast<uint32_t>(std::llround(std::clamp(double(v), 0.0, 1.0) * max));
}

}  // namespace

bool PackDepthStencilRow(const float* depth, const uint8_t* stencil, int32_t width, GLenum format,
                         GLenum type, uint8_t* dst) {
  for (int32_t x = 0; x < width; ++x) {
    float d = depth ? depth[x] : 0.0f;
    uint8_t s = stencil ? stencil[x] : 0;
    if (format == GL_DEPTH_STENCIL) {
      if (type == GL_UNSIGNED_INT_24_8) {
        Put<uint32_t>(dst, x, Unorm(d, 24) << 8 | s);
      } else if (type == GL_FLOAT_32_UNSIGNED_INT_24_8_REV) {
        Put<float>(dst, 2 * x, d);
        Put<uint32_t>(dst, 2 * x + 1, s);
      } else {
        return false;
      }
      continue;
    }
    bool is_depth = format == GL_DEPTH_COMPONENT;
    switch (type) {
      case GL_FLOAT:
        Put<float>(dst, x, is_depth ? d : float(s));
        break;
      case GL_UNSIGNED_BYTE:
        Put<uint8_t>(dst, x, is_depth ? uint8_t(Unorm(d, 8)) : s);
        break;
      case GL_BYTE:
        Put<int8_t>(dst, x, is_depth ? int8_t(Unorm(d, 7)) : int8_t(s));
        break;
      case GL_UNSIGNED_SHORT:
        Put<uint16_t>(dst, x, is_depth ? uint16_t(Unorm(d, 16)) : s);
        break;
      case GL_SHORT:
        Put<int16_t>(dst, x, is_depth ? int16_t(Unorm(d, 15)) : s);
        break;
      case GL_UNSIGNED_INT:
        Put<uint32_t>(dst, x, is_depth ? Unorm(d, 32) : s);
        break;
      case GL_INT:
        Put<int32_t>(dst, x, is_depth ? int32_t(Unorm(d, 31)) : s);
        break;
      default:
        return false;
    }
  }
  return true;
}

}  // namespace caldera
