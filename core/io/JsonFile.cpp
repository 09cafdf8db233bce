#include "io/JsonFile.h"

#include "io/AtomicFileWriter.h"

namespace ovs {

bool writeJsonFile(const std::string& path, const std::function<void(JsonWriter&)>& body, std::string* error)
{
    AtomicFileWriter file;
    bool ok = file.open(path);
    if (ok) {
        std::string buffer;
        // After a failed write the file ignores the rest; the body still runs
        // to its end, through a buffer that stays small.
        JsonWriter w(buffer, [&file](std::string_view text) { file.write(text); });
        body(w);
        buffer.push_back('\n');
        w.flush();
        ok = file.commit();
    }
    if (!ok && error)
        *error = file.error();
    return ok;
}

} // namespace ovs
