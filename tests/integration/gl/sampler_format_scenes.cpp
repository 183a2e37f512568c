// Scenes for sampler border colours (float and integer textures, texture parameters and sampler objects),
// SNORM textures uploaded from several client types, RGTC textures (compressed uploads, sub-images, 2D
// arrays, cubes, unpack buffers, uncompressed uploads into an RGTC format, copies, generated mipmaps) and
// sRGB-aware glBlitFramebuffer.
// Compared with Mesa llvmpipe like the other scenes; values are chosen exact in each format.
#include <cstdint>
#include <cstring>
#include <vector>

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

void ClampToBorder(GLenum target) {
  glTexParameteri(target, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER);
  glTexParameteri(target, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_BORDER);
}

// A quad whose texture coordinates run -0.5..1.5: the outer half of each side reads the border.
const char* const kBorderVS = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
out vec2 v_uv;
void main() { v_uv = a_pos + 0.5; gl_Position = vec4(a_pos, 0.0, 1.0); }
)";

void BorderColors() {
  // Six 32x20 cells: RGBA8 with (0.2, 0.4, 0.6, 0.8) from glTexParameterfv; R8 with a colour whose green,
  // blue and alpha the format replaces (0, 0, 1); RGBA16F with values above one; RGBA8I with negative
  // integers from glTexParameterIiv; R32UI from glTexParameterIuiv; and RGBA8UI through a sampler object's
  // glSamplerParameterIuiv (the texture's own border differs and must not be used).
  const uint8_t rgba8[16] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
  GLuint tex[6];
  tex[0] = Texture2D(GL_RGBA8, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE, rgba8);
  const GLfloat b0[4] = {0.2f, 0.4f, 0.6f, 0.8f};
  glTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, b0);
  ClampToBorder(GL_TEXTURE_2D);
  // Rows of two texels, padded to GL_UNPACK_ALIGNMENT (4).
  const uint8_t r8[6] = {40, 80, 0, 0, 120, 160};
  tex[1] = Texture2D(GL_R8, 2, 2, GL_RED, GL_UNSIGNED_BYTE, r8);
  const GLfloat b1[4] = {0.6f, 0.8f, 0.4f, 0.2f};
  glTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, b1);
  ClampToBorder(GL_TEXTURE_2D);
  const float f16[16] = {0.5f, 0.5f, 0.5f, 1, 0.25f, 0.25f, 0.25f, 1, 0, 0, 0, 1, 1, 1, 1, 1};
  tex[2] = Texture2D(GL_RGBA16F, 2, 2, GL_RGBA, GL_FLOAT, f16);
  const GLfloat b2[4] = {2.0f, 0.5f, 4.0f, 1.0f};  // the shader divides by 4
  glTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, b2);
  ClampToBorder(GL_TEXTURE_2D);
  const int8_t i8[16] = {10, 20, 30, 40, -10, -20, -30, -40, 50, 60, 70, 80, -50, -60, -70, -80};
  tex[3] = Texture2D(GL_RGBA8I, 2, 2, GL_RGBA_INTEGER, GL_BYTE, i8);
  const GLint b3[4] = {-100, 100, -25, 120};
  glTexParameterIiv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, b3);
  ClampToBorder(GL_TEXTURE_2D);
  const uint32_t u32[4] = {1000, 2000, 3000, 4000};
  tex[4] = Texture2D(GL_R32UI, 2, 2, GL_RED_INTEGER, GL_UNSIGNED_INT, u32);
  const GLuint b4[4] = {100000, 7, 7, 7};  // green, blue and alpha read 0, 0, 1
  glTexParameterIuiv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, b4);
  ClampToBorder(GL_TEXTURE_2D);
  const uint8_t u8[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  tex[5] = Texture2D(GL_RGBA8UI, 2, 2, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, u8);
  const GLuint own[4] = {255, 255, 255, 255};
  glTexParameterIuiv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, own);
  GLuint sampler;
  glGenSamplers(1, &sampler);
  glSamplerParameteri(sampler, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glSamplerParameteri(sampler, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glSamplerParameteri(sampler, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER);
  glSamplerParameteri(sampler, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_BORDER);
  const GLuint b5[4] = {200, 150, 100, 50};
  glSamplerParameterIuiv(sampler, GL_TEXTURE_BORDER_COLOR, b5);

  const char* float_fs = R"(#version 330 core
in vec2 v_uv;
uniform sampler2D u_tex;
uniform float u_scale;
out vec4 frag;
void main() { frag = texture(u_tex, v_uv) * u_scale; }
)";
  const char* int_fs = R"(#version 330 core
in vec2 v_uv;
uniform isampler2D u_tex;
out vec4 frag;
void main() { frag = (vec4(texture(u_tex, v_uv)) + 128.0) / 255.0; }
)";
  const char* uint_fs = R"(#version 330 core
