// Replays one GL context's pipe records into Vulkan command buffers: render pass instances (dynamic
// rendering) with clears folded into load ops, dynamic state set only on change, pipelines from the
// packed-key cache, uploads through a host-visible ring, and submissions on the device timeline.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "backend/vulkan/vk_clear_draw.h"
#include "backend/vulkan/vk_pipelines.h"
#include "backend/vulkan/vk_push_delta.h"
#include "backend/vulkan/vk_queries.h"
#include "backend/vulkan/vk_resources.h"
#include "pipe/backend.h"

namespace caldera::vk {

// The first index a CmdDraw of elements draws from, the index buffer bound at its start (vk_draw.cpp).
uint32_t FirstIndex(const pipe::CmdDraw& cmd);

class Device;

struct Shared {  // device-wide state every context uses
  Device* device;
  Resources* resources;
  PipelineCache* pipelines;
};

// Host-visible memory handed out linearly; a whole page returns to the pool once the submission that
// used it completes. Feeds uniforms, constant attributes, staging uploads and readback.
class UploadRing {
 public:
  struct Span {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0;
    uint8_t* data = nullptr;
    uint32_t page = 0;
  };
  UploadRing(Device& device, VkDeviceSize page_size);
  ~UploadRing();
  // An empty span (data null) when no page could be made; failed() then stays true.
  Span Allocate(VkDeviceSize size, VkDeviceSize alignment);
  bool failed() const { return failed_; }
  uint32_t pages_since_stamp() const { return pages_since_stamp_; }
  void Stamp(uint64_t serial);       // pages used since the last stamp belong to this submission
  void Recycle(uint64_t completed);  // pages whose submission completed become free
  uint32_t page_count() const { return static_cast<uint32_t>(pages_.size()); }

 private:
  struct Page {
    VkBuffer buffer = VK_NULL_HANDLE;
    Allocation alloc;
    VkDeviceSize size = 0;
    uint64_t serial = 0;  // 0: free; UINT64_MAX: in use by the open command buffer
  };
  int32_t NewPage(VkDeviceSize size);  // -1 when the buffer or its memory cannot be had
  Device& device_;
  VkDeviceSize page_size_;
  std::vector<Page> pages_;
  int32_t current_ = -1;
  VkDeviceSize used_ = 0;
  uint32_t pages_since_stamp_ = 0;
  bool failed_ = false;
};

class Context final : public pipe::BackendContext {
 public:
  explicit Context(const Shared& shared);
  ~Context() override;
  bool Execute(const pipe::CommandChunk& chunk) override;
  // A host-visible, coherent transfer-source buffer: staged payloads are copied on the device straight
  // from it (OnBufferUpload, OnImageUpload). Called on the GL thread; only the device allocator (locked)
  // and staging_blocks_ (read again only by the destructor) are touched.
  bool CreateStagingBlock(size_t size, pipe::StagingBlock* out) override;

  // The call table pipe::Dispatch reaches (vk_apply.cpp): one Apply per record.
  CALDERA_PIPE_APPLY_DECLS

