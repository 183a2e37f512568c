#include "frontend/debug_output.h"

#include <algorithm>
#include <cstring>

#include "api/gl_enum_names.h"

namespace caldera {

namespace {

// The error's name from the generated reverse enum table ("GL_INVALID_ENUM").
const char* ErrorName(GLenum error) {
  const char* name = api::EnumToName(error);
  return name ? name : "GL error";
}

bool Matches(GLenum want, GLenum have) {
  return want == GL_DONT_CARE || want == have;
}

}  // namespace

DebugOutput::DebugOutput(bool debug_context) : enabled_(debug_context) {
  groups_.emplace_back();  // the default group: stack depth 1
}

bool DebugOutput::ValidSource(GLenum source) {
  switch (source) {
    case GL_DEBUG_SOURCE_API:
    case GL_DEBUG_SOURCE_WINDOW_SYSTEM:
    case GL_DEBUG_SOURCE_SHADER_COMPILER:
    case GL_DEBUG_SOURCE_THIRD_PARTY:
    case GL_DEBUG_SOURCE_APPLICATION:
    case GL_DEBUG_SOURCE_OTHER:
      return true;
    default:
      return false;
  }
}

bool DebugOutput::ValidType(GLenum type) {
  switch (type) {
    case GL_DEBUG_TYPE_ERROR:
    case GL_DEBUG_TYPE_DEPRECATED_BEHAVIOR:
    case GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR:
    case GL_DEBUG_TYPE_PORTABILITY:
    case GL_DEBUG_TYPE_PERFORMANCE:
    case GL_DEBUG_TYPE_OTHER:
    case GL_DEBUG_TYPE_MARKER:
    case GL_DEBUG_TYPE_PUSH_GROUP:
    case GL_DEBUG_TYPE_POP_GROUP:
      return true;
    default:
      return false;
  }
}

bool DebugOutput::ValidSeverity(GLenum severity) {
  switch (severity) {
    case GL_DEBUG_SEVERITY_HIGH:
    case GL_DEBUG_SEVERITY_MEDIUM:
    case GL_DEBUG_SEVERITY_LOW:
    case GL_DEBUG_SEVERITY_NOTIFICATION:
      return true;
    default:
      return false;
  }
}

bool* DebugOutput::Flag(GLenum cap) {
  if (cap == GL_DEBUG_OUTPUT) return &enabled_;
  if (cap == GL_DEBUG_OUTPUT_SYNCHRONOUS) return &synchronous_;
  return nullptr;
}

bool DebugOutput::Enabled(GLenum source, GLenum type, GLuint id, GLenum severity) const {
  const auto& rules = groups_.back().rules;
  for (auto it = rules.rbegin(); it != rules.rend(); ++it) {
    if (!Matches(it->source, source) || !Matches(it->type, type) || !Matches(it->severity, severity))
      continue;
    if (!it->ids.empty() && std::find(it->ids.begin(), it->ids.end(), id) == it->ids.end()) continue;
    return it->enabled;
  }
  // The spec's initial state: every message enabled except those of low severity.
  return severity != GL_DEBUG_SEVERITY_LOW;
}

void DebugOutput::Control(GLenum source, GLenum type, GLenum severity, const GLuint* ids, GLsizei count,
                          bool enabled) {
  Rule rule{source, type, severity, {}, enabled};
  if (count > 0) rule.ids.assign(ids, ids + count);
  auto& rules = groups_.back().rules;
  // Drop the rules this one overrides entirely, so that repeated calls do not grow the list.
  std::erase_if(rules, [&](const Rule& old) {
    bool covered = Matches(rule.source, old.source) && Matches(rule.type, old.type) &&
                   Matches(rule.severity, old.severity);
    if (!covered) return false;
    if (rule.ids.empty()) return true;
    if (old.ids.empty()) return false;
    return std::all_of(old.ids.begin(), old.ids.end(), [&](GLuint i) {
      return std::find(rule.ids.begin(), rule.ids.end(), i) != rule.ids.end();
    });
  });
  // With everything covered and the default state restored, no rule is needed at all.
  bool restores_default = source == GL_DONT_CARE && type == GL_DONT_CARE && rule.ids.empty() && enabled &&
                          severity != GL_DEBUG_SEVERITY_LOW && severity != GL_DONT_CARE;
  if (rules.empty() && restores_default) return;
  rules.push_back(std::move(rule));
}

bool DebugOutput::Wants(GLenum source, GLenum type, GLuint id, GLenum severity) const {
  if (!enabled_) return false;
  // With no callback to take it and a full log, a message would be dropped: not worth filtering or
  // formatting.
  if ((!callback_ || in_callback_) && log_.size() >= size_t(kMaxLoggedMessages)) return false;
  return Enabled(source, type, id, severity);
}

void DebugOutput::Message(GLenum source, GLenum type, GLuint id, GLenum severity, std::string_view text) {
  if (!Wants(source, type, id, severity)) return;
  Deliver(source, type, id, severity, text);
}

void DebugOutput::Deliver(GLenum source, GLenum type, GLuint id, GLenum severity, std::string_view text) {
  if (text.size() >= size_t(kMaxMessageLength)) text = text.substr(0, kMaxMessageLength - 1);
  if (callback_ && !in_callback_) {
    // A copy: the callback may set another callback, pop groups or make errors of its own (those land in
    // the log), and the text it sees must stay valid and NUL-terminated for the call.
    std::string copy(text);
    GLDEBUGPROC callback = callback_;
    in_callback_ = true;
    callback(source, type, id, severity, static_cast<GLsizei>(copy.size()), copy.c_str(), user_param_);
    in_callback_ = false;
    return;
  }
  if (log_.size() >= size_t(kMaxLoggedMessages)) return;  // a full log drops new messages (spec)
  log_.push_back({source, type, severity, id, std::string(text)});
}

void DebugOutput::ApiError(GLenum error, const char* function, const char* why) {
  if (!Wants(GL_DEBUG_SOURCE_API, GL_DEBUG_TYPE_ERROR, error, GL_DEBUG_SEVERITY_HIGH)) return;
  std::string text = ErrorName(error);
  text += " in ";
  text += function ? function : "a GL call";
  if (why && *why) {
    text += ": ";
    text += why;
  }
  Deliver(GL_DEBUG_SOURCE_API, GL_DEBUG_TYPE_ERROR, error, GL_DEBUG_SEVERITY_HIGH, text);
}

GLuint DebugOutput::TakeLog(GLuint count, GLsizei buf_size, GLenum* sources, GLenum* types, GLuint* ids,
                            GLenum* severities, GLsizei* lengths, GLchar* log) {
  GLuint taken = 0;
  size_t used = 0;
  while (taken < count && !log_.empty()) {
    const Logged& m = log_.front();
    size_t size = m.text.size() + 1;
    // With a buffer, a message that does not fit stops the walk and stays in the log.
    if (log) {
      if (used + size > size_t(buf_size)) break;
      std::memcpy(log + used, m.text.c_str(), size);
      used += size;
    }
    if (sources) sources[taken] = m.source;
    if (types) types[taken] = m.type;
    if (ids) ids[taken] = m.id;
    if (severities) severities[taken] = m.severity;
    if (lengths) lengths[taken] = static_cast<GLsizei>(size);
    log_.pop_front();
    ++taken;
  }
  return taken;
}

bool DebugOutput::PushGroup(GLenum source, GLuint id, std::string_view message) {
  if (groups_.size() >= size_t(kMaxGroupStackDepth)) return false;
  Group group;
  group.source = source;
  group.id = id;
  group.message.assign(message);
  group.rules = groups_.back().rules;
  groups_.push_back(std::move(group));
  const Group& top = groups_.back();
  Message(top.source, GL_DEBUG_TYPE_PUSH_GROUP, top.id, GL_DEBUG_SEVERITY_NOTIFICATION, top.message);
  return true;
}

bool DebugOutput::PopGroup() {
  if (groups_.size() <= 1) return false;
  Group popped = std::move(groups_.back());
  groups_.pop_back();
  // Filtered by the state now current (the parent's), as Mesa does.
  Message(popped.source, GL_DEBUG_TYPE_POP_GROUP, popped.id, GL_DEBUG_SEVERITY_NOTIFICATION, popped.message);
  return true;
}

}  // namespace caldera
