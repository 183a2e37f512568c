// GL errors, queries and completeness of 2D-array, cube-map, 3D and rectangle textures and of their
// framebuffer attachments, and the level range sampling reads (base/max level) (GL 3.3 core). Runs against
// Caldera and Mesa llvmpipe (meson.build): a check that fails on Mesa is a wrong expectation.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "gl_harness.h"

namespace {

void Clean() {
  while (glGetError() != GL_NO_ERROR) {
  }
}

GLuint Bound(GLenum target) {
  GLuint t;
  glGenTextures(1, &t);
  glBindTexture(target, t);
  return t;
}

void SpecificationErrors() {
  Clean();
  GLuint array = Bound(GL_TEXTURE_2D_ARRAY);
  // Wrong dimensionality or unknown targets: INVALID_ENUM.
  glTexImage3D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glTexImage2D(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glTexImage2D(GL_TEXTURE_CUBE_MAP, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glTexStorage3D(GL_TEXTURE_CUBE_MAP, 1, GL_RGBA8, 4, 4, 1);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  // Sizes, levels, border.
  glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA8, 4, 4, -1, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glTexImage3D(GL_TEXTURE_2D_ARRAY, -1, GL_RGBA8, 4, 4, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA8, 4, 4, 2, 1, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA8, 4, 4, 3, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLint v = 0;
  glGetTexLevelParameteriv(GL_TEXTURE_2D_ARRAY, 0, GL_TEXTURE_DEPTH, &v);
  CHECK(v == 3);
  glGetTexLevelParameteriv(GL_TEXTURE_2D_ARRAY, 1, GL_TEXTURE_WIDTH, &v);
  CHECK(v == 0);  // level 1 was never specified
  // Sub-images inside and outside the layers.
  uint8_t texels[4 * 4 * 2 * 4] = {};
  glTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 0, 0, 1, 4, 4, 2, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 0, 0, 2, 4, 4, 2, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 0, 0, -1, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glTexSubImage3D(GL_TEXTURE_2D_ARRAY, 1, 0, 0, 0, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);  // no level 1
  // 3D textures cannot hold depth.
  Bound(GL_TEXTURE_3D);
  glTexImage3D(GL_TEXTURE_3D, 0, GL_DEPTH_COMPONENT24, 4, 4, 4, 0, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT,
               nullptr);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA8, 8, 4, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glGetTexLevelParameteriv(GL_TEXTURE_3D, 2, GL_TEXTURE_DEPTH, &v);
  CHECK(v == 0);
  glGenerateMipmap(GL_TEXTURE_3D);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glGetTexLevelParameteriv(GL_TEXTURE_3D, 1, GL_TEXTURE_DEPTH, &v);
  CHECK(v == 1);  // depth halves with the level
  glGetTexLevelParameteriv(GL_TEXTURE_3D, 3, GL_TEXTURE_WIDTH, &v);
  CHECK(v == 1);
  // TexStorage3D: immutable; too many levels; default texture.
  GLuint storage = Bound(GL_TEXTURE_3D);
  glTexStorage3D(GL_TEXTURE_3D, 5, GL_RGBA8, 8, 4, 2);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);  // 8x4x2 has 4 levels
  glTexStorage3D(GL_TEXTURE_3D, 0, GL_RGBA8, 8, 4, 2);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glTexStorage3D(GL_TEXTURE_3D, 4, GL_RGBA8, 8, 4, 2);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA8, 8, 4, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glGetTexParameteriv(GL_TEXTURE_3D, GL_TEXTURE_IMMUTABLE_LEVELS, &v);
  CHECK(v == 4);
  glBindTexture(GL_TEXTURE_2D_ARRAY, 0);
  glTexStorage3D(GL_TEXTURE_2D_ARRAY, 1, GL_RGBA8, 4, 4, 4);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);  // the default texture
  glDeleteTextures(1, &array);
  glDeleteTextures(1, &storage);
}

void CubeAndRectangle() {
  Clean();
  GLuint cube = Bound(GL_TEXTURE_CUBE_MAP);
  glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X, 0, GL_RGBA8, 4, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK_GL_ERROR(GL_INVALID_VALUE);  // faces are square
  glTexStorage2D(GL_TEXTURE_CUBE_MAP, 1, GL_RGBA8, 4, 2);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  for (int f = 0; f < 6; ++f)
    glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 nullptr);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLint v = 0;
  glGetTexLevelParameteriv(GL_TEXTURE_CUBE_MAP_NEGATIVE_Z, 0, GL_TEXTURE_WIDTH, &v);
  CHECK(v == 4);
  glGetTexLevelParameteriv(GL_TEXTURE_CUBE_MAP, 0, GL_TEXTURE_WIDTH, &v);
  CHECK_GL_ERROR(GL_INVALID_ENUM);  // levels are per face
  uint8_t texel[4] = {1, 2, 3, 4};
  glTexSubImage2D(GL_TEXTURE_CUBE_MAP_NEGATIVE_Y, 0, 3, 3, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, texel);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glTexSubImage2D(GL_TEXTURE_CUBE_MAP_NEGATIVE_Y, 0, 4, 3, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, texel);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glGenerateMipmap(GL_TEXTURE_CUBE_MAP);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glGetTexLevelParameteriv(GL_TEXTURE_CUBE_MAP_POSITIVE_Y, 2, GL_TEXTURE_WIDTH, &v);
  CHECK(v == 1);

  GLuint rect = Bound(GL_TEXTURE_RECTANGLE);
  glGetTexParameteriv(GL_TEXTURE_RECTANGLE, GL_TEXTURE_WRAP_S, &v);
  CHECK(v == GL_CLAMP_TO_EDGE);
  glGetTexParameteriv(GL_TEXTURE_RECTANGLE, GL_TEXTURE_MIN_FILTER, &v);
  CHECK(v == GL_LINEAR);
  glTexImage2D(GL_TEXTURE_RECTANGLE, 1, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK_GL_ERROR(GL_INVALID_VALUE);  // one level only
  glTexParameteri(GL_TEXTURE_RECTANGLE, GL_TEXTURE_WRAP_S, GL_REPEAT);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glTexParameteri(GL_TEXTURE_RECTANGLE, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glTexParameteri(GL_TEXTURE_RECTANGLE, GL_TEXTURE_BASE_LEVEL, 1);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glGenerateMipmap(GL_TEXTURE_RECTANGLE);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glTexStorage2D(GL_TEXTURE_RECTANGLE, 2, GL_RGBA8, 4, 4);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glTexImage2D(GL_TEXTURE_RECTANGLE, 0, GL_RGBA8, 5, 3, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glDeleteTextures(1, &cube);
  glDeleteTextures(1, &rect);
}

// Render into a layer and read it back with glReadPixels: the attachment's layer, not layer 0, is read.
void Attachments() {
  Clean();
  GLuint array = Bound(GL_TEXTURE_2D_ARRAY);
  glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA8, 4, 4, 3, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  GLuint cube = Bound(GL_TEXTURE_CUBE_MAP);
  for (int f = 0; f < 5; ++f)
    glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 nullptr);
  GLuint tex2d = Bound(GL_TEXTURE_2D);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  GLuint fbo;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  CHECK_GL_ERROR(GL_NO_ERROR);

  glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex2d, 0, 0);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);  // not a layered texture
  glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, array, 0, -1);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, cube, 0);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);  // target mismatch
  glFramebufferTexture3D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, array, 0, 0);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);

  // A layer past the array's end is accepted by the call but makes the framebuffer incomplete.
  glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, array, 0, 3);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
  // An unspecified face is incomplete too.
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_CUBE_MAP_NEGATIVE_Z, cube, 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_CUBE_MAP_POSITIVE_Z, cube, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  GLint v = 0;
  glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                                        GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE, &v);
  CHECK(v == GL_TEXTURE_CUBE_MAP_POSITIVE_Z);

  // Clear each array layer to its own colour, then read layer 1 back.
  const float colors[3][4] = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}};
  for (int layer = 0; layer < 3; ++layer) {
    glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, array, 0, layer);
    CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
    glClearColor(colors[layer][0], colors[layer][1], colors[layer][2], colors[layer][3]);
    glClear(GL_COLOR_BUFFER_BIT);
  }
  glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, array, 0, 1);
  glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                                        GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER, &v);
  CHECK(v == 1);
  uint8_t px[4] = {};
  glReadPixels(1, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  CHECK(px[0] == 0 && px[1] == 255 && px[2] == 0 && px[3] == 255);
  glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, array, 0, 2);
  glReadPixels(2, 3, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  CHECK(px[0] == 0 && px[1] == 0 && px[2] == 255 && px[3] == 255);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  GLuint textures[3] = {array, cube, tex2d};
  glDeleteTextures(3, textures);
}

