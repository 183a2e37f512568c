// Presents to an X window (run under Xvfb by run_under_xvfb.py) and checks that presents count in
// the run-ahead depth.
//   nowait: four frames (submit + present each) without any wait. Depth reaches 8; the test runs
//           with CALDERA_GUARD_MAX_RUNAHEAD=5, which the four submissions alone would stay within,
//           so the single finding proves the presents are counted.
//   wait:   four frames, each starting with a wait for the previous frame's fence. That wait
//           retires the previous submission and the present before it, but not the previous
//           present (nothing the app waited for was submitted after it), so the steady depth is 3:
//           the previous present, this submission, this present. Runs under a bound of 3, clean.
#define VK_USE_PLATFORM_XCB_KHR
#include <xcb/xcb.h>

#include <algorithm>
#include <string>
#include <vector>

#include "guard_test_util.h"

using namespace guard_test;

namespace {

constexpr uint32_t kFrames = 4;

// An unmanaged 64x64 window on the default screen of $DISPLAY.
struct Window {
  xcb_connection_t* connection = nullptr;
  xcb_window_t window = 0;

  Window() {
    connection = xcb_connect(nullptr, nullptr);
    if (xcb_connection_has_error(connection)) Fail("cannot connect to the X server ($DISPLAY)");
    xcb_screen_t* screen = xcb_setup_roots_iterator(xcb_get_setup(connection)).data;
    window = xcb_generate_id(connection);
    xcb_create_window(connection, XCB_COPY_FROM_PARENT, window, screen->root, 0, 0, 64, 64, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, 0, nullptr);
    xcb_map_window(connection, window);
    xcb_flush(connection);
  }
  ~Window() {
    xcb_destroy_window(connection, window);
    xcb_disconnect(connection);
  }
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;
};

VkSemaphore CreateSemaphore(Context& ctx) {
  auto info = Init<VkSemaphoreCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO);
  VkSemaphore semaphore = VK_NULL_HANDLE;
  GUARD_VK(vkCreateSemaphore(ctx.device(), &info, nullptr, &semaphore));
  ctx.AtTeardown([device = ctx.device(), semaphore] { vkDestroySemaphore(device, semaphore, nullptr); });
  return semaphore;
}

VkSwapchainKHR CreateSwapchain(Context& ctx, VkSurfaceKHR surface) {
  VkBool32 supported = VK_FALSE;
  GUARD_VK(
      vkGetPhysicalDeviceSurfaceSupportKHR(ctx.physical_device(), ctx.queue_family(), surface, &supported));
  if (!supported) Fail("the queue family cannot present to the X surface");
  VkSurfaceCapabilitiesKHR caps{};
  GUARD_VK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(ctx.physical_device(), surface, &caps));
  uint32_t format_count = 1;
  VkSurfaceFormatKHR format{};
  const VkResult formats =
      vkGetPhysicalDeviceSurfaceFormatsKHR(ctx.physical_device(), surface, &format_count, &format);
  if ((formats != VK_SUCCESS && formats != VK_INCOMPLETE) || format_count == 0) Fail("no surface format");
  // Xvfb's fake vertical blank would make FIFO presents wait for it; the test only needs presents
  // to be queued, so take a mode that does not throttle when there is one.
  uint32_t mode_count = 0;
  GUARD_VK(vkGetPhysicalDeviceSurfacePresentModesKHR(ctx.physical_device(), surface, &mode_count, nullptr));
  std::vector<VkPresentModeKHR> modes(mode_count);
  GUARD_VK(
      vkGetPhysicalDeviceSurfacePresentModesKHR(ctx.physical_device(), surface, &mode_count, modes.data()));
  VkPresentModeKHR mode = VK_PRESENT_MODE_FIFO_KHR;
  for (VkPresentModeKHR candidate : modes) {
    if (candidate == VK_PRESENT_MODE_IMMEDIATE_KHR) mode = candidate;
  }

  auto info = Init<VkSwapchainCreateInfoKHR>(VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR);
  info.surface = surface;
  info.minImageCount =
      caps.maxImageCount == 0 ? caps.minImageCount + 1 : std::min(caps.minImageCount + 1, caps.maxImageCount);
  info.imageFormat = format.format;
  info.imageColorSpace = format.colorSpace;
  info.imageExtent = caps.currentExtent.width == UINT32_MAX ? VkExtent2D{64, 64} : caps.currentExtent;
  info.imageArrayLayers = 1;
  info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.preTransform = caps.currentTransform;
  info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
  info.presentMode = mode;
  info.clipped = VK_TRUE;
  VkSwapchainKHR swapchain = VK_NULL_HANDLE;
  GUARD_VK(vkCreateSwapchainKHR(ctx.device(), &info, nullptr, &swapchain));
  ctx.AtTeardown([device = ctx.device(), swapchain] { vkDestroySwapchainKHR(device, swapchain, nullptr); });
  return swapchain;
}

