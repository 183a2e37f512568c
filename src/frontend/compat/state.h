// The compatibility profile's state, owned by a compatibility context (Context::compat): current vertex
// attributes, the glBegin/glEnd batch, matrix stacks, lighting, texture environments, fog, alpha test,
// display lists and the generated fixed-function programs. Nothing here reaches a backend as such: draws
// become ordinary pipe records of a generated program, a stream buffer and an internal vertex array.
#pragma once

#include <GL/glcorearb.h>

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "frontend/compat/compat_enums.h"
#include "frontend/compat/evaluators.h"
#include "frontend/compat/pixel_rect.h"
#include "frontend/compat/tex_combine.h"
#include "frontend/objects.h"

namespace caldera::compat {

constexpr int kTexUnits = 2;    // fixed-function texture units (GL_MAX_TEXTURE_UNITS)
constexpr int kLights = 8;      // GL_MAX_LIGHTS
constexpr int kClipPlanes = 8;  // GL_MAX_CLIP_PLANES: GL_CLIP_PLANEi is GL_CLIP_DISTANCEi (its enable too)
constexpr int kModelviewDepth = 32, kProjectionDepth = 4, kTextureDepth = 4;
constexpr int kMaxListNesting = 64;  // GL_MAX_LIST_NESTING

// Column-major, as GL stores matrices.
struct Mat4 {
  std::array<float, 16> m{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
};
Mat4 Multiply(const Mat4& a, const Mat4& b);  // a * b
void TransformPoint(const Mat4& a, const float in[4], float out[4]);

// One vertex as the generated programs read it (attribute locations in ff_program.cpp).
struct Vertex {
  float position[4];
  float color[4];
  float normal[3];
  float secondary[3];
  float texcoord[kTexUnits][4];
  float fog_coord;  // glFogCoord: the fog distance under GL_FOG_COORD_SRC GL_FOG_COORD
};
static_assert(sizeof(Vertex) == (4 + 4 + 3 + 3 + 4 * kTexUnits + 1) * sizeof(float));

struct Light {
  float ambient[4] = {0, 0, 0, 1};
  float diffuse[4] = {0, 0, 0, 1};  // light 0: white (set in State())
  float specular[4] = {0, 0, 0, 1};
  float position[4] = {0, 0, 1, 0};      // eye space (transformed by the modelview matrix when set)
  float spot_direction[3] = {0, 0, -1};  // eye space
  float spot_exponent = 0, spot_cutoff = 180;
  float attenuation[3] = {1, 0, 0};  // constant, linear, quadratic
};

struct Material {
  float ambient[4] = {0.2f, 0.2f, 0.2f, 1};
  float diffuse[4] = {0.8f, 0.8f, 0.8f, 1};
  float specular[4] = {0, 0, 0, 1};
  float emission[4] = {0, 0, 0, 1};
  float shininess = 0;
  float color_indexes[3] = {0, 1, 1};  // GL_COLOR_INDEXES: ambient, diffuse, specular (colour-index lighting)
};

// Texture-coordinate generation of one coordinate (GL 2.1 §2.12.4): S and T start with the planes x and y,
// R and Q with zero planes. The eye plane is kept in eye space (transformed when specified).
struct TexGen {
  bool enabled = false;
  GLenum mode = GL_EYE_LINEAR;
  float object_plane[4] = {0, 0, 0, 0};
  float eye_plane[4] = {0, 0, 0, 0};
};
constexpr std::array<TexGen, 4> InitialTexGen() {
  std::array<TexGen, 4> g{};
  g[0].object_plane[0] = g[0].eye_plane[0] = 1;
  g[1].object_plane[1] = g[1].eye_plane[1] = 1;
  return g;
}

// The texture targets a unit may enable (glEnable(GL_TEXTURE_1D/2D/3D/CUBE_MAP/RECTANGLE)), as bits of
// TexUnit::enabled_targets.
enum TexTargetBit : uint8_t {
  kTex1D = 1,
  kTex2D = 2,
  kTex3D = 4,
  kTexCube = 8,
  kTexRect = 16,
};

// The bit of an enable cap, or 0 when `cap` is not a texture target's.
constexpr uint8_t TexTargetBitOf(GLenum cap) {
  switch (cap) {
    case GL_TEXTURE_1D:
      return kTex1D;
    case GL_TEXTURE_2D:
      return kTex2D;
    case GL_TEXTURE_3D:
      return kTex3D;
    case GL_TEXTURE_CUBE_MAP:
      return kTexCube;
    case GL_TEXTURE_RECTANGLE:
      return kTexRect;
    default:
      return 0;
  }
}

// The target a unit textures from: of those enabled, cube map first, then 3D, rectangle, 2D and 1D (GL 2.1
// §3.8.16; ARB_texture_rectangle puts the rectangle between 3D and 2D). 0 when none is enabled.
constexpr GLenum EffectiveTexTarget(uint8_t enabled) {
  return enabled & kTexCube   ? GL_TEXTURE_CUBE_MAP
         : enabled & kTex3D   ? GL_TEXTURE_3D
         : enabled & kTexRect ? GL_TEXTURE_RECTANGLE
         : enabled & kTex2D   ? GL_TEXTURE_2D
         : enabled & kTex1D   ? GL_TEXTURE_1D
                              : 0;
}

struct TexUnit {
  uint8_t enabled_targets = 0;  // TexTargetBit per enabled target
  bool enabled() const { return enabled_targets != 0; }
  std::array<TexGen, 4> gen = InitialTexGen();  // S, T, R, Q
  GLenum env_mode = GL_MODULATE;
  TexCombine combine;  // what GL_COMBINE does (tex_combine.h)
  float env_color[4] = {0, 0, 0, 0};
  bool coord_replace = false;  // glTexEnv(GL_POINT_SPRITE, GL_COORD_REPLACE): sprites read gl_PointCoord
  std::vector<Mat4> matrix{Mat4{}};  // the texture matrix stack
};

constexpr int kClientAttribDepth = 16;  // GL_MAX_CLIENT_ATTRIB_STACK_DEPTH
constexpr int kAttribDepth = 16;        // GL_MAX_ATTRIB_STACK_DEPTH

// One glPushClientAttrib: the groups of `mask` it saved.
struct ClientAttribs {
  GLbitfield mask = 0;
  std::array<GLint, 12> pixel_store{};  // GL_CLIENT_PIXEL_STORE_BIT: pack and unpack parameters
  // GL_CLIENT_VERTEX_ARRAY_BIT: the bound vertex array object and a copy of its arrays, GL_ARRAY_BUFFER,
  // glClientActiveTexture.
  std::shared_ptr<VertexArray> vertex_array;
  std::array<VertexAttribState, pipe::kMaxVertexAttribs> attribs;
  std::array<VertexAttribState, kLegacyArrayCount> legacy;
  uint32_t legacy_enabled = 0;
  std::shared_ptr<Buffer> element_buffer, array_buffer;
  GLuint client_unit = 0;
};

struct DisplayList {
  std::vector<std::function<void()>> calls;
};

// A generated program's packed key (ff_program.cpp): texture-coordinate generation did not fit beside the
// rest in one word, and each unit's GL_COMBINE state takes a word of its own.
using ProgramKeyBits = std::array<uint64_t, 2 + kTexUnits>;
struct ProgramKeyHash {
  size_t operator()(const ProgramKeyBits& k) const {
    uint64_t h = 0;
    for (uint64_t w : k) h = (h ^ w) * 0x9e3779b97f4a7c15ull;
    return std::hash<uint64_t>()(h);
  }
};

struct Stats {
  uint64_t programs_built = 0;        // fixed-function programs generated and linked
  uint64_t draws = 0;                 // draws the batches and legacy arrays became
  uint64_t vertices = 0;              // vertices given between glBegin and glEnd
  uint64_t list_calls = 0;            // glCallList(s) executions
  uint64_t array_draws = 0;           // draw calls that read legacy arrays or drew with no program
  uint64_t uniform_name_lookups = 0;  // uniform names searched in a program (uniform_writer.h)
};

// glRenderMode (select_feedback.cpp): in selection and feedback modes primitives run through the vertex
// transform and clipping on the CPU, as Mesa does, and nothing reaches the framebuffer.
struct SelectFeedbackState {
  static constexpr size_t kMaxNameStackDepth = 64;  // GL_MAX_NAME_STACK_DEPTH
  GLenum mode = GL_RENDER;
  // glSelectBuffer: values are counted past the end (glRenderMode then returns -1).
  bool select_named = false, feedback_named = false;  // glSelectBuffer / glFeedbackBuffer called
  GLuint* select_buffer = nullptr;
  GLsizei select_size = 0;
  uint64_t select_count = 0;
  GLint hits = 0;
  std::vector<GLuint> names;
  bool hit = false;  // a primitive met the clip volume since the last hit record
  float hit_min = 1, hit_max = 0;
  // glFeedbackBuffer.
  GLfloat* feedback_buffer = nullptr;
  GLsizei feedback_size = 0;
  GLenum feedback_type = GL_2D;
  uint64_t feedback_count = 0;
};

// The accumulation buffer of the default framebuffer (accum.cpp): RGBA floats, rows bottom-up, allocated at
// first use.
struct AccumBuffer {
  int32_t width = 0, height = 0;
  std::vector<float> rgba;
};

// What glPopAttrib runs to put one saved piece of state back, into the context it is given (the pusher's,
// or another: glXCopyContext applies a context's saved groups to another one).
using AttribRestore = std::function<void(Context&)>;
// The attribute groups `mask` names (glPushAttrib's bits) as they are in ctx now; running each restore on a
// context puts them there.
std::vector<AttribRestore> SaveAttribGroups(Context& ctx, GLbitfield mask);

struct State {
  State();
  static constexpr std::array<uint32_t, 32> FullStipple() {
    std::array<uint32_t, 32> rows{};
    rows.fill(~0u);
    return rows;
  }

