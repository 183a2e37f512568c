// Window presentation: the swapchain, the present worker and the GL thread's half of a swap
// (Context::OnPresent). See vk_swapchain.h and docs/WINDOWS.md.
#include "backend/vulkan/vk_swapchain.h"

#include <pthread.h>
#include <xcb/xcb.h>
// vulkan_xcb.h needs xcb's types; the functions come through vkGetInstanceProcAddr. vulkan_wayland.h names
// wl_display and wl_surface only as opaque pointers, so no Wayland header is needed.
#include <vulkan/vulkan_wayland.h>
#include <vulkan/vulkan_xcb.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>

#include "backend/vulkan/vk_context.h"
#include "backend/vulkan/vk_device.h"
#include "util/clock.h"
#include "util/log.h"

namespace caldera::vk {
namespace {

VkImageMemoryBarrier2 ImageBarrier(VkImage image, VkImageLayout from, VkImageLayout to) {
  VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
  b.srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  b.srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT;
  b.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  b.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
  b.oldLayout = from;
  b.newLayout = to;
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  return b;
}

void Barrier(VkCommandBuffer cmd, const VkImageMemoryBarrier2& b) {
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.imageMemoryBarrierCount = 1;
  dep.pImageMemoryBarriers = &b;
  vkCmdPipelineBarrier2(cmd, &dep);
}

bool CreateXcbSurface(Device& device, const pipe::NativeWindowHandle& window, VkSurfaceKHR* surface,
                      std::string* why) {
  VkInstance instance = device.instance();
  auto* connection = static_cast<xcb_connection_t*>(window.connection);
  auto supported = reinterpret_cast<PFN_vkGetPhysicalDeviceXcbPresentationSupportKHR>(
      vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceXcbPresentationSupportKHR"));
  auto create =
      reinterpret_cast<PFN_vkCreateXcbSurfaceKHR>(vkGetInstanceProcAddr(instance, "vkCreateXcbSurfaceKHR"));
  if (!supported || !create) {
    *why = "the loader lacks the xcb surface functions";
    return false;
  }
  if (!supported(device.physical(), device.queue_family(), connection, window.visual)) {
    *why = "the device cannot present to this X server's visual";
    return false;
  }
  VkXcbSurfaceCreateInfoKHR sci{VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR};
  sci.connection = connection;
  sci.window = window.window;
  VkResult r = create(instance, &sci, nullptr, surface);
  if (r != VK_SUCCESS) {
    *why = "vkCreateXcbSurfaceKHR failed (" + std::to_string(r) + ")";
    return false;
  }
  return true;
}

// The WSI keeps its own event queue on the application's wl_display (a display's default queue belongs to
// the application's thread), so presenting from the worker thread does not dispatch the application's
// events.
bool CreateWaylandSurface(Device& device, const pipe::NativeWindowHandle& window, VkSurfaceKHR* surface,
                          std::string* why) {
  VkInstance instance = device.instance();
  auto* display = static_cast<wl_display*>(window.connection);
  auto supported = reinterpret_cast<PFN_vkGetPhysicalDeviceWaylandPresentationSupportKHR>(
      vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceWaylandPresentationSupportKHR"));
  auto create = reinterpret_cast<PFN_vkCreateWaylandSurfaceKHR>(
      vkGetInstanceProcAddr(instance, "vkCreateWaylandSurfaceKHR"));
  if (!supported || !create) {
    *why = "the loader lacks the Wayland surface functions";
    return false;
  }
  if (!supported(device.physical(), device.queue_family(), display)) {
    *why = "the device cannot present to this Wayland compositor";
    return false;
  }
  VkWaylandSurfaceCreateInfoKHR sci{VK_STRUCTURE_TYPE_WAYLAND_SURFACE_CREATE_INFO_KHR};
  sci.display = display;
  sci.surface = static_cast<wl_surface*>(window.surface);
  VkResult r = create(instance, &sci, nullptr, surface);
  if (r != VK_SUCCESS) {
    *why = "vkCreateWaylandSurfaceKHR failed (" + std::to_string(r) + ")";
    return false;
  }
  return true;
}

// The window checks Create makes before any Vulkan call: null when they pass, else why not.
const char* UnsupportedWindow(Device& device, const pipe::NativeWindowHandle& window) {
  bool xcb = window.system == pipe::WindowSystem::kXcb,
       wayland = window.system == pipe::WindowSystem::kWayland;
  if ((!xcb && !wayland) || !window.connection || (wayland && !window.surface))
    return "unsupported window system";
  if (xcb && (!device.features().xcb_surface || !device.features().swapchain))
    return "no VK_KHR_xcb_surface / VK_KHR_swapchain";
  if (wayland && (!device.features().wayland_surface || !device.features().swapchain))
    return "no VK_KHR_wayland_surface / VK_KHR_swapchain";
  return nullptr;
}

bool CreateSurface(Device& device, const pipe::NativeWindowHandle& window, VkSurfaceKHR* surface,
                   std::string* why) {
  return window.system == pipe::WindowSystem::kWayland ? CreateWaylandSurface(device, window, surface, why)
                                                       : CreateXcbSurface(device, window, surface, why);
}

bool QueryPresentModes(Device& device, VkSurfaceKHR surface, std::vector<VkPresentModeKHR>* modes) {
  uint32_t n = 0;
  if (vkGetPhysicalDeviceSurfacePresentModesKHR(device.physical(), surface, &n, nullptr) != VK_SUCCESS)
    return false;
  modes->resize(n);
  if (vkGetPhysicalDeviceSurfacePresentModesKHR(device.physical(), surface, &n, modes->data()) != VK_SUCCESS)
    return false;
  modes->resize(n);
  // CALDERA_FIFO_RELAXED=0: late swaps never tear (GLX_EXT_swap_control_tear is then not listed).
  if (!util::EnvFlag("CALDERA_FIFO_RELAXED", true)) std::erase(*modes, VK_PRESENT_MODE_FIFO_RELAXED_KHR);
  return true;
}

}  // namespace

std::unique_ptr<Swapchain> Swapchain::Create(Device& device, Resources& resources,
                                             const pipe::NativeWindowHandle& window, std::string* why) {
  if (const char* unsupported = UnsupportedWindow(device, window)) {
    *why = unsupported;
    return nullptr;
  }
  std::unique_ptr<Swapchain> s(new Swapchain(device, resources));
  if (!s->Init(window, why)) return nullptr;
  return s;
}

bool Swapchain::TearsLateSwaps(Device& device, const pipe::NativeWindowHandle& window) {
  if (UnsupportedWindow(device, window)) return false;
  std::string why;
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  if (!CreateSurface(device, window, &surface, &why)) return false;
  std::vector<VkPresentModeKHR> modes;
  bool relaxed = QueryPresentModes(device, surface, &modes) &&
                 std::find(modes.begin(), modes.end(), VK_PRESENT_MODE_FIFO_RELAXED_KHR) != modes.end();
  vkDestroySurfaceKHR(device.instance(), surface, nullptr);
  return relaxed;
}

bool Swapchain::Init(const pipe::NativeWindowHandle& window, std::string* why) {
  if (!CreateSurface(device_, window, &surface_, why)) return false;
  VkResult r = VK_SUCCESS;
  VkBool32 queue_ok = VK_FALSE;
  r = vkGetPhysicalDeviceSurfaceSupportKHR(device_.physical(), device_.queue_family(), surface_, &queue_ok);
  if (r != VK_SUCCESS || !queue_ok) {
    *why = "the graphics queue cannot present to the surface";
    return false;
  }
  uint32_t n = 0;
  if (vkGetPhysicalDeviceSurfaceFormatsKHR(device_.physical(), surface_, &n, nullptr) != VK_SUCCESS || !n) {
    *why = "no surface formats";
    return false;
  }
  std::vector<VkSurfaceFormatKHR> formats(n);
  if (vkGetPhysicalDeviceSurfaceFormatsKHR(device_.physical(), surface_, &n, formats.data()) != VK_SUCCESS) {
    *why = "no surface formats";
    return false;
  }
  // UNORM formats: the frame's bytes go to the window as stored (an sRGB-encoded frame is already
  // encoded), so the blit must not convert.
  format_ = formats[0];
  for (VkFormat want : {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM}) {
    auto it = std::find_if(formats.begin(), formats.end(), [&](const VkSurfaceFormatKHR& f) {
      return f.format == want && f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
    });
    if (it != formats.end()) {
      format_ = *it;
      break;
    }
  }
  VkFormatProperties props{};
  vkGetPhysicalDeviceFormatProperties(device_.physical(), format_.format, &props);
  if (!(props.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_DST_BIT)) {
    *why = "the surface format cannot be a blit destination";
    return false;
  }
  if (!QueryPresentModes(device_, surface_, &modes_)) {
    *why = "no present modes";
    return false;
  }
  VkDevice dev = device_.device();
  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pci.queueFamilyIndex = device_.queue_family();
  if (vkCreateCommandPool(dev, &pci, nullptr, &pool_) != VK_SUCCESS) {
    *why = "vkCreateCommandPool failed";
    return false;
  }
  VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool_,
                                 VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  if (vkAllocateCommandBuffers(dev, &ai, &cmd_) != VK_SUCCESS ||
      vkCreateFence(dev, &fci, nullptr, &acquire_fence_) != VK_SUCCESS) {
    *why = "out of memory for the present commands";
    return false;
  }
  latency_ = pipe::FrameLatencyFromEnv();
  // CALDERA_VBLANK_PACING: auto (every FIFO frame on CPU devices, only intervals above 1 elsewhere), 1
  // (every FIFO frame), above-1 (only intervals above 1: what a device whose WSI paces FIFO gets), 0 (never:
  // intervals above 1 then pace like 1).
  const std::string pacing = util::Env("CALDERA_VBLANK_PACING") ? util::Env("CALDERA_VBLANK_PACING") : "auto";
  bool pace = false, hold_above_1 = true;
  if (pacing == "auto")
    pace = device_.properties().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  else if (pacing == "above-1")
    pace = false;
  else if (util::EnvFlag("CALDERA_VBLANK_PACING", false))
    pace = true;
  else
    hold_above_1 = false;
  // FIFO shows a frame for one vblank at most, so intervals above 1 hold frames to the clock on every device.
  if (pace || hold_above_1) clock_ = window.clock;
  pace_every_fifo_frame_ = pace && clock_;
  use_worker_ = util::EnvFlag("CALDERA_PRESENT_WORKER", true);
  pipe::InstallPresentExitGuard();
  // One slot the worker presents from, one waiting, one the GL thread copies into: at interval 0 the GL
  // thread always finds a free one. At interval >= 1 `latency_` frames may wait.
  slots_.resize(size_t(std::max(latency_, 2) + 1));
  if (use_worker_)
    worker_ = std::thread([this] {
      pthread_setname_np(pthread_self(), "caldera-present");
      WorkerLoop();
    });
  util::LogOnce(util::LogLevel::kInfo, "present",
                std::string("Vulkan swapchain presentation, ") +
                    (use_worker_ ? "present worker thread" : "inline (CALDERA_PRESENT_WORKER=0)") +
                    ", frame latency " + std::to_string(latency_) +
                    (pace_every_fifo_frame_ ? ", FIFO paced to the window system's vblank by Caldera"
                     : clock_               ? ", intervals above 1 held to the window system's vblank"
                                            : ""));
  return true;
}

Swapchain::~Swapchain() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  work_cv_.notify_all();
  if (worker_.joinable()) worker_.join();  // the worker shows what is queued before it ends
  pipe::WritePresentStats(stats_, path());
  uint64_t wait = last_serial_;
  for (auto& s : slots_) wait = std::max(wait, s.serial);
  if (wait) device_.WaitSerial(wait);
  VkDevice dev = device_.device();
  {
    std::lock_guard lock(resources_.mutex);
    for (auto& s : slots_) {
      if (s.image.image) resources_.DestroyStandaloneImage(s.image);
      if (s.resolved.image) resources_.DestroyStandaloneImage(s.resolved);
    }
  }
  DestroySwapchain(swapchain_);
  if (surface_) vkDestroySurfaceKHR(device_.instance(), surface_, nullptr);
  if (acquire_fence_) vkDestroyFence(dev, acquire_fence_, nullptr);
  if (pool_) vkDestroyCommandPool(dev, pool_, nullptr);
}

pipe::PresentStats Swapchain::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

VkPresentModeKHR Swapchain::ModeFor(int32_t interval, bool late_swaps_tear) const {
  auto has = [&](VkPresentModeKHR m) { return std::find(modes_.begin(), modes_.end(), m) != modes_.end(); };
  if (interval == 0) {
    if (has(VK_PRESENT_MODE_IMMEDIATE_KHR)) return VK_PRESENT_MODE_IMMEDIATE_KHR;
    if (has(VK_PRESENT_MODE_MAILBOX_KHR)) return VK_PRESENT_MODE_MAILBOX_KHR;
  }
  // FIFO_RELAXED shows a frame that missed its vblank at once: what a negative GLX swap interval asks.
  if (late_swaps_tear && has(VK_PRESENT_MODE_FIFO_RELAXED_KHR)) return VK_PRESENT_MODE_FIFO_RELAXED_KHR;
  return VK_PRESENT_MODE_FIFO_KHR;  // every device has it
}

Swapchain::Slot* Swapchain::FreeSlotLocked(int32_t interval) {
  return pipe::TakeableFrameSlot(slots_, interval, latency_);
}

void Swapchain::WaitForFrameSlot(int32_t interval) {
  std::unique_lock lock(mutex_);
  uint64_t start = util::SteadyNowNs();
  while (!FreeSlotLocked(interval)) free_cv_.wait(lock);
  stats_.gl_wait_ns += util::SteadyNowNs() - start;
}

Swapchain::Slot* Swapchain::BeginFrame(const ImageObject& src, int32_t interval,
                                       Resources::Retired* retired) {
  Slot* slot = nullptr;
  {
    std::unique_lock lock(mutex_);
    uint64_t start = util::SteadyNowNs();
    while (!(slot = FreeSlotLocked(interval))) free_cv_.wait(lock);
    stats_.gl_wait_ns += util::SteadyNowNs() - start;
    slot->state = SlotState::kCopying;
    slot->interval = interval;
  }
  // Only this thread creates, destroys and transitions slot images; a free slot's previous frame was
  // already handed to a submission (the worker's blit), which precedes ours on the queue.
  // An sRGB frame is copied into a UNORM slot (the same bits): the blit into the UNORM swapchain image must
  // not decode it. A multisampled one is resolved in its own format first (Slot::resolved).
  pipe::Format slot_format = src.pipe_format;
  if (slot_format == pipe::Format::kSRGB8A8) slot_format = pipe::Format::kRGBA8;
  if (slot_format == pipe::Format::kSRGB8) slot_format = pipe::Format::kRGB8;
  ImageObject& img = slot->image;
  if (!img.image || img.width != src.width || img.height != src.height || img.pipe_format != slot_format) {
    if (img.image) resources_.RetireStandaloneImage(img, retired);
    img = {};
    ImageDesc desc;
    desc.format = slot_format;
    desc.width = src.width;
    desc.height = src.height;
    if (!resources_.CreateStandaloneImage(desc, &img)) {
      util::LogOnce(util::LogLevel::kError, "eglSwapBuffers", "out of memory for a present staging image");
      img = {};
      std::lock_guard lock(mutex_);
      slot->state = SlotState::kFree;
      return nullptr;
    }
  }
  return slot;
}

void Swapchain::QueueFrame(Slot* slot, uint64_t serial) {
  slot->serial = serial;
  if (!use_worker_) {
    {
      std::lock_guard lock(mutex_);
      ++stats_.frames_queued;
      slot->state = SlotState::kPresenting;
    }
    uint64_t start = util::SteadyNowNs();
    bool presented = PresentSlot(*slot);
    {
      std::lock_guard lock(mutex_);
      stats_.gl_wait_ns += util::SteadyNowNs() - start;
    }
    Finished(slot, presented);
    return;
  }
  {
    std::lock_guard lock(mutex_);
    ++stats_.frames_queued;
    if (slot->interval == 0) {
      // Mailbox: a frame the worker has not taken yet is superseded by this one.
      for (Slot* old : queue_) {
        old->state = SlotState::kFree;
        ++stats_.frames_dropped;
      }
      queue_.clear();
    }
    slot->state = SlotState::kQueued;
    queue_.push_back(slot);
  }
  work_cv_.notify_one();
  free_cv_.notify_all();
}

void Swapchain::Finished(Slot* slot, bool presented) {
  {
    std::lock_guard lock(mutex_);
    slot->state = SlotState::kFree;
    if (presented) {
      ++stats_.frames_presented;
      if (slot->recorded_ns) stats_.AddLatency(util::SteadyNowNs() - slot->recorded_ns);
    } else
      ++stats_.frames_dropped;
  }
  free_cv_.notify_all();
}

void Swapchain::WorkerLoop() {
  for (;;) {
    Slot* slot = nullptr;
    {
      std::unique_lock lock(mutex_);
      work_cv_.wait(lock, [&] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, nothing left to show
      slot = queue_.front();
      queue_.pop_front();
      slot->state = SlotState::kPresenting;
    }
    if (!pipe::BeginPresentWork()) {  // the process is exiting: the driver may be gone
      Finished(slot, false);
      continue;
    }
    bool presented = PresentSlot(*slot);
    pipe::EndPresentWork();
    Finished(slot, presented);
  }
}

void Swapchain::DestroySwapchain(VkSwapchainKHR swapchain) {
  if (swapchain) vkDestroySwapchainKHR(device_.device(), swapchain, nullptr);
}

bool Swapchain::Recreate(const VkSurfaceCapabilitiesKHR& caps, VkExtent2D extent, VkPresentModeKHR mode) {
  // A window being destroyed can answer the capability query with success and nothing in it (lavapipe's X11
  // surface: no transforms, no usages, no layers): no swapchain can be made for it, and asking would be
  // invalid. Its frames are dropped until the window system says what became of it.
  if (caps.maxImageArrayLayers == 0 || !(caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT) ||
      caps.supportedTransforms == 0) {
    util::LogOnce(util::LogLevel::kWarning, "present",
                  "the surface reports no usable swapchain (window going away?): frames are dropped");
    return false;
  }
  VkSwapchainCreateInfoKHR ci{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
  ci.surface = surface_;
  ci.minImageCount = std::max(caps.minImageCount, 2u);
  if (caps.maxImageCount) ci.minImageCount = std::min(ci.minImageCount, caps.maxImageCount);
  ci.imageFormat = format_.format;
  ci.imageColorSpace = format_.colorSpace;
  ci.imageExtent = extent;
  ci.imageArrayLayers = 1;
  ci.imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  ci.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
  ci.preTransform = (caps.supportedTransforms & VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR)
                        ? VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR
                        : caps.currentTransform;
  // The window shows the frame as it is: opaque where the window system lets us say so.
  ci.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
  if (!(caps.supportedCompositeAlpha & ci.compositeAlpha)) {
    for (auto a : {VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR, VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR,
                   VK_COMPOSITE_ALPHA_POST_MULTIPLIED_BIT_KHR}) {
      if (caps.supportedCompositeAlpha & a) {
        ci.compositeAlpha = a;
        break;
      }
    }
  }
  ci.presentMode = mode;
  ci.clipped = VK_TRUE;
  VkSwapchainKHR old = swapchain_;
  ci.oldSwapchain = old;
  VkSwapchainKHR created = VK_NULL_HANDLE;
  VkResult r = vkCreateSwapchainKHR(device_.device(), &ci, nullptr, &created);
  // Every frame we presented has completed (PresentSlot waits for its blit), so the old chain is idle.
  DestroySwapchain(old);
  swapchain_ = VK_NULL_HANDLE;
  images_.clear();
  if (r != VK_SUCCESS) {
    util::LogOnce(util::LogLevel::kWarning, "present",
                  "vkCreateSwapchainKHR failed (" + std::to_string(r) + "): frames are dropped");
    return false;
  }
  uint32_t n = 0;
  if (vkGetSwapchainImagesKHR(device_.device(), created, &n, nullptr) != VK_SUCCESS) {
    DestroySwapchain(created);
    return false;
  }
  images_.resize(n);
  if (vkGetSwapchainImagesKHR(device_.device(), created, &n, images_.data()) != VK_SUCCESS) {
    DestroySwapchain(created);
    images_.clear();
    return false;
  }
  {
    std::lock_guard lock(mutex_);
    if (extent_.width || extent_.height) ++stats_.recreations;
  }
  swapchain_ = created;
  extent_ = extent;
  mode_ = mode;
  recreate_ = false;
  return true;
}

bool Swapchain::PresentSlot(const Slot& slot) {
  auto lost = [&] {
    std::lock_guard lock(mutex_);
    if (!stats_.window_lost)
      util::LogOnce(util::LogLevel::kInfo, "present", "the window is gone: frames are dropped");
    stats_.window_lost = true;
    return false;
  };
  {
    std::lock_guard lock(mutex_);
    if (stats_.window_lost) return false;
  }
  VkSurfaceCapabilitiesKHR caps{};
  VkResult r = vkGetPhysicalDeviceSurfaceCapabilitiesKHR(device_.physical(), surface_, &caps);
  if (r == VK_ERROR_SURFACE_LOST_KHR) return lost();
  if (r != VK_SUCCESS) return false;
  VkExtent2D extent = caps.currentExtent;
  if (extent.width == UINT32_MAX) extent = {slot.image.width, slot.image.height};
  // A minimised or 0x0 window shows nothing: the frame is dropped quietly.
  if (extent.width == 0 || extent.height == 0) return false;
  VkPresentModeKHR mode = ModeFor(slot.interval, slot.late_swaps_tear);
  VkDevice dev = device_.device();
  uint32_t index = 0;
  for (int attempt = 0;; ++attempt) {
    if (!swapchain_ || recreate_ || extent.width != extent_.width || extent.height != extent_.height ||
        mode != mode_) {
      if (!Recreate(caps, extent, mode)) return false;
    }
    // Bounded, so a window that stops answering cannot hang the worker (and the surface's destruction).
    constexpr uint64_t kAcquireTimeoutNs = 1000000000ull;
    r = vkAcquireNextImageKHR(dev, swapchain_, kAcquireTimeoutNs, VK_NULL_HANDLE, acquire_fence_, &index);
    if (r == VK_SUCCESS || r == VK_SUBOPTIMAL_KHR) {
      if (r == VK_SUBOPTIMAL_KHR) recreate_ = true;  // show this frame, then rebuild
      break;
    }
    if (r == VK_ERROR_SURFACE_LOST_KHR) return lost();
    if (r == VK_ERROR_OUT_OF_DATE_KHR && attempt == 0) {
      recreate_ = true;
      if (vkGetPhysicalDeviceSurfaceCapabilitiesKHR(device_.physical(), surface_, &caps) != VK_SUCCESS)
        return false;
      extent = caps.currentExtent.width == UINT32_MAX ? extent : caps.currentExtent;
      if (extent.width == 0 || extent.height == 0) return false;
      continue;
    }
    util::LogOnce(util::LogLevel::kWarning, "present",
                  "vkAcquireNextImageKHR failed (" + std::to_string(r) + "): frame dropped");
    return false;
  }
  if (vkWaitForFences(dev, 1, &acquire_fence_, VK_TRUE, UINT64_MAX) != VK_SUCCESS ||
      vkResetFences(dev, 1, &acquire_fence_) != VK_SUCCESS)
    return false;

  VkImage target = images_[index];
  if (vkResetCommandBuffer(cmd_, 0) != VK_SUCCESS) return false;
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  if (vkBeginCommandBuffer(cmd_, &bi) != VK_SUCCESS) return false;
  Barrier(cmd_, ImageBarrier(target, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL));
  // GL's row 0 is the bottom of the window, the swapchain's row 0 its top: the blit flips. A frame of
  // another size than the window (resized since it was drawn) is scaled to fit.
  VkImageBlit region{};
  region.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.srcOffsets[0] = {0, int32_t(slot.image.height), 0};
  region.srcOffsets[1] = {int32_t(slot.image.width), 0, 1};
  region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.dstOffsets[0] = {0, 0, 0};
  region.dstOffsets[1] = {int32_t(extent_.width), int32_t(extent_.height), 1};
  bool same_size = extent_.width == slot.image.width && extent_.height == slot.image.height;
  vkCmdBlitImage(cmd_, slot.image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, target,
                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region,
                 same_size || !slot.image.filterable ? VK_FILTER_NEAREST : VK_FILTER_LINEAR);
  Barrier(cmd_, ImageBarrier(target, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR));
  if (vkEndCommandBuffer(cmd_) != VK_SUCCESS) return false;
  // Waits on the device for the GL thread's copy; then the host waits for the blit, so the present needs
  // no semaphore and the command buffer, fence and old swapchains are free for the next frame.
  last_serial_ = device_.Submit(cmd_, slot.serial);
  if (!device_.WaitSerial(last_serial_)) return false;

  VkPresentInfoKHR pi{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
  pi.swapchainCount = 1;
  pi.pSwapchains = &swapchain_;
  pi.pImageIndices = &index;
  // The swap's damage as present regions (a hint to the window system), in the swapchain image's top-down
  // rows; only when the frame is shown unscaled (a scaled blit changes every pixel).
  VkRectLayerKHR rects[pipe::CmdPresent::kMaxDamageRects];
  VkPresentRegionKHR present_region{};
  VkPresentRegionsKHR regions{VK_STRUCTURE_TYPE_PRESENT_REGIONS_KHR};
  bool with_regions = device_.features().incremental_present && same_size && slot.damage_count > 0;
  if (with_regions) {
    for (int32_t i = 0; i < slot.damage_count; ++i) {
      const int32_t* d = slot.damage[i];
      rects[i].offset = {d[0], int32_t(extent_.height) - (d[1] + d[3])};
      rects[i].extent = {uint32_t(d[2]), uint32_t(d[3])};
      rects[i].layer = 0;
    }
    present_region.rectangleCount = uint32_t(slot.damage_count);
    present_region.pRectangles = rects;
    regions.swapchainCount = 1;
    regions.pRegions = &present_region;
    pi.pNext = &regions;
  }
  r = device_.Present(pi);
  if (r == VK_SUBOPTIMAL_KHR || r == VK_ERROR_OUT_OF_DATE_KHR) recreate_ = true;
  if (r == VK_ERROR_SURFACE_LOST_KHR) return lost();
  bool presented = r == VK_SUCCESS || r == VK_SUBOPTIMAL_KHR;
  if (presented && with_regions) {
    std::lock_guard lock(mutex_);
    ++stats_.damage_regions;
  }
  // Interval n: the next frame is presented n vblanks after this one (FIFO then shows it at the vblank
  // after that, so the period is n on a WSI that paces FIFO itself as well as on one that does not).
  bool fifo = mode == VK_PRESENT_MODE_FIFO_KHR || mode == VK_PRESENT_MODE_FIFO_RELAXED_KHR;
  if (presented && mode == VK_PRESENT_MODE_FIFO_RELAXED_KHR) {
    std::lock_guard lock(mutex_);
    ++stats_.fifo_relaxed_frames;
  }
  bool hold = clock_ && fifo && (pace_every_fifo_frame_ || slot.interval > 1);
  if (presented && hold && clock_->WaitForVblank(slot.interval)) {
    std::lock_guard lock(mutex_);
    ++stats_.paced;
  }
  return presented;
}

namespace {

// The w x h corner of level 0, layer 0 of two colour images.
VkImageResolve ColorResolve(uint32_t w, uint32_t h) {
  VkImageResolve r{};
  r.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  r.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  r.extent = {w, h, 1};
  return r;
}
VkImageCopy ColorCopy(uint32_t w, uint32_t h) {
  VkImageCopy c{};
  c.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  c.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  c.extent = {w, h, 1};
  return c;
}

}  // namespace

void Context::ResolveThrough(ImageObject& src, ImageObject& mid, ImageObject& dst, uint32_t w, uint32_t h) {
  if (!mid.image || mid.width != src.width || mid.height != src.height ||
      mid.pipe_format != src.pipe_format) {
    if (mid.image) shared_.resources->RetireStandaloneImage(mid, &retired_);
    mid = {};
    ImageDesc desc;
    desc.format = src.pipe_format;
    desc.width = src.width;
    desc.height = src.height;
    if (!shared_.resources->CreateStandaloneImage(desc, &mid)) {
      mid = {};
      util::LogOnce(util::LogLevel::kError, "eglSwapBuffers",
                    "out of memory for a present resolve image: the frame is not shown");
      return;
    }
  }
  mid.layout = VK_IMAGE_LAYOUT_UNDEFINED;  // the previous frame's contents are not needed
  TransitionImage(mid, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  const VkImageResolve r = ColorResolve(w, h);
  vkCmdResolveImage(cmd_, src.image, src.layout, mid.image, mid.layout, 1, &r);
  TransitionImage(mid, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  const VkImageCopy c = ColorCopy(w, h);
  vkCmdCopyImage(cmd_, mid.image, mid.layout, dst.image, dst.layout, 1, &c);
}

// The GL thread's half of a swap: the default framebuffer's colour image (resolved if multisampled) is
// copied into a staging slot and submitted; the presenting side takes it from there.
void Context::OnPresent(const pipe::CmdPresent& cmd) {
  auto* swapchain = static_cast<Swapchain*>(cmd.presenter);
  ImageObject* src = shared_.resources->images.Get(cmd.image.image);
  if (!swapchain || !src) return;
  FlushPendingClears(ClearResolve::kReadback);  // the frame's clears are part of it
  EndPass();
  Swapchain::Slot* slot = swapchain->BeginFrame(*src, cmd.interval, &retired_);
  if (!slot) return;
  Commands();
  if (graphics_since_transfer_ || transfer_since_pass_) {
    TransferBarrier();
    graphics_since_transfer_ = false;
  }
  BeforeImageTransfer(src->image, slot->image.image);
  TransitionImage(*src, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  // The slot's old contents are not needed: start it from UNDEFINED (the barrier still orders this write
  // after the presenting side's read of it, which was submitted earlier).
  slot->image.layout = VK_IMAGE_LAYOUT_UNDEFINED;
  TransitionImage(slot->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  uint32_t w = std::min(src->width, slot->image.width), h = std::min(src->height, slot->image.height);
  if (src->samples > 1 && slot->image.pipe_format != src->pipe_format) {
    // Multisampled sRGB: resolved in the frame's format, then its bits copied into the UNORM slot.
    ResolveThrough(*src, slot->resolved, slot->image, w, h);
  } else if (src->samples > 1) {
    const VkImageResolve r = ColorResolve(w, h);
    vkCmdResolveImage(cmd_, src->image, src->layout, slot->image.image, slot->image.layout, 1, &r);
  } else {
    const VkImageCopy c = ColorCopy(w, h);
    vkCmdCopyImage(cmd_, src->image, src->layout, slot->image.image, slot->image.layout, 1, &c);
  }
  TransitionImage(slot->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  transfer_since_pass_ = true;
  textures_need_layout_check_ = true;
  uint64_t serial = 0;
  SubmitAndStamp(&serial);
  slot->recorded_ns = cmd.recorded_ns;
  slot->late_swaps_tear = cmd.late_swaps_tear;
  slot->damage_count = std::min(cmd.damage_count, int32_t(pipe::CmdPresent::kMaxDamageRects));
  std::copy(&cmd.damage[0][0], &cmd.damage[0][0] + 4 * slot->damage_count, &slot->damage[0][0]);
  swapchain->QueueFrame(slot, serial);
}

}  // namespace caldera::vk
