// GL_KHR_debug / GL_ARB_debug_output: the implementation's own messages for bad calls (source, type, id,
// severity, a text naming the entry point), delivered to the callback on the calling thread; the message log
// (fill, order, lengths, overflow, partial reads); filters by type, id list and severity, scoped by debug
// groups; application messages; push/pop messages and stack overflow/underflow; object labels of every kind
// (syncs by pointer) with truncation and length queries; shader compiler messages; a callback that calls GL
// itself. Desktop core contexts (plain and debug) with the core names, the ARB names checked to resolve, and
// an ES 3.0 context through the KHR names. Negative control inside: with GL_DEBUG_OUTPUT disabled (the
// default outside debug contexts) nothing may arrive, and after enabling it the same call must deliver.
// Runs through Caldera (both backends, both pipe modes) and Mesa llvmpipe (meson.build); checks that only
// Caldera's runs make say so.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "gl_harness.h"

namespace {

struct Message {
  GLenum source, type, severity;
  GLuint id;
  GLsizei length;
  std::string text;
  std::thread::id thread;
};

struct Recorder {
  std::vector<Message> messages;
  int depth = 0;
  bool reenter = false;  // the callback makes a bad GL call of its own (once)
};

void APIENTRY Record(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                     const GLchar* text, const void* user) {
  auto* r = static_cast<Recorder*>(const_cast<void*>(user));
  r->messages.push_back({source, type, severity, id, length, text ? text : "", std::this_thread::get_id()});
  if (r->reenter && r->depth == 0) {
    ++r->depth;
    glEnable(0xFFFF);  // another error while delivering one: must neither deadlock nor recurse forever
    glGetError();
    // Lookups of shared objects, while the call that made the error may be holding their table.
    glIsShader(1);
    glIsBuffer(1);
    glIsTexture(1);
    --r->depth;
  }
}

// The debug commands by name: desktop contexts use the core names, ES ones the KHR-suffixed names.
struct Api {
  PFNGLDEBUGMESSAGECALLBACKPROC Callback;
  PFNGLDEBUGMESSAGECONTROLPROC Control;
  PFNGLDEBUGMESSAGEINSERTPROC Insert;
  PFNGLGETDEBUGMESSAGELOGPROC GetLog;
  PFNGLPUSHDEBUGGROUPPROC Push;
  PFNGLPOPDEBUGGROUPPROC Pop;
  PFNGLOBJECTLABELPROC Label;
  PFNGLGETOBJECTLABELPROC GetLabel;
  PFNGLOBJECTPTRLABELPROC PtrLabel;
  PFNGLGETOBJECTPTRLABELPROC GetPtrLabel;
  PFNGLGETPOINTERVPROC GetPointer;
};

template <typename T>
T Load(const std::string& name) {
  auto p = reinterpret_cast<T>(eglGetProcAddress(name.c_str()));
  if (!p) std::fprintf(stderr, "  %s does not resolve\n", name.c_str());
  CHECK(p != nullptr);
  return p;
}

Api LoadApi(const char* suffix) {
  std::string s = suffix;
  return {Load<PFNGLDEBUGMESSAGECALLBACKPROC>("glDebugMessageCallback" + s),
          Load<PFNGLDEBUGMESSAGECONTROLPROC>("glDebugMessageControl" + s),
          Load<PFNGLDEBUGMESSAGEINSERTPROC>("glDebugMessageInsert" + s),
          Load<PFNGLGETDEBUGMESSAGELOGPROC>("glGetDebugMessageLog" + s),
          Load<PFNGLPUSHDEBUGGROUPPROC>("glPushDebugGroup" + s),
          Load<PFNGLPOPDEBUGGROUPPROC>("glPopDebugGroup" + s),
          Load<PFNGLOBJECTLABELPROC>("glObjectLabel" + s),
          Load<PFNGLGETOBJECTLABELPROC>("glGetObjectLabel" + s),
          Load<PFNGLOBJECTPTRLABELPROC>("glObjectPtrLabel" + s),
          Load<PFNGLGETOBJECTPTRLABELPROC>("glGetObjectPtrLabel" + s),
          Load<PFNGLGETPOINTERVPROC>("glGetPointerv" + s)};
}

bool caldera = false;

GLint GetInt(GLenum pname) {
  GLint v = -12345;
  glGetIntegerv(pname, &v);
  return v;
}

void Clean() {
  while (glGetError() != GL_NO_ERROR) {
  }
}

bool HasExtension(const char* name) {
  GLint n = GetInt(GL_NUM_EXTENSIONS);
  for (GLint i = 0; i < n; ++i)
    if (std::strcmp(reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i))), name) == 0)
      return true;
  return false;
}

