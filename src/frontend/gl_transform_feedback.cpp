// Transform feedback captures: varyings chosen per program for its next link, captures begun, paused,
// resumed and ended on the bound transform feedback object (gl_transform_feedback_objects.cpp holds the
// objects themselves), buffers resolved at glBeginTransformFeedback into a CmdTransformFeedbackBegin record.
// What is captured and where is decided at link time by the shader path (spirv_xfb.cpp); the backends only
// bind buffers.
#include "frontend/gl_transform_feedback.h"

#include <algorithm>
#include <cstring>

#include "frontend/compat/compat_enums.h"
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
    case GL_QUADS:  // compatibility contexts: drawn as triangles (compat/arrays.cpp)
    case GL_QUAD_STRIP:
    case GL_POLYGON:
      return GL_TRIANGLES;
    default:
      return 0;
  }
}

// Backends tie a capture to the program current when it begins or resumes (a GLES host checks it there), so
// the program goes down the pipe now rather than at the next draw.
void SendProgramNow(Context& ctx) {
  if (ctx.program->handle == ctx.sent_program) return;
  ctx.sent_program = ctx.program->handle;
  ctx.sent_uniform_version = 0;
  ctx.pipe().Record(pipe::CmdSetProgram{ctx.program->handle});
  ctx.MarkDirty(kDirtyVertexInput);  // the next draw re-sends vertex input for the new program
}

}  // namespace

bool TransformFeedbackRecording(const Context& ctx) {
  return ctx.transform_feedback->active && !ctx.transform_feedback->paused;
}

bool CheckTransformFeedbackDraw(Context& ctx, GLenum mode, GLsizei count, GLsizei instances, bool indexed,
                                const char* fn) {
  if (!TransformFeedbackRecording(ctx)) return true;
  TransformFeedbackObject& xfb = *ctx.transform_feedback;
  if (ctx.IsES()) {
    // ES 3.0 §2.15.2: while recording only DrawArrays* draw, in exactly the capture's mode, and only
    // what fits in the buffers. (ES 3.2 and OES_geometry_shader lift all three; Caldera's ES is 3.0.)
    if (indexed) {
      ctx.Error(GL_INVALID_OPERATION, fn, "indexed draws are not allowed while transform feedback is active");
      return false;
    }
    if (mode != xfb.primitive) {
      ctx.Error(GL_INVALID_OPERATION, fn, "mode is not the active transform feedback's primitive mode");
      return false;
    }
    const uint64_t per_instance = mode == GL_POINTS  ? static_cast<uint64_t>(count)
                                  : mode == GL_LINES ? static_cast<uint64_t>(count) / 2
                                                     : static_cast<uint64_t>(count) / 3;
    const uint64_t primitives = per_instance * static_cast<uint64_t>(instances);
    if (primitives > xfb.es_room) {
      ctx.Error(GL_INVALID_OPERATION, fn, "the draw would overflow the transform feedback buffers");
      return false;
    }
    xfb.es_room -= primitives;
  }
  GLenum produced = CapturePrimitive(mode);
  const shader::LinkedProgram* linked = xfb.program ? LinkedOf(*xfb.program) : nullptr;
  if (linked && linked->geometry_output >= 0) {
    static constexpr GLenum kGeometryOutputs[] = {GL_POINTS, GL_LINES, GL_TRIANGLES};
    produced = kGeometryOutputs[linked->geometry_output];
  }
  if (produced != xfb.primitive) {
    ctx.Error(GL_INVALID_OPERATION, fn, "primitive mode does not match the active transform feedback");
    return false;
  }
  // The draw writes the capture buffers on the device: whatever reads their shadows reads back first.
  for (auto& b : xfb.buffers)
    if (b) b->device_newer = true;
  return true;
}

bool TransformFeedbackUses(const Context& ctx, const Program* program) {
  // Any begun capture, paused or not, bound or not (GL 4.x §13.2.2 / ES 3.0 §2.15.2 on LinkProgram).
  if (ctx.default_transform_feedback->active && ctx.default_transform_feedback->program.get() == program)
    return true;
  bool used = false;
  ctx.transform_feedbacks.ForEach([&](const TransformFeedbackObject& xfb) {
    used = used || (xfb.active && xfb.program.get() == program);
  });
  return used;
}