  // Current attributes.
  float color[4] = {1, 1, 1, 1};
  float secondary[3] = {0, 0, 0};
  float normal[3] = {0, 0, 1};
  float texcoord[kTexUnits][4] = {{0, 0, 0, 1}, {0, 0, 0, 1}};
  bool edge_flag = true;  // glEdgeFlag (edge_flags.cpp)
  float fog_coord = 0;    // glFogCoord (GL_CURRENT_FOG_COORD)
  // Colour-index state (color_index.cpp): kept and queried, never drawn with, as every Caldera visual is
  // RGBA; the accumulation buffer's clear value and contents (accum.cpp).
  float index = 1;            // glIndex (GL_CURRENT_INDEX)
  float clear_index = 0;      // glClearIndex
  GLuint index_mask = ~0u;    // glIndexMask
  float accum_clear[4] = {};  // glClearAccum
  AccumBuffer accum;
  EvalState eval;  // glMap1/glMap2, glMapGrid, GL_AUTO_NORMAL (evaluators.cpp)

  // glBegin/glEnd: `primitive` holds the vertices of the open primitive; glEnd decomposes it into `batch`,
  // a list of points, lines or triangles that later primitives of the same class join until a command that
  // may change state draws it (hooks.h).
  GLenum begin_mode = 0;
  std::vector<Vertex> primitive;
  std::vector<uint8_t> primitive_edges;  // the edge flag each vertex of `primitive` was given
  // Once glMaterial is called between glBegin and glEnd, each vertex of `primitive` keeps the materials
  // (front, back) current when it was specified (vertex_materials.cpp).
  bool materials_per_vertex = false;
  std::vector<std::array<Material, 2>> primitive_materials;
  std::vector<Vertex> batch;
  int batch_class = 0;  // 0 empty, 1 points, 2 lines, 3 triangles

