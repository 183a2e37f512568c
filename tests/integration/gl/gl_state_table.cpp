// The state table (src/frontend/state_table.txt) walked row by row, in the context kind named on the
// command line (core, compat, es):
//   - every row's default reads back through glGetIntegerv / glGetFloatv / glGetBooleanv / glGetInteger64v
//     (and glIsEnabled for caps);
//   - the row's change (a cap toggled, the row's call) raises no error and reads back;
//   - with --redraws (Caldera, core): each row in a fresh context, a draw, the change, a draw, the same change
//     again, a draw: the draws must re-send the fixed state exactly as often as the row's dirty column says
//     (CALDERA_STATS "fixed_state_records"): once for the first draw, once more for a real change of a state a
//     draw sends, never for a call that changes nothing. The same for the vertex input
//     ("vertex_input_records"): a repeated glVertexAttribPointer and glBufferData on a buffer the vertex
//     array does not read re-send nothing; new storage for a buffer it reads and a new stride do.
// Run on Mesa llvmpipe too (without --redraws), so the defaults and read-backs are GL's, not Caldera's.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "gl_harness.h"
#include "state_table_test_gen.h"

namespace {

using state_table_test::Redraw;
using state_table_test::StateRow;

bool Near(double a, double b) {
  return std::fabs(a - b) <= 1e-4 * std::max(1.0, std::fabs(b));
}

bool InKind(const StateRow& r, bool es) {
  return r.es || !es;
}

// Reads `r` through every typed getter and compares with `want`; prints what differs.
bool ReadsBack(const StateRow& r, const double* want, const char* when) {
  GLint ints[4] = {};
  GLfloat floats[4] = {};
  GLboolean bools[4] = {};
  GLint64 int64s[4] = {};
  glGetIntegerv(r.pname, ints);
  glGetFloatv(r.pname, floats);
  glGetBooleanv(r.pname, bools);
  glGetInteger64v(r.pname, int64s);
  GLboolean enabled = r.cap ? glIsEnabled(r.pname) : GL_FALSE;
  GLenum error = glGetError();
  bool ok = error == GL_NO_ERROR;
  for (int i = 0; i < r.count; ++i) {
    const double w = want[i];
    // Integer getters map normalised values onto the integer range and round other floats (GL 4.6
    // §2.2.2): those are compared through the float getter only.
    const bool fractional = r.normalized || std::fabs(w - std::round(w)) > 1e-6;
    if (!Near(floats[i], w)) ok = false;
    if (!fractional && (ints[i] != GLint(std::llround(w)) || int64s[i] != GLint64(std::llround(w)))) ok = false;
    if (bools[i] != (w != 0.0 ? GL_TRUE : GL_FALSE)) ok = false;
  }
  if (r.cap && enabled != (want[0] != 0.0 ? GL_TRUE : GL_FALSE)) ok = false;
  if (!ok) {
    std::fprintf(stderr, "  %s %s: error 0x%04x", r.name, when, error);
    for (int i = 0; i < r.count; ++i)
      std::fprintf(stderr, " [%d] want %g, got int %d float %g bool %d int64 %lld", i, want[i], ints[i],
                   double(floats[i]), bools[i], static_cast<long long>(int64s[i]));
    if (r.cap) std::fprintf(stderr, " glIsEnabled %d", enabled);
    std::fprintf(stderr, "\n");
  }
  return ok;
}

void Change(const StateRow& r) {
  if (!r.cap) return r.change();
  if (r.values[0] != 0.0)
    glEnable(r.pname);
  else
    glDisable(r.pname);
}

// Mesa 22.3's ES contexts take GL_DEPTH_CLAMP_EXT in glEnable and glIsEnabled but not in glGet*, which
// GL_EXT_depth_clamp also names: that row is left out there.
bool MesaDiffers(const StateRow& r, bool es, bool mesa) {
  return mesa && es && r.pname == GL_DEPTH_CLAMP;
}

void CheckDefaultsAndChanges(bool es, bool mesa) {
  int rows = 0;
  for (const StateRow& r : state_table_test::kRows) {
    if (!InKind(r, es) || !r.has_default || MesaDiffers(r, es, mesa)) continue;
    CHECK(ReadsBack(r, r.defaults, "default"));
    ++rows;
  }
  int changes = 0;
  for (const StateRow& r : state_table_test::kRows) {
    if (!InKind(r, es) || MesaDiffers(r, es, mesa)) continue;
    ++changes;
    while (glGetError() != GL_NO_ERROR) {
    }
    Change(r);
    GLenum error = glGetError();
    if (error != GL_NO_ERROR) std::fprintf(stderr, "  %s: the change raised 0x%04x\n", r.name, error);
    CHECK(error == GL_NO_ERROR);
    CHECK(ReadsBack(r, r.values, "after the change"));
  }
  std::printf("%d defaults and %d changes read back\n", rows, changes);
}

// Rows that ES 3.0 contexts do not have are GL_INVALID_ENUM there (not silently some value). Caldera only:
// Mesa makes ES 3.2 contexts, which have some of them (GL_SAMPLE_MASK), and accepts others.
void CheckMissingInES() {
  for (const StateRow& r : state_table_test::kRows) {
    if (r.es) continue;
    GLint v[4];
    glGetIntegerv(r.pname, v);
    GLenum error = glGetError();
    if (error != GL_INVALID_ENUM) std::fprintf(stderr, "  %s on ES: 0x%04x, not GL_INVALID_ENUM\n", r.name, error);
    CHECK(error == GL_INVALID_ENUM);
  }
}

// Runs `draws` in a new context of its own (sharing `w`'s objects) with `program` and a new vertex array bound,
// and returns how much the context's destruction added to each CALDERA_STATS counter of `keys`: one stats
// line per call.
template <typename Draws>
std::vector<long> CountInOwnContext(const harness::Window& w, const harness::StatsFile& stats, GLuint program,
                                    std::initializer_list<const char*> keys, Draws&& draws) {
  EGLContext c = harness::CreateContext(w, w.context);
  CHECK(eglMakeCurrent(w.display, w.surface, w.surface, c) == EGL_TRUE);
  GLuint vao = 0;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glUseProgram(program);
  draws();
  glFinish();
  CHECK(glGetError() == GL_NO_ERROR);
  std::vector<long> counts;
  for (const char* key : keys) counts.push_back(stats.Sum(key));
  CHECK(eglMakeCurrent(w.display, w.surface, w.surface, w.context) == EGL_TRUE);
  CHECK(eglDestroyContext(w.display, c) == EGL_TRUE);
  size_t i = 0;
  for (const char* key : keys) counts[i] = stats.Sum(key) - counts[i], ++i;
  return counts;
}

void CheckVertexInputRedraws(const harness::Window& w, const harness::StatsFile& stats, GLuint program) {
  const std::vector<long> counts =
      CountInOwnContext(w, stats, program, {"vertex_input_records", "fast_path_hits"}, [] {
    GLuint buffers[2] = {};
    glGenBuffers(2, buffers);
    const float xy[8] = {0, 0, 1, 0, 0, 1, 1, 1};
    for (GLuint b : buffers) {
      glBindBuffer(GL_ARRAY_BUFFER, b);
      glBufferData(GL_ARRAY_BUFFER, sizeof(xy), xy, GL_STATIC_DRAW);
    }
    glBindBuffer(GL_ARRAY_BUFFER, buffers[0]);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 8, nullptr);
    glEnableVertexAttribArray(0);
    glDrawArrays(GL_POINTS, 0, 4);  // sends the vertex input: 1
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 8, nullptr);
    glDrawArrays(GL_POINTS, 0, 4);  // the same pointer: nothing (fast path: a vertex-array entry only)
    glBindBuffer(GL_ARRAY_BUFFER, buffers[1]);
    glBufferData(GL_ARRAY_BUFFER, sizeof(xy), xy, GL_STATIC_DRAW);
    glDrawArrays(GL_POINTS, 0, 4);  // a buffer the vertex array does not read: nothing
    glBindBuffer(GL_ARRAY_BUFFER, buffers[0]);
    glBufferData(GL_ARRAY_BUFFER, sizeof(xy), xy, GL_STATIC_DRAW);
    glDrawArrays(GL_POINTS, 0, 4);  // new storage behind attribute 0: 2
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    glDrawArrays(GL_POINTS, 0, 4);  // a new stride: 3 (fast path: a vertex-array entry only)
  });
  std::printf("vertex input: %ld records for 5 draws, want 3; %ld fast-path draws, want 2\n", counts[0],
              counts[1]);
  CHECK(counts[0] == 3);
  // Entries that change only a vertex array leave the draw on the fast path (Context::vao_epoch); the
  // buffer calls between are not (glBindBuffer is context state, glBufferData a shared object's).
  CHECK(counts[1] == 2);
}

