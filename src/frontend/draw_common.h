// The draws after validation (gl_draw.cpp), which the compatibility code's array draws (compat/arrays.cpp)
// run once they have put the fixed-function program and its vertex input in place.
#pragma once

#include <GL/glcorearb.h>

#include <cstdint>
#include <vector>

namespace caldera {
class Context;
}

namespace caldera::gl {

void DrawArraysCommon(Context& ctx, GLenum mode, GLint first, GLsizei count, GLsizei instances);
void DrawElementsCommon(Context& ctx, GLenum mode, GLsizei count, GLenum type, const void* indices,
                        GLsizei instances, GLint base_vertex);
// Draws 32-bit `indices` (none equal to 0xFFFFFFFF) as `mode`, inline; `vertex_end` bounds the vertices they
// name, for client-memory attributes.
void DrawIndexList(Context& ctx, GLenum mode, const std::vector<uint32_t>& indices, GLsizei instances,
                   GLint base_vertex, uint64_t vertex_end);

}  // namespace caldera::gl
