// Sampler and format extensions, by pixels and GL errors, in GL 3.3 core and ES 3.0 contexts:
//  - GL_EXT/ARB_texture_filter_anisotropic: the limit, the parameter on textures and samplers, its errors,
//    and a surface minified 64x in one direction and 4x in the other whose stripes survive only with
//    anisotropic filtering;
//  - GL_EXT_texture_sRGB_decode: an sRGB texel of 0x80 reads ~0.216 decoded and 0.502 with
//    GL_SKIP_DECODE_EXT (texture and sampler-object state, texelFetch, non-sRGB formats unaffected);
//  - GL_EXT_texture_norm16 (ES): 16-bit normalised uploads, sampling, rendering and readback exact to 16
//  bits,
//    SNORM sampling, RGB16 textures, and the formats that are not colour-renderable.
// Runs against Caldera (both backends) and Mesa llvmpipe (meson.build). `--expect-no-anisotropy` (with
// CALDERA_ANISOTROPY=0): the anisotropy extensions must be absent and their names GL_INVALID_ENUM.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gl_harness.h"

#ifndef GL_R16_EXT
#define GL_R16_EXT 0x822A
#define GL_RG16_EXT 0x822C
#define GL_RGBA16_EXT 0x805B
#define GL_RGB16_EXT 0x8054
#endif

namespace {

bool g_es = false;

void Clean() {
  while (glGetError() != GL_NO_ERROR) {
  }
}

bool HasExtension(const char* name) {
  GLint n = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &n);
  for (GLint i = 0; i < n; ++i)
    if (std::strcmp(reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i))), name) == 0)
      return true;
  return false;
}

// A program drawing a full-target quad (two triangles from attribute 0) that samples `tex` at `uv`, the
// position mapped to [0,1] and scaled by u_scale; `body` computes `o` (the fragment colour).
GLuint QuadProgram(const char* body) {
  std::string header =
      g_es ? "#version 300 es\nprecision highp float;\nprecision highp int;\n" : "#version 330 core\n";
  std::string vs = header +
                   "layout(location = 0) in vec2 pos;\nuniform vec2 u_scale;\nout vec2 uv;\n"
                   "void main() { uv = (pos * 0.5 + 0.5) * u_scale; gl_Position = vec4(pos, 0.0, 1.0); }\n";
  std::string fs = header + "in vec2 uv;\nuniform sampler2D tex;\nuniform float u_value;\nout vec4 o;\n" +
                   "void main() {\n" + body + "\n}\n";
  return harness::CompileProgram(vs.c_str(), fs.c_str());
}

const float kQuad[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};

void DrawQuad(GLuint program, float su, float sv) {
  glUseProgram(program);
  glUniform2f(glGetUniformLocation(program, "u_scale"), su, sv);
  glUniform1i(glGetUniformLocation(program, "tex"), 0);
  glDrawArrays(GL_TRIANGLES, 0, 6);
}

// A framebuffer with one colour texture of `internal_format` (bound; the texture name through *tex).
GLuint TextureTarget(GLenum internal_format, GLenum format, GLenum type, int w, int h, GLuint* tex) {
  glGenTextures(1, tex);
  glBindTexture(GL_TEXTURE_2D, *tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GLint(internal_format), w, h, 0, format, type, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  GLuint fbo;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, *tex, 0);
  glViewport(0, 0, w, h);
  return fbo;
}

// ---- GL_EXT/ARB_texture_filter_anisotropic ----

// Vertical stripes 8 texels wide (period 16) on a 256x256 texture with a full mipmap chain.
GLuint StripeTexture() {
  std::vector<uint8_t> texels(256 * 256 * 4);
  for (int y = 0; y < 256; ++y)
    for (int x = 0; x < 256; ++x) {
      uint8_t v = (x / 8) % 2 ? 255 : 0;
      uint8_t* p = &texels[size_t(y * 256 + x) * 4];
      p[0] = p[1] = p[2] = v, p[3] = 255;
    }
  GLuint t;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 256, 256, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
  glGenerateMipmap(GL_TEXTURE_2D);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  return t;
}

