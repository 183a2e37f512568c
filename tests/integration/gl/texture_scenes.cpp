// Scenes for the texture kinds beyond 2D: 2D arrays, cube maps, 3D and rectangle textures, rendering into a
// layer/face/slice, and samplers of every kind with nothing (or something incomplete) bound. Compared with
// Mesa llvmpipe like the other scenes; nearest filtering wherever a tie between texels could go either way.
#include <cstring>

#include "gl_harness.h"
#include "scenes.h"

namespace scenes {
namespace {

// RGBA8 texels of an n x n image: quadrants of `a` and `b` in a checker, so orientation and layer both show.
std::vector<uint8_t> Quadrants(int n, const uint8_t a[3], const uint8_t b[3]) {
  std::vector<uint8_t> t(size_t(n) * n * 4);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      const uint8_t* c = ((x < n / 2) != (y < n / 2)) ? a : b;
      uint8_t* p = &t[(size_t(y) * n + x) * 4];
      p[0] = c[0], p[1] = c[1], p[2] = c[2], p[3] = 255;
    }
  return t;
}

const uint8_t kPalette[8][3] = {{255, 0, 0},   {0, 255, 0},   {0, 0, 255},   {255, 255, 0},
                                {0, 255, 255}, {255, 0, 255}, {255, 128, 0}, {128, 128, 255}};

void NearestNoMip(GLenum target) {
  glTexParameteri(target, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(target, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
}

void TextureArray() {
  // Three 8x8 layers, specified empty by glTexImage3D and filled one layer at a time by glTexSubImage3D,
  // plus glGenerateMipmap. Top half: layer by column at level 0; bottom half: the 1x1 level of each layer.
  const char* fs = R"(#version 330 core
in vec2 v_uv;
uniform sampler2DArray u_tex;
out vec4 frag;
void main() {
  float layer = floor(v_uv.x * 3.0);
  vec2 uv = vec2(fract(v_uv.x * 3.0), fract(v_uv.y * 2.0));
  frag = v_uv.y > 0.5 ? texture(u_tex, vec3(uv, layer)) : textureLod(u_tex, vec3(uv, layer), 3.0);
}
)";
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D_ARRAY, tex);
  glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA8, 8, 8, 3, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  for (int layer = 0; layer < 3; ++layer) {
    auto texels = Quadrants(8, kPalette[layer * 2], kPalette[layer * 2 + 1]);
    glTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 0, 0, layer, 8, 8, 1, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
  }
  glGenerateMipmap(GL_TEXTURE_2D_ARRAY);
  glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
  glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glUseProgram(harness::CompileProgram(kQuadVS, fs));
  DrawFullWindowQuad();
}

void TextureCube() {
  // Six 4x4 faces through glTexImage2D on each face target, then glGenerateMipmap. The window is a 3x2 grid,
  // one face per cell, each cell sweeping directions across its face; the bottom-right quarter of every cell
  // reads the 1x1 level (the face's average).
  const char* fs = R"(#version 330 core
in vec2 v_uv;
uniform samplerCube u_tex;
out vec4 frag;
void main() {
  int face = int(floor(v_uv.x * 3.0)) + 3 * int(floor(v_uv.y * 2.0));
  vec2 st = vec2(fract(v_uv.x * 3.0), fract(v_uv.y * 2.0)) * 1.8 - 0.9;
  vec3 dir;
  if (face == 0) dir = vec3(1.0, st.y, -st.x);
  else if (face == 1) dir = vec3(-1.0, st.y, st.x);
  else if (face == 2) dir = vec3(st.x, 1.0, -st.y);
  else if (face == 3) dir = vec3(st.x, -1.0, st.y);
  else if (face == 4) dir = vec3(st.x, st.y, 1.0);
  else dir = vec3(-st.x, st.y, -1.0);
  bool corner = st.x > 0.45 && st.y < -0.45;
  frag = corner ? textureLod(u_tex, dir, 2.0) : texture(u_tex, dir);
}
)";
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_CUBE_MAP, tex);
  for (int face = 0; face < 6; ++face) {
    auto texels = Quadrants(4, kPalette[face], kPalette[(face + 3) % 8]);
    glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 texels.data());
  }
  glGenerateMipmap(GL_TEXTURE_CUBE_MAP);
  glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
  glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glUseProgram(harness::CompileProgram(kQuadVS, fs));
  DrawFullWindowQuad();
}

