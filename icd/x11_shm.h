// MIT-SHM for the read-back path on X11 (docs/WINDOWS.md): the frame is converted straight into a segment
// of shared memory the X server has attached, and ShmPutImage makes the server copy it into the window, so
// no image bytes cross the socket (plain PutImage sends them all, in request-sized bands). libxcb-shm is
// opened on first use (x11_loader.h); without it, without the server's MIT-SHM 1.2, with CALDERA_X11_SHM=0
// or when a segment cannot be made, the window uses plain PutImage (a one-time log line says why).
#pragma once

#include <xcb/xcb.h>

#include <cstddef>
#include <cstdint>

namespace caldera::egl::x11 {

class ShmImage {
 public:
  enum class PutResult : uint8_t { kShown, kWindowGone, kSegmentFailed };

  ShmImage() = default;
  ShmImage(const ShmImage&) = delete;
  ShmImage& operator=(const ShmImage&) = delete;
  ~ShmImage();  // Release(connection) must have run while the connection was open

  // Whether frames of this window may go through MIT-SHM on `c`; decided at the first call (logged once).
  bool Usable(xcb_connection_t* c);
  // A mapping of at least `bytes`, attached to the server (a larger one is made when needed). Null when
  // no segment can be made or attached; then Usable() answers false from here on.
  uint8_t* Map(xcb_connection_t* c, size_t bytes);
  // The server copies width x height pixels (rows of width * 4 bytes from the mapping's start) to (0, 0) of
  // `drawable`; returns once it has (the next frame overwrites the segment). kSegmentFailed turns MIT-SHM
  // off for this window (the caller then shows the frame by plain PutImage).
  PutResult Put(xcb_connection_t* c, uint32_t drawable, uint32_t gc, uint16_t width, uint16_t height,
                uint8_t depth);
  void Release(xcb_connection_t* c);

 private:
  void TurnOff(xcb_connection_t* c, const char* why);

  enum class State : uint8_t { kUnknown, kOn, kOff };
  State state_ = State::kUnknown;
  uint8_t first_error_ = 0;  // the MIT-SHM extension's first error code (BadSeg)
  uint32_t segment_ = 0;     // xcb_shm_seg_t, 0 when none is attached
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace caldera::egl::x11
