#include "profile/CommandWords.h"

namespace ovs::profile {

bool splitCommandWords(std::string_view text, std::vector<std::string>* words, std::string* why)
{
    words->clear();
    std::string word;
    bool inWord = false; // '' is a word too
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (inWord)
                words->push_back(std::move(word));
            word.clear();
            inWord = false;
            continue;
        }
        inWord = true;
        if (c == '\\') {
            if (i + 1 >= text.size()) {
                *why = "the arguments end with a lone backslash";
                return false;
            }
            if (text[++i] != '\n') // backslash-newline continues the line
                word += text[i];
        } else if (c == '\'') {
            const std::size_t end = text.find('\'', i + 1);
            if (end == std::string_view::npos) {
                *why = "a single quote (') is not closed";
                return false;
            }
            word.append(text.substr(i + 1, end - i - 1));
            i = end;
        } else if (c == '"') {
            std::size_t j = i + 1;
            for (; j < text.size() && text[j] != '"'; ++j) {
                if (text[j] == '\\' && j + 1 < text.size()) {
                    const char next = text[j + 1];
                    if (next == '"' || next == '\\' || next == '$' || next == '`') {
                        word += next;
                        ++j;
                        continue;
                    }
                    if (next == '\n') {
                        ++j;
                        continue;
                    }
                }
                word += text[j];
            }
            if (j >= text.size()) {
                *why = "a double quote (\") is not closed";
                return false;
            }
            i = j;
        } else {
            word += c;
        }
    }
    if (inWord)
        words->push_back(std::move(word));
    return true;
}

std::string joinCommandWords(const std::vector<std::string>& words)
{
    std::string line;
    for (const std::string& w : words) {
        if (!line.empty())
            line += ' ';
        const bool plain = !w.empty() && w.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                             "0123456789-_./=:,+@%")
                                             == std::string::npos;
        if (plain) {
            line += w;
            continue;
        }
        line += '\'';
        for (const char c : w) {
            if (c == '\'')
                line += "'\\''";
            else
                line += c;
        }
        line += '\'';
    }
    return line;
}

} // namespace ovs::profile
