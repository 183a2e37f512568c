#include "scenes.h"

#include <cstring>

#include "gl_harness.h"

namespace scenes {
std::vector<uint8_t> g_pixels;

const char* const kQuadVS = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
out vec2 v_uv;
void main() { v_uv = a_pos * 0.5 + 0.5; gl_Position = vec4(a_pos, 0.0, 1.0); }
)";
namespace {

const char* kColorVS = R"(#version 330 core
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_color;
uniform mat4 u_mvp;
out vec3 v_color;
void main() { v_color = a_color; gl_Position = u_mvp * vec4(a_pos, 1.0); }
)";
const char* kColorFS = R"(#version 330 core
in vec3 v_color;
uniform vec4 u_tint;
out vec4 frag;
void main() { frag = vec4(v_color, 1.0) * u_tint; }
)";

const float kIdentity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

struct Mesh {
  GLuint vao = 0, vbo = 0, ebo = 0;
};

// Interleaved position (xyz) + colour (rgb).
Mesh MakeMesh(const std::vector<float>& vertices, const std::vector<uint16_t>& indices = {}) {
  Mesh m;
  glGenVertexArrays(1, &m.vao);
  glBindVertexArray(m.vao);
  glGenBuffers(1, &m.vbo);
  glBindBuffer(GL_ARRAY_BUFFER, m.vbo);
  glBufferData(GL_ARRAY_BUFFER, vertices.size() * 4, vertices.data(), GL_STATIC_DRAW);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 24, nullptr);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 24, reinterpret_cast<void*>(12));
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  if (!indices.empty()) {
    glGenBuffers(1, &m.ebo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, m.ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, indices.size() * 2, indices.data(), GL_STATIC_DRAW);
  }
  return m;
}

GLuint ColorProgram(const float* mvp = kIdentity, const float tint[4] = nullptr) {
  static const float kWhite[4] = {1, 1, 1, 1};
  GLuint p = harness::CompileProgram(kColorVS, kColorFS);
  glUseProgram(p);
  glUniformMatrix4fv(glGetUniformLocation(p, "u_mvp"), 1, GL_FALSE, mvp);
  glUniform4fv(glGetUniformLocation(p, "u_tint"), 1, tint ? tint : kWhite);
  return p;
}

std::vector<float> Quad(float x0, float y0, float x1, float y1, float z, float r, float g, float b) {
  return {x0, y0, z, r, g, b, x1, y0, z, r, g, b, x1, y1, z, r, g, b,
          x0, y0, z, r, g, b, x1, y1, z, r, g, b, x0, y1, z, r, g, b};
}

void Triangle() {
  glClearColor(0.0f, 0.0f, 0.5f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  [[maybe_unused]] Mesh m =
      MakeMesh({-0.8f, -0.8f, 0, 1, 0, 0, 0.8f, -0.8f, 0, 0, 1, 0, 0.0f, 0.8f, 0, 0, 0, 1});
  ColorProgram();
  glDrawArrays(GL_TRIANGLES, 0, 3);
}

// Flat varyings: GL takes them from the last vertex of each primitive unless glProvokingVertex says
// first (Vulkan's default is the opposite). Left: triangles and a line strip with the default; right: the
// same after glProvokingVertex(GL_FIRST_VERTEX_CONVENTION).
void ProvokingVertex() {
  const char* vs = R"(#version 330 core
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_color;
uniform float u_shift;
flat out vec3 v_color;
void main() { v_color = a_color; gl_Position = vec4(a_pos.x * 0.45 + u_shift, a_pos.yz, 1.0); }
)";
  const char* fs = R"(#version 330 core
flat in vec3 v_color;
out vec4 frag;
void main() { frag = vec4(v_color, 1.0); }
)";
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  GLuint p = harness::CompileProgram(vs, fs);
  glUseProgram(p);
  GLint shift = glGetUniformLocation(p, "u_shift");
  // A strip of two triangles (vertices red, green, blue, white) and a line strip along the bottom.
  [[maybe_unused]] Mesh m =
      MakeMesh({-1, -0.6f, 0, 1,  0,     0, 1, -0.6f, 0, 0, 1,     0, -1, 0.9f, 0, 0, 0,     1, 1, 0.9f, 0,
                1,  1,     1, -1, -0.9f, 0, 1, 0,     1, 0, -0.8f, 0, 0,  1,    1, 1, -0.9f, 0, 1, 1,    0});
  for (GLenum convention : {GLenum(GL_LAST_VERTEX_CONVENTION), GLenum(GL_FIRST_VERTEX_CONVENTION)}) {
    glProvokingVertex(convention);
    glUniform1f(shift, convention == GL_LAST_VERTEX_CONVENTION ? -0.5f : 0.5f);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glDrawArrays(GL_LINE_STRIP, 4, 3);
  }
  glProvokingVertex(GL_LAST_VERTEX_CONVENTION);
}

