// The control socket's messages of the split-process pipe (docs/SPAWN.md): the versioned handshake that
// answers with the backend's caps, and the hand-over of each new connection's segment and doorbell socket.
// Fixed-size structs: the server reads exactly sizeof of each and checks every field.
#pragma once

#include <cstdint>

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

// BackendCaps without its string (the renderer travels beside it).
struct CapsWire {
  uint32_t max_texture_size, max_viewport[2];
  float line_width_range[2], point_size_range[2];
  uint32_t max_uniform_block_size;
  uint64_t max_buffer_size;
  uint32_t max_color_attachments, max_samples, sample_counts, timestamp_bits;
  uint8_t resolve_depth_stencil, line_loops, read_depth, read_stencil, draw_transform_feedback, native_rgtc;
  uint8_t srgb_decode, norm16;
  float max_anisotropy;
  uint8_t robust_buffer_access, native_s3tc;
  uint8_t pad[2];
};

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
  CapsWire w{};
  w.max_texture_size = c.max_texture_size;
  w.max_viewport[0] = c.max_viewport[0], w.max_viewport[1] = c.max_viewport[1];
  w.line_width_range[0] = c.line_width_range[0], w.line_width_range[1] = c.line_width_range[1];
  w.point_size_range[0] = c.point_size_range[0], w.point_size_range[1] = c.point_size_range[1];
  w.max_uniform_block_size = c.max_uniform_block_size;
  w.max_buffer_size = c.max_buffer_size;
  w.max_color_attachments = c.max_color_attachments;
  w.max_samples = c.max_samples;
  w.sample_counts = c.sample_counts;
  w.timestamp_bits = c.timestamp_bits;
  w.resolve_depth_stencil = c.resolve_depth_stencil, w.line_loops = c.line_loops;
  w.read_depth = c.read_depth, w.read_stencil = c.read_stencil;
  w.draw_transform_feedback = c.draw_transform_feedback, w.native_rgtc = c.native_rgtc;
  w.srgb_decode = c.srgb_decode, w.norm16 = c.norm16;
  w.max_anisotropy = c.max_anisotropy;
  w.robust_buffer_access = c.robust_buffer_access;
  w.native_s3tc = c.native_s3tc;
  return w;
}

inline BackendCaps FromWire(const CapsWire& w, const char* renderer) {
  BackendCaps c;
  c.renderer = renderer;
  c.max_texture_size = w.max_texture_size;
  c.max_viewport[0] = w.max_viewport[0], c.max_viewport[1] = w.max_viewport[1];
  c.line_width_range[0] = w.line_width_range[0], c.line_width_range[1] = w.line_width_range[1];
  c.point_size_range[0] = w.point_size_range[0], c.point_size_range[1] = w.point_size_range[1];
  c.max_uniform_block_size = w.max_uniform_block_size;
  c.max_buffer_size = w.max_buffer_size;
  c.max_color_attachments = w.max_color_attachments;
  c.max_samples = w.max_samples;
  c.sample_counts = w.sample_counts;
  c.timestamp_bits = w.timestamp_bits;
  c.resolve_depth_stencil = w.resolve_depth_stencil, c.line_loops = w.line_loops;
  c.read_depth = w.read_depth, c.read_stencil = w.read_stencil;
  c.draw_transform_feedback = w.draw_transform_feedback, c.native_rgtc = w.native_rgtc;
  c.srgb_decode = w.srgb_decode, c.norm16 = w.norm16;
  c.max_anisotropy = w.max_anisotropy;
  c.robust_buffer_access = w.robust_buffer_access;
  // vulkan_device_index stays -1: the server chose its device itself, and no EGL device names it.
  c.native_s3tc = w.native_s3tc;
  return c;
}

}  // namespace caldera::pipe::spawn