// GL_TEXTURE_BASE_LEVEL / GL_TEXTURE_MAX_LEVEL: which levels sampling reads, what level-relative shader
// functions (textureSize, texelFetch, textureLod, the LOD clamps) count from, the immutable-texture clamps,
// completeness, glGenerateMipmap from the base level, and attachments keeping their own level while the
// texture's level range points elsewhere. Pixels are compared exactly; every level has its own colour.
constexpr uint8_t kLevelColors[][4] = {{255, 0, 0, 255},    {0, 255, 0, 255},   {0, 0, 255, 255},
                                       {255, 255, 0, 255},  {0, 255, 255, 255}, {255, 0, 255, 255},
                                       {255, 255, 255, 255}};

const char* const kQuadVs = R"(#version 330 core
layout(location = 0) in vec2 p;
out vec2 uv;
void main() { uv = p * 0.5 + 0.5; gl_Position = vec4(p, 0.0, 1.0); })";

// mode 0: texture(); 1: textureLod(lod); 2: textureSize(lod) as bytes; 3: texelFetch(texel 0, lod).
const char* const kSampleFs = R"(#version 330 core
uniform sampler2D t;
uniform int mode;
uniform float lod;
in vec2 uv;
out vec4 color;
void main() {
  if (mode == 0) color = texture(t, uv);
  else if (mode == 1) color = textureLod(t, uv, lod);
  else if (mode == 2) color = vec4(vec2(textureSize(t, int(lod))) / 255.0, 0.0, 1.0);
  else color = texelFetch(t, ivec2(0), int(lod));
})";

