// BPTC textures (GL_ARB_texture_compression_bptc; GL_EXT_texture_compression_bptc in ES contexts).
// - Hand-built blocks of known values: BC7 mode 6 (and its sRGB form), BC6H mode 11 unsigned and signed,
//   drawn with texelFetch into an RGBA32F target and compared with the values worked out in the comments.
// - Sub-image updates, glGetCompressedTexImage (the blocks as given), glGetTexImage (decoded), 3D textures
//   (desktop), uncompressed
//   uploads encoded into blocks (one-colour BC7 blocks come back exactly), the GL errors the spec names and
//   the format queries.
// - `--compare-with-mesa`: 1024 pseudo-random blocks of each format (every BC7 mode, every BC6H mode value,
//   reserved ones too) drawn here and in a child process on Mesa llvmpipe (`--dump FILE`), compared texel
//   for texel. On Caldera that checks whichever decoder the run uses: the device's (native blocks) or
//   Caldera's own (decoded on upload: CALDERA_NATIVE_BC=0, or a device without BC6H/BC7).
// `--expect-decoded` / `--expect-native` check CALDERA_STATS as gl_compressed_formats does.
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gl_harness.h"

namespace {

bool g_es = false;
bool g_caldera = false;
constexpr int kSize = 64;  // the draw target, and the random textures: 16 x 16 blocks

constexpr GLenum kFormats[] = {GL_COMPRESSED_RGBA_BPTC_UNORM, GL_COMPRESSED_SRGB_ALPHA_BPTC_UNORM,
                               GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT, GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT};
const char* Name(GLenum f) {
  switch (f) {
    case GL_COMPRESSED_RGBA_BPTC_UNORM:
      return "BC7";
    case GL_COMPRESSED_SRGB_ALPHA_BPTC_UNORM:
      return "BC7 sRGB";
    case GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT:
      return "BC6H signed";
    default:
      return "BC6H unsigned";
  }
}

// BC7 mode 6 (bit 6 set): endpoints R0 100 R1 0, G0 50 G1 127, B0 25 B1 64, A0 127 A1 127 (7 bits each),
// p-bits 1 and 0, so endpoint 0 is (201, 101, 51, 255) and endpoint 1 (0, 254, 128, 254). Indices: texel 1
// is 8 (weight 34 of 64), texel 15 is 15 (endpoint 1), the rest 0. Texel 1:
// ((64 - 34) * e0 + 34 * e1 + 32) >> 6 = (94, 182, 92, 254).
constexpr uint8_t kBc7Mode6[16] = {0x40, 0x32, 0x40, 0xF6, 0xCF, 0x00, 0xFF, 0xFF,
                                   0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xF0};
// BC6H mode 11 (mode bits 00011: one region, 10-bit endpoints, no transform): e0 (100, 200, 300), e1 (400,
// 500, 600), the indices of kBc7Mode6. Unsigned: unquantized ((c << 16) + 0x8000) >> 10, then (u * 31) >> 6
// as half bits: texel 0 (0x0C2B, 0x1847, 0x2463), texel 1 (0x1F78, 0x2B94, 0x37B0), texel 15 (0x307F,
// 0x3C9B, 0x48B7).
constexpr uint8_t kBc6hMode11[16] = {0x83, 0x0C, 0x64, 0x58, 0x82, 0x8C, 0x3E, 0x2C,
                                     0x81, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xF0};
// Signed mode 11: e0 (100, -200, 300), e1 (-400, 500, -500) as 10-bit two's complement. Magnitudes
// unquantized ((c << 15) + 0x4000) >> 9, then (u * 31) >> 5 with the sign: texel 0 (0x1857, 0xB08F, 0x48C7),
// texel 15 (0xE0FF, 0x7937, 0xF937).
constexpr uint8_t kBc6hSignedMode11[16] = {0x83, 0x0C, 0x9C, 0x59, 0x82, 0x93, 0x3E, 0x06,
                                           0x81, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xF0};

float Half(uint16_t h) {
  int exponent = (h >> 10) & 31, mantissa = h & 1023;
  float v =
      exponent == 0 ? std::ldexp(float(mantissa), -24) : std::ldexp(float(mantissa | 1024), exponent - 25);
  return (h & 0x8000) ? -v : v;
}

GLuint g_program = 0;

void MakeProgram() {
  std::string version = g_es ? "#version 300 es\nprecision highp float;\n" : "#version 330 core\n";
  std::string vs =
      version + "layout(location = 0) in vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }";
  std::string fs = version +
                   "uniform highp sampler2D t; out vec4 c;\n"
                   "void main() { c = texelFetch(t, ivec2(gl_FragCoord.xy), 0); }";
  g_program = harness::CompileProgram(vs.c_str(), fs.c_str());
  glUseProgram(g_program);
  const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  harness::Positions2D(quad, 8);
}

void Clean() {
  while (glGetError() != GL_NO_ERROR) {
  }
}

GLuint NewTexture() {
  GLuint t;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  return t;
}

// The bound texture's level 0 drawn texel for texel into the RGBA32F target, w x h texels read back as
// floats (row 0 is texel row 0).
std::vector<float> Draw(int w, int h) {
  glClearColor(0.25f, 0.5f, 0.75f, 0.5f);
  glClear(GL_COLOR_BUFFER_BIT);
  glViewport(0, 0, kSize, kSize);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  std::vector<float> out(size_t(w) * h * 4);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_FLOAT, out.data());
  CHECK_GL_ERROR(GL_NO_ERROR);
  return out;
}

