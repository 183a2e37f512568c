// The GL/EGL API fuzzer: a seeded sequence of calls over every generated entry point (fuzz_calls.cpp),
// interleaved with draws that reach the backend, sync points and EGL calls (second shared context,
// pbuffers created and destroyed, surface and context queries). Runs through glvnd like any program.
// --api glx runs the GL calls in GLX contexts on an X display instead, with GLX calls (fuzz_glx.h) in
// place of the EGL ones.
//
// Replaying is deterministic: the same --seed, --api and --calls give the same sequence. A crash or hang
// prints the seed, the call index and the last calls with their raw arguments; GL-state assertions print
// FUZZ-ASSERT lines and make the exit status 1. tests/fuzz/run_fuzz.py adds the validation layer and its
// messages, suppressions and regression recording.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "fuzz_glx.h"
#include "fuzz_support.h"

namespace fuzz {
namespace {

struct Options {
  uint64_t seed = 1;
  uint64_t calls = 10000;
  bool es = false;
  bool glx = false;  // GL in GLX contexts (fuzz_glx.h), GLX calls at egl_permille
  int draw_permille = 40, sync_permille = 10, egl_permille = -1;  // EGL 6, GLX 20 unless --egl
  int watchdog_s = 120;
  int slow_ms = 0;  // > 0: report every iteration slower than this (for tuning distributions)
  bool avoid_index_overrun = false;
  bool avoid_huge_viewport = false;
  bool avoid_second_context = false;  // never make the shared context current
  bool trace = false;  // print the last calls at the end too (to look at a case that fails without crashing)
};

Fuzzer* g_fuzzer = nullptr;
std::atomic<uint64_t> g_progress{0};
Options g_opt;

const char* ApiName() {
  return g_opt.glx ? "glx" : g_opt.es ? "es" : "gl";
}

void PrintFailureHeader(const char* what) {
  char line[256];
  int n = std::snprintf(line, sizeof line, "FUZZ-%s seed %llu api %s at call %llu; last calls:\n", what,
                        static_cast<unsigned long long>(g_opt.seed), ApiName(),
                        static_cast<unsigned long long>(g_progress.load()));
  if (write(2, line, static_cast<size_t>(n)) < 0) return;
  if (g_fuzzer) g_fuzzer->PrintTrace(2);
}

void OnFatalSignal(int sig) {
  char what[32];
  std::snprintf(what, sizeof what, "CRASH signal %d", sig);
  PrintFailureHeader(what);
  signal(sig, SIG_DFL);
  raise(sig);
}

// A call that does not return within the limit is a hang: report and abort (not SIGALRM: the GL thread
// may be blocked in a way that never runs a handler).
void Watchdog() {
  uint64_t last = g_progress.load();
  int still = 0;
  for (;;) {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    uint64_t now = g_progress.load();
    still = now == last ? still + 1 : 0;
    last = now;
    if (still >= g_opt.watchdog_s) {
      PrintFailureHeader("HANG");
      _exit(3);
    }
  }
}

[[noreturn]] void Die(const char* what) {
  std::fprintf(stderr, "fuzz: set-up failed: %s (EGL error 0x%04x, GL error 0x%04x)\n", what, eglGetError(),
               glGetError());
  std::exit(2);
}

const char* kVsGL =
    "#version 330 core\nlayout(location=0) in vec2 a_pos;\nuniform vec4 u_offset;\nout vec4 v_out;\n"
    "void main(){ v_out = vec4(a_pos, 0.0, 1.0); gl_Position = vec4(a_pos, 0.0, 1.0) + u_offset * 0.0; }\n";
const char* kFsGL =
    "#version 330 core\nin vec4 v_out;\nout vec4 frag;\nuniform vec4 u_color;\nuniform sampler2D u_tex;\n"
    "layout(std140) uniform Block { vec4 scale; };\n"
    "void main(){ frag = u_color + v_out * 0.5 + texture(u_tex, v_out.xy) * 0.0 + scale * 0.0; }\n";
const char* kVsES =
    "#version 300 es\nlayout(location=0) in vec2 a_pos;\nuniform vec4 u_offset;\nout vec4 v_out;\n"
    "void main(){ v_out = vec4(a_pos, 0.0, 1.0); gl_Position = vec4(a_pos, 0.0, 1.0) + u_offset * 0.0; }\n";
const char* kFsES =
    "#version 300 es\nprecision mediump float;\nin vec4 v_out;\nout vec4 frag;\nuniform vec4 u_color;\n"
    "uniform sampler2D u_tex;\nlayout(std140) uniform Block { vec4 scale; };\n"
    "void main(){ frag = u_color + v_out * 0.5 + texture(u_tex, v_out.xy) * 0.0 + scale * 0.0; }\n";

GLuint Compile(GLenum type, const char* src) {
  GLuint s = glCreateShader(type);
  glShaderSource(s, 1, &src, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048] = {};
    glGetShaderInfoLog(s, sizeof log, nullptr, log);
    std::fprintf(stderr, "%s\n", log);
    Die("shader compile");
  }
  return s;
}

GLuint Link(const char* vs, const char* fs) {
  GLuint p = glCreateProgram();
  GLuint v = Compile(GL_VERTEX_SHADER, vs), f = Compile(GL_FRAGMENT_SHADER, fs);
  glAttachShader(p, v);
  glAttachShader(p, f);
  glLinkProgram(p);
  GLint ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  if (!ok) Die("program link");
  glDeleteShader(v);
  glDeleteShader(f);
  return p;
}

// Per-context objects the draw action restores (vertex arrays are not shared between contexts).
struct ContextObjects {
  const void* context = nullptr;  // EGLContext or GLXContext
  GLuint vao = 0;
};

class Driver {
 public:
  explicit Driver(const Options& o) : opt_(o), f_(o.seed, o.es), glx_(f_) {
    f_.avoid_index_overrun = o.avoid_index_overrun;
    f_.avoid_huge_viewport = o.avoid_huge_viewport;
  }

