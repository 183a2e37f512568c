#include "pipe/texels.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace caldera::pipe {
namespace {

using T = FormatType;
using P = Packing;
using F = Format;

constexpr FormatInfo kInfo[] = {
    {0, 0, {0, 0, 0, 0}, T::kUnorm, P::kNone, F::kUndefined},
    {4, 4, {8, 8, 8, 8}, T::kUnorm, P::kNone, F::kRGBA8},
    {3, 4, {8, 8, 8, 0}, T::kUnorm, P::kNone, F::kRGBA8},  // kRGB8
    {3, 2, {5, 6, 5, 0}, T::kUnorm, P::k565, F::kRGB565},
    {1, 1, {8, 0, 0, 0}, T::kUnorm, P::kNone, F::kR8},
    {2, 2, {8, 8, 0, 0}, T::kUnorm, P::kNone, F::kRG8},
    {4, 8, {16, 16, 16, 16}, T::kFloat, P::kNone, F::kRGBA16F},
    {4, 16, {32, 32, 32, 32}, T::kFloat, P::kNone, F::kRGBA32F},
    {1, 4, {32, 0, 0, 0}, T::kFloat, P::kNone, F::kR32F},
    {1, 2, {16, 0, 0, 0}, T::kFloat, P::kNone, F::kR16F},
    {2, 4, {16, 16, 0, 0}, T::kFloat, P::kNone, F::kRG16F},
    {3, 8, {16, 16, 16, 0}, T::kFloat, P::kNone, F::kRGBA16F},  // kRGB16F
    {2, 8, {32, 32, 0, 0}, T::kFloat, P::kNone, F::kRG32F},
    {3, 16, {32, 32, 32, 0}, T::kFloat, P::kNone, F::kRGBA32F},  // kRGB32F
    {3, 4, {11, 11, 10, 0}, T::kFloat, P::k11_11_10, F::kR11G11B10F},
    {3, 4, {9, 9, 9, 0}, T::kFloat, P::k999E5, F::kRGB9E5},
    {4, 4, {10, 10, 10, 2}, T::kUnorm, P::k10_10_10_2, F::kRGB10A2},
    {1, 2, {16, 0, 0, 0}, T::kUnorm, P::kNone, F::kR16},
    {2, 4, {16, 16, 0, 0}, T::kUnorm, P::kNone, F::kRG16},
    {4, 8, {16, 16, 16, 16}, T::kUnorm, P::kNone, F::kRGBA16},
    {3, 8, {16, 16, 16, 0}, T::kUnorm, P::kNone, F::kRGBA16},  // kRGB16
    {3, 4, {8, 8, 8, 0}, T::kSrgb, P::kNone, F::kSRGB8A8},     // kSRGB8
    {4, 4, {8, 8, 8, 8}, T::kSrgb, P::kNone, F::kSRGB8A8},
    // Luminance/alpha: bits[] say which RGBA component GL reads each stored byte as.
    {1, 1, {8, 0, 0, 0}, T::kUnorm, P::kNone, F::kL8},
    {1, 1, {0, 0, 0, 8}, T::kUnorm, P::kNone, F::kA8},
    {2, 2, {8, 0, 0, 8}, T::kUnorm, P::kNone, F::kLA8},
    {1, 4, {32, 0, 0, 0}, T::kFloat, P::kNone, F::kL32F},
    {1, 4, {0, 0, 0, 32}, T::kFloat, P::kNone, F::kA32F},
    {2, 8, {32, 0, 0, 32}, T::kFloat, P::kNone, F::kLA32F},
    {1, 2, {16, 0, 0, 0}, T::kFloat, P::kNone, F::kL16F},
    {1, 2, {0, 0, 0, 16}, T::kFloat, P::kNone, F::kA16F},
    {2, 4, {16, 0, 0, 16}, T::kFloat, P::kNone, F::kLA16F},
    {1, 1, {8, 0, 0, 0}, T::kUnorm, P::kNone, F::kI8},  // intensity: uploads of luminance bytes are its
                                                        // texels
    {1, 1, {8, 0, 0, 0}, T::kSnorm, P::kNone, F::kR8SN},
    {2, 2, {8, 8, 0, 0}, T::kSnorm, P::kNone, F::kRG8SN},
    {3, 4, {8, 8, 8, 0}, T::kSnorm, P::kNone, F::kRGBA8SN},  // kRGB8SN
    {4, 4, {8, 8, 8, 8}, T::kSnorm, P::kNone, F::kRGBA8SN},
    {1, 2, {16, 0, 0, 0}, T::kSnorm, P::kNone, F::kR16SN},
    {2, 4, {16, 16, 0, 0}, T::kSnorm, P::kNone, F::kRG16SN},
    {3, 8, {16, 16, 16, 0}, T::kSnorm, P::kNone, F::kRGBA16SN},  // kRGB16SN
    {4, 8, {16, 16, 16, 16}, T::kSnorm, P::kNone, F::kRGBA16SN},
    {1, 1, {8, 0, 0, 0}, T::kUint, P::kNone, F::kR8UI},
    {2, 2, {8, 8, 0, 0}, T::kUint, P::kNone, F::kRG8UI},
    {3, 4, {8, 8, 8, 0}, T::kUint, P::kNone, F::kRGBA8UI},
    {4, 4, {8, 8, 8, 8}, T::kUint, P::kNone, F::kRGBA8UI},
    {1, 1, {8, 0, 0, 0}, T::kSint, P::kNone, F::kR8I},
    {2, 2, {8, 8, 0, 0}, T::kSint, P::kNone, F::kRG8I},
    {3, 4, {8, 8, 8, 0}, T::kSint, P::kNone, F::kRGBA8I},
    {4, 4, {8, 8, 8, 8}, T::kSint, P::kNone, F::kRGBA8I},
    {1, 2, {16, 0, 0, 0}, T::kUint, P::kNone, F::kR16UI},
    {2, 4, {16, 16, 0, 0}, T::kUint, P::kNone, F::kRG16UI},
    {3, 8, {16, 16, 16, 0}, T::kUint, P::kNone, F::kRGBA16UI},
    {4, 8, {16, 16, 16, 16}, T::kUint, P::kNone, F::kRGBA16UI},
    {1, 2, {16, 0, 0, 0}, T::kSint, P::kNone, F::kR16I},
    {2, 4, {16, 16, 0, 0}, T::kSint, P::kNone, F::kRG16I},
    {3, 8, {16, 16, 16, 0}, T::kSint, P::kNone, F::kRGBA16I},
    {4, 8, {16, 16, 16, 16}, T::kSint, P::kNone, F::kRGBA16I},
    {1, 4, {32, 0, 0, 0}, T::kUint, P::kNone, F::kR32UI},
    {2, 8, {32, 32, 0, 0}, T::kUint, P::kNone, F::kRG32UI},
    {3, 16, {32, 32, 32, 0}, T::kUint, P::kNone, F::kRGBA32UI},
    {4, 16, {32, 32, 32, 32}, T::kUint, P::kNone, F::kRGBA32UI},
    {1, 4, {32, 0, 0, 0}, T::kSint, P::kNone, F::kR32I},
    {2, 8, {32, 32, 0, 0}, T::kSint, P::kNone, F::kRG32I},
    {3, 16, {32, 32, 32, 0}, T::kSint, P::kNone, F::kRGBA32I},
    {4, 16, {32, 32, 32, 32}, T::kSint, P::kNone, F::kRGBA32I},
    {4, 4, {10, 10, 10, 2}, T::kUint, P::k10_10_10_2, F::kRGB10A2UI},
    // Block-compressed: no texel size (payloads are blocks); sizes as GL reports them for RGTC.
    {1, 0, {8, 0, 0, 0}, T::kUnorm, P::kNone, F::kRGTC1},
    {1, 0, {8, 0, 0, 0}, T::kSnorm, P::kNone, F::kRGTC1SN},
    {2, 0, {8, 8, 0, 0}, T::kUnorm, P::kNone, F::kRGTC2},
    {2, 0, {8, 8, 0, 0}, T::kSnorm, P::kNone, F::kRGTC2SN},
    // S3TC: sizes as their decoded formats report them.
    {3, 0, {8, 8, 8, 0}, T::kUnorm, P::kNone, F::kBC1},
    {4, 0, {8, 8, 8, 8}, T::kUnorm, P::kNone, F::kBC1A},
    {4, 0, {8, 8, 8, 8}, T::kUnorm, P::kNone, F::kBC2},
    {4, 0, {8, 8, 8, 8}, T::kUnorm, P::kNone, F::kBC3},
    {3, 0, {8, 8, 8, 0}, T::kSrgb, P::kNone, F::kBC1Srgb},
    {4, 0, {8, 8, 8, 8}, T::kSrgb, P::kNone, F::kBC1ASrgb},
    {4, 0, {8, 8, 8, 8}, T::kSrgb, P::kNone, F::kBC2Srgb},
    {4, 0, {8, 8, 8, 8}, T::kSrgb, P::kNone, F::kBC3Srgb},
    // BPTC: likewise (BC6H as RGB16F, BC7 as RGBA8).
    {3, 0, {16, 16, 16, 0}, T::kFloat, P::kNone, F::kBC6HU},
    {3, 0, {16, 16, 16, 0}, T::kFloat, P::kNone, F::kBC6HS},
    {4, 0, {8, 8, 8, 8}, T::kUnorm, P::kNone, F::kBC7},
    {4, 0, {8, 8, 8, 8}, T::kSrgb, P::kNone, F::kBC7Srgb},
    {1, 4, {24, 8, 0, 0}, T::kDepth, P::kNone, F::kD24S8},
    {1, 4, {32, 0, 0, 0}, T::kDepth, P::kNone, F::kD32F},
    {1, 8, {32, 8, 0, 0}, T::kDepth, P::kNone, F::kD32FS8},
    {1, 2, {16, 0, 0, 0}, T::kDepth, P::kNone, F::kD16},
};
static_assert(sizeof(kInfo) / sizeof(kInfo[0]) == size_t(F::kCount), "one FormatInfo per Format");

// Components stored one after another: how many and how wide (bytes).
int StoredComponents(const FormatInfo& i) {
  return i.storage == F::kUndefined ? 0 : kInfo[size_t(i.storage)].components;
}

// Unsigned float of `mantissa` bits and 5 exponent bits (the 11- and 10-bit floats) to and from float.
float SmallFloatToFloat(uint32_t v, int mantissa) {
  uint32_t e = v >> mantissa, m = v & ((1u << mantissa) - 1);
  if (e == 31) return m ? NAN : INFINITY;
  if (e == 0) return std::ldexp(float(m), -14 - mantissa);
  return std::ldexp(1.0f + float(m) / float(1u << mantissa), int(e) - 15);
}

uint32_t FloatToSmallFloat(float f, int mantissa) {
  if (!(f > 0.0f)) return 0;  // negatives and NaN to 0 (the formats are unsigned)
  uint32_t bits;
  uint16_t h = FloatToHalf(f);
  bits = h & 0x7FFF;  // half: 5-bit exponent, 10-bit mantissa
  return bits >> (10 - mantissa);
}

}  // namespace

