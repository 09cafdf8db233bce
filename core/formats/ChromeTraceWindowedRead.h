#pragma once

// The formats room's own: ChromeTraceImport::readFile's reading in windows.

#include "formats/ChromeTraceImport.h"
#include "formats/ReadProgress.h"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace ovs {

// Reads the Chrome/Kineto trace open at `fd` (a regular file of `fileBytes`,
// more than one window) a window of `windowBytes` at a time, on two threads
// where the file is big enough and splits at an event's line. Nothing where
// it cannot be read in windows: the whole-text reader then decides and words
// any error. A raised cancel ends it with RunCancelled.
std::optional<ChromeTraceImport> readChromeTraceInWindows(int fd, std::uint64_t fileBytes, std::size_t windowBytes,
                                                          const ReadProgress& progress);

} // namespace ovs
