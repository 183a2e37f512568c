#include "backend/vulkan/vk_resources.h"

#include <algorithm>
#include <cstring>

#include "backend/vulkan/vk_device.h"
#include "backend/vulkan/vk_pipelines.h"
#include "util/log.h"

namespace caldera::vk {

Resources::~Resources() {
  for (auto& g : garbage_) Free(g);
  for (auto& e : samplers_) vkDestroySampler(device_.device(), e.sampler, nullptr);
  buffers.ForEachLive([&](BufferObject& b) { Free(FromBuffer(b, 0)); });
  // Aliases' views before the images they view.
  images.ForEachLive([&](ImageObject& i) {
    if (i.is_alias()) Free(FromImage(i, 0));
  });
  images.ForEachLive([&](ImageObject& i) {
    if (!i.is_alias()) Free(FromImage(i, 0));
  });
  programs.ForEachLive([&](ProgramObject& p) { Free(FromProgram(p, 0)); });
  for (VkBufferView v : zero_views_)
    if (v) vkDestroyBufferView(device_.device(), v, nullptr);
  if (zero_buffer_) {
    vkDestroyBuffer(device_.device(), zero_buffer_, nullptr);
    device_.memory().Free(zero_alloc_);
  }
}

VkFormat Resources::ToVkFormat(pipe::Format f) const {
  using F = pipe::Format;
  // RGB formats are stored as their RGBA format (pipe::Info(f).storage): lavapipe and most devices cannot
  // render to 3-component formats, and the pipe carries their texels as RGBA already.
  switch (pipe::BackendStorage(f)) {
    case F::kRGBA8:
      return VK_FORMAT_R8G8B8A8_UNORM;
    case F::kRGB565:
      return VK_FORMAT_R5G6B5_UNORM_PACK16;
    case F::kR8:
      return VK_FORMAT_R8_UNORM;
    case F::kRG8:
      return VK_FORMAT_R8G8_UNORM;
    case F::kR16F:
      return VK_FORMAT_R16_SFLOAT;
    case F::kRG16F:
      return VK_FORMAT_R16G16_SFLOAT;
    case F::kRGBA16F:
      return VK_FORMAT_R16G16B16A16_SFLOAT;
    case F::kR32F:
      return VK_FORMAT_R32_SFLOAT;
    case F::kRG32F:
      return VK_FORMAT_R32G32_SFLOAT;
    case F::kRGBA32F:
      return VK_FORMAT_R32G32B32A32_SFLOAT;
    case F::kR11G11B10F:
      return VK_FORMAT_B10G11R11_UFLOAT_PACK32;
    case F::kRGB9E5:
      return VK_FORMAT_E5B9G9R9_UFLOAT_PACK32;
    case F::kRGB10A2:
      return VK_FORMAT_A2B10G10R10_UNORM_PACK32;
    case F::kR16:
      return VK_FORMAT_R16_UNORM;
    case F::kRG16:
      return VK_FORMAT_R16G16_UNORM;
    case F::kRGBA16:
      return VK_FORMAT_R16G16B16A16_UNORM;
    case F::kSRGB8A8:
      return VK_FORMAT_R8G8B8A8_SRGB;
    case F::kR8SN:
      return VK_FORMAT_R8_SNORM;
    case F::kRG8SN:
      return VK_FORMAT_R8G8_SNORM;
    case F::kRGBA8SN:
      return VK_FORMAT_R8G8B8A8_SNORM;
    case F::kR16SN:
      return VK_FORMAT_R16_SNORM;
    case F::kRG16SN:
      return VK_FORMAT_R16G16_SNORM;
    case F::kRGBA16SN:
      return VK_FORMAT_R16G16B16A16_SNORM;
    case F::kR8UI:
      return VK_FORMAT_R8_UINT;
    case F::kRG8UI:
      return VK_FORMAT_R8G8_UINT;
    case F::kRGBA8UI:
      return VK_FORMAT_R8G8B8A8_UINT;
    case F::kR8I:
      return VK_FORMAT_R8_SINT;
    case F::kRG8I:
      return VK_FORMAT_R8G8_SINT;
    case F::kRGBA8I:
      return VK_FORMAT_R8G8B8A8_SINT;
    case F::kR16UI:
      return VK_FORMAT_R16_UINT;
    case F::kRG16UI:
      return VK_FORMAT_R16G16_UINT;
    case F::kRGBA16UI:
      return VK_FORMAT_R16G16B16A16_UINT;
    case F::kR16I:
      return VK_FORMAT_R16_SINT;
    case F::kRG16I:
      return VK_FORMAT_R16G16_SINT;
    case F::kRGBA16I:
      return VK_FORMAT_R16G16B16A16_SINT;
    case F::kR32UI:
      return VK_FORMAT_R32_UINT;
    case F::kRG32UI:
      return VK_FORMAT_R32G32_UINT;
    case F::kRGBA32UI:
      return VK_FORMAT_R32G32B32A32_UINT;
    case F::kR32I:
      return VK_FORMAT_R32_SINT;
    case F::kRG32I:
      return VK_FORMAT_R32G32_SINT;
    case F::kRGBA32I:
      return VK_FORMAT_R32G32B32A32_SINT;
    case F::kRGB10A2UI:
      return VK_FORMAT_A2B10G10R10_UINT_PACK32;
    case F::kRGTC1:
      return VK_FORMAT_BC4_UNORM_BLOCK;
    case F::kRGTC1SN:
      return VK_FORMAT_BC4_SNORM_BLOCK;
    case F::kRGTC2:
      return VK_FORMAT_BC5_UNORM_BLOCK;
    case F::kRGTC2SN:
      return VK_FORMAT_BC5_SNORM_BLOCK;
    case F::kBC1:
      return VK_FORMAT_BC1_RGB_UNORM_BLOCK;
    case F::kBC1A:
      return VK_FORMAT_BC1_RGBA_UNORM_BLOCK;
    case F::kBC2:
      return VK_FORMAT_BC2_UNORM_BLOCK;
    case F::kBC3:
      return VK_FORMAT_BC3_UNORM_BLOCK;
    case F::kBC1Srgb:
      return VK_FORMAT_BC1_RGB_SRGB_BLOCK;
    case F::kBC1ASrgb:
      return VK_FORMAT_BC1_RGBA_SRGB_BLOCK;
    case F::kBC2Srgb:
      return VK_FORMAT_BC2_SRGB_BLOCK;
    case F::kBC3Srgb:
      return VK_FORMAT_BC3_SRGB_BLOCK;
    case F::kBC6HU:
      return VK_FORMAT_BC6H_UFLOAT_BLOCK;
    case F::kBC6HS:
      return VK_FORMAT_BC6H_SFLOAT_BLOCK;
    case F::kBC7:
      return VK_FORMAT_BC7_UNORM_BLOCK;
    case F::kBC7Srgb:
      return VK_FORMAT_BC7_SRGB_BLOCK;
    case F::kD24S8:
      return device_.depth_stencil_format();
    case F::kD32F:
      return VK_FORMAT_D32_SFLOAT;
    case F::kD32FS8:
      return VK_FORMAT_D32_SFLOAT_S8_UINT;
    case F::kD16:
      return VK_FORMAT_D16_UNORM;
    default:
      return VK_FORMAT_UNDEFINED;
  }
}

bool Resources::CreateBuffer(pipe::Handle h, uint64_t size, Retired* retired, bool mapped) {
  if (device_.InjectOutOfMemory() || size > device_.max_buffer_bytes()) return false;
  VkDevice dev = device_.device();
  BufferObject b;
  b.size = size;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = std::max<uint64_t>(size, 4);
  info.usage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_INDEX_BUFFER_BIT |
               VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
               VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
  // Any GL buffer can be bound for transform feedback.
  if (device_.features().transform_feedback) info.usage |= VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT;
  if (vkCreateBuffer(dev, &info, nullptr, &b.buffer) != VK_SUCCESS) return false;
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(dev, b.buffer, &req);
  constexpr VkMemoryPropertyFlags kMapped =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  bool got = mapped && device_.memory().Allocate(req, kMapped, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &b.alloc);
  if (!got && !device_.memory().Allocate(req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, &b.alloc) &&
      !device_.memory().Allocate(req, 0, 0, &b.alloc)) {
    vkDestroyBuffer(dev, b.buffer, nullptr);
    return false;
  }
  if (!device_.Check(vkBindBufferMemory(dev, b.buffer, b.alloc.memory, b.alloc.offset),
                     "vkBindBufferMemory")) {
    vkDestroyBuffer(dev, b.buffer, nullptr);
    device_.memory().Free(b.alloc);
    return false;
  }
  BufferObject previous;
  bool had = false;
  buffers.Put(h, std::move(b), &previous, &had);
  // Orphaning: the old storage may still be read by pending work; retire it behind the next submission.
  if (had) retired->push_back(FromBuffer(previous, 0));
  return true;
}

bool Resources::CreateImage(pipe::Handle h, const ImageDesc& desc, Retired* retired) {
  if (device_.InjectOutOfMemory()) return false;
  ImageObject img;
  if (!CreateStandaloneImage(desc, &img)) return false;
  PutImage(h, std::move(img), retired);
  return true;
}

void Resources::PutImage(pipe::Handle h, ImageObject&& image, Retired* retired) {
  ImageObject previous;
  bool had = false;
  images.Put(h, std::move(image), &previous, &had);
  if (had) retired->push_back(FromImage(previous, 0));
}

bool Resources::CreateAlias(pipe::Handle h, pipe::Handle parent, uint32_t level, uint32_t layer,
                            Retired* retired) {
  ImageObject* p = images.Get(parent);
  if (!p || p->is_alias() || p->is_3d() || p->samples > 1 || level >= p->levels || layer >= p->layers)
    return false;
  ImageObject a;
  a.image = p->image;
  a.format = p->format;
  a.pipe_format = p->pipe_format;
  a.aspect = p->aspect;
  a.kind = pipe::TextureKind::k2D;
  a.width = std::max(p->width >> level, 1u);
  a.height = std::max(p->height >> level, 1u);
  a.renderable = p->renderable;
  a.blittable = p->blittable;
  a.filterable = p->filterable;
  a.parent = parent;
  a.parent_level = level;
  a.parent_layer = layer;
  VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vi.image = a.image;
  vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vi.format = a.format;
  const bool depth = pipe::IsDepthFormat(a.pipe_format);
  vi.subresourceRange = {depth ? VkImageAspectFlags(VK_IMAGE_ASPECT_DEPTH_BIT) : a.aspect, level, 1, layer,
                         1};
  if (!device_.Check(vkCreateImageView(device_.device(), &vi, nullptr, &a.sample_view), "vkCreateImageView"))
    return false;
  PutImage(h, std::move(a), retired);
  return true;
}

ImageObject* Resources::Resolve(pipe::Handle* h, uint32_t* level, uint32_t* layer) {
  ImageObject* img = images.Get(*h);
  if (!img || !img->is_alias()) return img;
  *h = img->parent;
  *level += img->parent_level;
  *layer += img->parent_layer;
  return images.Get(img->parent);
}

ImageObject* Resources::Resolve(pipe::ImageRef* ref) {
  ImageObject* img = images.Get(ref->image);
  if (!img || !img->is_alias()) return img;
  ref->image = img->parent;
  ref->level = uint16_t(ref->level + img->parent_level);
  ref->layer = uint16_t(ref->layer + img->parent_layer);
  return images.Get(img->parent);
}

pipe::Handle Resources::StorageHandle(pipe::Handle h) {
  ImageObject* img = images.Get(h);
  return img && img->is_alias() ? img->parent : h;
}

namespace {

VkImageViewType SampleViewType(pipe::TextureKind kind) {
  switch (kind) {
    case pipe::TextureKind::k2DArray:
    case pipe::TextureKind::k2DMultisampleArray:
      return VK_IMAGE_VIEW_TYPE_2D_ARRAY;
    case pipe::TextureKind::kCube:
      return VK_IMAGE_VIEW_TYPE_CUBE;
    case pipe::TextureKind::k3D:
      return VK_IMAGE_VIEW_TYPE_3D;
    default:
      return VK_IMAGE_VIEW_TYPE_2D;
  }
}

}  // namespace

bool Resources::CreateStandaloneImage(const ImageDesc& desc, ImageObject* out) {
  VkDevice dev = device_.device();
  ImageObject& img = *out;
  img.format = ToVkFormat(desc.format);
  img.pipe_format = desc.format;
  img.kind = desc.kind;
  img.width = desc.width;
  img.height = desc.height;
  img.depth = img.is_3d() ? std::max<uint32_t>(desc.depth, 1) : 1;
  bool array =
      desc.kind == pipe::TextureKind::k2DArray || desc.kind == pipe::TextureKind::k2DMultisampleArray;
  img.layers = desc.kind == pipe::TextureKind::kCube ? 6 : array ? std::max<uint32_t>(desc.layers, 1) : 1;
  img.samples = desc.samples ? desc.samples : 1;
  bool depth = pipe::IsDepthFormat(desc.format);
  img.aspect = depth ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
  if (depth && (img.format == VK_FORMAT_D24_UNORM_S8_UINT || img.format == VK_FORMAT_D32_SFLOAT_S8_UINT))
    img.aspect |= VK_IMAGE_ASPECT_STENCIL_BIT;
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = img.is_3d() ? VK_IMAGE_TYPE_3D : VK_IMAGE_TYPE_2D;
  // Cubes are sampled through cube views; slices of 3D images are rendered to through 2D views.
  if (desc.kind == pipe::TextureKind::kCube) info.flags |= VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
  if (img.is_3d()) info.flags |= VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT;
  // Multisampled depth drawn with every sample at the centre (GL_MULTISAMPLE off) must say so up front.
  if (depth && img.samples > 1 && (device_.features().centre_sample_counts & img.samples))
    info.flags |= VK_IMAGE_CREATE_SAMPLE_LOCATIONS_COMPATIBLE_DEPTH_BIT_EXT;
  info.format = img.format;
  info.extent = {img.width, img.height, img.depth};
  info.mipLevels = std::max<uint32_t>(desc.levels, 1);
  img.levels = info.mipLevels;
  info.arrayLayers = img.layers;
  info.samples = static_cast<VkSampleCountFlagBits>(img.samples);
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  // Formats the device cannot render to (RGB9E5: GL makes it texture-only too) are sampled only.
  VkFormatProperties props{};
  vkGetPhysicalDeviceFormatProperties(device_.physical(), img.format, &props);
  VkFormatFeatureFlags attachment_feature =
      depth ? VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT : VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT;
  img.renderable = (props.optimalTilingFeatures & attachment_feature) != 0;
  VkFormatFeatureFlags blit = VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT;
  // Block-compressed images are written by uploads only (the frontend compresses every other write).
  img.blittable = (props.optimalTilingFeatures & blit) == blit && !pipe::IsBlockCompressed(desc.format);
  img.filterable = (props.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT) != 0;
  info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
  if (img.renderable)
    info.usage |= depth ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  // sRGB images are rendered to through UNORM views while GL_FRAMEBUFFER_SRGB is disabled.
  if (img.format == VK_FORMAT_R8G8B8A8_SRGB) info.flags |= VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  if (vkCreateImage(dev, &info, nullptr, &img.image) != VK_SUCCESS) return false;
  VkMemoryRequirements req;
  vkGetImageMemoryRequirements(dev, img.image, &req);
  if (!device_.memory().Allocate(req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, &img.alloc) &&
      !device_.memory().Allocate(req, 0, 0, &img.alloc)) {
    vkDestroyImage(dev, img.image, nullptr);
    return false;
  }
  if (!device_.Check(vkBindImageMemory(dev, img.image, img.alloc.memory, img.alloc.offset),
                     "vkBindImageMemory")) {
    vkDestroyImage(dev, img.image, nullptr);
    device_.memory().Free(img.alloc);
    return false;
  }
  VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vi.image = img.image;
  vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vi.format = img.format;
  vi.subresourceRange = {img.aspect, 0, 1, 0, 1};
  // A 2D view of a 3D image may only be an attachment.
  VkImageViewUsageCreateInfo attachment_usage{VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO};
  attachment_usage.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  if (img.is_3d() && img.renderable) vi.pNext = &attachment_usage;
  if (img.is_3d() && !img.renderable)
    vi.viewType = VK_IMAGE_VIEW_TYPE_3D;  // only render targets take 2D views
  if (vkCreateImageView(dev, &vi, nullptr, &img.view) != VK_SUCCESS) {
    vkDestroyImage(dev, img.image, nullptr);
    device_.memory().Free(img.alloc);
    return false;
  }
  // Sampling reads every level and layer; depth-stencil images are sampled through their depth aspect
  // (GL's default GL_DEPTH_STENCIL_TEXTURE_MODE).
  vi.pNext = nullptr;
  vi.viewType = SampleViewType(desc.kind);
  vi.subresourceRange = {depth ? VkImageAspectFlags(VK_IMAGE_ASPECT_DEPTH_BIT) : img.aspect, 0, img.levels, 0,
                         img.layers};
  if (vkCreateImageView(dev, &vi, nullptr, &img.sample_view) != VK_SUCCESS) img.sample_view = VK_NULL_HANDLE;
  return true;
}

VkImageView Resources::SampleView(ImageObject& img, const pipe::Swizzle& swizzle, bool skip_srgb_decode,
                                  uint32_t base_level, uint32_t max_level) {
  // Only sRGB images (created mutable) have a UNORM twin: every other format reads the same either way.
  bool unorm = skip_srgb_decode && img.format == VK_FORMAT_R8G8B8A8_SRGB;
  // GL's sampler LOD range and shaders' level arguments count from the base level, as Vulkan's do from the
  // view's first level: a view over exactly the levels GL samples needs no other translation.
  uint32_t base = std::min(base_level, img.levels - 1);
  uint32_t count = std::max(std::min(max_level, img.levels - 1), base) - base + 1;
  bool all_levels = base == 0 && count == img.levels;
  if ((swizzle == pipe::Swizzle{} && !unorm && all_levels) || !img.sample_view) return img.sample_view;
  for (const auto& v : img.swizzled_views)
    if (v.swizzle == swizzle && v.unorm == unorm && v.base_level == base && v.level_count == count)
      return v.view;
  static constexpr VkComponentSwizzle kSource[] = {VK_COMPONENT_SWIZZLE_R,    VK_COMPONENT_SWIZZLE_G,
                                                   VK_COMPONENT_SWIZZLE_B,    VK_COMPONENT_SWIZZLE_A,
                                                   VK_COMPONENT_SWIZZLE_ZERO, VK_COMPONENT_SWIZZLE_ONE};
  bool depth = pipe::IsDepthFormat(img.pipe_format);
  VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vi.image = img.image;
  vi.viewType = SampleViewType(img.kind);
  vi.format = unorm ? VK_FORMAT_R8G8B8A8_UNORM : img.format;
  vi.components = {kSource[size_t(swizzle.c[0])], kSource[size_t(swizzle.c[1])],
                   kSource[size_t(swizzle.c[2])], kSource[size_t(swizzle.c[3])]};
  // An alias views its parent's subresource (its own level and layer counts are 1).
  vi.subresourceRange = {depth ? VkImageAspectFlags(VK_IMAGE_ASPECT_DEPTH_BIT) : img.aspect,
                         img.parent_level + base, count, img.parent_layer, img.layers};
  VkImageView view = VK_NULL_HANDLE;
  if (!device_.Check(vkCreateImageView(device_.device(), &vi, nullptr, &view), "vkCreateImageView"))
    return VK_NULL_HANDLE;
  img.swizzled_views.push_back({swizzle, unorm, base, count, view});
  return view;
}

VkImageView Resources::AttachmentView(ImageObject& img, uint32_t level, uint32_t layer, bool srgb_encode,
                                      uint32_t layer_count) {
  if (!img.renderable) return VK_NULL_HANDLE;
  bool unorm = !srgb_encode && img.format == VK_FORMAT_R8G8B8A8_SRGB;
  bool layered = layer_count != 0;
  if (!layered) layer_count = 1;
  if (level == 0 && layer == 0 && !unorm && !layered) return img.view;
  if (level >= img.levels ||
      layer + layer_count > (img.is_3d() ? std::max(img.depth >> level, 1u) : img.layers))
    return VK_NULL_HANDLE;
  for (const auto& v : img.subviews)
    if (v.level == level && v.layer == layer && v.unorm == unorm && v.layered == layered &&
        v.count == layer_count)
      return v.view;
  // A 3D image's slice is a layer of its 2D-array-compatible view of that level; a layered attachment is a
  // 2D array view of the layers (3D: of the level's slices; cubes: the six faces).
  VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vi.image = img.image;
  vi.viewType = layered ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
  vi.format = unorm ? VK_FORMAT_R8G8B8A8_UNORM : img.format;
  vi.subresourceRange = {img.aspect, level, 1, layer, layer_count};
  VkImageViewUsageCreateInfo attachment_usage{VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO};
  attachment_usage.usage = pipe::IsDepthFormat(img.pipe_format) ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT
                                                                : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  vi.pNext = &attachment_usage;
  VkImageView view = VK_NULL_HANDLE;
  if (vkCreateImageView(device_.device(), &vi, nullptr, &view) != VK_SUCCESS) return VK_NULL_HANDLE;
  img.subviews.push_back({level, layer, layer_count, unorm, layered, view});
  return view;
}

namespace {

// Moves sampler bindings from the shader path's set 2 to set 1 at kSamplerBindingBase + index, so uniform
// blocks and samplers share one push-descriptor set (Vulkan allows one push set per pipeline layout).
std::vector<uint32_t> RemapSamplerSet(const uint32_t* words, uint32_t count) {
  std::vector<uint32_t> out(words, words + count);
  constexpr uint32_t kOpDecorate = 71, kDecorationBinding = 33, kDecorationDescriptorSet = 34;
  std::vector<uint32_t> in_set2;
  for (uint32_t at = 5; at < count;) {
    uint32_t op = out[at] & 0xFFFF, len = out[at] >> 16;
    if (len == 0) break;
    if (op == kOpDecorate && len >= 4 && out[at + 2] == kDecorationDescriptorSet && out[at + 3] == 2) {
      in_set2.push_back(out[at + 1]);
      out[at + 3] = 1;
    }
    at += len;
  }
  for (uint32_t at = 5; at < count;) {
    uint32_t op = out[at] & 0xFFFF, len = out[at] >> 16;
    if (len == 0) break;
    if (op == kOpDecorate && len >= 4 && out[at + 2] == kDecorationBinding &&
        std::find(in_set2.begin(), in_set2.end(), out[at + 1]) != in_set2.end())
      out[at + 3] += PipelineCache::kSamplerBindingBase;
    at += len;
  }
  return out;
}

// GL_TEXTURE_BORDER_COLOR as a Vulkan border colour: one of the six fixed ones when it is one of them (no
// custom-colour sampler slot used), else a custom colour in *custom; without VK_EXT_custom_border_color the
// nearest fixed colour, logged once. Integer textures need the INT variants.
VkBorderColor BorderColor(const pipe::SamplerState& st, bool custom_ok, VkClearColorValue* custom) {
  bool wraps_to_border = st.wrap[0] == 3 || st.wrap[1] == 3 || st.wrap[2] == 3;
  bool integer = st.border_type != uint8_t(pipe::SampleType::kFloat);
  float f[4];
  int64_t v[4];
  for (int c = 0; c < 4; ++c) {
    uint32_t bits;
    std::memcpy(&bits, &st.border[c], 4);
    v[c] = st.border_type == uint8_t(pipe::SampleType::kSint) ? int64_t(int32_t(bits)) : int64_t(bits);
    f[c] = integer ? float(v[c]) : st.border[c];
  }
  auto is = [&](float r, float a) { return f[0] == r && f[1] == r && f[2] == r && f[3] == a; };
  if (!wraps_to_border || is(0, 0))
    return integer ? VK_BORDER_COLOR_INT_TRANSPARENT_BLACK : VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
  if (is(0, 1)) return integer ? VK_BORDER_COLOR_INT_OPAQUE_BLACK : VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK;
  if (is(1, 1)) return integer ? VK_BORDER_COLOR_INT_OPAQUE_WHITE : VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
  if (custom_ok) {
    std::memcpy(custom, st.border, sizeof(st.border));  // the same 32-bit words: floats or integers
    return integer ? VK_BORDER_COLOR_INT_CUSTOM_EXT : VK_BORDER_COLOR_FLOAT_CUSTOM_EXT;
  }
  util::LogOnce(util::LogLevel::kWarning, "GL_TEXTURE_BORDER_COLOR",
                "the device lacks VK_EXT_custom_border_color: border colours become the nearest of "
                "transparent black, opaque black and opaque white");
  bool white = f[0] > 0.5f && f[1] > 0.5f && f[2] > 0.5f;
  if (white) return integer ? VK_BORDER_COLOR_INT_OPAQUE_WHITE : VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
  if (f[3] > 0.5f) return integer ? VK_BORDER_COLOR_INT_OPAQUE_BLACK : VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK;
  return integer ? VK_BORDER_COLOR_INT_TRANSPARENT_BLACK : VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
}

}  // namespace

VkSampler Resources::GetSampler(const pipe::SamplerState& st) {
  for (auto& e : samplers_)
    if (e.state == st) return e.sampler;
  static const VkSamplerAddressMode kWrap[4] = {
      VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT,
      VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER};
  VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  info.magFilter = st.mag_linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
  info.minFilter = st.min_linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
  info.mipmapMode = st.mip_mode == 2 ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST;
  info.addressModeU = kWrap[st.wrap[0] & 3];
  info.addressModeV = kWrap[st.wrap[1] & 3];
  info.addressModeW = kWrap[st.wrap[2] & 3];
  info.mipLodBias = st.lod_bias;
  info.compareEnable = st.compare_enable;
  info.compareOp = static_cast<VkCompareOp>(st.compare_op);
  info.minLod = std::max(st.min_lod, 0.0f);
  info.maxLod = std::max(st.max_lod, info.minLod);
  // GL_TEXTURE_MAX_ANISOTROPY: 1 is isotropic filtering; larger values are clamped to the device's limit
  // (GL keeps the value as set and filters with at most GL_MAX_TEXTURE_MAX_ANISOTROPY).
  if (device_.features().sampler_anisotropy && st.max_anisotropy > 1.0f) {
    info.anisotropyEnable = VK_TRUE;
    info.maxAnisotropy = std::min(st.max_anisotropy, device_.properties().limits.maxSamplerAnisotropy);
  }
  VkSamplerCustomBorderColorCreateInfoEXT custom{
      VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT};
  info.borderColor = BorderColor(st, device_.features().custom_border_color, &custom.customBorderColor);
  if (info.borderColor == VK_BORDER_COLOR_FLOAT_CUSTOM_EXT ||
      info.borderColor == VK_BORDER_COLOR_INT_CUSTOM_EXT)
    info.pNext = &custom;  // format VK_FORMAT_UNDEFINED: customBorderColorWithoutFormat
  VkSampler sampler = VK_NULL_HANDLE;
  // A failed sampler is not cached: the draw that needed it is skipped and the next one tries again.
  if (!device_.Check(vkCreateSampler(device_.device(), &info, nullptr, &sampler), "vkCreateSampler"))
    return VK_NULL_HANDLE;
  samplers_.push_back({st, sampler});
  return sampler;
}

bool Resources::CreateProgram(pipe::Handle h, const uint32_t* vs, uint32_t vs_words, const uint32_t* fs,
                              uint32_t fs_words, const uint32_t* gs, uint32_t gs_words,
                              uint32_t default_block_size, uint32_t texel_buffer_mask,
                              const uint8_t (&sampler_array_sizes)[pipe::kMaxSamplers], Retired* retired) {
  ProgramObject p;
  p.default_block_size = default_block_size;
  // The linker's sampler bindings (CmdProgramCreate): no parse of the SPIR-V for them.
  p.texel_buffer_mask = texel_buffer_mask;
  for (uint32_t i = 0; i < pipe::kMaxSamplers; ++i)
    p.sampler_arrays[i] = uint8_t(std::min<uint32_t>(sampler_array_sizes[i], pipe::kMaxSamplers - i));
  for (uint32_t i = 0; i < pipe::kMaxSamplers; ++i) p.sampler_first[i] = uint8_t(i);
  for (uint32_t a = 0; a < pipe::kMaxSamplers; ++a)
    for (uint32_t j = 1; j < p.sampler_arrays[a] && a + j < pipe::kMaxSamplers; ++j)
      p.sampler_first[a + j] = uint8_t(a);
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  std::vector<uint32_t> vertex = RemapSamplerSet(vs, vs_words);
  std::vector<uint32_t> fragment = RemapSamplerSet(fs, fs_words);
  info.codeSize = vertex.size() * 4;
  info.pCode = vertex.data();
  if (vkCreateShaderModule(device_.device(), &info, nullptr, &p.vertex) != VK_SUCCESS) return false;
  info.codeSize = fragment.size() * 4;
  info.pCode = fragment.data();
  if (vkCreateShaderModule(device_.device(), &info, nullptr, &p.fragment) != VK_SUCCESS) {
    vkDestroyShaderModule(device_.device(), p.vertex, nullptr);
    return false;
  }
  if (gs_words > 0) {
    std::vector<uint32_t> geometry = RemapSamplerSet(gs, gs_words);
    info.codeSize = geometry.size() * 4;
    info.pCode = geometry.data();
    if (vkCreateShaderModule(device_.device(), &info, nullptr, &p.geometry) != VK_SUCCESS) {
      vkDestroyShaderModule(device_.device(), p.vertex, nullptr);
      vkDestroyShaderModule(device_.device(), p.fragment, nullptr);
      return false;
    }
  }
  ProgramObject previous;
  bool had = false;
  programs.Put(h, std::move(p), &previous, &had);
  if (had) retired->push_back(FromProgram(previous, 0));
  return true;
}

Garbage Resources::FromBuffer(const BufferObject& b, uint64_t serial) {
  Garbage g;
  g.serial = serial;
  g.buffer = b.buffer;
  for (const auto& v : b.views) g.buffer_views.push_back(v.view);
  g.alloc = b.alloc;
  return g;
}

Garbage Resources::FromImage(const ImageObject& i, uint64_t serial) {
  Garbage g;
  g.serial = serial;
  g.image = i.is_alias() ? VK_NULL_HANDLE : i.image;  // an alias's image is its parent's
  g.view = i.view;
  g.sample_view = i.sample_view;
  for (const auto& v : i.subviews) g.subviews.push_back(v.view);
  for (const auto& v : i.swizzled_views) g.subviews.push_back(v.view);
  g.alloc = i.alloc;
  return g;
}

Garbage Resources::FromProgram(const ProgramObject& p, uint64_t serial) {
  Garbage g;
  g.serial = serial;
  g.modules[0] = p.vertex;
  g.modules[1] = p.fragment;
  g.modules[2] = p.geometry;
  return g;
}

void Resources::DestroyBuffer(pipe::Handle h, Retired* retired) {
  BufferObject b;
  if (buffers.Take(h, &b)) retired->push_back(FromBuffer(b, 0));
}

void Resources::DestroyImage(pipe::Handle h, Retired* retired) {
  ImageObject i;
  if (images.Take(h, &i)) retired->push_back(FromImage(i, 0));
}

void Resources::DestroyProgram(pipe::Handle h, Retired* retired) {
  ProgramObject p;
  if (programs.Take(h, &p)) retired->push_back(FromProgram(p, 0));
}

void Resources::Collect(uint64_t completed) {
  size_t kept = 0;
  for (auto& g : garbage_) {
    if (g.serial <= completed)
      Free(g);
    else
      garbage_[kept++] = g;
  }
  garbage_.resize(kept);
}

Resources::Counts Resources::counts() {
  Counts c;
  buffers.ForEachLive([&](BufferObject&) { ++c.buffers; });
  images.ForEachLive([&](ImageObject&) { ++c.images; });
  programs.ForEachLive([&](ProgramObject&) { ++c.programs; });
  c.garbage = garbage_.size();
  c.samplers = samplers_.size();
  return c;
}

void Resources::Free(const Garbage& g) {
  VkDevice dev = device_.device();
  if (g.view) vkDestroyImageView(dev, g.view, nullptr);
  if (g.sample_view) vkDestroyImageView(dev, g.sample_view, nullptr);
  for (VkImageView v : g.subviews) vkDestroyImageView(dev, v, nullptr);
  for (VkBufferView v : g.buffer_views) vkDestroyBufferView(dev, v, nullptr);
  if (g.image) vkDestroyImage(dev, g.image, nullptr);
  if (g.buffer) vkDestroyBuffer(dev, g.buffer, nullptr);
  for (auto m : g.modules)
    if (m) vkDestroyShaderModule(dev, m, nullptr);
  for (VkPipeline p : g.pipelines) vkDestroyPipeline(dev, p, nullptr);
  device_.memory().Free(g.alloc);
}

}  // namespace caldera::vk
