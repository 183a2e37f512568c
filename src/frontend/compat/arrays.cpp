// Legacy vertex arrays of the compatibility profile: glVertexPointer and the other conventional arrays,
// glEnableClientState, glClientActiveTexture, glInterleavedArrays, glArrayElement, their queries, and the
// draws that read them. The arrays are vertex array object state (VertexArray::legacy). A draw call that
// reads them, draws with no program in use, or draws GL_QUADS/GL_QUAD_STRIP/GL_POLYGON comes here from
// gl_draw.cpp: an internal vertex array puts each legacy array at the attribute location the fixed-function
// programs (and glBegin/glEnd) use, current values stand in for disabled ones, client memory is copied into
// stream buffers at the call as for ES client arrays, and the ordinary draw path runs with it. Legacy
// polygon modes become triangle indices, split as glBegin/glEnd splits them.
#include <algorithm>
#include <cstring>

#include "frontend/buffer_util.h"
#include "frontend/client_arrays.h"
#include "frontend/compat/compat_impl.h"
#include "frontend/compat/hooks.h"
#include "frontend/compat/immediate.h"
#include "frontend/device.h"
#include "frontend/draw_common.h"
#include "frontend/gl_enums.h"
#include "frontend/index_rewrite.h"
#include "util/log.h"

namespace caldera::compat {
namespace {

// Attribute locations of the fixed-function programs (ff_program.cpp) and the legacy array each reads.
constexpr int kFixedLocations = 6;
constexpr int kLocationArray[kFixedLocations] = {kLegacyVertex,    kLegacyColor,
                                                 kLegacyNormal,    kLegacySecondaryColor,
                                                 kLegacyTexCoord0, kLegacyTexCoord0 + 1};
constexpr uint32_t kDrawnArrays = (1u << kLegacyVertex) | (1u << kLegacyColor) | (1u << kLegacyNormal) |
                                  (1u << kLegacySecondaryColor) | (1u << kLegacyTexCoord0) |
                                  (1u << (kLegacyTexCoord0 + 1));
// A legacy-mode draw of more vertices than this is GL_OUT_OF_MEMORY (its index list would pass 256 MiB).
constexpr uint64_t kMaxPolygonVertices = 1ull << 25;

bool IsPolygonMode(GLenum mode) {
  return mode == GL_QUADS || mode == GL_QUAD_STRIP || mode == GL_POLYGON;
}

// Which arrays GL normalizes integer data of (GL 2.1 §2.8): colours and normals.
bool Normalized(int array) {
  return array == kLegacyColor || array == kLegacySecondaryColor || array == kLegacyNormal;
}

int ArrayOfCap(const State& st, GLenum cap) {
  switch (cap) {
    case GL_VERTEX_ARRAY:
      return kLegacyVertex;
    case GL_NORMAL_ARRAY:
      return kLegacyNormal;
    case GL_COLOR_ARRAY:
      return kLegacyColor;
    case GL_SECONDARY_COLOR_ARRAY:
      return kLegacySecondaryColor;
    case GL_FOG_COORD_ARRAY:
      return kLegacyFogCoord;
    case GL_EDGE_FLAG_ARRAY:
      return kLegacyEdgeFlag;
    case GL_INDEX_ARRAY:
      return kLegacyIndex;
    case GL_TEXTURE_COORD_ARRAY:
      return kLegacyTexCoord0 + int(st.client_unit);
    default:
      return -1;
  }
}

uint64_t ElementBytes(const VertexAttribState& a) {
  auto type = *glenum::VertexType(a.type, false);
  if (type == pipe::VertexFormat::kInt2101010 || type == pipe::VertexFormat::kUInt2101010) return 4;
  return uint64_t(a.size) * glenum::VertexTypeSize(type);
}

uint64_t Stride(const VertexAttribState& a) {
  return a.stride ? uint64_t(a.stride) : ElementBytes(a);
}

// --- pointers ------------------------------------------------------------------------------------------

// The types each pointer command takes (GL 3.3 compatibility, table 2.5 with GL_HALF_FLOAT).
enum TypeSet : unsigned {
  kSignedShort = 1,   // GL_SHORT, GL_INT, GL_FLOAT, GL_DOUBLE, GL_HALF_FLOAT
  kByte = 2,          // GL_BYTE
  kUnsignedByte = 4,  // GL_UNSIGNED_BYTE
  kUnsigned = 8,      // GL_UNSIGNED_SHORT, GL_UNSIGNED_INT
  kPacked = 16,       // the 2_10_10_10_REV types, size 4
  kFloatOnly = 32,    // GL_FLOAT, GL_DOUBLE, GL_HALF_FLOAT and nothing else
};

bool TypeAllowed(GLenum type, unsigned set) {
  switch (type) {
    case GL_FLOAT:
    case GL_DOUBLE:
    case GL_HALF_FLOAT:
      return true;
    case GL_SHORT:
    case GL_INT:
      return set & kSignedShort;
    case GL_BYTE:
      return set & kByte;
    case GL_UNSIGNED_BYTE:
      return set & kUnsignedByte;
    case GL_UNSIGNED_SHORT:
    case GL_UNSIGNED_INT:
      return set & kUnsigned;
    case GL_INT_2_10_10_10_REV:
    case GL_UNSIGNED_INT_2_10_10_10_REV:
      return set & kPacked;
    default:
      return false;
  }
}

void SetArray(Context& ctx, const char* fn, int array, GLint size, GLint min_size, GLint max_size,
              GLenum type, unsigned types, GLsizei stride, const void* pointer) {
  if (size < min_size || size > max_size) return ctx.Error(GL_INVALID_VALUE, fn, "invalid size");
  if (stride < 0) return ctx.Error(GL_INVALID_VALUE, fn, "stride is negative");
  if (!TypeAllowed(type, types)) return ctx.Error(GL_INVALID_ENUM, fn, "invalid type");
  if ((type == GL_INT_2_10_10_10_REV || type == GL_UNSIGNED_INT_2_10_10_10_REV) && size != 4)
    return ctx.Error(GL_INVALID_OPERATION, fn, "packed type needs size 4");
  VertexArray& vao = *ctx.vertex_array;
  // The rule glVertexAttribPointer follows here (validate.cpp): client memory on vertex array object 0 only.
  if (!ctx.array_buffer && pointer && !vao.is_default)
    return ctx.Error(GL_INVALID_OPERATION, fn, "client-side arrays need vertex array object 0");
  VertexAttribState& a = vao.legacy[array];
  a.size = size;
  a.type = type;
  a.normalized = Normalized(array) && type != GL_FLOAT && type != GL_DOUBLE && type != GL_HALF_FLOAT;
  a.stride = stride;
  a.offset = reinterpret_cast<uintptr_t>(pointer);
  a.buffer = ctx.array_buffer;
  a.client_pointer = a.buffer ? nullptr : pointer;
}

void SetEnabled(Context& ctx, const char* fn, GLenum cap, bool enabled) {
  State& st = *ctx.compat;
  int array = ArrayOfCap(st, cap);
  if (array < 0) return ctx.Error(GL_INVALID_ENUM, fn, "invalid array");
  VertexArray& vao = *ctx.vertex_array;
  vao.legacy[array].enabled = enabled;
  if (enabled)
    vao.legacy_enabled |= 1u << array;
  else
    vao.legacy_enabled &= ~(1u << array);
}

// --- glArrayElement ------------------------------------------------------------------------------------

float Half(uint16_t h) {
  uint32_t sign = uint32_t(h >> 15) << 31, exp = (h >> 10) & 31, mant = h & 1023;
  uint32_t bits;
  if (exp == 0) {
    float f = float(mant) / 16777216.0f;  // subnormal: mant * 2^-24
    std::memcpy(&bits, &f, 4);
    bits |= sign;
  } else if (exp == 31) {
    bits = sign | 0x7F800000u | (mant << 13);
  } else {
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  }
  float out;
  std::memcpy(&out, &bits, 4);
  return out;
}

template <typename T>
T Load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// One component of type `type` at p as a float, normalized as glColor/glNormal are when `normalize`.
float Component(const uint8_t* p, GLenum type, bool normalize) {
  switch (type) {
    case GL_BYTE:
      return normalize ? (2.0f * float(Load<int8_t>(p)) + 1.0f) / 255.0f : float(Load<int8_t>(p));
    case GL_UNSIGNED_BYTE:
      return normalize ? float(*p) / 255.0f : float(*p);
    case GL_SHORT:
      return normalize ? (2.0f * float(Load<int16_t>(p)) + 1.0f) / 65535.0f : float(Load<int16_t>(p));
    case GL_UNSIGNED_SHORT:
      return normalize ? float(Load<uint16_t>(p)) / 65535.0f : float(Load<uint16_t>(p));
    case GL_INT:
      return normalize ? float((2.0 * double(Load<int32_t>(p)) + 1.0) / 4294967295.0)
                       : float(Load<int32_t>(p));
    case GL_UNSIGNED_INT:
      return normalize ? float(double(Load<uint32_t>(p)) / 4294967295.0) : float(Load<uint32_t>(p));
    case GL_DOUBLE:
      return float(Load<double>(p));
    case GL_HALF_FLOAT:
      return Half(Load<uint16_t>(p));
    default:
      return Load<float>(p);
  }
}

// Element `index` of array `a` into out (missing components 0, 0, 0, 1); false when it lies outside the
// buffer backing the array (GL leaves that undefined: the element is skipped).
bool ReadElement(Context& ctx, const VertexAttribState& a, GLint index, float out[4]) {
  const uint8_t* base;
  uint64_t at = uint64_t(index) * Stride(a);
  if (a.buffer) {
    if (!SyncShadow(ctx, *a.buffer)) return false;
    at += a.offset;
    if (at + ElementBytes(a) > a.buffer->shadow.size()) return false;
    base = a.buffer->shadow.data() + at;
  } else {
    if (!a.client_pointer) return false;
    base = static_cast<const uint8_t*>(a.client_pointer) + at;
  }
  out[0] = out[1] = out[2] = 0;
  out[3] = 1;
  if (a.type == GL_INT_2_10_10_10_REV || a.type == GL_UNSIGNED_INT_2_10_10_10_REV) {
    uint32_t v = Load<uint32_t>(base);
    for (int i = 0; i < 4; ++i) {
      int bits = i == 3 ? 2 : 10;
      uint32_t raw = (v >> (10 * i)) & ((1u << bits) - 1);
      double c = raw, max = double((1u << bits) - 1);
      if (a.type == GL_INT_2_10_10_10_REV) {
        c = (raw & (1u << (bits - 1))) ? double(int32_t(raw) - (1 << bits)) : double(raw);
        max = double((1u << (bits - 1)) - 1);
      }
      out[i] = float(a.normalized ? std::max(c / max, -1.0) : c);
    }
    return true;
  }
  const uint32_t size = glenum::VertexTypeSize(*glenum::VertexType(a.type, false));
  for (int i = 0; i < a.size; ++i) out[i] = Component(base + i * size, a.type, a.normalized);
  return true;
}

// --- draws ---------------------------------------------------------------------------------------------

// For the duration of one draw: the program (the application's, or the fixed-function one), an internal
// vertex array with the legacy arrays at their locations, and current values for the fixed-function
// attributes no array feeds. The destructor puts the application's state back.
class ArrayDraw {
 public:
  ArrayDraw(Context& ctx, GLenum mode) : ctx_(ctx), st_(*ctx.compat), mode_(mode) {}
  ArrayDraw(const ArrayDraw&) = delete;
  ArrayDraw& operator=(const ArrayDraw&) = delete;
  ~ArrayDraw() {
    if (!active_) return;
    std::memcpy(ctx_.state.generic_attrib, saved_values_, sizeof saved_values_);
    std::memcpy(ctx_.state.generic_kind, saved_kinds_, sizeof saved_kinds_);
    ctx_.program = std::move(saved_program_);
    ctx_.vertex_array = std::move(saved_vertex_array_);
    ctx_.MarkDirty(kDirtyVertexInput);
    ctx_.BumpDrawEpoch();
    st_.in_array_draw = false;
    SetGeneratedPointSize(ctx_, false);
    ++st_.stats.draws;
    ++st_.stats.array_draws;
  }