  // Matrices.
  GLenum matrix_mode = GL_MODELVIEW;
  std::vector<Mat4> modelview{Mat4{}};
  std::vector<Mat4> projection{Mat4{}};
  GLuint active_unit = 0;  // follows glActiveTexture for GL_TEXTURE matrix mode and texenv
  GLuint client_unit = 0;  // glClientActiveTexture

  // Vertex processing.
  bool lighting = false, normalize = false, rescale_normal = false;
  std::array<bool, kLights> light_enabled{};
  std::array<Light, kLights> lights;
  Material material[2];  // front, back
  float light_model_ambient[4] = {0.2f, 0.2f, 0.2f, 1};
  bool two_side = false, local_viewer = false, separate_specular = false;
  bool vertex_program_two_side = false;  // GL_VERTEX_PROGRAM_TWO_SIDE: GLSL 1.x programs' back colours
  bool color_material = false;
  GLenum color_material_face = GL_FRONT_AND_BACK, color_material_mode = GL_AMBIENT_AND_DIFFUSE;
  GLenum shade_model = GL_SMOOTH;
  // glClipPlane, in eye space (transformed by the inverse modelview when set); enabled through the core
  // GL_CLIP_DISTANCEi flags, which GL_CLIP_PLANEi names.
  std::array<std::array<float, 4>, kClipPlanes> clip_planes{};

