// Row converters for pixel transfers, chosen once per glReadPixels / glGetTexImage / glTex(Sub)Image call:
// from the layouts backends read back (pipe::ReadLayout) to client format/type pairs, and from client pixels
// to the pipe's storage texels for uploads. Each converter is a loop specialised for its pair, so no texel
// goes through a switch; pairs without one get an empty converter and the caller takes the general
// per-pixel path (glformat::PackPixel / UnpackPixel), which is also what CALDERA_PIXEL_ROW_COPY=0 selects.
// Both paths give the same bytes (the loops use the same rounding as the general path).
#pragma once

#include <GL/glcorearb.h>

#include <cstdint>

#include "frontend/gl_formats.h"
#include "pipe/commands.h"
#include "pipe/formats.h"

namespace caldera::pixels {

struct RowParams {
  int channel[4] = {};  // RGBA component of each client component
  const glformat::PackedFields* packed = nullptr;
  bool int_signed = false;  // readback of integers: the image's components are signed
  bool opaque = false;      // upload into an RGB format stored as RGBA: alpha stays one
};
using RowFn = void (*)(const uint8_t* src, uint8_t* dst, int32_t width, const RowParams& params);

struct RowConverter {
  RowFn fn = nullptr;
  RowParams params;
  explicit operator bool() const { return fn != nullptr; }
  void operator()(const uint8_t* src, uint8_t* dst, int32_t width) const { fn(src, dst, width, params); }
};

// True when client pixels of format/type are the readback layout byte for byte, so a read can land in
// client memory as the backend returns it (rows copied, nothing converted).
bool ReadLayoutIsClient(pipe::ReadLayout layout, bool int_signed, GLenum format, GLenum type);

// True when client pixels of format/type are the stored texels of `image_format` byte for byte (the pipe's
// layout of its storage format: R8 as GL_RED/GL_UNSIGNED_BYTE, RGBA16F as GL_RGBA/GL_HALF_FLOAT, RGB10_A2 as
// GL_RGBA/GL_UNSIGNED_INT_2_10_10_10_REV, ...), so a read can ask for pipe::ReadLayout::kStored. SNORM
// formats are left out: a stored -128 reads back as -127.
bool StoredIsClient(pipe::Format image_format, GLenum format, GLenum type);

// Converts rows of a colour readback in `layout` to format/type; `clamp` applies GL_CLAMP_READ_COLOR to
// float values. Empty for pairs without a specialised loop.
RowConverter SelectPackRow(pipe::ReadLayout layout, bool int_signed, bool clamp, GLenum format, GLenum type);

// Converts rows of client format/type to texels of `storage` (a format as the pipe carries it, RGB formats
// included: their alpha is set to one). Empty for pairs without a specialised loop.
RowConverter SelectUnpackRow(GLenum format, GLenum type, pipe::Format storage);

}  // namespace caldera::pixels
