// GL enum classification and GL → pipe translation, shared by validation and state resolution.
#pragma once

#include <GL/glcorearb.h>

#include <optional>

#include "pipe/formats.h"

namespace caldera::glenum {

std::optional<pipe::CompareOp> CompareFunc(GLenum func);
std::optional<pipe::StencilOp> StencilOperation(GLenum op);
std::optional<pipe::BlendFactor> BlendFactor(GLenum factor);
std::optional<pipe::BlendOp> BlendEquation(GLenum mode);
std::optional<pipe::Topology> PrimitiveMode(GLenum mode);
std::optional<pipe::IndexType> IndexType(GLenum type);
uint32_t IndexSize(pipe::IndexType type);
bool IsStencilFace(GLenum face);
// glVertexAttrib(I)Pointer types: nullopt when `type` is not valid for that entry point.
// GL_OES_vertex_half_float's GL_HALF_FLOAT_OES: another value than GL_HALF_FLOAT for the same 16-bit floats.
constexpr GLenum kHalfFloatOES = 0x8D61;
// GL_OES_EGL_image_external (ES contexts; not in glcorearb.h): the target, its binding, its sampler type and
// the texture query of how many units one such texture takes.
constexpr GLenum kTextureExternalOES = 0x8D65;
constexpr GLenum kSamplerExternalOES = 0x8D66;
constexpr GLenum kTextureBindingExternalOES = 0x8D67;
constexpr GLenum kRequiredTextureImageUnitsOES = 0x8D68;
// glClear's GL_ACCUM_BUFFER_BIT (compatibility profile; glcorearb.h lacks it).
constexpr GLbitfield kAccumBufferBit = 0x00000200;
// The pipe type of a vertex attribute type (GL_HALF_FLOAT_OES included; only ES contexts take it).
std::optional<pipe::VertexFormat::Type> VertexType(GLenum type, bool integer);
uint32_t VertexTypeSize(pipe::VertexFormat::Type type);
// Buffer binding targets of GL 3.3 (and ES 3.0).
bool IsBufferTarget(GLenum target);
bool IsBufferUsage(GLenum usage);

}  // namespace caldera::glenum
