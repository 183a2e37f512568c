// ES client-side arrays: vertex attributes and indices read from application memory on the default vertex
// array object (ES 2.0–3.2). At each draw that uses them, the bytes the draw can read are copied into
// per-context stream buffers, which the draw then reads like any buffer; core contexts never get here.
#pragma once

#include <cstdint>

#include "pipe/commands.h"

namespace caldera {

class Context;
struct Buffer;

// True when an enabled attribute of the bound vertex array reads client memory.
bool UsesClientArrays(const Context& ctx);

// Copies, for every enabled client-side attribute, the elements of vertices [0, vertex_end) (or of the
// instances, for attributes with a divisor) into its stream buffer.
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