void CheckRedraws(const harness::Window& w, const harness::StatsFile& stats) {
  const GLuint program = harness::CompileProgram(
      "#version 330 core\nvoid main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); gl_PointSize = 1.0; }\n",
      "#version 330 core\nout vec4 color;\nvoid main() { color = vec4(1.0); }\n");
  int wrong = 0;
  for (const StateRow& r : state_table_test::kRows) {
    const long records = CountInOwnContext(w, stats, program, {"fixed_state_records"}, [&r] {
      glDrawArrays(GL_POINTS, 0, 1);  // sends everything
      Change(r);
      glDrawArrays(GL_POINTS, 0, 1);  // re-sends what the change moved
      Change(r);
      glDrawArrays(GL_POINTS, 0, 1);  // nothing moved: nothing re-sent
    })[0];
    // Conditional rows (the logic op's operation) change what a draw sends only while their enable is on,
    // which it is not in a new context.
    const long want = r.redraw == Redraw::kFixedState ? 2 : 1;
    if (records != want) {
      std::fprintf(stderr, "  %s: %ld fixed-state records for draw, change, draw, same change, draw; want %ld\n",
                   r.name, records, want);
      ++wrong;
    }
  }
  std::printf("redraws: %zu rows, %d wrong\n", std::size(state_table_test::kRows), wrong);
  CHECK(wrong == 0);
  CheckVertexInputRedraws(w, stats, program);
}

}  // namespace

int main(int argc, char** argv) {
  std::string kind = "core";
  bool redraws = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--redraws")) redraws = true;
    else kind = argv[i];
  }
  const bool es = kind == "es";
  // Before the display opens: Caldera reads CALDERA_STATS when a context is destroyed.
  harness::StatsFile stats;
  harness::Window w = harness::Open(64, 64, es, kind == "compat");
  glGetError();
  const std::string vendor = reinterpret_cast<const char*>(glGetString(GL_VENDOR));
  const bool mesa = vendor.find("Caldera") == std::string::npos;
  harness::PrintVendor();
  CheckDefaultsAndChanges(es, mesa);
  if (es && !mesa) CheckMissingInES();
  if (redraws) CheckRedraws(w, stats);
  harness::Close(w);
  return harness::Summary();
}
