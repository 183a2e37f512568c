#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "shader/compiler.h"

using namespace caldera::shader;

namespace {

// Minimal independent SPIR-V scanner, so the tests check the words rather than trusting the patcher.
struct SpvFacts {
  std::map<uint32_t, std::string> names;                        // id -> OpName
  std::map<uint32_t, std::map<uint32_t, uint32_t>> decos;       // id -> decoration -> literal
  std::map<std::string, std::vector<uint32_t>> member_offsets;  // struct name -> Offset per member
  std::map<uint32_t, uint32_t> var_storage;                     // variable id -> storage class

  uint32_t Id(const std::string& name) const {
    for (const auto& [id, n] : names) {
      if (n == name) return id;
    }
    return 0;
  }
  int Deco(const std::string& name, uint32_t deco) const {
    const uint32_t id = Id(name);
    auto it = decos.find(id);
    if (it == decos.end()) return -1;
    auto d = it->second.find(deco);
    return d == it->second.end() ? -1 : static_cast<int>(d->second);
  }
};

constexpr uint32_t kLocation = 30, kIndex = 32, kBinding = 33, kSet = 34, kOffset = 35;

std::string Str(const std::vector<uint32_t>& w, size_t at) {
  std::string s;
  for (size_t i = at; i < w.size(); ++i) {
    for (int b = 0; b < 4; ++b) {
      const char c = static_cast<char>((w[i] >> (8 * b)) & 0xff);
      if (!c) return s;
      s += c;
    }
  }
  return s;
}

SpvFacts Scan(const std::vector<uint32_t>& w) {
  SpvFacts f;
  REQUIRE(w.size() > 5);
  REQUIRE(w[0] == 0x07230203u);
  std::map<uint32_t, std::map<uint32_t, uint32_t>> member_off;
  for (size_t p = 5; p < w.size();) {
    const uint32_t n = w[p] >> 16, op = w[p] & 0xffff;
    REQUIRE(n > 0);
    if (op == 5) f.names[w[p + 1]] = Str(w, p + 2);
    if (op == 71 && n >= 3) f.decos[w[p + 1]][w[p + 2]] = n >= 4 ? w[p + 3] : 0;
    if (op == 72 && n == 5 && w[p + 3] == kOffset) member_off[w[p + 1]][w[p + 2]] = w[p + 4];
    if (op == 59) f.var_storage[w[p + 2]] = w[p + 3];
    p += n;
  }
  for (const auto& [id, m] : member_off) {
    std::vector<uint32_t> v;
    for (const auto& [i, o] : m) v.push_back(o);
    f.member_offsets[f.names[id]] = v;
  }
  return f;
}

LinkedProgram Link(const std::string& vs, const std::string& fs, bool es = false,
                   std::map<std::string, int32_t> attribs = {}) {
  LinkInput in;
  in.stages.push_back({Stage::kVertex, vs});
  in.stages.push_back({Stage::kFragment, fs});
  in.options.es = es;
  in.attrib_bindings = std::move(attribs);
  LinkedProgram p = LinkProgram(in);
  if (!p.ok) MESSAGE(p.info_log);
  return p;
}

const Uniform* FindUniform(const LinkedProgram& p, const std::string& name) {
  for (const Uniform& u : p.uniforms) {
    if (u.name == name) return &u;
  }
  return nullptr;
}

const Attribute* FindAttrib(const LinkedProgram& p, const std::string& name) {
  for (const Attribute& a : p.attributes) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

float FloatAt(const std::vector<uint8_t>& b, int32_t off) {
  float f = 0;
  REQUIRE(off >= 0);
  REQUIRE(static_cast<size_t>(off) + 4 <= b.size());
  std::memcpy(&f, b.data() + off, 4);
  return f;
}

const char* kVs330 = R"(#version 330
layout(location = 0) in vec4 pos;
uniform vec4 shared_color;
uniform float vs_only;
out vec4 v_color;
void main() { v_color = shared_color * vs_only; gl_Position = pos; }
)";

const char* kFs330 = R"(#version 330
in vec4 v_color;
uniform vec4 shared_color;
uniform vec3 fs_vec;
out vec4 color;
void main() { color = v_color + shared_color + vec4(fs_vec, 1.0); }
)";

}  // namespace

TEST_CASE("broken shader fails with a log") {
  CompileResult r =
      CompileShader(Stage::kFragment, "#version 330\nvoid main() { undefined_thing = 1; }\n", {});
  CHECK_FALSE(r.ok);
  CHECK_FALSE(r.info_log.empty());
  CHECK(r.info_log.find("ERROR") != std::string::npos);

  CompileResult good = CompileShader(Stage::kVertex, kVs330, {});
  CHECK(good.ok);

  LinkProgram({});  // no stages: must not crash
  LinkedProgram p = Link(kVs330, "#version 330\nout vec4 c;\nvoid main() { c = nope; }\n");
  CHECK_FALSE(p.ok);
  CHECK_FALSE(p.info_log.empty());
}

