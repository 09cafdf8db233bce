#pragma once
// Included in every test through the precompiled headers (tests/CMakeLists.txt).
//
// QCOMPARE prints a failed comparison through QTest::toString(value), called
// unqualified, so argument-dependent lookup finds the core's own
// `const char* ovs::toString(Enum)` first. QTest then delete[]s that static
// string and the test crashes (munmap_chunk) instead of reporting the failure.
// This overload, more specialised than QTest's generic qCompare, compares the
// core's enums and hands QTest copies it may free.
#include <QtTest>

#include <concepts>
#include <type_traits>

namespace QTest {

template <typename E>
    requires std::is_enum_v<E> && requires(const E& e) {
        { toString(e) } -> std::same_as<const char*>;
    }
inline bool qCompare(const E& t1, const E& t2, const char* actual, const char* expected, const char* file,
                     int line)
{
    // QTest delete[]s what these return.
    return compare_helper(
        t1 == t2, "Compared values are not the same", [&t1] { return static_cast<const char*>(qstrdup(toString(t1))); },
        [&t2] { return static_cast<const char*>(qstrdup(toString(t2))); }, actual, expected, file, line);
}

} // namespace QTest
