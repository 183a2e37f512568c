// Texture environments by texture base format (GL 2.1 table 3.22: ALPHA, LUMINANCE, LUMINANCE_ALPHA,
// INTENSITY, RGB, RGBA under each classic environment), and GL_COMBINE (GL 2.1 §3.13.3), compared with Mesa
// llvmpipe like the other scenes in compat_scenes.cpp. GL_COMBINE: every combine function (REPLACE, MODULATE,
// ADD, ADD_SIGNED, INTERPOLATE, SUBTRACT, DOT3_RGB, DOT3_RGBA), each operand, the four fixed sources, the
// scales, and a second unit reading the first unit's texture (GL_TEXTURE0, the crossbar). Each cell is a quad
// with a colour gradient over two textures.
#include <cstdint>
#include <vector>

#include "compat_gl.h"

using namespace compat_gl;

namespace {

constexpr GLenum kCombineRgb = 0x8571, kCombineAlpha = 0x8572, kRgbScale = 0x8573, kAlphaScale = 0x0D1C;
constexpr GLenum kSrc0Rgb = 0x8580, kSrc0Alpha = 0x8588, kOperand0Rgb = 0x8590, kOperand0Alpha = 0x8598;
constexpr GLenum kAddSigned = 0x8574, kInterpolate = 0x8575, kSubtract = 0x84E7, kDot3Rgb = 0x86AE,
                 kDot3Rgba = 0x86AF;
constexpr GLenum kConstant = 0x8576, kPrimaryColor = 0x8577, kPrevious = 0x8578;

// A 4x4 texture of distinct colours and alphas (nearest filtering: every texel is a patch of the cell).
GLuint Texture(int seed) {
  std::vector<uint8_t> t(4 * 4 * 4);
  for (int i = 0; i < 16; ++i) {
    uint8_t* p = &t[size_t(i) * 4];
    p[0] = uint8_t((i * 53 + seed * 71) % 256), p[1] = uint8_t((i * 97 + seed * 29) % 256);
    p[2] = uint8_t((i * 31 + seed * 113) % 256), p[3] = uint8_t(64 + (i * 37 + seed * 17) % 192);
  }
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, t.data());
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  return tex;
}

struct Env {
  GLenum rgb, alpha;
  GLenum src_rgb[3], op_rgb[3];
  GLenum src_alpha[3], op_alpha[3];
  float rgb_scale, alpha_scale;
};

void SetEnv(const Env& e) {
  TexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_COMBINE);
  TexEnvi(GL_TEXTURE_ENV, kCombineRgb, GLint(e.rgb));
  TexEnvi(GL_TEXTURE_ENV, kCombineAlpha, GLint(e.alpha));
  for (int i = 0; i < 3; ++i) {
    TexEnvi(GL_TEXTURE_ENV, kSrc0Rgb + GLenum(i), GLint(e.src_rgb[i]));
    TexEnvi(GL_TEXTURE_ENV, kOperand0Rgb + GLenum(i), GLint(e.op_rgb[i]));
    TexEnvi(GL_TEXTURE_ENV, kSrc0Alpha + GLenum(i), GLint(e.src_alpha[i]));
    TexEnvi(GL_TEXTURE_ENV, kOperand0Alpha + GLenum(i), GLint(e.op_alpha[i]));
  }
  const float rgb_scale[4] = {e.rgb_scale, 0, 0, 0}, alpha_scale[4] = {e.alpha_scale, 0, 0, 0};
  TexEnvfv(GL_TEXTURE_ENV, kRgbScale, rgb_scale);
  TexEnvfv(GL_TEXTURE_ENV, kAlphaScale, alpha_scale);
}

