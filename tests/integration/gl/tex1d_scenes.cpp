// Scenes for 1D and 1D-array textures (sampling through every 1D sampler type and lookup function,
// mipmaps, rendering into them) and for copies from the framebuffer into textures (glCopyTex(Sub)Image*).
// Compared with Mesa llvmpipe like the other scenes; nearest filtering wherever a tie could go either way.
#include <vector>

#include "gl_harness.h"
#include "scenes.h"

namespace scenes {
namespace {

const uint8_t kColors[8][4] = {{255, 0, 0, 255},   {0, 255, 0, 255},    {0, 0, 255, 255},
                               {255, 255, 0, 255}, {0, 255, 255, 255},  {255, 0, 255, 255},
                               {255, 128, 0, 255}, {128, 128, 255, 255}};

// n RGBA8 texels cycling through kColors, `shift` places on.
std::vector<uint8_t> Stripes(int n, int shift) {
  std::vector<uint8_t> t(size_t(n) * 4);
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < 4; ++c) t[size_t(i) * 4 + c] = kColors[(i + shift) % 8][c];
  return t;
}

void Nearest(GLenum target, GLenum min = GL_NEAREST) {
  glTexParameteri(target, GL_TEXTURE_MIN_FILTER, static_cast<GLint>(min));
  glTexParameteri(target, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
}

void Texture1D() {
  // Eight horizontal bands, one lookup each: texture, textureLod of a generated mip level, texelFetch,
  // textureOffset, textureProj, a linear-filtered 1D texture, an integer (isampler1D) texelFetch with
  // textureSize, and a shadow comparison (sampler1DShadow).
  const char* fs = R"(#version 330 core
in vec2 v_uv;
uniform sampler1D u_tex;
uniform sampler1D u_linear;
uniform isampler1D u_int;
uniform sampler1DShadow u_shadow;
out vec4 frag;
void main() {
  int band = int(floor(v_uv.y * 8.0));
  float x = v_uv.x;
  if (band == 0) frag = texture(u_tex, x);
  else if (band == 1) frag = textureLod(u_tex, x, 2.0);
  else if (band == 2) frag = texelFetch(u_tex, int(x * 8.0), 1);
  else if (band == 3) frag = textureOffset(u_tex, x, 3);
  else if (band == 4) frag = textureProj(u_tex, vec2(x * 2.0, 2.0));
  else if (band == 5) frag = texture(u_linear, x);
  else if (band == 6) {
    ivec4 v = texelFetch(u_int, int(x * 4.0), 0);
    frag = vec4(float(v.r) / 100.0, float(v.g) / 100.0, float(textureSize(u_int, 0)) / 8.0, 1.0);
  } else {
    frag = vec4(texture(u_shadow, vec3(x, 0.0, 0.5)), float(textureSize(u_tex, 1)) / 16.0, 0.0, 1.0);
  }
}
)";
  GLuint tex[4];
  glGenTextures(4, tex);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_1D, tex[0]);
  auto texels = Stripes(16, 0);
  glTexImage1D(GL_TEXTURE_1D, 0, GL_RGBA8, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
  glGenerateMipmap(GL_TEXTURE_1D);
  auto patch = Stripes(3, 5);
  glTexSubImage1D(GL_TEXTURE_1D, 0, 4, 3, GL_RGBA, GL_UNSIGNED_BYTE, patch.data());
  Nearest(GL_TEXTURE_1D, GL_NEAREST_MIPMAP_NEAREST);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_1D, tex[1]);
  const uint8_t ramp[4 * 4] = {0, 0, 0, 255, 255, 0, 0, 255, 0, 255, 0, 255, 255, 255, 255, 255};
  glTexStorage1D(GL_TEXTURE_1D, 1, GL_RGBA8, 4);
  glTexSubImage1D(GL_TEXTURE_1D, 0, 0, 4, GL_RGBA, GL_UNSIGNED_BYTE, ramp);
  glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glActiveTexture(GL_TEXTURE2);
  glBindTexture(GL_TEXTURE_1D, tex[2]);
  const GLint ints[4 * 2] = {10, 90, 30, 70, 50, 50, 70, 30};
  glTexImage1D(GL_TEXTURE_1D, 0, GL_RG32I, 4, 0, GL_RG_INTEGER, GL_INT, ints);
  Nearest(GL_TEXTURE_1D);
  glActiveTexture(GL_TEXTURE3);
  glBindTexture(GL_TEXTURE_1D, tex[3]);
  const float depths[8] = {0.1f, 0.9f, 0.2f, 0.8f, 0.3f, 0.7f, 0.4f, 0.6f};
  glTexImage1D(GL_TEXTURE_1D, 0, GL_DEPTH_COMPONENT32F, 8, 0, GL_DEPTH_COMPONENT, GL_FLOAT, depths);
  Nearest(GL_TEXTURE_1D);
  glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
  glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_COMPARE_FUNC, GL_LESS);
  glActiveTexture(GL_TEXTURE0);
  GLuint p = harness::CompileProgram(kQuadVS, fs);
  glUseProgram(p);
  const char* names[] = {"u_tex", "u_linear", "u_int", "u_shadow"};
  for (int i = 0; i < 4; ++i) glUniform1i(glGetUniformLocation(p, names[i]), i);
  DrawFullWindowQuad();
}

