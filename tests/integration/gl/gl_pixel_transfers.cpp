// Pixel transfers byte for byte: glReadPixels, glGetTexImage and glTexSubImage2D of formats whose client
// layout matches the image (rows copied) and of formats that convert (a loop chosen per call, or the
// general path), with odd sizes, row lengths, skipped pixels and rows and every pack/unpack alignment.
// Every client byte is dumped, padding and sentinels included, and compare.py diffs the dump against Mesa
// llvmpipe's with no tolerance. Left out because the general path rounds differently from llvmpipe (before
// and after row copies; docs/PERFORMANCE.md): 8-bit colour read as GL_FLOAT (x / 255 vs llvmpipe's
// result, one ulp apart) and as GL_UNSIGNED_INT_2_10_10_10_REV, depth read as GL_UNSIGNED_SHORT,
// DEPTH24 read as GL_FLOAT, and GL_UNSIGNED_SHORT_5_6_5 uploads (llvmpipe replicates bits).
//
// Usage: gl_pixel_transfers reads|uploads <out.bin>
//        gl_pixel_transfers --expect-row-copies|--expect-no-row-copies   (Caldera only: the CALDERA_STATS
//        probes show whether rows were copied and loops chosen, or that CALDERA_PIXEL_ROW_COPY=0 turned
//        both off)
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gl_harness.h"

namespace {

constexpr int kW = 37, kH = 23;  // odd on purpose
std::vector<uint8_t> g_dump;

std::string g_label;  // what the next dumps are (GL_PIXEL_TRANSFERS_INDEX=1 lists offsets, for diagnosis)

void Dump(const std::vector<uint8_t>& bytes) {
  if (std::getenv("GL_PIXEL_TRANSFERS_INDEX"))
    std::fprintf(stderr, "dump %zu %zu %s\n", g_dump.size(), bytes.size(), g_label.c_str());
  g_dump.insert(g_dump.end(), bytes.begin(), bytes.end());
  while (g_dump.size() % 4) g_dump.push_back(0);  // compare.py reads 4-byte groups
}

struct PixelStore {
  int alignment, row_length, skip_pixels, skip_rows;
};
// Each alignment, with and without a row length and skips.
std::vector<PixelStore> Stores() {
  std::vector<PixelStore> out;
  for (int a : {1, 2, 4, 8}) {
    out.push_back({a, 0, 0, 0});
    out.push_back({a, 33, 3, 2});
  }
  return out;
}

void SetPack(const PixelStore& s) {
  glPixelStorei(GL_PACK_ALIGNMENT, s.alignment);
  glPixelStorei(GL_PACK_ROW_LENGTH, s.row_length);
  glPixelStorei(GL_PACK_SKIP_PIXELS, s.skip_pixels);
  glPixelStorei(GL_PACK_SKIP_ROWS, s.skip_rows);
}
void SetUnpack(const PixelStore& s) {
  glPixelStorei(GL_UNPACK_ALIGNMENT, s.alignment);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, s.row_length);
  glPixelStorei(GL_UNPACK_SKIP_PIXELS, s.skip_pixels);
  glPixelStorei(GL_UNPACK_SKIP_ROWS, s.skip_rows);
}
void ResetStores() {
  SetPack({4, 0, 0, 0});
  SetUnpack({4, 0, 0, 0});
}

// Bytes a block of w x h pixels of `bpp` bytes takes under `s`, skips included, plus slack.
size_t BlockBytes(const PixelStore& s, int w, int h, int bpp) {
  size_t row = size_t(s.row_length ? s.row_length : w) * bpp;
  row = (row + s.alignment - 1) / s.alignment * s.alignment;
  return size_t(s.skip_rows + h) * row + size_t(s.skip_pixels) * bpp + 64;
}

