// Draw-delta caches: what a draw derives from GL objects (the program's resolved texture and uniform-buffer
// sets, the draw framebuffer's completeness) is kept together with the lifetime ids and draw versions
// (GLObject::draw_version) of the objects it came from, and reused while every one still matches. Versions
// live on the objects, so a mutation made through another context of the share group is seen too.
//
// Switches (read once per process):
//   CALDERA_DRAW_DELTA=0        kill switch: every draw resolves everything, as before the caches.
//   CALDERA_PIPE_VERIFY=1       the caches are consulted but every draw also resolves in full; a cached
//                               answer that differs from the full one is reported (draw number, first
//                               differing field) and the process aborts.
//   CALDERA_DRAW_DELTA_DROP=fn  test-only negative control: the GL entry `fn` (e.g. glTexParameteri) no
//                               longer bumps the versions it should, so verify mode and pixels go wrong.
// Probe: CALDERA_STATS gets one "draw_delta" line per context with hits and misses by reason, and how many
// draws re-sent the fixed state and the vertex input ("fixed_state_records", "vertex_input_records":
// gl_state_table checks that setters mark them only on real change).
#pragma once

#include <cstdint>

#include "frontend/objects.h"

namespace caldera {

struct DrawDeltaConfig {
  bool enabled = true;
  bool verify = false;
  const char* drop = nullptr;  // CALDERA_DRAW_DELTA_DROP, null when unset
};
const DrawDeltaConfig& GetDrawDeltaConfig();

// Bumps `object`'s draw version on behalf of GL entry `entry` (its name as the entry's errors give it),
// unless the negative-control knob drops that entry.
void BumpDrawVersionSlow(GLObject& object, const char* entry);
inline void BumpDrawVersion(GLObject& object, const char* entry) {
  if (GetDrawDeltaConfig().drop) [[unlikely]]
    return BumpDrawVersionSlow(object, entry);
  ++object.draw_version;
}

// Why a cache could not be reused (CALDERA_STATS names them).
enum class DrawDeltaMiss : uint8_t {
  kFirst,        // nothing cached yet
  kProgram,      // another program, or the program's sampler units / block bindings / link changed
  kTexture,      // a texture unit's binding or a bound texture changed
  kSampler,      // a sampler object binding or its parameters changed
  kBuffer,       // a buffer behind a texture buffer or a uniform block changed, or a binding's range
  kFramebuffer,  // the framebuffer or one of its attachments changed
  kDisabled,     // CALDERA_DRAW_DELTA=0
  kCount
};

// Why a draw could not take the epoch fast path.
enum class FastPathMiss : uint8_t {
  kFirst,         // no previous draw in this context
  kContextEpoch,  // a non-free entry ran in this context (or it was made current)
  kShareEpoch,    // a shared object changed, through any context of the share group
  kDisabled,      // CALDERA_DRAW_DELTA=0
  kCount
};

struct DrawDeltaStats {
  uint64_t fast_hits = 0;  // draws that skipped every context-global step
  uint64_t fast_misses[size_t(FastPathMiss::kCount)] = {};
  uint64_t draws = 0;  // draws that resolved state (numbering for verify-mode reports)
  uint64_t fixed_state_records = 0;  // draws that re-sent the fixed state (something in it changed)
  uint64_t vertex_input_records = 0;  // draws that re-sent the vertex input (VAO, attribute or buffer)
  uint64_t converted_vertex_arrays = 0;  // arrays converted to floats for a draw (client_arrays.h)
  uint64_t texture_hits = 0, uniform_buffer_hits = 0, framebuffer_status_hits = 0;
  uint64_t texture_misses[size_t(DrawDeltaMiss::kCount)] = {};
  uint64_t uniform_buffer_misses[size_t(DrawDeltaMiss::kCount)] = {};
  uint64_t framebuffer_status_misses[size_t(DrawDeltaMiss::kCount)] = {};
  uint64_t verify_checks = 0;
};

// One source a resolved texture binding came from.
struct TextureSource {
  int32_t unit = -1;   // the sampler uniform's value when resolved
  uint8_t target = 0;  // TextureTargetIndex of the sampler's target
  uint64_t texture_id = 0, texture_version = 0;
  uint64_t sampler_id = 0, sampler_version = 0;
  uint64_t buffer_id = 0, buffer_version = 0;  // buffer textures: the buffer behind them
};

// One source a resolved uniform-buffer binding came from.
struct UniformBufferSource {
  uint32_t point = 0;
  uint64_t buffer_id = 0, buffer_version = 0;
  int64_t offset = 0, size = 0;
};

// The last resolution of each set, for the program it was made for.
struct ResolvedResourceCache {
  bool textures_valid = false, uniform_buffers_valid = false;
  // The set was resolved or checked at the last draw. The fast path (no epoch moved since the last draw) may
  // trust the cache only then: a draw in between whose program has no samplers (or no blocks) leaves the
  // cache as it was while the epochs move on, so bindings changed before that draw would be missed.
  bool textures_current = false, uniform_buffers_current = false;
  uint64_t texture_program_id = 0, texture_program_version = 0;
  uint64_t block_program_id = 0, block_program_version = 0;
  uint32_t texture_source_count = 0, block_source_count = 0;
  TextureSource textures[pipe::kMaxSamplers];
  UniformBufferSource blocks[pipe::kMaxUniformBlocks];
};

// Verify mode found a cached answer that a full resolution contradicts: logs and aborts.
[[noreturn]] void DrawDeltaVerifyFailed(uint64_t draw, const char* what, const char* field);
// The name of the field of a CmdSetTextures / CmdSetUniformBuffers at byte `offset` (verify reports).
const char* TextureRecordField(size_t offset, int* index);
const char* UniformBufferRecordField(size_t offset, int* index);
// Appends the context's counters to CALDERA_STATS.
void WriteDrawDeltaStats(const DrawDeltaStats& stats);

}  // namespace caldera