void Texture1DArray() {
  // A 1D array of four layers (glTexImage2D, one layer replaced by glTexSubImage2D, mipmaps generated),
  // layer 2 and a 1D texture then rendered into (glFramebufferTextureLayer, glFramebufferTexture1D).
  // Left: each layer at level 0 by row band; middle: level 1; right: the rendered 1D texture, a shadow
  // lookup of a 1D depth array and textureSize; unbound 1D samplers add their (0,0,0,1).
  const char* draw_fs = R"(#version 330 core
uniform vec4 u_color;
out vec4 frag;
void main() { frag = u_color; }
)";
  const char* fs = R"(#version 330 core
in vec2 v_uv;
uniform sampler1DArray u_array;
uniform sampler1D u_rendered;
uniform sampler1DArrayShadow u_shadow;
uniform sampler1D u_unbound;
uniform usampler1DArray u_unbound_array;
out vec4 frag;
void main() {
  float layer = floor(v_uv.y * 4.0);
  vec4 missing = texture(u_unbound, v_uv.x) + vec4(texture(u_unbound_array, vec2(v_uv.x, 1.0)));
  if (v_uv.x < 0.4) frag = texture(u_array, vec2(v_uv.x / 0.4, layer));
  else if (v_uv.x < 0.7) frag = textureLod(u_array, vec2((v_uv.x - 0.4) / 0.3, layer), 1.0);
  else if (v_uv.y < 0.5) frag = texture(u_rendered, (v_uv.x - 0.7) / 0.3);
  else {
    ivec2 size = textureSize(u_array, 0);
    float s = texture(u_shadow, vec3((v_uv.x - 0.7) / 0.3, layer, 0.5));
    frag = vec4(s, float(size.x) / 16.0, float(size.y) / 8.0, 1.0);
  }
  frag += vec4(missing.rgb * 0.5, missing.a - 2.0);
}
)";
  GLuint tex[3];
  glGenTextures(3, tex);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_1D_ARRAY, tex[0]);
  std::vector<uint8_t> texels;
  for (int layer = 0; layer < 4; ++layer) {
    auto row = Stripes(8, layer * 2);
    texels.insert(texels.end(), row.begin(), row.end());
  }
  glTexImage2D(GL_TEXTURE_1D_ARRAY, 0, GL_RGBA8, 8, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
  auto row = Stripes(8, 7);
  glTexSubImage2D(GL_TEXTURE_1D_ARRAY, 0, 0, 3, 8, 1, GL_RGBA, GL_UNSIGNED_BYTE, row.data());
  glGenerateMipmap(GL_TEXTURE_1D_ARRAY);
  Nearest(GL_TEXTURE_1D_ARRAY, GL_NEAREST_MIPMAP_NEAREST);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_1D, tex[1]);
  glTexImage1D(GL_TEXTURE_1D, 0, GL_RGBA8, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  Nearest(GL_TEXTURE_1D);
  glActiveTexture(GL_TEXTURE2);
  glBindTexture(GL_TEXTURE_1D_ARRAY, tex[2]);
  std::vector<float> depths(8 * 4);
  for (size_t i = 0; i < depths.size(); ++i) depths[i] = float((i * 5) % 8) / 8.0f + 0.05f;
  glTexImage2D(GL_TEXTURE_1D_ARRAY, 0, GL_DEPTH_COMPONENT32F, 8, 4, 0, GL_DEPTH_COMPONENT, GL_FLOAT,
               depths.data());
  Nearest(GL_TEXTURE_1D_ARRAY);
  glTexParameteri(GL_TEXTURE_1D_ARRAY, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);

  // Render: layer 2 of the array cleared then half drawn, the 1D texture cleared and a quarter drawn.
  GLuint fbo;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  GLuint draw = harness::CompileProgram(kQuadVS, draw_fs);
  glUseProgram(draw);
  GLint color = glGetUniformLocation(draw, "u_color");
  glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex[0], 0, 2);
  glViewport(0, 0, 8, 1);
  glClearColor(0.2f, 0.4f, 0.6f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glViewport(0, 0, 4, 1);
  glUniform4f(color, 1, 1, 1, 1);
  DrawFullWindowQuad();
  glFramebufferTexture1D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_1D, tex[1], 0);
  glViewport(0, 0, 16, 1);
  glClearColor(0.8f, 0.1f, 0.3f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glViewport(4, 0, 4, 1);
  glUniform4f(color, 0, 0.5f, 1, 1);
  DrawFullWindowQuad();
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, kWidth, kHeight);

  GLuint p = harness::CompileProgram(kQuadVS, fs);
  glUseProgram(p);
  const char* names[] = {"u_array", "u_rendered", "u_shadow", "u_unbound", "u_unbound_array"};
  for (int i = 0; i < 5; ++i) glUniform1i(glGetUniformLocation(p, names[i]), i);
  DrawFullWindowQuad();
}

