// Every GL 3.3 core state that a setter changes has its getter (reliability issue): the test walks the
// setters — each enable cap, each value setter, each binding — sets a value other than the default, and
// reads it back through glGetIntegerv / glGetFloatv / glGetBooleanv / glGetInteger64v (and glIsEnabled,
// glGetIntegeri_v for indexed state). A getter that answers GL_INVALID_ENUM, or a value that does not come
// back, fails. Run against Mesa llvmpipe too, so the expectations are GL's, not Caldera's.
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "gl_harness.h"

namespace {

struct Row {
  const char* what;
  std::function<void()> set;
  GLenum pname;
  std::vector<double> want;  // as glGetDoublev-like numbers; compared through every getter
  GLint index = -1;          // >= 0: indexed state (glGetIntegeri_v / glGetBooleani_v)
};

bool Near(double a, double b) {
  return std::fabs(a - b) <= 1e-4 * std::max(1.0, std::fabs(b));
}

// Reads `pname` through every typed getter and compares with `want`.
void CheckRow(const Row& r) {
  const size_t n = r.want.size();
  std::string label = std::string(r.what);
  while (glGetError() != GL_NO_ERROR) {
  }
  r.set();
  GLenum set_error = glGetError();
  if (set_error != GL_NO_ERROR) std::fprintf(stderr, "  %s: the setter raised 0x%04x\n", r.what, set_error);
  CHECK(set_error == GL_NO_ERROR);
  GLint ints[16] = {};
  GLfloat floats[16] = {};
  GLboolean bools[16] = {};
  GLint64 int64s[16] = {};
  if (r.index >= 0) {
    glGetIntegeri_v(r.pname, GLuint(r.index), ints);
    glGetInteger64i_v(r.pname, GLuint(r.index), int64s);
    glGetBooleani_v(r.pname, GLuint(r.index), bools);
    for (size_t i = 0; i < n; ++i) floats[i] = float(ints[i]);
  } else {
    glGetIntegerv(r.pname, ints);
    glGetFloatv(r.pname, floats);
    glGetBooleanv(r.pname, bools);
    glGetInteger64v(r.pname, int64s);
  }
  GLenum get_error = glGetError();
  if (get_error != GL_NO_ERROR) std::fprintf(stderr, "  %s: the getters raised 0x%04x\n", r.what, get_error);
  CHECK(get_error == GL_NO_ERROR);
  bool ok = true;
  for (size_t i = 0; i < n; ++i) {
    double w = r.want[i];
    // Integer getters map colour and depth values onto the integer range, and round other floats (GL 3.3
    // §6.1.2): those are compared through the float getter only.
    bool normalized = r.pname == GL_BLEND_COLOR || r.pname == GL_COLOR_CLEAR_VALUE ||
                      r.pname == GL_DEPTH_CLEAR_VALUE || r.pname == GL_DEPTH_RANGE;
    bool fractional = normalized || std::fabs(w - std::round(w)) > 1e-6;
    if (!Near(floats[i], w)) ok = false;
    if (!fractional && (ints[i] != GLint(std::llround(w)) || int64s[i] != GLint64(std::llround(w)))) ok = false;
    if (bools[i] != (w != 0.0 ? GL_TRUE : GL_FALSE)) ok = false;
  }
  if (!ok) {
    std::fprintf(stderr, "  %s:", r.what);
    for (size_t i = 0; i < n; ++i)
      std::fprintf(stderr, " [%zu] want %g, got int %d float %g bool %d int64 %lld", i, r.want[i], ints[i],
                   double(floats[i]), bools[i], static_cast<long long>(int64s[i]));
    std::fprintf(stderr, "\n");
  }
  CHECK(ok);
}

void CheckCaps() {
  const GLenum caps[] = {GL_BLEND,
                         GL_CLIP_DISTANCE0,
                         GL_CLIP_DISTANCE7,
                         GL_COLOR_LOGIC_OP,
                         GL_CULL_FACE,
                         GL_DEPTH_CLAMP,
                         GL_DEPTH_TEST,
                         GL_FRAMEBUFFER_SRGB,
                         GL_LINE_SMOOTH,
                         GL_POLYGON_OFFSET_FILL,
                         GL_POLYGON_OFFSET_LINE,
                         GL_POLYGON_OFFSET_POINT,
                         GL_POLYGON_SMOOTH,
                         GL_PRIMITIVE_RESTART,
                         GL_PROGRAM_POINT_SIZE,
                         GL_RASTERIZER_DISCARD,
                         GL_SAMPLE_ALPHA_TO_COVERAGE,
                         GL_SAMPLE_ALPHA_TO_ONE,
                         GL_SAMPLE_COVERAGE,
                         GL_SAMPLE_MASK,
                         GL_SCISSOR_TEST,
                         GL_STENCIL_TEST,
                         GL_TEXTURE_CUBE_MAP_SEAMLESS};
  for (GLenum cap : caps) {
    for (bool on : {true, false}) {
      if (on)
        glEnable(cap);
      else
        glDisable(cap);
      GLboolean b = glIsEnabled(cap);
      GLint i = -1;
      glGetIntegerv(cap, &i);
      GLenum e = glGetError();
      bool ok = e == GL_NO_ERROR && b == (on ? GL_TRUE : GL_FALSE) && i == (on ? 1 : 0);
      if (!ok) std::fprintf(stderr, "  cap 0x%04x %s: error 0x%04x, glIsEnabled %d, glGetIntegerv %d\n", cap,
                            on ? "on" : "off", e, b, i);
      CHECK(ok);
    }
  }
  // Dither and multisample default to on: check them the other way round.
  for (GLenum cap : {GL_DITHER, GL_MULTISAMPLE}) {
    CHECK(glIsEnabled(cap) == GL_TRUE);
    glDisable(cap);
    CHECK(glIsEnabled(cap) == GL_FALSE);
    glEnable(cap);
    CHECK_GL_ERROR(GL_NO_ERROR);
  }
}

}  // namespace

