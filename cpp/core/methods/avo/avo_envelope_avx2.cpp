// The AVX2 build of avo_envelope_kernel.hpp; this file alone is compiled
// with -mavx2 (CMakeLists.txt) and runs only where the CPU has AVX2.
#if defined(__AVX2__)
#include "methods/avo/avo_envelope_kernel.hpp"

namespace vosim {

void avo_envelope_avx2(const avo::EnvelopeTimes& times, double px, double py, double vx, double vy, double r,
                       double* x, double* y) {
    envelope_points<Pack4>(times, px, py, vx, vy, r, x, y);
}

void avo_bends_avx2(const double* x, const double* y, double left, double* bend, double* limit) {
    envelope_bends<Pack4>(x, y, left, bend, limit);
}

}  // namespace vosim
#endif