const char* const kSize3DFs = R"(#version 330 core
uniform sampler3D t;
out vec4 color;
void main() { color = vec4(vec3(textureSize(t, 0)) / 255.0, 1.0); })";

struct LevelProgram {
  GLuint program = 0, vao = 0, buffer = 0;
  GLint mode = -1, lod = -1;
};

// A square 2D texture whose level l is filled with kLevelColors[l] (levels 0..levels-1 of `size`).
GLuint LevelTexture(GLsizei size, int levels, bool immutable) {
  GLuint t = Bound(GL_TEXTURE_2D);
  if (immutable) glTexStorage2D(GL_TEXTURE_2D, levels, GL_RGBA8, size, size);
  for (int l = 0; l < levels; ++l) {
    GLsizei s = std::max(size >> l, 1);
    std::vector<uint8_t> texels(size_t(s) * s * 4);
    for (size_t i = 0; i < texels.size(); ++i) texels[i] = kLevelColors[l][i % 4];
    if (immutable)
      glTexSubImage2D(GL_TEXTURE_2D, l, 0, 0, s, s, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
    else
      glTexImage2D(GL_TEXTURE_2D, l, GL_RGBA8, s, s, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
  }
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  return t;
}

// Draws the quad into a `size` square at the origin of the bound framebuffer.
void DrawQuad(const LevelProgram& p, int mode, float lod, int size) {
  glUseProgram(p.program);
  glUniform1i(p.mode, mode);
  glUniform1f(p.lod, lod);
  glBindVertexArray(p.vao);
  glViewport(0, 0, size, size);
  glClearColor(0.5f, 0.5f, 0.5f, 0.5f);
  glClear(GL_COLOR_BUFFER_BIT);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

// DrawQuad, then the pixel (0,0) it drew.
std::vector<uint8_t> DrawLevel(const LevelProgram& p, int mode, float lod, int size = 32) {
  DrawQuad(p, mode, lod, size);
  std::vector<uint8_t> px(4);
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  return px;
}

bool Is(const std::vector<uint8_t>& px, const uint8_t (&want)[4]) {
  bool same = std::memcmp(px.data(), want, 4) == 0;
  if (!same)
    std::fprintf(stderr, "  read %d,%d,%d,%d want %d,%d,%d,%d\n", px[0], px[1], px[2], px[3], want[0],
                 want[1], want[2], want[3]);
  return same;
}
bool IsLevel(const std::vector<uint8_t>& px, int level) {
  return Is(px, kLevelColors[level]);
}

void SampledLevelRange(const LevelProgram& p) {
  Clean();
  GLuint tex = LevelTexture(8, 4, false);
  // The base level is what a magnified draw and level 0 of every level-relative function read.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 1);
  CHECK(IsLevel(DrawLevel(p, 0, 0), 1));
  CHECK(IsLevel(DrawLevel(p, 1, 0), 1));
  CHECK(IsLevel(DrawLevel(p, 1, 1), 2));
  CHECK(IsLevel(DrawLevel(p, 1, 10), 3));  // clamped to the last level
  CHECK(Is(DrawLevel(p, 2, 0), {4, 4, 0, 255}));
  CHECK(Is(DrawLevel(p, 2, 1), {2, 2, 0, 255}));
  CHECK(IsLevel(DrawLevel(p, 3, 0), 1));
  CHECK(IsLevel(DrawLevel(p, 3, 1), 2));
  // Only the base level changes between these draws.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 2);
  CHECK(IsLevel(DrawLevel(p, 0, 0), 2));
  CHECK(Is(DrawLevel(p, 2, 0), {2, 2, 0, 255}));
  CHECK(IsLevel(DrawLevel(p, 3, 0), 2));
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 1);
  CHECK(IsLevel(DrawLevel(p, 0, 0), 1));
  // The max level ends the chain: LODs past it read it.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 2);
  CHECK(IsLevel(DrawLevel(p, 1, 10), 2));
  // GL_TEXTURE_MIN_LOD/MAX_LOD count from the base level too.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 1000);
  glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_MIN_LOD, 1.0f);
  CHECK(IsLevel(DrawLevel(p, 1, 0), 2));
  glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_MIN_LOD, -1000.0f);
  glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_MAX_LOD, 0.0f);
  CHECK(IsLevel(DrawLevel(p, 1, 10), 1));
  glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_MAX_LOD, 1000.0f);
  // A base level above the max level leaves no mipmap chain: incomplete with a mipmap filter, the base
  // level alone without one.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 2);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 1);
  CHECK(Is(DrawLevel(p, 0, 0), {0, 0, 0, 255}));
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  CHECK(IsLevel(DrawLevel(p, 0, 0), 2));
  CHECK(IsLevel(DrawLevel(p, 3, 0), 2));
  // Without a mipmap filter the LOD clamps choose the filter only: the base level is read however high.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 1);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 1000);
  glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_MIN_LOD, 2.0f);
  CHECK(IsLevel(DrawLevel(p, 0, 0), 1));
  CHECK(IsLevel(DrawLevel(p, 1, 5), 1));
  glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_MIN_LOD, -1000.0f);
  // A base level past the levels specified is incomplete whatever the filter.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 5);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 1000);
  CHECK(Is(DrawLevel(p, 0, 0), {0, 0, 0, 255}));
  glDeleteTextures(1, &tex);

  // A minified draw: 64 texels over 2 pixels is LOD 5, which the max level holds back.
  tex = LevelTexture(64, 7, false);
  CHECK(IsLevel(DrawLevel(p, 0, 0, 2), 5));
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 2);
  CHECK(IsLevel(DrawLevel(p, 0, 0, 2), 2));
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 3);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 4);
  CHECK(IsLevel(DrawLevel(p, 0, 0, 2), 4));
  CHECK(IsLevel(DrawLevel(p, 0, 0, 32), 3));  // 8 texels over 32 pixels: magnified, the base level
  glDeleteTextures(1, &tex);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// Immutable textures clamp the base level to their levels and the max level to [base, levels - 1].
