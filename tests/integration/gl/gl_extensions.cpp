// The extensions a context advertises, against the extension table (src/api/extensions.txt), in a desktop
// 3.3 core, a 3.3 compatibility, an ES 2.0 and an ES 3.0 context. For each advertised extension every entry
// point of its row resolves through eglGetProcAddress and answers a call with invalid arguments (the runner
// fails on Caldera's "not implemented" log marker); GLSL extensions compile in an #extension directive; and
// the ES extensions with rules of their own (GL_OES_mapbuffer, GL_EXT_discard_framebuffer, ...) are checked
// directly. The same binary runs against Mesa llvmpipe, where every extension of the table must be
// advertised too: Caldera lists nothing a real implementation of that context kind does not.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "extension_test_data_gen.h"
#include "gl_harness.h"

#ifndef GL_BGRA_EXT
#define GL_BGRA_EXT 0x80E1
#endif

namespace {

enum class Kind { kDesktop, kCompat, kES2, kES3 };
const char* KindName(Kind k) {
  return k == Kind::kDesktop  ? "GL 3.3 core"
         : k == Kind::kCompat ? "GL 3.3 compatibility"
         : k == Kind::kES2    ? "ES 2.0"
                              : "ES 3.0";
}
bool IsDesktop(Kind k) {
  return k == Kind::kDesktop || k == Kind::kCompat;
}

bool g_caldera = false;
bool g_vulkan = false;  // Caldera on its Vulkan backend (GL_RENDERER "Caldera (Vulkan: ...)")

std::set<std::string> Advertised(Kind kind) {
  std::set<std::string> names;
  GLint n = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &n);
  CHECK_GL_ERROR(GL_NO_ERROR);
  for (GLint i = 0; i < n; ++i) {
    auto* s = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i)));
    CHECK(s != nullptr);
    if (s) names.insert(s);
  }
  CHECK(names.size() == size_t(n));  // no duplicates
  if (kind != Kind::kDesktop) {
    // ES and compatibility contexts keep the space-separated string; it must name the same set.
    auto* joined = reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS));
    CHECK(joined != nullptr);
    std::set<std::string> from_string;
    std::string word;
    for (const char* p = joined ? joined : "";; ++p) {
      if (*p == ' ' || *p == '\0') {
        if (!word.empty()) from_string.insert(word);
        word.clear();
        if (!*p) break;
      } else {
        word += *p;
      }
    }
    CHECK(from_string == names);
  } else {
    glGetString(GL_EXTENSIONS);  // gone from core profiles' glGetString
    CHECK_GL_ERROR(GL_INVALID_ENUM);
  }
  return names;
}

bool IsConditional(const char* name) {
  for (const auto& c : extension_table::kConditional)
    if (std::strcmp(c.extension, name) == 0) return true;
  return false;
}

// Caldera advertises exactly its table's rows (capability rows may be absent); Mesa advertises every row.
void CompareWithTable(Kind kind, const std::set<std::string>& advertised) {
  std::set<std::string> table;
  if (IsDesktop(kind))
    for (const char* n : extension_table::kAdvertisedDesktop) table.insert(n);
  else
    for (const char* n : extension_table::kAdvertisedES) table.insert(n);
  // Compatibility contexts add their own rows and GL_ARB_compatibility; a core context lists none of them
  // (the check below fails on one that is not in its table).
  if (kind == Kind::kCompat) {
    for (const char* n : extension_table::kAdvertisedCompat) table.insert(n);
    table.insert("GL_ARB_compatibility");
  }
  for (const auto& name : table) {
    if (advertised.count(name) || (g_caldera && IsConditional(name.c_str()))) continue;
    std::fprintf(stderr, "  %s: %s is in the table but not advertised\n", KindName(kind), name.c_str());
    CHECK(advertised.count(name));
  }
  if (!g_caldera) return;
  for (const auto& name : advertised) {
    if (table.count(name)) continue;
    std::fprintf(stderr, "  %s: %s is advertised but not in the table\n", KindName(kind), name.c_str());
    CHECK(table.count(name));
  }
}

