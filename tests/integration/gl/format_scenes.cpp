// Scenes for texel formats beyond RGBA8: integer render targets (clears, int/uint outputs, blits, integer
// readback, integer sampling), sRGB sampling and encoding with GL_FRAMEBUFFER_SRGB on and off, float targets
// holding values outside [0, 1], depth textures uploaded from client memory and sampled with and without
// comparison, and the packed and 16-bit formats. Compared with Mesa llvmpipe like the other scenes; every
// value is chosen to be exact in each format so that no rounding tie can go two ways.
#include <cstring>

#include "gl_harness.h"
#include "scenes.h"

namespace scenes {
namespace {

GLuint Texture2D(GLenum internal, int w, int h, GLenum format, GLenum type, const void* data) {
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexImage2D(GL_TEXTURE_2D, 0, static_cast<GLint>(internal), w, h, 0, format, type, data);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  return tex;
}

GLuint FramebufferWith(const GLuint* textures, int count) {
  GLuint fbo;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  GLenum bufs[4];
  for (int i = 0; i < count; ++i) {
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + i, GL_TEXTURE_2D, textures[i], 0);
    bufs[i] = GL_COLOR_ATTACHMENT0 + i;
  }
  glDrawBuffers(count, bufs);
  return fbo;
}

// Writes one readback row band into g_pixels (rows y0..y0+rows of the 64x64 picture).
void PutRows(int y0, int rows, const std::vector<uint8_t>& rgba) {
  std::memcpy(g_pixels.data() + size_t(y0) * kWidth * 4, rgba.data(), size_t(rows) * kWidth * 4);
}

void IntegerTargets() {
  // Three integer attachments of different widths and signedness: cleared with glClearBufferuiv/iv, then
  // a triangle writes uvec4/ivec4 outputs from the fragment position. Attachment 0 is blitted (mirrored,
  // nearest) into a fourth integer texture. Rows 0..15: attachment 0 read as GL_RGBA_INTEGER; rows 16..31:
  // attachment 1 (signed) read as GL_RGBA_INTEGER/GL_INT; rows 32..63: usampler/isampler texelFetch of the
  // blit destination and attachment 2, drawn to the window.
  GLuint tex[4];
  tex[0] = Texture2D(GL_RGBA8UI, kWidth, kHeight, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, nullptr);
  tex[1] = Texture2D(GL_R32I, kWidth, kHeight, GL_RED_INTEGER, GL_INT, nullptr);
  tex[2] = Texture2D(GL_RG16UI, kWidth, kHeight, GL_RG_INTEGER, GL_UNSIGNED_SHORT, nullptr);
  tex[3] = Texture2D(GL_RGBA8UI, kWidth, kHeight, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, nullptr);
  GLuint fbo = FramebufferWith(tex, 3);
  const GLuint clear0[4] = {10, 20, 30, 40};
  const GLint clear1[4] = {-7000, 0, 0, 0};
  const GLuint clear2[4] = {1000, 65535, 0, 0};
  glClearBufferuiv(GL_COLOR, 0, clear0);
  glClearBufferiv(GL_COLOR, 1, clear1);
  glClearBufferuiv(GL_COLOR, 2, clear2);
  const char* fs = R"(#version 330 core
layout(location = 0) out uvec4 o0;
layout(location = 1) out ivec4 o1;
layout(location = 2) out uvec4 o2;
void main() {
  uint x = uint(gl_FragCoord.x), y = uint(gl_FragCoord.y);
  o0 = uvec4(x * 4u, y * 4u, 200u, 255u);
  o1 = ivec4(-int(x) * 1000 + int(y), 0, 0, 0);
  o2 = uvec4(x * 1000u, y + 60000u, 0u, 0u);
}
)";
  const char* tri_vs = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
void main() { gl_Position = vec4(a_pos.x, a_pos.y * 0.9, 0.0, 1.0); }
)";
  glUseProgram(harness::CompileProgram(tri_vs, fs));
  DrawFullWindowQuad();  // squeezed vertically: the cleared values stay visible at top and bottom
  GLuint blit_fbo = FramebufferWith(&tex[3], 1);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  glBlitFramebuffer(0, 0, kWidth, kHeight, kWidth, 0, 0, kHeight, GL_COLOR_BUFFER_BIT, GL_NEAREST);

  g_pixels.assign(size_t(kWidth) * kHeight * 4, 0);
  std::vector<uint32_t> ints(size_t(kWidth) * 16 * 4);
  std::vector<uint8_t> band(size_t(kWidth) * 16 * 4);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  glReadPixels(0, 0, kWidth, 16, GL_RGBA_INTEGER, GL_UNSIGNED_INT, ints.data());
  for (size_t i = 0; i < band.size(); ++i) band[i] = static_cast<uint8_t>(ints[i]);
  PutRows(0, 16, band);
  glReadBuffer(GL_COLOR_ATTACHMENT1);
  glReadPixels(0, 0, kWidth, 16, GL_RGBA_INTEGER, GL_INT, ints.data());
  for (size_t i = 0; i < band.size(); i += 4) {
    auto v = static_cast<int32_t>(ints[i]);
    band[i] = static_cast<uint8_t>(-v / 1000);       // x
    band[i + 1] = static_cast<uint8_t>(v + 100000);  // y and the sign carried through
    band[i + 2] = static_cast<uint8_t>(ints[i + 2]);
    band[i + 3] = static_cast<uint8_t>(ints[i + 3] * 255);  // alpha of a red-only format reads 1
  }
  PutRows(16, 16, band);

  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, kWidth, kHeight);
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  const char* show_fs = R"(#version 330 core
in vec2 v_uv;
uniform usampler2D u_blit;
uniform usampler2D u_rg16;
uniform isampler2D u_r32i;
out vec4 frag;
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  uvec4 b = texelFetch(u_blit, p, 0);
  uvec4 c = texelFetch(u_rg16, p, 0);
  ivec4 d = texelFetch(u_r32i, p, 0);
  if (p.x < 32) frag = vec4(b) / 255.0;
  else frag = vec4(float(c.r % 256u) / 255.0, float(c.g % 256u) / 255.0, float(-d.r / 1000) / 63.0, float(c.a));
}
)";
  GLuint show = harness::CompileProgram(kQuadVS, show_fs);
  glUseProgram(show);
  for (int i = 0; i < 3; ++i) {
    glActiveTexture(GL_TEXTURE0 + i);
    glBindTexture(GL_TEXTURE_2D, tex[i == 0 ? 3 : i == 1 ? 2 : 1]);
  }
  glActiveTexture(GL_TEXTURE0);
  glUniform1i(glGetUniformLocation(show, "u_blit"), 0);
  glUniform1i(glGetUniformLocation(show, "u_rg16"), 1);
  glUniform1i(glGetUniformLocation(show, "u_r32i"), 2);
  DrawFullWindowQuad();
  std::vector<uint8_t> window = harness::ReadRGBA(kWidth, kHeight);
  std::memcpy(g_pixels.data() + size_t(32) * kWidth * 4, window.data() + size_t(32) * kWidth * 4,
              size_t(32) * kWidth * 4);
  glDeleteFramebuffers(1, &fbo);
  glDeleteFramebuffers(1, &blit_fbo);
}

