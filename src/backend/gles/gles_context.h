// One Caldera context on the GLES backend: its own host context (sharing objects through the device's
// root), the container objects GLES does not share (vertex array, framebuffers), a shadow of its host
// state, and the replay of pipe records as host GL calls.
#pragma once

#include <EGL/egl.h>

#include <array>
#include <string>
#include <unordered_map>
#include <vector>

#include "backend/gles/gles_device.h"
#include "backend/gles/gles_state.h"
#include "pipe/backend.h"

namespace caldera::gles {

// Compiles and links translated stages (vertex, fragment, geometry; empty ones skipped) on the host.
// Returns 0 and appends the host's messages to *log on failure.
// `xfb_outputs` > 0: the program captures the shader path's caldera_xfb_0.. outputs (one buffer each when
// `xfb_separate`), set before the host links it.
GLuint LinkHostProgram(const HostGL& gl, const std::string essl[3], std::string* log,
                       uint32_t xfb_outputs = 0, bool xfb_separate = false);

class Context final : public pipe::BackendContext {
 public:
  explicit Context(Device& device);
  ~Context() override;

  bool Execute(const pipe::CommandChunk& chunk) override;
  void ReleaseThread() override;

  // The call table pipe::Dispatch reaches (gles_apply.cpp): one Apply per record.
  CALDERA_PIPE_APPLY_DECLS

 private:
  bool MakeCurrent();
  void InitHostObjects();

  // Objects (gles_resources.cpp).
  void OnBufferStorage(const pipe::CmdBufferStorage& c);
  void OnBufferUpload(const pipe::CmdBufferUpload& c, const uint8_t* payload);
  void OnBufferCopy(const pipe::CmdBufferCopy& c);
  void OnBufferDestroy(pipe::Handle h);
  void DeleteTexelBufferTextures(BufferObject& b);
  void OnImageCreate(const pipe::CmdImageCreate& c);
  void OnImageUpload(const pipe::CmdImageUpload& c, const uint8_t* payload);
  // A CmdImageUpload of blocks into a block-compressed image (glCompressedTexSubImage* on the host).
  void UploadBlocks(const ImageObject& img, const pipe::CmdImageUpload& c, const uint8_t* payload);
  void OnImageDestroy(pipe::Handle h);
  // CmdImageAlias: a host texture view of the parent's level and layer (BackendLimits::subresource_images).
  void OnImageAlias(const pipe::CmdImageAlias& c);
  void OnGenerateMipmaps(const pipe::CmdGenerateMipmaps& c);
  void OnProgramCreate(const pipe::CmdProgramCreate& c, const uint8_t* payload);
  void OnProgramDestroy(pipe::Handle h);
  void BindScratchTexture(const ImageObject& image);

  // Framebuffers, clears, blits, readback (gles_framebuffer.cpp).
  struct TargetKey {
    std::array<pipe::ImageRef, pipe::kMaxColorAttachments> color{};
    pipe::ImageRef depth_stencil{};
    bool layered = false;  // every attachment whole (glFramebufferTexture), not one layer
    friend bool operator==(const TargetKey&, const TargetKey&) = default;
  };
  struct TargetKeyHash {
    size_t operator()(const TargetKey& k) const;
  };
  bool BindDrawTargets();
  // Attaches one level/layer of `image` (cube face, array layer or 3D slice) at `attachment`.
  void Attach(GLenum target, GLenum attachment, const ImageObject* image, const pipe::ImageRef& ref,
              bool layered = false);
  // Framebuffers are cached by attachment set (created on first use, purged when an image dies).
  GLuint Framebuffer(const TargetKey& key);
  GLuint SingleImageFramebuffer(const ImageObject& image, const pipe::ImageRef& ref);
  void PurgeFramebuffers();
  void OnClear(const pipe::CmdClear& c);
  void OnBlit(const pipe::CmdBlit& c);
  void OnReadPixels(const pipe::CmdReadPixels& c);
  // Pixel buffer objects: the host buffer bound as PBO (gles_pixel_buffers.cpp).
  void OnImageUploadFromBuffer(const pipe::CmdImageUploadFromBuffer& c);
  void OnReadPixelsToBuffer(const pipe::CmdReadPixelsToBuffer& c);
  void OnBufferRead(const pipe::CmdBufferRead& c);
  void ReadInto(const ImageObject& image, const pipe::CmdReadPixels& c);  // bound for reading already
  // ReadLayout::kStored (gles_pixel_buffers.cpp): the host's pair for the stored texels when it reads it
  // (the pair every host takes for the format's class, or the framebuffer's implementation read pair),
  // else the class's pair converted into the stored layout.
  void ReadStored(const ImageObject& image, const pipe::CmdReadPixels& c);
  void ClearColor(uint32_t index, const pipe::CmdClear& c, pipe::Format format);
  void ApplySrgbWrite();  // GL_FRAMEBUFFER_SRGB of the targets through GL_EXT_sRGB_write_control

  // Presentation (gles_present.cpp): the frame copied into the presenter's staging slot.
  void OnPresent(const pipe::CmdPresent& c);
  GLuint present_fbo_ = 0;       // draw framebuffer of the slot being filled (framebuffers are per context)
  GLuint present_read_fbo_ = 0;  // read framebuffer of a slot's resolved multisampled sRGB frame

