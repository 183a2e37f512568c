#include "util/log.h"

#include <strings.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>

namespace caldera::util {
namespace {

LogLevel ThresholdFromEnv() {
  // Without CALDERA_DEBUG only errors and one-time warnings print; "1"/"info", "debug" raise the level.
  const char* v = std::getenv("CALDERA_DEBUG");
  if (!v || !*v || !std::strcmp(v, "0")) return LogLevel::kWarning;
  if (!std::strcmp(v, "debug") || !std::strcmp(v, "2")) return LogLevel::kDebug;
  return LogLevel::kInfo;
}

const char* LevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kError:
      return "error";
    case LogLevel::kWarning:
      return "warning";
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kDebug:
      return "debug";
  }
  return "";
}

}  // namespace

bool LogEnabled(LogLevel level) {
  static const LogLevel threshold = ThresholdFromEnv();
  // Warnings for unimplemented functions are noisy in test suites: CALDERA_DEBUG=0 silences them too.
  static const bool silenced = [] {
    const char* v = std::getenv("CALDERA_DEBUG");
    return v && !std::strcmp(v, "0");
  }();
  if (silenced && level != LogLevel::kError) return false;
  return level <= threshold;
}

void Log(LogLevel level, const char* subject, const std::string& message) {
  if (!LogEnabled(level)) return;
  std::fprintf(stderr, "caldera %s: %s %s\n", LevelName(level), subject, message.c_str());
}

void LogOnce(LogLevel level, const char* subject, const std::string& message) {
  if (!LogEnabled(level)) return;
  // Never destroyed: threads that outlive main (a driver's, a presenter an application never destroyed) may
  // still log while exit handlers run.
  static auto* mutex = new std::mutex;
  static auto* seen = new std::set<std::string>;
  {
    std::lock_guard lock(*mutex);
    if (!seen->insert(std::string(subject) + "\x1f" + message).second) return;
  }
  Log(level, subject, message);
}

const char* Env(const char* name) {
  const char* v = std::getenv(name);
  return (v && *v) ? v : nullptr;
}

bool EnvFlag(const char* name, bool default_value) {
  const char* v = Env(name);
  if (!v) return default_value;
  return !(!std::strcmp(v, "0") || !strcasecmp(v, "false") || !strcasecmp(v, "off") || !strcasecmp(v, "no"));
}

}  // namespace caldera::util
