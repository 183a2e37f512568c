// GL_COMBINE texture environments (GL 2.1 §3.13.3 and table 3.20; ES 1.1 §3.7.12): each unit combines up to
// three arguments — its texture, another unit's texture (GL_TEXTUREn, GL 1.4's crossbar; desktop only), the
// environment colour, the fragment's primary colour or the previous unit's result — with one function for
// RGB and one for alpha (DOT3 included), then scales and clamps. Here: the parameters' glTexEnv/glGetTexEnv,
// the state's part of the fixed-function program key, and the GLSL it becomes.
#pragma once

#include <GL/glcorearb.h>

#include <cstdint>
#include <string>

namespace caldera {
class Context;
}

namespace caldera::compat {

struct TexCombine {
  GLenum rgb = 0x2100, alpha = 0x2100;  // GL_COMBINE_RGB / GL_COMBINE_ALPHA: GL_MODULATE
  // GL_SRCn_RGB / GL_SRCn_ALPHA: GL_TEXTURE, GL_PREVIOUS, GL_CONSTANT.
  GLenum src_rgb[3] = {0x1702, 0x8578, 0x8576}, src_alpha[3] = {0x1702, 0x8578, 0x8576};
  // GL_OPERANDn_RGB: GL_SRC_COLOR, GL_SRC_COLOR, GL_SRC_ALPHA; GL_OPERANDn_ALPHA: GL_SRC_ALPHA.
  GLenum op_rgb[3] = {GL_SRC_COLOR, GL_SRC_COLOR, GL_SRC_ALPHA};
  GLenum op_alpha[3] = {GL_SRC_ALPHA, GL_SRC_ALPHA, GL_SRC_ALPHA};
  float rgb_scale = 1, alpha_scale = 1;  // 1, 2 or 4
};

// Whether `pname` is a combine parameter of glTexEnv (GL_COMBINE_RGB, GL_SRC0_RGB, GL_RGB_SCALE, ...).
bool IsCombineParam(GLenum pname);
// glTexEnv of a combine parameter: records GL_INVALID_ENUM for a value the parameter does not take (a
// GL_TEXTUREn source on ES 1.1 or past the units, DOT3 for alpha) and GL_INVALID_VALUE for a scale other than
// 1, 2 or 4, as GL 2.1 §3.13.3 says.
void SetCombineParam(Context& ctx, TexCombine& combine, GLenum pname, float value);
float GetCombineParam(const TexCombine& combine, GLenum pname);

// The bits of the program key for one unit's combine state (kCombineKeyBits of them).
constexpr unsigned kCombineKeyBits = 37;
uint64_t CombineKey(const TexCombine& combine);
// GLSL for unit `unit` in COMBINE mode: reads `c` (the previous result, written with this unit's), `primary`,
// `t<unit>` (and `t<n>` for crossbar sources; `enabled` has bit n for each sampled unit),
// `u_env_color<unit>`.
std::string CombineSource(uint64_t key, int unit, unsigned enabled);

}  // namespace caldera::compat