in vec2 v_uv;
uniform usampler2D u_tex;
out vec4 frag;
void main() { frag = vec4(texture(u_tex, v_uv) % 256u) / 255.0; }
)";
  GLuint fprog = harness::CompileProgram(kBorderVS, float_fs);
  GLuint iprog = harness::CompileProgram(kBorderVS, int_fs);
  GLuint uprog = harness::CompileProgram(kBorderVS, uint_fs);
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  for (int i = 0; i < 6; ++i) {
    GLuint prog = i < 3 ? fprog : i == 3 ? iprog : uprog;
    glUseProgram(prog);
    GLint scale = glGetUniformLocation(prog, "u_scale");
    if (scale >= 0) glUniform1f(scale, i == 2 ? 0.25f : 1.0f);
    glBindTexture(GL_TEXTURE_2D, tex[i]);
    if (i == 5) glBindSampler(0, sampler);
    glViewport((i % 2) * 32, (i / 2) * 20, 32, 20);  // even sizes: no sample on a texel edge
    DrawFullWindowQuad();
  }
  glBindSampler(0, 0);
  glViewport(0, 0, kWidth, kHeight);
  glDeleteSamplers(1, &sampler);
  glDeleteTextures(6, tex);
}

void SnormTextures() {
  // Eight 16x32 cells, one per SNORM format, each uploaded from a different client type: GL_BYTE and
  // GL_SHORT copy, GL_FLOAT and GL_UNSIGNED_BYTE convert. The shader maps -1..1 to 0..1.
  const int8_t bytes[16] = {-127, 127, 0, 64, -64, 32, -32, 100, 127, -127, 64, 0, -100, 0, 127, -127};
  const int16_t shorts[16] = {-32767, 32767,  0,     16384, -16384, 8192, -8192, 25600,
                              32767,  -32767, 16384, 0,     -25600, 0,    32767, -32767};
  const float floats[16] = {-1.0f, 1.0f,  0.0f, 0.5f, -0.5f,  0.25f, -0.25f, 0.75f,
                            1.0f,  -1.0f, 0.5f, 0.0f, -0.75f, 0.0f,  2.0f,   -3.0f};  // clamps
  const uint8_t ubytes[16] = {0, 255, 51, 102, 153, 204, 0, 255, 255, 0, 102, 51, 204, 153, 0, 255};
  struct Cell {
    GLenum internal, format, type;
    const void* data;
  } cells[8] = {
      {GL_R8_SNORM, GL_RED, GL_BYTE, bytes},
      {GL_RG8_SNORM, GL_RG, GL_FLOAT, floats},
      {GL_RGB8_SNORM, GL_RGB, GL_UNSIGNED_BYTE, ubytes},
      {GL_RGBA8_SNORM, GL_RGBA, GL_BYTE, bytes},
      {GL_R16_SNORM, GL_RED, GL_SHORT, shorts},
      {GL_RG16_SNORM, GL_RG, GL_SHORT, shorts},
      {GL_RGB16_SNORM, GL_RGB, GL_FLOAT, floats},
      {GL_RGBA16_SNORM, GL_RGBA, GL_SHORT, shorts},
  };
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  const char* fs = R"(#version 330 core
in vec2 v_uv;
uniform sampler2D u_tex;
out vec4 frag;
void main() { frag = texture(u_tex, v_uv) * 0.5 + 0.5; }
)";
  glUseProgram(harness::CompileProgram(kQuadVS, fs));
  GLuint tex[8];
  for (int i = 0; i < 8; ++i) {
    // 2x2 textures: the data arrays hold enough components for four RGBA texels.
    tex[i] = Texture2D(cells[i].internal, 2, 2, cells[i].format, cells[i].type, cells[i].data);
    glViewport((i % 4) * 16, (i / 4) * 32, 16, 32);
    DrawFullWindowQuad();
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glViewport(0, 0, kWidth, kHeight);
  glDeleteTextures(8, tex);
}

