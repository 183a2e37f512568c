// Formats and fixed-function enums as the pipe carries them: resolved from GL by the frontend, translated to
// the backend's own terms by each backend. Numeric orders match Vulkan's where that lets a backend cast.
#pragma once

#include <cstdint>

namespace caldera::pipe {

// Texel formats. Each has one layout in the pipe (uploads, depth/stencil included): the layout GL clients
// and Vulkan share for it, described by FormatInfo. RGB formats without an RGBA-free storage everywhere
// travel and are stored as their RGBA `storage` format, with alpha kept at one (masked on writes, cleared to
// one).
enum class Format : uint8_t {
  kUndefined,
  // Normalised and float colour.
  kRGBA8,
  kRGB8,  // stored as RGBA8
  kRGB565,
  kR8,
  kRG8,
  kRGBA16F,
  kRGBA32F,
  kR32F,
  kR16F,
  kRG16F,
  kRGB16F,  // stored as RGBA16F
  kRG32F,
  kRGB32F,  // stored as RGBA32F
  kR11G11B10F,
  kRGB9E5,  // sampling only
  kRGB10A2,
  kR16,
  kRG16,
  kRGBA16,
  kRGB16,  // stored as RGBA16
  kSRGB8,  // stored as SRGB8A8
  kSRGB8A8,
  // ES 2.0's unsized LUMINANCE, ALPHA and LUMINANCE_ALPHA (ES contexts only). No backend has a storage of
  // their own: each stores their bytes as the plain format LegacyStorage names and samples them through
  // FormatSwizzle. Uploads carry L / A / L,A bytes, which are that format's texels as they are.
  kL8,
  kA8,
  kLA8,
  kL32F,  // the same with GL_OES_texture_float / GL_OES_texture_half_float uploads
  kA32F,
  kLA32F,
  kL16F,
  kA16F,
  kLA16F,
  kI8,  // the compatibility profile's GL_INTENSITY: R8 storage read as (I, I, I, I)
  // Signed normalised: sampled only (GL 3.3 does not make them colour-renderable).
  kR8SN,
  kRG8SN,
  kRGB8SN,  // stored as RGBA8SN
  kRGBA8SN,
  kR16SN,
  kRG16SN,
  kRGB16SN,  // stored as RGBA16SN
  kRGBA16SN,
  // Integer colour (sampled unconverted through integer samplers).
  kR8UI,
  kRG8UI,
  kRGB8UI,  // stored as RGBA8UI
  kRGBA8UI,
  kR8I,
  kRG8I,
  kRGB8I,  // stored as RGBA8I
  kRGBA8I,
  kR16UI,
  kRG16UI,
  kRGB16UI,  // stored as RGBA16UI
  kRGBA16UI,
  kR16I,
  kRG16I,
  kRGB16I,  // stored as RGBA16I
  kRGBA16I,
  kR32UI,
  kRG32UI,
  kRGB32UI,  // stored as RGBA32UI
  kRGBA32UI,
  kR32I,
  kRG32I,
  kRGB32I,  // stored as RGBA32I
  kRGBA32I,
  kRGB10A2UI,  // packed like kRGB10A2
  // Block-compressed (RGTC = BC4/BC5), sampled only, on backends with BackendCaps::native_rgtc: payloads are
  // 4x4 blocks (8 bytes per channel), never texels; CompressedDecodedFormat names the texels they decode to.
  kRGTC1,
  kRGTC1SN,
  kRGTC2,
  kRGTC2SN,
  // S3TC (BC1 RGB and RGBA, BC2, BC3, and their sRGB forms) the same way, on backends with
  // BackendCaps::native_s3tc; they decode to RGBA8 / SRGB8_ALPHA8.
  kBC1,
  kBC1A,
  kBC2,
  kBC3,
  kBC1Srgb,
  kBC1ASrgb,
  kBC2Srgb,
  kBC3Srgb,
  // BPTC (BC6H unsigned and signed float, BC7 and its sRGB form) the same way, on backends with
  // BackendCaps::native_bptc; BC6H decodes to RGB16F (stored as RGBA16F), BC7 to RGBA8 / SRGB8_ALPHA8.
  kBC6HU,
  kBC6HS,
  kBC7,
  kBC7Srgb,
  // Depth/stencil: always last (IsDepthFormat).
  kD24S8,   // 32-bit words: depth in the high 24 bits, stencil in the low 8
  kD32F,    // float
  kD32FS8,  // 8 bytes: float depth, then a 32-bit word with stencil in its low 8 bits
  kD16,     // 16-bit unsigned normalised
  kCount
};

// How a format's components read in a shader: what GL calls the component type.
enum class FormatType : uint8_t { kUnorm, kSrgb, kFloat, kUint, kSint, kDepth, kSnorm };

// The packed layouts (one word holds every component); kNone: components one after another.
enum class Packing : uint8_t {
  kNone,
  k565,         // 16 bits: R 11..15, G 5..10, B 0..4
  k11_11_10,    // 32 bits, unsigned floats: R 0..10, G 11..21, B 22..31
  k999E5,       // 32 bits: R 0..8, G 9..17, B 18..26, shared exponent 27..31
  k10_10_10_2,  // 32 bits: R 0..9, G 10..19, B 20..29, A 30..31 (normalised or unsigned integer)
};

struct FormatInfo {
  uint8_t components;  // as GL counts them (RGB: 3; depth formats: 1)
  uint8_t texel_size;  // bytes of one texel in pipe payloads (of the storage format)
  uint8_t bits[4];     // per component as GL reports sizes; depth formats: depth bits, stencil bits
  FormatType type;
  Packing packing;
  Format storage;  // itself, or the RGBA format an RGB format is stored (and travels) as
};

const FormatInfo& Info(Format f);  // texels.cpp

inline bool IsDepthFormat(Format f) {
  return f >= Format::kD24S8 && f < Format::kCount;
}
inline bool IsIntegerFormat(Format f) {
  FormatType t = Info(f).type;
  return t == FormatType::kUint || t == FormatType::kSint;
}
inline bool IsBlockCompressed(Format f) {
  return f >= Format::kRGTC1 && f <= Format::kBC7Srgb;
}
// Bytes of one 4x4 block of a block-compressed format.
inline uint32_t BlockBytes(Format f) {
  switch (f) {
    case Format::kRGTC2:
    case Format::kRGTC2SN:
    case Format::kBC2:
    case Format::kBC3:
    case Format::kBC2Srgb:
    case Format::kBC3Srgb:
    case Format::kBC6HU:
    case Format::kBC6HS:
    case Format::kBC7:
    case Format::kBC7Srgb:
      return 16;
    default:
      return 8;
  }
}
// The uncompressed format a block-compressed one decodes to (RGTC: R8, RG8 and their SNORM forms; S3TC and
// BC7: RGBA8 or SRGB8_ALPHA8; BC6H: RGB16F); others: itself.
inline Format CompressedDecodedFormat(Format f) {
  switch (f) {
    case Format::kRGTC1:
      return Format::kR8;
    case Format::kRGTC1SN:
      return Format::kR8SN;
    case Format::kRGTC2:
      return Format::kRG8;
    case Format::kRGTC2SN:
      return Format::kRG8SN;
    case Format::kBC1:
    case Format::kBC1A:
    case Format::kBC2:
    case Format::kBC3:
    case Format::kBC7:
      return Format::kRGBA8;
    case Format::kBC1Srgb:
    case Format::kBC1ASrgb:
    case Format::kBC2Srgb:
    case Format::kBC3Srgb:
    case Format::kBC7Srgb:
      return Format::kSRGB8A8;
    case Format::kBC6HU:
    case Format::kBC6HS:
      return Format::kRGB16F;
    default:
      return f;
  }
}
// Component swizzles, as texture swizzles and the formats' own read them: a stored component or a constant.
enum class SwizzleSource : uint8_t { kR, kG, kB, kA, kZero, kOne };
struct Swizzle {
  SwizzleSource c[4] = {SwizzleSource::kR, SwizzleSource::kG, SwizzleSource::kB, SwizzleSource::kA};
  friend bool operator==(const Swizzle&, const Swizzle&) = default;
};

// How the luminance/alpha formats are kept: the format whose bytes (and backend format) store them, and
// the swizzle that makes its components read as GL defines them (L: L,L,L,1; A: 0,0,0,A; LA: L,L,L,A).
// Every other format is its own storage, read as it is.
struct LegacyLayout {
  Format storage;
  Swizzle swizzle;
};
inline bool IsLegacyFormat(Format f) {
  return f >= Format::kL8 && f <= Format::kI8;
}
inline LegacyLayout LegacyStorage(Format f) {
  using S = SwizzleSource;
  if (!IsLegacyFormat(f)) return {f, {}};
  if (f == Format::kI8) return {Format::kR8, {{S::kR, S::kR, S::kR, S::kR}}};
  // Rows of three: luminance, alpha, luminance-alpha of one component type.
  static constexpr Format kStorage[][3] = {{Format::kR8, Format::kR8, Format::kRG8},
                                           {Format::kR32F, Format::kR32F, Format::kRG32F},
                                           {Format::kR16F, Format::kR16F, Format::kRG16F}};
  static constexpr Swizzle kSwizzle[3] = {{{S::kR, S::kR, S::kR, S::kOne}},
                                          {{S::kZero, S::kZero, S::kZero, S::kR}},
                                          {{S::kR, S::kR, S::kR, S::kG}}};
  int i = int(f) - int(Format::kL8);
  return {kStorage[i / 3][i % 3], kSwizzle[i % 3]};
}
// The format a backend creates and copies for `f`: RGB formats' RGBA storage, luminance/alpha formats'
// R8/RG8, `f` itself otherwise.
Format BackendStorage(Format f);  // texels.cpp
// `outer` (a texture's GL_TEXTURE_SWIZZLE_*) applied on top of `inner` (the format's own swizzle): what
// each component of the result reads from the stored components.
inline Swizzle ComposeSwizzle(const Swizzle& outer, const Swizzle& inner) {
  Swizzle r;
  for (int i = 0; i < 4; ++i) {
    SwizzleSource s = outer.c[i];
    r.c[i] = s <= SwizzleSource::kA ? inner.c[int(s)] : s;
  }
  return r;
}

// RGB formats stored as RGBA: their alpha stays one.
inline bool HasImplicitAlpha(Format f) {
  return Info(f).storage != f;
}
// Bytes per texel as the pipe carries uploads (RGB formats travel as their RGBA storage).
inline uint32_t TexelSize(Format f) {
  return Info(f).texel_size;
}

inline bool HasStencil(Format f) {
  return f == Format::kD24S8 || f == Format::kD32FS8;
}

// Vertex attribute formats: component type x count x normalisation x integer-ness, packed.
struct VertexFormat {
  enum Type : uint8_t {
    kFloat,
    kHalf,
    kByte,
    kUByte,
    kShort,
    kUShort,
    kInt,
    kUInt,
    kFixed,
    kInt2101010,
    kUInt2101010,
    kDouble
  };
  uint8_t type = kFloat;
  uint8_t components = 4;  // 1..4
  bool normalized = false;
  bool integer = false;  // glVertexAttribIPointer: no conversion to float

