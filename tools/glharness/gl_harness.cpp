#include "gl_harness.h"

#include <png.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <fstream>

namespace harness {
namespace {
std::atomic<int> g_passed{0}, g_failed{0};  // atomic: checks run on several threads (gl_threads)

[[noreturn]] void Die(const char* what) {
  std::fprintf(stderr, "harness: %s (EGL error 0x%04x)\n", what, eglGetError());
  std::exit(2);
}
}  // namespace

Window Open(int width, int height, bool es, bool compat) {
  Window w;
  w.width = width;
  w.height = height;
  w.display = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (w.display == EGL_NO_DISPLAY) Die("eglGetPlatformDisplay(surfaceless) failed");
  if (!eglInitialize(w.display, nullptr, nullptr)) Die("eglInitialize failed");
  const EGLint config_attribs[] = {EGL_SURFACE_TYPE,
                                   EGL_PBUFFER_BIT,
                                   EGL_RENDERABLE_TYPE,
                                   es ? EGL_OPENGL_ES3_BIT : EGL_OPENGL_BIT,
                                   EGL_RED_SIZE,
                                   8,
                                   EGL_GREEN_SIZE,
                                   8,
                                   EGL_BLUE_SIZE,
                                   8,
                                   EGL_ALPHA_SIZE,
                                   8,
                                   EGL_DEPTH_SIZE,
                                   24,
                                   EGL_STENCIL_SIZE,
                                   8,
                                   EGL_NONE};
  EGLConfig config;
  EGLint n = 0;
  if (!eglChooseConfig(w.display, config_attribs, &config, 1, &n) || n < 1)
    Die("no RGBA8 D24S8 pbuffer config");
  if (!eglBindAPI(es ? EGL_OPENGL_ES_API : EGL_OPENGL_API)) Die("eglBindAPI failed");
  const EGLint gl_attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                               3,
                               EGL_CONTEXT_MINOR_VERSION,
                               3,
                               EGL_CONTEXT_OPENGL_PROFILE_MASK,
                               EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                               EGL_NONE};
  const EGLint es_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE};
  const EGLint compat_attribs[] = {EGL_NONE};
  w.context = eglCreateContext(w.display, config, EGL_NO_CONTEXT,
                               es       ? es_attribs
                               : compat ? compat_attribs
                                        : gl_attribs);
  if (w.context == EGL_NO_CONTEXT) Die("eglCreateContext failed");
  const EGLint pbuffer_attribs[] = {EGL_WIDTH, width, EGL_HEIGHT, height, EGL_NONE};
  w.surface = eglCreatePbufferSurface(w.display, config, pbuffer_attribs);
  if (w.surface == EGL_NO_SURFACE) Die("eglCreatePbufferSurface failed");
  if (!eglMakeCurrent(w.display, w.surface, w.surface, w.context)) Die("eglMakeCurrent failed");
  return w;
}

EGLContext CreateContext(const Window& w, EGLContext share, const EGLint* extra) {
  EGLConfig config;
  EGLint id = 0, n = 0;
  eglQueryContext(w.display, w.context, EGL_CONFIG_ID, &id);
  const EGLint by_id[] = {EGL_CONFIG_ID, id, EGL_NONE};
  if (!eglChooseConfig(w.display, by_id, &config, 1, &n) || n < 1) Die("the window's config is gone");
  std::vector<EGLint> attribs = {EGL_CONTEXT_MAJOR_VERSION,       3,
                                 EGL_CONTEXT_MINOR_VERSION,       3,
                                 EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT};
  for (const EGLint* a = extra; a && *a != EGL_NONE; a += 2) attribs.insert(attribs.end(), {a[0], a[1]});
  attribs.push_back(EGL_NONE);
  EGLContext c = eglCreateContext(w.display, config, share, attribs.data());
  if (c == EGL_NO_CONTEXT) Die("eglCreateContext failed");
  return c;
}

