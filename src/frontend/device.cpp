// Devices, surfaces, contexts and current-ness: the implementation of platform.h.
#include "frontend/device.h"

#include <cstring>
#include <functional>

#include "api/gl_entry_support.h"
#include "frontend/compat/hooks.h"
#include "frontend/context.h"
#include "util/log.h"

namespace caldera {
namespace {

BackendChoice ChoiceFromEnv() {
  const char* v = util::Env("CALDERA_BACKEND");
  if (!v || !std::strcmp(v, "auto")) return BackendChoice::kAuto;
  if (!std::strcmp(v, "vulkan")) return BackendChoice::kVulkan;
  if (!std::strcmp(v, "gles")) return BackendChoice::kGles;
  util::LogOnce(util::LogLevel::kWarning, "CALDERA_BACKEND",
                std::string("unknown value '") + v + "', using auto");
  return BackendChoice::kAuto;
}

pipe::Format SurfaceColorFormat(ColorFormat c, bool srgb) {
  switch (c) {
    case ColorFormat::kRGB8:
      return srgb ? pipe::Format::kSRGB8 : pipe::Format::kRGB8;
    case ColorFormat::kRGB565:
      return pipe::Format::kRGB565;
    case ColorFormat::kNone:
      return pipe::Format::kUndefined;
    default:
      return srgb ? pipe::Format::kSRGB8A8 : pipe::Format::kRGBA8;
  }
}

}  // namespace

Device::Device(std::unique_ptr<pipe::Backend> backend) : backend_(std::move(backend)) {
  // Device-level objects are made from any thread under the device lock: always applied inline.
  resource_pipe_ =
      std::make_unique<pipe::Pipe>(backend_->CreateContext(), pipe::PipeMode::kInline, &apply_order_);
}

Device::~Device() {
  std::lock_guard lock(resource_mutex_);
  resource_pipe_->Submit();
  resource_pipe_->ReleaseThread();
  resource_pipe_.reset();
}

DeviceOpenResult OpenDevice(int32_t vulkan_index, const pipe::NativeDisplayHandle& display) {
  DeviceOpenResult result;
  BackendChoice choice = ChoiceFromEnv();
  std::string vulkan_why, gles_why;
  std::unique_ptr<pipe::Backend> backend;
  if (pipe::SpawnPipeRequested()) {
    // The backend runs in caldera-server, which makes the Vulkan/GLES choice itself (CALDERA_BACKEND).
    std::string why;
    backend = pipe::CreateSpawnBackend(&why);
    if (!backend) {
      result.error = "CALDERA_PIPE=spawn: " + why;
      util::Log(util::LogLevel::kError, "eglInitialize", result.error);
      return result;
    }
  }
  if (!backend && choice != BackendChoice::kGles)
    backend = pipe::CreateVulkanBackend(&vulkan_why, vulkan_index);
  if (!backend && vulkan_index >= 0 && choice == BackendChoice::kAuto) choice = BackendChoice::kVulkan;
  if (!backend && choice == BackendChoice::kAuto)
    util::LogOnce(util::LogLevel::kWarning, "CALDERA_BACKEND",
                  "auto: no usable Vulkan device (" + vulkan_why + "); falling back to the host GLES driver");
  if (!backend && choice != BackendChoice::kVulkan) backend = pipe::CreateGlesBackend(&gles_why, display);
  if (!backend) {
    if (choice == BackendChoice::kVulkan)
      result.error = "Vulkan backend unavailable: " + vulkan_why;
    else if (choice == BackendChoice::kGles)
      result.error = "GLES backend unavailable: " + gles_why;
    else
      result.error = "no usable backend: Vulkan: " + vulkan_why + "; GLES: " + gles_why;
    util::Log(util::LogLevel::kError, "eglInitialize", result.error);
    return result;
  }
  util::Log(util::LogLevel::kInfo, "eglInitialize", "backend: " + backend->caps().renderer);
  result.device = new Device(std::move(backend));
  return result;
}

void CloseDevice(Device* device) {
  if (!device) return;
  std::set<Context*> contexts;
  std::set<Surface*> surfaces;
  {
    std::lock_guard lock(device->registry_mutex);
    contexts = device->contexts;
    surfaces = device->surfaces;
  }
  for (Context* c : contexts) {
    if (c->owner.load() == std::thread::id{}) delete c;
  }
  for (Surface* s : surfaces) {
    if (s->current_count == 0) delete s;
  }
  delete device;
}

const std::vector<pipe::VulkanDeviceInfo>& PhysicalDevices() {
  return pipe::VulkanDevices();
}

bool InsideDeviceSetup() {
  return pipe::InsideVulkanSetup() || pipe::VulkanLoaderOnStack();
}

bool InsideSpawnServer() {
  return pipe::InsideSpawnServer();
}

int32_t DeviceVulkanIndex(const Device& device) {
  return const_cast<Device&>(device).backend().caps().vulkan_device_index;
}

std::string DeviceRendererName(const Device& device) {
  return const_cast<Device&>(device).backend().caps().renderer;
}

DeviceRendererInfo DescribeDeviceRenderer(const Device& device) {
  const auto& caps = const_cast<Device&>(device).backend().caps();
  return {caps.pci_vendor_id, caps.pci_device_id, caps.video_memory_mb, caps.accelerated,
          caps.unified_memory};
}

bool DeviceHasSubresourceImages(const Device& device) {
  return const_cast<Device&>(device).backend().caps().subresource_images;
}

bool DeviceHasSampleCount(const Device& device, int32_t samples) {
  const auto& caps = const_cast<Device&>(device).backend().caps();
  return samples > 0 && uint32_t(samples) <= caps.max_samples && (caps.sample_counts & uint32_t(samples));
}

Surface::Surface(Device& dev, const SurfaceDesc& d) : device(dev), desc(d) {
  color_format = SurfaceColorFormat(d.color, d.srgb);
  std::lock_guard lock(device.resource_mutex());
  auto& pipe = device.resource_pipe();
  CreateImages(pipe);
  pipe.Submit();
  pipe.ReleaseThread();
}

void Surface::CreateImages(pipe::Pipe& pipe) {
  swapped_since_images = false;
  readback_shown = false;
  if (color_format != pipe::Format::kUndefined) {
    color = device.handles().Allocate();
    pipe.Record(pipe::CmdImageCreate{color, color_format, static_cast<uint8_t>(desc.samples), 1,
                                     static_cast<uint32_t>(desc.width), static_cast<uint32_t>(desc.height),
                                     1});
  }
  if (desc.depth_stencil) {
    depth_format = pipe::Format::kD24S8;
    depth_stencil = device.handles().Allocate();
    pipe.Record(pipe::CmdImageCreate{depth_stencil, depth_format, static_cast<uint8_t>(desc.samples), 1,
                                     static_cast<uint32_t>(desc.width), static_cast<uint32_t>(desc.height),
                                     1});
  }
}

void Surface::Resize(pipe::Pipe& pipe, int32_t width, int32_t height) {
  // A front buffer is made again when GL next names it (its contents are undefined after a resize anyway).
  front_drawn = false;
  front_follows_back = false;
  front_equals_back = true;
  for (pipe::Handle* h : {&color, &depth_stencil, &front, &resolved}) {
    if (!h->valid()) continue;
    if (h == &color && color_storage) {  // a texture's too: its last holder destroys it
      color_storage.reset();
      *h = {};
      continue;
    }
    pipe.Record(pipe::CmdImageDestroy{*h});
    device.handles().Free(*h);
    *h = {};
  }
  desc.width = width;
  desc.height = height;
  CreateImages(pipe);
}

Surface::~Surface() {
  if (color_storage) {
    color_storage.reset();  // a bound texture may keep the image
    color = {};
  }
  std::lock_guard lock(device.resource_mutex());
  auto& pipe = device.resource_pipe();
  for (pipe::Handle h : {color, depth_stencil, front, resolved}) {
    if (!h.valid()) continue;
    pipe.Record(pipe::CmdImageDestroy{h});
    device.handles().Free(h);
  }
  pipe.Submit();
  pipe.ReleaseThread();
}

Surface* CreatePbufferSurface(Device& device, const SurfaceDesc& desc, std::string* error) {
  auto max = static_cast<int32_t>(device.backend().caps().max_texture_size);
  if (desc.width < 1 || desc.height < 1 || desc.width > max || desc.height > max) {
    if (error) *error = "surface size out of range";
    return nullptr;
  }
  auto* surface = new Surface(device, desc);
  std::lock_guard lock(device.registry_mutex);
  device.surfaces.insert(surface);
  return surface;
}

void DestroySurface(Surface* surface) {
  if (!surface) return;
  {
    std::lock_guard lock(surface->device.registry_mutex);
    if (surface->current_count > 0) {
      surface->destroy_pending = true;
      return;
    }
    surface->device.surfaces.erase(surface);
  }
  delete surface;
}

int32_t SurfaceWidth(const Surface& surface) {
  return surface.desc.width;
}
int32_t SurfaceBufferAge(const Surface& surface) {
  return surface.window && surface.swapped_since_images ? 1 : 0;
}
int32_t SurfaceHeight(const Surface& surface) {
  return surface.desc.height;
}

Context* CreateContext(Device& device, const ContextDesc& desc, Context* share, std::string* error) {
  bool ok = desc.api == ClientApi::kOpenGL ? kNewestGL.Admits(desc.major, desc.minor)
            : desc.major == 1              ? kNewestES1.Admits(desc.major, desc.minor)
                                           : desc.major >= 2 && kNewestES.Admits(desc.major, desc.minor);
  if (!ok) {
    if (error) *error = "Caldera provides desktop GL up to 3.3 core and OpenGL ES 1.1/2.0/3.0";
    return nullptr;
  }
  if (share && &share->device() != &device) {
    if (error) *error = "share context belongs to another display";
    return nullptr;
  }
  // A robust-access context promises bounded out-of-bounds buffer accesses; only a device that bounds
  // them can keep that promise (Vulkan robustBufferAccess, a robust host context on GLES).
  if (desc.robust && !device.backend().caps().robust_buffer_access) {
    util::LogOnce(util::LogLevel::kInfo, "eglCreateContext",
                  "robust buffer access requested, but the device does not bound out-of-bounds accesses");
    if (error) *error = "robust buffer access unavailable on this device";
    return nullptr;
  }
  // EGL_KHR_create_context_no_error and GLX_ARB_create_context_no_error: a share group does not mix
  // no-error contexts with validating ones (BadMatch / EGL_BAD_MATCH).
  if (share && share->desc().no_error != desc.no_error) {
    if (error) *error = "the share context's no-error mode differs from the one requested";
    return nullptr;
  }
  auto group = share ? share->share_ptr() : std::make_shared<ShareGroup>();
  auto* context = new Context(device, desc, group);
  std::lock_guard lock(device.registry_mutex);
  device.contexts.insert(context);
  return context;
}

namespace {

void DeleteContextNow(Context* context) {
  Device& device = context->device();
  {
    std::lock_guard lock(device.registry_mutex);
    device.contexts.erase(context);
  }
  delete context;
}

void ReleaseSurface(Surface* surface) {
  if (!surface) return;
  bool destroy = false;
  {
    std::lock_guard lock(surface->device.registry_mutex);
    destroy = --surface->current_count == 0 && surface->destroy_pending;
    if (destroy) surface->device.surfaces.erase(surface);
  }
  if (destroy) delete surface;
}

void AcquireSurface(Surface* surface) {
  if (!surface) return;
  std::lock_guard lock(surface->device.registry_mutex);
  ++surface->current_count;
}

}  // namespace

void DestroyContext(Context* context) {
  if (!context) return;
  if (context->owner.load() != std::thread::id{}) {
    context->destroy_pending = true;
    return;
  }
  DeleteContextNow(context);
}

bool MakeCurrent(Context* context, Surface* draw, Surface* read) {
  Context* old = api::tls_current_context;
  auto self = std::this_thread::get_id();
  if (context && context != old) {
    std::thread::id expected{};
    if (!context->owner.compare_exchange_strong(expected, self)) return false;
  }
  if (old && (old != context || old->draw_surface() != draw || old->read_surface() != read)) {
    // GL: making another context current flushes the old one: its work reaches the device, so that a
    // fence or query it issued completes for whoever waits on it. A context created with release
    // behaviour NONE (KHR_context_flush_control) keeps its recorded commands when it is released: they
    // reach the device with its next flush, on whichever thread makes it current. Rebinding the same
    // context to other surfaces is no release, so it still flushes.
    if (old->compat_hooks) compat::DrawPendingBatch(*old);
    if (old != context && !old->desc().release_flush) {
      util::LogOnce(util::LogLevel::kInfo, "release behavior none",
                    "a context with release behaviour NONE was released without a flush");
    } else {
      old->pipe().Record(pipe::CmdFlush{});
      old->pipe().Submit();
    }
    old->pipe().ReleaseThread();
    Surface* old_draw = old->draw_surface();
    Surface* old_read = old->read_surface();
    old->Bind(nullptr, nullptr);
    ReleaseSurface(old_draw);
    ReleaseSurface(old_read);
    if (old != context) {
      old->owner.store(std::thread::id{});
      api::tls_current_context = nullptr;
      if (old->destroy_pending) DeleteContextNow(old);
    }
  }
  if (context && (context != old || context->draw_surface() != draw || context->read_surface() != read)) {
    AcquireSurface(draw);
    AcquireSurface(read);
    context->Bind(draw, read);
  }
  api::tls_current_context = context;
  if (context && context->compat) compat::ApplyCopiedAttribs(*context);
  return true;
}

bool ContextLost(Context* context) {
  return context && context->lost();
}

void FlushCurrent() {
  if (Context* c = api::tls_current_context) {
    if (c->compat_hooks) compat::DrawPendingBatch(*c);
    c->pipe().Record(pipe::CmdFlush{});  // glFlush semantics (eglWaitClient): to the device, not just applied
    c->pipe().Submit();
    ShowFrontBuffer(*c);
  }
}

void FinishCurrent() {
  if (Context* c = api::tls_current_context) {
    if (c->compat_hooks) compat::DrawPendingBatch(*c);
    c->pipe().RecordAndWait(pipe::CmdFinish{});
    ShowFrontBuffer(*c);
  }
}

}  // namespace caldera

