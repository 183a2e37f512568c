// One GL context: its state tracker, error latch, share group and pipe. Entry points reach it through the
// thread's current-context pointer; everything a draw needs is resolved here into pipe records.
#pragma once

#include <GL/glcorearb.h>

#include <array>
#include <atomic>
#include <bitset>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "frontend/debug_output.h"
#include "frontend/draw_delta.h"
#include "frontend/objects.h"
#include "frontend/platform.h"
#include "frontend/texture_proxy.h"
#include "pipe/pipe.h"

namespace caldera {

class Hud;  // hud.h
namespace compat {
struct State;  // compat/state.h
}

struct SyncTable;   // gl_sync.cpp
struct QueryTable;  // gl_query.cpp

// Objects shared between contexts of one share group (GL: buffers, shaders, programs, renderbuffers,
// textures, samplers, syncs). Vertex arrays, framebuffers and queries stay per context.
struct ShareGroup {
  // Recursive: a GL error found while a table is held is delivered to the application's debug callback
  // right there (debug_output.h), and the callback may call GL commands that look objects up again.
  std::recursive_mutex mutex;
  NameTable<Buffer> buffers;
  NameTable<Shader> shaders;
  NameTable<Program> programs;
  NameTable<Renderbuffer> renderbuffers;
  NameTable<Texture> textures;
  NameTable<SamplerObject> samplers;
  GLuint next_shader_program_name = 1;  // shaders and programs share one namespace
  std::shared_ptr<SyncTable> syncs;     // created by the first glFenceSync; guarded by `mutex`
  // Moved by every entry that changes a shared object, from any context (draw_delta.h): a context whose
  // previous draw saw the same value knows no shared object changed since.
  std::atomic<uint64_t> epoch{1};
  void BumpEpoch() { epoch.fetch_add(1, std::memory_order_relaxed); }
};

// Dirty bits: set only on real change, consumed when a draw/clear resolves state into records. The
// program and its uniforms have none: a draw compares the program it sent (Context::sent_program) and the
// resolved resources are cached by object versions (draw_delta.h).
enum DirtyBit : uint32_t { kDirtyRenderTargets, kDirtyFixedState, kDirtyVertexInput, kDirtyCount };

struct StencilState {
  GLenum func = GL_ALWAYS;
  GLint ref = 0;
  GLuint value_mask = ~0u;
  GLuint write_mask = ~0u;
  GLenum fail = GL_KEEP, zfail = GL_KEEP, zpass = GL_KEEP;
};

struct BlendState {
  GLenum src_rgb = GL_ONE, dst_rgb = GL_ZERO, src_alpha = GL_ONE, dst_alpha = GL_ZERO;
  GLenum eq_rgb = GL_FUNC_ADD, eq_alpha = GL_FUNC_ADD;
};

struct GLState {
  GLint viewport[4] = {0, 0, 0, 0};
  GLint scissor[4] = {0, 0, 0, 0};
  GLfloat depth_range[2] = {0.0f, 1.0f};
  GLfloat clear_color[4] = {0, 0, 0, 0};
  GLfloat clear_depth = 1.0f;
  GLint clear_stencil = 0;
  std::array<std::array<bool, 4>, pipe::kMaxColorAttachments> color_mask;
  bool depth_mask = true;
  bool scissor_test = false, depth_test = false, stencil_test = false, cull_face = false;
  bool polygon_offset_fill = false, polygon_offset_line = false, polygon_offset_point = false;
  bool primitive_restart = false, primitive_restart_fixed = false, rasterizer_discard = false;
  bool depth_clamp = false, dither = true, multisample = true, sample_coverage = false;
  bool sample_alpha_to_coverage = false, framebuffer_srgb = false, line_smooth = false;
  bool program_point_size = false, sample_mask = false, cube_map_seamless = false;
  bool polygon_smooth = false, sample_alpha_to_one = false;
  GLfloat sample_coverage_value = 1.0f;
  bool sample_coverage_invert = false;
  GLbitfield sample_mask_value = ~0u;   // glSampleMaski word 0 (GL_MAX_SAMPLE_MASK_WORDS is 1)
  std::array<bool, 8> clip_distance{};  // GL_CLIP_DISTANCEi enables (see gl_state.cpp for how they apply)
  std::bitset<pipe::kMaxColorAttachments> blend;
  GLenum depth_func = GL_LESS;
  GLenum cull_mode = GL_BACK;
  GLenum front_face = GL_CCW;
  GLenum polygon_mode = GL_FILL;  // the device's; the front faces' in compatibility contexts
  // glPolygonMode(GL_BACK, ...) of compatibility contexts (core and ES take GL_FRONT_AND_BACK only): where it
  // differs from polygon_mode, compat/edge_flags.cpp draws each face in its own mode.
  GLenum polygon_mode_back = GL_FILL;
  GLenum provoking_vertex = GL_LAST_VERTEX_CONVENTION;  // GL's default; Vulkan's is the first vertex
  GLfloat line_width = 1.0f;
  // GL_LINE_STIPPLE (compatibility contexts only; glLineStipple clamps the factor to 1..256).
  bool line_stipple = false;
  GLint line_stipple_factor = 1;
  GLushort line_stipple_pattern = 0xFFFF;
  bool color_logic_op = false;
  GLenum logic_op = GL_COPY;
  GLfloat point_size = 1.0f, point_fade_threshold = 1.0f;
  GLenum point_sprite_origin = GL_UPPER_LEFT;
  // GL_POINT_SIZE_MIN/MAX clamp glPointSize (compatibility only; the maximum starts at the device's).
  GLfloat point_size_min = 0.0f, point_size_max = 1.0f;
  // A generated fixed-function program writes gl_PointSize (compat/points.cpp): the draw takes the shader's
  // size as with GL_PROGRAM_POINT_SIZE, without the application's enable changing.
  bool generated_point_size = false;
  GLenum clamp_read_color = GL_FIXED_ONLY;
  GLfloat polygon_offset_factor = 0.0f, polygon_offset_units = 0.0f;
  GLuint primitive_restart_index = 0;
  StencilState stencil[2];  // front, back
  std::array<BlendState, pipe::kMaxColorAttachments> blend_state;
  GLfloat blend_color[4] = {0, 0, 0, 0};
  // Generic attribute values as 32-bit words of `generic_kind` (floats from glVertexAttrib*, integers from
  // glVertexAttribI*), so integer values stay exact.
  uint32_t generic_attrib[pipe::kMaxVertexAttribs][4];
  pipe::GenericKind generic_kind[pipe::kMaxVertexAttribs] = {};
  // glHint's values, in the order of frontend/gl_hints.h's table (kept for glGet; they change nothing drawn).
  std::array<GLenum, 8> hints{GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE,
                              GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE};
  GLint pack_alignment = 4, unpack_alignment = 4;
  GLint pack_row_length = 0, unpack_row_length = 0;
  GLint pack_skip_rows = 0, pack_skip_pixels = 0, unpack_skip_rows = 0, unpack_skip_pixels = 0;
  GLint unpack_image_height = 0, unpack_skip_images = 0, pack_image_height = 0, pack_skip_images = 0;
  bool unpack_lsb_first = false;  // compatibility contexts: glBitmap's bit order
};

class Context {
 public:
  Context(Device& device, const ContextDesc& desc, std::shared_ptr<ShareGroup> share);
  ~Context();