  // Draws (gles_draw.cpp).
  bool PrepareDraw();  // targets, program and state for a draw; false: skip it
  void OnDraw(const pipe::CmdDraw& c);
  void OnDrawInlineIndices(const pipe::CmdDrawInlineIndices& c, const uint8_t* payload);
  void ApplyVertexInput(const ProgramObject& program);
  void ApplyUniforms(const ProgramObject& program);
  void ApplyUniformBuffers();
  void ApplyTextures();
  // The host buffer texture reading `range` (cached on the buffer; made on texture unit `unit`); 0 when
  // there is no data.
  GLuint HostTexelBuffer(uint32_t unit, const pipe::TexelBufferRange& range);

  // Queries and sync (gles_draw.cpp).
  void OnQueryBegin(const pipe::CmdQueryBegin& c);
  void OnQueryEnd(const pipe::CmdQueryEnd& c);
  void OnQueryTimestamp(const pipe::CmdQueryTimestamp& c);
  void OnQueryResult(const pipe::CmdQueryResult& c);
  void OnQueryDestroy(uint64_t id);
  // Transform feedback: every GL transform feedback object that began a capture has a host object, so
  // the host keeps each paused capture's buffer offsets (the host binds the object named by each record).
  void OnTransformFeedbackBegin(const pipe::CmdTransformFeedbackBegin& c);
  void OnTransformFeedbackPause(uint64_t object);
  void OnTransformFeedbackResume(uint64_t object);
  void OnTransformFeedbackEnd(uint64_t object);
  void OnTransformFeedbackDestroy(uint64_t object);
  GLuint BindHostTransformFeedback(uint64_t object);  // generated on first use; 0 if the object has none
  void UseCaptureProgram();  // the host checks the current program when a capture begins or resumes
  std::unordered_map<uint64_t, GLuint> xfb_objects_;  // GL object's lifetime id → host object
  // GL_SAMPLES_PASSED has no GLES equivalent: while one is active, draws use a program variant whose
  // fragment shader counts the fragments that pass into an atomic counter (gles_samples.cpp).
  GLuint CountingProgram(ProgramObject& program);
  void BeginSampleCount(uint64_t id);
  bool ReadSampleCount(GLuint counter_buffer, bool wait, GLuint availability_query, uint64_t* result);

  void WriteStats();

  Device& device_;
  const HostGL& gl_;
  EGLContext host_context_ = EGL_NO_CONTEXT;
  bool initialized_ = false;
  bool lost_ = false;
  HostState state_;
  uint64_t seen_shared_epoch_ = 0;
  void BumpSharedEpoch();  // after a change to a shared object that other contexts must rebind to see

  GLuint vao_ = 0;
  // The default uniform block. Ring mode (default): each change is written at the next aligned offset of a
  // 256 KiB buffer through an unsynchronized map, and the buffer is orphaned only when the ring wraps, so
  // the host neither waits for earlier draws nor allocates per change. CALDERA_GLES_UNIFORM_RING=0 turns
  // that off: the whole block is re-specified with glBufferData on every change.
  GLuint uniform_ubo_ = 0;
  const bool uniform_ring_;
  GLintptr uniform_ring_offset_ = 0;
  GLuint zero_ubo_ = 0;      // stands in for unbound uniform blocks
  GLuint index_stream_ = 0;  // indices of CmdDrawInlineIndices
  std::unordered_map<TargetKey, GLuint, TargetKeyHash> framebuffers_;

  // Records as last received.
  pipe::CmdSetRenderTargets targets_{};
  bool host_srgb_write_ = true;  // GL_FRAMEBUFFER_SRGB_EXT starts enabled on GLES
  bool targets_dirty_ = true;
  pipe::CmdSetFixedState fixed_{};
  bool fixed_dirty_ = true;
  pipe::CmdSetVertexInput vertex_{};
  bool vertex_dirty_ = true;
  pipe::Handle program_;
  std::vector<uint8_t> uniforms_;
  bool uniforms_dirty_ = true;
  pipe::CmdSetUniformBuffers uniform_buffers_{};
  bool uniform_buffers_dirty_ = true;
  pipe::CmdSetTextures textures_{};
  bool textures_dirty_ = true;

  // Vertex arrays as set on the host VAO (one per context), to skip unchanged attribute calls.
  struct AttribShadow {
    bool enabled = false;
    GLuint buffer = 0;
    GLenum type = 0;
    GLint size = 0;
    bool normalized = false, integer = false;
    GLsizei stride = 0;
    uint64_t offset = 0;
    uint32_t divisor = 0;
    std::array<uint32_t, 4> constant{};
    pipe::GenericKind kind = pipe::GenericKind::kFloat;
    friend bool operator==(const AttribShadow&, const AttribShadow&) = default;
  };
  std::array<AttribShadow, pipe::kMaxVertexAttribs> attribs_{};
  bool attribs_known_ = false;

  struct Query {
    GLuint name = 0;  // host query (for samples passed: ANY_SAMPLES_PASSED, for availability)
    pipe::QueryKind kind = pipe::QueryKind::kSamplesPassed;
    GLuint counter_buffer = 0;  // samples passed: the atomic counter the counting variant increments
  };
  std::unordered_map<uint64_t, Query> queries_;
  bool counting_samples_ = false;  // a GL_SAMPLES_PASSED query is active

  struct Stats {
    uint64_t draws = 0, clears = 0, blits = 0, framebuffers_created = 0, pbo_copies = 0;
    uint64_t uniform_ring_writes = 0, uniform_orphans = 0;
    uint64_t compressed_uploads = 0;    // uploads of blocks into block-compressed images (native RGTC)
    uint64_t readback_host_direct = 0;  // stored-texel reads the host wrote straight into client memory
  } stats_;
};

}  // namespace caldera::gles
