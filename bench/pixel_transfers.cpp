// Pixel transfer throughput for bench/run.py --pixels: glReadPixels after a clear and glTexSubImage2D
// followed by glFinish, for formats whose client layout matches the image byte for byte and for some that
// convert. Each case repeats until --min-seconds have passed (and at least --min-iterations times) and
// reports the fastest iteration and the median, in ms and in MB/s of client pixels, and the GL thread's
// median CPU time per transfer.
//
//   caldera-bench-pixels [--width W] [--height H] [--min-seconds S] [--min-iterations N] [--case NAME]
//
// Prints one JSON line: {"renderer": ..., "width": W, "height": H, "cases": {name: {...}}}.
#include <time.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "gl_harness.h"

namespace {

double Now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

// CPU time of the calling (GL) thread: what the application's thread spends per transfer, without the
// time it sleeps in glFinish (inproc: the apply thread's work is not in it).
double ThreadCpu() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

struct Case {
  const char* name;
  bool upload;             // glTexSubImage2D + glFinish; otherwise glClear + glReadPixels
  GLenum internal_format;  // of the renderbuffer read, or of the texture written
  GLenum format, type;
  int bytes_per_pixel;  // of the client pixels
  bool depth;           // a depth renderbuffer (read cases)
};

const Case kCases[] = {
    {"read_rgba8_rgba_ubyte", false, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 4, false},
    {"read_rgba8_bgra_ubyte", false, GL_RGBA8, GL_BGRA, GL_UNSIGNED_BYTE, 4, false},
    {"read_rgba8_rgb_ubyte", false, GL_RGBA8, GL_RGB, GL_UNSIGNED_BYTE, 3, false},
    {"read_rgba8_rgba_float", false, GL_RGBA8, GL_RGBA, GL_FLOAT, 16, false},
    {"read_r8_red_ubyte", false, GL_R8, GL_RED, GL_UNSIGNED_BYTE, 1, false},
    {"read_rgba32f_rgba_float", false, GL_RGBA32F, GL_RGBA, GL_FLOAT, 16, false},
    {"read_rgba16f_rgba_half", false, GL_RGBA16F, GL_RGBA, GL_HALF_FLOAT, 8, false},
    {"read_depth32f_float", false, GL_DEPTH_COMPONENT32F, GL_DEPTH_COMPONENT, GL_FLOAT, 4, true},
    {"upload_rgba8_rgba_ubyte", true, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 4, false},
    {"upload_rgba8_bgra_ubyte", true, GL_RGBA8, GL_BGRA, GL_UNSIGNED_BYTE, 4, false},
    {"upload_rgba8_rgb_ubyte", true, GL_RGBA8, GL_RGB, GL_UNSIGNED_BYTE, 3, false},
    {"upload_rgba32f_rgba_float", true, GL_RGBA32F, GL_RGBA, GL_FLOAT, 16, false},
};

struct Timing {
  double best_ms = 0, median_ms = 0;
  double gl_cpu_ms = 0;  // median GL-thread CPU per transfer
  int iterations = 0;
  bool ok = false;
};

Timing RunCase(const Case& c, int width, int height, double min_seconds, int min_iterations) {
  Timing t;
  std::vector<uint8_t> client(size_t(width) * height * c.bytes_per_pixel + 64);
  for (size_t i = 0; i < client.size(); ++i) client[i] = uint8_t(i * 37 + 11);
  if (c.type == GL_FLOAT)  // finite floats in 0..1
    for (size_t i = 0; i + 4 <= client.size(); i += 4) {
      float v = float(i % 251) / 251.0f;
      std::memcpy(&client[i], &v, 4);
    }
  GLuint fbo = 0, rb = 0, tex = 0;
  if (c.upload) {
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexStorage2D(GL_TEXTURE_2D, 1, c.internal_format, width, height);
  } else {
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, c.internal_format, width, height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, c.depth ? GL_DEPTH_ATTACHMENT : GL_COLOR_ATTACHMENT0,
                              GL_RENDERBUFFER, rb);
    if (c.depth) {
      glDrawBuffer(GL_NONE);
      glReadBuffer(GL_NONE);
    }
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
      std::fprintf(stderr, "%s: framebuffer incomplete\n", c.name);
      return t;
    }
  }
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  std::vector<double> ms, cpu_ms;
  int i = 0;
  auto step = [&]() {
    if (c.upload) {
      glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, c.format, c.type, client.data());
      glFinish();
    } else {
      glClearColor(0.25f + 0.5f * float(i & 1), 0.5f, 0.75f, 1.0f);
      glClearDepth(0.25 + 0.5 * (i & 1));
      glClear(c.depth ? GL_DEPTH_BUFFER_BIT : GL_COLOR_BUFFER_BIT);
      glReadPixels(0, 0, width, height, c.format, c.type, client.data());
    }
    ++i;
  };
  for (int w = 0; w < 3; ++w) step();  // warm-up: first-use allocations and layouts
  glFinish();
  double start = Now();
  while (int(ms.size()) < min_iterations || Now() - start < min_seconds) {
    double t0 = Now(), c0 = ThreadCpu();
    step();
    ms.push_back((Now() - t0) * 1e3);
    cpu_ms.push_back((ThreadCpu() - c0) * 1e3);
  }
  std::sort(ms.begin(), ms.end());
  std::sort(cpu_ms.begin(), cpu_ms.end());
  t.gl_cpu_ms = cpu_ms[cpu_ms.size() / 2];
  t.best_ms = ms.front();
  t.median_ms = ms[ms.size() / 2];
  t.iterations = int(ms.size());
  t.ok = glGetError() == GL_NO_ERROR;
  if (!t.ok) std::fprintf(stderr, "%s: GL error\n", c.name);
  if (tex) glDeleteTextures(1, &tex);
  if (fbo) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    glDeleteRenderbuffers(1, &rb);
  }
  return t;
}