void Expect(const std::vector<float>& p, int w, int x, int y, const float want[4], float tolerance,
            const char* what) {
  const float* got = &p[size_t(y * w + x) * 4];
  bool ok = true;
  for (int c = 0; c < 4; ++c)
    ok = ok && std::fabs(got[c] - want[c]) <= tolerance * std::fmax(1.0f, std::fabs(want[c]));
  if (!ok)
    std::printf("%s texel (%d,%d): got (%g, %g, %g, %g), want (%g, %g, %g, %g)\n", what, x, y, got[0], got[1],
                got[2], got[3], want[0], want[1], want[2], want[3]);
  CHECK(ok);
}
void ExpectBytes(const std::vector<float>& p, int w, int x, int y, int r, int g, int b, int a,
                 const char* what) {
  const float want[4] = {r / 255.0f, g / 255.0f, b / 255.0f, a / 255.0f};
  Expect(p, w, x, y, want, 0.5f / 255.0f, what);
}
void ExpectHalves(const std::vector<float>& p, int w, int x, int y, uint16_t r, uint16_t g, uint16_t b,
                  const char* what) {
  const float want[4] = {Half(r), Half(g), Half(b), 1.0f};
  Expect(p, w, x, y, want, 0.0f, what);
}
// What an sRGB-encoded 8-bit value reads as.
float Linear(int srgb) {
  double c = srgb / 255.0;
  return float(c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4));
}

std::vector<float> DrawBlock(GLenum format, const uint8_t* block) {
  GLuint t = NewTexture();
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, format, 4, 4, 0, 16, block);
  CHECK_GL_ERROR(GL_NO_ERROR);
  auto p = Draw(4, 4);
  glDeleteTextures(1, &t);
  return p;
}

