// ES's legacy unsized texture formats, GL_LUMINANCE, GL_ALPHA and GL_LUMINANCE_ALPHA with GL_UNSIGNED_BYTE,
// in an ES 2.0 and an ES 3.0 context: known texels uploaded (odd widths, alignment 1), sampled with blending
// off and every pixel compared with what ES defines (L: L,L,L,1; A: 0,0,0,A; LA: L,L,L,A), after
// glTexSubImage2D updates, with LINEAR filtering between two texels, and from a level glGenerateMipmap made.
// ES 3.0 adds GL_TEXTURE_SWIZZLE_* on top of each format's own reading (and on an RGBA8 texture). With
// GL_OES_texture_float / GL_OES_texture_half_float, float data for them and for unsized RGB/RGBA. Such
// textures are not colour-renderable (framebuffer incomplete). A desktop core context refuses the formats
// with the errors the core spec names (internal formats: GL_INVALID_VALUE, as Mesa; client formats:
// GL_INVALID_ENUM, which Mesa does not give).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "gl_harness.h"

namespace {

constexpr GLenum kLuminance = 0x1909, kLuminanceAlpha = 0x190A;

const char* kVs = R"(#version 100
attribute vec2 pos;
varying vec2 uv;
void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, 0.0, 1.0); })";
const char* kFs = R"(#version 100
precision mediump float;
uniform sampler2D tex;
varying vec2 uv;
void main() { gl_FragColor = texture2D(tex, uv); })";

struct Format {
  const char* name;
  GLenum format;
  int bytes;  // per texel
};
const Format kFormats[] = {
    {"LUMINANCE", kLuminance, 1}, {"ALPHA", GL_ALPHA, 1}, {"LUMINANCE_ALPHA", kLuminanceAlpha, 2}};

// What ES samples from one texel's bytes.
void Expected(const Format& f, const uint8_t* t, uint8_t out[4]) {
  bool alpha_only = f.format == GL_ALPHA;
  out[0] = out[1] = out[2] = alpha_only ? 0 : t[0];
  out[3] = alpha_only ? t[0] : f.format == kLuminanceAlpha ? t[1] : 255;
}