// The contrast (brightest minus darkest red) along the middle row of a 64x64 draw in which the texture is
// minified 4x along x and 64x along y: isotropic filtering picks the level of the larger footprint (4x4
// texels: the stripes average to grey), anisotropic filtering one where they are still 4 pixels wide.
int StripeContrast(GLuint program, GLuint sampler, float anisotropy) {
  if (sampler)
    glSamplerParameterf(sampler, GL_TEXTURE_MAX_ANISOTROPY, anisotropy);
  else
    glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_MAX_ANISOTROPY, anisotropy);
  glClearColor(1, 0, 1, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  DrawQuad(program, 1.0f, 16.0f);
  std::vector<uint8_t> rgba = harness::ReadRGBA(64, 64);
  int lo = 255, hi = 0;
  for (int x = 0; x < 64; ++x) {
    int r = rgba[size_t(32 * 64 + x) * 4];
    lo = std::min(lo, r), hi = std::max(hi, r);
  }
  return hi - lo;
}

void Anisotropy(bool caldera, bool expect_none) {
  Clean();
  bool ext = HasExtension("GL_EXT_texture_filter_anisotropic");
  bool arb = !g_es && HasExtension("GL_ARB_texture_filter_anisotropic");
  std::printf("%s: GL_EXT_texture_filter_anisotropic %d, GL_ARB_texture_filter_anisotropic %d\n",
              g_es ? "ES" : "GL", ext, arb);
  GLuint t = StripeTexture();
  if (expect_none) {
    // The negative control: no extension, and every use of its names is an unknown enum.
    CHECK(!ext && !arb);
    GLfloat f = 0;
    glGetFloatv(GL_MAX_TEXTURE_MAX_ANISOTROPY, &f);
    CHECK_GL_ERROR(GL_INVALID_ENUM);
    glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_MAX_ANISOTROPY, 4.0f);
    CHECK_GL_ERROR(GL_INVALID_ENUM);
    glGetTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_MAX_ANISOTROPY, &f);
    CHECK_GL_ERROR(GL_INVALID_ENUM);
    GLuint s;
    glGenSamplers(1, &s);
    glSamplerParameteri(s, GL_TEXTURE_MAX_ANISOTROPY, 2);
    CHECK_GL_ERROR(GL_INVALID_ENUM);
    glDeleteSamplers(1, &s);
    glDeleteTextures(1, &t);
    return;
  }
  // Caldera on lavapipe and on llvmpipe's GLES has anisotropic filtering: it must be advertised there.
  if (caldera) CHECK(ext && (g_es || arb));
  if (!ext) {
    std::printf("  not advertised: skipped\n");
    glDeleteTextures(1, &t);
    return;
  }
  GLfloat limit = 0;
  glGetFloatv(GL_MAX_TEXTURE_MAX_ANISOTROPY, &limit);
  CHECK_GL_ERROR(GL_NO_ERROR);
  std::printf("  GL_MAX_TEXTURE_MAX_ANISOTROPY %g\n", double(limit));
  CHECK(limit >= 2.0f);  // the extension's minimum
  GLint ilimit = 0;
  glGetIntegerv(GL_MAX_TEXTURE_MAX_ANISOTROPY, &ilimit);
  CHECK(ilimit == GLint(std::lround(limit)));
  // The parameter: 1 by default, set and read in every form, below 1 refused.
  GLfloat f = 0;
  glGetTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_MAX_ANISOTROPY, &f);
  CHECK(f == 1.0f);
  glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_MAX_ANISOTROPY, 2.0f);
  GLint i = 0;
  glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_MAX_ANISOTROPY, &i);
  CHECK(i == 2);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_ANISOTROPY, 0);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_MAX_ANISOTROPY, 0.5f);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glGetTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_MAX_ANISOTROPY, &f);
  CHECK(f == 2.0f);  // unchanged by the refused calls
  GLuint s;
  glGenSamplers(1, &s);
  glGetSamplerParameterfv(s, GL_TEXTURE_MAX_ANISOTROPY, &f);
  CHECK(f == 1.0f);
  const GLfloat three = 3.0f;
  glSamplerParameterfv(s, GL_TEXTURE_MAX_ANISOTROPY, &three);
  glGetSamplerParameterfv(s, GL_TEXTURE_MAX_ANISOTROPY, &f);
  CHECK(f == 3.0f);
  glSamplerParameterf(s, GL_TEXTURE_MAX_ANISOTROPY, 0.0f);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  CHECK_GL_ERROR(GL_NO_ERROR);
  if (!g_es) {
    // Multisample textures take no sampler state, this parameter included.
    GLuint ms;
    glGenTextures(1, &ms);
    glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, ms);
    glTexParameterf(GL_TEXTURE_2D_MULTISAMPLE, GL_TEXTURE_MAX_ANISOTROPY, 2.0f);
    CHECK_GL_ERROR(GL_INVALID_ENUM);
    glDeleteTextures(1, &ms);
    glBindTexture(GL_TEXTURE_2D, t);
  }

  // Pixels: stripes kept with anisotropy 16, averaged away with 1, through the texture's own state and
  // through a sampler object.
  GLuint rt;
  GLuint fbo = TextureTarget(GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 64, 64, &rt);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glBindTexture(GL_TEXTURE_2D, t);
  GLuint program = QuadProgram("o = texture(tex, uv);");
  GLuint vao;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  GLuint vbo;
  glGenBuffers(1, &vbo);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glBufferData(GL_ARRAY_BUFFER, sizeof(kQuad), kQuad, GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  int iso = StripeContrast(program, 0, 1.0f);
  int aniso = StripeContrast(program, 0, 16.0f);
  int iso_again = StripeContrast(program, 0, 1.0f);
  std::printf("  stripe contrast: anisotropy 1 -> %d, 16 -> %d, 1 again -> %d\n", iso, aniso, iso_again);
  CHECK(iso < 40);
  CHECK(aniso > 100);
  CHECK(iso_again == iso);
  glBindSampler(0, s);
  glSamplerParameteri(s, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  int sampler_iso = StripeContrast(program, s, 1.0f);
  int sampler_aniso = StripeContrast(program, s, 16.0f);
  std::printf("  through a sampler object: 1 -> %d, 16 -> %d\n", sampler_iso, sampler_aniso);
  CHECK(sampler_iso < 40);
  CHECK(sampler_aniso > 100);
  // A value above the limit filters like the limit itself (clamped, not refused).
  glSamplerParameterf(s, GL_TEXTURE_MAX_ANISOTROPY, limit * 4.0f);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glClear(GL_COLOR_BUFFER_BIT);
  DrawQuad(program, 1.0f, 16.0f);
  std::vector<uint8_t> above = harness::ReadRGBA(64, 64);
  glSamplerParameterf(s, GL_TEXTURE_MAX_ANISOTROPY, limit);
  glClear(GL_COLOR_BUFFER_BIT);
  DrawQuad(program, 1.0f, 16.0f);
  CHECK(harness::ReadRGBA(64, 64) == above);
  glBindSampler(0, 0);
  glDeleteSamplers(1, &s);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  GLuint textures[2] = {t, rt};
  glDeleteTextures(2, textures);
  glDeleteProgram(program);
  glDeleteBuffers(1, &vbo);
  glDeleteVertexArrays(1, &vao);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// ---- GL_EXT_texture_sRGB_decode ----

// Draws a 4x4 target sampling `tex` (1x1) through `body`; returns the red byte read back.
int SampleRed(GLuint program) {
  glClearColor(0, 0, 1, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  DrawQuad(program, 1.0f, 1.0f);
  uint8_t px[4] = {};
  glReadPixels(1, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  return px[0];
}

void SrgbDecode(bool caldera) {
  Clean();
  bool ext = HasExtension("GL_EXT_texture_sRGB_decode");
  std::printf("%s: GL_EXT_texture_sRGB_decode %d\n", g_es ? "ES" : "GL", ext);
  if (caldera) CHECK(ext);
  if (!ext) return;
  const uint8_t encoded[4] = {0x80, 0x80, 0x80, 0xFF};
  GLuint srgb, plain;
  glGenTextures(1, &srgb);
  glBindTexture(GL_TEXTURE_2D, srgb);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_SRGB8_ALPHA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, encoded);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  // The parameter: GL_DECODE_EXT by default; other values refused.
  GLint v = 0;
  glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_SRGB_DECODE_EXT, &v);
  CHECK(v == GL_DECODE_EXT);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SRGB_DECODE_EXT, GL_RGBA);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_SRGB_DECODE_EXT, 0.0f);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_SRGB_DECODE_EXT, &v);
  CHECK(v == GL_DECODE_EXT);
  if (!g_es) {
    GLuint ms;
    glGenTextures(1, &ms);
    glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, ms);
    glTexParameteri(GL_TEXTURE_2D_MULTISAMPLE, GL_TEXTURE_SRGB_DECODE_EXT, GL_SKIP_DECODE_EXT);
    CHECK_GL_ERROR(GL_INVALID_ENUM);
    glDeleteTextures(1, &ms);
    glBindTexture(GL_TEXTURE_2D, srgb);
  }
  GLuint rt;
  GLuint fbo = TextureTarget(GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 4, 4, &rt);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glBindTexture(GL_TEXTURE_2D, srgb);
  GLuint vao, vbo;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glGenBuffers(1, &vbo);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glBufferData(GL_ARRAY_BUFFER, sizeof(kQuad), kQuad, GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  GLuint sample = QuadProgram("o = texture(tex, vec2(0.5));");
  GLuint fetch = QuadProgram("o = texelFetch(tex, ivec2(0), 0);");
  // 0x80 decodes to 0.2158 (55 of 255); skipped, it reads 128/255.
  int decoded = SampleRed(sample);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SRGB_DECODE_EXT, GL_SKIP_DECODE_EXT);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_SRGB_DECODE_EXT, &v);
  CHECK(v == GL_SKIP_DECODE_EXT);
  int skipped = SampleRed(sample);
  int fetched_skipped = SampleRed(fetch);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SRGB_DECODE_EXT, GL_DECODE_EXT);
  int decoded_again = SampleRed(sample);
  int fetched_decoded = SampleRed(fetch);
  std::printf("  sRGB 0x80: decoded %d, skipped %d, texelFetch skipped %d / decoded %d, decoded again %d\n",
              decoded, skipped, fetched_skipped, fetched_decoded, decoded_again);
  CHECK(std::abs(decoded - 55) <= 1);
  CHECK(skipped == 128);
  // texelFetch takes no sampler state, and the extension left its decoding open until late revisions: Mesa
  // llvmpipe (and so the GLES backend on it) decodes, Caldera on Vulkan follows the texture's parameter.
  CHECK(fetched_skipped == 128 || std::abs(fetched_skipped - 55) <= 1);
  CHECK(std::abs(fetched_decoded - 55) <= 1);
  CHECK(decoded_again == decoded);
  // A sampler object's state replaces the texture's: skip through the sampler, decode once it is unbound.
  GLuint s;
  glGenSamplers(1, &s);
  glSamplerParameteri(s, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glGetSamplerParameteriv(s, GL_TEXTURE_SRGB_DECODE_EXT, &v);
  CHECK(v == GL_DECODE_EXT);
  glSamplerParameteri(s, GL_TEXTURE_SRGB_DECODE_EXT, GL_SKIP_DECODE_EXT);
  glSamplerParameteri(s, GL_TEXTURE_SRGB_DECODE_EXT, GL_NEAREST);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glGetSamplerParameteriv(s, GL_TEXTURE_SRGB_DECODE_EXT, &v);
  CHECK(v == GL_SKIP_DECODE_EXT);
  glBindSampler(0, s);
  int sampler_skipped = SampleRed(sample);
  glBindSampler(0, 0);
  int unbound = SampleRed(sample);
  std::printf("  sampler object: skipped %d, unbound %d\n", sampler_skipped, unbound);
  CHECK(sampler_skipped == 128);
  CHECK(std::abs(unbound - 55) <= 1);
  // Formats that are not sRGB read the same either way.
  glGenTextures(1, &plain);
  glBindTexture(GL_TEXTURE_2D, plain);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, encoded);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SRGB_DECODE_EXT, GL_SKIP_DECODE_EXT);
  int plain_skipped = SampleRed(sample);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SRGB_DECODE_EXT, GL_DECODE_EXT);
  int plain_decoded = SampleRed(sample);
  CHECK(plain_skipped == 128 && plain_decoded == 128);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  GLuint textures[3] = {srgb, plain, rt};
  glDeleteTextures(3, textures);
  glDeleteSamplers(1, &s);
  glDeleteProgram(sample);
  glDeleteProgram(fetch);
  glDeleteBuffers(1, &vbo);
  glDeleteVertexArrays(1, &vao);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// ---- GL_EXT_texture_norm16 (ES) ----