  void Open();
  void OpenGlx();
  void LoadCalls(void* (*proc)(const char*, void*), void* arg);
  void Run();
  int Finish();
  Fuzzer& fuzzer() { return f_; }

 private:
  void SetUpShared();
  GLuint ProtectedVao();
  void DrawAction();
  void SyncPoint();
  void EglAction();
  void EnsureCurrent();
  EGLSurface RandomSurface();
  void CheckEglError(const char* fn);
  const void* CurrentContext() const { return opt_.glx ? glx_.CurrentContext() : eglGetCurrentContext(); }

  Options opt_;
  Fuzzer f_;
  GlxSide glx_;
  std::vector<const CallEntry*> calls_;
  EGLDisplay dpy_ = EGL_NO_DISPLAY;
  EGLConfig config_ = nullptr;
  EGLContext ctx_[2] = {EGL_NO_CONTEXT, EGL_NO_CONTEXT};
  EGLSurface surf_[2] = {EGL_NO_SURFACE, EGL_NO_SURFACE};
  std::vector<EGLSurface> extra_surfaces_, destroyed_surfaces_;
  bool surfaceless_ = false;
  GLuint program_ = 0, vbo_ = 0, ebo_ = 0;
  ContextObjects objects_[2];
  uint64_t draws_ok_ = 0, draws_ = 0, syncs_ = 0, egl_ = 0, gl_calls_ = 0;
};

void Driver::Open() {
  dpy_ = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (dpy_ == EGL_NO_DISPLAY) Die("eglGetPlatformDisplay(surfaceless)");
  if (!eglInitialize(dpy_, nullptr, nullptr)) Die("eglInitialize");
  const char* ext = eglQueryString(dpy_, EGL_EXTENSIONS);
  surfaceless_ = ext && std::strstr(ext, "EGL_KHR_surfaceless_context");
  const EGLint config_attribs[] = {EGL_SURFACE_TYPE,
                                   EGL_PBUFFER_BIT,
                                   EGL_RENDERABLE_TYPE,
                                   opt_.es ? EGL_OPENGL_ES3_BIT : EGL_OPENGL_BIT,
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
  EGLint n = 0;
  if (!eglChooseConfig(dpy_, config_attribs, &config_, 1, &n) || n < 1) Die("no RGBA8 D24S8 pbuffer config");
  if (!eglBindAPI(opt_.es ? EGL_OPENGL_ES_API : EGL_OPENGL_API)) Die("eglBindAPI");
  const EGLint gl_attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                               3,
                               EGL_CONTEXT_MINOR_VERSION,
                               3,
                               EGL_CONTEXT_OPENGL_PROFILE_MASK,
                               EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                               EGL_NONE};
  const EGLint es_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE};
  const EGLint* attribs = opt_.es ? es_attribs : gl_attribs;
  ctx_[0] = eglCreateContext(dpy_, config_, EGL_NO_CONTEXT, attribs);
  if (ctx_[0] == EGL_NO_CONTEXT) Die("eglCreateContext");
  ctx_[1] = eglCreateContext(dpy_, config_, ctx_[0], attribs);
  if (ctx_[1] == EGL_NO_CONTEXT) Die("eglCreateContext (shared)");
  const EGLint pb[] = {EGL_WIDTH, 64, EGL_HEIGHT, 64, EGL_NONE};
  for (auto& s : surf_) {
    s = eglCreatePbufferSurface(dpy_, config_, pb);
    if (s == EGL_NO_SURFACE) Die("eglCreatePbufferSurface");
  }
  if (!eglMakeCurrent(dpy_, surf_[0], surf_[0], ctx_[0])) Die("eglMakeCurrent");
  const char* vendor = reinterpret_cast<const char*>(glGetString(GL_VENDOR));
  const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  std::printf("GL_VENDOR %s, GL_RENDERER %s\n", vendor ? vendor : "(null)", renderer ? renderer : "(null)");

