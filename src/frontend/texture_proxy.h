// Proxy texture targets (GL 4.6 §8.22, GL 3.3 §3.8.14): glTexImage* with GL_PROXY_TEXTURE_* checks whether
// an image could be made, without making it, and glGetTexLevelParameter* on the same target reads what it
// would have been. An image that cannot be supported (too large, too many samples) leaves a zero level and
// no error; every other error is the one the texture target gets.
#pragma once

#include <GL/glcorearb.h>

#include <optional>

#include "pipe/formats.h"

namespace caldera {

// One texture level as glGetTexLevelParameter* reports it: a proxy target's (Context::proxy_levels), or a
// texture's described the same way for the query. A proxy request that cannot be supported leaves the level
// as no request does: sizes 0 and a texture level's default internal format, GL_RGBA (as Mesa reports it;
// programs test the width).
struct ProxyLevel {
  GLsizei width = 0, height = 0, depth = 0, samples = 0;
  GLenum internal_format = GL_RGBA;
  std::optional<pipe::Format> format;
};

constexpr int kProxyTargets = 9;
constexpr int kProxyLevels = 16;  // levels 0..15: GL_MAX_TEXTURE_SIZE is at most 2^15

// Each proxy target and the texture target it stands for; a proxy's index here is its row in
// Context::proxy_levels.
constexpr GLenum kProxyTargetTable[kProxyTargets][2] = {
    {GL_PROXY_TEXTURE_1D, GL_TEXTURE_1D},
    {GL_PROXY_TEXTURE_2D, GL_TEXTURE_2D},
    {GL_PROXY_TEXTURE_3D, GL_TEXTURE_3D},
    {GL_PROXY_TEXTURE_RECTANGLE, GL_TEXTURE_RECTANGLE},
    {GL_PROXY_TEXTURE_CUBE_MAP, GL_TEXTURE_CUBE_MAP},
    {GL_PROXY_TEXTURE_1D_ARRAY, GL_TEXTURE_1D_ARRAY},
    {GL_PROXY_TEXTURE_2D_ARRAY, GL_TEXTURE_2D_ARRAY},
    {GL_PROXY_TEXTURE_2D_MULTISAMPLE, GL_TEXTURE_2D_MULTISAMPLE},
    {GL_PROXY_TEXTURE_2D_MULTISAMPLE_ARRAY, GL_TEXTURE_2D_MULTISAMPLE_ARRAY},
};

// Index of a proxy target in Context::proxy_levels (-1 when `target` is not one).
constexpr int ProxyTargetIndex(GLenum target) {
  for (int i = 0; i < kProxyTargets; ++i)
    if (kProxyTargetTable[i][0] == target) return i;
  return -1;
}

// The target a proxy stands for, or 0 when `target` is not a proxy target.
constexpr GLenum ProxyBindTarget(GLenum target) {
  const int i = ProxyTargetIndex(target);
  return i < 0 ? 0 : kProxyTargetTable[i][1];
}

}  // namespace caldera
