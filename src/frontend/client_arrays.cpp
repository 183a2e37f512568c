#include "frontend/client_arrays.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#include "frontend/buffer_util.h"
#include "frontend/context.h"
#include "frontend/device.h"
#include "frontend/gl_enums.h"

namespace caldera {
namespace {

bool TooLarge(Context& ctx) {
  ctx.Error(GL_OUT_OF_MEMORY, "glDraw*", "client-side arrays larger than 256 MiB for one draw");
  return false;
}

}  // namespace

Buffer* RespecifyStreamBuffer(Context& ctx, std::shared_ptr<Buffer>& slot, const void* data, uint64_t size,
                              bool shadow) {
  if (!slot) {
    slot = std::make_shared<Buffer>();
    slot->handle = ctx.NewHandle();
    slot->device = &ctx.device();
    ctx.MarkDirty(kDirtyVertexInput);
  }
  slot->size = static_cast<int64_t>(size);
  ++slot->draw_version;
  if (shadow)
    slot->shadow.assign(static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + size);
  ctx.pipe().Record(pipe::CmdBufferStorage{slot->handle, size});
  RecordUpload(ctx, *slot, 0, data, size);
  return slot.get();
}

bool ArrayIsConverted(const Context& ctx, const VertexAttribState& a) {
  const auto type = glenum::VertexType(a.type, a.integer);
  return !a.integer && type && (ctx.device().backend().caps().vertex_types_converted >> *type) & 1u;
}

bool ArrayIsStreamed(const Context& ctx, const VertexAttribState& a) {
  return (!a.buffer && a.client_pointer) || ArrayIsConverted(ctx, a);
}

uint32_t StreamedMask(const Context& ctx, const VertexArray& vao) {
  uint32_t mask = 0;
  for (int i = 0; i < pipe::kMaxVertexAttribs; ++i)
    if (ArrayIsStreamed(ctx, vao.attribs[i])) mask |= 1u << i;
  return mask;
}

bool UsesClientArrays(const Context& ctx) {
  const VertexArray* vao = ctx.vertex_array.get();
  if (!vao || !vao->streamed_mask) [[likely]]
    return false;
  for (uint32_t mask = vao->streamed_mask; mask; mask &= mask - 1)
    if (vao->attribs[std::countr_zero(mask)].enabled) return true;
  return false;
}

namespace {

// Converts `count` elements of `a` (each `size` components of its type, `stride` bytes apart) at `src` into
// floats at `out`, as GL converts them for float attributes (GL 4.6 §10.3.5 and table 10.3: normalised
// signed values map c / (2^(b-1) - 1) clamped to -1, unsigned c / (2^b - 1); GL_FIXED is 16.16 whatever
// the normalised flag says, doubles are rounded).
void ConvertToFloats(pipe::VertexFormat::Type type, bool normalized, int size, const uint8_t* src,
                     uint64_t stride, uint64_t count, float* out) {
  using V = pipe::VertexFormat;
  for (uint64_t e = 0; e < count; ++e, src += stride) {
    for (int c = 0; c < size; ++c) {
      float v = 0.0f;
      switch (type) {
        case V::kInt: {
          int32_t x;
          std::memcpy(&x, src + 4 * c, 4);
          v = normalized ? std::max(float(double(x) / 2147483647.0), -1.0f) : float(x);
          break;
        }
        case V::kUInt: {
          uint32_t x;
          std::memcpy(&x, src + 4 * c, 4);
          v = normalized ? float(double(x) / 4294967295.0) : float(x);
          break;
        }
        case V::kFixed: {
          int32_t x;
          std::memcpy(&x, src + 4 * c, 4);
          v = float(double(x) / 65536.0);
          break;
        }
        case V::kDouble: {
          double x;
          std::memcpy(&x, src + 8 * c, 8);
          v = float(x);
          break;
        }
        default:
          break;
      }
      *out++ = v;
    }
  }
}

}  // namespace

bool StageClientArrays(Context& ctx, uint64_t vertex_end, uint32_t instances) {
  uint64_t bytes_of[pipe::kMaxVertexAttribs] = {};
  for (int pass = 0; pass < 2; ++pass)
    for (uint32_t mask = ctx.vertex_array->streamed_mask; mask; mask &= mask - 1) {
      const int i = std::countr_zero(mask);
      const auto& a = ctx.vertex_array->attribs[i];
      if (!a.enabled || (!a.buffer && !a.client_pointer)) continue;
      auto type = *glenum::VertexType(a.type, a.integer);
      const bool convert = ArrayIsConverted(ctx, a);
      uint64_t element = type == pipe::VertexFormat::kInt2101010 || type == pipe::VertexFormat::kUInt2101010
                             ? 4
                             : uint64_t(a.size) * glenum::VertexTypeSize(type);
      uint64_t stride = a.stride ? uint64_t(a.stride) : element;
      uint64_t n = a.divisor ? (uint64_t(instances) + a.divisor - 1) / a.divisor : vertex_end;
      n = std::max<uint64_t>(n, 1);  // at least one element, so the binding always has storage
      // The bytes the draw can read: up to the last element's end; converted, n tightly packed floats.
      if (pass == 0) {
        if (n - 1 > kMaxClientArrayBytes / std::max<uint64_t>(stride, 1)) return TooLarge(ctx);
        bytes_of[i] = convert ? n * uint64_t(a.size) * 4 : (n - 1) * stride + element;
        if (bytes_of[i] > kMaxClientArrayBytes) return TooLarge(ctx);
        continue;
      }
      if (!convert) {
        RespecifyStreamBuffer(ctx, ctx.client_streams[i], a.client_pointer, bytes_of[i], false);
        continue;
      }
      // The source: client memory (all of it readable, as for unconverted client arrays), or the buffer's
      // shadow from the attribute's offset, of which only whole elements inside the buffer are read.
      const uint8_t* src = static_cast<const uint8_t*>(a.client_pointer);
      uint64_t readable = n;
      if (a.buffer) {
        if (!SyncShadow(ctx, *a.buffer)) return ctx.Error(GL_CONTEXT_LOST, "glDraw*", "device lost"), false;
        const uint64_t size = a.buffer->shadow.size();
        src = a.offset < size ? a.buffer->shadow.data() + a.offset : nullptr;
        const uint64_t left = src ? size - a.offset : 0;
        readable = left >= element ? std::min<uint64_t>(n, (left - element) / stride + 1) : 0;
      }
      std::vector<float> floats(n * uint64_t(a.size), 0.0f);
      if (src && readable) ConvertToFloats(type, a.normalized, a.size, src, stride, readable, floats.data());
      RespecifyStreamBuffer(ctx, ctx.client_streams[i], floats.data(), bytes_of[i], false);
      ++ctx.draw_delta_stats.converted_vertex_arrays;
    }
  return true;
}

Buffer* StageClientIndices(Context& ctx, const void* indices, uint64_t bytes) {
  if (bytes > kMaxClientArrayBytes) return TooLarge(ctx), nullptr;
  return RespecifyStreamBuffer(ctx, ctx.client_index_stream, indices, bytes, true);
}

uint32_t MaxIndex(const uint8_t* data, pipe::IndexType type, uint64_t count, uint64_t skip) {
  uint32_t m = 0;
  switch (type) {
    case pipe::IndexType::kU8:
      for (uint64_t i = 0; i < count; ++i)
        if (data[i] != skip) m = std::max<uint32_t>(m, data[i]);
      break;
    case pipe::IndexType::kU16:
      for (uint64_t i = 0; i < count; ++i) {
        uint16_t v;
        std::memcpy(&v, data + 2 * i, 2);
        if (v != skip) m = std::max<uint32_t>(m, v);
      }
      break;
    case pipe::IndexType::kU32:
      for (uint64_t i = 0; i < count; ++i) {
        uint32_t v;
        std::memcpy(&v, data + 4 * i, 4);
        if (v != skip) m = std::max(m, v);
      }
      break;
    default:
      break;
  }
  return m;
}

}  // namespace caldera
