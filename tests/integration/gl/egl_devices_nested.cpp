// eglQueryDevicesEXT asked from inside a Vulkan call, as NVIDIA's Vulkan driver asks glvnd while an
// application's vkCreateInstance runs (and glvnd asks every vendor, Caldera included): Caldera must answer
// without making a Vulkan instance of its own there, since the loader holds its lock for the whole call and a
// nested instance would wait on it forever. The question comes from a debug-utils messenger the loader calls
// during vkCreateInstance. Inside, Caldera lists no devices (and remembers nothing); once the call has
// returned, the same query lists the devices.
#include <vulkan/vulkan.h>

#include <cstring>

#include "gl_harness.h"

namespace {

PFNEGLQUERYDEVICESEXTPROC g_query;
int g_messages = 0;
EGLint g_nested_count = -1;
bool g_nested_ok = false;

VKAPI_ATTR VkBool32 VKAPI_CALL OnMessage(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                         VkDebugUtilsMessageTypeFlagsEXT,
                                         const VkDebugUtilsMessengerCallbackDataEXT*, void*) {
  if (g_messages++ == 0) g_nested_ok = g_query(0, nullptr, &g_nested_count) == EGL_TRUE;
  return VK_FALSE;
}

}  // namespace

int main() {
  const bool caldera = std::getenv("EGL_NESTED_EXPECT_CALDERA") != nullptr;
  g_query = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
  CHECK(g_query != nullptr);
  if (!g_query) return harness::Summary();
  VkDebugUtilsMessengerCreateInfoEXT messenger{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messenger.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT |
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger.pfnUserCallback = OnMessage;
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_3;
  const char* extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pNext = &messenger;
  info.pApplicationInfo = &app;
  info.enabledExtensionCount = 1;
  info.ppEnabledExtensionNames = extensions;
  VkInstance instance = VK_NULL_HANDLE;
  CHECK(vkCreateInstance(&info, nullptr, &instance) == VK_SUCCESS);
  std::printf("%d loader messages during vkCreateInstance; the nested query said %d devices (%s)\n",
              g_messages, int(g_nested_count), g_nested_ok ? "EGL_TRUE" : "EGL_FALSE");
  CHECK(g_messages > 0);  // the loader spoke (VK_LOADER_DEBUG is not needed for messengers)
  CHECK(g_nested_ok);
  if (caldera) CHECK(g_nested_count == 0);  // nothing enumerated inside the loader's call
  if (instance) vkDestroyInstance(instance, nullptr);
  EGLint count = 0;
  CHECK(g_query(0, nullptr, &count) && count >= 1);  // and the devices, once the call has returned
  std::printf("%d devices after the call\n", int(count));
  harness::Window w = harness::Open(16, 16);
  harness::PrintVendor();
  harness::Close(w);
  return harness::Summary();
}
