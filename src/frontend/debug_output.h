// GL debug output (GL 4.6 chapter 20, KHR_debug, ARB_debug_output): the per-context message callback or
// log, the message filters, and the debug group stack. Messages come from Caldera itself (every GL error
// the frontend records names its entry point; shader compiler logs; performance warnings; backend failures
// when glGetError takes them) and from the application (glDebugMessageInsert, debug groups).
//
// Delivery happens on the thread that made the GL call, inside that call: the frontend's own messages are
// produced while the entry point runs, so output is always synchronous with the call, whatever
// GL_DEBUG_OUTPUT_SYNCHRONOUS says (the flag is kept and queryable). Backend failures are found out of band
// (inproc: on the apply thread) and become messages when the frontend takes them (glGetError), on the GL
// thread.
//
// Cost: while GL_DEBUG_OUTPUT is disabled (the default outside debug contexts, as in Mesa) error paths test
// one bool and format nothing.
#pragma once

#include <GL/glcorearb.h>

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace caldera {

class Context;

// Ids of Caldera's own messages other than API errors (whose id is the GL error code), stable so that
// applications can filter them with glDebugMessageControl.
enum DebugMessageId : GLuint {
  kDebugIdCompileError = 1,     // GL_DEBUG_SOURCE_SHADER_COMPILER: glCompileShader failed (its info log)
  kDebugIdCompileLog = 2,       // glCompileShader succeeded with a log (warnings)
  kDebugIdLinkError = 3,        // glLinkProgram failed (its info log)
  kDebugIdPixelsOnCpu = 0x100,  // GL_DEBUG_TYPE_PERFORMANCE: a pixel transfer converts pixel by pixel
  kDebugIdNotRendered = 0x200,  // GL_DEBUG_TYPE_OTHER: state Caldera tracks but does not render with
};

class DebugOutput {
 public:
  // Limits (implementation choices the queries report; the spec's minimums are 1, 1, 64 and 256).
  static constexpr GLint kMaxMessageLength = 4096;  // counts the terminating NUL
  static constexpr GLint kMaxLoggedMessages = 64;
  static constexpr GLint kMaxGroupStackDepth = 64;  // the default group included
  static constexpr GLint kMaxLabelLength = 256;     // counts the terminating NUL

  // GL_DEBUG_OUTPUT starts enabled in debug contexts only (Mesa does the same; the spec leaves non-debug
  // contexts free not to produce messages).
  explicit DebugOutput(bool debug_context);

  // The gate every producer tests first: nothing is formatted or allocated while it is false.
  bool active() const { return enabled_; }

  // Whether a message of this kind would reach the callback or the log now: producers that must format
  // their text test it first.
  bool Wants(GLenum source, GLenum type, GLuint id, GLenum severity) const;
  // Filters, stores or calls back one message. `text` longer than the limit is cut to fit.
  void Message(GLenum source, GLenum type, GLuint id, GLenum severity, std::string_view text);
  // A GL error of `function` ("GL_INVALID_ENUM in glEnable: invalid capability"); id is the error code.
  void ApiError(GLenum error, const char* function, const char* why);

  // GL_DEBUG_OUTPUT and GL_DEBUG_OUTPUT_SYNCHRONOUS, as glEnable/glIsEnabled see them.
  bool* Flag(GLenum cap);

  // Commands (validated by the callers in gl_debug.cpp).
  void SetCallback(GLDEBUGPROC callback, const void* user_param) {
    callback_ = callback;
    user_param_ = user_param;
  }
  GLDEBUGPROC callback() const { return callback_; }
  const void* user_param() const { return user_param_; }
  void Control(GLenum source, GLenum type, GLenum severity, const GLuint* ids, GLsizei count, bool enabled);
  GLuint TakeLog(GLuint count, GLsizei buf_size, GLenum* sources, GLenum* types, GLuint* ids,
                 GLenum* severities, GLsizei* lengths, GLchar* log);
  // Push/pop with their GL_DEBUG_TYPE_PUSH_GROUP / POP_GROUP messages; false on overflow / underflow.
  bool PushGroup(GLenum source, GLuint id, std::string_view message);
  bool PopGroup();

  GLint logged_messages() const { return static_cast<GLint>(log_.size()); }
  GLint next_message_length() const {
    return log_.empty() ? 0 : static_cast<GLint>(log_.front().text.size() + 1);
  }
  GLint group_depth() const { return static_cast<GLint>(groups_.size()); }

  static bool ValidSource(GLenum source);
  static bool ValidType(GLenum type);
  static bool ValidSeverity(GLenum severity);

 private:
  // One glDebugMessageControl call; the latest rule matching a message decides (later calls override
  // earlier ones, as GL's per-(source, type, id, severity) state would).
  struct Rule {
    GLenum source, type, severity;  // GL_DONT_CARE matches all
    std::vector<GLuint> ids;        // empty: every id
    bool enabled;
  };
  struct Group {
    GLenum source = GL_DEBUG_SOURCE_APPLICATION;
    GLuint id = 0;
    std::string message;
    std::vector<Rule> rules;  // the filter state of this group (a push copies its parent's)
  };
  struct Logged {
    GLenum source, type, severity;
    GLuint id;
    std::string text;
  };

  bool Enabled(GLenum source, GLenum type, GLuint id, GLenum severity) const;
  void Deliver(GLenum source, GLenum type, GLuint id, GLenum severity, std::string_view text);  // past Wants

  bool enabled_;
  bool synchronous_ = false;
  GLDEBUGPROC callback_ = nullptr;
  const void* user_param_ = nullptr;
  // Messages raised by GL calls the callback itself makes go to the log instead of re-entering it.
  bool in_callback_ = false;
  std::vector<Group> groups_;
  std::deque<Logged> log_;
};

// Labels of objects kept outside the name tables gl_debug.cpp walks: a query object (gl_query.cpp; reserved
// names become objects, as for the other kinds) and a live sync (gl_sync.cpp; the caller holds the share
// group's mutex). Null when there is no such object.
std::string* QueryLabel(Context& ctx, GLuint id);
std::string* SyncLabel(Context& ctx, GLsync sync);

}  // namespace caldera
