// Program binaries (shader/program_binary.h): a linked program written and read back is the same program
// (re-written byte for byte), and every damaged form is refused without a crash: each truncation, each
// flipped byte (the checksum), and flipped payload bytes with the checksum recomputed (the reader's bounds
// and the consistency checks). Runs under the sanitizers in CI.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "shader/compiler.h"
#include "shader/program_binary.h"

using namespace caldera::shader;

namespace {

const std::vector<uint8_t> kBuild = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20};

LinkedProgram LinkSample() {
  LinkInput in;
  in.stages.push_back({Stage::kVertex, R"(#version 330 core
in vec2 pos;
in vec4 colour;
out vec4 v_colour;
uniform mat4 transform;
void main() { v_colour = colour; gl_Position = transform * vec4(pos, 0.0, 1.0); })"});
  in.stages.push_back({Stage::kFragment, R"(#version 330 core
uniform vec4 tint = vec4(0.5);
uniform float weights[3];
uniform sampler2D tex[2];
layout(std140) uniform Light { vec4 direction; mat3 basis; } light;
in vec4 v_colour;
out vec4 frag;
void main() {
  frag = texture(tex[0], v_colour.xy) * tint + texture(tex[1], v_colour.zw) * weights[2] + light.direction;
})"});
  in.attrib_bindings["colour"] = 5;
  in.xfb_varyings = {"v_colour"};
  LinkedProgram p = LinkProgram(in);
  REQUIRE_MESSAGE(p.ok, p.info_log);
  return p;
}

}  // namespace

TEST_CASE("program binary: written and read back is the same program") {
  const LinkedProgram p = LinkSample();
  const ProgramBinaryKind core{false, false};
  const std::vector<uint8_t> bytes = SaveProgramBinary(p, core, {true}, kBuild);
  LoadedProgramBinary loaded = LoadProgramBinary(bytes.data(), bytes.size(), core, kBuild);
  REQUIRE_MESSAGE(loaded.ok, loaded.error);
  CHECK(SaveProgramBinary(loaded.program, core, loaded.extras, kBuild) == bytes);
  CHECK(loaded.program.spirv[0] == p.spirv[0]);
  CHECK(loaded.program.uniforms.size() == p.uniforms.size());
  CHECK(loaded.program.xfb_varyings.size() == 1);
  CHECK(loaded.extras.has_fragment);
  const std::vector<uint8_t> no_fragment = SaveProgramBinary(p, core, {false}, kBuild);
  CHECK_FALSE(LoadProgramBinary(no_fragment.data(), no_fragment.size(), core, kBuild).extras.has_fragment);
}

TEST_CASE("program binary: another build or context kind is refused") {
  const LinkedProgram p = LinkSample();
  const std::vector<uint8_t> bytes = SaveProgramBinary(p, {false, false}, {true}, kBuild);
  std::vector<uint8_t> other_build = kBuild;
  other_build.back() ^= 1;
  LoadedProgramBinary r = LoadProgramBinary(bytes.data(), bytes.size(), {false, false}, other_build);
  CHECK_FALSE(r.ok);
  CHECK(r.error.find("another build") != std::string::npos);
  other_build.push_back(0);  // an identity of another length
  CHECK_FALSE(LoadProgramBinary(bytes.data(), bytes.size(), {false, false}, other_build).ok);
  CHECK_FALSE(LoadProgramBinary(bytes.data(), bytes.size(), {false, false}, {}).ok);
  r = LoadProgramBinary(bytes.data(), bytes.size(), {true, false}, kBuild);
  CHECK_FALSE(r.ok);
  CHECK(r.error.find("core-profile") != std::string::npos);
  CHECK_FALSE(LoadProgramBinary(bytes.data(), bytes.size(), {false, true}, kBuild).ok);
  CHECK_FALSE(LoadProgramBinary(nullptr, 0, {false, false}, kBuild).ok);
}

TEST_CASE("program binary: every truncation and every flipped byte is refused") {
  const std::vector<uint8_t> bytes = SaveProgramBinary(LinkSample(), {false, false}, {true}, kBuild);
  for (size_t n = 0; n < bytes.size(); ++n)
    CHECK_FALSE(LoadProgramBinary(bytes.data(), n, {false, false}, kBuild).ok);
  int refused = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::vector<uint8_t> damaged = bytes;
    damaged[i] ^= 0x10;
    refused += LoadProgramBinary(damaged.data(), damaged.size(), {false, false}, kBuild).ok ? 0 : 1;
  }
  CHECK(size_t(refused) == bytes.size());
}

TEST_CASE("program binary: resealed payload damage is read safely") {
  const std::vector<uint8_t> bytes = SaveProgramBinary(LinkSample(), {false, false}, {true}, kBuild);
  // Every byte, in several ways: counts and lengths made huge or zero, names changed, offsets moved. A load
  // may succeed only where the change is harmless (a name's letter); the checks must hold either way.
  int loaded = 0, refused = 0;
  for (size_t i = 0; i < bytes.size(); ++i)
    for (uint8_t mask : {uint8_t(0x01), uint8_t(0x80), uint8_t(0xff)}) {
      std::vector<uint8_t> damaged = bytes;
      damaged[i] ^= mask;
      if (!ResealProgramBinaryForTest(damaged)) continue;
      LoadedProgramBinary r = LoadProgramBinary(damaged.data(), damaged.size(), {false, false}, kBuild);
      if (!r.ok) {
        ++refused;
        continue;
      }
      ++loaded;
      for (const Uniform& u : r.program.uniforms)
        CHECK(u.sampler_index < int32_t(r.program.sampler_count) + 1);
      CHECK(r.program.default_block_init.size() == r.program.default_block_size);
    }
  MESSAGE("resealed damage: ", loaded, " loaded, ", refused, " refused");
  CHECK(refused > 0);
}
