// SPDX-License-Identifier: GPL-2.0-or-later
// Whether tshark read its capture file to the end. tshark still draws the
// -z statistics after a read error (it says so on stderr and exits non-zero), and
// a tap cannot see the error. So the file tshark was given is looked at
// again: an uncompressed pcap or pcapng file whose bytes after the last
// frame read are whole records or blocks up to its end was read whole (the
// common case, at no cost); any other is read again, records only, with the
// same libwiretap, and its error is the report's cut_short limit, in the
// command's words.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace roceshark::glue {

// The read error of tshark's -r file ("FILE: record N: ..."), once per
// process; none when it reads to its end, or this is not tshark reading a
// file (the GUI shows a read error itself).
const std::optional<std::string>& tshark_read_error();

// The file offset of each frame on the first pass (the dissector's): the
// last one is where the check above starts.
void frame_read_at(int64_t file_offset);

}  // namespace roceshark::glue