// Cells of 16x16 pixels over 4x4 texels: every pixel centre lies inside a texel, never on an edge where
// nearest filtering may round either way.
void Cell(int i) {
  const float x = float(i % 4) * 16, y = 8 + float(i / 4) * 16;
  Begin(GL_QUADS);
  Color4f(0.9f, 0.3f, 0.1f, 0.9f);
  MultiTexCoord2f(GL_TEXTURE0, 0, 0), MultiTexCoord2f(GL_TEXTURE1, 1, 0), Vertex2f(x, y);
  MultiTexCoord2f(GL_TEXTURE0, 1, 0), MultiTexCoord2f(GL_TEXTURE1, 1, 1), Vertex2f(x + 16, y);
  Color4f(0.1f, 0.6f, 0.9f, 0.3f);
  MultiTexCoord2f(GL_TEXTURE0, 1, 1), MultiTexCoord2f(GL_TEXTURE1, 0, 1), Vertex2f(x + 16, y + 16);
  MultiTexCoord2f(GL_TEXTURE0, 0, 1), MultiTexCoord2f(GL_TEXTURE1, 0, 0), Vertex2f(x, y + 16);
  End();
}

// A grey background, blending on (each result's alpha shows in the picture too), pixel coordinates.
void BeginScene() {
  glClearColor(0.15f, 0.15f, 0.15f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  MatrixMode(GL_PROJECTION);
  LoadIdentity();
  Ortho(0, 64, 0, 64, -1, 1);
  MatrixMode(GL_MODELVIEW);
  LoadIdentity();
}

}  // namespace

// Rows: ALPHA, LUMINANCE, LUMINANCE_ALPHA, INTENSITY, RGB, RGBA textures (sized and unsized forms), each
// 8x4 pixels of 2x2 texels. Columns: REPLACE, MODULATE, DECAL (RGB and RGBA only: undefined for the others),
// BLEND, ADD.
void TexEnvFormats() {
  BeginScene();
  constexpr GLenum kLuminance = 0x1909, kLuminanceAlpha = 0x190A;
  const GLint internal[] = {
      GL_ALPHA, 0x8040 /* GL_LUMINANCE8 */, kLuminanceAlpha, 0x8049 /* GL_INTENSITY */, GL_RGB, GL_RGBA8};
  const GLenum client[] = {GL_ALPHA, kLuminance, kLuminanceAlpha, kLuminance, GL_RGB, GL_RGBA};
  const int components[] = {1, 1, 2, 1, 3, 4};
  const GLenum envs[] = {GL_REPLACE, GL_MODULATE, GL_DECAL, GL_BLEND, GL_ADD};
  const float env_color[4] = {0.3f, 0.8f, 0.2f, 0.7f};
  TexEnvfv(GL_TEXTURE_ENV, GL_TEXTURE_ENV_COLOR, env_color);
  glEnable(GL_TEXTURE_2D);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  for (int f = 0; f < 6; ++f) {
    uint8_t texels[4 * 4];
    for (int i = 0; i < 4 * components[f]; ++i) texels[i] = uint8_t(40 + (i * 67 + f * 29) % 200);
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, internal[f], 2, 2, 0, client[f], GL_UNSIGNED_BYTE, texels);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    for (int e = 0; e < 5; ++e) {
      if (envs[e] == GL_DECAL && f < 4) continue;
      TexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GLint(envs[e]));
      const float x = 2 + float(e) * 12, y = 2 + float(f) * 10;
      Begin(GL_QUADS);
      Color4f(0.9f, 0.4f, 0.6f, 0.8f);
      TexCoord2f(0, 0), Vertex2f(x, y);
      TexCoord2f(1, 0), Vertex2f(x + 8, y);
      TexCoord2f(1, 1), Vertex2f(x + 8, y + 8);
      TexCoord2f(0, 1), Vertex2f(x, y + 8);
      End();
    }
    glDeleteTextures(1, &tex);
  }
  glDisable(GL_TEXTURE_2D);
  glDisable(GL_BLEND);
  TexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE);
}

