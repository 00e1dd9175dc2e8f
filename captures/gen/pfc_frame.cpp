// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/pfc_frame.h"

#include "captures/gen/byte_writer.h"

namespace roceshark::gen {

std::vector<uint8_t> build_pfc(const PfcFields& f) {
  std::vector<uint8_t> out;
  ByteWriter w(out);
  w.bytes(f.dst);
  w.bytes(f.src);
  w.u16(kEthertypeMacControl);
  w.u16(kOpcodePfc);
  w.u16(uint32_t{f.reserved} << 8 | f.enable);
  for (int c = 0; c < 8; ++c) w.u16(f.enable >> c & 1 ? f.quanta[c] : 0);
  out.resize(60, 0);  // the 64-byte minimum less the FCS
  if (f.truncate) out.resize(*f.truncate);
  return out;
}

}  // namespace roceshark::gen