  LoadCalls([](const char* name, void*) { return reinterpret_cast<void*>(eglGetProcAddress(name)); },
            nullptr);
  SetUpShared();
  objects_[0].context = ctx_[0];
  objects_[0].vao = ProtectedVao();
}

void Driver::OpenGlx() {
  std::string failed = glx_.Open();
  if (!failed.empty()) {
    std::fprintf(stderr, "fuzz: set-up failed: %s\n", failed.c_str());
    std::exit(2);
  }
  const char* vendor = reinterpret_cast<const char*>(glGetString(GL_VENDOR));
  const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  std::printf("GL_VENDOR %s, GL_RENDERER %s\n", vendor ? vendor : "(null)", renderer ? renderer : "(null)");
  LoadCalls([](const char* name, void* side) { return static_cast<GlxSide*>(side)->ProcAddress(name); },
            &glx_);
  SetUpShared();
  objects_[0].context = glx_.CurrentContext();
  objects_[0].vao = ProtectedVao();
}

// Every generated command through the platform's GetProcAddress; one the API has that comes back NULL is a
// failure.
void Driver::LoadCalls(void* (*proc)(const char*, void*), void* arg) {
  int missing = 0;
  for (size_t i = 0; i < kCallCount; ++i) {
    const CallEntry& e = kCalls[i];
    *e.pointer = proc(e.name, arg);
    if (!(e.apis & (opt_.es ? kInES : kInGL))) continue;
    if (!*e.pointer) {
      std::fprintf(stderr, "FUZZ-ASSERT proc-address: GetProcAddress(\"%s\") returned NULL\n", e.name);
      ++missing;
      continue;
    }
    calls_.push_back(&e);
  }
  for (const ExtraEntry* x = kExtraEntries; x->name; ++x) {
    *x->pointer = proc(x->name, arg);
    if (!*x->pointer) Die(x->name);
  }
  if (missing) std::exit(1);
}

