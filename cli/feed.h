// SPDX-License-Identifier: GPL-2.0-or-later
// A batch's record into a session: the one switch over the record kinds
// of the command's front ends.
#pragma once
#include "cli/batch.h"
#include "epan-ext/session/session.h"

namespace roceshark::cli {

inline void feed(Session& s, const Batch& b, const Batch::Item& f) {
  switch (f.kind) {
    case decode::Kind::roce: s.feed(b.packets[f.index], f.wire_len); break;
    case decode::Kind::pause: s.feed(b.pauses[f.index], f.wire_len); break;
    case decode::Kind::dcbx: s.feed(f.number, f.ts_ns, b.dcbx[f.index], f.wire_len); break;
    case decode::Kind::icmp: s.feed(b.icmp[f.index], f.wire_len); break;
    case decode::Kind::cross: s.feed(b.cross[f.index]); break;
    case decode::Kind::not_ours: break;
  }
}

}  // namespace roceshark::cli
