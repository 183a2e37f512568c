// vk::PipelineKey: compared with memcmp and hashed byte by byte, so every byte must be a field (no padding
// whose value is left to chance) and every field must reach equality and the hash.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <set>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "backend/vulkan/vk_pipelines.h"

using caldera::vk::PipelineKey;
using caldera::vk::PipelineKeyHash;
constexpr int kColors = caldera::pipe::kMaxColorAttachments;
constexpr int kAttribs = caldera::pipe::kMaxVertexAttribs;

// The key's bytes are all value bytes: no compiler-inserted padding (which memcmp would read as garbage).
static_assert(std::has_unique_object_representations_v<PipelineKey>);
static_assert(std::is_trivially_copyable_v<PipelineKey>);

namespace {

// The sum of the declared fields, written out independently of the struct layout.
constexpr size_t kBlendBytes = 8 * sizeof(uint8_t);
constexpr size_t kAttribBytes = sizeof(uint16_t) + 2 * sizeof(uint8_t) + 2 * sizeof(uint32_t);
constexpr size_t kFieldBytes = 2 * sizeof(uint32_t)          // program slot, generation
                               + kColors * sizeof(uint16_t)  // color formats
                               + sizeof(uint16_t)            // depth format
                               + 9 * sizeof(uint8_t)         // samples .. point_flags
                               + sizeof(uint32_t)            // point size bits
                               + 2 * sizeof(uint16_t)        // line stipple factor, pattern
                               + sizeof(uint32_t)            // sample mask
                               + kColors * kBlendBytes       // blend
                               + sizeof(uint32_t)            // attrib mask
                               + kAttribs * kAttribBytes;    // attribs

PipelineKey SampleKey() {
  PipelineKey k;
  k.program_slot = 7;
  k.program_generation = 3;
  k.color_formats[0] = 37;  // VK_FORMAT_R8G8B8A8_UNORM
  k.depth_format = 129;     // VK_FORMAT_D24_UNORM_S8_UINT
  k.samples = 1;
  k.topology = 3;
  k.blend[0] = {1, 6, 7, 1, 0, 0, 0, 0xF};
  k.attrib_mask = 0x3;
  k.attribs[0] = {106, 0, 0, 0, 0};
  k.attribs[1] = {103, 1, 0, 1, 12};
  return k;
}

struct Mutation {
  std::string field;
  std::function<void(PipelineKey&)> apply;
};

std::vector<Mutation> SingleFieldMutations() {
  std::vector<Mutation> m = {
      {"program_slot", [](PipelineKey& k) { k.program_slot++; }},
      {"program_generation", [](PipelineKey& k) { k.program_generation++; }},
      {"depth_format", [](PipelineKey& k) { k.depth_format = 126; }},
      {"samples", [](PipelineKey& k) { k.samples = 4; }},
      {"topology", [](PipelineKey& k) { k.topology = 4; }},
      {"polygon_mode", [](PipelineKey& k) { k.polygon_mode = 1; }},
      {"depth_clamp", [](PipelineKey& k) { k.depth_clamp = 1; }},
      {"provoking_last", [](PipelineKey& k) { k.provoking_last = 1; }},
      {"alpha_to_coverage", [](PipelineKey& k) { k.alpha_to_coverage = 1; }},
      {"logic_op", [](PipelineKey& k) { k.logic_op = 7; }},
      {"centre_samples", [](PipelineKey& k) { k.centre_samples = 1; }},
      {"point_flags", [](PipelineKey& k) { k.point_flags = PipelineKey::kPointFlipCoord; }},
      {"point_size_bits", [](PipelineKey& k) { k.point_size_bits = 0x40000000u; }},
      {"line_stipple_factor", [](PipelineKey& k) { k.line_stipple_factor = 3; }},
      {"line_stipple_pattern", [](PipelineKey& k) { k.line_stipple_pattern = 0x5555; }},
      {"sample_mask", [](PipelineKey& k) { k.sample_mask = 0x5; }},
      {"attrib_mask", [](PipelineKey& k) { k.attrib_mask |= 0x8000; }},
  };
  for (int i = 0; i < kColors; ++i) {
    const std::string at = "[" + std::to_string(i) + "]";
    m.push_back({"color_formats" + at, [i](PipelineKey& k) { k.color_formats[i] ^= 0x40; }});
    m.push_back({"blend" + at + ".enable", [i](PipelineKey& k) { k.blend[i].enable ^= 1; }});
    m.push_back({"blend" + at + ".src_rgb", [i](PipelineKey& k) { k.blend[i].src_rgb ^= 2; }});
    m.push_back({"blend" + at + ".dst_rgb", [i](PipelineKey& k) { k.blend[i].dst_rgb ^= 2; }});
    m.push_back({"blend" + at + ".src_alpha", [i](PipelineKey& k) { k.blend[i].src_alpha ^= 2; }});
    m.push_back({"blend" + at + ".dst_alpha", [i](PipelineKey& k) { k.blend[i].dst_alpha ^= 2; }});
    m.push_back({"blend" + at + ".op_rgb", [i](PipelineKey& k) { k.blend[i].op_rgb ^= 1; }});
    m.push_back({"blend" + at + ".op_alpha", [i](PipelineKey& k) { k.blend[i].op_alpha ^= 1; }});
    m.push_back({"blend" + at + ".mask", [i](PipelineKey& k) { k.blend[i].mask ^= 4; }});
  }
  for (int i = 0; i < kAttribs; ++i) {
    const std::string at = "[" + std::to_string(i) + "]";
    m.push_back({"attribs" + at + ".format", [i](PipelineKey& k) { k.attribs[i].format ^= 0x10; }});
    m.push_back({"attribs" + at + ".per_instance", [i](PipelineKey& k) { k.attribs[i].per_instance ^= 1; }});
    m.push_back({"attribs" + at + ".divisor", [i](PipelineKey& k) { k.attribs[i].divisor += 1u << 20; }});
    m.push_back({"attribs" + at + ".offset", [i](PipelineKey& k) { k.attribs[i].offset += 4; }});
  }
  return m;
}

}  // namespace

