// Draw calls: validation has run; resolve dirty state into records, then one Draw record.
#include <algorithm>
#include <vector>

#include "frontend/buffer_util.h"
#include "frontend/client_arrays.h"
#include "frontend/compat/immediate.h"
#include "frontend/context.h"
#include "frontend/device.h"
#include "frontend/draw_common.h"
#include "frontend/gl_enums.h"
#include "frontend/gl_impl.h"
#include "frontend/index_rewrite.h"
#include "frontend/validate.h"
#include "util/log.h"

namespace caldera::gl {
namespace {

// GL leaves drawing without a current program undefined (nothing is drawn); so does Caldera, quietly.
bool Prepare(Context& ctx) {
  if (!ctx.program || !ctx.program->linked || ctx.conditional_render.discard) return false;
  ctx.FlushStateForDraw();
  return true;
}

bool NativeLineLoops(Context& ctx) {
  return ctx.device().backend().caps().line_loops;
}

// Sends rewritten indices (index_rewrite.h) as one inline-index draw.
void RecordInline(Context& ctx, pipe::Topology topology, const std::vector<uint32_t>& indices,
                  uint32_t instances, int32_t base_vertex) {
  if (indices.empty()) return;
  pipe::CmdDrawInlineIndices cmd{};
  cmd.topology = topology == pipe::Topology::kLineLoop ? pipe::Topology::kLineStrip : topology;
  cmd.count = static_cast<uint32_t>(indices.size());
  cmd.instances = instances;
  cmd.base_vertex = base_vertex;
  cmd.payload_size = static_cast<uint32_t>(indices.size() * sizeof(uint32_t));
  ctx.pipe().Record(cmd, indices.data(), cmd.payload_size);
}

}  // namespace

void DrawArraysCommon(Context& ctx, GLenum mode, GLint first, GLsizei count, GLsizei instances) {
  if (count == 0 || instances == 0) return;
  // Compatibility contexts: legacy arrays, fixed-function drawing, GL_QUADS (compat/arrays.cpp).
  if (ctx.compat && compat::TakesArrayDraw(ctx, mode)) [[unlikely]]
    return compat::DrawArrays(ctx, mode, first, count, instances);
  if (UsesClientArrays(ctx) &&
      !StageClientArrays(ctx, uint64_t(first) + uint64_t(count), uint32_t(instances)))
    return;
  if (!Prepare(ctx)) return;
  if (mode == GL_LINE_LOOP && !NativeLineLoops(ctx)) {
    // Primitive restart never applies to array draws, and the generated indices hold no all-ones value
    // (GL_MAX_ELEMENTS_VERTICES-sized draws are far below 2^32).
    std::vector<uint32_t> indices;
    index_rewrite::LineLoopArrays(static_cast<uint32_t>(first), static_cast<uint32_t>(count), &indices);
    return RecordInline(ctx, pipe::Topology::kLineStrip, indices, static_cast<uint32_t>(instances), 0);
  }
  pipe::CmdDraw cmd{};
  cmd.topology = *glenum::PrimitiveMode(mode);
  cmd.index_type = pipe::IndexType::kNone;
  cmd.first = static_cast<uint32_t>(first);
  cmd.count = static_cast<uint32_t>(count);
  cmd.instances = static_cast<uint32_t>(instances);
  ctx.pipe().Record(cmd);
}

void DrawElementsCommon(Context& ctx, GLenum mode, GLsizei count, GLenum type, const void* indices,
                        GLsizei instances, GLint base_vertex) {
  if (count == 0 || instances == 0) return;
  if (ctx.compat && compat::TakesArrayDraw(ctx, mode)) [[unlikely]]
    return compat::DrawElements(ctx, mode, count, type, indices, instances, base_vertex);
  Buffer* ebo = ctx.vertex_array->element_buffer.get();
  if (!ebo || UsesClientArrays(ctx)) {
    // ES client memory: indices (no element buffer) and/or attributes, copied for this draw.
    auto index_type = *glenum::IndexType(type);
    const uint64_t size = glenum::IndexSize(index_type);
    const uint8_t* data = nullptr;
    if (!ebo) {
      if (!indices)
        return ctx.Error(GL_INVALID_OPERATION, "glDrawElements", "no element buffer and no indices");
      data = static_cast<const uint8_t*>(indices);
      ebo = StageClientIndices(ctx, indices, uint64_t(count) * size);
      if (!ebo) return;
      indices = nullptr;
    } else if (UsesClientArrays(ctx)) {
      if (!SyncShadow(ctx, *ebo)) return ctx.Error(GL_CONTEXT_LOST, "glDrawElements", "device lost");
      uint64_t at = reinterpret_cast<uintptr_t>(indices);
      if (at >= ebo->shadow.size()) return;
      count = GLsizei(std::min<uint64_t>(uint64_t(count), (ebo->shadow.size() - at) / size));
      data = ebo->shadow.data() + at;
    }
    if (UsesClientArrays(ctx)) {
      const GLState& s = ctx.state;
      auto restart = index_rewrite::Resolve(s.primitive_restart, s.primitive_restart_fixed,
                                            s.primitive_restart_index, index_type);
      uint64_t max =
          MaxIndex(data, index_type, uint64_t(count), restart.enabled ? restart.value : UINT64_MAX);
      if (!StageClientArrays(ctx, max + 1 + uint64_t(std::max(base_vertex, 0)), uint32_t(instances))) return;
    }
  }
  if (!Prepare(ctx)) return;
  pipe::CmdDraw cmd{};
  cmd.topology = *glenum::PrimitiveMode(mode);
  cmd.index_type = *glenum::IndexType(type);
  cmd.index_buffer = ebo->handle;
  cmd.index_offset = reinterpret_cast<uintptr_t>(indices);
  cmd.first = 0;
  cmd.count = static_cast<uint32_t>(count);
  cmd.instances = static_cast<uint32_t>(instances);
  cmd.base_vertex = base_vertex;
  if (cmd.index_offset % glenum::IndexSize(cmd.index_type) != 0) {
    return ctx.Error(GL_INVALID_OPERATION, "glDrawElements", "index offset is not aligned to the index size");
  }
  // GL leaves indices read past the end of the element buffer undefined; devices must not be asked for them
  // (Vulkan requires the whole index range inside the bound buffer): the draw takes the indices that are
  // there, and one that starts at or past the end draws nothing. Multi-draws and merged runs are made of
  // these draws, so they stay inside too. The record keeps GL's byte offset (pipe/commands.h).
  const uint64_t index_size = glenum::IndexSize(cmd.index_type);
  const uint64_t first = cmd.index_offset / index_size;
  const uint64_t in_buffer = ebo->size > 0 ? static_cast<uint64_t>(ebo->size) / index_size : 0;
  if (first >= in_buffer) return;
  cmd.count = static_cast<uint32_t>(std::min<uint64_t>(cmd.count, in_buffer - first));
  const GLState& s = ctx.state;
  auto restart = index_rewrite::Resolve(s.primitive_restart, s.primitive_restart_fixed,
                                        s.primitive_restart_index, cmd.index_type);
  // Loops with restart are closed here even on hosts with line loops: Mesa's GLES (llvmpipe) leaves the
  // closing segment of every restarted loop out (scene line_loops-gles), and the case is rare.
  bool close_loops = mode == GL_LINE_LOOP && (!NativeLineLoops(ctx) || restart.enabled);
  bool custom_restart = restart.enabled && restart.value != index_rewrite::AllOnes(cmd.index_type);
  if (!close_loops && !custom_restart) return ctx.pipe().Record(cmd);
  // The shadow is the authoritative copy of the element buffer: rewrite from it. Indices past the end of
  // the buffer are dropped (GL leaves reading them undefined; a robust context draws nothing for them).
  if (!SyncShadow(ctx, *ebo)) return ctx.Error(GL_CONTEXT_LOST, "glDrawElements", "device lost");
  uint64_t size = glenum::IndexSize(cmd.index_type);
  uint64_t start = cmd.index_offset;
  uint64_t available = start < ebo->shadow.size() ? (ebo->shadow.size() - start) / size : 0;
  uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(cmd.count, available));
  if (n == 0) return;
  std::vector<uint32_t> rewritten;
  index_rewrite::Rewrite(ebo->shadow.data() + start, cmd.index_type, n, restart, close_loops, &rewritten);
  RecordInline(ctx, cmd.topology, rewritten, cmd.instances, base_vertex);
}

