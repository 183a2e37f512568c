// pipe texel codecs (pipe/texels.h): the layouts uploads travel in and readbacks are decoded from.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <initializer_list>

#include "pipe/texels.h"

using namespace caldera::pipe;

TEST_CASE("Format table: RGB formats travel as their RGBA storage, depth formats come last") {
  CHECK(Info(Format::kRGB16F).storage == Format::kRGBA16F);
  CHECK(TexelSize(Format::kRGB16F) == 8);
  CHECK(HasImplicitAlpha(Format::kRGB32UI));
  CHECK_FALSE(HasImplicitAlpha(Format::kRGBA32UI));
  CHECK(IsIntegerFormat(Format::kRG16I));
  CHECK_FALSE(IsIntegerFormat(Format::kRGBA16F));
  CHECK(IsDepthFormat(Format::kD16));
  CHECK_FALSE(IsDepthFormat(Format::kRGBA32I));
  CHECK(Info(Format::kR11G11B10F).bits[2] == 10);
}

TEST_CASE("Half floats: exact values, rounding, infinities and subnormals") {
  for (float v : {0.0f, 1.0f, -2.5f, 0.125f, 65504.0f, 6.103515625e-05f})
    CHECK(HalfToFloat(FloatToHalf(v)) == v);
  CHECK(FloatToHalf(1.0f) == 0x3C00);
  CHECK(FloatToHalf(1e6f) == 0x7C00);
  CHECK(HalfToFloat(0x0001) == doctest::Approx(5.96046448e-08f));
  CHECK(FloatToHalf(1.0f + 1.0f / 4096.0f) == 0x3C00);  // below half a unit: rounds down
}

TEST_CASE("Packed formats encode to the GL/Vulkan bit layouts") {
  uint8_t t[8];
  uint32_t w;
  const float rgb[4] = {6.5f, 0.125f, 12.0f, 1.0f};
  EncodeFloat(Format::kR11G11B10F, rgb, t);
  float out[4];
  DecodeFloat(Format::kR11G11B10F, t, out);
  CHECK(out[0] == 6.5f);
  CHECK(out[1] == 0.125f);
  CHECK(out[2] == 12.0f);
  CHECK(out[3] == 1.0f);

  const float e5[4] = {1.0f, 0.5f, 0.25f, 1.0f};
  EncodeFloat(Format::kRGB9E5, e5, t);
  DecodeFloat(Format::kRGB9E5, t, out);
  CHECK(out[0] == 1.0f);
  CHECK(out[1] == 0.5f);
  CHECK(out[2] == 0.25f);

  const float ten[4] = {1.0f, 0.0f, 1.0f, 1.0f / 3.0f};
  EncodeFloat(Format::kRGB10A2, ten, t);
  std::memcpy(&w, t, 4);
  CHECK(w == (1023u | 1023u << 20 | 1u << 30));
}

TEST_CASE("RGB storage keeps alpha one; integer encoding clamps to the component range") {
  uint8_t t[16];
  const float half_alpha[4] = {0.5f, 0.25f, 2.0f, 0.0f};
  EncodeFloat(Format::kRGB16F, half_alpha, t);
  float out[4];
  DecodeFloat(Format::kRGBA16F, t, out);
  CHECK(out[2] == 2.0f);
  CHECK(out[3] == 1.0f);

  const uint32_t values[4] = {uint32_t(-5), 300, 7, 9};
  EncodeInt(Format::kRGBA8UI, values, true, t);
  CHECK(t[0] == 0);
  CHECK(t[1] == 255);
  CHECK(t[2] == 7);
  EncodeInt(Format::kRGBA8I, values, true, t);
  uint32_t back[4];
  DecodeInt(Format::kRGBA8I, t, back);
  CHECK(int32_t(back[0]) == -5);
  CHECK(int32_t(back[1]) == 127);
  EncodeInt(Format::kRGB16UI, values, false, t);
  DecodeInt(Format::kRGBA16UI, t, back);
  CHECK(back[3] == 1);
}

