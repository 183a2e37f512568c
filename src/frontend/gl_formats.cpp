#include "frontend/gl_formats.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "pipe/texels.h"

namespace caldera::glformat {
namespace {

using F = pipe::Format;

// Internal formats every image kind may take (renderbuffers take these too, less the texture-only ones).
// Unsized and low-precision formats map to what stores them: 4- and 5-bit formats with 8 bits, RGBA12 with
// 16, depth-only formats as DEPTH24_STENCIL8 (GL lets an implementation widen; the size queries say so).
struct FormatMapping {
  GLenum internal_format;
  pipe::Format format;
};
constexpr FormatMapping kCommonFormats[] = {
    {GL_RGBA, F::kRGBA8},
    {GL_RGBA8, F::kRGBA8},
    {GL_RGBA2, F::kRGBA8},
    {GL_RGBA4, F::kRGBA8},
    {GL_RGB5_A1, F::kRGBA8},
    {GL_RGB, F::kRGB8},
    {GL_RGB8, F::kRGB8},
    {GL_R3_G3_B2, F::kRGB8},
    {GL_RGB4, F::kRGB8},
    {GL_RGB5, F::kRGB8},
    {GL_RGB565, F::kRGB565},
    {GL_RED, F::kR8},
    {GL_R8, F::kR8},
    {GL_RG, F::kRG8},
    {GL_RG8, F::kRG8},
    {GL_R16F, F::kR16F},
    {GL_RG16F, F::kRG16F},
    {GL_RGB16F, F::kRGB16F},
    {GL_RGBA16F, F::kRGBA16F},
    {GL_R32F, F::kR32F},
    {GL_RG32F, F::kRG32F},
    {GL_RGB32F, F::kRGB32F},
    {GL_RGBA32F, F::kRGBA32F},
    {GL_R11F_G11F_B10F, F::kR11G11B10F},
    {GL_RGB10_A2, F::kRGB10A2},
    {GL_R16, F::kR16},
    {GL_RG16, F::kRG16},
    {GL_RGBA16, F::kRGBA16},
    {GL_RGBA12, F::kRGBA16},
    {GL_RGB16, F::kRGB16},
    {GL_RGB12, F::kRGB16},
    {GL_RGB10, F::kRGB16},
    {GL_SRGB, F::kSRGB8},
    {GL_SRGB8, F::kSRGB8},
    {GL_SRGB_ALPHA, F::kSRGB8A8},
    {GL_SRGB8_ALPHA8, F::kSRGB8A8},
    {GL_R8UI, F::kR8UI},
    {GL_RG8UI, F::kRG8UI},
    {GL_RGB8UI, F::kRGB8UI},
    {GL_RGBA8UI, F::kRGBA8UI},
    {GL_R8I, F::kR8I},
    {GL_RG8I, F::kRG8I},
    {GL_RGB8I, F::kRGB8I},
    {GL_RGBA8I, F::kRGBA8I},
    {GL_R16UI, F::kR16UI},
    {GL_RG16UI, F::kRG16UI},
    {GL_RGB16UI, F::kRGB16UI},
    {GL_RGBA16UI, F::kRGBA16UI},
    {GL_R16I, F::kR16I},
    {GL_RG16I, F::kRG16I},
    {GL_RGB16I, F::kRGB16I},
    {GL_RGBA16I, F::kRGBA16I},
    {GL_R32UI, F::kR32UI},
    {GL_RG32UI, F::kRG32UI},
    {GL_RGB32UI, F::kRGB32UI},
    {GL_RGBA32UI, F::kRGBA32UI},
    {GL_R32I, F::kR32I},
    {GL_RG32I, F::kRG32I},
    {GL_RGB32I, F::kRGB32I},
    {GL_RGBA32I, F::kRGBA32I},
    {GL_RGB10_A2UI, F::kRGB10A2UI},
    {GL_DEPTH_COMPONENT, F::kD24S8},
    {GL_DEPTH_COMPONENT24, F::kD24S8},
    {GL_DEPTH_COMPONENT32, F::kD24S8},
    {GL_DEPTH_STENCIL, F::kD24S8},
    {GL_DEPTH24_STENCIL8, F::kD24S8},
    {GL_DEPTH_COMPONENT32F, F::kD32F},
    {GL_DEPTH32F_STENCIL8, F::kD32FS8},
    {GL_DEPTH_COMPONENT16, F::kD16},
};

std::optional<pipe::Format> CommonFormat(GLenum internal_format) {
  for (const auto& m : kCommonFormats)
    if (m.internal_format == internal_format) return m.format;
  return std::nullopt;
}

// Which RGBA component a client format's i-th component is; -1 past the end.
int Channel(GLenum format, int i) {
  static const int kRGBA[4] = {0, 1, 2, 3}, kBGRA[4] = {2, 1, 0, 3};
  switch (format) {
    case GL_RED:
    case GL_RED_INTEGER:
      return i == 0 ? 0 : -1;
    case GL_GREEN:
    case GL_GREEN_INTEGER:
      return i == 0 ? 1 : -1;
    case GL_BLUE:
    case GL_BLUE_INTEGER:
      return i == 0 ? 2 : -1;
    case GL_ALPHA:
      return i == 0 ? 3 : -1;
    // Luminance unpacks into red (alpha into alpha), as GL's pixel transfer has always put it.
    case kLuminance:
      return i == 0 ? 0 : -1;
    case kLuminanceAlpha:
      return i == 0 ? 0 : i == 1 ? 3 : -1;
    case GL_RG:
    case GL_RG_INTEGER:
      return i < 2 ? i : -1;
    case GL_RGB:
    case GL_RGB_INTEGER:
      return i < 3 ? i : -1;
    case GL_BGR:
    case GL_BGR_INTEGER:
      return i < 3 ? kBGRA[i] : -1;
    case GL_RGBA:
    case GL_RGBA_INTEGER:
      return i < 4 ? kRGBA[i] : -1;
    case GL_BGRA:
    case GL_BGRA_INTEGER:
      return i < 4 ? kBGRA[i] : -1;
    default:
      return -1;
  }
}

using Packed = PackedFields;

const Packed* PackedLayout(GLenum type) {
  static const Packed k332{3, 1, {5, 2, 0}, {3, 3, 2}}, k233r{3, 1, {0, 3, 6}, {3, 3, 2}};
  static const Packed k565{3, 2, {11, 5, 0}, {5, 6, 5}}, k565r{3, 2, {0, 5, 11}, {5, 6, 5}};
  static const Packed k4444{4, 2, {12, 8, 4, 0}, {4, 4, 4, 4}}, k4444r{4, 2, {0, 4, 8, 12}, {4, 4, 4, 4}};
  static const Packed k5551{4, 2, {11, 6, 1, 0}, {5, 5, 5, 1}}, k1555r{4, 2, {0, 5, 10, 15}, {5, 5, 5, 1}};
  static const Packed k8888{4, 4, {24, 16, 8, 0}, {8, 8, 8, 8}}, k8888r{4, 4, {0, 8, 16, 24}, {8, 8, 8, 8}};
  static const Packed k1010102{4, 4, {22, 12, 2, 0}, {10, 10, 10, 2}};
  static const Packed k2101010r{4, 4, {0, 10, 20, 30}, {10, 10, 10, 2}};
  switch (type) {
    case GL_UNSIGNED_BYTE_3_3_2:
      return &k332;
    case GL_UNSIGNED_BYTE_2_3_3_REV:
      return &k233r;
    case GL_UNSIGNED_SHORT_5_6_5:
      return &k565;
    case GL_UNSIGNED_SHORT_5_6_5_REV:
      return &k565r;
    case GL_UNSIGNED_SHORT_4_4_4_4:
      return &k4444;
    case GL_UNSIGNED_SHORT_4_4_4_4_REV:
      return &k4444r;
    case GL_UNSIGNED_SHORT_5_5_5_1:
      return &k5551;
    case GL_UNSIGNED_SHORT_1_5_5_5_REV:
      return &k1555r;
    case GL_UNSIGNED_INT_8_8_8_8:
      return &k8888;
    case GL_UNSIGNED_INT_8_8_8_8_REV:
      return &k8888r;
    case GL_UNSIGNED_INT_10_10_10_2:
      return &k1010102;
    case GL_UNSIGNED_INT_2_10_10_10_REV:
      return &k2101010r;
    default:
      return nullptr;
  }
}

// Size of one component of a plain (unpacked) type; 0 for anything else.
int PlainSize(GLenum type) {
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
      return 4;
    default:
      return 0;
  }
}

bool IsSignedType(GLenum type) {
  return type == GL_BYTE || type == GL_SHORT || type == GL_INT;
}

template <typename T>
T Load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

template <typename T>
void Store(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof(v));
}

