// Fixed-function state setters. Each marks state dirty only when a value really changes (DXVK's rule), so
// redundant calls cost a compare and never reach the pipe.
#include <algorithm>

#include "frontend/compat/immediate.h"
#include "frontend/context.h"
#include "frontend/device.h"
#include "frontend/gl_caps.h"
#include "frontend/gl_hints.h"
#include "frontend/gl_impl.h"
#include "frontend/state_table_gen.h"
#include "util/log.h"

namespace caldera::gl {
namespace {

template <typename T>
void Set(Context& ctx, T& field, const T& value) {
  if (field == value) return;
  field = value;
  ctx.MarkDirty(kDirtyFixedState);
}

float Clamp01(double v) {
  // NaN is not ordered, so std::clamp passes it through (and Vulkan rejects a NaN depth range): make it 0.
  if (!(v > 0.0)) return 0.0f;
  return static_cast<float>(std::min(v, 1.0));
}

// The enable caps of the state table (state_table.txt), then debug output's.
bool* CapFlag(Context& ctx, GLenum cap) {
  if (bool* flag = state_table::CapField(ctx, cap)) return flag;
  return ctx.debug.Flag(cap);
}

void SetCap(Context& ctx, GLenum cap, bool value, const char* function) {
  if (cap == GL_BLEND) {
    bool all = ctx.state.blend.all() == value && ctx.state.blend.none() == !value;
    if (!all) {
      value ? ctx.state.blend.set() : ctx.state.blend.reset();
      ctx.MarkDirty(kDirtyFixedState);
    }
    return;
  }
  if (bool* debug_flag = ctx.debug.Flag(cap)) {  // debug output state: nothing a draw reads
    *debug_flag = value;
    return;
  }
  bool* flag = CapFlag(ctx, cap);
  if (!flag && ctx.IsCompat() && compat::SetCapability(ctx, cap, value)) return;  // lighting, fog...
  if (!flag) return ctx.Error(GL_INVALID_ENUM, function, "invalid capability");
  if (value && (cap == GL_POLYGON_SMOOTH || cap == GL_SAMPLE_ALPHA_TO_ONE)) {
    const char* why = cap == GL_POLYGON_SMOOTH
                          ? "GL_POLYGON_SMOOTH is tracked but polygons are not antialiased"
                          : "GL_SAMPLE_ALPHA_TO_ONE is tracked but alpha is not replaced yet";
    util::LogOnce(util::LogLevel::kWarning, function, why);
    // Each time to debug output (the log line is once per process): the application asked for rendering
    // Caldera does not do.
    ctx.debug.Message(GL_DEBUG_SOURCE_API, GL_DEBUG_TYPE_OTHER, kDebugIdNotRendered, GL_DEBUG_SEVERITY_MEDIUM,
                      why);
  }
  if (*flag == value && !state_table::AlwaysDirty()) return;
  *flag = value;
  state_table::MarkCapChanged(ctx, cap);  // the row's dirty groups
}

void SetStencilFaces(Context& ctx, GLenum face, auto&& apply) {
  bool changed = false;
  if (face != GL_BACK) changed |= apply(ctx.state.stencil[0]);
  if (face != GL_FRONT) changed |= apply(ctx.state.stencil[1]);
  if (changed) ctx.MarkDirty(kDirtyFixedState);
}

template <typename T>
bool Assign(T& field, T value) {
  if (field == value) return false;
  field = value;
  return true;
}

}  // namespace

void Viewport(Context& ctx, GLint x, GLint y, GLsizei width, GLsizei height) {
  auto max = ctx.device().backend().caps().max_viewport;
  GLint v[4] = {x, y, std::min<GLint>(width, max[0]), std::min<GLint>(height, max[1])};
  if (std::equal(v, v + 4, ctx.state.viewport)) return;
  std::copy(v, v + 4, ctx.state.viewport);
  ctx.MarkDirty(kDirtyFixedState);
}

void Scissor(Context& ctx, GLint x, GLint y, GLsizei width, GLsizei height) {
  GLint v[4] = {x, y, width, height};
  if (std::equal(v, v + 4, ctx.state.scissor)) return;
  std::copy(v, v + 4, ctx.state.scissor);
  ctx.MarkDirty(kDirtyFixedState);
}

void DepthRangef(Context& ctx, GLfloat n, GLfloat f) {
  Set(ctx, ctx.state.depth_range[0], Clamp01(n));
  Set(ctx, ctx.state.depth_range[1], Clamp01(f));
}
void DepthRange(Context& ctx, GLdouble n, GLdouble f) {
  DepthRangef(ctx, Clamp01(n), Clamp01(f));
}

void ClearColor(Context& ctx, GLfloat r, GLfloat g, GLfloat b, GLfloat a) {
  GLfloat* c = ctx.state.clear_color;
  c[0] = r, c[1] = g, c[2] = b, c[3] = a;  // clears read these when they happen: no dirty bit
}
void ClearDepthf(Context& ctx, GLfloat depth) {
  ctx.state.clear_depth = Clamp01(depth);
}
void ClearDepth(Context& ctx, GLdouble depth) {
  ctx.state.clear_depth = Clamp01(depth);
}
void ClearStencil(Context& ctx, GLint s) {
  ctx.state.clear_stencil = s;
}

void ColorMaski(Context& ctx, GLuint index, GLboolean r, GLboolean g, GLboolean b, GLboolean a) {
  std::array<bool, 4> mask = {r != 0, g != 0, b != 0, a != 0};
  Set(ctx, ctx.state.color_mask[index], mask);
}
void ColorMask(Context& ctx, GLboolean r, GLboolean g, GLboolean b, GLboolean a) {
  for (GLuint i = 0; i < pipe::kMaxColorAttachments; ++i) ColorMaski(ctx, i, r, g, b, a);
}

void DepthMask(Context& ctx, GLboolean flag) {
  state_table::SetDepthWritemask(ctx, flag != 0);
}

void StencilMaskSeparate(Context& ctx, GLenum face, GLuint mask) {
  SetStencilFaces(ctx, face, [&](StencilState& s) { return Assign(s.write_mask, mask); });
}
void StencilMask(Context& ctx, GLuint mask) {
  StencilMaskSeparate(ctx, GL_FRONT_AND_BACK, mask);
}

void Enable(Context& ctx, GLenum cap) {
  SetCap(ctx, cap, true, "glEnable");
}
void Disable(Context& ctx, GLenum cap) {
  SetCap(ctx, cap, false, "glDisable");
}

const bool* CapState(Context& ctx, GLenum cap) {
  return CapFlag(ctx, cap);
}

GLboolean IsEnabled(Context& ctx, GLenum cap) {
  if (cap == GL_BLEND) return ctx.state.blend.test(0);
  bool* flag = CapFlag(ctx, cap);
  bool compat_value = false;
  if (!flag && ctx.IsCompat() && compat::QueryCapability(ctx, cap, &compat_value)) return compat_value;
  if (!flag) {
    ctx.Error(GL_INVALID_ENUM, "glIsEnabled", "invalid capability");
    return GL_FALSE;
  }
  return *flag;
}

void Enablei(Context& ctx, GLenum target, GLuint index) {
  if (target != GL_BLEND) return ctx.Error(GL_INVALID_ENUM, "glEnablei", "only GL_BLEND is indexed");
  if (index >= pipe::kMaxColorAttachments)
    return ctx.Error(GL_INVALID_VALUE, "glEnablei", "index out of range");
  if (!ctx.state.blend.test(index)) {
    ctx.state.blend.set(index);
    ctx.MarkDirty(kDirtyFixedState);
  }
}

void Disablei(Context& ctx, GLenum target, GLuint index) {
  if (target != GL_BLEND) return ctx.Error(GL_INVALID_ENUM, "glDisablei", "only GL_BLEND is indexed");
  if (index >= pipe::kMaxColorAttachments)
    return ctx.Error(GL_INVALID_VALUE, "glDisablei", "index out of range");
  if (ctx.state.blend.test(index)) {
    ctx.state.blend.reset(index);
    ctx.MarkDirty(kDirtyFixedState);
  }
}

GLboolean IsEnabledi(Context& ctx, GLenum target, GLuint index) {
  if (target != GL_BLEND) {
    ctx.Error(GL_INVALID_ENUM, "glIsEnabledi", "only GL_BLEND is indexed");
    return GL_FALSE;
  }
  if (index >= pipe::kMaxColorAttachments) {
    ctx.Error(GL_INVALID_VALUE, "glIsEnabledi", "index out of range");
    return GL_FALSE;
  }
  return ctx.state.blend.test(index);
}

void DepthFunc(Context& ctx, GLenum func) {
  state_table::SetDepthFunc(ctx, func);
}

void StencilFuncSeparate(Context& ctx, GLenum face, GLenum func, GLint ref, GLuint mask) {
  SetStencilFaces(ctx, face, [&](StencilState& s) {
    bool c = Assign(s.func, func);
    c |= Assign(s.ref, ref);
    c |= Assign(s.value_mask, mask);
    return c;
  });
}
void StencilFunc(Context& ctx, GLenum func, GLint ref, GLuint mask) {
  StencilFuncSeparate(ctx, GL_FRONT_AND_BACK, func, ref, mask);
}

void StencilOpSeparate(Context& ctx, GLenum face, GLenum sfail, GLenum dpfail, GLenum dppass) {
  SetStencilFaces(ctx, face, [&](StencilState& s) {
    bool c = Assign(s.fail, sfail);
    c |= Assign(s.zfail, dpfail);
    c |= Assign(s.zpass, dppass);
    return c;
  });
}
void StencilOp(Context& ctx, GLenum fail, GLenum zfail, GLenum zpass) {
  StencilOpSeparate(ctx, GL_FRONT_AND_BACK, fail, zfail, zpass);
}

void BlendFuncSeparate(Context& ctx, GLenum src_rgb, GLenum dst_rgb, GLenum src_alpha, GLenum dst_alpha) {
  bool changed = false;
  for (auto& b : ctx.state.blend_state) {
    changed |= Assign(b.src_rgb, src_rgb);
    changed |= Assign(b.dst_rgb, dst_rgb);
    changed |= Assign(b.src_alpha, src_alpha);
    changed |= Assign(b.dst_alpha, dst_alpha);
  }
  if (changed) ctx.MarkDirty(kDirtyFixedState);
}
void BlendFunc(Context& ctx, GLenum sfactor, GLenum dfactor) {
  BlendFuncSeparate(ctx, sfactor, dfactor, sfactor, dfactor);
}

void BlendEquationSeparate(Context& ctx, GLenum mode_rgb, GLenum mode_alpha) {
  bool changed = false;
  for (auto& b : ctx.state.blend_state) {
    changed |= Assign(b.eq_rgb, mode_rgb);
    changed |= Assign(b.eq_alpha, mode_alpha);
  }
  if (changed) ctx.MarkDirty(kDirtyFixedState);
}
void BlendEquation(Context& ctx, GLenum mode) {
  BlendEquationSeparate(ctx, mode, mode);
}

void BlendColor(Context& ctx, GLfloat r, GLfloat g, GLfloat b, GLfloat a) {
  GLfloat c[4] = {r, g, b, a};
  if (std::equal(c, c + 4, ctx.state.blend_color)) return;
  std::copy(c, c + 4, ctx.state.blend_color);
  ctx.MarkDirty(kDirtyFixedState);
}

void CullFace(Context& ctx, GLenum mode) {
  state_table::SetCullFaceMode(ctx, mode);
}
void FrontFace(Context& ctx, GLenum mode) {
  state_table::SetFrontFace(ctx, mode);
}
void LineWidth(Context& ctx, GLfloat width) {
  state_table::SetLineWidth(ctx, width);
}
void PolygonMode(Context& ctx, GLenum face, GLenum mode) {
  // The back faces' mode is read by the frontend only (compat/edge_flags.cpp): nothing to mark dirty.
  if (face != GL_FRONT) ctx.state.polygon_mode_back = mode;
  if (face != GL_BACK) Set(ctx, ctx.state.polygon_mode, mode);
}
void ProvokingVertex(Context& ctx, GLenum mode) {
  state_table::SetProvokingVertex(ctx, mode);
}

void PolygonOffset(Context& ctx, GLfloat factor, GLfloat units) {
  state_table::SetPolygonOffsetFactor(ctx, factor);
  state_table::SetPolygonOffsetUnits(ctx, units);
}

void PrimitiveRestartIndex(Context& ctx, GLuint index) {
  ctx.state.primitive_restart_index = index;
}

void Hint(Context& ctx, GLenum target, GLenum mode) {
  if (auto slot = HintSlot(ctx, target)) ctx.state.hints[*slot] = mode;  // validated: always a slot
}

void PixelStorei(Context& ctx, GLenum pname, GLint param) {
  GLState& s = ctx.state;
  GLint* field = nullptr;
  switch (pname) {
    case GL_PACK_ALIGNMENT:
    case GL_UNPACK_ALIGNMENT:
      if (param != 1 && param != 2 && param != 4 && param != 8)
        return ctx.Error(GL_INVALID_VALUE, "glPixelStorei", "alignment must be 1, 2, 4 or 8");
      (pname == GL_PACK_ALIGNMENT ? s.pack_alignment : s.unpack_alignment) = param;
      return;
    case GL_PACK_ROW_LENGTH:
      field = &s.pack_row_length;
      break;
    case GL_UNPACK_ROW_LENGTH:
      field = &s.unpack_row_length;
      break;
    case GL_PACK_SKIP_ROWS:
      field = &s.pack_skip_rows;
      break;
    case GL_PACK_SKIP_PIXELS:
      field = &s.pack_skip_pixels;
      break;
    case GL_UNPACK_SKIP_ROWS:
      field = &s.unpack_skip_rows;
      break;
    case GL_UNPACK_SKIP_PIXELS:
      field = &s.unpack_skip_pixels;
      break;
    case GL_UNPACK_IMAGE_HEIGHT:
      field = &s.unpack_image_height;
      break;
    case GL_UNPACK_SKIP_IMAGES:
      field = &s.unpack_skip_images;
      break;
    case GL_PACK_IMAGE_HEIGHT:
    case GL_PACK_SKIP_IMAGES:
      // Desktop only: ES 3.0's pack table (§4.3.1) has no 3D pack state.
      if (ctx.IsES()) return ctx.Error(GL_INVALID_ENUM, "glPixelStorei", "invalid pname");
      field = pname == GL_PACK_IMAGE_HEIGHT ? &s.pack_image_height : &s.pack_skip_images;
      break;
    case GL_PACK_SWAP_BYTES:
    case GL_UNPACK_SWAP_BYTES:
    case GL_PACK_LSB_FIRST:
    case GL_UNPACK_LSB_FIRST:
      if (ctx.IsES()) return ctx.Error(GL_INVALID_ENUM, "glPixelStorei", "invalid pname");
      // Only glBitmap reads bits, so only its unpack bit order is honoured (compatibility contexts).
      if (pname == GL_UNPACK_LSB_FIRST && ctx.IsCompat()) return void(s.unpack_lsb_first = param != 0);
      if (param != 0)
        ctx.Error(GL_INVALID_OPERATION, "glPixelStorei", "byte swapping/LSB-first is not supported");
      return;
    default:
      return ctx.Error(GL_INVALID_ENUM, "glPixelStorei", "invalid pname");
  }
  if (param < 0) return ctx.Error(GL_INVALID_VALUE, "glPixelStorei", "negative value");
  *field = param;
}

void SampleCoverage(Context& ctx, GLfloat value, GLboolean invert) {
  state_table::SetSampleCoverageValue(ctx, std::clamp(value, 0.0f, 1.0f));
  state_table::SetSampleCoverageInvert(ctx, invert != GL_FALSE);
}

void SampleMaski(Context& ctx, GLuint index, GLbitfield mask) {
  if (index >= 1) return ctx.Error(GL_INVALID_VALUE, "glSampleMaski", "index above GL_MAX_SAMPLE_MASK_WORDS");
  if (ctx.state.sample_mask_value == mask) return;
  ctx.state.sample_mask_value = mask;
  ctx.MarkDirty(kDirtyFixedState);
}

}  // namespace caldera::gl
