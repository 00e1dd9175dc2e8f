// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli/mapped_capture.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <optional>

namespace roceshark::cli {
namespace {

constexpr uint32_t kShb = 0x0A0D0D0A, kIdb = 1, kObsoletePacket = 2, kSimplePacket = 3, kEpb = 6;
constexpr uint32_t kMaxPacket = 262144;  // libwiretap's WTAP_MAX_PACKET_SIZE_STANDARD: larger is its error
constexpr uint32_t kLinkEthernet = 1, kLinkErf = 197;
constexpr size_t kDropEvery = 8 << 20, kKeepBehind = 1 << 20;

uint32_t bswap(uint32_t v) { return __builtin_bswap32(v); }

}  // namespace

std::unique_ptr<MappedCapture> MappedCapture::open(const std::string& path) {
  if (path == "-") return nullptr;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  struct stat st{};
  void* map = MAP_FAILED;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 24)
    map = mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);  // the mapping keeps the file
  if (map == MAP_FAILED) return nullptr;
  madvise(map, size_t(st.st_size), MADV_SEQUENTIAL);
  std::unique_ptr<MappedCapture> m(new MappedCapture(static_cast<const uint8_t*>(map), size_t(st.st_size)));
  if (!m->header()) return nullptr;
  return m;
}

MappedCapture::~MappedCapture() { munmap(const_cast<uint8_t*>(base_), size_); }

uint32_t MappedCapture::u32(const uint8_t* p) const {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return swapped_ ? bswap(v) : v;
}

uint16_t MappedCapture::u16(const uint8_t* p) const {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return swapped_ ? __builtin_bswap16(v) : v;
}

const char* MappedCapture::interface_name(uint32_t id) const {
  return id < ifaces_.size() && ifaces_[id].named ? ifaces_[id].name.c_str() : "unknown";
}

// The file header: a classic pcap header, or a pcapng SHB and the IDBs
// right after it (those libwiretap reads when it opens the file).
bool MappedCapture::header() {
  uint32_t magic;
  std::memcpy(&magic, base_, 4);
  if (magic == 0xa1b2c3d4 || magic == 0xa1b23c4d || magic == 0xd4c3b2a1 || magic == 0x4d3cb2a1) {
    swapped_ = magic == 0xd4c3b2a1 || magic == 0x4d3cb2a1;
    ns_ = magic == 0xa1b23c4d || magic == 0x4d3cb2a1;
    if (u16(base_ + 4) != 2 || u16(base_ + 6) != 4) return false;  // other versions: libwiretap's variants
    const uint32_t network = u32(base_ + 20);
    if (network & 0xFC000000) return false;  // FCS length bits
    Interface i;
    i.link = network == kLinkEthernet ? decode::LinkType::ethernet : decode::LinkType::other;
    if (network == kLinkErf) return false;
    ifaces_.push_back(i);
    declared_ = 1;
    pos_ = 24;
    return true;
  }
  if (magic != kShb || size_ < 28) return false;
  uint32_t bom;
  std::memcpy(&bom, base_ + 8, 4);
  if (bom != 0x1A2B3C4D && bom != 0x4D3C2B1A) return false;
  swapped_ = bom == 0x4D3C2B1A;
  const uint32_t len = u32(base_ + 4);
  if (len < 28 || len % 4 || len > size_ || u32(base_ + len - 4) != len || u16(base_ + 12) != 1) return false;
  pcapng_ = true;
  pos_ = len;
  // The IDBs before the first other block are the interfaces known at open.
  while (size_ - pos_ >= 8 && u32(base_ + pos_) == kIdb) {
    const uint32_t blen = u32(base_ + pos_ + 4);
    if (blen < 20 || blen % 4 || blen > size_ - pos_ || u32(base_ + pos_ + blen - 4) != blen) return false;
    if (!interface_block(base_ + pos_ + 8, blen - 12)) return false;
    pos_ += blen;
  }
  // libwiretap's open reads the next block's header too: a file cut inside
  // it does not open.
  if (size_ > pos_ && size_ - pos_ < 8) return false;
  declared_ = uint32_t(ifaces_.size());
  return true;
}