void KnownBlocks() {
  Clean();
  auto p = DrawBlock(GL_COMPRESSED_RGBA_BPTC_UNORM, kBc7Mode6);
  ExpectBytes(p, 4, 0, 0, 201, 101, 51, 255, "BC7 mode 6 endpoint 0");
  ExpectBytes(p, 4, 1, 0, 94, 182, 92, 254, "BC7 mode 6 index 8");
  ExpectBytes(p, 4, 3, 3, 0, 254, 128, 254, "BC7 mode 6 endpoint 1");
  p = DrawBlock(GL_COMPRESSED_SRGB_ALPHA_BPTC_UNORM, kBc7Mode6);
  const float srgb[4] = {Linear(201), Linear(101), Linear(51), 1.0f};
  Expect(p, 4, 0, 0, srgb, 2e-3f, "BC7 sRGB endpoint 0");
  p = DrawBlock(GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT, kBc6hMode11);
  ExpectHalves(p, 4, 0, 0, 0x0C2B, 0x1847, 0x2463, "BC6H mode 11 endpoint 0");
  ExpectHalves(p, 4, 1, 0, 0x1F78, 0x2B94, 0x37B0, "BC6H mode 11 index 8");
  ExpectHalves(p, 4, 3, 3, 0x307F, 0x3C9B, 0x48B7, "BC6H mode 11 endpoint 1");
  p = DrawBlock(GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT, kBc6hSignedMode11);
  ExpectHalves(p, 4, 0, 0, 0x1857, 0xB08F, 0x48C7, "BC6H signed mode 11 endpoint 0");
  ExpectHalves(p, 4, 3, 3, 0xE0FF, 0x7937, 0xF937, "BC6H signed mode 11 endpoint 1");
}

// Writes `bits` bits of `value` at bit `at` of a little-endian block.
void PutBits(uint8_t* block, int at, int bits, unsigned value) {
  for (int i = 0; i < bits; ++i, ++at)
    if ((value >> i) & 1u) block[at / 8] |= uint8_t(1u << (at % 8));
}

// A mode 6 block of one colour: endpoints c >> 1 with p-bit c & 1 (the components must share one parity).
void OneColourBc7(int r, int g, int b, int a, uint8_t out[16]) {
  // Bits: 7 mode, then R0 R1 G0 G1 B0 B1 A0 A1 (7 each), P0 P1, indices all zero.
  std::memset(out, 0, 16);
  PutBits(out, 0, 7, 0x40);
  int at = 7;
  for (int c : {r, g, b, a}) {
    PutBits(out, at, 7, unsigned(c) >> 1);
    PutBits(out, at + 7, 7, unsigned(c) >> 1);
    at += 14;
  }
  PutBits(out, at, 2, (r & 1) ? 3u : 0u);
}

