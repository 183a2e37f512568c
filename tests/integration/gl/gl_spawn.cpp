// The split-process pipe (CALDERA_PIPE=spawn, docs/SPAWN.md), run with CALDERA_PIPE=spawn:
//   gl_spawn server-killed  — the caldera-server process is killed (SIGKILL) mid-frame: the readback returns,
//     the robust context reports GL_UNKNOWN_CONTEXT_RESET, later commands record GL_CONTEXT_LOST, a fence
//     wait and glFinish return, and nothing hangs (an alarm fails the test) or crashes;
//   gl_spawn server-stopped — the server is stopped (SIGSTOP) for 0.7 s: a readback waits and then returns
//     the right pixels; the context is not lost (slow is not dead);
//   gl_spawn version-mismatch — with CALDERA_TEST_SPAWN_FINGERPRINT=other the client poses as another build:
//     eglInitialize fails (the log names both builds) and the refused server exits;
//   gl_spawn server-silent — CALDERA_SERVER names a program that never answers the handshake: with
//     CALDERA_SPAWN_HANDSHAKE_MS=500 eglInitialize fails within seconds and that program is killed; with a
//     long timeout the alarm fires first (the negative control);
//   gl_spawn server-process — in a process marked as a caldera-server (CALDERA_SERVER_PROCESS=1, what the
//     server sets before opening its backend) Caldera's EGL vendor declines: glvnd finds no display. A driver
//     that loads libEGL inside the server (NVIDIA's Vulkan ICD) must not re-enter Caldera there;
//   gl_spawn corrupt-stream — with CALDERA_TEST_SPAWN_CORRUPT=N the client sends its Nth chunk with a garbage
//     record header: the server refuses that connection (the context is lost, as above) and stays alive,
//     and a new context on the same display still renders;
//   gl_spawn steady-frames  — frames that only flush make no blocking round trip to the server: 300 frames
//     and 3 frames, each ending with one readback, wait for the server equally often (the spawn stats line's
//     blocking_round_trips); with CALDERA_SPAWN_SYNCHRONOUS=1 (every chunk waits) it fails: the negative
//     control;
//   gl_spawn fences-queries — a fence signals, an occlusion query counts every pixel of a full quad, a
//     buffer read after a device write (glReadPixels into a pixel pack buffer, mapped) has the pixels.
// Without CALDERA_PIPE=spawn there is no server: server-killed, corrupt-stream and steady-frames fail then
// (negative controls); fences-queries is behaviour every pipe mode must have.
#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

#include "gl_harness.h"

namespace {

constexpr int kSize = 16;

const char* kVs = R"(#version 330 core
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); })";
const char* kFs = R"(#version 330 core
uniform vec4 color;
out vec4 frag;
void main() { frag = color; })";

// A live child of this process whose command name is `comm`, or -1.
pid_t FindChild(const std::string& comm_wanted) {
  DIR* d = opendir("/proc");
  if (!d) return -1;
  pid_t found = -1;
  while (dirent* e = readdir(d)) {
    pid_t pid = std::atoi(e->d_name);
    if (pid <= 0) continue;
    std::ifstream stat("/proc/" + std::string(e->d_name) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    size_t open = line.find('('), close = line.rfind(')');
    if (open == std::string::npos || close == std::string::npos) continue;
    std::string comm = line.substr(open + 1, close - open - 1);
    char state = 0;
    int ppid = 0;
    std::sscanf(line.c_str() + close + 1, " %c %d", &state, &ppid);
    if (ppid == getpid() && comm == comm_wanted && state != 'Z') found = pid;
  }
  closedir(d);
  return found;
}

// The caldera-server this process started, or -1.
pid_t FindServer() {
  return FindChild("caldera-server");
}

bool Alive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  size_t close = line.rfind(')');
  return close != std::string::npos && line.size() > close + 2 && line[close + 2] != 'Z';
}

