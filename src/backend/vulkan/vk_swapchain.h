// Presentation to one native window: its VkSurfaceKHR and swapchain, a ring of staging images the GL
// thread copies finished frames into, and the present worker that acquires swapchain images, blits the
// staging image in (GL's bottom-up rows flipped to the window's top-down ones, converted to the swapchain's
// format and scaled to its extent) and presents. The worker owns acquire and vkQueuePresentKHR, so the GL
// thread waits only for a free staging image (the frame-latency throttle), never for the display at
// interval 0. CALDERA_PRESENT_WORKER=0 does the same work inline on the GL thread.
#pragma once

#include <vulkan/vulkan.h>

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "backend/vulkan/vk_resources.h"
#include "pipe/commands.h"
#include "pipe/present.h"

namespace caldera::vk {

class Device;

class Swapchain final : public pipe::Presenter {
 public:
  // Null (with *why) when the device cannot present to the window; the frontend then reads frames back.
  static std::unique_ptr<Swapchain> Create(Device& device, Resources& resources,
                                           const pipe::NativeWindowHandle& window, std::string* why);
  // Whether a swapchain for `window` could show late frames at once (FIFO_RELAXED), asked of a surface made
  // for the question and destroyed.
  static bool TearsLateSwaps(Device& device, const pipe::NativeWindowHandle& window);
  ~Swapchain() override;
  pipe::PresentStats stats() const override;
  const char* path() const override { return "vulkan-swapchain"; }
  void WaitForFrameSlot(int32_t interval) override;

  enum class SlotState : uint8_t { kFree, kCopying, kQueued, kPresenting };
  struct Slot {
    ImageObject image;  // the frame as the GL thread copied it, GL orientation; TRANSFER_SRC once queued
    // Multisampled sRGB frames are resolved here first, in their own format (a resolve keeps the format),
    // then copied into `image` as the UNORM bits the display shows. Made on first need.
    ImageObject resolved;
    SlotState state = SlotState::kFree;
    uint64_t serial = 0;  // the submission that wrote it
    int32_t interval = 1;
    uint64_t recorded_ns = 0;      // when the GL thread recorded the swap (PresentStats::AddLatency)
    bool late_swaps_tear = false;  // CmdPresent::late_swaps_tear
    int32_t damage[pipe::CmdPresent::kMaxDamageRects][4] = {};  // the swap's damage (GL pixels), a hint
    int32_t damage_count = 0;                                   // 0: the whole frame
  };

  // GL thread, inside Context::Execute. Waits until a staging slot is free and, at interval >= 1, until
  // fewer than CALDERA_FRAME_LATENCY frames are waiting for the display; (re)creates the slot's image for
  // `src`'s format and size (the old one goes to `retired`). Null when no image can be made.
  // WaitForFrameSlot has normally waited already; this waits only when two threads swap one window.
  Slot* BeginFrame(const ImageObject& src, int32_t interval, Resources::Retired* retired);
  // The copy into `slot` was submitted as `serial`: hand it to the worker (or present it now, inline). At
  // interval 0 a frame still waiting for the worker is replaced (mailbox): the GL thread never waits.
  void QueueFrame(Slot* slot, uint64_t serial);

 private:
  Swapchain(Device& device, Resources& resources) : device_(device), resources_(resources) {}
  bool Init(const pipe::NativeWindowHandle& window, std::string* why);
  void WorkerLoop();
  // Acquire, blit, submit, present one frame. Returns false when the frame was dropped.
  bool PresentSlot(const Slot& slot);
  bool Recreate(const VkSurfaceCapabilitiesKHR& caps, VkExtent2D extent, VkPresentModeKHR mode);
  void DestroySwapchain(VkSwapchainKHR swapchain);
  VkPresentModeKHR ModeFor(int32_t interval, bool late_swaps_tear) const;
  void Finished(Slot* slot, bool presented);
  // With mutex_ held: a slot a frame at `interval` may take now, or null.
  Slot* FreeSlotLocked(int32_t interval);

  Device& device_;
  Resources& resources_;
  VkSurfaceKHR surface_ = VK_NULL_HANDLE;
  VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
  std::vector<VkImage> images_;
  VkImageUsageFlags usage_ = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  VkSurfaceFormatKHR format_{};
  VkCompositeAlphaFlagBitsKHR alpha_ = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
  VkExtent2D extent_{};
  VkPresentModeKHR mode_ = VK_PRESENT_MODE_FIFO_KHR;
  std::vector<VkPresentModeKHR> modes_;
  bool recreate_ = false;  // the last acquire or present said SUBOPTIMAL / OUT_OF_DATE

  // Used by whichever thread presents (the worker, or the GL thread inline): never both.
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkFence acquire_fence_ = VK_NULL_HANDLE;
  uint64_t last_serial_ = 0;  // the presenting side's last submission

  mutable std::mutex mutex_;  // guards slots_' states, queue_, stats_ and stop_
  std::condition_variable work_cv_, free_cv_;
  std::vector<Slot> slots_;
  std::deque<Slot*> queue_;
  pipe::PresentStats stats_;
  bool stop_ = false;
  bool use_worker_ = true;
  // Hold FIFO frames to the window system's vblank ourselves: every one where the WSI does not pace FIFO
  // (lavapipe's X11 WSI presents at once on a server without DRI3; CALDERA_VBLANK_PACING=auto (CPU
  // devices) | 1 | 0), and on every device those at intervals above 1 (FIFO waits for one vblank only).
  pipe::VblankClock* clock_ = nullptr;
  bool pace_every_fifo_frame_ = false;
  int32_t latency_ = 2;
  std::thread worker_;
};

}  // namespace caldera::vk
