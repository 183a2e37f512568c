#include "frontend/pixel_buffer.h"

#include "frontend/context.h"

namespace caldera {
namespace {

uint32_t Components(GLenum format) {
  switch (format) {
    case GL_RGBA:
    case GL_BGRA:
    case GL_RGBA_INTEGER:
      return 4;
    case GL_RGB:
    case GL_BGR:
      return 3;
    case GL_RG:
      return 2;
    case GL_RED:
    case GL_GREEN:
    case GL_BLUE:
    case GL_ALPHA:
    case GL_DEPTH_COMPONENT:
    case GL_STENCIL_INDEX:
      return 1;
    default:
      return 0;
  }
}

uint32_t TypeSize(GLenum type) {
  switch (type) {
    case GL_UNSIGNED_BYTE:
    case GL_BYTE:
      return 1;
    case GL_UNSIGNED_SHORT:
    case GL_SHORT:
    case GL_HALF_FLOAT:
      return 2;
    case GL_UNSIGNED_INT:
    case GL_INT:
    case GL_FLOAT:
    case GL_UNSIGNED_INT_24_8:
      return 4;
    case GL_FLOAT_32_UNSIGNED_INT_24_8_REV:
      return 8;
    default:
      return 0;
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
  if (format == GL_DEPTH_STENCIL) return TypeSize(type);  // packed types: one element per pixel
  return Components(format) * TypeSize(type);
}

PixelLayout PackLayout(const Context& ctx, GLenum format, GLenum type, int32_t width, int32_t height) {
  const GLState& s = ctx.state;
  return Layout(ClientPixelSize(format, type), s.pack_row_length, s.pack_alignment, s.pack_skip_pixels,
                s.pack_skip_rows, 0, 0, width, height, 1);
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

}  // namespace caldera
