#include "trace/PythonFrame.h"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <string_view>

namespace ovs {

namespace {

bool contains(std::string_view text, std::string_view part)
{
    return text.find(part) != std::string_view::npos;
}

// The standard library's top-level modules (Python 3.11's
// sys.stdlib_module_names, those not private), sorted. PyTorch's profiler
// trims the install prefixes from frames' files (site-packages, the
// standard library's folder and every sys.path entry: the script's folder
// too), so a standard library frame reads "enum.py(1267): __hash__" or
// "concurrent/futures/thread.py(58): run", as short as the user's own
// "train.py(30): step": only the module's name tells them apart.
constexpr std::string_view kStdlibModules[] = {
    "abc", "aifc", "antigravity", "argparse", "array", "ast", "asynchat", "asyncio", "asyncore", "atexit", "audioop",
    "base64", "bdb", "binascii", "bisect", "builtins", "bz2", "cProfile", "calendar", "cgi", "cgitb", "chunk",
    "cmath", "cmd", "code", "codecs", "codeop", "collections", "colorsys", "compileall", "concurrent",
    "configparser", "contextlib", "contextvars", "copy", "copyreg", "crypt", "csv", "ctypes", "curses",
    "dataclasses", "datetime", "dbm", "decimal", "difflib", "dis", "distutils", "doctest", "email", "encodings",
    "ensurepip", "enum", "errno", "faulthandler", "fcntl", "filecmp", "fileinput", "fnmatch", "fractions", "ftplib",
    "functools", "gc", "genericpath", "getopt", "getpass", "gettext", "glob", "graphlib", "grp", "gzip", "hashlib",
    "heapq", "hmac", "html", "http", "idlelib", "imaplib", "imghdr", "imp", "importlib", "inspect", "io",
    "ipaddress", "itertools", "json", "keyword", "lib2to3", "linecache", "locale", "logging", "lzma", "mailbox",
    "mailcap", "marshal", "math", "mimetypes", "mmap", "modulefinder", "msilib", "msvcrt", "multiprocessing",
    "netrc", "nis", "nntplib", "nt", "ntpath", "nturl2path", "numbers", "opcode", "operator", "optparse", "os",
    "ossaudiodev", "pathlib", "pdb", "pickle", "pickletools", "pipes", "pkgutil", "platform", "plistlib", "poplib",
    "posix", "posixpath", "pprint", "profile", "pstats", "pty", "pwd", "py_compile", "pyclbr", "pydoc", "pydoc_data",
    "pyexpat", "queue", "quopri", "random", "re", "readline", "reprlib", "resource", "rlcompleter", "runpy", "sched",
    "secrets", "select", "selectors", "shelve", "shlex", "shutil", "signal", "site", "smtpd", "smtplib", "sndhdr",
    "socket", "socketserver", "spwd", "sqlite3", "sre_compile", "sre_constants", "sre_parse", "ssl", "stat",
    "statistics", "string", "stringprep", "struct", "subprocess", "sunau", "symtable", "sys", "sysconfig", "syslog",
    "tabnanny", "tarfile", "telnetlib", "tempfile", "termios", "textwrap", "this", "threading", "time", "timeit",
    "tkinter", "token", "tokenize", "tomllib", "trace", "traceback", "tracemalloc", "tty", "turtle", "turtledemo",
    "types", "typing", "unicodedata", "unittest", "urllib", "uu", "uuid", "venv", "warnings", "wave", "weakref",
    "webbrowser", "winreg", "winsound", "wsgiref", "xdrlib", "xml", "xmlrpc", "zipapp", "zipfile", "zipimport",
    "zlib", "zoneinfo"};

// "enum.py", "json/decoder.py", "importlib/__init__.py": a relative file
// whose first part is a standard library module.
bool isRelativeStdlibFile(std::string_view file)
{
    if (file.empty() || file.front() == '/')
        return false;
    std::string_view first = file.substr(0, file.find('/'));
    if (first.size() == file.size() && first.ends_with(".py"))
        first.remove_suffix(3);
    return std::binary_search(std::begin(kStdlibModules), std::end(kStdlibModules), first);
}

bool isUserFile(std::string_view file)
{
    // <frozen importlib._bootstrap>, <built-in ...>; other pseudo files
    // (<stdin>, <string>, <ipython-input-3-...>) are code the user typed.
    if (file.starts_with("<frozen") || file.starts_with("<built-in"))
        return false;
    if (contains(file, "site-packages/") || contains(file, "dist-packages/"))
        return false;
    if (file.starts_with("torch/") || contains(file, "/torch/"))
        return false;
    // /usr/lib/python3.12/, /opt/conda/lib/python3.11/, /usr/local/lib64/python3.9/
    if (contains(file, "/lib/python") || contains(file, "/lib64/python"))
        return false;
    return !isRelativeStdlibFile(file);
}

} // namespace

const char* toString(SiteLine line)
{
    return line == SiteLine::FrameEntry ? "frame-entry" : "call";
}

PythonFrame parsePythonFrame(std::string_view name)
{
    PythonFrame frame;
    // "FILE(LINE): FUNCTION": the line is the digits in the last parentheses
    // before the first "): " (a folder may hold parentheses, a line not).
    const auto close = name.find("): ");
    if (close == std::string_view::npos || close == 0)
        return frame;
    const auto open = name.rfind('(', close);
    if (open == std::string_view::npos || open == 0 || open + 1 == close)
        return frame;
    std::uint32_t line = 0;
    const char* first = name.data() + open + 1;
    const char* last = name.data() + close;
    const auto [end, error] = std::from_chars(first, last, line);
    if (error != std::errc() || end != last)
        return frame;
    SourceSite site{std::string(name.substr(0, open)), line, std::string(name.substr(close + 3))};
    frame.user = isUserFile(site.file);
    frame.site = std::move(site);
    return frame;
}

std::string stablePythonFrameName(std::string_view name)
{
    if (!name.starts_with("<built-in"))
        return std::string(name);
    const auto at = name.rfind(" at 0x");
    if (at == std::string_view::npos || !name.ends_with(">"))
        return std::string(name);
    return std::string(name.substr(0, at)) + ">";
}

} // namespace ovs
