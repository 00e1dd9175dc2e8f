// SPDX-License-Identifier: GPL-2.0-or-later
// The decoder's records as bytes, for partial reports (docs/partial-format.md):
// field by field, in the order of each record's one field list
// (record_codec.cpp), which both directions walk; a field a flag before it
// says is absent is not written. Integers wider than a byte are LEB128
// varints, so most take one or two bytes.
#pragma once
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <span>
#include <stdexcept>
#include <string>

#include "epan-ext/decode/cross_packet.h"
#include "epan-ext/decode/dcbx_announcement.h"
#include "epan-ext/decode/icmp.h"
#include "epan-ext/decode/packet.h"
#include "epan-ext/decode/pfc_frame.h"

namespace roceshark::codec {

// Bumped with any change to a field list: a partial of another version is
// refused, never misread.
inline constexpr uint32_t kRecordVersion = 1;

// What a partial leaves out of a record: its frame number and time, which
// its head holds (the merge sets them), as zero.
template <class R> R without_head(R r) {
  if constexpr (requires { r.frame; }) r.frame = 0;
  if constexpr (requires { r.ts_ns; }) r.ts_ns = 0;
  return r;
}

struct Malformed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Out {
 public:
  explicit Out(std::string& to) : to_(to) {}
  void put(const void* p, size_t n) { to_.append(static_cast<const char*>(p), n); }
  template <class T> void num(T v) {
    static_assert(std::is_integral_v<T>);
    if constexpr (sizeof(T) == 1) {
      to_.push_back(char(v));
    } else {
      static_assert(std::is_unsigned_v<T>);
      for (; v >= 0x80; v >>= 7) to_.push_back(char(uint8_t(v) | 0x80));
      to_.push_back(char(v));
    }
  }

 private:
  std::string& to_;
};

class In {
 public:
  explicit In(std::span<const uint8_t> from) : from_(from) {}
  void get(void* p, size_t n) {
    if (n > from_.size() - at_) throw Malformed("a record ends early");
    std::memcpy(p, from_.data() + at_, n);
    at_ += n;
  }
  template <class T> T num() {
    static_assert(std::is_integral_v<T>);
    if constexpr (sizeof(T) == 1) {
      T v;
      get(&v, 1);
      return v;
    } else {
      uint64_t v = 0;
      for (unsigned shift = 0;; shift += 7) {
        uint8_t b;
        get(&b, 1);
        if (shift > 63 || (shift == 63 && b > 1)) throw Malformed("a number too long");
        v |= uint64_t(b & 0x7F) << shift;
        if (!(b & 0x80)) break;
      }
      if (v > std::numeric_limits<T>::max()) throw Malformed("a number too large for its field");
      return T(v);
    }
  }
  bool done() const { return at_ == from_.size(); }
  size_t used() const { return at_; }

 private:
  std::span<const uint8_t> from_;
  size_t at_ = 0;
};

void write(Out& o, const PacketInfo& r);
void write(Out& o, const pfc::PauseFrame& r);
void write(Out& o, const qos::DcbxAnnouncement& r);
void write(Out& o, const icmp::TooBig& r);
void write(Out& o, const CrossPacket& r);
// Each throws Malformed when the bytes are not a whole record of its kind,
// or hold a value the decoder never gives (check()).
void read(In& i, PacketInfo& r);
void read(In& i, pfc::PauseFrame& r);
void read(In& i, qos::DcbxAnnouncement& r);
void read(In& i, icmp::TooBig& r);
void read(In& i, CrossPacket& r);
void check(const PacketInfo& r);
void check(const pfc::PauseFrame& r);
void check(const qos::DcbxAnnouncement& r);
void check(const icmp::TooBig& r);
void check(const CrossPacket& r);

}  // namespace roceshark::codec
