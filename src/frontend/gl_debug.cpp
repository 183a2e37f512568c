// GL debug output commands and object labels (KHR_debug; GL 4.6 chapter 20). The state and delivery are
// in debug_output.cpp; this file validates the commands and finds labelled objects.
#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>

#include "frontend/compat/hooks.h"
#include "frontend/compat/immediate.h"
#include "frontend/context.h"
#include "frontend/debug_output.h"
#include "frontend/gl_impl.h"

namespace caldera {

namespace gl {
namespace {

// GL's string-length convention: a negative length means NUL-terminated.
size_t Length(const GLchar* s, GLsizei length) {
  if (!s) return 0;
  return length < 0 ? std::strlen(s) : static_cast<size_t>(length);
}

template <typename T>
std::string* TableLabel(NameTable<T>& table, GLuint name) {
  if (!table.IsReserved(name)) return nullptr;
  return &table.GetOrCreate(name)->label;  // a generated name with no object yet becomes one (as in Mesa)
}

bool KnownIdentifier(const Context& ctx, GLenum identifier) {
  switch (identifier) {
    case GL_DISPLAY_LIST:  // the compatibility profile's
      return ctx.IsCompat();
    case GL_BUFFER:
    case GL_SHADER:
    case GL_PROGRAM:
    case GL_VERTEX_ARRAY:
    case GL_QUERY:
    case GL_PROGRAM_PIPELINE:
    case GL_TRANSFORM_FEEDBACK:
    case GL_SAMPLER:
    case GL_TEXTURE:
    case GL_RENDERBUFFER:
    case GL_FRAMEBUFFER:
      return true;
    default:
      return false;
  }
}

// Runs f(label) on the label of (identifier, name) with the share group locked; records the spec's error
// (after unlocking: the debug callback may call GL) and returns false when there is no such object.
template <typename F>
bool WithLabel(Context& ctx, GLenum identifier, GLuint name, const char* fn, F&& f) {
  if (!KnownIdentifier(ctx, identifier)) {
    ctx.Error(GL_INVALID_ENUM, fn, "identifier is not an object type");
    return false;
  }
  bool found = false;
  {
    ShareGroup& group = ctx.shared();
    std::lock_guard lock(group.mutex);
    std::string* label = nullptr;
    switch (identifier) {
      case GL_BUFFER:
        label = TableLabel(group.buffers, name);
        break;
      case GL_SHADER:
        if (auto s = group.shaders.Get(name)) label = &s->label;
        break;
      case GL_PROGRAM:
        if (auto p = group.programs.Get(name)) label = &p->label;
        break;
      case GL_VERTEX_ARRAY:
        label = TableLabel(ctx.vertex_arrays, name);
        break;
      case GL_QUERY:
        label = QueryLabel(ctx, name);
        break;
      case GL_TRANSFORM_FEEDBACK:
        label = TableLabel(ctx.transform_feedbacks, name);
        break;
      case GL_SAMPLER:
        label = TableLabel(group.samplers, name);
        break;
      case GL_TEXTURE:
        label = TableLabel(group.textures, name);
        break;
      case GL_RENDERBUFFER:
        label = TableLabel(group.renderbuffers, name);
        break;
      case GL_FRAMEBUFFER:
        label = TableLabel(ctx.framebuffers, name);
        break;
      case GL_DISPLAY_LIST:
        if (ctx.compat->lists.count(name)) label = &ctx.compat->list_labels[name];
        break;
      default:
        break;  // GL_PROGRAM_PIPELINE: Caldera has no program pipeline objects
    }
    if (label) {
      f(*label);
      found = true;
    }
  }
  if (!found) ctx.Error(GL_INVALID_VALUE, fn, "name is not an object of that type");
  return found;
}

// glObjectLabel's rules for the new label; false (error recorded) when it is too long.
bool NewLabel(Context& ctx, GLsizei length, const GLchar* label, const char* fn, std::string* out) {
  size_t n = Length(label, length);
  if (n >= size_t(DebugOutput::kMaxLabelLength)) {
    ctx.Error(GL_INVALID_VALUE, fn, "label is GL_MAX_LABEL_LENGTH or longer");
    return false;
  }
  if (label) out->assign(label, n);
  return true;
}

void CopyLabel(const std::string& label, GLsizei buf_size, GLsizei* length, GLchar* out) {
  if (!out) {
    if (length) *length = static_cast<GLsizei>(label.size());
    return;
  }
  size_t n = buf_size > 0 ? std::min(label.size(), size_t(buf_size - 1)) : 0;
  if (buf_size > 0) {
    std::memcpy(out, label.data(), n);
    out[n] = '\0';
  }
  if (length) *length = static_cast<GLsizei>(n);
}

}  // namespace

void DebugMessageCallback(Context& ctx, GLDEBUGPROC callback, const void* user_param) {
  ctx.debug.SetCallback(callback, user_param);
}

void DebugMessageControl(Context& ctx, GLenum source, GLenum type, GLenum severity, GLsizei count,
                         const GLuint* ids, GLboolean enabled) {
  const char* fn = "glDebugMessageControl";
  if (source != GL_DONT_CARE && !DebugOutput::ValidSource(source))
    return ctx.Error(GL_INVALID_ENUM, fn, "invalid source");
  if (type != GL_DONT_CARE && !DebugOutput::ValidType(type))
    return ctx.Error(GL_INVALID_ENUM, fn, "invalid type");
  if (severity != GL_DONT_CARE && !DebugOutput::ValidSeverity(severity))
    return ctx.Error(GL_INVALID_ENUM, fn, "invalid severity");
  if (count < 0) return ctx.Error(GL_INVALID_VALUE, fn, "count is negative");
  if (count > 0 && (source == GL_DONT_CARE || type == GL_DONT_CARE || severity != GL_DONT_CARE))
    return ctx.Error(GL_INVALID_OPERATION, fn, "an id list needs one source and type, and no severity");
  if (count > 0 && !ids) return ctx.Error(GL_INVALID_VALUE, fn, "ids is null");
  ctx.debug.Control(source, type, severity, ids, count, enabled != GL_FALSE);
}

void DebugMessageInsert(Context& ctx, GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                        const GLchar* buf) {
  const char* fn = "glDebugMessageInsert";
  if (source != GL_DEBUG_SOURCE_APPLICATION && source != GL_DEBUG_SOURCE_THIRD_PARTY)
    return ctx.Error(GL_INVALID_ENUM, fn, "source must be GL_DEBUG_SOURCE_APPLICATION or _THIRD_PARTY");
  if (!DebugOutput::ValidType(type)) return ctx.Error(GL_INVALID_ENUM, fn, "invalid type");
  if (!DebugOutput::ValidSeverity(severity)) return ctx.Error(GL_INVALID_ENUM, fn, "invalid severity");
  if (!buf) return ctx.Error(GL_INVALID_VALUE, fn, "buf is null");
  size_t n = Length(buf, length);
  if (n >= size_t(DebugOutput::kMaxMessageLength))
    return ctx.Error(GL_INVALID_VALUE, fn, "message is GL_MAX_DEBUG_MESSAGE_LENGTH or longer");
  if (ctx.debug.active()) ctx.debug.Message(source, type, id, severity, std::string_view(buf, n));
}

GLuint GetDebugMessageLog(Context& ctx, GLuint count, GLsizei buf_size, GLenum* sources, GLenum* types,
                          GLuint* ids, GLenum* severities, GLsizei* lengths, GLchar* message_log) {
  if (buf_size < 0 && message_log) {
    ctx.Error(GL_INVALID_VALUE, "glGetDebugMessageLog", "bufSize is negative");
    return 0;
  }
  return ctx.debug.TakeLog(count, buf_size, sources, types, ids, severities, lengths, message_log);
}

void PushDebugGroup(Context& ctx, GLenum source, GLuint id, GLsizei length, const GLchar* message) {
  const char* fn = "glPushDebugGroup";
  if (source != GL_DEBUG_SOURCE_APPLICATION && source != GL_DEBUG_SOURCE_THIRD_PARTY)
    return ctx.Error(GL_INVALID_ENUM, fn, "source must be GL_DEBUG_SOURCE_APPLICATION or _THIRD_PARTY");
  if (!message) return ctx.Error(GL_INVALID_VALUE, fn, "message is null");
  size_t n = Length(message, length);
  if (n >= size_t(DebugOutput::kMaxMessageLength))
    return ctx.Error(GL_INVALID_VALUE, fn, "message is GL_MAX_DEBUG_MESSAGE_LENGTH or longer");
  if (!ctx.debug.PushGroup(source, id, std::string_view(message, n)))
    ctx.Error(GL_STACK_OVERFLOW, fn, "GL_MAX_DEBUG_GROUP_STACK_DEPTH groups are pushed");
}

void PopDebugGroup(Context& ctx) {
  if (!ctx.debug.PopGroup())
    ctx.Error(GL_STACK_UNDERFLOW, "glPopDebugGroup", "only the default group is left");
}

void ObjectLabel(Context& ctx, GLenum identifier, GLuint name, GLsizei length, const GLchar* label) {
  const char* fn = "glObjectLabel";
  std::string text;
  if (!KnownIdentifier(ctx, identifier))
    return ctx.Error(GL_INVALID_ENUM, fn, "identifier is not an object type");
  if (!NewLabel(ctx, length, label, fn, &text)) return;
  WithLabel(ctx, identifier, name, fn, [&](std::string& slot) { slot = std::move(text); });
}

void GetObjectLabel(Context& ctx, GLenum identifier, GLuint name, GLsizei buf_size, GLsizei* length,
                    GLchar* label) {
  const char* fn = "glGetObjectLabel";
  if (buf_size < 0) return ctx.Error(GL_INVALID_VALUE, fn, "bufSize is negative");
  WithLabel(ctx, identifier, name, fn,
            [&](const std::string& slot) { CopyLabel(slot, buf_size, length, label); });
}

void ObjectPtrLabel(Context& ctx, const void* ptr, GLsizei length, const GLchar* label) {
  const char* fn = "glObjectPtrLabel";
  std::string text;
  if (!NewLabel(ctx, length, label, fn, &text)) return;
  bool found = false;
  {
    std::lock_guard lock(ctx.shared().mutex);
    if (std::string* slot = SyncLabel(ctx, static_cast<GLsync>(const_cast<void*>(ptr)))) {
      *slot = std::move(text);
      found = true;
    }
  }
  if (!found) ctx.Error(GL_INVALID_VALUE, fn, "ptr is not a sync object");
}

void GetObjectPtrLabel(Context& ctx, const void* ptr, GLsizei buf_size, GLsizei* length, GLchar* label) {
  const char* fn = "glGetObjectPtrLabel";
  if (buf_size < 0) return ctx.Error(GL_INVALID_VALUE, fn, "bufSize is negative");
  bool found = false;
  {
    std::lock_guard lock(ctx.shared().mutex);
    if (std::string* slot = SyncLabel(ctx, static_cast<GLsync>(const_cast<void*>(ptr)))) {
      CopyLabel(*slot, buf_size, length, label);
      found = true;
    }
  }
  if (!found) ctx.Error(GL_INVALID_VALUE, fn, "ptr is not a sync object");
}

void GetPointerv(Context& ctx, GLenum pname, void** params) {
  const void* value = nullptr;
  bool known = true;
  switch (pname) {
    case GL_DEBUG_CALLBACK_FUNCTION:
      value = reinterpret_cast<const void*>(ctx.debug.callback());
      break;
    case GL_DEBUG_CALLBACK_USER_PARAM:
      value = ctx.debug.user_param();
      break;
    default:
      // The compatibility profile's legacy arrays (compat/arrays.cpp).
      known = ctx.IsCompat() && (compat::QueryArrayPointer(ctx, pname, &value) ||
                                 compat::QuerySelectFeedbackPointer(ctx, pname, &value));
      break;
  }
  if (!known) return ctx.Error(GL_INVALID_ENUM, "glGetPointerv", "invalid pname");
  if (params) *params = const_cast<void*>(value);
}

}  // namespace gl
}  // namespace caldera
