// ETC2/EAC (ES 3.0) and S3TC textures: hand-built blocks of known colours (the same blocks and the same
// worked-out colours as tests/unit/core/test_block_decoders.cpp, one per mode) uploaded with
// glCompressedTex(Sub)Image* or into glTexStorage2D levels, read by drawing (texelFetch into an RGBA8
// target), and compared exactly (within 1 where the format's decode allows rounding: sRGB, EAC's 11 bits,
// BC1-3 interpolation); sub-image updates, non-multiple-of-4 sizes, the GL errors the specs name, and the
// compressed-format queries. `--es` runs an ES 3.0 context (ETC2/EAC and S3TC), `--gl` a GL 3.3 core
// context (S3TC). Runs against Caldera and Mesa llvmpipe (meson.build), so the expected colours are checked
// against an independent decoder. `--expect-decoded` (Caldera) checks that blocks were decoded on the GL
// thread and none reached the device as blocks (CALDERA_STATS compressed_decoded_blocks, compressed_uploads);
// `--expect-native` that S3TC blocks reached the device as blocks (compressed_uploads).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gl_harness.h"

namespace {

constexpr GLenum kSrgbDxt1 = 0x8C4C, kSrgbAlphaDxt1 = 0x8C4D, kEtc1 = 0x8D64;

bool g_es = false;
bool g_caldera = false;

void Clean() {
  while (glGetError() != GL_NO_ERROR) {
  }
}

// ETC2 blocks (the unit test explains each bit). Row 0 of kT/kH/kTPunch reads indices 0, 1, 2, 3.
// T mode: row 0 = C1 (221, 34, 68), C2 + 16 (152), C2 (136), C2 - 16 (120); other rows C1.
constexpr uint8_t kT[8] = {0xF9, 0x24, 0x88, 0x87, 0x11, 0x00, 0x10, 0x10};
// The same with the opaque bit clear, as punch-through alpha: index 2, texel (2, 0), is transparent black.
constexpr uint8_t kTPunch[8] = {0xF9, 0x24, 0x88, 0x85, 0x11, 0x00, 0x10, 0x10};
// H mode: row 0 = (202, 151, 219), (138, 87, 155), (117, 117, 117), (53, 53, 53); other rows the first.
constexpr uint8_t kH[8] = {0x53, 0xF9, 0xAA, 0xAE, 0x11, 0x00, 0x10, 0x10};
// Planar: (0,0) (130, 0, 105), (3,0) (224, 191, 26), (0,3) (33, 97, 218), (3,3) (126, 255, 139).
constexpr uint8_t kPlanar[8] = {0x40, 0x00, 0xF9, 0x7F, 0xFE, 0x00, 0x10, 0x3F};
// Differential, flipped: rows 0-1 (149, 17, 255), rows 2-3 (152, 53, 255).
constexpr uint8_t kDiff[8] = {0x87, 0x03, 0xF8, 0x2B, 0x00, 0x00, 0xFF, 0xFF};
// Individual: (0,0) (255, 2, 138), (1,2) (253, 0, 134), (3,3) (47, 255, 47).
constexpr uint8_t kIndividual[8] = {0xF0, 0x0F, 0x80, 0x1C, 0x00, 0x40, 0x00, 0x00};
// EAC alpha: base 100, multiplier 3, table 13 {-1,-2,-3,-10,0,1,2,9}: (0,0) index 3 -> 70, (1,0) index 7
// -> 127, (3,3) index 0 -> 97, the rest index 4 -> 100.
constexpr uint8_t kEacAlpha[8] = {0x64, 0x3D, 0x72, 0x4F, 0x24, 0x92, 0x49, 0x20};
// EAC 11-bit blocks, row 0 indices 0, 7, 3, 4 of table 0 {-3,-6,-9,-15,2,5,8,14}, the rest index 0.
// Unsigned base 128, multiplier 0 (steps of 1/2047): 1025, 1042, 1013, 1030 of 2047 -> 128, 130, 126, 128.
constexpr uint8_t kR11[8] = {0x80, 0x00, 0x00, 0x0E, 0x00, 0x60, 0x08, 0x00};
// Unsigned base 255, multiplier 15: 2044 - 360, clamped 2047, 2044 - 1800, clamped -> 210, 255, 30, 255.
constexpr uint8_t kR11High[8] = {0xFF, 0xF0, 0x00, 0x0E, 0x00, 0x60, 0x08, 0x00};
// Signed base 64, multiplier 0: 509, 526, 497, 514 of 1023; drawn as v / 2 + 0.5 -> 191, 193, 189, 192.
constexpr uint8_t kSignedR11[8] = {0x40, 0x00, 0x00, 0x0E, 0x00, 0x60, 0x08, 0x00};

// S3TC blocks. BC1 four colours: c0 white, c1 black, row 0 indices 0..3 -> 255, 0, 170, 85 (grey); the
// other rows index 0 (white).
constexpr uint8_t kDxt1Four[8] = {0xFF, 0xFF, 0x00, 0x00, 0xE4, 0x00, 0x00, 0x00};
// BC1 three colours (c0 black <= c1 red 16 = 132): row 0 -> black, (132, 0, 0), (66, 0, 0), black that is
// transparent in the RGBA format and opaque in the RGB one; other rows black.
constexpr uint8_t kDxt1Three[8] = {0x00, 0x00, 0x00, 0x80, 0xE4, 0x00, 0x00, 0x00};
// BC2: alpha (0,0) 15 -> 255, (3,3) 8 -> 136, others 0; colour c0 black, c1 red 132 in four-colour mode
// (always, for BC2/BC3): (3,0) index 3 -> (88, 0, 0); the rest index 0, black.
constexpr uint8_t kDxt3[16] = {0x0F, 0, 0, 0, 0, 0, 0, 0x80, 0x00, 0x00, 0x00, 0x80, 0xC0, 0, 0, 0};
// BC3: alpha endpoints 255, 0 (eight values): (0,0) index 0 -> 255, (1,0) index 2 -> 6/7 255 = 218, the
// rest index 0; colour white everywhere.
constexpr uint8_t kDxt5[16] = {0xFF, 0x00, 0x10, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0, 0, 0};

struct Rgba {
  int r, g, b, a;
};

GLuint g_program = 0;
GLint g_scale = -1, g_bias = -1;

void MakeProgram() {
  std::string version = g_es ? "#version 300 es\nprecision highp float;\n" : "#version 330 core\n";
  std::string vs =
      version + "layout(location = 0) in vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }";
  std::string fs = version +
                   "uniform highp sampler2D t; uniform vec4 scale, bias; out vec4 c;\n"
                   "void main() { c = texelFetch(t, ivec2(gl_FragCoord.xy), 0) * scale + bias; }";
  g_program = harness::CompileProgram(vs.c_str(), fs.c_str());
  glUseProgram(g_program);
  g_scale = glGetUniformLocation(g_program, "scale");
  g_bias = glGetUniformLocation(g_program, "bias");
  const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  harness::Positions2D(quad, 8);
}

// Draws the bound 2D texture's level 0 texel for texel into the bound 8x8 RGBA8 target and reads it back
// (row 0 is texel row 0). Signed formats are drawn as v / 2 + 0.5.
std::vector<uint8_t> Draw(bool signed_values = false) {
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  float s = signed_values ? 0.5f : 1.0f, b = signed_values ? 0.5f : 0.0f;
  glUniform4f(g_scale, s, s, s, signed_values ? 0.0f : 1.0f);
  glUniform4f(g_bias, b, b, b, signed_values ? 1.0f : 0.0f);
  glClearColor(0.2f, 0.4f, 0.6f, 0.8f);
  glClear(GL_COLOR_BUFFER_BIT);
  glViewport(0, 0, 8, 8);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  return harness::ReadRGBA(8, 8);
}

// Tolerance of the interpolated BC1 colours (the 1/3 and 2/3 points). The S3TC specification gives their
// weights only approximately, and hardware decoders differ: NVIDIA's (its own GL and Caldera's native
// blocks alike) interpolates at the endpoints' 5:6:5 precision and lands up to 5 away in green. Caldera's
// own decoder is held to the exact values in the `core` unit test.
constexpr int kInterpolated = 8;

Rgba Pixel(const std::vector<uint8_t>& p, int x, int y) {
  const uint8_t* t = &p[size_t(y * 8 + x) * 4];
  return {t[0], t[1], t[2], t[3]};
}

void Expect(const std::vector<uint8_t>& p, int x, int y, Rgba want, int tolerance, const char* what) {
  Rgba got = Pixel(p, x, y);
  bool ok = std::abs(got.r - want.r) <= tolerance && std::abs(got.g - want.g) <= tolerance &&
            std::abs(got.b - want.b) <= tolerance && std::abs(got.a - want.a) <= tolerance;
  if (!ok)
    std::printf("%s texel (%d,%d): got (%d,%d,%d,%d), want (%d,%d,%d,%d)\n", what, x, y, got.r, got.g, got.b,
                got.a, want.r, want.g, want.b, want.a);
  CHECK(ok);
}

// The sRGB decode of an 8-bit value, back in 8 bits (what an sRGB texel reads as into a UNORM8 target).
int Linear(int srgb) {
  double c = srgb / 255.0;
  double l = c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
  return int(std::lround(l * 255.0));
}
Rgba Linear(Rgba c) {
  return {Linear(c.r), Linear(c.g), Linear(c.b), c.a};
}

GLuint NewTexture() {
  GLuint t;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  return t;
}

// One 4x4 block as a whole texture.
std::vector<uint8_t> DrawBlock(GLenum format, const uint8_t* block, GLsizei size,
                               bool signed_values = false) {
  GLuint t = NewTexture();
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, format, 4, 4, 0, size, block);
  CHECK_GL_ERROR(GL_NO_ERROR);
  auto p = Draw(signed_values);
  glDeleteTextures(1, &t);
  return p;
}