 private:
  void OnBufferUpload(const pipe::CmdBufferUpload& cmd, const uint8_t* data);
  void OnBufferCopy(const pipe::CmdBufferCopy& cmd);
  void OnImageUpload(const pipe::CmdImageUpload& cmd, const uint8_t* data);
  void OnSetRenderTargets(const pipe::CmdSetRenderTargets& cmd);
  void OnClear(const pipe::CmdClear& cmd);
  // Why pending clears are being resolved: every read of a target (and every target switch) resolves them.
  enum class ClearResolve : uint8_t { kNone, kTargetSwitch, kReadback, kBlit, kUpload, kSubmit, kCopy };
  // Clears layers [targets_.layers, all) of one attachment of a layered framebuffer whose attachments have
  // different layer counts (the render covers the smallest count; GL clears every layer of each).
  void ClearExtraLayers(ImageObject& img, uint32_t level, const VkClearAttachment& clear,
                        const VkRect2D& rect);
  // A multisampled depth/stencil blit (resolve): sample 0 of each pixel, through a rendering scope whose
  // attachment resolves with VK_RESOLVE_MODE_SAMPLE_ZERO_BIT.
  void ResolveDepthStencil(const pipe::CmdBlit& cmd, ImageObject& src, ImageObject& dst,
                           VkImageAspectFlags aspect);
  void OnBlit(const pipe::CmdBlit& cmd, ClearResolve why = ClearResolve::kBlit);
  // The part of a blit GL writes (scissor, destination edges), with the mapping GL gives it, and blits
  // within one image through a temporary (vk_blit.cpp); each piece goes to RecordBlit.
  void BlitClipped(const pipe::CmdBlit& cmd, ImageObject* src, ImageObject* dst, VkImageAspectFlags aspect);
  void BlitFromCopy(const pipe::CmdBlit& cmd, ImageObject* src, ImageObject* dst, VkImageAspectFlags aspect);
  // Copies one aspect of `area` from a single-level 2D image at `from_offset` into `to` through the upload
  // ring (buffer copies of one aspect leave the other aspect of a depth+stencil image alone).
  void CopyAspect(ImageObject& from, VkOffset2D from_offset, ImageObject& to, const pipe::ImageRef& to_ref,
                  VkRect2D area, VkImageAspectFlags aspect);
  // One vkCmdBlitImage / vkCmdCopyImage / resolve of `aspect`, rectangles clamped to the images.
  void RecordBlit(const pipe::CmdBlit& cmd, ImageObject* src, ImageObject* dst, VkImageAspectFlags aspect);
  void OnGenerateMipmaps(const pipe::CmdGenerateMipmaps& cmd);
  void OnDraw(const pipe::CmdDraw& cmd);
  // Draw merging (vk_draw_batch.cpp): a draw that follows another with no record between them (so no state
  // changed) and the same topology, instance count and index buffer joins the pending vkCmdDrawMulti*EXT;
  // any other record, and the end of a chunk, flushes it first.
  bool TryBatchDraw(const pipe::CmdDraw& cmd);
  void StartDrawBatch(const pipe::CmdDraw& cmd);  // after PrepareDraw and the index buffer bind
  void FlushDrawBatch();
  void OnDrawInlineIndices(const pipe::CmdDrawInlineIndices& cmd, const uint8_t* payload);
  ProgramObject* PrepareDraw(pipe::Topology topology);  // pass, pipeline and bindings; null: skip the draw
  void OnReadPixels(const pipe::CmdReadPixels& cmd);
  void OnPresent(const pipe::CmdPresent& cmd);  // vk_swapchain.cpp
  // Resolves multisampled `src` into `mid` (made or re-made in src's format and size) and copies its bits
  // into `dst` (TRANSFER_DST, a format of the same texel size): an sRGB frame into a UNORM present slot.
  void ResolveThrough(ImageObject& src, ImageObject& mid, ImageObject& dst, uint32_t w, uint32_t h);
  // vk_pixel_buffers.cpp: pixel buffer objects as device copies, and reading a buffer back.
  void OnImageUploadFromBuffer(const pipe::CmdImageUploadFromBuffer& cmd);
  void OnReadPixelsToBuffer(const pipe::CmdReadPixelsToBuffer& cmd);
  void OnBufferRead(const pipe::CmdBufferRead& cmd);
  // After a copy into ring memory: makes it visible to the host, submits and waits. False on device loss.
  bool SubmitCopyToHostAndWait();

  // vk_queries.cpp: fences and queries.
  void OnFenceSync(const pipe::CmdFenceSync& cmd);
  void OnWaitSync(const pipe::CmdWaitSync& cmd);
  void OnQueryBegin(const pipe::CmdQueryBegin& cmd);
  void OnQueryEnd(const pipe::CmdQueryEnd& cmd);
  void OnQueryTimestamp(const pipe::CmdQueryTimestamp& cmd);
  void OnQueryResult(const pipe::CmdQueryResult& cmd);
  void OnQueryDestroy(const pipe::CmdQueryDestroy& cmd);
  void ForgetQuery(uint64_t id);
  void WriteTimestamp(QueryTracker::Instance& inst);
  void BeginOcclusionSegment();  // before a draw, in the open pass, while GL occlusion queries are active
  void EndOcclusionSegment();    // before the pass ends (a Vulkan query cannot span passes)
  // The same for GL_PRIMITIVES_GENERATED (kind 0) and GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN (kind 1).
  void BeginPrimitiveSegments();
  void EndPrimitiveSegment(int kind);