void ImmutableLevelClamps(const LevelProgram& p) {
  Clean();
  GLuint tex = LevelTexture(8, 4, true);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 7);
  CHECK(IsLevel(DrawLevel(p, 0, 0), 3));
  CHECK(Is(DrawLevel(p, 2, 0), {1, 1, 0, 255}));
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 1);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);  // below the base: raised to it
  CHECK(IsLevel(DrawLevel(p, 0, 0), 1));
  CHECK(IsLevel(DrawLevel(p, 1, 5), 1));
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 2);
  CHECK(IsLevel(DrawLevel(p, 1, 5), 2));
  glDeleteTextures(1, &tex);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// glGenerateMipmap filters from the base level down to the max level and leaves the levels outside alone.
void GenerateFromBase(const LevelProgram& p) {
  Clean();
  for (bool immutable : {false, true}) {
    // Mutable: levels 0 (red) and 1 (green) only; immutable: every level, each its own colour, which
    // generation must replace from level 2 to the max level.
    GLuint tex = LevelTexture(16, immutable ? 5 : 2, immutable);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 1);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 3);
    glGenerateMipmap(GL_TEXTURE_2D);
    CHECK_GL_ERROR(GL_NO_ERROR);
    GLint w = 0;
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 3, GL_TEXTURE_WIDTH, &w);
    CHECK(w == 2);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 0);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, immutable ? 4 : 3);
    CHECK(IsLevel(DrawLevel(p, 1, 0), 0));  // level 0 is below the base: untouched
    CHECK(IsLevel(DrawLevel(p, 1, 2), 1));
    CHECK(IsLevel(DrawLevel(p, 1, 3), 1));
    if (immutable) CHECK(IsLevel(DrawLevel(p, 1, 4), 4));  // above the max level: untouched
    std::vector<uint8_t> level0(16 * 16 * 4);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, level0.data());
    CHECK(std::memcmp(level0.data() + 17 * 4, kLevelColors[0], 4) == 0);
    glDeleteTextures(1, &tex);
  }
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// A level rendered into keeps its own level whatever the texture's level range, and the levels sampled
// around it can be the ones below it (building a chain by drawing each level from the one above it).
void AttachedLevels(const LevelProgram& p) {
  Clean();
  GLuint tex = LevelTexture(8, 4, true);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 2);
  GLuint fbo;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 1);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glClearColor(1, 0, 1, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  std::vector<uint8_t> px(4);
  glReadPixels(3, 3, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  CHECK(Is(px, kLevelColors[5]));
  // Draw level 2 from level 1 (the magenta just cleared) with the range at level 1 alone, then level 3
  // from level 2: each pass reads what the one before it drew into the same texture (no readback in
  // between to order them).
  for (int level = 2; level <= 3; ++level) {
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, level);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, level - 1);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, level - 1);
    DrawQuad(p, 1, 0, 8 >> level);
  }
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  CHECK(Is(px, kLevelColors[5]));
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  // Back on the window: levels 2 and 3 now hold the drawn magenta, level 0 its own colour.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 2);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 3);
  CHECK(Is(DrawLevel(p, 1, 0), kLevelColors[5]));
  CHECK(Is(DrawLevel(p, 1, 1), kLevelColors[5]));
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 0);
  CHECK(IsLevel(DrawLevel(p, 1, 0), 0));
  glDeleteTextures(1, &tex);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// textureSize of a 3D texture counts slices from the base level too.