// Deterministic texel data of a storage kind: bytes, floats in (0, 1) without rounding ties (odd
// multiples of 1/512), a few outside [0, 1], or integers of both signs.
// Packed formats take bytes (`components` is then the texel's byte count).
enum class Fill { kBytes, kFloats, kHalves, kShorts, kInts, kDepth };
std::vector<uint8_t> Pattern(Fill fill, int texels, int components, int seed) {
  std::vector<uint8_t> out;
  for (int i = 0; i < texels * components; ++i) {
    uint32_t k = uint32_t(i * 131 + seed * 29 + (i / components) * 7);
    switch (fill) {
      case Fill::kBytes:
        out.push_back(uint8_t(k * 37 + 5));
        break;
      case Fill::kFloats:
      case Fill::kDepth: {
        float v = float(2 * (k % 256) + 1) / 512.0f;
        if (fill == Fill::kFloats && k % 17 == 0) v = (k % 2) ? 1.75f : -0.5f;
        out.resize(out.size() + 4);
        std::memcpy(&out[out.size() - 4], &v, 4);
        break;
      }
      case Fill::kHalves: {
        // Halves of odd multiples of 1/512: exponent 14 - e, 10-bit mantissa.
        float v = float(2 * (k % 256) + 1) / 512.0f;
        int e;
        float m = std::frexp(v, &e);
        auto h = static_cast<uint16_t>((e - 1 + 15) << 10 | uint32_t(std::lround((m * 2 - 1) * 1024)));
        out.push_back(uint8_t(h));
        out.push_back(uint8_t(h >> 8));
        break;
      }
      case Fill::kShorts: {
        auto v = static_cast<uint16_t>(k * 4099 + 3);
        out.push_back(uint8_t(v));
        out.push_back(uint8_t(v >> 8));
        break;
      }
      case Fill::kInts: {
        int32_t v = int32_t(k * 2654435761u) / 3;  // both signs, beyond 16 bits
        if (k % 5 == 0) v = int32_t(k % 300) - 150;
        out.resize(out.size() + 4);
        std::memcpy(&out[out.size() - 4], &v, 4);
        break;
      }
    }
  }
  return out;
}

struct Storage {
  const char* name;
  GLenum internal_format;
  GLenum format, type;  // how Pattern() data is uploaded (a matching pair)
  Fill fill;
  int components, bpp;
  bool depth;
};

const Storage kRGBA8{"rgba8", GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, Fill::kBytes, 4, 4, false};
const Storage kRGB8{"rgb8", GL_RGB8, GL_RGB, GL_UNSIGNED_BYTE, Fill::kBytes, 3, 3, false};
const Storage kR8{"r8", GL_R8, GL_RED, GL_UNSIGNED_BYTE, Fill::kBytes, 1, 1, false};
const Storage kRG8{"rg8", GL_RG8, GL_RG, GL_UNSIGNED_BYTE, Fill::kBytes, 2, 2, false};
const Storage kSRGB8A8{"srgb8a8", GL_SRGB8_ALPHA8, GL_RGBA, GL_UNSIGNED_BYTE, Fill::kBytes, 4, 4, false};
const Storage kRGBA32F{"rgba32f", GL_RGBA32F, GL_RGBA, GL_FLOAT, Fill::kFloats, 4, 16, false};
const Storage kR32F{"r32f", GL_R32F, GL_RED, GL_FLOAT, Fill::kFloats, 1, 4, false};
const Storage kRGBA16F{"rgba16f", GL_RGBA16F, GL_RGBA, GL_HALF_FLOAT, Fill::kHalves, 4, 8, false};
const Storage kRGBA16{"rgba16", GL_RGBA16, GL_RGBA, GL_UNSIGNED_SHORT, Fill::kShorts, 4, 8, false};
const Storage kRGB10A2{"rgb10a2",    GL_RGB10_A2, GL_RGBA, GL_UNSIGNED_INT_2_10_10_10_REV,
                       Fill::kBytes, 4,           4,       false};
const Storage kRGB565{"rgb565", GL_RGB565, GL_RGB, GL_UNSIGNED_SHORT_5_6_5, Fill::kBytes, 2, 2, false};
const Storage kRGBA8UI{"rgba8ui", GL_RGBA8UI, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, Fill::kBytes, 4, 4, false};
const Storage kRGBA32I{"rgba32i", GL_RGBA32I, GL_RGBA_INTEGER, GL_INT, Fill::kInts, 4, 16, false};
const Storage kDepth32F{"depth32f", GL_DEPTH_COMPONENT32F, GL_DEPTH_COMPONENT, GL_FLOAT, Fill::kDepth, 1, 4,
                        true};

