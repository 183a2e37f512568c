// Device-wide tables of backend objects, indexed by pipe handle slot and checked by generation, and the
// garbage list that frees objects only when the submissions that may use them have completed.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <deque>
#include <mutex>
#include <vector>

#include "backend/vulkan/vk_memory.h"
#include "pipe/commands.h"
#include "pipe/formats.h"
#include "pipe/handles.h"

namespace caldera::vk {

class Device;
class Context;

// A uniform texel buffer view of one range of a buffer's storage (buffer textures), made on first use and
// retired with that storage (orphaning or destruction).
struct TexelBufferView {
  pipe::Format format = pipe::Format::kUndefined;
  uint64_t offset = 0, size = 0;
  VkBufferView view = VK_NULL_HANDLE;
};

struct BufferObject {
  VkBuffer buffer = VK_NULL_HANDLE;
  Allocation alloc;
  uint64_t size = 0;
  std::vector<TexelBufferView> views;
};

// A 2D view of one level of one layer (or 3D slice), made when that subresource first becomes an attachment.
struct SubresourceView {
  uint32_t level = 0, layer = 0;
  uint32_t count = 1;    // layers in the view
  bool unorm = false;    // an sRGB image's UNORM view (GL_FRAMEBUFFER_SRGB disabled)
  bool layered = false;  // a 2D array view (layered attachment), else 2D
  VkImageView view = VK_NULL_HANDLE;
};

// A sampling view other than sample_view, made when a draw first samples the image that way: a component
// swizzle other than the identity (GL_TEXTURE_SWIZZLE_*, luminance/alpha formats), an sRGB image's UNORM
// view (GL_TEXTURE_SRGB_DECODE_EXT's GL_SKIP_DECODE_EXT), or a level range other than the whole chain
// (GL_TEXTURE_BASE_LEVEL / GL_TEXTURE_MAX_LEVEL: Vulkan samplers have no base level, so the view starts
// there and shaders' level-relative queries and fetches follow). Kept with the image until it goes.
struct SwizzledView {
  pipe::Swizzle swizzle;
  bool unorm = false;  // the encoded values of an sRGB image, undecoded
  uint32_t base_level = 0, level_count = 0;
  VkImageView view = VK_NULL_HANDLE;
};

struct ImageObject {
  VkImage image = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;         // level 0, layer 0: attachments
  VkImageView sample_view = VK_NULL_HANDLE;  // every level and layer, typed by kind (depth aspect only)
  std::vector<SubresourceView> subviews;     // other attachment subresources, made on demand
  std::vector<SwizzledView> swizzled_views;  // sample_view's other variants, made on demand
  Allocation alloc;
  VkFormat format = VK_FORMAT_UNDEFINED;
  pipe::Format pipe_format = pipe::Format::kUndefined;
  VkImageAspectFlags aspect = 0;
  VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
  uint32_t width = 0, height = 0;
  uint32_t depth = 1;   // 3D slices
  uint32_t layers = 1;  // Vulkan array layers: 6 for cubes, 1 for 3D
  uint32_t levels = 1;
  uint8_t samples = 1;
  pipe::TextureKind kind = pipe::TextureKind::k2D;
  bool renderable = true;  // the device can render to the format (else sampled and copied only)
  bool blittable = true;   // vkCmdBlitImage may read and write it
  bool filterable = true;  // linear filtering (blits, mipmap generation)
  bool is_3d() const { return kind == pipe::TextureKind::k3D; }
  // CmdImageAlias: a one-level 2D image over `parent`'s (parent_level, parent_layer). `image` is the
  // parent's (not owned; views only): layouts, barriers, copies and attachments act on the parent
  // (Resources::Resolve), sampling reads through this object's views.
  pipe::Handle parent;
  uint32_t parent_level = 0, parent_layer = 0;
  bool is_alias() const { return parent.valid(); }
};

// The shape of an image to create (CmdImageCreate without the handle).
struct ImageDesc {
  pipe::Format format = pipe::Format::kUndefined;
  pipe::TextureKind kind = pipe::TextureKind::k2D;
  uint32_t width = 1, height = 1, depth = 1, layers = 1, levels = 1;
  uint8_t samples = 1;
};

struct ProgramObject {
  // Sampler bindings (by program sampler index) that are samplerBuffers: uniform texel buffers in the
  // layout, combined image samplers otherwise. The layout belongs to the PipelineCache.
  uint32_t texel_buffer_mask = 0;
  // Sampler arrays: entry i > 1 when sampler index i starts an array of that many elements, which is one
  // binding (kSamplerBindingBase + i) of that many descriptors in the layout; element j of it is pushed as
  // that binding's array element j. 0 or 1: a single sampler.
  std::array<uint8_t, pipe::kMaxSamplers> sampler_arrays{};
  // Where sampler index i is pushed: binding kSamplerBindingBase + sampler_first[i], array element
  // i - sampler_first[i] (from sampler_arrays).
  std::array<uint8_t, pipe::kMaxSamplers> sampler_first{};
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkShaderModule vertex = VK_NULL_HANDLE;
  VkShaderModule fragment = VK_NULL_HANDLE;
  VkShaderModule geometry = VK_NULL_HANDLE;  // optional
  uint32_t default_block_size = 0;
  bool no_color_outputs = false;  // CmdProgramCreate: colour writes masked
};

// What a destroy leaves behind until the GPU is done with it.
struct Garbage {
  uint64_t serial = 0;  // free once the device timeline reaches this
  VkBuffer buffer = VK_NULL_HANDLE;
  VkImage image = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
  VkImageView sample_view = VK_NULL_HANDLE;
  std::vector<VkImageView> subviews;
  std::vector<VkBufferView> buffer_views;
  VkShaderModule modules[3] = {VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE};
  std::vector<VkPipeline> pipelines;  // of a destroyed or re-created program
  Allocation alloc;
};

template <typename T>
class SlotTable {
 public:
  // Null when the handle is stale (object destroyed, slot reused) or unknown.
  T* Get(pipe::Handle h) {
    if (h.slot >= entries_.size() || entries_[h.slot].generation != h.generation || !entries_[h.slot].live)
      return nullptr;
    return &entries_[h.slot].object;
  }
  // Returns the slot's previous live object, if any (the caller retires it), through *previous.
  T& Put(pipe::Handle h, T&& object, T* previous, bool* had_previous) {
    if (h.slot >= entries_.size()) entries_.resize(h.slot + 1);
    Entry& e = entries_[h.slot];
    *had_previous = e.live;
    if (e.live) *previous = std::move(e.object);
    e = {std::move(object), h.generation, true};
    return e.object;
  }
  bool Take(pipe::Handle h, T* out) {
    T* p = Get(h);
    if (!p) return false;
    *out = std::move(*p);
    entries_[h.slot].live = false;
    return true;
  }
  template <typename F>
  void ForEachLive(F&& f) {
    for (auto& e : entries_)
      if (e.live) f(e.object);
  }