namespace caldera {

void RecordDeviceWide(Device& device, const std::function<void(pipe::Pipe&)>& record) {
  Context* current = api::tls_current_context;
  // Other contexts' flushed work is applied before the record (it may use, or have made, the object).
  if (current && &current->device() == &device) {
    current->pipe().MarkSharedChange();
    record(current->pipe());
  } else {
    std::lock_guard lock(device.resource_mutex());
    device.resource_pipe().MarkSharedChange();
    record(device.resource_pipe());
    device.resource_pipe().Submit();
    device.resource_pipe().ReleaseThread();
  }
}

void ReleaseBackendObject(Device* device, pipe::ObjectKind kind, pipe::Handle handle) {
  if (!device || !handle.valid()) return;
  RecordDeviceWide(*device, [&](pipe::Pipe& p) {
    switch (kind) {
      case pipe::ObjectKind::kBuffer:
        p.Record(pipe::CmdBufferDestroy{handle});
        break;
      case pipe::ObjectKind::kImage:
        p.Record(pipe::CmdImageDestroy{handle});
        break;
      case pipe::ObjectKind::kProgram:
        p.Record(pipe::CmdProgramDestroy{handle});
        break;
      case pipe::ObjectKind::kCount:
        break;
    }
  });
  // The slot can be reused at once: the backend sees the destroy before any later create of that slot
  // from this stream; creates on other streams use other slots until this one is freed here.
  device->handles().Free(handle);
}

}  // namespace caldera