  friend bool operator==(const VertexFormat&, const VertexFormat&) = default;
};

enum class Topology : uint8_t {
  kPointList,
  kLineList,
  kLineStrip,
  kTriangleList,
  kTriangleStrip,
  kTriangleFan,
  kLineListAdjacency,
  kLineStripAdjacency,
  kTriangleListAdjacency,
  kTriangleStripAdjacency,
  kLineLoop,  // native where BackendCaps::line_loops; else the frontend sends closed line strips
};

enum class IndexType : uint8_t { kNone, kU8, kU16, kU32 };

enum class CompareOp : uint8_t {
  kNever,
  kLess,
  kEqual,
  kLessOrEqual,
  kGreater,
  kNotEqual,
  kGreaterOrEqual,
  kAlways
};

enum class StencilOp : uint8_t {
  kKeep,
  kZero,
  kReplace,
  kIncrClamp,
  kDecrClamp,
  kInvert,
  kIncrWrap,
  kDecrWrap
};

enum class BlendFactor : uint8_t {
  kZero,
  kOne,
  kSrcColor,
  kOneMinusSrcColor,
  kDstColor,
  kOneMinusDstColor,
  kSrcAlpha,
  kOneMinusSrcAlpha,
  kDstAlpha,
  kOneMinusDstAlpha,
  kConstantColor,
  kOneMinusConstantColor,
  kConstantAlpha,
  kOneMinusConstantAlpha,
  kSrcAlphaSaturate,
  kSrc1Color,
  kOneMinusSrc1Color,
  kSrc1Alpha,
  kOneMinusSrc1Alpha,
};

enum class BlendOp : uint8_t { kAdd, kSubtract, kReverseSubtract, kMin, kMax };

// GL's logic operations, in GL_CLEAR..GL_SET order (the order of VkLogicOp too).
enum class LogicOp : uint8_t {
  kClear,
  kAnd,
  kAndReverse,
  kCopy,
  kAndInverted,
  kNoOp,
  kXor,
  kOr,
  kNor,
  kEquivalent,
  kInvert,
  kOrReverse,
  kCopyInverted,
  kOrInverted,
  kNand,
  kSet
};

enum class CullMode : uint8_t { kNone, kFront, kBack, kFrontAndBack };
enum class PolygonMode : uint8_t { kFill, kLine, kPoint };

}  // namespace caldera::pipe