const FormatInfo& Info(Format f) {
  return size_t(f) < size_t(F::kCount) ? kInfo[size_t(f)] : kInfo[0];
}

Format BackendStorage(Format f) {
  return IsLegacyFormat(f) ? LegacyStorage(f).storage : Info(f).storage;
}

// Bit manipulation rather than ldexp/frexp: readbacks and uploads of half-float images convert every
// component (same values as the arithmetic definition, checked over every half and 1/7 of all floats).
float HalfToFloat(uint16_t h) {
  uint32_t e = (h >> 10) & 31, m = h & 0x3FF;
  float v;
  if (e == 31) {
    v = m ? NAN : INFINITY;
  } else if (e == 0) {
    v = float(m) * (1.0f / 16777216.0f);  // m * 2^-24, exact
  } else {
    uint32_t bits = (e + 112) << 23 | m << 13;  // rebias 15 -> 127
    std::memcpy(&v, &bits, 4);
  }
  return (h & 0x8000) ? -v : v;
}

uint16_t FloatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  uint32_t abs = x & 0x7FFFFFFF;
  if (abs > 0x7F800000) return sign | 0x7E00;  // NaN
  float a;
  std::memcpy(&a, &abs, 4);
  if (a >= 65520.0f) return sign | 0x7C00;  // rounds to infinity
  if (a < 6.103515625e-05f) {               // subnormal half
    return sign | static_cast<uint16_t>(std::lround(a * 16777216.0f));
  }
  // Rebias the exponent and round the mantissa to 10 bits, halves away from zero; a carry out of the
  // mantissa moves into the exponent, and reaching exponent 31 is infinity.
  uint32_t mant = abs & 0x7FFFFF;
  uint32_t h = (((abs >> 23) - 127 + 15) << 10) + (mant >> 13) + ((mant & 0x1FFF) >= 0x1000 ? 1 : 0);
  return sign | static_cast<uint16_t>(std::min<uint32_t>(h, 0x7C00));
}

