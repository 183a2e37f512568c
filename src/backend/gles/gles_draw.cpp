// Draws on the host: program, vertex arrays, uniforms, uniform blocks and textures, each reapplied only
// when its record changed, and through the state shadow; then queries.
#include <algorithm>
#include <cstring>

#include "backend/gles/gles_context.h"
#include "backend/gles/gles_translate.h"
#include "util/log.h"

namespace caldera::gles {
namespace {

GLenum TextureTarget(pipe::TextureKind kind) {
  switch (pipe::StorageKind(kind)) {
    case pipe::TextureKind::k2DArray:
      return GL_TEXTURE_2D_ARRAY;
    case pipe::TextureKind::k3D:
      return GL_TEXTURE_3D;
    case pipe::TextureKind::kCube:
      return GL_TEXTURE_CUBE_MAP;
    case pipe::TextureKind::kBuffer:
      return GL_TEXTURE_BUFFER;
    case pipe::TextureKind::k2DMultisample:
      return GL_TEXTURE_2D_MULTISAMPLE;
    case pipe::TextureKind::k2DMultisampleArray:
      return GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
    default:
      return GL_TEXTURE_2D;
  }
}

}  // namespace

bool Context::PrepareDraw() {
  ProgramObject* program = device_.programs.Get(program_);
  if (!program || !program->program) return false;
  if (targets_dirty_ && !BindDrawTargets()) return false;
  if (targets_.width == 0) return false;
  ++stats_.draws;
  GLuint host_program = program->program;
  if (counting_samples_) {
    if (GLuint counting = CountingProgram(*program)) host_program = counting;
  }
  state_.UseProgram(host_program);
  // GL_CLIP_DISTANCEi_EXT: on for what the program writes (such a host has GL_EXT_clip_cull_distance).
  for (uint32_t i = 0; i < 8; ++i) state_.Enable(0x3000 + i, i < program->clip_distances);
  if (fixed_dirty_) {
    uint32_t rgb_targets = 0;
    for (uint32_t i = 0; i < pipe::kMaxColorAttachments; ++i) {
      ImageObject* img = device_.images.Get(targets_.color[i].image);
      if (img && pipe::HasImplicitAlpha(img->format)) rgb_targets |= 1u << i;
    }
    if (!fixed_.provoking_last)
      util::LogOnce(util::LogLevel::kWarning, "glProvokingVertex",
                    "GLES always takes flat varyings from the last vertex: GL_FIRST_VERTEX_CONVENTION is "
                    "ignored on the GLES backend (docs/GLES-BACKEND.md)");
    if (fixed_.polygon_mode != pipe::PolygonMode::kFill)
      util::LogOnce(util::LogLevel::kWarning, "glPolygonMode",
                    "GLES has no polygon mode: filled on the GLES backend (docs/GLES-BACKEND.md)");
    if (fixed_.logic_op_enable && fixed_.logic_op != pipe::LogicOp::kCopy)
      util::LogOnce(util::LogLevel::kWarning, "glLogicOp",
                    "GLES has no logic ops: GL_COLOR_LOGIC_OP is ignored on the GLES backend "
                    "(docs/GLES-BACKEND.md)");
    if (!fixed_.program_point_size && fixed_.point_size != 1.0f)
      util::LogOnce(util::LogLevel::kWarning, "glPointSize",
                    "GLES takes point sizes from gl_PointSize only: glPointSize is not applied on the GLES "
                    "backend (docs/GLES-BACKEND.md)");
    if (fixed_.point_origin_lower_left)
      util::LogOnce(util::LogLevel::kWarning, "GL_POINT_SPRITE_COORD_ORIGIN",
                    "GLES has no point sprite origin: gl_PointCoord stays GL_UPPER_LEFT on the GLES backend "
                    "(docs/GLES-BACKEND.md)");
    state_.ApplyFixed(fixed_, rgb_targets);
    fixed_dirty_ = false;
  }
  if (vertex_dirty_) ApplyVertexInput(*program);
  if (uniforms_dirty_) ApplyUniforms(*program);
  if (uniform_buffers_dirty_) ApplyUniformBuffers();
  if (textures_dirty_) ApplyTextures();
  return true;
}

void Context::OnDraw(const pipe::CmdDraw& c) {
  if (!PrepareDraw()) return;
  GLenum mode = ToHostTopology(c.topology);
  auto instances = static_cast<GLsizei>(c.instances);
  if (c.index_type == pipe::IndexType::kNone) {
    gl_.DrawArraysInstanced(mode, static_cast<GLint>(c.first), static_cast<GLsizei>(c.count), instances);
    return;
  }
  BufferObject* ib = device_.buffers.Get(c.index_buffer);
  if (!ib) return;
  state_.BindBuffer(GL_ELEMENT_ARRAY_BUFFER, ib->name);
  uint64_t offset = c.index_offset + uint64_t(c.first) * IndexSize(c.index_type);
  const void* indices = reinterpret_cast<const void*>(static_cast<uintptr_t>(offset));
  if (c.base_vertex != 0)
    gl_.DrawElementsInstancedBaseVertex(mode, static_cast<GLsizei>(c.count), ToHostIndexType(c.index_type),
                                        indices, instances, c.base_vertex);
  else
    gl_.DrawElementsInstanced(mode, static_cast<GLsizei>(c.count), ToHostIndexType(c.index_type), indices,
                              instances);
}

void Context::OnDrawInlineIndices(const pipe::CmdDrawInlineIndices& c, const uint8_t* payload) {
  if (c.count == 0 || c.payload_size < uint64_t(c.count) * 4 || !PrepareDraw()) return;
  // One stream buffer per context, re-specified per draw: the host orphans it, so no draw waits for the
  // previous one's indices.
  state_.BindBuffer(GL_ELEMENT_ARRAY_BUFFER, index_stream_);
  gl_.BufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(c.payload_size), payload, GL_STREAM_DRAW);
  GLenum mode = ToHostTopology(c.topology);
  auto count = static_cast<GLsizei>(c.count);
  auto instances = static_cast<GLsizei>(c.instances);
  if (c.base_vertex != 0)
    gl_.DrawElementsInstancedBaseVertex(mode, count, GL_UNSIGNED_INT, nullptr, instances, c.base_vertex);
  else
    gl_.DrawElementsInstanced(mode, count, GL_UNSIGNED_INT, nullptr, instances);
}

