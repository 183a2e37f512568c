// The GLES backend's device and its pipe::Backend face.
#include "backend/gles/gles_device.h"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "backend/gles/gles_context.h"
#include "backend/gles/gles_present.h"
#include "util/log.h"

namespace caldera::gles {
namespace {

thread_local EGLContext t_host_context = EGL_NO_CONTEXT;

// GL_EXT_texture_filter_anisotropic and GL_EXT_texture_sRGB_decode enums (the host headers name them with
// EXT suffixes or not at all).
constexpr GLenum kTextureMaxAnisotropy = 0x84FE, kMaxTextureMaxAnisotropy = 0x84FF;
constexpr GLenum kTextureSrgbDecode = 0x8A48, kSkipDecode = 0x8A4A;

bool HasExtension(const HostGL& gl, const char* name) {
  GLint count = 0;
  gl.GetIntegerv(GL_NUM_EXTENSIONS, &count);
  for (GLint i = 0; i < count; ++i) {
    auto* ext = reinterpret_cast<const char*>(gl.GetStringi(GL_EXTENSIONS, static_cast<GLuint>(i)));
    if (ext && !std::strcmp(ext, name)) return true;
  }
  return false;
}

}  // namespace

EGLContext ThreadHostContext() {
  return t_host_context;
}

bool BindHostContext(HostEgl& host, EGLContext context) {
  if (t_host_context == context) return true;
  if (!host.MakeCurrent(context)) return false;
  t_host_context = context;
  return true;
}

std::unique_ptr<Device> Device::Create(std::string* why, const pipe::NativeDisplayHandle& display) {
  std::unique_ptr<Device> device(new Device);
  if (!device->Init(why, display)) return nullptr;
  return device;
}

bool Device::Init(std::string* why, const pipe::NativeDisplayHandle& display) {
  host_ = HostEgl::Open(why, display);
  if (!host_) return false;
  root_ = host_->CreateContext(EGL_NO_CONTEXT, why);
  if (root_ == EGL_NO_CONTEXT) return false;
  EGLContext previous = ThreadHostContext();
  if (!BindHostContext(*host_, root_)) {
    *why = "the host refused to make a surfaceless GLES context current";
    return false;
  }
  std::string missing;
  bool loaded = LoadHostGL(&gl_, host_->proc_lookup(), &missing);
  if (!loaded) {
    *why = "the host GLES library lacks " + missing;
  } else if (host_->es_minor() < 1) {
    // layout(binding) in ESSL (3.10) is how translated shaders find their resources.
    *why = "the host offers GLES 3.0 only (3.1 needed)";
    loaded = false;
  } else {
    QueryCaps();
  }
  if (previous != EGL_NO_CONTEXT) BindHostContext(*host_, previous);
  return loaded;
}

// The counts every image format Caldera makes multisampled accepts (colour and depth-stencil textures; a
// TEXTURE_2D_MULTISAMPLE image is what the backend creates for both renderbuffers and textures).
void Device::QuerySampleCounts() {
  GLint max_samples = 1;
  gl_.GetIntegerv(GL_MAX_SAMPLES, &max_samples);
  uint32_t counts = ~0u;
  for (GLenum format : {GLenum(GL_RGBA8), GLenum(GL_DEPTH24_STENCIL8)}) {
    GLint n = 0;
    gl_.GetInternalformativ(GL_TEXTURE_2D_MULTISAMPLE, format, GL_NUM_SAMPLE_COUNTS, 1, &n);
    GLint list[16] = {};
    n = std::clamp(n, 0, 16);
    if (n > 0) gl_.GetInternalformativ(GL_TEXTURE_2D_MULTISAMPLE, format, GL_SAMPLES, n, list);
    uint32_t mask = 0;
    for (GLint i = 0; i < n; ++i)
      if (list[i] > 1 && list[i] <= 64 && (list[i] & (list[i] - 1)) == 0) mask |= uint32_t(list[i]);
    counts &= mask;
  }
  caps_.sample_counts = (counts & 0x7F) | 1u;
  caps_.max_samples = 1;
  for (uint32_t n = 64; n > 1; n >>= 1) {
    if ((caps_.sample_counts & n) && n <= uint32_t(max_samples)) {
      caps_.max_samples = n;
      break;
    }
  }
  caps_.resolve_depth_stencil = true;  // GLES 3.0 blits resolve depth and stencil too
  caps_.robust_buffer_access = host_->robust_access();
}

void Device::QueryCaps() {
  essl_version_ = host_->es_minor() >= 2 ? 320 : 310;
  has_depth_clamp_ = HasExtension(gl_, "GL_EXT_depth_clamp");
  has_multisample_compat_ = HasExtension(gl_, "GL_EXT_multisample_compatibility");
  has_read_depth_ = HasExtension(gl_, "GL_NV_read_depth");
  has_read_stencil_ = HasExtension(gl_, "GL_NV_read_stencil");
  has_srgb_write_control_ = HasExtension(gl_, "GL_EXT_sRGB_write_control");
  auto* renderer = reinterpret_cast<const char*>(gl_.GetString(GL_RENDERER));
  caps_.renderer = std::string("Caldera (GLES: ") + (renderer ? renderer : "host") + ")";
  // GLX_MESA_query_renderer: the host names no PCI ids or memory size through GLES; Mesa's CPU renderers
  // name themselves in GL_RENDERER.
  const std::string host = renderer ? renderer : "";
  caps_.accelerated = host.find("llvmpipe") == std::string::npos &&
                      host.find("softpipe") == std::string::npos &&
                      host.find("SwiftShader") == std::string::npos;
  caps_.unified_memory = !caps_.accelerated;
  if (HasExtension(gl_, "GL_NVX_gpu_memory_info")) {
    GLint kb = 0;
    gl_.GetIntegerv(0x9047 /* GL_GPU_MEMORY_INFO_DEDICATED_VIDMEM_NVX */, &kb);
    caps_.video_memory_mb = kb > 0 ? uint32_t(kb / 1024) : 0;
  } else if (caps_.unified_memory) {
    // A CPU renderer's memory is the host's (what Mesa's own GLX reports for llvmpipe).
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0)
      caps_.video_memory_mb =
          uint32_t(std::min<uint64_t>(uint64_t(pages) * uint64_t(page) >> 20, UINT32_MAX));
  }
  GLint value = 0;
  gl_.GetIntegerv(GL_MAX_TEXTURE_SIZE, &value);
  caps_.max_texture_size = static_cast<uint32_t>(std::min(value, 16384));
  GLint dims[2] = {4096, 4096};
  gl_.GetIntegerv(GL_MAX_VIEWPORT_DIMS, dims);
  caps_.max_viewport[0] = static_cast<uint32_t>(std::min(dims[0], 16384));
  caps_.max_viewport[1] = static_cast<uint32_t>(std::min(dims[1], 16384));
  gl_.GetFloatv(GL_ALIASED_LINE_WIDTH_RANGE, caps_.line_width_range);
  gl_.GetFloatv(0x846D /* GL_ALIASED_POINT_SIZE_RANGE: GLES and compatibility only */,
                caps_.point_size_range);
  gl_.GetIntegerv(GL_MAX_UNIFORM_BLOCK_SIZE, &value);
  caps_.max_uniform_block_size = static_cast<uint32_t>(std::min(value, 16384));
  gl_.GetIntegerv(GL_MAX_COLOR_ATTACHMENTS, &value);
  caps_.max_color_attachments = static_cast<uint32_t>(std::min(value, pipe::kMaxColorAttachments));
  gl_.GetIntegerv(GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT, &uniform_offset_alignment_);
  QuerySampleCounts();
  caps_.line_loops = true;  // GLES has GL_LINE_LOOP (gles_formats.cpp)
  caps_.vertex_types_converted = 1u << pipe::VertexFormat::kDouble;  // GLES has no double attributes
  caps_.read_depth = has_read_depth_;
  caps_.read_stencil = has_read_stencil_;
  // Timer queries go to the host's GL_EXT_disjoint_timer_query: its entry points resolve on hosts that do
  // not list it (eglGetProcAddress answers any name), so the string decides. A host may count 0 timestamp
  // bits (timestamps unsupported); Caldera's timer condition then does not hold at all.
  if (HasExtension(gl_, "GL_EXT_disjoint_timer_query") && gl_.QueryCounterEXT && gl_.GetQueryObjectui64vEXT) {
    GLint bits = 0;
    gl_.GetQueryiv(GL_TIMESTAMP, GL_QUERY_COUNTER_BITS, &bits);
    has_timer_queries_ = bits > 0;
    caps_.timestamp_bits = bits > 0 ? static_cast<uint32_t>(std::min(bits, 64)) : 0;
  }
  // RGTC blocks go to the host as they are when it samples them (Mesa and NVIDIA GLES both do).
  caps_.native_rgtc = HasExtension(gl_, "GL_EXT_texture_compression_rgtc");
  // Sampler state the host applies through its own extensions; CALDERA_ANISOTROPY=0 takes anisotropic
  // filtering away (as on a host without it).
  if (HasExtension(gl_, "GL_EXT_texture_filter_anisotropic") && util::EnvFlag("CALDERA_ANISOTROPY", true)) {
    GLfloat limit = 0.0f;
    gl_.GetFloatv(kMaxTextureMaxAnisotropy, &limit);
    caps_.max_anisotropy = limit >= 1.0f ? limit : 0.0f;
  }
  caps_.srgb_decode = HasExtension(gl_, "GL_EXT_texture_sRGB_decode");
  caps_.norm16 = HasExtension(gl_, "GL_EXT_texture_norm16");
  // S3TC likewise, sRGB forms included (Mesa llvmpipe has both extensions).
  caps_.native_s3tc = HasExtension(gl_, "GL_EXT_texture_compression_s3tc") &&
                      HasExtension(gl_, "GL_EXT_texture_compression_s3tc_srgb");
  caps_.native_bptc = HasExtension(gl_, "GL_EXT_texture_compression_bptc");
  caps_.subresource_images = (HasExtension(gl_, "GL_OES_texture_view") && gl_.TextureViewOES) ||
                             (HasExtension(gl_, "GL_EXT_texture_view") && gl_.TextureViewEXT);
  while (gl_.GetError() != GL_NO_ERROR) {
  }
}