  // False: nothing to draw (no positions, the generated program failed, or GL_OUT_OF_MEMORY recorded).
  // `vertex_end` bounds the vertices the draw reads from client memory; `mode` is the primitive drawn.
  bool Setup(uint64_t vertex_end) {
    VertexArray& app = *ctx_.vertex_array;
    std::shared_ptr<Program> program = ctx_.program;
    const bool fixed = !program;
    if (fixed && !(app.legacy[kLegacyVertex].enabled || app.attribs[0].enabled)) return false;
    if (fixed && !(program = FixedFunctionProgram(ctx_, mode_))) return false;
    if (!st_.array_input) st_.array_input = std::make_shared<VertexArray>();
    VertexArray& in = *st_.array_input;
    in.attribs = app.attribs;
    in.element_buffer = app.element_buffer;
    in.is_default = app.is_default;
    if (fixed)
      for (int i = kFixedLocations; i < pipe::kMaxVertexAttribs; ++i) in.attribs[i] = VertexAttribState{};
    for (int loc = 0; loc < kFixedLocations; ++loc) {
      // An application program reads its own generic arrays where it has them; the fixed-function program
      // reads generic array 0 in place of the vertex array (GL 2.1 §2.7) and no other.
      const bool generic = app.attribs[loc].enabled && (!fixed || loc == 0);
      if (generic) continue;
      if (fixed) in.attribs[loc] = VertexAttribState{};
      const VertexAttribState& legacy = app.legacy[kLocationArray[loc]];
      if (legacy.enabled && !Source(legacy, loc, vertex_end, in.attribs[loc])) return false;
    }
    // The generated program's fog coordinate: the fog coordinate array, or the current value (below).
    const VertexAttribState& fog = app.legacy[kLegacyFogCoord];
    const bool fog_coord = fixed && ReadsFogCoord(st_);
    if (fog_coord && fog.enabled &&
        !Source(fog, kFogCoordLocation, vertex_end, in.attribs[kFogCoordLocation]))
      return false;
    in.streamed_mask = StreamedMask(ctx_, in);  // the application's client arrays, and converted types
    std::memcpy(saved_values_, ctx_.state.generic_attrib, sizeof saved_values_);
    std::memcpy(saved_kinds_, ctx_.state.generic_kind, sizeof saved_kinds_);
    const bool builtins = !program->linked->compat_builtins.empty();
    if (fixed || builtins) {
      // Attributes no array feeds read the current values, as glBegin/glEnd's vertices carry them (a
      // program's gl_Color, gl_Normal... sit at the same locations).
      Constant(1, st_.color, 4);
      Constant(2, st_.normal, 3);
      Constant(3, st_.secondary, 3);
      for (int u = 0; u < kTexUnits; ++u) Constant(4 + u, st_.texcoord[u], 4);
      if (fog_coord && !fog.enabled) Constant(kFogCoordLocation, &st_.fog_coord, 1);
    }
    if (builtins) LoadBuiltinUniforms(ctx_, *program);
    saved_program_ = std::move(ctx_.program);
    saved_vertex_array_ = std::move(ctx_.vertex_array);
    ctx_.program = std::move(program);
    ctx_.vertex_array = st_.array_input;
    ctx_.MarkDirty(kDirtyVertexInput);
    // The swap bypasses the entry points that move the draw epoch (draw_delta.h), as DrawVertices' does.
    ctx_.BumpDrawEpoch();
    st_.in_array_draw = true;
    SetGeneratedPointSize(ctx_, fixed && FixedFunctionPoints(mode_));
    active_ = true;
    return true;
  }