// Whether every thread of pid is in a job-control stop. kill(SIGSTOP) returns before the stop takes hold:
// the kernel wakes one thread to take the signal, and that thread stops the others, so a server thread
// already running can serve a whole readback in between (seen 2 runs in 30 on 2 cores).
bool AllThreadsStopped(pid_t pid) {
  const std::string tasks = "/proc/" + std::to_string(pid) + "/task";
  DIR* d = opendir(tasks.c_str());
  if (!d) return false;
  bool all = true, any = false;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    std::ifstream stat(tasks + "/" + e->d_name + "/stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    size_t close = line.rfind(')');
    if (close == std::string::npos || line.size() <= close + 2) continue;
    any = true;
    all = all && line[close + 2] == 'T';
  }
  closedir(d);
  return any && all;
}

harness::Window OpenRobust() {
  harness::Window w = harness::Open(kSize, kSize);
  const EGLint robust_attribs[] = {EGL_CONTEXT_OPENGL_ROBUST_ACCESS, EGL_TRUE,
                                   EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY, EGL_LOSE_CONTEXT_ON_RESET,
                                   EGL_NONE};
  EGLContext robust = harness::CreateContext(w, EGL_NO_CONTEXT, robust_attribs);
  eglMakeCurrent(w.display, w.surface, w.surface, robust);
  eglDestroyContext(w.display, w.context);
  w.context = robust;
  return w;
}

GLuint MakeScene() {
  GLuint program = harness::CompileProgram(kVs, kFs);
  const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  harness::Positions2D(quad, 8);
  glUseProgram(program);
  glViewport(0, 0, kSize, kSize);
  return program;
}