// One RGTC channel block from endpoints and a pattern of indices (texel i takes (seed + i * step) % 8).
void Block(uint8_t e0, uint8_t e1, int seed, int step, uint8_t* out) {
  out[0] = e0, out[1] = e1;
  uint64_t bits = 0;
  for (int t = 0; t < 16; ++t) bits |= uint64_t((seed + t * step) % 8) << (3 * t);
  for (int i = 0; i < 6; ++i) out[2 + i] = static_cast<uint8_t>(bits >> (8 * i));
}

// Blocks of an 8x8 image (2x2 blocks) of `channels` channels; both palette modes appear (e0 > e1 and not).
std::vector<uint8_t> Blocks(int channels, int salt, int layers = 1) {
  std::vector<uint8_t> data;
  for (int b = 0; b < 4 * layers; ++b) {
    for (int c = 0; c < channels; ++c) {
      uint8_t block[8];
      int k = b * 3 + c * 5 + salt;
      bool six = (k % 3) != 0;
      uint8_t hi = static_cast<uint8_t>(150 + (k * 37) % 100), lo = static_cast<uint8_t>((k * 53) % 120);
      Block(six ? hi : lo, six ? lo : hi, k % 8, 3 + c, block);
      data.insert(data.end(), block, block + 8);
    }
  }
  return data;
}

