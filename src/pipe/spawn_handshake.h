// The control socket's messages of the split-process pipe (docs/SPAWN.md): the versioned handshake that
// answers with the backend's caps, and the hand-over of each new connection's segment and doorbell socket.
// Fixed-size structs: the server reads exactly sizeof of each and checks every field.
#pragma once

#include <cstdint>
#include <type_traits>

#include "pipe/backend.h"

namespace caldera::pipe::spawn {

constexpr uint32_t kHelloMagic = 0x43484c4f;  // "CHLO"
constexpr uint32_t kConnectMagic = 0x43434e4e;

struct Hello {
  uint32_t magic = kHelloMagic;
  uint32_t abi_version = 0;
  uint64_t fingerprint = 0;
  uint32_t page_size = 0;
  uint32_t pad = 0;
};

// BackendCaps without its string (the renderer travels beside it), as bytes.
using CapsWire = BackendLimits;
static_assert(std::is_trivially_copyable_v<CapsWire> && std::is_standard_layout_v<CapsWire>,
              "BackendLimits crosses the process boundary as bytes");

struct HelloReply {
  uint32_t magic = kHelloMagic;
  uint32_t abi_version = 0;
  uint64_t fingerprint = 0;
  uint32_t ok = 0;
  uint32_t pad = 0;
  char error[512] = {};
  char renderer[256] = {};
  CapsWire caps = {};
};

// Sent with two descriptors: the segment's memfd and the connection's doorbell socket.
struct Connect {
  uint32_t magic = kConnectMagic;
  uint32_t pad = 0;
  uint64_t id = 0;
};

inline CapsWire ToWire(const BackendCaps& c) {
  return static_cast<const BackendLimits&>(c);
}

inline BackendCaps FromWire(const CapsWire& w, const char* renderer) {
  BackendCaps c;
  static_cast<BackendLimits&>(c) = w;
  c.renderer = renderer;
  c.vulkan_device_index = -1;  // the server chose its device itself: no EGL device of this process names it
  return c;
}

}  // namespace caldera::pipe::spawn