void BaseLevel3D() {
  Clean();
  GLuint program = harness::CompileProgram(kQuadVs, kSize3DFs);
  GLuint tex = Bound(GL_TEXTURE_3D);
  glTexStorage3D(GL_TEXTURE_3D, 3, GL_RGBA8, 16, 8, 4);
  glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_BASE_LEVEL, 1);
  glUseProgram(program);
  glViewport(0, 0, 32, 32);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  std::vector<uint8_t> px(4);
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  CHECK(Is(px, {8, 4, 2, 255}));
  glDeleteTextures(1, &tex);
  glDeleteProgram(program);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void LevelRanges() {
  LevelProgram p;
  p.program = harness::CompileProgram(kQuadVs, kSampleFs);
  p.mode = glGetUniformLocation(p.program, "mode");
  p.lod = glGetUniformLocation(p.program, "lod");
  const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  p.buffer = harness::Positions2D(quad, 8);
  glGetIntegerv(GL_VERTEX_ARRAY_BINDING, reinterpret_cast<GLint*>(&p.vao));
  SampledLevelRange(p);
  ImmutableLevelClamps(p);
  GenerateFromBase(p);
  AttachedLevels(p);
  BaseLevel3D();
  glDeleteProgram(p.program);
  glDeleteBuffers(1, &p.buffer);
  glDeleteVertexArrays(1, &p.vao);
}

}  // namespace