void DecodeFloat(Format f, const uint8_t* t, float out[4]) {
  if (IsLegacyFormat(f)) {
    // The stored R8/RG8 components, read through the format's swizzle.
    LegacyLayout l = LegacyStorage(f);
    float stored[4];
    DecodeFloat(l.storage, t, stored);
    for (int c = 0; c < 4; ++c) {
      SwizzleSource s = l.swizzle.c[c];
      out[c] = s == SwizzleSource::kZero ? 0.0f : s == SwizzleSource::kOne ? 1.0f : stored[int(s)];
    }
    return;
  }
  const FormatInfo& info = Info(f);
  out[0] = out[1] = out[2] = 0.0f;
  out[3] = 1.0f;
  uint32_t w = 0;
  std::memcpy(&w, t, std::min<size_t>(info.texel_size, 4));
  switch (info.packing) {
    case P::k565:
      out[0] = float((w >> 11) & 31) / 31.0f, out[1] = float((w >> 5) & 63) / 63.0f;
      out[2] = float(w & 31) / 31.0f;
      return;
    case P::k11_11_10:
      out[0] = SmallFloatToFloat(w & 0x7FF, 6), out[1] = SmallFloatToFloat((w >> 11) & 0x7FF, 6);
      out[2] = SmallFloatToFloat(w >> 22, 5);
      return;
    case P::k999E5: {
      float scale = std::ldexp(1.0f, int(w >> 27) - 15 - 9);
      for (int c = 0; c < 3; ++c) out[c] = float((w >> (9 * c)) & 511) * scale;
      return;
    }
    case P::k10_10_10_2:
      for (int c = 0; c < 3; ++c) out[c] = float((w >> (10 * c)) & 1023) / 1023.0f;
      out[3] = float(w >> 30) / 3.0f;
      return;
    case P::kNone:
      break;
  }
  int n = StoredComponents(info);
  int size = n ? info.texel_size / n : 0;
  for (int c = 0; c < n; ++c) {
    const uint8_t* p = t + c * size;
    if (info.type == T::kFloat && size == 4) {
      std::memcpy(&out[c], p, 4);
    } else if (info.type == T::kFloat) {
      uint16_t h;
      std::memcpy(&h, p, 2);
      out[c] = HalfToFloat(h);
    } else if (info.type == T::kSnorm && size == 2) {
      int16_t v;
      std::memcpy(&v, p, 2);
      out[c] = std::max(float(v) / 32767.0f, -1.0f);  // -32768 and -32767 both read -1
    } else if (info.type == T::kSnorm) {
      out[c] = std::max(float(int8_t(*p)) / 127.0f, -1.0f);
    } else if (size == 2) {
      uint16_t v;
      std::memcpy(&v, p, 2);
      out[c] = float(v) / 65535.0f;
    } else {
      out[c] = float(*p) / 255.0f;
    }
  }
}