void Context::ApplyVertexInput(const ProgramObject& program) {
  for (uint32_t loc = 0; loc < pipe::kMaxVertexAttribs; ++loc) {
    AttribShadow want{};
    const auto& a = vertex_.attribs[loc];
    BufferObject* buffer = nullptr;
    if ((vertex_.attrib_mask & (1u << loc)) && a.enabled)
      buffer = device_.buffers.Get(vertex_.bindings[a.binding].buffer);
    HostVertexFormat f = ToHostVertexFormat(a.format);
    if (buffer && f.supported) {
      const auto& b = vertex_.bindings[a.binding];
      want.enabled = true;
      want.buffer = buffer->name;
      want.type = f.type;
      want.size = f.size;
      want.normalized = f.normalized;
      want.integer = f.integer;
      want.stride = static_cast<GLsizei>(b.stride);
      want.offset = b.offset + a.offset;
      want.divisor = b.divisor;
    } else {
      if (buffer && !f.supported)
        util::LogOnce(util::LogLevel::kWarning, "gles", "double vertex attributes are not available on GLES");
      std::memcpy(want.constant.data(), a.constant, sizeof(want.constant));
      want.kind = a.constant_kind;
    }
    AttribShadow& cur = attribs_[loc];
    if (attribs_known_ && cur == want) continue;
    if (want.enabled) {
      if (!attribs_known_ || !cur.enabled) gl_.EnableVertexAttribArray(loc);
      state_.BindBuffer(GL_ARRAY_BUFFER, want.buffer);
      const void* pointer = reinterpret_cast<const void*>(static_cast<uintptr_t>(want.offset));
      if (want.integer)
        gl_.VertexAttribIPointer(loc, want.size, want.type, want.stride, pointer);
      else
        gl_.VertexAttribPointer(loc, want.size, want.type, want.normalized, want.stride, pointer);
      if (!attribs_known_ || cur.divisor != want.divisor) gl_.VertexAttribDivisor(loc, want.divisor);
    } else {
      if (!attribs_known_ || cur.enabled) gl_.DisableVertexAttribArray(loc);
      // Integer values (glVertexAttribI*) go to the host as they are. A float value read by an integer
      // input is undefined in GL; it is converted, so the input sees the numbers the app gave.
      const uint32_t* w = a.constant;
      float f[4];
      std::memcpy(f, w, sizeof(f));
      if (a.constant_kind == pipe::GenericKind::kInt)
        gl_.VertexAttribI4i(loc, GLint(w[0]), GLint(w[1]), GLint(w[2]), GLint(w[3]));
      else if (a.constant_kind == pipe::GenericKind::kUInt)
        gl_.VertexAttribI4ui(loc, w[0], w[1], w[2], w[3]);
      else if (program.int_inputs & (1u << loc))
        gl_.VertexAttribI4i(loc, GLint(f[0]), GLint(f[1]), GLint(f[2]), GLint(f[3]));
      else if (program.uint_inputs & (1u << loc))
        gl_.VertexAttribI4ui(loc, GLuint(f[0]), GLuint(f[1]), GLuint(f[2]), GLuint(f[3]));
      else
        gl_.VertexAttrib4fv(loc, f);
      want.divisor = cur.divisor;  // untouched on the host while the array is disabled
    }
    cur = want;
  }
  attribs_known_ = true;
  vertex_dirty_ = false;
}

