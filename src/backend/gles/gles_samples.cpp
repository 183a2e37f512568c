// GL_SAMPLES_PASSED on a GLES host, which only answers "any samples passed". While such a query is active,
// draws use a variant of their program whose fragment shader ends by incrementing an atomic counter; with
// early fragment tests the increment happens only for fragments that passed the depth and stencil tests,
// which is exactly the count GL defines (single-sampled targets: one sample per fragment). Shaders that
// write gl_FragDepth or discard cannot take early tests without changing their results; for them the
// count includes fragments the depth/stencil tests later reject (docs/GLES-BACKEND.md), logged once.
#include <string>

#include "backend/gles/gles_context.h"
#include "util/log.h"

namespace caldera::gles {
namespace {

constexpr const char* kUserMain = "void main()";

bool MakeCountingFragment(std::string* source) {
  size_t at = source->find(kUserMain);
  if (at == std::string::npos) return false;
  bool early =
      source->find("gl_FragDepth") == std::string::npos && source->find("discard") == std::string::npos;
  if (!early)
    util::LogOnce(util::LogLevel::kWarning, "GL_SAMPLES_PASSED",
                  "GLES backend: a fragment shader that discards or writes depth is counted before the depth "
                  "and stencil tests");
  source->replace(at, std::string(kUserMain).size(), "void caldera_user_main()");
  *source += early ? "layout(early_fragment_tests) in;\n" : "";
  *source +=
      "layout(binding = 0, offset = 0) uniform highp atomic_uint caldera_samples_passed;\n"
      "void main()\n{\n    caldera_user_main();\n    atomicCounterIncrement(caldera_samples_passed);\n}\n";
  return true;
}

}  // namespace

GLuint Context::CountingProgram(ProgramObject& program) {
  if (program.counting_program || program.counting_failed) return program.counting_program;
  std::string essl[3] = {program.essl[0], program.essl[1], program.essl[2]};
  std::string log;
  if (MakeCountingFragment(&essl[1]))
    program.counting_program = LinkHostProgram(gl_, essl, &log, program.xfb_outputs, program.xfb_separate);
  if (!program.counting_program) {
    program.counting_failed = true;
    util::LogOnce(
        util::LogLevel::kError, "GL_SAMPLES_PASSED",
        "GLES backend: the sample-counting program variant failed; this query counts nothing: " + log);
  }
  return program.counting_program;
}

void Context::BeginSampleCount(uint64_t id) {
  Query q;
  q.kind = pipe::QueryKind::kSamplesPassed;
  gl_.GenQueries(1, &q.name);
  gl_.GenBuffers(1, &q.counter_buffer);
  const GLuint zero = 0;
  gl_.BindBufferBase(GL_ATOMIC_COUNTER_BUFFER, 0, q.counter_buffer);
  gl_.BufferData(GL_ATOMIC_COUNTER_BUFFER, sizeof(zero), &zero, GL_DYNAMIC_READ);
  gl_.BeginQuery(GL_ANY_SAMPLES_PASSED, q.name);  // its availability says when the count is final
  queries_[id] = q;
  counting_samples_ = true;
}

bool Context::ReadSampleCount(GLuint counter_buffer, bool ready, GLuint availability_query,
                              uint64_t* result) {
  if (!ready) return false;
  GLuint any = 0;
  gl_.GetQueryObjectuiv(availability_query, GL_QUERY_RESULT, &any);  // waits for the query's draws
  gl_.MemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_ATOMIC_COUNTER_BARRIER_BIT);
  gl_.BindBuffer(GL_ATOMIC_COUNTER_BUFFER, counter_buffer);
  GLuint count = 0;
  if (void* p = gl_.MapBufferRange(GL_ATOMIC_COUNTER_BUFFER, 0, sizeof(count), GL_MAP_READ_BIT)) {
    count = *static_cast<const GLuint*>(p);
    gl_.UnmapBuffer(GL_ATOMIC_COUNTER_BUFFER);
  }
  *result = any ? count : 0;
  return true;
}

}  // namespace caldera::gles
