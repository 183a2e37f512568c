// The table of compatibility built-ins and the prelude built from it (see compat_builtins.h).
#include "shader/compat_builtins.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <regex>
#include <set>

namespace caldera::shader {
namespace {

constexpr uint8_t kVs = 1, kFs = 2, kAll = 7;
using K = CompatKind;
using V = CompatValue;
using F = CompatMatrixForm;

// Shorthands for the table's rows.
CompatBuiltin Attribute(const char* name, const char* type, int location) {
  return {name, K::kAttribute, kVs, type, nullptr, int8_t(location), V::kNone, F::kPlain, nullptr, nullptr};
}
CompatBuiltin Constant(const char* name, uint8_t stages, const char* value) {
  return {name, K::kConstant, stages, nullptr, value, -1, V::kNone, F::kPlain, nullptr, nullptr};
}
CompatBuiltin Struct(const char* name, const char* members) {
  return {name, K::kStruct, kAll, members, nullptr, -1, V::kNone, F::kPlain, nullptr, nullptr};
}
CompatBuiltin Uniform(const char* name, const char* declaration, V value, F form = F::kPlain,
                      const char* needs = nullptr) {
  return {name, K::kUniform, kAll, declaration, nullptr, -1, value, form, needs, nullptr};
}
CompatBuiltin VaryingOut(const char* name, const char* declaration) {
  return {name, K::kVaryingOut, kVs, declaration, nullptr, -1, V::kNone, F::kPlain, nullptr, nullptr};
}
// A fragment input reading the vertex output `producer`; `macro` may wrap it (colours are clamped, as
// GL_CLAMP_VERTEX_COLOR's default asks).
CompatBuiltin VaryingIn(const char* name, const char* declaration, const char* producer, const char* macro) {
  return {name, K::kVaryingIn, kFs, declaration, macro, -1, V::kNone, F::kPlain, producer, producer};
}

std::vector<CompatBuiltin> MakeTable() {
  std::vector<CompatBuiltin> t = {
      // Vertex inputs at the locations glBegin/glEnd, legacy arrays and the fixed-function programs use.
      Attribute("gl_Vertex", "in vec4 $;", 0),
      Attribute("gl_Color", "in vec4 $;", 1),
      Attribute("gl_Normal", "in vec3 $;", 2),
      Attribute("gl_SecondaryColor", "in vec4 $;", 3),
      Attribute("gl_MultiTexCoord0", "in vec4 $;", 4),
      Attribute("gl_MultiTexCoord1", "in vec4 $;", 5),
      // Texture coordinate sets past the fixed-function units and the fog coordinate have no current value
      // or array feeding them here: their initial values.
      Constant("gl_MultiTexCoord2", kVs, "vec4(0.0, 0.0, 0.0, 1.0)"),
      Constant("gl_MultiTexCoord3", kVs, "vec4(0.0, 0.0, 0.0, 1.0)"),
      Constant("gl_MultiTexCoord4", kVs, "vec4(0.0, 0.0, 0.0, 1.0)"),
      Constant("gl_MultiTexCoord5", kVs, "vec4(0.0, 0.0, 0.0, 1.0)"),
      Constant("gl_MultiTexCoord6", kVs, "vec4(0.0, 0.0, 0.0, 1.0)"),
      Constant("gl_MultiTexCoord7", kVs, "vec4(0.0, 0.0, 0.0, 1.0)"),
      Constant("gl_FogCoord", kVs, "0.0"),
      Constant("gl_MaxLights", kAll, "8"),
      Constant("gl_MaxTextureCoords", kAll, "8"),
      Constant("gl_MaxTextureUnits", kAll, "2"),
      Constant("gl_MaxClipPlanes", kAll, "8"),
      // Structs, before the uniforms of their type.
      Struct("gl_LightSourceParameters",
             "struct $ { vec4 ambient; vec4 diffuse; vec4 specular; vec4 position; vec4 halfVector; "
             "vec3 spotDirection; float spotExponent; float spotCutoff; float spotCosCutoff; "
             "float constantAttenuation; float linearAttenuation; float quadraticAttenuation; };"),
      Struct("gl_MaterialParameters",
             "struct $ { vec4 emission; vec4 ambient; vec4 diffuse; vec4 specular; float shininess; };"),
      Struct("gl_LightModelParameters", "struct $ { vec4 ambient; };"),
      Struct("gl_LightModelProducts", "struct $ { vec4 sceneColor; };"),
      Struct("gl_LightProducts", "struct $ { vec4 ambient; vec4 diffuse; vec4 specular; };"),
      Struct("gl_FogParameters",
             "struct $ { vec4 color; float density; float start; float end; float scale; };"),
      Struct("gl_PointParameters",
             "struct $ { float size; float sizeMin; float sizeMax; float fadeThresholdSize; "
             "float distanceConstantAttenuation; float distanceLinearAttenuation; "
             "float distanceQuadraticAttenuation; };"),
      // Matrices.
      Uniform("gl_ModelViewMatrix", "uniform mat4 $;", V::kModelView),
      Uniform("gl_ProjectionMatrix", "uniform mat4 $;", V::kProjection),
      Uniform("gl_ModelViewProjectionMatrix", "uniform mat4 $;", V::kModelViewProjection),
      Uniform("gl_TextureMatrix", "uniform mat4 $[8];", V::kTexture),
      Uniform("gl_NormalMatrix", "uniform mat3 $;", V::kNormalMatrix),
      Uniform("gl_NormalScale", "uniform float $;", V::kNormalScale),
      Uniform("gl_ModelViewMatrixInverse", "uniform mat4 $;", V::kModelView, F::kInverse),
      Uniform("gl_ProjectionMatrixInverse", "uniform mat4 $;", V::kProjection, F::kInverse),
      Uniform("gl_ModelViewProjectionMatrixInverse", "uniform mat4 $;", V::kModelViewProjection, F::kInverse),
      Uniform("gl_TextureMatrixInverse", "uniform mat4 $[8];", V::kTexture, F::kInverse),
      Uniform("gl_ModelViewMatrixTranspose", "uniform mat4 $;", V::kModelView, F::kTranspose),
      Uniform("gl_ProjectionMatrixTranspose", "uniform mat4 $;", V::kProjection, F::kTranspose),
      Uniform("gl_ModelViewProjectionMatrixTranspose", "uniform mat4 $;", V::kModelViewProjection,
              F::kTranspose),
      Uniform("gl_TextureMatrixTranspose", "uniform mat4 $[8];", V::kTexture, F::kTranspose),
      Uniform("gl_ModelViewMatrixInverseTranspose", "uniform mat4 $;", V::kModelView, F::kInverseTranspose),
      Uniform("gl_ProjectionMatrixInverseTranspose", "uniform mat4 $;", V::kProjection, F::kInverseTranspose),
      Uniform("gl_ModelViewProjectionMatrixInverseTranspose", "uniform mat4 $;", V::kModelViewProjection,
              F::kInverseTranspose),
      Uniform("gl_TextureMatrixInverseTranspose", "uniform mat4 $[8];", V::kTexture, F::kInverseTranspose),
      // Lighting, fog, points, texture environments.
      Uniform("gl_LightSource", "uniform caldera_gl_LightSourceParameters $[8];", V::kLightSource, F::kPlain,
              "gl_LightSourceParameters"),
      Uniform("gl_LightModel", "uniform caldera_gl_LightModelParameters $;", V::kLightModel, F::kPlain,
              "gl_LightModelParameters"),
      Uniform("gl_FrontMaterial", "uniform caldera_gl_MaterialParameters $;", V::kFrontMaterial, F::kPlain,
              "gl_MaterialParameters"),
      Uniform("gl_BackMaterial", "uniform caldera_gl_MaterialParameters $;", V::kBackMaterial, F::kPlain,
              "gl_MaterialParameters"),
      Uniform("gl_FrontLightModelProduct", "uniform caldera_gl_LightModelProducts $;",
              V::kFrontLightModelProduct, F::kPlain, "gl_LightModelProducts"),
      Uniform("gl_BackLightModelProduct", "uniform caldera_gl_LightModelProducts $;",
              V::kBackLightModelProduct, F::kPlain, "gl_LightModelProducts"),
      Uniform("gl_FrontLightProduct", "uniform caldera_gl_LightProducts $[8];", V::kFrontLightProduct,
              F::kPlain, "gl_LightProducts"),
      Uniform("gl_BackLightProduct", "uniform caldera_gl_LightProducts $[8];", V::kBackLightProduct,
              F::kPlain, "gl_LightProducts"),
      Uniform("gl_Fog", "uniform caldera_gl_FogParameters $;", V::kFog, F::kPlain, "gl_FogParameters"),
      Uniform("gl_Point", "uniform caldera_gl_PointParameters $;", V::kPoint, F::kPlain,
              "gl_PointParameters"),
      Uniform("gl_TextureEnvColor", "uniform vec4 $[8];", V::kTextureEnvColor),
      Uniform("gl_EyePlaneS", "uniform vec4 $[8];", V::kEyePlane),
      Uniform("gl_EyePlaneT", "uniform vec4 $[8];", V::kEyePlane),
      Uniform("gl_EyePlaneR", "uniform vec4 $[8];", V::kEyePlane),
      Uniform("gl_EyePlaneQ", "uniform vec4 $[8];", V::kEyePlane),
      Uniform("gl_ObjectPlaneS", "uniform vec4 $[8];", V::kObjectPlane),
      Uniform("gl_ObjectPlaneT", "uniform vec4 $[8];", V::kObjectPlane),
      Uniform("gl_ObjectPlaneR", "uniform vec4 $[8];", V::kObjectPlane),
      Uniform("gl_ObjectPlaneQ", "uniform vec4 $[8];", V::kObjectPlane),
      // Varyings: vertex outputs, and the fragment inputs they feed (the front colours; where both stages
      // are lowered, PlanColorSelection makes the colour inputs choose between front and back, smooth and
      // flat).
      VaryingOut("gl_FrontColor", "out vec4 $;"),
      VaryingOut("gl_BackColor", "out vec4 $;"),
      VaryingOut("gl_FrontSecondaryColor", "out vec4 $;"),
      VaryingOut("gl_BackSecondaryColor", "out vec4 $;"),
      VaryingOut("gl_TexCoord", "out vec4 $[8];"),
      VaryingOut("gl_FogFragCoord", "out float $;"),
      VaryingIn("gl_Color", "in vec4 $;", "gl_FrontColor", "clamp(caldera_gl_FrontColor, 0.0, 1.0)"),
      VaryingIn("gl_SecondaryColor", "in vec4 $;", "gl_FrontSecondaryColor",
                "clamp(caldera_gl_FrontSecondaryColor, 0.0, 1.0)"),
      VaryingIn("gl_TexCoord", "in vec4 $[8];", "gl_TexCoord", "caldera_gl_TexCoord"),
      VaryingIn("gl_FogFragCoord", "in float $;", "gl_FogFragCoord", "caldera_gl_FogFragCoord"),
      // User clip planes: the clip vertex is what the clip epilogue (PlanCompatLowering) dots with the
      // enabled planes; its initial value is unused (a shader not writing it is clipped on gl_Position).
      {"gl_ClipVertex", K::kGlobal, kVs, "vec4 $;", nullptr, -1, V::kNone, F::kPlain, nullptr, nullptr},
      Uniform("gl_ClipPlane", "uniform vec4 $[8];", V::kClipPlane),
      // Named by no shader (gl_ names are reserved): the epilogue's planes, added by the plan.
      {kCompatEnabledClipPlanes, K::kUniform, kVs, "uniform vec4 $[8];", nullptr, -1, V::kEnabledClipPlanes,
       F::kPlain, nullptr, nullptr},
      // ... and the colour inputs' selection (PlanColorSelection).
      {kCompatColorControl, K::kUniform, kFs, "uniform vec2 $;", nullptr, -1, V::kColorControl, F::kPlain,
       nullptr, nullptr},
      {"ftransform", K::kFunction, kVs,
       "vec4 $() { return caldera_gl_ModelViewProjectionMatrix * caldera_gl_Vertex; }", nullptr, -1, V::kNone,
       F::kPlain, "gl_ModelViewProjectionMatrix gl_Vertex", nullptr},
  };
  return t;
}

// `name` occurs in `src` as a whole identifier.
bool Mentions(const std::string& src, const char* name) {
  const size_t n = std::char_traits<char>::length(name);
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t at = src.find(name); at != std::string::npos; at = src.find(name, at + 1)) {
    if (at > 0 && ident(src[at - 1])) continue;
    if (at + n < src.size() && ident(src[at + n])) continue;
    return true;
  }
  return false;
}

std::string Replace(const char* text, const std::string& lowered) {
  std::string out;
  for (const char* p = text; *p; ++p) {
    if (*p == '$')
      out += lowered;
    else
      out += *p;
  }
  return out;
}

// How many gl_ClipDistance elements a shader writes, judged from its source: the size it redeclares the
// array with (a number or gl_MaxClipDistances), else one past the largest constant index; 0 when neither
// shows.
int ClipDistanceCount(const std::string& src) {
  int declared = 0, indexed = 0;
  const std::string name = "gl_ClipDistance";
  for (size_t at = src.find(name); at != std::string::npos; at = src.find(name, at + 1)) {
    size_t p = at + name.size();
    while (p < src.size() && std::isspace(static_cast<unsigned char>(src[p]))) ++p;
    if (p >= src.size() || src[p] != '[') continue;
    ++p;
    while (p < src.size() && std::isspace(static_cast<unsigned char>(src[p]))) ++p;
    size_t before = at;
    while (before > 0 && std::isspace(static_cast<unsigned char>(src[before - 1]))) --before;
    const bool declaration = before >= 5 && src.compare(before - 5, 5, "float") == 0;
    int n = -1;
    if (std::isdigit(static_cast<unsigned char>(src[p])))
      n = std::atoi(src.c_str() + p);
    else if (src.compare(p, 19, "gl_MaxClipDistances") == 0)
      n = kCompatClipPlanes;
    if (n < 0) continue;
    if (declaration)
      declared = std::max(declared, n);
    else
      indexed = std::max(indexed, n + 1);
  }
  return std::min(declared ? declared : indexed, kCompatClipPlanes);
}

// User clip planes for a lowered vertex stage feeding the rasterizer: its main is renamed and called from an
// appended one. A stage writing no gl_ClipDistance writes one per plane (GL 2.1 §2.12), dotting the enabled
// planes (zero vectors for the disabled ones: distance 0 never clips) with gl_ClipVertex, or with gl_Position
// when it does not write that (Mesa's choice for a case GL leaves undefined). A stage writing gl_ClipDistance
// gets its disabled distances zeroed (GLSL 1.30 §7.1: they have no effect; Vulkan clips every written one),
// unless the fragment stage reads them. Enabling planes changes uniform values only, never the program.
template <typename AddUniform>
void PlanClipEpilogue(internal::CompatLowering& plan, const std::string& vs,
                      const std::vector<internal::CompatStageSource>& stages, AddUniform add_uniform,
                      std::string& epilogue_body) {
  std::string body;
  const std::string planes = std::string("caldera_") + kCompatEnabledClipPlanes;
  if (!Mentions(vs, "gl_ClipDistance")) {
    const std::string vertex = Mentions(vs, "gl_ClipVertex") ? "caldera_gl_ClipVertex" : "gl_Position";
    for (int i = 0; i < kCompatClipPlanes; ++i) {
      const std::string n = std::to_string(i);
      body += "  gl_ClipDistance[" + n + "] = dot(" + vertex + ", " + planes + "[" + n + "]);\n";
    }
  } else {
    for (const auto& s : stages)
      if (s.stage == 1 && Mentions(*s.source, "gl_ClipDistance")) return;
    const int count = ClipDistanceCount(vs);
    for (int i = 0; i < count; ++i) {
      const std::string d = "gl_ClipDistance[" + std::to_string(i) + "]";
      body += "  " + d + " = " + planes + "[" + std::to_string(i) + "].x > 0.5 ? " + d + " : 0.0;\n";
    }
    if (body.empty()) return;
    plan.clip_enables = true;
  }
  add_uniform();
  epilogue_body += body;
}

// The colour inputs of a fragment stage fed by a lowered vertex stage (GL 2.1 §2.14.1, §3.5 for glShadeModel;
// GLSL 1.30 §4.3.7): gl_Color reads gl_BackColor for back-facing primitives under
// GL_VERTEX_PROGRAM_TWO_SIDE, and the colour varyings no interpolation qualifier names are flat under
// glShadeModel(GL_FLAT). Both are uniform values (kCompatColorControl), not program variants: the vertex
// stage writes a flat copy of each unqualified colour it feeds, and the input picks one of the four. A
// family's redeclared qualifiers (`flat out vec4 gl_FrontColor;`, `noperspective in vec4 gl_Color;`) go on
// every varying of the family, in both stages.
struct ColorFamily {
  const char* input;
  const char* front;
  const char* back;
};
constexpr ColorFamily kColorFamilies[] = {
    {"gl_Color", "gl_FrontColor", "gl_BackColor"},
    {"gl_SecondaryColor", "gl_FrontSecondaryColor", "gl_BackSecondaryColor"}};

// The interpolation qualifiers (with a trailing space; empty: none) any stage redeclares a family's
// built-ins with.
std::string RedeclaredQualifiers(const std::vector<internal::CompatStageSource>& stages,
                                 const ColorFamily& f) {
  static const std::regex redeclaration(
      R"(((?:\b(?:flat|smooth|noperspective|centroid|invariant)\s+)+)(?:varying|in|out)\s+(?:(?:lowp|mediump|highp)\s+)?vec4\s+(gl_\w+)\s*;)");
  static const std::regex word(R"(\w+)");
  for (const auto& s : stages) {
    if (s.stage > 1) continue;
    for (auto it = std::sregex_iterator(s.source->begin(), s.source->end(), redeclaration);
         it != std::sregex_iterator(); ++it) {
      const std::string name = (*it)[2];
      if (name != f.input && name != f.front && name != f.back) continue;
      std::string qualifiers;
      const std::string list = (*it)[1];
      for (auto w = std::sregex_iterator(list.begin(), list.end(), word); w != std::sregex_iterator(); ++w)
        if (w->str() != "invariant") qualifiers += w->str() + " ";
      return qualifiers;
    }
  }
  return {};
}

bool FixesInterpolation(const std::string& qualifiers) {
  return Mentions(qualifiers, "flat") || Mentions(qualifiers, "smooth") ||
         Mentions(qualifiers, "noperspective");
}

}  // namespace

