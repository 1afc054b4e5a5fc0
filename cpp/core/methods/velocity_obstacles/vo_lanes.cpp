#include "methods/velocity_obstacles/vo_lanes.hpp"

#include <cmath>

#include "methods/velocity_obstacles/vo_lanes_kernel.hpp"

namespace vosim {

#if defined(VOSIM_HAVE_AVX2_KERNELS)
double vo_earliest_collision_avx2(const VoConeLanes& lanes, double vx, double vy, double earliest,
                                  const VoDropRule* rule);
#endif

VoCollisionKernel vo_collision_kernel(SimdLevel level) {
    switch (level) {
#if defined(VOSIM_HAVE_AVX2_KERNELS)
        case SimdLevel::avx2: return &vo_earliest_collision_avx2;
#endif
#if defined(__SSE2__)
        case SimdLevel::sse2: return &vo_earliest_collision<Pack2>;
#endif
        default: return &vo_earliest_collision<Pack1>;
    }
}

VoCollisionKernel vo_collision_kernel() { return vo_collision_kernel(simd_level()); }

#if defined(VOSIM_HAVE_AVX2_KERNELS)
bool vo_surely_dropped_avx2(const VoConeLanes& lanes, double vx, double vy, double slack, const VoDropRule& rule);
#endif

VoDropKernel vo_drop_kernel(SimdLevel level) {
    switch (level) {
#if defined(VOSIM_HAVE_AVX2_KERNELS)
        case SimdLevel::avx2: return &vo_surely_dropped_avx2;
#endif
#if defined(__SSE2__)
        case SimdLevel::sse2: return &vo_surely_dropped<Pack2>;
#endif
        default: return &vo_surely_dropped<Pack1>;
    }
}

VoDropKernel vo_drop_kernel() { return vo_drop_kernel(simd_level()); }

void VoLaneBuffer::set_disc(int i, double apex_x, double apex_y, double centre_x, double centre_y, double radius,
                           double scale, double horizon, double margin_share) {
    const double centre_sq = centre_x * centre_x + centre_y * centre_y;
    const double gap = centre_sq - radius * radius;
    // Below, the entry time's relative error could near vo_surely_dropped's 1e-6.
    const double margin = gap > 1e-12 * centre_sq ? margin_share * radius : 0.0;
    set(i, kVoApexX, apex_x);
    set(i, kVoApexY, apex_y);
    set(i, kVoCentreX, centre_x);
    set(i, kVoCentreY, centre_y);
    set(i, kVoGap, gap);
    set(i, kVoScale, scale);
    set(i, kVoHorizon, horizon);
    set(i, kVoShrunkGap, centre_sq - (radius - margin) * (radius - margin));
    set(i, kVoMargin, margin);
}

#if defined(VOSIM_HAVE_AVX2_KERNELS)
std::uint64_t vo_draw_samples_avx2(const VoSampleDraw& draw, int first, int m, double best, double* radii,
                                   double* angles);
#endif

VoSampleKernel vo_sample_kernel(SimdLevel level) {
    switch (level) {
#if defined(VOSIM_HAVE_AVX2_KERNELS)
        case SimdLevel::avx2: return &vo_draw_samples_avx2;
#endif
#if defined(__SSE2__)
        case SimdLevel::sse2: return &vo_draw_samples<Pack2>;
#endif
        default: return &vo_draw_samples<Pack1>;
    }
}

VoSampleKernel vo_sample_kernel() { return vo_sample_kernel(simd_level()); }

VoConeLanes VoLaneBuffer::reset(int n) {
    padded_ = (n + 3) / 4 * 4;
    data_.resize(static_cast<std::size_t>(kVoFieldCount) * static_cast<std::size_t>(padded_));
    // Pads: a cone around the agent's own centre, faced by no velocity (b = 0).
    for (int field = 0; field < kVoFieldCount; ++field) {
        for (int i = n; i < padded_; ++i) {
            set(i, static_cast<VoLaneField>(field),
                field == kVoGap || field == kVoShrunkGap || field == kVoScale ? 1.0 : 0.0);
        }
    }
    return VoConeLanes{data_.data(), n, padded_};
}

}  // namespace vosim
