// Pixel buffer objects (GL_PIXEL_PACK_BUFFER / GL_PIXEL_UNPACK_BUFFER): the checks GL 3.3 §4.3.2 and
// §3.7.2 name, the client memory layout the pixel store state describes, and whether a transfer can run on
// the device as a plain copy (no format conversion) or must go through the CPU path.
#pragma once

#include <GL/glcorearb.h>

#include <cstdint>

#include "frontend/gl_formats.h"
#include "pipe/commands.h"
#include "pipe/formats.h"

namespace caldera {

class Context;
struct Buffer;

// The layout of a width x height (x depth) block of client pixels under the pack or unpack state.
struct PixelLayout {
  uint32_t bytes_per_pixel = 0;
  uint64_t row_stride = 0;    // bytes between rows (row length, alignment applied)
  uint64_t image_stride = 0;  // bytes between images of a 3D block (image height applied)
  uint64_t skip = 0;          // bytes before the first pixel (skip pixels, rows and images)
  uint64_t size = 0;          // bytes from the start to the end of the last pixel, skip included
};
PixelLayout PackLayout(const Context& ctx, GLenum format, GLenum type, int32_t width, int32_t height);
// glGetTexImage of 3D textures and 2D arrays: `depth` images, pack image height and skip images applied.
PixelLayout PackLayout3D(const Context& ctx, GLenum format, GLenum type, int32_t width, int32_t height,
                         int32_t depth);
PixelLayout UnpackLayout(const Context& ctx, GLenum format, GLenum type, int32_t width, int32_t height,
                         int32_t depth, bool three_d);

// Bytes per pixel of a client format/type (0: not a combination Caldera transfers).
uint32_t ClientPixelSize(GLenum format, GLenum type);

// GL errors of a transfer from/to `buffer` at `offset` covering `layout`: the buffer is mapped, the offset
// is not a multiple of the type's size, or the transfer would reach past the end. Returns false after
// recording GL_INVALID_OPERATION.
bool CheckPixelBuffer(Context& ctx, const Buffer& buffer, uint64_t offset, const PixelLayout& layout,
                      GLenum type, const char* function);

// True when client pixels of format/type are texels of `storage` byte for byte, so the backend can copy
// between a buffer and the image without converting.
bool IsDirectPixelFormat(pipe::Format storage, GLenum format, GLenum type);

// Converts one row of depth values (floats in [0, 1], or null) and stencil values (bytes, or null) to
// glReadPixels' format (GL_DEPTH_COMPONENT, GL_STENCIL_INDEX, GL_DEPTH_STENCIL) and type, as GL 3.3 §4.3.2
// converts depth (to fixed point by 2^n - 1) and stencil (as integers). False for combinations Caldera
// does not produce (half floats).
bool PackDepthStencilRow(const float* depth, const uint8_t* stencil, int32_t width, GLenum format,
                         GLenum type, uint8_t* dst);

// Readback (gl_frame.cpp): the layout the backend returns for an image format (lossless for every format
// glReadPixels can name), its size per pixel, and one pixel of it as the values glformat::PackPixel takes.
pipe::ReadLayout LayoutFor(pipe::Format f);
uint32_t LayoutSize(pipe::ReadLayout layout);
glformat::PixelValue FromLayout(pipe::ReadLayout layout, const uint8_t* p, bool int_signed);

// The pack half of glReadPixels and glGetTexImage: reads the w x h rectangle at (x, y) of `image` (colour
// or depth; `stencil` names the stencil aspect's image for GL_STENCIL_INDEX / GL_DEPTH_STENCIL) and writes
// it converted to format/type into the pack buffer or client memory `pixels`, the first pixel `first` bytes
// in and rows layout.row_stride apart. A device copy when the pack buffer takes the image's format as is.
// False after recording the GL error.
// `cpu_texels`, when given, replaces the device read: w x h pixels, tight rows, in `cpu_layout` (a native
// RGTC level decoded from its blocks on the GL thread).
// `luminance_is_sum`: glReadPixels packs GL_LUMINANCE(_ALPHA) as L = R + G + B (GL 2.1 §4.3.2);
// glGetTexImage takes L = R (§6.1.4), which is how the luminance formats' channels are read anyway.
struct CpuTexels {
  pipe::ReadLayout layout;
  const uint8_t* data;
};
bool PackImage(Context& ctx, pipe::ImageRef image, pipe::ImageRef stencil, pipe::Format read_format,
               int32_t x, int32_t y, int32_t w, int32_t h, GLenum format, GLenum type,
               const PixelLayout& layout, uint64_t first, void* pixels, const char* fn,
               const CpuTexels* cpu_texels = nullptr, bool luminance_is_sum = false);

}  // namespace caldera