 private:
  bool Source(const VertexAttribState& legacy, int loc, uint64_t vertex_end, VertexAttribState& out) {
    out = legacy;
    out.enabled = true;
    out.integer = false;
    out.divisor = 0;
    if (legacy.buffer) return true;
    // Client memory of a type the backend cannot read (GL_DOUBLE, GL_INT... on Vulkan): left a client
    // pointer, which the draw's streamed arrays convert (client_arrays.h).
    if (ArrayIsConverted(ctx_, out)) return true;
    // Client memory: the bytes of vertices [0, vertex_end), copied now.
    const uint64_t stride = std::max<uint64_t>(Stride(legacy), 1),
                   last = std::max<uint64_t>(vertex_end, 1) - 1;
    if (last > kMaxClientArrayBytes / stride || last * stride + ElementBytes(legacy) > kMaxClientArrayBytes) {
      ctx_.Error(GL_OUT_OF_MEMORY, "glDraw*", "legacy client arrays larger than 256 MiB for one draw");
      return false;
    }
    RespecifyStreamBuffer(ctx_, st_.array_streams[loc], legacy.client_pointer,
                          last * stride + ElementBytes(legacy));
    out.buffer = st_.array_streams[loc];
    out.offset = 0;
    out.client_pointer = nullptr;
    return true;
  }

  void Constant(int loc, const float* v, int n) {
    float f[4] = {0, 0, 0, 1};
    std::memcpy(f, v, size_t(n) * sizeof(float));
    std::memcpy(ctx_.state.generic_attrib[loc], f, sizeof f);
    ctx_.state.generic_kind[loc] = pipe::GenericKind::kFloat;
  }

