// Settings read once from the environment (see docs/GUARD-LAYER.md for the full list).
#pragma once

#include <cstdint>
#include <string>

namespace guard {

struct Config {
  bool syncval = false;        // CALDERA_GUARD_SYNCVAL=1: make the validation layer run syncval
  bool protect = false;        // CALDERA_GUARD_PROTECT=1: defer unsafe destroys until retired
  bool fail = false;           // CALDERA_GUARD_FAIL=1: exit code 3 at teardown on any finding
  uint32_t max_runahead = 0;   // CALDERA_GUARD_MAX_RUNAHEAD: 0 means unbounded
  uint32_t frame_submits = 1;  // CALDERA_GUARD_FRAME_SUBMITS: headless frame length in submits
  std::string report_path;     // CALDERA_GUARD_REPORT: JSON report destination, empty for none
};

const Config& GetConfig();

}  // namespace guard
