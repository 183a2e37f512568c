// Test harness for GL programs run through glvnd: a surfaceless EGL display, a GL 3.3 core (or ES 3.0)
// context and a pbuffer, whichever vendor glvnd picks (Caldera or Mesa, by __EGL_VENDOR_LIBRARY_FILENAMES).
#pragma once

#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace harness {

struct Window {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
  EGLSurface surface = EGL_NO_SURFACE;
  int width = 0, height = 0;
};

// Exits with a message when any step fails: a test that cannot set up must not pass. `compat` asks for the
// EGL default desktop version (1.0), which is a compatibility-profile context.
Window Open(int width, int height, bool es = false, bool compat = false);
void Close(Window& w);
// Another GL 3.3 core context with w's config, sharing with `share` (EGL_NO_CONTEXT: its own group);
// `extra` adds attributes (pairs, EGL_NONE-terminated). Exits when it cannot be made.
EGLContext CreateContext(const Window& w, EGLContext share, const EGLint* extra = nullptr);
// Prints the "GL_VENDOR v, GL_RENDERER r" line run_gl_test.py checks; returns GL_RENDERER ("" if none).
std::string PrintVendor();

GLuint CompileProgram(const char* vs, const char* fs);
// Binds a new vertex array whose attribute 0 reads `floats` / 2 vec2 positions from a new buffer (returned;
// the vertex array stays bound).
GLuint Positions2D(const float* xy, size_t floats);
// Binds and returns a new vertex array whose attribute 0 gives vertex i the vec2 (i, 10 i): data whose
// every captured or computed value names the vertex it came from.
GLuint RampVertexArray(int vertices);
std::vector<uint8_t> ReadRGBA(int width, int height);
bool WritePNG(const char* path, const std::vector<uint8_t>& rgba, int width, int height);

// Sum of one counter over the JSON lines Caldera appends to a CALDERA_STATS file (0 when absent).
long StatSum(const std::string& path, const std::string& key);

// A fresh temporary CALDERA_STATS file for this process (set in the environment before the display opens,
// removed when this goes out of scope). Caldera's contexts append their counters when destroyed.
class StatsFile {
 public:
  StatsFile();
  ~StatsFile();
  StatsFile(const StatsFile&) = delete;
  StatsFile& operator=(const StatsFile&) = delete;
  long Sum(const std::string& key) const { return StatSum(path_, key); }

 private:
  std::string path_;
};

// A framebuffer (left bound to GL_FRAMEBUFFER) with one colour renderbuffer of `internal_format`,
// multisampled when samples > 0; checks that it is complete.
GLuint ColorTarget(int width, int height, GLenum internal_format = GL_RGBA8, int samples = 0);

// Fails the process (exit 1) with `what` when cond is false; counts checks for the summary line.
void Check(bool cond, const char* what, const char* file, int line);
int Summary();  // prints "N passed, M failed" and returns the exit code

}  // namespace harness

#define CHECK(cond) ::harness::Check((cond), #cond, __FILE__, __LINE__)
#define CHECK_GL_ERROR(expected)                                                                            \
  do {                                                                                                      \
    GLenum err_ = glGetError();                                                                             \
    if (err_ != (expected)) std::fprintf(stderr, "  got GL error 0x%04x, want 0x%04x\n", err_, (expected)); \
    ::harness::Check(err_ == (expected), "glGetError() == " #expected, __FILE__, __LINE__);                 \
  } while (0)