  Context& ctx_;
  State& st_;
  GLenum mode_;
  bool active_ = false;
  std::shared_ptr<Program> saved_program_;
  std::shared_ptr<VertexArray> saved_vertex_array_;
  uint32_t saved_values_[pipe::kMaxVertexAttribs][4];
  pipe::GenericKind saved_kinds_[pipe::kMaxVertexAttribs];
};

bool ReadsClientMemory(const VertexArray& vao) {
  for (int loc = 0; loc < kFixedLocations; ++loc) {
    const VertexAttribState& a = vao.legacy[kLocationArray[loc]];
    if (a.enabled && !a.buffer) return true;
  }
  return false;
}

uint32_t IndexAt(const uint8_t* data, pipe::IndexType type, uint64_t i) {
  switch (type) {
    case pipe::IndexType::kU8:
      return data[i];
    case pipe::IndexType::kU16:
      return Load<uint16_t>(data + 2 * i);
    default:
      return Load<uint32_t>(data + 4 * i);
  }
}

// --- display lists --------------------------------------------------------------------------------------

// One element of the enabled arrays as glArrayElement reads it: values for the fixed-function locations
// whose array is enabled (bit per location), the others left to the current values when it is replayed.
struct Element {
  uint8_t mask = 0;
  int8_t edge_flag = -1;  // from the edge flag array, -1 where it is disabled
  bool has_fog_coord = false;
  float fog_coord = 0;  // from the fog coordinate array
  std::array<std::array<float, 4>, kFixedLocations> v{};
};

Element Capture(Context& ctx, GLint i) {
  Element e;
  const VertexArray& vao = *ctx.vertex_array;
  for (int loc = 0; loc < kFixedLocations; ++loc) {
    const VertexAttribState& a = vao.legacy[kLocationArray[loc]];
    if (a.enabled && ReadElement(ctx, a, i, e.v[loc].data())) e.mask |= uint8_t(1u << loc);
  }
  float flag[4];
  const VertexAttribState& edges = vao.legacy[kLegacyEdgeFlag];
  if (edges.enabled && ReadElement(ctx, edges, i, flag)) e.edge_flag = flag[0] != 0 ? 1 : 0;
  const VertexAttribState& fog = vao.legacy[kLegacyFogCoord];
  if (fog.enabled && ReadElement(ctx, fog, i, flag)) e.has_fog_coord = true, e.fog_coord = flag[0];
  return e;
}

// The element's attributes become current, its position (last) a vertex of the open glBegin.
void Apply(Context& ctx, const Element& e) {
  auto has = [&](int loc) { return (e.mask >> loc) & 1; };
  for (int u = 0; u < kTexUnits; ++u)
    if (has(4 + u))
      SetTexCoord(ctx, GL_TEXTURE0 + GLenum(u), e.v[4 + u][0], e.v[4 + u][1], e.v[4 + u][2], e.v[4 + u][3]);
  if (has(3)) SetSecondaryColor(ctx, e.v[3][0], e.v[3][1], e.v[3][2]);
  if (has(2)) SetNormal(ctx, e.v[2][0], e.v[2][1], e.v[2][2]);
  if (has(1)) SetColor(ctx, e.v[1][0], e.v[1][1], e.v[1][2], e.v[1][3]);
  if (e.edge_flag >= 0) ctx.compat->edge_flag = e.edge_flag != 0;
  if (e.has_fog_coord) SetFogCoord(ctx, e.fog_coord);
  if (has(0)) VertexCommon(ctx, e.v[0][0], e.v[0][1], e.v[0][2], e.v[0][3]);
}

// A draw call being compiled into a display list reads the arrays now (GL 2.1 §5.4): it is recorded as the
// glBegin/glArrayElement.../glEnd sequence it stands for, one glBegin per restart-delimited run. False when
// it cannot be (positions from a generic attribute array, or a mode glBegin does not take): it then runs at
// once, logged.
bool CompileDraw(Context& ctx, const char* fn, GLenum mode, const std::vector<std::vector<GLint>>& runs) {
  Context* c = &ctx;  // lists belong to their context
  const bool positions = ctx.vertex_array->legacy_enabled & (1u << kLegacyVertex);
  if (!positions && !ctx.vertex_array->attribs[0].enabled && mode <= GL_POLYGON) {
    // No array gives positions: the draw specifies no vertex. The list keeps it for its errors.
    Record(ctx, [c, fn] { BeforeCommand(*c, fn, kOther, true); });
    return true;
  }
  if (!positions || mode > GL_POLYGON) {
    util::LogOnce(util::LogLevel::kWarning, "display-list draws",
                  "a draw call without the vertex array (or with an adjacency mode) inside glNewList runs at "
                  "once instead of being compiled");
    return false;
  }
  std::vector<std::vector<Element>> captured;
  for (const auto& run : runs) {
    auto& out = captured.emplace_back();
    out.reserve(run.size());
    for (GLint i : run) out.push_back(Capture(ctx, i));
  }
  Record(ctx, [c, fn, mode, captured = std::move(captured)] {
    if (!BeforeCommand(*c, fn, kOther, true)) return;  // a draw is not allowed between glBegin and glEnd
    for (const auto& run : captured) {
      gl::Begin(*c, mode);
      for (const Element& e : run) Apply(*c, e);
      gl::End(*c);
    }
  });
  return true;
}

// Whether edge flags can hide an edge of this draw's polygons: the edge flag array, or a current flag off.
bool EdgeFlagsInPlay(const Context& ctx) {
  return (ctx.vertex_array->legacy_enabled & (1u << kLegacyEdgeFlag)) || !ctx.compat->edge_flag;
}

// Triangles have no diagonals: in GL_LINE mode the device outlines them as well as the frontend would, and
// without an index list built per draw (a wireframe program's meshes), unless edge flags hide some edges.
bool DeviceOutlines(const Context& ctx, GLenum mode) {
  return mode == GL_TRIANGLES && ctx.state.polygon_mode == GL_LINE && !EdgeFlagsInPlay(ctx);
}

// Draws whose polygons need their facing, which only the fixed-function transform of positions read on the
// CPU gives: front and back polygon modes that differ (SplitsFaces), and outlines with GL_CULL_FACE
// (triangles only where edge flags are in play: the device outlines and culls them itself otherwise). Such a
// draw from the vertex array runs as glBegin/glEnd's polygons do (ReplayDraw).
bool ReadsFacesOnCpu(const Context& ctx, GLenum mode) {
  if (!(ctx.vertex_array->legacy_enabled & (1u << kLegacyVertex)) || ctx.program) return false;
  if (SplitsFaces(ctx, mode)) return true;
  if (!ctx.state.cull_face || DeviceOutlines(ctx, mode)) return false;
  return OutlinesPolygons(ctx, mode, true);
}

// Selection, feedback and separate polygon modes: the draw runs now as the glBegin/glArrayElement.../glEnd
// sequence it stands for, once per instance, and glEnd hands each primitive to select_feedback.cpp (or sorts
// its polygons by facing).
void ReplayDraw(Context& ctx, GLenum mode, const std::vector<std::vector<GLint>>& runs, GLsizei instances) {
  if (!(ctx.vertex_array->legacy_enabled & (1u << kLegacyVertex)) || mode > GL_POLYGON) {
    util::LogOnce(
        util::LogLevel::kWarning, "select/feedback draws",
        "a draw call without the vertex array (or with an adjacency mode) gives no selection hits or "
        "feedback");
    return;
  }
  for (GLsizei instance = 0; instance < instances; ++instance) {
    for (const auto& run : runs) {
      gl::Begin(ctx, mode);
      for (GLint i : run) Apply(ctx, Capture(ctx, i));
      gl::End(ctx);
    }
  }
}

// A draw of polygons the device cannot draw as given: GL_QUADS, GL_QUAD_STRIP, GL_POLYGON, or polygons
// outlined by the frontend (OutlinesPolygons: GL_LINE and GL_POINT polygon modes).
bool RewritesPolygons(const Context& ctx, GLenum mode) {
  if (IsPolygonMode(mode)) return true;
  if (DeviceOutlines(ctx, mode)) return false;
  return OutlinesPolygons(ctx, mode, false);
}

// The primitive a draw of `mode` reaches the device as (its generated program is made for it: points write
// their size): the lines or points of outlined polygons, triangles of rewritten ones, else `mode` itself.
GLenum DrawnMode(const Context& ctx, GLenum mode, bool rewritten) {
  if (!rewritten) return mode;
  if (!OutlinesPolygons(ctx, mode, false)) return GL_TRIANGLES;
  return ctx.state.polygon_mode == GL_POINT ? GL_POINTS : GL_LINES;
}

// Appends the index list of one restart-delimited run of a RewritesPolygons draw to `out`: triangles as glEnd
// splits them, or the flagged edges (points) of each polygon, edge flags from the edge flag array (at the
// index plus `base_vertex`; the application's, taken before ArrayDraw swaps its vertex array out) or the
// current flag. The mode to draw the list with.
GLenum AppendPolygonIndices(Context& ctx, GLenum mode, const VertexAttribState& edges,
                            const std::vector<uint32_t>& run, GLint base_vertex, std::vector<uint32_t>& out) {
  State& st = *ctx.compat;
  if (!OutlinesPolygons(ctx, mode, false)) {
    const bool first_vertex = ctx.state.provoking_vertex == GL_FIRST_VERTEX_CONVENTION;
    PolygonTriangles(mode, st.shade_model == GL_FLAT, first_vertex, run.size(),
                     [&](size_t a, size_t b, size_t c) {
                       out.push_back(run[a]);
                       out.push_back(run[b]);
                       out.push_back(run[c]);
                     });
    return GL_TRIANGLES;
  }
  auto flag = [&](size_t i) {
    float v[4];
    if (!edges.enabled) return st.edge_flag;
    return ReadElement(ctx, edges, GLint(int64_t(run[i]) + base_vertex), v) && v[0] != 0;
  };
  ForEachPolygon(mode, run.size(), [&](const size_t* corners, size_t count) {
    OutlinePolygon(
        mode, ctx.state.polygon_mode, corners, count, flag, [&](size_t a) { out.push_back(run[a]); },
        [&](size_t a, size_t b) {
          out.push_back(run[a]);
          out.push_back(run[b]);
        });
  });
  return ctx.state.polygon_mode == GL_POINT ? GL_POINTS : GL_LINES;
}

}  // namespace

bool TakesArrayDraw(const Context& ctx, GLenum mode) {
  if (ctx.compat->in_array_draw) return false;
  if (OutsideRender(*ctx.compat)) return true;  // selection and feedback read the arrays on the CPU
  // A GLSL 1.x program using compatibility built-ins reads current values and fixed-function state.
  return !ctx.program || (ctx.vertex_array->legacy_enabled & kDrawnArrays) || RewritesPolygons(ctx, mode) ||
         Compiling(ctx) || (ctx.program->linked && !ctx.program->linked->compat_builtins.empty());
}

void DrawArrays(Context& ctx, GLenum mode, GLint first, GLsizei count, GLsizei instances) {
  State& st = *ctx.compat;
  const bool on_cpu = OutsideRender(st) || ReadsFacesOnCpu(ctx, mode);
  if (Compiling(ctx) || on_cpu) {
    std::vector<std::vector<GLint>> runs(1);
    for (GLsizei i = 0; i < count; ++i) runs[0].push_back(first + i);
    if (on_cpu && !Compiling(ctx)) return ReplayDraw(ctx, mode, runs, instances);
    if (CompileDraw(ctx, "glDrawArrays", mode, runs) && !ExecutingWhileCompiling(ctx)) return;
    if (on_cpu) return ReplayDraw(ctx, mode, runs, instances);
  }
  const uint64_t end = uint64_t(first) + uint64_t(count);
  const bool polygons = RewritesPolygons(ctx, mode);
  if (polygons && uint64_t(count) > kMaxPolygonVertices)
    return ctx.Error(GL_OUT_OF_MEMORY, "glDrawArrays", "too many vertices for GL_QUADS-style modes");
  const VertexAttribState edges = ctx.vertex_array->legacy[kLegacyEdgeFlag];
  ArrayDraw draw(ctx, DrawnMode(ctx, mode, polygons));
  if (!draw.Setup(end)) return;
  if (!polygons) return gl::DrawArraysCommon(ctx, mode, first, count, instances);
  std::vector<uint32_t> run(size_t(std::max(count, 0)));
  for (size_t i = 0; i < run.size(); ++i) run[i] = uint32_t(first) + uint32_t(i);
  std::vector<uint32_t>& indices = st.array_indices;
  indices.clear();
  const GLenum drawn = AppendPolygonIndices(ctx, mode, edges, run, 0, indices);
  gl::DrawIndexList(ctx, drawn, indices, instances, 0, end);
}

void DrawElements(Context& ctx, GLenum mode, GLsizei count, GLenum type, const void* indices,
                  GLsizei instances, GLint base_vertex) {
  State& st = *ctx.compat;
  VertexArray& app = *ctx.vertex_array;
  const bool polygons = RewritesPolygons(ctx, mode);
  if (polygons && uint64_t(count) > kMaxPolygonVertices)
    return ctx.Error(GL_OUT_OF_MEMORY, "glDrawElements", "too many indices for GL_QUADS-style modes");
  const auto index_type = *glenum::IndexType(type);
  const uint64_t size = glenum::IndexSize(index_type);
  const GLState& s = ctx.state;
  const auto restart = index_rewrite::Resolve(s.primitive_restart, s.primitive_restart_fixed,
                                              s.primitive_restart_index, index_type);
  // The indices themselves are read when the draw is rewritten or copies client memory up to the largest.
  const uint8_t* data = nullptr;
  uint64_t n = uint64_t(count), end = 0;
  if (polygons || ReadsClientMemory(app)) {
    if (Buffer* ebo = app.element_buffer.get()) {
      if (!SyncShadow(ctx, *ebo)) return ctx.Error(GL_CONTEXT_LOST, "glDrawElements", "device lost");
      const uint64_t at = reinterpret_cast<uintptr_t>(indices);
      if (at >= ebo->shadow.size()) return;  // past the buffer's end: nothing (as gl_draw.cpp)
      n = std::min(n, (ebo->shadow.size() - at) / size);
      data = ebo->shadow.data() + at;
    } else {
      if (!indices)
        return ctx.Error(GL_INVALID_OPERATION, "glDrawElements", "no element buffer and no indices");
      data = static_cast<const uint8_t*>(indices);
    }
    end = uint64_t(MaxIndex(data, index_type, n, restart.enabled ? restart.value : UINT64_MAX)) + 1 +
          uint64_t(std::max(base_vertex, 0));
  }
  const bool on_cpu = OutsideRender(st) || ReadsFacesOnCpu(ctx, mode);
  if (Compiling(ctx) || on_cpu) {
    // The indices are read now too.
    const uint8_t* at = data;
    uint64_t available = n;
    if (!at && app.element_buffer) {
      if (!SyncShadow(ctx, *app.element_buffer))
        return ctx.Error(GL_CONTEXT_LOST, "glDrawElements", "device lost");
      const uint64_t offset = reinterpret_cast<uintptr_t>(indices);
      const auto& shadow = app.element_buffer->shadow;
      available = offset < shadow.size() ? std::min(n, (shadow.size() - offset) / size) : 0;
      at = shadow.data() + std::min<uint64_t>(offset, shadow.size());
    } else if (!at) {
      at = static_cast<const uint8_t*>(indices);
    }
    std::vector<std::vector<GLint>> runs(1);
    for (uint64_t i = 0; at && i < available; ++i) {
      uint32_t v = IndexAt(at, index_type, i);
      if (restart.enabled && v == restart.value)
        runs.emplace_back();
      else
        runs.back().push_back(GLint(int64_t(v) + base_vertex));
    }
    if (on_cpu && !Compiling(ctx)) return ReplayDraw(ctx, mode, runs, instances);
    if (CompileDraw(ctx, "glDrawElements", mode, runs) && !ExecutingWhileCompiling(ctx)) return;
    if (on_cpu) return ReplayDraw(ctx, mode, runs, instances);
  }
  const VertexAttribState edges = app.legacy[kLegacyEdgeFlag];
  ArrayDraw draw(ctx, DrawnMode(ctx, mode, polygons));
  if (!draw.Setup(end)) return;
  if (!polygons) return gl::DrawElementsCommon(ctx, mode, count, type, indices, instances, base_vertex);
  // Each restart-delimited run is one primitive sequence of its own (GL 3.1 §2.8.1).
  std::vector<uint32_t>& out = st.array_indices;
  out.clear();
  std::vector<uint32_t> run;
  GLenum drawn = GL_TRIANGLES;
  auto flush = [&] {
    drawn = AppendPolygonIndices(ctx, mode, edges, run, base_vertex, out);
    run.clear();
  };
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t v = IndexAt(data, index_type, i);
    if (restart.enabled && v == restart.value)
      flush();
    else
      run.push_back(v);
  }
  flush();
  gl::DrawIndexList(ctx, drawn, out, instances, base_vertex, end);
}

