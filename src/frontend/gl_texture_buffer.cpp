// Buffer textures (GL 3.1 core): glTexBuffer / glTexBufferRange attach a buffer object's data store to the
// GL_TEXTURE_BUFFER texture bound to the active unit. The texture holds the buffer itself, not its storage,
// so glBufferData re-specification (orphaning) is followed at the next draw; draw_resources.cpp resolves
// the range into a pipe::TexelBufferRange.
#include "frontend/context.h"
#include "frontend/gl_formats.h"
#include "frontend/gl_impl.h"
#include "frontend/texture_util.h"

namespace caldera {
namespace gl {
namespace {

void Attach(Context& ctx, GLenum target, GLenum internalformat, GLuint name, int64_t offset, int64_t size,
            bool range, const char* fn) {
  if (target != GL_TEXTURE_BUFFER) return ctx.Error(GL_INVALID_ENUM, fn, "target is not GL_TEXTURE_BUFFER");
  auto format = glformat::TextureBufferFormat(internalformat);
  if (!format) return ctx.Error(GL_INVALID_ENUM, fn, "internal format not allowed for buffer textures");
  std::shared_ptr<Buffer> buffer;
  if (name != 0) {
    std::lock_guard lock(ctx.shared().mutex);
    buffer = ctx.shared().buffers.Get(name);
    if (!buffer || !buffer->ever_bound)
      return ctx.Error(GL_INVALID_OPERATION, fn, "buffer is not the name of an existing buffer object");
  }
  if (range && buffer) {
    // GL 4.3 §8.9: offset must be aligned and the range inside the buffer's current size.
    if (offset < 0 || size <= 0 || offset > buffer->size || size > buffer->size - offset)
      return ctx.Error(GL_INVALID_VALUE, fn, "offset or size out of range");
    if (offset % kTextureBufferOffsetAlignment != 0)
      return ctx.Error(GL_INVALID_VALUE, fn,
                       "offset is not a multiple of GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT");
  }
  auto* slot = BoundTexture(ctx, GL_TEXTURE_BUFFER, fn);
  if (!slot) return;
  Texture& tex = **slot;
  tex.buffer = std::move(buffer);
  tex.buffer_internal_format = internalformat;
  tex.internal_format = internalformat;
  tex.format = *format;
  tex.buffer_offset = tex.buffer ? offset : 0;
  tex.buffer_size = tex.buffer ? size : 0;
}

}  // namespace

void TexBuffer(Context& ctx, GLenum target, GLenum internalformat, GLuint buffer) {
  Attach(ctx, target, internalformat, buffer, 0, 0, false, "glTexBuffer");
}

void TexBufferRange(Context& ctx, GLenum target, GLenum internalformat, GLuint buffer, GLintptr offset,
                    GLsizeiptr size) {
  Attach(ctx, target, internalformat, buffer, offset, size, true, "glTexBufferRange");
}

}  // namespace gl

bool ResolveTexelBuffer(const Texture& t, pipe::TexelBufferRange* out) {
  *out = {};
  if (!t.buffer || !t.buffer->handle.valid()) return false;
  int64_t offset = t.buffer_offset;
  int64_t available = t.buffer->size > offset ? t.buffer->size - offset : 0;
  int64_t size = t.buffer_size ? std::min(t.buffer_size, available) : available;
  int64_t texel = pipe::TexelSize(t.format);
  // GL_MAX_TEXTURE_BUFFER_SIZE bounds the texels a shader can address; whole texels only.
  size = std::min<int64_t>(size / texel, kMaxTextureBufferTexels) * texel;
  if (size <= 0) return false;
  out->buffer = t.buffer->handle;
  out->offset = static_cast<uint64_t>(offset);
  out->size = static_cast<uint64_t>(size);
  out->format = t.format;
  return true;
}

}  // namespace caldera