// A plain component to float, normalised for integer types (GL 3.3 §2.1.6 / table 3.6).
float ComponentToFloat(GLenum type, const uint8_t* p) {
  switch (type) {
    case GL_UNSIGNED_BYTE:
      return float(*p) / 255.0f;
    case GL_BYTE:
      return std::max(float(int8_t(*p)) / 127.0f, -1.0f);
    case GL_UNSIGNED_SHORT:
      return float(Load<uint16_t>(p)) / 65535.0f;
    case GL_SHORT:
      return std::max(float(Load<int16_t>(p)) / 32767.0f, -1.0f);
    case GL_UNSIGNED_INT:
      return float(double(Load<uint32_t>(p)) / 4294967295.0);
    case GL_INT:
      return float(std::max(double(Load<int32_t>(p)) / 2147483647.0, -1.0));
    case GL_HALF_FLOAT:
      return pipe::HalfToFloat(Load<uint16_t>(p));
    default:
      return Load<float>(p);
  }
}

uint32_t ComponentToInt(GLenum type, const uint8_t* p) {
  switch (type) {
    case GL_UNSIGNED_BYTE:
      return *p;
    case GL_BYTE:
      return uint32_t(int32_t(int8_t(*p)));
    case GL_UNSIGNED_SHORT:
      return Load<uint16_t>(p);
    case GL_SHORT:
      return uint32_t(int32_t(Load<int16_t>(p)));
    default:
      return Load<uint32_t>(p);
  }
}

