// Renders one scene through whatever EGL vendor glvnd selects and writes raw RGBA (bottom row first).
// Usage: render_scene <scene> <out.rgba> [out.png]
#include <cstring>

#include "gl_harness.h"
#include "scenes.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <scene> <out.rgba> [out.png]\n", argv[0]);
    return 2;
  }
  const scenes::Scene* scene = nullptr;
  for (auto& s : scenes::All())
    if (!std::strcmp(s.name, argv[1])) scene = &s;
  if (!scene) {
    std::fprintf(stderr, "unknown scene %s\n", argv[1]);
    return 2;
  }
  harness::Window w = harness::Open(scenes::kWidth, scenes::kHeight);
  scene->draw();
  std::vector<uint8_t> pixels = scene->reads_itself ? scenes::g_pixels : harness::ReadRGBA(w.width, w.height);
  GLenum err = glGetError();
  if (err != GL_NO_ERROR) {
    std::fprintf(stderr, "GL error 0x%04x after scene %s\n", err, scene->name);
    return 1;
  }
  FILE* f = std::fopen(argv[2], "wb");
  if (!f || std::fwrite(pixels.data(), 1, pixels.size(), f) != pixels.size()) return 2;
  std::fclose(f);
  if (argc > 3) harness::WritePNG(argv[3], pixels, w.width, w.height);
  std::printf("%s: %s\n", scene->name, reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
  harness::Close(w);
  return 0;
}