TEST_CASE("VS+FS link and share one default block") {
  LinkedProgram p = Link(kVs330, kFs330);
  REQUIRE(p.ok);
  CHECK_FALSE(p.spirv[0].empty());
  CHECK_FALSE(p.spirv[1].empty());
  CHECK(p.spirv[2].empty());

  int shared_count = 0;
  for (const Uniform& u : p.uniforms) shared_count += u.name == "shared_color";
  CHECK(shared_count == 1);
  const Uniform* shared = FindUniform(p, "shared_color");
  REQUIRE(shared);
  CHECK(shared->gl_type == 0x8B52u);  // GL_FLOAT_VEC4
  CHECK(shared->stages == 3u);
  REQUIRE(FindUniform(p, "vs_only"));
  CHECK(FindUniform(p, "vs_only")->stages == 1u);
  REQUIRE(FindUniform(p, "fs_vec"));
  CHECK(FindUniform(p, "fs_vec")->stages == 2u);
  CHECK(shared->offset >= 0);
  CHECK(p.default_block_size >= 16u);
  CHECK(p.default_block_init.size() == p.default_block_size);

  // Both stages carry the whole merged block with identical offsets at set 0 binding 0.
  SpvFacts vs = Scan(p.spirv[0]), fs = Scan(p.spirv[1]);
  REQUIRE(vs.member_offsets.count("gl_DefaultUniformBlock"));
  REQUIRE(fs.member_offsets.count("gl_DefaultUniformBlock"));
  CHECK(vs.member_offsets["gl_DefaultUniformBlock"] == fs.member_offsets["gl_DefaultUniformBlock"]);
  CHECK(vs.member_offsets["gl_DefaultUniformBlock"].size() == 3u);
  for (SpvFacts* f : {&vs, &fs}) {
    uint32_t block_var = 0;
    for (const auto& [id, sc] : f->var_storage) {
      if (sc == 2) block_var = id;  // Uniform storage
    }
    REQUIRE(block_var != 0);
    CHECK(f->decos[block_var][kSet] == kDefaultBlockSet);
    CHECK(f->decos[block_var][kBinding] == kDefaultBlockBinding);
  }
  // Varyings matched by name: v_color out of VS and in to FS share a location.
  CHECK(vs.Deco("v_color", kLocation) == fs.Deco("v_color", kLocation));
  CHECK(vs.Deco("v_color", kLocation) >= 0);
  // The single unlocated fragment output lands at 0.
  REQUIRE(p.frag_outputs.size() == 1u);
  CHECK(p.frag_outputs[0].name == "color");
  CHECK(p.frag_outputs[0].location == 0);
  CHECK(fs.Deco("color", kLocation) == 0);
}

TEST_CASE("std140 packing, matrices and arrays") {
  LinkedProgram p = Link(R"(#version 330
in vec4 pos;
uniform vec3 a;
uniform float b;
uniform mat4 m;
uniform vec4 arr[3];
uniform float farr[2];
void main() { gl_Position = m * pos + vec4(a, b) + arr[2] + vec4(farr[1]); }
)",
                         "#version 330\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n");
  REQUIRE(p.ok);
  const Uniform* a = FindUniform(p, "a");
  const Uniform* b = FindUniform(p, "b");
  const Uniform* m = FindUniform(p, "m");
  const Uniform* arr = FindUniform(p, "arr[0]");
  const Uniform* farr = FindUniform(p, "farr[0]");
  REQUIRE(a);
  REQUIRE(b);
  REQUIRE(m);
  REQUIRE(arr);
  REQUIRE(farr);
  CHECK(b->offset == a->offset + 12);  // a float packs into a vec3's last 4 bytes
  CHECK(m->offset % 16 == 0);
  CHECK(m->matrix_stride == 16);
  CHECK(m->gl_type == 0x8B5Cu);  // GL_FLOAT_MAT4
  CHECK(arr->array_size == 3);
  CHECK(arr->array_stride == 16);
  CHECK(farr->array_size == 2);
  CHECK(farr->array_stride == 16);  // std140 rounds scalar array strides up to vec4
  CHECK(p.default_block_size >= static_cast<uint32_t>(farr->offset + 16 + 4));
}

TEST_CASE("samplers land in set 2 at their sampler index") {
  LinkedProgram p =
      Link("#version 330\nin vec4 pos;\nout vec2 uv;\nvoid main() { uv = pos.xy; gl_Position = pos; }\n",
           R"(#version 330
in vec2 uv;
uniform sampler2D t0;
uniform samplerCube tc[2];
uniform vec4 tint;
out vec4 c;
void main() { c = texture(t0, uv) + texture(tc[1], vec3(uv, 1.0)) * tint; }
)");
  REQUIRE(p.ok);
  const Uniform* t0 = FindUniform(p, "t0");
  const Uniform* tc = FindUniform(p, "tc[0]");
  REQUIRE(t0);
  REQUIRE(tc);
  CHECK(t0->gl_type == 0x8B5Eu);  // GL_SAMPLER_2D
  CHECK(tc->gl_type == 0x8B60u);  // GL_SAMPLER_CUBE
  CHECK(tc->array_size == 2);
  CHECK(t0->offset == -1);
  CHECK(t0->sampler_index >= 0);
  CHECK(tc->sampler_index >= 0);
  CHECK(t0->sampler_index != tc->sampler_index);
  CHECK(p.sampler_count == 3u);
  SpvFacts fs = Scan(p.spirv[1]);
  CHECK(fs.Deco("t0", kSet) == static_cast<int>(kSamplerSet));
  CHECK(fs.Deco("t0", kBinding) == t0->sampler_index);
  CHECK(fs.Deco("tc", kSet) == static_cast<int>(kSamplerSet));
  CHECK(fs.Deco("tc", kBinding) == tc->sampler_index);
}

