// Indexed state queries: glGetIntegeri_v, glGetInteger64i_v and glGetBooleani_v answer from one table, so
// every indexed state reads through every form (uniform and transform feedback buffer bindings with their
// ranges, glSampleMaski's words, per-draw-buffer colour masks and blend enables).
#include <vector>

#include "frontend/context.h"
#include "frontend/gl_impl.h"

namespace caldera::gl {
namespace {

// Fills `out` with the values of `target` at `index`; false after recording the error GL names.
bool IndexedQuery(Context& ctx, GLenum target, GLuint index, const char* fn, std::vector<int64_t>* out) {
  const Context::IndexedBuffer* b = nullptr;
  switch (target) {
    case GL_UNIFORM_BUFFER_BINDING:
    case GL_UNIFORM_BUFFER_START:
    case GL_UNIFORM_BUFFER_SIZE:
      if (index >= Context::kUniformBufferBindings)
        return ctx.Error(GL_INVALID_VALUE, fn, "index out of range"), false;
      b = &ctx.uniform_buffer_bindings[index];
      break;
    case GL_TRANSFORM_FEEDBACK_BUFFER_BINDING:
    case GL_TRANSFORM_FEEDBACK_BUFFER_START:
    case GL_TRANSFORM_FEEDBACK_BUFFER_SIZE:
      if (index >= ctx.transform_feedback->bindings.size())
        return ctx.Error(GL_INVALID_VALUE, fn, "index out of range"), false;
      b = &ctx.transform_feedback->bindings[index];
      break;
    case GL_SAMPLE_MASK_VALUE:  // glSampleMaski's words (GL_MAX_SAMPLE_MASK_WORDS is 1)
      if (index >= 1) return ctx.Error(GL_INVALID_VALUE, fn, "index above GL_MAX_SAMPLE_MASK_WORDS"), false;
      out->push_back(ctx.state.sample_mask_value);
      return true;
    case GL_COLOR_WRITEMASK:
      if (ctx.IsES() || index >= pipe::kMaxColorAttachments)
        return ctx.Error(ctx.IsES() ? GL_INVALID_ENUM : GL_INVALID_VALUE, fn, "invalid index"), false;
      for (bool channel : ctx.state.color_mask[index]) out->push_back(channel ? 1 : 0);
      return true;
    case GL_BLEND:
      if (ctx.IsES() || index >= pipe::kMaxColorAttachments)
        return ctx.Error(ctx.IsES() ? GL_INVALID_ENUM : GL_INVALID_VALUE, fn, "invalid index"), false;
      out->push_back(ctx.state.blend.test(index) ? 1 : 0);
      return true;
    default:
      return ctx.Error(GL_INVALID_ENUM, fn, "invalid target"), false;
  }
  if (target == GL_UNIFORM_BUFFER_BINDING || target == GL_TRANSFORM_FEEDBACK_BUFFER_BINDING)
    out->push_back(b->buffer ? static_cast<int64_t>(b->buffer->name) : 0);
  else if (target == GL_UNIFORM_BUFFER_START || target == GL_TRANSFORM_FEEDBACK_BUFFER_START)
    out->push_back(static_cast<int64_t>(b->offset));
  else
    out->push_back(static_cast<int64_t>(b->size));
  return true;
}

template <typename T>
void GetIndexed(Context& ctx, GLenum target, GLuint index, T* data, const char* fn) {
  std::vector<int64_t> values;
  if (!IndexedQuery(ctx, target, index, fn, &values) || !data) return;
  for (size_t i = 0; i < values.size(); ++i) {
    if constexpr (std::is_same_v<T, GLboolean>)
      data[i] = values[i] != 0 ? GL_TRUE : GL_FALSE;
    else
      data[i] = static_cast<T>(values[i]);
  }
}

}  // namespace

void GetIntegeri_v(Context& ctx, GLenum target, GLuint index, GLint* data) {
  GetIndexed(ctx, target, index, data, "glGetIntegeri_v");
}
void GetInteger64i_v(Context& ctx, GLenum target, GLuint index, GLint64* data) {
  GetIndexed(ctx, target, index, data, "glGetInteger64i_v");
}
void GetBooleani_v(Context& ctx, GLenum target, GLuint index, GLboolean* data) {
  GetIndexed(ctx, target, index, data, "glGetBooleani_v");
}

}  // namespace caldera::gl
