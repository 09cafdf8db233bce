#include "ranks/RankNames.h"

#include <cctype>
#include <limits>
#include <string>

namespace ovs {

namespace {

char lower(char c)
{
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// The number right after `word` at `at` (one '_', '-' or '.' between them
// allowed), where `word` starts a word: "rank3", "rank_3"; not "frank3".
std::optional<int> numberAfter(std::string_view name, std::size_t at, std::string_view word)
{
    if (at > 0 && std::isalpha(static_cast<unsigned char>(name[at - 1])))
        return std::nullopt;
    std::size_t i = at + word.size();
    if (i < name.size() && (name[i] == '_' || name[i] == '-' || name[i] == '.'))
        ++i;
    if (i >= name.size() || !isDigit(name[i]))
        return std::nullopt;
    long long value = 0;
    for (; i < name.size() && isDigit(name[i]); ++i) {
        value = value * 10 + (name[i] - '0');
        if (value > std::numeric_limits<int>::max())
            return std::nullopt;
    }
    return static_cast<int>(value);
}

} // namespace

std::optional<int> rankFromFileName(std::string_view fileName)
{
    std::string name(fileName);
    for (char& c : name)
        c = lower(c);
    for (std::string_view word : {std::string_view("rank"), std::string_view("worker")}) {
        for (std::size_t at = name.find(word); at != std::string::npos; at = name.find(word, at + 1))
            if (const auto rank = numberAfter(name, at, word))
                return rank;
    }
    return std::nullopt;
}

} // namespace ovs