 private:
  struct Entry {
    T object{};
    uint32_t generation = 0;
    bool live = false;
  };
  std::deque<Entry> entries_;  // deque: references stay valid as it grows
};

class Resources {
 public:
  explicit Resources(Device& device) : device_(device) {}
  ~Resources();

  std::mutex mutex;  // guards the tables, the garbage list and `recorder`
  // The context whose command buffer may hold recorded, unsubmitted work. Contexts record one at a time
  // (under `mutex`); a context that takes over submits the previous recorder's work first, so the device
  // executes command buffers in the order they were recorded. That keeps image layouts, which are tracked
  // per image, true in submission order, and makes every serial stamped on garbage later than all work
  // any context recorded before the object was replaced (shared objects outlive every context's use).
  Context* recorder = nullptr;
  SlotTable<BufferObject> buffers;
  SlotTable<ImageObject> images;
  SlotTable<ProgramObject> programs;

  // Objects replaced or destroyed go to `retired`: the calling context's list, stamped with the serial of
  // its next submission (work it recorded may still use them), then handed back through Retire.
  using Retired = std::vector<Garbage>;
  // `mapped`: prefer host-visible, coherent memory (device-local where the device has it) so that the
  // storage's first contents can be written by the host (Context's direct writes).
  bool CreateBuffer(pipe::Handle h, uint64_t size, Retired* retired, bool mapped = false);
  bool CreateImage(pipe::Handle h, const ImageDesc& desc, Retired* retired);
  // CmdImageAlias; false when the parent is missing, an alias itself, multisampled, 3D or lacks the
  // subresource (nothing is made then).
  bool CreateAlias(pipe::Handle h, pipe::Handle parent, uint32_t level, uint32_t layer, Retired* retired);
  // The image that holds `*h`'s texels (an alias's parent), `*h` rewritten to name it and the alias's level
  // and layer added to `level` and `layer`; null for a stale or unknown handle.
  ImageObject* Resolve(pipe::Handle* h, uint32_t* level, uint32_t* layer);
  // The same for a subresource reference, rewritten in place to name the holder.
  ImageObject* Resolve(pipe::ImageRef* ref);
  // The handle of the image holding `h`'s texels (an alias's parent; `h` itself otherwise).
  pipe::Handle StorageHandle(pipe::Handle h);
  // The object whose layout `image`'s texels are in (an alias's parent).
  ImageObject* Storage(ImageObject& image) { return image.is_alias() ? images.Get(image.parent) : &image; }
  // An image outside the tables (a context's private objects, such as the incomplete-texture stand-ins).
  bool CreateStandaloneImage(const ImageDesc& desc, ImageObject* out);
  // The view to render into one level of one layer (3D: slice); null if it cannot be made. sRGB images get
  // a UNORM view unless `srgb_encode`. A non-zero `layer_count` asks for a 2D array view of that many
  // layers from `layer` (layered rendering).
  // The view sampling reads through `swizzle` over levels base_level..max_level (clamped to the image's
  // levels), an sRGB image's UNORM twin with `skip_srgb_decode`: sample_view for the identity over every
  // level, else a variant (made once per combination); null if it cannot be made.
  VkImageView SampleView(ImageObject& image, const pipe::Swizzle& swizzle, bool skip_srgb_decode = false,
                         uint32_t base_level = 0, uint32_t max_level = UINT32_MAX);
  VkImageView AttachmentView(ImageObject& image, uint32_t level, uint32_t layer, bool srgb_encode = true,
                             uint32_t layer_count = 0);
  void DestroyStandaloneImage(const ImageObject& image) { Free(FromImage(image, 0)); }
  // Hands a standalone image to `retired` (freed once the work recorded so far has completed).
  void RetireStandaloneImage(const ImageObject& image, Retired* retired) {
    retired->push_back(FromImage(image, 0));
  }
  // A standalone image as garbage for a context's retired list (freed once its work has completed).
  Garbage StandaloneImageGarbage(const ImageObject& image) { return FromImage(image, 0); }
  bool CreateProgram(pipe::Handle h, const uint32_t* vs, uint32_t vs_words, const uint32_t* fs,
                     uint32_t fs_words, const uint32_t* gs, uint32_t gs_words, uint32_t default_block_size,
                     uint32_t texel_buffer_mask, const uint8_t (&sampler_array_sizes)[pipe::kMaxSamplers],
                     Retired* retired);
  void DestroyBuffer(pipe::Handle h, Retired* retired);
  void DestroyImage(pipe::Handle h, Retired* retired);
  void DestroyProgram(pipe::Handle h, Retired* retired);
  void Retire(const Retired& stamped) { garbage_.insert(garbage_.end(), stamped.begin(), stamped.end()); }
  // Frees everything whose serial has completed.
  void Collect(uint64_t completed);
  // Live objects, for the resource-bound samples (CALDERA_STATS_SAMPLE_EVERY). Walks the tables.
  struct Counts {
    uint64_t buffers = 0, images = 0, programs = 0, garbage = 0, samplers = 0;
  };
  Counts counts();

