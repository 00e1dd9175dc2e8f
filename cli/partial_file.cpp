// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli/partial_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include <utility>

#include "epan-ext/session/record_codec.h"

namespace roceshark::cli {
namespace {

constexpr char kMagic[8] = {'R', 'S', 'P', 'A', 'R', 'T', '1', '\n'};
constexpr char kEnd[8] = {'R', 'S', 'P', 'E', 'N', 'D', '1', '\n'};
constexpr size_t kFooter = 8 + 4 + 4 + 8;  // trailer offset, trailer length, crc, kEnd
constexpr uint8_t kEndOfFile = 0;           // a record kind byte: the file's records end

// A time as the difference from the one before, zigzagged: a clock that
// steps back costs a few bytes, not a failure.
uint64_t zigzag(int64_t d) { return (uint64_t(d) << 1) ^ uint64_t(d >> 63); }
int64_t unzigzag(uint64_t z) { return int64_t(z >> 1) ^ -int64_t(z & 1); }

uint32_t crc_of(std::span<const uint8_t> a, std::span<const uint8_t> b = {}) {
  Crc32 c;
  c.update(a), c.update(b);
  return c.value();
}

std::span<const uint8_t> bytes(const std::string& s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }

template <class T> void put_num(std::string& out, T v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); }
template <class T> T get_num(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

uint8_t kind_byte(decode::Kind k) { return uint8_t(k) + 1; }

nlohmann::json to_json(const Manifest& m) {
  nlohmann::json inputs = nlohmann::json::array();
  for (const auto& i : m.inputs) inputs.push_back({{"path", i.path}, {"size", i.size}, {"fingerprint", i.fingerprint}});
  nlohmann::json j = {{"format", "roceshark-partial"}, {"roceshark", m.roceshark},
                      {"record_version", codec::kRecordVersion}, {"options", m.options}, {"inputs", inputs},
                      {"joining", m.concatenate ? "concatenate" : "interleave"}, {"shard", m.shard},
                      {"shards", m.shards}, {"files", m.files}};
  if (m.segmented) j["segment"] = m.segment;
  return j;
}

}  // namespace

std::string capture_fingerprint(const std::string& path, uint64_t& size) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    const std::string why = fd < 0 ? std::strerror(errno) : "not a regular file";
    if (fd >= 0) ::close(fd);
    throw PartialError(path + ": " + why + " (a partial report needs capture files, not pipes)");
  }
  size = uint64_t(st.st_size);
  std::string head(std::min<uint64_t>(size, 65536), '\0'), tail(std::min<uint64_t>(size, 65536), '\0');
  const bool ok = pread(fd, head.data(), head.size(), 0) == ssize_t(head.size()) &&
                  pread(fd, tail.data(), tail.size(), off_t(size - tail.size())) == ssize_t(tail.size());
  ::close(fd);
  if (!ok) throw PartialError(path + ": cannot read it");
  std::string sz;
  put_num(sz, size);
  Crc32 c;
  c.update(bytes(sz)), c.update(bytes(head)), c.update(bytes(tail));
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08x", c.value());
  return hex;
}

PartialWriter::PartialWriter(std::string path, const Manifest& m)
    : path_(std::move(path)), tmp_(path_ + ".part"), segmented_(m.segmented) {
  f_ = std::fopen(tmp_.c_str(), "wb");
  if (!f_) throw PartialError(path_ + ": cannot write: " + std::strerror(errno));
  head_.append(kMagic, sizeof kMagic);
  const std::string manifest = to_json(m).dump();
  put_num(head_, uint32_t(manifest.size()));
  head_ += manifest;
  put(head_.data(), head_.size());
}

PartialWriter::~PartialWriter() {
  if (f_) {
    std::fclose(f_);
    std::remove(tmp_.c_str());
  }
}

void PartialWriter::put(const void* p, size_t n) {
  if (std::fwrite(p, 1, n, f_) != n) throw PartialError(path_ + ": cannot write: " + std::strerror(errno));
  at_ += n;
}

void PartialWriter::begin_file(uint32_t) {
  file_start_ = at_;
  file_crc_ = Crc32{};
  last_number_ = 0, last_ts_ = 0;
}

void PartialWriter::record(const PartialRecord& r) {
  buf_.clear();
  buf_.push_back(char(kind_byte(r.kind)));
  codec::Out o(buf_);
  o.num(r.number - last_number_), o.num(r.interface), o.num(r.wire_len);
  o.num(zigzag(int64_t(r.ts_ns - last_ts_)));
  o.num(uint32_t(r.payload.size()));
  last_number_ = r.number, last_ts_ = r.ts_ns;
  buf_.append(reinterpret_cast<const char*>(r.payload.data()), r.payload.size());
  file_crc_.update(bytes(buf_));
  put(buf_.data(), buf_.size());
}

