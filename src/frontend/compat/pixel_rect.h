// Pixel rectangles of the compatibility profile (GL 2.1 §2.13, §3.6-3.7, §4.3): the current raster
// position, glPixelZoom and glPixelTransfer's colour scale/bias, and the state glDrawPixels, glBitmap and
// glCopyPixels draw with. The rectangles become an upload into an internal texture and a generated
// textured-rectangle draw through the ordinary draw path (pixel_rect.cpp).
#pragma once

#include <GL/glcorearb.h>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "frontend/objects.h"

// Legacy names glcorearb.h leaves out.
#define CALDERA_LEGACY_ENUM(name, value) constexpr GLenum name = value;
namespace caldera::compat::legacy {
CALDERA_LEGACY_ENUM(kCurrentRasterColor, 0x0B04)
CALDERA_LEGACY_ENUM(kCurrentRasterIndex, 0x0B05)
CALDERA_LEGACY_ENUM(kCurrentRasterTextureCoords, 0x0B06)
CALDERA_LEGACY_ENUM(kCurrentRasterPosition, 0x0B07)
CALDERA_LEGACY_ENUM(kCurrentRasterPositionValid, 0x0B08)
CALDERA_LEGACY_ENUM(kCurrentRasterDistance, 0x0B09)
CALDERA_LEGACY_ENUM(kCurrentRasterSecondaryColor, 0x845F)
CALDERA_LEGACY_ENUM(kZoomX, 0x0D16)
CALDERA_LEGACY_ENUM(kZoomY, 0x0D17)
CALDERA_LEGACY_ENUM(kRedScale, 0x0D14)
CALDERA_LEGACY_ENUM(kRedBias, 0x0D15)
CALDERA_LEGACY_ENUM(kGreenScale, 0x0D18)
CALDERA_LEGACY_ENUM(kGreenBias, 0x0D19)
CALDERA_LEGACY_ENUM(kBlueScale, 0x0D1A)
CALDERA_LEGACY_ENUM(kBlueBias, 0x0D1B)
CALDERA_LEGACY_ENUM(kAlphaScale, 0x0D1C)
CALDERA_LEGACY_ENUM(kAlphaBias, 0x0D1D)
CALDERA_LEGACY_ENUM(kDepthScale, 0x0D1E)
CALDERA_LEGACY_ENUM(kDepthBias, 0x0D1F)
CALDERA_LEGACY_ENUM(kMapColor, 0x0D10)
CALDERA_LEGACY_ENUM(kMapStencil, 0x0D11)
CALDERA_LEGACY_ENUM(kIndexShift, 0x0D12)
CALDERA_LEGACY_ENUM(kIndexOffset, 0x0D13)
CALDERA_LEGACY_ENUM(kColorIndex, 0x1900)
CALDERA_LEGACY_ENUM(kBitmap, 0x1A00)
CALDERA_LEGACY_ENUM(kLuminance, 0x1909)
CALDERA_LEGACY_ENUM(kLuminanceAlpha, 0x190A)
CALDERA_LEGACY_ENUM(kColor, 0x1800)
CALDERA_LEGACY_ENUM(kDepth, 0x1801)
CALDERA_LEGACY_ENUM(kStencil, 0x1802)
}  // namespace caldera::compat::legacy
#undef CALDERA_LEGACY_ENUM

namespace caldera {
class Context;
}

namespace caldera::compat {

// A glBitmap waiting to be drawn with the others of its run (pixel_rect_draw.cpp): its lower-left window
// position, size, the raster colour and depth it takes, and its coverage (RGBA floats, red 0 or 1; `keep`
// holds them).
struct PendingBitmap {
  float x = 0, y = 0;
  int32_t width = 0, height = 0;
  float color[4] = {};
  float depth = 0;
  const float* texels = nullptr;
  std::shared_ptr<const void> keep;
};

// glPixelMap's tables (pixel_maps.cpp), in the order of their names GL_PIXEL_MAP_I_TO_I (0x0C70) ...
// GL_PIXEL_MAP_A_TO_A (0x0C79); each starts as one zero entry, and no attribute group holds them (GL 2.1
// table 6.22).
constexpr int kPixelMaps = 10;
constexpr int kMaxPixelMapTable = 256;  // GL_MAX_PIXEL_MAP_TABLE
enum PixelMapIndex : int { kMapIToI, kMapSToS, kMapIToR, kMapIToG, kMapIToB, kMapIToA, kMapRToR };
using PixelMapTables = std::array<std::vector<float>, kPixelMaps>;
inline PixelMapTables InitialPixelMaps() {
  PixelMapTables maps;
  for (auto& m : maps) m.assign(1, 0.0f);
  return maps;
}

struct PixelRectState {
  // The current raster position (GL 2.1 table 6.5): window coordinates and clip w, valid bit, and the
  // associated colour, secondary colour, texture coordinates (per fixed-function unit) and eye distance.
  float position[4] = {0, 0, 0, 1};
  bool valid = true;
  float color[4] = {1, 1, 1, 1};
  float secondary[4] = {0, 0, 0, 1};
  float texcoord[2][4] = {{0, 0, 0, 1}, {0, 0, 0, 1}};  // kTexUnits (state.h) units
  float distance = 0;
  // glPixelZoom, glPixelTransfer: colour and depth scale/bias, index shift/offset and the pixel maps.
  float zoom[2] = {1, 1};
  float scale[5] = {1, 1, 1, 1, 1};  // red, green, blue, alpha, depth
  float bias[5] = {0, 0, 0, 0, 0};
  bool map_color = false, map_stencil = false;
  GLint index_shift = 0, index_offset = 0;
  PixelMapTables maps = InitialPixelMaps();
  // Generated programs (per kind and alpha function) and the internal texture images are drawn from.
  std::array<std::shared_ptr<Program>, 5 * 9> programs;
  std::shared_ptr<Texture> image, atlas;
  // Consecutive glBitmap calls (a glCallLists of glyph lists) are drawn as one: they wait here, with
  // Context::compat_hooks' kHookBatch set, until the next command draws them (DrawPendingBatch).
  std::vector<PendingBitmap> pending;
};

// Pixel transfer through the maps (GL 2.1 §3.6.5; pixel_maps.cpp). An index is shifted and offset first;
// a colour index becomes RGBA through the I_TO_R/G/B/A maps (always, as every visual is RGBA); with
// GL_MAP_COLOR a colour goes through R_TO_R... after scale and bias; with GL_MAP_STENCIL a stencil index
// through S_TO_S.
int64_t ShiftAndOffset(const PixelRectState& p, int64_t index);
void IndexToRgba(const PixelRectState& p, int64_t index, float rgba[4]);
void MapColor(const PixelRectState& p, float rgba[4]);
int64_t MapStencil(const PixelRectState& p, int64_t index);

// glGet* of the pixel rectangle state (queries.cpp asks): as QueryState.
int QueryPixelRectState(Context& ctx, GLenum pname, double* out, bool* color);
// The generated glRasterPos*/glWindowPos* variants call these (GL 2.1 §2.13; glWindowPos: GL 1.4).
void RasterPosCommon(Context& ctx, float x, float y, float z, float w);
void WindowPosCommon(Context& ctx, float x, float y, float z);
// Draws the glBitmap calls waiting in PixelRectState::pending (DrawPendingBatch and glBegin call it).
void DrawPendingBitmaps(Context& ctx);

}  // namespace caldera::compat