[[noreturn]] void Usage() {
  std::fprintf(stderr,
               "usage: caldera-bench-pixels [--width W] [--height H] [--min-seconds S] [--min-iterations N] "
               "[--case NAME]\n");
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  int width = 320, height = 240, min_iterations = 10;
  double min_seconds = 0.5;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) Usage();
      return argv[++i];
    };
    if (arg == "--width") {
      width = std::atoi(value());
    } else if (arg == "--height") {
      height = std::atoi(value());
    } else if (arg == "--min-seconds") {
      min_seconds = std::atof(value());
    } else if (arg == "--min-iterations") {
      min_iterations = std::atoi(value());
    } else if (arg == "--case") {
      only = value();
    } else {
      Usage();
    }
  }
  if (width < 1 || height < 1 || min_iterations < 1) Usage();
  harness::Window window = harness::Open(64, 64);
  std::string json = "{\"renderer\": \"";
  for (const char* p = reinterpret_cast<const char*>(glGetString(GL_RENDERER)); p && *p; ++p)
    if (*p != '"' && *p != '\\') json += *p;
  json += "\", \"width\": " + std::to_string(width) + ", \"height\": " + std::to_string(height) +
          ", \"cases\": {";
  bool first = true;
  for (const Case& c : kCases) {
    if (!only.empty() && only != c.name) continue;
    Timing t = RunCase(c, width, height, min_seconds, min_iterations);
    if (!t.ok) continue;
    double mb = double(width) * height * c.bytes_per_pixel / 1e6;
    char entry[384];
    std::snprintf(
        entry, sizeof entry,
        "%s\"%s\": {\"best_ms\": %.4f, \"median_ms\": %.4f, \"best_mb_s\": %.1f, \"gl_cpu_ms\": %.4f, "
        "\"iterations\": %d}",
        first ? "" : ", ", c.name, t.best_ms, t.median_ms, mb / (t.best_ms * 1e-3), t.gl_cpu_ms,
        t.iterations);
    json += entry;
    first = false;
  }
  json += "}}";
  std::printf("%s\n", json.c_str());
  std::fflush(stdout);
  harness::Close(window);
  return 0;
}
