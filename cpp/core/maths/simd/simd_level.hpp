// Which instruction set the lane kernels run on. Every kernel is written
// once over a pack of doubles (pack.hpp) and compiled for each level; each
// level performs the same IEEE operations in the same order, without fused
// multiply-add, so every level gives the same bits. The best level the CPU
// offers is chosen at the first use; tests pin each level in turn.
#pragma once

#include <string>

namespace vosim {

enum class SimdLevel { scalar = 0, sse2 = 1, avx2 = 2 };

// The level the kernels use now.
SimdLevel simd_level();

// The best level this build and this CPU support.
SimdLevel best_simd_level();

// Pins the level (for tests and comparisons). Throws std::invalid_argument
// naming the level when this build or CPU cannot run it.
void set_simd_level(SimdLevel level);

const char* simd_level_name(SimdLevel level);

// "scalar", "sse2" or "avx2"; throws std::invalid_argument naming the text otherwise.
SimdLevel parse_simd_level(const std::string& name);

}  // namespace vosim
