// The backend side of the pipe. A Backend is one device (Vulkan or host GLES); a BackendContext replays the
// command chunks of one GL context. Nothing here names a frontend type: backends see records and handles.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "pipe/device_list.h"
#include "pipe/present.h"
#include "pipe/staging.h"
#include "pipe/stream.h"

namespace caldera::pipe {

// What a backend can do, in plain data: a spawned server sends it to its client as these very bytes
// (spawn_handshake.h), so a new field needs no second list (both sides are one build: the handshake
// compares build fingerprints).
struct BackendLimits {
  uint32_t max_texture_size = 4096;
  uint32_t max_viewport[2] = {4096, 4096};
  float line_width_range[2] = {1.0f, 1.0f};
  float point_size_range[2] = {1.0f, 1.0f};
  uint32_t max_uniform_block_size = 16384;
  // The largest buffer storage the device can hold. A larger glBufferData is GL_OUT_OF_MEMORY before any
  // host or device allocation (a driver may take minutes to refuse one).
  uint64_t max_buffer_size = UINT64_MAX;
  uint32_t max_color_attachments = 8;
  uint32_t max_samples = 1;
  // Sample counts images and render targets may have, as a bit mask of the counts themselves (bit 4 set: 4
  // samples work; bit 1 is always set). A requested count GL allows is rounded up to the next one in it.
  uint32_t sample_counts = 1;
  // A glBlitFramebuffer from a multisampled depth/stencil image into a single-sampled one can be done.
  // Without it the frontend reports GL_INVALID_OPERATION and logs the gap.
  bool resolve_depth_stencil = true;
  uint32_t timestamp_bits = 0;  // valid bits of device timestamps (GL_QUERY_COUNTER_BITS); 0: none
  // Topology::kLineLoop is drawn natively. Without it the frontend sends loops as closed line strips
  // (CmdDrawInlineIndices).
  bool line_loops = false;
  // CmdReadPixels of ReadAspect::kDepth / kStencil works (GLES hosts need GL_NV_read_depth/_stencil).
  bool read_depth = true, read_stencil = true;
  // CmdDrawTransformFeedback works: glDrawTransformFeedback and GL_ARB_transform_feedback2 on desktop GL
  // (Vulkan: transformFeedbackDraw; a GLES host has no such draw).
  bool draw_transform_feedback = false;
  // Images of the block-compressed formats (Format::kRGTC1..kRGTC2SN) can be created, sampled (with linear
  // filtering) and uploaded with blocks. Without it the frontend stores RGTC textures decoded.
  bool native_rgtc = false;
  // GL_MAX_TEXTURE_MAX_ANISOTROPY: the largest SamplerState::max_anisotropy the device filters with (Vulkan:
  // samplerAnisotropy's maxSamplerAnisotropy; GLES: the host's GL_EXT_texture_filter_anisotropic limit).
  // 0: no anisotropic filtering, so the anisotropy extensions are not advertised.
  float max_anisotropy = 0.0f;
  // SamplerState::skip_srgb_decode is applied: sRGB textures can be sampled as their raw encoded values
  // (GL_EXT_texture_sRGB_decode; Vulkan: UNORM views, GLES: the host's extension).
  bool srgb_decode = false;
  // The 16-bit normalised formats ES lacks (GL_EXT_texture_norm16): R16, RG16, RGBA16 images rendered to,
  // sampled with linear filtering and read back; their SNORM forms and RGB16 sampled. Desktop GL 3.3 takes
  // them regardless (core formats).
  bool norm16 = false;
  // Out-of-bounds buffer accesses by shaders and vertex fetch are bounded (read inside the buffer or zero,
  // writes dropped): robust-access contexts can be created (Vulkan robustBufferAccess; a GLES host's
  // GL_KHR_robustness / GL_EXT_robustness with a robust context of its own).
  bool robust_buffer_access = false;
  // Vertex array types (bits 1 << VertexFormat::Type) the device cannot read into float attributes: the
  // frontend converts such arrays to floats at each draw (Vulkan has no 32-bit scaled or normalised, fixed or
  // double vertex formats; a GLES host has no double attributes). Integer attributes (glVertexAttribIPointer)
  // are always read as they are.
  uint32_t vertex_types_converted = 0;
  // The Vulkan physical device in use, in vkEnumeratePhysicalDevices order (its EGL device); -1: none (GLES).
  int32_t vulkan_device_index = -1;
  // The same for the S3TC formats (Format::kBC1..kBC3Srgb); without it S3TC textures are stored decoded.
  bool native_s3tc = false;
  // The same for the BPTC formats (Format::kBC6HU..kBC7Srgb); without it BPTC textures are stored decoded.
  bool native_bptc = false;
  // CmdImageAlias works: one level or cube face of an image can be a 2D image of its own (Vulkan: views and
  // subresource ranges; a GLES host: GL_OES_texture_view / GL_EXT_texture_view).
  bool subresource_images = false;
  // What GLX_MESA_query_renderer reports. PCI ids of the device; 0xFFFFFFFF where it is no PCI device (a
  // CPU renderer) or the backend cannot tell (a GLES host).
  uint32_t pci_vendor_id = 0xFFFFFFFF, pci_device_id = 0xFFFFFFFF;
  uint32_t video_memory_mb = 0;  // device-local memory (system memory for CPU and integrated devices)
  bool accelerated = false;      // a GPU renders, not the CPU
  bool unified_memory = false;   // device and host share one memory (integrated GPUs, CPU renderers)
};

struct BackendCaps : BackendLimits {
  std::string renderer;  // for GL_RENDERER, e.g. "Caldera (Vulkan: llvmpipe (LLVM 15.0.6, 256 bits))"
};

// Failures found while applying records that GL reports as errors.
enum class BackendError : uint8_t {
  kOutOfMemory,  // an object's storage could not be allocated: GL_OUT_OF_MEMORY
};
struct BackendErrorEvent {
  BackendError error;
  uint32_t offset;  // of the failing record in its chunk (the chunk's size when it cannot be told)
};

// What a context's backend has done so far, for the HUD (CALDERA_HUD): written by the thread that applies
// (at the end of each chunk, not per record), read by the GL thread at any time.
struct BackendCounters {
  std::atomic<uint64_t> draws{0}, render_passes{0}, submits{0};
  std::atomic<uint64_t> pipelines_created{0};    // by the device's pipeline cache, every context's
  std::atomic<uint64_t> device_memory_bytes{0};  // device memory allocated (every context's)
};

// Aligned and padded to whole cache-line pairs: the apply thread writes a backend context on every record,
// and no object of the GL thread's may share a line with it (pipe/stream.h).
class alignas(kFalseSharingBytes) BackendContext {
 public:
  virtual ~BackendContext() = default;
  // Applies every record of `chunk` in order. Returns false when the device was lost (context loss).
  virtual bool Execute(const CommandChunk& chunk) = 0;
  // The frontend context is no longer current on the calling thread (inline mode: the thread that called
  // Execute). A backend that keeps per-thread state there (a host GL context) lets go of it.
  virtual void ReleaseThread() {}
  // The next chunk changes objects other contexts share (pipe/apply_order.h), and the pipe applies it
  // inline. A backend that applies each context's chunks on a thread of its own (the split-process
  // server) orders that chunk after every chunk other contexts handed it before; in-process backends
  // apply in the order they are given and need nothing.
  virtual void OrderNextChunkAfterOthers() {}
  // Applies `chunk` through Execute, noting where in it the records that fail (RaiseError) lie.
  bool Apply(const CommandChunk& chunk);
  // The failures raised by the last Apply, in record order (taken: the list is emptied).
  std::vector<BackendErrorEvent> TakeRaisedErrors() { return std::exchange(raised_, {}); }
  const BackendCounters& live_counters() const { return live_counters_; }

