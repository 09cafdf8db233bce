#include "formats/ChromeTraceWindowedRead.h"

#include "formats/ChromeTraceImporter.h"
#include "formats/FileWindow.h"

#include <algorithm>
#include <atomic>
#include <future>
#include <string>
#include <thread>

#include <unistd.h>

namespace ovs {

namespace {

using Value = ChromeTraceImporter::Value;

// Reading a file a window at a time (ChromeTraceImport::readFile). Each
// window is cut after a line break, which no JSON string holds, so simdjson
// can index it; the events in it are read as the elements of an array
// ("[" before the text, "]" after the cut). The event that the cut
// truncates fails to parse: it is read again at the start of the next
// window. The root's other members (devices, Kineto's fields) are read at
// the end from the text before and after the events.
class WindowedRead {
public:
    WindowedRead(int fd, std::size_t windowBytes, std::uint64_t fileBytes, const ReadProgress& progress)
        : m_window(fd, windowBytes), m_fileBytes(fileBytes), m_progress(progress)
    {
    }

    std::optional<ChromeTraceImport> read()
    {
        if (!readRootKind())
            return std::nullopt;
        try {
            for (;;) {
                m_progress.throwIfCancelled();
                if (step())
                    break;
                m_progress.report(m_window.start(), m_fileBytes);
            }
            std::optional<ChromeTraceImport> done = finish();
            m_progress.report(m_fileBytes, m_fileBytes);
            return done;
        } catch (const Fallback&) {
            return std::nullopt;
        }
    }

    // The same read on two threads, each over one part of the events: the
    // calling thread from the start to `split`, a second one from `split`
    // to the end. `split` is the start of a line that begins with '{' after
    // a line that ends with ','; where the first part does not end exactly
    // there (an object inside an event begins on such a line), or anything
    // else goes amiss, nothing: read() then decides. Each window is half
    // the size: the two hold the memory of one.
    static std::optional<ChromeTraceImport> readInTwo(int fd, std::size_t windowBytes, std::uint64_t fileBytes,
                                                      const ReadProgress& progress, std::uint64_t split)
    {
        windowBytes = std::max<std::size_t>(windowBytes / 2, 1);
        WindowedRead head(fd, windowBytes, fileBytes, progress);
        if (!head.readRootKind())
            return std::nullopt;
        head.m_window.limitTo(split);
        std::atomic<std::uint64_t> tailBytes{0};
        ReadProgress tailProgress; // the calling thread reports for both
        tailProgress.cancel = progress.cancel;
        WindowedRead tail(fd, windowBytes, fileBytes, tailProgress, split);
        tail.m_rootArray = head.m_rootArray;
        tail.m_depth = head.m_depth;
        auto tailRead = std::async(std::launch::async, [&] { return tail.readTail(tailBytes); });
        const auto report = [&](std::uint64_t headBytes) { progress.report(headBytes + tailBytes, fileBytes); };
        bool tailDone = false;
        bool headDone = false;
        try {
            headDone = head.readToLimit(report);
            tailDone = tailRead.get();
        } catch (const Fallback&) {
        } catch (const Grow&) {
        }
        if (!headDone || !tailDone || !head.m_importer->append(std::move(*tail.m_importer)))
            return std::nullopt;
        try {
            std::string rest = tail.rootRest();
            std::optional<ChromeTraceImport> done = head.finishWith(std::move(rest));
            progress.report(fileBytes, fileBytes);
            return done;
        } catch (const Fallback&) {
            return std::nullopt;
        }
    }

private:
    // Control flow: the read cannot go on in windows; the whole-text reader
    // decides (and words any error).
    struct Fallback {};
    // The window holds no complete event: it needs to be larger.
    struct Grow {};
    // The events read end exactly at the window's limit.
    struct ReachedLimit {};

    // The later part's reader, from file offset `from`: its first window
    // begins with an event.
    WindowedRead(int fd, std::size_t windowBytes, std::uint64_t fileBytes, const ReadProgress& progress,
                 std::uint64_t from)
        : m_window(fd, windowBytes, from), m_fileBytes(fileBytes), m_progress(progress), m_first(false)
    {
        m_importer.emplace();
        m_importer->reserveFor(fileBytes - from);
    }

    // Whether the root is an object or an array; false where the file is
    // no trace for windows (one window holds it, or it begins otherwise).
    bool readRootKind()
    {
        if (!m_window.fill() || m_window.atEnd())
            return false; // one window holds it: read whole
        const std::string_view text = m_window.text();
        const std::size_t first = text.find_first_not_of(" \t\r\n");
        if (first == std::string_view::npos || (text[first] != '{' && text[first] != '['))
            return false;
        m_rootArray = text[first] == '[';
        m_depth = m_rootArray ? 1 : 2;
        return true;
    }

