// SPDX-License-Identifier: GPL-2.0-or-later
// A small streaming JSON writer for the machine-readable report: objects,
// arrays, strings (escaped), integers, doubles and booleans, with commas
// placed for the caller. Given an output, it hands the text on in pieces as
// it goes, so a report of a million QPs never sits in memory whole.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace roceshark {

using TextOut = std::function<void(std::string_view)>;

class JsonWriter {
 public:
  JsonWriter() = default;  // keeps the text: str()
  explicit JsonWriter(TextOut out) : sink_(std::move(out)) {}
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view k);  // inside an object, before its value
  JsonWriter& value(std::string_view s);
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  JsonWriter& value(uint64_t v);
  JsonWriter& value(int64_t v);
  JsonWriter& value(uint32_t v) { return value(uint64_t{v}); }
  JsonWriter& value(int v) { return value(int64_t{v}); }
  JsonWriter& value(double v);
  JsonWriter& value(bool v);
  // `units` / 10^`places` exactly, as a number: 534 ns as 0.000000534 s.
  JsonWriter& fixed(uint64_t units, int places);
  JsonWriter& null();
  // key(k).value(v)
  template <typename T>
  JsonWriter& field(std::string_view k, const T& v) {
    key(k);
    return value(v);
  }
  const std::string& str() const { return out_; }
  // With an output: hands on what is left.
  void flush();

 private:
  void separate();
  void spill();  // with an output, after a container ends: hand on a full buffer
  TextOut sink_;
  std::string out_;
  std::vector<bool> first_;  // per open container: nothing written in it yet
  bool after_key_ = false;
};

}  // namespace roceshark
