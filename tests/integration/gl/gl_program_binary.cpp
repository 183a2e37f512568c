// Program binaries (GL_ARB_get_program_binary, GL_OES_get_program_binary, GL 4.1 / ES 3.0 core): a program
// linked from source, saved with glGetProgramBinary and loaded with glProgramBinary into a new program, into
// itself while current, and in a second context of the share group, must draw the same pixels with its
// uniforms back at their initial values and the same interface (attribute, uniform and block locations,
// captured varyings). Damaged, truncated and foreign binaries fail the load with LINK_STATUS FALSE and an
// info log, never an error or a crash; the spec's errors are checked. Run on Caldera (both backends, every
// pipe mode) and on Mesa llvmpipe.
//   --es                 an ES 3.0 context instead of GL 3.3 core
//   --expect-probe       Caldera: CALDERA_STATS counts every load and no extra link (the loads skipped
//   glslang)
//   --kill-switch        CALDERA_PROGRAM_BINARY=0: no formats, glGetProgramBinary is INVALID_OPERATION
//   --cross-process      saves a binary to a file and loads it in child processes of this program: the same
//                        build and kind load it; another build (CALDERA_TEST_PROGRAM_BINARY_BUILD=other) and
//                        the other context kind refuse it
//   --load FILE [--expect-refused]   the child's side of --cross-process
//   --time N             links N times from source and loads N times from the binary; prints both (ms)
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "gl_harness.h"

namespace {

constexpr int kSize = 16;

// Attribute `pos` is bound to location 3 with glBindAttribLocation; `tint` has an initializer on desktop
// (ES has none: its initial value is zero); `weights` is an array; `Offsets` a uniform block; `tex` a
// sampler; `v_color` a captured varying. The fragment colour is texture * tint + weights + block.
const char* kVsGl = R"(#version 330 core
in vec2 pos;
out vec4 v_color;
void main() { v_color = vec4(pos, 0.0, 1.0); gl_Position = vec4(pos, 0.0, 1.0); })";
const char* kFsGl = R"(#version 330 core
uniform vec4 tint = vec4(0.25, 0.5, 0.75, 1.0);
uniform float weights[3];
uniform sampler2D tex;
layout(std140) uniform Offsets { vec4 offset; };
in vec4 v_color;
out vec4 frag;
void main() {
  frag = texture(tex, vec2(0.5)) * tint + vec4(weights[0], weights[1], weights[2], 0.0) + offset;
})";
const char* kVsEs = R"(#version 300 es
in vec2 pos;
out vec4 v_color;
void main() { v_color = vec4(pos, 0.0, 1.0); gl_Position = vec4(pos, 0.0, 1.0); })";
const char* kFsEs = R"(#version 300 es
precision mediump float;
uniform vec4 tint;
uniform float weights[3];
uniform sampler2D tex;
layout(std140) uniform Offsets { vec4 offset; };
in vec4 v_color;
out vec4 frag;
void main() {
  frag = texture(tex, vec2(0.5)) * tint + vec4(weights[0], weights[1], weights[2], 0.0) + offset;
})";

bool g_es = false;
// Mesa 22.3 differs where the spec leaves room or where it is wrong, and is held to the spec only where both
// agree: it keeps glUniformBlockBinding across a load (GL 4.6 §7.5 resets "all uniform block buffer
// bindings"), writes no info log for a refused binary, takes one with a trailing byte, and sets LINK_STATUS
// FALSE on glProgramBinary's INVALID_ENUM (a command that errs has no side effect).
bool g_caldera = false;

