// Switches, counters and verify-mode reports of the draw-delta caches (draw_delta.h).
#include "frontend/draw_delta.h"

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "util/log.h"

namespace caldera {

const DrawDeltaConfig& GetDrawDeltaConfig() {
  static const DrawDeltaConfig config = [] {
    DrawDeltaConfig c;
    c.enabled = util::EnvFlag("CALDERA_DRAW_DELTA", true);
    c.verify = util::EnvFlag("CALDERA_PIPE_VERIFY", false);
    const char* drop = util::Env("CALDERA_DRAW_DELTA_DROP");
    c.drop = drop && *drop ? drop : nullptr;
    if (c.drop)
      util::LogOnce(
          util::LogLevel::kWarning, "CALDERA_DRAW_DELTA_DROP",
          std::string("test-only: ") + c.drop + " no longer bumps draw versions (draws may be wrong)");
    return c;
  }();
  return config;
}

void BumpDrawVersionSlow(GLObject& object, const char* entry) {
  if (entry && std::strcmp(entry, GetDrawDeltaConfig().drop) == 0) return;
  ++object.draw_version;
}

[[noreturn]] void DrawDeltaVerifyFailed(uint64_t draw, const char* what, const char* field) {
  std::fprintf(stderr,
               "caldera error: CALDERA_PIPE_VERIFY: draw %llu: %s differs from a full resolution "
               "(first differing field: %s)\n",
               (unsigned long long)draw, what, field);
  std::fflush(stderr);
  std::abort();
}

namespace {

// The field of one record element at `offset` inside it; the element tables are in declaration order.
struct FieldAt {
  size_t offset;
  const char* name;
};

const char* FindField(const FieldAt* fields, size_t count, size_t offset) {
  const char* name = fields[0].name;
  for (size_t i = 0; i < count && fields[i].offset <= offset; ++i) name = fields[i].name;
  return name;
}

}  // namespace

const char* TextureRecordField(size_t offset, int* index) {
  *index = -1;
  size_t start = offsetof(pipe::CmdSetTextures, textures);
  if (offset < start) return "count";
  *index = static_cast<int>((offset - start) / sizeof(pipe::TextureBinding));
  size_t in = (offset - start) % sizeof(pipe::TextureBinding);
  static const FieldAt kFields[] = {
      {offsetof(pipe::TextureBinding, image), "image"},
      {offsetof(pipe::TextureBinding, kind), "kind"},
      {offsetof(pipe::TextureBinding, sample_type), "sample_type"},
      {offsetof(pipe::TextureBinding, base_level), "base_level"},
      {offsetof(pipe::TextureBinding, max_level), "max_level"},
      {offsetof(pipe::TextureBinding, swizzle), "swizzle"},
      {offsetof(pipe::TextureBinding, sampler), "sampler"},
      {offsetof(pipe::TextureBinding, texel_buffer), "texel_buffer"},
  };
  return FindField(kFields, sizeof(kFields) / sizeof(kFields[0]), in);
}

const char* UniformBufferRecordField(size_t offset, int* index) {
  *index = -1;
  size_t start = offsetof(pipe::CmdSetUniformBuffers, blocks);
  if (offset < start) return "count";
  *index = static_cast<int>((offset - start) / sizeof(pipe::UniformBufferBinding));
  size_t in = (offset - start) % sizeof(pipe::UniformBufferBinding);
  static const FieldAt kFields[] = {
      {offsetof(pipe::UniformBufferBinding, buffer), "buffer"},
      {offsetof(pipe::UniformBufferBinding, offset), "offset"},
      {offsetof(pipe::UniformBufferBinding, size), "size"},
  };
  return FindField(kFields, sizeof(kFields) / sizeof(kFields[0]), in);
}

namespace {

const char* const kMissNames[] = {"first",  "program",     "texture", "sampler",
                                  "buffer", "framebuffer", "disabled"};
static_assert(sizeof(kMissNames) / sizeof(kMissNames[0]) == size_t(DrawDeltaMiss::kCount));

void WriteMisses(FILE* f, const char* prefix, const uint64_t* misses) {
  for (size_t i = 0; i < size_t(DrawDeltaMiss::kCount); ++i)
    std::fprintf(f, ", \"%s_miss_%s\": %llu", prefix, kMissNames[i], (unsigned long long)misses[i]);
}

}  // namespace

void WriteDrawDeltaStats(const DrawDeltaStats& s) {
  if (s.draws == 0) return;
  const char* path = util::Env("CALDERA_STATS");
  if (!path) return;
  FILE* f = std::fopen(path, "a");
  if (!f) return;
  const DrawDeltaConfig& c = GetDrawDeltaConfig();
  std::fprintf(f,
               "{\"frontend\": \"draw_delta\", \"enabled\": %d, \"verify\": %d, \"draws\": %llu, "
               "\"verify_checks\": %llu, \"texture_hits\": %llu",
               c.enabled ? 1 : 0, c.verify ? 1 : 0, (unsigned long long)s.draws,
               (unsigned long long)s.verify_checks, (unsigned long long)s.texture_hits);
  WriteMisses(f, "texture", s.texture_misses);
  std::fprintf(f, ", \"uniform_buffer_hits\": %llu", (unsigned long long)s.uniform_buffer_hits);
  WriteMisses(f, "uniform_buffer", s.uniform_buffer_misses);
  std::fprintf(f, ", \"framebuffer_status_hits\": %llu", (unsigned long long)s.framebuffer_status_hits);
  WriteMisses(f, "framebuffer_status", s.framebuffer_status_misses);
  static const char* const kFastMissNames[] = {"first", "context_epoch", "share_epoch", "disabled"};
  static_assert(sizeof(kFastMissNames) / sizeof(kFastMissNames[0]) == size_t(FastPathMiss::kCount));
  std::fprintf(f, ", \"fast_path_hits\": %llu", (unsigned long long)s.fast_hits);
  std::fprintf(f, ", \"fixed_state_records\": %llu", (unsigned long long)s.fixed_state_records);
  std::fprintf(f, ", \"vertex_input_records\": %llu", (unsigned long long)s.vertex_input_records);
  std::fprintf(f, ", \"converted_vertex_arrays\": %llu", (unsigned long long)s.converted_vertex_arrays);
  for (size_t i = 0; i < size_t(FastPathMiss::kCount); ++i)
    std::fprintf(f, ", \"fast_path_miss_%s\": %llu", kFastMissNames[i], (unsigned long long)s.fast_misses[i]);
  std::fprintf(f, "}\n");
  std::fclose(f);
}

}  // namespace caldera
