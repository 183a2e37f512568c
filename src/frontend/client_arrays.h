// Streamed vertex arrays: arrays a draw copies into per-context stream buffers, which it then reads like any
// buffer (Gallium's u_vbuf does the same job):
//   - ES client-side arrays: vertex attributes and indices read from application memory on the default
//     vertex array object (ES 2.0–3.2); core contexts never have them;
//   - arrays of a type the backend cannot read into float attributes (BackendLimits::vertex_types_converted:
//     GL_INT / GL_UNSIGNED_INT, GL_FIXED and GL_DOUBLE on Vulkan), converted to floats from client memory or
//     from the buffer's shadow. Probe: CALDERA_STATS' "converted_vertex_arrays" (draw_delta line).
#pragma once

#include <cstdint>
#include <memory>

#include "pipe/commands.h"

namespace caldera {

class Context;
struct Buffer;
struct VertexArray;
struct VertexAttribState;

// New storage for a stream buffer, with `data` (`size` bytes) as its contents — orphaning: draws already
// recorded keep the old contents. The buffer is made on first use; its handle is what vertex input names from
// then on. `shadow` keeps a CPU copy too (index streams: primitive restart and range checks read it).
Buffer* RespecifyStreamBuffer(Context& ctx, std::shared_ptr<Buffer>& slot, const void* data, uint64_t size,
                              bool shadow = false);

// Whether `a` is an array of a type the backend cannot read into float attributes (converted when streamed).
bool ArrayIsConverted(const Context& ctx, const VertexAttribState& a);
// Whether a draw streams `a`'s array (its bit of VertexArray::streamed_mask): client memory, or a type the
// backend converts.
bool ArrayIsStreamed(const Context& ctx, const VertexAttribState& a);
// VertexArray::streamed_mask for `vao`'s attributes as they are now.
uint32_t StreamedMask(const Context& ctx, const VertexArray& vao);

// True when an enabled attribute of the bound vertex array is streamed (VertexArray::streamed_mask).
bool UsesClientArrays(const Context& ctx);

// Copies, for every enabled streamed attribute, the elements of vertices [0, vertex_end) (or of the
// instances, for attributes with a divisor) into its stream buffer, converted to floats where the backend
// cannot read the type. Elements past the end of a source buffer read as zero.
// False, with GL_OUT_OF_MEMORY recorded and nothing staged, when one array would need more than
// kMaxClientArrayBytes (a draw count no program's client memory holds).
bool StageClientArrays(Context& ctx, uint64_t vertex_end, uint32_t instances);
constexpr uint64_t kMaxClientArrayBytes = 256ull << 20;

// Copies `bytes` of client indices into the index stream buffer (its shadow holds them too) and returns it;
// null, with GL_OUT_OF_MEMORY recorded, past kMaxClientArrayBytes.
Buffer* StageClientIndices(Context& ctx, const void* indices, uint64_t bytes);

// The largest of `count` indices of `type` at `data`, leaving out `skip` (the primitive restart index, or
// UINT64_MAX for none); 0 for none.
uint32_t MaxIndex(const uint8_t* data, pipe::IndexType type, uint64_t count, uint64_t skip);

}  // namespace caldera