  // vk_transform_feedback.cpp: a GL capture is one Vulkan transform feedback per render pass (and per
  // pipeline bind: vkCmdBindPipeline is not allowed while it is active), resumed through counter buffers.
  // Captures belong to GL transform feedback objects; several may be begun (paused) at once, each with its
  // own counters, and at most one records.
  void OnTransformFeedbackBegin(const pipe::CmdTransformFeedbackBegin& cmd);
  void OnTransformFeedbackPause(const pipe::CmdTransformFeedbackPause& cmd);
  void OnTransformFeedbackResume(const pipe::CmdTransformFeedbackResume& cmd);
  void OnTransformFeedbackEnd(const pipe::CmdTransformFeedbackEnd& cmd);
  void OnTransformFeedbackDestroy(const pipe::CmdTransformFeedbackDestroy& cmd);
  void OnDrawTransformFeedback(const pipe::CmdDrawTransformFeedback& cmd);
  void BeginTransformFeedbackInPass();  // before a draw, after the pipeline is bound
  bool EndTransformFeedbackInPass();    // before the pass ends; true if it was active
  bool CreateXfbCounters();
  void DestroyXfbCounters();
  void ForgetXfbCapture(uint64_t object);           // ends nothing: frees the capture's counter slot
  static constexpr uint32_t kXfbCounterSlots = 64;  // captures begun at once (4 counters each)
  struct XfbCapture {
    pipe::CmdTransformFeedbackBegin buffers{};
    uint32_t slot = 0;            // its counters: kMaxTransformFeedbackBuffers words from slot * 16 bytes
    bool counters_valid = false;  // its counters hold where the previous segment stopped
    bool ended = false;           // kept after glEndTransformFeedback for glDrawTransformFeedback
  };
  // By GL object, from glBeginTransformFeedback until the object begins again or is deleted; node-based, so
  // pointers stay valid.
  std::unordered_map<uint64_t, XfbCapture> xfb_captures_;
  struct Xfb {
    XfbCapture* recording = nullptr;     // the capture draws append to (none while paused or ended)
    bool in_pass = false;                // vkCmdBeginTransformFeedbackEXT recorded in the open pass
    uint64_t used_slots = 0;             // bit per counter slot held by a begun capture
    VkBuffer counters = VK_NULL_HANDLE;  // kXfbCounterSlots sets of counters, then a small sink
    Allocation counters_alloc;
  } xfb_;

