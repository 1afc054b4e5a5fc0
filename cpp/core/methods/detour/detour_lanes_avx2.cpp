// The AVX2 build of detour_lanes_kernel.hpp; this file alone is compiled
// with -mavx2 (CMakeLists.txt) and runs only where the CPU has AVX2.
#if defined(__AVX2__)
#include "methods/detour/detour_lanes_kernel.hpp"

namespace vosim {

extern const DetourKernels detour_kernels_avx2;
const DetourKernels detour_kernels_avx2{&detour_impacts<Pack4>, &detour_sides<Pack4>, &detour_distance_terms<Pack4>};

}  // namespace vosim
#endif