void EncodeFloat(Format f, const float in[4], uint8_t* t) {
  if (IsLegacyFormat(f)) {
    // Each stored component takes the first RGBA component that reads it (L: red, A: alpha), the values
    // GL's unpacking and framebuffer copies give luminance and alpha.
    LegacyLayout l = LegacyStorage(f);
    float stored[4] = {0, 0, 0, 1};
    for (int c = 3; c >= 0; --c)
      if (l.swizzle.c[c] <= SwizzleSource::kA) stored[int(l.swizzle.c[c])] = in[c];
    EncodeFloat(l.storage, stored, t);
    return;
  }
  const FormatInfo& info = Info(f);
  auto unorm = [](float v, uint32_t max) {
    return static_cast<uint32_t>(std::lround(std::clamp(std::isnan(v) ? 0.0f : v, 0.0f, 1.0f) * float(max)));
  };
  auto snorm = [](float v, int32_t max) {
    return static_cast<int32_t>(std::lround(std::clamp(std::isnan(v) ? 0.0f : v, -1.0f, 1.0f) * float(max)));
  };
  uint32_t w = 0;
  switch (info.packing) {
    case P::k565:
      w = unorm(in[0], 31) << 11 | unorm(in[1], 63) << 5 | unorm(in[2], 31);
      std::memcpy(t, &w, 2);
      return;
    case P::k11_11_10:
      w = FloatToSmallFloat(in[0], 6) | FloatToSmallFloat(in[1], 6) << 11 | FloatToSmallFloat(in[2], 5) << 22;
      std::memcpy(t, &w, 4);
      return;
    case P::k999E5: {
      // The shared exponent of the largest component (EXT_texture_shared_exponent's algorithm).
      const float max_value = 65408.0f;  // (511/512) * 2^16
      float c[3];
      for (int i = 0; i < 3; ++i) c[i] = std::clamp(std::isnan(in[i]) ? 0.0f : in[i], 0.0f, max_value);
      float m = std::max({c[0], c[1], c[2]});
      int e = m > 0.0f ? std::max(-16, int(std::floor(std::log2(m)))) + 1 + 15 : 0;
      if (m > 0.0f && std::lround(m / std::ldexp(1.0f, e - 15 - 9)) == 512) ++e;
      float scale = std::ldexp(1.0f, e - 15 - 9);
      for (int i = 0; i < 3; ++i) w |= uint32_t(std::min<long>(std::lround(c[i] / scale), 511)) << (9 * i);
      w |= uint32_t(std::clamp(e, 0, 31)) << 27;
      std::memcpy(t, &w, 4);
      return;
    }
    case P::k10_10_10_2:
      w = unorm(in[0], 1023) | unorm(in[1], 1023) << 10 | unorm(in[2], 1023) << 20 | unorm(in[3], 3) << 30;
      std::memcpy(t, &w, 4);
      return;
    case P::kNone:
      break;
  }
  int n = StoredComponents(info);
  int size = n ? info.texel_size / n : 0;
  for (int c = 0; c < n; ++c) {
    // An RGB format stored as RGBA keeps alpha one whatever the source says.
    float v = (c == 3 && info.components == 3) ? 1.0f : in[c];
    uint8_t* p = t + c * size;
    if (info.type == T::kFloat && size == 4) {
      std::memcpy(p, &v, 4);
    } else if (info.type == T::kFloat) {
      uint16_t h = FloatToHalf(v);
      std::memcpy(p, &h, 2);
    } else if (info.type == T::kSnorm && size == 2) {
      auto v16 = static_cast<int16_t>(snorm(v, 32767));
      std::memcpy(p, &v16, 2);
    } else if (info.type == T::kSnorm) {
      *p = static_cast<uint8_t>(static_cast<int8_t>(snorm(v, 127)));
    } else if (size == 2) {
      auto v16 = static_cast<uint16_t>(unorm(v, 65535));
      std::memcpy(p, &v16, 2);
    } else {
      *p = static_cast<uint8_t>(unorm(v, 255));
    }
  }
}