// Objects the fuzzed calls start from, so that binds, attachments, uploads and draws reach real state:
// a linked program with uniforms and a block, buffers with data, textures of several targets, a complete
// framebuffer, renderbuffers, samplers, queries, a transform feedback object. All but the draw action's
// program and buffers go into the fuzzer's pools (it may use, change or delete them).
void Driver::SetUpShared() {
  auto step = [](const char* what) {
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
      std::fprintf(stderr, "fuzz: set-up step '%s' left GL error 0x%04x\n", what, e);
      Die("set-up left a GL error");
    }
  };
  program_ = Link(opt_.es ? kVsES : kVsGL, opt_.es ? kFsES : kFsGL);
  GLuint pooled_program = Link(opt_.es ? kVsES : kVsGL, opt_.es ? kFsES : kFsGL);
  f_.AddLive(Kind::kProgram, pooled_program);
  const float tri[] = {-1, -1, 3, -1, -1, 3, 0, 0, 0.5f, 0.5f, -0.5f, 0.5f, 1, 1, -1, 1};
  const GLushort idx[] = {0, 1, 2, 3, 4, 5, 6, 7, 0, 2, 4, 6};
  // The element array binding is vertex array state: bind one first (Caldera's core contexts refuse the
  // binding with none bound).
  GLuint vao;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  f_.AddLive(Kind::kVertexArray, vao);
  glGenBuffers(1, &vbo_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glBufferData(GL_ARRAY_BUFFER, sizeof tri, tri, GL_STATIC_DRAW);
  glGenBuffers(1, &ebo_);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo_);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx, GL_STATIC_DRAW);

  step("program and draw buffers");
  GLuint bufs[4];
  glGenBuffers(4, bufs);
  const GLenum targets[] = {GL_ARRAY_BUFFER, GL_UNIFORM_BUFFER, GL_PIXEL_UNPACK_BUFFER, GL_COPY_READ_BUFFER};
  std::vector<uint8_t> data(65536, 0x3C);
  for (int i = 0; i < 4; ++i) {
    glBindBuffer(targets[i], bufs[i]);
    glBufferData(targets[i], i == 1 ? 256 : 65536, data.data(), GL_DYNAMIC_DRAW);
    glBindBuffer(targets[i], 0);
    f_.AddLive(Kind::kBuffer, bufs[i]);
  }
  glBindBufferBase(GL_UNIFORM_BUFFER, 0, bufs[1]);

  step("pooled buffers");
  GLuint tex[5];
  glGenTextures(5, tex);
  std::vector<uint8_t> texels(16 * 16 * 4 * 4, 0x80);
  glBindTexture(GL_TEXTURE_2D, tex[0]);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 16, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
  glGenerateMipmap(GL_TEXTURE_2D);
  glBindTexture(GL_TEXTURE_2D_ARRAY, tex[1]);
  glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA8, 8, 8, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
  glBindTexture(GL_TEXTURE_3D, tex[2]);
  glTexImage3D(GL_TEXTURE_3D, 0, GL_R32F, 4, 4, 4, 0, GL_RED, GL_FLOAT, texels.data());
  glBindTexture(GL_TEXTURE_CUBE_MAP, tex[3]);
  for (int face = 0; face < 6; ++face)
    glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, 0, GL_RGBA8, 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 texels.data());
  glBindTexture(GL_TEXTURE_2D, tex[4]);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, 32, 32, 0, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT,
               nullptr);
  glBindTexture(GL_TEXTURE_2D, tex[0]);
  for (GLuint t : tex) f_.AddLive(Kind::kTexture, t);

  step("textures");
  GLuint rb[2];
  glGenRenderbuffers(2, rb);
  glBindRenderbuffer(GL_RENDERBUFFER, rb[0]);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, 32, 32);
  glBindRenderbuffer(GL_RENDERBUFFER, rb[1]);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_RGBA8, 32, 32);
  for (GLuint r : rb) f_.AddLive(Kind::kRenderbuffer, r);
  step("renderbuffers");
  GLuint colour;
  glGenTextures(1, &colour);
  glBindTexture(GL_TEXTURE_2D, colour);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 32, 32, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  f_.AddLive(Kind::kTexture, colour);
  GLuint fbo;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, colour, 0);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, rb[0]);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    Die("set-up framebuffer incomplete");
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  f_.AddLive(Kind::kFramebuffer, fbo);

  step("framebuffer");
  GLuint samplers[2], queries[3], xfb;
  glGenSamplers(2, samplers);
  glSamplerParameteri(samplers[1], GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  for (GLuint s : samplers) f_.AddLive(Kind::kSampler, s);
  glGenQueries(3, queries);
  for (GLuint q : queries) f_.AddLive(Kind::kQuery, q);
  glGenTransformFeedbacks(1, &xfb);
  f_.AddLive(Kind::kTransformFeedback, xfb);
  step("samplers, queries, transform feedback, vertex array");
}

