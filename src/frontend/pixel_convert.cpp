#include "frontend/pixel_convert.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <type_traits>

#include "pipe/texels.h"

namespace caldera::pixels {
namespace {

// Readback sources: one pixel of a pipe::ReadLayout, component c (RGBA order) as the general path reads it
// (FromLayout in gl_frame.cpp).
struct FromRGBA8 {
  static constexpr int kSize = 4;
  static float Float(const uint8_t* p, int c) { return float(p[c]) / 255.0f; }
};
struct FromRGBA32F {
  static constexpr int kSize = 16;
  static float Float(const uint8_t* p, int c) {
    float v;
    std::memcpy(&v, p + 4 * c, 4);
    return v;
  }
};
// GL_CLAMP_READ_COLOR = GL_TRUE on a float readback.
struct FromRGBA32FClamped {
  static constexpr int kSize = 16;
  static float Float(const uint8_t* p, int c) { return std::clamp(FromRGBA32F::Float(p, c), 0.0f, 1.0f); }
};
struct FromRGBA32I {
  static constexpr int kSize = 16;
  static uint32_t Int(const uint8_t* p, int c) {
    uint32_t v;
    std::memcpy(&v, p + 4 * c, 4);
    return v;
  }
};

// Client component writers for float values, with the general path's rounding (FloatToComponent).
template <typename T, bool kSigned>
struct NormTo {
  static constexpr int kSize = sizeof(T);
  static void Put(uint8_t* d, float v) {
    constexpr double kMax = kSigned ? double((uint64_t(1) << (sizeof(T) * 8 - 1)) - 1)
                                    : double((uint64_t(1) << (sizeof(T) * 8)) - 1);
    double c = std::clamp(std::isnan(v) ? 0.0 : double(v), kSigned ? -1.0 : 0.0, 1.0);
    T r = static_cast<T>(std::llround(c * kMax));
    std::memcpy(d, &r, sizeof(T));
  }
};
struct HalfTo {
  static constexpr int kSize = 2;
  static void Put(uint8_t* d, float v) {
    uint16_t h = pipe::FloatToHalf(v);
    std::memcpy(d, &h, 2);
  }
};
struct FloatTo {
  static constexpr int kSize = 4;
  static void Put(uint8_t* d, float v) { std::memcpy(d, &v, 4); }
};
// Integer values clamped into a client integer type (IntToComponent).
template <typename T>
struct IntTo {
  static constexpr int kSize = sizeof(T);
  static void Put(uint8_t* d, uint32_t raw, bool value_signed) {
    int64_t v = value_signed ? int64_t(int32_t(raw)) : int64_t(raw);
    auto x = static_cast<uint32_t>(
        std::clamp(v, int64_t(std::numeric_limits<T>::min()), int64_t(std::numeric_limits<T>::max())));
    std::memcpy(d, &x, sizeof(T));
  }
};

template <class Src, class Dst, int N>
void PackFloatRow(const uint8_t* src, uint8_t* dst, int32_t width, const RowParams& p) {
  int ch[4];
  std::copy(p.channel, p.channel + 4, ch);
  for (int32_t x = 0; x < width; ++x, src += Src::kSize, dst += N * Dst::kSize)
    for (int i = 0; i < N; ++i) Dst::Put(dst + i * Dst::kSize, Src::Float(src, ch[i]));
}

// Bytes to bytes: x / 255 rounds back to x, so the general path's result is a reorder of the components.
template <int N>
void PackByteRow(const uint8_t* src, uint8_t* dst, int32_t width, const RowParams& p) {
  int ch[4];
  std::copy(p.channel, p.channel + 4, ch);
  for (int32_t x = 0; x < width; ++x, src += 4, dst += N)
    for (int i = 0; i < N; ++i) dst[i] = src[ch[i]];
}

// The same with the component order fixed at compile time, for the orders applications use most
// (GL_BGRA, GL_RGB, GL_BGR, GL_RED): the compiler turns these into shuffles.
template <int N, int C0, int C1, int C2, int C3>
void PackByteRowFixed(const uint8_t* src, uint8_t* dst, int32_t width, const RowParams&) {
  constexpr int kShift[4] = {8 * C0, 8 * C1, 8 * C2, 8 * C3};
  for (int32_t x = 0; x < width; ++x, src += 4, dst += N) {
    uint32_t w;
    std::memcpy(&w, src, 4);
    if constexpr (N == 4) {
      uint32_t out = (w >> kShift[0] & 0xFF) | (w >> kShift[1] & 0xFF) << 8 | (w >> kShift[2] & 0xFF) << 16 |
                     (w >> kShift[3] & 0xFF) << 24;
      std::memcpy(dst, &out, 4);
    } else {
      for (int i = 0; i < N; ++i) dst[i] = uint8_t(w >> kShift[i]);
    }
  }
}

template <class Dst, int N>
void PackIntRow(const uint8_t* src, uint8_t* dst, int32_t width, const RowParams& p) {
  int ch[4];
  std::copy(p.channel, p.channel + 4, ch);
  bool value_signed = p.int_signed;
  for (int32_t x = 0; x < width; ++x, src += FromRGBA32I::kSize, dst += N * Dst::kSize)
    for (int i = 0; i < N; ++i) Dst::Put(dst + i * Dst::kSize, FromRGBA32I::Int(src, ch[i]), value_signed);
}

template <class Src>
void PackPackedRow(const uint8_t* src, uint8_t* dst, int32_t width, const RowParams& p) {
  const glformat::PackedFields& f = *p.packed;
  for (int32_t x = 0; x < width; ++x, src += Src::kSize, dst += f.bytes) {
    uint32_t w = 0;
    for (int i = 0; i < f.components; ++i) {
      uint32_t max = (1u << f.bits[i]) - 1;
      w |= uint32_t(std::lround(std::clamp(Src::Float(src, p.channel[i]), 0.0f, 1.0f) * float(max)))
           << f.shift[i];
    }
    std::memcpy(dst, &w, size_t(f.bytes));
  }
}

void PackPackedIntRow(const uint8_t* src, uint8_t* dst, int32_t width, const RowParams& p) {
  const glformat::PackedFields& f = *p.packed;
  for (int32_t x = 0; x < width; ++x, src += FromRGBA32I::kSize, dst += f.bytes) {
    uint32_t w = 0;
    for (int i = 0; i < f.components; ++i)
      w |= std::min(FromRGBA32I::Int(src, p.channel[i]), (1u << f.bits[i]) - 1) << f.shift[i];
    std::memcpy(dst, &w, size_t(f.bytes));
  }
}

// GL_UNSIGNED_INT_10F_11F_11F_REV and GL_UNSIGNED_INT_5_9_9_9_REV: the pipe's codec of that layout.
template <class Src, pipe::Format kFormat>
void PackSharedFloatRow(const uint8_t* src, uint8_t* dst, int32_t width, const RowParams&) {
  for (int32_t x = 0; x < width; ++x, src += Src::kSize, dst += 4) {
    float v[4];
    for (int c = 0; c < 4; ++c) v[c] = Src::Float(src, c);
    pipe::EncodeFloat(kFormat, v, dst);
  }
}

template <class Src, class Dst>
RowFn FloatRow(int n) {
  static constexpr RowFn kByCount[4] = {PackFloatRow<Src, Dst, 1>, PackFloatRow<Src, Dst, 2>,
                                        PackFloatRow<Src, Dst, 3>, PackFloatRow<Src, Dst, 4>};
  return kByCount[n - 1];
}

template <class Dst>
RowFn IntRow(int n) {
  static constexpr RowFn kByCount[4] = {PackIntRow<Dst, 1>, PackIntRow<Dst, 2>, PackIntRow<Dst, 3>,
                                        PackIntRow<Dst, 4>};
  return kByCount[n - 1];
}

template <class Src>
RowFn FloatSourceRow(GLenum type, int n, bool bytes_source) {
  if (bytes_source && type == GL_UNSIGNED_BYTE) {
    static constexpr RowFn kBytes[4] = {PackByteRow<1>, PackByteRow<2>, PackByteRow<3>, PackByteRow<4>};
    return kBytes[n - 1];
  }
  switch (type) {
    case GL_UNSIGNED_BYTE:
      return FloatRow<Src, NormTo<uint8_t, false>>(n);
    case GL_BYTE:
      return FloatRow<Src, NormTo<int8_t, true>>(n);
    case GL_UNSIGNED_SHORT:
      return FloatRow<Src, NormTo<uint16_t, false>>(n);
    case GL_SHORT:
      return FloatRow<Src, NormTo<int16_t, true>>(n);
    case GL_UNSIGNED_INT:
      return FloatRow<Src, NormTo<uint32_t, false>>(n);
    case GL_INT:
      return FloatRow<Src, NormTo<int32_t, true>>(n);
    case GL_HALF_FLOAT:
      return FloatRow<Src, HalfTo>(n);
    case GL_FLOAT:
      return FloatRow<Src, FloatTo>(n);
    case GL_UNSIGNED_INT_10F_11F_11F_REV:
      return PackSharedFloatRow<Src, pipe::Format::kR11G11B10F>;
    case GL_UNSIGNED_INT_5_9_9_9_REV:
      return PackSharedFloatRow<Src, pipe::Format::kRGB9E5>;
    default:
      return glformat::PackedType(type) ? PackPackedRow<Src> : nullptr;
  }
}

// Uploads: client components into a 4-byte unorm texel (missing colour 0, alpha 255), or into a 16-byte
// float texel (missing colour 0, alpha 1), as UnpackPixel + EncodeFloat give them.
template <int N>
void UnpackByteRow(const uint8_t* src, uint8_t* dst, int32_t width, const RowParams& p) {
  int ch[4];
  std::copy(p.channel, p.channel + 4, ch);
  bool opaque = p.opaque;
  for (int32_t x = 0; x < width; ++x, src += N, dst += 4) {
    uint8_t t[4] = {0, 0, 0, 255};
    for (int i = 0; i < N; ++i) t[ch[i]] = src[i];
    if (opaque) t[3] = 255;
    std::memcpy(dst, t, 4);
  }
}

// Texels assembled in a register (a byte array on the stack would stall on store forwarding).
template <int N, int C0, int C1, int C2, int C3>
void UnpackByteRowFixed(const uint8_t* src, uint8_t* dst, int32_t width, const RowParams& p) {
  constexpr int kCh[4] = {C0, C1, C2, C3};
  constexpr bool kHasAlpha = C0 == 3 || (N > 1 && C1 == 3) || (N > 2 && C2 == 3) || (N > 3 && C3 == 3);
  constexpr uint32_t kAlphaDefault = kHasAlpha ? 0u : 0xFF000000u;
  const uint32_t base = kAlphaDefault | (p.opaque ? 0xFF000000u : 0u);
  const uint32_t keep = p.opaque ? 0x00FFFFFFu : 0xFFFFFFFFu;  // an opaque format drops the client's alpha
  for (int32_t x = 0; x < width; ++x, src += N, dst += 4) {
    uint32_t w = 0;
    for (int i = 0; i < N; ++i) w |= uint32_t(src[i]) << (8 * kCh[i]);
    w = (w & keep) | base;
    std::memcpy(dst, &w, 4);
  }
}

// A byte row converter with the order fixed at compile time when `channel` is one of the common orders.
RowFn FixedByteOrder(int n, const int* channel, bool pack) {
  auto is = [&](std::initializer_list<int> order) {
    return int(order.size()) == n && std::equal(order.begin(), order.end(), channel);
  };
  if (is({2, 1, 0, 3})) return pack ? PackByteRowFixed<4, 2, 1, 0, 3> : UnpackByteRowFixed<4, 2, 1, 0, 3>;
  if (is({0, 1, 2})) return pack ? PackByteRowFixed<3, 0, 1, 2, 0> : UnpackByteRowFixed<3, 0, 1, 2, 0>;
  if (is({2, 1, 0})) return pack ? PackByteRowFixed<3, 2, 1, 0, 0> : UnpackByteRowFixed<3, 2, 1, 0, 0>;
  if (is({0, 1, 2, 3})) return pack ? PackByteRowFixed<4, 0, 1, 2, 3> : UnpackByteRowFixed<4, 0, 1, 2, 3>;
  if (is({0})) return pack ? PackByteRowFixed<1, 0, 0, 0, 0> : UnpackByteRowFixed<1, 0, 0, 0, 0>;
  return nullptr;
}

template <int N>
void UnpackFloatRow(const uint8_t* src, uint8_t* dst, int32_t width, const RowParams& p) {
  int ch[4];
  std::copy(p.channel, p.channel + 4, ch);
  bool opaque = p.opaque;
  for (int32_t x = 0; x < width; ++x, src += 4 * N, dst += 16) {
    float t[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    for (int i = 0; i < N; ++i) std::memcpy(&t[ch[i]], src + 4 * i, 4);
    if (opaque) t[3] = 1.0f;
    std::memcpy(dst, t, 16);
  }
}

}  // namespace

bool ReadLayoutIsClient(pipe::ReadLayout layout, bool int_signed, GLenum format, GLenum type) {
  switch (layout) {
    case pipe::ReadLayout::kRGBA8:
      return format == GL_RGBA && type == GL_UNSIGNED_BYTE;
    case pipe::ReadLayout::kRGBA32F:
      return format == GL_RGBA && type == GL_FLOAT;
    case pipe::ReadLayout::kRGBA32I:
      return format == GL_RGBA_INTEGER && type == (int_signed ? GL_INT : GL_UNSIGNED_INT);
    case pipe::ReadLayout::kDepth32F:
      return format == GL_DEPTH_COMPONENT && type == GL_FLOAT;
    case pipe::ReadLayout::kStored:
      break;  // depends on the image's format: StoredIsClient
  }
  return false;
}

bool StoredIsClient(pipe::Format image_format, GLenum format, GLenum type) {
  const pipe::FormatInfo& info = pipe::Info(image_format);
  if (pipe::IsBlockCompressed(image_format) || pipe::IsDepthFormat(image_format) ||
      info.storage != image_format || info.components == 0 || info.type == pipe::FormatType::kSnorm)
    return false;
  switch (info.packing) {
    case pipe::Packing::kNone:
      return glformat::SameLayout(format, type, image_format);
    case pipe::Packing::k565:
      return format == GL_RGB && type == GL_UNSIGNED_SHORT_5_6_5;
    case pipe::Packing::k11_11_10:
      return format == GL_RGB && type == GL_UNSIGNED_INT_10F_11F_11F_REV;
    case pipe::Packing::k10_10_10_2:
      return format == (info.type == pipe::FormatType::kUint ? GL_RGBA_INTEGER : GL_RGBA) &&
             type == GL_UNSIGNED_INT_2_10_10_10_REV;
    case pipe::Packing::k999E5:
      return false;  // sample-only: never a read target
  }
  return false;
}

RowConverter SelectPackRow(pipe::ReadLayout layout, bool int_signed, bool clamp, GLenum format, GLenum type) {
  RowConverter r;
  int n = glformat::ClientChannels(format, r.params.channel);
  if (n == 0) return {};
  r.params.packed = glformat::PackedType(type);
  r.params.int_signed = int_signed;
  if (r.params.packed && r.params.packed->components != n) return {};
  switch (layout) {
    case pipe::ReadLayout::kRGBA8:
      r.fn = FloatSourceRow<FromRGBA8>(type, n, /*bytes_source=*/true);
      if (type == GL_UNSIGNED_BYTE)
        if (RowFn fixed = FixedByteOrder(n, r.params.channel, /*pack=*/true)) r.fn = fixed;
      break;
    case pipe::ReadLayout::kRGBA32F:
      r.fn = clamp ? FloatSourceRow<FromRGBA32FClamped>(type, n, false)
                   : FloatSourceRow<FromRGBA32F>(type, n, false);
      break;
    case pipe::ReadLayout::kRGBA32I:
      switch (type) {
        case GL_UNSIGNED_BYTE:
          r.fn = IntRow<IntTo<uint8_t>>(n);
          break;
        case GL_BYTE:
          r.fn = IntRow<IntTo<int8_t>>(n);
          break;
        case GL_UNSIGNED_SHORT:
          r.fn = IntRow<IntTo<uint16_t>>(n);
          break;
        case GL_SHORT:
          r.fn = IntRow<IntTo<int16_t>>(n);
          break;
        case GL_UNSIGNED_INT:
          r.fn = IntRow<IntTo<uint32_t>>(n);
          break;
        case GL_INT:
          r.fn = IntRow<IntTo<int32_t>>(n);
          break;
        case GL_UNSIGNED_INT_2_10_10_10_REV:
          r.fn = PackPackedIntRow;
          break;
        default:
          break;
      }
      break;
    case pipe::ReadLayout::kDepth32F:
    case pipe::ReadLayout::kStored:
      break;  // depth goes through PackDepthStencilRow; stored texels are never converted here
  }
  return r;
}

RowConverter SelectUnpackRow(GLenum format, GLenum type, pipe::Format storage) {
  RowConverter r;
  const pipe::FormatInfo& info = pipe::Info(storage);
  int n = glformat::ClientChannels(format, r.params.channel);
  if (n == 0 || glformat::PackedType(type)) return {};
  if (glformat::IsIntegerClientFormat(format)) return {};  // never into these storages (checked before)
  r.params.opaque = info.components == 3;
  bool unorm8 = info.storage == pipe::Format::kRGBA8 || info.storage == pipe::Format::kSRGB8A8;
  if (unorm8 && type == GL_UNSIGNED_BYTE) {
    static constexpr RowFn kBytes[4] = {UnpackByteRow<1>, UnpackByteRow<2>, UnpackByteRow<3>,
                                        UnpackByteRow<4>};
    r.fn = kBytes[n - 1];
    if (RowFn fixed = FixedByteOrder(n, r.params.channel, /*pack=*/false)) r.fn = fixed;
  } else if (info.storage == pipe::Format::kRGBA32F && type == GL_FLOAT) {
    static constexpr RowFn kFloats[4] = {UnpackFloatRow<1>, UnpackFloatRow<2>, UnpackFloatRow<3>,
                                         UnpackFloatRow<4>};
    r.fn = kFloats[n - 1];
  }
  return r;
}

}  // namespace caldera::pixels
