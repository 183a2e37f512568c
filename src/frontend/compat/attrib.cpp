// glPushAttrib / glPopAttrib: each push records, for the groups its mask names, how to put the state back —
// core state read through the ordinary queries and restored through the ordinary setters (so every dirty
// bit and derived value follows as if the application had made the calls), the compatibility profile's own
// state copied.
#include <array>
#include <functional>
#include <iterator>
#include <utility>

#include "frontend/compat/compat_impl.h"
#include "frontend/compat/hooks.h"
#include "frontend/compat/immediate.h"
#include "frontend/gl_impl.h"
#include "util/log.h"

namespace caldera::compat {
namespace {

struct Lighting {
  bool lighting, two_side, local_viewer, separate_specular, color_material;
  std::array<bool, kLights> light_enabled;
  std::array<Light, kLights> lights;
  std::array<Material, 2> material;
  std::array<float, 4> model_ambient;
  GLenum color_material_face, color_material_mode, shade_model;
};

class Saver {
 public:
  Saver(Context& ctx, std::vector<AttribRestore>& out) : ctx_(ctx), out_(out) {}

  void Cap(GLenum cap) {
    bool on = gl::IsEnabled(ctx_, cap);
    out_.push_back([cap, on](Context& c) { on ? gl::Enable(c, cap) : gl::Disable(c, cap); });
  }
  // Reads pname's values (up to 4) and registers apply(context, values) for the pop.
  template <typename Apply>
  void Floats(GLenum pname, Apply apply) {
    std::array<GLfloat, 4> v{};
    gl::GetFloatv(ctx_, pname, v.data());
    out_.push_back([v, apply](Context& c) { apply(c, v); });
  }
  template <typename Apply>
  void Ints(GLenum pname, Apply apply) {
    std::array<GLint, 4> v{};
    gl::GetIntegerv(ctx_, pname, v.data());
    out_.push_back([v, apply](Context& c) { apply(c, v); });
  }
  // Runs `save` with each fixed-function texture unit active, then restores the active unit.
  template <typename Save>
  void PerUnit(Save save) {
    GLint active = 0;
    gl::GetIntegerv(ctx_, GL_ACTIVE_TEXTURE, &active);
    for (GLenum u = 0; u < GLenum(kTexUnits); ++u) {
      gl::ActiveTexture(ctx_, GL_TEXTURE0 + u);
      out_.push_back([u](Context& c) { gl::ActiveTexture(c, GL_TEXTURE0 + u); });
      save(u);
    }
    gl::ActiveTexture(ctx_, GLenum(active));
    out_.push_back([active](Context& c) { gl::ActiveTexture(c, GLenum(active)); });
  }
  void Add(AttribRestore restore) { out_.push_back(std::move(restore)); }