// Records the transition of a freshly acquired image to the layout presentation needs.
VkCommandBuffer RecordFrame(Context& ctx, VkImage image) {
  VkCommandBuffer cb = ctx.AllocateCommandBuffer();
  ctx.Begin(cb, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
  auto barrier = Init<VkImageMemoryBarrier>(VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
  barrier.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  barrier.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = image;
  barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                       VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, nullptr, 0, nullptr, 1, &barrier);
  ctx.End(cb);
  return cb;
}

void Run(bool wait_each_frame) {
  Window window;
  ContextOptions options;
  options.instance_extensions = {VK_KHR_SURFACE_EXTENSION_NAME, VK_KHR_XCB_SURFACE_EXTENSION_NAME};
  options.device_extensions = {VK_KHR_SWAPCHAIN_EXTENSION_NAME};
  Context ctx(options);

  auto surface_info = Init<VkXcbSurfaceCreateInfoKHR>(VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR);
  surface_info.connection = window.connection;
  surface_info.window = window.window;
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  GUARD_VK(vkCreateXcbSurfaceKHR(ctx.instance(), &surface_info, nullptr, &surface));
  // Registered before the swapchain, so destroyed after it (teardown runs in reverse).
  ctx.AtTeardown([instance = ctx.instance(), surface] { vkDestroySurfaceKHR(instance, surface, nullptr); });
  const VkSwapchainKHR swapchain = CreateSwapchain(ctx, surface);
  uint32_t image_count = 0;
  GUARD_VK(vkGetSwapchainImagesKHR(ctx.device(), swapchain, &image_count, nullptr));
  std::vector<VkImage> images(image_count);
  GUARD_VK(vkGetSwapchainImagesKHR(ctx.device(), swapchain, &image_count, images.data()));

  // One set of semaphores and fence per frame: nothing is reused, so neither variant needs a wait
  // for correctness and the only difference between them is the wait under test.
  VkFence previous_fence = VK_NULL_HANDLE;
  for (uint32_t frame = 0; frame < kFrames; ++frame) {
    if (wait_each_frame && previous_fence != VK_NULL_HANDLE) {
      GUARD_VK(vkWaitForFences(ctx.device(), 1, &previous_fence, VK_TRUE, UINT64_MAX));
    }
    const VkSemaphore acquired = CreateSemaphore(ctx);
    const VkSemaphore rendered = CreateSemaphore(ctx);
    uint32_t index = 0;
    const VkResult acquire =
        vkAcquireNextImageKHR(ctx.device(), swapchain, UINT64_MAX, acquired, VK_NULL_HANDLE, &index);
    if (acquire != VK_SUCCESS && acquire != VK_SUBOPTIMAL_KHR)
      Fail("vkAcquireNextImageKHR returned " + std::to_string(acquire));
    VkCommandBuffer cb = RecordFrame(ctx, images[index]);

    const VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    auto submit = Init<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
    submit.waitSemaphoreCount = 1;
    submit.pWaitSemaphores = &acquired;
    submit.pWaitDstStageMask = &wait_stage;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cb;
    submit.signalSemaphoreCount = 1;
    submit.pSignalSemaphores = &rendered;
    previous_fence = ctx.CreateFence(false);
    GUARD_VK(vkQueueSubmit(ctx.queue(), 1, &submit, previous_fence));

    auto present = Init<VkPresentInfoKHR>(VK_STRUCTURE_TYPE_PRESENT_INFO_KHR);
    present.waitSemaphoreCount = 1;
    present.pWaitSemaphores = &rendered;
    present.swapchainCount = 1;
    present.pSwapchains = &swapchain;
    present.pImageIndices = &index;
    const VkResult presented = vkQueuePresentKHR(ctx.queue(), &present);
    if (presented != VK_SUCCESS && presented != VK_SUBOPTIMAL_KHR)
      Fail("vkQueuePresentKHR returned " + std::to_string(presented));
  }
  GUARD_VK(vkDeviceWaitIdle(ctx.device()));
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode != "nowait" && mode != "wait") Fail("usage: guard_present nowait|wait");
  Report::RemoveStale();
  Run(mode == "wait");
  const Report report = Report::Load();
  if (mode == "nowait") {
    report.ExpectOnly("runahead-exceeded", 1);
    GUARD_CHECK(report.Total("max_runahead") == 2 * kFrames);
  } else {
    report.ExpectClean();
    GUARD_CHECK(report.Total("max_runahead") == 3);
  }
  GUARD_CHECK(report.CommandCalls("vkQueuePresentKHR") == kFrames);
  return 0;
}