TEST_CASE("PipelineKey is packed: its size is the sum of its fields") {
  CHECK(sizeof(PipelineKey) == kFieldBytes);
  CHECK(sizeof(PipelineKey::Blend) == kBlendBytes);
  CHECK(sizeof(PipelineKey::Attrib) == kAttribBytes);
}

TEST_CASE("equal keys compare and hash equal") {
  PipelineKeyHash hash;
  PipelineKey a = SampleKey(), b = SampleKey();
  CHECK(a == b);
  CHECK(hash(a) == hash(b));
  PipelineKey c, d;  // default-constructed keys: every byte initialised
  CHECK(c == d);
  CHECK(hash(c) == hash(d));
  CHECK_FALSE(a == c);
  // A copy made through memcpy (how the backend might stash one) is the same key.
  PipelineKey e;
  std::memcpy(static_cast<void*>(&e), &a, sizeof(a));
  CHECK(e == a);
  CHECK(hash(e) == hash(a));
}

TEST_CASE("any single-field change breaks equality and changes the hash") {
  PipelineKeyHash hash;
  const PipelineKey base = SampleKey();
  const size_t base_hash = hash(base);
  std::set<size_t> hashes = {base_hash};
  auto mutations = SingleFieldMutations();
  int same_hash = 0;
  for (size_t i = 0; i < mutations.size(); ++i) {
    INFO(mutations[i].field);
    PipelineKey k = base;
    mutations[i].apply(k);
    CHECK_FALSE(k == base);
    if (hash(k) == base_hash) ++same_hash;
    hashes.insert(hash(k));
  }
  // FNV-1a can never map a one-byte difference to the same 64-bit value; any sound hash collides in
  // these ~250 variants with negligible probability, so a collision here means bytes are being skipped.
  CHECK(same_hash == 0);
  CHECK(hashes.size() == mutations.size() + 1);
}

TEST_CASE("every byte of the key reaches equality and the hash") {
  // Byte-wise sweep: catches a field the named mutations above forgot, should the struct grow.
  PipelineKeyHash hash;
  const PipelineKey base = SampleKey();
  const size_t base_hash = hash(base);
  int missed_eq = 0, missed_hash = 0;
  for (size_t i = 0; i < sizeof(PipelineKey); ++i) {
    PipelineKey k = base;
    reinterpret_cast<uint8_t*>(&k)[i] ^= 0x01;
    if (k == base) ++missed_eq;
    if (hash(k) == base_hash) ++missed_hash;
  }
  CHECK(missed_eq == 0);
  CHECK(missed_hash == 0);
}

TEST_CASE("PipelineKey works as an unordered_map key") {
  std::unordered_map<PipelineKey, int, PipelineKeyHash> map;
  PipelineKey a = SampleKey(), b = SampleKey();
  b.topology = 5;
  map[a] = 1;
  map[b] = 2;
  CHECK(map.size() == 2);
  CHECK(map.at(SampleKey()) == 1);
  map[SampleKey()] = 3;  // same key: overwrite, not insert
  CHECK(map.size() == 2);
  CHECK(map.at(a) == 3);
}
