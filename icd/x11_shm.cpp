// MIT-SHM segments for the X11 read-back path (x11_shm.h). Segments are memfd-backed and attached by file
// descriptor (MIT-SHM 1.2), so nothing outlives the process (System V segments would until removed).
#include "x11_shm.h"

#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "util/log.h"
#include "x11_loader.h"

namespace caldera::egl::x11 {

ShmImage::~ShmImage() {
  if (data_) munmap(data_, size_);
}

bool ShmImage::Usable(xcb_connection_t* c) {
  if (state_ != State::kUnknown) return state_ == State::kOn;
  state_ = State::kOff;
  if (!util::EnvFlag("CALDERA_X11_SHM", true)) {
    util::LogOnce(util::LogLevel::kInfo, "present",
                  "CALDERA_X11_SHM=0: the read-back path uses plain PutImage");
    return false;
  }
  std::string why;
  const X11ShmLibrary* shm = LoadX11ShmLibrary(&why);
  if (!shm) {
    util::LogOnce(util::LogLevel::kInfo, "present",
                  "no MIT-SHM (" + why + "): the read-back path uses plain PutImage");
    return false;
  }
  // Segments are passed as file descriptors, which only a Unix-domain socket carries (xcb would drop a
  // TCP connection trying); a remote server could not map the memory anyway.
  sockaddr_storage addr{};
  socklen_t addr_len = sizeof(addr);
  if (getsockname(X11().xcb_get_file_descriptor(c), reinterpret_cast<sockaddr*>(&addr), &addr_len) != 0 ||
      addr.ss_family != AF_UNIX) {
    util::LogOnce(
        util::LogLevel::kInfo, "present",
        "the X connection is not a local (Unix-domain) one: the read-back path uses plain PutImage");
    return false;
  }
  const xcb_query_extension_reply_t* ext = X11().xcb_get_extension_data(c, shm->xcb_shm_id);
  if (!ext || !ext->present) {
    util::LogOnce(util::LogLevel::kInfo, "present",
                  "the X server has no MIT-SHM extension: the read-back path uses plain PutImage");
    return false;
  }
  xcb_shm_query_version_reply_t* version =
      shm->xcb_shm_query_version_reply(c, shm->xcb_shm_query_version(c), nullptr);
  bool fd_segments =
      version && (version->major_version > 1 || (version->major_version == 1 && version->minor_version >= 2));
  free(version);
  if (!fd_segments) {
    util::LogOnce(
        util::LogLevel::kInfo, "present",
        "the X server's MIT-SHM is older than 1.2 (no file-descriptor segments): the read-back path "
        "uses plain PutImage");
    return false;
  }
  first_error_ = ext->first_error;
  state_ = State::kOn;
  return true;
}

void ShmImage::TurnOff(xcb_connection_t* c, const char* why) {
  util::LogOnce(util::LogLevel::kWarning, "present",
                std::string("MIT-SHM failed (") + why + "): the read-back path falls back to plain PutImage");
  Release(c);
  state_ = State::kOff;
}

uint8_t* ShmImage::Map(xcb_connection_t* c, size_t bytes) {
  if (state_ != State::kOn) return nullptr;
  if (data_ && size_ >= bytes) return data_;
  Release(c);
  const X11ShmLibrary& shm = *LoadX11ShmLibrary(nullptr);
  int fd = memfd_create("caldera-x11-frame", MFD_CLOEXEC);
  if (fd < 0) {
    TurnOff(c, "memfd_create");
    return nullptr;
  }
  if (ftruncate(fd, off_t(bytes)) != 0) {
    close(fd);
    TurnOff(c, "ftruncate");
    return nullptr;
  }
  void* map = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) {
    close(fd);
    TurnOff(c, "mmap");
    return nullptr;
  }
  uint32_t segment = X11().xcb_generate_id(c);
  // xcb sends the descriptor with the request and closes it: the server keeps its own mapping.
  xcb_generic_error_t* err = X11().xcb_request_check(c, shm.xcb_shm_attach_fd_checked(c, segment, fd, 0));
  if (err) {
    free(err);
    munmap(map, bytes);
    TurnOff(c, "the server could not attach the segment");
    return nullptr;
  }
  segment_ = segment;
  data_ = static_cast<uint8_t*>(map);
  size_ = bytes;
  return data_;
}

ShmImage::PutResult ShmImage::Put(xcb_connection_t* c, uint32_t drawable, uint32_t gc, uint16_t width,
                                  uint16_t height, uint8_t depth) {
  const X11ShmLibrary& shm = *LoadX11ShmLibrary(nullptr);
  // Checked, and waited for: once the server answered, it has copied the pixels out of the segment.
  xcb_generic_error_t* err = X11().xcb_request_check(
      c, shm.xcb_shm_put_image_checked(c, drawable, gc, width, height, 0, 0, width, height, 0, 0, depth,
                                       XCB_IMAGE_FORMAT_Z_PIXMAP, 0, segment_, 0));
  if (!err) return PutResult::kShown;
  bool segment_error = err->error_code == first_error_;  // BadShmSeg
  free(err);
  if (!segment_error) return PutResult::kWindowGone;
  TurnOff(c, "ShmPutImage: bad segment");
  return PutResult::kSegmentFailed;
}

void ShmImage::Release(xcb_connection_t* c) {
  if (segment_) {
    LoadX11ShmLibrary(nullptr)->xcb_shm_detach(c, segment_);
    X11().xcb_flush(c);
    segment_ = 0;
  }
  if (data_) munmap(data_, size_);
  data_ = nullptr;
  size_ = 0;
}

}  // namespace caldera::egl::x11