  VkCommandBuffer Commands();  // the open command buffer, begun on demand
  bool SubmitAndStamp(uint64_t* serial);
  // Called with the resources mutex held before this context records: submits the open command buffer of
  // the context that recorded last (Resources::recorder says why).
  void TakeOverRecording();
  void Collect();
  void BeginPass();
  void EndPass();
  // Clears of the attachments whose colour mask leaves components out, and of the stencil under a partial
  // write mask, drawn in the open pass (vk_clear_draw.cpp). Returns the colour attachments drawn;
  // *stencil_drawn says whether the stencil was. The caller clears the rest as usual.
  uint8_t DrawMaskedClears(const pipe::CmdClear& cmd, const VkClearColorValue* values, bool color,
                           bool stencil, const VkRect2D& rect, bool* stencil_drawn);
  // The formats the pass renders through (sRGB images as UNORM while encoding is off) and its sample count.
  void RenderingFormats(uint16_t color[pipe::kMaxColorAttachments], uint16_t* depth, uint8_t* samples) const;
  // Bindings and dynamic state as the command buffer holds them are forgotten: a new command buffer, or an
  // internal draw that bound its own pipeline; the next draw sets everything again.
  void ForgetBoundState();
  void FlushPendingClears(ClearResolve why = ClearResolve::kSubmit);  // executes deferred clears now
  void WriteStats();
  // The HUD's counters (pipe::BackendCounters), set once per chunk applied.
  void PublishLiveCounters();
  void TransferBarrier();  // orders transfers against earlier draws and later draws against transfers
  void TransitionImage(ImageObject& image, VkImageLayout layout);
  // TransitionImage's barrier even when the layout stays (an image drawn and sampled in GENERAL).
  void ImageBarrier(ImageObject& image, VkImageLayout layout);
  // Vulkan 1.3's dynamic state as the command buffer should hold it for the given GL state.
  struct CoreDynamicState {
    VkViewport viewport;
    VkRect2D scissor;
    float line_width;
    VkBool32 bias_enable;
    float bias[3];  // constant, clamp, slope
    float blend_constants[4];
    VkCullModeFlags cull;
    VkFrontFace front;
    VkBool32 depth_test, depth_write;
    VkCompareOp depth_compare;
    VkBool32 stencil_test;
    struct Face {
      VkStencilOp fail, pass, depth_fail;
      VkCompareOp compare;
      uint32_t compare_mask, write_mask, reference;
    } faces[2];
    VkBool32 discard;
  };
  CoreDynamicState CoreDynamicStateFor(const pipe::CmdSetFixedState& s) const;
  // GL's viewport as a valid Vulkan one that draws the same pixels (vk_dynamic_state.cpp).
  VkViewport FitViewport(const pipe::CmdSetFixedState& s) const;
  // Sets what differs from dynamic_applied_ (vk_dynamic_state.cpp).
  void ApplyDynamicState();
  // The extended-dynamic-state-3 fields of `full` (the key before StripDynamicState3) that differ from what
  // the command buffer holds (vk_dynamic_state.cpp).
  void ApplyDynamicState3(const PipelineKey& full);
  bool BindPipeline(pipe::Topology topology, ProgramObject& program);
  void BindVertexInput();
  // vkCmdSetVertexInputEXT from vertex_ (features().vertex_input_dynamic), unless this command buffer has the
  // layout already; `strides_by_bind`: the strides come with vkCmdBindVertexBuffers2 and are left out of the
  // comparison.
  void SetDynamicVertexLayout(bool strides_by_bind);
  bool BindUniforms(const ProgramObject& program);  // false: no descriptor set or ring space (draw skipped)
  VkDescriptorSet AllocateRingSet();                // from the newest pool, or a new one when it is full
  void RetirePipelines(pipe::Handle program);       // the program's cached pipelines, into retired_
  bool CheckVk(VkResult result, const char* what);  // Device::Check
  void PrepareTextures();  // layout transitions for sampled images; must run outside a render pass
  // The layout a current render target is drawn in: GENERAL while the bound textures sample the same image
  // (GL lets a draw read levels it does not render into: building a mipmap chain level by level), else
  // `optimal`. Vulkan keeps one layout per image here, and only GENERAL serves both uses at once.
  VkImageLayout TargetLayout(pipe::Handle image, VkImageLayout optimal) const;
  bool PushResources(const ProgramObject& program);  // false: a sampler or ring space could not be had  //
                                                     // uniform blocks and textures into the push set
  // 1x1 (0,0,0,1) stand-ins, one per view type and sample type: what GL returns for incomplete or missing
  // textures, through a view whose numeric type matches the shader's sampler (Vulkan requires it).
  void CreateDummies();
  ImageObject& Dummy(pipe::TextureKind kind, pipe::SampleType type);
  uint8_t DummySampleCount(pipe::SampleType type) const;

  Shared shared_;
  QueryTracker queries_{*shared_.device};
  uint64_t wait_serial_ = 0;  // glWaitSync: our next submission waits on the device for this serial
  VkCommandPool pool_ = VK_NULL_HANDLE;
  struct Submission {
    VkCommandBuffer cmd;
    uint64_t serial;
  };
  std::vector<Submission> in_flight_;
  std::vector<VkCommandBuffer> free_cmds_;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkCommandBuffer spare_cmd_ = VK_NULL_HANDLE;  // BreakRecording
  bool broken_ = false;                         // a command buffer could not be had: the context is lost
  // CALDERA_STATS_SAMPLE_EVERY=N: every N-th glFinish appends the live objects and memory to CALDERA_STATS
  // (the resource-bounds test reads them: flat after warm-up).
  uint64_t sample_every_ = 0, finishes_ = 0;
  void WriteSample();
  VkCommandBuffer BreakRecording();
  Resources::Retired retired_;  // destroyed/replaced objects, freed after our next submission completes
  UploadRing ring_;
  struct StagingBuffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    Allocation alloc;
  };
  // The pipe's staging blocks (a block's handle is its StagingBuffer's address), freed after our work.
  std::vector<std::unique_ptr<StagingBuffer>> staging_blocks_;
  // The buffer and offset a staged payload is copied from on the device (and its region marked as read by
  // the device), or false when it must go through the ring: not staged, or an offset the copy cannot use.
  bool StagedSource(const pipe::StagedPayload& staged, VkDeviceSize alignment, VkBuffer* buffer,
                    VkDeviceSize* offset);
  std::vector<VkDescriptorPool> descriptor_pools_;  // for ring_sets_; a new one whenever the last is full
  std::vector<VkDescriptorSet> ring_sets_;          // one uniform descriptor set per ring page
  std::vector<VkBuffer> ring_set_buffers_;          // what each set currently points at

