// Logging: off unless CALDERA_DEBUG is set (1/info, warn, debug), except warnings and errors that
// users must see once. "Once" is per (subject, message) pair for the process.
#pragma once

#include <string>

namespace caldera::util {

enum class LogLevel { kError = 0, kWarning = 1, kInfo = 2, kDebug = 3 };

bool LogEnabled(LogLevel level);
void Log(LogLevel level, const char* subject, const std::string& message);
void LogOnce(LogLevel level, const char* subject, const std::string& message);

// Environment helpers: every variable Caldera reads is documented in docs/ENVIRONMENT.md.
const char* Env(const char* name);
bool EnvFlag(const char* name, bool default_value);  // "0"/"false"/"off" → false, other non-empty → true

}  // namespace caldera::util