// A kW x kH texture of `s` filled with its pattern (matching upload, default unpack state).
GLuint MakeTexture(const Storage& s, int seed) {
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  ResetStores();
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  std::vector<uint8_t> data = Pattern(s.fill, kW * kH, s.components, seed);
  glTexImage2D(GL_TEXTURE_2D, 0, s.internal_format, kW, kH, 0, s.format, s.type, data.data());
  CHECK_GL_ERROR(GL_NO_ERROR);
  return tex;
}

struct ClientPair {
  GLenum format, type;
  int bpp;
};

// glReadPixels of a framebuffer with a texture of `s` attached: a rectangle inside it and one reaching
// past its edges, under every pack state.
void Reads(const Storage& s, std::initializer_list<ClientPair> pairs, int seed) {
  GLuint tex = MakeTexture(s, seed);
  GLuint fbo;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, s.depth ? GL_DEPTH_ATTACHMENT : GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
                         tex, 0);
  if (s.depth) {
    glDrawBuffer(GL_NONE);
    glReadBuffer(GL_NONE);
  }
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  for (const ClientPair& p : pairs) {
    for (const PixelStore& st : Stores()) {
      g_label = std::string("read ") + s.name + " " + std::to_string(p.format) + "/" +
                std::to_string(p.type) + " align " + std::to_string(st.alignment) + " row " +
                std::to_string(st.row_length);
      SetPack(st);
      struct Rect {
        int x, y, w, h;
      };
      for (Rect r : {Rect{3, 2, 29, 17}, Rect{-2, 15, 13, 11}}) {
        std::vector<uint8_t> out(BlockBytes(st, r.w, r.h, p.bpp), 0xCD);
        glReadPixels(r.x, r.y, r.w, r.h, p.format, p.type, out.data());
        CHECK_GL_ERROR(GL_NO_ERROR);
        Dump(out);
      }
    }
  }
  // glGetTexImage of the whole level under one odd pack state, and a read into a pixel pack buffer.
  if (!s.depth) {
    const ClientPair& p = *pairs.begin();
    PixelStore st{8, kW + 2, 1, 1};
    SetPack(st);
    g_label = std::string("getteximage ") + s.name;
    std::vector<uint8_t> out(BlockBytes(st, kW, kH, p.bpp), 0xAB);
    glGetTexImage(GL_TEXTURE_2D, 0, p.format, p.type, out.data());
    CHECK_GL_ERROR(GL_NO_ERROR);
    Dump(out);
    for (const ClientPair& q : pairs) {
      g_label = std::string("pbo ") + s.name + " " + std::to_string(q.format) + "/" + std::to_string(q.type);
      SetPack({2, 31, 2, 1});
      size_t size = BlockBytes({2, 31, 2, 1}, 29, 17, q.bpp);
      std::vector<uint8_t> init(size, 0x5A);
      GLuint pbo;
      glGenBuffers(1, &pbo);
      glBindBuffer(GL_PIXEL_PACK_BUFFER, pbo);
      glBufferData(GL_PIXEL_PACK_BUFFER, GLsizeiptr(size), init.data(), GL_STREAM_READ);
      glReadPixels(3, 2, 29, 17, q.format, q.type, nullptr);
      const auto* mapped = static_cast<const uint8_t*>(
          glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, GLsizeiptr(size), GL_MAP_READ_BIT));
      CHECK(mapped != nullptr);
      if (mapped) Dump(std::vector<uint8_t>(mapped, mapped + size));
      glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
      glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
      glDeleteBuffers(1, &pbo);
      CHECK_GL_ERROR(GL_NO_ERROR);
    }
  }
  ResetStores();
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  glDeleteTextures(1, &tex);
}