void TransformFeedbackVaryings(Context& ctx, GLuint name, GLsizei count, const GLchar* const* varyings,
                               GLenum buffer_mode) {
  const char* fn = "glTransformFeedbackVaryings";
  // GL 4.x §11.1.2.1 / ES 3.0 §2.12.8: not while the bound object's capture is begun, even if paused.
  if (ctx.transform_feedback->active)
    return ctx.Error(GL_INVALID_OPERATION, fn, "the bound transform feedback object is active");
  if (buffer_mode != GL_INTERLEAVED_ATTRIBS && buffer_mode != GL_SEPARATE_ATTRIBS)
    return ctx.Error(GL_INVALID_ENUM, fn, "invalid buffer mode");
  if (count < 0) return ctx.Error(GL_INVALID_VALUE, fn, "count is negative");
  auto program = LookupProgram(ctx, name, fn);
  if (!program) return;
  if (buffer_mode == GL_SEPARATE_ATTRIBS && static_cast<uint32_t>(count) > shader::kMaxXfbSeparateAttribs)
    return ctx.Error(GL_INVALID_VALUE, fn, "count exceeds GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS");
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
  TransformFeedbackObject& xfb = *ctx.transform_feedback;
  if (primitive_mode != GL_POINTS && primitive_mode != GL_LINES && primitive_mode != GL_TRIANGLES)
    return ctx.Error(GL_INVALID_ENUM, fn, "primitive mode must be GL_POINTS, GL_LINES or GL_TRIANGLES");
  if (xfb.active) return ctx.Error(GL_INVALID_OPERATION, fn, "transform feedback is already active");
  const shader::LinkedProgram* linked = ctx.program ? LinkedOf(*ctx.program) : nullptr;
  if (!linked || linked->xfb_varyings.empty())
    return ctx.Error(GL_INVALID_OPERATION, fn, "the current program captures no varyings");
  const uint32_t bindings = linked->xfb_separate ? static_cast<uint32_t>(linked->xfb_varyings.size()) : 1;
  pipe::CmdTransformFeedbackBegin cmd{};
  cmd.object = xfb.lifetime_id;
  cmd.primitive = primitive_mode == GL_POINTS  ? pipe::Topology::kPointList
                  : primitive_mode == GL_LINES ? pipe::Topology::kLineList
                                               : pipe::Topology::kTriangleList;
  cmd.count = bindings;
  for (uint32_t i = 0; i < bindings; ++i) {
    if (!xfb.bindings[i].buffer)
      return ctx.Error(GL_INVALID_OPERATION, fn, "a binding the program captures to has no buffer");
  }
  uint64_t room_vertices = UINT64_MAX;
  for (uint32_t i = 0; i < bindings; ++i) {
    const IndexedBuffer& b = xfb.bindings[i];
    // glBindBufferBase binds the whole buffer, whatever its size now; a range is clamped to the buffer
    // (GL: writes past the end of the buffer or range are dropped and not counted as written).
    const int64_t offset = std::min<int64_t>(b.offset, b.buffer->size);
    const int64_t end = b.size == 0 ? b.buffer->size : std::min<int64_t>(b.buffer->size, b.offset + b.size);
    const uint64_t bytes = static_cast<uint64_t>(std::max<int64_t>(end - offset, 0)) & ~uint64_t{3};
    cmd.buffers[i] = {b.buffer->handle, static_cast<uint64_t>(offset), bytes};
    if (!b.buffer->handle.valid() || bytes == 0) cmd.buffers[i] = {};
    if (linked->xfb_strides[i] > 0)
      room_vertices = std::min<uint64_t>(room_vertices, bytes / linked->xfb_strides[i]);
    xfb.buffers[i] = b.buffer;
    b.buffer->device_newer = true;
  }
  const uint64_t vertices_per_primitive = primitive_mode == GL_POINTS  ? 1
                                          : primitive_mode == GL_LINES ? 2
                                                                       : 3;
  xfb.es_room = room_vertices / vertices_per_primitive;
  // Backends bind the capture to the current program (a GLES host checks it at begin): send it now.
  SendProgramNow(ctx);
  xfb.active = true;
  xfb.paused = false;
  xfb.backend_state = true;
  xfb.primitive = primitive_mode;
  xfb.program = ctx.program;
  xfb.capture_stride = linked->xfb_strides[0];
  ctx.pipe().Record(cmd);
}

void EndTransformFeedback(Context& ctx) {
  TransformFeedbackObject& xfb = *ctx.transform_feedback;
  if (!xfb.active)
    return ctx.Error(GL_INVALID_OPERATION, "glEndTransformFeedback", "transform feedback is not active");
  ctx.pipe().Record(pipe::CmdTransformFeedbackEnd{xfb.lifetime_id});
  for (auto& b : xfb.buffers)
    if (b) b->device_newer = true;
  xfb.active = xfb.paused = false;
  xfb.ended_once = true;
  xfb.program.reset();
  xfb.buffers = {};
}

void PauseTransformFeedback(Context& ctx) {
  if (!TransformFeedbackRecording(ctx))
    return ctx.Error(GL_INVALID_OPERATION, "glPauseTransformFeedback",
                     "transform feedback is not active or already paused");
  TransformFeedbackObject& xfb = *ctx.transform_feedback;
  ctx.pipe().Record(pipe::CmdTransformFeedbackPause{xfb.lifetime_id});
  xfb.paused = true;
}

void ResumeTransformFeedback(Context& ctx) {
  const char* fn = "glResumeTransformFeedback";
  TransformFeedbackObject& xfb = *ctx.transform_feedback;
  if (!xfb.active || !xfb.paused)
    return ctx.Error(GL_INVALID_OPERATION, fn, "transform feedback is not active or not paused");
  // GL 4.x §13.2.2 / ES 3.0 §2.15.2: the capture's program must be the current one again.
  if (ctx.program != xfb.program)
    return ctx.Error(GL_INVALID_OPERATION, fn, "the transform feedback's program is not current");
  SendProgramNow(ctx);
  ctx.pipe().Record(pipe::CmdTransformFeedbackResume{xfb.lifetime_id});
  xfb.paused = false;
}

}  // namespace caldera::gl
