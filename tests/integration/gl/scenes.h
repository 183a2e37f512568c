// Scenes rendered identically on Caldera and on Mesa llvmpipe; compare.py diffs the pictures.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace scenes {

constexpr int kWidth = 64, kHeight = 64;

struct Scene {
  const char* name;
  void (*draw)();     // renders; the caller reads the default framebuffer (or the scene reads its FBO)
  bool reads_itself;  // true when draw() leaves its pixels in g_pixels (FBO readback)
};

const std::vector<Scene>& All();
const std::vector<Scene>& TextureScenes();  // texture_scenes.cpp: arrays, cubes, 3D, rectangles
const std::vector<Scene>& DrawScenes();     // draw_scenes.cpp: line loops, primitive restart
const std::vector<Scene>& MsaaScenes();     // msaa_scenes.cpp: multisampled targets and resolves
const std::vector<Scene>& FormatScenes();   // format_scenes.cpp: integer, sRGB, float, depth, packed
const std::vector<Scene>& XfbScenes();      // xfb_scenes.cpp: transform feedback captured and drawn
const std::vector<Scene>& ProgramScenes();  // program_scenes.cpp: uniforms, attributes, blending, points
const std::vector<Scene>& Tex1DScenes();    // tex1d_scenes.cpp: 1D textures, copies from framebuffers
const std::vector<Scene>& LayeredScenes();  // layered_scenes.cpp: layered targets, MSAA arrays, resolves
// sampler_format_scenes.cpp: border colours, SNORM, RGTC, sRGB blits
const std::vector<Scene>& SamplerFormatScenes();
// Two triangles covering the window; 2D positions at attribute location 0.
void DrawFullWindowQuad();
// A vertex shader for DrawFullWindowQuad passing v_uv, 0..1 across the viewport.
extern const char* const kQuadVS;
extern std::vector<uint8_t> g_pixels;

}  // namespace scenes