void Texture3D() {
  // A 4x4x4 volume from one glTexImage3D (slice z has its own colours), with GL_UNPACK_ALIGNMENT 1 and RGB
  // source texels. Left half: nearest, one slice per column band; right half: linear along r between slices.
  const char* fs = R"(#version 330 core
in vec2 v_uv;
uniform sampler3D u_nearest;
uniform sampler3D u_linear;
out vec4 frag;
void main() {
  if (v_uv.x < 0.5) {
    float r = (floor(v_uv.x * 8.0) + 0.5) / 4.0;
    frag = texture(u_nearest, vec3(fract(v_uv.x * 8.0), v_uv.y, r));
  } else {
    frag = texture(u_linear, vec3(0.3, 0.6, v_uv.x * 2.0 - 1.0 + v_uv.y * 0.1));
  }
}
)";
  std::vector<uint8_t> texels(4 * 4 * 4 * 3);
  for (int z = 0; z < 4; ++z)
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x) {
        uint8_t* p = &texels[((z * 4 + y) * 4 + x) * 3];
        const uint8_t* c = kPalette[(z * 2 + (x >= 2)) % 8];
        p[0] = c[0], p[1] = c[1], p[2] = static_cast<uint8_t>(y * 60);
      }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  GLuint tex[2];
  glGenTextures(2, tex);
  for (int i = 0; i < 2; ++i) {
    glActiveTexture(GL_TEXTURE0 + i);
    glBindTexture(GL_TEXTURE_3D, tex[i]);
    glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA8, 4, 4, 4, 0, GL_RGB, GL_UNSIGNED_BYTE, texels.data());
    GLenum filter = i == 0 ? GL_NEAREST : GL_LINEAR;
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MIN_FILTER, filter);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MAG_FILTER, filter);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_WRAP_R, GL_CLAMP_TO_EDGE);
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  GLuint p = harness::CompileProgram(kQuadVS, fs);
  glUseProgram(p);
  glUniform1i(glGetUniformLocation(p, "u_nearest"), 0);
  glUniform1i(glGetUniformLocation(p, "u_linear"), 1);
  DrawFullWindowQuad();
}

void TextureRect() {
  // A 5x3 rectangle texture read with texel coordinates (texture), texelFetch and textureSize.
  const char* fs = R"(#version 330 core
in vec2 v_uv;
uniform sampler2DRect u_tex;
out vec4 frag;
void main() {
  vec2 size = vec2(textureSize(u_tex));
  if (v_uv.y > 0.5)
    frag = texture(u_tex, vec2(v_uv.x, v_uv.y * 2.0 - 1.0) * size);
  else
    frag = texelFetch(u_tex, ivec2(vec2(v_uv.x, v_uv.y * 2.0) * size)) * vec4(0.5, 1.0, 1.0, 1.0);
}
)";
  uint8_t texels[5 * 3 * 4];
  for (int i = 0; i < 15; ++i) {
    const uint8_t* c = kPalette[i % 8];
    texels[i * 4] = c[0], texels[i * 4 + 1] = c[1], texels[i * 4 + 2] = c[2], texels[i * 4 + 3] = 255;
  }
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_RECTANGLE, tex);
  glTexImage2D(GL_TEXTURE_RECTANGLE, 0, GL_RGBA8, 5, 3, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  NearestNoMip(GL_TEXTURE_RECTANGLE);
  glUseProgram(harness::CompileProgram(kQuadVS, fs));
  DrawFullWindowQuad();
}