void Depth() {
  glClearColor(0, 0, 0, 1);
  glClearDepth(1.0);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  std::vector<float> v = Quad(-0.6f, -0.6f, 0.3f, 0.3f, -0.5f, 1, 0, 0);  // near, drawn first
  std::vector<float> far = Quad(-0.3f, -0.3f, 0.6f, 0.6f, 0.5f, 0, 1, 0);
  v.insert(v.end(), far.begin(), far.end());
  [[maybe_unused]] Mesh m = MakeMesh(v);
  ColorProgram();
  glDrawArrays(GL_TRIANGLES, 0, 12);
  // A depth range squeeze: this quad at z=0 maps to 0.9, behind everything already drawn.
  glDepthRange(0.9, 1.0);
  [[maybe_unused]] Mesh m2 = MakeMesh(Quad(-1, -1, 1, 1, 0.0f, 1, 1, 1));
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glDepthRange(0.0, 1.0);
}

void Scissor() {
  glClearColor(1, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glEnable(GL_SCISSOR_TEST);
  glScissor(8, 16, 40, 24);
  glClearColor(0, 1, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glScissor(30, 4, 20, 50);
  [[maybe_unused]] Mesh m = MakeMesh({-1, -1, 0, 1, 1, 0, 1, -1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 1});
  ColorProgram();
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glDisable(GL_SCISSOR_TEST);
}

void FboIndexedStencil() {
  GLuint fbo, color, ds;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glGenRenderbuffers(1, &color);
  glBindRenderbuffer(GL_RENDERBUFFER, color);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, kWidth, kHeight);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
  glGenRenderbuffers(1, &ds);
  glBindRenderbuffer(GL_RENDERBUFFER, ds);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, kWidth, kHeight);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, ds);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) std::exit(3);
  glViewport(0, 0, kWidth, kHeight);
  glClearColor(0.2f, 0.2f, 0.2f, 1);
  glClearStencil(0);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  // Pass 1: a rotated square writes stencil 1 and yellow.
  const float c = 0.70710678f;
  const float rotate[16] = {c, c, 0, 0, -c, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  const float tint[4] = {1, 1, 0, 1};
  [[maybe_unused]] Mesh square = MakeMesh(
      {-0.5f, -0.5f, 0, 1, 1, 1, 0.5f, -0.5f, 0, 1, 1, 1, 0.5f, 0.5f, 0, 1, 1, 1, -0.5f, 0.5f, 0, 1, 1, 1},
      {0, 1, 2, 0, 2, 3});
  GLuint p = ColorProgram(rotate, tint);
  glEnable(GL_STENCIL_TEST);
  glStencilFunc(GL_ALWAYS, 1, 0xFF);
  glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
  glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, nullptr);
  // Pass 2: a full-screen magenta quad only where stencil == 1, half of it via an index offset.
  glStencilFunc(GL_EQUAL, 1, 0xFF);
  glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
  glUniformMatrix4fv(glGetUniformLocation(p, "u_mvp"), 1, GL_FALSE, kIdentity);
  const float magenta[4] = {1, 0, 1, 1};
  glUniform4fv(glGetUniformLocation(p, "u_tint"), 1, magenta);
  [[maybe_unused]] Mesh full = MakeMesh(
      {-1, -1, 0, 1, 1, 1, 1, -1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1, -1, 1, 0, 1, 1, 1}, {0, 1, 2, 0, 2, 3});
  glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_SHORT, reinterpret_cast<void*>(6));
  glDisable(GL_STENCIL_TEST);
  g_pixels = harness::ReadRGBA(kWidth, kHeight);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