void Srgb() {
  // Left half: an sRGB8_ALPHA8 and an SRGB8 texture of known bytes sampled (decoded to linear) to the window.
  // Right half: an sRGB render target cleared and drawn with GL_FRAMEBUFFER_SRGB enabled (encoded) and
  // disabled (stored as given), read back raw with glReadPixels.
  uint8_t texels[4 * 4 * 4];
  for (int i = 0; i < 16; ++i) {
    texels[i * 4 + 0] = static_cast<uint8_t>(i * 17);
    texels[i * 4 + 1] = static_cast<uint8_t>(255 - i * 17);
    texels[i * 4 + 2] = static_cast<uint8_t>((i * 53) & 255);
    texels[i * 4 + 3] = static_cast<uint8_t>(128 + i);
  }
  GLuint srgba = Texture2D(GL_SRGB8_ALPHA8, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  glActiveTexture(GL_TEXTURE1);
  Texture2D(GL_SRGB8, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, srgba);
  const char* sample_fs = R"(#version 330 core
in vec2 v_uv;
uniform sampler2D u_srgba;
uniform sampler2D u_srgb;
out vec4 frag;
void main() {
  vec2 uv = vec2(v_uv.x * 2.0, v_uv.y);
  frag = v_uv.y < 0.5 ? texture(u_srgba, vec2(uv.x, uv.y * 2.0)) : texture(u_srgb, vec2(uv.x, uv.y * 2.0 - 1.0));
}
)";
  GLuint sample = harness::CompileProgram(kQuadVS, sample_fs);
  glUseProgram(sample);
  glUniform1i(glGetUniformLocation(sample, "u_srgba"), 0);
  glUniform1i(glGetUniformLocation(sample, "u_srgb"), 1);
  glViewport(0, 0, kWidth / 2, kHeight);
  DrawFullWindowQuad();
  glViewport(0, 0, kWidth, kHeight);
  g_pixels = harness::ReadRGBA(kWidth, kHeight);

  GLuint target = Texture2D(GL_SRGB8_ALPHA8, kWidth, kHeight, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  GLuint fbo = FramebufferWith(&target, 1);
  const char* color_fs = R"(#version 330 core
uniform vec4 u_color;
out vec4 frag;
void main() { frag = u_color; }
)";
  GLuint color = harness::CompileProgram(kQuadVS, color_fs);
  glUseProgram(color);
  GLint u_color = glGetUniformLocation(color, "u_color");
  glEnable(GL_SCISSOR_TEST);
  struct Band {
    bool encode;
    bool clear;
    float value[4];
  } bands[] = {{true, true, {0.5f, 0.25f, 0.75f, 0.5f}},
               {false, true, {0.5f, 0.25f, 0.75f, 0.5f}},
               {true, false, {0.2f, 0.9f, 0.05f, 1.0f}},
               {false, false, {0.2f, 0.9f, 0.05f, 1.0f}}};
  for (int i = 0; i < 4; ++i) {
    bands[i].encode ? glEnable(GL_FRAMEBUFFER_SRGB) : glDisable(GL_FRAMEBUFFER_SRGB);
    glScissor(0, i * 16, kWidth, 16);
    if (bands[i].clear) {
      glClearColor(bands[i].value[0], bands[i].value[1], bands[i].value[2], bands[i].value[3]);
      glClear(GL_COLOR_BUFFER_BIT);
    } else {
      glUniform4fv(u_color, 1, bands[i].value);
      DrawFullWindowQuad();
    }
  }
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_FRAMEBUFFER_SRGB);
  std::vector<uint8_t> raw(size_t(kWidth) * kHeight * 4);
  glReadPixels(0, 0, kWidth, kHeight, GL_RGBA, GL_UNSIGNED_BYTE, raw.data());
  for (int y = 0; y < kHeight; ++y)
    std::memcpy(&g_pixels[(size_t(y) * kWidth + kWidth / 2) * 4], &raw[(size_t(y) * kWidth + kWidth / 2) * 4],
                size_t(kWidth / 2) * 4);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
}