GLuint Driver::ProtectedVao() {
  GLuint vao;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo_);
  return vao;
}

// A draw that reaches the backend: the set-up program and vertex array (re-established, since the fuzzed
// calls may have changed them), whatever other state the fuzzed calls left.
void Driver::DrawAction() {
  ++draws_;
  const void* cur = CurrentContext();
  ContextObjects& o = (opt_.glx ? glx_.CurrentIndex() == 1 : cur == ctx_[1]) ? objects_[1] : objects_[0];
  if (o.context != cur) {
    o.context = cur;
    o.vao = ProtectedVao();
  }
  glUseProgram(program_);
  glBindVertexArray(o.vao);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  // Fuzzed calls enable other attributes of this vertex array with no buffer behind them, which makes
  // every draw an error: keep only attribute 0, so that most of these draws reach the backend.
  for (GLuint i = 1; i < 16; ++i) glDisableVertexAttribArray(i);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo_);
  f_.BeforeDraw();
  const GLenum modes[] = {GL_TRIANGLES,  GL_TRIANGLE_STRIP, GL_TRIANGLE_FAN, GL_LINES,
                          GL_LINE_STRIP, GL_LINE_LOOP,      GL_POINTS};
  GLenum mode = modes[f_.Below(7)];
  GLsizei count = static_cast<GLsizei>(f_.Below(13));
  switch (f_.Below(4)) {
    case 0:
      glDrawArrays(mode, static_cast<GLint>(f_.Below(4)), count);
      break;
    case 1: {
      const void* offset = nullptr;
      if (f_.avoid_index_overrun) offset = f_.Indices(&count, GL_UNSIGNED_SHORT);
      glDrawElements(mode, count, GL_UNSIGNED_SHORT, offset);
      break;
    }
    case 2:
      glDrawArraysInstanced(mode, 0, count, static_cast<GLsizei>(f_.Below(4)));
      break;
    default: {
      const void* offset = nullptr;
      if (count > 12) count = 12;
      if (f_.avoid_index_overrun) offset = f_.Indices(&count, GL_UNSIGNED_SHORT);
      glDrawRangeElements(mode, 0, 7, count, GL_UNSIGNED_SHORT, offset);
      break;
    }
  }
  GLenum e = f_.AfterCall();
  if (e == GL_NO_ERROR) ++draws_ok_;
}

void Driver::SyncPoint() {
  ++syncs_;
  switch (f_.Below(4)) {
    case 0:
      glFlush();
      break;
    case 1:
      glFinish();
      break;
    case 2: {
      void* out = f_.PixelsOut(GL_RGBA, GL_UNSIGNED_BYTE, 8, 8, 1);
      if (f_.TakeSkip()) {
        f_.ResetPixelStore();
        glPixelStorei(GL_PACK_ROW_LENGTH, 0);
        glPixelStorei(GL_PACK_SKIP_ROWS, 0);
        glPixelStorei(GL_PACK_SKIP_PIXELS, 0);
        glPixelStorei(GL_PACK_ALIGNMENT, 4);
        glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
        glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
        glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
        glPixelStorei(GL_UNPACK_IMAGE_HEIGHT, 0);
        glPixelStorei(GL_UNPACK_SKIP_IMAGES, 0);
        break;
      }
      glReadPixels(0, 0, 8, 8, GL_RGBA, GL_UNSIGNED_BYTE, out);
      break;
    }
    default: {
      GLsync s = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
      if (f_.AfterCall() != GL_NO_ERROR || !s) {
        f_.Fail("sync-point-fence", "glFenceSync failed at a sync point");
        return;
      }
      GLenum r = glClientWaitSync(s, GL_SYNC_FLUSH_COMMANDS_BIT, 60'000'000'000ull);
      if (r == GL_TIMEOUT_EXPIRED) f_.Fail("fence-timeout", "a flushed fence did not signal within 60 s");
      if (r == GL_WAIT_FAILED) f_.Fail("fence-wait-failed", "waiting on a fresh fence failed");
      glDeleteSync(s);
    }
  }
  f_.AfterCall();
}

EGLSurface Driver::RandomSurface() {
  uint32_t r = f_.Below(100);
  if (r < 40) return surf_[f_.Below(2)];
  if (r < 65 && !extra_surfaces_.empty())
    return extra_surfaces_[f_.Below(static_cast<uint32_t>(extra_surfaces_.size()))];
  if (r < 75) return EGL_NO_SURFACE;
  if (r < 85 && !destroyed_surfaces_.empty())
    return destroyed_surfaces_[f_.Below(static_cast<uint32_t>(destroyed_surfaces_.size()))];
  static int not_a_surface;
  return static_cast<EGLSurface>(&not_a_surface);
}

void Driver::CheckEglError(const char* fn) {
  EGLint e = eglGetError();
  if (e < EGL_SUCCESS || e > EGL_CONTEXT_LOST) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "eglGetError after %s returned 0x%04x", fn, e);
    f_.Fail("egl-error-code", buf);
  }
}