TEST_CASE("uniform blocks land in set 1 at their block index") {
  LinkedProgram p = Link(R"(#version 330
in vec4 pos;
layout(std140) uniform Xform { mat4 mvp; vec4 extra; };
void main() { gl_Position = mvp * pos + extra; }
)",
                         R"(#version 330
uniform Colors { vec4 base; vec3 tint; float alpha; } colors;
uniform vec4 loose;
out vec4 c;
void main() { c = colors.base * vec4(colors.tint, colors.alpha) + loose; }
)");
  REQUIRE(p.ok);
  REQUIRE(p.uniform_blocks.size() == 2u);
  const UniformBlock* xf = nullptr;
  const UniformBlock* col = nullptr;
  for (const UniformBlock& b : p.uniform_blocks) {
    if (b.name == "Xform") xf = &b;
    if (b.name == "Colors") col = &b;
  }
  REQUIRE(xf);
  REQUIRE(col);
  CHECK(xf->data_size == 80u);
  CHECK(col->data_size == 32u);
  CHECK(xf->binding == static_cast<uint32_t>(xf - p.uniform_blocks.data()));
  CHECK(col->binding == static_cast<uint32_t>(col - p.uniform_blocks.data()));
  CHECK(xf->stages == 1u);
  CHECK(col->stages == 2u);
  CHECK(std::find(col->member_names.begin(), col->member_names.end(), "Colors.tint") !=
        col->member_names.end());
  // Block members are not loose uniforms.
  CHECK(FindUniform(p, "mvp") == nullptr);
  CHECK(FindUniform(p, "loose") != nullptr);

  SpvFacts vs = Scan(p.spirv[0]), fs = Scan(p.spirv[1]);
  auto check_block = [](SpvFacts& f, const std::string& type_name, uint32_t binding) {
    const uint32_t type_id = f.Id(type_name);
    REQUIRE(type_id != 0);
    bool found = false;
    for (const auto& [id, deco] : f.decos) {
      if (!deco.count(kSet) || f.var_storage.count(id) == 0) continue;
      // the variable whose name is not the block's default one
      if (deco.at(kSet) == kUniformBlockSet) {
        CHECK(deco.at(kBinding) == binding);
        found = true;
      }
    }
    CHECK(found);
  };
  check_block(vs, "Xform", xf->binding);
  check_block(fs, "Colors", col->binding);
  CHECK(fs.Deco("colors", kSet) == static_cast<int>(kUniformBlockSet));
}

TEST_CASE("attribute locations: explicit, bound, automatic") {
  const char* vs = R"(#version 330
layout(location = 3) in vec4 explicit_attr;
in vec2 bound_attr;
in vec3 auto_attr;
in mat2 auto_mat;
void main() { gl_Position = explicit_attr + vec4(bound_attr, 0.0, 0.0) + vec4(auto_attr, 0.0) + vec4(auto_mat[1], 0.0, 0.0) + vec4(float(gl_VertexID)); }
)";
  LinkedProgram p = Link(vs, "#version 330\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n", false,
                         {{"bound_attr", 5}, {"explicit_attr", 7}});
  REQUIRE(p.ok);
  CHECK(p.attributes.size() == 4u);  // gl_VertexID excluded
  CHECK(FindAttrib(p, "gl_VertexID") == nullptr);
  const Attribute* e = FindAttrib(p, "explicit_attr");
  const Attribute* b = FindAttrib(p, "bound_attr");
  const Attribute* a = FindAttrib(p, "auto_attr");
  const Attribute* m = FindAttrib(p, "auto_mat");
  REQUIRE(e);
  REQUIRE(b);
  REQUIRE(a);
  REQUIRE(m);
  CHECK(e->location == 3);  // layout wins over glBindAttribLocation
  CHECK(b->location == 5);
  CHECK(b->gl_type == 0x8B50u);  // GL_FLOAT_VEC2
  // Automatic ones avoid 3 and 5; the mat2 needs two consecutive free locations.
  for (const Attribute* x : {a, m}) {
    CHECK(x->location >= 0);
    CHECK(x->location != 3);
    CHECK(x->location != 5);
  }
  CHECK(m->location + 1 != 3);
  CHECK(m->location + 1 != 5);
  CHECK(a->location != m->location);
  CHECK(a->location != m->location + 1);
  SpvFacts f = Scan(p.spirv[0]);
  CHECK(f.Deco("explicit_attr", kLocation) == 3);
  CHECK(f.Deco("bound_attr", kLocation) == 5);
  CHECK(f.Deco("auto_attr", kLocation) == a->location);
  CHECK(f.Deco("auto_mat", kLocation) == m->location);
}