void Etc2Colors() {
  Clean();
  auto p = DrawBlock(GL_COMPRESSED_RGB8_ETC2, kT, 8);
  Expect(p, 0, 0, {221, 34, 68, 255}, 0, "ETC2 T");
  Expect(p, 1, 0, {152, 152, 152, 255}, 0, "ETC2 T");
  Expect(p, 2, 0, {136, 136, 136, 255}, 0, "ETC2 T");
  Expect(p, 3, 0, {120, 120, 120, 255}, 0, "ETC2 T");
  Expect(p, 2, 3, {221, 34, 68, 255}, 0, "ETC2 T");
  p = DrawBlock(GL_COMPRESSED_RGB8_ETC2, kH, 8);
  Expect(p, 0, 0, {202, 151, 219, 255}, 0, "ETC2 H");
  Expect(p, 1, 0, {138, 87, 155, 255}, 0, "ETC2 H");
  Expect(p, 2, 0, {117, 117, 117, 255}, 0, "ETC2 H");
  Expect(p, 3, 0, {53, 53, 53, 255}, 0, "ETC2 H");
  p = DrawBlock(GL_COMPRESSED_RGB8_ETC2, kPlanar, 8);
  Expect(p, 0, 0, {130, 0, 105, 255}, 0, "ETC2 planar");
  Expect(p, 3, 0, {224, 191, 26, 255}, 0, "ETC2 planar");
  Expect(p, 0, 3, {33, 97, 218, 255}, 0, "ETC2 planar");
  Expect(p, 3, 3, {126, 255, 139, 255}, 0, "ETC2 planar");
  p = DrawBlock(GL_COMPRESSED_RGB8_ETC2, kDiff, 8);
  Expect(p, 3, 1, {149, 17, 255, 255}, 0, "ETC2 differential");
  Expect(p, 0, 2, {152, 53, 255, 255}, 0, "ETC2 differential");
  // ETC1 (GL_OES_compressed_ETC1_RGB8_texture): the same blocks as ETC2's differential and individual modes;
  // sub-images follow ES 3.0's rules (Mesa takes them).
  p = DrawBlock(kEtc1, kDiff, 8);
  Expect(p, 3, 1, {149, 17, 255, 255}, 0, "ETC1 differential");
  {
    GLuint t1 = NewTexture();
    glCompressedTexImage2D(GL_TEXTURE_2D, 0, kEtc1, 4, 4, 0, 8, kIndividual);
    CHECK_GL_ERROR(GL_NO_ERROR);
    p = Draw();
    Expect(p, 3, 3, {47, 255, 47, 255}, 0, "ETC1 individual");
    glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, kEtc1, 8, kDiff);
    CHECK_GL_ERROR(GL_NO_ERROR);
    p = Draw();
    Expect(p, 0, 2, {152, 53, 255, 255}, 0, "ETC1 sub-image");
    glDeleteTextures(1, &t1);
  }
  p = DrawBlock(GL_COMPRESSED_RGB8_ETC2, kIndividual, 8);
  Expect(p, 0, 0, {255, 2, 138, 255}, 0, "ETC2 individual");
  Expect(p, 1, 2, {253, 0, 134, 255}, 0, "ETC2 individual");
  Expect(p, 3, 3, {47, 255, 47, 255}, 0, "ETC2 individual");
  // sRGB: the same texels, decoded to linear when sampled.
  p = DrawBlock(GL_COMPRESSED_SRGB8_ETC2, kPlanar, 8);
  Expect(p, 3, 0, Linear({224, 191, 26, 255}), 1, "SRGB8 ETC2 planar");
  Expect(p, 0, 3, Linear({33, 97, 218, 255}), 1, "SRGB8 ETC2 planar");
  // Punch-through alpha: index 2 is transparent black; the opaque bit set reads as plain ETC2.
  p = DrawBlock(GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2, kTPunch, 8);
  Expect(p, 2, 0, {0, 0, 0, 0}, 0, "ETC2 punch-through");
  Expect(p, 1, 0, {152, 152, 152, 255}, 0, "ETC2 punch-through");
  p = DrawBlock(GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2, kT, 8);
  Expect(p, 2, 0, {136, 136, 136, 255}, 0, "ETC2 punch-through opaque");
  p = DrawBlock(GL_COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2, kTPunch, 8);
  Expect(p, 2, 0, {0, 0, 0, 0}, 0, "SRGB8 ETC2 punch-through");
  Expect(p, 0, 0, Linear({221, 34, 68, 255}), 1, "SRGB8 ETC2 punch-through");
  // RGBA8 ETC2 EAC: the EAC alpha block, then the colour block.
  uint8_t rgba[16];
  std::memcpy(rgba, kEacAlpha, 8);
  std::memcpy(rgba + 8, kDiff, 8);
  p = DrawBlock(GL_COMPRESSED_RGBA8_ETC2_EAC, rgba, 16);
  Expect(p, 0, 0, {149, 17, 255, 70}, 0, "RGBA8 ETC2 EAC");
  Expect(p, 1, 0, {149, 17, 255, 127}, 0, "RGBA8 ETC2 EAC");
  Expect(p, 2, 1, {149, 17, 255, 100}, 0, "RGBA8 ETC2 EAC");
  Expect(p, 3, 3, {152, 53, 255, 97}, 0, "RGBA8 ETC2 EAC");
  p = DrawBlock(GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC, rgba, 16);
  Expect(p, 3, 3, Linear({152, 53, 255, 97}), 1, "SRGB8 ALPHA8 ETC2 EAC");
}

