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
std::optional<pipe::VertexFormat::Type> VertexType(GLenum type, bool integer);
uint32_t VertexTypeSize(pipe::VertexFormat::Type type);
// Buffer binding targets of GL 3.3 (and ES 3.0).
bool IsBufferTarget(GLenum target);
bool IsBufferUsage(GLenum usage);

}  // namespace caldera::glenum
