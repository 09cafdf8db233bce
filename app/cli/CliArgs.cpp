#include "CliArgs.h"

#include "base/Printable.h"

#include <algorithm>
#include <charconv>

namespace ovs::cli {

CliArgs::CliArgs(std::vector<std::string> args, const std::vector<std::string>& valueOptions,
                 const std::vector<std::string>& flagOptions)
{
    auto known = [](const std::vector<std::string>& names, const std::string& name) {
        return std::find(names.begin(), names.end(), name) != names.end();
    };
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        if (arg.size() < 2 || arg[0] != '-') {
            m_positionals.push_back(arg);
            continue;
        }
        std::string name = arg;
        std::optional<std::string> inlineValue;
        if (auto eq = arg.find('='); eq != std::string::npos) {
            name = arg.substr(0, eq);
            inlineValue = arg.substr(eq + 1);
        }
        const bool flag = known(flagOptions, name);
        if (!flag && !known(valueOptions, name))
            throw UsageError("unknown option '" + echoed(name) + "'");
        // The last of two values silently winning hides a mistake.
        if (has(name))
            throw UsageError("option " + name + " is given more than once");
        if (flag) {
            if (inlineValue)
                throw UsageError("option " + name + " takes no value");
            m_flags.push_back(name);
        } else {
            if (!inlineValue) {
                if (i + 1 >= args.size())
                    throw UsageError("option " + name + " needs a value");
                inlineValue = args[++i];
            }
            m_values[name] = *inlineValue;
        }
    }
}

bool CliArgs::has(const std::string& name) const
{
    return std::find(m_flags.begin(), m_flags.end(), name) != m_flags.end() || m_values.count(name) > 0;
}

std::optional<std::string> CliArgs::value(const std::string& name) const
{
    auto it = m_values.find(name);
    if (it == m_values.end())
        return std::nullopt;
    return it->second;
}

std::string CliArgs::value(const std::string& name, const std::string& fallback) const
{
    return value(name).value_or(fallback);
}

long long parseInteger(const std::string& text, const std::string& what, long long min, long long max)
{
    long long parsed = 0;
    const auto* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, parsed);
    if (ec != std::errc() || ptr != end || text.empty())
        throw UsageError(what + ": '" + echoed(text) + "' is not a whole number");
    if (parsed < min || parsed > max)
        throw UsageError(what + " must be between " + std::to_string(min) + " and " + std::to_string(max) + " (got "
                         + echoed(text) + ")");
    return parsed;
}

long long CliArgs::integer(const std::string& name, long long fallback, long long min, long long max) const
{
    auto text = value(name);
    return text ? parseInteger(*text, name, min, max) : fallback;
}

std::vector<std::string> CliArgs::list(const std::string& name, const std::vector<std::string>& fallback) const
{
    auto text = value(name);
    if (!text)
        return fallback;
    std::vector<std::string> items;
    std::size_t start = 0;
    while (start <= text->size()) {
        const auto comma = text->find(',', start);
        const auto item = text->substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (item.empty())
            throw UsageError(name + ": empty item in '" + echoed(*text) + "'");
        items.push_back(item);
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return items;
}

} // namespace ovs::cli