  // Fragment processing.
  std::array<TexUnit, kTexUnits> units;
  bool fog = false;
  bool color_sum = false;  // GL_COLOR_SUM: adds the secondary colour when lighting is off (GL 2.1 §3.10)
  GLenum fog_mode = GL_EXP;
  float fog_density = 1, fog_start = 0, fog_end = 1;
  float fog_color[4] = {0, 0, 0, 0};
  GLenum fog_coord_src = GL_FRAGMENT_DEPTH;  // GL_FOG_COORD: fog distances from the fog coordinates
  bool alpha_test = false;
  GLenum alpha_func = GL_ALWAYS;
  float alpha_ref = 0;
  // GL_POLYGON_STIPPLE (stipple.cpp): row y of the 32x32 pattern, bit x set where fragments are kept.
  bool polygon_stipple = false;
  std::array<uint32_t, 32> polygon_stipple_rows = FullStipple();

  PixelRectState pixel;  // raster position, zoom, pixel transfer (pixel_rect.h)
  SelectFeedbackState select;

  // Points (GL 2.1 §3.4; the size, its clamps, fade threshold and origin are core state): distance
  // attenuation (constant, linear, quadratic) and GL_POINT_SPRITE.
  float point_attenuation[3] = {1, 0, 0};
  bool point_sprite = false;

  // Legacy arrays: their state lives in the vertex array objects (VertexArray::legacy); a draw reading them
  // runs through compat/arrays.cpp, which sets `in_array_draw` while it draws through the ordinary path.
  bool in_array_draw = false;
  GLint locked_first = 0;  // glLockArraysEXT's range (a hint: nothing reads it but its queries)
  GLsizei locked_count = 0;
  std::vector<ClientAttribs> client_attrib_stack;
  // glPushAttrib: per push, what puts the saved groups back (attrib.cpp).
  std::vector<std::vector<AttribRestore>> attrib_stack;
  // glXCopyContext into this context: applied when it is next made current (ApplyCopiedAttribs).
  std::vector<AttribRestore> copied_in;

  // Display lists.
  std::map<GLuint, std::shared_ptr<DisplayList>> lists;  // every name glGenLists reserved
  std::map<GLuint, std::string> list_labels;  // glObjectLabel(GL_DISPLAY_LIST); kept across redefinition
  GLuint list_base = 0;
  GLuint compiling_name = 0;  // 0: not compiling
  GLenum compiling_mode = 0;
  std::shared_ptr<DisplayList> compiling;
  int list_depth = 0;  // glCallList nesting being executed

  // Generated programs and the objects their draws use.
  bool cache_programs = true;       // CALDERA_COMPAT_PROGRAM_CACHE=0 rebuilds the program at every draw
  bool cache_uniform_names = true;  // CALDERA_COMPAT_UNIFORM_CACHE=0 searches every uniform name per draw
  bool batch_bitmaps = true;        // CALDERA_COMPAT_BITMAP_BATCH=0 draws every glBitmap on its own
  std::unordered_map<ProgramKeyBits, std::shared_ptr<Program>, ProgramKeyHash> programs;
  std::shared_ptr<Buffer> stream;                        // the batch's vertices, orphaned at every draw
  std::shared_ptr<VertexArray> vertex_input;             // attributes reading `stream`
  std::shared_ptr<VertexArray> vertex_input_fog;         // the same and the fog coordinate (location 6)
  std::array<std::shared_ptr<Buffer>, 7> array_streams;  // legacy client arrays copied for a draw
  std::shared_ptr<VertexArray> array_input;              // the draw's attributes (fixed-function locations)
  std::vector<uint32_t> array_indices;                   // GL_QUADS... of an array draw as triangles

  Stats stats;
};

}  // namespace caldera::compat
