// How a pixel rectangle reaches the framebuffer: its pixels, converted on the GL thread, become an internal
// RGBA32F texture, and a generated program draws a rectangle over the zoomed image through the ordinary
// draw path, so depth, stencil, scissor, blending, colour masks and the framebuffer's rules apply to its
// fragments as to any other. Each fragment fetches the texel whose zoomed pixel covers its centre (GL 2.1
// §3.6.5: the fragment at (x, y) comes from pixel ((x + .5 - xr) / zx, (y + .5 - yr) / zy)), so no sampling
// filter or texture coordinate interpolation is involved.
#include <algorithm>
#include <array>
#include <string>

#include "frontend/compat/hooks.h"
#include "frontend/compat/immediate.h"
#include "frontend/compat/pixel_rect_internal.h"
#include "frontend/compat/uniform_writer.h"
#include "frontend/texture_util.h"

namespace caldera::compat {
namespace {

// The unit the image is bound to for the draw: the last one, which fixed-function programs never use.
constexpr int kImageUnit = Context::kTextureUnits - 1;

std::string FragmentSource(RectKind kind, int alpha) {
  std::string s = "#version 330 core\nlayout(location = 0) out vec4 o_color;\nuniform sampler2D u_pixels;\n";
  // u_rect: window position of the image's lower-left corner, then the zoom.
  s += "uniform vec4 u_rect;\nuniform vec4 u_color;\nuniform float u_depth;\nuniform float u_alpha_ref;\n";
  s += "uniform float u_bit;\n";
  s += "void main() {\n  ivec2 t = ivec2(floor((gl_FragCoord.xy - u_rect.xy) / u_rect.zw));\n";
  s += "  if (any(lessThan(t, ivec2(0))) || any(greaterThanEqual(t, textureSize(u_pixels, 0)))) discard;\n";
  s += "  vec4 texel = texelFetch(u_pixels, t, 0);\n";
  switch (kind) {
    case RectKind::kColor:
      s += "  vec4 c = texel;\n  gl_FragDepth = u_depth;\n";
      break;
    case RectKind::kDepth:  // GL 2.1 §3.6.4: the colour is the raster position's
      s += "  vec4 c = u_color;\n  gl_FragDepth = clamp(texel.r, 0.0, 1.0);\n";
      break;
    case RectKind::kBitmap:  // §3.7: fragments only where the bitmap has a one
      s += "  if (texel.r == 0.0) discard;\n  vec4 c = u_color;\n  gl_FragDepth = u_depth;\n";
      break;
    case RectKind::kBitmapRun:  // RunFragmentSource's
      break;
    case RectKind::kStencil:  // one bit plane per draw (DrawStencilImage)
      s += "  if (u_bit >= 0.0 && ((int(texel.r) >> int(u_bit)) & 1) == 0) discard;\n";
      s += "  vec4 c = vec4(0.0);\n";
      break;
  }
  return s + AlphaTestAndOutput(alpha);
}

// A run of bitmaps in one draw: each glyph's vertices carry its window origin and atlas position
// (texcoord 0), its size and depth (texcoord 1) and the raster colour.
const char* kRunVertex =
    "#version 330 core\nlayout(location = 0) in vec4 a_position;\nlayout(location = 1) in vec4 a_color;\n"
    "layout(location = 4) in vec4 a_glyph;\nlayout(location = 5) in vec4 a_size;\n"
    "flat out vec4 v_color;\nflat out vec4 v_glyph;\nflat out vec4 v_size;\n"
    "void main() {\n  gl_Position = a_position;\n  v_color = a_color;\n  v_glyph = a_glyph;\n"
    "  v_size = a_size;\n}\n";

std::string RunFragmentSource(int alpha) {
  std::string s = "#version 330 core\nlayout(location = 0) out vec4 o_color;\nuniform sampler2D u_pixels;\n";
  s += "uniform float u_alpha_ref;\nflat in vec4 v_color;\nflat in vec4 v_glyph;\nflat in vec4 v_size;\n";
  s += "void main() {\n  ivec2 t = ivec2(floor(gl_FragCoord.xy - v_glyph.xy));\n";
  s += "  if (any(lessThan(t, ivec2(0))) || any(greaterThanEqual(t, ivec2(v_size.xy)))) discard;\n";
  s += "  if (texelFetch(u_pixels, ivec2(v_glyph.zw) + t, 0).r == 0.0) discard;\n";
  s += "  vec4 c = v_color;\n  gl_FragDepth = v_size.z;\n";
  return s + AlphaTestAndOutput(alpha);
}

std::shared_ptr<Program> RectProgram(Context& ctx, RectKind kind) {
  State& st = *ctx.compat;
  // The alpha test is the only fixed-function fragment stage these programs model (GL applies it to pixel
  // rectangles); it is code, as in the fixed-function programs, so the cache is per kind and function.
  int alpha = st.alpha_test && kind != RectKind::kStencil ? int(st.alpha_func - GL_NEVER) + 1 : 0;
  auto& program = st.pixel.programs[size_t(kind) * 9 + size_t(alpha)];
  if (program && st.cache_programs) return program;  // CALDERA_COMPAT_PROGRAM_CACHE=0 rebuilds these too
  static const char* kVertex =
      "#version 330 core\nlayout(location = 0) in vec4 a_position;\n"
      "void main() { gl_Position = a_position; }\n";
  program = kind == RectKind::kBitmapRun ? BuildInternalProgram(ctx, kRunVertex, RunFragmentSource(alpha))
                                         : BuildInternalProgram(ctx, kVertex, FragmentSource(kind, alpha));
  if (!program) return nullptr;
  for (const auto& u : program->linked->uniforms)
    if (u.sampler_index >= 0) program->sampler_units[u.sampler_index] = kImageUnit;
  return program;
}

// The two triangles of the window rectangle (x0, y0)-(x1, y1) in the normalized coordinates of a viewport
// covering the framebuffer (DrawRectVertices sets it): pixel rectangles are not clipped to the viewport,
// only to the window (and the scissor).
void PutRectangle(Context& ctx, float x0, float y0, float x1, float y1, Vertex out[6]) {
  int32_t fb_w = 1, fb_h = 1;
  ctx.DrawFramebufferSize(&fb_w, &fb_h);
  fb_w = std::max(fb_w, 1), fb_h = std::max(fb_h, 1);
  auto ndc_x = [&](float v) { return 2.0f * v / float(fb_w) - 1.0f; };
  auto ndc_y = [&](float v) { return 2.0f * v / float(fb_h) - 1.0f; };
  const float corners[4][2] = {
      {ndc_x(x0), ndc_y(y0)}, {ndc_x(x1), ndc_y(y0)}, {ndc_x(x1), ndc_y(y1)}, {ndc_x(x0), ndc_y(y1)}};
  static const int kOrder[6] = {0, 1, 2, 0, 2, 3};
  for (int i = 0; i < 6; ++i) {
    out[i].position[0] = corners[kOrder[i]][0];
    out[i].position[1] = corners[kOrder[i]][1];
    out[i].position[2] = 0;
    out[i].position[3] = 1;
  }
}

}  // namespace

std::shared_ptr<Texture> MakeRectImage(Context& ctx, int32_t width, int32_t height, const float* rgba,
                                       std::shared_ptr<Texture> reuse) {
  std::shared_ptr<Texture> tex = std::move(reuse);
  if (!tex || tex->width != width || tex->height != height) {
    tex = std::make_shared<Texture>();
    tex->target = GL_TEXTURE_2D;
    tex->device = &ctx.device();
    tex->handle = ctx.NewHandle();
    tex->format = pipe::Format::kRGBA32F;
    tex->internal_format = GL_RGBA32F;
    tex->width = width;
    tex->height = height;
    tex->levels = 1;
    tex->max_level = 0;
    tex->defined[0] = 1;
    tex->sampler.min_filter = tex->sampler.mag_filter = GL_NEAREST;
    tex->sampler.wrap_s = tex->sampler.wrap_t = GL_CLAMP_TO_EDGE;
    pipe::CmdImageCreate cmd{tex->handle, pipe::Format::kRGBA32F, 1, 1, uint32_t(width), uint32_t(height), 1};
    ctx.pipe().Record(cmd);
  } else {
    ++tex->version;
  }
  const uint32_t bytes = uint32_t(width) * uint32_t(height) * 4 * sizeof(float);
  pipe::CmdImageUpload up{tex->handle, 0, 0, 0, uint32_t(width), uint32_t(height), bytes};
  up.z = 0;
  up.depth = 1;
  ctx.pipe().Record(up, rgba, bytes);
  return tex;
}

void DrawRectImage(Context& ctx, RectKind kind, const std::shared_ptr<Texture>& image, float x, float y,
                   float zoom_x, float zoom_y, float stencil_bit) {
  if (ctx.conditional_render.discard || !image || zoom_x == 0 || zoom_y == 0) return;
  State& st = *ctx.compat;
  std::shared_ptr<Program> program = RectProgram(ctx, kind);
  if (!program) return;
  UniformWriter w(*program, st.cache_uniform_names, st.stats.uniform_name_lookups);
  const float rect[4] = {x, y, zoom_x, zoom_y};
  w.Vec("u_rect", rect, 4);
  w.Vec("u_color", st.pixel.color, 4);
  w.Vec("u_depth", &st.pixel.position[2], 1);
  w.Vec("u_alpha_ref", &st.alpha_ref, 1);
  w.Vec("u_bit", &stencil_bit, 1);
  w.Finish();

  Vertex quad[6] = {};
  PutRectangle(ctx, x, y, x + zoom_x * float(image->width), y + zoom_y * float(image->height), quad);
  DrawRectVertices(ctx, program, image, quad, 6);
}

void DrawRectVertices(Context& ctx, const std::shared_ptr<Program>& program,
                      const std::shared_ptr<Texture>& image, const Vertex* vertices, size_t count) {
  int32_t fb_w = 1, fb_h = 1;
  ctx.DrawFramebufferSize(&fb_w, &fb_h);
  fb_w = std::max(fb_w, 1), fb_h = std::max(fb_h, 1);
  // State of the draw that GL does not apply to pixel rectangles: the viewport, face culling and polygon
  // mode; the image takes the last texture unit. All put back after the draw.
  GLState& s = ctx.state;
  GLint saved_viewport[4];
  std::copy(s.viewport, s.viewport + 4, saved_viewport);
  const bool saved_cull = s.cull_face;
  const GLenum saved_polygon_mode = s.polygon_mode;
  s.viewport[0] = s.viewport[1] = 0;
  s.viewport[2] = fb_w, s.viewport[3] = fb_h;
  s.cull_face = false;
  s.polygon_mode = GL_FILL;
  ctx.MarkDirty(kDirtyFixedState);
  auto& slot = ctx.textures[kImageUnit][size_t(TextureTargetIndex(GL_TEXTURE_2D))];
  std::shared_ptr<Texture> saved_texture = std::move(slot);
  std::shared_ptr<SamplerObject> saved_sampler = std::move(ctx.sampler_bindings[kImageUnit]);
  slot = image;

  DrawVerticesWith(ctx, program, GL_TRIANGLES, vertices, count);

  slot = std::move(saved_texture);
  ctx.sampler_bindings[kImageUnit] = std::move(saved_sampler);
  std::copy(saved_viewport, saved_viewport + 4, s.viewport);
  s.cull_face = saved_cull;
  s.polygon_mode = saved_polygon_mode;
  ctx.MarkDirty(kDirtyFixedState);
  ctx.BumpDrawEpoch();
}

void DrawStencilImage(Context& ctx, const std::shared_ptr<Texture>& image, float x, float y, float zoom_x,
                      float zoom_y) {
  // Without a shader stencil export, the indices are written a bit plane at a time: the rectangle's stencil
  // is first replaced by 0, then each plane's ones are drawn with reference 0xff and a write mask of that
  // plane alone.
  GLState& s = ctx.state;
  const bool saved_stencil_test = s.stencil_test, saved_depth_test = s.depth_test;
  const bool saved_depth_mask = s.depth_mask;
  const auto saved_color_mask = s.color_mask;
  const StencilState saved_front = s.stencil[0], saved_back = s.stencil[1];
  const GLuint write_mask = s.stencil[0].write_mask;
  s.stencil_test = true;
  s.depth_test = false;
  s.depth_mask = false;
  for (auto& m : s.color_mask) m = {false, false, false, false};
  for (StencilState& face : s.stencil) {
    face.func = GL_ALWAYS;
    face.value_mask = 0xff;
    face.fail = face.zfail = face.zpass = GL_REPLACE;
  }
  auto pass = [&](GLint ref, GLuint mask, float bit) {
    for (StencilState& face : s.stencil) face.ref = ref, face.write_mask = mask;
    ctx.MarkDirty(kDirtyFixedState);
    DrawRectImage(ctx, RectKind::kStencil, image, x, y, zoom_x, zoom_y, bit);
  };
  pass(0, write_mask & 0xff, -1);
  for (int bit = 0; bit < 8; ++bit)
    if (write_mask & (1u << bit)) pass(0xff, 1u << bit, float(bit));
  s.stencil_test = saved_stencil_test;
  s.depth_test = saved_depth_test;
  s.depth_mask = saved_depth_mask;
  s.color_mask = saved_color_mask;
  s.stencil[0] = saved_front;
  s.stencil[1] = saved_back;
  ctx.MarkDirty(kDirtyFixedState);
}

void QueueBitmap(Context& ctx, PendingBitmap bitmap) {
  ctx.compat->pixel.pending.push_back(std::move(bitmap));
  // CALDERA_COMPAT_BITMAP_BATCH=0 (the kill switch): every glyph is its own draw.
  if (!ctx.compat->batch_bitmaps) return DrawPendingBitmaps(ctx);
  ctx.compat_hooks |= kHookBatch;
}

void DrawPendingBitmaps(Context& ctx) {
  PixelRectState& p = ctx.compat->pixel;
  std::vector<PendingBitmap> run;
  run.swap(p.pending);
  if (run.empty()) return;
  // The glyphs side by side in rows of an atlas at most 1024 texels wide (a glyph wider starts its own row).
  constexpr int32_t kAtlasWidth = 1024;
  int32_t atlas_w = 0, atlas_h = 0, row_x = 0, row_h = 0;
  std::vector<std::array<int32_t, 2>> at(run.size());
  for (size_t i = 0; i < run.size(); ++i) {
    if (row_x > 0 && row_x + run[i].width > kAtlasWidth) atlas_h += row_h, row_x = 0, row_h = 0;
    at[i] = {row_x, atlas_h};
    row_x += run[i].width;
    row_h = std::max(row_h, run[i].height);
    atlas_w = std::max(atlas_w, row_x);
  }
  atlas_h += row_h;
  std::vector<float> texels(size_t(atlas_w) * size_t(atlas_h) * 4, 0.0f);
  std::vector<Vertex> vertices(run.size() * 6);
  for (size_t i = 0; i < run.size(); ++i) {
    const PendingBitmap& b = run[i];
    for (int32_t y = 0; y < b.height; ++y)
      std::copy_n(b.texels + size_t(y) * size_t(b.width) * 4, size_t(b.width) * 4,
                  texels.data() + ((size_t(at[i][1]) + size_t(y)) * size_t(atlas_w) + size_t(at[i][0])) * 4);
    Vertex* quad = &vertices[i * 6];
    PutRectangle(ctx, b.x, b.y, b.x + float(b.width), b.y + float(b.height), quad);
    for (int v = 0; v < 6; ++v) {
      std::copy_n(b.color, 4, quad[v].color);
      const float glyph[4] = {b.x, b.y, float(at[i][0]), float(at[i][1])};
      const float size[4] = {float(b.width), float(b.height), b.depth, 0};
      std::copy_n(glyph, 4, quad[v].texcoord[0]);
      std::copy_n(size, 4, quad[v].texcoord[1]);
    }
  }
  run.clear();
  if (ctx.conditional_render.discard) return;
  std::shared_ptr<Program> program = RectProgram(ctx, RectKind::kBitmapRun);
  if (!program) return;
  UniformWriter w(*program, ctx.compat->cache_uniform_names, ctx.compat->stats.uniform_name_lookups);
  w.Vec("u_alpha_ref", &ctx.compat->alpha_ref, 1);
  w.Finish();
  p.atlas = MakeRectImage(ctx, atlas_w, atlas_h, texels.data(), p.atlas);
  DrawRectVertices(ctx, program, p.atlas, vertices.data(), vertices.size());
}

}  // namespace caldera::compat
