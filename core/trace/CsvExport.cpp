#include "trace/CsvExport.h"

#include "trace/TraceJson.h"

#include <array>
#include <charconv>

namespace ovs {

namespace {

void appendField(std::string& out, std::string_view text)
{
    if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
        out.append(text);
        return;
    }
    out.push_back('"');
    for (char c : text) {
        if (c == '"')
            out.push_back('"');
        out.push_back(c);
    }
    out.push_back('"');
}

template <typename T>
void appendInteger(std::string& out, T value)
{
    std::array<char, 24> buffer;
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    out.append(buffer.data(), result.ptr);
}

// Engine times where known: queue time behind a busy engine is not transfer
// time. Three decimals of GB/s is finer than any measurement we make.
void appendGbps(std::string& out, const Op& op)
{
    const std::int64_t ns = op.hasExec() ? op.execEndNs - op.execStartNs : op.durationNs();
    if (ns <= 0 || op.bytes == 0)
        return;
    std::array<char, 64> buffer;
    const double gbps = static_cast<double>(op.bytes) / static_cast<double>(ns);
    const auto result =
        std::to_chars(buffer.data(), buffer.data() + buffer.size(), gbps, std::chars_format::fixed, 3);
    out.append(buffer.data(), result.ptr);
}

} // namespace

std::string traceToCsv(const Trace& trace)
{
    std::string out =
        "run,run_name,device,simulated,lane,lane_kind,kind,chunk,start_ns,end_ns,duration_ns,bytes,memory,gbps,"
        "exec_start_ns,exec_end_ns\n";
    for (std::size_t r = 0; r < trace.runs.size(); ++r) {
        const Run& run = trace.runs[r];
        // The per-run columns are the same on every row; build them once.
        std::string prefix;
        appendInteger(prefix, r);
        prefix.push_back(',');
        appendField(prefix, run.name);
        prefix.push_back(',');
        appendField(prefix, run.device.label());
        prefix.append(run.device.simulated ? ",true," : ",false,");
        for (const Op& op : run.ops) {
            out.append(prefix);
            if (op.lane < run.lanes.size()) {
                appendField(out, run.lanes[op.lane].name);
                out.push_back(',');
                out.append(toString(run.lanes[op.lane].kind));
            } else {
                appendInteger(out, op.lane);
                out.push_back(',');
            }
            out.push_back(',');
            out.append(toString(op.kind));
            out.push_back(',');
            appendInteger(out, op.chunk);
            out.push_back(',');
            appendInteger(out, op.startNs);
            out.push_back(',');
            appendInteger(out, op.endNs);
            out.push_back(',');
            appendInteger(out, op.durationNs());
            out.push_back(',');
            appendInteger(out, op.bytes);
            out.push_back(',');
            out.append(toString(op.memory));
            out.push_back(',');
            appendGbps(out, op);
            out.push_back(',');
            if (op.hasExec()) {
                appendInteger(out, op.execStartNs);
                out.push_back(',');
                appendInteger(out, op.execEndNs);
            } else {
                out.push_back(',');
            }
            out.push_back('\n');
        }
    }
    return out;
}

bool exportCsv(const Trace& trace, const std::string& path, std::string* error)
{
    return writeTextFileAtomically(path, traceToCsv(trace), error);
}

} // namespace ovs