void FloatToComponent(GLenum type, float v, uint8_t* p) {
  auto norm = [&](double max, bool is_signed) {
    double c = std::clamp(std::isnan(v) ? 0.0 : double(v), is_signed ? -1.0 : 0.0, 1.0);
    return std::llround(c * max);
  };
  switch (type) {
    case GL_UNSIGNED_BYTE:
      return Store(p, static_cast<uint8_t>(norm(255, false)));
    case GL_BYTE:
      return Store(p, static_cast<int8_t>(norm(127, true)));
    case GL_UNSIGNED_SHORT:
      return Store(p, static_cast<uint16_t>(norm(65535, false)));
    case GL_SHORT:
      return Store(p, static_cast<int16_t>(norm(32767, true)));
    case GL_UNSIGNED_INT:
      return Store(p, static_cast<uint32_t>(norm(4294967295.0, false)));
    case GL_INT:
      return Store(p, static_cast<int32_t>(norm(2147483647.0, true)));
    case GL_HALF_FLOAT:
      return Store(p, pipe::FloatToHalf(v));
    default:
      return Store(p, v);
  }
}

// An integer value (signed or not) clamped into a client integer type.
void IntToComponent(GLenum type, uint32_t raw, bool value_signed, uint8_t* p) {
  int64_t v = value_signed ? int64_t(int32_t(raw)) : int64_t(raw);
  int size = PlainSize(type);
  bool s = IsSignedType(type);
  int64_t lo = s ? -(int64_t(1) << (size * 8 - 1)) : 0;
  int64_t hi = s ? (int64_t(1) << (size * 8 - 1)) - 1 : (int64_t(1) << (size * 8)) - 1;
  auto x = static_cast<uint32_t>(std::clamp(v, lo, hi));
  std::memcpy(p, &x, size_t(size));
}

}  // namespace

