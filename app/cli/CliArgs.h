#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ovs::cli {

// A usage mistake: the message says what was wrong; main prints it with a
// pointer to --help and exits with status 2.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// `command --name value --flag positional...`. Options are declared up front
// so a typo is an error, not silently ignored; so is an option given twice.
// Messages quote what the user typed printable and clipped (base/Printable.h).
class CliArgs {
public:
    CliArgs(std::vector<std::string> args, const std::vector<std::string>& valueOptions,
            const std::vector<std::string>& flagOptions);

    bool has(const std::string& name) const;
    std::optional<std::string> value(const std::string& name) const;
    std::string value(const std::string& name, const std::string& fallback) const;
    // Integers and lists with range checks; the messages name the option.
    long long integer(const std::string& name, long long fallback, long long min, long long max) const;
    std::vector<std::string> list(const std::string& name, const std::vector<std::string>& fallback) const;
    const std::vector<std::string>& positionals() const { return m_positionals; }

private:
    std::map<std::string, std::string> m_values;
    std::vector<std::string> m_flags;
    std::vector<std::string> m_positionals;
};

long long parseInteger(const std::string& text, const std::string& what, long long min, long long max);

} // namespace ovs::cli