void UnboundSamplers() {
  // Samplers of every kind, some with nothing bound, some bound to incomplete textures (a cube missing a
  // face, an array with no storage). Each reads (0,0,0,1) as GL requires; the band colour is added so the
  // picture is not uniform and a wrong alpha or colour shows.
  const char* fs = R"(#version 330 core
in vec2 v_uv;
uniform sampler2D u_2d;
uniform sampler2DArray u_array;
uniform samplerCube u_cube;
uniform sampler3D u_3d;
uniform sampler2DRect u_rect;
uniform samplerCube u_incomplete_cube;
uniform sampler2DArray u_empty_array;
out vec4 frag;
void main() {
  int band = int(floor(v_uv.x * 7.0));
  vec4 t;
  if (band == 0) t = texture(u_2d, v_uv);
  else if (band == 1) t = texture(u_array, vec3(v_uv, 0.0));
  else if (band == 2) t = texture(u_cube, vec3(1.0, v_uv));
  else if (band == 3) t = texture(u_3d, vec3(v_uv, 0.5));
  else if (band == 4) t = texture(u_rect, v_uv * 4.0);
  else if (band == 5) t = texture(u_incomplete_cube, vec3(v_uv, -1.0));
  else t = texture(u_empty_array, vec3(v_uv, 1.0));
  frag = vec4(t.rgb + vec3(float(band) / 7.0, v_uv.y, 0.25), t.a);
}
)";
  GLuint p = harness::CompileProgram(kQuadVS, fs);
  glUseProgram(p);
  const char* names[] = {"u_2d", "u_array", "u_cube", "u_3d", "u_rect", "u_incomplete_cube", "u_empty_array"};
  for (int i = 0; i < 7; ++i) glUniform1i(glGetUniformLocation(p, names[i]), i);
  GLuint tex[2];
  glGenTextures(2, tex);
  glActiveTexture(GL_TEXTURE5);
  glBindTexture(GL_TEXTURE_CUBE_MAP, tex[0]);
  const uint8_t white[4] = {255, 255, 255, 255};
  for (int face = 0; face < 5; ++face)  // -Z missing: cube incomplete
    glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 white);
  NearestNoMip(GL_TEXTURE_CUBE_MAP);
  glActiveTexture(GL_TEXTURE6);
  glBindTexture(GL_TEXTURE_2D_ARRAY, tex[1]);
  NearestNoMip(GL_TEXTURE_2D_ARRAY);
  glActiveTexture(GL_TEXTURE0);
  DrawFullWindowQuad();
}

void RenderToLayers() {
  // Render targets inside non-2D textures: a cube face (glFramebufferTexture2D), an array layer
  // (glFramebufferTextureLayer), a 3D slice (glFramebufferTexture3D) and level 1 of a 2D texture; each is
  // cleared, drawn into, then sampled in its quarter of the window. Neighbouring layers keep their
  // own upload, so a write to the wrong layer shows.
  const char* draw_fs = R"(#version 330 core
uniform vec4 u_color;
out vec4 frag;
void main() { frag = u_color; }
)";
  const char* tri_vs = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
void main() { gl_Position = vec4(a_pos * 0.8, 0.0, 1.0); }
)";
  const char* show_fs = R"(#version 330 core
