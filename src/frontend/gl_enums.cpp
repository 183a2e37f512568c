#include "frontend/gl_enums.h"

namespace caldera::glenum {

std::optional<pipe::CompareOp> CompareFunc(GLenum func) {
  // GL_NEVER..GL_ALWAYS are consecutive and in Vulkan's order.
  if (func < GL_NEVER || func > GL_ALWAYS) return std::nullopt;
  return static_cast<pipe::CompareOp>(func - GL_NEVER);
}

std::optional<pipe::StencilOp> StencilOperation(GLenum op) {
  switch (op) {
    case GL_KEEP:
      return pipe::StencilOp::kKeep;
    case GL_ZERO:
      return pipe::StencilOp::kZero;
    case GL_REPLACE:
      return pipe::StencilOp::kReplace;
    case GL_INCR:
      return pipe::StencilOp::kIncrClamp;
    case GL_DECR:
      return pipe::StencilOp::kDecrClamp;
    case GL_INVERT:
      return pipe::StencilOp::kInvert;
    case GL_INCR_WRAP:
      return pipe::StencilOp::kIncrWrap;
    case GL_DECR_WRAP:
      return pipe::StencilOp::kDecrWrap;
    default:
      return std::nullopt;
  }
}

std::optional<pipe::BlendFactor> BlendFactor(GLenum factor) {
  using F = pipe::BlendFactor;
  switch (factor) {
    case GL_ZERO:
      return F::kZero;
    case GL_ONE:
      return F::kOne;
    case GL_SRC_COLOR:
      return F::kSrcColor;
    case GL_ONE_MINUS_SRC_COLOR:
      return F::kOneMinusSrcColor;
    case GL_DST_COLOR:
      return F::kDstColor;
    case GL_ONE_MINUS_DST_COLOR:
      return F::kOneMinusDstColor;
    case GL_SRC_ALPHA:
      return F::kSrcAlpha;
    case GL_ONE_MINUS_SRC_ALPHA:
      return F::kOneMinusSrcAlpha;
    case GL_DST_ALPHA:
      return F::kDstAlpha;
    case GL_ONE_MINUS_DST_ALPHA:
      return F::kOneMinusDstAlpha;
    case GL_CONSTANT_COLOR:
      return F::kConstantColor;
    case GL_ONE_MINUS_CONSTANT_COLOR:
      return F::kOneMinusConstantColor;
    case GL_CONSTANT_ALPHA:
      return F::kConstantAlpha;
    case GL_ONE_MINUS_CONSTANT_ALPHA:
      return F::kOneMinusConstantAlpha;
    case GL_SRC_ALPHA_SATURATE:
      return F::kSrcAlphaSaturate;
    case GL_SRC1_COLOR:
      return F::kSrc1Color;
    case GL_ONE_MINUS_SRC1_COLOR:
      return F::kOneMinusSrc1Color;
    case GL_SRC1_ALPHA:
      return F::kSrc1Alpha;
    case GL_ONE_MINUS_SRC1_ALPHA:
      return F::kOneMinusSrc1Alpha;
    default:
      return std::nullopt;
  }
}

std::optional<pipe::BlendOp> BlendEquation(GLenum mode) {
  switch (mode) {
    case GL_FUNC_ADD:
      return pipe::BlendOp::kAdd;
    case GL_FUNC_SUBTRACT:
      return pipe::BlendOp::kSubtract;
    case GL_FUNC_REVERSE_SUBTRACT:
      return pipe::BlendOp::kReverseSubtract;
    case GL_MIN:
      return pipe::BlendOp::kMin;
    case GL_MAX:
      return pipe::BlendOp::kMax;
    default:
      return std::nullopt;
  }
}

std::optional<pipe::Topology> PrimitiveMode(GLenum mode) {
  using T = pipe::Topology;
  switch (mode) {
    case GL_POINTS:
      return T::kPointList;
    case GL_LINES:
      return T::kLineList;
    case GL_LINE_LOOP:
      return T::kLineLoop;
    case GL_LINE_STRIP:
      return T::kLineStrip;
    case GL_TRIANGLES:
      return T::kTriangleList;
    case GL_TRIANGLE_STRIP:
      return T::kTriangleStrip;
    case GL_TRIANGLE_FAN:
      return T::kTriangleFan;
    case GL_LINES_ADJACENCY:
      return T::kLineListAdjacency;
    case GL_LINE_STRIP_ADJACENCY:
      return T::kLineStripAdjacency;
    case GL_TRIANGLES_ADJACENCY:
      return T::kTriangleListAdjacency;
    case GL_TRIANGLE_STRIP_ADJACENCY:
      return T::kTriangleStripAdjacency;
    default:
      return std::nullopt;
  }
}

std::optional<pipe::IndexType> IndexType(GLenum type) {
  switch (type) {
    case GL_UNSIGNED_BYTE:
      return pipe::IndexType::kU8;
    case GL_UNSIGNED_SHORT:
      return pipe::IndexType::kU16;
    case GL_UNSIGNED_INT:
      return pipe::IndexType::kU32;
    default:
      return std::nullopt;
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

bool IsStencilFace(GLenum face) {
  return face == GL_FRONT || face == GL_BACK || face == GL_FRONT_AND_BACK;
}

std::optional<pipe::VertexFormat::Type> VertexType(GLenum type, bool integer) {
  using V = pipe::VertexFormat;
  switch (type) {
    case GL_BYTE:
      return V::kByte;
    case GL_UNSIGNED_BYTE:
      return V::kUByte;
    case GL_SHORT:
      return V::kShort;
    case GL_UNSIGNED_SHORT:
      return V::kUShort;
    case GL_INT:
      return V::kInt;
    case GL_UNSIGNED_INT:
      return V::kUInt;
    default:
      break;
  }
  if (integer) return std::nullopt;
  switch (type) {
    case GL_FLOAT:
      return V::kFloat;
    case GL_HALF_FLOAT:
    case kHalfFloatOES:  // ES only (validate.cpp)
      return V::kHalf;
    case GL_DOUBLE:
      return V::kDouble;
    case GL_FIXED:
      return V::kFixed;
    case GL_INT_2_10_10_10_REV:
      return V::kInt2101010;
    case GL_UNSIGNED_INT_2_10_10_10_REV:
      return V::kUInt2101010;
    default:
      return std::nullopt;
  }
}

uint32_t VertexTypeSize(pipe::VertexFormat::Type type) {
  using V = pipe::VertexFormat;
  switch (type) {
    case V::kByte:
    case V::kUByte:
      return 1;
    case V::kShort:
    case V::kUShort:
    case V::kHalf:
      return 2;
    case V::kDouble:
      return 8;
    default:
      return 4;
  }
}

bool IsBufferTarget(GLenum target) {
  switch (target) {
    case GL_ARRAY_BUFFER:
    case GL_ELEMENT_ARRAY_BUFFER:
    case GL_COPY_READ_BUFFER:
    case GL_COPY_WRITE_BUFFER:
    case GL_PIXEL_PACK_BUFFER:
    case GL_PIXEL_UNPACK_BUFFER:
    case GL_UNIFORM_BUFFER:
    case GL_TEXTURE_BUFFER:
    case GL_TRANSFORM_FEEDBACK_BUFFER:
      return true;
    default:
      return false;
  }
}

bool IsBufferUsage(GLenum usage) {
  switch (usage) {
    case GL_STREAM_DRAW:
    case GL_STREAM_READ:
    case GL_STREAM_COPY:
    case GL_STATIC_DRAW:
    case GL_STATIC_READ:
    case GL_STATIC_COPY:
    case GL_DYNAMIC_DRAW:
    case GL_DYNAMIC_READ:
    case GL_DYNAMIC_COPY:
      return true;
    default:
      return false;
  }
}

}  // namespace caldera::glenum