GLuint Shader(GLenum type, const char* source) {
  GLuint s = glCreateShader(type);
  glShaderSource(s, 1, &source, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  CHECK(ok == GL_TRUE);
  return s;
}

// The program from source, with the attribute binding and captured varying set before the link.
GLuint LinkFromSource() {
  GLuint p = glCreateProgram();
  GLuint vs = Shader(GL_VERTEX_SHADER, g_es ? kVsEs : kVsGl),
         fs = Shader(GL_FRAGMENT_SHADER, g_es ? kFsEs : kFsGl);
  glAttachShader(p, vs);
  glAttachShader(p, fs);
  glBindAttribLocation(p, 3, "pos");
  const char* varyings[] = {"v_color"};
  glTransformFeedbackVaryings(p, 1, varyings, GL_INTERLEAVED_ATTRIBS);
  glLinkProgram(p);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  CHECK(ok == GL_TRUE);
  return p;
}

GLint LinkStatus(GLuint p) {
  GLint ok = -1;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  return ok;
}

std::string InfoLog(GLuint p) {
  GLint n = 0;
  glGetProgramiv(p, GL_INFO_LOG_LENGTH, &n);
  std::string log(size_t(n > 0 ? n : 1), '\0');
  glGetProgramInfoLog(p, n, nullptr, log.data());
  return log.c_str();
}

struct Binary {
  GLenum format = 0;
  std::vector<uint8_t> bytes;
};

Binary Save(GLuint p) {
  Binary b;
  GLint length = 0;
  glGetProgramiv(p, GL_PROGRAM_BINARY_LENGTH, &length);
  CHECK(length > 0);
  if (length <= 0) return b;
  // One byte short: INVALID_OPERATION and nothing written (the guard bytes stay).
  std::vector<uint8_t> guard(size_t(length) + 16, 0xcd);
  GLsizei written = -7;
  glGetProgramBinary(p, length - 1, &written, &b.format, guard.data());
  CHECK(glGetError() == GL_INVALID_OPERATION);
  bool untouched = true;
  for (uint8_t c : guard) untouched &= c == 0xcd;
  CHECK(untouched);
  b.bytes.assign(size_t(length), 0);
  glGetProgramBinary(p, length, &written, &b.format, b.bytes.data());
  CHECK(glGetError() == GL_NO_ERROR);
  CHECK(written == length);
  GLint formats = 0;
  glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &formats);
  std::vector<GLint> listed(size_t(formats > 0 ? formats : 1), 0);
  glGetIntegerv(GL_PROGRAM_BINARY_FORMATS, listed.data());
  bool format_listed = false;
  for (GLint f : listed) format_listed |= GLenum(f) == b.format;
  CHECK(format_listed);
  return b;
}

void Load(GLuint p, const Binary& b, size_t length) {
  glProgramBinary(p, b.format, b.bytes.data(), GLsizei(length));
  CHECK(glGetError() == GL_NO_ERROR);
}

struct Scene {
  GLuint vao = 0, tex = 0, ubo = 0;
};