bool IsIntegerClientFormat(GLenum format) {
  switch (format) {
    case GL_RED_INTEGER:
    case GL_GREEN_INTEGER:
    case GL_BLUE_INTEGER:
    case GL_RG_INTEGER:
    case GL_RGB_INTEGER:
    case GL_BGR_INTEGER:
    case GL_RGBA_INTEGER:
    case GL_BGRA_INTEGER:
      return true;
    default:
      return false;
  }
}

// Texture-only formats: not colour-renderable in GL 3.3, so renderbuffers and multisample textures refuse
// them. The generic compressed formats are stored uncompressed (GL lets an implementation choose) and the
// RGTC formats are stored decoded (compressed.cpp keeps their blocks for glGetCompressedTexImage), as are
// ETC2/EAC (11-bit EAC in 16-bit formats, so no precision is lost), S3TC and BPTC (BC6H's halves as RGB16F).
constexpr FormatMapping kTextureOnlyFormats[] = {
    {GL_RGB9_E5, F::kRGB9E5},
    {GL_R8_SNORM, F::kR8SN},
    {GL_RG8_SNORM, F::kRG8SN},
    {GL_RGB8_SNORM, F::kRGB8SN},
    {GL_RGBA8_SNORM, F::kRGBA8SN},
    {GL_R16_SNORM, F::kR16SN},
    {GL_RG16_SNORM, F::kRG16SN},
    {GL_RGB16_SNORM, F::kRGB16SN},
    {GL_RGBA16_SNORM, F::kRGBA16SN},
    {GL_COMPRESSED_RED, F::kR8},
    {GL_COMPRESSED_RG, F::kRG8},
    {GL_COMPRESSED_RGB, F::kRGB8},
    {GL_COMPRESSED_RGBA, F::kRGBA8},
    {GL_COMPRESSED_SRGB, F::kSRGB8},
    {GL_COMPRESSED_SRGB_ALPHA, F::kSRGB8A8},
    {GL_COMPRESSED_RED_RGTC1, F::kR8},
    {GL_COMPRESSED_SIGNED_RED_RGTC1, F::kR8SN},
    {GL_COMPRESSED_RG_RGTC2, F::kRG8},
    {GL_COMPRESSED_SIGNED_RG_RGTC2, F::kRG8SN},
    {GL_COMPRESSED_RGB8_ETC2, F::kRGB8},
    {kEtc1Rgb8, F::kRGB8},
    {GL_COMPRESSED_SRGB8_ETC2, F::kSRGB8},
    {GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2, F::kRGBA8},
    {GL_COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2, F::kSRGB8A8},
    {GL_COMPRESSED_RGBA8_ETC2_EAC, F::kRGBA8},
    {GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC, F::kSRGB8A8},
    {GL_COMPRESSED_R11_EAC, F::kR16},
    {GL_COMPRESSED_SIGNED_R11_EAC, F::kR16SN},
    {GL_COMPRESSED_RG11_EAC, F::kRG16},
    {GL_COMPRESSED_SIGNED_RG11_EAC, F::kRG16SN},
    {GL_COMPRESSED_RGB_S3TC_DXT1_EXT, F::kRGB8},
    {GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, F::kRGBA8},
    {GL_COMPRESSED_RGBA_S3TC_DXT3_EXT, F::kRGBA8},
    {GL_COMPRESSED_RGBA_S3TC_DXT5_EXT, F::kRGBA8},
    {kCompressedSrgbS3tcDxt1, F::kSRGB8},
    {kCompressedSrgbAlphaS3tcDxt1, F::kSRGB8A8},
    {kCompressedSrgbAlphaS3tcDxt3, F::kSRGB8A8},
    {kCompressedSrgbAlphaS3tcDxt5, F::kSRGB8A8},
    {GL_COMPRESSED_RGBA_BPTC_UNORM, F::kRGBA8},
    {GL_COMPRESSED_SRGB_ALPHA_BPTC_UNORM, F::kSRGB8A8},
    {GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT, F::kRGB16F},
    {GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT, F::kRGB16F},
};

