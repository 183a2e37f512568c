// The parts of compat_api (one program, checked on Caldera and on Mesa alike), split by concern.
#pragma once

#include <cstring>

#include "compat_gl.h"

namespace compat_api {

inline bool HasExtension(const char* name) {
  GLint n = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &n);
  for (GLint i = 0; i < n; ++i)
    if (!std::strcmp(reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i))), name))
      return true;
  return false;
}

// compat_api_formats.cpp: legacy texture formats, luminance packing, framebuffer bits and the errors inside
// glBegin/glEnd.
void LegacyTextureFormats();
void LuminancePacking();
void FramebufferBitsAndBeginEndErrors();
void ExtFramebufferObject();
// compat_api_select.cpp: selection and feedback (glRenderMode).
void SelectionAndFeedback();
// compat_api_edges.cpp: the current edge flag; front and back polygon modes; hints; fog coordinate state.
void EdgeFlags();
void PolygonModes();
void CompatHints();
void FogCoordState();
// compat_api_index_maps.cpp: colour-index and accumulation state, integer light/material queries, texture
// residency, pixel maps and colour-index images, images compiled into lists.
void IndexAndAccumState();
void Accumulation();
void LightMaterialIntegerQueries();
void TextureResidency();
void PixelMaps();
void ListedImages();
// compat_api_evaluators.cpp: glMap/glGetMap, evaluated values, listed maps and GL_EVAL_BIT.
void Evaluators();
// compat_api_raster_light.cpp: the raster position's lit colours.
void RasterPositionLighting();

}  // namespace compat_api