void EacValues() {
  Clean();
  auto p = DrawBlock(GL_COMPRESSED_R11_EAC, kR11, 8);
  Expect(p, 0, 0, {128, 0, 0, 255}, 1, "R11 EAC");
  Expect(p, 1, 0, {130, 0, 0, 255}, 1, "R11 EAC");
  Expect(p, 2, 0, {126, 0, 0, 255}, 1, "R11 EAC");
  Expect(p, 3, 0, {128, 0, 0, 255}, 1, "R11 EAC");
  p = DrawBlock(GL_COMPRESSED_SIGNED_R11_EAC, kSignedR11, 8, true);
  Expect(p, 0, 0, {191, 128, 128, 255}, 1, "SIGNED R11 EAC");
  Expect(p, 1, 0, {193, 128, 128, 255}, 1, "SIGNED R11 EAC");
  Expect(p, 2, 0, {189, 128, 128, 255}, 1, "SIGNED R11 EAC");
  Expect(p, 3, 0, {192, 128, 128, 255}, 1, "SIGNED R11 EAC");
  uint8_t rg[16];
  std::memcpy(rg, kR11, 8);
  std::memcpy(rg + 8, kR11High, 8);
  p = DrawBlock(GL_COMPRESSED_RG11_EAC, rg, 16);
  Expect(p, 0, 0, {128, 210, 0, 255}, 1, "RG11 EAC");
  Expect(p, 1, 0, {130, 255, 0, 255}, 1, "RG11 EAC");
  Expect(p, 2, 0, {126, 30, 0, 255}, 1, "RG11 EAC");
  Expect(p, 3, 0, {128, 255, 0, 255}, 1, "RG11 EAC");
  std::memcpy(rg, kSignedR11, 8);
  std::memcpy(rg + 8, kSignedR11, 8);
  p = DrawBlock(GL_COMPRESSED_SIGNED_RG11_EAC, rg, 16, true);
  Expect(p, 1, 0, {193, 193, 128, 255}, 1, "SIGNED RG11 EAC");
}