void FloatTargets() {
  // Four float attachments (RGBA16F, R32F, R11F_G11F_B10F, RG16F) cleared and drawn with values outside
  // [0, 1], all multiples of 1/8 (exact in every format), read back as GL_FLOAT and mapped to bytes with
  // v * 16 + 128; one row band per attachment. An RGBA32F and an RGB16F texture uploaded from floats beyond
  // 1 are sampled into the right half.
  GLuint tex[4];
  tex[0] = Texture2D(GL_RGBA16F, kWidth, kHeight, GL_RGBA, GL_FLOAT, nullptr);
  tex[1] = Texture2D(GL_R32F, kWidth, kHeight, GL_RED, GL_FLOAT, nullptr);
  tex[2] = Texture2D(GL_R11F_G11F_B10F, kWidth, kHeight, GL_RGB, GL_FLOAT, nullptr);
  tex[3] = Texture2D(GL_RG16F, kWidth, kHeight, GL_RG, GL_FLOAT, nullptr);
  GLuint fbo = FramebufferWith(tex, 4);
  const GLfloat clear[4][4] = {
      {3.5f, -1.0f, 0.5f, 6.0f}, {-4.25f, 0, 0, 0}, {7.0f, 2.5f, 0.125f, 0}, {-3.0f, 5.0f, 0, 0}};
  for (int i = 0; i < 4; ++i) glClearBufferfv(GL_COLOR, i, clear[i]);
  const char* fs = R"(#version 330 core
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;
void main() {
  vec2 p = floor(gl_FragCoord.xy) / 8.0;
  o0 = vec4(p.x - 2.0, 4.0 - p.y, p.x * 0.5, -1.5);
  o1 = vec4(-p.x, 0.0, 0.0, 0.0);
  o2 = vec4(p.x, p.y, 1.5, 0.0);
  o3 = vec4(p.y - 3.0, p.x + 1.0, 0.0, 0.0);
}
)";
  const char* tri_vs = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
