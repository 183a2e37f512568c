// glGet* of the compatibility profile's state: matrices and stack depths, current attributes, the lighting,
// fog, alpha-test and list state the queries of GL 2.1 table 6.x name. gl_get.cpp asks here for a name it
// does not know, in compatibility contexts only.
#include <cstring>

#include "frontend/compat/hooks.h"
#include "frontend/compat/immediate.h"

namespace caldera::compat {
namespace {

int Put(double* out, const float* v, int n) {
  for (int i = 0; i < n; ++i) out[i] = v[i];
  return n;
}

int PutMatrix(double* out, const Mat4& m, bool transpose) {
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) out[c * 4 + r] = transpose ? m.m[r * 4 + c] : m.m[c * 4 + r];
  return 16;
}

}  // namespace

// Fills out (up to 16 values); *color says the values are normalised colours (integer queries scale them).
// Returns the count, 0 when pname is not compatibility state.
int QueryState(Context& ctx, GLenum pname, double* out, bool* color) {
  State& st = *ctx.compat;
  GLuint unit = ctx.active_texture < kTexUnits ? ctx.active_texture : 0;
  *color = false;
  switch (pname) {
    case GL_MATRIX_MODE:
      return out[0] = st.matrix_mode, 1;
    case GL_MODELVIEW_MATRIX:
      return PutMatrix(out, st.modelview.back(), false);
    case GL_PROJECTION_MATRIX:
      return PutMatrix(out, st.projection.back(), false);
    case GL_TEXTURE_MATRIX:
      return PutMatrix(out, st.units[unit].matrix.back(), false);
    case GL_TRANSPOSE_MODELVIEW_MATRIX:
      return PutMatrix(out, st.modelview.back(), true);
    case GL_TRANSPOSE_PROJECTION_MATRIX:
      return PutMatrix(out, st.projection.back(), true);
    case GL_TRANSPOSE_TEXTURE_MATRIX:
      return PutMatrix(out, st.units[unit].matrix.back(), true);
    case GL_MODELVIEW_STACK_DEPTH:
      return out[0] = double(st.modelview.size()), 1;
    case GL_PROJECTION_STACK_DEPTH:
      return out[0] = double(st.projection.size()), 1;
    case GL_TEXTURE_STACK_DEPTH:
      return out[0] = double(st.units[unit].matrix.size()), 1;
    case GL_MAX_MODELVIEW_STACK_DEPTH:
      return out[0] = kModelviewDepth, 1;
    case GL_MAX_PROJECTION_STACK_DEPTH:
      return out[0] = kProjectionDepth, 1;
    case GL_MAX_TEXTURE_STACK_DEPTH:
      return out[0] = kTextureDepth, 1;
    case GL_MAX_LIGHTS:
      return out[0] = kLights, 1;
    case GL_MAX_CLIP_PLANES:
      return out[0] = kClipPlanes, 1;
    // The accumulation buffer's precision (accum.cpp): 16 bits a component, as on Mesa's GLX visuals (it
    // keeps floats); none in a framebuffer object.
    case 0x0D58:  // GL_ACCUM_RED_BITS
    case 0x0D59:  // GL_ACCUM_GREEN_BITS
    case 0x0D5A:  // GL_ACCUM_BLUE_BITS
    case 0x0D5B:  // GL_ACCUM_ALPHA_BITS
      if (ctx.IsES1()) return 0;
      return out[0] = HasAccumBuffer(ctx) ? 16 : 0, 1;
    // No colour-index or auxiliary buffers: programs read these to find out.
    case 0x0D51:  // GL_INDEX_BITS
    case 0x0C00:  // GL_AUX_BUFFERS
      if (ctx.IsES1()) return 0;
      return out[0] = 0, 1;
    case GL_MAX_TEXTURE_UNITS:
      return out[0] = kTexUnits, 1;
    case GL_MAX_LIST_NESTING:
      return out[0] = kMaxListNesting, 1;
    case GL_LIST_BASE:
      return out[0] = st.list_base, 1;
    case GL_LIST_INDEX:
      return out[0] = st.compiling ? st.compiling_name : 0, 1;
    case GL_LIST_MODE:
      return out[0] = st.compiling ? st.compiling_mode : 0, 1;
    case GL_SHADE_MODEL:
      return out[0] = st.shade_model, 1;
    case GL_CURRENT_COLOR:
      *color = true;
      return Put(out, st.color, 4);
    case GL_CURRENT_NORMAL:
      *color = true;
      return Put(out, st.normal, 3);
    case GL_CURRENT_FOG_COORD:
      return out[0] = st.fog_coord, 1;
    case GL_FOG_COORD_SRC:
      return out[0] = st.fog_coord_src, 1;
    case GL_EDGE_FLAG:
      return out[0] = st.edge_flag ? 1 : 0, 1;
    case GL_CURRENT_TEXTURE_COORDS:
      return Put(out, st.texcoord[unit], 4);
    case GL_LIGHT_MODEL_AMBIENT:
      *color = true;
      return Put(out, st.light_model_ambient, 4);
    case GL_LIGHT_MODEL_TWO_SIDE:
      return out[0] = st.two_side, 1;
    case GL_LIGHT_MODEL_LOCAL_VIEWER:
      return out[0] = st.local_viewer, 1;
    case GL_LIGHT_MODEL_COLOR_CONTROL:
      return out[0] = st.separate_specular ? GL_SEPARATE_SPECULAR_COLOR : GL_SINGLE_COLOR, 1;
    case GL_COLOR_MATERIAL_FACE:
      return out[0] = st.color_material_face, 1;
    case GL_COLOR_MATERIAL_PARAMETER:
      return out[0] = st.color_material_mode, 1;
    case GL_FOG_MODE:
      return out[0] = st.fog_mode, 1;
    case GL_FOG_DENSITY:
      return out[0] = st.fog_density, 1;
    case GL_FOG_START:
      return out[0] = st.fog_start, 1;
    case GL_FOG_END:
      return out[0] = st.fog_end, 1;
    case GL_FOG_COLOR:
      *color = true;
      return Put(out, st.fog_color, 4);
    case GL_LINE_STIPPLE_PATTERN:
      return out[0] = ctx.state.line_stipple_pattern, 1;
    case GL_LINE_STIPPLE_REPEAT:
      return out[0] = ctx.state.line_stipple_factor, 1;
    case GL_ALPHA_TEST_FUNC:
      return out[0] = st.alpha_func, 1;
    case GL_ALPHA_TEST_REF:
      *color = true;
      return out[0] = st.alpha_ref, 1;
    default: {
      bool enabled = false;
      if (QueryCapability(ctx, pname, &enabled)) return out[0] = enabled, 1;
      if (int n = QueryPixelRectState(ctx, pname, out, color)) return n;
      if (int n = QueryPointState(ctx, pname, out)) return n;
      if (int n = QueryIndexState(ctx, pname, out)) return n;
      if (int n = QueryEvalState(ctx, pname, out)) return n;
      if (int n = QueryPixelMapState(ctx, pname, out)) return n;
      if (int n = QuerySelectFeedbackState(ctx, pname, out)) return n;
      return QueryArrayState(ctx, pname, out);
    }
  }
}

}  // namespace caldera::compat
