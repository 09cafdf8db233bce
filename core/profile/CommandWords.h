#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ovs::profile {

// Splits a command's arguments as a POSIX shell does, without expanding
// anything: blanks separate words; 'single quotes' keep everything; "double
// quotes" keep everything but \" \\ \$ \` (backslash-newline joins lines);
// a backslash outside quotes keeps the next character. So what the user
// would type after the program in a terminal gives the same argv.
// Returns false with `why` on an unterminated quote or a trailing backslash.
bool splitCommandWords(std::string_view text, std::vector<std::string>* words, std::string* why);

// The words back as one line a shell would split into the same words
// (quoted only where needed), for messages and remembered settings.
std::string joinCommandWords(const std::vector<std::string>& words);

} // namespace ovs::profile
