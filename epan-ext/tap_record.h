// SPDX-License-Identifier: GPL-2.0-or-later
// What the `roce` tap carries for each packet: its decoded fields, the
// engine's verdict, and the engine itself for flow keys, point names and
// RTT samples. Statistics are listeners on this; they never re-analyse.
#pragma once
#include "epan-ext/analyzer.h"
#include "epan-ext/packet.h"
#include "epan-ext/verdict.h"

namespace roceshark {

struct TapRecord {
  const PacketInfo* packet;
  const Verdict* verdict;
  const Analyzer* analyzer;
};

}  // namespace roceshark