// An 8x8 ETC2 texture in immutable storage, written block by block; a 6x6 one whose edge blocks are partial.
void Etc2StorageAndUpdates() {
  Clean();
  GLuint t = NewTexture();
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_COMPRESSED_RGB8_ETC2, 8, 8);
  CHECK_GL_ERROR(GL_NO_ERROR);
  const uint8_t* quadrants[4] = {kT, kH, kPlanar, kDiff};
  for (int i = 0; i < 4; ++i)
    glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, (i % 2) * 4, (i / 2) * 4, 4, 4, GL_COMPRESSED_RGB8_ETC2, 8,
                              quadrants[i]);
  CHECK_GL_ERROR(GL_NO_ERROR);
  auto p = Draw();
  Expect(p, 1, 0, {152, 152, 152, 255}, 0, "storage block (0,0)");
  Expect(p, 4 + 3, 0, {53, 53, 53, 255}, 0, "storage block (1,0)");
  Expect(p, 0 + 3, 4 + 3, {126, 255, 139, 255}, 0, "storage block (0,1)");
  Expect(p, 4 + 0, 4 + 2, {152, 53, 255, 255}, 0, "storage block (1,1)");
  // Replacing one block leaves the others.
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 4, 4, 4, 4, GL_COMPRESSED_RGB8_ETC2, 8, kIndividual);
  p = Draw();
  Expect(p, 4 + 3, 4 + 3, {47, 255, 47, 255}, 0, "replaced block");
  Expect(p, 1, 0, {152, 152, 152, 255}, 0, "kept block");
  // Immutable storage takes no glCompressedTexImage2D.
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGB8_ETC2, 8, 8, 0, 32, kT);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glDeleteTextures(1, &t);

  // 6x6: 2x2 blocks (32 bytes); a 2x2 box at (4, 4) ends at the level's edge and is allowed.
  t = NewTexture();
  std::vector<uint8_t> blocks;
  for (int i = 0; i < 4; ++i) blocks.insert(blocks.end(), kDiff, kDiff + 8);
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGB8_ETC2, 6, 6, 0, 32, blocks.data());
  CHECK_GL_ERROR(GL_NO_ERROR);
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 4, 4, 2, 2, GL_COMPRESSED_RGB8_ETC2, 8, kPlanar);
  CHECK_GL_ERROR(GL_NO_ERROR);
  p = Draw();
  Expect(p, 4, 4, {130, 0, 105, 255}, 0, "partial block");
  Expect(p, 5, 0, {149, 17, 255, 255}, 0, "partial block (1,0)");
  // The target's clear colour outside the 6x6 texture? texelFetch outside the level is undefined: not read.
  glDeleteTextures(1, &t);
}