// Calls every entry point of every advertised extension with all-zero arguments: a zero target, name,
// count or pointer is invalid or a no-op for each of them, so a real implementation records an error or
// does nothing; an unimplemented one logs the marker the runner looks for. Zero integer and pointer
// arguments are passed in registers and on the stack as the x86-64 and AArch64 calling conventions place
// them; floating-point parameters (glDepthRangef, glClearDepthf) take whatever is in their registers, which
// those commands clamp.
void CallEntryPoints(Kind kind, const std::set<std::string>& advertised) {
  using Zeros = void (*)(intptr_t, intptr_t, intptr_t, intptr_t, intptr_t, intptr_t, intptr_t, intptr_t,
                         intptr_t, intptr_t, intptr_t, intptr_t);
  int called = 0;
  for (const auto& e : extension_table::kEntries) {
    const bool in_kind = kind == Kind::kDesktop  ? e.desktop
                         : kind == Kind::kCompat ? e.desktop || e.compat
                                                 : e.es;
    if (!in_kind || !advertised.count(e.extension)) continue;
    void* proc = reinterpret_cast<void*>(eglGetProcAddress(e.command));
    if (!proc)
      std::fprintf(stderr, "  %s: %s (%s) does not resolve\n", KindName(kind), e.command, e.extension);
    CHECK(proc != nullptr);
    if (!proc) continue;
    // Compatibility-profile vector forms read through their pointer unchecked everywhere: resolved only.
    if (kind == Kind::kCompat && e.pointers) continue;
    reinterpret_cast<Zeros>(proc)(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    while (glGetError() != GL_NO_ERROR) {
    }
    ++called;
  }
  std::printf("%s: called %d extension entry points\n", KindName(kind), called);
  CHECK(called > 0);
}

GLuint Compile(GLenum stage, const char* source, bool expect_ok) {
  GLuint s = glCreateShader(stage);
  glShaderSource(s, 1, &source, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (bool(ok) != expect_ok) {
    char log[1024] = {};
    glGetShaderInfoLog(s, sizeof log, nullptr, log);
    std::fprintf(stderr, "  compile %s unexpectedly:\n%s\n  log: %s\n", ok ? "passed" : "failed", source,
                 log);
  }
  CHECK(bool(ok) == expect_ok);
  return s;
}

// GL_ARB_shading_language_packing at run time (inputs from uniforms, so the compiler cannot fold them): a
// full-screen quad whose colour says whether the functions worked.
void ShaderPacking() {
  const char* vs =
      "#version 330 core\nlayout(location = 0) in vec2 pos;\n"
      "void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
  const char* fs =
      "#version 330 core\n#extension GL_ARB_shading_language_packing : require\n"
      "uniform vec2 unorm;\nuniform vec2 half_in;\nout vec4 color;\nvoid main() {\n"
      "  vec2 u = unpackUnorm2x16(packUnorm2x16(unorm));\n"
      "  vec2 h = unpackHalf2x16(packHalf2x16(half_in));\n"
      "  color = vec4(u.x, u.y, h == vec2(0.5, -2.0) ? 1.0 : 0.0, 1.0);\n}\n";
  GLuint prog = harness::CompileProgram(vs, fs);
  glUseProgram(prog);
  glUniform2f(glGetUniformLocation(prog, "unorm"), 0.25f, 0.75f);
  glUniform2f(glGetUniformLocation(prog, "half_in"), 0.5f, -2.0f);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLuint vao, buf;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glGenBuffers(1, &buf);
  glBindBuffer(GL_ARRAY_BUFFER, buf);
  const float quad[8] = {-1, -1, 1, -1, -1, 1, 1, 1};
  glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glViewport(0, 0, 8, 8);
  glClearColor(0, 0, 0, 0);
  glClear(GL_COLOR_BUFFER_BIT);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  uint8_t px[4] = {};
  glReadPixels(4, 4, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  CHECK_GL_ERROR(GL_NO_ERROR);
  bool ok = std::abs(px[0] - 64) <= 1 && std::abs(px[1] - 191) <= 1 && px[2] == 255 && px[3] == 255;
  if (!ok) std::fprintf(stderr, "  packing functions gave %d %d %d %d\n", px[0], px[1], px[2], px[3]);
  CHECK(ok);
  glDeleteBuffers(1, &buf);
  glDeleteVertexArrays(1, &vao);
  glDeleteProgram(prog);
}

void Directives(Kind kind, const std::set<std::string>& advertised) {
  for (const auto& d : extension_table::kDirectives) {
    if (!(IsDesktop(kind) ? d.desktop : d.es) || !advertised.count(d.extension)) continue;
    // ESSL 3.00 forms of extensions (`_essl3`) exist only in ESSL 3.00 shaders.
    const bool essl3 = std::strstr(d.extension, "_essl3") != nullptr;
    std::string src = IsDesktop(kind) ? "#version 330 core\n"
                      : essl3         ? "#version 300 es\n"
                                      : "#version 100\n";
    src += std::string("#extension ") + d.extension + " : require\n";
    if (IsDesktop(kind)) {
      src += "out vec4 color;\nvoid main() { color = vec4(1.0); }\n";
    } else if (essl3) {
      src += "precision mediump float;\nout vec4 color;\nvoid main() { color = vec4(1.0); }\n";
    } else if (std::strcmp(d.extension, "GL_OES_standard_derivatives") == 0) {
      src +=
          "precision mediump float;\nvarying vec2 uv;\n"
          "void main() { gl_FragColor = vec4(dFdx(uv.x), dFdy(uv.y), fwidth(uv.x), 1.0); }\n";
    } else {
      src += "void main() { gl_FragColor = vec4(1.0); }\n";
    }
    glDeleteShader(Compile(GL_FRAGMENT_SHADER, src.c_str(), true));
  }
  // Negative control: a directive naming an extension nobody has fails to compile.
  const char* bogus =
      IsDesktop(kind) ? "#version 330 core\n#extension GL_CALDERA_no_such_thing : require\nvoid main() {}\n"
                      : "#version 100\n#extension GL_CALDERA_no_such_thing : require\nvoid main() {}\n";
  glDeleteShader(Compile(GL_FRAGMENT_SHADER, bogus, false));
  CHECK_GL_ERROR(GL_NO_ERROR);
}

using MapBufferFn = void*(APIENTRY*)(GLenum, GLenum);
using UnmapBufferFn = GLboolean(APIENTRY*)(GLenum);
using GetBufferPointervFn = void(APIENTRY*)(GLenum, GLenum, void**);
using DiscardFramebufferFn = void(APIENTRY*)(GLenum, GLsizei, const GLenum*);

// GL_OES_mapbuffer: write-only whole-buffer maps, the three queries, the errors; and the written bytes
// reach a draw (what glmark2's buffer scene does).
void OesMapbuffer() {
  auto map = reinterpret_cast<MapBufferFn>(eglGetProcAddress("glMapBufferOES"));
  auto unmap = reinterpret_cast<UnmapBufferFn>(eglGetProcAddress("glUnmapBufferOES"));
  auto pointer = reinterpret_cast<GetBufferPointervFn>(eglGetProcAddress("glGetBufferPointervOES"));
  CHECK(map && unmap && pointer);
  if (!map || !unmap || !pointer) return;

  GLuint buf;
  glGenBuffers(1, &buf);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  CHECK(map(GL_ARRAY_BUFFER, GL_WRITE_ONLY) == nullptr);  // nothing bound
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glBindBuffer(GL_ARRAY_BUFFER, buf);
  const float far_away[6] = {-9, -9, -8, -9, -9, -8};  // a triangle off screen, replaced through the map
  glBufferData(GL_ARRAY_BUFFER, sizeof far_away, far_away, GL_STATIC_DRAW);
  GLint v = -1;
  glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_ACCESS, &v);  // GL_BUFFER_ACCESS_OES
  CHECK(v == GL_WRITE_ONLY);                                      // the only access ES knows
  glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_MAPPED, &v);
  CHECK(v == GL_FALSE);
  CHECK(map(GL_ARRAY_BUFFER, GL_READ_ONLY) == nullptr);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  CHECK(map(GL_ARRAY_BUFFER, GL_READ_WRITE) == nullptr);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  CHECK(map(GL_TEXTURE_2D, GL_WRITE_ONLY) == nullptr);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  CHECK(unmap(GL_ARRAY_BUFFER) == GL_FALSE);  // not mapped
  CHECK_GL_ERROR(GL_INVALID_OPERATION);

  auto* p = static_cast<float*>(map(GL_ARRAY_BUFFER, GL_WRITE_ONLY));
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(p != nullptr);
  if (!p) return;
  glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_MAPPED, &v);
  CHECK(v == GL_TRUE);
  glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_ACCESS, &v);
  CHECK(v == GL_WRITE_ONLY);
  void* queried = nullptr;
  pointer(GL_ARRAY_BUFFER, GL_BUFFER_MAP_POINTER, &queried);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(queried == p);
  CHECK(map(GL_ARRAY_BUFFER, GL_WRITE_ONLY) == nullptr);  // already mapped
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  const float full_screen[6] = {-1, -1, 3, -1, -1, 3};
  std::memcpy(p, full_screen, sizeof full_screen);
  CHECK(unmap(GL_ARRAY_BUFFER) == GL_TRUE);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_MAPPED, &v);
  CHECK(v == GL_FALSE);
  pointer(GL_ARRAY_BUFFER, GL_BUFFER_MAP_POINTER, &queried);
  CHECK(queried == nullptr);

  // The bytes written through the map are what a draw reads.
  GLuint prog = harness::CompileProgram(
      "#version 100\nattribute vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n",
      "#version 100\nprecision mediump float;\nvoid main() { gl_FragColor = vec4(0.0, 1.0, 0.0, 1.0); }\n");
  glUseProgram(prog);
  glBindAttribLocation(prog, 0, "pos");
  glLinkProgram(prog);
  glUseProgram(prog);
  glViewport(0, 0, 8, 8);
  glClearColor(1, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  uint8_t px[4] = {};
  glReadPixels(4, 4, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(px[0] == 0 && px[1] == 255 && px[2] == 0);
  glDisableVertexAttribArray(0);
  glDeleteProgram(prog);
  glDeleteBuffers(1, &buf);
}

// Desktop glMapBuffer: every access, and GL_BUFFER_ACCESS names it.
void DesktopMapBuffer() {
  GLuint buf;
  glGenBuffers(1, &buf);
  glBindBuffer(GL_COPY_WRITE_BUFFER, buf);
  const uint32_t words[4] = {1, 2, 3, 4};
  glBufferData(GL_COPY_WRITE_BUFFER, sizeof words, words, GL_STATIC_DRAW);
  GLint v = -1;
  glGetBufferParameteriv(GL_COPY_WRITE_BUFFER, GL_BUFFER_ACCESS, &v);
  CHECK(v == GL_READ_WRITE);  // the initial value
  for (GLenum access : {GL_READ_ONLY, GL_WRITE_ONLY, GL_READ_WRITE}) {
    void* p = glMapBuffer(GL_COPY_WRITE_BUFFER, access);
    CHECK(p != nullptr);
    glGetBufferParameteriv(GL_COPY_WRITE_BUFFER, GL_BUFFER_ACCESS, &v);
    CHECK(v == GLint(access));
    if (p && access == GL_READ_ONLY) CHECK(std::memcmp(p, words, sizeof words) == 0);
    CHECK(glUnmapBuffer(GL_COPY_WRITE_BUFFER) == GL_TRUE);
  }
  glMapBuffer(GL_COPY_WRITE_BUFFER, GL_MAP_READ_BIT);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glDeleteBuffers(1, &buf);
}

// GL_EXT_discard_framebuffer: glInvalidateFramebuffer's attachments and errors.
void DiscardFramebuffer() {
  auto discard = reinterpret_cast<DiscardFramebufferFn>(eglGetProcAddress("glDiscardFramebufferEXT"));
  CHECK(discard != nullptr);
  if (!discard) return;
  const GLenum window_color[] = {GL_COLOR};  // GL_COLOR_EXT
  discard(GL_FRAMEBUFFER, 1, window_color);
  CHECK_GL_ERROR(GL_NO_ERROR);
  discard(GL_TEXTURE_2D, 1, window_color);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  discard(GL_FRAMEBUFFER, -1, window_color);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  GLuint fbo = harness::ColorTarget(4, 4, GL_RGBA8);
  const GLenum attachment[] = {GL_COLOR_ATTACHMENT0};
  discard(GL_FRAMEBUFFER, 1, attachment);
  CHECK_GL_ERROR(GL_NO_ERROR);
  discard(GL_FRAMEBUFFER, 1, window_color);  // a window name on a framebuffer object
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
}

// GL_OES_depth_texture: unsized depth textures of 16- and 32-bit texels attach as depth.
void DepthTexture() {
  GLuint depth_prog = harness::CompileProgram(
      "#version 100\nattribute vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n",
      "#version 100\nprecision mediump float;\nvoid main() { gl_FragColor = vec4(1.0); }\n");
  glBindAttribLocation(depth_prog, 0, "pos");
  glLinkProgram(depth_prog);
  // Samples the depth texture as glmark2's shadow scene does: texture2D(...).x is the stored depth.
  GLuint sample_prog = harness::CompileProgram(
      "#version 100\nattribute vec2 pos;\nvarying vec2 uv;\n"
      "void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, 0.0, 1.0); }\n",
      "#version 100\nprecision mediump float;\nvarying vec2 uv;\nuniform sampler2D depth;\n"
      "void main() { gl_FragColor = vec4(texture2D(depth, uv).x, 0.0, 0.0, 1.0); }\n");
  glBindAttribLocation(sample_prog, 0, "pos");
  glLinkProgram(sample_prog);
  GLuint buf;
  glGenBuffers(1, &buf);
  glBindBuffer(GL_ARRAY_BUFFER, buf);
  const float quads[16] = {-1, -1, 0, -1, -1, 1, 0, 1,   // left half (depth 0.5 in window coordinates)
                           -1, -1, 1, -1, -1, 1, 1, 1};  // the whole target
  glBufferData(GL_ARRAY_BUFFER, sizeof quads, quads, GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  for (GLenum type : {GL_UNSIGNED_SHORT, GL_UNSIGNED_INT}) {
    GLuint tex, fbo;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT, 8, 8, 0, GL_DEPTH_COMPONENT, type, nullptr);
    CHECK_GL_ERROR(GL_NO_ERROR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, tex, 0);
    const GLenum none = GL_NONE;
    glDrawBuffers(1, &none);
    glReadBuffer(GL_NONE);
    CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
    glViewport(0, 0, 8, 8);
    glClearDepthf(1.0f);
    glClear(GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glUseProgram(depth_prog);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glDisable(GL_DEPTH_TEST);
    CHECK_GL_ERROR(GL_NO_ERROR);

    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glUseProgram(sample_prog);
    glDrawArrays(GL_TRIANGLE_STRIP, 4, 4);
    uint8_t left[4] = {}, right[4] = {};
    glReadPixels(1, 4, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, left);
    glReadPixels(6, 4, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, right);
    CHECK_GL_ERROR(GL_NO_ERROR);
    if (std::abs(left[0] - 128) > 2 || right[0] != 255)
      std::fprintf(stderr, "  depth texture (type 0x%04x) samples %d and %d, want 128 and 255\n", type,
                   left[0], right[0]);
    CHECK(std::abs(left[0] - 128) <= 2 && right[0] == 255);
    glDeleteFramebuffers(1, &fbo);
    glDeleteTextures(1, &tex);
  }
  glDisableVertexAttribArray(0);
  glDeleteBuffers(1, &buf);
  glDeleteProgram(depth_prog);
  glDeleteProgram(sample_prog);
}

// GL_EXT_read_format_bgra: a BGRA readback swaps red and blue.
void ReadFormatBgra() {
  GLuint fbo = harness::ColorTarget(4, 4, GL_RGBA8);
  glClearColor(1.0f, 0.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  uint8_t px[4] = {};
  glReadPixels(1, 1, 1, 1, GL_BGRA_EXT, GL_UNSIGNED_BYTE, px);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(px[0] == 0 && px[1] == 0 && px[2] == 255 && px[3] == 255);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
}

// GL_EXT_texture_format_BGRA8888: a GL_BGRA_EXT texture of GL_BGRA_EXT texels samples as the colours they
// name (blue here: the first byte is blue), and its sub-images take the same order.
void TextureFormatBgra() {
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  const uint8_t blue_bgra[4 * 4] = {255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255};
  glTexImage2D(GL_TEXTURE_2D, 0, GL_BGRA_EXT, 2, 2, 0, GL_BGRA_EXT, GL_UNSIGNED_BYTE, blue_bgra);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  const uint8_t red_bgra[4] = {0, 0, 255, 255};
  glTexSubImage2D(GL_TEXTURE_2D, 0, 1, 1, 1, 1, GL_BGRA_EXT, GL_UNSIGNED_BYTE, red_bgra);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLuint prog = harness::CompileProgram(
      "#version 100\nattribute vec2 pos;\nvarying vec2 uv;\n"
      "void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, 0.0, 1.0); }\n",
      "#version 100\nprecision mediump float;\nvarying vec2 uv;\nuniform sampler2D tex;\n"
      "void main() { gl_FragColor = texture2D(tex, uv); }\n");
  glBindAttribLocation(prog, 0, "pos");
  glLinkProgram(prog);
  glUseProgram(prog);
  GLuint buf;
  glGenBuffers(1, &buf);
  glBindBuffer(GL_ARRAY_BUFFER, buf);
  const float quad[8] = {-1, -1, 1, -1, -1, 1, 1, 1};
  glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glViewport(0, 0, 8, 8);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  uint8_t low[4] = {}, high[4] = {};
  glReadPixels(1, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, low);
  glReadPixels(6, 6, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, high);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(low[0] == 0 && low[1] == 0 && low[2] == 255 && low[3] == 255);
  CHECK(high[0] == 255 && high[1] == 0 && high[2] == 0 && high[3] == 255);
  glDisableVertexAttribArray(0);
  glDeleteBuffers(1, &buf);
  glDeleteProgram(prog);
  glDeleteTextures(1, &tex);
}

// GL_EXT_color_buffer_float: the 16- and 32-bit float formats and R11F_G11F_B10F are colour-renderable,
// renderbuffers and textures alike; a clear keeps values outside [0, 1] and reads back as GL_FLOAT.
void ColorBufferFloat() {
  struct Case {
    GLenum format;
    int channels;
    float tolerance;
  };
  const Case cases[] = {{GL_R16F, 1, 1e-3f},          {GL_RG16F, 2, 1e-3f}, {GL_RGBA16F, 4, 1e-3f},
                        {GL_R32F, 1, 0.0f},           {GL_RG32F, 2, 0.0f},  {GL_RGBA32F, 4, 0.0f},
                        {GL_R11F_G11F_B10F, 3, 0.02f}};
  for (const Case& c : cases) {
    for (bool texture : {false, true}) {
      GLuint fbo, image;
      glGenFramebuffers(1, &fbo);
      glBindFramebuffer(GL_FRAMEBUFFER, fbo);
      if (texture) {
        glGenTextures(1, &image);
        glBindTexture(GL_TEXTURE_2D, image);
        glTexStorage2D(GL_TEXTURE_2D, 1, c.format, 4, 4);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, image, 0);
      } else {
        glGenRenderbuffers(1, &image);
        glBindRenderbuffer(GL_RENDERBUFFER, image);
        glRenderbufferStorage(GL_RENDERBUFFER, c.format, 4, 4);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, image);
      }
      CHECK_GL_ERROR(GL_NO_ERROR);
      bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
      if (!complete)
        std::fprintf(stderr, "  format 0x%04x (%s) is not renderable\n", c.format,
                     texture ? "texture" : "renderbuffer");
      CHECK(complete);
      const float value[4] = {2.5f, -1.5f, 0.25f, 4.0f};  // R11F_G11F_B10F has no sign: its green reads 0
      glClearColor(value[0], value[1], value[2], value[3]);
      glClear(GL_COLOR_BUFFER_BIT);
      float px[4] = {-9, -9, -9, -9};
      glReadPixels(1, 1, 1, 1, GL_RGBA, GL_FLOAT, px);
      CHECK_GL_ERROR(GL_NO_ERROR);
      for (int i = 0; i < 4; ++i) {
        float want = i >= c.channels ? (i == 3 ? 1.0f : 0.0f) : value[i];
        if (c.format == GL_R11F_G11F_B10F && i == 1) want = 0.0f;
        bool ok = std::fabs(px[i] - want) <= c.tolerance * std::fabs(want) + 1e-6f;
        if (!ok) std::fprintf(stderr, "  format 0x%04x channel %d: %g, want %g\n", c.format, i, px[i], want);
        CHECK(ok);
      }
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
      glDeleteFramebuffers(1, &fbo);
      if (texture)
        glDeleteTextures(1, &image);
      else
        glDeleteRenderbuffers(1, &image);
    }
  }
  glClearColor(0, 0, 0, 0);
}

// GL_EXT_robustness: bounded reads fail, writing nothing, when bufSize cannot hold the result.
void BoundedReads() {
  using ReadnPixelsFn = void(APIENTRY*)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, GLsizei, void*);
  using GetnUniformfvFn = void(APIENTRY*)(GLuint, GLint, GLsizei, GLfloat*);
  using GetnUniformivFn = void(APIENTRY*)(GLuint, GLint, GLsizei, GLint*);
  using ResetStatusFn = GLenum(APIENTRY*)();
  auto readn = reinterpret_cast<ReadnPixelsFn>(eglGetProcAddress("glReadnPixelsEXT"));
  auto getnf = reinterpret_cast<GetnUniformfvFn>(eglGetProcAddress("glGetnUniformfvEXT"));
  auto getni = reinterpret_cast<GetnUniformivFn>(eglGetProcAddress("glGetnUniformivEXT"));
  auto status = reinterpret_cast<ResetStatusFn>(eglGetProcAddress("glGetGraphicsResetStatusEXT"));
  CHECK(readn && getnf && getni && status);
  if (!readn || !getnf || !getni || !status) return;
  CHECK(status() == GL_NO_ERROR);

  GLuint fbo = harness::ColorTarget(4, 4, GL_RGBA8);
  glClearColor(0.0f, 1.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  uint8_t px[17];
  std::memset(px, 7, sizeof px);
  readn(0, 0, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE, 15, px);  // 2x2 RGBA8 needs 16 bytes
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(px[0] == 7 && px[15] == 7);
  readn(0, 0, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE, 16, px);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(px[0] == 0 && px[1] == 255 && px[15] == 255 && px[16] == 7);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);

  GLuint prog = harness::CompileProgram(
      "#version 100\nvoid main() { gl_Position = vec4(0.0); }\n",
      "#version 100\nprecision mediump float;\nuniform vec4 color;\nuniform int pick;\n"
      "void main() { gl_FragColor = color * float(pick); }\n");
  glUseProgram(prog);
  GLint color = glGetUniformLocation(prog, "color"), pick = glGetUniformLocation(prog, "pick");
  glUniform4f(color, 1.0f, 2.0f, 3.0f, 4.0f);
  glUniform1i(pick, 5);
  float v[5] = {-1, -1, -1, -1, -1};
  getnf(prog, color, 3 * sizeof(float), v);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(v[0] == -1);
  getnf(prog, color, 4 * sizeof(float), v);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(v[0] == 1.0f && v[3] == 4.0f && v[4] == -1);
  GLint i = -1;
  getni(prog, pick, 0, &i);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  getni(prog, pick, sizeof i, &i);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(i == 5);
  glUseProgram(0);
  glDeleteProgram(prog);
}

