#include "guard_report.h"

#include <dlfcn.h>
#include <unistd.h>

#include <array>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "guard_config.h"
#include "guard_counters.h"

namespace guard {
namespace {

constexpr const char* kCategoryNames[static_cast<size_t>(Category::kCount)] = {
    "destroyed-while-pending",    "reset-while-pending", "mapped-memory-in-use", "wait-unsubmitted-fence",
    "query-without-availability", "runahead-exceeded",   "sync-hazard",          "validation-error"};

// Enough to show what went wrong in a long run without the report growing without bound.
constexpr size_t kMaxListedViolations = 10000;

struct Violation {
  Category category;
  std::string call;
  uint64_t object;
  VkObjectType object_type;
  std::string detail;
};

std::mutex g_mutex;
std::vector<Violation> g_violations;
std::array<uint64_t, static_cast<size_t>(Category::kCount)> g_category_counts{};
std::map<std::string, uint64_t> g_messages_by_id;
std::string g_syncval_status = "off";
std::string g_last_summary;

std::string JsonEscape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
          out += escaped;
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string HexHandle(uint64_t handle) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%" PRIx64, handle);
  return text;
}

uint64_t FindingCountLocked() {
  uint64_t total = 0;
  for (uint64_t count : g_category_counts) total += count;
  return total;
}

std::string BuildReportLocked(const char* reason) {
  std::string out = "{\n  \"layer\": \"VK_LAYER_CALDERA_guard\",\n";
  out += "  \"reason\": \"" + JsonEscape(reason) + "\",\n";
  out += "  \"syncval\": \"" + JsonEscape(g_syncval_status) + "\",\n";
  out += CountersJson() + ",\n";
  out += "  \"violation_count\": " + std::to_string(FindingCountLocked()) + ",\n";
  out += "  \"violations_by_category\": {";
  for (size_t c = 0; c < g_category_counts.size(); ++c) {
    out += std::string(c ? ", \"" : "\"") + kCategoryNames[c] + "\": " + std::to_string(g_category_counts[c]);
  }
  out += "},\n  \"validation_messages_by_id\": {";
  bool first = true;
  for (const auto& [id, count] : g_messages_by_id) {
    out += std::string(first ? "\"" : ", \"") + JsonEscape(id) + "\": " + std::to_string(count);
    first = false;
  }
  out += "},\n  \"violations\": [";
  first = true;
  for (const Violation& v : g_violations) {
    out += first ? "\n    " : ",\n    ";
    out += "{\"category\": \"" + std::string(CategoryName(v.category)) + "\", \"call\": \"" +
           JsonEscape(v.call) + "\", \"object\": \"" + HexHandle(v.object) + "\", \"object_type\": \"" +
           ObjectTypeName(v.object_type) + "\", \"detail\": \"" + JsonEscape(v.detail) + "\"}";
    first = false;
  }
  out += "\n  ]\n}\n";
  return out;
}

void AtExit() {
  WriteReport("exit");
  bool failed = false;
  {
    std::lock_guard lock(g_mutex);
    failed = FindingCountLocked() > 0;
  }
  if (GetConfig().fail && failed) {
    std::fflush(stdout);
    std::fflush(stderr);
    // _exit, not exit: we are inside exit() already, and the status must be ours.
    _exit(3);
  }
}

}  // namespace

const char* CategoryName(Category category) {
  return kCategoryNames[static_cast<size_t>(category)];
}

void ReportViolation(Category category, const char* call, uint64_t object, VkObjectType object_type,
                     const std::string& detail) {
  std::lock_guard lock(g_mutex);
  ++g_category_counts[static_cast<size_t>(category)];
  std::fprintf(stderr, "caldera-guard: %s in %s: %s 0x%" PRIx64 ": %s\n", CategoryName(category), call,
               ObjectTypeName(object_type), object, detail.c_str());
  if (g_violations.size() < kMaxListedViolations) {
    g_violations.push_back({category, call, object, object_type, detail});
  }
}

void CountValidationMessage(const char* message_id) {
  std::lock_guard lock(g_mutex);
  ++g_messages_by_id[message_id ? message_id : "(no id)"];
}

void SetSyncvalStatus(const char* status) {
  std::lock_guard lock(g_mutex);
  g_syncval_status = status;
}

void WriteReport(const char* reason) {
  FlushPartialFrame();
  const CounterTotals totals = GetCounterTotals();
  std::lock_guard lock(g_mutex);
  const std::string& path = GetConfig().report_path;
  if (!path.empty()) {
    const std::string json = BuildReportLocked(reason);
    if (FILE* file = std::fopen(path.c_str(), "w")) {
      std::fwrite(json.data(), 1, json.size(), file);
      std::fclose(file);
    } else {
      std::fprintf(stderr, "caldera-guard: cannot write report to %s\n", path.c_str());
    }
  }
  char summary[256];
  std::snprintf(summary, sizeof summary,
                "caldera-guard: %" PRIu64 " violations/hazards, %" PRIu64 " frames, %" PRIu64
                " calls, %" PRIu64 " draws, %" PRIu64 " submits, %" PRIu64
                " redundant binds, max run-ahead %" PRIu64 ", syncval %s",
                FindingCountLocked(), totals.frames, totals.calls, totals.draws, totals.submits,
                totals.redundant_binds, totals.max_runahead, g_syncval_status.c_str());
  // Once per distinct state: vkDestroyInstance and exit usually agree.
  if (g_last_summary != summary) {
    std::fprintf(stderr, "%s\n", summary);
    g_last_summary = summary;
  }
}

void InstallExitHandler() {
  static std::once_flag once;
  std::call_once(once, [] {
    // The loader unloads layers at vkDestroyInstance, which would run (and then unmap) an at-exit
    // handler registered from this library; pin the library so the handler runs at process exit.
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&InstallExitHandler), &info) != 0 && info.dli_fname != nullptr) {
      dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
    }
    std::atexit(AtExit);
  });
}

}  // namespace guard
