// SPDX-License-Identifier: GPL-2.0-or-later
// A small streaming JSON writer for the machine-readable report: objects,
// arrays, strings (escaped), integers, doubles and booleans, with commas
// placed for the caller.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace roceshark {

class JsonWriter {
 public:
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
  JsonWriter& null();
  // key(k).value(v)
  template <typename T>
  JsonWriter& field(std::string_view k, const T& v) {
    key(k);
    return value(v);
  }
  const std::string& str() const { return out_; }

 private:
  void separate();
  std::string out_;
  std::vector<bool> first_;  // per open container: nothing written in it yet
  bool after_key_ = false;
};

}  // namespace roceshark
