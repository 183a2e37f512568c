#include "backend/gles/gles_state.h"

#include "backend/gles/gles_formats.h"
#include "util/log.h"

namespace caldera::gles {
namespace {

constexpr GLenum kDepthClampExt = 0x864F;  // GL_DEPTH_CLAMP_EXT == GL_DEPTH_CLAMP
constexpr GLenum kPrimitiveRestartFixedIndex = 0x8D69;
constexpr GLenum kMultisampleExt = 0x809D;   // GL_MULTISAMPLE_EXT (GL_EXT_multisample_compatibility)
constexpr GLenum kClipDistanceExt = 0x3000;  // GL_CLIP_DISTANCE0_EXT (GL_EXT_clip_cull_distance), 1..7 follow
constexpr GLenum kCapList[] = {GL_CULL_FACE,          GL_DEPTH_TEST,          GL_STENCIL_TEST,
                               GL_SCISSOR_TEST,       GL_POLYGON_OFFSET_FILL, kPrimitiveRestartFixedIndex,
                               GL_RASTERIZER_DISCARD, kDepthClampExt,         GL_SAMPLE_ALPHA_TO_COVERAGE,
                               GL_SAMPLE_COVERAGE,    GL_SAMPLE_MASK,         kMultisampleExt,
                               kClipDistanceExt + 0,  kClipDistanceExt + 1,   kClipDistanceExt + 2,
                               kClipDistanceExt + 3,  kClipDistanceExt + 4,   kClipDistanceExt + 5,
                               kClipDistanceExt + 6,  kClipDistanceExt + 7};

int TextureTargetIndex(GLenum target) {
  switch (target) {
    case GL_TEXTURE_2D_ARRAY:
      return 1;
    case GL_TEXTURE_3D:
      return 2;
    case GL_TEXTURE_CUBE_MAP:
      return 3;
    case GL_TEXTURE_BUFFER:
      return 4;
    default:
      return 0;
  }
}

}  // namespace

HostState::HostState(const HostGL& gl, bool shadow, bool has_depth_clamp, bool has_multisample_compat)
    : gl_(gl),
      shadow_(shadow),
      has_depth_clamp_(has_depth_clamp),
      has_multisample_compat_(has_multisample_compat) {
  caps_[CapIndex(kMultisampleExt)] = true;  // enabled by default, like GL_MULTISAMPLE
  // The shadow starts at values no call will match where GL's default is not one Caldera relies on.
  viewport_ = {-1, -1, -1, -1};
  scissor_ = {-1, -1, -1, -1};
}

int HostState::CapIndex(GLenum cap) const {
  for (int i = 0; i < kCaps; ++i)
    if (kCapList[i] == cap) return i;
  return -1;
}

void HostState::Enable(GLenum cap, bool on) {
  int i = CapIndex(cap);
  if (i < 0) return;
  Set(&caps_[i], on, [&] { on ? gl_.Enable(cap) : gl_.Disable(cap); });
}

void HostState::Scissor(bool enable, const int32_t rect[4]) {
  Enable(GL_SCISSOR_TEST, enable);
  if (!enable) return;
  // A box whose far edge passes INT32_MAX ends there: hosts may add origin and size in 32 bits (Mesa does,
  // and its sum wraps to a box holding nothing).
  std::array<int32_t, 4> r{rect[0], rect[1], pipe::ScissorEnd(rect[0], rect[2]) - rect[0],
                           pipe::ScissorEnd(rect[1], rect[3]) - rect[1]};
  Set(&scissor_, r, [&] { gl_.Scissor(r[0], r[1], r[2], r[3]); });
}

void HostState::ColorMask(uint32_t index, uint8_t mask) {
  BlendShadow b = blend_[index];
  b.mask = mask;
  Set(&blend_[index], b,
      [&] { gl_.ColorMaski(index, mask & 1, (mask >> 1) & 1, (mask >> 2) & 1, (mask >> 3) & 1); });
}

void HostState::DepthMask(bool on) {
  Set(&depth_mask_, on, [&] { gl_.DepthMask(on); });
}

void HostState::StencilMask(GLenum face, uint32_t mask) {
  for (int i = 0; i < 2; ++i) {
    if ((i == 0 && face == GL_BACK) || (i == 1 && face == GL_FRONT)) continue;
    StencilShadow s = stencil_[i];
    s.write_mask = mask;
    Set(&stencil_[i], s, [&] { gl_.StencilMaskSeparate(i == 0 ? GL_FRONT : GL_BACK, mask); });
  }
}

void HostState::ApplyFixed(const pipe::CmdSetFixedState& s, uint32_t rgb_targets) {
  std::array<int32_t, 4> vp{static_cast<int32_t>(s.viewport[0]), static_cast<int32_t>(s.viewport[1]),
                            static_cast<int32_t>(s.viewport[2]), static_cast<int32_t>(s.viewport[3])};
  Set(&viewport_, vp, [&] { gl_.Viewport(vp[0], vp[1], vp[2], vp[3]); });
  std::array<float, 2> dr{s.depth_range[0], s.depth_range[1]};
  Set(&depth_range_, dr, [&] { gl_.DepthRangef(dr[0], dr[1]); });
  Scissor(s.scissor_enable, s.scissor);

  Enable(GL_CULL_FACE, s.cull != pipe::CullMode::kNone);
  if (s.cull != pipe::CullMode::kNone) {
    GLenum mode = s.cull == pipe::CullMode::kFront  ? GL_FRONT
                  : s.cull == pipe::CullMode::kBack ? GL_BACK
                                                    : GL_FRONT_AND_BACK;
    Set(&cull_face_, mode, [&] { gl_.CullFace(mode); });
  }
  GLenum front = s.front_ccw ? GL_CCW : GL_CW;
  Set(&front_face_, front, [&] { gl_.FrontFace(front); });

  Enable(GL_DEPTH_TEST, s.depth_test);
  DepthMask(s.depth_write);
  GLenum depth_func = ToHostCompare(s.depth_func);
  Set(&depth_func_, depth_func, [&] { gl_.DepthFunc(depth_func); });
  if (has_depth_clamp_) Enable(kDepthClampExt, s.depth_clamp);

  Enable(GL_STENCIL_TEST, s.stencil_test);
  const pipe::StencilFace* faces[2] = {&s.stencil_front, &s.stencil_back};
  for (int i = 0; i < 2; ++i) {
    const auto& f = *faces[i];
    GLenum face = i == 0 ? GL_FRONT : GL_BACK;
    StencilShadow want = stencil_[i];
    want.func = ToHostCompare(f.func);
    want.ref = static_cast<GLint>(f.reference);
    want.value_mask = f.value_mask;
    if (want.func != stencil_[i].func || want.ref != stencil_[i].ref ||
        want.value_mask != stencil_[i].value_mask || !shadow_) {
      gl_.StencilFuncSeparate(face, want.func, want.ref, want.value_mask);
      ++counters_.issued;
    } else {
      ++counters_.skipped;
    }
    want.fail = ToHostStencilOp(f.fail);
    want.zfail = ToHostStencilOp(f.depth_fail);
    want.zpass = ToHostStencilOp(f.pass);
    if (want.fail != stencil_[i].fail || want.zfail != stencil_[i].zfail || want.zpass != stencil_[i].zpass ||
        !shadow_) {
      gl_.StencilOpSeparate(face, want.fail, want.zfail, want.zpass);
      ++counters_.issued;
    } else {
      ++counters_.skipped;
    }
    stencil_[i] = want;
    StencilMask(face, f.write_mask);
  }

  for (uint32_t i = 0; i < pipe::kMaxColorAttachments; ++i) {
    const auto& b = s.blend[i];
    BlendShadow want = blend_[i];
    if (want.enable != b.enable || !shadow_) {
      b.enable ? gl_.Enablei(GL_BLEND, i) : gl_.Disablei(GL_BLEND, i);
      ++counters_.issued;
    } else {
      ++counters_.skipped;
    }
    want.enable = b.enable;
    blend_[i].enable = b.enable;
    if (b.enable) {  // factors only matter while blending: keep their calls out of the common case
      want.src_rgb = ToHostBlendFactor(b.src_rgb);
      want.dst_rgb = ToHostBlendFactor(b.dst_rgb);
      want.src_alpha = ToHostBlendFactor(b.src_alpha);
      want.dst_alpha = ToHostBlendFactor(b.dst_alpha);
      want.eq_rgb = ToHostBlendOp(b.op_rgb);
      want.eq_alpha = ToHostBlendOp(b.op_alpha);
      const BlendShadow& cur = blend_[i];
      if (want.src_rgb != cur.src_rgb || want.dst_rgb != cur.dst_rgb || want.src_alpha != cur.src_alpha ||
          want.dst_alpha != cur.dst_alpha || !shadow_) {
        gl_.BlendFuncSeparatei(i, want.src_rgb, want.dst_rgb, want.src_alpha, want.dst_alpha);
        ++counters_.issued;
      } else {
        ++counters_.skipped;
      }
      if (want.eq_rgb != cur.eq_rgb || want.eq_alpha != cur.eq_alpha || !shadow_) {
        gl_.BlendEquationSeparatei(i, want.eq_rgb, want.eq_alpha);
        ++counters_.issued;
      } else {
        ++counters_.skipped;
      }
      blend_[i] = want;
    }
    uint8_t mask = b.write_mask;
    if (rgb_targets & (1u << i)) mask &= 0x7;  // alpha of RGB surfaces stays 1
    ColorMask(i, mask);
  }
  std::array<float, 4> bc{s.blend_color[0], s.blend_color[1], s.blend_color[2], s.blend_color[3]};
  Set(&blend_color_, bc, [&] { gl_.BlendColor(bc[0], bc[1], bc[2], bc[3]); });
  Set(&line_width_, s.line_width, [&] { gl_.LineWidth(s.line_width); });
  // GLES has no line stipple (nor an extension for it): stippled lines draw solid.
  if (s.line_stipple)
    util::LogOnce(util::LogLevel::kWarning, "gles",
                  "GL_LINE_STIPPLE ignored: the host GLES cannot stipple lines");
  Enable(GL_POLYGON_OFFSET_FILL, s.polygon_offset_fill);
  if (s.polygon_offset_fill) {
    std::array<float, 2> po{s.polygon_offset_factor, s.polygon_offset_units};
    Set(&polygon_offset_, po, [&] { gl_.PolygonOffset(po[0], po[1]); });
  }
  Enable(kPrimitiveRestartFixedIndex, s.primitive_restart);
  Enable(GL_RASTERIZER_DISCARD, s.rasterizer_discard);
  // The host applies these to multisampled framebuffers only, as GL does.
  Enable(GL_SAMPLE_ALPHA_TO_COVERAGE, s.alpha_to_coverage);
  Enable(GL_SAMPLE_COVERAGE, s.sample_coverage);
  if (s.sample_coverage) {
    std::pair<float, bool> coverage{s.coverage_value, s.coverage_invert};
    Set(&sample_coverage_, coverage, [&] { gl_.SampleCoverage(coverage.first, coverage.second); });
  }
  Enable(GL_SAMPLE_MASK, s.sample_mask != ~0u);
  if (s.sample_mask != ~0u) Set(&sample_mask_, s.sample_mask, [&] { gl_.SampleMaski(0, s.sample_mask); });
  // GLES has no GL_MULTISAMPLE switch of its own; GL_EXT_multisample_compatibility adds it back.
  if (has_multisample_compat_)
    Enable(kMultisampleExt, s.multisample);
  else if (!s.multisample)
    util::LogOnce(util::LogLevel::kWarning, "GL_MULTISAMPLE",
                  "the host lacks GL_EXT_multisample_compatibility: glDisable(GL_MULTISAMPLE) is ignored");
}

void HostState::UseProgram(GLuint program) {
  Set(&program_, program, [&] { gl_.UseProgram(program); });
}

void HostState::BindVertexArray(GLuint vao) {
  Set(&vao_, vao, [&] {
    gl_.BindVertexArray(vao);
    element_buffer_ = ~0u;  // element buffer binding belongs to the VAO: unknown after a switch
  });
}

void HostState::BindBuffer(GLenum target, GLuint buffer) {
  GLuint* shadow = target == GL_ARRAY_BUFFER           ? &array_buffer_
                   : target == GL_ELEMENT_ARRAY_BUFFER ? &element_buffer_
                   : target == GL_UNIFORM_BUFFER       ? &uniform_buffer_
                   : target == GL_COPY_READ_BUFFER     ? &copy_read_
                   : target == GL_COPY_WRITE_BUFFER    ? &copy_write_
                   : target == GL_PIXEL_PACK_BUFFER    ? &pixel_pack_
                                                       : &pixel_unpack_;
  Set(shadow, buffer, [&] { gl_.BindBuffer(target, buffer); });
}

void HostState::BindUniformBuffer(uint32_t index, GLuint buffer, GLintptr offset, GLsizeiptr size) {
  if (index >= uniform_ranges_.size()) return;
  UniformRange r{buffer, offset, size};
  Set(&uniform_ranges_[index], r, [&] {
    gl_.BindBufferRange(GL_UNIFORM_BUFFER, index, buffer, offset, size);
    uniform_buffer_ = buffer;  // glBindBufferRange also binds the generic target
  });
}

void HostState::ActiveUnit(uint32_t unit) {
  Set(&active_unit_, unit, [&] { gl_.ActiveTexture(GL_TEXTURE0 + unit); });
}

void HostState::BindTexture(uint32_t unit, GLenum target, GLuint texture) {
  if (unit >= units_.size()) return;
  GLuint& slot = units_[unit].textures[TextureTargetIndex(target)];
  if (shadow_ && slot == texture) {
    ++counters_.skipped;
    return;
  }
  ActiveUnit(unit);
  gl_.BindTexture(target, texture);
  slot = texture;
  ++counters_.issued;
}

void HostState::BindSampler(uint32_t unit, GLuint sampler) {
  if (unit >= units_.size()) return;
  Set(&units_[unit].sampler, sampler, [&] { gl_.BindSampler(unit, sampler); });
}

void HostState::BindFramebuffer(GLenum target, GLuint fbo) {
  GLuint* shadow = target == GL_READ_FRAMEBUFFER ? &read_fbo_ : &draw_fbo_;
  Set(shadow, fbo, [&] { gl_.BindFramebuffer(target, fbo); });
}

void HostState::PixelStore(GLenum pname, GLint value) {
  GLint* shadow = pname == GL_UNPACK_ALIGNMENT      ? &unpack_alignment_
                  : pname == GL_PACK_ALIGNMENT      ? &pack_alignment_
                  : pname == GL_PACK_ROW_LENGTH     ? &pack_row_length_
                  : pname == GL_UNPACK_IMAGE_HEIGHT ? &unpack_image_height_
                                                    : &unpack_row_length_;
  Set(shadow, value, [&] { gl_.PixelStorei(pname, value); });
}

void HostState::ForgetBuffer(GLuint buffer) {
  for (GLuint* b : {&array_buffer_, &element_buffer_, &uniform_buffer_, &copy_read_, &copy_write_,
                    &pixel_unpack_, &pixel_pack_})
    if (*b == buffer) *b = 0;
  for (auto& r : uniform_ranges_)
    if (r.buffer == buffer) r = {};
}

void HostState::ForgetTexture(GLuint texture) {
  for (auto& u : units_)
    for (auto& t : u.textures)
      if (t == texture) t = 0;
}

void HostState::ForgetFramebuffer(GLuint fbo) {
  if (draw_fbo_ == fbo) draw_fbo_ = 0;
  if (read_fbo_ == fbo) read_fbo_ = 0;
}

void HostState::ForgetProgram(GLuint program) {
  if (program_ == program) program_ = ~0u;  // still in use on the host until another is bound
}

void HostState::InvalidateObjectBindings() {
  constexpr GLuint kUnknown = ~0u;
  program_ = vao_ = array_buffer_ = element_buffer_ = uniform_buffer_ = kUnknown;
  copy_read_ = copy_write_ = pixel_unpack_ = pixel_pack_ = draw_fbo_ = read_fbo_ = kUnknown;
  for (auto& r : uniform_ranges_) r = {kUnknown, 0, 0};
  for (auto& u : units_) {
    u.textures.fill(kUnknown);
    u.sampler = kUnknown;
  }
}

}  // namespace caldera::gles
