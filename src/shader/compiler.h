// The shader path's public face: GLSL / ESSL source in, validated SPIR-V and GL-shaped reflection out.
// The frontend calls this at glCompileShader / glLinkProgram time; nothing here knows about contexts,
// GL objects or Vulkan handles, so the GLES backend and unit tests can use it as they are.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace caldera::shader {

enum class Stage : uint8_t { kVertex = 0, kFragment = 1, kGeometry = 2, kCount = 3 };

// Where resources land in the SPIR-V, so the backends can build one pipeline layout for every program.
// Set 0 binding 0 is the default uniform block (loose uniforms); set 1 holds named uniform blocks at
// binding == block index; set 2 holds samplers at binding == sampler index. Sampler indices are consecutive
// in `uniforms` order; an array "s[0]" of N takes indices k..k+N-1 but is ONE SPIR-V binding k with
// descriptorCount N (bindings k+1..k+N-1 stay unused). sampler_count is the total number of indices.
constexpr uint32_t kDefaultBlockSet = 0;
constexpr uint32_t kDefaultBlockBinding = 0;
constexpr uint32_t kUniformBlockSet = 1;
constexpr uint32_t kSamplerSet = 2;

// Limits the shader path compiles against (gl_MaxDrawBuffers, gl_MaxVertexAttribs); a program needing more
// attribute locations than kMaxVertexAttribs fails to link.
constexpr int32_t kMaxDrawBuffers = 8;
constexpr int32_t kMaxVertexAttribs = 16;
constexpr int32_t kMaxDualSourceDrawBuffers = 1;  // GL_MAX_DUAL_SOURCE_DRAW_BUFFERS
// GL_SAMPLER_EXTERNAL_OES, the type samplerExternalOES uniforms report (GL_OES_EGL_image_external).
constexpr uint32_t kGlSamplerExternalOES = 0x8D66;

// One active loose uniform (a member of the default block). Arrays appear once, named as GL reports
// them ("a[0]"), with array_size > 1. Samplers are uniforms too: their value is the texture unit, kept by
// the frontend, so offset is meaningless for them and sampler_index says which set-2 binding they feed.
struct Uniform {
  std::string name;      // GL name, e.g. "u_color", "lights[0].pos", "tex"
  uint32_t gl_type = 0;  // GL_FLOAT_VEC4, GL_FLOAT_MAT4, GL_SAMPLER_2D, ...
  int32_t array_size = 1;
  int32_t offset = -1;        // byte offset inside the default block (-1: not in the block, e.g. sampler)
  int32_t array_stride = 0;   // bytes between array elements (std140: 16-byte aligned)
  int32_t matrix_stride = 0;  // bytes between matrix columns
  int32_t sampler_index = -1;
  uint32_t stages = 0;  // bit per Stage that references it
  // GLSL 4.20 / ESSL 3.10 layout(binding = N) on a sampler/image: its initial texture unit (element i of an
  // array starts at N + i). -1 when absent. Not the SPIR-V binding (that is sampler_index).
  int32_t layout_binding = -1;
  int32_t layout_location = -1;  // GLSL 4.30 layout(location = N) on a uniform: its explicit GL location
};

// An active member of a named uniform block, as glGetActiveUniformsiv reports it.
struct BlockMember {
  std::string name;  // GL name ("Block.member" for instanced blocks is reported as glslang names it)
  uint32_t gl_type = 0;
  int32_t array_size = 1;
  int32_t offset = 0;
  int32_t array_stride = 0;
  int32_t matrix_stride = 0;
  bool row_major = false;
};

struct UniformBlock {
  std::string name;  // GL block name ("Lights"), instance name not included
  uint32_t data_size = 0;
  uint32_t binding = 0;  // SPIR-V binding in set 1 (== index in `uniform_blocks`)
  // Arrays of blocks ("B[0]", "B[1]") are one SPIR-V variable: every element reports the binding of element
  // [0] and its descriptor array element here (descriptorCount of that binding = number of elements).
  uint32_t array_element = 0;
  uint32_t stages = 0;
  int32_t layout_binding =
      -1;  // layout(binding = N): initial glUniformBlockBinding (element i: N + i); -1 absent
  std::vector<std::string> member_names;  // GL names of active members, in uniform order
  std::vector<BlockMember> members;       // the same members with their layout
};

struct Attribute {
  std::string name;
  uint32_t gl_type = 0;  // GL_FLOAT_VEC3, GL_INT, ...
  int32_t array_size = 1;
  int32_t location = -1;  // final location after explicit layout / glBindAttribLocation / auto
};

struct FragOutput {
  std::string name;
  uint32_t gl_type = 0;
  int32_t location = 0;
  int32_t index = 0;  // dual-source blend index
};

struct SourceOptions {
  bool es = false;  // ESSL (ES contexts) instead of desktop GLSL
  // A compatibility context: GLSL up to 1.30 and `compatibility` profile sources get the compatibility
  // built-ins (gl_Vertex, gl_ModelViewMatrix, gl_FrontColor..., compat_builtins.h).
  bool compat_builtins = false;
  // GLSL version assumed when the source has no #version line (110 desktop, 100 ES).
};