void UpdatesAndReadback() {
  Clean();
  GLuint t = NewTexture();
  std::vector<uint8_t> blocks;
  for (int i = 0; i < 4; ++i) blocks.insert(blocks.end(), kBc7Mode6, kBc7Mode6 + 16);
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGBA_BPTC_UNORM, 8, 8, 0, 64, blocks.data());
  uint8_t green[16];
  OneColourBc7(2, 200, 64, 254, green);
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 4, 4, 4, 4, GL_COMPRESSED_RGBA_BPTC_UNORM, 16, green);
  CHECK_GL_ERROR(GL_NO_ERROR);
  auto p = Draw(8, 8);
  ExpectBytes(p, 8, 5, 6, 2, 200, 64, 254, "BC7 sub-image");
  ExpectBytes(p, 8, 4, 0, 201, 101, 51, 255, "BC7 kept block");
  ExpectBytes(p, 8, 3, 7, 0, 254, 128, 254, "BC7 kept block");
  if (!g_es) {
    std::vector<uint8_t> back(64, 0);
    glGetCompressedTexImage(GL_TEXTURE_2D, 0, back.data());
    CHECK_GL_ERROR(GL_NO_ERROR);
    CHECK(std::memcmp(back.data() + 48, green, 16) == 0);
    CHECK(std::memcmp(back.data() + 16, kBc7Mode6, 16) == 0);
    GLint size = 0, compressed = 0, format = 0;
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_COMPRESSED_IMAGE_SIZE, &size);
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_COMPRESSED, &compressed);
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &format);
    CHECK(size == 64 && compressed == GL_TRUE && format == GL_COMPRESSED_RGBA_BPTC_UNORM);
    std::vector<uint8_t> texels(8 * 8 * 4, 0);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
    CHECK_GL_ERROR(GL_NO_ERROR);
    const uint8_t* texel = &texels[(1 * 8 + 0) * 4 + 4];  // (1, 1): endpoint 0
    CHECK(texel[0] == 201 && texel[1] == 101 && texel[2] == 51 && texel[3] == 255);
    // BC6H read back as floats: the halves exactly.
    glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT, 4, 4, 0, 16, kBc6hMode11);
    std::vector<float> floats(4 * 4 * 4, 0.0f);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, floats.data());
    CHECK_GL_ERROR(GL_NO_ERROR);
    ExpectHalves(floats, 4, 3, 3, 0x307F, 0x3C9B, 0x48B7, "BC6H glGetTexImage");
    // 3D textures take BPTC (GL 4.2's table 8.17; Mesa too): two slices of different blocks, read back.
    GLuint t3;
    glGenTextures(1, &t3);
    glBindTexture(GL_TEXTURE_3D, t3);
    std::vector<uint8_t> slices(kBc7Mode6, kBc7Mode6 + 16);
    slices.insert(slices.end(), green, green + 16);
    glCompressedTexImage3D(GL_TEXTURE_3D, 0, GL_COMPRESSED_RGBA_BPTC_UNORM, 4, 4, 2, 0, 32, slices.data());
    CHECK_GL_ERROR(GL_NO_ERROR);
    std::vector<uint8_t> volume(4 * 4 * 2 * 4, 0);
    glGetTexImage(GL_TEXTURE_3D, 0, GL_RGBA, GL_UNSIGNED_BYTE, volume.data());
    CHECK_GL_ERROR(GL_NO_ERROR);
    CHECK(volume[0] == 201 && volume[1] == 101 && volume[2] == 51 && volume[3] == 255);  // slice 0, (0, 0)
    const uint8_t* slice1 = &volume[4 * 4 * 4];
    CHECK(slice1[0] == 2 && slice1[1] == 200 && slice1[2] == 64 && slice1[3] == 254);
    std::vector<uint8_t> back3(32, 0);
    glGetCompressedTexImage(GL_TEXTURE_3D, 0, back3.data());
    CHECK(back3 == slices);
    glDeleteTextures(1, &t3);
    glBindTexture(GL_TEXTURE_2D, t);
  }
  // Errors: a box off the block grid, an imageSize of another size, another format than the texture's.
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGBA_BPTC_UNORM, 8, 8, 0, 64, blocks.data());
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 2, 0, 4, 4, GL_COMPRESSED_RGBA_BPTC_UNORM, 16, green);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_COMPRESSED_RGBA_BPTC_UNORM, 8, green);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT, 16, green);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGBA_BPTC_UNORM, 4, 4, 0, 15, green);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glDeleteTextures(1, &t);
}