void BlendCull() {
  glClearColor(0, 0, 1, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glEnable(GL_CULL_FACE);
  glCullFace(GL_BACK);
  glFrontFace(GL_CCW);
  // Left: counter-clockwise (front, kept); right: clockwise (back, culled).
  [[maybe_unused]] Mesh m =
      MakeMesh({-0.9f, -0.5f, 0, 1, 0, 0, -0.1f, -0.5f, 0, 1, 0, 0, -0.5f, 0.5f,  0, 1, 0, 0,
                0.1f,  -0.5f, 0, 0, 1, 0, 0.5f,  0.5f,  0, 0, 1, 0, 0.9f,  -0.5f, 0, 0, 1, 0});
  ColorProgram();
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glDisable(GL_CULL_FACE);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  const float half_white[4] = {1, 1, 1, 0.5f};
  GLuint p = ColorProgram(kIdentity, half_white);
  (void)p;
  [[maybe_unused]] Mesh band = MakeMesh(Quad(-1, -0.2f, 1, 0.2f, 0, 1, 1, 1));
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glDisable(GL_BLEND);
}

void ViewportUniformUpdates() {
  // Many draws with changing uniforms and viewports: the per-draw uniform path and dynamic viewport.
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  [[maybe_unused]] Mesh m = MakeMesh(Quad(-1, -1, 1, 1, 0, 1, 1, 1));
  GLuint p = ColorProgram();
  GLint tint = glGetUniformLocation(p, "u_tint");
  for (int i = 0; i < 16; ++i) {
    glViewport((i % 4) * 16, (i / 4) * 16, 16, 16);
    glUniform4f(tint, (i % 4) / 3.0f, (i / 4) / 3.0f, (i % 2) ? 1.0f : 0.25f, 1);
    glDrawArrays(GL_TRIANGLES, 0, 6);
  }
  glViewport(0, 0, kWidth, kHeight);
}

void TextureUniformBlock() {
  // A 4x4 checker (nearest), tinted through a uniform block bound with glBindBufferRange, next to an
  // incomplete texture (mipmap filter, one level) that must sample as (0,0,0,1).
  const char* vs = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
out vec2 v_uv;
void main() { v_uv = a_pos * 0.5 + 0.5; gl_Position = vec4(a_pos, 0.0, 1.0); }
)";
  const char* fs = R"(#version 330 core
in vec2 v_uv;
uniform sampler2D u_checker;
uniform sampler2D u_incomplete;
layout(std140) uniform Tint { vec4 tint; vec4 offset; };
out vec4 frag;
void main() {
  vec4 c = v_uv.x < 0.75 ? texture(u_checker, v_uv / 0.75) : texture(u_incomplete, v_uv);
  frag = c * tint + offset;
}
)";
  glClearColor(0.1f, 0.1f, 0.1f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  GLuint p = harness::CompileProgram(vs, fs);
  glUseProgram(p);
  uint8_t texels[4 * 4 * 4];
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      uint8_t* t = texels + (y * 4 + x) * 4;
      bool on = (x + y) % 2 == 0;
      t[0] = on ? 255 : 20, t[1] = on ? 200 : 40, t[2] = on ? 50 : 220, t[3] = 255;
    }
  GLuint tex[2];
  glGenTextures(2, tex);
  glActiveTexture(GL_TEXTURE3);
  glBindTexture(GL_TEXTURE_2D, tex[0]);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glActiveTexture(GL_TEXTURE5);
  glBindTexture(GL_TEXTURE_2D, tex[1]);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE,
               texels);  // default min filter: incomplete
  glUniform1i(glGetUniformLocation(p, "u_checker"), 3);
  glUniform1i(glGetUniformLocation(p, "u_incomplete"), 5);
  std::vector<float> data(256 / 4 + 8, 0.0f);
  const float tint[8] = {1.0f, 0.5f, 1.0f, 1.0f, 0.0f, 0.25f, 0.0f, 0.0f};
  std::memcpy(data.data() + 256 / 4, tint, sizeof(tint));
  GLuint ubo;
  glGenBuffers(1, &ubo);
  glBindBuffer(GL_UNIFORM_BUFFER, ubo);
  glBufferData(GL_UNIFORM_BUFFER, data.size() * 4, data.data(), GL_STATIC_DRAW);
  glUniformBlockBinding(p, glGetUniformBlockIndex(p, "Tint"), 2);
  glBindBufferRange(GL_UNIFORM_BUFFER, 2, ubo, 256, 32);
  std::vector<float> quad = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
  GLuint vao, vbo;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glGenBuffers(1, &vbo);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glBufferData(GL_ARRAY_BUFFER, quad.size() * 4, quad.data(), GL_STATIC_DRAW);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  // Render to a texture, then sample it: the first pass's output feeds the second draw's left half.
  GLuint fbo, target;
  glGenTextures(1, &target);
  glActiveTexture(GL_TEXTURE3);
  glBindTexture(GL_TEXTURE_2D, target);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 16, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target, 0);
  glViewport(0, 0, 16, 16);
  glClearColor(0.9f, 0.2f, 0.6f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, kWidth / 2, kHeight / 2);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glViewport(0, 0, kWidth, kHeight);
}

