// The records that travel from the frontend to a backend. Plain, trivially copyable structs carrying
// resolved state and handles, never pointers into frontend objects: a backend may apply them on another
// thread, later (run-ahead). Variable-length payloads (buffer data, SPIR-V, uniform bytes) follow the record
// in the stream; `payload_size` says how many bytes.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <type_traits>

#include "pipe/formats.h"
#include "pipe/handles.h"
#include "pipe/present.h"
#include "pipe/sync.h"

namespace caldera::pipe {

constexpr int kMaxColorAttachments = 8;
constexpr int kMaxVertexAttribs = 16;
constexpr int kMaxUniformBlocks = 12;  // per program (GL_MAX_COMBINED_UNIFORM_BLOCKS is larger; see docs)
constexpr int kMaxSamplers = 16;       // per program
constexpr int kMaxTransformFeedbackBuffers = 4;

// Every struct Cmd<Name> below is a record; its place in this file is its Op. gen_records.py makes the Op
// enum, the sizes and names, the checks and the backends' dispatch from them (records_gen.h, included at the
// end), so a record is added by writing its struct here and an Apply for it in each backend.

// (Re)allocates the storage behind `buffer`. Re-specifying a buffer the GPU still reads (glBufferData
// orphaning) gets fresh storage; the old one is retired when the work that uses it completes.
struct CmdBufferStorage {
  Handle buffer;
  uint64_t size;
};

// Where a large payload lies when the pipe staged it (pipe/staging.h) instead of putting it after the
// record: `data` is null for a payload in the chunk. A backend reads the bytes at `data`, or (Vulkan) copies
// on the device from its block `block` at `offset`, and then calls StagingArena::MarkDeviceUse(region) so
// the space is kept until that copy has retired.
struct StagedPayload {
  const uint8_t* data = nullptr;
  uint64_t block = 0;
  uint64_t offset = 0;
  uint64_t region = 0;
};

// Writes payload_size bytes at `offset`. Ordered with draws: a draw recorded before sees the old data.
struct CmdBufferUpload {
  Handle buffer;
  uint64_t offset;
  uint32_t payload_size;
  StagedPayload staged = {};
};

struct CmdBufferCopy {
  Handle src, dst;
  uint64_t src_offset, dst_offset, size;
};

struct CmdBufferDestroy {
  Handle buffer;
};

// Synchronous: copies `size` bytes at `offset` of the buffer's device storage to `dst` once everything
// recorded before has completed. The frontend's shadow catches up this way after device-side writes
// (CmdReadPixelsToBuffer).
struct CmdBufferRead {
  Handle buffer;
  uint64_t offset, size;
  void* dst;
  std::atomic<bool>* done;
};

enum class TextureKind : uint8_t {
  k2D,
  k2DArray,
  k3D,
  kCube,
  kRect,
  kBuffer,
  k2DMultisample,
  k2DMultisampleArray,
  k1D,
  k1DArray
};

// An image's shape. k2D and kRect are one 2D layer; k2DArray has `layers` layers; kCube has 6 layers in GL
// face order (+X, -X, +Y, -Y, +Z, -Z) and must be sampleable as a cube; k3D has `depth` slices.
// k2DMultisample is one 2D layer of `samples` samples, sampled through sampler2DMS (texelFetch by sample);
// k2DMultisampleArray has `layers` such layers (sampler2DMSArray).
// k1D and k1DArray have height 1 (k1DArray: `layers` layers). The shader path lowers 1D samplers to 2D ones
// reading row 0 (spirv_1d.cpp), so backends store and sample them as 2D (array) images of height 1; the
// kind lets them pick the matching stand-in and keeps the shape explicit for a backend with real 1D images.
// Every level of every layer or slice exists (levels is the full count).
struct CmdImageCreate {
  Handle image;
  Format format;
  uint8_t samples;
  uint16_t levels;
  uint32_t width, height, layers;
  uint32_t depth = 1;  // k3D only
  TextureKind kind = TextureKind::k2D;
};

// How backends store and view a kind: 1D kinds as their 2D counterparts (height 1), everything else as is.
constexpr TextureKind StorageKind(TextureKind kind) {
  return kind == TextureKind::k1D        ? TextureKind::k2D
         : kind == TextureKind::k1DArray ? TextureKind::k2DArray
                                         : kind;
}

// Writes texels (payload, tightly packed in the image's format) into a box of one level: `z` is the first
// layer (arrays; cube faces in GL order) or slice (3D), `depth` how many; the payload holds `depth` whole
// width x height rectangles one after another. Block-compressed images (IsBlockCompressed) take 4x4 blocks:
// x and y are multiples of 4, width and height are too unless the box ends at the level's edge, and each
// layer's rows of blocks are tightly packed.
struct CmdImageUpload {
  Handle image;
  uint32_t level;
  int32_t x, y;
  uint32_t width, height;
  uint32_t payload_size;
  uint32_t z = 0;
  uint32_t depth = 1;
  StagedPayload staged = {};
};

// glTex(Sub)Image from a pixel unpack buffer, on the device: the same box as CmdImageUpload, its texels
// read from `buffer` at `offset` in the image's own format (TexelSize), rows `row_length` texels apart and
// layers/slices `image_height` rows apart. The frontend only sends it when no conversion is needed and
// `offset` is a multiple of the texel size.
struct CmdImageUploadFromBuffer {
  Handle image;
  uint32_t level;
  int32_t x, y;
  uint32_t width, height;
  uint32_t z, depth;
  Handle buffer;
  uint64_t offset;
  uint32_t row_length, image_height;
};

// One 2D subresource: a level of one layer (arrays, cube faces in GL order) or one slice (3D). What render
// targets, readbacks and blits name.
struct ImageRef {
  Handle image;
  uint16_t level;
  uint16_t layer;
  friend bool operator==(const ImageRef&, const ImageRef&) = default;
};
static_assert(sizeof(ImageRef) == 12, "compared bytewise inside records: no padding");

// glGenerateMipmap: levels base+1 .. base+count-1 filtered down from `base_level`, in every layer (3D: the
// depth halves too).
struct CmdGenerateMipmaps {
  Handle image;
  uint32_t base_level;
  uint32_t level_count;
};

struct CmdImageDestroy {
  Handle image;
};

// An EGLImage of one subresource of another image (EGL_KHR_gl_texture_cubemap_image's faces,
// EGL_KHR_gl_texture_2D_image's levels above 0): `image` becomes a one-level, one-layer 2D image whose
// texels are `parent`'s (level, layer), neither copied nor moved. Everything that names `image` (uploads,
// readbacks, attachments, blits, sampling) reaches that subresource of `parent`. The frontend destroys
// `image` before `parent`, and sends it only where BackendLimits::subresource_images says so.
struct CmdImageAlias {
  Handle image;
  Handle parent;
  uint16_t level;
  uint16_t layer;
};

// Specialization constants the shader path adds to every program (src/shader/spirv_points.cpp) for GL's
// point rules; a backend sets them per pipeline, or leaves the defaults (the shader's gl_PointSize, the
// SPIR-V PointCoord origin).
constexpr uint32_t kSpecUseShaderPointSize = 1000;  // bool, default true: false takes kSpecPointSize
constexpr uint32_t kSpecPointSize = 1001;           // float, default 1.0
constexpr uint32_t kSpecFlipPointCoord = 1002;      // bool, default false: gl_PointCoord.y = 1 - y

// Payload: vertex, fragment, then (optional) geometry SPIR-V words.
struct CmdProgramCreate {
  Handle program;
  uint32_t vertex_words;
  uint32_t fragment_words;
  uint32_t geometry_words;  // 0: no geometry stage
  uint32_t default_block_size;
  uint32_t payload_size;
  // Transform feedback: the last pre-rasterization stage writes `xfb_outputs` extra outputs named
  // caldera_xfb_0.. (the shader path's copies of the captured varyings, decorated for Vulkan's
  // VK_EXT_transform_feedback); a GL host captures them by name, one buffer each when `xfb_separate`.
  uint32_t xfb_outputs = 0;
  uint32_t xfb_separate = 0;
  // Non-zero: the program has no fragment shader of its own (desktop GL allows that; the frontend links an
  // empty one): colour attachments keep their contents, one of the values GL's "undefined" allows, and
  // Vulkan's validation wants attachments the shader does not write masked.
  uint32_t no_color_outputs = 0;
  // The sampler bindings, as the linker assigned them (shader::LinkedProgram): bit i set where binding i
  // is a samplerBuffer, and the descriptor count of each sampler array's binding (0: a single sampler, or an
  // index an array's later elements take). Backends take their layouts from these, not from the SPIR-V.
  uint32_t texel_buffer_mask = 0;
  uint8_t sampler_array_sizes[kMaxSamplers] = {};
};

struct CmdProgramDestroy {
  Handle program;
};

// The framebuffer draws and clears go to. GL-oriented storage: row 0 is the bottom row, so window
// coordinates are framebuffer coordinates (no Y flip anywhere but presentation).
struct CmdSetRenderTargets {
  std::array<ImageRef, kMaxColorAttachments> color;  // indexed by fragment output location
  ImageRef depth_stencil;
  uint32_t width, height;  // the render area: the smallest attachment (at its level)
  // Non-zero: sRGB attachments encode linear values on write (and blend in linear space); zero: they are
  // written as if they were UNORM (GL_FRAMEBUFFER_SRGB disabled). A word, not a bool: backends compare the
  // record bytewise, so it must have no padding.
  uint32_t srgb_encode = 0;
  // Layered rendering (glFramebufferTexture of an array, cube, 3D or multisample-array texture): zero when
  // the attachments are single layers; else every attachment is layered (GL completeness), the render
  // covers layers [0, layers) of each (the ImageRefs' layer is 0) and a geometry shader's gl_Layer picks
  // one. GL's layer count is the smallest of the attachments' (cube: 6, 3D: slices of the level).
  uint32_t layers = 0;
};
static_assert(sizeof(CmdSetRenderTargets) ==
                  sizeof(ImageRef) * (kMaxColorAttachments + 1) + 4 * sizeof(uint32_t),
              "compared bytewise: no padding");

struct StencilFace {
  CompareOp func = CompareOp::kAlways;
  StencilOp fail = StencilOp::kKeep, depth_fail = StencilOp::kKeep, pass = StencilOp::kKeep;
  uint32_t reference = 0, value_mask = ~0u, write_mask = ~0u;
};

struct BlendAttachment {
  bool enable = false;
  BlendFactor src_rgb = BlendFactor::kOne, dst_rgb = BlendFactor::kZero;
  BlendFactor src_alpha = BlendFactor::kOne, dst_alpha = BlendFactor::kZero;
  BlendOp op_rgb = BlendOp::kAdd, op_alpha = BlendOp::kAdd;
  uint8_t write_mask = 0xF;  // bit 0 R .. bit 3 A
};

// Everything fixed-function, resolved. Sent whole when any of it changed since the last draw.
struct CmdSetFixedState {
  // x, y, width, height in window coordinates, as GL has them: any origin, sizes at most
  // BackendCaps::max_viewport (the backend fits them to the device's bounds).
  float viewport[4];
  float depth_range[2];
  bool scissor_enable;
  int32_t scissor[4];  // x, y, width, height as GL has them (x + width may pass INT32_MAX: ScissorEnd)
  CullMode cull;
  bool front_ccw;
  PolygonMode polygon_mode;
  bool depth_test, depth_write, depth_clamp;
  CompareOp depth_func;
  bool stencil_test;
  StencilFace stencil_front, stencil_back;
  std::array<BlendAttachment, kMaxColorAttachments> blend;
  float blend_color[4];
  float line_width;
  bool polygon_offset_fill;
  float polygon_offset_factor, polygon_offset_units;
  bool primitive_restart;
  bool rasterizer_discard;
  bool provoking_last;  // flat varyings come from the last vertex of a primitive (GL's default), else the
                        // first
  // Multisample coverage, applied only when the render targets are multisampled (the frontend turns it off
  // while GL_MULTISAMPLE is disabled): alpha-to-coverage; the fraction `coverage_value` of the samples kept
  // (the others when `coverage_invert`) when `sample_coverage`; and `sample_mask` (bit per sample, all ones
  // when unused) ANDed into every fragment's coverage.
  bool alpha_to_coverage;
  bool sample_coverage, coverage_invert;
  float coverage_value;
  uint32_t sample_mask;
  // GL_COLOR_LOGIC_OP: replaces blending on normalized and integer attachments (float ones ignore it).
  bool logic_op_enable;
  LogicOp logic_op;
  // Points: with `program_point_size` the last vertex stage's gl_PointSize is the size, else `point_size`
  // (glPointSize). `point_origin_lower_left`: GL_POINT_SPRITE_COORD_ORIGIN is GL_LOWER_LEFT (gl_PointCoord's
  // y grows upwards).
  bool program_point_size;
  bool point_origin_lower_left;
  float point_size;
  // GL_MULTISAMPLE: when false, multisampled targets rasterize as if single-sampled (each fragment covers
  // every sample or none, decided at the pixel centre). See docs/ARCHITECTURE.md for what each backend does.
  bool multisample = true;
  // GL_LINE_STIPPLE (compatibility contexts): line fragments are kept where bit (counter / factor) % 16 of
  // `line_stipple_pattern` is set, the counter restarting with each line strip or independent segment.
  bool line_stipple = false;
  uint16_t line_stipple_pattern = 0xFFFF;
  uint32_t line_stipple_factor = 1;  // 1..256
};

// How the 32-bit words of a generic attribute value are to be read: glVertexAttrib* stores floats,
// glVertexAttribI* signed or unsigned integers (bit-exact; GL reads an input of another type as undefined).
enum class GenericKind : uint8_t { kFloat, kInt, kUInt };

struct VertexAttrib {
  bool enabled = false;  // false: the program's input is fed `constant`
  uint8_t binding = 0;
  GenericKind constant_kind = GenericKind::kFloat;
  VertexFormat format;
  uint32_t offset = 0;
  // Generic value (glVertexAttrib*) for disabled arrays, as the words of `constant_kind`; float (0,0,0,1)
  // by default.
  uint32_t constant[4] = {0, 0, 0, 0x3f800000u};
};

struct VertexBinding {
  Handle buffer;
  uint64_t offset = 0;
  uint32_t stride = 0;
  uint32_t divisor = 0;
};

struct CmdSetVertexInput {
  uint32_t attrib_mask;  // locations the program consumes
  std::array<VertexAttrib, kMaxVertexAttribs> attribs;
  std::array<VertexBinding, kMaxVertexAttribs> bindings;
};

struct CmdSetProgram {
  Handle program;
};

// Payload: the default uniform block's bytes (std140 as reflected).
struct CmdSetUniforms {
  uint32_t payload_size;
};

// Uniform buffers by program block index (the frontend resolved glUniformBlockBinding and the binding
// points).
struct UniformBufferBinding {
  Handle buffer;  // zero: nothing bound (the shader reads undefined values; GL says so too)
  uint64_t offset = 0;
  uint64_t size = 0;
};

struct CmdSetUniformBuffers {
  uint32_t count;
  std::array<UniformBufferBinding, kMaxUniformBlocks> blocks;
};

// Sampler state, resolved from texture parameters (and sampler objects).
struct SamplerState {
  uint8_t min_linear = 0, mag_linear = 0;
  uint8_t mip_mode = 0;         // 0 none (base level only), 1 nearest, 2 linear
  uint8_t wrap[3] = {0, 0, 0};  // 0 repeat, 1 mirrored repeat, 2 clamp to edge, 3 clamp to border
  uint8_t compare_enable = 0;
  CompareOp compare_op = CompareOp::kLessOrEqual;
  float min_lod = -1000.0f, max_lod = 1000.0f, lod_bias = 0.0f;
  // GL_TEXTURE_BORDER_COLOR as GL keeps it: four 32-bit words that are floats, or (border_type kSint/kUint,
  // the texture's numeric type) integers written by glTexParameterI*. Components the format lacks are
  // already replaced by 0 (colour) and 1 (alpha), and normalised formats' values clamped to their range.
  float border[4] = {0, 0, 0, 0};
  uint8_t border_type = 0;  // SampleType
  // GL_TEXTURE_SRGB_DECODE_EXT is GL_SKIP_DECODE_EXT and the texture's format is sRGB: the shader reads the
  // encoded values (BackendCaps::srgb_decode; a property of the view in Vulkan, of the sampler in GLES).
  uint8_t skip_srgb_decode = 0;
  uint8_t pad[2] = {};  // keeps TextureBinding free of implicit padding (it is compared bytewise)
  // GL_TEXTURE_MAX_ANISOTROPY clamped to BackendCaps::max_anisotropy; 1: isotropic filtering.
  float max_anisotropy = 1.0f;
  friend bool operator==(const SamplerState&, const SamplerState&) = default;
};

// How a shader reads a texture (or a clear value is given): float (normalised, float, depth, sRGB after
// decoding), signed or unsigned integers. A backend's stand-in for a missing texture must match it.
enum class SampleType : uint8_t { kFloat, kSint, kUint };

// What a buffer texture (TextureKind::kBuffer) reads: `size` bytes of `buffer`'s current storage from
// `offset`, as texels of `format`. The buffer is named, not its storage: re-specification (orphaning) keeps
// the handle, so the texture follows the new storage as GL requires.
struct TexelBufferRange {
  Handle buffer;  // zero: no buffer (or an empty range); the backend reads zeros
  uint64_t offset = 0;
  uint64_t size = 0;
  Format format = Format::kUndefined;
  uint8_t pad[7] = {};
};
static_assert(sizeof(TexelBufferRange) == 32, "compared bytewise inside records: no padding");

struct TextureBinding {
  Handle image;  // zero: incomplete or missing texture; the backend binds (0,0,0,1) as GL requires
  TextureKind kind = TextureKind::k2D;
  SampleType sample_type = SampleType::kFloat;  // the shader's sampler type; the image's format agrees
  // The levels sampling reads, base_level..max_level (absolute levels of the image, max >= base): GL's
  // GL_TEXTURE_BASE_LEVEL and the last level below GL_TEXTURE_MAX_LEVEL that the image has, with the
  // immutable-texture clamps applied. Shaders address levels relative to base_level (textureSize,
  // texelFetch, textureLod, the sampler's LOD range).
  uint8_t base_level = 0;
  uint8_t max_level = 0;
  // What each component the shader reads comes from: GL_TEXTURE_SWIZZLE_* composed over the format's own
  // swizzle (pipe::LegacyStorage), applied by the backend's view of the image.
  Swizzle swizzle;
  uint8_t pad2[4] = {};
  SamplerState sampler;
  TexelBufferRange texel_buffer;  // kind kBuffer only (image is zero then)
};
static_assert(sizeof(Swizzle) == 4, "four one-byte sources");
static_assert(sizeof(TextureBinding) == 8 + 4 + 8 + sizeof(SamplerState) + sizeof(TexelBufferRange),
              "compared bytewise: no padding");

// Textures by program sampler index.
struct CmdSetTextures {
  uint32_t count;
  std::array<TextureBinding, kMaxSamplers> textures;
};

enum ClearBits : uint8_t { kClearColor = 1, kClearDepth = 2, kClearStencil = 4 };

// The end (origin + size) of a scissor span, saturated: GL takes any origin and size, so the sum may not fit.
constexpr int32_t ScissorEnd(int32_t origin, int32_t size) {
  int64_t end = int64_t(origin) + size;
  return end > INT32_MAX ? INT32_MAX : end < INT32_MIN ? INT32_MIN : int32_t(end);
}

struct CmdClear {
  uint8_t mask;                 // ClearBits
  uint8_t color_write_mask;     // glColorMask for draw buffer 0..
  uint8_t color_targets;        // bit per color attachment to clear
  bool depth_write;             // glDepthMask
  uint32_t stencil_write_mask;  // glStencilMask (front)
  SampleType color_type;        // kFloat: `color`; integer clears (glClearBufferiv/uiv): `color_int`
  float color[4];
  uint32_t color_int[4];
  float depth;
  uint32_t stencil;
  bool scissor_enable;
  int32_t scissor[4];
};

// glBlitFramebuffer between two images; rectangles are x0,y0,x1,y1 in GL window coordinates (a reversed
// pair mirrors). Depth/stencil blits are whole-aspect, nearest.
struct CmdBlit {
  ImageRef src, dst;
  int32_t src_rect[4], dst_rect[4];
  uint8_t mask;  // ClearBits: which aspects
  bool linear;
  // GL_FRAMEBUFFER_SRGB at the blit (GL 4.4 §18.3.1, Mesa's rule in every version): set, an sRGB source is
  // decoded and an sRGB destination encoded; clear, stored values are copied as they are on both sides.
  bool srgb_convert;
  // GL 3.3 §4.3.2: the scissor test limits the pixels written (x, y, width, height), without changing which
  // source pixel each destination pixel takes.
  bool scissor_enable;
  int32_t scissor[4];
};

// glCopyTex(Sub)Image*: the width x height rectangle at (src_x, src_y) of `src` (the read framebuffer's read
// buffer, or its depth/stencil image) written to `dst` at (dst_x, dst_y), converted to dst's format as a
// nearest blit converts. The frontend sends only pairs that convert that way: colour among float,
// normalised and sRGB formats, integer to integer of the same signedness, depth/stencil to the same format;
// both rectangles lie inside their images. Pending clears of the source are resolved first.
struct CmdCopyImage {
  ImageRef src, dst;
  int32_t src_x, src_y, dst_x, dst_y;
  uint32_t width, height;
  uint8_t mask;  // ClearBits: which aspects
};

// The blit a copy is (both backends implement CmdCopyImage with their blit path).
inline CmdBlit CopyAsBlit(const CmdCopyImage& c) {
  CmdBlit b{};
  b.src = c.src;
  b.dst = c.dst;
  int32_t w = static_cast<int32_t>(c.width), h = static_cast<int32_t>(c.height);
  b.src_rect[0] = c.src_x, b.src_rect[1] = c.src_y, b.src_rect[2] = c.src_x + w, b.src_rect[3] = c.src_y + h;
  b.dst_rect[0] = c.dst_x, b.dst_rect[1] = c.dst_y, b.dst_rect[2] = c.dst_x + w, b.dst_rect[3] = c.dst_y + h;
  b.mask = c.mask;
  b.linear = false;
  return b;
}

struct CmdDraw {
  Topology topology;
  IndexType index_type;
  Handle index_buffer;
  // Elements: GL's byte offset of the first index in index_buffer (a multiple of the index size: the frontend
  // refuses others). Backends turn it into what their draw takes (Vulkan: a first index, the buffer bound
  // at its start; GLES: the offset itself).
  uint64_t index_offset;
  uint32_t first;  // first vertex (arrays); elements: indices after index_offset (the frontend sends 0)
  uint32_t count;  // elements: first + count lie inside the index buffer (the frontend clamps)
  uint32_t instances;
  int32_t base_vertex;
};

// An indexed draw whose indices travel inline (payload: `count` uint32 values), for draws the frontend had
// to rewrite: line loops on backends without them (a closed line strip), and primitive restart with an
// index other than all-ones of the index type (Vulkan and GLES restart only on that). Index 0xFFFFFFFF
// restarts when the fixed state's primitive_restart is set. The backend copies the indices into its own
// streaming memory (upload ring, stream buffer), in order with the other draws.
struct CmdDrawInlineIndices {
  Topology topology;  // never kLineLoop
  uint32_t count;
  uint32_t instances;
  int32_t base_vertex;
  uint32_t payload_size;
};

// Which aspect CmdReadPixels reads: colour and depth come back in the record's ReadLayout (kDepth32F for
// depth), stencil as one byte per pixel.
enum class ReadAspect : uint8_t { kColor, kDepth, kStencil };

// What a readback writes per pixel, whatever the image's format: every layout holds R, G, B, A (components
// the format lacks read 0, alpha 1), except kDepth32F (the depth aspect of a depth/stencil image).
enum class ReadLayout : uint8_t {
  kRGBA8,    // unsigned normalised bytes (formats of up to 8 bits; float formats clamped)
  kRGBA32F,  // floats (float formats, and normalised formats wider than 8 bits)
  kRGBA32I,  // 32-bit integers, signed components sign-extended (integer formats)
  kStored,   // the image's own texels in the pipe's layout (colour): when that is the client's format/type
  kDepth32F  // one float per pixel
};

// Synchronous: the frontend waits until `done` is set. Reads the current read target (the read
// framebuffer's read buffer, or its depth/stencil attachment, given explicitly as `image`: level and layer
// included).
struct CmdReadPixels {
  ImageRef image;
  ReadLayout layout;
  int32_t x, y, width, height;
  uint32_t row_stride;  // bytes between rows in dst
  void* dst;            // app memory, valid until the frontend returns from glReadPixels
  std::atomic<bool>* done;
  ReadAspect aspect = ReadAspect::kColor;
};

// glReadPixels into a pixel pack buffer, on the device (no wait): a rectangle of the read image, in the
// image's own format, written to `buffer` at `offset` with rows `row_length` texels apart. Sent only for
// color images whose format is what the app asked for.
struct CmdReadPixelsToBuffer {
  ImageRef image;
  int32_t x, y, width, height;
  Handle buffer;
  uint64_t offset;
  uint32_t row_length;
};

struct CmdFlush {};

struct CmdFinish {
  std::atomic<bool>* done;  // set once everything before it has completed on the device
};

// glFenceSync: submits everything recorded before it and publishes that submission's serial in *fence.
// The record owns one reference to the fence, dropped once published.
struct CmdFenceSync {
  FenceState* fence;
};

// glWaitSync: this context's later submissions wait on the device for *fence (no CPU wait). Owns a reference.
struct CmdWaitSync {
  FenceState* fence;
};

enum class QueryKind : uint8_t {
  kSamplesPassed,
  kAnySamplesPassed,
  kTimeElapsed,
  kTimestamp,
  kPrimitivesGenerated,  // primitives out of the last pre-rasterization stage, capture active or not
  kTransformFeedbackPrimitivesWritten,  // primitives written to the capture buffers
};

// Queries are named by a per-context id the frontend picks (fresh for every glBeginQuery/glQueryCounter, so
// a re-begun GL query never aliases its previous result). Occlusion kinds count the draws between begin and
// end however many render passes and submissions they span.
struct CmdQueryBegin {
  uint64_t query;
  QueryKind kind;  // not kTimestamp
};

struct CmdQueryEnd {
  uint64_t query;
};

// glQueryCounter(GL_TIMESTAMP): the device time once everything recorded before has completed.
struct CmdQueryTimestamp {
  uint64_t query;
};

// Synchronous. Reads an ended query: *available says whether the result is there (wait: block until it is)
// and *result is the sample count (occlusion) or nanoseconds (time elapsed, timestamp). A read result is
// final: the backend forgets the query then, and the frontend keeps the value.
struct CmdQueryResult {
  uint64_t query;
  bool wait;
  bool* available;
  uint64_t* result;
  std::atomic<bool>* done;
};

// The frontend no longer needs the query (deleted, re-begun, or its context is going away).
struct CmdQueryDestroy {
  uint64_t query;
};

// Transform feedback captures are named by `object`, the lifetime id of the GL transform feedback object
// that owns them (GL 4.0 / ES 3.0 objects, per context). Several objects may hold a begun capture at once,
// but at most one records (the bound one, not paused); a paused capture keeps where each binding stopped,
// and resuming it appends from there, whichever objects captured in between.
//
// glBeginTransformFeedback with the buffers resolved: draws until the capture is paused or ended append the
// program's captured outputs to `buffers[i]` (binding i) from `offset`, never past `offset + size`.
// `primitive` is kPointList, kLineList or kTriangleList: the frontend checked every draw's mode against
// it. A capture may span several backend render passes (Vulkan resumes it through counter buffers).
struct TransformFeedbackBuffer {
  Handle buffer;  // zero: binding unused
  uint64_t offset = 0;
  uint64_t size = 0;
};

struct CmdTransformFeedbackBegin {
  uint64_t object;
  Topology primitive;
  uint32_t count;  // bindings used: 0 .. count-1
  std::array<TransformFeedbackBuffer, kMaxTransformFeedbackBuffers> buffers;
};

// glPauseTransformFeedback: the recording capture stops; later draws capture nothing until it resumes.
struct CmdTransformFeedbackPause {
  uint64_t object;
};

// glResumeTransformFeedback: the paused capture records again, appending where each binding stopped. The
// frontend sent the capture's program (CmdSetProgram) just before.
struct CmdTransformFeedbackResume {
  uint64_t object;
};

// glEndTransformFeedback (recording or paused): the buffers' captured contents are visible to every later
// command.
struct CmdTransformFeedbackEnd {
  uint64_t object;
};

// The transform feedback object was deleted (never while its capture is begun): the backend may free what
// it kept for it (a host object on GLES).
struct CmdTransformFeedbackDestroy {
  uint64_t object;
};

// glDrawTransformFeedback: draws as many vertices as the object's last ended capture wrote to binding 0,
// counted on the device (`stride`: bytes per vertex there; 0 draws nothing). Only sent to backends with
// BackendCaps::draw_transform_feedback.
struct CmdDrawTransformFeedback {
  uint64_t object;
  Topology topology;  // never kLineLoop
  uint32_t instances;
  uint32_t stride;
};

// eglSwapBuffers on a window with a native presenter: the frame in `image` (the default framebuffer's
// colour image, GL orientation: row 0 is the bottom; multisampled images are resolved) goes to the window.
// `interval` is the swap interval at the swap. The backend may block here to keep the GL thread at most
// CALDERA_FRAME_LATENCY frames ahead of the display; it never waits for the display at interval 0.
struct CmdPresent {
  ImageRef image;
  Presenter* presenter;  // the backend's own object (Backend::CreatePresenter), alive while the surface is
  int32_t interval;
  uint64_t recorded_ns;  // std::chrono::steady_clock at the swap, on the GL thread (PresentStats latency)
  // The swap's damage (eglSwapBuffersWithDamage), a hint: x, y, width, height in GL's bottom-up pixels.
  // damage_count 0: the whole frame. More rectangles than fit are merged into their bounding box.
  static constexpr int kMaxDamageRects = 8;
  int32_t damage[kMaxDamageRects][4] = {};
  int32_t damage_count = 0;
  // A frame later than `interval` vblanks after the previous one is shown at once (tearing) rather than at
  // the next vblank (GLX_EXT_swap_control_tear; Vulkan: FIFO_RELAXED where the surface offers it).
  bool late_swaps_tear = false;
};

}  // namespace caldera::pipe

#include "pipe/records_gen.h"  // IWYU pragma: export