void RgtcTextures() {
  // Eight 16x32 cells: the four RGTC formats from glCompressedTexImage2D; RGTC1 with one block replaced by
  // glCompressedTexSubImage2D; RGTC2 from a pixel unpack buffer; layer 1 of a 2D array from
  // glCompressedTexImage3D; RGTC1 from uncompressed texels (two values per block: exact in any encoder).
  // Signed formats are mapped from -1..1 to 0..1. A green or red bar across the bottom rows says whether
  // glGetCompressedTexImage returned the blocks given.
  const GLenum formats[4] = {GL_COMPRESSED_RED_RGTC1, GL_COMPRESSED_SIGNED_RED_RGTC1, GL_COMPRESSED_RG_RGTC2,
                             GL_COMPRESSED_SIGNED_RG_RGTC2};
  GLuint tex[8];
  glGenTextures(8, tex);
  bool round_trip = true;
  for (int i = 0; i < 4; ++i) {
    int channels = i < 2 ? 1 : 2;
    std::vector<uint8_t> data = Blocks(channels, i);
    glBindTexture(GL_TEXTURE_2D, tex[i]);
    glCompressedTexImage2D(GL_TEXTURE_2D, 0, formats[i], 8, 8, 0, GLsizei(data.size()), data.data());
    std::vector<uint8_t> back(data.size(), 0);
    glGetCompressedTexImage(GL_TEXTURE_2D, 0, back.data());
    round_trip = round_trip && back == data;
  }
  // Sub-image: the top-right block of an RGTC1 texture.
  std::vector<uint8_t> base = Blocks(1, 7), patch = Blocks(1, 11);
  glBindTexture(GL_TEXTURE_2D, tex[4]);
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 8, 8, 0, GLsizei(base.size()),
                         base.data());
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 4, 4, 4, 4, GL_COMPRESSED_RED_RGTC1, 8, patch.data());
  // Unpack buffer: RGTC2 blocks at an offset.
  std::vector<uint8_t> pbo_data = Blocks(2, 13);
  GLuint pbo;
  glGenBuffers(1, &pbo);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo);
  glBufferData(GL_PIXEL_UNPACK_BUFFER, GLsizeiptr(pbo_data.size() + 64), nullptr, GL_STATIC_DRAW);
  glBufferSubData(GL_PIXEL_UNPACK_BUFFER, 64, GLsizeiptr(pbo_data.size()), pbo_data.data());
  glBindTexture(GL_TEXTURE_2D, tex[5]);
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RG_RGTC2, 8, 8, 0, GLsizei(pbo_data.size()),
                         reinterpret_cast<const void*>(uintptr_t(64)));
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  glDeleteBuffers(1, &pbo);
  // A 2D array of two layers; layer 1 is drawn.
  std::vector<uint8_t> layers = Blocks(1, 17, 2);
  glBindTexture(GL_TEXTURE_2D_ARRAY, tex[6]);
  glCompressedTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_COMPRESSED_SIGNED_RED_RGTC1, 8, 8, 2, 0,
                         GLsizei(layers.size()), layers.data());
  glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  // Uncompressed texels into an RGTC format: each 4x4 block holds two values.
  uint8_t texels[64];
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x)
      texels[y * 8 + x] = static_cast<uint8_t>(((x + y) & 1) ? 40 + (x / 4) * 100 : 200 - (y / 4) * 60);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glBindTexture(GL_TEXTURE_2D, tex[7]);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 8, 8, 0, GL_RED, GL_UNSIGNED_BYTE, texels);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  for (int i = 0; i < 8; ++i) {
    if (i == 6) continue;
    glBindTexture(GL_TEXTURE_2D, tex[i]);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  }
  const char* fs = R"(#version 330 core
in vec2 v_uv;
uniform sampler2D u_tex;
uniform sampler2DArray u_array;
uniform bool u_signed;
uniform bool u_use_array;
out vec4 frag;
void main() {
  vec4 v = u_use_array ? texture(u_array, vec3(v_uv, 1.0)) : texture(u_tex, v_uv);
  frag = u_signed ? v * 0.5 + 0.5 : v;
}
)";
  GLuint prog = harness::CompileProgram(kQuadVS, fs);
  glUseProgram(prog);
  glUniform1i(glGetUniformLocation(prog, "u_tex"), 0);
  glUniform1i(glGetUniformLocation(prog, "u_array"), 1);
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  for (int i = 0; i < 8; ++i) {
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D_ARRAY, tex[6]);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, i == 6 ? 0 : tex[i]);
    glUniform1i(glGetUniformLocation(prog, "u_signed"), i == 1 || i == 3 || i == 6);
    glUniform1i(glGetUniformLocation(prog, "u_use_array"), i == 6);
    glViewport((i % 4) * 16, 4 + (i / 4) * 30, 16, 30);
    DrawFullWindowQuad();
  }
  glViewport(0, 0, kWidth, kHeight);
  glEnable(GL_SCISSOR_TEST);
  glScissor(0, 0, kWidth, 4);
  glClearColor(round_trip ? 0.0f : 1.0f, round_trip ? 1.0f : 0.0f, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  glDeleteTextures(8, tex);
}

// Texels of a w x h single-channel image where each 4x4 block holds two values (exact in any encoder, so
// uncompressed uploads, copies and generated levels compress to the same blocks everywhere).
std::vector<uint8_t> TwoValueTexels(int w, int h, int salt) {
  std::vector<uint8_t> t(size_t(w) * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      int block = (y / 4) * 7 + (x / 4) * 3 + salt;
      bool odd = ((x + y) & 1) != 0;
      t[size_t(y) * w + x] = static_cast<uint8_t>(odd ? 30 + (block * 41) % 200 : 220 - (block * 23) % 150);
    }
  return t;
}