Device::~Device() {
  if (!host_) return;
  if (root_ != EGL_NO_CONTEXT && BindHostContext(*host_, root_)) {
    for (auto& [key, sampler] : samplers_) gl_.DeleteSamplers(1, &sampler);
    std::lock_guard lock(fence_mutex_);
    for (auto& [serial, entry] : fences_) host_->DestroySync(entry.sync);
    fences_.clear();
  }
  BindHostContext(*host_, EGL_NO_CONTEXT);
  host_->DestroyContext(root_);
}

GLuint Device::GetSampler(const pipe::SamplerState& s) {
  SamplerKey key;
  std::memcpy(key.data(), &s, sizeof(s));
  auto it = samplers_.find(key);
  if (it != samplers_.end()) return it->second;
  GLuint sampler = 0;
  gl_.GenSamplers(1, &sampler);
  GLenum mag = s.mag_linear ? GL_LINEAR : GL_NEAREST;
  GLenum min = s.min_linear ? GL_LINEAR : GL_NEAREST;
  if (s.mip_mode == 1) min = s.min_linear ? GL_LINEAR_MIPMAP_NEAREST : GL_NEAREST_MIPMAP_NEAREST;
  if (s.mip_mode == 2) min = s.min_linear ? GL_LINEAR_MIPMAP_LINEAR : GL_NEAREST_MIPMAP_LINEAR;
  gl_.SamplerParameteri(sampler, GL_TEXTURE_MAG_FILTER, static_cast<GLint>(mag));
  gl_.SamplerParameteri(sampler, GL_TEXTURE_MIN_FILTER, static_cast<GLint>(min));
  const GLenum wraps[] = {GL_REPEAT, GL_MIRRORED_REPEAT, GL_CLAMP_TO_EDGE, GL_CLAMP_TO_BORDER};
  const GLenum wrap_names[] = {GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T, GL_TEXTURE_WRAP_R};
  for (int i = 0; i < 3; ++i)
    gl_.SamplerParameteri(sampler, wrap_names[i], static_cast<GLint>(wraps[std::min<int>(s.wrap[i], 3)]));
  gl_.SamplerParameterf(sampler, GL_TEXTURE_MIN_LOD, s.min_lod);
  gl_.SamplerParameterf(sampler, GL_TEXTURE_MAX_LOD, s.max_lod);
  if (s.wrap[0] == 3 || s.wrap[1] == 3 || s.wrap[2] == 3) {
    // GLES 3.2 keeps border colours like desktop GL: integer textures read the words glSamplerParameterI*
    // wrote.
    GLint words[4];
    std::memcpy(words, s.border, sizeof(words));
    if (s.border_type == uint8_t(pipe::SampleType::kSint))
      gl_.SamplerParameterIiv(sampler, GL_TEXTURE_BORDER_COLOR, words);
    else if (s.border_type == uint8_t(pipe::SampleType::kUint))
      gl_.SamplerParameterIuiv(sampler, GL_TEXTURE_BORDER_COLOR, reinterpret_cast<const GLuint*>(words));
    else
      gl_.SamplerParameterfv(sampler, GL_TEXTURE_BORDER_COLOR, s.border);
  }
  if (s.compare_enable) {
    gl_.SamplerParameteri(sampler, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
    gl_.SamplerParameteri(sampler, GL_TEXTURE_COMPARE_FUNC, static_cast<GLint>(ToHostCompare(s.compare_op)));
  }
  // Clamped by the host to its limit, which is BackendCaps::max_anisotropy (the frontend refuses the
  // parameter without it).
  if (s.max_anisotropy > 1.0f && caps_.max_anisotropy > 0.0f)
    gl_.SamplerParameterf(sampler, kTextureMaxAnisotropy, s.max_anisotropy);
  if (s.skip_srgb_decode && caps_.srgb_decode)
    gl_.SamplerParameteri(sampler, kTextureSrgbDecode, static_cast<GLint>(kSkipDecode));
  if (s.lod_bias != 0.0f)
    util::LogOnce(util::LogLevel::kWarning, "GL_TEXTURE_LOD_BIAS",
                  "GLES has no sampler LOD bias: ignored on the GLES backend (docs/GLES-BACKEND.md)");
  samplers_.emplace(std::move(key), sampler);
  return sampler;
}

uint64_t Device::InsertFence() {
  EGLSync sync = host_->CreateFence();
  std::lock_guard lock(fence_mutex_);
  uint64_t serial = next_serial_++;
  if (sync == EGL_NO_SYNC) {
    // No fence object: complete it conservatively once the host has finished everything.
    gl_.Finish();
    completed_serial_ = std::max(completed_serial_, serial);
    return serial;
  }
  fences_[serial] = {sync, 0};
  RetireFencesLocked();
  return serial;
}

EGLSync Device::PendingSync(uint64_t serial) {
  std::lock_guard lock(fence_mutex_);
  if (serial <= completed_serial_) return EGL_NO_SYNC;
  auto it = fences_.find(serial);
  return it == fences_.end() ? EGL_NO_SYNC : it->second.sync;
}

void Device::RetireFencesLocked() {
  for (auto it = fences_.begin(); it != fences_.end() && it->first <= completed_serial_;) {
    if (it->second.waiters > 0) break;
    host_->DestroySync(it->second.sync);
    it = fences_.erase(it);
  }
}

pipe::Timeline::WaitResult Device::WaitSerial(uint64_t serial, uint64_t timeout_ns) {
  EGLSync sync = EGL_NO_SYNC;
  {
    std::lock_guard lock(fence_mutex_);
    if (serial <= completed_serial_) return WaitResult::kSignaled;
    auto it = fences_.find(serial);
    if (it == fences_.end()) return serial < next_serial_ ? WaitResult::kSignaled : WaitResult::kTimeout;
    sync = it->second.sync;
    ++it->second.waiters;
  }
  // eglClientWaitSync needs no current context, so any frontend thread may wait here.
  EGLint r = host_->ClientWait(sync, timeout_ns);
  std::lock_guard lock(fence_mutex_);
  --fences_[serial].waiters;
  if (r == EGL_CONDITION_SATISFIED) {
    // Host fences complete in submission order: everything up to this serial is done.
    completed_serial_ = std::max(completed_serial_, serial);
    RetireFencesLocked();
    return WaitResult::kSignaled;
  }
  return r == EGL_TIMEOUT_EXPIRED ? WaitResult::kTimeout : WaitResult::kLost;
}

namespace {

class Backend final : public pipe::Backend {
 public:
  explicit Backend(std::unique_ptr<Device> device) : device_(std::move(device)) {}
  const pipe::BackendCaps& caps() const override { return device_->caps(); }
  std::unique_ptr<pipe::BackendContext> CreateContext() override {
    return std::make_unique<Context>(*device_);
  }
  std::unique_ptr<pipe::Presenter> CreatePresenter(const pipe::NativeWindowHandle& window,
                                                   std::string* why) override {
    return Presenter::Create(*device_, window, why);
  }

 private:
  std::unique_ptr<Device> device_;
};

}  // namespace
}  // namespace caldera::gles

namespace caldera {

std::unique_ptr<pipe::Backend> pipe::CreateGlesBackend(std::string* why, const NativeDisplayHandle& display) {
  auto device = gles::Device::Create(why, display);
  if (!device) return nullptr;
  return std::make_unique<gles::Backend>(std::move(device));
}

}  // namespace caldera
