// SPDX-License-Identifier: GPL-2.0-or-later
// The reading stage: libwiretap records through the decoder into batches.
// Frames that are not ours stop here. A line of progress goes to stderr
// when it is a terminal.
#pragma once
#include <functional>

#include "cli/batch.h"
#include "cli/capture_set.h"
#include "epan-ext/common/preferences.h"

namespace roceshark::cli {

// `take` gives an empty batch to fill, `give` hands a filled one on.
void read_all(CaptureSet& in, const prefs::Settings& settings, const std::function<Batch()>& take,
              const std::function<void(Batch)>& give);

}  // namespace roceshark::cli