void Context::ApplyUniforms(const ProgramObject& program) {
  uniforms_dirty_ = false;
  if (program.default_block_size == 0) return;
  std::vector<uint8_t>& data = uniforms_;
  if (data.size() < program.default_block_size) data.resize(program.default_block_size, 0);
  auto size = static_cast<GLsizeiptr>(data.size());
  state_.BindBuffer(GL_UNIFORM_BUFFER, uniform_ubo_);
  if (!uniform_ring_) {
    // Re-specifying the whole block lets the host orphan it instead of waiting for earlier draws.
    gl_.BufferData(GL_UNIFORM_BUFFER, size, data.data(), GL_STREAM_DRAW);
    ++stats_.uniform_orphans;
    state_.BindUniformBuffer(kDefaultBlockBinding, uniform_ubo_, 0, size);
    return;
  }
  constexpr GLsizeiptr kRingSize = 256 * 1024;
  GLintptr align = std::max<GLintptr>(device_.uniform_offset_alignment(), 16);
  GLintptr offset = (uniform_ring_offset_ + align - 1) / align * align;
  if (uniform_ring_offset_ == 0 || offset + size > kRingSize) {
    // Wrap (or first use): fresh storage; draws still reading the old ring keep it.
    gl_.BufferData(GL_UNIFORM_BUFFER, kRingSize, nullptr, GL_STREAM_DRAW);
    ++stats_.uniform_orphans;
    offset = 0;
  }
  // Unsynchronized: this range has not been written since the last orphan, so no draw reads it.
  void* dst = gl_.MapBufferRange(GL_UNIFORM_BUFFER, offset, size,
                                 GL_MAP_WRITE_BIT | GL_MAP_UNSYNCHRONIZED_BIT | GL_MAP_INVALIDATE_RANGE_BIT);
  if (dst) {
    std::memcpy(dst, data.data(), data.size());
    gl_.UnmapBuffer(GL_UNIFORM_BUFFER);
  } else {
    gl_.BufferSubData(GL_UNIFORM_BUFFER, offset, size, data.data());
  }
  ++stats_.uniform_ring_writes;
  uniform_ring_offset_ = offset + size;
  state_.BindUniformBuffer(kDefaultBlockBinding, uniform_ubo_, offset, size);
}

void Context::ApplyUniformBuffers() {
  uniform_buffers_dirty_ = false;
  GLint align = std::max(device_.uniform_offset_alignment(), 1);
  for (uint32_t i = 0; i < uniform_buffers_.count && i < pipe::kMaxUniformBlocks; ++i) {
    const auto& b = uniform_buffers_.blocks[i];
    BufferObject* buffer = device_.buffers.Get(b.buffer);
    uint32_t binding = kFirstUniformBlockBinding + i;
    if (!buffer || b.size == 0 || b.offset >= buffer->size || b.offset % uint64_t(align) != 0) {
      // Unbound block: GL leaves reads undefined; zeros keep the host from reading freed memory.
      state_.BindUniformBuffer(binding, zero_ubo_, 0, 16384);
      continue;
    }
    uint64_t size = std::min<uint64_t>(b.size, buffer->size - b.offset);
    state_.BindUniformBuffer(binding, buffer->name, static_cast<GLintptr>(b.offset),
                             static_cast<GLsizeiptr>(size));
  }
}

