// SPDX-License-Identifier: GPL-2.0-or-later
// Ethernet MAC addresses (the decoder in epan-ext/decode/ parses the headers).
#pragma once
#include <array>
#include <cstdint>
#include <string>

namespace roceshark {

using Mac = std::array<uint8_t, 6>;
std::string mac_to_string(const Mac& m);

}  // namespace roceshark
