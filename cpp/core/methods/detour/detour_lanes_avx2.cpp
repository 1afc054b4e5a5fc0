// The AVX2 build of detour_lanes_kernel.hpp; this file alone is compiled
// with -mavx2 (CMakeLists.txt) and runs only where the CPU has AVX2.
#if defined(__AVX2__)
#include "methods/detour/detour_lanes_kernel.hpp"

namespace vosim {

double detour_impacts_avx2(const DetourCircleLanes& lanes, double base_x, double base_y, double horizon,
                           double stop_below, double* side) {
    return detour_impacts<Pack4>(lanes, base_x, base_y, horizon, stop_below, side);
}

void detour_distances_avx2(const DetourDistanceWeights& w, const double* vx, const double* vy, int count,
                           double* vpen, double* vcpen) {
    detour_distance_terms<Pack4>(w, vx, vy, count, vpen, vcpen);
}

}  // namespace vosim
#endif
