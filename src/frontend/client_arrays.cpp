#include "frontend/client_arrays.h"

#include <algorithm>
#include <cstring>

#include "frontend/buffer_util.h"
#include "frontend/context.h"
#include "frontend/device.h"
#include "frontend/gl_enums.h"

namespace caldera {
namespace {

// New storage for a stream buffer, with `data` as its contents (orphaning: draws already recorded keep the
// old contents). The buffer is made on first use; its handle is what vertex input names from then on.
Buffer* Respecify(Context& ctx, std::shared_ptr<Buffer>& slot, const void* data, uint64_t size, bool shadow) {
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

bool TooLarge(Context& ctx) {
  ctx.Error(GL_OUT_OF_MEMORY, "glDraw*", "client-side arrays larger than 256 MiB for one draw");
  return false;
}

}  // namespace

bool UsesClientArrays(const Context& ctx) {
  if (!ctx.vertex_array || !ctx.vertex_array->is_default) return false;
  for (const auto& a : ctx.vertex_array->attribs)
    if (a.enabled && !a.buffer && a.client_pointer) return true;
  return false;
}

bool StageClientArrays(Context& ctx, uint64_t vertex_end, uint32_t instances) {
  uint64_t bytes_of[pipe::kMaxVertexAttribs] = {};
  for (int pass = 0; pass < 2; ++pass)
    for (int i = 0; i < pipe::kMaxVertexAttribs; ++i) {
      const auto& a = ctx.vertex_array->attribs[i];
      if (!a.enabled || a.buffer || !a.client_pointer) continue;
      auto type = *glenum::VertexType(a.type, a.integer);
      uint64_t element = type == pipe::VertexFormat::kInt2101010 || type == pipe::VertexFormat::kUInt2101010
                             ? 4
                             : uint64_t(a.size) * glenum::VertexTypeSize(type);
      uint64_t stride = a.stride ? uint64_t(a.stride) : element;
      uint64_t n = a.divisor ? (uint64_t(instances) + a.divisor - 1) / a.divisor : vertex_end;
      // The bytes the draw can read: up to the last element's end (at least one element, so the binding
      // always has storage).
      if (pass == 0) {
        uint64_t last = std::max<uint64_t>(n, 1) - 1;
        if (last > kMaxClientArrayBytes / std::max<uint64_t>(stride, 1)) return TooLarge(ctx);
        bytes_of[i] = last * stride + element;
        if (bytes_of[i] > kMaxClientArrayBytes) return TooLarge(ctx);
      } else {
        Respecify(ctx, ctx.client_streams[i], a.client_pointer, bytes_of[i], false);
      }
    }
  return true;
}

Buffer* StageClientIndices(Context& ctx, const void* indices, uint64_t bytes) {
  if (bytes > kMaxClientArrayBytes) return TooLarge(ctx), nullptr;
  return Respecify(ctx, ctx.client_index_stream, indices, bytes, true);
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