int QueryArrayState(Context& ctx, GLenum pname, double* out) {
  State& st = *ctx.compat;
  const VertexArray& vao = *ctx.vertex_array;
  const auto& legacy = vao.legacy;
  const int tex = kLegacyTexCoord0 + int(st.client_unit);
  auto binding = [&](int array) { return out[0] = legacy[array].buffer ? legacy[array].buffer->name : 0, 1; };
  switch (pname) {
    case GL_CLIENT_ACTIVE_TEXTURE:
      return out[0] = GL_TEXTURE0 + st.client_unit, 1;
    case GL_ARRAY_ELEMENT_LOCK_FIRST_EXT:
      return out[0] = st.locked_first, 1;
    case GL_ARRAY_ELEMENT_LOCK_COUNT_EXT:
      return out[0] = st.locked_count, 1;
    case GL_MAX_TEXTURE_COORDS:
      return out[0] = kLegacyTexCoordSets, 1;
    case GL_VERTEX_ARRAY_SIZE:
      return out[0] = legacy[kLegacyVertex].size, 1;
    case GL_VERTEX_ARRAY_TYPE:
      return out[0] = legacy[kLegacyVertex].type, 1;
    case GL_VERTEX_ARRAY_STRIDE:
      return out[0] = legacy[kLegacyVertex].stride, 1;
    case GL_VERTEX_ARRAY_BUFFER_BINDING:
      return binding(kLegacyVertex);
    case GL_NORMAL_ARRAY_TYPE:
      return out[0] = legacy[kLegacyNormal].type, 1;
    case GL_NORMAL_ARRAY_STRIDE:
      return out[0] = legacy[kLegacyNormal].stride, 1;
    case GL_NORMAL_ARRAY_BUFFER_BINDING:
      return binding(kLegacyNormal);
    case GL_COLOR_ARRAY_SIZE:
      return out[0] = legacy[kLegacyColor].size, 1;
    case GL_COLOR_ARRAY_TYPE:
      return out[0] = legacy[kLegacyColor].type, 1;
    case GL_COLOR_ARRAY_STRIDE:
      return out[0] = legacy[kLegacyColor].stride, 1;
    case GL_COLOR_ARRAY_BUFFER_BINDING:
      return binding(kLegacyColor);
    case GL_SECONDARY_COLOR_ARRAY_SIZE:
      return out[0] = legacy[kLegacySecondaryColor].size, 1;
    case GL_SECONDARY_COLOR_ARRAY_TYPE:
      return out[0] = legacy[kLegacySecondaryColor].type, 1;
    case GL_SECONDARY_COLOR_ARRAY_STRIDE:
      return out[0] = legacy[kLegacySecondaryColor].stride, 1;
    case GL_SECONDARY_COLOR_ARRAY_BUFFER_BINDING:
      return binding(kLegacySecondaryColor);
    case GL_FOG_COORD_ARRAY_TYPE:
      return out[0] = legacy[kLegacyFogCoord].type, 1;
    case GL_FOG_COORD_ARRAY_STRIDE:
      return out[0] = legacy[kLegacyFogCoord].stride, 1;
    case GL_FOG_COORD_ARRAY_BUFFER_BINDING:
      return binding(kLegacyFogCoord);
    case GL_EDGE_FLAG_ARRAY_STRIDE:
      return out[0] = legacy[kLegacyEdgeFlag].stride, 1;
    case GL_EDGE_FLAG_ARRAY_BUFFER_BINDING:
      return binding(kLegacyEdgeFlag);
    case GL_INDEX_ARRAY_TYPE:
      return out[0] = legacy[kLegacyIndex].type, 1;
    case GL_INDEX_ARRAY_STRIDE:
      return out[0] = legacy[kLegacyIndex].stride, 1;
    case GL_INDEX_ARRAY_BUFFER_BINDING:
      return binding(kLegacyIndex);
    case GL_TEXTURE_COORD_ARRAY_SIZE:
      return out[0] = legacy[tex].size, 1;
    case GL_TEXTURE_COORD_ARRAY_TYPE:
      return out[0] = legacy[tex].type, 1;
    case GL_TEXTURE_COORD_ARRAY_STRIDE:
      return out[0] = legacy[tex].stride, 1;
    case GL_TEXTURE_COORD_ARRAY_BUFFER_BINDING:
      return binding(tex);
    case GL_CLIENT_ATTRIB_STACK_DEPTH:
      return out[0] = double(st.client_attrib_stack.size()), 1;
    case GL_MAX_CLIENT_ATTRIB_STACK_DEPTH:
      return out[0] = kClientAttribDepth, 1;
    case GL_ATTRIB_STACK_DEPTH:
      return out[0] = double(st.attrib_stack.size()), 1;
    case GL_MAX_ATTRIB_STACK_DEPTH:
      return out[0] = kAttribDepth, 1;
    default: {
      int array = ArrayOfCap(st, pname);
      if (array < 0) return 0;
      return out[0] = legacy[array].enabled, 1;
    }
  }
}

