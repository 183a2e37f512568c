// Buffer mapping and copies. Every buffer has an authoritative CPU shadow (gl_buffer.cpp), so a mapping is
// a pointer into the shadow (or, for write-only invalidating maps, straight into it after orphaning) and
// unmapping or flushing sends the written range down the pipe, ordered after earlier draws: the GPU never
// stalls on a map and work already recorded keeps reading the old bytes.
#include <cstring>

#include "frontend/buffer_util.h"
#include "frontend/context.h"
#include "frontend/gl_enums.h"
#include "frontend/gl_impl.h"

namespace caldera::gl {
namespace {

Buffer* Bound(Context& ctx, GLenum target, const char* fn) {
  if (!glenum::IsBufferTarget(target)) {
    ctx.Error(GL_INVALID_ENUM, fn, "invalid target");
    return nullptr;
  }
  auto* b = BufferBinding(ctx, target);
  if (!b || !*b) {
    ctx.Error(GL_INVALID_OPERATION, fn, "no buffer bound to target");
    return nullptr;
  }
  return b->get();
}

void Upload(Context& ctx, Buffer& b, int64_t offset, int64_t size) {
  if (size <= 0 || !b.handle.valid()) return;
  RecordUpload(ctx, b, uint64_t(offset), b.shadow.data() + offset, uint64_t(size));
}

}  // namespace

void* MapBufferRange(Context& ctx, GLenum target, GLintptr offset, GLsizeiptr length, GLbitfield access) {
  const char* fn = "glMapBufferRange";
  Buffer* b = Bound(ctx, target, fn);
  if (!b) return nullptr;
  constexpr GLbitfield kKnown = GL_MAP_READ_BIT | GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_RANGE_BIT |
                                GL_MAP_INVALIDATE_BUFFER_BIT | GL_MAP_FLUSH_EXPLICIT_BIT |
                                GL_MAP_UNSYNCHRONIZED_BIT;
  bool read = access & GL_MAP_READ_BIT, write = access & GL_MAP_WRITE_BIT;
  if (offset < 0 || length < 0 || length > b->size - offset || (access & ~kKnown)) {
    ctx.Error(GL_INVALID_VALUE, fn, "range outside the buffer or unknown access bits");
    return nullptr;
  }
  if (length == 0) {
    ctx.Error(GL_INVALID_VALUE, fn, "zero-length mapping");
    return nullptr;
  }
  if (b->mapped) {
    ctx.Error(GL_INVALID_OPERATION, fn, "buffer is already mapped");
    return nullptr;
  }
  bool invalidates = access & (GL_MAP_INVALIDATE_RANGE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
  if (!read && !write) {
    ctx.Error(GL_INVALID_OPERATION, fn, "neither GL_MAP_READ_BIT nor GL_MAP_WRITE_BIT");
    return nullptr;
  }
  if (read && (invalidates || (access & GL_MAP_UNSYNCHRONIZED_BIT))) {
    ctx.Error(GL_INVALID_OPERATION, fn, "read mapping with invalidate or unsynchronized");
    return nullptr;
  }
  if ((access & GL_MAP_FLUSH_EXPLICIT_BIT) && !write) {
    ctx.Error(GL_INVALID_OPERATION, fn, "GL_MAP_FLUSH_EXPLICIT_BIT without GL_MAP_WRITE_BIT");
    return nullptr;
  }
  if (access & GL_MAP_INVALIDATE_BUFFER_BIT) {
    // Orphan: fresh storage, so pending draws keep the old contents and nothing waits for them.
    ctx.pipe().Record(pipe::CmdBufferStorage{b->handle, static_cast<uint64_t>(b->size)});
    ctx.MarkDirty(kDirtyVertexInput);
    b->device_newer = false;  // the contents are undefined now; the shadow is as good as any
  } else if (!SyncShadow(ctx, *b)) {
    // Unmapping uploads the whole mapped range from the shadow, so even write maps need current bytes.
    ctx.Error(GL_CONTEXT_LOST, fn, "device lost");
    return nullptr;
  }
  b->mapped = true;
  b->map_access = access;
  b->map_offset = offset;
  b->map_length = length;
  return b->shadow.data() + offset;
}

void* MapBuffer(Context& ctx, GLenum target, GLenum access) {
  // ES reaches this as glMapBufferOES (GL_OES_mapbuffer), which knows only GL_WRITE_ONLY_OES.
  const char* fn = ctx.IsES() ? "glMapBufferOES" : "glMapBuffer";
  Buffer* b = Bound(ctx, target, fn);
  if (!b) return nullptr;
  GLbitfield bits = access == GL_WRITE_ONLY   ? GL_MAP_WRITE_BIT
                    : ctx.IsES()              ? 0
                    : access == GL_READ_ONLY  ? GL_MAP_READ_BIT
                    : access == GL_READ_WRITE ? (GL_MAP_READ_BIT | GL_MAP_WRITE_BIT)
                                              : 0;
  if (!bits) {
    ctx.Error(GL_INVALID_ENUM, fn, "invalid access");
    return nullptr;
  }
  if (b->mapped) {
    ctx.Error(GL_INVALID_OPERATION, fn, "buffer is already mapped");
    return nullptr;
  }
  if (b->size == 0) {
    b->mapped = true;
    b->map_access = bits;
    b->map_offset = b->map_length = 0;
    return b->shadow.data();
  }
  return MapBufferRange(ctx, target, 0, b->size, bits);
}

GLboolean UnmapBuffer(Context& ctx, GLenum target) {
  Buffer* b = Bound(ctx, target, "glUnmapBuffer");
  if (!b) return GL_FALSE;
  if (!b->mapped) {
    ctx.Error(GL_INVALID_OPERATION, "glUnmapBuffer", "buffer is not mapped");
    return GL_FALSE;
  }
  // Explicit-flush mappings sent their ranges at glFlushMappedBufferRange; others send the whole range now.
  if ((b->map_access & GL_MAP_WRITE_BIT) && !(b->map_access & GL_MAP_FLUSH_EXPLICIT_BIT))
    Upload(ctx, *b, b->map_offset, b->map_length);
  b->mapped = false;
  b->map_access = 0;
  b->map_offset = b->map_length = 0;
  return GL_TRUE;
}

void FlushMappedBufferRange(Context& ctx, GLenum target, GLintptr offset, GLsizeiptr length) {
  const char* fn = "glFlushMappedBufferRange";
  Buffer* b = Bound(ctx, target, fn);
  if (!b) return;
  if (!b->mapped || !(b->map_access & GL_MAP_FLUSH_EXPLICIT_BIT))
    return ctx.Error(GL_INVALID_OPERATION, fn, "buffer is not mapped with GL_MAP_FLUSH_EXPLICIT_BIT");
  // Subtract, never add: offset + length can overflow and pass the check.
  if (offset < 0 || length < 0 || offset > b->map_length || length > b->map_length - offset)
    return ctx.Error(GL_INVALID_VALUE, fn, "range outside the mapping");
  Upload(ctx, *b, b->map_offset + offset, length);
}

void CopyBufferSubData(Context& ctx, GLenum read_target, GLenum write_target, GLintptr read_offset,
                       GLintptr write_offset, GLsizeiptr size) {
  const char* fn = "glCopyBufferSubData";
  Buffer* src = Bound(ctx, read_target, fn);
  if (!src) return;
  Buffer* dst = Bound(ctx, write_target, fn);
  if (!dst) return;
  // Subtract, never add: offset + size can overflow and pass the check.
  if (read_offset < 0 || write_offset < 0 || size < 0 || read_offset > src->size ||
      size > src->size - read_offset || write_offset > dst->size || size > dst->size - write_offset)
    return ctx.Error(GL_INVALID_VALUE, fn, "range outside a buffer");
  if (src->mapped || dst->mapped) return ctx.Error(GL_INVALID_OPERATION, fn, "a buffer is mapped");
  if (src == dst && read_offset < write_offset + size && write_offset < read_offset + size)
    return ctx.Error(GL_INVALID_VALUE, fn, "overlapping ranges in one buffer");
  if (size == 0) return;
  if (!SyncShadow(ctx, *src) || !SyncShadow(ctx, *dst)) return ctx.Error(GL_CONTEXT_LOST, fn, "device lost");
  std::memmove(dst->shadow.data() + write_offset, src->shadow.data() + read_offset, size);
  ctx.pipe().Record(pipe::CmdBufferCopy{src->handle, dst->handle, static_cast<uint64_t>(read_offset),
                                        static_cast<uint64_t>(write_offset), static_cast<uint64_t>(size)});
}

void GetBufferPointerv(Context& ctx, GLenum target, GLenum pname, void** params) {
  Buffer* b = Bound(ctx, target, "glGetBufferPointerv");
  if (!b) return;
  if (pname != GL_BUFFER_MAP_POINTER)
    return ctx.Error(GL_INVALID_ENUM, "glGetBufferPointerv", "invalid pname");
  *params = b->mapped ? b->shadow.data() + b->map_offset : nullptr;
}

}  // namespace caldera::gl