std::optional<pipe::Format> LegacyTextureFormat(GLenum internal_format) {
  switch (internal_format) {
    case kLuminance:
      return F::kL8;
    case GL_ALPHA:
      return F::kA8;
    case kLuminanceAlpha:
      return F::kLA8;
    default:
      return std::nullopt;
  }
}

std::optional<pipe::Format> LegacySizedTextureFormat(GLenum internal_format) {
  switch (internal_format) {
    case 0x803B:  // GL_ALPHA4
    case 0x803C:  // GL_ALPHA8
    case 0x803D:  // GL_ALPHA12
    case 0x803E:  // GL_ALPHA16
      return F::kA8;
    case 0x803F:  // GL_LUMINANCE4
    case 0x8040:  // GL_LUMINANCE8
    case 0x8041:  // GL_LUMINANCE12
    case 0x8042:  // GL_LUMINANCE16
      return F::kL8;
    case 0x8043:  // GL_LUMINANCE4_ALPHA4
    case 0x8044:  // GL_LUMINANCE6_ALPHA2
    case 0x8045:  // GL_LUMINANCE8_ALPHA8
    case 0x8046:  // GL_LUMINANCE12_ALPHA4
    case 0x8047:  // GL_LUMINANCE12_ALPHA12
    case 0x8048:  // GL_LUMINANCE16_ALPHA16
      return F::kLA8;
    case 0x8049:  // GL_INTENSITY
    case 0x804A:  // GL_INTENSITY4
    case 0x804B:  // GL_INTENSITY8
    case 0x804C:  // GL_INTENSITY12
    case 0x804D:  // GL_INTENSITY16
      return F::kI8;
    default:
      return std::nullopt;
  }
}

std::optional<pipe::Format> UnsizedFloatFormat(GLenum internal_format, GLenum type) {
  bool full = type == GL_FLOAT;
  if (!full && type != GL_HALF_FLOAT) return std::nullopt;
  switch (internal_format) {
    case GL_RGBA:
      return full ? F::kRGBA32F : F::kRGBA16F;
    case GL_RGB:
      return full ? F::kRGB32F : F::kRGB16F;
    case kLuminance:
      return full ? F::kL32F : F::kL16F;
    case GL_ALPHA:
      return full ? F::kA32F : F::kA16F;
    case kLuminanceAlpha:
      return full ? F::kLA32F : F::kLA16F;
    default:
      return std::nullopt;
  }
}

std::optional<pipe::Format> TextureFormat(GLenum internal_format) {
  for (const auto& m : kTextureOnlyFormats)
    if (m.internal_format == internal_format) return m.format;
  return CommonFormat(internal_format);
}

std::optional<pipe::Format> TextureBufferFormat(GLenum internal_format) {
  switch (internal_format) {
    case GL_R8:
    case GL_R16:
    case GL_R16F:
    case GL_R32F:
    case GL_R8I:
    case GL_R16I:
    case GL_R32I:
    case GL_R8UI:
    case GL_R16UI:
    case GL_R32UI:
    case GL_RG8:
    case GL_RG16:
    case GL_RG16F:
    case GL_RG32F:
    case GL_RG8I:
    case GL_RG16I:
    case GL_RG32I:
    case GL_RG8UI:
    case GL_RG16UI:
    case GL_RG32UI:
    case GL_RGBA8:
    case GL_RGBA16:
    case GL_RGBA16F:
    case GL_RGBA32F:
    case GL_RGBA8I:
    case GL_RGBA16I:
    case GL_RGBA32I:
    case GL_RGBA8UI:
    case GL_RGBA16UI:
    case GL_RGBA32UI:
      // The texture formats of the same names: texels in the buffer have exactly their layouts.
      return CommonFormat(internal_format);
    default:
      return std::nullopt;
  }
}