Scene MakeScene() {
  Scene s;
  const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  glGenVertexArrays(1, &s.vao);
  glBindVertexArray(s.vao);
  GLuint vbo = 0;
  glGenBuffers(1, &vbo);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
  glVertexAttribPointer(3, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(3);
  const uint8_t texel[4] = {255, 255, 255, 255};
  glGenTextures(1, &s.tex);
  glActiveTexture(GL_TEXTURE2);
  glBindTexture(GL_TEXTURE_2D, s.tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, texel);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  const float offset[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  glGenBuffers(1, &s.ubo);
  glBindBuffer(GL_UNIFORM_BUFFER, s.ubo);
  glBufferData(GL_UNIFORM_BUFFER, sizeof offset, offset, GL_STATIC_DRAW);
  glBindBufferBase(GL_UNIFORM_BUFFER, 1, s.ubo);
  return s;
}

// Draws with `p` (made current) after setting its uniforms; returns the centre pixel.
std::vector<uint8_t> Draw(GLuint p, bool set_tint) {
  glUseProgram(p);
  if (set_tint) glUniform4f(glGetUniformLocation(p, "tint"), 0.5f, 0.25f, 0.0f, 1.0f);
  const float weights[3] = {0.0f, 0.25f, 0.5f};
  glUniform1fv(glGetUniformLocation(p, "weights"), 3, weights);
  glUniform1i(glGetUniformLocation(p, "tex"), 2);
  glUniformBlockBinding(p, glGetUniformBlockIndex(p, "Offsets"), 1);
  glClearColor(0, 0, 0, 0);
  glClear(GL_COLOR_BUFFER_BIT);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  std::vector<uint8_t> px = harness::ReadRGBA(kSize, kSize);
  const size_t centre = (size_t(kSize / 2) * kSize + kSize / 2) * 4;
  return {px[centre], px[centre + 1], px[centre + 2], px[centre + 3]};
}

bool Near(const std::vector<uint8_t>& px, int r, int g, int b) {
  return std::abs(px[0] - r) <= 2 && std::abs(px[1] - g) <= 2 && std::abs(px[2] - b) <= 2;
}

// The interface a load must give back: the same locations, counts and captured varyings as the source link.
void CheckSameInterface(GLuint source, GLuint loaded) {
  CHECK(glGetAttribLocation(loaded, "pos") == 3);
  for (const char* name : {"tint", "weights", "weights[2]", "tex"})
    CHECK(glGetUniformLocation(loaded, name) == glGetUniformLocation(source, name));
  CHECK(glGetUniformBlockIndex(loaded, "Offsets") == glGetUniformBlockIndex(source, "Offsets"));
  for (GLenum pname : {GL_ACTIVE_UNIFORMS, GL_ACTIVE_ATTRIBUTES, GL_ACTIVE_UNIFORM_BLOCKS,
                       GL_TRANSFORM_FEEDBACK_VARYINGS, GL_ACTIVE_UNIFORM_MAX_LENGTH}) {
    GLint a = -1, b = -2;
    glGetProgramiv(source, pname, &a);
    glGetProgramiv(loaded, pname, &b);
    CHECK(a == b);
  }
  char name[32] = {};
  GLsizei size = 0;
  GLenum type = 0;
  glGetTransformFeedbackVarying(loaded, 0, sizeof name, nullptr, &size, &type, name);
  CHECK(std::strcmp(name, "v_color") == 0 && type == GL_FLOAT_VEC4);
}

// Initial uniform values after a load: the initializer on desktop, zero on ES; the block binding back to 0.
void CheckInitialUniforms(GLuint p) {
  float tint[4] = {-1, -1, -1, -1};
  glGetUniformfv(p, glGetUniformLocation(p, "tint"), tint);
  if (g_es)
    CHECK(tint[0] == 0.0f && tint[1] == 0.0f && tint[2] == 0.0f && tint[3] == 0.0f);
  else
    CHECK(tint[0] == 0.25f && tint[1] == 0.5f && tint[2] == 0.75f && tint[3] == 1.0f);
  GLint binding = -1;
  glGetActiveUniformBlockiv(p, glGetUniformBlockIndex(p, "Offsets"), GL_UNIFORM_BLOCK_BINDING, &binding);
  if (g_caldera) CHECK(binding == 0);
}

// A load that must fail: no GL error, LINK_STATUS FALSE, a reason in the info log, glUseProgram refused.
void CheckRefused(const Binary& b, const std::vector<uint8_t>& bytes, const char* what) {
  GLuint p = glCreateProgram();
  glProgramBinary(p, b.format, bytes.data(), GLsizei(bytes.size()));
  CHECK(glGetError() == GL_NO_ERROR);
  const GLint status = LinkStatus(p);
  const std::string log = InfoLog(p);
  std::printf("%s: link status %d, info log \"%s\"\n", what, status, log.c_str());
  CHECK(status == GL_FALSE);
  if (g_caldera) CHECK(!log.empty());
  glUseProgram(p);
  CHECK(glGetError() == GL_INVALID_OPERATION);
  glDeleteProgram(p);
}

EGLContext SharedContext(const harness::Window& w) {
  if (!g_es) return harness::CreateContext(w, w.context);
  EGLConfig config;
  EGLint id = 0, n = 0;
  eglQueryContext(w.display, w.context, EGL_CONFIG_ID, &id);
  const EGLint by_id[] = {EGL_CONFIG_ID, id, EGL_NONE};
  eglChooseConfig(w.display, by_id, &config, 1, &n);
  const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
  EGLContext c = eglCreateContext(w.display, config, w.context, attribs);
  CHECK(c != EGL_NO_CONTEXT);
  return c;
}

int RunMain(bool expect_probe, const harness::StatsFile& stats, harness::Window& w) {
  Scene scene = MakeScene();
  glViewport(0, 0, kSize, kSize);
  const GLuint source = LinkFromSource();
  // texture (1) * tint (0.5, 0.25, 0) + weights (0, 0.25, 0.5) + offset 0
  const std::vector<uint8_t> want = Draw(source, true);
  std::printf("from source: %d %d %d\n", want[0], want[1], want[2]);
  CHECK(Near(want, 128, 128, 128));
  const Binary b = Save(source);
  std::printf("binary: %zu bytes, format 0x%x\n", b.bytes.size(), b.format);
  if (b.bytes.empty()) return harness::Summary();  // no binary (the checks above failed): nothing to load

  // A new program from the binary: linked, the same interface, initial uniforms, the same pixels.
  GLuint loaded = glCreateProgram();
  Load(loaded, b, b.bytes.size());
  CHECK(LinkStatus(loaded) == GL_TRUE);
  CheckSameInterface(source, loaded);
  CheckInitialUniforms(loaded);
  std::vector<uint8_t> px = Draw(loaded, true);
  CHECK(px == want);
  // A loaded program's binary loads again.
  const Binary again = Save(loaded);
  CHECK(again.bytes.size() == b.bytes.size());

  // Loaded into the current program: uniforms reset (tint left alone: its initial value draws), and the draw
  // uses the new executable without another glUseProgram.
  glUseProgram(source);
  Load(source, b, b.bytes.size());
  CHECK(LinkStatus(source) == GL_TRUE);
  CheckInitialUniforms(source);
  px = Draw(source, false);
  std::printf("current program reloaded, initial tint: %d %d %d\n", px[0], px[1], px[2]);
  CHECK(g_es ? Near(px, 0, 64, 128) : Near(px, 64, 191, 255));

  // In a second context of the share group.
  EGLContext second = SharedContext(w);
  CHECK(eglMakeCurrent(w.display, w.surface, w.surface, second) == EGL_TRUE);
  {
    Scene other = MakeScene();
    glViewport(0, 0, kSize, kSize);
    GLuint there = glCreateProgram();
    Load(there, b, b.bytes.size());
    CHECK(LinkStatus(there) == GL_TRUE);
    px = Draw(there, true);
    CHECK(px == want);
    glDeleteProgram(there);
    (void)other;
  }
  CHECK(eglMakeCurrent(w.display, w.surface, w.surface, w.context) == EGL_TRUE);
  eglDestroyContext(w.display, second);

  // Refusals.
  std::vector<uint8_t> bad = b.bytes;
  bad[bad.size() / 2] ^= 0x40;
  CheckRefused(b, bad, "one byte flipped");
  bad.assign(b.bytes.begin(), b.bytes.end() - 1);
  CheckRefused(b, bad, "one byte short");
  if (g_caldera) {
    bad = b.bytes;
    bad.push_back(0);
    CheckRefused(b, bad, "one byte long");
  }
  CheckRefused(b, {}, "empty");
  bad.assign(b.bytes.size(), 0);
  for (size_t i = 0; i < bad.size(); ++i) bad[i] = uint8_t(i * 131 + 7);
  CheckRefused(b, bad, "noise");
  // A failed load forgets the last link for queries.
  GLuint reloaded = LinkFromSource();
  glProgramBinary(reloaded, b.format, bad.data(), GLsizei(bad.size()));
  CHECK(LinkStatus(reloaded) == GL_FALSE);
  GLint length = -1;
  glGetProgramiv(reloaded, GL_PROGRAM_BINARY_LENGTH, &length);
  CHECK(glGetError() == GL_NO_ERROR);
  if (g_caldera) CHECK(length == 0);

  // Errors.
  glProgramBinary(loaded, 0xdead, b.bytes.data(), GLsizei(b.bytes.size()));
  CHECK(glGetError() == GL_INVALID_ENUM);
  if (g_caldera) CHECK(LinkStatus(loaded) == GL_TRUE);  // an error leaves the program as it was
  glProgramBinary(loaded, b.format, b.bytes.data(), -1);
  CHECK(glGetError() == GL_INVALID_VALUE);
  std::vector<uint8_t> out(b.bytes.size());
  glGetProgramBinary(reloaded, GLsizei(out.size()), nullptr, nullptr, out.data());  // not linked
  CHECK(glGetError() == GL_INVALID_OPERATION);
  glGetProgramBinary(loaded, -1, nullptr, nullptr, out.data());
  CHECK(glGetError() == GL_INVALID_VALUE);
  glProgramBinary(12345, b.format, b.bytes.data(), GLsizei(b.bytes.size()));
  CHECK(glGetError() == GL_INVALID_VALUE);

  glDeleteProgram(reloaded);
  glDeleteProgram(loaded);
  glDeleteProgram(source);
  glDeleteVertexArrays(1, &scene.vao);
  harness::Close(w);
  if (expect_probe) {
    // Loads: new program, current program, the second context's = 3. Links from source: 2 (LinkFromSource).
    const long loads = stats.Sum("binary_loads"), links = stats.Sum("links"),
               refusals = stats.Sum("binary_refusals");
    std::printf("probe: %ld binary loads, %ld links, %ld refusals\n", loads, links, refusals);
    CHECK(loads == 3);
    CHECK(links == 2);
    CHECK(refusals == 6);
  }
  return harness::Summary();
}

int RunKillSwitch(harness::Window& w) {
  GLint formats = -1;
  glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &formats);
  CHECK(formats == 0);
  const GLuint p = LinkFromSource();
  GLint length = -1;
  glGetProgramiv(p, GL_PROGRAM_BINARY_LENGTH, &length);
  CHECK(length == 0);
  std::vector<uint8_t> out(64);
  GLenum format = 0;
  glGetProgramBinary(p, GLsizei(out.size()), nullptr, &format, out.data());
  CHECK(glGetError() == GL_INVALID_OPERATION);
  glProgramBinary(p, 0x43414C44, out.data(), GLsizei(out.size()));
  CHECK(glGetError() == GL_INVALID_ENUM);
  harness::Close(w);
  return harness::Summary();
}

// The child's side of --cross-process: loads the file's binary (format from its first 4 bytes) and draws.
int RunLoad(const char* path, bool expect_refused, harness::Window& w) {
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(file.size() > 4);
  Binary b;
  std::memcpy(&b.format, file.data(), 4);
  b.bytes.assign(file.begin() + 4, file.end());
  MakeScene();
  glViewport(0, 0, kSize, kSize);
  if (expect_refused) {
    CheckRefused(b, b.bytes, "from the other process");
  } else {
    GLuint p = glCreateProgram();
    Load(p, b, b.bytes.size());
    CHECK(LinkStatus(p) == GL_TRUE);
    const std::vector<uint8_t> px = Draw(p, true);
    std::printf("loaded in another process: %d %d %d\n", px[0], px[1], px[2]);
    CHECK(Near(px, 128, 128, 128));
  }
  harness::Close(w);
  return harness::Summary();
}

int RunCrossProcess(const char* self, harness::Window& w) {
  MakeScene();
  const GLuint p = LinkFromSource();
  const Binary b = Save(p);
  harness::Close(w);
  char path[] = "/tmp/caldera-program-binary-XXXXXX";
  const int fd = mkstemp(path);
  CHECK(fd >= 0);
  CHECK(write(fd, &b.format, 4) == 4);
  CHECK(write(fd, b.bytes.data(), b.bytes.size()) == ssize_t(b.bytes.size()));
  close(fd);
  const std::string load = std::string(self) + " --load " + path;
  const std::string kind = g_es ? "" : " --es";  // the other kind of context
  struct Child {
    std::string command;
    const char* what;
  } children[] = {
      {load + (g_es ? " --es" : ""), "same build, same kind: loads"},
      {"CALDERA_TEST_PROGRAM_BINARY_BUILD=other " + load + (g_es ? " --es" : "") + " --expect-refused",
       "another build: refused"},
      {load + kind + " --expect-refused", "the other context kind: refused"},
  };
  for (const Child& c : children) {
    std::fflush(stdout);
    const int status = std::system(c.command.c_str());
    std::printf("child (%s): exit %d\n", c.what, status);
    CHECK(status == 0);
  }
  unlink(path);
  return harness::Summary();
}

int RunTiming(int rounds, harness::Window& w) {
  // A program of a realistic size: the fragment shader unrolls some lighting-like arithmetic.
  std::string fs = g_es ? "#version 300 es\nprecision highp float;\n" : "#version 330 core\n";
  fs += "uniform vec4 k[16];\nin vec4 v_color;\nout vec4 frag;\nvoid main() {\n  vec4 a = v_color;\n";
  for (int i = 0; i < 64; ++i)
    fs += "  a = a * k[" + std::to_string(i % 16) + "] + sin(a.yzwx * " + std::to_string(i + 1) + ".0);\n";
  fs += "  frag = a;\n}\n";
  const char* vs = g_es ? kVsEs : kVsGl;
  GLuint first = harness::CompileProgram(vs, fs.c_str());
  const Binary b = Save(first);
  double link_ms = 0, load_ms = 0;
  auto now = [] {
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) * 1e-6;
  };
  for (int i = 0; i < rounds; ++i) {
    double t0 = now();
    GLuint p = harness::CompileProgram(vs, fs.c_str());
    double t1 = now();
    GLuint q = glCreateProgram();
    Load(q, b, b.bytes.size());
    CHECK(LinkStatus(q) == GL_TRUE);
    double t2 = now();
    link_ms += t1 - t0;
    load_ms += t2 - t1;
    glDeleteProgram(p);
    glDeleteProgram(q);
  }
  std::printf("compile+link from source: %.3f ms per program; glProgramBinary: %.3f ms per program (%.1fx)\n",
              link_ms / rounds, load_ms / rounds, link_ms / std::max(load_ms, 1e-9));
  harness::Close(w);
  return harness::Summary();
}

}  // namespace