  // GL errors: the first one is latched until glGetError reads it, with the pipe position of the call that
  // made it, so that a failure the backend finds in an earlier call is reported before it.
  void RecordError(GLenum error) {
    if (error_ != GL_NO_ERROR) return;
    error_ = error;
    if (pipe_) error_at_ = pipe_->RecordPosition();
  }
  // Records `error`, reports it to debug output (a GL_DEBUG_TYPE_ERROR message naming `function`) and,
  // when CALDERA_DEBUG asks, logs why (once per distinct message).
  void Error(GLenum error, const char* function, const char* why);
  GLenum PeekError() const { return error_; }  // the latched error, left in place
  // glGetError: the errors of the calls made so far in call order, backend failures (GL_OUT_OF_MEMORY) among
  // them once the records that raised them have been applied.
  GLenum TakeError();
  // Device loss seen by this context's pipe: every GL command but a few then records GL_CONTEXT_LOST and
  // does nothing (the generated entry points check this first).
  bool lost() const { return pipe_->lost(); }
  bool reset_reported = false;  // glGetGraphicsResetStatus has told the application of the loss

  void MarkDirty(DirtyBit bit) { dirty_.set(bit); }
  // The context's draw epoch (draw_delta.h): moved by every non-free GL entry (generated from
  // src/api/entry_classes.txt) and by make-current / surface changes (Bind).
  void BumpDrawEpoch() {
    ++draw_epoch_;
    ++vao_epoch_;
  }
  uint64_t draw_epoch() const { return draw_epoch_; }
  // The vertex arrays' slice (draw_delta.h): moved by entries that change a vertex array (class `vao`), which
  // leave the context's draw epoch — and so the fast path — alone, and by everything that moves the draw
  // epoch. A vertex array validated at the current value is still valid.
  void BumpVaoEpoch() { ++vao_epoch_; }
  uint64_t vao_epoch() const { return vao_epoch_; }
  // The previous draw's epochs are still current: nothing but VAO-, program- and uniform-derived state
  // can have changed since (CALDERA_DRAW_DELTA=0: never).
  bool DrawEpochsUnchanged() const {
    return fast_path_.valid && draw_epoch_ == fast_path_.epoch &&
           share_->epoch.load(std::memory_order_relaxed) == fast_path_.share_epoch;
  }
  // An ES 2/3 context (ES rules: ESSL shaders, ES extensions...). ES 1.1 contexts are not: they run on the
  // compatibility machinery (fixed function, src/frontend/compat/), so they answer IsCompat and IsES1.
  bool IsES() const { return desc_.api == ClientApi::kOpenGLES && desc_.major >= 2; }
  bool IsES1() const { return desc_.api == ClientApi::kOpenGLES && desc_.major == 1; }
  // A compatibility-profile or ES 1.1 context: the deprecated commands work (src/frontend/compat/).
  bool IsCompat() const { return compat_; }
  const ContextDesc& desc() const { return desc_; }
  Device& device() const { return device_; }  // the device outlives its contexts
  ShareGroup& shared() { return *share_; }
  const std::shared_ptr<ShareGroup>& share_ptr() const { return share_; }
  pipe::Pipe& pipe() { return *pipe_; }
  // The HUD (CALDERA_HUD, CALDERA_HUD_LOG), made at the first swap that asks for it; null when neither is
  // set.
  Hud* HudForSwap();

