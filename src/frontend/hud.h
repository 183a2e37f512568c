// The HUD (CALDERA_HUD=fps,frametime,cpu,draws,passes,pipelines,submits,memory, or 1 for
// fps,frametime,cpu,draws): counters of the context drawn into the top-left corner of each frame at swap, one
// row per counter with its value and a graph of its recent history. CALDERA_HUD_LOG=<file> writes the same
// counters per frame as CSV, with or without the overlay. Both work the same on every backend: the text and
// graphs are drawn on the CPU into an image of the context's own (uploaded when a value changes, twice a
// second) that a blit puts into the window's colour image just before it is presented — ordinary pipe
// records, so nothing backend-specific. Like GALLIUM_HUD it draws into the back buffer itself, so a read of
// the window after the swap sees it.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "pipe/handles.h"

namespace caldera {

class Context;
class Surface;

namespace pipe {
class Pipe;
}

// The counters the HUD knows, in the order rows and CSV columns are laid out.
enum class HudCounter : uint8_t {
  kFps,
  kFrameTime,
  kCpu,
  kDraws,
  kPasses,
  kPipelines,
  kSubmits,
  kMemory,
  kCount
};

// Which counters CALDERA_HUD asks for (bit per HudCounter); 0 when unset or "0". Unknown names are
// reported once and left out.
uint32_t HudCountersFromEnv();

class Hud {
 public:
  // `counters`: the rows shown (0: none, only the log); `log_path`: CSV output, or empty.
  Hud(uint32_t counters, const std::string& log_path);
  ~Hud();
  Hud(const Hud&) = delete;
  Hud& operator=(const Hud&) = delete;

  // One frame of `context` is about to be presented on `surface`: takes the counters and, when rows are
  // shown, records the blit of the overlay into the surface's colour image.
  void OnSwap(Context& context, Surface& surface);
  // Before the context's pipe goes: the overlay image is destroyed through it.
  void Release(pipe::Pipe& pipe, Context& context);

  // Probes for tests: frames seen, overlay uploads and blits recorded.
  uint64_t frames() const { return frames_; }
  uint64_t uploads() const { return uploads_; }
  uint64_t blits() const { return blits_; }

  static constexpr int kHistory = 60;  // samples per graph

 private:
  struct Totals {  // cumulative values at one moment
    uint64_t time_ns = 0, cpu_ns = 0, draws = 0, passes = 0, pipelines = 0, submits = 0, memory = 0;
  };
  Totals Sample(Context& context) const;
  // Values of each counter over the span between two samples that holds `frames` frames.
  static std::array<double, size_t(HudCounter::kCount)> Rates(const Totals& from, const Totals& to,
                                                              uint64_t frames);
  void WriteLogRow(const Totals& now);
  void Render();  // rows_ and history_ into pixels_ (RGBA8, GL row order)
  bool EnsureImage(Context& context);

  const uint32_t counters_;
  int rows_ = 0;
  FILE* log_ = nullptr;
  bool started_ = false;
  Totals last_frame_, last_sample_;
  uint64_t frames_ = 0, frames_since_sample_ = 0, uploads_ = 0, blits_ = 0;
  std::array<double, size_t(HudCounter::kCount)> values_{};
  std::array<std::array<double, kHistory>, size_t(HudCounter::kCount)> history_{};
  int history_len_ = 0;
  bool dirty_ = false;

  int width_ = 0, height_ = 0;
  std::vector<uint8_t> pixels_;
  pipe::Handle image_;
};

// Draws `text` (lower-case letters, digits, ". % : - /" and spaces) with its top-left corner at (x, y) of a
// top-down RGBA8 image `width` pixels wide, each font pixel `scale` pixels square (hud_font.cpp).
void HudDrawText(uint8_t* pixels, int width, int height, int x, int y, const char* text, int scale,
                 const uint8_t rgba[4]);
constexpr int kHudGlyphWidth = 5, kHudGlyphHeight = 7, kHudGlyphAdvance = 6;

}  // namespace caldera