std::optional<pipe::Format> RenderbufferFormat(GLenum internal_format) {
  switch (internal_format) {
    case GL_STENCIL_INDEX8:
      return F::kD24S8;
    default:
      return CommonFormat(internal_format);
  }
}

GLenum CheckClientFormat(GLenum format, GLenum type, ClientLayout* out, bool legacy_formats) {
  ClientLayout l;
  if (IsLegacyClientFormat(format) && !legacy_formats) return GL_INVALID_ENUM;
  if (format == GL_DEPTH_COMPONENT || format == GL_STENCIL_INDEX) {
    l.components = 1, l.depth = format == GL_DEPTH_COMPONENT, l.stencil = !l.depth;
  } else if (format == GL_DEPTH_STENCIL) {
    l.components = 2, l.depth = l.stencil = true;
  } else {
    while (l.components < 4 && Channel(format, l.components) >= 0) ++l.components;
    if (l.components == 0) return GL_INVALID_ENUM;
    l.integer = IsIntegerClientFormat(format);
  }
  l.signed_type = IsSignedType(type);
  bool float_type = type == GL_FLOAT || type == GL_HALF_FLOAT;
  if (int size = PlainSize(type)) {
    if (format == GL_DEPTH_STENCIL) return GL_INVALID_OPERATION;
    if (l.integer && float_type) return GL_INVALID_OPERATION;
    l.bytes = size * l.components;
  } else if (const Packed* p = PackedLayout(type)) {
    if (l.depth || l.stencil || p->components != l.components) return GL_INVALID_OPERATION;
    // Integer formats take only the 2_10_10_10_REV packing (GL_ARB_texture_rgb10_a2ui, core in 3.3).
    if (l.integer && type != GL_UNSIGNED_INT_2_10_10_10_REV) return GL_INVALID_OPERATION;
    l.bytes = p->bytes;
  } else if (type == GL_UNSIGNED_INT_10F_11F_11F_REV || type == GL_UNSIGNED_INT_5_9_9_9_REV) {
    if (format != GL_RGB) return GL_INVALID_OPERATION;
    l.bytes = 4;
  } else if (type == GL_UNSIGNED_INT_24_8 || type == GL_FLOAT_32_UNSIGNED_INT_24_8_REV) {
    if (format != GL_DEPTH_STENCIL) return GL_INVALID_OPERATION;
    l.bytes = type == GL_UNSIGNED_INT_24_8 ? 4 : 8;
  } else {
    return GL_INVALID_ENUM;
  }
  *out = l;
  return GL_NO_ERROR;
}

bool ClientFormatMatches(const ClientLayout& client, pipe::Format f) {
  if (pipe::IsDepthFormat(f)) return client.depth || client.stencil;
  if (client.depth || client.stencil) return false;
  return client.integer == pipe::IsIntegerFormat(f);
}