// Empties the log (messages of earlier steps).
void DrainLog(const Api& api) {
  while (api.GetLog(64, 0, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr) > 0) {
  }
}

// A bad call reaches the callback as an API error that names its entry point, on this thread.
void CheckBadCall(const Api& api, Recorder& r) {
  r.messages.clear();
  glEnable(0xFFFF);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  CHECK(r.messages.size() == 1);
  if (r.messages.size() != 1) return;
  const Message& m = r.messages[0];
  std::printf("  bad call: source 0x%x type 0x%x id %u severity 0x%x '%s'\n", m.source, m.type, m.id,
              m.severity, m.text.c_str());
  CHECK(m.source == GL_DEBUG_SOURCE_API);
  CHECK(m.type == GL_DEBUG_TYPE_ERROR);
  CHECK(m.severity == GL_DEBUG_SEVERITY_HIGH);
  CHECK(m.text.find("glEnable") != std::string::npos);
  CHECK(m.length == GLsizei(m.text.size()));
  CHECK(m.thread == std::this_thread::get_id());
  if (caldera) CHECK(m.id == GL_INVALID_ENUM);  // Caldera's ids are the error codes (Mesa's are its own)
  // The same error again has the same id; a different entry point is named in its message.
  GLuint id = m.id;
  r.messages.clear();
  glEnable(0xFFFF);
  glGetError();
  CHECK(r.messages.size() == 1 && r.messages[0].id == id);
  r.messages.clear();
  glBindSampler(1u << 30, 0);  // unit past GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  CHECK(r.messages.size() == 1 && r.messages[0].text.find("glBindSampler") != std::string::npos);
  (void)api;
}

// Without a callback messages queue in the log, oldest first; a full log drops new ones.
void CheckLog(const Api& api) {
  api.Callback(nullptr, nullptr);
  DrainLog(api);
  CHECK(GetInt(GL_DEBUG_LOGGED_MESSAGES) == 0);
  CHECK(GetInt(GL_DEBUG_NEXT_LOGGED_MESSAGE_LENGTH) == 0);
  const char* texts[3] = {"first", "second message", "3"};
  for (GLuint i = 0; i < 3; ++i)
    api.Insert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, 100 + i, GL_DEBUG_SEVERITY_NOTIFICATION, -1,
               texts[i]);
  glEnable(0xFFFF);  // an error: logged after them
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  CHECK(GetInt(GL_DEBUG_LOGGED_MESSAGES) == 4);
  CHECK(GetInt(GL_DEBUG_NEXT_LOGGED_MESSAGE_LENGTH) == GLint(std::strlen(texts[0]) + 1));
  // A buffer too small for the second message: only the first comes back.
  GLenum sources[4], types[4], severities[4];
  GLuint ids[4];
  GLsizei lengths[4];
  char buf[512];
  GLuint got =
      api.GetLog(4, GLsizei(std::strlen(texts[0]) + 3), sources, types, ids, severities, lengths, buf);
  CHECK(got == 1);
  CHECK(ids[0] == 100 && lengths[0] == 6 && std::strcmp(buf, "first") == 0);
  CHECK(sources[0] == GL_DEBUG_SOURCE_APPLICATION && types[0] == GL_DEBUG_TYPE_MARKER &&
        severities[0] == GL_DEBUG_SEVERITY_NOTIFICATION);
  CHECK(GetInt(GL_DEBUG_LOGGED_MESSAGES) == 3);
  got = api.GetLog(4, sizeof(buf), sources, types, ids, severities, lengths, buf);
  CHECK(got == 3);
  if (got == 3) {
    CHECK(ids[0] == 101 && ids[1] == 102);
    CHECK(lengths[0] == GLsizei(std::strlen(texts[1]) + 1) && lengths[1] == 2);
    CHECK(std::strcmp(buf, texts[1]) == 0 && std::strcmp(buf + lengths[0], texts[2]) == 0);
    CHECK(sources[2] == GL_DEBUG_SOURCE_API && types[2] == GL_DEBUG_TYPE_ERROR &&
          severities[2] == GL_DEBUG_SEVERITY_HIGH);
    const char* error_text = buf + lengths[0] + lengths[1];
    CHECK(std::strstr(error_text, "glEnable") != nullptr);
    CHECK(lengths[2] == GLsizei(std::strlen(error_text) + 1));
  }
  CHECK(GetInt(GL_DEBUG_LOGGED_MESSAGES) == 0);
  // Overflow: the log keeps the first GL_MAX_DEBUG_LOGGED_MESSAGES.
  GLint max = GetInt(GL_MAX_DEBUG_LOGGED_MESSAGES);
  CHECK(max >= 1);
  for (GLint i = 0; i < max + 5; ++i)
    api.Insert(GL_DEBUG_SOURCE_THIRD_PARTY, GL_DEBUG_TYPE_OTHER, GLuint(1000 + i), GL_DEBUG_SEVERITY_MEDIUM,
               -1, "x");
  CHECK(GetInt(GL_DEBUG_LOGGED_MESSAGES) == max);
  std::vector<GLuint> all(size_t(max) + 5);
  got = api.GetLog(GLuint(all.size()), 0, nullptr, nullptr, all.data(), nullptr, nullptr, nullptr);
  CHECK(got == GLuint(max));
  CHECK(all[0] == 1000 && all[size_t(max) - 1] == GLuint(1000 + max - 1));
  // Errors of the command itself.
  api.GetLog(1, -1, nullptr, nullptr, nullptr, nullptr, nullptr, buf);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  DrainLog(api);
}

