// SPDX-License-Identifier: GPL-2.0-or-later
// One input to the frame decoder, as the fuzzer and the replay test feed
// it: the bytes as a whole frame, and as the first part of a longer one
// (a snaplen cut). Returns what is wrong with the answers, or nothing.
#pragma once
#include <cstdint>
#include <span>
#include <string>

#include "epan-ext/decode/frame_decoder.h"

namespace roceshark::test {

inline std::string decode_problem(std::span<const uint8_t> bytes) {
  for (uint32_t cut : {0u, 4096u}) {
    decode::FrameIn in;
    in.bytes = bytes;
    in.wire_len = static_cast<uint32_t>(bytes.size()) + cut;
    const decode::Decoded d = decode::decode_frame(in);
    if (d.kind == decode::Kind::not_ours && (d.reason == decode::Reason::none || !*d.where))
      return "not ours without a reason";
    if (d.kind == decode::Kind::roce && d.packet.truncated != (d.reason == decode::Reason::truncated))
      return "a truncated RoCE packet without the reason, or the reverse: " + d.reason_text();
    if (d.kind != decode::Kind::not_ours && d.kind != decode::Kind::roce && d.reason != decode::Reason::none)
      return "a PFC, DCBX, ICMP or cross-traffic record with a reason: " + d.reason_text();
  }
  return "";
}

}  // namespace roceshark::test
