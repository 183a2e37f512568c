#include "pipe/texel_rows.h"

#include <algorithm>
#include <cstring>

#include "pipe/texels.h"

namespace caldera::pipe {
namespace {

// Component readers: one stored component as DecodeFloat / DecodeInt reads it.
template <typename T>
T Load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
struct Unorm8 {
  static constexpr int kSize = 1;
  static float Float(const uint8_t* p) { return float(*p) / 255.0f; }
};
struct Unorm16 {
  static constexpr int kSize = 2;
  static float Float(const uint8_t* p) { return float(Load<uint16_t>(p)) / 65535.0f; }
};
struct Snorm8 {
  static constexpr int kSize = 1;
  static float Float(const uint8_t* p) { return std::max(float(int8_t(*p)) / 127.0f, -1.0f); }
};
struct Snorm16 {
  static constexpr int kSize = 2;
  static float Float(const uint8_t* p) { return std::max(float(Load<int16_t>(p)) / 32767.0f, -1.0f); }
};
struct Half {
  static constexpr int kSize = 2;
  static float Float(const uint8_t* p) { return HalfToFloat(Load<uint16_t>(p)); }
};
struct Float32 {
  static constexpr int kSize = 4;
  static float Float(const uint8_t* p) { return Load<float>(p); }
};
template <typename T>
struct Int {
  static constexpr int kSize = sizeof(T);
  static uint32_t Value(const uint8_t* p) { return uint32_t(int64_t(Load<T>(p))); }
};

// 8-bit unsigned normalised to RGBA8: the bytes themselves (x / 255 rounds back to x).
template <int N>
void BytesToRGBA8(const uint8_t* src, int32_t width, uint8_t* dst) {
  for (int32_t x = 0; x < width; ++x, src += N, dst += 4) {
    uint8_t t[4] = {0, 0, 0, 255};
    for (int c = 0; c < N; ++c) t[c] = src[c];
    std::memcpy(dst, t, 4);
  }
}

template <class C, int N>
void ToRGBA32F(const uint8_t* src, int32_t width, uint8_t* dst) {
  for (int32_t x = 0; x < width; ++x, src += N * C::kSize, dst += 16) {
    float t[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    for (int c = 0; c < N; ++c) t[c] = C::Float(src + c * C::kSize);
    std::memcpy(dst, t, 16);
  }
}

template <class C, int N>
void ToRGBA32I(const uint8_t* src, int32_t width, uint8_t* dst) {
  for (int32_t x = 0; x < width; ++x, src += N * C::kSize, dst += 16) {
    uint32_t t[4] = {0, 0, 0, 1};
    for (int c = 0; c < N; ++c) t[c] = C::Value(src + c * C::kSize);
    std::memcpy(dst, t, 16);
  }
}

template <class C>
ReadRowFn FloatRows(int n) {
  static constexpr ReadRowFn kRows[4] = {ToRGBA32F<C, 1>, ToRGBA32F<C, 2>, ToRGBA32F<C, 3>, ToRGBA32F<C, 4>};
  return kRows[n - 1];
}

template <class C>
ReadRowFn IntRows(int n) {
  static constexpr ReadRowFn kRows[4] = {ToRGBA32I<C, 1>, ToRGBA32I<C, 2>, ToRGBA32I<C, 3>, ToRGBA32I<C, 4>};
  return kRows[n - 1];
}

}  // namespace

ReadRowFn SelectReadRow(Format storage, ReadLayout layout) {
  const FormatInfo& info = Info(storage);
  if (info.storage != storage || info.packing != Packing::kNone || IsDepthFormat(storage) ||
      IsBlockCompressed(storage) || info.components == 0 || info.components > 4)
    return nullptr;
  int n = info.components;
  int size = info.texel_size / n;
  switch (layout) {
    case ReadLayout::kRGBA8: {
      if ((info.type != FormatType::kUnorm && info.type != FormatType::kSrgb) || size != 1) return nullptr;
      static constexpr ReadRowFn kRows[4] = {BytesToRGBA8<1>, BytesToRGBA8<2>, BytesToRGBA8<3>,
                                             BytesToRGBA8<4>};
      return kRows[n - 1];
    }
    case ReadLayout::kRGBA32F:
      switch (info.type) {
        case FormatType::kUnorm:
        case FormatType::kSrgb:
          return size == 1 ? FloatRows<Unorm8>(n) : FloatRows<Unorm16>(n);
        case FormatType::kSnorm:
          return size == 1 ? FloatRows<Snorm8>(n) : FloatRows<Snorm16>(n);
        case FormatType::kFloat:
          return size == 2 ? FloatRows<Half>(n) : FloatRows<Float32>(n);
        default:
          return nullptr;
      }
    case ReadLayout::kRGBA32I: {
      bool s = info.type == FormatType::kSint;
      if (!s && info.type != FormatType::kUint) return nullptr;
      switch (size) {
        case 1:
          return s ? IntRows<Int<int8_t>>(n) : IntRows<Int<uint8_t>>(n);
        case 2:
          return s ? IntRows<Int<int16_t>>(n) : IntRows<Int<uint16_t>>(n);
        default:
          return s ? IntRows<Int<int32_t>>(n) : IntRows<Int<uint32_t>>(n);
      }
    }
    case ReadLayout::kDepth32F:
    case ReadLayout::kStored:  // a copy, not a decode
      return nullptr;
  }
  return nullptr;
}

}  // namespace caldera::pipe