bool IsArrayCap(GLenum cap) {
  switch (cap) {
    case GL_VERTEX_ARRAY:
    case GL_NORMAL_ARRAY:
    case GL_COLOR_ARRAY:
    case GL_SECONDARY_COLOR_ARRAY:
    case GL_FOG_COORD_ARRAY:
    case GL_EDGE_FLAG_ARRAY:
    case GL_INDEX_ARRAY:
    case GL_TEXTURE_COORD_ARRAY:
      return true;
    default:
      return false;
  }
}

bool QueryArrayPointer(Context& ctx, GLenum pname, const void** out) {
  int array;
  switch (pname) {
    case GL_VERTEX_ARRAY_POINTER:
      array = kLegacyVertex;
      break;
    case GL_NORMAL_ARRAY_POINTER:
      array = kLegacyNormal;
      break;
    case GL_COLOR_ARRAY_POINTER:
      array = kLegacyColor;
      break;
    case GL_SECONDARY_COLOR_ARRAY_POINTER:
      array = kLegacySecondaryColor;
      break;
    case GL_FOG_COORD_ARRAY_POINTER:
      array = kLegacyFogCoord;
      break;
    case GL_EDGE_FLAG_ARRAY_POINTER:
      array = kLegacyEdgeFlag;
      break;
    case GL_INDEX_ARRAY_POINTER:
      array = kLegacyIndex;
      break;
    case GL_TEXTURE_COORD_ARRAY_POINTER:
      array = kLegacyTexCoord0 + int(ctx.compat->client_unit);
      break;
    default:
      return false;
  }
  *out = reinterpret_cast<const void*>(uintptr_t(ctx.vertex_array->legacy[array].offset));
  return true;
}

}  // namespace caldera::compat