void PartialWriter::item(const Batch& b, const Batch::Item& it) {
  payload_.clear();
  codec::Out o(payload_);
  switch (it.kind) {
    case decode::Kind::roce: codec::write(o, codec::without_head(b.packets[it.index])); break;
    case decode::Kind::pause: codec::write(o, codec::without_head(b.pauses[it.index])); break;
    case decode::Kind::dcbx: codec::write(o, codec::without_head(b.dcbx[it.index])); break;
    case decode::Kind::icmp: codec::write(o, codec::without_head(b.icmp[it.index])); break;
    case decode::Kind::cross: codec::write(o, codec::without_head(b.cross[it.index])); break;
    case decode::Kind::not_ours: break;
  }
  record({it.kind, it.number, it.interface, it.wire_len, it.ts_ns,
          {reinterpret_cast<const uint8_t*>(payload_.data()), payload_.size()}});
}

void PartialWriter::end_file(FileTrailer t) {
  const uint8_t end = kEndOfFile;
  file_crc_.update({&end, 1});
  put(&end, 1);
  t.offset = file_start_, t.length = at_ - file_start_, t.crc = file_crc_.value();
  trailers_.push_back(std::move(t));
}

void PartialWriter::finish(bool last_segment) {
  nlohmann::json files = nlohmann::json::array();
  for (const auto& t : trailers_)
    files.push_back({{"file", t.file}, {"offset", t.offset}, {"length", t.length}, {"crc", t.crc},
                     {"frames", t.frames}, {"declared_interfaces", t.declared_interfaces},
                     {"interfaces", t.interface_names}, {"error", t.error}, {"drops", t.drops}});
  nlohmann::json t{{"files", files}};
  if (segmented_) t["last_segment"] = last_segment;
  const std::string trailer = t.dump();
  const uint64_t trailer_at = at_;
  put(trailer.data(), trailer.size());
  std::string foot;
  put_num(foot, trailer_at), put_num(foot, uint32_t(trailer.size()));
  put_num(foot, crc_of(bytes(head_), bytes(trailer)));
  foot.append(kEnd, sizeof kEnd);
  put(foot.data(), foot.size());
  const bool flushed = std::fflush(f_) == 0 && fsync(fileno(f_)) == 0;
  const bool closed = std::fclose(f_) == 0;
  f_ = nullptr;
  if (!flushed || !closed || std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(tmp_.c_str());
    throw PartialError(path_ + ": cannot write: " + why);
  }
}

PartialError PartialFile::bad(const std::string& why) const {
  return PartialError(path_ + ": not a whole partial report: " + why);
}

PartialFile::PartialFile(std::string path) : path_(std::move(path)) {
  const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || fstat(fd, &st) != 0) {
    const std::string why = std::strerror(errno);
    if (fd >= 0) ::close(fd);
    throw PartialError(path_ + ": " + why);
  }
  size_ = size_t(st.st_size);
  if (size_ > 0) {
    void* m = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED) {
      ::close(fd);
      throw PartialError(path_ + ": cannot map it: " + std::strerror(errno));
    }
    map_ = static_cast<const uint8_t*>(m);
    madvise(m, size_, MADV_SEQUENTIAL);
  }
  ::close(fd);
  if (size_ < sizeof kMagic || std::memcmp(map_, kMagic, sizeof kMagic) != 0)
    throw PartialError(path_ + ": not a roceshark partial report (roceshark partial writes them)");
  if (size_ < sizeof kMagic + 4 + kFooter || std::memcmp(map_ + size_ - 8, kEnd, 8) != 0)
    throw bad("it ends early (truncated, or still being written)");
  const uint32_t manifest_len = get_num<uint32_t>(map_ + 8);
  const uint8_t* foot = map_ + size_ - kFooter;
  const uint64_t trailer_at = get_num<uint64_t>(foot);
  const uint32_t trailer_len = get_num<uint32_t>(foot + 8);
  const size_t head_len = 12 + size_t(manifest_len);
  if (head_len > size_ - kFooter || trailer_at < head_len || trailer_at > size_ - kFooter ||
      trailer_len != size_ - kFooter - trailer_at)
    throw bad("its frame does not add up");
  if (crc_of({map_, head_len}, {map_ + trailer_at, trailer_len}) != get_num<uint32_t>(foot + 12))
    throw bad("its manifest or trailer fails its checksum (corrupt)");
  try {
    const auto j = nlohmann::json::parse(map_ + 12, map_ + head_len);
    if (j.at("format") != "roceshark-partial") throw bad("its manifest is of another format");
    if (j.at("record_version").get<uint32_t>() != codec::kRecordVersion)
      throw PartialError(path_ + ": written by roceshark " + j.at("roceshark").get<std::string>() +
                         " (record version " + std::to_string(j.at("record_version").get<uint32_t>()) +
                         "); this roceshark reads version " + std::to_string(codec::kRecordVersion));
    Manifest& m = manifest_;
    j.at("roceshark").get_to(m.roceshark);
    j.at("options").get_to(m.options);
    for (const auto& i : j.at("inputs"))
      m.inputs.push_back({i.at("path"), i.at("size"), i.at("fingerprint")});
    const std::string joining = j.at("joining");
    if (joining != "interleave" && joining != "concatenate") throw bad("joining '" + joining + "'");
    m.concatenate = joining == "concatenate";
    j.at("shard").get_to(m.shard);
    j.at("shards").get_to(m.shards);
    j.at("files").get_to(m.files);
    if (j.contains("segment")) {
      m.segmented = true;
      j.at("segment").get_to(m.segment);
      if (!m.concatenate || m.inputs.size() != 1 || m.shards != 1) throw bad("a segment of more than one stream");
    }
    if (m.shards == 0 || m.shard >= m.shards) throw bad("shard " + std::to_string(m.shard) + " of " + std::to_string(m.shards));
    const auto t = nlohmann::json::parse(map_ + trailer_at, map_ + trailer_at + trailer_len);
    if (m.segmented) t.at("last_segment").get_to(m.last_segment);
    for (const auto& f : t.at("files")) {
      FileTrailer& ft = trailers_.emplace_back();
      f.at("file").get_to(ft.file), f.at("offset").get_to(ft.offset), f.at("length").get_to(ft.length);
      f.at("crc").get_to(ft.crc), f.at("frames").get_to(ft.frames);
      f.at("declared_interfaces").get_to(ft.declared_interfaces), f.at("interfaces").get_to(ft.interface_names);
      f.at("error").get_to(ft.error);
      f.at("drops").get_to(ft.drops);
      if (ft.file >= m.inputs.size() || ft.offset < head_len || ft.length > trailer_at - ft.offset || ft.length == 0)
        throw bad("file section " + std::to_string(ft.file) + " lies outside its records");
    }
    std::vector<uint32_t> have;
    for (const auto& ft : trailers_) have.push_back(ft.file);
    if (have != m.files) throw bad("its sections are not the files its manifest names");
  } catch (const nlohmann::json::exception& e) {
    throw bad(std::string("its manifest or trailer: ") + e.what());
  }
}

