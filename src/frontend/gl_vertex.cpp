// Vertex array objects and generic vertex attributes.
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
      // GL: deleting the bound VAO binds zero (none in core, the default one in ES).
      ctx.vertex_array = ctx.IsES() ? std::make_shared<VertexArray>() : nullptr;
      ctx.MarkDirty(kDirtyVertexInput);
    }
  }
}

void BindVertexArray(Context& ctx, GLuint array) {
  std::shared_ptr<VertexArray> vao;
  if (array != 0) {
    vao = ctx.vertex_arrays.GetOrCreate(array);
    vao->ever_bound = true;
  } else if (ctx.IsES()) {
    vao = std::make_shared<VertexArray>();
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
  a.size = size;
  a.type = type;
  a.normalized = normalized;
  a.integer = integer;
  a.stride = stride;
  a.offset = reinterpret_cast<uintptr_t>(pointer);
  a.buffer = ctx.array_buffer;
  ctx.MarkDirty(kDirtyVertexInput);
}

void SetGeneric(Context& ctx, GLuint index, GLfloat x, GLfloat y, GLfloat z, GLfloat w,
                const char* function) {
  if (index >= pipe::kMaxVertexAttribs)
    return ctx.Error(GL_INVALID_VALUE, function, "index >= GL_MAX_VERTEX_ATTRIBS");
  GLfloat* v = ctx.state.generic_attrib[index];
  if (v[0] == x && v[1] == y && v[2] == z && v[3] == w) return;
  v[0] = x, v[1] = y, v[2] = z, v[3] = w;
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

void VertexAttrib1f(Context& ctx, GLuint index, GLfloat x) {
  SetGeneric(ctx, index, x, 0, 0, 1, "glVertexAttrib1f");
}
void VertexAttrib2f(Context& ctx, GLuint index, GLfloat x, GLfloat y) {
  SetGeneric(ctx, index, x, y, 0, 1, "glVertexAttrib2f");
}
void VertexAttrib3f(Context& ctx, GLuint index, GLfloat x, GLfloat y, GLfloat z) {
  SetGeneric(ctx, index, x, y, z, 1, "glVertexAttrib3f");
}
void VertexAttrib4f(Context& ctx, GLuint index, GLfloat x, GLfloat y, GLfloat z, GLfloat w) {
  SetGeneric(ctx, index, x, y, z, w, "glVertexAttrib4f");
}
void VertexAttrib4fv(Context& ctx, GLuint index, const GLfloat* v) {
  SetGeneric(ctx, index, v[0], v[1], v[2], v[3], "glVertexAttrib4fv");
}

void VertexAttrib1fv(Context& ctx, GLuint index, const GLfloat* v) {
  SetGeneric(ctx, index, v[0], 0, 0, 1, "glVertexAttrib1fv");
}
void VertexAttrib2fv(Context& ctx, GLuint index, const GLfloat* v) {
  SetGeneric(ctx, index, v[0], v[1], 0, 1, "glVertexAttrib2fv");
}
void VertexAttrib3fv(Context& ctx, GLuint index, const GLfloat* v) {
  SetGeneric(ctx, index, v[0], v[1], v[2], 1, "glVertexAttrib3fv");
}
// Integer generic values travel as floats today: exact up to 2^24 (integer constant attributes are rare).
void VertexAttribI4i(Context& ctx, GLuint index, GLint x, GLint y, GLint z, GLint w) {
  SetGeneric(ctx, index, GLfloat(x), GLfloat(y), GLfloat(z), GLfloat(w), "glVertexAttribI4i");
}
void VertexAttribI4ui(Context& ctx, GLuint index, GLuint x, GLuint y, GLuint z, GLuint w) {
  SetGeneric(ctx, index, GLfloat(x), GLfloat(y), GLfloat(z), GLfloat(w), "glVertexAttribI4ui");
}

namespace {

// Returns false (error recorded) for bad index/pname; fills up to four values.
template <typename T>
bool QueryAttrib(Context& ctx, GLuint index, GLenum pname, T* out, const char* fn) {
  if (index >= pipe::kMaxVertexAttribs) {
    ctx.Error(GL_INVALID_VALUE, fn, "index >= GL_MAX_VERTEX_ATTRIBS");
    return false;
  }
  if (pname == GL_CURRENT_VERTEX_ATTRIB) {
    for (int i = 0; i < 4; ++i) out[i] = static_cast<T>(ctx.state.generic_attrib[index][i]);
    return true;
  }
  if (!ctx.vertex_array) {
    ctx.Error(GL_INVALID_OPERATION, fn, "no vertex array object bound");
    return false;
  }
  const auto& a = ctx.vertex_array->attribs[index];
  switch (pname) {
    case GL_VERTEX_ATTRIB_ARRAY_ENABLED:
      *out = static_cast<T>(a.enabled);
      return true;
    case GL_VERTEX_ATTRIB_ARRAY_SIZE:
      *out = static_cast<T>(a.size);
      return true;
    case GL_VERTEX_ATTRIB_ARRAY_STRIDE:
      *out = static_cast<T>(a.stride);
      return true;
    case GL_VERTEX_ATTRIB_ARRAY_TYPE:
      *out = static_cast<T>(a.type);
      return true;
    case GL_VERTEX_ATTRIB_ARRAY_NORMALIZED:
      *out = static_cast<T>(a.normalized);
      return true;
    case GL_VERTEX_ATTRIB_ARRAY_INTEGER:
      *out = static_cast<T>(a.integer);
      return true;
    case GL_VERTEX_ATTRIB_ARRAY_DIVISOR:
      *out = static_cast<T>(a.divisor);
      return true;
    case GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING:
      *out = static_cast<T>(a.buffer ? a.buffer->name : 0);
      return true;
    default:
      ctx.Error(GL_INVALID_ENUM, fn, "invalid pname");
      return false;
  }
}

}  // namespace

void GetVertexAttribiv(Context& ctx, GLuint index, GLenum pname, GLint* params) {
  QueryAttrib(ctx, index, pname, params, "glGetVertexAttribiv");
}

void GetVertexAttribfv(Context& ctx, GLuint index, GLenum pname, GLfloat* params) {
  QueryAttrib(ctx, index, pname, params, "glGetVertexAttribfv");
}

void GetVertexAttribPointerv(Context& ctx, GLuint index, GLenum pname, void** pointer) {
  if (index >= pipe::kMaxVertexAttribs)
    return ctx.Error(GL_INVALID_VALUE, "glGetVertexAttribPointerv", "index >= GL_MAX_VERTEX_ATTRIBS");
  if (pname != GL_VERTEX_ATTRIB_ARRAY_POINTER)
    return ctx.Error(GL_INVALID_ENUM, "glGetVertexAttribPointerv", "invalid pname");
  *pointer = ctx.vertex_array ? reinterpret_cast<void*>(ctx.vertex_array->attribs[index].offset) : nullptr;
}

}  // namespace caldera::gl