GLuint Context::HostTexelBuffer(uint32_t unit, const pipe::TexelBufferRange& range) {
  BufferObject* b = range.buffer.valid() ? device_.buffers.Get(range.buffer) : nullptr;
  // Texture 0 has no data store: the host reads zeros.
  if (!b || range.size == 0 || range.offset + range.size > b->size) return 0;
  if (!gl_.TexBufferRange) {
    util::LogOnce(util::LogLevel::kWarning, "gles-texbuffer",
                  "the host has no glTexBufferRange (GLES 3.2): buffer textures read zeros");
    return 0;
  }
  for (const auto& t : b->textures)
    if (t.format == range.format && t.offset == range.offset && t.size == range.size) return t.texture;
  TexelBufferTexture t{range.format, range.offset, range.size, 0};
  gl_.GenTextures(1, &t.texture);
  state_.BindTexture(unit, GL_TEXTURE_BUFFER, t.texture);  // the unit it is bound to next
  gl_.TexBufferRange(GL_TEXTURE_BUFFER, ToHostFormat(range.format).internal, b->name,
                     static_cast<GLintptr>(range.offset), static_cast<GLsizeiptr>(range.size));
  b->textures.push_back(t);
  return t.texture;
}

void Context::ApplyTextures() {
  textures_dirty_ = false;
  for (uint32_t i = 0; i < textures_.count && i < pipe::kMaxSamplers; ++i) {
    const auto& t = textures_.textures[i];
    if (t.kind == pipe::TextureKind::kBuffer) {
      state_.BindTexture(i, GL_TEXTURE_BUFFER, HostTexelBuffer(i, t.texel_buffer));
      continue;
    }
    ImageObject* img = device_.images.Get(t.image);
    if (!img || !img->texture) {
      // Texture 0 is incomplete on the host: sampling it returns (0,0,0,1), what GL requires.
      state_.BindTexture(i, TextureTarget(t.kind), 0);
      continue;
    }
    state_.BindTexture(i, img->target, img->texture);
    // The host applies GL's level range itself; only changes are sent.
    if (img->base_level != t.base_level) {
      gl_.TexParameteri(img->target, GL_TEXTURE_BASE_LEVEL, t.base_level);
      img->base_level = t.base_level;
    }
    if (img->max_level != t.max_level) {
      gl_.TexParameteri(img->target, GL_TEXTURE_MAX_LEVEL, t.max_level);
      img->max_level = t.max_level;
    }
    if (!(img->swizzle == t.swizzle)) {
      // The host's own texture swizzle (GLES 3.0) carries both GL_TEXTURE_SWIZZLE_* and the luminance/alpha
      // formats' swizzle over their R8/RG8 storage.
      static constexpr GLint kSource[] = {GL_RED, GL_GREEN, GL_BLUE, GL_ALPHA, GL_ZERO, GL_ONE};
      for (int c = 0; c < 4; ++c)
        gl_.TexParameteri(img->target, GL_TEXTURE_SWIZZLE_R + c, kSource[size_t(t.swizzle.c[c])]);
      img->swizzle = t.swizzle;
    }
    state_.BindSampler(i, device_.GetSampler(t.sampler));
  }
}

namespace {

// The host query target of a query kind (samples passed is emulated: see gles_samples.cpp).
GLenum HostTarget(pipe::QueryKind kind) {
  switch (kind) {
    case pipe::QueryKind::kTimeElapsed:
      return GL_TIME_ELAPSED;
    case pipe::QueryKind::kPrimitivesGenerated:
      return GL_PRIMITIVES_GENERATED;  // GLES 3.2 (EXT_geometry_shader)
    case pipe::QueryKind::kTransformFeedbackPrimitivesWritten:
      return GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN;
    default:
      return GL_ANY_SAMPLES_PASSED;
  }
}

}  // namespace

void Context::OnQueryBegin(const pipe::CmdQueryBegin& c) {
  if (c.kind == pipe::QueryKind::kSamplesPassed) return BeginSampleCount(c.query);
  Query q;
  q.kind = c.kind;
  if (c.kind == pipe::QueryKind::kTimeElapsed && !device_.has_timer_queries())
    return;  // the result reads as a final zero
  gl_.GenQueries(1, &q.name);
  gl_.BeginQuery(HostTarget(c.kind), q.name);
  queries_[c.query] = q;
}

void Context::OnQueryEnd(const pipe::CmdQueryEnd& c) {
  auto it = queries_.find(c.query);
  if (it == queries_.end()) return;
  if (it->second.kind == pipe::QueryKind::kSamplesPassed) counting_samples_ = false;
  gl_.EndQuery(HostTarget(it->second.kind));
}

GLuint Context::BindHostTransformFeedback(uint64_t object) {
  GLuint& name = xfb_objects_[object];
  if (!name) gl_.GenTransformFeedbacks(1, &name);
  gl_.BindTransformFeedback(GL_TRANSFORM_FEEDBACK, name);
  return name;
}