int main() {
  harness::Window w = harness::Open(64, 64);
  harness::PrintVendor();
  CheckCaps();

  GLuint buffers[8], textures[6], vao, fbo[2], rbo, sampler, xfb;
  glGenBuffers(8, buffers);
  glGenTextures(6, textures);
  glGenVertexArrays(1, &vao);
  glGenFramebuffers(2, fbo);
  glGenRenderbuffers(1, &rbo);
  glGenSamplers(1, &sampler);
  glGenTransformFeedbacks(1, &xfb);
  const char* vs = "#version 330 core\nvoid main() { gl_Position = vec4(0.0); }\n";
  const char* fs = "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
  GLuint program = harness::CompileProgram(vs, fs);

  const std::vector<Row> rows = {
      // Blending and colour.
      {"glBlendColor", [] { glBlendColor(0.25f, 0.5f, 0.75f, 1.0f); }, GL_BLEND_COLOR, {0.25, 0.5, 0.75, 1}},
      {"glBlendEquationSeparate rgb", [] { glBlendEquationSeparate(GL_FUNC_SUBTRACT, GL_MAX); },
       GL_BLEND_EQUATION_RGB, {GL_FUNC_SUBTRACT}},
      {"glBlendEquationSeparate alpha", [] {}, GL_BLEND_EQUATION_ALPHA, {GL_MAX}},
      {"glBlendFuncSeparate src rgb",
       [] { glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_DST_COLOR, GL_ZERO); },
       GL_BLEND_SRC_RGB, {GL_SRC_ALPHA}},
      {"glBlendFuncSeparate dst rgb", [] {}, GL_BLEND_DST_RGB, {GL_ONE_MINUS_SRC_ALPHA}},
      {"glBlendFuncSeparate src alpha", [] {}, GL_BLEND_SRC_ALPHA, {GL_DST_COLOR}},
      {"glBlendFuncSeparate dst alpha", [] {}, GL_BLEND_DST_ALPHA, {GL_ZERO}},
      {"glColorMask", [] { glColorMask(GL_TRUE, GL_FALSE, GL_TRUE, GL_FALSE); }, GL_COLOR_WRITEMASK, {1, 0, 1, 0}},
      {"glLogicOp", [] { glLogicOp(GL_XOR); }, GL_LOGIC_OP_MODE, {GL_XOR}},
      {"glClampColor", [] { glClampColor(GL_CLAMP_READ_COLOR, GL_FALSE); }, GL_CLAMP_READ_COLOR, {GL_FALSE}},
      // Clears.
      {"glClearColor", [] { glClearColor(0.5f, 0.25f, 0.125f, 0.75f); }, GL_COLOR_CLEAR_VALUE,
       {0.5, 0.25, 0.125, 0.75}},
      {"glClearDepth", [] { glClearDepth(0.5); }, GL_DEPTH_CLEAR_VALUE, {0.5}},
      {"glClearStencil", [] { glClearStencil(7); }, GL_STENCIL_CLEAR_VALUE, {7}},
      // Depth and stencil.
      {"glDepthFunc", [] { glDepthFunc(GL_GEQUAL); }, GL_DEPTH_FUNC, {GL_GEQUAL}},
      {"glDepthMask", [] { glDepthMask(GL_FALSE); }, GL_DEPTH_WRITEMASK, {0}},
      {"glDepthRange", [] { glDepthRange(0.25, 0.75); }, GL_DEPTH_RANGE, {0.25, 0.75}},
      {"glStencilFuncSeparate front", [] { glStencilFuncSeparate(GL_FRONT, GL_LESS, 3, 0x0f); },
       GL_STENCIL_FUNC, {GL_LESS}},
      {"glStencilFuncSeparate front ref", [] {}, GL_STENCIL_REF, {3}},
      {"glStencilFuncSeparate front mask", [] {}, GL_STENCIL_VALUE_MASK, {0x0f}},
      {"glStencilFuncSeparate back", [] { glStencilFuncSeparate(GL_BACK, GL_GREATER, 5, 0x3c); },
       GL_STENCIL_BACK_FUNC, {GL_GREATER}},
      {"glStencilFuncSeparate back ref", [] {}, GL_STENCIL_BACK_REF, {5}},
      {"glStencilFuncSeparate back mask", [] {}, GL_STENCIL_BACK_VALUE_MASK, {0x3c}},
      {"glStencilOpSeparate front fail", [] { glStencilOpSeparate(GL_FRONT, GL_INCR, GL_DECR, GL_INVERT); },
       GL_STENCIL_FAIL, {GL_INCR}},
      {"glStencilOpSeparate front zfail", [] {}, GL_STENCIL_PASS_DEPTH_FAIL, {GL_DECR}},
      {"glStencilOpSeparate front zpass", [] {}, GL_STENCIL_PASS_DEPTH_PASS, {GL_INVERT}},
      {"glStencilOpSeparate back fail", [] { glStencilOpSeparate(GL_BACK, GL_REPLACE, GL_INCR_WRAP, GL_ZERO); },
       GL_STENCIL_BACK_FAIL, {GL_REPLACE}},
      {"glStencilOpSeparate back zfail", [] {}, GL_STENCIL_BACK_PASS_DEPTH_FAIL, {GL_INCR_WRAP}},
      {"glStencilOpSeparate back zpass", [] {}, GL_STENCIL_BACK_PASS_DEPTH_PASS, {GL_ZERO}},
      {"glStencilMaskSeparate front", [] { glStencilMaskSeparate(GL_FRONT, 0x55); }, GL_STENCIL_WRITEMASK, {0x55}},
      {"glStencilMaskSeparate back", [] { glStencilMaskSeparate(GL_BACK, 0xaa); }, GL_STENCIL_BACK_WRITEMASK,
       {0xaa}},
      // Rasterization.
      {"glCullFace", [] { glCullFace(GL_FRONT_AND_BACK); }, GL_CULL_FACE_MODE, {GL_FRONT_AND_BACK}},
      {"glFrontFace", [] { glFrontFace(GL_CW); }, GL_FRONT_FACE, {GL_CW}},
      {"glLineWidth", [] { glLineWidth(1.0f); }, GL_LINE_WIDTH, {1.0}},
      {"glPointSize", [] { glPointSize(4.0f); }, GL_POINT_SIZE, {4.0}},
      {"glPointParameteri origin", [] { glPointParameteri(GL_POINT_SPRITE_COORD_ORIGIN, GL_LOWER_LEFT); },
       GL_POINT_SPRITE_COORD_ORIGIN, {GL_LOWER_LEFT}},
      {"glPointParameterf fade", [] { glPointParameterf(GL_POINT_FADE_THRESHOLD_SIZE, 2.0f); },
       GL_POINT_FADE_THRESHOLD_SIZE, {2.0}},
      {"glPolygonOffset factor", [] { glPolygonOffset(1.5f, 2.5f); }, GL_POLYGON_OFFSET_FACTOR, {1.5}},
      {"glPolygonOffset units", [] {}, GL_POLYGON_OFFSET_UNITS, {2.5}},
      {"glProvokingVertex", [] { glProvokingVertex(GL_FIRST_VERTEX_CONVENTION); }, GL_PROVOKING_VERTEX,
       {GL_FIRST_VERTEX_CONVENTION}},
      {"glPrimitiveRestartIndex", [] { glPrimitiveRestartIndex(0xfffe); }, GL_PRIMITIVE_RESTART_INDEX, {0xfffe}},
      {"glSampleCoverage value", [] { glSampleCoverage(0.5f, GL_TRUE); }, GL_SAMPLE_COVERAGE_VALUE, {0.5}},
      {"glSampleCoverage invert", [] {}, GL_SAMPLE_COVERAGE_INVERT, {1}},
      {"glSampleMaski", [] { glSampleMaski(0, 0x5); }, GL_SAMPLE_MASK_VALUE, {0x5}, 0},
      {"glScissor", [] { glScissor(1, 2, 30, 40); }, GL_SCISSOR_BOX, {1, 2, 30, 40}},
      {"glViewport", [] { glViewport(3, 4, 50, 60); }, GL_VIEWPORT, {3, 4, 50, 60}},
      // Hints.
      {"glHint line", [] { glHint(GL_LINE_SMOOTH_HINT, GL_NICEST); }, GL_LINE_SMOOTH_HINT, {GL_NICEST}},
      {"glHint polygon", [] { glHint(GL_POLYGON_SMOOTH_HINT, GL_FASTEST); }, GL_POLYGON_SMOOTH_HINT, {GL_FASTEST}},
      {"glHint compression", [] { glHint(GL_TEXTURE_COMPRESSION_HINT, GL_NICEST); }, GL_TEXTURE_COMPRESSION_HINT,
       {GL_NICEST}},
      {"glHint derivative", [] { glHint(GL_FRAGMENT_SHADER_DERIVATIVE_HINT, GL_FASTEST); },
       GL_FRAGMENT_SHADER_DERIVATIVE_HINT, {GL_FASTEST}},
      // Bindings.
      {"glActiveTexture", [] { glActiveTexture(GL_TEXTURE3); }, GL_ACTIVE_TEXTURE, {GL_TEXTURE3}},
      {"glBindTexture 2D", [&] { glBindTexture(GL_TEXTURE_2D, textures[0]); }, GL_TEXTURE_BINDING_2D,
       {double(textures[0])}},
      {"glBindTexture 3D", [&] { glBindTexture(GL_TEXTURE_3D, textures[1]); }, GL_TEXTURE_BINDING_3D,
       {double(textures[1])}},
      {"glBindTexture cube", [&] { glBindTexture(GL_TEXTURE_CUBE_MAP, textures[2]); },
       GL_TEXTURE_BINDING_CUBE_MAP, {double(textures[2])}},
      {"glBindTexture 2D array", [&] { glBindTexture(GL_TEXTURE_2D_ARRAY, textures[3]); },
       GL_TEXTURE_BINDING_2D_ARRAY, {double(textures[3])}},
      {"glBindTexture buffer", [&] { glBindTexture(GL_TEXTURE_BUFFER, textures[4]); },
       GL_TEXTURE_BINDING_BUFFER, {double(textures[4])}},
      {"glBindTexture rectangle", [&] { glBindTexture(GL_TEXTURE_RECTANGLE, textures[5]); },
       GL_TEXTURE_BINDING_RECTANGLE, {double(textures[5])}},
      {"glBindSampler", [&] { glBindSampler(3, sampler); }, GL_SAMPLER_BINDING, {double(sampler)}},
      {"glBindVertexArray", [&] { glBindVertexArray(vao); }, GL_VERTEX_ARRAY_BINDING, {double(vao)}},
      {"glBindBuffer array", [&] { glBindBuffer(GL_ARRAY_BUFFER, buffers[0]); }, GL_ARRAY_BUFFER_BINDING,
       {double(buffers[0])}},
      {"glBindBuffer element", [&] { glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buffers[1]); },
       GL_ELEMENT_ARRAY_BUFFER_BINDING, {double(buffers[1])}},
      {"glBindBuffer copy read", [&] { glBindBuffer(GL_COPY_READ_BUFFER, buffers[2]); }, GL_COPY_READ_BUFFER_BINDING,
       {double(buffers[2])}},
      {"glBindBuffer copy write", [&] { glBindBuffer(GL_COPY_WRITE_BUFFER, buffers[3]); },
       GL_COPY_WRITE_BUFFER_BINDING, {double(buffers[3])}},
      {"glBindBuffer pack", [&] { glBindBuffer(GL_PIXEL_PACK_BUFFER, buffers[4]); }, GL_PIXEL_PACK_BUFFER_BINDING,
       {double(buffers[4])}},
      {"glBindBuffer unpack", [&] { glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buffers[5]); },
       GL_PIXEL_UNPACK_BUFFER_BINDING, {double(buffers[5])}},
      {"glBindBuffer uniform", [&] { glBindBuffer(GL_UNIFORM_BUFFER, buffers[6]); }, GL_UNIFORM_BUFFER_BINDING,
       {double(buffers[6])}},
      {"glBindBuffer texture", [&] { glBindBuffer(GL_TEXTURE_BUFFER, buffers[7]); }, GL_TEXTURE_BUFFER_BINDING,
       {double(buffers[7])}},
      {"glBindBufferBase uniform", [&] {
         glBindBuffer(GL_UNIFORM_BUFFER, buffers[6]);
         glBufferData(GL_UNIFORM_BUFFER, 256, nullptr, GL_STATIC_DRAW);
         glBindBufferBase(GL_UNIFORM_BUFFER, 2, buffers[6]);
       },
       GL_UNIFORM_BUFFER_BINDING, {double(buffers[6])}, 2},
      {"glBindTransformFeedback", [&] { glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, xfb); },
       GL_TRANSFORM_FEEDBACK_BINDING, {double(xfb)}},
      {"glBindBufferBase xfb", [&] {
         glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, buffers[2]);
         glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, 256, nullptr, GL_STATIC_DRAW);
         glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 1, buffers[2]);
       },
       GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, {double(buffers[2])}, 1},
      {"glUseProgram", [&] { glUseProgram(program); }, GL_CURRENT_PROGRAM, {double(program)}},
      {"glBindRenderbuffer", [&] { glBindRenderbuffer(GL_RENDERBUFFER, rbo); }, GL_RENDERBUFFER_BINDING,
       {double(rbo)}},
      {"glBindFramebuffer draw", [&] {
         glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo[0]);
       },
       GL_DRAW_FRAMEBUFFER_BINDING, {double(fbo[0])}},
      {"glBindFramebuffer read", [&] { glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo[1]); }, GL_READ_FRAMEBUFFER_BINDING,
       {double(fbo[1])}},
      {"glDrawBuffer", [&] { glDrawBuffer(GL_COLOR_ATTACHMENT2); }, GL_DRAW_BUFFER, {GL_COLOR_ATTACHMENT2}},
      {"glDrawBuffers", [&] {
         const GLenum bufs[2] = {GL_NONE, GL_COLOR_ATTACHMENT1};
         glDrawBuffers(2, bufs);
       },
       GL_DRAW_BUFFER1, {GL_COLOR_ATTACHMENT1}},
      {"glReadBuffer", [&] { glReadBuffer(GL_COLOR_ATTACHMENT3); }, GL_READ_BUFFER, {GL_COLOR_ATTACHMENT3}},
  };
  for (const Row& r : rows) CheckRow(r);
  glUseProgram(0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);
  return harness::Summary();
}