void Etc2Errors() {
  Clean();
  GLuint t = NewTexture();
  // imageSize must match the size and format: 4x4 RGB8 ETC2 is 8 bytes, RGBA8 ETC2 EAC 16.
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGB8_ETC2, 4, 4, 0, 16, kT);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGBA8_ETC2_EAC, 4, 4, 0, 8, kT);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGB8_ETC2, 8, 8, 0, 32, nullptr);
  CHECK_GL_ERROR(GL_NO_ERROR);
  // Sub-rectangles on the 4x4 grid only (an edge-ending box excepted): INVALID_OPERATION.
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 2, 0, 4, 4, GL_COMPRESSED_RGB8_ETC2, 8, kT);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 2, 4, GL_COMPRESSED_RGB8_ETC2, 8, kT);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  // The format must be the texture's.
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_COMPRESSED_SRGB8_ETC2, 8, kT);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_COMPRESSED_RGB8_ETC2, 16, kT);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 4, 4, 8, 4, GL_COMPRESSED_RGB8_ETC2, 16, kT);
  CHECK_GL_ERROR(GL_INVALID_VALUE);  // the box leaves the level
  // A border is not allowed.
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGB8_ETC2, 4, 4, 1, 8, kT);
  CHECK(glGetError() != GL_NO_ERROR);
  // No uncompressed data into an ETC2 texture, and no mipmaps generated from one.
  uint8_t texels[64] = {};
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  GLenum error = glGetError();
  // Caldera: INVALID_OPERATION (ES 3.0's answer for a format/type pair its table 3.2 does not give the
  // internal format); Mesa answers INVALID_VALUE.
  CHECK(error == GL_INVALID_OPERATION || (!g_caldera && error != GL_NO_ERROR));
  glGenerateMipmap(GL_TEXTURE_2D);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  // ETC2/EAC has no 3D textures: INVALID_OPERATION; 2D arrays take it.
  GLuint t3;
  glGenTextures(1, &t3);
  glBindTexture(GL_TEXTURE_3D, t3);
  glCompressedTexImage3D(GL_TEXTURE_3D, 0, GL_COMPRESSED_RGB8_ETC2, 4, 4, 1, 0, 8, kT);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  GLuint ta;
  glGenTextures(1, &ta);
  glBindTexture(GL_TEXTURE_2D_ARRAY, ta);
  uint8_t two[16];
  std::memcpy(two, kT, 8);
  std::memcpy(two + 8, kH, 8);
  glCompressedTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_COMPRESSED_RGB8_ETC2, 4, 4, 2, 0, 16, two);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glCompressedTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 0, 0, 1, 4, 4, 1, GL_COMPRESSED_RGB8_ETC2, 8, kPlanar);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glCompressedTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 0, 0, 1, 4, 4, 1, GL_COMPRESSED_RGB8_ETC2, 9, kPlanar);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glDeleteTextures(1, &ta);
  glDeleteTextures(1, &t3);
  // Not renderable: a framebuffer with an ETC2 attachment is incomplete.
  GLuint fb;
  glGenFramebuffers(1, &fb);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE);
  glDeleteFramebuffers(1, &fb);
  glDeleteTextures(1, &t);
}

