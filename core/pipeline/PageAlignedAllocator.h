#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <limits>
#include <new>

#include <unistd.h>

namespace ovs {

// Gives every allocation whole pages of its own (page-aligned start, size
// rounded up to pages), so memory registered with cudaHostRegister never
// shares a page with another allocation.
template <typename T>
class PageAlignedAllocator {
public:
    using value_type = T;

    PageAlignedAllocator() = default;
    template <typename U>
    PageAlignedAllocator(const PageAlignedAllocator<U>&) noexcept
    {
    }

    T* allocate(std::size_t count)
    {
        const std::size_t page = pageBytes();
        if (count > (std::numeric_limits<std::size_t>::max() - page) / sizeof(T))
            throw std::bad_array_new_length();
        const std::size_t bytes = std::max<std::size_t>(1, (count * sizeof(T) + page - 1) / page) * page;
        void* p = std::aligned_alloc(page, bytes);
        if (!p)
            throw std::bad_alloc();
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t) noexcept { std::free(p); }

    template <typename U>
    bool operator==(const PageAlignedAllocator<U>&) const noexcept
    {
        return true;
    }

private:
    static std::size_t pageBytes()
    {
        const long page = sysconf(_SC_PAGESIZE);
        return page > 0 ? static_cast<std::size_t>(page) : 4096;
    }
};

} // namespace ovs