bool SameLayout(GLenum format, GLenum type, pipe::Format f) {
  // Luminance/alpha bytes are their R8/RG8 storage's bytes in the client's order.
  if (pipe::IsLegacyFormat(f)) {
    const pipe::FormatInfo& info = pipe::Info(f);
    GLenum client = info.bits[0] == 0      ? GLenum(GL_ALPHA)
                    : info.components == 2 ? kLuminanceAlpha
                                           : kLuminance;
    int size = info.texel_size / info.components;
    GLenum stored_type = info.type != pipe::FormatType::kFloat ? GLenum(GL_UNSIGNED_BYTE)
                         : size == 4                           ? GLenum(GL_FLOAT)
                                                               : GLenum(GL_HALF_FLOAT);
    return format == client && type == stored_type;
  }
  const pipe::FormatInfo& info = pipe::Info(f);
  if (info.storage != f || info.packing != pipe::Packing::kNone || pipe::IsDepthFormat(f)) return false;
  // Components in RGBA order, as many as stored, of the stored width and numeric type.
  int n = 0;
  while (n < 4 && Channel(format, n) == n) ++n;
  if (n != info.components || Channel(format, n) >= 0) return false;
  int size = info.texel_size / info.components;
  switch (info.type) {
    case pipe::FormatType::kUnorm:
    case pipe::FormatType::kSrgb:
      return !IsIntegerClientFormat(format) && PlainSize(type) == size && !IsSignedType(type) &&
             type != GL_HALF_FLOAT && type != GL_FLOAT;
    case pipe::FormatType::kSnorm:
      // GL_BYTE -128 converts to -1 and stores -127; both read -1, so the copy is exact.
      return !IsIntegerClientFormat(format) && PlainSize(type) == size && IsSignedType(type);
    case pipe::FormatType::kFloat:
      return (size == 4 && type == GL_FLOAT) || (size == 2 && type == GL_HALF_FLOAT);
    case pipe::FormatType::kUint:
    case pipe::FormatType::kSint:
      return IsIntegerClientFormat(format) && PlainSize(type) == size &&
             IsSignedType(type) == (info.type == pipe::FormatType::kSint);
    default:
      return false;
  }
}

void UnpackPixel(GLenum format, GLenum type, const uint8_t* src, PixelValue* out) {
  if (format == GL_DEPTH_STENCIL) {
    pipe::DecodeDepth(type == GL_UNSIGNED_INT_24_8 ? F::kD24S8 : F::kD32FS8, src, &out->depth, &out->stencil);
    return;
  }
  if (format == GL_DEPTH_COMPONENT) {
    out->depth = ComponentToFloat(type, src);
    return;
  }
  if (type == GL_UNSIGNED_INT_10F_11F_11F_REV || type == GL_UNSIGNED_INT_5_9_9_9_REV) {
    pipe::DecodeFloat(type == GL_UNSIGNED_INT_5_9_9_9_REV ? F::kRGB9E5 : F::kR11G11B10F, src, out->f);
    return;
  }
  bool integer = IsIntegerClientFormat(format);
  out->int_signed = IsSignedType(type);
  if (const Packed* p = PackedLayout(type)) {
    uint32_t w = 0;
    std::memcpy(&w, src, size_t(p->bytes));
    for (int i = 0; i < p->components; ++i) {
      uint32_t v = (w >> p->shift[i]) & ((1u << p->bits[i]) - 1);
      int c = Channel(format, i);
      out->i[c] = v;
      out->f[c] = float(v) / float((1u << p->bits[i]) - 1);
    }
    return;
  }
  int size = PlainSize(type);
  for (int i = 0; i < 4; ++i) {
    int c = Channel(format, i);
    if (c < 0) break;
    if (integer)
      out->i[c] = ComponentToInt(type, src + i * size);
    else
      out->f[c] = ComponentToFloat(type, src + i * size);
  }
}

void PackPixel(GLenum format, GLenum type, const PixelValue& in, uint8_t* dst) {
  if (format == GL_DEPTH_STENCIL) {
    pipe::EncodeDepth(type == GL_UNSIGNED_INT_24_8 ? F::kD24S8 : F::kD32FS8, in.depth, in.stencil, dst);
    return;
  }
  if (format == GL_DEPTH_COMPONENT) {
    FloatToComponent(type, in.depth, dst);
    return;
  }
  if (type == GL_UNSIGNED_INT_10F_11F_11F_REV || type == GL_UNSIGNED_INT_5_9_9_9_REV) {
    pipe::EncodeFloat(type == GL_UNSIGNED_INT_5_9_9_9_REV ? F::kRGB9E5 : F::kR11G11B10F, in.f, dst);
    return;
  }
  bool integer = IsIntegerClientFormat(format);
  if (const Packed* p = PackedLayout(type)) {
    uint32_t w = 0;
    for (int i = 0; i < p->components; ++i) {
      int c = Channel(format, i);
      uint32_t max = (1u << p->bits[i]) - 1;
      uint32_t v = integer ? std::min(in.i[c], max)
                           : uint32_t(std::lround(std::clamp(in.f[c], 0.0f, 1.0f) * float(max)));
      w |= v << p->shift[i];
    }
    std::memcpy(dst, &w, size_t(p->bytes));
    return;
  }
  int size = PlainSize(type);
  for (int i = 0; i < 4; ++i) {
    int c = Channel(format, i);
    if (c < 0) break;
    if (integer)
      IntToComponent(type, in.i[c], in.int_signed, dst + i * size);
    else
      FloatToComponent(type, in.f[c], dst + i * size);
  }
}