  // Current-ness, driven by MakeCurrent.
  void Bind(Surface* draw, Surface* read);
  Surface* draw_surface() const { return draw_surface_; }
  Surface* read_surface() const { return read_surface_; }
  // glDrawBuffer / glReadBuffer while the default framebuffer is bound (GL_FRONT, GL_BACK, GL_NONE...);
  // kSurfaceOwnBuffer until the application names one, meaning the surface's own buffer
  // (default_framebuffer.h). Not 0: that is GL_NONE, which draws nothing.
  static constexpr GLenum kSurfaceOwnBuffer = 0xFFFFFFFFu;
  GLenum default_draw_buffer = kSurfaceOwnBuffer, default_read_buffer = kSurfaceOwnBuffer;
  std::atomic<std::thread::id> owner{};
  bool ever_current = false;
  bool destroy_pending = false;

  // Called by every draw and clear: resolves dirty state into records.
  void FlushStateForDraw();
  bool FlushRenderTargets();  // true when it recorded new targets
  // The colour image glReadPixels reads from (read framebuffer's read buffer); zero handle if none.
  // *format (optional) is its pipe format (kUndefined where not known exactly).
  pipe::ImageRef ReadColorImage(int32_t* width, int32_t* height, pipe::Format* format = nullptr);
  // Pixel buffer transfers that need no conversion run as device copies (CmdImageUploadFromBuffer,
  // CmdReadPixelsToBuffer). Kill switch CALDERA_PBO_DEVICE_COPIES=0: every PBO transfer goes through the
  // shadow on the CPU (docs/ENVIRONMENT.md).
  bool pixel_transfers_on_device() const { return pixel_transfers_on_device_; }
  // Pixel transfers whose client layout is what the backend reads back (or stores) copy whole rows into
  // client memory, and others convert with a loop chosen once per call (pixel_convert.h). Kill switch
  // CALDERA_PIXEL_ROW_COPY=0: every transfer takes the general per-pixel path. Probes, appended to
  // CALDERA_STATS when the context goes: transfers by row copies, by per-call loops, by the general path.
  bool pixel_row_copy() const { return pixel_row_copy_; }
  // Links and program binaries (CALDERA_STATS "programs" line): what glProgramBinary saved in glslang time.
  struct ProgramStats {
    uint64_t links = 0, link_ns = 0;  // glLinkProgram runs that reached the shader compiler
    uint64_t binaries_written = 0, binary_loads = 0, binary_load_ns = 0, binary_refusals = 0;
  } program_stats;
  struct PixelStats {
    uint64_t row_copies = 0, loop_conversions = 0, general_conversions = 0;
    // Blocks of formats stored decoded (ETC2/EAC, S3TC, BPTC) decoded on the GL thread.
    uint64_t compressed_decoded_blocks = 0;
  } pixel_stats;
  // RGTC textures are stored as their blocks (BC4/BC5) where the backend samples them
  // (BackendCaps::native_rgtc). Kill switch CALDERA_NATIVE_BC=0: stored decoded (docs/ENVIRONMENT.md).
  bool native_rgtc() const { return native_rgtc_; }
  // S3TC textures likewise (BackendCaps::native_s3tc), under the same switches.
  bool native_s3tc() const { return native_s3tc_; }
  // BPTC textures likewise (BackendCaps::native_bptc), under the same switches.
  bool native_bptc() const { return native_bptc_; }
  // The read framebuffer's depth (stencil: its stencil) attachment as glReadPixels reads it; zero handle if
  // none. *format is its pipe format.
  pipe::ImageRef ReadDepthStencilImage(bool stencil, int32_t* width, int32_t* height, pipe::Format* format);
  // Draw framebuffer size (surface or FBO attachments' minimum).
  void DrawFramebufferSize(int32_t* width, int32_t* height);

