// Buffer binding points shared by the buffer entry points.
#pragma once

#include <GL/glcorearb.h>

#include <cstdint>
#include <memory>

namespace caldera {

class Context;
struct Buffer;

// The non-indexed binding for `target` (the bound VAO's element buffer for GL_ELEMENT_ARRAY_BUFFER); null for
// targets that are not buffer targets or when no vertex array is bound.
std::shared_ptr<Buffer>* BufferBinding(Context& ctx, GLenum target);

// Brings the shadow up to date after device-side writes (Buffer::device_newer): waits for the device and
// reads the buffer back. Writes by another context must have been flushed by the app (glFlush/fences), as
// GL requires for any cross-context visibility. Returns false when the device is lost.
bool SyncShadow(Context& ctx, Buffer& buffer);

// Records `size` bytes from `data` into the buffer's device storage at `offset`. Upload records carry 32-bit
// sizes: 4 GiB and more go down in pieces.
void RecordUpload(Context& ctx, const Buffer& buffer, uint64_t offset, const void* data, uint64_t size);

}  // namespace caldera
