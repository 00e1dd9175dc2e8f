// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/common/json_writer.h"

#include <cmath>
#include <cstdio>

#include "epan-ext/common/text_table.h"

namespace roceshark {

void JsonWriter::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_ += ',';
    first_.back() = false;
  }
}

JsonWriter& JsonWriter::begin_object() {
  separate();
  out_ += '{';
  first_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  out_ += '}';
  first_.pop_back();
  spill();
  return *this;
}

JsonWriter& JsonWriter::begin_array() {
  separate();
  out_ += '[';
  first_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  out_ += ']';
  first_.pop_back();
  spill();
  return *this;
}

void JsonWriter::spill() {
  if (sink_ && out_.size() >= (64u << 10)) flush();
}

void JsonWriter::flush() {
  if (!sink_) return;
  sink_(out_);
  out_.clear();
}

JsonWriter& JsonWriter::key(std::string_view k) {
  value(k);
  out_ += ':';
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view s) {
  separate();
  out_ += '"';
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out_ += '\\';
      out_ += ch;
    } else if (c < 0x20) {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", c);
      out_ += b;
    } else {
      out_ += ch;
    }
  }
  out_ += '"';
  return *this;
}

JsonWriter& JsonWriter::value(uint64_t v) {
  separate();
  out_ += std::to_string(v);
  return *this;
}

JsonWriter& JsonWriter::fixed(uint64_t units, int places) {
  separate();
  out_ += cell::fixed(units, places);
  return *this;
}

JsonWriter& JsonWriter::value(int64_t v) {
  separate();
  out_ += std::to_string(v);
  return *this;
}

JsonWriter& JsonWriter::value(double v) {
  if (!std::isfinite(v)) return null();
  separate();
  char b[32];
  std::snprintf(b, sizeof b, "%.6g", v);
  out_ += b;
  return *this;
}

JsonWriter& JsonWriter::value(bool v) {
  separate();
  out_ += v ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::null() {
  separate();
  out_ += "null";
  return *this;
}

}  // namespace roceshark