void BlitMrtMappedBuffers() {
  // Two colour targets written at once (glDrawBuffers), cleared per buffer (glClearBufferfv); vertex data
  // written through glMapBufferRange and moved with glCopyBufferSubData; then both targets blitted to the
  // window, one scaled, one mirrored.
  const char* vs = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }
)";
  const char* fs = R"(#version 330 core
layout(location = 0) out vec4 out0;
layout(location = 1) out vec4 out1;
void main() { out0 = vec4(0.0, 1.0, 0.0, 1.0); out1 = vec4(1.0, 1.0, 0.0, 1.0); }
)";
  GLuint fbo, rb[2];
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glGenRenderbuffers(2, rb);
  for (int i = 0; i < 2; ++i) {
    glBindRenderbuffer(GL_RENDERBUFFER, rb[i]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 32, 32);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + i, GL_RENDERBUFFER, rb[i]);
  }
  const GLenum bufs[2] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1};
  glDrawBuffers(2, bufs);
  glViewport(0, 0, 32, 32);
  const float red[4] = {1, 0, 0, 1}, blue[4] = {0, 0, 1, 1};
  glClearBufferfv(GL_COLOR, 0, red);
  glClearBufferfv(GL_COLOR, 1, blue);
  GLuint staging, vbo, vao;
  glGenBuffers(1, &staging);
  glBindBuffer(GL_COPY_READ_BUFFER, staging);
  glBufferData(GL_COPY_READ_BUFFER, 6 * 4, nullptr, GL_STREAM_DRAW);
  auto* p = static_cast<float*>(
      glMapBufferRange(GL_COPY_READ_BUFFER, 0, 6 * 4, GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT));
  const float tri[6] = {-0.9f, -0.9f, 0.9f, -0.9f, -0.9f, 0.6f};
  std::memcpy(p, tri, sizeof(tri));
  glUnmapBuffer(GL_COPY_READ_BUFFER);
  glGenBuffers(1, &vbo);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glBufferData(GL_ARRAY_BUFFER, 6 * 4, nullptr, GL_STATIC_DRAW);
  glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_ARRAY_BUFFER, 0, 0, 6 * 4);
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  GLuint prog = harness::CompileProgram(vs, fs);
  glUseProgram(prog);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  // To the window: attachment 1 scaled into the left half, attachment 0 mirrored into the right half.
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  glClearColor(0.2f, 0.2f, 0.2f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glReadBuffer(GL_COLOR_ATTACHMENT1);
  glBlitFramebuffer(0, 0, 32, 32, 0, 0, kWidth / 2, kHeight, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  glBlitFramebuffer(0, 0, 32, 32, kWidth, 0, kWidth / 2, kHeight / 2, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, kWidth, kHeight);
}

void Mipmaps() {
  // glGenerateMipmap on an 8x8 texture with coloured quadrants, then each level read with textureLod in
  // its own column: level 3 (1x1) is the average of everything.
  const char* vs = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
out vec2 v_uv;
void main() { v_uv = a_pos * 0.5 + 0.5; gl_Position = vec4(a_pos, 0.0, 1.0); }
)";
  const char* fs = R"(#version 330 core
in vec2 v_uv;
uniform sampler2D u_tex;
out vec4 frag;
void main() {
  float level = floor(v_uv.x * 4.0);
  frag = textureLod(u_tex, vec2(fract(v_uv.x * 4.0), v_uv.y), level);
}
)";
  uint8_t texels[8 * 8 * 4];
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x) {
      uint8_t* t = texels + (y * 8 + x) * 4;
      t[0] = x < 4 ? 255 : 0, t[1] = y < 4 ? 255 : 0, t[2] = (x + y) % 2 ? 255 : 0, t[3] = 255;
    }
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  glGenerateMipmap(GL_TEXTURE_2D);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  GLuint p = harness::CompileProgram(vs, fs);
  glUseProgram(p);
  DrawFullWindowQuad();
}

}  // namespace