TEST_CASE("fragment outputs: explicit, bound, index") {
  LinkInput in;
  in.stages.push_back({Stage::kVertex, "#version 330\nin vec4 p;\nvoid main() { gl_Position = p; }\n"});
  in.stages.push_back({Stage::kFragment, R"(#version 330
layout(location = 2) out vec4 explicit_out;
out vec4 bound_out;
out vec4 auto_out;
void main() { explicit_out = vec4(1.0); bound_out = vec4(2.0); auto_out = vec4(3.0); }
)"});
  in.frag_data_bindings = {{"bound_out", 0}, {"explicit_out", 5}};
  LinkedProgram p = LinkProgram(in);
  REQUIRE(p.ok);
  std::map<std::string, int> locs;
  for (const FragOutput& o : p.frag_outputs) locs[o.name] = o.location;
  CHECK(locs.at("explicit_out") == 2);
  CHECK(locs.at("bound_out") == 0);
  CHECK(locs.at("auto_out") == 1);
  SpvFacts f = Scan(p.spirv[1]);
  CHECK(f.Deco("auto_out", kLocation) == 1);

  LinkInput dual;
  dual.stages.push_back({Stage::kVertex, "#version 330\nin vec4 p;\nvoid main() { gl_Position = p; }\n"});
  dual.stages.push_back(
      {Stage::kFragment,
       "#version 330\nout vec4 c0;\nout vec4 c1;\nvoid main() { c0 = vec4(1.0); c1 = vec4(0.5); }\n"});
  dual.frag_data_bindings = {{"c0", 0}, {"c1", 0}};
  dual.frag_data_indices = {{"c1", 1}};
  LinkedProgram d = LinkProgram(dual);
  REQUIRE(d.ok);
  SpvFacts df = Scan(d.spirv[1]);
  CHECK(df.Deco("c0", kLocation) == 0);
  CHECK(df.Deco("c1", kLocation) == 0);
  CHECK(df.Deco("c1", kIndex) == 1);
}

TEST_CASE("GLSL 1.10 with attribute/varying/gl_FragColor/texture2D") {
  LinkedProgram p = Link(R"(#version 110
attribute vec4 pos;
attribute vec2 tc;
varying vec2 v_tc;
uniform mat4 mvp;
void main() { v_tc = tc; gl_Position = mvp * pos; }
)",
                         R"(#version 110
varying vec2 v_tc;
uniform sampler2D tex;
uniform vec4 tint;
void main() { gl_FragColor = texture2D(tex, v_tc) * tint + texture2DProj(tex, vec3(v_tc, 1.0)); }
)",
                         false, {{"tc", 0}, {"pos", 1}});
  REQUIRE(p.ok);
  CHECK(FindAttrib(p, "pos")->location == 1);
  CHECK(FindAttrib(p, "tc")->location == 0);
  SpvFacts fs = Scan(p.spirv[1]);
  CHECK(fs.Deco("gl_FragColor", kLocation) == 0);
  REQUIRE(p.frag_outputs.size() == 1u);
  CHECK(p.frag_outputs[0].name == "gl_FragColor");
  CHECK(p.frag_outputs[0].location == 0);
  CHECK(fs.Deco("tex", kSet) == static_cast<int>(kSamplerSet));

  // No #version at all means 1.10; gl_FragData and shadow2D work too.
  LinkedProgram q =
      Link("attribute vec4 p;\nvoid main() { gl_Position = p; }\n",
           "uniform sampler2DShadow s;\nvoid main() { gl_FragData[0] = shadow2D(s, vec3(0.5)); }\n");
  CHECK(q.ok);
}

TEST_CASE("ESSL 1.00 and 3.00 with precision") {
  LinkedProgram p100 = Link(R"(attribute vec4 pos;
varying mediump vec2 v;
void main() { v = pos.xy; gl_Position = pos; }
)",
                            R"(precision mediump float;
varying vec2 v;
uniform sampler2D s;
void main() {
#ifdef GL_ES
  gl_FragColor = texture2D(s, v);
#else
  gl_FragColor = undefined_when_gl_es_is_lost;
#endif
}
)",
                            true);
  CHECK(p100.ok);

  LinkedProgram p300 = Link(R"(#version 300 es
in vec4 pos;
out mediump vec2 v;
uniform highp mat4 mvp;
void main() { v = pos.xy; gl_Position = mvp * pos; }
)",
                            R"(#version 300 es
precision mediump float;
in vec2 v;
uniform vec4 tint;
layout(location = 0) out vec4 color;
void main() { color = vec4(v, 0.0, 1.0) * tint + vec4(unpackHalf2x16(packHalf2x16(v)), 0.0, 0.0); }
)",
                            true);
  CHECK(p300.ok);
  CHECK(FindUniform(p300, "tint") != nullptr);

  // ES contexts reject desktop GLSL, and ES 1.00 rules (no implicit int->float) are enforced.
  CompileResult desk = CompileShader(Stage::kVertex, kVs330, SourceOptions{true});
  CHECK_FALSE(desk.ok);
  CompileResult strict = CompileShader(
      Stage::kFragment, "precision mediump float;\nvoid main() { float f = 1; gl_FragColor = vec4(f); }\n",
      SourceOptions{true});
  CHECK_FALSE(strict.ok);
}

TEST_CASE("uniform initialisers land in default_block_init") {
  LinkedProgram p = Link(R"(#version 330
in vec4 pos;
uniform float scale = 2.5;
uniform vec4 color = vec4(1.0, 0.0, 0.25, 1.0);
uniform mat2 m = mat2(1.0, 2.0, 3.0, 4.0);
uniform float arr[2] = float[2](7.0, 8.0);
uniform int count = 3;
uniform vec4 plain;
void main() { gl_Position = pos * scale + color + vec4(m[1], arr[1], float(count)) + plain; }
)",
                         "#version 330\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n");
  REQUIRE(p.ok);
  const std::vector<uint8_t>& b = p.default_block_init;
  REQUIRE(b.size() == p.default_block_size);
  CHECK(FloatAt(b, FindUniform(p, "scale")->offset) == 2.5f);
  const int32_t c = FindUniform(p, "color")->offset;
  CHECK(FloatAt(b, c + 0) == 1.0f);
  CHECK(FloatAt(b, c + 8) == 0.25f);
  const Uniform* m = FindUniform(p, "m");
  CHECK(FloatAt(b, m->offset + 4) == 2.0f);
  CHECK(FloatAt(b, m->offset + m->matrix_stride) == 3.0f);
  const Uniform* arr = FindUniform(p, "arr[0]");
  REQUIRE(arr);
  CHECK(FloatAt(b, arr->offset + arr->array_stride) == 8.0f);
  int32_t count = 0;
  std::memcpy(&count, b.data() + FindUniform(p, "count")->offset, 4);
  CHECK(count == 3);
  CHECK(FloatAt(b, FindUniform(p, "plain")->offset) == 0.0f);
}