void Driver::EnsureCurrent() {
  if (eglGetCurrentContext() != EGL_NO_CONTEXT && eglGetCurrentSurface(EGL_DRAW) != EGL_NO_SURFACE) return;
  if (f_.Below(4) == 0 && surfaceless_ && eglGetCurrentContext() != EGL_NO_CONTEXT) return;  // surfaceless
  if (!eglMakeCurrent(dpy_, surf_[0], surf_[0], ctx_[0]))
    f_.Fail("egl-make-current", "cannot make ctx 0 current");
}

void Driver::EglAction() {
  ++egl_;
  if (opt_.glx) {
    glx_.Action();
    f_.SetContext(glx_.CurrentIndex());
    glGetError();
    return;
  }
  switch (f_.Below(9)) {
    case 0:
    case 1: {  // switch contexts and surfaces, including the second shared context and surfaceless
      EGLContext c = ctx_[f_.Below(2)];
      if (opt_.avoid_second_context) c = ctx_[0];  // same draws from the generator either way
      EGLSurface d = RandomSurface(), r = f_.Below(4) ? d : RandomSurface();
      EGLBoolean ok = eglMakeCurrent(dpy_, d, r, c);
      CheckEglError("eglMakeCurrent");
      (void)ok;
      break;
    }
    case 2: {  // a new pbuffer, with sizes and attributes valid or not
      if (extra_surfaces_.size() >= 4) break;
      EGLint w = static_cast<EGLint>(f_.Int(Cat::kDim)), h = static_cast<EGLint>(f_.Int(Cat::kDim));
      EGLint attribs[] = {EGL_WIDTH, w, EGL_HEIGHT, h, EGL_NONE, EGL_NONE, EGL_NONE};
      if (f_.Below(4) == 0) {
        const EGLint keys[] = {EGL_LARGEST_PBUFFER,
                               EGL_TEXTURE_FORMAT,
                               EGL_TEXTURE_TARGET,
                               EGL_MIPMAP_TEXTURE,
                               EGL_GL_COLORSPACE,
                               EGL_VG_ALPHA_FORMAT,
                               0x3000,
                               static_cast<EGLint>(f_.Next())};
        attribs[4] = keys[f_.Below(8)];
        attribs[5] = f_.Below(2) ? static_cast<EGLint>(f_.Enum(kAllEnums)) : static_cast<EGLint>(f_.Below(3));
      }
      EGLSurface s = eglCreatePbufferSurface(dpy_, config_, attribs);
      CheckEglError("eglCreatePbufferSurface");
      if (s != EGL_NO_SURFACE) extra_surfaces_.push_back(s);
      break;
    }
    case 3: {  // destroy one (possibly the current one: destruction is deferred until it is released)
      if (extra_surfaces_.empty()) break;
      size_t i = f_.Below(static_cast<uint32_t>(extra_surfaces_.size()));
      EGLSurface s = extra_surfaces_[i];
      extra_surfaces_.erase(extra_surfaces_.begin() + static_cast<long>(i));
      if (!eglDestroySurface(dpy_, s)) f_.Fail("egl-destroy", "eglDestroySurface of a live pbuffer failed");
      CheckEglError("eglDestroySurface");
      if (eglGetCurrentSurface(EGL_DRAW) != s && eglGetCurrentSurface(EGL_READ) != s &&
          destroyed_surfaces_.size() < 64)
        destroyed_surfaces_.push_back(s);
      break;
    }
    case 4:
      eglSwapInterval(dpy_, static_cast<EGLint>(f_.Int(Cat::kCoord)));
      CheckEglError("eglSwapInterval");
      break;
    case 5: {
      const EGLint attrs[] = {EGL_WIDTH,
                              EGL_HEIGHT,
                              EGL_CONFIG_ID,
                              EGL_LARGEST_PBUFFER,
                              EGL_TEXTURE_FORMAT,
                              EGL_RENDER_BUFFER,
                              EGL_SWAP_BEHAVIOR,
                              EGL_MULTISAMPLE_RESOLVE,
                              EGL_HORIZONTAL_RESOLUTION,
                              EGL_GL_COLORSPACE,
                              static_cast<EGLint>(f_.Enum(kAllEnums))};
      EGLint value = 0x5A5A;
      eglQuerySurface(dpy_, RandomSurface(), attrs[f_.Below(11)], &value);
      CheckEglError("eglQuerySurface");
      break;
    }
    case 6: {
      const EGLint attrs[] = {EGL_CONFIG_ID, EGL_CONTEXT_CLIENT_TYPE, EGL_CONTEXT_CLIENT_VERSION,
                              EGL_RENDER_BUFFER, static_cast<EGLint>(f_.Next())};
      EGLint value = 0;
      EGLContext c = f_.Below(8) ? ctx_[f_.Below(2)] : EGL_NO_CONTEXT;
      eglQueryContext(dpy_, c, attrs[f_.Below(5)], &value);
      CheckEglError("eglQueryContext");
      break;
    }
    case 7:
      eglSwapBuffers(dpy_, RandomSurface());
      CheckEglError("eglSwapBuffers");
      break;
    default:
      if (f_.Below(2))
        eglWaitClient();
      else
        eglWaitGL();
      CheckEglError("eglWait*");
      break;
  }
  EnsureCurrent();
  f_.SetContext(eglGetCurrentContext() == ctx_[1] ? 1 : 0);
  glGetError();  // a context switch may surface nothing, but never leave a stale error for the next check
}