    // The first part: true when its events end exactly at the limit; false
    // when the events' array closed before it.
    template <typename Report>
    bool readToLimit(const Report& report)
    {
        try {
            for (;;) {
                m_progress.throwIfCancelled();
                if (step())
                    return false;
                report(m_window.start());
            }
        } catch (const ReachedLimit&) {
            return true;
        }
    }

    // The later part, to the events' end; its bytes read go to `done`.
    bool readTail(std::atomic<std::uint64_t>& done)
    {
        const std::uint64_t from = m_window.start();
        for (;;) {
            m_progress.throwIfCancelled();
            if (step())
                return true;
            done = m_window.start() - from;
        }
    }

    // Reads one window; true once the events' array has closed.
    bool step()
    {
        for (;;) {
            try {
                return m_first ? readFirstWindow() : readNextWindow();
            } catch (const Grow&) {
                if (m_window.atEnd())
                    throw Fallback{};
                m_window.grow();
                if (!m_window.fill())
                    throw Fallback{};
            }
        }
    }

    // Where the window is cut: after its last line break, or at the end of
    // the file.
    std::size_t cut() const
    {
        const std::string_view text = m_window.text();
        if (m_window.atEnd())
            return text.size();
        const std::size_t newline = text.rfind('\n');
        if (newline == std::string_view::npos)
            throw Grow{};
        return newline + 1;
    }

    bool readFirstWindow()
    {
        const std::size_t at = cut();
        const std::string_view document = m_window.document("", at, m_rootArray ? "]" : "]}");
        JsonReader json(document, m_parser);
        json.setErrorsUnplaced();
        m_importer.emplace(json); // afresh: a grown first window starts over
        m_importer->reserveFor(m_fileBytes);
        m_index = 0;
        struct EventsRead {};
        bool ended = false;
        try {
            if (m_rootArray) {
                Value events;
                if (json.document().get_value().get(events))
                    throw Grow{};
                ended = readEvents(json, events, document.data(), at);
            } else {
                bool sawEvents = false;
                json.forEachMember(json.rootObject(), 1, [&](std::string_view key, Value& v) {
                    if (key == "format")
                        throw Fallback{}; // ours
                    if (key != "traceEvents") {
                        json.skip(v, 2); // read at the end, with the rest of the root
                        return;
                    }
                    if (json.kind(v) != JsonKind::Array)
                        throw Fallback{};
                    ended = readEvents(json, v, document.data(), at);
                    sawEvents = true;
                    throw EventsRead{};
                });
                if (!sawEvents)
                    throw Grow{};
            }
        } catch (const EventsRead&) {
        } catch (const JsonReadError&) {
            throw Grow{};
        }
        m_first = false;
        return ended;
    }

    bool readNextWindow()
    {
        if (!m_window.fill())
            throw Fallback{};
        std::string_view text = m_window.text();
        std::size_t skip = text.find_first_not_of(" \t\r\n");
        if (m_expectComma && skip != std::string_view::npos && text[skip] == ',') {
            m_expectComma = false;
            skip = text.find_first_not_of(" \t\r\n", skip + 1);
        }
        if (skip == std::string_view::npos) { // white space to the cut
            if (m_window.atLimit() && !m_expectComma)
                throw ReachedLimit{};
            if (m_window.atEnd())
                throw Fallback{};
            m_window.drop(text.size());
            return false;
        }
        if (m_expectComma || text[skip] == ']') {
            if (m_expectComma && text[skip] != ']')
                throw Fallback{};
            m_window.drop(skip);
            return true;
        }
        m_window.drop(skip);
        const std::size_t at = cut();
        const std::string_view document = m_window.document("[", at, "]");
        JsonReader json(document, m_parser);
        json.setErrorsUnplaced();
        m_importer->use(json);
        Value events;
        if (json.document().get_value().get(events))
            throw Grow{};
        return readEvents(json, events, document.data() + 1, at);
    }