  // The pipe's staging arena (pipe/staging.h) asks for its memory here, on the GL thread, possibly while
  // another thread applies records. The block lives as long as this context, which frees it once its work
  // has completed. False: no memory (payloads then travel in the chunk). The default is plain host memory,
  // for backends that consume payloads while applying (the GLES host copies at its call).
  virtual bool CreateStagingBlock(size_t size, StagingBlock* out);
  // The arena that a backend reading blocks on the device reports to (MarkDeviceUse, StampSubmitted); set
  // before the first staged record and cleared (null) before the arena goes.
  void AttachStaging(StagingArena* arena) { staging_.store(arena, std::memory_order_release); }

 protected:
  // Atomic: another context's thread may submit this context's work (and stamp) while the pipe detaches.
  StagingArena* staging() const { return staging_.load(std::memory_order_acquire); }
  // A record being applied failed in a way GL reports as an error (`record` points at it, inside the chunk
  // Apply was given). The frontend reports the failures in the order of the calls that made them.
  void RaiseError(BackendError error, const void* record);
  // Sets a live counter (one writer: the applying thread; a plain store, no read-modify-write).
  static void SetCounter(std::atomic<uint64_t>& counter, uint64_t value) {
    counter.store(value, std::memory_order_relaxed);
  }
  BackendCounters live_counters_;