in vec2 v_uv;
uniform samplerCube u_cube;
uniform sampler2DArray u_array;
uniform sampler3D u_volume;
uniform sampler2D u_mip;
out vec4 frag;
void main() {
  vec2 uv = fract(v_uv * 2.0);
  int quarter = int(floor(v_uv.x * 2.0)) + 2 * int(floor(v_uv.y * 2.0));
  if (quarter == 0) frag = texture(u_cube, vec3(uv.x * 2.0 - 1.0, -1.0, uv.y * 2.0 - 1.0)) * 0.5 +
                           texture(u_cube, vec3(1.0, uv.y * 2.0 - 1.0, 1.0 - uv.x * 2.0)) * 0.5;
  else if (quarter == 1) frag = uv.x < 0.5 ? texture(u_array, vec3(uv.x * 2.0, uv.y, 1.0))
                                           : texture(u_array, vec3(uv.x * 2.0 - 1.0, uv.y, 0.0));
  else if (quarter == 2) frag = texture(u_volume, vec3(uv, uv.x < 0.5 ? 0.625 : 0.375));
  else frag = textureLod(u_mip, uv, 1.0);
}
)";
  std::vector<uint8_t> grey(16 * 16 * 4 * 4, 90);
  GLuint tex[4];
  glGenTextures(4, tex);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_CUBE_MAP, tex[0]);
  for (int face = 0; face < 6; ++face)
    glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, 0, GL_RGBA8, 16, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 grey.data());
  NearestNoMip(GL_TEXTURE_CUBE_MAP);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D_ARRAY, tex[1]);
  glTexStorage3D(GL_TEXTURE_2D_ARRAY, 1, GL_RGBA8, 16, 16, 2);
  glTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 0, 0, 0, 16, 16, 2, GL_RGBA, GL_UNSIGNED_BYTE, grey.data());
  NearestNoMip(GL_TEXTURE_2D_ARRAY);
  glActiveTexture(GL_TEXTURE2);
  glBindTexture(GL_TEXTURE_3D, tex[2]);
  glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA8, 16, 16, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, grey.data());
  NearestNoMip(GL_TEXTURE_3D);
  glActiveTexture(GL_TEXTURE3);
  glBindTexture(GL_TEXTURE_2D, tex[3]);
  glTexStorage2D(GL_TEXTURE_2D, 2, GL_RGBA8, 32, 32);
  glTexSubImage2D(GL_TEXTURE_2D, 1, 0, 0, 16, 16, GL_RGBA, GL_UNSIGNED_BYTE, grey.data());
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);

  GLuint fbo;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  GLuint draw = harness::CompileProgram(tri_vs, draw_fs);
  glUseProgram(draw);
  GLint color = glGetUniformLocation(draw, "u_color");
  static const float tri[6] = {-1, -1, 1, -1, -1, 1};
  GLuint vao, vbo;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glGenBuffers(1, &vbo);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glBufferData(GL_ARRAY_BUFFER, sizeof(tri), tri, GL_STATIC_DRAW);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  glViewport(0, 0, 16, 16);
  auto render = [&](int palette) {
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) return;
    glClearColor(kPalette[palette][0] / 255.0f, kPalette[palette][1] / 255.0f, kPalette[palette][2] / 255.0f,
                 1);
    glClear(GL_COLOR_BUFFER_BIT);
    const uint8_t* c = kPalette[(palette + 4) % 8];
    glUniform4f(color, c[0] / 255.0f, c[1] / 255.0f, c[2] / 255.0f, 1);
    glDrawArrays(GL_TRIANGLES, 0, 3);
  };
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_CUBE_MAP_NEGATIVE_Y, tex[0], 0);
  render(0);
  glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex[1], 0, 1);
  render(1);
  glFramebufferTexture3D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_3D, tex[2], 0, 2);
  render(2);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex[3], 1);
  render(3);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, kWidth, kHeight);
  GLuint show = harness::CompileProgram(kQuadVS, show_fs);
  glUseProgram(show);
  const char* names[] = {"u_cube", "u_array", "u_volume", "u_mip"};
  for (int i = 0; i < 4; ++i) glUniform1i(glGetUniformLocation(show, names[i]), i);
  DrawFullWindowQuad();
}

}  // namespace

const std::vector<Scene>& TextureScenes() {
  static const std::vector<Scene> scenes = {
      {"texture_array", TextureArray, false},
      {"texture_cube", TextureCube, false},
      {"texture_3d", Texture3D, false},
      {"texture_rect", TextureRect, false},
      {"unbound_samplers", UnboundSamplers, false},
      {"render_to_layers", RenderToLayers, false},
  };
  return scenes;
}

}  // namespace scenes