bool MappedCapture::interface_block(const uint8_t* body, size_t len) {
  Interface i;
  const uint16_t link = u16(body);
  if (link == kLinkErf) return false;
  i.link = link == kLinkEthernet ? decode::LinkType::ethernet : decode::LinkType::other;
  // As libwiretap keeps a string option: up to its first NUL; the first of each.
  std::optional<std::string> name, description;
  const auto text = [](const uint8_t* v, uint16_t n) {
    const auto* c = reinterpret_cast<const char*>(v);
    return std::string(c, strnlen(c, n));
  };
  for (size_t o = 8; o + 4 <= len;) {
    const uint16_t code = u16(body + o), olen = u16(body + o + 2);
    if (code == 0) break;
    if (o + 4 + olen > len) return false;
    const uint8_t* v = body + o + 4;
    if (code == 2 && !name) name = text(v, olen);
    else if (code == 3 && !description) description = text(v, olen);
    else if (code == 9) {
      if (olen != 1 || (v[0] & 0x80) || v[0] > 9) return false;  // binary or finer than ns: libwiretap's
      i.div = 1, i.mult = 1'000'000'000;
      for (int k = 0; k < v[0]; ++k) i.div *= 10, i.mult /= 10;
    } else if (code == 14) {
      return false;  // if_tsoffset
    }
    o += 4 + ((olen + 3u) & ~3u);
  }
  i.named = name || description;
  i.name = name ? *name : description ? *description : "";
  ifaces_.push_back(std::move(i));
  return true;
}

MappedCapture::Next MappedCapture::next(Record& r) {
  const Next n = pcapng_ ? next_pcapng(r) : next_pcap(r);
  packets_ += n == Next::record;
  // The pages read are let go, so resident memory stays flat however long
  // the file: all but the last MiB, where the record just returned lies.
  if (pos_ - dropped_ > kDropEvery) {
    const size_t upto = (pos_ - kKeepBehind) & ~size_t(sysconf(_SC_PAGESIZE) - 1);
    madvise(const_cast<uint8_t*>(base_) + dropped_, upto - dropped_, MADV_DONTNEED);
    dropped_ = upto;
  }
  return n;
}

MappedCapture::Next MappedCapture::next_pcap(Record& r) {
  if (pos_ == size_) return Next::end;
  if (size_ - pos_ < 16) return Next::unusual;
  const uint8_t* h = base_ + pos_;
  const uint32_t sec = u32(h), frac = u32(h + 4), caplen = u32(h + 8), len = u32(h + 12);
  if (caplen > kMaxPacket || caplen > size_ - pos_ - 16 || frac >= (ns_ ? 1'000'000'000u : 1'000'000u))
    return Next::unusual;
  r = Record{};
  r.bytes = {h + 16, caplen};
  r.wire_len = len;
  r.link = ifaces_[0].link;
  r.ts_ns = uint64_t(sec) * 1'000'000'000u + uint64_t(frac) * (ns_ ? 1 : 1000);
  pos_ += 16 + caplen;
  return Next::record;
}

MappedCapture::Next MappedCapture::next_pcapng(Record& r) {
  while (pos_ < size_) {
    if (size_ - pos_ < 12) return Next::unusual;
    const uint8_t* b = base_ + pos_;
    const uint32_t type = u32(b), len = u32(b + 4);
    if (len < 12 || len % 4 || len > size_ - pos_ || u32(b + len - 4) != len) return Next::unusual;
    switch (type) {
      case kShb:
      case kSimplePacket:
      case kObsoletePacket: return Next::unusual;
      case kIdb:
        if (len < 20 || !interface_block(b + 8, len - 12)) return Next::unusual;
        break;
      case kEpb: {
        if (len < 32) return Next::unusual;
        const uint32_t id = u32(b + 8), caplen = u32(b + 20);
        if (id >= ifaces_.size() || caplen > kMaxPacket || caplen > len - 32) return Next::unusual;
        const Interface& i = ifaces_[id];
        const uint64_t ticks = uint64_t(u32(b + 12)) << 32 | u32(b + 16);
        r = Record{};
        r.bytes = {b + 28, caplen};
        r.wire_len = u32(b + 24);
        r.link = i.link;
        r.interface = id;
        r.ts_ns = (ticks / i.div) * 1'000'000'000u + (ticks % i.div) * i.mult;
        pos_ += len;
        return Next::record;
      }
      default: break;  // name resolution, statistics, secrets, custom: not packets
    }
    pos_ += len;
  }
  return Next::end;
}

}  // namespace roceshark::cli
