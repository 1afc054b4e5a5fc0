// The AVX2 build of vo_lanes_kernel.hpp; this file alone is compiled with
// -mavx2 (CMakeLists.txt) and runs only where the CPU has AVX2.
#if defined(__AVX2__)
#include "methods/velocity_obstacles/vo_lanes_kernel.hpp"

namespace vosim {

double vo_earliest_collision_avx2(const VoConeLanes& lanes, double vx, double vy, double earliest,
                                  const VoDropRule* rule) {
    return vo_earliest_collision<Pack4>(lanes, vx, vy, earliest, rule);
}

std::uint64_t vo_draw_samples_avx2(const VoSampleDraw& draw, int first, int m, double best, double* radii,
                                   double* angles) {
    return vo_draw_samples<Pack4>(draw, first, m, best, radii, angles);
}

bool vo_surely_dropped_avx2(const VoConeLanes& lanes, double vx, double vy, double slack, const VoDropRule& rule) {
    return vo_surely_dropped<Pack4>(lanes, vx, vy, slack, rule);
}

}  // namespace vosim
#endif