void CheckControl(const Api& api, Recorder& r) {
  api.Callback(Record, &r);
  auto insert = [&](GLenum type, GLuint id, GLenum severity) {
    api.Insert(GL_DEBUG_SOURCE_APPLICATION, type, id, severity, -1, "app");
  };
  // By type.
  api.Control(GL_DONT_CARE, GL_DEBUG_TYPE_ERROR, GL_DONT_CARE, 0, nullptr, GL_FALSE);
  r.messages.clear();
  glEnable(0xFFFF);
  CHECK_GL_ERROR(GL_INVALID_ENUM);  // filtered messages leave the error itself alone
  insert(GL_DEBUG_TYPE_OTHER, 5, GL_DEBUG_SEVERITY_HIGH);
  CHECK(r.messages.size() == 1 && r.messages[0].id == 5);
  api.Control(GL_DONT_CARE, GL_DEBUG_TYPE_ERROR, GL_DONT_CARE, 0, nullptr, GL_TRUE);
  r.messages.clear();
  glEnable(0xFFFF);
  glGetError();
  CHECK(r.messages.size() == 1);
  // By id list (one source and type).
  GLuint ids[2] = {7, 9};
  api.Control(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, GL_DONT_CARE, 2, ids, GL_FALSE);
  CHECK_GL_ERROR(GL_NO_ERROR);
  r.messages.clear();
  insert(GL_DEBUG_TYPE_MARKER, 7, GL_DEBUG_SEVERITY_HIGH);
  insert(GL_DEBUG_TYPE_MARKER, 8, GL_DEBUG_SEVERITY_HIGH);
  insert(GL_DEBUG_TYPE_MARKER, 9, GL_DEBUG_SEVERITY_NOTIFICATION);
  insert(GL_DEBUG_TYPE_OTHER, 7, GL_DEBUG_SEVERITY_HIGH);  // another type: not filtered
  CHECK(r.messages.size() == 2);
  if (r.messages.size() == 2) CHECK(r.messages[0].id == 8 && r.messages[1].id == 7);
  api.Control(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, GL_DONT_CARE, 2, ids, GL_TRUE);
  // By severity: low is off initially.
  r.messages.clear();
  insert(GL_DEBUG_TYPE_OTHER, 11, GL_DEBUG_SEVERITY_LOW);
  CHECK(r.messages.empty());
  api.Control(GL_DONT_CARE, GL_DONT_CARE, GL_DEBUG_SEVERITY_LOW, 0, nullptr, GL_TRUE);
  insert(GL_DEBUG_TYPE_OTHER, 12, GL_DEBUG_SEVERITY_LOW);
  CHECK(r.messages.size() == 1 && r.messages[0].id == 12);
  api.Control(GL_DONT_CARE, GL_DONT_CARE, GL_DEBUG_SEVERITY_LOW, 0, nullptr, GL_FALSE);
  // Everything off, then on again.
  api.Control(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, 0, nullptr, GL_FALSE);
  r.messages.clear();
  insert(GL_DEBUG_TYPE_OTHER, 13, GL_DEBUG_SEVERITY_HIGH);
  glEnable(0xFFFF);
  glGetError();
  CHECK(r.messages.empty());
  api.Control(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, 0, nullptr, GL_TRUE);
  api.Control(GL_DONT_CARE, GL_DONT_CARE, GL_DEBUG_SEVERITY_LOW, 0, nullptr, GL_FALSE);
  insert(GL_DEBUG_TYPE_OTHER, 14, GL_DEBUG_SEVERITY_HIGH);
  CHECK(r.messages.size() == 1);
  // The command's errors.
  api.Control(GL_DONT_CARE, GL_DEBUG_TYPE_MARKER, GL_DONT_CARE, 2, ids, GL_FALSE);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  api.Control(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, GL_DEBUG_SEVERITY_HIGH, 2, ids, GL_FALSE);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  api.Control(0x1234, GL_DONT_CARE, GL_DONT_CARE, 0, nullptr, GL_FALSE);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  api.Control(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, -1, nullptr, GL_FALSE);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
}