void TexEnvCombine() {
  BeginScene();
  glActiveTexture(GL_TEXTURE0);
  GLuint tex0 = Texture(1);
  glEnable(GL_TEXTURE_2D);
  const float env0[4] = {0.2f, 0.7f, 0.4f, 0.6f};
  TexEnvfv(GL_TEXTURE_ENV, GL_TEXTURE_ENV_COLOR, env0);

  constexpr GLenum T = GL_TEXTURE, C = kConstant, P = kPrimaryColor, V = kPrevious;
  constexpr GLenum SC = GL_SRC_COLOR, OSC = GL_ONE_MINUS_SRC_COLOR, SA = GL_SRC_ALPHA,
                   OSA = GL_ONE_MINUS_SRC_ALPHA;
  const Env one_unit[] = {
      {GL_REPLACE, GL_REPLACE, {T, V, C}, {SC, SC, SA}, {P, V, C}, {SA, SA, SA}, 1, 1},
      {GL_MODULATE, GL_MODULATE, {T, P, C}, {SC, OSC, SA}, {T, P, C}, {SA, OSA, SA}, 2, 1},
      {GL_ADD, GL_ADD, {T, C, P}, {SC, SA, SA}, {T, C, P}, {SA, SA, SA}, 1, 1},
      {kAddSigned, kAddSigned, {T, P, C}, {OSC, SC, SA}, {C, T, P}, {SA, OSA, SA}, 2, 2},
      {kInterpolate, kInterpolate, {T, C, P}, {SC, SC, SA}, {T, C, P}, {SA, SA, OSA}, 1, 1},
      {kSubtract, kSubtract, {T, P, C}, {SC, SA, SA}, {P, T, C}, {SA, SA, SA}, 4, 1},
      {kDot3Rgb, GL_MODULATE, {T, P, C}, {SC, SC, SA}, {T, P, C}, {SA, SA, SA}, 1, 1},
      {kDot3Rgba, GL_REPLACE, {T, C, C}, {SC, SC, SA}, {C, C, C}, {SA, SA, SA}, 2, 1},
      {GL_REPLACE, GL_MODULATE, {C, T, P}, {OSA, SC, SA}, {T, P, C}, {OSA, SA, SA}, 1, 4},
  };
  int cell = 0;
  for (const Env& e : one_unit) {
    SetEnv(e);
    Cell(cell++);
  }
  // Unit 1 combines its own texture with unit 0's (GL_TEXTURE0) and the previous result.
  glActiveTexture(GL_TEXTURE1);
  GLuint tex1 = Texture(2);
  glEnable(GL_TEXTURE_2D);
  const float env1[4] = {0.8f, 0.1f, 0.5f, 0.4f};
  TexEnvfv(GL_TEXTURE_ENV, GL_TEXTURE_ENV_COLOR, env1);
  const Env two_units[] = {
      {kInterpolate, GL_MODULATE, {T, GL_TEXTURE0, V}, {SC, SC, SA}, {T, V, C}, {SA, SA, SA}, 1, 1},
      {GL_ADD, kSubtract, {GL_TEXTURE0, V, C}, {OSC, SC, SA}, {GL_TEXTURE0, T, C}, {SA, SA, SA}, 1, 2},
      {GL_MODULATE, GL_REPLACE, {V, C, T}, {SC, SC, SA}, {GL_TEXTURE1, V, C}, {OSA, SA, SA}, 2, 1},
  };
  glActiveTexture(GL_TEXTURE0);
  TexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE);
  for (const Env& e : two_units) {
    glActiveTexture(GL_TEXTURE1);
    SetEnv(e);
    Cell(cell++);
  }
  glDisable(GL_TEXTURE_2D);
  glActiveTexture(GL_TEXTURE0);
  glDisable(GL_TEXTURE_2D);
  glDisable(GL_BLEND);
  glDeleteTextures(1, &tex0);
  glDeleteTextures(1, &tex1);
}
