// Pipe formats and fixed-function enums in the host GLES driver's terms.
#pragma once

#include <GL/glcorearb.h>

#include "pipe/commands.h"

namespace caldera::gles {

struct HostFormat {
  GLenum internal = 0;  // sized internal format for glTexStorage*
  GLenum format = 0;    // upload format/type of the pipe's packed texels
  GLenum type = 0;
  GLenum attachment = GL_COLOR_ATTACHMENT0;  // or GL_DEPTH_ATTACHMENT / GL_DEPTH_STENCIL_ATTACHMENT
};

HostFormat ToHostFormat(pipe::Format format);
GLenum ToHostTopology(pipe::Topology topology);
GLenum ToHostCompare(pipe::CompareOp op);
GLenum ToHostStencilOp(pipe::StencilOp op);
GLenum ToHostBlendFactor(pipe::BlendFactor factor);
GLenum ToHostBlendOp(pipe::BlendOp op);
GLenum ToHostIndexType(pipe::IndexType type);
uint32_t IndexSize(pipe::IndexType type);

// Vertex attribute type/size as glVertexAttrib(I)Pointer takes them.
struct HostVertexFormat {
  GLenum type = GL_FLOAT;
  GLint size = 4;
  bool normalized = false;
  bool integer = false;
  bool supported = true;  // false: the host has no such vertex type (GL_DOUBLE, GL_FIXED on some)
};
HostVertexFormat ToHostVertexFormat(const pipe::VertexFormat& format);

}  // namespace caldera::gles