 private:
  Context& ctx_;
  std::vector<AttribRestore>& out_;
};

constexpr GLbitfield kPointBit = 0x2, kLineBit = 0x4, kPolygonBit = 0x8, kLightingBit = 0x40, kFogBit = 0x80,
                     kViewportBit = 0x800, kTransformBit = 0x1000, kEnableBit = 0x2000, kListBit = 0x20000,
                     kTextureBit = 0x40000, kScissorBit = 0x80000, kMultisampleBit = 0x20000000,
                     kCurrentBit = 0x1, kPixelModeBit = 0x20, kHintBit = 0x8000, kAccumBit = 0x200,
                     kEvalBit = 0x10000;

void SaveCore(Context& ctx, GLbitfield mask, Saver& s) {
  if (mask & kPointBit) s.Floats(GL_POINT_SIZE, [](Context& c, auto v) { gl::PointSize(c, v[0]); });
  if (mask & kLineBit) {
    s.Floats(GL_LINE_WIDTH, [](Context& c, auto v) { gl::LineWidth(c, v[0]); });
    s.Cap(GL_LINE_SMOOTH);
    s.Cap(GL_LINE_STIPPLE);
    const GLint factor = ctx.state.line_stipple_factor;
    const GLushort pattern = ctx.state.line_stipple_pattern;
    s.Add([factor, pattern](Context& c) { gl::LineStipple(c, factor, pattern); });
  }
  if (mask & kPolygonBit) {
    s.Ints(GL_CULL_FACE_MODE, [](Context& c, auto v) { gl::CullFace(c, GLenum(v[0])); });
    s.Ints(GL_FRONT_FACE, [](Context& c, auto v) { gl::FrontFace(c, GLenum(v[0])); });
    s.Ints(GL_POLYGON_MODE, [](Context& c, auto v) {
      gl::PolygonMode(c, GL_FRONT, GLenum(v[0]));
      gl::PolygonMode(c, GL_BACK, GLenum(v[1]));
    });
    std::array<GLfloat, 2> offset{};
    gl::GetFloatv(ctx, GL_POLYGON_OFFSET_FACTOR, &offset[0]);
    gl::GetFloatv(ctx, GL_POLYGON_OFFSET_UNITS, &offset[1]);
    s.Add([offset](Context& c) { gl::PolygonOffset(c, offset[0], offset[1]); });
    for (GLenum cap : {GL_CULL_FACE, GL_POLYGON_SMOOTH, GL_POLYGON_STIPPLE, GL_POLYGON_OFFSET_FILL,
                       GL_POLYGON_OFFSET_LINE, GL_POLYGON_OFFSET_POINT})
      s.Cap(cap);
  }
  if (mask & GL_DEPTH_BUFFER_BIT) {
    s.Cap(GL_DEPTH_TEST);
    s.Ints(GL_DEPTH_FUNC, [](Context& c, auto v) { gl::DepthFunc(c, GLenum(v[0])); });
    s.Ints(GL_DEPTH_WRITEMASK, [](Context& c, auto v) { gl::DepthMask(c, GLboolean(v[0] != 0)); });
    s.Floats(GL_DEPTH_CLEAR_VALUE, [](Context& c, auto v) { gl::ClearDepth(c, v[0]); });
  }
  if (mask & GL_STENCIL_BUFFER_BIT) {
    s.Cap(GL_STENCIL_TEST);
    s.Ints(GL_STENCIL_CLEAR_VALUE, [](Context& c, auto v) { gl::ClearStencil(c, v[0]); });
    struct Face {
      GLenum face, func, ref, value_mask, fail, depth_fail, depth_pass, writemask;
    };
    for (const Face& f :
         {Face{GL_FRONT, GL_STENCIL_FUNC, GL_STENCIL_REF, GL_STENCIL_VALUE_MASK, GL_STENCIL_FAIL,
               GL_STENCIL_PASS_DEPTH_FAIL, GL_STENCIL_PASS_DEPTH_PASS, GL_STENCIL_WRITEMASK},
          Face{GL_BACK, GL_STENCIL_BACK_FUNC, GL_STENCIL_BACK_REF, GL_STENCIL_BACK_VALUE_MASK,
               GL_STENCIL_BACK_FAIL, GL_STENCIL_BACK_PASS_DEPTH_FAIL, GL_STENCIL_BACK_PASS_DEPTH_PASS,
               GL_STENCIL_BACK_WRITEMASK}}) {
      GLint v[7] = {};
      const GLenum names[7] = {f.func, f.ref, f.value_mask, f.fail, f.depth_fail, f.depth_pass, f.writemask};
      for (int i = 0; i < 7; ++i) gl::GetIntegerv(ctx, names[i], &v[i]);
      const GLenum face = f.face;
      s.Add([face, v0 = v[0], v1 = v[1], v2 = v[2], v3 = v[3], v4 = v[4], v5 = v[5], v6 = v[6]](Context& c) {
        gl::StencilFuncSeparate(c, face, GLenum(v0), v1, GLuint(v2));
        gl::StencilOpSeparate(c, face, GLenum(v3), GLenum(v4), GLenum(v5));
        gl::StencilMaskSeparate(c, face, GLuint(v6));
      });
    }
  }
  if (mask & kViewportBit) {
    s.Ints(GL_VIEWPORT, [](Context& c, auto v) { gl::Viewport(c, v[0], v[1], v[2], v[3]); });
    s.Floats(GL_DEPTH_RANGE, [](Context& c, auto v) { gl::DepthRange(c, v[0], v[1]); });
  }
  if (mask & GL_COLOR_BUFFER_BIT) {
    for (GLenum cap : {GL_BLEND, GL_DITHER, GL_COLOR_LOGIC_OP, GL_ALPHA_TEST}) s.Cap(cap);
    std::array<GLint, 6> blend{};
    const GLenum names[6] = {GL_BLEND_SRC_RGB,   GL_BLEND_DST_RGB,      GL_BLEND_SRC_ALPHA,
                             GL_BLEND_DST_ALPHA, GL_BLEND_EQUATION_RGB, GL_BLEND_EQUATION_ALPHA};
    for (int i = 0; i < 6; ++i) gl::GetIntegerv(ctx, names[i], &blend[i]);
    s.Add([blend](Context& c) {
      gl::BlendFuncSeparate(c, GLenum(blend[0]), GLenum(blend[1]), GLenum(blend[2]), GLenum(blend[3]));
      gl::BlendEquationSeparate(c, GLenum(blend[4]), GLenum(blend[5]));
    });
    s.Floats(GL_BLEND_COLOR, [](Context& c, auto v) { gl::BlendColor(c, v[0], v[1], v[2], v[3]); });
    s.Floats(GL_COLOR_CLEAR_VALUE, [](Context& c, auto v) { gl::ClearColor(c, v[0], v[1], v[2], v[3]); });
    s.Ints(GL_LOGIC_OP_MODE, [](Context& c, auto v) { gl::LogicOp(c, GLenum(v[0])); });
    std::array<GLboolean, 4> write{};
    gl::GetBooleanv(ctx, GL_COLOR_WRITEMASK, write.data());
    s.Add([write](Context& c) { gl::ColorMask(c, write[0], write[1], write[2], write[3]); });
  }
  if (mask & kScissorBit) {
    s.Cap(GL_SCISSOR_TEST);
    s.Ints(GL_SCISSOR_BOX, [](Context& c, auto v) { gl::Scissor(c, v[0], v[1], v[2], v[3]); });
  }
  if (mask & kMultisampleBit)
    for (GLenum cap : {GL_MULTISAMPLE, GL_SAMPLE_ALPHA_TO_COVERAGE, GL_SAMPLE_COVERAGE}) s.Cap(cap);
  if (mask & kEnableBit) {
    for (GLenum cap : {GL_ALPHA_TEST,
                       GL_BLEND,
                       GL_COLOR_LOGIC_OP,
                       GL_COLOR_MATERIAL,
                       GL_COLOR_SUM,
                       GL_CULL_FACE,
                       GL_DEPTH_TEST,
                       GL_DITHER,
                       GL_FOG,
                       GL_LIGHTING,
                       GL_LINE_SMOOTH,
                       GL_LINE_STIPPLE,
                       GL_MULTISAMPLE,
                       GL_NORMALIZE,
                       GL_POLYGON_OFFSET_FILL,
                       GL_POLYGON_OFFSET_LINE,
                       GL_POLYGON_OFFSET_POINT,
                       GL_POLYGON_SMOOTH,
                       GL_POLYGON_STIPPLE,
                       GL_RESCALE_NORMAL,
                       GL_SAMPLE_ALPHA_TO_COVERAGE,
                       GL_SAMPLE_COVERAGE,
                       GL_SCISSOR_TEST,
                       GL_STENCIL_TEST,
                       GL_VERTEX_PROGRAM_TWO_SIDE})
      s.Cap(cap);
    for (int i = 0; i < kLights; ++i) s.Cap(GLenum(GL_LIGHT0 + i));
    for (int i = 0; i < kClipPlanes; ++i) s.Cap(GLenum(GL_CLIP_PLANE0 + i));
    s.PerUnit([&](GLenum) {
      for (GLenum cap : {GLenum(GL_TEXTURE_1D), GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_3D),
                         GLenum(GL_TEXTURE_CUBE_MAP), GLenum(GL_TEXTURE_RECTANGLE), GLenum(GL_TEXTURE_GEN_S),
                         GLenum(GL_TEXTURE_GEN_T), GLenum(GL_TEXTURE_GEN_R), GLenum(GL_TEXTURE_GEN_Q)})
        s.Cap(cap);
    });
  }
  if (mask & kTextureBit)
    s.PerUnit([&](GLenum) {
      // The enables and the bindings of every target a unit textures from (GL 2.1 table 6.20).
      constexpr std::pair<GLenum, GLenum> kTargets[] = {{GL_TEXTURE_1D, GL_TEXTURE_BINDING_1D},
                                                        {GL_TEXTURE_2D, GL_TEXTURE_BINDING_2D},
                                                        {GL_TEXTURE_3D, GL_TEXTURE_BINDING_3D},
                                                        {GL_TEXTURE_CUBE_MAP, GL_TEXTURE_BINDING_CUBE_MAP},
                                                        {GL_TEXTURE_RECTANGLE, GL_TEXTURE_BINDING_RECTANGLE}};
      for (const auto& entry : kTargets) {
        const GLenum target = entry.first;  // clang 14 cannot capture structured bindings
        s.Cap(target);
        s.Ints(entry.second, [target](Context& c, auto v) { gl::BindTexture(c, target, GLuint(v[0])); });
      }
    });
}

}  // namespace
}  // namespace caldera::compat

