// Buffer textures (GL 3.1 core): glTexBuffer errors, the buffer-texture queries, sampling through
// texelFetch/textureSize (a buffer texture without a buffer reads zeros) and a buffer re-specified with
// glBufferData followed by the texture. Runs against Caldera (both backends) and Mesa llvmpipe
// (meson.build): a check that fails on Mesa is a wrong expectation.
#include <cstring>
#include <vector>

#include "gl_harness.h"

namespace {

void Clean() {
  while (glGetError() != GL_NO_ERROR) {
  }
}

GLint GetInt(GLenum pname) {
  GLint v = -1;
  glGetIntegerv(pname, &v);
  return v;
}

void ErrorsAndQueries() {
  Clean();
  CHECK(GetInt(GL_MAX_TEXTURE_BUFFER_SIZE) >= 65536);
  GLuint buffer, tex, tex2d;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_TEXTURE_BUFFER, buffer);
  glBufferData(GL_TEXTURE_BUFFER, 64, nullptr, GL_STATIC_DRAW);
  CHECK(GetInt(GL_TEXTURE_BUFFER) == GLint(buffer));  // the generic binding point
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_BUFFER, tex);
  CHECK(GetInt(GL_TEXTURE_BINDING_BUFFER) == GLint(tex));
  CHECK(GetInt(GL_TEXTURE_BUFFER_DATA_STORE_BINDING) == 0);
  // Target and format: INVALID_ENUM (RGB8, SNORM, sRGB, depth and unsized formats are not buffer formats;
  // RGB32F is, from GL 4.0, which Mesa offers).
  glTexBuffer(GL_TEXTURE_2D, GL_R8, buffer);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  for (GLenum bad : {GLenum(GL_RGB8), GLenum(GL_RGBA8_SNORM), GLenum(GL_DEPTH_COMPONENT24), GLenum(GL_RGBA),
                     GLenum(GL_SRGB8_ALPHA8)}) {
    glTexBuffer(GL_TEXTURE_BUFFER, bad, buffer);
    CHECK_GL_ERROR(GL_INVALID_ENUM);
  }
  // A name that is no buffer object: INVALID_OPERATION, and nothing attached.
  glTexBuffer(GL_TEXTURE_BUFFER, GL_R32F, 4242);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(GetInt(GL_TEXTURE_BUFFER_DATA_STORE_BINDING) == 0);
  for (GLenum good :
       {GLenum(GL_R8), GLenum(GL_R16), GLenum(GL_R16F), GLenum(GL_R32F), GLenum(GL_R8I), GLenum(GL_R16UI),
        GLenum(GL_R32I), GLenum(GL_RG8), GLenum(GL_RG16F), GLenum(GL_RG32UI), GLenum(GL_RGBA8),
        GLenum(GL_RGBA16), GLenum(GL_RGBA16I), GLenum(GL_RGBA32F), GLenum(GL_RGBA8UI)}) {
    glTexBuffer(GL_TEXTURE_BUFFER, good, buffer);
    CHECK_GL_ERROR(GL_NO_ERROR);
  }
  CHECK(GetInt(GL_TEXTURE_BUFFER_DATA_STORE_BINDING) == GLint(buffer));
  CHECK(GetInt(GL_TEXTURE_BUFFER_FORMAT_ARB) == GL_RGBA8UI);  // the last format attached
  // Buffer textures have no sampler state.
  glTexParameteri(GL_TEXTURE_BUFFER, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  // The texture keeps its target.
  glGenTextures(1, &tex2d);
  glBindTexture(GL_TEXTURE_2D, tex2d);
  glBindTexture(GL_TEXTURE_BUFFER, tex2d);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glBindTexture(GL_TEXTURE_2D, tex);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  // Buffer 0 detaches.
  glBindTexture(GL_TEXTURE_BUFFER, tex);
  glTexBuffer(GL_TEXTURE_BUFFER, GL_R8, 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(GetInt(GL_TEXTURE_BUFFER_DATA_STORE_BINDING) == 0);
  // Per unit: another unit has its own binding.
  glActiveTexture(GL_TEXTURE3);
  CHECK(GetInt(GL_TEXTURE_BINDING_BUFFER) == 0);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_BUFFER, 0);
  glDeleteTextures(1, &tex);
  glDeleteTextures(1, &tex2d);
  glDeleteBuffers(1, &buffer);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

const char* kVS = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }
)";

// Draws one point per pixel of a 4x1 strip: each pixel shows texel x of u_tex (R32UI) and its size.
std::vector<uint8_t> DrawStrip(GLuint program) {
  glClearColor(0.0f, 0.0f, 1.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glUseProgram(program);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  auto pixels = harness::ReadRGBA(32, 32);
  return std::vector<uint8_t>(pixels.begin(), pixels.begin() + 4 * 4);  // row 0, x 0..3
}

void Sampling() {
  const char* fs = R"(#version 330 core
uniform usamplerBuffer u_tex;
out vec4 frag;
void main() {
  int x = int(gl_FragCoord.x);
  // Only texels inside the buffer (out-of-range fetches are undefined in GL 3.3).
  uint v = x < textureSize(u_tex) ? texelFetch(u_tex, x).r : 0u;
  frag = vec4(float(v) / 255.0, float(textureSize(u_tex)) / 255.0, 0.0, 1.0);
}
)";
  GLuint program = harness::CompileProgram(kVS, fs);
  CHECK(program != 0);
  GLuint vao, vbo;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glGenBuffers(1, &vbo);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  const float quad[8] = {-1, -1, 1, -1, -1, 1, 1, 1};
  glBufferData(GL_ARRAY_BUFFER, sizeof(quad), quad, GL_STATIC_DRAW);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_BUFFER, tex);

  // A buffer texture with no buffer reads zeros (its size is 0 on Mesa; Caldera's Vulkan backend reads a
  // one-texel zero buffer then, so only the texel is checked).
  auto px = DrawStrip(program);
  CHECK(px[0] == 0 && px[4] == 0);

  GLuint buffer;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_TEXTURE_BUFFER, buffer);
  const uint32_t a[3] = {10, 20, 30};
  glBufferData(GL_TEXTURE_BUFFER, sizeof(a), a, GL_STATIC_DRAW);
  glTexBuffer(GL_TEXTURE_BUFFER, GL_R32UI, buffer);
  px = DrawStrip(program);
  CHECK(px[0] == 10 && px[4] == 20 && px[8] == 30);
  CHECK(px[1] == 3 && px[5] == 3);  // textureSize
  // Re-specified with a new size and new data: the texture follows without another glTexBuffer.
  const uint32_t b[4] = {40, 50, 60, 70};
  glBufferData(GL_TEXTURE_BUFFER, sizeof(b), b, GL_STATIC_DRAW);
  px = DrawStrip(program);
  CHECK(px[0] == 40 && px[4] == 50 && px[8] == 60 && px[12] == 70);
  CHECK(px[1] == 4);
  // A sub-update between draws is seen by the next draw only.
  const uint32_t c = 99;
  glBufferSubData(GL_TEXTURE_BUFFER, 4, sizeof(c), &c);
  px = DrawStrip(program);
  CHECK(px[0] == 40 && px[4] == 99 && px[8] == 60);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glDeleteTextures(1, &tex);
  glDeleteBuffers(1, &buffer);
  glDeleteBuffers(1, &vbo);
  glDeleteVertexArrays(1, &vao);
  glDeleteProgram(program);
}

}  // namespace

int main() {
  harness::Window w = harness::Open(32, 32);
  harness::PrintVendor();
  ErrorsAndQueries();
  Sampling();
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);
  return harness::Summary();
}
