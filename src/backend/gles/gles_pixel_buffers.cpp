// Pixel buffer objects on the host: the host buffer is bound as GL_PIXEL_UNPACK_BUFFER / _PACK_BUFFER and
// the host driver copies on its side (no round trip through Caldera), with the row length the record names.
// Also reads of an image's stored texels (ReadLayout::kStored) into client memory.
#include <cstring>
#include <vector>

#include "backend/gles/gles_context.h"
#include "backend/gles/gles_formats.h"
#include "pipe/texels.h"

namespace caldera::gles {

void Context::OnImageUploadFromBuffer(const pipe::CmdImageUploadFromBuffer& c) {
  ImageObject* img = device_.images.Get(c.image);
  BufferObject* src = device_.buffers.Get(c.buffer);
  if (!img || !img->texture || !src || pipe::IsDepthFormat(img->format)) return;
  uint64_t texel = pipe::TexelSize(img->format);
  uint64_t rows = uint64_t(c.depth - 1) * c.image_height + c.height;
  if (c.row_length < c.width || c.image_height < c.height ||
      c.offset + ((rows - 1) * c.row_length + c.width) * texel > src->size)
    return;
  BindScratchTexture(*img);
  state_.BindBuffer(GL_PIXEL_UNPACK_BUFFER, src->name);
  state_.PixelStore(GL_UNPACK_ALIGNMENT, 1);
  state_.PixelStore(GL_UNPACK_ROW_LENGTH, static_cast<GLint>(c.row_length));
  state_.PixelStore(GL_UNPACK_IMAGE_HEIGHT, static_cast<GLint>(c.image_height));
  auto level = static_cast<GLint>(c.level);
  auto w = static_cast<GLsizei>(c.width), h = static_cast<GLsizei>(c.height);
  auto at = [](uint64_t offset) { return reinterpret_cast<const void*>(static_cast<uintptr_t>(offset)); };
  if (img->target == GL_TEXTURE_2D_ARRAY || img->target == GL_TEXTURE_3D) {
    gl_.TexSubImage3D(img->target, level, c.x, c.y, static_cast<GLint>(c.z), w, h,
                      static_cast<GLsizei>(c.depth), img->host.format, img->host.type, at(c.offset));
  } else if (img->target == GL_TEXTURE_CUBE_MAP) {
    uint64_t face_bytes = uint64_t(c.image_height) * c.row_length * texel;
    for (uint32_t i = 0; i < c.depth && c.z + i < 6; ++i)
      gl_.TexSubImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + c.z + i, level, c.x, c.y, w, h, img->host.format,
                        img->host.type, at(c.offset + i * face_bytes));
  } else {
    gl_.TexSubImage2D(img->target, level, c.x, c.y, w, h, img->host.format, img->host.type, at(c.offset));
  }
  // Later client-memory uploads (OnImageUpload) unbind the buffer and reset the row length themselves.
  state_.PixelStore(GL_UNPACK_IMAGE_HEIGHT, 0);
  ++stats_.pbo_copies;
}

void Context::OnReadPixelsToBuffer(const pipe::CmdReadPixelsToBuffer& c) {
  ImageObject* img = device_.images.Get(c.image.image);
  BufferObject* dst = device_.buffers.Get(c.buffer);
  if (!img || !img->texture || !dst || c.width <= 0 || c.height <= 0 || pipe::IsDepthFormat(img->format))
    return;
  uint64_t texel = pipe::TexelSize(img->format);
  if (c.row_length < uint32_t(c.width) ||
      c.offset + (uint64_t(c.height - 1) * c.row_length + uint64_t(c.width)) * texel > dst->size)
    return;
  state_.BindFramebuffer(GL_READ_FRAMEBUFFER, SingleImageFramebuffer(*img, c.image));
  state_.PixelStore(GL_PACK_ALIGNMENT, 1);
  // GLES reads RGBA (GL_UNSIGNED_BYTE, or GL_FLOAT from float buffers) on every host; other layouts are the
  // implementation's choice, so one- and two-channel images are read as RGBA and narrowed here.
  bool rgba = img->host.format == GL_RGBA;
  if (rgba) {
    state_.BindBuffer(GL_PIXEL_PACK_BUFFER, dst->name);
    state_.PixelStore(GL_PACK_ROW_LENGTH, static_cast<GLint>(c.row_length));
    gl_.ReadPixels(c.x, c.y, c.width, c.height, GL_RGBA, img->host.type,
                   reinterpret_cast<void*>(static_cast<uintptr_t>(c.offset)));
    state_.BindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  } else {
    state_.BindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    state_.PixelStore(GL_PACK_ROW_LENGTH, 0);
    uint32_t channel_size = (img->host.type == GL_FLOAT) ? 4 : 1;
    auto channels = static_cast<uint32_t>(texel / channel_size);
    std::vector<uint8_t> rgba_rows(size_t(c.width) * c.height * 4 * channel_size);
    gl_.ReadPixels(c.x, c.y, c.width, c.height, GL_RGBA,
                   (img->host.type == GL_FLOAT) ? GL_FLOAT : GL_UNSIGNED_BYTE, rgba_rows.data());
    std::vector<uint8_t> row(size_t(c.width) * texel);
    state_.BindBuffer(GL_COPY_WRITE_BUFFER, dst->name);
    for (int32_t y = 0; y < c.height; ++y) {
      for (int32_t x = 0; x < c.width; ++x)
        std::memcpy(row.data() + size_t(x) * texel,
                    rgba_rows.data() + (size_t(y) * c.width + x) * 4 * channel_size, channels * channel_size);
      gl_.BufferSubData(GL_COPY_WRITE_BUFFER,
                        static_cast<GLintptr>(c.offset + uint64_t(y) * c.row_length * texel),
                        static_cast<GLsizeiptr>(row.size()), row.data());
    }
  }
  ++stats_.pbo_copies;
}