void Driver::Run() {
  auto start = std::chrono::steady_clock::now();
  const int draw_end = opt_.draw_permille, sync_end = draw_end + opt_.sync_permille,
            egl_end = sync_end + opt_.egl_permille;
  for (uint64_t i = 0; i < opt_.calls; ++i) {
    f_.set_call_index(i);
    g_progress.store(i, std::memory_order_relaxed);
    auto t0 = opt_.slow_ms ? std::chrono::steady_clock::now() : start;
    int r = static_cast<int>(f_.Below(1000));
    if (r < draw_end) {
      DrawAction();
    } else if (r < sync_end) {
      SyncPoint();
    } else if (r < egl_end) {
      EglAction();
    } else {
      ++gl_calls_;
      calls_[f_.Below(static_cast<uint32_t>(calls_.size()))]->call(f_);
    }
    if (opt_.slow_ms) {
      double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (ms > opt_.slow_ms) {
        std::fprintf(stderr, "fuzz: slow (%.0f ms) iteration %llu, kind %d:\n", ms,
                     static_cast<unsigned long long>(i),
                     r < draw_end   ? 0
                     : r < sync_end ? 1
                     : r < egl_end  ? 2
                                    : 3);
        f_.PrintTrace(2, 1);
      }
    }
    if ((i + 1) % 100000 == 0) {
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::fprintf(stderr, "fuzz: %llu calls, %.1f s\n", static_cast<unsigned long long>(i + 1), s);
    }
  }
  glFinish();
  f_.AfterCall();
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const uint64_t* e = f_.error_counts();
  std::printf(
      "fuzz: seed %llu api %s: %llu calls (%llu generated GL, %llu skipped, %llu draws of which %llu without "
      "error, %llu sync points, %llu %s) "
      "in %.1f s; %zu commands; errors: none %llu, enum %llu, value %llu, operation %llu, "
      "framebuffer %llu, memory %llu\n",
      static_cast<unsigned long long>(opt_.seed), ApiName(), static_cast<unsigned long long>(opt_.calls),
      static_cast<unsigned long long>(gl_calls_), static_cast<unsigned long long>(f_.skipped()),
      static_cast<unsigned long long>(draws_), static_cast<unsigned long long>(draws_ok_),
      static_cast<unsigned long long>(syncs_), static_cast<unsigned long long>(egl_),
      opt_.glx ? "GLX" : "EGL", s, calls_.size(), static_cast<unsigned long long>(e[0]),
      static_cast<unsigned long long>(e[1]), static_cast<unsigned long long>(e[2]),
      static_cast<unsigned long long>(e[3]), static_cast<unsigned long long>(e[7]),
      static_cast<unsigned long long>(e[6]));
}

