#include "backend/gles/gles_formats.h"

namespace caldera::gles {

HostFormat ToHostFormat(pipe::Format format) {
  using F = pipe::Format;
  // The upload format/type of each storage format is the pipe's texel layout, so uploads are one copy. RGB
  // formats are stored as their RGBA storage (pipe::Info): GLES renders to none of the 3-component ones.
  switch (pipe::BackendStorage(format)) {
    case F::kRGBA8:
      return {GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE};
    case F::kRGB565:
      return {GL_RGB565, GL_RGB, GL_UNSIGNED_SHORT_5_6_5};
    case F::kR8:
      return {GL_R8, GL_RED, GL_UNSIGNED_BYTE};
    case F::kRG8:
      return {GL_RG8, GL_RG, GL_UNSIGNED_BYTE};
    case F::kR16F:
      return {GL_R16F, GL_RED, GL_HALF_FLOAT};
    case F::kRG16F:
      return {GL_RG16F, GL_RG, GL_HALF_FLOAT};
    case F::kRGBA16F:
      return {GL_RGBA16F, GL_RGBA, GL_HALF_FLOAT};
    case F::kR32F:
      return {GL_R32F, GL_RED, GL_FLOAT};
    case F::kRG32F:
      return {GL_RG32F, GL_RG, GL_FLOAT};
    case F::kRGBA32F:
      return {GL_RGBA32F, GL_RGBA, GL_FLOAT};
    case F::kR11G11B10F:
      return {GL_R11F_G11F_B10F, GL_RGB, GL_UNSIGNED_INT_10F_11F_11F_REV};
    case F::kRGB9E5:
      return {GL_RGB9_E5, GL_RGB, GL_UNSIGNED_INT_5_9_9_9_REV};
    case F::kRGB10A2:
      return {GL_RGB10_A2, GL_RGBA, GL_UNSIGNED_INT_2_10_10_10_REV};
    // 16-bit normalised formats need GL_EXT_texture_norm16 (same enums as desktop GL).
    case F::kR16:
      return {GL_R16, GL_RED, GL_UNSIGNED_SHORT};
    case F::kRG16:
      return {GL_RG16, GL_RG, GL_UNSIGNED_SHORT};
    case F::kRGBA16:
      return {GL_RGBA16, GL_RGBA, GL_UNSIGNED_SHORT};
    case F::kSRGB8A8:
      return {GL_SRGB8_ALPHA8, GL_RGBA, GL_UNSIGNED_BYTE};
    // 8-bit SNORM formats are core GLES 3.0 (sampling only); the 16-bit ones need GL_EXT_texture_norm16.
    case F::kR8SN:
      return {GL_R8_SNORM, GL_RED, GL_BYTE};
    case F::kRG8SN:
      return {GL_RG8_SNORM, GL_RG, GL_BYTE};
    case F::kRGBA8SN:
      return {GL_RGBA8_SNORM, GL_RGBA, GL_BYTE};
    case F::kR16SN:
      return {GL_R16_SNORM, GL_RED, GL_SHORT};
    case F::kRG16SN:
      return {GL_RG16_SNORM, GL_RG, GL_SHORT};
    case F::kRGBA16SN:
      return {GL_RGBA16_SNORM, GL_RGBA, GL_SHORT};
    case F::kR8UI:
      return {GL_R8UI, GL_RED_INTEGER, GL_UNSIGNED_BYTE};
    case F::kRG8UI:
      return {GL_RG8UI, GL_RG_INTEGER, GL_UNSIGNED_BYTE};
    case F::kRGBA8UI:
      return {GL_RGBA8UI, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE};
    case F::kR8I:
      return {GL_R8I, GL_RED_INTEGER, GL_BYTE};
    case F::kRG8I:
      return {GL_RG8I, GL_RG_INTEGER, GL_BYTE};
    case F::kRGBA8I:
      return {GL_RGBA8I, GL_RGBA_INTEGER, GL_BYTE};
    case F::kR16UI:
      return {GL_R16UI, GL_RED_INTEGER, GL_UNSIGNED_SHORT};
    case F::kRG16UI:
      return {GL_RG16UI, GL_RG_INTEGER, GL_UNSIGNED_SHORT};
    case F::kRGBA16UI:
      return {GL_RGBA16UI, GL_RGBA_INTEGER, GL_UNSIGNED_SHORT};
    case F::kR16I:
      return {GL_R16I, GL_RED_INTEGER, GL_SHORT};
    case F::kRG16I:
      return {GL_RG16I, GL_RG_INTEGER, GL_SHORT};
    case F::kRGBA16I:
      return {GL_RGBA16I, GL_RGBA_INTEGER, GL_SHORT};
    case F::kR32UI:
      return {GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT};
    case F::kRG32UI:
      return {GL_RG32UI, GL_RG_INTEGER, GL_UNSIGNED_INT};
    case F::kRGBA32UI:
      return {GL_RGBA32UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT};
    case F::kR32I:
      return {GL_R32I, GL_RED_INTEGER, GL_INT};
    case F::kRG32I:
      return {GL_RG32I, GL_RG_INTEGER, GL_INT};
    case F::kRGBA32I:
      return {GL_RGBA32I, GL_RGBA_INTEGER, GL_INT};
    case F::kRGB10A2UI:
      return {GL_RGB10_A2UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT_2_10_10_10_REV};
    // GL_EXT_texture_compression_rgtc (same enums as desktop GL); uploads are glCompressedTexSubImage*.
    case F::kRGTC1:
      return {GL_COMPRESSED_RED_RGTC1, 0, 0};
    case F::kRGTC1SN:
      return {GL_COMPRESSED_SIGNED_RED_RGTC1, 0, 0};
    case F::kRGTC2:
      return {GL_COMPRESSED_RG_RGTC2, 0, 0};
    case F::kRGTC2SN:
      return {GL_COMPRESSED_SIGNED_RG_RGTC2, 0, 0};
    // GL_EXT_texture_compression_s3tc and _s3tc_srgb.
    case F::kBC1:
      return {GL_COMPRESSED_RGB_S3TC_DXT1_EXT, 0, 0};
    case F::kBC1A:
      return {GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, 0, 0};
    case F::kBC2:
      return {GL_COMPRESSED_RGBA_S3TC_DXT3_EXT, 0, 0};
    case F::kBC3:
      return {GL_COMPRESSED_RGBA_S3TC_DXT5_EXT, 0, 0};
    case F::kBC1Srgb:
      return {0x8C4C, 0, 0};  // GL_COMPRESSED_SRGB_S3TC_DXT1_EXT
    case F::kBC1ASrgb:
      return {0x8C4D, 0, 0};  // GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT1_EXT
    case F::kBC2Srgb:
      return {0x8C4E, 0, 0};  // GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT3_EXT
    case F::kBC3Srgb:
      return {0x8C4F, 0, 0};  // GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT5_EXT
    // GL_EXT_texture_compression_bptc (the enums of desktop GL's ARB form).
    case F::kBC6HU:
      return {0x8E8F, 0, 0};  // GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT_EXT
    case F::kBC6HS:
      return {0x8E8E, 0, 0};  // GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT_EXT
    case F::kBC7:
      return {0x8E8C, 0, 0};  // GL_COMPRESSED_RGBA_BPTC_UNORM_EXT
    case F::kBC7Srgb:
      return {0x8E8D, 0, 0};  // GL_COMPRESSED_SRGB_ALPHA_BPTC_UNORM_EXT
    case F::kD24S8:
      return {GL_DEPTH24_STENCIL8, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, GL_DEPTH_STENCIL_ATTACHMENT};
    case F::kD32F:
      return {GL_DEPTH_COMPONENT32F, GL_DEPTH_COMPONENT, GL_FLOAT, GL_DEPTH_ATTACHMENT};
    case F::kD32FS8:
      return {GL_DEPTH32F_STENCIL8, GL_DEPTH_STENCIL, GL_FLOAT_32_UNSIGNED_INT_24_8_REV,
              GL_DEPTH_STENCIL_ATTACHMENT};
    case F::kD16:
      return {GL_DEPTH_COMPONENT16, GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT, GL_DEPTH_ATTACHMENT};
    default:
      return {};
  }
}

GLenum ToHostTopology(pipe::Topology topology) {
  using T = pipe::Topology;
  switch (topology) {
    case T::kPointList:
      return GL_POINTS;
    case T::kLineList:
      return GL_LINES;
    case T::kLineStrip:
      return GL_LINE_STRIP;
    case T::kTriangleList:
      return GL_TRIANGLES;
    case T::kTriangleStrip:
      return GL_TRIANGLE_STRIP;
    case T::kTriangleFan:
      return GL_TRIANGLE_FAN;
    case T::kLineListAdjacency:
      return GL_LINES_ADJACENCY;
    case T::kLineStripAdjacency:
      return GL_LINE_STRIP_ADJACENCY;
    case T::kTriangleListAdjacency:
      return GL_TRIANGLES_ADJACENCY;
    case T::kTriangleStripAdjacency:
      return GL_TRIANGLE_STRIP_ADJACENCY;
    case T::kLineLoop:
      return GL_LINE_LOOP;  // GLES has line loops natively
  }
  return GL_TRIANGLES;
}

GLenum ToHostCompare(pipe::CompareOp op) {
  return GL_NEVER + static_cast<GLenum>(op);  // GL_NEVER..GL_ALWAYS are consecutive in the pipe's order
}

GLenum ToHostStencilOp(pipe::StencilOp op) {
  using S = pipe::StencilOp;
  switch (op) {
    case S::kKeep:
      return GL_KEEP;
    case S::kZero:
      return GL_ZERO;
    case S::kReplace:
      return GL_REPLACE;
    case S::kIncrClamp:
      return GL_INCR;
    case S::kDecrClamp:
      return GL_DECR;
    case S::kInvert:
      return GL_INVERT;
    case S::kIncrWrap:
      return GL_INCR_WRAP;
    case S::kDecrWrap:
      return GL_DECR_WRAP;
  }
  return GL_KEEP;
}

GLenum ToHostBlendFactor(pipe::BlendFactor factor) {
  using B = pipe::BlendFactor;
  switch (factor) {
    case B::kZero:
      return GL_ZERO;
    case B::kOne:
      return GL_ONE;
    case B::kSrcColor:
      return GL_SRC_COLOR;
    case B::kOneMinusSrcColor:
      return GL_ONE_MINUS_SRC_COLOR;
    case B::kDstColor:
      return GL_DST_COLOR;
    case B::kOneMinusDstColor:
      return GL_ONE_MINUS_DST_COLOR;
    case B::kSrcAlpha:
      return GL_SRC_ALPHA;
    case B::kOneMinusSrcAlpha:
      return GL_ONE_MINUS_SRC_ALPHA;
    case B::kDstAlpha:
      return GL_DST_ALPHA;
    case B::kOneMinusDstAlpha:
      return GL_ONE_MINUS_DST_ALPHA;
    case B::kConstantColor:
      return GL_CONSTANT_COLOR;
    case B::kOneMinusConstantColor:
      return GL_ONE_MINUS_CONSTANT_COLOR;
    case B::kConstantAlpha:
      return GL_CONSTANT_ALPHA;
    case B::kOneMinusConstantAlpha:
      return GL_ONE_MINUS_CONSTANT_ALPHA;
    case B::kSrcAlphaSaturate:
      return GL_SRC_ALPHA_SATURATE;
    // Dual-source factors: GL_EXT_blend_func_extended uses the desktop enum values.
    case B::kSrc1Color:
      return GL_SRC1_COLOR;
    case B::kOneMinusSrc1Color:
      return GL_ONE_MINUS_SRC1_COLOR;
    case B::kSrc1Alpha:
      return GL_SRC1_ALPHA;
    case B::kOneMinusSrc1Alpha:
      return GL_ONE_MINUS_SRC1_ALPHA;
  }
  return GL_ONE;
}

GLenum ToHostBlendOp(pipe::BlendOp op) {
  using O = pipe::BlendOp;
  switch (op) {
    case O::kAdd:
      return GL_FUNC_ADD;
    case O::kSubtract:
      return GL_FUNC_SUBTRACT;
    case O::kReverseSubtract:
      return GL_FUNC_REVERSE_SUBTRACT;
    case O::kMin:
      return GL_MIN;
    case O::kMax:
      return GL_MAX;
  }
  return GL_FUNC_ADD;
}

GLenum ToHostIndexType(pipe::IndexType type) {
  switch (type) {
    case pipe::IndexType::kU8:
      return GL_UNSIGNED_BYTE;
    case pipe::IndexType::kU16:
      return GL_UNSIGNED_SHORT;
    default:
      return GL_UNSIGNED_INT;
  }
}

uint32_t IndexSize(pipe::IndexType type) {
  switch (type) {
    case pipe::IndexType::kU8:
      return 1;
    case pipe::IndexType::kU16:
      return 2;
    case pipe::IndexType::kU32:
      return 4;
    default:
      return 0;
  }
}

HostVertexFormat ToHostVertexFormat(const pipe::VertexFormat& f) {
  using V = pipe::VertexFormat;
  HostVertexFormat out;
  out.size = f.components;
  out.normalized = f.normalized;
  out.integer = f.integer;
  switch (f.type) {
    case V::kFloat:
      out.type = GL_FLOAT;
      break;
    case V::kHalf:
      out.type = GL_HALF_FLOAT;
      break;
    case V::kByte:
      out.type = GL_BYTE;
      break;
    case V::kUByte:
      out.type = GL_UNSIGNED_BYTE;
      break;
    case V::kShort:
      out.type = GL_SHORT;
      break;
    case V::kUShort:
      out.type = GL_UNSIGNED_SHORT;
      break;
    case V::kInt:
      out.type = GL_INT;
      break;
    case V::kUInt:
      out.type = GL_UNSIGNED_INT;
      break;
    case V::kFixed:
      out.type = GL_FIXED;
      break;
    case V::kInt2101010:
      out.type = GL_INT_2_10_10_10_REV;
      break;
    case V::kUInt2101010:
      out.type = GL_UNSIGNED_INT_2_10_10_10_REV;
      break;
    default:
      out.supported = false;  // GL_DOUBLE: GLES has no double attributes
      break;
  }
  return out;
}

}  // namespace caldera::gles