    // The events of `array` in a window whose text begins at `text` and is
    // cut at text + `cut`. True once the events' own array has closed;
    // else the window is dropped up to the first event not read.
    bool readEvents(JsonReader& json, Value& array, const char* text, std::size_t cut)
    {
        std::size_t done = 0;
        const char* resume = nullptr; // after the comma that follows the last event read
        const char* close = nullptr;  // the bracket that closed the array
        const char* arrayStart = JsonReader::rawText(array).data();
        if (m_first)
            m_head.assign(text, static_cast<std::size_t>(arrayStart + 1 - text));
        try {
            json.forEachElement(array, m_depth, [&](Value& v, std::size_t) {
                m_importer->readEvent(v, m_index, m_depth + 1);
                ++m_index;
                ++done;
                const char* next = nullptr;
                if (json.document().current_location().get(next) || !next)
                    throw Grow{};
                if (*next == ',')
                    resume = next + 1;
                else
                    close = next;
            });
        } catch (const JsonReadError&) {
            // The truncated event, or one that is wrong: the next window
            // tells them apart (a wrong one fails there at its start).
            if (done == 0 || !resume)
                throw Grow{};
            if (m_window.atEnd() && !m_window.atLimit())
                throw Fallback{};
            m_window.drop(static_cast<std::size_t>(resume - text));
            return false;
        }
        if (done == 0) {
            // An empty array: its closing bracket follows the opening one.
            const std::string_view rest(arrayStart + 1, static_cast<std::size_t>(text + cut + 1 - arrayStart));
            close = arrayStart + 1 + rest.find_first_not_of(" \t\r\n");
        }
        if (!close)
            throw Fallback{};
        if (close >= text + cut) {
            // Our bracket after the cut: every event before the cut was read;
            // the comma after the last one comes in the next window.
            if (m_window.atEnd())
                throw Fallback{}; // the file ends inside the array
            m_window.drop(cut);
            m_expectComma = done > 0;
            return false;
        }
        m_window.drop(static_cast<std::size_t>(close - text));
        return true;
    }

    ChromeTraceImport finish() { return finishWith(rootRest()); }

    // The text from the events' closing bracket to the end of the file.
    std::string rootRest()
    {
        if (!m_window.fill())
            throw Fallback{};
        while (!m_window.atEnd()) {
            m_window.grow();
            if (!m_window.fill())
                throw Fallback{};
        }
        return std::string(m_window.text());
    }

    // The root without its events: the text up to the events' opening
    // bracket, then `rest`.
    ChromeTraceImport finishWith(std::string rest)
    {
        std::string root = std::move(m_head);
        root.append(rest);
        const simdjson::padded_string padded(root);
        JsonReader json(std::string_view(padded.data(), padded.size()));
        m_importer->use(json);
        try {
            m_importer->readRoot();
        } catch (const JsonReadError&) {
            throw Fallback{};
        }
        return m_importer->build();
    }

    FileWindow m_window;
    std::uint64_t m_fileBytes;
    const ReadProgress& m_progress;
    simdjson::ondemand::parser m_parser;
    std::optional<ChromeTraceImporter> m_importer;
    std::string m_head; // the text before the events, their '[' included
    bool m_rootArray = false;
    bool m_first = true;
    bool m_expectComma = false;
    int m_depth = 2;
    std::size_t m_index = 0;
};

// Where a second thread can start reading the events of a file big enough
// to be worth it: near its middle, the start of a line that begins with '{'
// right after a line that ends with ',', as PyTorch and most Chrome traces
// write their events. Nothing where the machine has one core or a probe of
// the middle finds no such line; WindowedRead::readInTwo checks the rest.
std::optional<std::uint64_t> splitPoint(int fd, std::uint64_t fileBytes, std::size_t windowBytes)
{
    if (fileBytes < 4 * std::uint64_t(windowBytes) || std::thread::hardware_concurrency() < 2)
        return std::nullopt;
    std::string probe(std::size_t(1) << 20, '\0');
    const std::uint64_t from = fileBytes / 2;
    const ssize_t n = ::pread(fd, probe.data(), probe.size(), static_cast<off_t>(from));
    if (n <= 0)
        return std::nullopt;
    probe.resize(static_cast<std::size_t>(n));
    for (std::size_t newline = probe.find('\n'); newline != std::string::npos; newline = probe.find('\n', newline + 1)) {
        const std::size_t brace = probe.find_first_not_of(" \t\r", newline + 1);
        if (brace == std::string::npos)
            break;
        if (newline == 0 || probe[brace] != '{')
            continue;
        const std::size_t before = probe.find_last_not_of(" \t\r", newline - 1);
        if (before != std::string::npos && probe[before] == ',')
            return from + brace;
    }
    return std::nullopt;
}

} // namespace

std::optional<ChromeTraceImport> readChromeTraceInWindows(int fd, std::uint64_t fileBytes, std::size_t windowBytes,
                                                          const ReadProgress& progress)
{
    if (const auto split = splitPoint(fd, fileBytes, windowBytes))
        if (auto done = WindowedRead::readInTwo(fd, windowBytes, fileBytes, progress, *split))
            return done;
    return WindowedRead(fd, windowBytes, fileBytes, progress).read();
}

} // namespace ovs
