// The compatibility profile's GLSL built-ins (gl_Vertex, gl_ModelViewMatrix, gl_FrontColor, gl_LightSource,
// ftransform()...), which glslang does not declare when it generates SPIR-V. In compatibility contexts a
// GLSL 1.10-1.30 (or `compatibility` profile) program is parsed for SPIR-V with a prelude that declares each
// built-in the program names as an ordinary input, uniform or varying ("caldera_" + its name) and a macro
// that renames it. One table (compat_builtins.cpp) says what every built-in becomes: the prelude, the
// attribute locations and the uniforms the frontend feeds from the fixed-function state all come from it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace caldera::shader {

enum class CompatKind : uint8_t {
  kAttribute,   // vertex input at a fixed-function attribute location
  kConstant,    // a macro only (attributes with no array behind them, implementation constants)
  kStruct,      // a built-in struct type
  kUniform,     // a default-block uniform the frontend writes from the compatibility state
  kVaryingOut,  // vertex output
  kVaryingIn,   // fragment input (fed by the vertex output of the same lowered name)
  kGlobal,      // a private variable (written, read by nothing GL exposes)
  kFunction,
};

// Which compatibility state a kUniform entry carries.
enum class CompatValue : uint8_t {
  kNone,
  kModelView,
  kProjection,
  kModelViewProjection,
  kTexture,  // gl_TextureMatrix*[kCompatTexCoords]
  kNormalMatrix,
  kNormalScale,
  kLightSource,
  kLightModel,
  kFrontMaterial,
  kBackMaterial,
  kFrontLightModelProduct,
  kBackLightModelProduct,
  kFrontLightProduct,
  kBackLightProduct,
  kFog,
  kTextureEnvColor,
  kPoint,
  kEyePlane,           // gl_EyePlaneS..Q[kCompatTexCoords]: the coordinate is the name's last letter
  kObjectPlane,        // gl_ObjectPlaneS..Q[kCompatTexCoords]
  kClipPlane,          // gl_ClipPlane[]: the eye-space planes
  kEnabledClipPlanes,  // the planes the clip epilogue dots with: enabled ones, zero for the others (or
                       // 1/0 flags where it masks the shader's own gl_ClipDistance)
  kColorControl,       // how the fragment colours are chosen: x glShadeModel(GL_FLAT), y
                       // GL_VERTEX_PROGRAM_TWO_SIDE (1 or 0)
};

enum class CompatMatrixForm : uint8_t { kPlain, kInverse, kTranspose, kInverseTranspose };

constexpr int kCompatTexCoords = 8;  // gl_TexCoord[], gl_TextureMatrix[] (GL_MAX_TEXTURE_COORDS)
constexpr int kCompatLights = 8;     // gl_LightSource[] (GL_MAX_LIGHTS)
constexpr int kCompatClipPlanes =
    8;  // gl_ClipPlane[] (GL_MAX_CLIP_PLANES): the epilogue writes as many distances
// The internal uniform the clip epilogue reads, as reflection names it; not reported to GL
// (LinkedProgram::compat_clip_planes_offset).
constexpr const char* kCompatEnabledClipPlanes = "gl_CalderaEnabledClipPlanes";
// The internal uniform the colour inputs' selection reads (LinkedProgram::compat_color_control_offset): the
// shade model picks the flat copies of unqualified colour varyings, two-sided colour the back ones.
constexpr const char* kCompatColorControl = "gl_CalderaColorControl";
// Attribute locations 0..5 carry position, colour, normal, secondary colour and two texture coordinate sets
// in the compatibility paths.
constexpr int kCompatFixedLocations = 6;

struct CompatBuiltin {
  const char* name;  // as a shader writes it
  CompatKind kind;
  uint8_t stages;           // bit per Stage in which `name` means this entry
  const char* declaration;  // prelude text; '$' stands for the lowered name
  const char* macro;        // what `name` expands to; null: the lowered name
  int8_t location;          // kAttribute: the attribute location glBegin/glEnd and legacy arrays feed
  CompatValue value;
  CompatMatrixForm form;
  const char* needs;             // other entries (by name, space-separated) this one's text uses
  const char* lowered_override;  // the lowered name when not "caldera_" + name (fragment gl_Color)
};

const std::vector<CompatBuiltin>& CompatBuiltins();
std::string CompatLoweredName(const CompatBuiltin& b);

}  // namespace caldera::shader

namespace caldera::shader::internal {

// What a program's stages get: prelude text per stage, the table entries in use (indices into
// CompatBuiltins()), and the attribute locations of the lowered vertex inputs.
struct CompatLowering {
  bool active = false;
  std::string prelude[3];  // by Stage
  // Appended to a stage's source: a vertex stage writing no gl_ClipDistance has its main renamed and called
  // from one that writes the user clip distances from gl_ClipVertex (or gl_Position, as Mesa does).
  std::string epilogue[3];
  bool clip_enables = false;  // the epilogue zeroes the stage's own disabled gl_ClipDistance elements
  std::vector<uint16_t> used;
  std::vector<std::pair<std::string, int32_t>> attrib_locations;  // lowered name -> location
};

struct CompatStageSource {
  uint8_t stage;  // Stage
  const std::string* source;
};
CompatLowering PlanCompatLowering(const std::vector<CompatStageSource>& stages);

// A GLSL 1.x shader may redeclare built-in varyings (`varying vec4 gl_TexCoord[2];`, `flat out vec4
// gl_FrontColor;`); the prelude declares them, so such redeclarations are blanked (line numbers stay).
void BlankBuiltinRedeclarations(std::string& source);

}  // namespace caldera::shader::internal
