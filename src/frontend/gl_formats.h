// GL internal formats and client pixel formats/types: which pipe format stores an internal format, which
// format/type pairs pixel transfers accept (and the GL error for the others), and the codec between client
// pixels and the component values the pipe's texel codecs (pipe/texels.h) take.
#pragma once

#include <GL/glcorearb.h>

#include <cstdint>
#include <optional>

#include "pipe/formats.h"

namespace caldera::glformat {

// ES 2.0's legacy unsized formats (not in the desktop core headers): internal and client formats of ES
// contexts only; desktop core contexts refuse them as any unknown format.
constexpr GLenum kLuminance = 0x1909;
constexpr GLenum kLuminanceAlpha = 0x190A;
// GL_LUMINANCE, GL_ALPHA, GL_LUMINANCE_ALPHA as internal formats; nullopt for every other.
std::optional<pipe::Format> LegacyTextureFormat(GLenum internal_format);
// The compatibility profile's sized luminance/alpha formats (GL_ALPHA8, GL_LUMINANCE8_ALPHA8, ...: GL 2.1
// table 3.16) and GL_INTENSITY (sized or not), each kept at 8 bits a component as the unsized ones are (GL
// lets an implementation choose).
std::optional<pipe::Format> LegacySizedTextureFormat(GLenum internal_format);
// ES's unsized GL_RGBA, GL_RGB and the luminance/alpha formats with GL_FLOAT (GL_OES_texture_float) or
// GL_HALF_FLOAT (GL_OES_texture_half_float's GL_HALF_FLOAT_OES, translated) data: the float format that
// stores them; nullopt for other pairs (stored as the internal format alone says).
std::optional<pipe::Format> UnsizedFloatFormat(GLenum internal_format, GLenum type);
// GL_EXT_texture_sRGB's / GL_EXT_texture_compression_s3tc_srgb's S3TC formats (not in the core headers).
constexpr GLenum kCompressedSrgbS3tcDxt1 = 0x8C4C;
constexpr GLenum kCompressedSrgbAlphaS3tcDxt1 = 0x8C4D;
constexpr GLenum kCompressedSrgbAlphaS3tcDxt3 = 0x8C4E;
constexpr GLenum kCompressedSrgbAlphaS3tcDxt5 = 0x8C4F;
// GL_OES_compressed_ETC1_RGB8_texture's format (ES contexts).
constexpr GLenum kEtc1Rgb8 = 0x8D64;
inline bool IsLegacyClientFormat(GLenum format) {
  return format == kLuminance || format == kLuminanceAlpha;
}

// Sized and unsized internal formats of textures; nullopt: not a texture format.
std::optional<pipe::Format> TextureFormat(GLenum internal_format);
// Buffer texture internal formats (GL 3.3 table 3.15: 1, 2 and 4 components of 8/16/32-bit normalised,
// float and integer types); nullopt: not allowed for glTexBuffer.
std::optional<pipe::Format> TextureBufferFormat(GLenum internal_format);
// Renderbuffer internal formats; nullopt: not renderable.
std::optional<pipe::Format> RenderbufferFormat(GLenum internal_format);
// The 16-bit normalised formats (R16, RG16, RGB16, RGBA16 and their SNORM forms): GL 3.0 core, an
// extension on ES (GL_EXT_texture_norm16), where RGB16 is not colour-renderable.
inline bool IsNorm16(pipe::Format f) {
  using F = pipe::Format;
  return f == F::kR16 || f == F::kRG16 || f == F::kRGB16 || f == F::kRGBA16 || f == F::kR16SN ||
         f == F::kRG16SN || f == F::kRGB16SN || f == F::kRGBA16SN;
}

// One pixel's values on their way between client memory and a texel.
struct PixelValue {
  float f[4] = {0, 0, 0, 1};     // colour formats
  uint32_t i[4] = {0, 0, 0, 1};  // *_INTEGER formats (bit patterns; signed types sign-extended)
  bool int_signed = false;       // how to read `i` (a signed client type or a signed texel format)
  float depth = 0;
  uint32_t stencil = 0;
};

// What a client format/type pair is made of.
struct ClientLayout {
  int components = 0;    // in client memory
  int bytes = 0;         // per pixel
  bool integer = false;  // *_INTEGER format
  bool depth = false;    // GL_DEPTH_COMPONENT / GL_DEPTH_STENCIL
  bool stencil = false;  // GL_STENCIL_INDEX / GL_DEPTH_STENCIL
  bool signed_type = false;
};

// GL_NO_ERROR and *out, or the error the spec names for this format/type pair: INVALID_ENUM for an
// unknown format or type, INVALID_OPERATION for a packed type of another component count or an integer
// format with a float type.
// GL_LUMINANCE and GL_LUMINANCE_ALPHA are accepted only with `legacy_formats` (ES texture uploads).
GLenum CheckClientFormat(GLenum format, GLenum type, ClientLayout* out, bool legacy_formats = false);
// Whether client pixels of `format` may be transferred to or from a texel of `f` (colour/integer/depth
// classes must agree): GL_INVALID_OPERATION otherwise.
bool ClientFormatMatches(const ClientLayout& client, pipe::Format f);

// Whether client pixels of format/type are already texels of `f` in the pipe's layout (uploads copy rows).
bool SameLayout(GLenum format, GLenum type, pipe::Format f);
// The RGBA component (0..3) each component of a colour client format is, in client order; returns how many
// there are (0 for depth/stencil formats).
int ClientChannels(GLenum format, int channel[4]);
// GL_RED_INTEGER … GL_BGRA_INTEGER.
bool IsIntegerClientFormat(GLenum format);
// Bit fields of a packed client type (GL_UNSIGNED_SHORT_5_6_5 ...), in the order of the format's components.
struct PackedFields {
  int components;
  int bytes;
  int shift[4];
  int bits[4];
};
const PackedFields* PackedType(GLenum type);  // null for plain and the special float/depth types
// Bytes of one component of a plain (unpacked) client type; 0 for packed types.
int PlainTypeSize(GLenum type);

// One pixel from/to client memory (a pair CheckClientFormat accepted).
void UnpackPixel(GLenum format, GLenum type, const uint8_t* src, PixelValue* out);
void PackPixel(GLenum format, GLenum type, const PixelValue& in, uint8_t* dst);

// GL_*_SIZE and GL_*_TYPE of a format's components, as queries report them. `internal_format` is what the
// application asked for: depth-only formats stored with a stencil aspect report no stencil bits.
GLint ComponentSize(pipe::Format f, GLenum internal_format, GLenum pname);
GLenum ComponentType(pipe::Format f);  // GL_UNSIGNED_NORMALIZED, GL_FLOAT, GL_INT, GL_UNSIGNED_INT

}  // namespace caldera::glformat