void RgtcUpdates() {
  // Eight 16x32 cells of RGTC textures written every way but a whole-level compressed upload: a 10x10
  // RGTC1 texture with compressed sub-images on the block grid, one of them ending at the level's edge
  // (2 texels wide); an uncompressed glTexSubImage2D into an RGTC2 texture; the +X and -Z faces of an RGTC2
  // cube; layer 1 of a signed RGTC1 array rewritten by glCompressedTexSubImage3D; glGenerateMipmap of an
  // RGTC1 texture of uniform 8x8 regions, sampled at level 1; glCopyTexSubImage2D of a cleared rectangle
  // into an RGTC1 block; the edge texture again with linear filtering.
  GLuint tex[7];
  glGenTextures(7, tex);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  std::vector<uint8_t> base = Blocks(1, 23, 3), patch = Blocks(1, 29);
  base.resize(9 * 8);  // 3x3 blocks
  glBindTexture(GL_TEXTURE_2D, tex[0]);
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 10, 10, 0, GLsizei(base.size()),
                         base.data());
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 4, 0, 4, 4, GL_COMPRESSED_RED_RGTC1, 8, patch.data());
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 8, 4, 2, 4, GL_COMPRESSED_RED_RGTC1, 8, patch.data() + 8);
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 8, 8, 2, GL_COMPRESSED_RED_RGTC1, 16, patch.data() + 16);
  // Uncompressed texels (two values a block) over the middle of compressed RGTC2 blocks.
  std::vector<uint8_t> rg_blocks = Blocks(2, 31), rg_texels(4 * 8 * 2);
  std::vector<uint8_t> red = TwoValueTexels(8, 4, 3), green = TwoValueTexels(8, 4, 5);
  for (size_t i = 0; i < red.size(); ++i) rg_texels[i * 2] = red[i], rg_texels[i * 2 + 1] = green[i];
  glBindTexture(GL_TEXTURE_2D, tex[1]);
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RG_RGTC2, 8, 8, 0, GLsizei(rg_blocks.size()),
                         rg_blocks.data());
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 4, 8, 4, GL_RG, GL_UNSIGNED_BYTE, rg_texels.data());
  // A cube: every face its own blocks.
  glBindTexture(GL_TEXTURE_CUBE_MAP, tex[2]);
  for (int f = 0; f < 6; ++f) {
    std::vector<uint8_t> face = Blocks(2, 37 + f);
    glCompressedTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, 0, GL_COMPRESSED_RG_RGTC2, 8, 8, 0,
                           GLsizei(face.size()), face.data());
  }
  glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  // A signed array whose layer 1 is rewritten, one block of it then patched again.
  std::vector<uint8_t> layers = Blocks(1, 43, 2), layer1 = Blocks(1, 47);
  glBindTexture(GL_TEXTURE_2D_ARRAY, tex[3]);
  glCompressedTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_COMPRESSED_SIGNED_RED_RGTC1, 8, 8, 2, 0,
                         GLsizei(layers.size()), layers.data());
  glCompressedTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 0, 0, 1, 8, 8, 1, GL_COMPRESSED_SIGNED_RED_RGTC1,
                            GLsizei(layer1.size()), layer1.data());
  glCompressedTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 4, 4, 1, 4, 4, 1, GL_COMPRESSED_SIGNED_RED_RGTC1, 8,
                            patch.data() + 24);
  glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  // Generated levels: 16x16 of four uniform 8x8 regions (level 1 is four uniform 4x4 blocks everywhere).
  std::vector<uint8_t> regions(16 * 16);
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < 16; ++x)
      regions[size_t(y) * 16 + x] = static_cast<uint8_t>(40 + (y / 8) * 120 + (x / 8) * 60);
  glBindTexture(GL_TEXTURE_2D, tex[4]);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 16, 16, 0, GL_RED, GL_UNSIGNED_BYTE,
               regions.data());
  glGenerateMipmap(GL_TEXTURE_2D);
  // A copy from the framebuffer: a cleared 8x8 square copied into block (4, 4) of two-value texels.
  std::vector<uint8_t> two = TwoValueTexels(8, 8, 9);
  glBindTexture(GL_TEXTURE_2D, tex[5]);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 8, 8, 0, GL_RED, GL_UNSIGNED_BYTE, two.data());
  glClearColor(0.6f, 0.2f, 0.2f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 4, 4, 8, 8, 4, 4);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  for (int i : {0, 1, 4, 5}) {
    glBindTexture(GL_TEXTURE_2D, tex[i]);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, i == 4 ? GL_NEAREST_MIPMAP_NEAREST : GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  }
  // The edge texture once more, filtered linearly (the device's own decode and filtering).
  glBindTexture(GL_TEXTURE_2D, tex[6]);
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 10, 10, 0, GLsizei(base.size()),
                         base.data());
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 8, 8, 2, 2, GL_COMPRESSED_RED_RGTC1, 8, patch.data());
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  const char* fs = R"(#version 330 core
in vec2 v_uv;
uniform sampler2D u_tex;
uniform samplerCube u_cube;
uniform sampler2DArray u_array;
uniform int u_mode;  // 0: 2D, 1: cube +X, 2: cube -Z, 3: array layer 1 (signed), 4: 2D level 1
out vec4 frag;
void main() {
  vec2 p = v_uv * 2.0 - 1.0;
  vec4 v = u_mode == 1 ? texture(u_cube, vec3(1.0, -p.y, -p.x))
         : u_mode == 2 ? texture(u_cube, vec3(-p.x, -p.y, -1.0))
         : u_mode == 3 ? texture(u_array, vec3(v_uv, 1.0)) * 0.5 + 0.5
         : u_mode == 4 ? textureLod(u_tex, v_uv, 1.0)
                       : texture(u_tex, v_uv);
  frag = vec4(v.rg, 0.25, 1.0);
}
)";
  GLuint prog = harness::CompileProgram(kQuadVS, fs);
  glUseProgram(prog);
  glUniform1i(glGetUniformLocation(prog, "u_tex"), 0);
  glUniform1i(glGetUniformLocation(prog, "u_cube"), 1);
  glUniform1i(glGetUniformLocation(prog, "u_array"), 2);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_CUBE_MAP, tex[2]);
  glActiveTexture(GL_TEXTURE2);
  glBindTexture(GL_TEXTURE_2D_ARRAY, tex[3]);
  glActiveTexture(GL_TEXTURE0);
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  const int textures[8] = {0, 1, -1, -1, -1, 4, 5, 6};
  const int modes[8] = {0, 0, 1, 2, 3, 4, 0, 0};
  for (int i = 0; i < 8; ++i) {
    glBindTexture(GL_TEXTURE_2D, textures[i] < 0 ? 0 : tex[textures[i]]);
    glUniform1i(glGetUniformLocation(prog, "u_mode"), modes[i]);
    // 16x32 cells: no pixel centre falls on a texel edge, where implementations may round either way.
    glViewport((i % 4) * 16, (i / 4) * 32, 16, 32);
    DrawFullWindowQuad();
  }
  glViewport(0, 0, kWidth, kHeight);
  glDeleteProgram(prog);
  glDeleteTextures(7, tex);
}