void CheckInsert(const Api& api, Recorder& r) {
  api.Callback(Record, &r);
  r.messages.clear();
  api.Insert(GL_DEBUG_SOURCE_THIRD_PARTY, GL_DEBUG_TYPE_PORTABILITY, 77, GL_DEBUG_SEVERITY_MEDIUM, 3,
             "abcdef");
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(r.messages.size() == 1);
  if (r.messages.size() == 1) {
    const Message& m = r.messages[0];
    CHECK(m.source == GL_DEBUG_SOURCE_THIRD_PARTY && m.type == GL_DEBUG_TYPE_PORTABILITY && m.id == 77 &&
          m.severity == GL_DEBUG_SEVERITY_MEDIUM && m.length == 3 && m.text.compare(0, 3, "abc") == 0);
    if (caldera) CHECK(m.text == "abc");  // Mesa hands the whole string with length 3
  }
  // Only application and third-party sources; too long; bad type or severity.
  r.messages.clear();
  api.Insert(GL_DEBUG_SOURCE_API, GL_DEBUG_TYPE_OTHER, 1, GL_DEBUG_SEVERITY_HIGH, -1, "x");
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  CHECK(r.messages.size() == 1 && r.messages[0].type == GL_DEBUG_TYPE_ERROR &&
        r.messages[0].text.find("glDebugMessageInsert") != std::string::npos);
  GLint max = GetInt(GL_MAX_DEBUG_MESSAGE_LENGTH);
  CHECK(max >= 1);
  std::string long_text(size_t(max), 'y');
  api.Insert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_OTHER, 1, GL_DEBUG_SEVERITY_HIGH, -1,
             long_text.c_str());
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  long_text.pop_back();  // max - 1 characters fit
  r.messages.clear();
  api.Insert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_OTHER, 2, GL_DEBUG_SEVERITY_HIGH, -1,
             long_text.c_str());
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(r.messages.size() == 1 && r.messages[0].length == max - 1);
  api.Insert(GL_DEBUG_SOURCE_APPLICATION, 0x1234, 1, GL_DEBUG_SEVERITY_HIGH, -1, "x");
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  api.Insert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_OTHER, 1, 0x1234, -1, "x");
  CHECK_GL_ERROR(GL_INVALID_ENUM);
}

void CheckGroups(const Api& api, Recorder& r) {
  api.Callback(Record, &r);
  CHECK(GetInt(GL_DEBUG_GROUP_STACK_DEPTH) == 1);
  r.messages.clear();
  api.Push(GL_DEBUG_SOURCE_APPLICATION, 42, -1, "outer");
  CHECK(GetInt(GL_DEBUG_GROUP_STACK_DEPTH) == 2);
  api.Push(GL_DEBUG_SOURCE_THIRD_PARTY, 43, 5, "innerXX");
  CHECK(GetInt(GL_DEBUG_GROUP_STACK_DEPTH) == 3);
  api.Pop();
  api.Pop();
  CHECK(GetInt(GL_DEBUG_GROUP_STACK_DEPTH) == 1);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(r.messages.size() == 4);
  if (r.messages.size() == 4) {
    const auto& m = r.messages;
    CHECK(m[0].type == GL_DEBUG_TYPE_PUSH_GROUP && m[0].source == GL_DEBUG_SOURCE_APPLICATION &&
          m[0].id == 42 && m[0].severity == GL_DEBUG_SEVERITY_NOTIFICATION && m[0].text == "outer");
    CHECK(m[1].type == GL_DEBUG_TYPE_PUSH_GROUP && m[1].source == GL_DEBUG_SOURCE_THIRD_PARTY &&
          m[1].id == 43 && m[1].length == 5 && m[1].text.compare(0, 5, "inner") == 0);
    CHECK(m[2].type == GL_DEBUG_TYPE_POP_GROUP && m[2].id == 43 &&
          m[2].source == GL_DEBUG_SOURCE_THIRD_PARTY);
    CHECK(m[3].type == GL_DEBUG_TYPE_POP_GROUP && m[3].id == 42 && m[3].text == "outer" &&
          m[3].severity == GL_DEBUG_SEVERITY_NOTIFICATION);
  }
  // Underflow.
  r.messages.clear();
  api.Pop();
  CHECK_GL_ERROR(GL_STACK_UNDERFLOW);
  CHECK(r.messages.size() == 1 && r.messages[0].type == GL_DEBUG_TYPE_ERROR &&
        r.messages[0].text.find("glPopDebugGroup") != std::string::npos);
  // Overflow: the default group counts.
  GLint max = GetInt(GL_MAX_DEBUG_GROUP_STACK_DEPTH);
  CHECK(max >= 64);
  for (GLint i = 1; i < max; ++i) api.Push(GL_DEBUG_SOURCE_APPLICATION, GLuint(i), -1, "g");
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(GetInt(GL_DEBUG_GROUP_STACK_DEPTH) == max);
  r.messages.clear();
  api.Push(GL_DEBUG_SOURCE_APPLICATION, 999, -1, "one too many");
  CHECK_GL_ERROR(GL_STACK_OVERFLOW);
  CHECK(r.messages.size() == 1 && r.messages[0].type == GL_DEBUG_TYPE_ERROR &&
        r.messages[0].text.find("glPushDebugGroup") != std::string::npos);
  for (GLint i = 1; i < max; ++i) api.Pop();
  CHECK(GetInt(GL_DEBUG_GROUP_STACK_DEPTH) == 1);
  CHECK_GL_ERROR(GL_NO_ERROR);
  api.Push(GL_DEBUG_SOURCE_API, 1, -1, "x");  // only application and third-party groups
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  // Filters are per group: one set inside a group ends with it.
  api.Push(GL_DEBUG_SOURCE_APPLICATION, 1, -1, "quiet");
  api.Control(GL_DONT_CARE, GL_DEBUG_TYPE_ERROR, GL_DONT_CARE, 0, nullptr, GL_FALSE);
  r.messages.clear();
  glEnable(0xFFFF);
  glGetError();
  CHECK(r.messages.empty());
  api.Pop();
  r.messages.clear();
  glEnable(0xFFFF);
  glGetError();
  CHECK(r.messages.size() == 1 && r.messages[0].type == GL_DEBUG_TYPE_ERROR);
}