void EncodedUploads() {
  Clean();
  // Two blocks of one colour each, as RGBA bytes: BC7 mode 6 holds both exactly (every component odd, or
  // every one even), and Caldera's encoder finds that. Mesa 22.3's does not (it returns one approximate
  // colour for both blocks): its run checks only that the upload compresses without an error.
  GLuint t = NewTexture();
  std::vector<uint8_t> texels(8 * 4 * 4);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 8; ++x) {
      uint8_t* q = &texels[size_t(y * 8 + x) * 4];
      const uint8_t odd[4] = {255, 1, 129, 255}, even[4] = {254, 0, 128, 254};
      std::memcpy(q, x < 4 ? odd : even, 4);
    }
  glTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGBA_BPTC_UNORM, 8, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE,
               texels.data());
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLint compressed = 0;
  if (!g_es) {
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_COMPRESSED, &compressed);
    CHECK(compressed == GL_TRUE);
  }
  auto p = Draw(8, 4);
  if (g_caldera) {
    ExpectBytes(p, 8, 1, 2, 255, 1, 129, 255, "BC7 encoded");
    ExpectBytes(p, 8, 6, 3, 254, 0, 128, 254, "BC7 encoded");
  }
  if (!g_es && g_caldera) {
    // The encoded blocks read back and uploaded again draw the same texels.
    std::vector<uint8_t> blocks(32, 0);
    glGetCompressedTexImage(GL_TEXTURE_2D, 0, blocks.data());
    glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGBA_BPTC_UNORM, 8, 4, 0, 32, blocks.data());
    CHECK_GL_ERROR(GL_NO_ERROR);
    p = Draw(8, 4);
    ExpectBytes(p, 8, 0, 0, 255, 1, 129, 255, "BC7 blocks read back");
    ExpectBytes(p, 8, 7, 0, 254, 0, 128, 254, "BC7 blocks read back");
  }
  // BC6H from floats: a block of one value comes back within the 10-bit endpoints' precision.
  std::vector<float> rgb(4 * 4 * 3);
  for (size_t i = 0; i < rgb.size(); i += 3) rgb[i] = 1.0f, rgb[i + 1] = 0.5f, rgb[i + 2] = 4.0f;
  glTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT, 4, 4, 0, GL_RGB, GL_FLOAT,
               rgb.data());
  CHECK_GL_ERROR(GL_NO_ERROR);
  p = Draw(4, 4);
  const float want[4] = {1.0f, 0.5f, 4.0f, 1.0f};
  Expect(p, 4, 2, 1, want, 0.01f, "BC6H encoded");
  // Copies into BPTC are not supported (no CPU path for them yet): an error, not a silent success.
  if (g_caldera) {
    glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 0, 0, 4, 4);
    CHECK_GL_ERROR(GL_INVALID_OPERATION);
  }
  glDeleteTextures(1, &t);
}

void Queries() {
  Clean();
  // GL_COMPRESSED_TEXTURE_FORMATS: Mesa lists BPTC in ES contexts and leaves it out of desktop ones; Caldera
  // does the same.
  GLint n = 0;
  glGetIntegerv(GL_NUM_COMPRESSED_TEXTURE_FORMATS, &n);
  std::vector<GLint> list(size_t(std::max(n, 0)));
  glGetIntegerv(GL_COMPRESSED_TEXTURE_FORMATS, list.data());
  for (GLenum f : kFormats) {
    bool listed = false;
    for (GLint e : list) listed |= GLenum(e) == f;
    if (listed != g_es) std::printf("%s: listed %d in GL_COMPRESSED_TEXTURE_FORMATS\n", Name(f), listed);
    CHECK(listed == g_es);
  }
  GLint count = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &count);
  bool found = false;
  const char* want = g_es ? "GL_EXT_texture_compression_bptc" : "GL_ARB_texture_compression_bptc";
  for (GLint i = 0; i < count; ++i)
    found |= std::strcmp(reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i))), want) == 0;
  CHECK(found);
}

// Pseudo-random blocks (a fixed LCG), 16 x 16 of them. BC7: block i has mode i % 8 (its mode byte's low bits
// set so), or a reserved mode byte (zero) once in 64. BC6H: the first five bits cycle through all 18 mode
// values, the four reserved ones included.
std::vector<uint8_t> RandomBlocks(GLenum format) {
  static const uint8_t kBc6hModes[] = {0x00, 0x01, 0x02, 0x06, 0x0A, 0x0E, 0x12, 0x16, 0x1A,
                                       0x1E, 0x03, 0x07, 0x0B, 0x0F, 0x13, 0x17, 0x1B, 0x1F};
  uint64_t state = 0x9E3779B97F4A7C15ull ^ format;
  std::vector<uint8_t> blocks(16 * 16 * 16);
  for (size_t i = 0; i < blocks.size(); ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    blocks[i] = uint8_t(state >> 56);
  }
  bool bc7 = format == GL_COMPRESSED_RGBA_BPTC_UNORM || format == GL_COMPRESSED_SRGB_ALPHA_BPTC_UNORM;
  for (size_t b = 0; b < 256; ++b) {
    uint8_t& first = blocks[b * 16];
    if (bc7) {
      int mode = int(b % 8);
      first = b % 64 == 63 ? 0 : uint8_t((first << (mode + 1)) | (1u << mode));
    } else {
      first = uint8_t((first & 0xE0) | kBc6hModes[b % 18]);
    }
  }
  return blocks;
}