void main() { gl_Position = vec4(a_pos.x * 0.75, a_pos.y, 0.0, 1.0); }
)";
  glUseProgram(harness::CompileProgram(tri_vs, fs));
  DrawFullWindowQuad();
  g_pixels.assign(size_t(kWidth) * kHeight * 4, 0);
  std::vector<float> floats(size_t(kWidth) * 16 * 4);
  std::vector<uint8_t> band(size_t(kWidth) * 16 * 4);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
  for (int i = 0; i < 4; ++i) {
    glReadBuffer(GL_COLOR_ATTACHMENT0 + i);
    glReadPixels(0, i * 16, kWidth, 16, GL_RGBA, GL_FLOAT, floats.data());
    for (size_t k = 0; k < band.size(); ++k) {
      float v = floats[k] * 16.0f + 128.0f;
      band[k] = static_cast<uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v);
    }
    PutRows(i * 16, 16, band);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);

  // Textures uploaded from floats beyond [0, 1] keep them (RGB16F's alpha reads 1).
  std::vector<float> texels(4 * 4 * 4);
  for (int i = 0; i < 16; ++i)
    for (int c = 0; c < 4; ++c) texels[i * 4 + c] = float((i + c * 5) % 16) * 0.5f - 2.0f;
  GLuint f32 = Texture2D(GL_RGBA32F, 4, 4, GL_RGBA, GL_FLOAT, texels.data());
  glActiveTexture(GL_TEXTURE1);
  Texture2D(GL_RGB16F, 4, 4, GL_RGBA, GL_FLOAT, texels.data());
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, f32);
  const char* show_fs = R"(#version 330 core
in vec2 v_uv;
uniform sampler2D u_f32;
uniform sampler2D u_f16;
out vec4 frag;
void main() {
  vec4 v = v_uv.y < 0.5 ? texture(u_f32, vec2(v_uv.x, v_uv.y * 2.0)) : texture(u_f16, vec2(v_uv.x, v_uv.y * 2.0 - 1.0));
  frag = v / 8.0 + 0.5;
}
)";
  GLuint show = harness::CompileProgram(kQuadVS, show_fs);
  glUseProgram(show);
  glUniform1i(glGetUniformLocation(show, "u_f32"), 0);
  glUniform1i(glGetUniformLocation(show, "u_f16"), 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glViewport(kWidth / 2, 0, kWidth / 2, kHeight);
  DrawFullWindowQuad();
  glViewport(0, 0, kWidth, kHeight);
  std::vector<uint8_t> window = harness::ReadRGBA(kWidth, kHeight);
  for (int y = 0; y < kHeight; ++y)
    std::memcpy(&g_pixels[(size_t(y) * kWidth + kWidth / 2) * 4],
                &window[(size_t(y) * kWidth + kWidth / 2) * 4], size_t(kWidth / 2) * 4);
}