int Driver::Finish() {
  if (opt_.trace) f_.PrintTrace(2);
  if (opt_.glx) {
    std::printf("fuzz: %s\n", glx_.Summary().c_str());
    glx_.Close();
  } else {
    eglMakeCurrent(dpy_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    for (EGLSurface s : extra_surfaces_) eglDestroySurface(dpy_, s);
    for (EGLSurface s : surf_) eglDestroySurface(dpy_, s);
    for (EGLContext c : ctx_) eglDestroyContext(dpy_, c);
    eglTerminate(dpy_);
  }
  if (f_.failures()) {
    std::printf("fuzz: FAIL: %d GL-state assertion(s)\n", f_.failures());
    return 1;
  }
  std::printf("fuzz: PASS\n");
  return 0;
}

uint64_t ParseNumber(const char* s) {
  // Accepts 1e6-style counts as well as plain integers.
  double d = std::strtod(s, nullptr);
  return static_cast<uint64_t>(d);
}

}  // namespace
}  // namespace fuzz

int main(int argc, char** argv) {
  using namespace fuzz;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "fuzz: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--seed")
      g_opt.seed = ParseNumber(value());
    else if (a == "--calls")
      g_opt.calls = ParseNumber(value());
    else if (a == "--api") {
      std::string api = value();
      g_opt.es = api == "es";
      g_opt.glx = api == "glx";
    } else if (a == "--watchdog")
      g_opt.watchdog_s = static_cast<int>(ParseNumber(value()));
    else if (a == "--draws")
      g_opt.draw_permille = static_cast<int>(ParseNumber(value()));
    else if (a == "--egl")
      g_opt.egl_permille = static_cast<int>(ParseNumber(value()));
    else if (a == "--trace")
      g_opt.trace = true;
    else if (a == "--avoid") {
      std::string what = value();
      if (what == "index-overrun") {
        g_opt.avoid_index_overrun = true;
      } else if (what == "second-context") {
        g_opt.avoid_second_context = true;
      } else if (what == "huge-viewport") {
        g_opt.avoid_huge_viewport = true;
      } else {
        std::fprintf(stderr, "fuzz: unknown --avoid %s\n", what.c_str());
        return 2;
      }
    } else if (a == "--slow-ms")
      g_opt.slow_ms = static_cast<int>(ParseNumber(value()));
    else {
      std::fprintf(stderr,
                   "usage: %s [--seed N] [--calls N] [--api gl|es|glx] [--watchdog S] [--draws permille] "
                   "[--egl permille] [--slow-ms N] [--avoid "
                   "index-overrun|huge-viewport|second-context] [--trace]\n",
                   argv[0]);
      return 2;
    }
  }
  // GLX calls are fewer kinds of call over more objects than the EGL ones: a higher default rate reaches
  // them.
  if (g_opt.egl_permille < 0) g_opt.egl_permille = g_opt.glx ? 20 : 6;
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::printf("fuzz: seed %llu api %s calls %llu\n", static_cast<unsigned long long>(g_opt.seed), ApiName(),
              static_cast<unsigned long long>(g_opt.calls));
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) signal(sig, OnFatalSignal);
  std::thread(Watchdog).detach();
  Driver d(g_opt);
  g_fuzzer = &d.fuzzer();
  if (g_opt.glx)
    d.OpenGlx();
  else
    d.Open();
  d.Run();
  return d.Finish();
}