void AllReads() {
  Reads(kRGBA8,
        {{GL_RGBA, GL_UNSIGNED_BYTE, 4},
         {GL_BGRA, GL_UNSIGNED_BYTE, 4},
         {GL_RGB, GL_UNSIGNED_BYTE, 3},
         {GL_BGR, GL_UNSIGNED_BYTE, 3},
         {GL_RED, GL_UNSIGNED_BYTE, 1},
         {GL_RG, GL_UNSIGNED_BYTE, 2},
         {GL_ALPHA, GL_UNSIGNED_BYTE, 1},
         {GL_RGBA, GL_UNSIGNED_SHORT, 8},
         {GL_RGBA, GL_BYTE, 4},
         {GL_RGB, GL_UNSIGNED_SHORT_5_6_5, 2},
         {GL_RGBA, GL_UNSIGNED_SHORT_4_4_4_4, 2},
         {GL_RGBA, GL_UNSIGNED_INT_8_8_8_8_REV, 4},
         {GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV, 4}},
        1);
  Reads(kSRGB8A8, {{GL_RGBA, GL_UNSIGNED_BYTE, 4}, {GL_BGRA, GL_UNSIGNED_BYTE, 4}}, 2);
  Reads(kRGB8, {{GL_RGBA, GL_UNSIGNED_BYTE, 4}, {GL_RGB, GL_UNSIGNED_BYTE, 3}}, 3);
  Reads(kR8, {{GL_RED, GL_UNSIGNED_BYTE, 1}, {GL_RGBA, GL_UNSIGNED_BYTE, 4}, {GL_RG, GL_UNSIGNED_BYTE, 2}},
        4);
  Reads(kRG8, {{GL_RG, GL_UNSIGNED_BYTE, 2}, {GL_RGBA, GL_UNSIGNED_BYTE, 4}}, 5);
  Reads(kRGBA32F,
        {{GL_RGBA, GL_FLOAT, 16},
         {GL_RED, GL_FLOAT, 4},
         {GL_BGRA, GL_FLOAT, 16},
         {GL_RGBA, GL_UNSIGNED_BYTE, 4}},
        6);
  Reads(kR32F, {{GL_RED, GL_FLOAT, 4}, {GL_RGBA, GL_FLOAT, 16}}, 7);
  Reads(kRGBA16F, {{GL_RGBA, GL_HALF_FLOAT, 8}, {GL_RGBA, GL_FLOAT, 16}}, 8);
  Reads(kRGBA16, {{GL_RGBA, GL_UNSIGNED_SHORT, 8}, {GL_RGBA, GL_UNSIGNED_BYTE, 4}}, 9);
  Reads(kRGB10A2, {{GL_RGBA, GL_UNSIGNED_INT_2_10_10_10_REV, 4}}, 14);
  Reads(kRGB565, {{GL_RGB, GL_UNSIGNED_SHORT_5_6_5, 2}}, 15);
  Reads(kRGBA8UI,
        {{GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, 4},
         {GL_RGBA_INTEGER, GL_UNSIGNED_INT, 16},
         {GL_RG_INTEGER, GL_INT, 8}},
        10);
  Reads(kRGBA32I,
        {{GL_RGBA_INTEGER, GL_INT, 16}, {GL_RGBA_INTEGER, GL_SHORT, 8}, {GL_BGRA_INTEGER, GL_INT, 16}}, 11);
  Reads(kDepth32F, {{GL_DEPTH_COMPONENT, GL_FLOAT, 4}}, 12);
}

// glTexSubImage2D of client pixels under every unpack state into a texture of `s`, read back whole with
// its matching pair.
void Uploads(const Storage& s, std::initializer_list<ClientPair> pairs, Fill client_fill, int seed) {
  for (const ClientPair& p : pairs) {
    for (const PixelStore& st : Stores()) {
      g_label = std::string("upload ") + s.name + " " + std::to_string(p.format) + "/" +
                std::to_string(p.type) + " align " + std::to_string(st.alignment) + " row " +
                std::to_string(st.row_length);
      GLuint tex = MakeTexture(s, seed);
      SetUnpack(st);
      int components = p.bpp;
      if (client_fill == Fill::kFloats) components /= 4;
      std::vector<uint8_t> data = Pattern(client_fill, int(BlockBytes(st, 29, 17, p.bpp)) / p.bpp + 1,
                                          components, seed + st.alignment);
      glTexSubImage2D(GL_TEXTURE_2D, 0, 3, 2, 29, 17, p.format, p.type, data.data());
      CHECK_GL_ERROR(GL_NO_ERROR);
      ResetStores();
      glPixelStorei(GL_PACK_ALIGNMENT, 1);
      int read_bpp = s.bpp == 3 ? 4 : s.bpp;  // RGB8 read back as RGBA: alpha must be one
      std::vector<uint8_t> out(size_t(kW) * kH * read_bpp + 16, 0xEE);
      glGetTexImage(GL_TEXTURE_2D, 0, s.bpp == 3 ? GL_RGBA : s.format, s.type, out.data());
      CHECK_GL_ERROR(GL_NO_ERROR);
      Dump(out);
      glDeleteTextures(1, &tex);
    }
  }
}