void DrawFullWindowQuad() {
  static const float quad[12] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
  GLuint vao, vbo;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glGenBuffers(1, &vbo);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glBufferData(GL_ARRAY_BUFFER, sizeof(quad), quad, GL_STATIC_DRAW);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  glDrawArrays(GL_TRIANGLES, 0, 6);
}

const std::vector<Scene>& All() {
  static const std::vector<Scene> scenes = [] {
    std::vector<Scene> all = {
        {"triangle", Triangle, false},
        {"depth", Depth, false},
        {"provoking_vertex", ProvokingVertex, false},
        {"scissor", Scissor, false},
        {"fbo_indexed_stencil", FboIndexedStencil, true},
        {"blend_cull", BlendCull, false},
        {"viewport_uniforms", ViewportUniformUpdates, false},
        {"texture_ubo", TextureUniformBlock, false},
        {"blit_mrt_map", BlitMrtMappedBuffers, false},
        {"mipmaps", Mipmaps, false},
    };
    all.insert(all.end(), TextureScenes().begin(), TextureScenes().end());
    all.insert(all.end(), DrawScenes().begin(), DrawScenes().end());
    all.insert(all.end(), MsaaScenes().begin(), MsaaScenes().end());
    all.insert(all.end(), XfbScenes().begin(), XfbScenes().end());
    all.insert(all.end(), FormatScenes().begin(), FormatScenes().end());
    all.insert(all.end(), ProgramScenes().begin(), ProgramScenes().end());
    all.insert(all.end(), Tex1DScenes().begin(), Tex1DScenes().end());
    all.insert(all.end(), LayeredScenes().begin(), LayeredScenes().end());
    all.insert(all.end(), SamplerFormatScenes().begin(), SamplerFormatScenes().end());
    return all;
  }();
  return scenes;
}

}  // namespace scenes