void DrawIndexList(Context& ctx, GLenum mode, const std::vector<uint32_t>& indices, GLsizei instances,
                   GLint base_vertex, uint64_t vertex_end) {
  if (indices.empty() || instances == 0) return;
  if (UsesClientArrays(ctx) && !StageClientArrays(ctx, vertex_end, uint32_t(instances))) return;
  if (!Prepare(ctx)) return;
  RecordInline(ctx, *glenum::PrimitiveMode(mode), indices, static_cast<uint32_t>(instances), base_vertex);
}

void DrawArrays(Context& ctx, GLenum mode, GLint first, GLsizei count) {
  DrawArraysCommon(ctx, mode, first, count, 1);
}

void DrawTransformFeedback(Context& ctx, GLenum mode, GLuint id) {
  if (!Prepare(ctx)) return;
  const TransformFeedbackObject& xfb =
      id == 0 ? *ctx.default_transform_feedback : *ctx.transform_feedbacks.Get(id);  // validated
  pipe::CmdDrawTransformFeedback cmd{};
  cmd.object = xfb.lifetime_id;
  cmd.topology = *glenum::PrimitiveMode(mode);
  if (cmd.topology == pipe::Topology::kLineLoop && !NativeLineLoops(ctx)) {
    // The vertex count is known on the device only, so the frontend cannot close the loop.
    util::LogOnce(util::LogLevel::kWarning, "glDrawTransformFeedback",
                  "GL_LINE_LOOP is drawn as a line strip (no closing segment)");
    ctx.debug.Message(GL_DEBUG_SOURCE_API, GL_DEBUG_TYPE_OTHER, kDebugIdNotRendered, GL_DEBUG_SEVERITY_MEDIUM,
                      "glDrawTransformFeedback: GL_LINE_LOOP is drawn as a line strip (no closing segment)");
    cmd.topology = pipe::Topology::kLineStrip;
  }
  cmd.instances = 1;
  cmd.stride = xfb.capture_stride;
  ctx.pipe().Record(cmd);
}

