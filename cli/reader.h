// SPDX-License-Identifier: GPL-2.0-or-later
// The reading stage: libwiretap records through the decoder into batches.
// Frames that are not ours stop here. A line of progress goes to stderr
// when it is a terminal.
#pragma once
#include <functional>

#include "cli/batch.h"
#include "cli/record_source.h"
#include "epan-ext/common/preferences.h"

namespace roceshark::cli {

// `take` gives an empty batch to fill, `give` hands a filled one on (a
// part-filled one, its idle_ns set, when a live source ticked). With
// `every_frame`, frames that are not ours are handed on too (kind
// not_ours, no record): a partial report counts and orders them.
void read_all(RecordSource& in, const prefs::Settings& settings, const std::function<Batch()>& take,
              const std::function<void(Batch)>& give, bool progress = true, bool every_frame = false);

}  // namespace roceshark::cli
