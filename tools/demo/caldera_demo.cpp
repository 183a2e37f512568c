// The main job: a small GL 3.3 core program rendered through whichever EGL vendor glvnd picks (Caldera
// when __EGL_VENDOR_LIBRARY_FILENAMES names it), written to a PNG. Prints GL_VENDOR/RENDERER/VERSION.
// Usage: caldera-demo [out.png] [width] [height]
#include <cmath>
#include <cstdlib>

#include "gl_harness.h"

namespace {

const char* kVS = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
layout(location = 1) in vec3 a_color;
uniform float u_angle;
uniform float u_depth;
out vec3 v_color;
void main() {
  float c = cos(u_angle), s = sin(u_angle);
  v_color = a_color;
  gl_Position = vec4(c * a_pos.x - s * a_pos.y, s * a_pos.x + c * a_pos.y, u_depth, 1.0);
}
)";

const char* kFS = R"(#version 330 core
in vec3 v_color;
out vec4 frag;
void main() { frag = vec4(v_color, 1.0); }
)";

}  // namespace

int main(int argc, char** argv) {
  const char* out = argc > 1 ? argv[1] : "caldera-demo.png";
  int width = argc > 2 ? std::atoi(argv[2]) : 256;
  int height = argc > 3 ? std::atoi(argv[3]) : 256;
  harness::Window w = harness::Open(width, height);
  std::printf("GL_VENDOR:   %s\nGL_RENDERER: %s\nGL_VERSION:  %s\n", glGetString(GL_VENDOR),
              glGetString(GL_RENDERER), glGetString(GL_VERSION));

  const float vertices[] = {-0.7f, -0.6f, 1,    0.2f, 0.2f, 0.7f, -0.6f, 0.2f,
                            1,     0.2f,  0.0f, 0.8f, 0.2f, 0.4f, 1};
  GLuint vao, vbo;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glGenBuffers(1, &vbo);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glBufferData(GL_ARRAY_BUFFER, sizeof(vertices), vertices, GL_STATIC_DRAW);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 20, nullptr);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 20, reinterpret_cast<void*>(8));
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  GLuint program = harness::CompileProgram(kVS, kFS);
  glUseProgram(program);
  GLint angle = glGetUniformLocation(program, "u_angle");
  GLint depth = glGetUniformLocation(program, "u_depth");

  glClearColor(0.05f, 0.06f, 0.12f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  // A fan of triangles, each nearer than the last, so the depth test decides what shows.
  for (int i = 0; i < 12; ++i) {
    glUniform1f(angle, static_cast<float>(i) * 0.5235988f);
    glUniform1f(depth, 0.9f - 0.15f * static_cast<float>(i));
    glDrawArrays(GL_TRIANGLES, 0, 3);
  }
  std::vector<uint8_t> pixels = harness::ReadRGBA(width, height);
  GLenum err = glGetError();
  if (err != GL_NO_ERROR) {
    std::fprintf(stderr, "GL error 0x%04x\n", err);
    return 1;
  }
  if (!harness::WritePNG(out, pixels, width, height)) {
    std::fprintf(stderr, "cannot write %s\n", out);
    return 1;
  }
  std::printf("wrote %s (%dx%d)\n", out, width, height);
  harness::Close(w);
  return 0;
}