void DecodeInt(Format f, const uint8_t* t, uint32_t out[4]) {
  const FormatInfo& info = Info(f);
  out[0] = out[1] = out[2] = 0;
  out[3] = 1;
  if (info.packing == P::k10_10_10_2) {
    uint32_t w;
    std::memcpy(&w, t, 4);
    for (int c = 0; c < 3; ++c) out[c] = (w >> (10 * c)) & 1023;
    out[3] = w >> 30;
    return;
  }
  int n = StoredComponents(info);
  int size = n ? info.texel_size / n : 0;
  bool is_signed = info.type == T::kSint;
  for (int c = 0; c < n; ++c) {
    const uint8_t* p = t + c * size;
    if (size == 4) {
      std::memcpy(&out[c], p, 4);
    } else if (size == 2) {
      uint16_t v;
      std::memcpy(&v, p, 2);
      out[c] = is_signed ? uint32_t(int32_t(int16_t(v))) : v;
    } else {
      out[c] = is_signed ? uint32_t(int32_t(int8_t(*p))) : *p;
    }
  }
}

void EncodeInt(Format f, const uint32_t in[4], bool in_signed, uint8_t* t) {
  const FormatInfo& info = Info(f);
  if (info.packing == P::k10_10_10_2) {
    uint32_t w = 0;
    for (int c = 0; c < 4; ++c) {
      int64_t v = in_signed ? int64_t(int32_t(in[c])) : int64_t(in[c]);
      w |= uint32_t(std::clamp<int64_t>(v, 0, c == 3 ? 3 : 1023)) << (10 * c);
    }
    std::memcpy(t, &w, 4);
    return;
  }
  int n = StoredComponents(info);
  int size = n ? info.texel_size / n : 0;
  bool out_signed = info.type == T::kSint;
  int bits = size * 8;
  int64_t lo = out_signed ? -(int64_t(1) << (bits - 1)) : 0;
  int64_t hi = out_signed ? (int64_t(1) << (bits - 1)) - 1 : (int64_t(1) << bits) - 1;
  for (int c = 0; c < n; ++c) {
    uint32_t raw = (c == 3 && info.components == 3) ? 1u : in[c];
    int64_t v = in_signed ? int64_t(int32_t(raw)) : int64_t(raw);
    auto clamped = static_cast<uint32_t>(std::clamp(v, lo, hi));
    std::memcpy(t + c * size, &clamped, size_t(size));  // little endian: the low bytes
  }
}

