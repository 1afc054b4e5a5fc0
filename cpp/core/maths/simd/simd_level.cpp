#include "maths/simd/simd_level.hpp"

#include <atomic>
#include <stdexcept>

namespace vosim {

namespace {

bool cpu_has_avx2() {
#if defined(VOSIM_HAVE_AVX2_KERNELS) && (defined(__GNUC__) || defined(__clang__)) && \
    (defined(__x86_64__) || defined(__i386__))
    __builtin_cpu_init();  // harmless if done already; needed if this runs before the library's constructors
    return __builtin_cpu_supports("avx2") != 0;
#else
    return false;
#endif
}

SimdLevel detect() {
    if (cpu_has_avx2()) return SimdLevel::avx2;
#if defined(__SSE2__)
    return SimdLevel::sse2;
#else
    return SimdLevel::scalar;
#endif
}

std::atomic<int>& current() {
    static std::atomic<int> level{static_cast<int>(detect())};
    return level;
}

}  // namespace

SimdLevel best_simd_level() {
    static const SimdLevel best = detect();
    return best;
}

SimdLevel simd_level() { return static_cast<SimdLevel>(current().load(std::memory_order_relaxed)); }

void set_simd_level(SimdLevel level) {
    const int wanted = static_cast<int>(level);
    if (wanted < 0 || wanted > static_cast<int>(best_simd_level())) {
        throw std::invalid_argument(std::string("level '") +
                                    (wanted >= 0 && wanted <= 2 ? simd_level_name(level) : "?") +
                                    "' is not available: this build and CPU support up to '" +
                                    simd_level_name(best_simd_level()) + "'");
    }
    current().store(wanted, std::memory_order_relaxed);
}

const char* simd_level_name(SimdLevel level) {
    switch (level) {
        case SimdLevel::scalar: return "scalar";
        case SimdLevel::sse2: return "sse2";
        case SimdLevel::avx2: return "avx2";
    }
    return "?";
}

SimdLevel parse_simd_level(const std::string& name) {
    for (const SimdLevel level : {SimdLevel::scalar, SimdLevel::sse2, SimdLevel::avx2}) {
        if (name == simd_level_name(level)) return level;
    }
    throw std::invalid_argument("level '" + name + "' is not one of 'scalar', 'sse2', 'avx2'");
}

}  // namespace vosim