int main(int argc, char** argv) {
  bool expect_probe = false, kill_switch = false, cross = false, expect_refused = false;
  const char* load = nullptr;
  int rounds = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--es") == 0)
      g_es = true;
    else if (std::strcmp(argv[i], "--expect-probe") == 0)
      expect_probe = true;
    else if (std::strcmp(argv[i], "--kill-switch") == 0)
      kill_switch = true;
    else if (std::strcmp(argv[i], "--cross-process") == 0)
      cross = true;
    else if (std::strcmp(argv[i], "--expect-refused") == 0)
      expect_refused = true;
    else if (std::strcmp(argv[i], "--load") == 0 && i + 1 < argc)
      load = argv[++i];
    else if (std::strcmp(argv[i], "--time") == 0 && i + 1 < argc)
      rounds = std::atoi(argv[++i]);
  }
  harness::StatsFile stats;
  harness::Window w = harness::Open(kSize, kSize, g_es);
  const std::string renderer = harness::PrintVendor();
  g_caldera = std::strstr(reinterpret_cast<const char*>(glGetString(GL_VENDOR)), "Caldera") != nullptr;
  if (kill_switch) return RunKillSwitch(w);
  if (load) return RunLoad(load, expect_refused, w);
  if (cross) return RunCrossProcess(argv[0], w);
  if (rounds > 0) return RunTiming(rounds, w);
  return RunMain(expect_probe, stats, w);
}
