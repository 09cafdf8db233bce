#pragma once

// A vector that may be held as two: what one reader of a file read, and
// what a second reader of the file's later part read, joined without a
// copy. Indexed, sized and grown as one vector is.
//
// Why: a trace of gigabytes is read in two parts on two threads, and its
// millions of pending ops (hundreds of megabytes) were copied from the
// second reader's array to the end of the first's on one core, with every
// page of the copy faulted in fresh, while the other core waited.

#include <cstddef>
#include <utility>
#include <vector>

namespace ovs {

template <class T>
class TwoPartVector {
public:
    std::size_t size() const { return m_first.size() + m_second.size(); }
    bool empty() const { return m_first.empty() && m_second.empty(); }
    T& operator[](std::size_t i) { return i < m_first.size() ? m_first[i] : m_second[i - m_first.size()]; }
    const T& operator[](std::size_t i) const
    {
        return i < m_first.size() ? m_first[i] : m_second[i - m_first.size()];
    }

    void reserve(std::size_t n)
    {
        if (m_second.empty())
            m_first.reserve(n);
    }
    void push_back(const T& item)
    {
        if (m_second.empty())
            m_first.push_back(item);
        else
            m_second.push_back(item);
    }

    // Calls f on each item in order, part by part.
    template <class F>
    void forEach(F&& f) const
    {
        for (const T& item : m_first)
            f(item);
        for (const T& item : m_second)
            f(item);
    }

    // `later`'s items after these: its array kept as the second part where
    // this is one part and it is one; copied where not.
    void append(TwoPartVector&& later)
    {
        if (later.empty())
            return;
        if (empty()) {
            std::swap(m_first, later.m_first);
            std::swap(m_second, later.m_second);
        } else if (m_second.empty() && later.m_second.empty()) {
            m_second = std::move(later.m_first);
        } else {
            std::vector<T>& into = m_second.empty() ? m_first : m_second;
            into.reserve(into.size() + later.size());
            later.forEach([&](const T& item) { into.push_back(item); });
        }
        later.release();
    }

    // Empty, its memory given back.
    void release()
    {
        std::vector<T>().swap(m_first);
        std::vector<T>().swap(m_second);
    }

private:
    std::vector<T> m_first;
    std::vector<T> m_second; // empty while the items are one part
};

} // namespace ovs