void Context::OnBufferRead(const pipe::CmdBufferRead& c) {
  BufferObject* src = device_.buffers.Get(c.buffer);
  if (src && c.size > 0 && c.offset + c.size <= src->size) {
    state_.BindBuffer(GL_COPY_READ_BUFFER, src->name);
    // Mapping for read waits for the host's pending writes to the buffer (a ReadPixels into it).
    if (void* p = gl_.MapBufferRange(GL_COPY_READ_BUFFER, static_cast<GLintptr>(c.offset),
                                     static_cast<GLsizeiptr>(c.size), GL_MAP_READ_BIT)) {
      std::memcpy(c.dst, p, c.size);
      gl_.UnmapBuffer(GL_COPY_READ_BUFFER);
    }
  }
  c.done->store(true);
  c.done->notify_all();
}

void Context::ReadStored(const ImageObject& img, const pipe::CmdReadPixels& c) {
  const pipe::FormatInfo& info = pipe::Info(img.format);
  HostFormat host = ToHostFormat(img.format);
  uint32_t texel = pipe::TexelSize(img.format);
  bool is_int = info.type == pipe::FormatType::kUint || info.type == pipe::FormatType::kSint;
  // The pairs ES 3.x reads from every colour buffer of the class, else the pair the host names for this
  // framebuffer (GL_IMPLEMENTATION_COLOR_READ_FORMAT/TYPE; Mesa names the format's own pair).
  bool host_reads = false;
  switch (info.type) {
    case pipe::FormatType::kUnorm:
    case pipe::FormatType::kSrgb:
      host_reads = host.format == GL_RGBA &&
                   (host.type == GL_UNSIGNED_BYTE || host.type == GL_UNSIGNED_INT_2_10_10_10_REV);
      break;
    case pipe::FormatType::kFloat:
      host_reads = host.format == GL_RGBA && host.type == GL_FLOAT;
      break;
    case pipe::FormatType::kUint:
      host_reads = host.format == GL_RGBA_INTEGER && host.type == GL_UNSIGNED_INT;
      break;
    case pipe::FormatType::kSint:
      host_reads = host.format == GL_RGBA_INTEGER && host.type == GL_INT;
      break;
    default:
      break;
  }
  if (!host_reads && host.format && host.type) {
    GLint format = 0, type = 0;
    gl_.GetIntegerv(GL_IMPLEMENTATION_COLOR_READ_FORMAT, &format);
    gl_.GetIntegerv(GL_IMPLEMENTATION_COLOR_READ_TYPE, &type);
    host_reads = GLenum(format) == host.format && GLenum(type) == host.type;
  }
  if (host_reads && texel && c.row_stride % texel == 0) {
    state_.PixelStore(GL_PACK_ROW_LENGTH, static_cast<GLint>(c.row_stride / texel));
    gl_.ReadPixels(c.x, c.y, c.width, c.height, host.format, host.type, c.dst);
    ++stats_.readback_host_direct;
    return;
  }
  // The class's lossless pair, then encoded into the stored layout texel by texel.
  bool wide = info.bits[0] > 8 || info.bits[3] > 8;
  pipe::CmdReadPixels lossless = c;
  lossless.layout = is_int                                          ? pipe::ReadLayout::kRGBA32I
                    : info.type == pipe::FormatType::kFloat || wide ? pipe::ReadLayout::kRGBA32F
                                                                    : pipe::ReadLayout::kRGBA8;
  uint32_t size = lossless.layout == pipe::ReadLayout::kRGBA8 ? 4 : 16;
  std::vector<uint8_t> texels(size_t(c.width) * c.height * size);
  lossless.dst = texels.data();
  lossless.row_stride = static_cast<uint32_t>(c.width) * size;
  ReadInto(img, lossless);
  bool is_signed = info.type == pipe::FormatType::kSint;
  for (int32_t row = 0; row < c.height; ++row) {
    const uint8_t* in = texels.data() + size_t(row) * lossless.row_stride;
    uint8_t* out = static_cast<uint8_t*>(c.dst) + size_t(row) * c.row_stride;
    for (int32_t x = 0; x < c.width; ++x, in += size, out += texel) {
      if (is_int) {
        uint32_t v[4];
        std::memcpy(v, in, 16);
        pipe::EncodeInt(img.format, v, is_signed, out);
      } else {
        float v[4];
        if (size == 4)
          for (int k = 0; k < 4; ++k) v[k] = float(in[k]) / 255.0f;
        else
          std::memcpy(v, in, 16);
        pipe::EncodeFloat(img.format, v, out);
      }
    }
  }
}

}  // namespace caldera::gles