std::vector<float> DrawRandom(GLenum format) {
  GLuint t = NewTexture();
  auto blocks = RandomBlocks(format);
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, format, kSize, kSize, 0, GLsizei(blocks.size()), blocks.data());
  CHECK_GL_ERROR(GL_NO_ERROR);
  auto p = Draw(kSize, kSize);
  glDeleteTextures(1, &t);
  return p;
}

bool Dump(const char* path) {
  FILE* f = std::fopen(path, "wb");
  if (!f) return false;
  for (GLenum format : kFormats) {
    auto p = DrawRandom(format);
    std::fwrite(p.data(), sizeof(float), p.size(), f);
  }
  return std::fclose(f) == 0;
}

// The same blocks drawn by Mesa llvmpipe in a child process, texel for texel.
void CompareWithMesa(const char* self) {
  char path[] = "/tmp/caldera-bptc-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  close(fd);
  std::string log = std::string(path) + ".log";
  std::string command =
      std::string("__EGL_VENDOR_LIBRARY_FILENAMES=/usr/share/glvnd/egl_vendor.d/50_mesa.json ") + self +
      " --dump " + path + (g_es ? " --es" : "") + " > " + log + " 2>&1";
  std::fflush(stdout);
  int status = std::system(command.c_str());
  if (status != 0) std::system(("cat " + log).c_str());
  CHECK(status == 0);
  FILE* f = std::fopen(path, "rb");
  CHECK(f != nullptr);
  for (GLenum format : kFormats) {
    auto got = DrawRandom(format);
    std::vector<float> want(got.size(), 0.0f);
    CHECK(f && std::fread(want.data(), sizeof(float), want.size(), f) == want.size());
    // sRGB decodes may round differently between implementations; the rest is exact.
    float tolerance = format == GL_COMPRESSED_SRGB_ALPHA_BPTC_UNORM ? 2e-3f : 0.0f;
    int bad = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      if (std::fabs(got[i] - want[i]) <= tolerance * std::fmax(1.0f, std::fabs(want[i]))) continue;
      if (bad++ < 4) {
        size_t texel = i / 4, x = texel % kSize, y = texel / kSize;
        std::printf("%s texel (%zu,%zu) block %zu channel %zu: got %g, Mesa %g\n", Name(format), x, y,
                    (y / 4) * 16 + x / 4, i % 4, got[i], want[i]);
      }
    }
    std::printf("%s: %d of %zu values differ from Mesa's\n", Name(format), bad, got.size());
    CHECK(bad == 0);
  }
  if (f) std::fclose(f);
  unlink(path);
  unlink(log.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  bool expect_decoded = false, expect_native = false, compare = false;
  const char* dump = nullptr;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--es") g_es = true;
    if (a == "--expect-decoded") expect_decoded = true;
    if (a == "--expect-native") expect_native = true;
    if (a == "--compare-with-mesa") compare = true;
    if (a == "--dump" && i + 1 < argc) dump = argv[++i];
  }
  harness::StatsFile stats;
  harness::Window w = harness::Open(kSize, kSize, g_es);
  g_caldera = harness::PrintVendor().find("Caldera") != std::string::npos;
  harness::ColorTarget(kSize, kSize, GL_RGBA32F);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  MakeProgram();
  if (dump) {
    CHECK(Dump(dump));
    harness::Close(w);
    return harness::Summary();
  }
  KnownBlocks();
  UpdatesAndReadback();
  EncodedUploads();
  Queries();
  if (compare) CompareWithMesa(argv[0]);
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);
  long decoded = stats.Sum("compressed_decoded_blocks"), uploads = stats.Sum("compressed_uploads");
  std::printf("compressed blocks decoded on the GL thread: %ld, block uploads: %ld\n", decoded, uploads);
  if (expect_decoded) CHECK(decoded > 0 && uploads == 0);
  if (expect_native) CHECK(uploads > 0);
  return harness::Summary();
}