// Draws the bound texture over a w x h viewport at the origin (one pixel per texel of a w x h level).
void Draw(int w, int h) {
  glViewport(0, 0, w, h);
  glClearColor(0.5f, 0.5f, 0.5f, 0.5f);
  glClear(GL_COLOR_BUFFER_BIT);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

std::vector<uint8_t> Read(int w, int h) {
  std::vector<uint8_t> px(size_t(w) * h * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  return px;
}

bool PixelIs(const char* what, const uint8_t* got, const uint8_t* want, int tolerance = 0) {
  for (int c = 0; c < 4; ++c) {
    if (std::abs(int(got[c]) - int(want[c])) > tolerance) {
      std::printf("  %s: got %d,%d,%d,%d, want %d,%d,%d,%d\n", what, got[0], got[1], got[2], got[3], want[0],
                  want[1], want[2], want[3]);
      return false;
    }
  }
  return true;
}

// Every pixel of a w x h draw against the texels `data` (tightly packed).
bool AllTexels(const Format& f, const char* what, const std::vector<uint8_t>& data, int w, int h) {
  Draw(w, h);
  std::vector<uint8_t> px = Read(w, h);
  bool ok = true;
  for (int i = 0; i < w * h; ++i) {
    uint8_t want[4];
    Expected(f, &data[size_t(i) * f.bytes], want);
    ok &= PixelIs(what, &px[size_t(i) * 4], want);
  }
  return ok;
}

GLuint NewTexture(GLenum filter) {
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter == GL_LINEAR ? GL_LINEAR : GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  return t;
}

void RunFormat(const Format& f, bool es3) {
  std::printf("%s (%s)\n", f.name, es3 ? "ES 3.0" : "ES 2.0");
  // 1. A 3x2 level, NEAREST: rows of 3 or 6 bytes, so alignment 1 matters.
  constexpr int kW = 3, kH = 2;
  std::vector<uint8_t> data(size_t(kW) * kH * f.bytes);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(17 + 37 * i);
  GLuint t = NewTexture(GL_NEAREST);
  glTexImage2D(GL_TEXTURE_2D, 0, GLint(f.format), kW, kH, 0, f.format, GL_UNSIGNED_BYTE, data.data());
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(AllTexels(f, "glTexImage2D", data, kW, kH));
  // 2. glTexSubImage2D of two texels at (1, 1).
  std::vector<uint8_t> sub(size_t(2) * f.bytes);
  for (size_t i = 0; i < sub.size(); ++i) sub[i] = static_cast<uint8_t>(250 - 60 * i);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 1, 1, 2, 1, f.format, GL_UNSIGNED_BYTE, sub.data());
  CHECK_GL_ERROR(GL_NO_ERROR);
  for (size_t i = 0; i < sub.size(); ++i) data[size_t(kW + 1) * f.bytes + i] = sub[i];
  CHECK(AllTexels(f, "glTexSubImage2D", data, kW, kH));
  // 3. ES 3.0: GL_TEXTURE_SWIZZLE_* on top of the format's own reading: (A, 0, R, G) of what ES samples.
  if (es3) {
    const GLint swizzle[4] = {GL_ALPHA, GL_ZERO, GL_RED, GL_GREEN};
    for (int c = 0; c < 4; ++c) glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_R + c, swizzle[c]);
    Draw(kW, kH);
    std::vector<uint8_t> px = Read(kW, kH);
    for (int i = 0; i < kW * kH; ++i) {
      uint8_t base[4], want[4];
      Expected(f, &data[size_t(i) * f.bytes], base);
      want[0] = base[3], want[1] = 0, want[2] = base[0], want[3] = base[1];
      CHECK(PixelIs("swizzled", &px[size_t(i) * 4], want));
    }
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_R, GL_RED);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_G, GL_GREEN);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_B, GL_BLUE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_A, GL_ALPHA);
    CHECK(AllTexels(f, "swizzle reset", data, kW, kH));
  }
  // 4. Not colour-renderable.
  GLuint fb = 0;
  glGenFramebuffers(1, &fb);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fb);
  glDeleteTextures(1, &t);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // 5. LINEAR between two texels: one pixel samples halfway between texel 0 (0) and texel 1 (200).
  std::vector<uint8_t> pair(size_t(2) * f.bytes);
  for (int i = 0; i < 2; ++i)
    for (int b = 0; b < f.bytes; ++b)
      pair[size_t(i) * f.bytes + b] = static_cast<uint8_t>(i ? 200 - 100 * b : 0);
  t = NewTexture(GL_LINEAR);
  glTexImage2D(GL_TEXTURE_2D, 0, GLint(f.format), 2, 1, 0, f.format, GL_UNSIGNED_BYTE, pair.data());
  Draw(1, 1);
  {
    std::vector<uint8_t> px = Read(1, 1);
    uint8_t mid[2] = {100, 50}, want[4];
    Expected(f, mid, want);
    CHECK(PixelIs("LINEAR", px.data(), want, 1));
  }
  glDeleteTextures(1, &t);

  // 6. glGenerateMipmap: the 1x1 level of a 2x2 one averages its texels; a one-pixel draw of the whole
  // texture reads level 1 (two texels per pixel) through NEAREST_MIPMAP_NEAREST.
  std::vector<uint8_t> quad(size_t(4) * f.bytes);
  const uint8_t values[2][4] = {{0, 100, 200, 40}, {40, 80, 120, 160}};
  for (int i = 0; i < 4; ++i)
    for (int b = 0; b < f.bytes; ++b) quad[size_t(i) * f.bytes + b] = values[b][i];
  t = NewTexture(GL_NEAREST_MIPMAP_NEAREST);
  glTexImage2D(GL_TEXTURE_2D, 0, GLint(f.format), 2, 2, 0, f.format, GL_UNSIGNED_BYTE, quad.data());
  glGenerateMipmap(GL_TEXTURE_2D);
  CHECK_GL_ERROR(GL_NO_ERROR);
  Draw(1, 1);
  {
    std::vector<uint8_t> px = Read(1, 1);
    uint8_t avg[2] = {85, 100}, want[4];
    Expected(f, avg, want);
    CHECK(PixelIs("mipmap level 1", px.data(), want, 1));
  }
  // Level 0 is unchanged by the generation.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  CHECK(AllTexels(f, "level 0 after glGenerateMipmap", quad, 2, 2));
  glDeleteTextures(1, &t);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // 7. glCopyTexImage2D from the (RGBA8) framebuffer: luminance takes red, alpha takes alpha.
  glViewport(0, 0, 8, 8);
  glClearColor(0.2f, 0.4f, 0.6f, 0.8f);  // 51, 102, 153, 204
  glClear(GL_COLOR_BUFFER_BIT);
  t = NewTexture(GL_NEAREST);
  glCopyTexImage2D(GL_TEXTURE_2D, 0, f.format, 0, 0, 2, 1, 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  std::vector<uint8_t> copied(size_t(2) * f.bytes);
  for (int i = 0; i < 2; ++i) {
    if (f.format == GL_ALPHA) {
      copied[size_t(i)] = 204;
    } else {
      copied[size_t(i) * f.bytes] = 51;
      if (f.bytes == 2) copied[size_t(i) * 2 + 1] = 204;
    }
  }
  CHECK(AllTexels(f, "glCopyTexImage2D", copied, 2, 1));
  glDeleteTextures(1, &t);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// GL_OES_texture_float / GL_OES_texture_half_float: the unsized formats (RGBA and RGB too) with GL_FLOAT and
// GL_HALF_FLOAT_OES data, sampled NEAREST, then one texel replaced by glTexSubImage2D. Values are k/255, so
// the RGBA8 framebuffer holds k (within one for halves).
void RunFloat() {
  constexpr GLenum kHalfFloatOES = 0x8D61;
  const char* ext = reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS));
  CHECK(ext && std::strstr(ext, "GL_OES_texture_float") != nullptr);
  CHECK(ext && std::strstr(ext, "GL_OES_texture_half_float") != nullptr);
  struct Unsized {
    const char* name;
    GLenum format;
    int components;
  };
  const Unsized kUnsized[] = {{"RGBA", GL_RGBA, 4},
                              {"RGB", GL_RGB, 3},
                              {"LUMINANCE", kLuminance, 1},
                              {"ALPHA", GL_ALPHA, 1},
                              {"LUMINANCE_ALPHA", kLuminanceAlpha, 2}};
  for (const Unsized& u : kUnsized) {
    for (GLenum type : {GLenum(GL_FLOAT), kHalfFloatOES}) {
      std::printf("%s, %s\n", u.name, type == GL_FLOAT ? "GL_FLOAT" : "GL_HALF_FLOAT_OES");
      // Two texels: component c of texel i is 17 + 40 c + 100 i (in 1/255).
      std::vector<float> values;
      for (int i = 0; i < 2; ++i)
        for (int c = 0; c < u.components; ++c) values.push_back(float(17 + 40 * c + 100 * i) / 255.0f);
      std::vector<uint8_t> bytes(values.size() * (type == GL_FLOAT ? 4 : 2));
      for (size_t i = 0; i < values.size(); ++i) {
        if (type == GL_FLOAT) {
          std::memcpy(&bytes[i * 4], &values[i], 4);
        } else {
          // Values in [0, 1): a normal half from the float's exponent and top mantissa bits (rounded).
          uint32_t x;
          std::memcpy(&x, &values[i], 4);
          uint32_t h = ((((x >> 23) & 0xFF) - 127 + 15) << 10) + ((x >> 13) & 0x3FF) + ((x >> 12) & 1);
          auto h16 = static_cast<uint16_t>(h);
          std::memcpy(&bytes[i * 2], &h16, 2);
        }
      }
      GLuint t = NewTexture(GL_NEAREST);
      glTexImage2D(GL_TEXTURE_2D, 0, GLint(u.format), 2, 1, 0, u.format, type, bytes.data());
      CHECK_GL_ERROR(GL_NO_ERROR);
      auto expect = [&](int texel, uint8_t want[4]) {
        uint8_t k[4] = {0, 0, 0, 255};
        for (int c = 0; c < u.components; ++c) k[c] = static_cast<uint8_t>(17 + 40 * c + 100 * texel);
        if (u.format == kLuminance || u.format == kLuminanceAlpha)
          want[0] = want[1] = want[2] = k[0], want[3] = u.format == kLuminanceAlpha ? k[1] : 255;
        else if (u.format == GL_ALPHA)
          want[0] = want[1] = want[2] = 0, want[3] = k[0];
        else
          for (int c = 0; c < 4; ++c) want[c] = k[c];
      };
      Draw(2, 1);
      std::vector<uint8_t> px = Read(2, 1);
      for (int i = 0; i < 2; ++i) {
        uint8_t want[4];
        expect(i, want);
        CHECK(PixelIs("float upload", &px[size_t(i) * 4], want, 1));
      }
      // Texel 1's data into texel 0.
      size_t texel_bytes = bytes.size() / 2;
      glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 1, 1, u.format, type, bytes.data() + texel_bytes);
      CHECK_GL_ERROR(GL_NO_ERROR);
      Draw(2, 1);
      px = Read(2, 1);
      uint8_t want[4];
      expect(1, want);
      CHECK(PixelIs("float sub-image", &px[0], want, 1));
      glDeleteTextures(1, &t);
    }
  }
}

