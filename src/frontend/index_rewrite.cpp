#include "frontend/index_rewrite.h"

#include <cstring>

namespace caldera::index_rewrite {

uint32_t AllOnes(pipe::IndexType type) {
  switch (type) {
    case pipe::IndexType::kU8:
      return 0xFFu;
    case pipe::IndexType::kU16:
      return 0xFFFFu;
    default:
      return 0xFFFFFFFFu;
  }
}

Restart Resolve(bool restart, bool fixed_index, uint32_t restart_index, pipe::IndexType type) {
  if (fixed_index) return {true, AllOnes(type)};
  if (restart) return {true, restart_index};
  return {};
}

void LineLoopArrays(uint32_t first, uint32_t count, std::vector<uint32_t>* out) {
  out->clear();
  if (count < 2) return;
  out->reserve(size_t(count) + 1);
  for (uint32_t i = 0; i < count; ++i) out->push_back(first + i);
  out->push_back(first);
}

namespace {

uint32_t Read(const uint8_t* src, pipe::IndexType type, uint32_t i) {
  switch (type) {
    case pipe::IndexType::kU8:
      return src[i];
    case pipe::IndexType::kU16: {
      uint16_t v;
      std::memcpy(&v, src + size_t(i) * 2, 2);
      return v;
    }
    default: {
      uint32_t v;
      std::memcpy(&v, src + size_t(i) * 4, 4);
      return v;
    }
  }
}

}  // namespace

void Rewrite(const uint8_t* src, pipe::IndexType type, uint32_t count, Restart restart, bool close_loops,
             std::vector<uint32_t>* out) {
  out->clear();
  out->reserve(size_t(count) + 1);
  size_t run_start = 0;  // position in *out where the current run begins
  auto end_run = [&] {
    size_t run = out->size() - run_start;
    if (!close_loops) return;
    if (run >= 2)
      out->push_back((*out)[run_start]);
    else
      out->resize(run_start);  // a one-vertex loop draws nothing
  };
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t v = Read(src, type, i);
    if (restart.enabled && v == restart.value) {
      end_run();
      // Consecutive restarts and a leading restart add nothing but keep the stream short.
      if (!out->empty() && out->back() != kRestart) out->push_back(kRestart);
      run_start = out->size();
      continue;
    }
    out->push_back(v);
  }
  end_run();
  while (!out->empty() && out->back() == kRestart) out->pop_back();
}

}  // namespace caldera::index_rewrite