const std::vector<CompatBuiltin>& CompatBuiltins() {
  static const std::vector<CompatBuiltin> table = MakeTable();
  return table;
}

std::string CompatLoweredName(const CompatBuiltin& b) {
  if (b.kind == CompatKind::kVaryingIn) return std::string("caldera_") + b.lowered_override;
  return std::string("caldera_") + b.name;
}

namespace internal {

CompatLowering PlanCompatLowering(const std::vector<CompatStageSource>& stages) {
  const auto& table = CompatBuiltins();
  CompatLowering plan;
  bool has_geometry = false, has_vertex = false;
  for (const auto& s : stages) {
    has_geometry |= s.stage == 2;
    has_vertex |= s.stage == 0;
  }
  // Varyings are paired between a lowered vertex stage and the fragment stage it feeds.
  const bool pair = has_vertex && !has_geometry;
  // Needed entries per stage: named in the stage's source, or needed by a needed entry.
  std::set<size_t> need[3];
  auto find = [&](const std::string& name, uint8_t stage_bit) -> size_t {
    for (size_t i = 0; i < table.size(); ++i)
      if (name == table[i].name && (table[i].stages & stage_bit)) return i;
    return table.size();
  };
  auto add = [&](auto& self, int stage, size_t index) -> void {
    if (index >= table.size() || !need[stage].insert(index).second) return;
    const CompatBuiltin& b = table[index];
    if (!b.needs || b.kind == CompatKind::kVaryingIn) return;
    std::string names = b.needs;
    size_t pos = 0;
    while (pos < names.size()) {
      size_t end = names.find(' ', pos);
      if (end == std::string::npos) end = names.size();
      self(self, stage, find(names.substr(pos, end - pos), uint8_t(1u << stage)));
      pos = end + 1;
    }
  };
  for (const auto& s : stages) {
    const uint8_t bit = uint8_t(1u << s.stage);
    for (size_t i = 0; i < table.size(); ++i)
      if ((table[i].stages & bit) && Mentions(*s.source, table[i].name)) add(add, s.stage, i);
  }
  // A fragment input needs the vertex output that feeds it (declared even if the vertex shader does not
  // write it, so that the interfaces match), unless a geometry shader sits between them (or the vertex
  // stage is not lowered).
  if (pair) {
    for (size_t i : std::set<size_t>(need[1]))
      if (table[i].kind == CompatKind::kVaryingIn) add(add, 0, find(table[i].lowered_override, 1));
  }
  std::string epilogue_body;
  if (has_vertex && !has_geometry) {
    for (const auto& s : stages)
      if (s.stage == 0)
        PlanClipEpilogue(
            plan, *s.source, stages, [&] { add(add, 0, find(kCompatEnabledClipPlanes, 1)); }, epilogue_body);
  }
  // Colour selection (see ColorFamily): per table entry, the qualifiers its declarations take, the input
  // macros that choose, and the flat copies the vertex stage writes.
  std::map<size_t, std::string> qualifiers_of, input_macro;
  std::vector<std::string> flat_copies;  // lowered names of the vertex outputs copied flat
  const bool has_fragment =
      std::any_of(stages.begin(), stages.end(), [](const auto& s) { return s.stage == 1; });
  for (const ColorFamily& f : kColorFamilies) {
    const std::string qualifiers = RedeclaredQualifiers(stages, f);
    const size_t front = find(f.front, 1), back = find(f.back, 1);
    qualifiers_of[front] = qualifiers_of[back] = qualifiers;
    const size_t input = find(f.input, 2);
    if (!pair || !has_fragment || !need[1].count(input)) continue;
    add(add, 0, back);
    add(add, 1, find(kCompatColorControl, 2));
    const std::string control = std::string("caldera_") + kCompatColorControl;
    const bool unqualified = !FixesInterpolation(qualifiers);
    auto choose = [&](size_t entry) {
      const std::string lowered = CompatLoweredName(table[entry]);
      if (!unqualified) return lowered;
      flat_copies.push_back(lowered);
      return "(" + control + ".x > 0.5 ? " + lowered + "_flat : " + lowered + ")";
    };
    const std::string from_front = choose(front), from_back = choose(back);
    input_macro[input] = "clamp(" + control + ".y > 0.5 && !gl_FrontFacing ? " + from_back + " : " +
                         from_front + ", 0.0, 1.0)";
  }
  for (const std::string& lowered : flat_copies)
    epilogue_body += "  " + lowered + "_flat = " + lowered + ";\n";
  if (!epilogue_body.empty()) {
    plan.prelude[0] += "#define main caldera_user_main\n";
    plan.epilogue[0] = "\n#undef main\nvoid main() {\n  caldera_user_main();\n" + epilogue_body + "}\n";
  }
  // And the other way: every vertex output has a fragment input of its name, so that both stages declare
  // the same built-in varyings in the same order and glslang gives them the same locations (it places an
  // output no input matches at its own next free location, shifting the others).
  auto qualified = [&](size_t i) {
    auto q = qualifiers_of.find(i);
    return (q == qualifiers_of.end() ? std::string() : q->second) +
           Replace(table[i].declaration, CompatLoweredName(table[i]));
  };
  std::string fragment_varyings;
  if (pair) {
    for (size_t i : need[0]) {
      if (table[i].kind != CompatKind::kVaryingOut) continue;
      std::string in = qualified(i);
      in.replace(in.find("out "), 4, "in ");  // "[qualifiers] out T name;" -> "[qualifiers] in T name;"
      fragment_varyings += in + "\n";
    }
    for (const std::string& lowered : flat_copies) {
      fragment_varyings += "flat in vec4 " + lowered + "_flat;\n";
      plan.prelude[0] += "flat out vec4 " + lowered + "_flat;\n";
    }
  }
  for (int st = 0; st < 3; ++st) {
    if (st == 1) plan.prelude[st] += fragment_varyings;
    for (size_t i : need[st]) {
      const CompatBuiltin& b = table[i];
      const std::string lowered = CompatLoweredName(b);
      std::string& p = plan.prelude[st];
      const bool declared = pair && b.kind == CompatKind::kVaryingIn;  // in fragment_varyings
      if (b.declaration && !declared)
        p += (b.kind == CompatKind::kVaryingOut ? qualified(i) : Replace(b.declaration, lowered)) + "\n";
      auto chosen = st == 1 ? input_macro.find(i) : input_macro.end();
      p += std::string("#define ") + b.name + " " +
           (chosen != input_macro.end() ? chosen->second
            : b.macro                   ? b.macro
                                        : lowered) +
           "\n";
      if (b.kind == CompatKind::kAttribute) plan.attrib_locations.emplace_back(lowered, b.location);
      plan.used.push_back(uint16_t(i));
      plan.active = true;
    }
  }
  return plan;
}

void BlankBuiltinRedeclarations(std::string& source) {
  static const std::regex redeclaration(
      R"(\b(?:(?:flat|smooth|noperspective|centroid|invariant)\s+)*(?:varying|in|out)\s+(?:(?:lowp|mediump|highp)\s+)?(?:vec4|float)\s+gl_(?:TexCoord|FrontColor|BackColor|FrontSecondaryColor|BackSecondaryColor|FogFragCoord|Color|SecondaryColor)\s*(?:\[\s*\w*\s*\])?\s*;)");
  if (source.find("gl_") == std::string::npos) return;
  std::string out = source;
  for (auto it = std::sregex_iterator(source.begin(), source.end(), redeclaration);
       it != std::sregex_iterator(); ++it) {
    for (size_t i = size_t(it->position()); i < size_t(it->position() + it->length()); ++i)
      if (out[i] != '\n') out[i] = ' ';
  }
  source = std::move(out);
}

}  // namespace internal
}  // namespace caldera::shader