  // Objects created with the device's handle allocator and destroyed through this context's pipe.
  pipe::Handle NewHandle();
  void ReleaseHandle(pipe::Handle handle);

  GLState state;
  // KHR_debug: the callback or log, filters and debug groups (debug_output.h).
  DebugOutput debug;
  // Bindings.
  std::shared_ptr<Buffer> array_buffer;
  std::shared_ptr<Buffer> copy_read_buffer, copy_write_buffer, pixel_pack_buffer, pixel_unpack_buffer;
  std::shared_ptr<Buffer> uniform_buffer, texture_buffer, transform_feedback_buffer;
  std::shared_ptr<VertexArray> vertex_array;          // null: none bound (core) — draws fail
  std::shared_ptr<VertexArray> default_vertex_array;  // ES: object 0, kept while other arrays are bound
  // ES client-side arrays staged for the draw being made: one stream buffer per attribute and one for
  // indices (client_arrays.cpp), re-specified at each draw that reads client memory.
  std::array<std::shared_ptr<Buffer>, pipe::kMaxVertexAttribs> client_streams;
  std::shared_ptr<Buffer> client_index_stream;
  std::shared_ptr<Program> program;
  std::shared_ptr<Renderbuffer> renderbuffer;
  // Texture bindings per unit and target kind (see TextureTargetIndex in gl_texture.cpp).
  static constexpr int kTextureUnits = 32;
  static constexpr int kTextureTargets = 11;
  std::array<std::array<std::shared_ptr<Texture>, kTextureTargets>, kTextureUnits> textures;
  GLuint active_texture = 0;
  std::array<std::shared_ptr<SamplerObject>, kTextureUnits> sampler_bindings;  // glBindSampler, per unit
  // What glTexImage* made of each proxy target's levels (texture_proxy.h), per ProxyTargetIndex.
  std::array<std::array<ProxyLevel, kProxyLevels>, kProxyTargets> proxy_levels;
  using IndexedBuffer = caldera::IndexedBuffer;
  static constexpr int kUniformBufferBindings = 36;
  std::array<IndexedBuffer, kUniformBufferBindings> uniform_buffer_bindings;
  // Transform feedback objects (gl_transform_feedback_objects.cpp). `transform_feedback` is the bound one,
  // never null: the default object when name 0 is bound. Its indexed bindings are the
  // GL_TRANSFORM_FEEDBACK_BUFFER bindings; its capture state is what glBegin/EndTransformFeedback change.
  std::shared_ptr<TransformFeedbackObject> default_transform_feedback =
      std::make_shared<TransformFeedbackObject>();
  std::shared_ptr<TransformFeedbackObject> transform_feedback = default_transform_feedback;
  NameTable<TransformFeedbackObject> transform_feedbacks;
  // Last texture/uniform-buffer sets sent down the pipe: re-sent only when the resolved set differs.
  pipe::CmdSetTextures sent_textures{};
  pipe::CmdSetUniformBuffers sent_uniform_buffers{};
  // What those sets were resolved from (draw_delta.h): while it all still matches, draws skip resolving.
  ResolvedResourceCache resource_cache;
  DrawDeltaStats draw_delta_stats;
  std::shared_ptr<Framebuffer> draw_framebuffer, read_framebuffer;  // null: default framebuffer