// GL_EXT_depth_clamp: a quad past the far plane is clipped, and drawn once depth clamping is on.
void DepthClamp() {
  GLuint prog = harness::CompileProgram(
      "#version 100\nattribute vec2 pos;\nvoid main() { gl_Position = vec4(pos, 1.5, 1.0); }\n",
      "#version 100\nprecision mediump float;\nvoid main() { gl_FragColor = vec4(1.0, 1.0, 0.0, 1.0); }\n");
  glBindAttribLocation(prog, 0, "pos");
  glLinkProgram(prog);
  glUseProgram(prog);
  GLuint buf;
  glGenBuffers(1, &buf);
  glBindBuffer(GL_ARRAY_BUFFER, buf);
  const float quad[8] = {-1, -1, 1, -1, -1, 1, 1, 1};
  glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glViewport(0, 0, 8, 8);
  CHECK(!glIsEnabled(GL_DEPTH_CLAMP));
  for (bool clamp : {false, true}) {
    if (clamp) glEnable(GL_DEPTH_CLAMP);
    CHECK_GL_ERROR(GL_NO_ERROR);
    CHECK(bool(glIsEnabled(GL_DEPTH_CLAMP)) == clamp);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    uint8_t px[4] = {};
    glReadPixels(4, 4, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    CHECK(px[0] == (clamp ? 255 : 0) && px[1] == (clamp ? 255 : 0));
  }
  glDisable(GL_DEPTH_CLAMP);
  glDisableVertexAttribArray(0);
  glDeleteBuffers(1, &buf);
  glDeleteProgram(prog);
}

// GL_OES_vertex_half_float: GL_HALF_FLOAT_OES positions draw, and the query names the type as given.
void VertexHalfFloat() {
  constexpr GLenum kHalfFloatOES = 0x8D61;
  GLuint prog = harness::CompileProgram(
      "#version 100\nattribute vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n",
      "#version 100\nprecision mediump float;\nvoid main() { gl_FragColor = vec4(0.0, 0.0, 1.0, 1.0); }\n");
  glBindAttribLocation(prog, 0, "pos");
  glLinkProgram(prog);
  glUseProgram(prog);
  // -1, 1 and 3 as IEEE half floats: a triangle covering the target.
  const uint16_t minus1 = 0xBC00, plus3 = 0x4200;
  const uint16_t tri[6] = {minus1, minus1, plus3, minus1, minus1, plus3};
  GLuint buf;
  glGenBuffers(1, &buf);
  glBindBuffer(GL_ARRAY_BUFFER, buf);
  glBufferData(GL_ARRAY_BUFFER, sizeof tri, tri, GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, kHalfFloatOES, GL_FALSE, 0, nullptr);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLint type = 0;
  glGetVertexAttribiv(0, GL_VERTEX_ATTRIB_ARRAY_TYPE, &type);
  CHECK(type == GLint(kHalfFloatOES));
  glViewport(0, 0, 8, 8);
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  uint8_t px[4] = {};
  glReadPixels(6, 6, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(px[0] == 0 && px[2] == 255);
  glDisableVertexAttribArray(0);
  glDeleteBuffers(1, &buf);
  glDeleteProgram(prog);
}

// GL_OES_fbo_render_mipmap: a level other than 0 is a colour attachment that clears and reads back.
void RenderToMipLevel() {
  GLuint tex, fbo;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexImage2D(GL_TEXTURE_2D, 1, GL_RGBA, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 1);  // levels 0..1: mipmap complete
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 1);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glViewport(0, 0, 4, 4);
  glClearColor(0.0f, 0.0f, 1.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  uint8_t px[4] = {};
  glReadPixels(3, 3, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(px[0] == 0 && px[1] == 0 && px[2] == 255 && px[3] == 255);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  glDeleteTextures(1, &tex);
}

// EGL_MESA_query_driver through glvnd's dispatch stubs: a name and a driconf XML document (freed with
// free()) for an initialised display; NULL with EGL_BAD_DISPLAY for a handle that is no display and with
// EGL_NOT_INITIALIZED for a terminated one (checked by the caller after eglTerminate).
using DriverNameFn = const char* (*)(EGLDisplay);
using DriverConfigFn = char* (*)(EGLDisplay);
DriverNameFn g_driver_name = nullptr;
DriverConfigFn g_driver_config = nullptr;

void QueryDriver(EGLDisplay dpy) {
  g_driver_name = reinterpret_cast<DriverNameFn>(eglGetProcAddress("eglGetDisplayDriverName"));
  g_driver_config = reinterpret_cast<DriverConfigFn>(eglGetProcAddress("eglGetDisplayDriverConfig"));
  CHECK(g_driver_name != nullptr && g_driver_config != nullptr);
  if (!g_driver_name || !g_driver_config) return;
  const char* name = g_driver_name(dpy);
  CHECK(eglGetError() == EGL_SUCCESS);
  CHECK(name != nullptr && name[0] != '\0');
  std::printf("EGL_MESA_query_driver: driver %s\n", name ? name : "(null)");
  if (g_caldera) CHECK(name && std::strcmp(name, "caldera") == 0);
  char* config = g_driver_config(dpy);
  CHECK(eglGetError() == EGL_SUCCESS);
  CHECK(config != nullptr && std::strstr(config, "<driinfo") != nullptr &&
        std::strstr(config, "</driinfo>") != nullptr);
  std::free(config);  // the extension hands the caller a string to free
  EGLDisplay bogus = reinterpret_cast<EGLDisplay>(static_cast<uintptr_t>(0x5eed));
  CHECK(g_driver_name(bogus) == nullptr);
  CHECK(eglGetError() == EGL_BAD_DISPLAY);
  CHECK(g_driver_config(bogus) == nullptr);
  CHECK(eglGetError() == EGL_BAD_DISPLAY);
}

void QueryDriverTerminated(EGLDisplay dpy) {
  if (!g_driver_name || !g_driver_config) return;
  CHECK(g_driver_name(dpy) == nullptr);
  CHECK(eglGetError() == EGL_NOT_INITIALIZED);
  CHECK(g_driver_config(dpy) == nullptr);
  CHECK(eglGetError() == EGL_NOT_INITIALIZED);
}

// EGL_KHR_context_flush_control with GL_KHR_context_flush_control: the attribute takes NONE or FLUSH (else
// EGL_BAD_ATTRIBUTE), GL_CONTEXT_RELEASE_BEHAVIOR reports it (FLUSH by default, in GL and ES), and a NONE
// context's releases skip the flush: on Caldera's Vulkan backend, 24 release cycles with a clear each cost
// no device submissions of their own (the backend's "submits" counter), while a FLUSH context submits at
// every release. The work is kept either way: the last clear is read back.
void ContextFlushControl(EGLDisplay dpy) {
  EGLContext current = eglGetCurrentContext();
  EGLSurface surface = eglGetCurrentSurface(EGL_DRAW);
  EGLint id = 0, n = 0;
  CHECK(eglQueryContext(dpy, current, EGL_CONFIG_ID, &id));
  EGLConfig config;
  const EGLint by_id[] = {EGL_CONFIG_ID, id, EGL_NONE};
  CHECK(eglChooseConfig(dpy, by_id, &config, 1, &n) && n == 1);
  GLint behavior = -1;
  glGetIntegerv(GL_CONTEXT_RELEASE_BEHAVIOR, &behavior);
  CHECK(behavior == GL_CONTEXT_RELEASE_BEHAVIOR_FLUSH);
  CHECK_GL_ERROR(GL_NO_ERROR);

  EGLint create_error = EGL_SUCCESS;  // eglBindAPI resets eglGetError: the lambda keeps the creation's
  auto create = [&](EGLenum api, EGLint major, EGLint release) {
    eglBindAPI(api);
    std::vector<EGLint> attribs = {EGL_CONTEXT_MAJOR_VERSION, major, EGL_CONTEXT_MINOR_VERSION,
                                   api == EGL_OPENGL_API ? 3 : 0};
    if (api == EGL_OPENGL_API)
      attribs.insert(attribs.end(), {EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT});
    attribs.insert(attribs.end(), {EGL_CONTEXT_RELEASE_BEHAVIOR_KHR, release, EGL_NONE});
    EGLContext c = eglCreateContext(dpy, config, EGL_NO_CONTEXT, attribs.data());
    create_error = eglGetError();
    eglBindAPI(EGL_OPENGL_API);
    return c;
  };
  // Neither NONE nor FLUSH: refused.
  CHECK(create(EGL_OPENGL_API, 3, 0x3039) == EGL_NO_CONTEXT);
  CHECK(create_error == EGL_BAD_ATTRIBUTE);
  CHECK(create(EGL_OPENGL_API, 3, EGL_TRUE) == EGL_NO_CONTEXT);
  CHECK(create_error == EGL_BAD_ATTRIBUTE);

  // ES reports the behaviour too (the GL extension is in both).
  EGLContext es = create(EGL_OPENGL_ES_API, 3, EGL_CONTEXT_RELEASE_BEHAVIOR_NONE_KHR);
  CHECK(es != EGL_NO_CONTEXT);
  if (es != EGL_NO_CONTEXT && eglMakeCurrent(dpy, surface, surface, es)) {
    behavior = -1;
    glGetIntegerv(GL_CONTEXT_RELEASE_BEHAVIOR, &behavior);
    CHECK(behavior == GL_NONE);
    CHECK_GL_ERROR(GL_NO_ERROR);
    CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
  }
  if (es != EGL_NO_CONTEXT) eglDestroyContext(dpy, es);

  // Release cycles, counted per context through CALDERA_STATS (Caldera appends a context's counters when
  // it is destroyed; other implementations write nothing and the counts read 0).
  constexpr int kCycles = 24;
  auto cycles = [&](EGLint release) -> long {
    long submits = 0;
    {
      harness::StatsFile stats;
      EGLContext c = create(EGL_OPENGL_API, 3, release);
      CHECK(c != EGL_NO_CONTEXT);
      if (c == EGL_NO_CONTEXT) return -1;
      for (int i = 0; i < kCycles; ++i) {
        CHECK(eglMakeCurrent(dpy, surface, surface, c));
        glClearColor(float(i) / 255.0f, 1.0f, 0.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
      }
      CHECK(eglMakeCurrent(dpy, surface, surface, c));
      GLint value = -1;
      glGetIntegerv(GL_CONTEXT_RELEASE_BEHAVIOR, &value);
      CHECK(value ==
            (release == EGL_CONTEXT_RELEASE_BEHAVIOR_NONE_KHR ? GL_NONE : GL_CONTEXT_RELEASE_BEHAVIOR_FLUSH));
      uint8_t px[4] = {};
      glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
      CHECK_GL_ERROR(GL_NO_ERROR);
      CHECK(px[0] == kCycles - 1 && px[1] == 255 && px[2] == 0);  // the last cycle's clear, none lost
      CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
      CHECK(eglDestroyContext(dpy, c));
      submits = stats.Sum("submits");
    }
    unsetenv("CALDERA_STATS");  // the file is gone: later contexts must not recreate it
    return submits;
  };
  const long none = cycles(EGL_CONTEXT_RELEASE_BEHAVIOR_NONE_KHR);
  const long flush = cycles(EGL_CONTEXT_RELEASE_BEHAVIOR_FLUSH_KHR);
  std::printf("EGL_KHR_context_flush_control: %d release cycles, device submissions: NONE %ld, FLUSH %ld\n",
              kCycles, none, flush);
  // Under CALDERA_PIPE=spawn the backend's counters stay in the server process.
  const char* pipe = std::getenv("CALDERA_PIPE");
  if (g_vulkan && !(pipe && std::strcmp(pipe, "spawn") == 0)) {
    CHECK(flush >= kCycles);        // negative control: every FLUSH release submitted its clear
    CHECK(none >= 1 && none <= 3);  // the read-back (and the destroy) only
  }
  CHECK(eglMakeCurrent(dpy, surface, surface, current));
}

// The EGL display's extensions: on Caldera each is one this list knows (and checks, or names the test that
// does); on Mesa the checks run for those it lists.
void DisplayExtensions(EGLDisplay dpy) {
  struct Known {
    const char* name;
    const char* covered_by;  // the test that checks it beyond what runs here
  };
  static const Known kKnown[] = {
      {"EGL_EXT_buffer_age", "windows-egl-x11 (age 1 after a swap, 0 after a resize)"},
      {"EGL_EXT_swap_buffers_with_damage", "windows-egl-x11 (the KHR entry; both share one implementation)"},
      {"EGL_EXT_create_context_robustness", "gl_robust_context (EXT attribute names, robust access bounded)"},
      {"EGL_KHR_config_attribs", "here"},
      {"EGL_KHR_context_flush_control", "here (NONE releases skip the flush: the backend's submit counter)"},
      {"EGL_KHR_create_context", "egl_conformance"},
      {"EGL_KHR_create_context_no_error", "egl_conformance"},
      {"EGL_KHR_fence_sync", "egl-fence-sync (real fences, cross-thread waits, errors)"},
      {"EGL_KHR_gl_colorspace",
       "windows-egl-x11 (an sRGB window shows encoded clears; a linear one does not)"},
      {"EGL_KHR_get_all_proc_addresses", "here (gl* names resolve through eglGetProcAddress)"},
      {"EGL_KHR_gl_renderbuffer_image", "egl-image (drawn in one context, sampled in another)"},
      {"EGL_KHR_gl_texture_2D_image", "egl-image (one storage across share groups, levels, errors)"},
      {"EGL_KHR_gl_texture_cubemap_image",
       "egl-image (each face its own image, drawn and sampled both ways)"},
      {"EGL_KHR_image_base", "egl-image (eglCreateImage and the KHR entry points, their errors)"},
      {"EGL_KHR_no_config_context", "egl_conformance"},
      {"EGL_MESA_configless_context", "piglit egl-configless-context (the KHR extension's EGL_NO_CONFIG under "
                                      "Mesa's older name)"},
      {"EGL_KHR_partial_update", "windows-egl-x11 (eglSetDamageRegionKHR's error rules, frames shown)"},
      {"EGL_KHR_surfaceless_context", "here"},
      {"EGL_KHR_swap_buffers_with_damage", "windows-egl-x11 (frames shown, bad rectangle counts)"},
      {"EGL_KHR_wait_sync", "egl-fence-sync (eglWaitSyncKHR in a shared context)"},
      {"EGL_MESA_query_driver", "here (through glvnd's dispatch stubs, with its display errors)"},
  };
  std::set<std::string> listed;
  std::string word;
  for (const char* p = eglQueryString(dpy, EGL_EXTENSIONS);; ++p) {
    if (!p) break;
    if (*p == ' ' || *p == '\0') {
      if (!word.empty()) listed.insert(word);
      word.clear();
      if (!*p) break;
    } else {
      word += *p;
    }
  }
  std::printf("EGL display: %zu extensions\n", listed.size());
  if (g_caldera) {
    for (const auto& name : listed) {
      bool known = false;
      for (const auto& k : kKnown) known = known || name == k.name;
      if (!known) std::fprintf(stderr, "  EGL display lists %s, which no check knows\n", name.c_str());
      CHECK(known);
    }
  }
  for (const char* name : {"EGL_MESA_query_driver", "EGL_KHR_context_flush_control"}) {
    if (g_caldera && !listed.count(name)) std::fprintf(stderr, "  EGL display does not list %s\n", name);
    if (g_caldera) CHECK(listed.count(name));
  }
  if (listed.count("EGL_MESA_query_driver")) QueryDriver(dpy);
  if (listed.count("EGL_KHR_context_flush_control")) ContextFlushControl(dpy);
  if (listed.count("EGL_KHR_config_attribs")) {
    // EGL_CONFORMANT_KHR: every config says which APIs it is conformant for; a choice by it finds ES 3.
    // The default EGL_RENDERABLE_TYPE is ES 1: name ES 3.
    EGLint conformant_attribs[] = {EGL_CONFORMANT,
                                   EGL_OPENGL_ES3_BIT,
                                   EGL_RENDERABLE_TYPE,
                                   EGL_OPENGL_ES3_BIT,
                                   EGL_SURFACE_TYPE,
                                   EGL_PBUFFER_BIT,
                                   EGL_NONE};
    EGLConfig config;
    EGLint n = 0;
    CHECK(eglChooseConfig(dpy, conformant_attribs, &config, 1, &n) && n == 1);
    EGLint v = 0;
    CHECK(n == 1 && eglGetConfigAttrib(dpy, config, EGL_CONFORMANT, &v) && (v & EGL_OPENGL_ES3_BIT));
    // No config has the OpenVG surface bits the extension defines: a choice by them finds nothing.
    EGLint vg_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE,
                           EGL_PBUFFER_BIT | EGL_VG_COLORSPACE_LINEAR_BIT, EGL_NONE};
    CHECK(eglChooseConfig(dpy, vg_attribs, &config, 1, &n) && n == 0);
  }
  if (listed.count("EGL_KHR_surfaceless_context")) {
    EGLContext ctx = eglGetCurrentContext();
    EGLSurface draw = eglGetCurrentSurface(EGL_DRAW), read = eglGetCurrentSurface(EGL_READ);
    CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
    CHECK(eglMakeCurrent(dpy, draw, read, ctx));
  }
}

void RunKind(Kind kind) {
  std::printf("== %s: %s\n", KindName(kind), reinterpret_cast<const char*>(glGetString(GL_VERSION)));
  auto advertised = Advertised(kind);
  std::printf("%s: %zu extensions\n", KindName(kind), advertised.size());
  CompareWithTable(kind, advertised);
  Directives(kind, advertised);
  if (kind == Kind::kDesktop) ShaderPacking();
  if (kind == Kind::kDesktop) {
    DesktopMapBuffer();
    // GL_HALF_FLOAT_OES is not a desktop type (GL 4.6 table 10.3). Mesa 22.3 takes it there anyway, so only
    // Caldera's answer is checked.
    GLuint vao, buf;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &buf);
    glBindBuffer(GL_ARRAY_BUFFER, buf);
    glVertexAttribPointer(0, 2, 0x8D61, GL_FALSE, 0, nullptr);
    if (g_caldera) CHECK_GL_ERROR(GL_INVALID_ENUM);
    while (glGetError() != GL_NO_ERROR) {
    }
    glDeleteBuffers(1, &buf);
    glDeleteVertexArrays(1, &vao);
  } else if (kind == Kind::kCompat) {
    // The compatibility rows' own behaviour is checked by the tests the table names (compat-api, the
    // compat scenes).
  } else {
    OesMapbuffer();
    DiscardFramebuffer();
    DepthTexture();
    ReadFormatBgra();
    RenderToMipLevel();
    TextureFormatBgra();
    ColorBufferFloat();
    BoundedReads();
    DepthClamp();
    VertexHalfFloat();
  }
  CHECK_GL_ERROR(GL_NO_ERROR);
  CallEntryPoints(kind, advertised);  // last: the zero calls may leave odd state (a zero sample mask, ...)
}

}  // namespace

int main() {
  {
    harness::Window w = harness::Open(8, 8);
    const std::string renderer = harness::PrintVendor();
    g_caldera = renderer.find("Caldera") != std::string::npos;
    g_vulkan = renderer.find("Caldera (Vulkan") != std::string::npos;
    RunKind(Kind::kDesktop);
    DisplayExtensions(w.display);
    harness::Close(w);
    QueryDriverTerminated(w.display);
  }
  {
    harness::Window w = harness::Open(8, 8, false, /*compat=*/true);
    RunKind(Kind::kCompat);
    harness::Close(w);
  }
  {
    harness::Window w = harness::Open(8, 8, true);
    RunKind(Kind::kES3);
    // An ES 2.0 context on the same config and surface.
    EGLint id = 0, n = 0;
    EGLConfig config;
    eglQueryContext(w.display, w.context, EGL_CONFIG_ID, &id);
    const EGLint by_id[] = {EGL_CONFIG_ID, id, EGL_NONE};
    CHECK(eglChooseConfig(w.display, by_id, &config, 1, &n) && n == 1);
    const EGLint es2[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
    EGLContext c = eglCreateContext(w.display, config, EGL_NO_CONTEXT, es2);
    CHECK(c != EGL_NO_CONTEXT);
    if (c != EGL_NO_CONTEXT && eglMakeCurrent(w.display, w.surface, w.surface, c)) {
      RunKind(Kind::kES2);
      eglMakeCurrent(w.display, w.surface, w.surface, w.context);
      eglDestroyContext(w.display, c);
    }
    harness::Close(w);
  }
  return harness::Summary();
}
