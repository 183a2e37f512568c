// glPixelMap and glGetPixelMap (GL 2.1 §3.6.3, §6.1.3), and the lookups pixel transfer makes through the
// maps (§3.6.5): colour-index images drawn as RGBA, GL_MAP_COLOR and GL_MAP_STENCIL. The values come from
// client memory or the bound GL_PIXEL_UNPACK_BUFFER (and go to client memory or GL_PIXEL_PACK_BUFFER). In a
// display list the values are read when the list is compiled, as GL requires.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "frontend/buffer_util.h"
#include "frontend/compat/compat_impl.h"
#include "frontend/compat/hooks.h"
#include "frontend/compat/immediate.h"
#include "frontend/pixel_buffer.h"

namespace caldera::compat {
namespace {

constexpr GLenum kFirstMap = 0x0C70;      // GL_PIXEL_MAP_I_TO_I
constexpr GLenum kFirstMapSize = 0x0CB0;  // GL_PIXEL_MAP_I_TO_I_SIZE
constexpr GLenum kMaxPixelMapTableName = 0x0D34;

int MapIndex(GLenum map) {
  return map >= kFirstMap && map < kFirstMap + kPixelMaps ? int(map - kFirstMap) : -1;
}
// I_TO_I and S_TO_S hold indices; the others colour components in [0, 1].
bool HoldsIndices(int map) {
  return map == kMapIToI || map == kMapSToS;
}
// The maps an index addresses are powers of two in size (the index is masked by size - 1).
bool IndexedByIndex(int map) {
  return map < kMapRToR;
}

// A glPixelMap call's table, converted; or the error it raises (when it runs, in a display list).
struct LoadedPixelMap {
  GLenum error = GL_NO_ERROR;
  const char* why = "";
  int map = -1;
  std::vector<float> values;
};

LoadedPixelMap FailedPixelMap(GLenum error, const char* why) {
  LoadedPixelMap m;
  m.error = error, m.why = why;
  return m;
}

template <typename T>
float ToFloat(T v, bool index) {
  if constexpr (std::is_same_v<T, GLfloat>) return index ? v : std::clamp(v, 0.0f, 1.0f);
  if (index) return float(v);
  return float(double(v) / double(std::numeric_limits<T>::max()));  // unsigned integers are normalised
}

template <typename T>
T FromFloat(float v, bool index) {
  if constexpr (std::is_same_v<T, GLfloat>) return v;
  const double max = double(std::numeric_limits<T>::max());
  if (index) return T(std::clamp(std::round(double(v)), 0.0, max));
  return T(std::lround(std::clamp(double(v), 0.0, 1.0) * max));
}

template <typename T>
GLenum TypeOf() {
  if constexpr (std::is_same_v<T, GLfloat>) return GL_FLOAT;
  if constexpr (std::is_same_v<T, GLuint>) return GL_UNSIGNED_INT;
  return GL_UNSIGNED_SHORT;
}

PixelLayout TableLayout(GLsizei count, uint32_t element) {
  PixelLayout l;
  l.bytes_per_pixel = element;
  l.row_stride = uint64_t(count) * element;
  l.size = l.row_stride;
  return l;
}

// Reads and converts a table; *failed_now when the unpack buffer check raised its error already.
template <typename T>
LoadedPixelMap Load(Context& ctx, const char* fn, GLenum map, GLsizei mapsize, const T* values,
                    bool* failed_now) {
  *failed_now = false;
  const int index = MapIndex(map);
  if (index < 0) return FailedPixelMap(GL_INVALID_ENUM, "invalid map");
  if (mapsize < 1 || mapsize > kMaxPixelMapTable)
    return FailedPixelMap(GL_INVALID_VALUE, "map size out of range");
  if (IndexedByIndex(index) && (mapsize & (mapsize - 1)) != 0)
    return FailedPixelMap(GL_INVALID_VALUE, "the size of an index map is a power of two");
  const uint8_t* src = reinterpret_cast<const uint8_t*>(values);
  if (Buffer* pbo = ctx.pixel_unpack_buffer.get()) {
    const uint64_t offset = reinterpret_cast<uintptr_t>(values);
    if (!CheckPixelBuffer(ctx, *pbo, offset, TableLayout(mapsize, sizeof(T)), TypeOf<T>(), fn) ||
        !SyncShadow(ctx, *pbo))
      return *failed_now = true, LoadedPixelMap{};
    src = pbo->shadow.data() + offset;
  } else if (!values) {
    return FailedPixelMap(GL_INVALID_VALUE, "values is null");
  }
  LoadedPixelMap m;
  m.map = index;
  m.values.resize(size_t(mapsize));
  for (GLsizei i = 0; i < mapsize; ++i) {
    T v;
    std::memcpy(&v, src + size_t(i) * sizeof(T), sizeof(T));
    m.values[size_t(i)] = ToFloat(v, HoldsIndices(index));
  }
  return m;
}

void Store(Context& ctx, const char* fn, const LoadedPixelMap& m) {
  if (m.error != GL_NO_ERROR) return ctx.Error(m.error, fn, m.why);
  ctx.compat->pixel.maps[size_t(m.map)] = m.values;
}

template <typename T>
void PixelMap(Context& ctx, const char* fn, GLenum map, GLsizei mapsize, const T* values) {
  bool failed = false;
  auto loaded = std::make_shared<LoadedPixelMap>(Load(ctx, fn, map, mapsize, values, &failed));
  if (failed) return;
  CompileOrRun(ctx, fn, [fn, loaded](Context& c) { Store(c, fn, *loaded); });
}

template <typename T>
void GetPixelMap(Context& ctx, const char* fn, GLenum map, T* values) {
  const int index = MapIndex(map);
  if (index < 0) return ctx.Error(GL_INVALID_ENUM, fn, "invalid map");
  const std::vector<float>& table = ctx.compat->pixel.maps[size_t(index)];
  const GLsizei count = GLsizei(table.size());
  uint8_t* dst = reinterpret_cast<uint8_t*>(values);
  Buffer* pbo = ctx.pixel_pack_buffer.get();
  const uint64_t offset = reinterpret_cast<uintptr_t>(values);
  if (pbo) {
    if (!CheckPixelBuffer(ctx, *pbo, offset, TableLayout(count, sizeof(T)), TypeOf<T>(), fn)) return;
    if (!SyncShadow(ctx, *pbo)) return ctx.Error(GL_CONTEXT_LOST, fn, "device lost");
    dst = pbo->shadow.data() + offset;
  } else if (!values) {
    return;
  }
  for (GLsizei i = 0; i < count; ++i) {
    const T v = FromFloat<T>(table[size_t(i)], HoldsIndices(index));
    std::memcpy(dst + size_t(i) * sizeof(T), &v, sizeof(T));
  }
  if (pbo) RecordUpload(ctx, *pbo, offset, dst, uint64_t(count) * sizeof(T));
}

float Lookup(const std::vector<float>& table, int64_t index) {
  // Index maps are powers of two: the index is masked (GL 2.1 §3.6.5, "Index lookup").
  return table[size_t(uint64_t(index) & uint64_t(table.size() - 1))];
}

}  // namespace

int64_t ShiftAndOffset(const PixelRectState& p, int64_t index) {
  index = p.index_shift >= 0 ? index << std::min(p.index_shift, 31) : index >> std::min(-p.index_shift, 31);
  return index + p.index_offset;
}

void IndexToRgba(const PixelRectState& p, int64_t index, float rgba[4]) {
  for (int c = 0; c < 4; ++c) rgba[c] = Lookup(p.maps[size_t(kMapIToR + c)], index);
}

void MapColor(const PixelRectState& p, float rgba[4]) {
  // Each component, clamped to [0, 1], picks entry round(c * (size - 1)) of its map.
  for (int c = 0; c < 4; ++c) {
    const std::vector<float>& table = p.maps[size_t(kMapRToR + c)];
    const float clamped = std::clamp(rgba[c], 0.0f, 1.0f);
    rgba[c] = table[size_t(std::lround(clamped * float(table.size() - 1)))];
  }
}

int64_t MapStencil(const PixelRectState& p, int64_t index) {
  return int64_t(std::lround(Lookup(p.maps[kMapSToS], index)));
}

int QueryPixelMapState(const Context& ctx, GLenum pname, double* out) {
  if (pname == kMaxPixelMapTableName) return out[0] = kMaxPixelMapTable, 1;
  if (pname < kFirstMapSize || pname >= kFirstMapSize + kPixelMaps) return 0;
  return out[0] = double(ctx.compat->pixel.maps[pname - kFirstMapSize].size()), 1;
}

}  // namespace caldera::compat

namespace caldera::gl {
using namespace caldera::compat;

void PixelMapfv(Context& ctx, GLenum map, GLsizei mapsize, const GLfloat* values) {
  PixelMap(ctx, "glPixelMapfv", map, mapsize, values);
}
void PixelMapuiv(Context& ctx, GLenum map, GLsizei mapsize, const GLuint* values) {
  PixelMap(ctx, "glPixelMapuiv", map, mapsize, values);
}
void PixelMapusv(Context& ctx, GLenum map, GLsizei mapsize, const GLushort* values) {
  PixelMap(ctx, "glPixelMapusv", map, mapsize, values);
}
void GetPixelMapfv(Context& ctx, GLenum map, GLfloat* values) {
  GetPixelMap(ctx, "glGetPixelMapfv", map, values);
}
void GetPixelMapuiv(Context& ctx, GLenum map, GLuint* values) {
  GetPixelMap(ctx, "glGetPixelMapuiv", map, values);
}
void GetPixelMapusv(Context& ctx, GLenum map, GLushort* values) {
  GetPixelMap(ctx, "glGetPixelMapusv", map, values);
}

}  // namespace caldera::gl
