#pragma once

#include "io/JsonWriter.h"

#include <functional>
#include <string>

namespace ovs {

// Writes the JSON that `body` produces, and a final line break, to `path`
// through the atomic writer (io/AtomicFileWriter.h). The text is streamed: about
// a megabyte of it is held at a time, whatever the file's size. On failure
// returns false and, when `error` is given, says why in one line.
bool writeJsonFile(const std::string& path, const std::function<void(JsonWriter&)>& body, std::string* error);

} // namespace ovs