void Norm16(bool caldera) {
  // Mesa llvmpipe samples 16-bit formats with less than 16 bits of precision (errors up to 5e-4 here).
  const double tolerance = caldera ? 1e-6 : 1e-3;
  // GL_EXT_render_snorm (Mesa has it, Caldera does not) makes the SNORM formats colour-renderable.
  const bool render_snorm = HasExtension("GL_EXT_render_snorm");
  Clean();
  bool ext = HasExtension("GL_EXT_texture_norm16");
  std::printf("ES: GL_EXT_texture_norm16 %d\n", ext);
  if (caldera) CHECK(ext);
  if (!ext) return;
  GLuint vao, vbo;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glGenBuffers(1, &vbo);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glBufferData(GL_ARRAY_BUFFER, sizeof(kQuad), kQuad, GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);

  // Upload and readback: an R16 / RG16 / RGBA16 texture attached and read as GL_RGBA / GL_UNSIGNED_SHORT
  // gives the uploaded words back (missing components 0, alpha 65535).
  struct Renderable {
    GLenum internal_format, format;
    int components;
  } renderable[] = {{GL_R16_EXT, GL_RED, 1}, {GL_RG16_EXT, GL_RG, 2}, {GL_RGBA16_EXT, GL_RGBA, 4}};
  const uint16_t words[16] = {0x0001, 0x1234, 0xFEDC, 0xFFFF, 0x8000, 0x7FFF, 0x0000, 0xABCD,
                              0x5555, 0xAAAA, 0x0F0F, 0xF0F0, 0x1357, 0x2468, 0x9ABC, 0xDEF0};
  for (const Renderable& r : renderable) {
    GLuint t;
    GLuint fbo = TextureTarget(r.internal_format, r.format, GL_UNSIGNED_SHORT, 4, 1, &t);
    glTexImage2D(GL_TEXTURE_2D, 0, GLint(r.internal_format), 4, 1, 0, r.format, GL_UNSIGNED_SHORT, words);
    CHECK_GL_ERROR(GL_NO_ERROR);
    CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
    uint16_t back[16] = {};
    glReadPixels(0, 0, 4, 1, GL_RGBA, GL_UNSIGNED_SHORT, back);
    CHECK_GL_ERROR(GL_NO_ERROR);
    bool exact = true;
    for (int x = 0; x < 4; ++x)
      for (int c = 0; c < 4; ++c) {
        uint16_t want = c < r.components ? words[x * r.components + c] : c == 3 ? 0xFFFF : 0;
        exact = exact && back[x * 4 + c] == want;
      }
    std::printf("  0x%04x upload/readback exact: %d (first texel %04x %04x %04x %04x)\n", r.internal_format,
                exact, back[0], back[1], back[2], back[3]);
    CHECK(exact);
    // Rendering: a clear and a draw write 16-bit values (k / 65535 converts to k exactly).
    glClearColor(0.25f, 0.75f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_SHORT, back);
    CHECK(back[0] == 16384);
    CHECK(r.components < 2 || back[1] == 49151);
    // (tex is sampled, times zero, from the default texture, which is incomplete: the GLES backend refuses
    // programs with a sampler they never use.)
    glBindTexture(GL_TEXTURE_2D, 0);
    GLuint draw =
        QuadProgram("o = vec4(u_value, 1.0 - u_value, 40000.0 / 65535.0, 1.0) + 0.0 * texture(tex, uv);");
    glUseProgram(draw);
    glUniform1f(glGetUniformLocation(draw, "u_value"), 12345.0f / 65535.0f);
    DrawQuad(draw, 1.0f, 1.0f);
    glReadPixels(2, 0, 1, 1, GL_RGBA, GL_UNSIGNED_SHORT, back);
    std::printf("  drawn: %u %u %u %u\n", back[0], back[1], back[2], back[3]);
    CHECK(back[0] == 12345);
    CHECK(r.components < 2 || back[1] == 65535 - 12345);
    CHECK(r.components < 4 || (back[2] == 40000 && back[3] == 65535));
    glDeleteProgram(draw);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    glDeleteTextures(1, &t);
  }

  // Sampling: an RGBA16 texture copied texel by texel into an RGBA16 target keeps every word; the SNORM
  // formats and RGB16 / RGB16_SNORM (texture-only) read k / 65535 and k / 32767 into a float target.
  GLuint src;
  glGenTextures(1, &src);
  glBindTexture(GL_TEXTURE_2D, src);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA16_EXT, 4, 1, 0, GL_RGBA, GL_UNSIGNED_SHORT, words);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  GLuint dst;
  GLuint fbo = TextureTarget(GL_RGBA16_EXT, GL_RGBA, GL_UNSIGNED_SHORT, 4, 1, &dst);
  glBindTexture(GL_TEXTURE_2D, src);
  GLuint copy = QuadProgram("o = texelFetch(tex, ivec2(gl_FragCoord.xy), 0);");
  DrawQuad(copy, 1.0f, 1.0f);
  uint16_t back[16] = {};
  glReadPixels(0, 0, 4, 1, GL_RGBA, GL_UNSIGNED_SHORT, back);
  bool copied = std::memcmp(back, words, sizeof(back)) == 0;
  std::printf("  RGBA16 sampled into RGBA16 exactly: %d\n", copied);
  CHECK(copied || !caldera);  // Mesa llvmpipe's 16-bit sampling is not exact (see `tolerance`)
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  glDeleteTextures(1, &dst);

  GLuint ftex;
  fbo = TextureTarget(GL_RGBA32F, GL_RGBA, GL_FLOAT, 4, 1, &ftex);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  // 4 texels of up to 4 components: RGBA16_SNORM reads all 16.
  const int16_t swords[16] = {-32767, -32768, 12345, 32767, 1, -1, 0, 20000, -20000, 100, -100, 7, 3, -3, 30000, -30000};
  struct Sampled {
    GLenum internal_format, format, type;
    int components;
  } sampled[] = {{GL_R16_SNORM, GL_RED, GL_SHORT, 1},
                 {GL_RG16_SNORM, GL_RG, GL_SHORT, 2},
                 {GL_RGBA16_SNORM, GL_RGBA, GL_SHORT, 4},
                 {GL_RGB16_SNORM, GL_RGB, GL_SHORT, 3},
                 {GL_RGB16_EXT, GL_RGB, GL_UNSIGNED_SHORT, 3}};
  for (const Sampled& s : sampled) {
    glBindTexture(GL_TEXTURE_2D, src);
    const void* data =
        s.type == GL_SHORT ? static_cast<const void*>(swords) : static_cast<const void*>(words);
    glTexImage2D(GL_TEXTURE_2D, 0, GLint(s.internal_format), 4, 1, 0, s.format, s.type, data);
    CHECK_GL_ERROR(GL_NO_ERROR);
    glClearColor(9, 9, 9, 9);
    glClear(GL_COLOR_BUFFER_BIT);
    DrawQuad(copy, 1.0f, 1.0f);
    float f[16] = {};
    glReadPixels(0, 0, 4, 1, GL_RGBA, GL_FLOAT, f);
    double worst = 0;
    for (int x = 0; x < 4; ++x)
      for (int c = 0; c < 4; ++c) {
        double want = c == 3 && s.components < 4 ? 1.0 : 0.0;
        if (c < s.components) {
          int i = x * s.components + c;
          want = s.type == GL_SHORT ? std::max(swords[i] / 32767.0, -1.0) : words[i] / 65535.0;
        }
        worst = std::max(worst, std::fabs(double(f[x * 4 + c]) - want));
      }
    std::printf("  0x%04x sampled: worst error %.2g (first texel %g %g %g %g)\n", s.internal_format, worst,
                double(f[0]), double(f[1]), double(f[2]), double(f[3]));
    CHECK(worst < tolerance);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  glDeleteTextures(1, &ftex);
  glDeleteTextures(1, &src);
  glDeleteProgram(copy);

  // Renderbuffers: the UNORM formats are colour-renderable; RGB16 is not, nor are the SNORM ones without
  // GL_EXT_render_snorm (ES 3.0 §9.2.4: GL_INVALID_ENUM for a format that is not colour-, depth- or
  // stencil-renderable).
  GLuint rb;
  glGenRenderbuffers(1, &rb);
  glBindRenderbuffer(GL_RENDERBUFFER, rb);
  for (GLenum f : {GLenum(GL_R16_EXT), GLenum(GL_RG16_EXT), GLenum(GL_RGBA16_EXT)}) {
    glRenderbufferStorage(GL_RENDERBUFFER, f, 4, 4);
    CHECK_GL_ERROR(GL_NO_ERROR);
  }
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGB16_EXT, 4, 4);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  for (GLenum f : {GLenum(GL_R16_SNORM), GLenum(GL_RGBA16_SNORM)}) {
    glRenderbufferStorage(GL_RENDERBUFFER, f, 4, 4);
    CHECK_GL_ERROR(render_snorm ? GL_NO_ERROR : GL_INVALID_ENUM);
  }
  glDeleteRenderbuffers(1, &rb);
  // An RGB16 or (without GL_EXT_render_snorm) SNORM texture makes a framebuffer incomplete.
  GLuint t;
  fbo = TextureTarget(GL_RGB16_EXT, GL_RGB, GL_UNSIGNED_SHORT, 4, 4, &t);
  GLenum rgb16_status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindTexture(GL_TEXTURE_2D, t);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA16_SNORM, 4, 4, 0, GL_RGBA, GL_SHORT, nullptr);
  GLenum snorm_status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  std::printf("  framebuffer status: RGB16 0x%04x, RGBA16_SNORM 0x%04x\n", rgb16_status, snorm_status);
  // Mesa llvmpipe calls an RGB16 attachment complete in ES, against GL_EXT_texture_norm16's table (RGB16_EXT
  // is texture-only); its renderbuffers refuse the format as the table says.
  CHECK(rgb16_status == GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT || !caldera);
  CHECK(snorm_status == (render_snorm ? GL_FRAMEBUFFER_COMPLETE : GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT));
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  glDeleteTextures(1, &t);
  glDeleteBuffers(1, &vbo);
  glDeleteVertexArrays(1, &vao);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

}  // namespace

int main(int argc, char** argv) {
  bool expect_no_anisotropy = argc > 1 && std::strcmp(argv[1], "--expect-no-anisotropy") == 0;
  for (bool es : {false, true}) {
    g_es = es;
    harness::Window w = harness::Open(8, 8, es);
    std::string renderer = harness::PrintVendor();
    bool caldera = renderer.find("Caldera") != std::string::npos;
    Anisotropy(caldera, expect_no_anisotropy);
    if (!expect_no_anisotropy) {
      SrgbDecode(caldera);
      if (es) Norm16(caldera);
    }
    CHECK_GL_ERROR(GL_NO_ERROR);
    harness::Close(w);
  }
  return harness::Summary();
}
