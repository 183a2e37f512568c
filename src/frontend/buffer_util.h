// Buffer binding points shared by the buffer entry points.
#pragma once

#include <GL/glcorearb.h>

#include <memory>

namespace caldera {

class Context;
struct Buffer;

// The non-indexed binding for `target` (the bound VAO's element buffer for GL_ELEMENT_ARRAY_BUFFER); null for
// targets that are not buffer targets or when no vertex array is bound.
std::shared_ptr<Buffer>* BufferBinding(Context& ctx, GLenum target);

}  // namespace caldera