void CopyTexImage() {
  // The window gets a picture (clear + coloured quads), an FBO with two colour attachments another; then
  // glCopyTexImage2D/1D and glCopyTexSubImage1D/2D/3D copy from the default framebuffer, from the FBO's
  // second attachment (glReadBuffer), into RGB8 (alpha must read 1), R32F and a 1D array (rows to layers),
  // and a copy of a just-cleared FBO (a pending clear). The bands of the final picture show each result.
  const char* color_fs = R"(#version 330 core
uniform vec4 u_color;
layout(location = 0) out vec4 frag0;
layout(location = 1) out vec4 frag1;
void main() { frag0 = u_color; frag1 = u_color.bgra; }
)";
  const char* show_fs = R"(#version 330 core
in vec2 v_uv;
uniform sampler2D u_full;
uniform sampler2D u_sub;
uniform sampler1D u_line;
uniform sampler2D u_rgb;
uniform sampler2D u_float;
uniform sampler1DArray u_rows;
uniform sampler2DArray u_layers;
uniform sampler2D u_cleared;
out vec4 frag;
void main() {
  int band = int(floor(v_uv.x * 8.0));
  vec2 uv = vec2(fract(v_uv.x * 8.0), v_uv.y);
  vec4 c;
  if (band == 0) c = texture(u_full, uv);
  else if (band == 1) c = texture(u_sub, uv);
  else if (band == 2) c = texture(u_line, uv.y);
  else if (band == 3) c = texture(u_rgb, uv);
  else if (band == 4) c = vec4(texture(u_float, uv).rgb, 0.5);
  else if (band == 5) c = texture(u_rows, vec2(uv.y, floor(uv.x * 4.0)));
  else if (band == 6) c = texture(u_layers, vec3(uv, 1.0));
  else c = texture(u_cleared, uv);
  frag = vec4(c.rgb, 1.0) * (c.a > 0.75 ? 1.0 : 0.5);
}
)";
  GLuint color_prog = harness::CompileProgram(kQuadVS, color_fs);
  glUseProgram(color_prog);
  GLint color = glGetUniformLocation(color_prog, "u_color");
  glClearColor(0.1f, 0.2f, 0.3f, 0.5f);
  glClear(GL_COLOR_BUFFER_BIT);
  glEnable(GL_SCISSOR_TEST);
  for (int i = 0; i < 4; ++i) {
    glScissor(i * 16, i * 8, 16, 40);
    glUniform4f(color, kColors[i][0] / 255.0f, kColors[i][1] / 255.0f, kColors[i][2] / 255.0f, 1);
    DrawFullWindowQuad();
  }
  glDisable(GL_SCISSOR_TEST);

  GLuint tex[9];
  glGenTextures(9, tex);
  auto bind = [&](int unit, GLenum target, GLuint t) {
    glActiveTexture(GL_TEXTURE0 + unit);
    glBindTexture(target, t);
    Nearest(target);
  };
  // From the default framebuffer (its alpha is 0.5 where cleared).
  bind(0, GL_TEXTURE_2D, tex[0]);
  glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 0, 0, 64, 64, 0);
  bind(1, GL_TEXTURE_2D, tex[1]);
  std::vector<uint8_t> grey(32 * 32 * 4, 200);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 32, 32, 0, GL_RGBA, GL_UNSIGNED_BYTE, grey.data());
  glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 8, 4, 10, 12, 16, 20);
  bind(2, GL_TEXTURE_1D, tex[2]);
  glCopyTexImage1D(GL_TEXTURE_1D, 0, GL_RGBA8, 0, 20, 64, 0);
  glCopyTexSubImage1D(GL_TEXTURE_1D, 0, 40, 16, 2, 24);
  bind(3, GL_TEXTURE_2D, tex[3]);
  glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, 4, 4, 48, 48, 0);
  bind(4, GL_TEXTURE_2D, tex[4]);
  glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, 0, 0, 64, 64, 0);
  bind(5, GL_TEXTURE_1D_ARRAY, tex[5]);
  glCopyTexImage2D(GL_TEXTURE_1D_ARRAY, 0, GL_RGBA8, 0, 10, 32, 4, 0);

  // From an FBO's second attachment.
  GLuint rb[2], fbo[2];
  glGenRenderbuffers(2, rb);
  glGenFramebuffers(2, fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo[0]);
  for (int i = 0; i < 2; ++i) {
    glBindRenderbuffer(GL_RENDERBUFFER, rb[i]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 32, 32);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + i, GL_RENDERBUFFER, rb[i]);
  }
  const GLenum bufs[2] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1};
  glDrawBuffers(2, bufs);
  glViewport(0, 0, 32, 32);
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glViewport(8, 0, 16, 32);
  glUniform4f(color, 1, 0.5f, 0, 1);
  DrawFullWindowQuad();
  glReadBuffer(GL_COLOR_ATTACHMENT1);
  bind(6, GL_TEXTURE_2D_ARRAY, tex[6]);
  std::vector<uint8_t> blue(32 * 32 * 3 * 4, 0);
  for (size_t i = 2; i < blue.size(); i += 4) blue[i] = blue[i + 1] = 255;
  glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA8, 32, 32, 3, 0, GL_RGBA, GL_UNSIGNED_BYTE, blue.data());
  glCopyTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 4, 4, 1, 0, 0, 24, 24);

  // A cleared FBO copied at once: the clear is still pending in Caldera's Vulkan backend.
  glBindFramebuffer(GL_FRAMEBUFFER, fbo[1]);
  GLuint target_tex;
  glGenTextures(1, &target_tex);
  glActiveTexture(GL_TEXTURE8);
  glBindTexture(GL_TEXTURE_2D, target_tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 16, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target_tex, 0);
  glViewport(0, 0, 16, 16);
  glClearColor(0.9f, 0.6f, 0.1f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  bind(7, GL_TEXTURE_2D, tex[7]);
  glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 0, 0, 16, 16, 0);

  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, kWidth, kHeight);
  GLuint show = harness::CompileProgram(kQuadVS, show_fs);
  glUseProgram(show);
  const char* names[] = {"u_full", "u_sub", "u_line", "u_rgb", "u_float", "u_rows", "u_layers", "u_cleared"};
  for (int i = 0; i < 8; ++i) glUniform1i(glGetUniformLocation(show, names[i]), i);
  glActiveTexture(GL_TEXTURE0);
  DrawFullWindowQuad();
}

}  // namespace

const std::vector<Scene>& Tex1DScenes() {
  static const std::vector<Scene> scenes = {
      {"texture_1d", Texture1D, false},
      {"texture_1d_array", Texture1DArray, false},
      {"copy_tex_image", CopyTexImage, false},
  };
  return scenes;
}

}  // namespace scenes
