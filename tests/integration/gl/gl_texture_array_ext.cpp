// GL_EXT_texture_array in GLSL 1.20 (a compatibility context): with the #extension directive, a shader may
// declare sampler2DArray / sampler2DArrayShadow and call texture2DArray / shadow2DArray; without it, the same
// shader does not compile. Three layers of distinct colours are read back through texture2DArray, and a
// depth array through shadow2DArray against a reference on each side of the stored depths. Run on Caldera
// (both backends) and Mesa llvmpipe.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gl_harness.h"

namespace {

constexpr int kSize = 8;

const char* kVs = R"(#version 120
attribute vec2 pos;
varying vec2 uv;
void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, 0.0, 1.0); })";

const char* kColourFs = R"(#version 120
#extension GL_EXT_texture_array : require
uniform sampler2DArray tex;
uniform float layer;
varying vec2 uv;
void main() { gl_FragColor = texture2DArray(tex, vec3(uv, layer)); })";

const char* kShadowFs = R"(#version 120
#extension GL_EXT_texture_array : enable
uniform sampler2DArrayShadow tex;
uniform float layer;
uniform float ref;
varying vec2 uv;
void main() { gl_FragColor = shadow2DArray(tex, vec4(uv, layer, ref)); })";

// The colour shader without the directive: sampler2DArray is not a GLSL 1.20 type.
const char* kNoDirectiveFs = R"(#version 120
uniform sampler2DArray tex;
varying vec2 uv;
void main() { gl_FragColor = texture2DArray(tex, vec3(uv, 0.0)); })";

GLuint Shader(GLenum type, const char* src, bool* ok) {
  GLuint s = glCreateShader(type);
  glShaderSource(s, 1, &src, nullptr);
  glCompileShader(s);
  GLint status = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &status);
  *ok = status == GL_TRUE;
  if (!*ok) {
    char log[1024] = {};
    glGetShaderInfoLog(s, sizeof log, nullptr, log);
    std::printf("compile log: %s\n", log);
  }
  return s;
}

GLuint Program(const char* fs) {
  bool vs_ok = false, fs_ok = false;
  GLuint v = Shader(GL_VERTEX_SHADER, kVs, &vs_ok), f = Shader(GL_FRAGMENT_SHADER, fs, &fs_ok);
  CHECK(vs_ok && fs_ok);
  GLuint p = glCreateProgram();
  glAttachShader(p, v);
  glAttachShader(p, f);
  glBindAttribLocation(p, 0, "pos");
  glLinkProgram(p);
  GLint linked = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &linked);
  CHECK(linked == GL_TRUE);
  return p;
}

std::vector<uint8_t> DrawCentre() {
  glClear(GL_COLOR_BUFFER_BIT);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  std::vector<uint8_t> px = harness::ReadRGBA(kSize, kSize);
  const size_t c = (size_t(kSize / 2) * kSize + kSize / 2) * 4;
  return {px[c], px[c + 1], px[c + 2], px[c + 3]};
}

}  // namespace

int main() {
  harness::Window w = harness::Open(kSize, kSize, false, true);
  harness::PrintVendor();
  const std::string extensions = [] {
    std::string all;
    GLint n = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &n);
    for (GLint i = 0; i < n; ++i)
      all += std::string(reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i)))) + " ";
    return all;
  }();
  CHECK(extensions.find("GL_EXT_texture_array ") != std::string::npos);

  bool ok = true;
  GLuint refused = Shader(GL_FRAGMENT_SHADER, kNoDirectiveFs, &ok);
  std::printf("without the directive: compiles %d (want 0)\n", ok ? 1 : 0);
  CHECK(!ok);
  glDeleteShader(refused);

  const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  GLuint vbo = 0;
  glGenBuffers(1, &vbo);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  glViewport(0, 0, kSize, kSize);
  glClearColor(0, 0, 0, 0);

  // Three colour layers.
  const uint8_t layers[3][4] = {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}};
  GLuint colour = 0;
  glGenTextures(1, &colour);
  glBindTexture(GL_TEXTURE_2D_ARRAY, colour);
  glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA8, 1, 1, 3, 0, GL_RGBA, GL_UNSIGNED_BYTE, layers);
  glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  GLuint p = Program(kColourFs);
  glUseProgram(p);
  glUniform1i(glGetUniformLocation(p, "tex"), 0);
  for (int l = 0; l < 3; ++l) {
    glUniform1f(glGetUniformLocation(p, "layer"), float(l));
    const std::vector<uint8_t> px = DrawCentre();
    std::printf("layer %d: %d %d %d\n", l, px[0], px[1], px[2]);
    CHECK(px[0] == layers[l][0] && px[1] == layers[l][1] && px[2] == layers[l][2]);
  }

  // Two depth layers (0.25, 0.75) compared with LEQUAL against references between and around them.
  const float depths[2] = {0.25f, 0.75f};
  GLuint depth = 0;
  glGenTextures(1, &depth);
  glBindTexture(GL_TEXTURE_2D_ARRAY, depth);
  glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_DEPTH_COMPONENT32F, 1, 1, 2, 0, GL_DEPTH_COMPONENT, GL_FLOAT,
               depths);
  glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
  glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
  GLuint q = Program(kShadowFs);
  glUseProgram(q);
  glUniform1i(glGetUniformLocation(q, "tex"), 0);
  const struct {
    float layer, ref;
    uint8_t want;
  } cases[] = {{0, 0.5f, 0}, {0, 0.1f, 255}, {1, 0.5f, 255}, {1, 0.9f, 0}};
  for (const auto& c : cases) {
    glUniform1f(glGetUniformLocation(q, "layer"), c.layer);
    glUniform1f(glGetUniformLocation(q, "ref"), c.ref);
    const std::vector<uint8_t> px = DrawCentre();
    std::printf("shadow layer %.0f ref %.2f: %d (want %d)\n", c.layer, c.ref, px[0], c.want);
    CHECK(px[0] == c.want);
  }
  CHECK(glGetError() == GL_NO_ERROR);
  harness::Close(w);
  return harness::Summary();
}
