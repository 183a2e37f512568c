// Texture helpers shared by the texture entry points and draw-time resolution.
#pragma once

#include <GL/glcorearb.h>

#include "frontend/objects.h"
#include "pipe/commands.h"

namespace caldera {

// Index into Context::textures[unit] for a texture target; -1 for targets that are not bindable.
int TextureTargetIndex(GLenum target);
// For a sampler uniform type: the target it samples. False for non-sampler types.
bool SamplerTarget(GLenum sampler_type, GLenum* target, pipe::TextureKind* kind);
// GL texture completeness (OpenGL 4.6 §8.17) for the levels and filters Caldera supports.
bool TextureComplete(const Texture& texture);
pipe::SamplerState ResolveSampler(const Texture& texture);

}  // namespace caldera