TEST_CASE("Depth/stencil layouts: 24_8 words and float + stencil pairs") {
  uint8_t t[8];
  EncodeDepth(Format::kD24S8, 1.0f, 0x5A, t);
  uint32_t w;
  std::memcpy(&w, t, 4);
  CHECK(w == (0xFFFFFFu << 8 | 0x5A));
  float d;
  uint32_t s;
  EncodeDepth(Format::kD32FS8, 0.375f, 0x33, t);
  DecodeDepth(Format::kD32FS8, t, &d, &s);
  CHECK(d == 0.375f);
  CHECK(s == 0x33);
  EncodeDepth(Format::kD16, 2.0f, 0, t);  // clamped to 1
  DecodeDepth(Format::kD16, t, &d, &s);
  CHECK(d == 1.0f);
}

TEST_CASE("Luminance/alpha formats: R8/RG8 (and float) storage read through the format's swizzle") {
  using S = SwizzleSource;
  CHECK(BackendStorage(Format::kL8) == Format::kR8);
  CHECK(BackendStorage(Format::kA8) == Format::kR8);
  CHECK(BackendStorage(Format::kLA8) == Format::kRG8);
  CHECK(BackendStorage(Format::kLA32F) == Format::kRG32F);
  CHECK(BackendStorage(Format::kA16F) == Format::kR16F);
  CHECK(BackendStorage(Format::kRGB16F) == Format::kRGBA16F);  // RGB formats: their RGBA storage
  CHECK(LegacyStorage(Format::kRGBA8).swizzle == Swizzle{});
  CHECK_FALSE(HasImplicitAlpha(Format::kL8));
  CHECK(TexelSize(Format::kLA8) == 2);
  CHECK(TexelSize(Format::kLA16F) == 4);
  // Writes keep luminance from red and alpha from alpha; reads give L,L,L,1 / 0,0,0,A / L,L,L,A.
  const float in[4] = {0.2f, 0.4f, 0.6f, 0.8f};
  uint8_t t[8] = {};
  float out[4];
  EncodeFloat(Format::kL8, in, t);
  CHECK(t[0] == 51);
  DecodeFloat(Format::kL8, t, out);
  CHECK((out[0] == out[1] && out[1] == out[2] && out[0] == doctest::Approx(0.2f) && out[3] == 1.0f));
  EncodeFloat(Format::kA8, in, t);
  CHECK(t[0] == 204);
  DecodeFloat(Format::kA8, t, out);
  CHECK((out[0] == 0.0f && out[1] == 0.0f && out[2] == 0.0f && out[3] == doctest::Approx(0.8f)));
  EncodeFloat(Format::kLA8, in, t);
  CHECK((t[0] == 51 && t[1] == 204));
  EncodeFloat(Format::kLA32F, in, t);
  float stored[2];
  std::memcpy(stored, t, 8);
  CHECK((stored[0] == 0.2f && stored[1] == 0.8f));
  DecodeFloat(Format::kLA32F, t, out);
  CHECK((out[0] == 0.2f && out[2] == 0.2f && out[3] == 0.8f));
  // A texture swizzle applies on top of the format's: (A, 0, R, G) of L,L,L,A is A,0,L,L.
  Swizzle user{{S::kA, S::kZero, S::kR, S::kG}};
  Swizzle composed = ComposeSwizzle(user, LegacyStorage(Format::kLA8).swizzle);
  CHECK(composed == Swizzle{{S::kG, S::kZero, S::kR, S::kR}});
  CHECK(ComposeSwizzle(user, Swizzle{}) == user);
  CHECK(ComposeSwizzle(Swizzle{{S::kOne, S::kA, S::kA, S::kA}}, LegacyStorage(Format::kL8).swizzle) ==
        Swizzle{{S::kOne, S::kOne, S::kOne, S::kOne}});
}