TEST_CASE("geometry stage links") {
  LinkInput in;
  in.stages.push_back(
      {Stage::kVertex, "#version 330\nin vec4 p;\nout vec4 vc;\nvoid main() { vc = p; gl_Position = p; }\n"});
  in.stages.push_back({Stage::kGeometry, R"(#version 330
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in vec4 vc[];
out vec4 gc;
uniform float k;
void main() { for (int i = 0; i < 3; ++i) { gc = vc[i] * k; gl_Position = gl_in[i].gl_Position; EmitVertex(); } }
)"});
  in.stages.push_back(
      {Stage::kFragment,
       "#version 330\nin vec4 gc;\nuniform float k;\nout vec4 c;\nvoid main() { c = gc * k; }\n"});
  LinkedProgram p = LinkProgram(in);
  REQUIRE(p.ok);
  CHECK_FALSE(p.spirv[2].empty());
  CHECK(FindUniform(p, "k")->stages == 6u);
  SpvFacts vs = Scan(p.spirv[0]), gs = Scan(p.spirv[2]), fs = Scan(p.spirv[1]);
  CHECK(vs.Deco("vc", kLocation) == gs.Deco("vc", kLocation));
  CHECK(gs.Deco("gc", kLocation) == fs.Deco("gc", kLocation));
  CHECK(gs.member_offsets["gl_DefaultUniformBlock"] == fs.member_offsets["gl_DefaultUniformBlock"]);
}

TEST_CASE("layout(binding) is reported as the initial unit / block binding") {
  LinkedProgram p = Link(R"(#version 420
in vec4 p;
layout(binding = 3) uniform sampler2D t;
uniform sampler2D plain_t;
layout(std140, binding = 2) uniform B { vec4 x; };
void main() { gl_Position = p * texture(t, p.xy) + texture(plain_t, p.zw) + x; }
)",
                         "#version 420\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n");
  REQUIRE(p.ok);
  CHECK(FindUniform(p, "t")->layout_binding == 3);
  CHECK(FindUniform(p, "plain_t")->layout_binding == -1);
  REQUIRE(p.uniform_blocks.size() == 1u);
  CHECK(p.uniform_blocks[0].layout_binding == 2);
  CHECK(p.uniform_blocks[0].binding == 0u);  // the SPIR-V binding is still the block index
  SpvFacts f = Scan(p.spirv[0]);
  CHECK(f.Deco("t", kBinding) == FindUniform(p, "t")->sampler_index);
}