// Label round trip for one object: set, read whole, truncated, length only, remove.
void CheckLabel(const Api& api, GLenum identifier, GLuint name, const char* what) {
  std::printf("  label: %s\n", what);
  api.Label(identifier, name, -1, "label-of-object");
  CHECK_GL_ERROR(GL_NO_ERROR);
  char buf[64] = {};
  GLsizei length = -1;
  api.GetLabel(identifier, name, sizeof(buf), &length, buf);
  CHECK(length == 15 && std::strcmp(buf, "label-of-object") == 0);
  api.GetLabel(identifier, name, 4, &length, buf);
  CHECK(length == 3 && std::strcmp(buf, "lab") == 0);
  api.GetLabel(identifier, name, 0, &length, nullptr);
  CHECK(length == 15);
  api.Label(identifier, name, 5, "label-of-object");  // an explicit length
  api.GetLabel(identifier, name, sizeof(buf), &length, buf);
  CHECK(length == 5 && std::strcmp(buf, "label") == 0);
  api.Label(identifier, name, 0, nullptr);  // removes it
  api.GetLabel(identifier, name, sizeof(buf), &length, buf);
  CHECK(length == 0 && buf[0] == '\0');
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void CheckLabels(const Api& api, bool es) {
  GLuint buffer, texture, vao, fbo, rbo, sampler, query, xfb;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  CheckLabel(api, GL_BUFFER, buffer, "buffer");
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  CheckLabel(api, GL_TEXTURE, texture, "texture");
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  CheckLabel(api, GL_VERTEX_ARRAY, vao, "vertex array");
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  CheckLabel(api, GL_FRAMEBUFFER, fbo, "framebuffer");
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glGenRenderbuffers(1, &rbo);
  glBindRenderbuffer(GL_RENDERBUFFER, rbo);
  CheckLabel(api, GL_RENDERBUFFER, rbo, "renderbuffer");
  glGenSamplers(1, &sampler);
  CheckLabel(api, GL_SAMPLER, sampler, "sampler");
  glGenQueries(1, &query);
  glBeginQuery(GL_ANY_SAMPLES_PASSED, query);
  glEndQuery(GL_ANY_SAMPLES_PASSED);
  CheckLabel(api, GL_QUERY, query, "query");
  glGenTransformFeedbacks(1, &xfb);
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, xfb);
  CheckLabel(api, GL_TRANSFORM_FEEDBACK, xfb, "transform feedback");
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
  GLuint shader = glCreateShader(GL_VERTEX_SHADER);
  CheckLabel(api, GL_SHADER, shader, "shader");
  GLuint program = glCreateProgram();
  CheckLabel(api, GL_PROGRAM, program, "program");
  // Labels are per object: two objects keep their own.
  api.Label(GL_BUFFER, buffer, -1, "B");
  api.Label(GL_TEXTURE, texture, -1, "T");
  char buf[16];
  GLsizei length = 0;
  api.GetLabel(GL_BUFFER, buffer, sizeof(buf), &length, buf);
  CHECK(std::strcmp(buf, "B") == 0);
  // Errors: wrong kind for the name, no such name, unknown identifier, too long, negative bufSize.
  api.Label(GL_SHADER, program, -1, "x");
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  api.Label(GL_BUFFER, 4242, -1, "x");
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  api.Label(0x1234, buffer, -1, "x");
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  GLint max = GetInt(GL_MAX_LABEL_LENGTH);
  CHECK(max >= 256);
  std::string long_label(size_t(max), 'z');
  api.Label(GL_BUFFER, buffer, -1, long_label.c_str());
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  api.GetLabel(GL_BUFFER, buffer, sizeof(buf), &length, buf);
  // A command that records an error has no effect (GL 4.6 2.3.1); Mesa 22.3 stores the long label anyway.
  if (caldera) CHECK(std::strcmp(buf, "B") == 0);
  long_label.pop_back();
  api.Label(GL_BUFFER, buffer, -1, long_label.c_str());
  CHECK_GL_ERROR(GL_NO_ERROR);
  api.GetLabel(GL_BUFFER, buffer, 0, &length, nullptr);
  CHECK(length == max - 1);
  api.GetLabel(GL_BUFFER, buffer, -1, &length, buf);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  // A deleted object's name is no object.
  glDeleteBuffers(1, &buffer);
  api.GetLabel(GL_BUFFER, buffer, sizeof(buf), &length, buf);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  // Syncs by pointer.
  GLsync sync = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  api.PtrLabel(sync, -1, "fence");
  CHECK_GL_ERROR(GL_NO_ERROR);
  char sbuf[16] = {};
  api.GetPtrLabel(sync, sizeof(sbuf), &length, sbuf);
  CHECK(length == 5 && std::strcmp(sbuf, "fence") == 0);
  api.GetPtrLabel(sync, 3, &length, sbuf);
  CHECK(length == 2 && std::strcmp(sbuf, "fe") == 0);
  api.PtrLabel(reinterpret_cast<void*>(uintptr_t(0x10)), -1, "x");
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glDeleteSync(sync);
  api.GetPtrLabel(sync, sizeof(sbuf), &length, sbuf);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glDeleteTextures(1, &texture);
  glDeleteVertexArrays(1, &vao);
  glDeleteFramebuffers(1, &fbo);
  glDeleteRenderbuffers(1, &rbo);
  glDeleteSamplers(1, &sampler);
  glDeleteQueries(1, &query);
  glDeleteTransformFeedbacks(1, &xfb);
  glDeleteShader(shader);
  glDeleteProgram(program);
  if (!es) glBindVertexArray(0);
}

