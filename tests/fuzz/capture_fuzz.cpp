// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer target for the command's capture reading (ROCESHARK_FUZZ=ON,
// clang; scripts/run-fuzz): each input is a capture file (pcapng blocks
// and interface descriptions, pcap, ERF: whatever libwiretap recognises)
// written to a temporary file, read as `roceshark` reads it (CaptureSet:
// the file alone, or twice as two files of one capture when the input's
// last byte is odd), decoded by cli/reader.cpp and analysed by a Session
// to the triage. libwiretap itself is not instrumented: coverage is ours.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli/capture_set.h"
#include "cli/feed.h"
#include "cli/reader.h"
#include "epan-ext/session/session.h"

namespace {

using namespace roceshark;

const std::string& temp_path() {
  static const std::string path = [] {
    char name[] = "/tmp/capture_fuzz.XXXXXX";
    const int fd = mkstemp(name);
    if (fd < 0) std::abort();
    close(fd);
    return std::string(name);
  }();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = temp_path();
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    if (size && std::fwrite(data, 1, size, f) != size) std::abort();
    std::fclose(f);
  } else {
    std::abort();
  }
  const std::vector<std::string> files = size && (data[size - 1] & 1) ? std::vector{path, path} : std::vector{path};
  const prefs::Settings settings;
  std::unique_ptr<cli::CaptureSet> in;
  try {
    in = std::make_unique<cli::CaptureSet>(files);
  } catch (const std::exception&) {
    return 0;  // not a capture libwiretap knows: the command says so and exits 2
  }
  Session s(settings);
  size_t frames = 0;
  try {
    cli::Batch spare;
    cli::read_all(*in, settings, [&] { return std::move(spare); }, [&](cli::Batch b) {
      for (const cli::Batch::Name& n : b.names) s.name_point(n.point, n.name);
      for (const cli::Batch::Item& f : b.items) {
        cli::feed(s, b, f);
        frames += f.kind != decode::Kind::cross;
      }
      spare = std::move(b);
    });
  } catch (const std::exception&) {
    return 0;  // CaptureSet keeps a file's error; anything else thrown is the command's exit 2
  }
  for (const std::string& e : in->errors()) s.cut_short(e);
  std::string text;
  s.view("triage", false, [&](std::string_view t) { text += t; });
  if (text.empty()) std::abort();
  return 0;
}