// ES 3.0 lists every ETC2/EAC format in GL_COMPRESSED_TEXTURE_FORMATS.
void FormatQueries() {
  Clean();
  GLint n = 0;
  glGetIntegerv(GL_NUM_COMPRESSED_TEXTURE_FORMATS, &n);
  std::vector<GLint> list(size_t(std::max(n, 0)) + 1, -1);
  glGetIntegerv(GL_COMPRESSED_TEXTURE_FORMATS, list.data());
  CHECK_GL_ERROR(GL_NO_ERROR);
  std::printf("GL_COMPRESSED_TEXTURE_FORMATS (%d):", n);
  for (GLint i = 0; i < n; ++i) std::printf(" 0x%04X", unsigned(list[size_t(i)]));
  std::printf("\n");
  auto listed = [&](GLenum f) {
    for (GLint i = 0; i < n; ++i)
      if (list[size_t(i)] == GLint(f)) return true;
    return false;
  };
  const GLenum etc2[] = {GL_COMPRESSED_R11_EAC,
                         GL_COMPRESSED_SIGNED_R11_EAC,
                         GL_COMPRESSED_RG11_EAC,
                         GL_COMPRESSED_SIGNED_RG11_EAC,
                         GL_COMPRESSED_RGB8_ETC2,
                         GL_COMPRESSED_SRGB8_ETC2,
                         GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2,
                         GL_COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2,
                         GL_COMPRESSED_RGBA8_ETC2_EAC,
                         GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC};
  if (g_es)
    for (GLenum f : etc2) CHECK(listed(f));
  CHECK(listed(kEtc1) == g_es);
  // S3TC: all four on ES; desktop lists RGBA DXT1 as Mesa does, not at all (its one-bit alpha makes it
  // special-purpose).
  for (GLenum f :
       {GL_COMPRESSED_RGB_S3TC_DXT1_EXT, GL_COMPRESSED_RGBA_S3TC_DXT3_EXT, GL_COMPRESSED_RGBA_S3TC_DXT5_EXT})
    CHECK(listed(f));
  CHECK(listed(GL_COMPRESSED_RGBA_S3TC_DXT1_EXT) == g_es);
  CHECK(list[size_t(n)] == -1);  // exactly n written
  // The extension strings name S3TC (ES: also the DXT1-only extension).
  GLint count = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &count);
  bool s3tc = false, dxt1 = false, etc1 = false;
  for (GLint i = 0; i < count; ++i) {
    std::string e = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i)));
    s3tc |= e == "GL_EXT_texture_compression_s3tc";
    dxt1 |= e == "GL_EXT_texture_compression_dxt1";
    etc1 |= e == "GL_OES_compressed_ETC1_RGB8_texture";
  }
  CHECK(s3tc);
  CHECK(!g_es || (dxt1 && etc1));  // desktop Mesa lists GL_EXT_texture_compression_dxt1 too
}

