// The lane kernel of avo_envelope.hpp, written once over a pack
// (maths/simd/pack.hpp) and compiled in avo_envelope.cpp (plain and SSE2)
// and avo_envelope_avx2.cpp (AVX2). Each line is detail::envelope_point's
// operation in its order (avo_geometry.hpp), so every pack gives its bits.
#pragma once

#include "maths/simd/pack.hpp"
#include "methods/avo/avo_envelope.hpp"

namespace vosim {
namespace {

template <class P>
void envelope_points(const avo::EnvelopeTimes& times, double px, double py, double vx, double vy, double r,
                     double* out_x, double* out_y) {
    using namespace avo;
    const P p_x = P::set(px), p_y = P::set(py), v_x = P::set(vx), v_y = P::set(vy), radius = P::set(r);
    for (int i = 0; i < kEnvelopePadded; i += P::width) {
        const P neg_e = P::load(times.terms[kTermNegE] + i);
        const P rate_v = P::load(times.terms[kTermRateV] + i);
        const P inv = P::load(times.terms[kTermInv] + i);
        const P along = P::load(times.terms[kTermOffset] + i);
        const P delta_e = P::load(times.terms[kTermDeltaE] + i);
        // centre_rate = (-e p - rate_v v) inv inv; offset = along centre_rate
        const P offset_x = along * ((neg_e * p_x - rate_v * v_x) * inv * inv);
        const P offset_y = along * ((neg_e * p_y - rate_v * v_y) * inv * inv);
        // centre = (delta e v - p) inv; the disc's radius r inv
        const P centre_x = (delta_e * v_x - p_x) * inv;
        const P centre_y = (delta_e * v_y - p_y) * inv;
        const P disc = radius * inv;
        // tangent_point(offset, disc)
        const P offset_sq = offset_x * offset_x + offset_y * offset_y;
        const P l = sqrt(offset_sq - disc * disc);
        const P scale = l / offset_sq;
        const P tangent_x = (l * offset_x - disc * offset_y) * scale;
        const P tangent_y = (disc * offset_x + l * offset_y) * scale;
        // centre - offset + tangent - v
        (centre_x - offset_x + tangent_x - v_x).store(out_x + i);
        (centre_y - offset_y + tangent_y - v_y).store(out_y + i);
    }
}

template <class P>
void envelope_bends(const double* x, const double* y, double left, double* bend, double* limit) {
    using namespace avo;
    const P side = P::set(left), relative = P::set(kRelativeTurn);
    for (int i = 2; i < kEnvelopeSamples; i += P::width) {
        // a: sample i, b: sample i - 1, c: sample i - 2 (boundary[0..2] in avo_half_plane)
        const P a_x = P::load(x + i), a_y = P::load(y + i);
        const P b_x = P::load(x + i - 1), b_y = P::load(y + i - 1);
        const P c_x = P::load(x + i - 2), c_y = P::load(y + i - 2);
        const P ac_x = a_x - c_x, ac_y = a_y - c_y;
        const P ba_x = b_x - a_x, ba_y = b_y - a_y;
        (side * (ac_x * ba_y - ac_y * ba_x)).store(bend + i);
        (relative * sqrt(ac_x * ac_x + ac_y * ac_y) * sqrt(ba_x * ba_x + ba_y * ba_y)).store(limit + i);
    }
}

}  // namespace
}  // namespace vosim