 private:
  const CommandChunk* applying_ = nullptr;  // the chunk Apply runs (apply thread or GL thread, one at a time)
  std::vector<BackendErrorEvent> raised_;
  std::atomic<StagingArena*> staging_{nullptr};
  std::vector<std::unique_ptr<uint8_t[]>> host_blocks_;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual const BackendCaps& caps() const = 0;
  virtual std::unique_ptr<BackendContext> CreateContext() = 0;
  // A presenter for `window`, or null (with *why) when this backend cannot present to it natively; the
  // frontend then presents by reading frames back. Only CmdPresent records name what this returns.
  virtual std::unique_ptr<Presenter> CreatePresenter(const NativeWindowHandle& window, std::string* why) {
    (void)window;
    *why = "this backend has no native presentation";
    return nullptr;
  }
  // Whether a presenter for `window` could show a late frame at once when asked to
  // (CmdPresent::late_swaps_tear): GLX_EXT_swap_control_tear is listed only where it can.
  virtual bool WindowTearsLateSwaps(const NativeWindowHandle& window) {
    (void)window;
    return false;
  }
};

// Backend factories; each returns null and fills *why when the backend cannot run here.
// vulkan_index >= 0: that physical device (see VulkanDevices), else CALDERA_VK_DEVICE or the best ranked.
std::unique_ptr<Backend> CreateVulkanBackend(std::string* why, int32_t vulkan_index = -1);

// Enumerated once per process, with an instance of its own (no device is created). Empty, and not
// remembered, while a Vulkan call is on the calling thread's stack (VulkanLoaderOnStack) or Caldera's own
// Vulkan setup runs there (InsideVulkanSetup).
const std::vector<VulkanDeviceInfo>& VulkanDevices();
// `display`: the window system the device is opened for; the host's EGL display is opened on it where the
// host can (so windows of it present through the host), else surfaceless.
std::unique_ptr<Backend> CreateGlesBackend(std::string* why, const NativeDisplayHandle& display = {});

// The split-process pipe (CALDERA_PIPE=spawn, docs/SPAWN.md): a Backend in this process whose contexts carry
// their chunks to a caldera-server process that owns the real backend. Null with *why when the server cannot
// be started or speaks another protocol build.
bool SpawnPipeRequested();
// Whether this process is a caldera-server: the server marks itself (an environment variable, so that every
// copy of Caldera in the process sees it) before it opens its backend. A driver may load glvnd's libEGL while
// a backend opens (NVIDIA's Vulkan ICD does inside vkCreateInstance), and glvnd would load Caldera's EGL
// vendor into the server: that copy must decline, since its device enumeration would make a Vulkan instance
// inside the driver's own instance creation, which deadlocks the driver (seen on the H200: a server stuck
// in a futex before its handshake, the client waiting for it).
void MarkSpawnServerProcess();
bool InsideSpawnServer();
std::unique_ptr<Backend> CreateSpawnBackend(std::string* why);
// Times any spawn context waited for the server (synchronous reads, fence waits): the steady-state probe.
uint64_t SpawnBlockingRoundTrips();

}  // namespace caldera::pipe