void S3tcColors() {
  Clean();
  auto p = DrawBlock(GL_COMPRESSED_RGB_S3TC_DXT1_EXT, kDxt1Four, 8);
  Expect(p, 0, 0, {255, 255, 255, 255}, 0, "DXT1 four");
  Expect(p, 1, 0, {0, 0, 0, 255}, 0, "DXT1 four");
  Expect(p, 2, 0, {170, 170, 170, 255}, kInterpolated, "DXT1 four");
  Expect(p, 3, 0, {85, 85, 85, 255}, kInterpolated, "DXT1 four");
  Expect(p, 3, 3, {255, 255, 255, 255}, 0, "DXT1 four");
  p = DrawBlock(GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, kDxt1Three, 8);
  Expect(p, 1, 0, {132, 0, 0, 255}, 0, "DXT1 three");
  Expect(p, 2, 0, {66, 0, 0, 255}, kInterpolated, "DXT1 three");
  Expect(p, 3, 0, {0, 0, 0, 0}, 0, "DXT1 RGBA transparent black");
  p = DrawBlock(GL_COMPRESSED_RGB_S3TC_DXT1_EXT, kDxt1Three, 8);
  Expect(p, 3, 0, {0, 0, 0, 255}, 0, "DXT1 RGB black");
  p = DrawBlock(GL_COMPRESSED_RGBA_S3TC_DXT3_EXT, kDxt3, 16);
  Expect(p, 0, 0, {0, 0, 0, 255}, 0, "DXT3");
  Expect(p, 1, 0, {0, 0, 0, 0}, 0, "DXT3");
  Expect(p, 3, 0, {88, 0, 0, 0}, 1, "DXT3 four colours");
  Expect(p, 3, 3, {0, 0, 0, 136}, 0, "DXT3");
  p = DrawBlock(GL_COMPRESSED_RGBA_S3TC_DXT5_EXT, kDxt5, 16);
  Expect(p, 0, 0, {255, 255, 255, 255}, 0, "DXT5");
  Expect(p, 1, 0, {255, 255, 255, 218}, 1, "DXT5");
  Expect(p, 2, 0, {255, 255, 255, 255}, 0, "DXT5");
  p = DrawBlock(kSrgbDxt1, kDxt1Four, 8);
  Expect(p, 2, 0, Linear({170, 170, 170, 255}), kInterpolated, "SRGB DXT1");
  p = DrawBlock(kSrgbAlphaDxt1, kDxt1Three, 8);
  Expect(p, 1, 0, Linear({132, 0, 0, 255}), 1, "SRGB ALPHA DXT1");
  Expect(p, 3, 0, {0, 0, 0, 0}, 0, "SRGB ALPHA DXT1");
}