namespace caldera::gl {
using namespace caldera::compat;

void VertexPointer(Context& ctx, GLint size, GLenum type, GLsizei stride, const void* pointer) {
  SetArray(ctx, "glVertexPointer", kLegacyVertex, size, 2, 4, type, kSignedShort | kPacked, stride, pointer);
}

void NormalPointer(Context& ctx, GLenum type, GLsizei stride, const void* pointer) {
  SetArray(ctx, "glNormalPointer", kLegacyNormal, 3, 3, 3, type, kSignedShort | kByte, stride, pointer);
}

void ColorPointer(Context& ctx, GLint size, GLenum type, GLsizei stride, const void* pointer) {
  SetArray(ctx, "glColorPointer", kLegacyColor, size, 3, 4, type,
           kSignedShort | kByte | kUnsignedByte | kUnsigned | kPacked, stride, pointer);
}

void SecondaryColorPointer(Context& ctx, GLint size, GLenum type, GLsizei stride, const void* pointer) {
  SetArray(ctx, "glSecondaryColorPointer", kLegacySecondaryColor, size, 3, 3, type,
           kSignedShort | kByte | kUnsignedByte | kUnsigned, stride, pointer);
}

void TexCoordPointer(Context& ctx, GLint size, GLenum type, GLsizei stride, const void* pointer) {
  SetArray(ctx, "glTexCoordPointer", kLegacyTexCoord0 + int(ctx.compat->client_unit), size, 1, 4, type,
           kSignedShort | kPacked, stride, pointer);
}

void FogCoordPointer(Context& ctx, GLenum type, GLsizei stride, const void* pointer) {
  SetArray(ctx, "glFogCoordPointer", kLegacyFogCoord, 1, 1, 1, type, kFloatOnly, stride, pointer);
}

void EdgeFlagPointer(Context& ctx, GLsizei stride, const void* pointer) {
  SetArray(ctx, "glEdgeFlagPointer", kLegacyEdgeFlag, 1, 1, 1, GL_UNSIGNED_BYTE, kUnsignedByte, stride,
           pointer);
}

// Colour-index data: kept as state; RGBA rendering never reads it (GL 2.1 §2.8).
void IndexPointer(Context& ctx, GLenum type, GLsizei stride, const void* pointer) {
  if (type == GL_BYTE || type == GL_UNSIGNED_SHORT || type == GL_UNSIGNED_INT)
    return ctx.Error(GL_INVALID_ENUM, "glIndexPointer", "invalid type");
  SetArray(ctx, "glIndexPointer", kLegacyIndex, 1, 1, 1, type, kSignedShort | kUnsignedByte, stride, pointer);
}

// GL_EXT_vertex_array: the same arrays with a vertex count, which only has to be non-negative (draws read
// as many vertices as they draw, as the core commands do).
namespace {
bool ValidCount(Context& ctx, const char* fn, GLsizei count) {
  if (count < 0) ctx.Error(GL_INVALID_VALUE, fn, "negative count");
  return count >= 0;
}
}  // namespace

void VertexPointerEXT(Context& ctx, GLint size, GLenum type, GLsizei stride, GLsizei count,
                      const void* pointer) {
  if (ValidCount(ctx, "glVertexPointerEXT", count)) VertexPointer(ctx, size, type, stride, pointer);
}

void NormalPointerEXT(Context& ctx, GLenum type, GLsizei stride, GLsizei count, const void* pointer) {
  if (ValidCount(ctx, "glNormalPointerEXT", count)) NormalPointer(ctx, type, stride, pointer);
}

void ColorPointerEXT(Context& ctx, GLint size, GLenum type, GLsizei stride, GLsizei count,
                     const void* pointer) {
  if (ValidCount(ctx, "glColorPointerEXT", count)) ColorPointer(ctx, size, type, stride, pointer);
}

void TexCoordPointerEXT(Context& ctx, GLint size, GLenum type, GLsizei stride, GLsizei count,
                        const void* pointer) {
  if (ValidCount(ctx, "glTexCoordPointerEXT", count)) TexCoordPointer(ctx, size, type, stride, pointer);
}

void EdgeFlagPointerEXT(Context& ctx, GLsizei stride, GLsizei count, const GLboolean* pointer) {
  if (ValidCount(ctx, "glEdgeFlagPointerEXT", count)) EdgeFlagPointer(ctx, stride, pointer);
}

void IndexPointerEXT(Context& ctx, GLenum type, GLsizei stride, GLsizei count, const void* pointer) {
  if (ValidCount(ctx, "glIndexPointerEXT", count)) IndexPointer(ctx, type, stride, pointer);
}

void EnableClientState(Context& ctx, GLenum array) {
  SetEnabled(ctx, "glEnableClientState", array, true);
}

void DisableClientState(Context& ctx, GLenum array) {
  SetEnabled(ctx, "glDisableClientState", array, false);
}

void ClientActiveTexture(Context& ctx, GLenum texture) {
  if (texture < GL_TEXTURE0 || texture >= GL_TEXTURE0 + kLegacyTexCoordSets)
    return ctx.Error(GL_INVALID_ENUM, "glClientActiveTexture", "invalid texture unit");
  ctx.compat->client_unit = texture - GL_TEXTURE0;
}

void LockArraysEXT(Context& ctx, GLint first, GLsizei count) {
  State& st = *ctx.compat;
  if (first < 0 || count <= 0)
    return ctx.Error(GL_INVALID_VALUE, "glLockArraysEXT", "invalid first or count");
  if (st.locked_count > 0)
    return ctx.Error(GL_INVALID_OPERATION, "glLockArraysEXT", "the arrays are locked already");
  st.locked_first = first;
  st.locked_count = count;
}

void UnlockArraysEXT(Context& ctx) {
  State& st = *ctx.compat;
  if (st.locked_count == 0)
    return ctx.Error(GL_INVALID_OPERATION, "glUnlockArraysEXT", "the arrays are not locked");
  st.locked_first = st.locked_count = 0;
}

// GL 2.1 §2.8, table 2.5: which arrays each format enables, their sizes and offsets in floats (a colour of
// four unsigned bytes takes one float's room).
void InterleavedArrays(Context& ctx, GLenum format, GLsizei stride, const void* pointer) {
  struct Format {
    GLenum format;
    int tex_size, color_size, normal, vertex_size;
    GLenum color_type;
    int color_at, normal_at, vertex_at, size;  // in floats
  };
  static constexpr Format kFormats[] = {
      {GL_V2F, 0, 0, 0, 2, 0, 0, 0, 0, 2},
      {GL_V3F, 0, 0, 0, 3, 0, 0, 0, 0, 3},
      {GL_C4UB_V2F, 0, 4, 0, 2, GL_UNSIGNED_BYTE, 0, 0, 1, 3},
      {GL_C4UB_V3F, 0, 4, 0, 3, GL_UNSIGNED_BYTE, 0, 0, 1, 4},
      {GL_C3F_V3F, 0, 3, 0, 3, GL_FLOAT, 0, 0, 3, 6},
      {GL_N3F_V3F, 0, 0, 1, 3, 0, 0, 0, 3, 6},
      {GL_C4F_N3F_V3F, 0, 4, 1, 3, GL_FLOAT, 0, 4, 7, 10},
      {GL_T2F_V3F, 2, 0, 0, 3, 0, 0, 0, 2, 5},
      {GL_T4F_V4F, 4, 0, 0, 4, 0, 0, 0, 4, 8},
      {GL_T2F_C4UB_V3F, 2, 4, 0, 3, GL_UNSIGNED_BYTE, 2, 0, 3, 6},
      {GL_T2F_C3F_V3F, 2, 3, 0, 3, GL_FLOAT, 2, 0, 5, 8},
      {GL_T2F_N3F_V3F, 2, 0, 1, 3, 0, 0, 2, 5, 8},
      {GL_T2F_C4F_N3F_V3F, 2, 4, 1, 3, GL_FLOAT, 2, 6, 9, 12},
      {GL_T4F_C4F_N3F_V4F, 4, 4, 1, 4, GL_FLOAT, 4, 8, 11, 15},
  };
  const Format* f = nullptr;
  for (const auto& candidate : kFormats)
    if (candidate.format == format) f = &candidate;
  if (!f) return ctx.Error(GL_INVALID_ENUM, "glInterleavedArrays", "invalid format");
  if (stride < 0) return ctx.Error(GL_INVALID_VALUE, "glInterleavedArrays", "stride is negative");
  if (!ctx.array_buffer && pointer && !ctx.vertex_array->is_default)
    return ctx.Error(GL_INVALID_OPERATION, "glInterleavedArrays",
                     "client-side arrays need vertex array object 0");
  const GLsizei s = stride ? stride : GLsizei(f->size * sizeof(float));
  const auto* p = static_cast<const uint8_t*>(pointer);
  auto at = [&](int floats) { return static_cast<const void*>(p + floats * sizeof(float)); };
  DisableClientState(ctx, GL_EDGE_FLAG_ARRAY);
  DisableClientState(ctx, GL_INDEX_ARRAY);
  DisableClientState(ctx, GL_SECONDARY_COLOR_ARRAY);
  DisableClientState(ctx, GL_FOG_COORD_ARRAY);
  if (f->tex_size) {
    EnableClientState(ctx, GL_TEXTURE_COORD_ARRAY);
    TexCoordPointer(ctx, f->tex_size, GL_FLOAT, s, at(0));
  } else {
    DisableClientState(ctx, GL_TEXTURE_COORD_ARRAY);
  }
  if (f->color_size) {
    EnableClientState(ctx, GL_COLOR_ARRAY);
    ColorPointer(ctx, f->color_size, f->color_type, s, at(f->color_at));
  } else {
    DisableClientState(ctx, GL_COLOR_ARRAY);
  }
  if (f->normal) {
    EnableClientState(ctx, GL_NORMAL_ARRAY);
    NormalPointer(ctx, GL_FLOAT, s, at(f->normal_at));
  } else {
    DisableClientState(ctx, GL_NORMAL_ARRAY);
  }
  EnableClientState(ctx, GL_VERTEX_ARRAY);
  VertexPointer(ctx, f->vertex_size, GL_FLOAT, s, at(f->vertex_at));
}

// The enabled arrays' element `i` become the current attributes, the vertex array's (last) a vertex of the
// open glBegin (GL 2.1 §2.8).
// Inside glNewList the element is read now and its values recorded (GL 2.1 §5.4).
void ArrayElement(Context& ctx, GLint i) {
  if (i < 0) return ctx.Error(GL_INVALID_VALUE, "glArrayElement", "negative index");
  const Element e = Capture(ctx, i);
  if (Compiling(ctx)) {
    Context* c = &ctx;
    Record(ctx, [c, e] { Apply(*c, e); });
    if (!ExecutingWhileCompiling(ctx)) return;
  }
  Apply(ctx, e);
}

namespace {

std::array<GLint*, 12> PixelStore(GLState& s) {
  return {&s.pack_alignment,      &s.unpack_alignment,   &s.pack_row_length,   &s.unpack_row_length,
          &s.pack_skip_rows,      &s.pack_skip_pixels,   &s.unpack_skip_rows,  &s.unpack_skip_pixels,
          &s.unpack_image_height, &s.unpack_skip_images, &s.pack_image_height, &s.pack_skip_images};
}

}  // namespace

void PushClientAttrib(Context& ctx, GLbitfield mask) {
  State& st = *ctx.compat;
  if (st.client_attrib_stack.size() >= size_t(kClientAttribDepth))
    return ctx.Error(GL_STACK_OVERFLOW, "glPushClientAttrib", "client attribute stack is full");
  ClientAttribs& saved = st.client_attrib_stack.emplace_back();
  saved.mask = mask;
  if (mask & GL_CLIENT_PIXEL_STORE_BIT) {
    auto fields = PixelStore(ctx.state);
    for (size_t i = 0; i < fields.size(); ++i) saved.pixel_store[i] = *fields[i];
  }
  if (mask & GL_CLIENT_VERTEX_ARRAY_BIT) {
    const VertexArray& vao = *ctx.vertex_array;
    saved.vertex_array = ctx.vertex_array;
    saved.attribs = vao.attribs;
    saved.legacy = vao.legacy;
    saved.legacy_enabled = vao.legacy_enabled;
    saved.element_buffer = vao.element_buffer;
    saved.array_buffer = ctx.array_buffer;
    saved.client_unit = st.client_unit;
  }
}

void PopClientAttrib(Context& ctx) {
  State& st = *ctx.compat;
  if (st.client_attrib_stack.empty())
    return ctx.Error(GL_STACK_UNDERFLOW, "glPopClientAttrib", "client attribute stack is empty");
  ClientAttribs saved = std::move(st.client_attrib_stack.back());
  st.client_attrib_stack.pop_back();
  if (saved.mask & GL_CLIENT_PIXEL_STORE_BIT) {
    auto fields = PixelStore(ctx.state);
    for (size_t i = 0; i < fields.size(); ++i) *fields[i] = saved.pixel_store[i];
  }
  if (saved.mask & GL_CLIENT_VERTEX_ARRAY_BIT) {
    // A vertex array object deleted since the push is not brought back: object 0 is bound instead.
    if (saved.vertex_array->is_default ||
        ctx.vertex_arrays.Get(saved.vertex_array->name) == saved.vertex_array) {
      VertexArray& vao = *saved.vertex_array;
      vao.attribs = saved.attribs;
      vao.streamed_mask = StreamedMask(ctx, vao);
      vao.legacy = saved.legacy;
      vao.legacy_enabled = saved.legacy_enabled;
      vao.element_buffer = saved.element_buffer;
      ctx.vertex_array = saved.vertex_array;
    } else {
      ctx.vertex_array = ctx.default_vertex_array;
    }
    ctx.array_buffer = saved.array_buffer;
    st.client_unit = saved.client_unit;
    ctx.MarkDirty(kDirtyVertexInput);
  }
}

}  // namespace caldera::gl