void AllUploads() {
  Uploads(kRGBA8,
          {{GL_RGBA, GL_UNSIGNED_BYTE, 4},
           {GL_BGRA, GL_UNSIGNED_BYTE, 4},
           {GL_RGB, GL_UNSIGNED_BYTE, 3},
           {GL_BGR, GL_UNSIGNED_BYTE, 3},
           {GL_RED, GL_UNSIGNED_BYTE, 1},
           {GL_RG, GL_UNSIGNED_BYTE, 2}},
          Fill::kBytes, 20);
  Uploads(kRGBA8, {{GL_RGBA, GL_FLOAT, 16}}, Fill::kFloats, 21);
  Uploads(kSRGB8A8, {{GL_BGRA, GL_UNSIGNED_BYTE, 4}}, Fill::kBytes, 22);
  Uploads(kRGB8, {{GL_RGB, GL_UNSIGNED_BYTE, 3}, {GL_RGBA, GL_UNSIGNED_BYTE, 4}}, Fill::kBytes, 23);
  Uploads(kRGBA32F, {{GL_RGBA, GL_FLOAT, 16}, {GL_RGB, GL_FLOAT, 12}, {GL_RED, GL_FLOAT, 4}}, Fill::kFloats,
          24);
  Uploads(kR8, {{GL_RED, GL_UNSIGNED_BYTE, 1}}, Fill::kBytes, 25);
  Uploads(kRGBA8UI, {{GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, 4}}, Fill::kBytes, 26);
}

}  // namespace

int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "";
  bool probe = mode == "--expect-row-copies" || mode == "--expect-no-row-copies";
  if (!probe && (argc < 3 || (mode != "reads" && mode != "uploads"))) {
    std::fprintf(stderr, "usage: %s reads|uploads <out.bin> | --expect-row-copies | --expect-no-row-copies\n",
                 argv[0]);
    return 2;
  }
  // Set before the display opens: contexts append their counters when destroyed.
  std::unique_ptr<harness::StatsFile> stats;
  if (probe) stats = std::make_unique<harness::StatsFile>();
  harness::Window w = harness::Open(64, 64);
  std::string renderer = harness::PrintVendor();
  if (mode == "reads" || probe) AllReads();
  if (mode == "uploads" || probe) AllUploads();
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);
  if (probe) {
    long row_copies = stats->Sum("pixel_row_copies"), loops = stats->Sum("pixel_loop_conversions");
    long general = stats->Sum("pixel_general_conversions"), vk_rows = stats->Sum("readback_row_copies");
    long host_direct = stats->Sum("readback_host_direct");
    std::printf(
        "pixel transfers: %ld row copies, %ld loop conversions, %ld general; Vulkan readback rows %ld; "
        "GLES stored texels read by the host %ld\n",
        row_copies, loops, general, vk_rows, host_direct);
    bool vulkan = renderer.find("Vulkan") != std::string::npos;
    if (mode == "--expect-row-copies") {
      CHECK(row_copies > 0);
      CHECK(loops > 0);
      if (vulkan) CHECK(vk_rows > 0);
      if (!vulkan) CHECK(host_direct > 0);
    } else {
      CHECK(row_copies == 0);
      CHECK(loops == 0);
      CHECK(general > 0);
      CHECK(vk_rows == 0);
      CHECK(host_direct == 0);
    }
    return harness::Summary();
  }
  FILE* f = std::fopen(argv[2], "wb");
  if (!f || std::fwrite(g_dump.data(), 1, g_dump.size(), f) != g_dump.size()) return 2;
  std::fclose(f);
  std::printf("%s: %s, %zu bytes\n", mode.c_str(), renderer.c_str(), g_dump.size());
  return harness::Summary();
}