void S3tcUpdatesAndErrors() {
  Clean();
  GLuint t = NewTexture();
  std::vector<uint8_t> blocks;
  for (int i = 0; i < 4; ++i) blocks.insert(blocks.end(), kDxt1Four, kDxt1Four + 8);
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, 8, 8, 0, 32, blocks.data());
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 4, 4, 4, 4, GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, 8, kDxt1Three);
  CHECK_GL_ERROR(GL_NO_ERROR);
  auto p = Draw();
  Expect(p, 4 + 1, 4, {132, 0, 0, 255}, 0, "DXT1 sub-image");
  Expect(p, 1, 4, {0, 0, 0, 255}, 0, "DXT1 kept block");
  Expect(p, 4 + 3, 0, {85, 85, 85, 255}, kInterpolated, "DXT1 kept block");
  if (!g_es) {
    // glGetCompressedTexImage returns the blocks as given.
    std::vector<uint8_t> back(32, 0);
    glGetCompressedTexImage(GL_TEXTURE_2D, 0, back.data());
    CHECK_GL_ERROR(GL_NO_ERROR);
    CHECK(std::memcmp(back.data() + 24, kDxt1Three, 8) == 0);
    CHECK(std::memcmp(back.data(), kDxt1Four, 8) == 0);
    GLint size = 0, compressed = 0;
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_COMPRESSED_IMAGE_SIZE, &size);
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_COMPRESSED, &compressed);
    CHECK(size == 32 && compressed == GL_TRUE);
    // glGetTexImage decodes (from the blocks where they are stored as such).
    std::vector<uint8_t> texels(8 * 8 * 4, 0);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
    CHECK_GL_ERROR(GL_NO_ERROR);
    Expect(texels, 4 + 1, 4, {132, 0, 0, 255}, 0, "DXT1 glGetTexImage");
    Expect(texels, 4 + 3, 4, {0, 0, 0, 0}, 0, "DXT1 glGetTexImage");
    Expect(texels, 2, 0, {170, 170, 170, 255}, 1, "DXT1 glGetTexImage");
  }
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 1, 0, 4, 4, GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, 8, kDxt1Three);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, 7, kDxt1Three);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGBA_S3TC_DXT5_EXT, 4, 4, 0, 8, kDxt5);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glDeleteTextures(1, &t);
  if (!g_es) {
    // Uncompressed data into S3TC (EXT_texture_compression_s3tc's glTexImage2D) is compressed: a block of
    // two colours (red columns 0-1, blue 2-3) and, by glTexSubImage2D, one of a single colour come back
    // exactly (Mesa's encoder and Caldera's alike).
    t = NewTexture();
    std::vector<uint8_t> texels(8 * 4 * 4, 0);
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 8; ++x) {
        uint8_t* p = &texels[size_t(y * 8 + x) * 4];
        p[0] = x < 2 ? 255 : 0, p[2] = x < 2 ? 0 : 255, p[3] = 255;
      }
    glTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGBA_S3TC_DXT5_EXT, 8, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 texels.data());
    CHECK_GL_ERROR(GL_NO_ERROR);
    std::vector<uint8_t> magenta(4 * 4 * 4);
    for (size_t i = 0; i < magenta.size(); i += 4)
      magenta[i] = 255, magenta[i + 1] = 0, magenta[i + 2] = 255, magenta[i + 3] = 128;
    glTexSubImage2D(GL_TEXTURE_2D, 0, 4, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, magenta.data());
    CHECK_GL_ERROR(GL_NO_ERROR);
    GLint compressed = 0;
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_COMPRESSED, &compressed);
    CHECK(compressed == GL_TRUE);
    p = Draw();
    Expect(p, 1, 2, {255, 0, 0, 255}, 0, "DXT5 encoded");
    Expect(p, 3, 1, {0, 0, 255, 255}, 0, "DXT5 encoded");
    Expect(p, 6, 3, {255, 0, 255, 128}, 1, "DXT5 encoded sub-image");
    // Its blocks read back and uploaded again give the same texels.
    std::vector<uint8_t> blocks(32, 0);
    glGetCompressedTexImage(GL_TEXTURE_2D, 0, blocks.data());
    glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGBA_S3TC_DXT5_EXT, 8, 4, 0, 32, blocks.data());
    CHECK_GL_ERROR(GL_NO_ERROR);
    p = Draw();
    Expect(p, 0, 0, {255, 0, 0, 255}, 0, "DXT5 blocks read back");
    Expect(p, 5, 0, {255, 0, 255, 128}, 1, "DXT5 blocks read back");
    // Copies and generated mipmaps into S3TC are not supported (no CPU path for them yet): errors.
    if (g_caldera) {
      glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 0, 0, 4, 4);
      CHECK_GL_ERROR(GL_INVALID_OPERATION);
    }
    glDeleteTextures(1, &t);
  }
  // Desktop ETC2 needs GL_ARB_ES3_compatibility, which Caldera does not offer: the format is unknown there.
  if (!g_es && g_caldera) {
    t = NewTexture();
    glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGB8_ETC2, 4, 4, 0, 8, kT);
    CHECK_GL_ERROR(GL_INVALID_ENUM);
    glDeleteTextures(1, &t);
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool expect_decoded = false, expect_native = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--es") g_es = true;
    if (a == "--expect-decoded") expect_decoded = true;
    if (a == "--expect-native") expect_native = true;
  }
  harness::StatsFile stats;
  harness::Window w = harness::Open(8, 8, g_es);
  g_caldera = harness::PrintVendor().find("Caldera") != std::string::npos;
  harness::ColorTarget(8, 8);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  MakeProgram();
  if (g_es) {
    Etc2Colors();
    EacValues();
    Etc2StorageAndUpdates();
    Etc2Errors();
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    harness::ColorTarget(8, 8);
  }
  S3tcColors();
  S3tcUpdatesAndErrors();
  FormatQueries();
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);
  long decoded = stats.Sum("compressed_decoded_blocks"), uploads = stats.Sum("compressed_uploads");
  std::printf("compressed blocks decoded on the GL thread: %ld, block uploads: %ld\n", decoded, uploads);
  if (expect_decoded) CHECK(decoded > 0 && uploads == 0);
  if (expect_native) CHECK(uploads > 0);
  return harness::Summary();
}
