// Loader-facing entry points: interface negotiation, proc-address lookup, instance and device
// creation, and the dispatch-key registries that map handles back to the layer's state.
#include <vulkan/vk_layer.h>

#include <cstring>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

#include "guard_report.h"
#include "guard_state.h"
#include "guard_syncval.h"
#include "guard_tracking.h"

namespace guard {
namespace {

// The first pointer-sized word of every dispatchable handle is the loader's dispatch table; it is
// the same for an instance and its physical devices, and for a device, its queues and command buffers.
void* DispatchKey(const void* handle) {
  return *static_cast<void* const*>(handle);
}

std::shared_mutex g_registry_mutex;
std::unordered_map<void*, std::unique_ptr<InstanceState>> g_instances;
std::unordered_map<void*, std::unique_ptr<DeviceState>> g_devices;
// Bumped whenever a device goes away, so per-thread lookup caches cannot return a dead device.
std::atomic<uint64_t> g_device_generation{1};

// Nearly every application has one device: then wrappers find it with one atomic load and no
// thread-local access (which costs a __tls_get_addr call in a dlopen'ed library). Published
// entries are immutable and kept until exit, since a reader may still hold an old one.
struct SoleDevice {
  void* key;
  DeviceState* state;
};
std::atomic<const SoleDevice*> g_sole_device{nullptr};
std::vector<std::unique_ptr<SoleDevice>> g_sole_device_history;

void PublishSoleDeviceLocked() {
  if (g_devices.size() != 1) {
    g_sole_device.store(nullptr, std::memory_order_release);
    return;
  }
  auto entry =
      std::make_unique<SoleDevice>(SoleDevice{g_devices.begin()->first, g_devices.begin()->second.get()});
  g_sole_device.store(entry.get(), std::memory_order_release);
  g_sole_device_history.push_back(std::move(entry));
}

InstanceState* FindInstance(const void* dispatchable) {
  std::shared_lock lock(g_registry_mutex);
  auto it = g_instances.find(DispatchKey(dispatchable));
  return it == g_instances.end() ? nullptr : it->second.get();
}

template <typename CreateInfo, typename LinkInfo>
LinkInfo* FindLayerLink(const CreateInfo* create_info, VkStructureType type) {
  auto* info = static_cast<LinkInfo*>(const_cast<void*>(create_info->pNext));
  while (info != nullptr && !(info->sType == type && info->function == VK_LAYER_LINK_INFO)) {
    info = static_cast<LinkInfo*>(const_cast<void*>(info->pNext));
  }
  return info;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* create_info,
                                              const VkAllocationCallbacks* allocator, VkInstance* instance) {
  auto* link = FindLayerLink<VkInstanceCreateInfo, VkLayerInstanceCreateInfo>(
      create_info, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO);
  if (link == nullptr || link->u.pLayerInfo == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  auto next_create = reinterpret_cast<PFN_vkCreateInstance>(next_gipa(VK_NULL_HANDLE, "vkCreateInstance"));
  if (next_create == nullptr) return VK_ERROR_INITIALIZATION_FAILED;

  SyncvalSetup syncval;
  PrepareSyncval(*create_info, syncval);
  // The loader expects each layer to advance the chain for the next one before calling down.
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  VkResult result = next_create(&syncval.create_info, allocator, instance);
  if (result != VK_SUCCESS) return result;

  auto state = std::make_unique<InstanceState>();
  state->handle = *instance;
  state->next_get_instance_proc_addr = next_gipa;
  FillInstanceDispatch(state->dispatch, next_gipa, *instance);
  if (syncval.install_messenger) InstallMessenger(*state);
  {
    std::unique_lock lock(g_registry_mutex);
    g_instances[DispatchKey(*instance)] = std::move(state);
  }
  InstallExitHandler();
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance instance, const VkAllocationCallbacks* allocator) {
  if (instance == VK_NULL_HANDLE) return;
  std::unique_ptr<InstanceState> state;
  {
    std::unique_lock lock(g_registry_mutex);
    auto it = g_instances.find(DispatchKey(instance));
    if (it == g_instances.end()) return;
    state = std::move(it->second);
    g_instances.erase(it);
  }
  RemoveMessenger(*state);
  state->dispatch.DestroyInstance(instance, allocator);
  WriteReport("vkDestroyInstance");
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physical_device,
                                            const VkDeviceCreateInfo* create_info,
                                            const VkAllocationCallbacks* allocator, VkDevice* device) {
  InstanceState* instance = FindInstance(physical_device);
  auto* link = FindLayerLink<VkDeviceCreateInfo, VkLayerDeviceCreateInfo>(
      create_info, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO);
  if (instance == nullptr || link == nullptr || link->u.pLayerInfo == nullptr)
    return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  PFN_vkGetDeviceProcAddr next_gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  auto next_create = reinterpret_cast<PFN_vkCreateDevice>(next_gipa(instance->handle, "vkCreateDevice"));
  if (next_create == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  VkResult result = next_create(physical_device, create_info, allocator, device);
  if (result != VK_SUCCESS) return result;

  auto state = std::make_unique<DeviceState>();
  state->handle = *device;
  state->instance = instance;
  state->next_get_device_proc_addr = next_gdpa;
  FillDeviceDispatch(state->dispatch, next_gdpa, *device);
  std::unique_lock lock(g_registry_mutex);
  g_devices[DispatchKey(*device)] = std::move(state);
  PublishSoleDeviceLocked();
  return VK_SUCCESS;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name);

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* name) {
  if (std::strcmp(name, "vkGetInstanceProcAddr") == 0)
    return reinterpret_cast<PFN_vkVoidFunction>(&GetInstanceProcAddr);
  if (std::strcmp(name, "vkCreateInstance") == 0)
    return reinterpret_cast<PFN_vkVoidFunction>(&CreateInstance);
  if (instance == VK_NULL_HANDLE) return nullptr;
  if (std::strcmp(name, "vkDestroyInstance") == 0)
    return reinterpret_cast<PFN_vkVoidFunction>(&DestroyInstance);
  if (std::strcmp(name, "vkCreateDevice") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&CreateDevice);
  if (std::strcmp(name, "vkGetDeviceProcAddr") == 0)
    return reinterpret_cast<PFN_vkVoidFunction>(&GetDeviceProcAddr);
  InstanceState* state = FindInstance(instance);
  if (state == nullptr) return nullptr;
  PFN_vkVoidFunction next = state->next_get_instance_proc_addr(instance, name);
  // Device commands asked for through the instance still go through the layer's wrapper.
  if (next != nullptr) {
    if (PFN_vkVoidFunction wrapper = FindDeviceWrapper(name)) return wrapper;
  }
  return next;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name) {
  if (std::strcmp(name, "vkGetDeviceProcAddr") == 0)
    return reinterpret_cast<PFN_vkVoidFunction>(&GetDeviceProcAddr);
  PFN_vkGetDeviceProcAddr next_gdpa = nullptr;
  {
    std::shared_lock lock(g_registry_mutex);
    auto it = g_devices.find(DispatchKey(device));
    if (it == g_devices.end()) return nullptr;
    next_gdpa = it->second->next_get_device_proc_addr;
  }
  PFN_vkVoidFunction next = next_gdpa(device, name);
  if (next == nullptr) return nullptr;  // not enabled on this device: the wrapper would have nothing to call
  PFN_vkVoidFunction wrapper = FindDeviceWrapper(name);
  return wrapper != nullptr ? wrapper : next;
}

}  // namespace

DeviceState& DeviceStateFor(const void* dispatchable) {
  struct Cache {
    void* key = nullptr;
    DeviceState* state = nullptr;
    uint64_t generation = 0;
  };
  void* key = DispatchKey(dispatchable);
  if (const SoleDevice* sole = g_sole_device.load(std::memory_order_acquire);
      sole != nullptr && sole->key == key) {
    return *sole->state;
  }
  thread_local Cache cache;
  const uint64_t generation = g_device_generation.load(std::memory_order_acquire);
  if (cache.key == key && cache.generation == generation) return *cache.state;
  std::shared_lock lock(g_registry_mutex);
  // Every wrapper is reached only through a device the layer created, so the entry exists.
  DeviceState* state = g_devices.at(key).get();
  cache = {key, state, generation};
  return *state;
}

namespace hooks {

void vkDestroyDevice(DeviceState& device, VkDevice handle, const VkAllocationCallbacks* allocator) {
  DrainDevice(device);
  PFN_vkDestroyDevice destroy = device.dispatch.DestroyDevice;
  std::unique_ptr<DeviceState> owned;
  {
    std::unique_lock lock(g_registry_mutex);
    auto it = g_devices.find(DispatchKey(handle));
    if (it != g_devices.end()) {
      owned = std::move(it->second);
      g_devices.erase(it);
    }
    PublishSoleDeviceLocked();
    g_device_generation.fetch_add(1, std::memory_order_acq_rel);
    g_command_buffer_generation.fetch_add(1, std::memory_order_acq_rel);
  }
  destroy(handle, allocator);
}

}  // namespace hooks
}  // namespace guard

// The only exported symbol (layer.map): the loader negotiates, then asks for everything else.
extern "C" __attribute__((visibility("default"))) VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* version) {
  if (version == nullptr || version->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT)
    return VK_ERROR_INITIALIZATION_FAILED;
  if (version->loaderLayerInterfaceVersion > 2) version->loaderLayerInterfaceVersion = 2;
  version->pfnGetInstanceProcAddr = &guard::GetInstanceProcAddr;
  version->pfnGetDeviceProcAddr = &guard::GetDeviceProcAddr;
  version->pfnGetPhysicalDeviceProcAddr = nullptr;
  return VK_SUCCESS;
}
