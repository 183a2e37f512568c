// Formats and fixed-function enums as the pipe carries them: resolved from GL by the frontend, translated to
// the backend's own terms by each backend. Numeric orders match Vulkan's where that lets a backend cast.
#pragma once

#include <cstdint>

namespace caldera::pipe {

enum class Format : uint8_t {
  kUndefined,
  kRGBA8,
  kRGB8,  // backed by RGBA8 storage where the device lacks it
  kRGB565,
  kR8,
  kRG8,
  kRGBA16F,
  kRGBA32F,
  kR32F,
  kD24S8,
  kD32F,
  kD32FS8,
  kD16,
  kCount
};

inline bool IsDepthFormat(Format f) {
  return f >= Format::kD24S8;
}
// Bytes per texel as the pipe carries uploads (RGB8 travels as RGBA8).
inline uint32_t TexelSize(Format f) {
  switch (f) {
    case Format::kR8:
      return 1;
    case Format::kRG8:
    case Format::kRGB565:
    case Format::kD16:
      return 2;
    case Format::kRGBA16F:
    case Format::kD32FS8:
      return 8;
    case Format::kRGBA32F:
      return 16;
    default:
      return 4;
  }
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

enum class CullMode : uint8_t { kNone, kFront, kBack, kFrontAndBack };
enum class PolygonMode : uint8_t { kFill, kLine, kPoint };

}  // namespace caldera::pipe
