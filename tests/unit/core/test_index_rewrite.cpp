// Index rewriting for emulated line loops and app-chosen primitive restart indices
// (src/frontend/index_rewrite.h).
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "frontend/index_rewrite.h"

using namespace caldera;
using index_rewrite::kRestart;

namespace {

template <typename T>
std::vector<uint32_t> Run(const std::vector<T>& in, pipe::IndexType type, index_rewrite::Restart restart,
                          bool loops) {
  std::vector<uint32_t> out;
  index_rewrite::Rewrite(reinterpret_cast<const uint8_t*>(in.data()), type, static_cast<uint32_t>(in.size()),
                         restart, loops, &out);
  return out;
}

}  // namespace

TEST_CASE("array line loops close on their first vertex") {
  std::vector<uint32_t> out;
  index_rewrite::LineLoopArrays(5, 3, &out);
  CHECK(out == std::vector<uint32_t>{5, 6, 7, 5});
  index_rewrite::LineLoopArrays(5, 1, &out);
  CHECK(out.empty());  // one vertex: no line
}

TEST_CASE("restart resolution: the fixed index wins and is all-ones of the type") {
  auto r = index_rewrite::Resolve(true, true, 7, pipe::IndexType::kU16);
  CHECK(r.enabled);
  CHECK(r.value == 0xFFFFu);
  r = index_rewrite::Resolve(true, false, 7, pipe::IndexType::kU8);
  CHECK(r.value == 7u);
  CHECK_FALSE(index_rewrite::Resolve(false, false, 7, pipe::IndexType::kU8).enabled);
}

TEST_CASE("custom restart index becomes all-ones; the type's all-ones stays a vertex") {
  index_rewrite::Restart r{true, 200};
  auto out = Run<uint8_t>({0, 1, 200, 2, 255}, pipe::IndexType::kU8, r, false);
  CHECK(out == std::vector<uint32_t>{0, 1, kRestart, 2, 255});
  // A restart value no index of the type can hold restarts nothing.
  out = Run<uint16_t>({1, 2, 0xFFFF}, pipe::IndexType::kU16, {true, 0x12345}, false);
  CHECK(out == std::vector<uint32_t>{1, 2, 0xFFFF});
}

TEST_CASE("line loops with restart close every run; runs of one vertex vanish") {
  index_rewrite::Restart r{true, 9};
  auto out = Run<uint16_t>({0, 1, 2, 9, 3, 9, 9, 4, 5}, pipe::IndexType::kU16, r, true);
  CHECK(out == std::vector<uint32_t>{0, 1, 2, 0, kRestart, 4, 5, 4});
  out = Run<uint32_t>({9, 7, 8}, pipe::IndexType::kU32, r, true);
  CHECK(out == std::vector<uint32_t>{7, 8, 7});
  out = Run<uint32_t>({7, 8, 6}, pipe::IndexType::kU32, {}, true);
  CHECK(out == std::vector<uint32_t>{7, 8, 6, 7});
}