void DecodeDepth(Format f, const uint8_t* t, float* depth, uint32_t* stencil) {
  uint32_t w = 0;
  *stencil = 0;
  switch (f) {
    case F::kD16: {
      uint16_t v;
      std::memcpy(&v, t, 2);
      *depth = float(v) / 65535.0f;
      return;
    }
    case F::kD24S8:
      std::memcpy(&w, t, 4);
      *depth = float(w >> 8) / 16777215.0f;
      *stencil = w & 0xFF;
      return;
    case F::kD32FS8:
      std::memcpy(depth, t, 4);
      std::memcpy(&w, t + 4, 4);
      *stencil = w & 0xFF;
      return;
    default:
      std::memcpy(depth, t, 4);
      return;
  }
}

void EncodeDepth(Format f, float depth, uint32_t stencil, uint8_t* t) {
  float d = std::clamp(std::isnan(depth) ? 0.0f : depth, 0.0f, 1.0f);
  uint32_t w;
  switch (f) {
    case F::kD16: {
      auto v = static_cast<uint16_t>(std::lround(d * 65535.0f));
      std::memcpy(t, &v, 2);
      return;
    }
    case F::kD24S8:
      w = uint32_t(std::llround(double(d) * 16777215.0)) << 8 | (stencil & 0xFF);
      std::memcpy(t, &w, 4);
      return;
    case F::kD32FS8:
      w = stencil & 0xFF;
      std::memcpy(t, &d, 4);
      std::memcpy(t + 4, &w, 4);
      return;
    default:
      std::memcpy(t, &d, 4);
      return;
  }
}

}  // namespace caldera::pipe
