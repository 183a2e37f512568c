// The GLES backend's device: the host EGL library, a root host context every Caldera context's host
// context shares objects with, the slot tables that turn pipe handles into host object names, and the
// fence timeline (host EGL syncs, waited on from any thread).
#pragma once

#include <EGL/egl.h>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backend/gles/gles_formats.h"
#include "backend/gles/host_egl.h"
#include "backend/gles/host_gl.h"
#include "pipe/backend.h"
#include "pipe/sync.h"

namespace caldera::gles {

// A host GL_TEXTURE_BUFFER texture over one range of a buffer, made on first use by a buffer texture and
// deleted with the buffer. The host buffer keeps its name when re-specified, so the texture follows it.
struct TexelBufferTexture {
  pipe::Format format = pipe::Format::kUndefined;
  uint64_t offset = 0, size = 0;
  GLuint texture = 0;
};

struct BufferObject {
  GLuint name = 0;
  uint64_t size = 0;
  std::vector<TexelBufferTexture> textures;
};

struct ImageObject {
  GLuint texture = 0;
  GLenum target = GL_TEXTURE_2D;
  pipe::Format format = pipe::Format::kUndefined;
  HostFormat host;
  uint32_t width = 0, height = 0, layers = 1, depth = 1, levels = 1;
  pipe::TextureKind kind = pipe::TextureKind::k2D;
  int32_t base_level = 0;    // GL_TEXTURE_BASE_LEVEL as last set on the host
  int32_t max_level = 1000;  // GL_TEXTURE_MAX_LEVEL as last set on the host (1000: GL's default)
  pipe::Swizzle swizzle;     // GL_TEXTURE_SWIZZLE_* as last set on the host
};

struct ProgramObject {
  GLuint program = 0;  // 0: translation or host link failed (draws with it are skipped)
  uint32_t default_block_size = 0;
  uint32_t int_inputs = 0, uint_inputs = 0;
  // gl_ClipDistance elements the last stage before the rasterizer writes: GLES clips only against enabled
  // distances, Vulkan (and so Caldera) against every written one, so draws enable these on the host.
  uint32_t clip_distances = 0;
  // The translated ESSL per stage (vertex, fragment, geometry; empty when absent), kept to build the
  // sample-counting variant (gles_samples.cpp) on first use.
  std::string essl[3];
  GLuint counting_program = 0;  // 0: not built yet
  bool counting_failed = false;
  uint32_t xfb_outputs = 0;  // captured outputs (CmdProgramCreate), linked into every variant
  bool xfb_separate = false;
};

// Pipe handles → host objects. Indexed by slot; the generation tells a stale handle from a live one.
template <typename T>
class SlotTable {
 public:
  T* Get(pipe::Handle h) {
    if (!h.valid() || h.slot >= entries_.size() || entries_[h.slot].generation != h.generation)
      return nullptr;
    return &entries_[h.slot].object;
  }
  T& Put(pipe::Handle h) {
    if (h.slot >= entries_.size()) entries_.resize(h.slot + 1);
    entries_[h.slot] = {h.generation, T{}};
    return entries_[h.slot].object;
  }
  void Remove(pipe::Handle h) {
    if (Get(h)) entries_[h.slot] = {};
  }

 private:
  struct Entry {
    uint32_t generation = 0;
    T object{};
  };
  std::vector<Entry> entries_;
};

class Device final : public pipe::Timeline {
 public:
  // `display`: the window system's display it serves (HostEgl::Open opens the host's display on it).
  static std::unique_ptr<Device> Create(std::string* why, const pipe::NativeDisplayHandle& display = {});
  ~Device();

  HostEgl& host() { return *host_; }
  const HostGL& gl() const { return gl_; }
  EGLContext root() const { return root_; }
  const pipe::BackendCaps& caps() const { return caps_; }
  bool has_depth_clamp() const { return has_depth_clamp_; }
  bool has_multisample_compat() const { return has_multisample_compat_; }  // GL_EXT_multisample_compatibility
  // GL_NV_read_depth / GL_NV_read_stencil: glReadPixels of GL_DEPTH_COMPONENT / GL_STENCIL_INDEX.
  bool has_read_depth() const { return has_read_depth_; }
  bool has_read_stencil() const { return has_read_stencil_; }
  bool has_srgb_write_control() const { return has_srgb_write_control_; }  // GL_EXT_sRGB_write_control
  bool has_timer_queries() const { return has_timer_queries_; }            // GL_EXT_disjoint_timer_query
  uint32_t essl_version() const { return essl_version_; }
  GLint uniform_offset_alignment() const { return uniform_offset_alignment_; }

  // Host calls of all contexts are serialised: the host contexts share objects, and the tables below
  // are read and changed by whichever thread executes.
  std::mutex& execute_mutex() { return execute_mutex_; }
  SlotTable<BufferObject> buffers;
  SlotTable<ImageObject> images;
  SlotTable<ProgramObject> programs;
  // Bumped whenever a shared object is deleted or a buffer's storage re-specified: other contexts then
  // drop their binding shadows and rebind (see HostState::InvalidateObjectBindings).
  uint64_t shared_epoch = 0;
  GLuint GetSampler(const pipe::SamplerState& state);

  // Fences: called by the executing context, with its host context current.
  uint64_t InsertFence();
  // The EGL sync of an unfinished serial (for server waits); EGL_NO_SYNC when it has completed.
  EGLSync PendingSync(uint64_t serial);
  WaitResult WaitSerial(uint64_t serial, uint64_t timeout_ns) override;

 private:
  Device() = default;
  bool Init(std::string* why, const pipe::NativeDisplayHandle& display);
  void QueryCaps();
  void QuerySampleCounts();

  std::unique_ptr<HostEgl> host_;
  EGLContext root_ = EGL_NO_CONTEXT;
  HostGL gl_;
  pipe::BackendCaps caps_;
  bool has_depth_clamp_ = false;
  bool has_multisample_compat_ = false;
  bool has_read_depth_ = false, has_read_stencil_ = false;
  bool has_srgb_write_control_ = false;
  bool has_timer_queries_ = false;
  uint32_t essl_version_ = 320;
  GLint uniform_offset_alignment_ = 256;
  std::mutex execute_mutex_;
  // Keyed by the state's bytes: a fixed-size key (a vector's comparison trips GCC 12's -O3
  // -Wstringop-overread false positive).
  using SamplerKey = std::array<uint8_t, sizeof(pipe::SamplerState)>;
  std::map<SamplerKey, GLuint> samplers_;

  struct FenceEntry {
    EGLSync sync = EGL_NO_SYNC;
    int waiters = 0;
  };
  std::mutex fence_mutex_;
  std::map<uint64_t, FenceEntry> fences_;
  uint64_t next_serial_ = 1;
  uint64_t completed_serial_ = 0;
  void RetireFencesLocked();
};

// The host context current on the calling thread, as Caldera set it (host state is per thread).
EGLContext ThreadHostContext();
// Makes `context` current on this thread unless it already is. False when the host refuses.
bool BindHostContext(HostEgl& host, EGLContext context);

}  // namespace caldera::gles