namespace caldera::gl {
using namespace caldera::compat;

void PushAttrib(Context& ctx, GLbitfield mask) {
  State& st = *ctx.compat;
  if (st.attrib_stack.size() >= size_t(kAttribDepth))
    return ctx.Error(GL_STACK_OVERFLOW, "glPushAttrib", "attribute stack is full");
  st.attrib_stack.push_back(SaveAttribGroups(ctx, mask));
}

void PopAttrib(Context& ctx) {
  State& st = *ctx.compat;
  if (st.attrib_stack.empty())
    return ctx.Error(GL_STACK_UNDERFLOW, "glPopAttrib", "attribute stack is empty");
  auto frame = std::move(st.attrib_stack.back());
  st.attrib_stack.pop_back();
  for (auto& restore : frame) restore(ctx);
}

}  // namespace caldera::gl

namespace caldera::compat {

std::vector<AttribRestore> SaveAttribGroups(Context& ctx, GLbitfield mask) {
  State& st = *ctx.compat;
  std::vector<AttribRestore> frame;
  Saver s(ctx, frame);
  SaveCore(ctx, mask, s);
  // The compatibility profile's own state, copied (restored after the core state: GL_ENABLE_BIT's
  // glEnable calls above cannot undo it).
  if (mask & kHintBit) {  // every hint of GLState::hints (frontend/gl_hints.h)
    const auto hints = ctx.state.hints;
    s.Add([hints](Context& c) { c.state.hints = hints; });
  }
  if (mask & kCurrentBit) {
    std::array<float, 4> color, normal{}, secondary{};
    std::array<std::array<float, 4>, kTexUnits> texcoord;
    std::copy_n(st.color, 4, color.begin());
    std::copy_n(st.normal, 3, normal.begin());
    std::copy_n(st.secondary, 3, secondary.begin());
    for (int u = 0; u < kTexUnits; ++u) std::copy_n(st.texcoord[u], 4, texcoord[u].begin());
    const bool edge_flag = st.edge_flag;
    const float fog_coord = st.fog_coord, index = st.index;
    s.Add([color, normal, secondary, texcoord, edge_flag, fog_coord, index](Context& c) {
      State& st = *c.compat;
      st.edge_flag = edge_flag;
      st.fog_coord = fog_coord;
      st.index = index;
      std::copy_n(color.begin(), 4, st.color);
      std::copy_n(normal.begin(), 3, st.normal);
      std::copy_n(secondary.begin(), 3, st.secondary);
      for (int u = 0; u < kTexUnits; ++u) std::copy_n(texcoord[u].begin(), 4, st.texcoord[u]);
    });
  }
  if (mask & (kCurrentBit | kPixelModeBit)) {
    // The raster position is current state; zoom and pixel transfer are the pixel mode group.
    const PixelRectState saved = st.pixel;
    s.Add([saved, mask](Context& c) {
      State& st = *c.compat;
      PixelRectState& p = st.pixel;
      if (mask & kCurrentBit) {
        std::copy_n(saved.position, 4, p.position);
        std::copy_n(saved.color, 4, p.color);
        std::copy_n(saved.secondary, 4, p.secondary);
        for (int u = 0; u < kTexUnits; ++u) std::copy_n(saved.texcoord[u], 4, p.texcoord[u]);
        p.valid = saved.valid, p.distance = saved.distance;
      }
      if (mask & kPixelModeBit) {
        std::copy_n(saved.zoom, 2, p.zoom);
        std::copy_n(saved.scale, 5, p.scale);
        std::copy_n(saved.bias, 5, p.bias);
        p.map_color = saved.map_color, p.map_stencil = saved.map_stencil;
        p.index_shift = saved.index_shift, p.index_offset = saved.index_offset;
      }
    });
  }
  if (mask & kLightingBit) {
    Lighting l{st.lighting,
               st.two_side,
               st.local_viewer,
               st.separate_specular,
               st.color_material,
               st.light_enabled,
               st.lights,
               {st.material[0], st.material[1]},
               {},
               st.color_material_face,
               st.color_material_mode,
               st.shade_model};
    std::copy_n(st.light_model_ambient, 4, l.model_ambient.begin());
    s.Add([l](Context& c) {
      State& st = *c.compat;
      st.lighting = l.lighting, st.two_side = l.two_side, st.local_viewer = l.local_viewer;
      st.separate_specular = l.separate_specular, st.color_material = l.color_material;
      st.light_enabled = l.light_enabled, st.lights = l.lights;
      st.material[0] = l.material[0], st.material[1] = l.material[1];
      std::copy_n(l.model_ambient.begin(), 4, st.light_model_ambient);
      st.color_material_face = l.color_material_face, st.color_material_mode = l.color_material_mode;
      st.shade_model = l.shade_model;
    });
  }
  if (mask & kFogBit) {  // GL 2.1 table 6.12: GL_COLOR_SUM is fog state too
    const bool fog = st.fog, color_sum = st.color_sum;
    const GLenum mode = st.fog_mode, source = st.fog_coord_src;
    const std::array<float, 7> v = {st.fog_density,  st.fog_start,    st.fog_end,     st.fog_color[0],
                                    st.fog_color[1], st.fog_color[2], st.fog_color[3]};
    s.Add([fog, color_sum, mode, source, v](Context& c) {
      State& st = *c.compat;
      st.fog_coord_src = source;
      st.fog = fog, st.color_sum = color_sum, st.fog_mode = mode, st.fog_density = v[0], st.fog_start = v[1],
      st.fog_end = v[2];
      std::copy_n(v.begin() + 3, 4, st.fog_color);
    });
  }
  if (mask & kTransformBit) {
    const GLenum mode = st.matrix_mode;
    const bool normalize = st.normalize, rescale = st.rescale_normal;
    const auto planes = st.clip_planes;
    s.Add([mode, normalize, rescale, planes](Context& c) {
      State& st = *c.compat;
      st.matrix_mode = mode, st.normalize = normalize, st.rescale_normal = rescale;
      st.clip_planes = planes;
    });
    for (int i = 0; i < kClipPlanes; ++i) s.Cap(GLenum(GL_CLIP_PLANE0 + i));
  }
  if (mask & GL_COLOR_BUFFER_BIT) {
    const bool test = st.alpha_test;
    const GLenum func = st.alpha_func;
    const float ref = st.alpha_ref;
    const float clear_index = st.clear_index;
    const GLuint index_mask = st.index_mask;
    s.Add([test, func, ref, clear_index, index_mask](Context& c) {
      State& st = *c.compat;
      st.alpha_test = test, st.alpha_func = func, st.alpha_ref = ref;
      st.clear_index = clear_index, st.index_mask = index_mask;
    });
  }
  if (mask & kAccumBit) {
    std::array<float, 4> clear;
    std::copy_n(st.accum_clear, 4, clear.begin());
    s.Add([clear](Context& c) {
      State& st = *c.compat;
      std::copy_n(clear.begin(), 4, st.accum_clear);
    });
  }
  if (mask & kTextureBit) {
    std::array<TexUnit, kTexUnits> units;
    for (int u = 0; u < kTexUnits; ++u) {
      units[u].enabled_targets = st.units[u].enabled_targets;
      units[u].env_mode = st.units[u].env_mode;
      units[u].combine = st.units[u].combine;
      units[u].coord_replace = st.units[u].coord_replace;  // GL_TEXTURE_BIT holds it too (table 6.20)
      units[u].gen = st.units[u].gen;  // texture-coordinate generation: modes, planes, enables
      std::copy_n(st.units[u].env_color, 4, units[u].env_color);
    }
    s.Add([units](Context& c) {
      State& st = *c.compat;
      for (int u = 0; u < kTexUnits; ++u) {
        st.units[u].enabled_targets = units[u].enabled_targets;
        st.units[u].env_mode = units[u].env_mode;
        st.units[u].combine = units[u].combine;
        st.units[u].coord_replace = units[u].coord_replace;
        st.units[u].gen = units[u].gen;
        std::copy_n(units[u].env_color, 4, st.units[u].env_color);
      }
    });
  }
  if (mask & GL_POLYGON_STIPPLE_BIT) {
    const auto rows = st.polygon_stipple_rows;
    s.Add([rows](Context& c) {
      State& st = *c.compat;
      st.polygon_stipple_rows = rows;
    });
  }
  if (mask & (kPointBit | kEnableBit)) s.Add(SavePointState(ctx, mask & kPointBit, mask & kEnableBit));
  // The map enables and GL_AUTO_NORMAL are in both groups, the grids in the evaluator group only.
  if (mask & (kEvalBit | kEnableBit)) s.Add(SaveEvalState(ctx, mask & kEvalBit));
  if (mask & kListBit) {
    const GLuint base = st.list_base;
    s.Add([base](Context& c) {
      State& st = *c.compat;
      st.list_base = base;
    });
  }
  return frame;
}

void ApplyCopiedAttribs(Context& ctx) {
  if (!ctx.compat || ctx.compat->copied_in.empty()) return;
  auto copied = std::move(ctx.compat->copied_in);
  ctx.compat->copied_in.clear();
  for (auto& restore : copied) restore(ctx);
}

}  // namespace caldera::compat

namespace caldera {

bool CopyContextState(Context& src, Context& dst, uint32_t mask) {
  if (!src.compat || !dst.compat) return false;
  // Read now (src's state at the call, as GLX asks); written into dst on its own thread, since dst is
  // current nowhere now but its pipe may be bound to the thread that made it current last.
  std::vector<compat::AttribRestore> saved = compat::SaveAttribGroups(src, GLbitfield(mask));
  auto& pending = dst.compat->copied_in;
  pending.insert(pending.end(), std::make_move_iterator(saved.begin()), std::make_move_iterator(saved.end()));
  return true;
}

}  // namespace caldera
