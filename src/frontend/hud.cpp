#include "frontend/hud.h"

#include <time.h>

#include <algorithm>
#include <cstring>

#include "frontend/context.h"
#include "frontend/device.h"
#include "util/log.h"

namespace caldera {
namespace {

constexpr const char* kNames[] = {"fps",    "frametime", "cpu",     "draws",
                                  "passes", "pipelines", "submits", "memory"};
static_assert(std::size(kNames) == size_t(HudCounter::kCount));
constexpr uint32_t kDefaultCounters = 1u << uint32_t(HudCounter::kFps) |
                                      1u << uint32_t(HudCounter::kFrameTime) |
                                      1u << uint32_t(HudCounter::kCpu) | 1u << uint32_t(HudCounter::kDraws);

// A new sample of every counter twice a second: fast enough to follow, slow enough to read.
constexpr uint64_t kSampleNs = 500'000'000;

// Layout, in pixels: font pixels doubled, a row per counter (label, value, graph of the history).
constexpr int kScale = 2;
constexpr int kMargin = 4;
constexpr int kRowHeight = kHudGlyphHeight * kScale + 6;
constexpr int kLabelChars = 10, kValueChars = 9;
constexpr int kGraphX = kMargin + (kLabelChars + kValueChars) * kHudGlyphAdvance * kScale;
constexpr int kGraphBarWidth = 2;
constexpr uint8_t kBackground[4] = {16, 16, 16, 255};
constexpr uint8_t kLabelColour[4] = {190, 190, 190, 255};
constexpr uint8_t kValueColour[4] = {255, 255, 255, 255};
constexpr uint8_t kGraphColour[4] = {80, 220, 80, 255};

uint64_t ClockNs(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return uint64_t(ts.tv_sec) * 1'000'000'000u + uint64_t(ts.tv_nsec);
}

void FormatValue(HudCounter counter, double v, char* out, size_t size) {
  switch (counter) {
    case HudCounter::kFps:
      std::snprintf(out, size, "%.1f", v);
      break;
    case HudCounter::kFrameTime:
      std::snprintf(out, size, "%.2f ms", v);
      break;
    case HudCounter::kCpu:
      std::snprintf(out, size, "%.0f%%", v);
      break;
    case HudCounter::kMemory:
      std::snprintf(out, size, "%.0f mib", v);
      break;
    default:
      std::snprintf(out, size, v >= 100 ? "%.0f" : "%.1f", v);
      break;
  }
}

}  // namespace

uint32_t HudCountersFromEnv() {
  const char* v = util::Env("CALDERA_HUD");
  if (!v || !*v || !std::strcmp(v, "0")) return 0;
  if (!std::strcmp(v, "1")) return kDefaultCounters;
  uint32_t mask = 0;
  std::string list = v;
  for (size_t start = 0; start <= list.size();) {
    size_t end = std::min(list.find(',', start), list.size());
    std::string name = list.substr(start, end - start);
    size_t i = 0;
    while (i < std::size(kNames) && name != kNames[i]) ++i;
    if (i < std::size(kNames))
      mask |= 1u << i;
    else if (!name.empty())
      util::LogOnce(util::LogLevel::kWarning, "CALDERA_HUD", "unknown counter '" + name + "' left out");
    start = end + 1;
  }
  return mask;
}

Hud::Hud(uint32_t counters, const std::string& log_path) : counters_(counters) {
  for (uint32_t i = 0; i < uint32_t(HudCounter::kCount); ++i) rows_ += (counters_ >> i) & 1;
  if (!log_path.empty()) {
    log_ = std::fopen(log_path.c_str(), "w");
    if (!log_)
      util::LogOnce(util::LogLevel::kWarning, "CALDERA_HUD_LOG",
                    "cannot open '" + log_path + "' for writing");
    else
      std::fprintf(log_,
                   "frame,time_ms,fps,frametime_ms,cpu_percent,draws,passes,pipelines,submits,memory_mib\n");
  }
  if (rows_) {
    width_ = kGraphX + kHistory * kGraphBarWidth + kMargin;
    height_ = rows_ * kRowHeight + kMargin;
    pixels_.resize(size_t(width_) * size_t(height_) * 4);
    dirty_ = true;  // the first frame shows the rows, with no values yet
  }
}

Hud::~Hud() {
  if (log_) std::fclose(log_);
}

Hud::Totals Hud::Sample(Context& context) const {
  const pipe::BackendCounters& b = context.pipe().backend_counters();
  Totals t;
  t.time_ns = ClockNs(CLOCK_MONOTONIC);
  t.cpu_ns = ClockNs(CLOCK_PROCESS_CPUTIME_ID);
  t.draws = b.draws.load(std::memory_order_relaxed);
  t.passes = b.render_passes.load(std::memory_order_relaxed);
  t.pipelines = b.pipelines_created.load(std::memory_order_relaxed);
  t.submits = b.submits.load(std::memory_order_relaxed);
  t.memory = b.device_memory_bytes.load(std::memory_order_relaxed);
  return t;
}

std::array<double, size_t(HudCounter::kCount)> Hud::Rates(const Totals& from, const Totals& to,
                                                          uint64_t frames) {
  std::array<double, size_t(HudCounter::kCount)> v{};
  const double seconds = double(to.time_ns - from.time_ns) * 1e-9;
  const double n = frames ? double(frames) : 1.0;
  v[size_t(HudCounter::kFps)] = seconds > 0 ? n / seconds : 0;
  v[size_t(HudCounter::kFrameTime)] = seconds * 1e3 / n;
  v[size_t(HudCounter::kCpu)] = seconds > 0 ? double(to.cpu_ns - from.cpu_ns) * 1e-9 / seconds * 100.0 : 0;
  // Backend counters per frame. With the run-ahead pipe they are the apply thread's, which may trail the
  // GL thread by the present credit: over a sample the difference is a frame at most.
  v[size_t(HudCounter::kDraws)] = double(to.draws - from.draws) / n;
  v[size_t(HudCounter::kPasses)] = double(to.passes - from.passes) / n;
  v[size_t(HudCounter::kPipelines)] = double(to.pipelines - from.pipelines) / n;
  v[size_t(HudCounter::kSubmits)] = double(to.submits - from.submits) / n;
  v[size_t(HudCounter::kMemory)] = double(to.memory) / double(1u << 20);
  return v;
}

void Hud::WriteLogRow(const Totals& now) {
  auto v = Rates(last_frame_, now, 1);
  std::fprintf(log_, "%llu,%.3f,%.2f,%.3f,%.1f,%.0f,%.0f,%.0f,%.0f,%.1f\n", (unsigned long long)frames_,
               double(now.time_ns) * 1e-6, v[size_t(HudCounter::kFps)], v[size_t(HudCounter::kFrameTime)],
               v[size_t(HudCounter::kCpu)], v[size_t(HudCounter::kDraws)], v[size_t(HudCounter::kPasses)],
               v[size_t(HudCounter::kPipelines)], v[size_t(HudCounter::kSubmits)],
               v[size_t(HudCounter::kMemory)]);
}

void Hud::OnSwap(Context& context, Surface& surface) {
  const Totals now = Sample(context);
  ++frames_;
  if (!started_) {
    started_ = true;
    last_frame_ = last_sample_ = now;
  } else {
    ++frames_since_sample_;
    if (log_) WriteLogRow(now);
    last_frame_ = now;
    if (now.time_ns - last_sample_.time_ns >= kSampleNs) {
      values_ = Rates(last_sample_, now, frames_since_sample_);
      for (size_t c = 0; c < values_.size(); ++c) {
        std::rotate(history_[c].begin(), history_[c].begin() + 1, history_[c].end());
        history_[c].back() = values_[c];
      }
      history_len_ = std::min(history_len_ + 1, kHistory);
      last_sample_ = now;
      frames_since_sample_ = 0;
      dirty_ = rows_ > 0;
    }
  }
  if (!rows_ || !surface.color.valid()) return;
  if (surface.desc.samples > 1) {
    util::LogOnce(util::LogLevel::kWarning, "CALDERA_HUD", "not drawn on multisampled windows");
    return;
  }
  if (!EnsureImage(context)) return;
  pipe::Pipe& pipe = context.pipe();
  if (dirty_) {
    Render();
    // The image is stored in GL's row order (bottom row first); the HUD is drawn top row first.
    std::vector<uint8_t> rows(pixels_.size());
    const size_t stride = size_t(width_) * 4;
    for (int y = 0; y < height_; ++y)
      std::memcpy(rows.data() + size_t(height_ - 1 - y) * stride, pixels_.data() + size_t(y) * stride,
                  stride);
    pipe::CmdImageUpload up{};
    up.image = image_;
    up.width = uint32_t(width_);
    up.height = uint32_t(height_);
    up.payload_size = uint32_t(rows.size());
    pipe.Record(up, rows.data(), rows.size());
    dirty_ = false;
    ++uploads_;
  }
  // The window's top-left corner; a window smaller than the HUD shows its top-left part.
  const int32_t w = std::min(width_, surface.desc.width), h = std::min(height_, surface.desc.height);
  pipe::CmdBlit blit{};
  blit.src = {image_, 0, 0};
  blit.dst = {surface.color, 0, 0};
  const int32_t src[4] = {0, height_ - h, w, height_};
  const int32_t dst[4] = {0, surface.desc.height - h, w, surface.desc.height};
  std::memcpy(blit.src_rect, src, sizeof(src));
  std::memcpy(blit.dst_rect, dst, sizeof(dst));
  blit.mask = pipe::kClearColor;
  context.FlushRenderTargets();
  pipe.Record(blit);
  ++blits_;
}

bool Hud::EnsureImage(Context& context) {
  if (image_.valid()) return true;
  image_ = context.device().handles().Allocate();
  context.pipe().Record(
      pipe::CmdImageCreate{image_, pipe::Format::kRGBA8, 1, 1, uint32_t(width_), uint32_t(height_), 1});
  return true;
}

void Hud::Release(pipe::Pipe& pipe, Context& context) {
  if (!image_.valid()) return;
  pipe.Record(pipe::CmdImageDestroy{image_});
  context.device().handles().Free(image_);
  image_ = {};
}

void Hud::Render() {
  for (size_t i = 0; i < pixels_.size(); i += 4) std::memcpy(&pixels_[i], kBackground, 4);
  int row = 0;
  for (uint32_t c = 0; c < uint32_t(HudCounter::kCount); ++c) {
    if (!((counters_ >> c) & 1)) continue;
    const int y = kMargin + row * kRowHeight;
    HudDrawText(pixels_.data(), width_, height_, kMargin, y, kNames[c], kScale, kLabelColour);
    char value[32] = "-";
    if (history_len_) FormatValue(HudCounter(c), values_[c], value, sizeof(value));
    HudDrawText(pixels_.data(), width_, height_, kMargin + kLabelChars * kHudGlyphAdvance * kScale, y, value,
                kScale, kValueColour);
    // The graph: the last kHistory samples, scaled to the largest of them.
    const auto& h = history_[c];
    double top = 0;
    for (int i = kHistory - history_len_; i < kHistory; ++i) top = std::max(top, h[i]);
    const int graph_height = kHudGlyphHeight * kScale;
    for (int i = kHistory - history_len_; i < kHistory && top > 0; ++i) {
      const int bar = std::max(1, int(h[i] / top * graph_height + 0.5));
      for (int yy = y + graph_height - bar; yy < y + graph_height; ++yy)
        for (int xx = 0; xx < kGraphBarWidth; ++xx) {
          const int px = kGraphX + i * kGraphBarWidth + xx;
          std::memcpy(&pixels_[(size_t(yy) * size_t(width_) + size_t(px)) * 4], kGraphColour, 4);
        }
    }
    ++row;
  }
}

}  // namespace caldera