int ClientChannels(GLenum format, int channel[4]) {
  int n = 0;
  while (n < 4 && Channel(format, n) >= 0) {
    channel[n] = Channel(format, n);
    ++n;
  }
  return n;
}

const PackedFields* PackedType(GLenum type) {
  return PackedLayout(type);
}

int PlainTypeSize(GLenum type) {
  return PlainSize(type);
}

GLint ComponentSize(pipe::Format f, GLenum internal_format, GLenum pname) {
  const pipe::FormatInfo& info = pipe::Info(f);
  bool depth = pipe::IsDepthFormat(f);
  bool depth_only = internal_format == GL_DEPTH_COMPONENT || internal_format == GL_DEPTH_COMPONENT16 ||
                    internal_format == GL_DEPTH_COMPONENT24 || internal_format == GL_DEPTH_COMPONENT32 ||
                    internal_format == GL_DEPTH_COMPONENT32F;
  switch (pname) {
    case GL_TEXTURE_RED_SIZE:
    case GL_RENDERBUFFER_RED_SIZE:
    case GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE:
      return depth ? 0 : info.bits[0];
    case GL_TEXTURE_GREEN_SIZE:
    case GL_RENDERBUFFER_GREEN_SIZE:
    case GL_FRAMEBUFFER_ATTACHMENT_GREEN_SIZE:
      return depth ? 0 : info.bits[1];
    case GL_TEXTURE_BLUE_SIZE:
    case GL_RENDERBUFFER_BLUE_SIZE:
    case GL_FRAMEBUFFER_ATTACHMENT_BLUE_SIZE:
      return depth ? 0 : info.bits[2];
    case GL_TEXTURE_ALPHA_SIZE:
    case GL_RENDERBUFFER_ALPHA_SIZE:
    case GL_FRAMEBUFFER_ATTACHMENT_ALPHA_SIZE:
      return depth ? 0 : info.bits[3];
    case GL_TEXTURE_DEPTH_SIZE:
    case GL_RENDERBUFFER_DEPTH_SIZE:
    case GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE:
      return depth ? info.bits[0] : 0;
    case GL_TEXTURE_STENCIL_SIZE:
    case GL_RENDERBUFFER_STENCIL_SIZE:
    case GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE:
      return depth && !depth_only ? info.bits[1] : 0;
    case GL_TEXTURE_SHARED_SIZE:
      return f == F::kRGB9E5 ? 5 : 0;
    default:
      return 0;
  }
}

GLenum ComponentType(pipe::Format f) {
  switch (pipe::Info(f).type) {
    case pipe::FormatType::kFloat:
      return GL_FLOAT;
    case pipe::FormatType::kUint:
      return GL_UNSIGNED_INT;
    case pipe::FormatType::kSint:
      return GL_INT;
    case pipe::FormatType::kSnorm:
      return GL_SIGNED_NORMALIZED;
    case pipe::FormatType::kDepth:
      return f == F::kD32F || f == F::kD32FS8 ? GL_FLOAT : GL_UNSIGNED_NORMALIZED;
    default:
      return GL_UNSIGNED_NORMALIZED;
  }
}

}  // namespace caldera::glformat
