// Backend selection and the GLES backend's state shadow, through glvnd like any application.
//   backend_select renderer <substring>   eglInitialize succeeds and GL_RENDERER contains <substring>;
//                                          a clear reads back exactly.
//   backend_select no-device              eglInitialize fails with EGL_NOT_INITIALIZED (no crash, no hang).
//   backend_select uniform-ring <stats-file>
//                                          GLES backend: 16 draws with different uniform values render the
//                                          right colours and go through the uniform ring (16 ring writes,
//                                          one orphan); fails when the ring is switched off.
//   backend_select shadow <stats-file>    GLES backend: a draw whose fixed state differs from the previous
//                                          one in one value issues exactly one host state call; the rest of
//                                          the (re-sent) state matches the shadow and is skipped.
#include <cstring>
#include <fstream>
#include <string>

#include "gl_harness.h"

namespace {

int Renderer(const char* expect) {
  harness::Window w = harness::Open(16, 16);
  const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  std::printf("GL_RENDERER %s\n", renderer ? renderer : "(null)");
  CHECK(renderer && std::strstr(renderer, expect));
  glClearColor(0.0f, 1.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  auto px = harness::ReadRGBA(16, 16);
  CHECK(px[0] == 0 && px[1] == 255 && px[2] == 0 && px[3] == 255);
  harness::Close(w);
  return harness::Summary();
}

int NoDevice() {
  EGLDisplay d = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  CHECK(d != EGL_NO_DISPLAY);
  EGLint major = 0, minor = 0;
  EGLBoolean ok = eglInitialize(d, &major, &minor);
  EGLint error = eglGetError();
  std::printf("eglInitialize -> %d, error 0x%x\n", ok, error);
  CHECK(ok == EGL_FALSE);
  CHECK(error == EGL_NOT_INITIALIZED);
  return harness::Summary();
}

// One counter of every context run so far (one JSON line each).
std::vector<long> StatsCounter(const char* stats_path, const char* name) {
  std::vector<long> calls;
  std::ifstream in(stats_path);
  std::string line;
  const std::string key = std::string("\"") + name + "\": ";
  while (std::getline(in, line)) {
    size_t at = line.find(key);
    if (at != std::string::npos) calls.push_back(std::stol(line.substr(at + key.size())));
  }
  return calls;
}

// A window-covering triangle (2D positions at location 0) drawn by a program with fragment shader `fs`;
// the objects are deleted by ~FullTriangle.
struct FullTriangle {
  GLuint prog = 0, vao = 0, vbo = 0;
  explicit FullTriangle(const char* fs) {
    const char* vs =
        "#version 330 core\nlayout(location=0) in vec2 p;\nvoid main(){gl_Position=vec4(p,0,1);}\n";
    prog = harness::CompileProgram(vs, fs);
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    const float tri[] = {-1, -1, 3, -1, -1, 3};
    glBufferData(GL_ARRAY_BUFFER, sizeof(tri), tri, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    glEnableVertexAttribArray(0);
    glUseProgram(prog);
  }
  ~FullTriangle() {
    glDeleteBuffers(1, &vbo);
    glDeleteVertexArrays(1, &vao);
    glDeleteProgram(prog);
  }
};

// Draws a triangle `extra` more times after the first, each time changing only the blend colour while
// re-setting every other piece of state to the value it already has.
void DrawFrame(int extra) {
  harness::Window w = harness::Open(32, 32);
  {
    FullTriangle tri("#version 330 core\nout vec4 c;\nvoid main(){c=vec4(1,0,0,1);}\n");
    glEnable(GL_BLEND);
    glBlendFunc(GL_CONSTANT_COLOR, GL_ZERO);
    glBlendColor(1, 1, 1, 1);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    for (int i = 0; i < extra; ++i) {
      glViewport(0, 0, 32, 32);  // the same values again: nothing for the host
      glEnable(GL_BLEND);
      glBlendFunc(GL_CONSTANT_COLOR, GL_ZERO);
      glBlendColor(1, 1, 1, (i % 2) ? 1.0f : 0.5f);  // the one real change
      glDrawArrays(GL_TRIANGLES, 0, 3);
    }
    auto px = harness::ReadRGBA(32, 32);
    CHECK(px[0] == 255 && px[1] == 0 && px[2] == 0);
    CHECK_GL_ERROR(GL_NO_ERROR);
  }
  harness::Close(w);  // the backend context writes its counters now
}

int Shadow(const char* stats_path) {
  std::remove(stats_path);
  setenv("CALDERA_STATS", stats_path, 1);  // read by each backend context when it is destroyed
  constexpr int kExtra = 8;
  DrawFrame(0);
  DrawFrame(kExtra);
  auto calls = StatsCounter(stats_path, "host_state_calls");
  CHECK(calls.size() >= 2);
  if (calls.size() >= 2) {
    long base = calls[calls.size() - 2], more = calls.back();
    std::printf("host state calls: one draw %ld, %d more draws %ld (difference %ld, want %d)\n", base, kExtra,
                more, more - base, kExtra);
    CHECK(more - base == kExtra);
  }
  return harness::Summary();
}

// 16 draws into 16 columns, each with its own uniform colour: every value must land in its own column.
int UniformRing(const char* stats_path) {
  std::remove(stats_path);
  setenv("CALDERA_STATS", stats_path, 1);
  constexpr int kDraws = 16;
  harness::Window w = harness::Open(kDraws, 4);
  {
    FullTriangle tri("#version 330 core\nuniform vec4 u_color;\nout vec4 c;\nvoid main(){c=u_color;}\n");
    GLint loc = glGetUniformLocation(tri.prog, "u_color");
    glEnable(GL_SCISSOR_TEST);
    for (int i = 0; i < kDraws; ++i) {
      glScissor(i, 0, 1, 4);
      glUniform4f(loc, float(i) / 255.0f, 1.0f - float(i) / 255.0f, 0.5f, 1.0f);
      glDrawArrays(GL_TRIANGLES, 0, 3);
    }
    auto px = harness::ReadRGBA(kDraws, 4);
    for (int i = 0; i < kDraws; ++i) CHECK(px[size_t(i) * 4] == i && px[size_t(i) * 4 + 1] == 255 - i);
  }
  harness::Close(w);
  auto writes = StatsCounter(stats_path, "uniform_ring_writes");
  auto orphans = StatsCounter(stats_path, "uniform_orphans");
  CHECK(!writes.empty() && !orphans.empty());
  if (!writes.empty() && !orphans.empty()) {
    std::printf("uniform ring writes %ld, orphans %ld\n", writes.back(), orphans.back());
    CHECK(writes.back() == kDraws);
    CHECK(orphans.back() == 1);
  }
  return harness::Summary();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && !std::strcmp(argv[1], "renderer")) return Renderer(argv[2]);
  if (argc >= 2 && !std::strcmp(argv[1], "no-device")) return NoDevice();
  if (argc >= 3 && !std::strcmp(argv[1], "shadow")) return Shadow(argv[2]);
  if (argc >= 3 && !std::strcmp(argv[1], "uniform-ring")) return UniformRing(argv[2]);
  std::fprintf(stderr,
               "usage: backend_select renderer <substring> | no-device | shadow <stats-file> | uniform-ring "
               "<stats-file>\n");
  return 2;
}
