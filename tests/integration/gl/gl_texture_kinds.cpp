// GL errors, queries and completeness of 2D-array, cube-map, 3D and rectangle textures and of their
// framebuffer attachments (GL 3.3 core). Runs against Caldera and Mesa llvmpipe (meson.build): a check that
// fails on Mesa is a wrong expectation.
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

}  // namespace

int main() {
  harness::Window w = harness::Open(32, 32);
  harness::PrintVendor();
  SpecificationErrors();
  CubeAndRectangle();
  Attachments();
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);
  return harness::Summary();
}