PartialFile::~PartialFile() {
  if (map_) munmap(const_cast<uint8_t*>(map_), size_);
}

PartialFile::Cursor::Cursor(const PartialFile& p, const FileTrailer& t)
    : p_(p), bytes_(p.map_ + t.offset, t.length), expected_crc_(t.crc) {}

bool PartialFile::Cursor::next(PartialRecord& r) {
  if (done_) return false;
  const auto fail = [&](const std::string& why) {
    return p_.bad(why + " at byte " + std::to_string(size_t(bytes_.data() - p_.map_) + at_));
  };
  if (at_ >= bytes_.size()) throw fail("a file's records end without their end mark");
  const uint8_t kind = bytes_[at_];
  if (kind == kEndOfFile) {
    crc_.update(bytes_.subspan(at_, 1));
    done_ = true;
    if (at_ + 1 != bytes_.size()) throw fail("bytes after a file's end mark");
    if (crc_.value() != expected_crc_) throw p_.bad("a file's records fail their checksum (corrupt)");
    return false;
  }
  if (kind > kind_byte(decode::Kind::not_ours)) throw fail("a malformed record");
  codec::In in(bytes_.subspan(at_ + 1));
  uint32_t len = 0;
  try {
    const auto step = in.num<uint32_t>();
    if (step == 0 || step > UINT32_MAX - number_) throw fail("frame numbers out of order");
    r.number = number_ += step;
    r.interface = in.num<uint32_t>(), r.wire_len = in.num<uint32_t>();
    r.ts_ns = ts_ += uint64_t(unzigzag(in.num<uint64_t>()));
    len = in.num<uint32_t>();
  } catch (const codec::Malformed& e) {
    throw fail(std::string("a record's head: ") + e.what());
  }
  const size_t head = 1 + in.used();
  if (bytes_.size() - at_ - head < len) throw fail("a record runs past its file's records");
  r.kind = decode::Kind(kind - 1);
  r.payload = bytes_.subspan(at_ + head, len);
  r.origin = &p_.path_;
  if ((r.kind == decode::Kind::not_ours) != (len == 0)) throw fail("a record of the wrong length for its kind");
  crc_.update(bytes_.subspan(at_, head + len));
  at_ += head + len;
  // What was read is given back (a partial can be larger than memory).
  if (at_ - dropped_ >= (8u << 20)) {
    const uintptr_t page = uintptr_t(sysconf(_SC_PAGESIZE));
    const uintptr_t from = (uintptr_t(bytes_.data() + dropped_) + page - 1) & ~(page - 1);
    const uintptr_t to = uintptr_t(bytes_.data() + at_) & ~(page - 1);
    if (to > from) madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
    dropped_ = at_;
  }
  return true;
}

}  // namespace roceshark::cli