std::string PrintVendor() {
  const char* vendor = reinterpret_cast<const char*>(glGetString(GL_VENDOR));
  const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  std::printf("GL_VENDOR %s, GL_RENDERER %s\n", vendor ? vendor : "(null)", renderer ? renderer : "(null)");
  return renderer ? renderer : "";
}

void Close(Window& w) {
  eglMakeCurrent(w.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroySurface(w.display, w.surface);
  eglDestroyContext(w.display, w.context);
  eglTerminate(w.display);
}

GLuint Positions2D(const float* xy, size_t floats) {
  GLuint vao, vbo;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glGenBuffers(1, &vbo);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(floats * sizeof(float)), xy, GL_STATIC_DRAW);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  return vbo;
}

GLuint RampVertexArray(int vertices) {
  std::vector<float> xy;
  for (int i = 0; i < vertices; ++i) xy.insert(xy.end(), {float(i), float(10 * i)});
  Positions2D(xy.data(), xy.size());
  GLint vao = 0;
  glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &vao);
  return static_cast<GLuint>(vao);
}

GLuint CompileProgram(const char* vs, const char* fs) {
  auto compile = [](GLenum type, const char* src) {
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, nullptr);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
      char log[4096] = {};
      glGetShaderInfoLog(s, sizeof(log), nullptr, log);
      std::fprintf(stderr, "shader compile failed:\n%s\n", log);
      std::exit(2);
    }
    return s;
  };
  GLuint p = glCreateProgram();
  GLuint v = compile(GL_VERTEX_SHADER, vs), f = compile(GL_FRAGMENT_SHADER, fs);
  glAttachShader(p, v);
  glAttachShader(p, f);
  glLinkProgram(p);
  GLint ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[4096] = {};
    glGetProgramInfoLog(p, sizeof(log), nullptr, log);
    std::fprintf(stderr, "program link failed:\n%s\n", log);
    std::exit(2);
  }
  glDeleteShader(v);
  glDeleteShader(f);
  return p;
}

std::vector<uint8_t> ReadRGBA(int width, int height) {
  std::vector<uint8_t> pixels(size_t(width) * height * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  return pixels;
}

bool WritePNG(const char* path, const std::vector<uint8_t>& rgba, int width, int height) {
  FILE* f = std::fopen(path, "wb");
  if (!f) return false;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png_create_info_struct(png);
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    std::fclose(f);
    return false;
  }
  png_init_io(png, f);
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  // GL rows start at the bottom; PNG rows at the top.
  for (int y = height - 1; y >= 0; --y) png_write_row(png, rgba.data() + size_t(y) * width * 4);
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  std::fclose(f);
  return true;
}

void Check(bool cond, const char* what, const char* file, int line) {
  if (cond) {
    ++g_passed;
    return;
  }
  ++g_failed;
  std::fprintf(stderr, "FAIL %s:%d: %s\n", file, line, what);
}

int Summary() {
  std::printf("%d passed, %d failed\n", g_passed.load(), g_failed.load());
  return g_failed == 0 && g_passed > 0 ? 0 : 1;
}

long StatSum(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  long sum = 0;
  while (std::getline(in, line)) {
    auto at = line.find("\"" + key + "\": ");
    if (at != std::string::npos) sum += std::atol(line.c_str() + at + key.size() + 4);
  }
  return sum;
}

StatsFile::StatsFile() {
  char path[] = "/tmp/caldera-stats-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) {
    std::fprintf(stderr, "cannot create a CALDERA_STATS file\n");
    std::exit(1);
  }
  close(fd);
  path_ = path;
  setenv("CALDERA_STATS", path, 1);
}

StatsFile::~StatsFile() {
  unlink(path_.c_str());
}

GLuint ColorTarget(int width, int height, GLenum internal_format, int samples) {
  GLuint fbo, rb;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glGenRenderbuffers(1, &rb);
  glBindRenderbuffer(GL_RENDERBUFFER, rb);
  if (samples > 0)
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, internal_format, width, height);
  else
    glRenderbufferStorage(GL_RENDERBUFFER, internal_format, width, height);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  return fbo;
}

}  // namespace harness