void RunES(bool es3) {
  GLuint program = harness::CompileProgram(kVs, kFs);
  glBindAttribLocation(program, 0, "pos");
  glLinkProgram(program);
  glUseProgram(program);
  glUniform1i(glGetUniformLocation(program, "tex"), 0);
  const float corners[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  GLuint vbo = 0;
  glGenBuffers(1, &vbo);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glBufferData(GL_ARRAY_BUFFER, sizeof(corners), corners, GL_STATIC_DRAW);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  glDisable(GL_BLEND);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  for (const Format& f : kFormats) RunFormat(f, es3);
  RunFloat();
  if (es3) {
    // The user swizzle on a format without one of its own.
    const uint8_t rgba[4] = {10, 20, 30, 40};
    GLuint t = NewTexture(GL_NEAREST);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    const GLint swizzle[4] = {GL_BLUE, GL_GREEN, GL_RED, GL_ONE};
    glTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_RGBA, swizzle);
    Draw(1, 1);
    const uint8_t want[4] = {30, 20, 10, 255};
    CHECK(PixelIs("RGBA8 swizzled", Read(1, 1).data(), want));
    glDeleteTextures(1, &t);
    // Immutable storage takes sized formats only: the unsized luminance/alpha names are refused.
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexStorage2D(GL_TEXTURE_2D, 1, kLuminance, 4, 4);
    CHECK_GL_ERROR(GL_INVALID_ENUM);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_ALPHA, 4, 4);
    CHECK_GL_ERROR(GL_INVALID_ENUM);
    glDeleteTextures(1, &t);
  }
  glDeleteBuffers(1, &vbo);
  glDeleteProgram(program);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

}  // namespace