TEST_CASE("ESSL 3.10 and 3.20 geometry") {
  LinkInput in;
  in.options.es = true;
  in.stages.push_back({Stage::kVertex, R"(#version 320 es
layout(location = 1) in vec4 pos;
layout(location = 2) out vec4 vc;
void main() { vc = pos; gl_Position = pos; }
)"});
  in.stages.push_back({Stage::kGeometry, R"(#version 320 es
layout(points) in;
layout(points, max_vertices = 1) out;
layout(location = 2) in vec4 vc[];
layout(location = 3) out vec4 gc;
void main() { gc = vc[0]; gl_Position = gl_in[0].gl_Position; EmitVertex(); }
)"});
  in.stages.push_back({Stage::kFragment, R"(#version 320 es
precision mediump float;
layout(location = 3) in vec4 gc;
layout(binding = 1) uniform highp sampler2D s;
out vec4 c;
void main() { c = gc * texture(s, gc.xy); }
)"});
  LinkedProgram p = LinkProgram(in);
  REQUIRE(p.ok);
  CHECK(FindAttrib(p, "pos")->location == 1);
  CHECK(FindUniform(p, "s")->layout_binding == 1);

  LinkedProgram p310 = Link(R"(#version 310 es
in vec4 pos;
void main() { gl_Position = pos; }
)",
                            R"(#version 310 es
#extension GL_OES_sample_variables : enable
precision mediump float;
out vec4 c;
void main() { c = vec4(float(gl_SampleID)); }
)",
                            true);
  CHECK(p310.ok);
}

TEST_CASE("concurrent links from several threads") {
  std::vector<std::thread> threads;
  std::vector<int> ok(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t, &ok] {
      for (int i = 0; i < 5; ++i) {
        LinkInput in;
        in.stages.push_back({Stage::kVertex, kVs330});
        in.stages.push_back({Stage::kFragment, kFs330});
        const LinkedProgram p = LinkProgram(in);
        const CompileResult c =
            CompileShader(Stage::kFragment, "#version 110\nvoid main() { gl_FragColor = vec4(1); }\n", {});
        ok[static_cast<size_t>(t)] += p.ok && c.ok && !p.spirv[1].empty();
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (int v : ok) CHECK(v == 5);
}

TEST_CASE("unsupported constructs fail cleanly") {
  // A sampler inside a struct cannot be expressed in Vulkan SPIR-V by the relaxed rules; whatever happens
  // must be a clean result, and a failure must explain itself.
  LinkedProgram p = Link("#version 120\nattribute vec4 p;\nvoid main() { gl_Position = p; }\n",
                         "#version 120\nuniform struct { sampler2D t; vec4 c; } st;\n"
                         "void main() { gl_FragColor = texture2D(st.t, vec2(0.5)) * st.c; }\n");
  if (!p.ok) CHECK_FALSE(p.info_log.empty());
  // Mismatched varyings types are a GL link error.
  LinkedProgram q =
      Link("#version 330\nin vec4 p;\nout vec3 v;\nvoid main() { v = p.xyz; gl_Position = p; }\n",
           "#version 330\nin vec4 v;\nout vec4 c;\nvoid main() { c = v; }\n");
  CHECK_FALSE(q.ok);
  CHECK_FALSE(q.info_log.empty());
}

TEST_CASE("limits: too many attributes fail, gl_FragData fits the draw buffers") {
  std::string vs = "#version 330\n";
  std::string sum = "vec4(0.0)";
  for (int i = 0; i < kMaxVertexAttribs + 1; ++i) {
    vs += "in vec4 a" + std::to_string(i) + ";\n";
    sum += " + a" + std::to_string(i);
  }
  vs += "void main() { gl_Position = " + sum + "; }\n";
  LinkedProgram p = Link(vs, "#version 330\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n");
  CHECK_FALSE(p.ok);
  CHECK(p.info_log.find("attribute") != std::string::npos);

  LinkedProgram q =
      Link("#version 110\nattribute vec4 p;\nvoid main() { gl_Position = p; }\n",
           "#version 110\nvoid main() { gl_FragData[0] = vec4(1.0); gl_FragData[3] = vec4(0.5); }\n");
  REQUIRE(q.ok);
  REQUIRE(q.frag_outputs.size() == 1u);
  CHECK(q.frag_outputs[0].location == 0);
  CHECK(Scan(q.spirv[1]).Deco("gl_FragData", kLocation) == 0);
}

TEST_CASE("explicit uniform location is reported") {
  LinkedProgram p = Link(
      "#version 430\nin vec4 p;\nlayout(location = 7) uniform vec4 u;\nvoid main() { gl_Position = p + u; "
      "}\n",
      "#version 430\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n");
  REQUIRE(p.ok);
  CHECK(FindUniform(p, "u")->layout_location == 7);
  CHECK(FindUniform(p, "u")->offset >= 0);
}

TEST_CASE("samplerBuffer becomes a bare Dim Buffer image (a Vulkan uniform texel buffer)") {
  LinkedProgram p = Link(kVs330, R"(#version 330
uniform samplerBuffer tb;
uniform usamplerBuffer ub;
uniform sampler2D t2;
out vec4 c;
void main() {
  c = texelFetch(tb, 3) + vec4(texelFetch(ub, textureSize(tb))) + texture(t2, vec2(0.5));
}
)");
  REQUIRE(p.ok);
  const Uniform* tb = FindUniform(p, "tb");
  const Uniform* ub = FindUniform(p, "ub");
  REQUIRE(tb);
  REQUIRE(ub);
  CHECK(tb->gl_type == 0x8DC2u);  // GL_SAMPLER_BUFFER
  CHECK(ub->gl_type == 0x8DD8u);  // GL_UNSIGNED_INT_SAMPLER_BUFFER
  const std::vector<uint32_t>& w = p.spirv[1];
  SpvFacts fs = Scan(w);
  CHECK(fs.Deco("tb", kBinding) == tb->sampler_index);
  // Walk the types: no sampled image may wrap a Dim Buffer image, no OpImage may extract one, and the two
  // buffer variables must point straight at Dim Buffer images (the 2D sampler keeps its sampled image).
  constexpr uint32_t kOpTypeImage = 25, kOpTypeSampledImage = 27, kOpTypePointer = 32, kOpVariable = 59,
                     kOpImage = 100, kDimBuffer = 5;
  std::map<uint32_t, uint32_t> dim, pointee, var_type, result_type;
  std::vector<uint32_t> sampled_of;
  std::vector<uint32_t> extracted;
  for (size_t at = 5; at < w.size();) {
    const uint32_t n = w[at] >> 16, op = w[at] & 0xffff;
    REQUIRE(n > 0);
    if (op == kOpTypeImage) dim[w[at + 1]] = w[at + 3];
    if (op == kOpTypeSampledImage) sampled_of.push_back(w[at + 2]);
    if (op == kOpTypePointer) pointee[w[at + 1]] = w[at + 3];
    if (op == kOpVariable) var_type[w[at + 2]] = w[at + 1];
    if (op == kOpImage) extracted.push_back(w[at + 1]);
    at += n;
  }
  for (uint32_t image : sampled_of) CHECK(dim[image] != kDimBuffer);
  for (uint32_t type : extracted) CHECK(dim[type] != kDimBuffer);
  for (const char* name : {"tb", "ub"}) {
    const uint32_t image = pointee[var_type[fs.Id(name)]];
    CHECK(dim.count(image) == 1);
    CHECK(dim[image] == kDimBuffer);
  }
  CHECK(sampled_of.size() == 1);  // t2's
}

TEST_CASE("a last vertex stage that writes no gl_PointSize still writes a PointSize output") {
  // GLSL 1.10: glslang declares only used built-ins, so PointSize must be declared, listed in the entry
  // point's interface and stored (Vulkan's point pipelines need it: VUID-...-Vertex-07722).
  LinkedProgram p = Link("#version 110\nattribute vec4 pos;\nvoid main() { gl_Position = pos; }\n",
                         "#version 110\nvoid main() { gl_FragColor = vec4(1.0); }\n");
  REQUIRE(p.ok);
  const std::vector<uint32_t>& w = p.spirv[0];
  constexpr uint32_t kOpEntryPoint = 15, kOpDecorate = 71, kOpStore = 62, kBuiltIn = 11, kPointSize = 1;
  uint32_t point_size = 0;
  std::vector<uint32_t> interface, stored;
  for (size_t at = 5; at < w.size();) {
    const uint32_t n = w[at] >> 16, op = w[at] & 0xffff;
    REQUIRE(n > 0);
    if (op == kOpDecorate && n == 4 && w[at + 2] == kBuiltIn && w[at + 3] == kPointSize)
      point_size = w[at + 1];
    if (op == kOpEntryPoint) interface.assign(w.begin() + at + 3, w.begin() + at + n);  // name words too
    if (op == kOpStore) stored.push_back(w[at + 1]);
    at += n;
  }
  REQUIRE(point_size != 0);
  CHECK(std::count(interface.begin(), interface.end(), point_size) == 1);
  CHECK(std::count(stored.begin(), stored.end(), point_size) == 1);
}

TEST_CASE(
    "compatibility built-ins lower to fixed locations and named uniforms, in compatibility contexts only") {
  const std::string vs =
      "#version 120\nattribute vec4 extra;\nvarying vec4 v;\n"
      "void main() { gl_Position = ftransform(); gl_FrontColor = gl_Color + gl_LightSource[1].diffuse;\n"
      "  gl_TexCoord[0] = gl_TextureMatrix[0] * gl_MultiTexCoord0; v = extra * gl_NormalScale; }\n";
  const std::string fs =
      "#version 120\nvarying vec4 gl_TexCoord[2];\nvarying vec4 v;\n"
      "void main() { gl_FragColor = gl_Color * gl_TexCoord[1] + v + gl_Fog.color; }\n";
  LinkInput in;
  in.stages.push_back({Stage::kVertex, vs});
  in.stages.push_back({Stage::kFragment, fs});
  in.options.compat_builtins = true;
  LinkedProgram p = LinkProgram(in);
  if (!p.ok) MESSAGE(p.info_log);
  REQUIRE(p.ok);
  CHECK_FALSE(p.compat_builtins.empty());
  REQUIRE(FindAttrib(p, "gl_Vertex"));
  CHECK(FindAttrib(p, "gl_Vertex")->location == 0);
  REQUIRE(FindAttrib(p, "gl_Color"));
  CHECK(FindAttrib(p, "gl_Color")->location == 1);
  REQUIRE(FindAttrib(p, "gl_MultiTexCoord0"));
  CHECK(FindAttrib(p, "gl_MultiTexCoord0")->location == 4);
  // The program's own attribute stays clear of the fixed-function locations.
  REQUIRE(FindAttrib(p, "extra"));
  CHECK(FindAttrib(p, "extra")->location >= 6);
  CHECK(FindUniform(p, "gl_ModelViewProjectionMatrix"));
  CHECK(FindUniform(p, "gl_TextureMatrix[0]"));
  CHECK(FindUniform(p, "gl_LightSource[1].diffuse"));
  CHECK(FindUniform(p, "gl_Fog.color"));
  CHECK(FindUniform(p, "gl_NormalScale"));

  // Core contexts (no lowering): the built-ins stay undeclared for SPIR-V, as before.
  in.options.compat_builtins = false;
  CHECK_FALSE(LinkProgram(in).ok);
  // A GLSL 3.30 core program in a compatibility context is left alone.
  in.options.compat_builtins = true;
  in.stages[0].source = "#version 330 core\nin vec4 p;\nvoid main() { gl_Position = p; }\n";
  in.stages[1].source = "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
  LinkedProgram core = LinkProgram(in);
  REQUIRE(core.ok);
  CHECK(core.compat_builtins.empty());
}

namespace {

LinkedProgram LinkStages(const std::vector<std::pair<Stage, std::string>>& stages) {
  LinkInput in;
  for (const auto& [stage, source] : stages) in.stages.push_back({stage, source});
  return LinkProgram(in);
}

// Every location in [location, location + count) of a variable.
std::set<int> Span(const SpvFacts& f, const std::string& name, int count) {
  std::set<int> out;
  const int first = f.Deco(name, kLocation);
  for (int i = 0; i < count; ++i) out.insert(first + i);
  return out;
}

}  // namespace

TEST_CASE("varyings match by name whatever order and subset each stage declares") {
  // Multi-location varyings (matrix, array) and qualifiers in between; the fragment shader declares a subset
  // in another order, with one input no output names (declared, never read).
  const std::string vs = R"(#version 410 core
in vec4 pos;
out vec4 a;
out mat3 m;
flat out ivec2 n;
out float arr[3];
layout(location = 9) out vec4 fixed_loc;
noperspective out vec2 b;
centroid out vec4 c;
void main() { a = pos; m = mat3(1.0); n = ivec2(1); arr = float[3](1.0, 2.0, 3.0); fixed_loc = pos; b = pos.xy;
  c = pos; gl_Position = pos; }
)";
  const std::string fs = R"(#version 410 core
centroid in vec4 c;
in float arr[3];
flat in ivec2 n;
in vec4 unwritten_elsewhere;
layout(location = 9) in vec4 fixed_loc;
noperspective in vec2 b;
out vec4 color;
void main() { color = c + vec4(arr[2], float(n.y), b) + fixed_loc; }
)";
  LinkedProgram p = LinkStages({{Stage::kVertex, vs}, {Stage::kFragment, fs}});
  if (!p.ok) MESSAGE(p.info_log);
  REQUIRE(p.ok);
  SpvFacts v = Scan(p.spirv[0]), f = Scan(p.spirv[1]);
  for (const char* name : {"c", "arr", "n", "b", "fixed_loc"}) {
    INFO(name);
    CHECK(v.Deco(name, kLocation) >= 0);
    CHECK(f.Deco(name, kLocation) == v.Deco(name, kLocation));
  }
  CHECK(f.Deco("fixed_loc", kLocation) == 9);
  // The vertex outputs do not overlap (a matrix takes 3 locations, the array 3).
  std::set<int> used;
  size_t total = 0;
  for (auto [name, count] : std::vector<std::pair<const char*, int>>{
           {"a", 1}, {"m", 3}, {"n", 1}, {"arr", 3}, {"fixed_loc", 1}, {"b", 1}, {"c", 1}}) {
    auto s = Span(v, name, count);
    used.insert(s.begin(), s.end());
    total += static_cast<size_t>(count);
  }
  CHECK(used.size() == total);
  // The input no output names (undefined in GL) becomes a private variable: Vulkan wants every input
  // location written by the previous stage.
  CHECK(f.var_storage[f.Id("unwritten_elsewhere")] == 6u);  // Private
  CHECK(f.Deco("unwritten_elsewhere", kLocation) == -1);
  // Qualifiers are the stage's own: flat stays on the integer input.
  CHECK(f.decos[f.Id("n")].count(14) == 1);  // Flat
  CHECK(f.decos[f.Id("b")].count(13) == 1);  // NoPerspective

  // GLSL 1.10 varyings, declared in another order, the fragment reading the second one only.
  LinkedProgram legacy = LinkStages(
      {{Stage::kVertex,
        "#version 110\nvarying vec4 first;\nvarying vec4 second;\n"
        "void main() { first = vec4(1.0); second = vec4(0.5); gl_Position = vec4(0.0); }\n"},
       {Stage::kFragment, "#version 110\nvarying vec4 second;\nvoid main() { gl_FragColor = second; }\n"}});
  REQUIRE(legacy.ok);
  CHECK(Scan(legacy.spirv[1]).Deco("second", kLocation) == Scan(legacy.spirv[0]).Deco("second", kLocation));
  CHECK(Scan(legacy.spirv[0]).Deco("second", kLocation) != Scan(legacy.spirv[0]).Deco("first", kLocation));
}

TEST_CASE("varyings match through a geometry shader, blocks by block name") {
  LinkedProgram p = LinkStages({{Stage::kVertex, R"(#version 330 core
in vec4 pos;
out vec4 x;
out VertexData { vec4 color; vec2 uv; } vout;
out vec4 y;
void main() { x = pos; vout.color = pos; vout.uv = pos.xy; y = pos; gl_Position = pos; }
)"},
                                {Stage::kGeometry, R"(#version 330 core
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in vec4 y[];
in VertexData { vec4 color; vec2 uv; } gin[];
out vec4 p;
out vec4 q;
void main() { for (int i = 0; i < 3; ++i) { p = gin[i].color + y[i]; q = vec4(gin[i].uv, 0.0, 1.0);
  gl_Position = gl_in[i].gl_Position; EmitVertex(); } }
)"},
                                {Stage::kFragment, R"(#version 330 core
in vec4 q;
in vec4 p;
out vec4 c;
void main() { c = p * q; }
)"}});
  if (!p.ok) MESSAGE(p.info_log);
  REQUIRE(p.ok);
  SpvFacts v = Scan(p.spirv[0]), g = Scan(p.spirv[2]), f = Scan(p.spirv[1]);
  CHECK(g.Deco("y", kLocation) == v.Deco("y", kLocation));
  CHECK(g.Deco("gin", kLocation) == v.Deco("vout", kLocation));
  CHECK(v.Deco("y", kLocation) != v.Deco("vout", kLocation));
  CHECK(f.Deco("p", kLocation) == g.Deco("p", kLocation));
  CHECK(f.Deco("q", kLocation) == g.Deco("q", kLocation));
  CHECK(f.Deco("p", kLocation) != f.Deco("q", kLocation));
}

TEST_CASE("varyings of one name with different types, or read and never declared, fail to link") {
  const std::string vs =
      "#version 330 core\nout vec3 v;\nvoid main() { v = vec3(1.0); gl_Position = vec4(0.0); }\n";
  LinkedProgram mismatch = LinkStages(
      {{Stage::kVertex, vs},
       {Stage::kFragment, "#version 330 core\nin vec4 v;\nout vec4 c;\nvoid main() { c = v; }\n"}});
  CHECK_FALSE(mismatch.ok);
  CHECK(mismatch.info_log.find(" v") != std::string::npos);
  LinkedProgram missing = LinkStages(
      {{Stage::kVertex, vs},
       {Stage::kFragment, "#version 330 core\nin vec4 w;\nout vec4 c;\nvoid main() { c = w; }\n"}});
  CHECK_FALSE(missing.ok);
  CHECK(missing.info_log.find("`w'") != std::string::npos);
  // Declared but not read: links.
  CHECK(LinkStages({{Stage::kVertex, vs},
                    {Stage::kFragment,
                     "#version 330 core\nin vec4 w;\nin vec3 v;\nout vec4 c;\n"
                     "void main() { c = vec4(v, 1.0); }\n"}})
            .ok);
  // GLSL 1.10: read by the fragment shader, never written by the vertex shader.
  CHECK_FALSE(
      LinkStages(
          {{Stage::kVertex, "#version 110\nvarying vec4 foo;\nvoid main() { gl_Position = vec4(0.0); }\n"},
           {Stage::kFragment, "#version 110\nvarying vec4 foo;\nvoid main() { gl_FragColor = foo; }\n"}})
          .ok);
}