  // Render targets and pass state.
  pipe::CmdSetRenderTargets targets_{};
  bool pass_open_ = false;
  struct PendingClear {
    bool color[pipe::kMaxColorAttachments] = {};
    VkClearColorValue color_value[pipe::kMaxColorAttachments] = {};
    bool depth = false, stencil = false;
    float depth_value = 1.0f;
    uint32_t stencil_value = 0;
    bool any() const;
  } pending_clear_;
  // Mechanism switches and probes (docs/ENVIRONMENT.md): CALDERA_DEFERRED_CLEARS=0 records every clear
  // in a pass; CALDERA_TEST_SKIP_CLEAR_RESOLVE=<kind> (tests only) skips resolving for one read kind, which
  // the negative-control tests use to prove each resolve is needed. CALDERA_STATS=<file> appends counters.
  bool deferred_clears_ = true;
  // CALDERA_PIXEL_ROW_COPY=0: readbacks convert every texel even where the copy is the asked layout.
  bool readback_row_copy_ = true;
  uint32_t skip_resolve_ = 0;  // bit per ClearResolve kind (test knob)
  // CALDERA_VK_CLEAR_DRAWS=0: clears ignore partial colour and stencil masks (logged once), as before the
  // masked clears were drawn; the negative control of their test.
  bool clear_draws_enabled_ = true;
  ClearDraws clear_draws_;
  struct Stats {
    uint64_t clears_deferred = 0, clears_folded = 0, clears_in_pass = 0, render_passes = 0, draws = 0,
             submits = 0, pbo_copies = 0;
    uint64_t clears_drawn = 0;  // masked clears drawn (one per attachment, and one for the stencil)
    uint64_t dynamic_sets = 0, dynamic3_sets = 0;  // vkCmdSet* calls for core / extended-3 dynamic state
    uint64_t draws_merged = 0,
             multi_draws = 0;                // GL draws recorded inside vkCmdDrawMulti*EXT, and those calls
    uint64_t compressed_uploads = 0;         // uploads of blocks into block-compressed images (native RGTC)
    uint64_t handover_submits = 0;           // submissions made because another context began to record
    uint64_t ring_splits = 0;                // submissions made to bound the ring pages one submission holds
    uint64_t readback_row_copies = 0;        // reads whose copied texels were the asked layout (rows copied)
    uint64_t readback_row_loops = 0;         // reads converted by a loop chosen for the format (texel_rows.h)
    uint64_t direct_buffer_writes = 0;       // glBufferData contents written by the host into fresh storage
    uint64_t descriptor_writes_skipped = 0;  // push descriptor writes left out: set 1 held them already
    uint64_t vertex_layouts_skipped = 0;     // vkCmdSetVertexInputEXT left out: the layout was set already
    uint64_t vertex_binds_skipped = 0;       // vertex buffer bindings left out: bound already
  } stats_;
  // Buffers written by transfers since the last barrier: a second write to one of them needs a barrier
  // first (write-after-write), which sync validation checks. Small: cleared at every barrier.
  std::vector<VkBuffer> transfer_written_;
  void BeforeTransferWrite(VkBuffer buffer);
  // Images written by transfers since the last barrier: a transfer that writes one of them again (a
  // glTexSubImage over a glTexImage, two glCopyTexSubImage into one texture) or reads it (a blit or copy
  // from it) needs a barrier first.
  std::vector<VkImage> images_written_;
  void BeforeImageTransfer(VkImage read, VkImage write);
  // glBlitFramebuffer with GL_FRAMEBUFFER_SRGB off, scaled or mirrored, with an sRGB side (vk_context.cpp).
  bool BlitThroughUnorm(const pipe::CmdBlit& cmd, ImageObject* src, ImageObject* dst,
                        const VkImageBlit& region, bool src_srgb, bool dst_srgb);
  bool transfer_since_pass_ = false;  // a transfer wrote something draws may read
  bool graphics_since_transfer_ = true;