void DrawColor(GLuint program, float r, float g, float b) {
  glUniform4f(glGetUniformLocation(program, "color"), r, g, b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

bool CentreIs(uint8_t r, uint8_t g, uint8_t b) {
  uint8_t px[4] = {};
  glReadPixels(kSize / 2, kSize / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  return px[0] == r && px[1] == g && px[2] == b;
}

// What a lost robust context must do: report the reset once, record GL_CONTEXT_LOST, end waits.
void CheckLostContext() {
  CHECK(glGetGraphicsResetStatus() == GL_UNKNOWN_CONTEXT_RESET);
  while (glGetError() != GL_NO_ERROR) {
  }
  glClear(GL_COLOR_BUFFER_BIT);
  CHECK_GL_ERROR(GL_CONTEXT_LOST);
  GLsync sync = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  glClientWaitSync(sync, GL_SYNC_FLUSH_COMMANDS_BIT, 1000000000ull);  // returns: must not hang
  glFinish();
}

int ServerKilled() {
  harness::Window w = OpenRobust();
  harness::PrintVendor();
  GLuint program = MakeScene();
  DrawColor(program, 0, 1, 0);
  CHECK(CentreIs(0, 255, 0));
  pid_t server = FindServer();
  CHECK(server > 0);
  if (server <= 0) return harness::Summary();
  // Mid-frame: work recorded, the readback not yet asked for.
  DrawColor(program, 1, 0, 0);
  glFlush();
  DrawColor(program, 0, 0, 1);
  CHECK(kill(server, SIGKILL) == 0);
  uint8_t px[4] = {1, 2, 3, 4};
  glReadPixels(kSize / 2, kSize / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);  // returns: must not hang
  CheckLostContext();
  // A second context of the same display is lost too (its device's server is gone).
  EGLContext other = harness::CreateContext(w, EGL_NO_CONTEXT);
  (void)other;
  std::printf("server %d killed; the context is lost\n", int(server));
  harness::Close(w);
  return harness::Summary();
}

// A stopped server is slow, not dead: a readback waits through a SIGSTOP and completes after SIGCONT.
int ServerStopped() {
  harness::Window w = OpenRobust();
  harness::PrintVendor();
  GLuint program = MakeScene();
  DrawColor(program, 0, 1, 0);
  CHECK(CentreIs(0, 255, 0));
  pid_t server = FindServer();
  CHECK(server > 0);
  if (server <= 0) return harness::Summary();
  CHECK(kill(server, SIGSTOP) == 0);
  const auto stop_sent = std::chrono::steady_clock::now();
  while (!AllThreadsStopped(server) && std::chrono::steady_clock::now() - stop_sent < std::chrono::seconds(2))
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  CHECK(AllThreadsStopped(server));
  std::thread resume([server] {
    std::this_thread::sleep_for(std::chrono::milliseconds(700));
    kill(server, SIGCONT);
  });
  const auto start = std::chrono::steady_clock::now();
  DrawColor(program, 0, 0, 1);
  CHECK(CentreIs(0, 0, 255));  // waited for the stopped server, then got its pixels
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  resume.join();
  std::printf("the readback waited %.2f s for the stopped server\n", waited);
  CHECK(waited >= 0.5);
  CHECK(glGetGraphicsResetStatus() == GL_NO_ERROR);
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);
  return harness::Summary();
}

// A server of another build is refused at eglInitialize (the client poses as another build).
int VersionMismatch() {
  EGLDisplay display = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  CHECK(display != EGL_NO_DISPLAY);
  EGLint major = 0, minor = 0;
  CHECK(eglInitialize(display, &major, &minor) == EGL_FALSE);
  CHECK(eglGetError() != EGL_SUCCESS);
  CHECK(FindServer() <= 0);  // the refused server has exited
  return harness::Summary();
}

// A "server" that only sleeps: eglInitialize gives up after CALDERA_SPAWN_HANDSHAKE_MS and kills it.
int ServerSilent() {
  char path[] = "/tmp/caldera-silent-server-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0) return harness::Summary();
  // It deletes its own file, sends its output nowhere and ends by itself: a run the alarm ends leaves
  // nothing behind for long.
  const char script[] = "#!/bin/sh\nrm -f \"$0\"\nexec sleep 20 >/dev/null 2>&1\n";
  CHECK(write(fd, script, sizeof(script) - 1) == ssize_t(sizeof(script) - 1));
  fchmod(fd, 0700);
  close(fd);
  setenv("CALDERA_SERVER", path, 1);
  alarm(8);  // well below the default timeout: the negative control (a long timeout) fails here
  auto start = std::chrono::steady_clock::now();
  EGLDisplay display = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  CHECK(display != EGL_NO_DISPLAY);
  EGLint major = 0, minor = 0;
  CHECK(eglInitialize(display, &major, &minor) == EGL_FALSE);
  CHECK(eglGetError() != EGL_SUCCESS);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("eglInitialize gave up after %.2f s\n", seconds);
  CHECK(seconds < 5.0);
  // The silent program was killed (and reaped): no child of ours runs it any more.
  bool gone = false;
  for (int i = 0; i < 300 && !gone; ++i) {
    gone = FindChild("sleep") <= 0;
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(gone);
  unlink(path);
  return harness::Summary();
}

int ServerProcess() {
  setenv("CALDERA_SERVER_PROCESS", "1", 1);  // before glvnd loads any vendor
  EGLDisplay display = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  CHECK(display == EGL_NO_DISPLAY);
  return harness::Summary();
}

int CorruptStream() {
  harness::Window w = OpenRobust();
  harness::PrintVendor();
  GLuint program = MakeScene();
  pid_t server = FindServer();
  CHECK(server > 0);
  bool lost = false;
  int frames = 0;
  for (; frames < 20 && !lost; ++frames) {
    DrawColor(program, 0, 1, 0);
    bool green = CentreIs(0, 255, 0);
    lost = glGetGraphicsResetStatus() != GL_NO_ERROR;
    if (!lost) CHECK(green);
  }
  std::printf("the corrupt stream lost the context after %d frames\n", frames);
  CHECK(lost);
  if (lost) {
    // Reported once; then the lost context records GL_CONTEXT_LOST.
    while (glGetError() != GL_NO_ERROR) {
    }
    glClear(GL_COLOR_BUFFER_BIT);
    CHECK_GL_ERROR(GL_CONTEXT_LOST);
    glFinish();
  }
  CHECK(server > 0 && Alive(server));  // the server refused one connection and lives on
  // A new context (a new connection to the same server) renders.
  EGLContext fresh = harness::CreateContext(w, EGL_NO_CONTEXT);
  CHECK(eglMakeCurrent(w.display, w.surface, w.surface, fresh) == EGL_TRUE);
  GLuint program2 = MakeScene();
  DrawColor(program2, 0, 0, 1);
  CHECK(CentreIs(0, 0, 255));
  CHECK_GL_ERROR(GL_NO_ERROR);
  eglMakeCurrent(w.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(w.display, fresh);
  harness::Close(w);
  return harness::Summary();
}

// Frames that flush, then one readback; returns the blocking round trips it made (from the stats file).
long FramesThenRead(const harness::StatsFile& stats, int frames, long before) {
  harness::Window w = harness::Open(kSize, kSize);
  GLuint program = MakeScene();
  for (int i = 0; i < frames; ++i) {
    DrawColor(program, 0, float(i % 2), 1);
    glFlush();
    eglSwapBuffers(w.display, w.surface);
  }
  DrawColor(program, 0, 1, 0);
  CHECK(CentreIs(0, 255, 0));
  harness::Close(w);
  return stats.Sum("blocking_round_trips") - before;
}

int SteadyFrames() {
  harness::StatsFile stats;
  long few = FramesThenRead(stats, 3, 0);
  long many = FramesThenRead(stats, 300, few);
  std::printf("blocking round trips: 3 frames %ld, 300 frames %ld; chunks %ld\n", few, many,
              stats.Sum("chunks"));
  CHECK(few > 0);  // the probe counts: the readback waited
  CHECK(many == few);
  return harness::Summary();
}

int FencesQueries() {
  harness::Window w = harness::Open(kSize, kSize);
  harness::PrintVendor();
  GLuint program = MakeScene();
  GLuint query;
  glGenQueries(1, &query);
  glBeginQuery(GL_SAMPLES_PASSED, query);
  DrawColor(program, 1, 1, 0);
  glEndQuery(GL_SAMPLES_PASSED);
  GLsync sync = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  GLenum r = glClientWaitSync(sync, GL_SYNC_FLUSH_COMMANDS_BIT, 5000000000ull);
  CHECK(r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED);
  GLint status = 0;
  glGetSynciv(sync, GL_SYNC_STATUS, 1, nullptr, &status);
  CHECK(status == GL_SIGNALED);
  glDeleteSync(sync);
  GLuint samples = 0;
  glGetQueryObjectuiv(query, GL_QUERY_RESULT, &samples);
  CHECK(samples == GLuint(kSize * kSize));
  // A device write into a buffer, read back through the buffer (CmdBufferRead).
  GLuint pbo;
  glGenBuffers(1, &pbo);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, pbo);
  glBufferData(GL_PIXEL_PACK_BUFFER, kSize * kSize * 4, nullptr, GL_STREAM_READ);
  glReadPixels(0, 0, kSize, kSize, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  const uint8_t* p = static_cast<const uint8_t*>(
      glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, kSize * kSize * 4, GL_MAP_READ_BIT));
  CHECK(p && p[0] == 255 && p[1] == 255 && p[2] == 0 && p[kSize * kSize * 4 - 4] == 255);
  glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);
  return harness::Summary();
}

}  // namespace

int main(int argc, char** argv) {
  alarm(60);  // a hang is a failure, not a stuck test run
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "server-killed") return ServerKilled();
  if (mode == "corrupt-stream") return CorruptStream();
  if (mode == "server-stopped") return ServerStopped();
  if (mode == "version-mismatch") return VersionMismatch();
  if (mode == "server-silent") return ServerSilent();
  if (mode == "server-process") return ServerProcess();
  if (mode == "steady-frames") return SteadyFrames();
  if (mode == "fences-queries") return FencesQueries();
  std::fprintf(stderr,
               "usage: gl_spawn "
               "server-killed|server-stopped|version-mismatch|server-silent|server-process|corrupt-stream|"
               "steady-frames|"
               "fences-queries\n");
  return 2;
}