void CheckShaderCompiler(const Api& api, Recorder& r, bool es) {
  api.Callback(Record, &r);
  r.messages.clear();
  GLuint s = glCreateShader(GL_FRAGMENT_SHADER);
  const char* src = es ? "#version 300 es\nvoid main() { undeclared_name; }\n"
                       : "#version 330 core\nvoid main() { undeclared_name; }\n";
  glShaderSource(s, 1, &src, nullptr);
  glCompileShader(s);
  GLint ok = 1;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  CHECK(ok == 0);
  bool found = false;
  for (const auto& m : r.messages)
    if (m.source == GL_DEBUG_SOURCE_SHADER_COMPILER && m.type == GL_DEBUG_TYPE_ERROR &&
        m.text.find("undeclared_name") != std::string::npos)
      found = true;
  CHECK(found);
  glDeleteShader(s);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void CheckPointers(const Api& api, Recorder& r) {
  api.Callback(Record, &r);
  void* p = nullptr;
  api.GetPointer(GL_DEBUG_CALLBACK_FUNCTION, &p);
  CHECK(p == reinterpret_cast<void*>(&Record));
  api.GetPointer(GL_DEBUG_CALLBACK_USER_PARAM, &p);
  CHECK(p == &r);
  CHECK_GL_ERROR(GL_NO_ERROR);
  api.GetPointer(0x808E /* GL_VERTEX_ARRAY_POINTER: compatibility profile only */, &p);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  api.Label(0x82E7 /* GL_DISPLAY_LIST: likewise */, 1, -1, "x");
  CHECK_GL_ERROR(GL_INVALID_ENUM);
}

// A callback that makes a bad GL call itself: the call returns, the outer message arrives once, and the
// inner one goes somewhere (Caldera: the log; Mesa: the callback again).
void CheckReentrancy(const Api& api, Recorder& r) {
  api.Callback(Record, &r);
  DrainLog(api);
  r.messages.clear();
  r.reenter = true;
  glEnable(0xFFFF);
  r.reenter = false;
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  CHECK(!r.messages.empty());
  GLuint logged = api.GetLog(8, 0, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
  std::printf("  re-entrant error: %zu to the callback, %u to the log\n", r.messages.size(), logged);
  CHECK(r.messages.size() + logged == 2);
  // An error found while a shared-object table is looked up (glCompileShader of no shader).
  r.messages.clear();
  r.reenter = true;
  glCompileShader(4242);
  r.reenter = false;
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  logged = api.GetLog(8, 0, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
  CHECK(!r.messages.empty() && r.messages[0].text.find("glCompileShader") != std::string::npos);
  CHECK(r.messages.size() + logged == 2);
}

// Performance warnings (Caldera's own, so checked on Caldera only): a glReadPixels that converts pixel by
// pixel says so. RGBA8 to GL_RGBA / GL_UNSIGNED_BYTE has a row conversion, unless CALDERA_PIXEL_ROW_COPY=0
// (run gl-debug-output-caldera-general-pixels) forces the general path.
void CheckPerformance(const Api& api, Recorder& r) {
  api.Callback(Record, &r);
  r.messages.clear();
  std::vector<uint8_t> px(16 * 16 * 4);
  glReadPixels(0, 0, 16, 16, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  CHECK_GL_ERROR(GL_NO_ERROR);
  size_t perf = 0;
  for (const auto& m : r.messages)
    if (m.type == GL_DEBUG_TYPE_PERFORMANCE && m.text.find("glReadPixels") != std::string::npos) ++perf;
  const char* row_copy = std::getenv("CALDERA_PIXEL_ROW_COPY");
  size_t want = row_copy && std::strcmp(row_copy, "0") == 0 ? 1 : 0;
  std::printf("  performance messages for glReadPixels: %zu\n", perf);
  if (caldera) CHECK(perf == want);
}

// State Caldera tracks but does not render with is reported (Caldera only): GL_POLYGON_SMOOTH (desktop).
void CheckNotRendered(const Api& api, Recorder& r) {
  api.Callback(Record, &r);
  r.messages.clear();
  glEnable(GL_POLYGON_SMOOTH);
  glDisable(GL_POLYGON_SMOOTH);
  CHECK_GL_ERROR(GL_NO_ERROR);
  size_t notes = 0;
  for (const auto& m : r.messages)
    if (m.type == GL_DEBUG_TYPE_OTHER && m.text.find("GL_POLYGON_SMOOTH") != std::string::npos) ++notes;
  std::printf("  GL_POLYGON_SMOOTH notes: %zu\n", notes);
  if (caldera) CHECK(notes == 1);
}

// Everything that needs debug output on, in the current context.
void RunSuite(const Api& api, bool es) {
  Recorder r;
  Clean();
  api.Callback(Record, &r);
  CheckBadCall(api, r);
  CheckLog(api);
  CheckControl(api, r);
  CheckInsert(api, r);
  CheckGroups(api, r);
  CheckLabels(api, es);
  CheckShaderCompiler(api, r, es);
  CheckPointers(api, r);
  CheckPerformance(api, r);
  if (!es) CheckNotRendered(api, r);
  CheckReentrancy(api, r);
  api.Callback(nullptr, nullptr);
  Clean();
}

// A non-debug context: GL_DEBUG_OUTPUT starts disabled and nothing is delivered until it is enabled.
void CheckDisabledByDefault(const Api& api) {
  Recorder r;
  CHECK((GetInt(GL_CONTEXT_FLAGS) & GL_CONTEXT_FLAG_DEBUG_BIT) == 0);
  CHECK(!glIsEnabled(GL_DEBUG_OUTPUT));
  CHECK(!glIsEnabled(GL_DEBUG_OUTPUT_SYNCHRONOUS));
  api.Callback(Record, &r);
  glEnable(0xFFFF);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  api.Insert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_OTHER, 1, GL_DEBUG_SEVERITY_HIGH, -1, "x");
  CHECK(r.messages.empty());
  api.Callback(nullptr, nullptr);
  glEnable(0xFFFF);
  glGetError();
  CHECK(GetInt(GL_DEBUG_LOGGED_MESSAGES) == 0);
  // Enabled: the same call delivers (the control: a callback that never fires fails here).
  glEnable(GL_DEBUG_OUTPUT);
  CHECK(glIsEnabled(GL_DEBUG_OUTPUT));
  GLboolean b = GL_FALSE;
  glGetBooleanv(GL_DEBUG_OUTPUT, &b);
  CHECK(b == GL_TRUE);
  api.Callback(Record, &r);
  glEnable(0xFFFF);
  glGetError();
  CHECK(r.messages.size() == 1);
  // And disabled again: silent again, while the error itself is still recorded.
  glDisable(GL_DEBUG_OUTPUT);
  r.messages.clear();
  glEnable(0xFFFF);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  CHECK(r.messages.empty());
  glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  CHECK(glIsEnabled(GL_DEBUG_OUTPUT_SYNCHRONOUS));
  glDisable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  api.Callback(nullptr, nullptr);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void CheckLimits() {
  CHECK(GetInt(GL_MAX_DEBUG_MESSAGE_LENGTH) >= 1);
  CHECK(GetInt(GL_MAX_DEBUG_LOGGED_MESSAGES) >= 1);
  CHECK(GetInt(GL_MAX_DEBUG_GROUP_STACK_DEPTH) >= 64);
  CHECK(GetInt(GL_MAX_LABEL_LENGTH) >= 256);
  CHECK(GetInt(GL_DEBUG_GROUP_STACK_DEPTH) == 1);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// A compatibility-profile context: display lists take labels, glGetPointerv knows the client arrays.
void CheckCompatibility(const Api& api) {
  using GenLists = GLuint(APIENTRY*)(GLsizei);
  using NewList = void(APIENTRY*)(GLuint, GLenum);
  using EndList = void(APIENTRY*)();
  auto gen_lists = Load<GenLists>("glGenLists");
  auto new_list = Load<NewList>("glNewList");
  auto end_list = Load<EndList>("glEndList");
  if (!gen_lists || !new_list || !end_list) return;
  GLuint list = gen_lists(1);
  new_list(list, 0x1300 /* GL_COMPILE */);
  end_list();
  CheckLabel(api, 0x82E7 /* GL_DISPLAY_LIST */, list, "display list");
  api.Label(0x82E7, list + 100, -1, "x");
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  int sentinel = 0;
  void* p = &sentinel;  // overwritten: no client array was given
  api.GetPointer(0x808E /* GL_VERTEX_ARRAY_POINTER */, &p);
  CHECK(p == nullptr);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

}  // namespace

int main() {
  harness::Window w = harness::Open(16, 16);
  caldera = harness::PrintVendor().find("Caldera") != std::string::npos;
  Api api = LoadApi("");
  CHECK(HasExtension("GL_KHR_debug"));
  CHECK(HasExtension("GL_ARB_debug_output"));
  // The ARB names are the same commands.
  auto arb_insert = Load<PFNGLDEBUGMESSAGEINSERTARBPROC>("glDebugMessageInsertARB");
  Load<PFNGLDEBUGMESSAGECALLBACKARBPROC>("glDebugMessageCallbackARB");
  Load<PFNGLDEBUGMESSAGECONTROLARBPROC>("glDebugMessageControlARB");
  Load<PFNGLGETDEBUGMESSAGELOGARBPROC>("glGetDebugMessageLogARB");
  std::printf("desktop, no debug flag\n");
  CheckLimits();
  CheckDisabledByDefault(api);

  std::printf("desktop, debug context\n");
  const EGLint debug_attribs[] = {EGL_CONTEXT_OPENGL_DEBUG, EGL_TRUE, EGL_NONE};
  EGLContext debug = harness::CreateContext(w, EGL_NO_CONTEXT, debug_attribs);
  CHECK(eglMakeCurrent(w.display, w.surface, w.surface, debug));
  CHECK((GetInt(GL_CONTEXT_FLAGS) & GL_CONTEXT_FLAG_DEBUG_BIT) != 0);
  CHECK(glIsEnabled(GL_DEBUG_OUTPUT));
  // A debug context logs from the start, with no callback set.
  glEnable(0xFFFF);
  glGetError();
  CHECK(GetInt(GL_DEBUG_LOGGED_MESSAGES) == 1);
  DrainLog(api);
  if (arb_insert) {
    arb_insert(GL_DEBUG_SOURCE_APPLICATION_ARB, GL_DEBUG_TYPE_OTHER_ARB, 5, GL_DEBUG_SEVERITY_HIGH_ARB, -1,
               "arb");
    CHECK(GetInt(GL_DEBUG_LOGGED_MESSAGES) == 1);
    DrainLog(api);
  }
  RunSuite(api, false);
  CHECK(eglMakeCurrent(w.display, w.surface, w.surface, w.context));
  eglDestroyContext(w.display, debug);
  harness::Close(w);

  std::printf("compatibility profile\n");
  harness::Window compat = harness::Open(16, 16, false, true);
  CheckCompatibility(api);
  harness::Close(compat);

  std::printf("ES 3.0, KHR names\n");
  harness::Window es = harness::Open(16, 16, true);
  CHECK(HasExtension("GL_KHR_debug"));
  Api khr = LoadApi("KHR");
  CheckLimits();
  CHECK(!glIsEnabled(GL_DEBUG_OUTPUT));
  glEnable(GL_DEBUG_OUTPUT);
  CHECK_GL_ERROR(GL_NO_ERROR);
  RunSuite(khr, true);
  harness::Close(es);
  return harness::Summary();
}