void DepthTextures() {
  // Five depth textures uploaded from client memory (32F from floats, 16 from shorts, 24 from ints,
  // DEPTH24_STENCIL8 from 24_8 words, DEPTH32F_STENCIL8 from float + stencil pairs), each an 8x8 ramp
  // d = (x + 8y + 0.5) / 64. Column c shows texture c: its left half the depth (sampler object without
  // comparison), its right half sampler2DShadow with GL_LEQUAL against the row's reference (bands 0/1).
  float ramp[64];
  for (int i = 0; i < 64; ++i) ramp[i] = (float(i) + 0.5f) / 64.0f;
  uint16_t d16[64];
  uint32_t d24[64], d24s8[64];
  float d32fs8[128];
  for (int i = 0; i < 64; ++i) {
    d16[i] = static_cast<uint16_t>(ramp[i] * 65535.0f + 0.5f);
    d24[i] = static_cast<uint32_t>(double(ramp[i]) * 4294967295.0);
    d24s8[i] = static_cast<uint32_t>(double(ramp[i]) * 16777215.0 + 0.5) << 8 | 0x5A;
    d32fs8[i * 2] = ramp[i];
    uint32_t stencil = 0x33;
    std::memcpy(&d32fs8[i * 2 + 1], &stencil, 4);
  }
  GLuint tex[5];
  tex[0] = Texture2D(GL_DEPTH_COMPONENT32F, 8, 8, GL_DEPTH_COMPONENT, GL_FLOAT, ramp);
  tex[1] = Texture2D(GL_DEPTH_COMPONENT16, 8, 8, GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT, d16);
  tex[2] = Texture2D(GL_DEPTH_COMPONENT24, 8, 8, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, d24);
  tex[3] = Texture2D(GL_DEPTH24_STENCIL8, 8, 8, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, d24s8);
  tex[4] = Texture2D(GL_DEPTH32F_STENCIL8, 8, 8, GL_DEPTH_STENCIL, GL_FLOAT_32_UNSIGNED_INT_24_8_REV, d32fs8);
  GLuint samplers[2];
  glGenSamplers(2, samplers);
  for (GLuint s : samplers) {
    glSamplerParameteri(s, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glSamplerParameteri(s, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glSamplerParameteri(s, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glSamplerParameteri(s, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  }
  glSamplerParameteri(samplers[1], GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
  glSamplerParameteri(samplers[1], GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
  const char* fs = R"(#version 330 core
in vec2 v_uv;
uniform sampler2D u_depth;
uniform sampler2DShadow u_shadow;
uniform float u_ref_shift;
out vec4 frag;
void main() {
  // Texel column k of the half-column's 6 pixels (texel centres: no nearest-filter ties); compare against
  // a reference between two ramp values.
  vec2 uv = vec2((mod(floor(gl_FragCoord.x), 6.0) + 0.5) / 8.0, v_uv.y);
  float ref = (floor(gl_FragCoord.y) + 0.5) / 64.0 + u_ref_shift;
  frag = v_uv.x < 0.5 ? vec4(texture(u_depth, uv).r, 0.0, 0.0, 1.0)
                      : vec4(0.0, texture(u_shadow, vec3(uv, ref)), 0.0, 1.0);
}
)";
  GLuint prog = harness::CompileProgram(kQuadVS, fs);
  glUseProgram(prog);
  glUniform1i(glGetUniformLocation(prog, "u_depth"), 0);
  glUniform1i(glGetUniformLocation(prog, "u_shadow"), 1);
  glUniform1f(glGetUniformLocation(prog, "u_ref_shift"), 1.0f / 128.0f);
  glClearColor(0, 0, 0.5f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glBindSampler(0, samplers[0]);
  glBindSampler(1, samplers[1]);
  for (int c = 0; c < 5; ++c) {
    for (int unit = 0; unit < 2; ++unit) {
      glActiveTexture(GL_TEXTURE0 + unit);
      glBindTexture(GL_TEXTURE_2D, tex[c]);
    }
    glViewport(c * 12, 0, 12, kHeight);
    DrawFullWindowQuad();
  }
  glActiveTexture(GL_TEXTURE0);
  glBindSampler(0, 0);
  glBindSampler(1, 0);
  glViewport(0, 0, kWidth, kHeight);
}

void PackedFormats() {
  // Eight small textures of the remaining formats, each uploaded through its natural client type and
  // sampled nearest into a 4x2 grid: RGB10_A2, RGBA4, RGB5_A1, RG8, R8, R16, RGB9_E5, RGBA16.
  uint32_t rgb10a2[16];
  uint16_t rgba4[16], rgb5a1[16], r16[16], rgba16[64];
  uint8_t rg8[32], r8[16];
  float rgb9e5[48];
  for (int i = 0; i < 16; ++i) {
    rgb10a2[i] =
        uint32_t(i * 64) | uint32_t(1023 - i * 60) << 10 | uint32_t(i * 31) << 20 | uint32_t(i % 4) << 30;
    rgba4[i] = static_cast<uint16_t>(i << 12 | (15 - i) << 8 | (i * 3 % 16) << 4 | 15);
    rgb5a1[i] = static_cast<uint16_t>((i * 2) << 11 | (31 - i * 2) << 6 | (i * 7 % 32) << 1 | (i & 1));
    rg8[i * 2] = static_cast<uint8_t>(i * 16), rg8[i * 2 + 1] = static_cast<uint8_t>(255 - i * 16);
    r8[i] = static_cast<uint8_t>(i * 17);
    r16[i] = static_cast<uint16_t>(i * 4369);
    for (int c = 0; c < 4; ++c) rgba16[i * 4 + c] = static_cast<uint16_t>(((i + c * 4) % 16) * 4369);
    for (int c = 0; c < 3; ++c) rgb9e5[i * 3 + c] = float((i + c * 3) % 16) * 0.0625f;
  }
  GLuint tex[8];
  tex[0] = Texture2D(GL_RGB10_A2, 4, 4, GL_RGBA, GL_UNSIGNED_INT_2_10_10_10_REV, rgb10a2);
  tex[1] = Texture2D(GL_RGBA4, 4, 4, GL_RGBA, GL_UNSIGNED_SHORT_4_4_4_4, rgba4);
  tex[2] = Texture2D(GL_RGB5_A1, 4, 4, GL_RGBA, GL_UNSIGNED_SHORT_5_5_5_1, rgb5a1);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  tex[3] = Texture2D(GL_RG8, 4, 4, GL_RG, GL_UNSIGNED_BYTE, rg8);
  tex[4] = Texture2D(GL_R8, 4, 4, GL_RED, GL_UNSIGNED_BYTE, r8);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  tex[5] = Texture2D(GL_R16, 4, 4, GL_RED, GL_UNSIGNED_SHORT, r16);
  tex[6] = Texture2D(GL_RGB9_E5, 4, 4, GL_RGB, GL_FLOAT, rgb9e5);
  tex[7] = Texture2D(GL_RGBA16, 4, 4, GL_RGBA, GL_UNSIGNED_SHORT, rgba16);
  const char* fs = R"(#version 330 core
in vec2 v_uv;
uniform sampler2D u_tex;
out vec4 frag;
void main() { frag = texture(u_tex, v_uv); }
)";
  glUseProgram(harness::CompileProgram(kQuadVS, fs));
  for (int i = 0; i < 8; ++i) {
    glBindTexture(GL_TEXTURE_2D, tex[i]);
    glViewport((i % 4) * 16, (i / 4) * 32, 16, 32);
    DrawFullWindowQuad();
  }
  glViewport(0, 0, kWidth, kHeight);
}

}  // namespace

const std::vector<Scene>& FormatScenes() {
  static const std::vector<Scene> scenes = {
      {"integer_targets", IntegerTargets, true}, {"srgb", Srgb, true},
      {"float_targets", FloatTargets, true},     {"depth_textures", DepthTextures, false},
      {"packed_formats", PackedFormats, false},
  };
  return scenes;
}

}  // namespace scenes