  // Current state as recorded.
  pipe::CmdSetFixedState fixed_{};
  bool fixed_dirty_ = true;
  bool restart_enabled_ = false;  // primitive restart as set in the command buffer (lists may force it off)
  pipe::CmdSetVertexInput vertex_{};
  bool vertex_dirty_ = true;
  // What this command buffer was last given for vertex input, so a draw re-sends only what moved: the layout
  // of vkCmdSetVertexInputEXT (without strides where vkCmdBindVertexBuffers2 sets them) and each location's
  // bound buffer, offset and stride. ForgetBoundState clears both; kill switch CALDERA_VK_VERTEX_DELTA=0,
  // probes vertex_layouts_skipped / vertex_binds_skipped.
  struct VertexLayoutEntry {
    uint32_t location, stride, input_rate, divisor, format, offset;
    bool operator==(const VertexLayoutEntry&) const = default;
  };
  struct SentVertexLayout {
    bool valid = false;
    bool strides_by_bind = false;
    uint32_t count = 0;
    VertexLayoutEntry entries[pipe::kMaxVertexAttribs];
  } sent_vertex_layout_;
  struct BoundVertexBuffer {
    VkBuffer buffer;
    VkDeviceSize offset, stride;
    bool operator==(const BoundVertexBuffer&) const = default;
  };
  BoundVertexBuffer bound_vertex_buffers_[pipe::kMaxVertexAttribs] = {};
  uint32_t bound_vertex_mask_ = 0;  // locations whose bound_vertex_buffers_ entry holds
  bool vertex_delta_ = true;
  bool test_stale_stride_ = false;  // CALDERA_TEST_VERTEX_DELTA_STALE_STRIDE=1: the negative control
  pipe::Handle program_{};
  // Direct writes (CALDERA_DIRECT_BUFFER_WRITES=0 disables): storage of at most kDirectWriteMax bytes is
  // host-visible, and the upload right after its creation is a memcpy. fresh_buffer_: storage created by the
  // record just applied.
  static constexpr uint64_t kDirectWriteMax = 256u << 10;
  bool direct_writes_ = true;
  pipe::Handle fresh_buffer_{};
  std::vector<uint8_t> uniforms_;
  bool uniforms_dirty_ = false;
  UploadRing::Span uniform_span_{};
  bool uniform_bound_ = false;
  VkPipeline bound_pipeline_ = VK_NULL_HANDLE;
  VkPrimitiveTopology dynamic_topology_ = VK_PRIMITIVE_TOPOLOGY_MAX_ENUM;  // as set in cmd_
  pipe::CmdSetTextures textures_{};
  pipe::CmdSetUniformBuffers uniform_buffers_{};
  bool resources_dirty_ = false;
  bool textures_need_layout_check_ = false;
  // 2D (and rectangle), 2D array, cube, 3D, 2D multisample, 2D multisample array
  static constexpr uint32_t kDummyKinds = 6;
  static constexpr uint32_t kDummyTypes = 3;  // pipe::SampleType: float, sint, uint views
  ImageObject dummies_[kDummyTypes][kDummyKinds]{};
  bool dummy_ready_ = false;
  VkBuffer bound_index_buffer_ = VK_NULL_HANDLE;
  VkIndexType bound_index_type_ = VK_INDEX_TYPE_UINT16;
  VkPipelineLayout pushed_layout_ = VK_NULL_HANDLE;  // the layout set 1 was last pushed with
  PushedSet pushed_set_;    // what set 1 holds, so pushes write only what changed (vk_push_delta.h)
  bool push_delta_ = true;  // CALDERA_VK_PUSH_DELTA=0: every push writes every descriptor
  PipelineKey key_{};
  PipelineKey dynamic3_applied_{};  // the dynamic-state-3 fields as set in cmd_ (when dynamic3_valid_)
  bool dynamic3_valid_ = false;
  struct DrawBatch {
    uint32_t count = 0;  // 0: no batch pending
    bool indexed = false;
    pipe::Topology topology{};
    uint32_t instances = 0;
    pipe::Handle index_buffer{};
    pipe::IndexType index_type{};
    std::vector<VkMultiDrawInfoEXT> draws;
    std::vector<VkMultiDrawIndexedInfoEXT> indexed_draws;
  } batch_;
  bool merge_draws_ = false;            // features().max_multi_draw and not CALDERA_MULTI_DRAW=0
  CoreDynamicState dynamic_applied_{};  // as set in cmd_ (when dynamic_valid_)
  bool dynamic_valid_ = false;
  bool diff_dynamic_state_ = true;  // kill switch CALDERA_DYNAMIC_STATE_DIFF=0
};

}  // namespace caldera::vk