void DrawArraysInstanced(Context& ctx, GLenum mode, GLint first, GLsizei count, GLsizei instancecount) {
  DrawArraysCommon(ctx, mode, first, count, instancecount);
}

void DrawElements(Context& ctx, GLenum mode, GLsizei count, GLenum type, const void* indices) {
  DrawElementsCommon(ctx, mode, count, type, indices, 1, 0);
}

void DrawElementsInstanced(Context& ctx, GLenum mode, GLsizei count, GLenum type, const void* indices,
                           GLsizei instancecount) {
  DrawElementsCommon(ctx, mode, count, type, indices, instancecount, 0);
}

void DrawRangeElements(Context& ctx, GLenum mode, GLuint, GLuint, GLsizei count, GLenum type,
                       const void* indices) {
  DrawElementsCommon(ctx, mode, count, type, indices, 1, 0);
}

void DrawElementsBaseVertex(Context& ctx, GLenum mode, GLsizei count, GLenum type, const void* indices,
                            GLint basevertex) {
  DrawElementsCommon(ctx, mode, count, type, indices, 1, basevertex);
}

void DrawElementsInstancedBaseVertex(Context& ctx, GLenum mode, GLsizei count, GLenum type,
                                     const void* indices, GLsizei instancecount, GLint basevertex) {
  if (!validate::DrawElementsInstanced(ctx, mode, count, type, indices, instancecount)) return;
  DrawElementsCommon(ctx, mode, count, type, indices, instancecount, basevertex);
}

void DrawRangeElementsBaseVertex(Context& ctx, GLenum mode, GLuint start, GLuint end, GLsizei count,
                                 GLenum type, const void* indices, GLint basevertex) {
  if (!validate::DrawRangeElements(ctx, mode, start, end, count, type, indices)) return;
  DrawElementsCommon(ctx, mode, count, type, indices, 1, basevertex);
}

// Multi-draws are validated and drawn one by one: GL defines them as that loop (GL 4.6 §10.5).
void MultiDrawArrays(Context& ctx, GLenum mode, const GLint* first, const GLsizei* count, GLsizei drawcount) {
  if (drawcount < 0) return ctx.Error(GL_INVALID_VALUE, "glMultiDrawArrays", "drawcount is negative");
  for (GLsizei i = 0; i < drawcount; ++i)
    if (validate::DrawArrays(ctx, mode, first[i], count[i]))
      DrawArraysCommon(ctx, mode, first[i], count[i], 1);
}

void MultiDrawElements(Context& ctx, GLenum mode, const GLsizei* count, GLenum type,
                       const void* const* indices, GLsizei drawcount) {
  if (drawcount < 0) return ctx.Error(GL_INVALID_VALUE, "glMultiDrawElements", "drawcount is negative");
  for (GLsizei i = 0; i < drawcount; ++i)
    if (validate::DrawElements(ctx, mode, count[i], type, indices[i]))
      DrawElementsCommon(ctx, mode, count[i], type, indices[i], 1, 0);
}

void MultiDrawElementsBaseVertex(Context& ctx, GLenum mode, const GLsizei* count, GLenum type,
                                 const void* const* indices, GLsizei drawcount, const GLint* basevertex) {
  if (drawcount < 0)
    return ctx.Error(GL_INVALID_VALUE, "glMultiDrawElementsBaseVertex", "drawcount is negative");
  for (GLsizei i = 0; i < drawcount; ++i)
    if (validate::DrawElements(ctx, mode, count[i], type, indices[i]))
      DrawElementsCommon(ctx, mode, count[i], type, indices[i], 1, basevertex[i]);
}

}  // namespace caldera::gl