// Proxy targets (GL 3.3 §3.8.14): glTexImage* checks an image without making it and glGetTexLevelParameter*
// reads back what it would be; an image too large (or with too many samples) leaves a zero level and no
// error, while the texture target's other errors stay. No texture is touched.
GLint ProxyParam(GLenum target, GLint level, GLenum pname) {
  GLint v = -1;
  glGetTexLevelParameteriv(target, level, pname, &v);
  return v;
}

void ProxyTextures() {
  Clean();
  GLint max = 0, max3d = 0, layers = 0, samples = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max);
  glGetIntegerv(GL_MAX_3D_TEXTURE_SIZE, &max3d);
  glGetIntegerv(GL_MAX_ARRAY_TEXTURE_LAYERS, &layers);
  glGetIntegerv(GL_MAX_COLOR_TEXTURE_SAMPLES, &samples);
  GLuint tex = Bound(GL_TEXTURE_2D);
  auto fits = [](GLenum target, GLint level, GLint w, GLint h, GLint d, GLenum internal) {
    return ProxyParam(target, level, GL_TEXTURE_WIDTH) == w &&
           ProxyParam(target, level, GL_TEXTURE_HEIGHT) == h &&
           ProxyParam(target, level, GL_TEXTURE_DEPTH) == d &&
           ProxyParam(target, level, GL_TEXTURE_INTERNAL_FORMAT) == GLint(internal);
  };
  auto zero = [](GLenum target, GLint level) {
    const GLint w = ProxyParam(target, level, GL_TEXTURE_WIDTH),
                h = ProxyParam(target, level, GL_TEXTURE_HEIGHT);
    const GLint internal = ProxyParam(target, level, GL_TEXTURE_INTERNAL_FORMAT);
    // An unsupported image leaves the level as undefined levels are: internal format GL_RGBA (Mesa alike).
    if (w != 0 || h != 0 || internal != GL_RGBA)
      std::fprintf(stderr, "proxy 0x%04X level %d: %d x %d, internal format 0x%04X\n", target, level, w, h,
                   internal);
    return w == 0 && h == 0 && internal == GL_RGBA;
  };
  glTexImage2D(GL_PROXY_TEXTURE_2D, 0, GL_RGBA8, max, max, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(fits(GL_PROXY_TEXTURE_2D, 0, max, max, 1, GL_RGBA8));
  CHECK(ProxyParam(GL_PROXY_TEXTURE_2D, 0, GL_TEXTURE_RED_SIZE) == 8);
  CHECK(ProxyParam(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH) == 0);  // the bound texture is untouched
  glTexImage2D(GL_PROXY_TEXTURE_2D, 0, GL_RGBA8, max * 2, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(zero(GL_PROXY_TEXTURE_2D, 0));
  CHECK(ProxyParam(GL_PROXY_TEXTURE_2D, 0, GL_TEXTURE_RED_SIZE) == 0);
  // Level k holds at most max >> k.
  glTexImage2D(GL_PROXY_TEXTURE_2D, 1, GL_R8, max, 1, 0, GL_RED, GL_UNSIGNED_BYTE, nullptr);
  CHECK(zero(GL_PROXY_TEXTURE_2D, 1));
  glTexImage2D(GL_PROXY_TEXTURE_2D, 1, GL_R8, max / 2, 1, 0, GL_RED, GL_UNSIGNED_BYTE, nullptr);
  CHECK(fits(GL_PROXY_TEXTURE_2D, 1, max / 2, 1, 1, GL_R8));
  CHECK_GL_ERROR(GL_NO_ERROR);
  // The texture target's errors stay errors.
  glTexImage2D(GL_PROXY_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 1, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glTexImage2D(GL_PROXY_TEXTURE_2D, -1, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glTexImage2D(GL_PROXY_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_FLOAT_32_UNSIGNED_INT_24_8_REV,
               nullptr);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glTexImage3D(GL_PROXY_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glTexImage2D(GL_PROXY_TEXTURE_RECTANGLE, 1, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  // Cube faces are square; 3D and array limits are their own.
  glTexImage2D(GL_PROXY_TEXTURE_CUBE_MAP, 0, GL_RGBA8, 16, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK(fits(GL_PROXY_TEXTURE_CUBE_MAP, 0, 16, 16, 1, GL_RGBA8));
  glTexImage2D(GL_PROXY_TEXTURE_CUBE_MAP, 0, GL_RGBA8, 16, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK(zero(GL_PROXY_TEXTURE_CUBE_MAP, 0));
  glTexImage3D(GL_PROXY_TEXTURE_3D, 0, GL_RGBA8, max3d + 1, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK(zero(GL_PROXY_TEXTURE_3D, 0));
  glTexImage3D(GL_PROXY_TEXTURE_2D_ARRAY, 0, GL_RGBA8, 4, 4, layers, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK(fits(GL_PROXY_TEXTURE_2D_ARRAY, 0, 4, 4, layers, GL_RGBA8));
  glTexImage3D(GL_PROXY_TEXTURE_2D_ARRAY, 0, GL_RGBA8, 4, 4, layers + 1, 0, GL_RGBA, GL_UNSIGNED_BYTE,
               nullptr);
  CHECK(zero(GL_PROXY_TEXTURE_2D_ARRAY, 0));
  glTexImage2D(GL_PROXY_TEXTURE_1D_ARRAY, 0, GL_RGBA8, 8, layers, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK(fits(GL_PROXY_TEXTURE_1D_ARRAY, 0, 8, layers, 1, GL_RGBA8));
  glTexImage1D(GL_PROXY_TEXTURE_1D, 0, GL_DEPTH_COMPONENT24, max, 0, GL_DEPTH_COMPONENT, GL_FLOAT, nullptr);
  CHECK(fits(GL_PROXY_TEXTURE_1D, 0, max, 1, 1, GL_DEPTH_COMPONENT24));
  CHECK(ProxyParam(GL_PROXY_TEXTURE_1D, 0, GL_TEXTURE_DEPTH_SIZE) == 24);
  CHECK_GL_ERROR(GL_NO_ERROR);
  // Multisample proxies: too many samples is a zero level, not an error.
  glTexImage2DMultisample(GL_PROXY_TEXTURE_2D_MULTISAMPLE, samples, GL_RGBA8, 32, 16, GL_TRUE);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(fits(GL_PROXY_TEXTURE_2D_MULTISAMPLE, 0, 32, 16, 1, GL_RGBA8));
  CHECK(ProxyParam(GL_PROXY_TEXTURE_2D_MULTISAMPLE, 0, GL_TEXTURE_SAMPLES) >= samples);
  glTexImage2DMultisample(GL_PROXY_TEXTURE_2D_MULTISAMPLE, samples + 1, GL_RGBA8, 32, 16, GL_TRUE);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(zero(GL_PROXY_TEXTURE_2D_MULTISAMPLE, 0));
  glTexImage3DMultisample(GL_PROXY_TEXTURE_2D_MULTISAMPLE_ARRAY, samples, GL_RGBA8, 8, 8, 3, GL_TRUE);
  CHECK(fits(GL_PROXY_TEXTURE_2D_MULTISAMPLE_ARRAY, 0, 8, 8, 3, GL_RGBA8));
  CHECK_GL_ERROR(GL_NO_ERROR);
  glDeleteTextures(1, &tex);
}

int main() {
  harness::Window w = harness::Open(32, 32);
  harness::PrintVendor();
  SpecificationErrors();
  CubeAndRectangle();
  Attachments();
  LevelRanges();
  ProxyTextures();
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);
  return harness::Summary();
}