void SrgbBlits() {
  // An sRGB and a linear source of the same bytes blitted (unscaled) into an sRGB and a linear destination
  // with GL_FRAMEBUFFER_SRGB disabled (values copy as stored) and enabled (sRGB sources decode, sRGB
  // destinations encode): eight bands of 6 rows, read back raw. Then scaled (2x) and mirrored blits with
  // conversion on and off.
  std::vector<uint8_t> bytes(size_t(kWidth) * kHeight * 4);
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      uint8_t* p = &bytes[(size_t(y) * kWidth + x) * 4];
      p[0] = static_cast<uint8_t>(x * 4), p[1] = static_cast<uint8_t>(y * 4);
      p[2] = static_cast<uint8_t>(255 - x * 4), p[3] = static_cast<uint8_t>(128 + y);
    }
  }
  GLuint src[2], dst[2], src_fb[2], dst_fb[2];
  src[0] = Texture2D(GL_SRGB8_ALPHA8, kWidth, kHeight, GL_RGBA, GL_UNSIGNED_BYTE, bytes.data());
  src[1] = Texture2D(GL_RGBA8, kWidth, kHeight, GL_RGBA, GL_UNSIGNED_BYTE, bytes.data());
  dst[0] = Texture2D(GL_SRGB8_ALPHA8, kWidth, kHeight, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  dst[1] = Texture2D(GL_RGBA8, kWidth, kHeight, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glGenFramebuffers(2, src_fb);
  glGenFramebuffers(2, dst_fb);
  for (int i = 0; i < 2; ++i) {
    glBindFramebuffer(GL_FRAMEBUFFER, src_fb[i]);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, src[i], 0);
    glBindFramebuffer(GL_FRAMEBUFFER, dst_fb[i]);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, dst[i], 0);
    glClearColor(0, 0, 0, 0);
    glClear(GL_COLOR_BUFFER_BIT);
  }
  for (int band = 0; band < 8; ++band) {
    int s = band & 1, d = (band >> 1) & 1;
    bool convert = band >= 4;
    convert ? glEnable(GL_FRAMEBUFFER_SRGB) : glDisable(GL_FRAMEBUFFER_SRGB);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, src_fb[s]);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, dst_fb[d]);
    glBlitFramebuffer(0, band * 6, kWidth, band * 6 + 6, 0, band * 6, kWidth, band * 6 + 6,
                      GL_COLOR_BUFFER_BIT, GL_NEAREST);
  }
  // Scaled and mirrored blits, 4 rows each: linear to sRGB and sRGB to linear, converted (bands 8, 9) and
  // not (bands 10, 11).
  for (int band = 8; band < 12; ++band) {
    bool convert = band < 10, to_srgb = band % 2 == 0;
    convert ? glEnable(GL_FRAMEBUFFER_SRGB) : glDisable(GL_FRAMEBUFFER_SRGB);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, src_fb[to_srgb ? 1 : 0]);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, dst_fb[to_srgb ? 0 : 1]);
    int y = 48 + (band - 8) * 4;
    if (to_srgb)
      glBlitFramebuffer(0, band * 2, 32, band * 2 + 2, 0, y, 64, y + 4, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    else
      glBlitFramebuffer(0, band * 3, 64, band * 3 + 4, 64, y, 0, y + 4, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  }
  glDisable(GL_FRAMEBUFFER_SRGB);

  g_pixels.assign(size_t(kWidth) * kHeight * 4, 0);
  std::vector<uint8_t> rows(size_t(kWidth) * 8 * 4);
  for (int band = 0; band < 12; ++band) {
    int d = band < 8 ? (band >> 1) & 1 : band % 2 == 0 ? 0 : 1;
    int y0 = band < 8 ? band * 6 : 48 + (band - 8) * 4;
    int n = band < 8 ? 6 : 4;
    glBindFramebuffer(GL_READ_FRAMEBUFFER, dst_fb[d]);
    glReadPixels(0, y0, kWidth, n, GL_RGBA, GL_UNSIGNED_BYTE, rows.data());
    std::memcpy(g_pixels.data() + size_t(y0) * kWidth * 4, rows.data(), size_t(n) * kWidth * 4);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(2, src_fb);
  glDeleteFramebuffers(2, dst_fb);
  glDeleteTextures(2, src);
  glDeleteTextures(2, dst);
}

}  // namespace

const std::vector<Scene>& SamplerFormatScenes() {
  static const std::vector<Scene> scenes = {
      {"border_colors", BorderColors, false}, {"snorm_textures", SnormTextures, false},
      {"rgtc_textures", RgtcTextures, false}, {"rgtc_updates", RgtcUpdates, false},
      {"srgb_blits", SrgbBlits, true},
  };
  return scenes;
}

}  // namespace scenes
