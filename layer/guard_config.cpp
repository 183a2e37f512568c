#include "guard_config.h"

#include <cstdlib>
#include <cstring>

namespace guard {
namespace {

bool EnvFlag(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && std::strcmp(value, "0") != 0 && value[0] != '\0';
}

uint32_t EnvCount(const char* name, uint32_t fallback) {
  const char* value = std::getenv(name);
  if (value == nullptr || value[0] == '\0') return fallback;
  char* end = nullptr;
  const unsigned long parsed = std::strtoul(value, &end, 10);
  return (end != nullptr && *end == '\0') ? static_cast<uint32_t>(parsed) : fallback;
}

Config ReadConfig() {
  Config config;
  config.syncval = EnvFlag("CALDERA_GUARD_SYNCVAL");
  config.protect = EnvFlag("CALDERA_GUARD_PROTECT");
  config.fail = EnvFlag("CALDERA_GUARD_FAIL");
  config.max_runahead = EnvCount("CALDERA_GUARD_MAX_RUNAHEAD", 0);
  config.frame_submits = EnvCount("CALDERA_GUARD_FRAME_SUBMITS", 1);
  if (config.frame_submits == 0) config.frame_submits = 1;
  if (const char* path = std::getenv("CALDERA_GUARD_REPORT")) config.report_path = path;
  return config;
}

}  // namespace

const Config& GetConfig() {
  static const Config config = ReadConfig();
  return config;
}

}  // namespace guard
