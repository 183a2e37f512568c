#include "pipe/stream.h"

#include <cstdio>
#include <cstdlib>

namespace caldera::pipe {

void CommandChunk::CorruptRecord(size_t at, const RecordHeader* header) const {
  // Nothing after a bad header can be trusted: stop here, loudly, rather than apply garbage.
  if (header)
    std::fprintf(stderr,
                 "caldera fatal: pipe: corrupt record at byte %zu of a %zu-byte chunk: op %u (%s), size %u\n",
                 at, bytes_.size(), unsigned(header->op), RecordName(header->op), header->size);
  else
    std::fprintf(stderr, "caldera fatal: pipe: truncated record header at byte %zu of a %zu-byte chunk\n", at,
                 bytes_.size());
  std::abort();
}

}  // namespace caldera::pipe
