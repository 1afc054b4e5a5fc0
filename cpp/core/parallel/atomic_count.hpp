// A counter shared by the threads of a parallel loop, in a plain integer
// (kept in ordinary vectors elsewhere): increments are atomic, and the sum
// is the same whatever the threads' order.
#pragma once

#include <cstdint>

#if defined(_MSC_VER)
#include <intrin.h>
#endif

namespace vosim {

inline void atomic_increment(std::int64_t& count) {
#if defined(_MSC_VER)
    _InterlockedIncrement64(reinterpret_cast<volatile long long*>(&count));
#else
    __atomic_fetch_add(&count, std::int64_t{1}, __ATOMIC_RELAXED);
#endif
}

}  // namespace vosim
