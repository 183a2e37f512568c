#include "util/build_id.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "util/log.h"

namespace caldera::util {
namespace {

struct Search {
  uintptr_t address = 0;  // an address inside the object sought
  std::vector<uint8_t> id;
  bool found_object = false;
};

// The NT_GNU_BUILD_ID note of the loaded object that contains search->address.
int FindNote(dl_phdr_info* info, size_t, void* data) {
  auto* search = static_cast<Search*>(data);
  bool contains = false;
  for (int i = 0; i < info->dlpi_phnum && !contains; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    const uintptr_t start = info->dlpi_addr + ph.p_vaddr;
    contains = ph.p_type == PT_LOAD && search->address >= start && search->address < start + ph.p_memsz;
  }
  if (!contains) return 0;
  search->found_object = true;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const auto* p = reinterpret_cast<const uint8_t*>(info->dlpi_addr + ph.p_vaddr);
    const uint8_t* end = p + ph.p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      ElfW(Nhdr) note;
      std::memcpy(&note, p, sizeof note);
      const uint8_t* name = p + sizeof note;
      const uint8_t* desc = name + ((note.n_namesz + 3u) & ~3u);
      const uint8_t* next = desc + ((note.n_descsz + 3u) & ~3u);
      if (next > end) break;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
        search->id.assign(desc, desc + note.n_descsz);
        return 1;
      }
      p = next;
    }
  }
  return 1;
}

// FNV-1a over the file's bytes, for a library linked without --build-id.
std::vector<uint8_t> HashFile(const char* path) {
  std::vector<uint8_t> out;
  FILE* f = std::fopen(path, "rb");
  if (!f) return out;
  uint64_t h = 1469598103934665603ull;
  uint8_t buffer[1 << 16];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0)
    for (size_t i = 0; i < n; ++i) h = (h ^ buffer[i]) * 1099511628211ull;
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) return out;
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(h >> (8 * i)));
  return out;
}

std::vector<uint8_t> Compute() {
  Search search;
  search.address = reinterpret_cast<uintptr_t>(&BuildId);
  dl_iterate_phdr(FindNote, &search);
  if (!search.id.empty()) return search.id;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&BuildId), &info) && info.dli_fname) {
    std::vector<uint8_t> hash = HashFile(info.dli_fname);
    if (!hash.empty()) {
      Log(LogLevel::kInfo, "build",
          std::string("no GNU build ID in ") + info.dli_fname + ": its bytes' hash stands in");
      return hash;
    }
  }
  LogOnce(LogLevel::kWarning, "build",
          "this build's identity could not be read (no GNU build ID, library file unreadable): "
          "program binaries are not offered");
  return {};
}

}  // namespace

const std::vector<uint8_t>& BuildId() {
  static const std::vector<uint8_t> id = Compute();
  return id;
}

}  // namespace caldera::util
