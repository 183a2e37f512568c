// Vertex array objects and generic vertex attributes.
#include "frontend/client_arrays.h"
#include "frontend/context.h"
#include "frontend/gl_impl.h"

namespace caldera::gl {

void GenVertexArrays(Context& ctx, GLsizei n, GLuint* arrays) {
  for (GLsizei i = 0; i < n; ++i) arrays[i] = ctx.vertex_arrays.Reserve();
}

void DeleteVertexArrays(Context& ctx, GLsizei n, const GLuint* arrays) {
  for (GLsizei i = 0; i < n; ++i) {
    if (arrays[i] == 0) continue;
    auto vao = ctx.vertex_arrays.Remove(arrays[i]);
    if (vao && vao == ctx.vertex_array) {
      // GL: deleting the bound VAO binds zero (none in core, the default one in ES and compatibility).
      ctx.vertex_array = ctx.default_vertex_array;
      ctx.MarkDirty(kDirtyVertexInput);
    }
  }
}

void BindVertexArray(Context& ctx, GLuint array) {
  std::shared_ptr<VertexArray> vao;
  if (array != 0) {
    vao = ctx.vertex_arrays.GetOrCreate(array);
    vao->ever_bound = true;
  } else if (ctx.IsES() || ctx.IsCompat()) {
    vao = ctx.default_vertex_array;
  }
  if (vao == ctx.vertex_array) return;
  ctx.vertex_array = std::move(vao);
  ctx.MarkDirty(kDirtyVertexInput);
}

GLboolean IsVertexArray(Context& ctx, GLuint array) {
  auto vao = ctx.vertex_arrays.Get(array);
  return vao && vao->ever_bound;
}

void EnableVertexAttribArray(Context& ctx, GLuint index) {
  auto& a = ctx.vertex_array->attribs[index];
  if (a.enabled) return;
  a.enabled = true;
  ctx.MarkDirty(kDirtyVertexInput);
}

void DisableVertexAttribArray(Context& ctx, GLuint index) {
  auto& a = ctx.vertex_array->attribs[index];
  if (!a.enabled) return;
  a.enabled = false;
  ctx.MarkDirty(kDirtyVertexInput);
}

namespace {

void SetPointer(Context& ctx, GLuint index, GLint size, GLenum type, bool normalized, bool integer,
                GLsizei stride, const void* pointer) {
  auto& a = ctx.vertex_array->attribs[index];
  const uint64_t offset = reinterpret_cast<uintptr_t>(pointer);
  // No buffer bound: an ES client-side array (validation allowed it only on the default vertex array).
  const void* client_pointer = ctx.array_buffer ? nullptr : pointer;
  // Programs re-specify the same pointers every frame: only a real change re-sends the vertex input.
  if (a.size == size && a.type == type && a.normalized == normalized && a.integer == integer &&
      a.stride == stride && a.offset == offset && a.buffer == ctx.array_buffer &&
      a.client_pointer == client_pointer)
    return;
  a.size = size;
  a.type = type;
  a.normalized = normalized;
  a.integer = integer;
  a.stride = stride;
  a.offset = offset;
  a.buffer = ctx.array_buffer;
  a.client_pointer = client_pointer;
  const uint32_t bit = 1u << index;
  ctx.vertex_array->streamed_mask =
      (ctx.vertex_array->streamed_mask & ~bit) | (ArrayIsStreamed(ctx, a) ? bit : 0);
  ctx.MarkDirty(kDirtyVertexInput);
}

}  // namespace

void VertexAttribPointer(Context& ctx, GLuint index, GLint size, GLenum type, GLboolean normalized,
                         GLsizei stride, const void* pointer) {
  SetPointer(ctx, index, size, type, normalized != 0, false, stride, pointer);
}

void VertexAttribIPointer(Context& ctx, GLuint index, GLint size, GLenum type, GLsizei stride,
                          const void* pointer) {
  SetPointer(ctx, index, size, type, false, true, stride, pointer);
}

void VertexAttribDivisor(Context& ctx, GLuint index, GLuint divisor) {
  if (!ctx.vertex_array)
    return ctx.Error(GL_INVALID_OPERATION, "glVertexAttribDivisor", "no vertex array bound");
  auto& a = ctx.vertex_array->attribs[index];
  if (a.divisor == divisor) return;
  a.divisor = divisor;
  ctx.MarkDirty(kDirtyVertexInput);
}

}  // namespace caldera::gl
