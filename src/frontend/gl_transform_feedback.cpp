// Transform feedback as GL 3.3 has it: varyings chosen per program for its next link, one capture at a time
// per context (no transform feedback objects, no pause/resume: those are GL 4.0 and stay unimplemented),
// buffers resolved at glBeginTransformFeedback into a CmdTransformFeedbackBegin record. What is captured and
// where is decided at link time by the shader path (spirv_xfb.cpp); the backends only bind buffers.
#include "frontend/gl_transform_feedback.h"

#include <algorithm>
#include <cstring>

#include "frontend/context.h"
#include "frontend/gl_impl.h"
#include "frontend/program_util.h"

namespace caldera::gl {
namespace {

const shader::LinkedProgram* LinkedOf(const Program& program) {
  return program.link_status ? program.linked.get() : nullptr;
}

// The capture primitive a draw (or a geometry shader's output) produces: GL_POINTS, GL_LINES,
// GL_TRIANGLES, or 0 for an unknown mode.
GLenum CapturePrimitive(GLenum mode) {
  switch (mode) {
    case GL_POINTS:
      return GL_POINTS;
    case GL_LINES:
    case GL_LINE_LOOP:
    case GL_LINE_STRIP:
    case GL_LINES_ADJACENCY:
    case GL_LINE_STRIP_ADJACENCY:
      return GL_LINES;
    case GL_TRIANGLES:
    case GL_TRIANGLE_STRIP:
    case GL_TRIANGLE_FAN:
    case GL_TRIANGLES_ADJACENCY:
    case GL_TRIANGLE_STRIP_ADJACENCY:
      return GL_TRIANGLES;
    default:
      return 0;
  }
}

}  // namespace

bool CheckTransformFeedbackDraw(Context& ctx, GLenum mode, const char* fn) {
  if (!ctx.xfb.active) return true;
  GLenum produced = CapturePrimitive(mode);
  const shader::LinkedProgram* linked = ctx.xfb.program ? LinkedOf(*ctx.xfb.program) : nullptr;
  if (linked && linked->geometry_output >= 0) {
    static constexpr GLenum kGeometryOutputs[] = {GL_POINTS, GL_LINES, GL_TRIANGLES};
    produced = kGeometryOutputs[linked->geometry_output];
  }
  if (produced != ctx.xfb.primitive) {
    ctx.Error(GL_INVALID_OPERATION, fn, "primitive mode does not match the active transform feedback");
    return false;
  }
  // The draw writes the capture buffers on the device: whatever reads their shadows reads back first.
  for (auto& b : ctx.xfb.buffers)
    if (b) b->device_newer = true;
  return true;
}

bool TransformFeedbackUses(const Context& ctx, const Program* program) {
  return ctx.xfb.active && ctx.xfb.program.get() == program;
}

void TransformFeedbackVaryings(Context& ctx, GLuint name, GLsizei count, const GLchar* const* varyings,
                               GLenum buffer_mode) {
  const char* fn = "glTransformFeedbackVaryings";
  if (buffer_mode != GL_INTERLEAVED_ATTRIBS && buffer_mode != GL_SEPARATE_ATTRIBS)
    return ctx.Error(GL_INVALID_ENUM, fn, "invalid buffer mode");
  if (count < 0) return ctx.Error(GL_INVALID_VALUE, fn, "count is negative");
  auto program = LookupProgram(ctx, name, fn);
  if (!program) return;
  if (buffer_mode == GL_SEPARATE_ATTRIBS && static_cast<uint32_t>(count) > shader::kMaxXfbSeparateAttribs)
    return ctx.Error(GL_INVALID_VALUE, fn, "count exceeds GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS");
  if (TransformFeedbackUses(ctx, program.get()))
    return ctx.Error(GL_INVALID_OPERATION, fn, "the program is used by active transform feedback");
  if (count > 0 && !varyings) return ctx.Error(GL_INVALID_VALUE, fn, "varyings is null");
  program->xfb_names.clear();
  for (GLsizei i = 0; i < count; ++i) program->xfb_names.emplace_back(varyings[i] ? varyings[i] : "");
  program->xfb_mode = buffer_mode;
}

void GetTransformFeedbackVarying(Context& ctx, GLuint name, GLuint index, GLsizei buf_size, GLsizei* length,
                                 GLsizei* size, GLenum* type, GLchar* out_name) {
  const char* fn = "glGetTransformFeedbackVarying";
  auto program = LookupProgram(ctx, name, fn);
  if (!program) return;
  const shader::LinkedProgram* linked = LinkedOf(*program);
  if (!linked || index >= linked->xfb_varyings.size())
    return ctx.Error(GL_INVALID_VALUE, fn, "index >= GL_TRANSFORM_FEEDBACK_VARYINGS");
  if (buf_size < 0) return ctx.Error(GL_INVALID_VALUE, fn, "bufSize is negative");
  const shader::XfbVarying& v = linked->xfb_varyings[index];
  if (size) *size = v.size;
  if (type) *type = v.gl_type;
  GLsizei n = 0;
  if (buf_size > 0 && out_name) {
    n = std::min<GLsizei>(buf_size - 1, static_cast<GLsizei>(v.name.size()));
    std::memcpy(out_name, v.name.data(), static_cast<size_t>(n));
    out_name[n] = '\0';
  }
  if (length) *length = n;
}

void BeginTransformFeedback(Context& ctx, GLenum primitive_mode) {
  const char* fn = "glBeginTransformFeedback";
  if (primitive_mode != GL_POINTS && primitive_mode != GL_LINES && primitive_mode != GL_TRIANGLES)
    return ctx.Error(GL_INVALID_ENUM, fn, "primitive mode must be GL_POINTS, GL_LINES or GL_TRIANGLES");
  if (ctx.xfb.active) return ctx.Error(GL_INVALID_OPERATION, fn, "transform feedback is already active");
  const shader::LinkedProgram* linked = ctx.program ? LinkedOf(*ctx.program) : nullptr;
  if (!linked || linked->xfb_varyings.empty())
    return ctx.Error(GL_INVALID_OPERATION, fn, "the current program captures no varyings");
  const uint32_t bindings = linked->xfb_separate ? static_cast<uint32_t>(linked->xfb_varyings.size()) : 1;
  pipe::CmdTransformFeedbackBegin cmd{};
  cmd.primitive = primitive_mode == GL_POINTS  ? pipe::Topology::kPointList
                  : primitive_mode == GL_LINES ? pipe::Topology::kLineList
                                               : pipe::Topology::kTriangleList;
  cmd.count = bindings;
  for (uint32_t i = 0; i < bindings; ++i) {
    const Context::IndexedBuffer& b = ctx.transform_feedback_bindings[i];
    if (!b.buffer)
      return ctx.Error(GL_INVALID_OPERATION, fn, "a binding the program captures to has no buffer");
  }
  for (uint32_t i = 0; i < bindings; ++i) {
    const Context::IndexedBuffer& b = ctx.transform_feedback_bindings[i];
    // glBindBufferBase binds the whole buffer, whatever its size now; a range is clamped to the buffer
    // (GL: writes past the end of the buffer or range are dropped and not counted as written).
    const int64_t offset = std::min<int64_t>(b.offset, b.buffer->size);
    const int64_t end = b.size == 0 ? b.buffer->size : std::min<int64_t>(b.buffer->size, b.offset + b.size);
    cmd.buffers[i] = {b.buffer->handle, static_cast<uint64_t>(offset),
                      static_cast<uint64_t>(std::max<int64_t>(end - offset, 0))};
    if (!b.buffer->handle.valid() || end <= offset) cmd.buffers[i] = {};
    ctx.xfb.buffers[i] = b.buffer;
    b.buffer->device_newer = true;
  }
  // Backends bind the capture to the current program (a GLES host checks it at begin): send it now.
  if (ctx.program->handle != ctx.sent_program) {
    ctx.sent_program = ctx.program->handle;
    ctx.sent_uniform_version = 0;
    ctx.pipe().Record(pipe::CmdSetProgram{ctx.program->handle});
    ctx.MarkDirty(kDirtyVertexInput);  // the next draw re-sends vertex input for the new program
  }
  ctx.xfb.active = true;
  ctx.xfb.primitive = primitive_mode;
  ctx.xfb.program = ctx.program;
  ctx.pipe().Record(cmd);
}

void EndTransformFeedback(Context& ctx) {
  if (!ctx.xfb.active)
    return ctx.Error(GL_INVALID_OPERATION, "glEndTransformFeedback", "transform feedback is not active");
  ctx.pipe().Record(pipe::CmdTransformFeedbackEnd{});
  for (auto& b : ctx.xfb.buffers)
    if (b) b->device_newer = true;
  ctx.xfb = {};
}

}  // namespace caldera::gl