  NameTable<VertexArray> vertex_arrays;
  NameTable<Framebuffer> framebuffers;
  std::shared_ptr<QueryTable> queries;  // query objects (per context in GL), created on first use
  // glBeginConditionalRender (gl_query.cpp): the query's result is resolved on the CPU when rendering
  // begins (waiting for *_WAIT modes; *_NO_WAIT renders when it is not there yet, as GL allows), and while
  // `discard` is set draws, clears and blits record nothing.
  struct ConditionalRender {
    bool active = false;
    bool discard = false;
    GLuint query = 0;
  } conditional_render;

  // The compatibility profile's state (compat/state.h); null in core and ES contexts.
  std::unique_ptr<compat::State> compat;
  // Bits of compat/hooks.h: nonzero while the compatibility code must see commands before they run (a
  // batch of glBegin/glEnd vertices waits, a glBegin is open, a display list is compiling). The generated
  // entry points test it first; it stays zero in core and ES contexts.
  uint8_t compat_hooks = 0;

  // What was last sent down the pipe, to send only real changes.
  pipe::Handle sent_program;
  uint64_t sent_uniform_version = 0;
  uint64_t sent_framebuffer_version = 0;
  // Whether the draw framebuffer last sent has a stencil buffer: a default framebuffer of a config without
  // stencil bits, or a framebuffer object with nothing at GL_STENCIL_ATTACHMENT, has none even where its
  // depth image has a stencil aspect, and the stencil test then passes (FlushFixedState).
  bool sent_stencil_present = true;
  uint64_t sent_framebuffer_lifetime = 0;

 private:
  void WritePipeStats();  // CALDERA_STATS: the pipe mode and its hand-off counters
  // A backend failure glGetError takes: its GL error, reported to debug output on the GL thread now.
  GLenum ReportBackendError(pipe::BackendError failure);
  Device& device_;
  ContextDesc desc_;
  std::shared_ptr<ShareGroup> share_;
  std::unique_ptr<pipe::Pipe> pipe_;
  std::unique_ptr<Hud> hud_;
  GLenum error_ = GL_NO_ERROR;
  pipe::Pipe::Position error_at_;  // where the pipe was when error_ was latched
  std::bitset<kDirtyCount> dirty_;
  uint64_t draw_epoch_ = 1;
  uint64_t vao_epoch_ = 1;
  // The epochs the previous draw's full state flush ran under.
  struct FastPathSnapshot {
    bool valid = false;
    uint64_t epoch = 0, share_epoch = 0;
  } fast_path_;
  Surface* draw_surface_ = nullptr;
  Surface* read_surface_ = nullptr;
  bool compat_ = false;
  bool pixel_transfers_on_device_ = true;
  bool pixel_row_copy_ = true;
  bool native_rgtc_ = false;
  bool native_s3tc_ = false;
  bool native_bptc_ = false;

  void WritePixelStats() const;
  void WriteProgramStats() const;
  void FlushFixedState();
  void FlushVertexInput();
  void FlushProgram();
  // draw_resources.cpp: textures and uniform buffers the program reads. `fast`: the draw epochs have not
  // moved since the previous draw, so only the program can differ from what the caches hold.
  void FlushProgramResources(bool fast);
  // The full resolutions (draw_resources.cpp); `save_sources` records what they read in resource_cache.
  void ResolveTextures(pipe::CmdSetTextures* cmd, bool save_sources);
  void ResolveUniformBuffers(pipe::CmdSetUniformBuffers* cmd, bool save_sources);
  // kCount when everything the cached set was resolved from still matches, else why not.
  DrawDeltaMiss CheckTextureSources() const;
  DrawDeltaMiss CheckUniformBufferSources() const;
};

}  // namespace caldera
