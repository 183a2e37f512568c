// Buffer objects. The frontend keeps a CPU shadow of every buffer (glGetBufferSubData, index scans for
// emulated primitives) and sends storage and uploads down the pipe in order with draws.
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <exception>

#include "frontend/buffer_util.h"
#include "frontend/context.h"
#include "frontend/device.h"
#include "frontend/gl_enums.h"
#include "frontend/gl_impl.h"

namespace caldera {

std::shared_ptr<Buffer>* BufferBinding(Context& ctx, GLenum target) {
  switch (target) {
    case GL_ARRAY_BUFFER:
      return &ctx.array_buffer;
    case GL_ELEMENT_ARRAY_BUFFER:
      return ctx.vertex_array ? &ctx.vertex_array->element_buffer : nullptr;
    case GL_COPY_READ_BUFFER:
      return &ctx.copy_read_buffer;
    case GL_COPY_WRITE_BUFFER:
      return &ctx.copy_write_buffer;
    case GL_PIXEL_PACK_BUFFER:
      return &ctx.pixel_pack_buffer;
    case GL_PIXEL_UNPACK_BUFFER:
      return &ctx.pixel_unpack_buffer;
    case GL_UNIFORM_BUFFER:
      return &ctx.uniform_buffer;
    case GL_TEXTURE_BUFFER:
      return &ctx.texture_buffer;
    case GL_TRANSFORM_FEEDBACK_BUFFER:
      return &ctx.transform_feedback_buffer;
    default:
      return nullptr;
  }
}

void RecordUpload(Context& ctx, const Buffer& buffer, uint64_t offset, const void* data, uint64_t size) {
  constexpr uint64_t kPiece = 1ull << 30;
  for (uint64_t at = 0; at < size; at += kPiece) {
    uint64_t n = std::min(kPiece, size - at);
    ctx.pipe().Record(pipe::CmdBufferUpload{buffer.handle, offset + at, static_cast<uint32_t>(n)},
                      static_cast<const uint8_t*>(data) + at, n);
  }
}

bool SyncShadow(Context& ctx, Buffer& buffer) {
  if (!buffer.device_newer) return true;
  buffer.device_newer = false;
  if (buffer.shadow.empty()) return true;
  pipe::CmdBufferRead cmd{};
  cmd.buffer = buffer.handle;
  cmd.size = buffer.shadow.size();
  cmd.dst = buffer.shadow.data();
  return ctx.pipe().RecordAndWait(cmd);
}

namespace gl {
namespace {

// Whether `vao` sources vertices or indices from `buffer`.
bool VertexArrayReads(const VertexArray& vao, const Buffer& buffer) {
  if (vao.element_buffer.get() == &buffer) return true;
  for (const auto& a : vao.attribs)
    if (a.buffer.get() == &buffer) return true;
  return false;
}

Buffer* BoundBuffer(Context& ctx, GLenum target, const char* function) {
  auto* binding = BufferBinding(ctx, target);
  if (!binding || !*binding) {
    ctx.Error(GL_INVALID_OPERATION, function, "no buffer bound to target");
    return nullptr;
  }
  return binding->get();
}

// Every buffer has a host shadow as large as its storage: no larger than the device allows nor than the
// host's physical memory.
uint64_t MaxBufferStorage(Context& ctx) {
  static const uint64_t host = [] {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : UINT64_MAX;
  }();
  return std::min(host, ctx.device().backend().caps().max_buffer_size);
}

void GenNames(Context& ctx, GLsizei n, GLuint* out, bool create) {
  std::lock_guard lock(ctx.shared().mutex);
  for (GLsizei i = 0; i < n; ++i) {
    out[i] = ctx.shared().buffers.Reserve();
    if (create) ctx.shared().buffers.GetOrCreate(out[i])->ever_bound = true;
  }
}

}  // namespace

void GenBuffers(Context& ctx, GLsizei n, GLuint* buffers) {
  GenNames(ctx, n, buffers, false);
}
void CreateBuffers(Context& ctx, GLsizei n, GLuint* buffers) {
  GenNames(ctx, n, buffers, true);
}

void DeleteBuffers(Context& ctx, GLsizei n, const GLuint* buffers) {
  for (GLsizei i = 0; i < n; ++i) {
    if (buffers[i] == 0) continue;
    std::shared_ptr<Buffer> buffer;
    {
      std::lock_guard lock(ctx.shared().mutex);
      buffer = ctx.shared().buffers.Remove(buffers[i]);
    }
    if (!buffer) continue;
    // GL: deleting a bound buffer unbinds it from the current context's bindings (and the bound VAO).
    for (auto* binding : {&ctx.array_buffer, &ctx.copy_read_buffer, &ctx.copy_write_buffer,
                          &ctx.pixel_pack_buffer, &ctx.pixel_unpack_buffer, &ctx.uniform_buffer,
                          &ctx.texture_buffer, &ctx.transform_feedback_buffer}) {
      if (*binding == buffer) binding->reset();
    }
    // The bound transform feedback object is a bound container too (its bindings are fixed while active).
    if (!ctx.transform_feedback->active) {
      for (auto& b : ctx.transform_feedback->bindings)
        if (b.buffer == buffer) b = {};
    }
    if (ctx.vertex_array) {
      if (ctx.vertex_array->element_buffer == buffer) ctx.vertex_array->element_buffer.reset();
      for (auto& a : ctx.vertex_array->attribs) {
        if (a.buffer == buffer) {
          a.buffer.reset();
          ctx.MarkDirty(kDirtyVertexInput);
        }
      }
    }
    // The name is free now; the storage goes when the last user (another context's VAO, say) lets go,
    // and the backend frees it once no pending work reads it.
  }
}

GLboolean IsBuffer(Context& ctx, GLuint buffer) {
  std::lock_guard lock(ctx.shared().mutex);
  auto b = ctx.shared().buffers.Get(buffer);
  return b && b->ever_bound;
}

void BindBuffer(Context& ctx, GLenum target, GLuint name) {
  std::shared_ptr<Buffer> buffer;
  if (name != 0) {
    std::lock_guard lock(ctx.shared().mutex);
    buffer = ctx.shared().buffers.GetOrCreate(name);
    buffer->ever_bound = true;
  }
  auto* binding = BufferBinding(ctx, target);
  if (!binding) return ctx.Error(GL_INVALID_OPERATION, "glBindBuffer", "no vertex array object bound");
  *binding = std::move(buffer);
}

void BufferData(Context& ctx, GLenum target, GLsizeiptr size, const void* data, GLenum usage) {
  Buffer* buffer = BoundBuffer(ctx, target, "glBufferData");
  if (!buffer) return;
  if (buffer->mapped) return ctx.Error(GL_INVALID_OPERATION, "glBufferData", "buffer is mapped");
  if (!buffer->handle.valid()) {
    buffer->handle = ctx.NewHandle();
    buffer->device = &ctx.device();
  }
  // A size no host or device can hold is GL_OUT_OF_MEMORY, not a crash or a minutes-long zero fill of
  // overcommitted memory; the old storage stays as it was.
  if (static_cast<uint64_t>(size) > MaxBufferStorage(ctx))
    return ctx.Error(GL_OUT_OF_MEMORY, "glBufferData", "larger than the device or host memory");
  std::vector<uint8_t> storage;
  try {
    storage.assign(static_cast<size_t>(size), 0);
  } catch (const std::exception&) {
    return ctx.Error(GL_OUT_OF_MEMORY, "glBufferData", "cannot allocate the buffer's storage");
  }
  buffer->size = size;
  buffer->usage = usage;
  BumpDrawVersion(*buffer, "glBufferData");  // size (and maybe handle) changed: resolved ranges follow
  buffer->shadow = std::move(storage);
  buffer->device_newer = false;
  // A zero-sized store has no storage to copy into (and memcpy's pointers must be valid even for 0 bytes).
  if (data && size > 0) std::memcpy(buffer->shadow.data(), data, size);
  // New storage every time: work already recorded keeps reading the old contents (orphaning).
  ctx.pipe().Record(pipe::CmdBufferStorage{buffer->handle, static_cast<uint64_t>(size)});
  if (data && size > 0) RecordUpload(ctx, *buffer, 0, data, uint64_t(size));
  // The bound vertex array's bindings name the old storage: re-send them if they read this buffer. Other
  // vertex arrays are sent when they are bound.
  if (ctx.vertex_array && VertexArrayReads(*ctx.vertex_array, *buffer)) ctx.MarkDirty(kDirtyVertexInput);
}

void BufferSubData(Context& ctx, GLenum target, GLintptr offset, GLsizeiptr size, const void* data) {
  Buffer* buffer = BoundBuffer(ctx, target, "glBufferSubData");
  if (!buffer) return;
  // Subtract, never add: offset + size can overflow (signed, so undefined) and pass the check.
  if (offset > buffer->size || size > buffer->size - offset)
    return ctx.Error(GL_INVALID_VALUE, "glBufferSubData", "range exceeds the buffer size");
  if (buffer->mapped) return ctx.Error(GL_INVALID_OPERATION, "glBufferSubData", "buffer is mapped");
  if (size == 0 || !data) return;
  std::memcpy(buffer->shadow.data() + offset, data, size);
  RecordUpload(ctx, *buffer, uint64_t(offset), data, uint64_t(size));
}

void GetBufferSubData(Context& ctx, GLenum target, GLintptr offset, GLsizeiptr size, void* data) {
  Buffer* buffer = BoundBuffer(ctx, target, "glGetBufferSubData");
  if (!buffer) return;
  // Subtract, never add: offset + size can overflow (signed, so undefined) and pass the check.
  if (offset > buffer->size || size > buffer->size - offset)
    return ctx.Error(GL_INVALID_VALUE, "glGetBufferSubData", "range exceeds the buffer size");
  if (buffer->mapped) return ctx.Error(GL_INVALID_OPERATION, "glGetBufferSubData", "buffer is mapped");
  if (!SyncShadow(ctx, *buffer)) return ctx.Error(GL_CONTEXT_LOST, "glGetBufferSubData", "device lost");
  if (size > 0 && data) std::memcpy(data, buffer->shadow.data() + offset, size);
}

namespace {

template <typename T>
void GetBufferParameter(Context& ctx, GLenum target, GLenum pname, T* params, const char* function) {
  if (!glenum::IsBufferTarget(target)) return ctx.Error(GL_INVALID_ENUM, function, "invalid target");
  Buffer* buffer = BoundBuffer(ctx, target, function);
  if (!buffer) return;
  switch (pname) {
    case GL_BUFFER_SIZE:
      *params = static_cast<T>(buffer->size);
      return;
    case GL_BUFFER_USAGE:
      *params = static_cast<T>(buffer->usage);
      return;
    case GL_BUFFER_MAPPED:
      *params = buffer->mapped;
      return;
    case GL_BUFFER_ACCESS_FLAGS:
      *params = static_cast<T>(buffer->map_access);
      return;
    case GL_BUFFER_MAP_OFFSET:
      *params = static_cast<T>(buffer->map_offset);
      return;
    case GL_BUFFER_MAP_LENGTH:
      *params = static_cast<T>(buffer->map_length);
      return;
    case GL_BUFFER_ACCESS: {
      // The glMapBuffer access a mapping's GL_MAP_*_BIT flags stand for; unmapped, the initial value
      // (GL_READ_WRITE; ES's GL_OES_mapbuffer knows only GL_WRITE_ONLY_OES).
      const bool read = buffer->map_access & GL_MAP_READ_BIT, write = buffer->map_access & GL_MAP_WRITE_BIT;
      GLenum access = read && write ? GL_READ_WRITE
                      : read        ? GL_READ_ONLY
                      : write       ? GL_WRITE_ONLY
                      : ctx.IsES()  ? GL_WRITE_ONLY
                                    : GL_READ_WRITE;
      *params = static_cast<T>(access);
      return;
    }
    default:
      return ctx.Error(GL_INVALID_ENUM, function, "invalid pname");
  }
}

}  // namespace

void GetBufferParameteriv(Context& ctx, GLenum target, GLenum pname, GLint* params) {
  GetBufferParameter(ctx, target, pname, params, "glGetBufferParameteriv");
}
void GetBufferParameteri64v(Context& ctx, GLenum target, GLenum pname, GLint64* params) {
  GetBufferParameter(ctx, target, pname, params, "glGetBufferParameteri64v");
}

}  // namespace gl
}  // namespace caldera
