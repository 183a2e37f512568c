// The RGTC (BC4) block codec: exact blocks stay exact, the encoder's endpoint search beats plain min/max
// endpoints where it should, and signed blocks keep their sign.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>

#include "pipe/rgtc.h"

namespace {

using caldera::pipe::DecodeRgtcBlock;
using caldera::pipe::EncodeRgtcBlock;

// Squared error of a block encoded and decoded again.
int RoundTripError(const uint8_t in[16], bool is_signed) {
  uint8_t block[8], out[16];
  EncodeRgtcBlock(in, is_signed, 0xFFFF, block);
  DecodeRgtcBlock(block, is_signed, out);
  int error = 0;
  for (int t = 0; t < 16; ++t) {
    int a = is_signed ? int(int8_t(in[t])) : in[t], b = is_signed ? int(int8_t(out[t])) : out[t];
    error += (a - b) * (a - b);
  }
  return error;
}

}  // namespace

TEST_CASE("RGTC blocks of one or two values round-trip exactly") {
  uint8_t uniform[16], two[16];
  for (int t = 0; t < 16; ++t) uniform[t] = 77, two[t] = (t & 1) ? 12 : 240;
  CHECK(RoundTripError(uniform, false) == 0);
  CHECK(RoundTripError(two, false) == 0);
  uint8_t signed_two[16];
  for (int t = 0; t < 16; ++t) signed_two[t] = static_cast<uint8_t>(int8_t((t & 2) ? -90 : 35));
  CHECK(RoundTripError(signed_two, true) == 0);
}

TEST_CASE("RGTC encoder uses the six-value mode for saturated texels") {
  // 0 and 255 with a cluster between: the six-value palette holds 0 and 255 exactly and spends its
  // interpolated entries on the cluster, which min/max endpoints in the eight-value mode cannot match.
  uint8_t in[16];
  for (int t = 0; t < 16; ++t) in[t] = static_cast<uint8_t>(t == 0 ? 0 : t == 1 ? 255 : 100 + t);
  uint8_t block[8];
  EncodeRgtcBlock(in, false, 0xFFFF, block);
  CHECK(block[0] <= block[1]);  // e0 <= e1 selects the six-value mode
  CHECK(RoundTripError(in, false) <= 16 * 2);
}

TEST_CASE("RGTC encoder error on a ramp stays within a unit or so per texel") {
  uint8_t in[16];
  for (int t = 0; t < 16; ++t) in[t] = static_cast<uint8_t>(60 + t * 3);  // 45 levels over 16 texels
  CHECK(std::sqrt(RoundTripError(in, false) / 16.0) < 2.0);
}