struct CompileResult {
  bool ok = false;
  std::string info_log;  // compiler messages; non-empty on failure
};

// glCompileShader: parse and type-check one stage. Keeps nothing; linking compiles again with all stages.
CompileResult CompileShader(Stage stage, const std::string& source, const SourceOptions& options);

struct LinkInput {
  struct StageSource {
    Stage stage;
    std::string source;
  };
  std::vector<StageSource> stages;
  SourceOptions options;
  std::map<std::string, int32_t> attrib_bindings;     // glBindAttribLocation
  std::map<std::string, int32_t> frag_data_bindings;  // glBindFragDataLocation(Indexed): location
  std::map<std::string, int32_t> frag_data_indices;   // glBindFragDataLocationIndexed: index
  // glTransformFeedbackVaryings as of this link: names in capture order, and GL_SEPARATE_ATTRIBS (one
  // buffer per varying) or GL_INTERLEAVED_ATTRIBS (all in buffer 0).
  std::vector<std::string> xfb_varyings;
  bool xfb_separate = false;
};

// Transform feedback limits (GL_MAX_TRANSFORM_FEEDBACK_*): a program exceeding them fails to link.
constexpr uint32_t kMaxXfbInterleavedComponents = 64;
constexpr uint32_t kMaxXfbSeparateAttribs = 4;
constexpr uint32_t kMaxXfbSeparateComponents = 4;

// One captured varying as glGetTransformFeedbackVarying reports it, and where it lands.
struct XfbVarying {
  std::string name;  // as the application named it ("gl_Position", "v[2]", "arr")
  uint32_t gl_type = 0;
  int32_t size = 1;         // array elements (1 for non-arrays and single elements)
  uint32_t components = 0;  // 32-bit components written per vertex
  uint32_t buffer = 0;      // binding index
  uint32_t offset = 0;      // bytes from the start of a vertex's record in that buffer
};

struct LinkedProgram {
  bool ok = false;
  std::string info_log;
  std::vector<uint32_t> spirv[static_cast<int>(Stage::kCount)];  // empty for absent stages
  uint32_t default_block_size = 0;  // bytes; 0 when the program has no loose non-sampler uniforms
  // Initial contents of the default block: uniform initialisers applied (glslang drops them), zero
  // elsewhere. Size == default_block_size.
  std::vector<uint8_t> default_block_init;
  std::vector<Uniform> uniforms;
  std::vector<UniformBlock> uniform_blocks;
  std::vector<Attribute> attributes;
  std::vector<FragOutput> frag_outputs;
  uint32_t sampler_count = 0;
  // The sampler bindings (set kSamplerSet) as a backend's descriptor layout needs them, so that none parses
  // the SPIR-V: bit i of texel_buffer_mask is set where binding i is a samplerBuffer (a uniform texel buffer
  // in Vulkan), and sampler_array_sizes[i] is the descriptor count of an array's binding (0 for a single
  // sampler and for the indices an array's later elements take). Bindings from kMaxSamplerBindings up are
  // not described (the frontend refuses to draw with them).
  static constexpr uint32_t kMaxSamplerBindings = 16;
  uint32_t texel_buffer_mask = 0;
  std::array<uint8_t, kMaxSamplerBindings> sampler_array_sizes{};
  // Transform feedback (empty when nothing is captured): the varyings in capture order, and the bytes each
  // binding advances per vertex. The last pre-rasterization stage's SPIR-V writes one extra output per
  // varying, named caldera_xfb_<i>, decorated XfbBuffer/XfbStride/Offset (spirv_xfb.cpp).
  std::vector<XfbVarying> xfb_varyings;
  bool xfb_separate = false;
  uint32_t xfb_strides[kMaxXfbSeparateAttribs] = {};
  // Compatibility built-ins the program uses (indices into CompatBuiltins()); the frontend feeds the uniforms
  // among them from the fixed-function state and the attributes from the current values.
  std::vector<uint16_t> compat_builtins;
  // The user clip planes the compatibility clip epilogue reads (compat_builtins.h): a vec4[8] in the default
  // block at this offset, hidden from the GL uniform list; -1 without the epilogue.
  int32_t compat_clip_planes_offset = -1;
  int32_t compat_color_control_offset = -1;  // kCompatColorControl in the default block (-1: none)
  int32_t compat_clip_planes_stride = 0;
  bool compat_clip_enables = false;  // it holds enable flags (x: 1 or 0) for the shader's own distances
  // The geometry shader's output primitive: 0 points, 1 line strips, 2 triangle strips; -1 without one.
  int32_t geometry_output = -1;
};

// glLinkProgram: compile every stage in one glslang program with Vulkan relaxed rules (cross-stage varying
// matching by name, one merged default uniform block), map IO, emit SPIR-V, validate it with SPIRV-Tools
// and reflect. GL conventions handled here: gl_InstanceID (instance index is rebased by the backend, which
// always draws with firstInstance 0 until base-instance draws exist). Depth range and Y orientation are the
// backends' business (VK_EXT_depth_clip_control, GL-oriented image storage).
LinkedProgram LinkProgram(const LinkInput& input);

// One-time process setup/teardown of glslang (reference counted, thread-safe).
void InitializeProcess();
void FinalizeProcess();

}  // namespace caldera::shader