int main() {
  {
    harness::Window w = harness::Open(8, 8, /*es=*/true);
    harness::PrintVendor();
    RunES(/*es3=*/true);
    // An ES 2.0 context on the same config and surface.
    EGLint id = 0, n = 0;
    EGLConfig config;
    eglQueryContext(w.display, w.context, EGL_CONFIG_ID, &id);
    const EGLint by_id[] = {EGL_CONFIG_ID, id, EGL_NONE};
    CHECK(eglChooseConfig(w.display, by_id, &config, 1, &n) && n == 1);
    const EGLint es2[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
    EGLContext c = eglCreateContext(w.display, config, EGL_NO_CONTEXT, es2);
    CHECK(c != EGL_NO_CONTEXT);
    if (c != EGL_NO_CONTEXT && eglMakeCurrent(w.display, w.surface, w.surface, c)) {
      RunES(/*es3=*/false);
      eglMakeCurrent(w.display, w.surface, w.surface, w.context);
      eglDestroyContext(w.display, c);
    }
    harness::Close(w);
  }
  {
    // Desktop core: not internal formats (GL_INVALID_VALUE) and not client formats (GL_INVALID_ENUM).
    harness::Window w = harness::Open(8, 8);
    std::printf("desktop core\n");
    GLuint t = 0;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    const uint8_t texel[16] = {1, 2, 3, 4};  // room for one texel of every format and type used below
    glTexImage2D(GL_TEXTURE_2D, 0, GLint(kLuminance), 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, texel);
    CHECK_GL_ERROR(GL_INVALID_VALUE);
    glTexImage2D(GL_TEXTURE_2D, 0, GLint(kLuminanceAlpha), 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, texel);
    CHECK_GL_ERROR(GL_INVALID_VALUE);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_ALPHA, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, texel);
    CHECK_GL_ERROR(GL_INVALID_VALUE);
    // As client formats the core spec (GL 3.3 table 3.3) names them nowhere: GL_INVALID_ENUM. Mesa takes them
    // in core contexts too (a leniency it keeps from compatibility), so only the errors Caldera gives are
    // held to the spec; Mesa's are printed.
    bool caldera = std::strstr(reinterpret_cast<const char*>(glGetString(GL_VENDOR)), "Caldera") != nullptr;
    auto client_format_error = [&](const char* what, GLenum want) {
      GLenum got = glGetError();
      if (caldera)
        CHECK(got == want);
      else
        std::printf("  Mesa, %s: GL error 0x%04x\n", what, got);
    };
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, texel);
    CHECK_GL_ERROR(GL_NO_ERROR);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, kLuminance, GL_UNSIGNED_BYTE, texel);
    client_format_error("glTexImage2D(format GL_LUMINANCE)", GL_INVALID_ENUM);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, kLuminanceAlpha, GL_UNSIGNED_BYTE, texel);
    client_format_error("glTexImage2D(format GL_LUMINANCE_ALPHA)", GL_INVALID_ENUM);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 1, 1, kLuminance, GL_UNSIGNED_BYTE, texel);
    client_format_error("glTexSubImage2D(format GL_LUMINANCE)", GL_INVALID_ENUM);
    // GL_HALF_FLOAT_OES is an ES value only (Mesa takes it in core contexts too).
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA16F, 1, 1, 0, GL_RGBA, 0x8D61, texel);
    client_format_error("glTexImage2D(type GL_HALF_FLOAT_OES)", GL_INVALID_ENUM);
    CHECK_GL_ERROR(GL_NO_ERROR);
    glDeleteTextures(1, &t);
    harness::Close(w);
  }
  return harness::Summary();
}