  VkFormat ToVkFormat(pipe::Format f) const;
  // vk_texel_buffers.cpp: the view of `range` of `buffer`'s current storage (cached on the buffer), or a
  // one-texel zero buffer's view of `type` when the range is empty, out of bounds or of a format the device
  // cannot read as a uniform texel buffer.
  VkBufferView TexelView(const pipe::TexelBufferRange& range, pipe::SampleType type);
  VkSampler GetSampler(const pipe::SamplerState& state);  // cached for the device's lifetime

 private:
  void Free(const Garbage& g);
  Garbage FromBuffer(const BufferObject& b, uint64_t serial);
  Garbage FromImage(const ImageObject& i, uint64_t serial);
  // Puts `image` at `h`; what was there (re-created under one handle) goes to `retired`.
  void PutImage(pipe::Handle h, ImageObject&& image, Retired* retired);
  Garbage FromProgram(const ProgramObject& p, uint64_t serial);

  Device& device_;
  std::vector<Garbage> garbage_;
  struct SamplerEntry {
    pipe::SamplerState state;
    VkSampler sampler;
  };
  std::vector<SamplerEntry> samplers_;  // few distinct states in practice: a linear scan is fastest
  // The zero texel buffer behind buffer textures without data (float, sint, uint views: what the shader's
  // sampler type needs).
  VkBuffer zero_buffer_ = VK_NULL_HANDLE;
  Allocation zero_alloc_;
  VkBufferView zero_views_[3] = {};
};

}  // namespace caldera::vk
