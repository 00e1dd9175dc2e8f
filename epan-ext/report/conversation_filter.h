// SPDX-License-Identifier: GPL-2.0-or-later
// The display filter of a row of Wireshark's conversation and endpoint
// tables for RoCE (taps/conversation_table.cpp). Wireshark writes a row's
// filter as "<field>==<address>" joined with &&, asking the table only for
// the field of each address; for RoCE it gives no port in a filter. A
// conversation is a stream, so its "field" carries the stream too:
//   roce.qp.stream == 3 && roce.ip.src==10.0.0.1 && roce.qp.stream == 3 && roce.ip.dst==10.0.0.2
// selects exactly the stream's frames from A to B (docs/gui.md).
#pragma once
#include <cstdint>
#include <string>

namespace roceshark::conversation {

enum class Family : uint8_t { ipv4, ipv6 };  // ipv6: RoCEv2 over IPv6, or a RoCEv1 GID
enum class Side : uint8_t { src, dst, any };

// The connection's own address fields (the RoCE packet's, inner when mirrored).
const char* address_field(Family f, Side s);
// What goes before "==<address>" in a filter of stream `stream`'s row.
std::string filter_field(uint32_t stream, Family f, Side s);

}  // namespace roceshark::conversation
