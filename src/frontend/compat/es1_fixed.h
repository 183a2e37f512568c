// OpenGL ES 1.1's fixed-point conversions, used by the generated `x` commands (gen_compat_attribs.py):
// GLfixed is a signed 16.16 number, except where a parameter names an enum or a boolean (glFogx(GL_FOG_MODE,
// GL_LINEAR), glTexEnvx(GL_TEXTURE_ENV_MODE, GL_MODULATE), glTexParameterx(GL_TEXTURE_MIN_FILTER, ...)):
// ES 1.1 passes those as the integer value itself, unscaled.
#pragma once

#include <GL/glcorearb.h>

#include <cmath>
#include <cstdint>

#include "frontend/compat/compat_enums.h"
#include "frontend/compat/hooks.h"

namespace caldera::gl {

inline double FixedToFloat(int32_t v) {
  return double(v) / 65536.0;
}

inline int32_t FloatToFixed(double v) {
  double scaled = std::round(v * 65536.0);
  if (!(scaled > -2147483648.0)) return INT32_MIN;  // NaN too
  if (scaled > 2147483647.0) return INT32_MAX;
  return int32_t(scaled);
}

// Parameters whose value is an enum or a boolean, not a quantity.
inline bool EnumValuedParam(GLenum pname) {
  switch (pname) {
    case GL_FOG_MODE:
    case GL_TEXTURE_ENV_MODE:
    case GL_TEXTURE_MIN_FILTER:
    case GL_TEXTURE_MAG_FILTER:
    case GL_TEXTURE_WRAP_S:
    case GL_TEXTURE_WRAP_T:
    case 0x8191:  // GL_GENERATE_MIPMAP
    case 0x8862:  // GL_COORD_REPLACE_OES
    case GL_LIGHT_MODEL_TWO_SIDE:
    case 0x8571:  // GL_COMBINE_RGB
    case 0x8572:  // GL_COMBINE_ALPHA
      return true;
    default:
      // GL_SRCn_RGB, GL_SRCn_ALPHA, GL_OPERANDn_RGB, GL_OPERANDn_ALPHA (the combine scales are quantities).
      return (pname >= 0x8580 && pname <= 0x8582) || (pname >= 0x8588 && pname <= 0x858A) ||
             (pname >= 0x8590 && pname <= 0x8592) || (pname >= 0x8598 && pname <= 0x859A);
  }
}

inline double FixedParam(GLenum pname, int32_t v) {
  return EnumValuedParam(pname) ? double(v) : FixedToFloat(v);
}

inline int32_t FloatParamToFixed(GLenum pname, double v) {
  return EnumValuedParam(pname) ? int32_t(v) : FloatToFixed(v);
}

// How many values a pname-vector command reads or writes (at most 16: the generated code's buffers).
inline int Es1ParamCount(GLenum pname) {
  if (pname == 0x8129) return 3;  // GL_POINT_DISTANCE_ATTENUATION
  return compat::ParamCount(pname);
}

}  // namespace caldera::gl