void Context::UseCaptureProgram() {
  if (ProgramObject* program = device_.programs.Get(program_); program && program->program) {
    GLuint host_program = program->program;
    if (counting_samples_) {
      if (GLuint counting = CountingProgram(*program)) host_program = counting;
    }
    state_.UseProgram(host_program);
  }
}

void Context::OnTransformFeedbackBegin(const pipe::CmdTransformFeedbackBegin& c) {
  // The indexed bindings are the host object's own: bind it before them.
  BindHostTransformFeedback(c.object);
  for (uint32_t i = 0; i < c.count && i < pipe::kMaxTransformFeedbackBuffers; ++i) {
    const pipe::TransformFeedbackBuffer& b = c.buffers[i];
    BufferObject* buffer = device_.buffers.Get(b.buffer);
    if (buffer && buffer->name && b.size > 0)
      gl_.BindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, i, buffer->name, static_cast<GLintptr>(b.offset),
                          static_cast<GLsizeiptr>(b.size));
    else
      gl_.BindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, i, 0);
  }
  UseCaptureProgram();  // the frontend sent the program just before
  const GLenum mode = c.primitive == pipe::Topology::kPointList  ? GL_POINTS
                      : c.primitive == pipe::Topology::kLineList ? GL_LINES
                                                                 : GL_TRIANGLES;
  gl_.BeginTransformFeedback(mode);
}

void Context::OnTransformFeedbackPause(uint64_t object) {
  if (!xfb_objects_.count(object)) return;
  BindHostTransformFeedback(object);  // bound already: it is the recording one
  gl_.PauseTransformFeedback();
}

void Context::OnTransformFeedbackResume(uint64_t object) {
  if (!xfb_objects_.count(object)) return;
  BindHostTransformFeedback(object);  // allowed: whatever was bound is paused or ended
  UseCaptureProgram();
  gl_.ResumeTransformFeedback();
}

void Context::OnTransformFeedbackEnd(uint64_t object) {
  if (!xfb_objects_.count(object)) return;
  BindHostTransformFeedback(object);
  gl_.EndTransformFeedback();
}

void Context::OnTransformFeedbackDestroy(uint64_t object) {
  auto it = xfb_objects_.find(object);
  if (it == xfb_objects_.end()) return;
  gl_.DeleteTransformFeedbacks(1, &it->second);  // the host binds its default object if it was bound
  xfb_objects_.erase(it);
}

void Context::OnQueryTimestamp(const pipe::CmdQueryTimestamp& c) {
  if (!device_.has_timer_queries()) return;
  Query q;
  q.kind = pipe::QueryKind::kTimestamp;
  gl_.GenQueries(1, &q.name);
  gl_.QueryCounterEXT(q.name, GL_TIMESTAMP);
  queries_[c.query] = q;
}

void Context::OnQueryResult(const pipe::CmdQueryResult& c) {
  auto it = queries_.find(c.query);
  *c.available = false;
  *c.result = 0;
  if (it == queries_.end()) {
    *c.available = true;  // never started on the host (no timer queries): a final zero
  } else {
    GLuint name = it->second.name;
    GLuint available = GL_FALSE;
    if (!c.wait) gl_.GetQueryObjectuiv(name, GL_QUERY_RESULT_AVAILABLE, &available);
    if (it->second.kind == pipe::QueryKind::kSamplesPassed) {
      if (ReadSampleCount(it->second.counter_buffer, c.wait || available, name, c.result)) {
        *c.available = true;
        OnQueryDestroy(c.query);
      }
    } else if (c.wait || available) {
      if (it->second.kind == pipe::QueryKind::kTimeElapsed ||
          it->second.kind == pipe::QueryKind::kTimestamp) {
        GLuint64 value = 0;
        gl_.GetQueryObjectui64vEXT(name, GL_QUERY_RESULT, &value);
        *c.result = value;
      } else {
        GLuint value = 0;
        gl_.GetQueryObjectuiv(name, GL_QUERY_RESULT, &value);
        *c.result = value;
      }
      *c.available = true;
      // A read result is final: the frontend keeps it.
      gl_.DeleteQueries(1, &name);
      queries_.erase(it);
    }
  }
  c.done->store(true);
  c.done->notify_all();
}

void Context::OnQueryDestroy(uint64_t id) {
  auto it = queries_.find(id);
  if (it == queries_.end()) return;
  gl_.DeleteQueries(1, &it->second.name);
  if (it->second.counter_buffer) {
    gl_.DeleteBuffers(1, &it->second.counter_buffer);
    state_.ForgetBuffer(it->second.counter_buffer);
  }
  queries_.erase(it);
}

}  // namespace caldera::gles
