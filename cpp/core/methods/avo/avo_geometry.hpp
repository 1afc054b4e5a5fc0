// The acceleration-velocity obstacle of a pair of agents and the half-plane
// it induces (van den Berg, Snape, Guy, Manocha, "Reciprocal collision
// avoidance with acceleration-velocity obstacles", ICRA 2011).
//
// Model: an agent steers towards a target velocity u with a first-order
// controller of time constant delta, so that its velocity is
// v(t) = u + (v - u) exp(-t / delta). Two agents with relative position p
// (self minus other) and relative velocity v collide at time t when the
// relative target u lies in the disc of centre
//     c(t) = (delta e v - p) / (t + delta e),   e = exp(-t / delta) - 1,
// and radius r / (t + delta e). The AVO is the union of these discs for
// t in [time_step, time_horizon]. Everything here lives in the space of the
// relative velocity change u - v ("delta-v space"); each agent of the pair
// takes its share of the smallest change that leaves the AVO, as ORCA does.
//
// The code is written once for both arithmetic types: `float` with the
// operation order of the AVO2 library, whose results are sensitive to
// rounding (branch tests flip; see the avo2 reference data's README), and
// `double` with the library's defects repaired (AvoRules::kRepaired). Every
// expression below is evaluated left to right as written, on purpose.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>

#include "methods/avo/avo_envelope.hpp"

namespace vosim::avo {

template <class T>
struct V2 {
    T x = 0;
    T y = 0;
    V2() = default;
    V2(T x_, T y_) : x(x_), y(y_) {}
    V2 operator-() const { return {-x, -y}; }
    V2 operator+(V2 o) const { return {x + o.x, y + o.y}; }
    V2 operator-(V2 o) const { return {x - o.x, y - o.y}; }
    V2 operator*(T s) const { return {x * s, y * s}; }
    // Division multiplies by the reciprocal (as AVO2's vectors do).
    V2 operator/(T s) const {
        const T inv = T(1) / s;
        return {x * inv, y * inv};
    }
};
template <class T>
V2<T> operator*(T s, V2<T> v) { return {s * v.x, s * v.y}; }
template <class T>
T dot(V2<T> a, V2<T> b) { return a.x * b.x + a.y * b.y; }
template <class T>
T det(V2<T> a, V2<T> b) { return a.x * b.y - a.y * b.x; }
template <class T>
T abs_sq(V2<T> v) { return dot(v, v); }
template <class T>
T norm(V2<T> v) { return std::sqrt(dot(v, v)); }
template <class T>
V2<T> unit(V2<T> v) { return v / norm(v); }
template <class T>
bool is_nan(T value) { return value != value; }

// A directed line; the admissible half-plane lies to its left.
template <class T>
struct HalfPlane {
    V2<T> point;
    V2<T> direction;
};

// Library: AVO2's arithmetic and branch tests. Repaired: the convexity test
// is relative to the segment lengths (AVO2 compares an unnormalised
// determinant with 1e-5, which fires on rounding noise when the boundary
// lies hundreds of units away), and a line the construction leaves
// non-finite is replaced by the cutoff disc's line (AVO2 keeps NaN lines,
// which its linear programs then ignore).
enum class AvoRules { kLibrary, kRepaired };

// AVO2's constants: samples of the boundary, and its epsilon for parallel
// lines, convexity and "boundary starts at the disc".
constexpr std::size_t kBoundarySamples = 100;  // intervals, so 101 samples
template <class T>
constexpr T kAvoEpsilon = T(0.00001);
// Repaired: the AVO's first time, as a fraction of the time step.
constexpr double kRepairedStartFraction = 0.1;

namespace detail {

// The tangent point from the origin to the circle of radius |r| around p,
// on the side given by r's sign; NaN when the origin lies inside it.
template <class T>
V2<T> tangent_point(V2<T> p, T r) {
    const T p_sq = abs_sq(p);
    const T l = std::sqrt(p_sq - r * r);
    return V2<T>(l * p.x - r * p.y, r * p.x + l * p.y) * (l / p_sq);
}

// The point of the AVO's envelope that the disc at time t contributes (the
// tangent point of its envelope), in delta-v space.
template <class T>
V2<T> envelope_point(V2<T> p, V2<T> v, T r, T delta, T t) {
    const T e = std::exp(-t / delta) - T(1);
    const T inv = T(1) / (t + delta * e);
    // Derivative of the centre with respect to t, and the offset of the
    // envelope's contact point along it.
    const V2<T> centre_rate = (-e * p - (delta * e + (e + T(1)) * t) * v) * inv * inv;
    const V2<T> offset = (delta + t / e) * centre_rate;
    const V2<T> centre = (delta * e * v - p) * inv;
    const T radius = r * inv;
    return centre - offset + tangent_point(offset, radius) - v;
}

// The centre of the disc at time t, in delta-v space.
template <class T>
V2<T> disc_centre(V2<T> p, V2<T> v, T delta, T t) {
    const T k = delta * (std::exp(-t / delta) - T(1));
    return (k * v - p) / (t + k) - v;
}

template <class T>
T disc_radius(T r, T delta, T t) {
    return r / (t + delta * (std::exp(-t / delta) - T(1)));
}

// The two intersections of the circle of radius big around the origin with
// the circle of radius small around p (divides by p.x, as AVO2 does).
template <class T>
void circle_intersections(T big, T small, V2<T> p, V2<T>& first, V2<T>& second) {
    const T big_sq = big * big;
    const T small_sq = small * small;
    const T px_sq = p.x * p.x;
    const T py_sq = p.y * p.y;
    const T root = std::sqrt(-px_sq * (px_sq * px_sq + py_sq * py_sq + T(2) * px_sq * (py_sq - small_sq - big_sq) +
                                       (small_sq - big_sq) * (small_sq - big_sq) - T(2) * py_sq * (small_sq + big_sq)));
    const T x_num = px_sq * px_sq + px_sq * py_sq - px_sq * small_sq + px_sq * big_sq;
    const T y_num = px_sq * p.y + p.y * py_sq - p.y * small_sq + p.y * big_sq;
    const T y_den = T(2) * (px_sq + py_sq);
    const T x_den = y_den * p.x;
    first = V2<T>((x_num - p.y * root) / x_den, (y_num + root) / y_den);
    second = V2<T>((x_num + p.y * root) / x_den, (y_num - root) / y_den);
}

template <class T>
T dist_sq_to_segment(V2<T> a, V2<T> b, V2<T> q) {
    const T r = (dot(q - a, b - a)) / abs_sq(b - a);
    if (r < T(0)) return abs_sq(q - a);
    if (r > T(1)) return abs_sq(q - b);
    return abs_sq(q - (a + r * (b - a)));
}

// > 0 when c lies to the right of the line from a through b (AVO2's leftOf).
template <class T>
T turn(V2<T> a, V2<T> b, V2<T> c) {
    return det(a - c, b - a);
}

// The sampled envelope, newest sample first, without allocating: samples
// are written from the back of a fixed buffer towards its front.
template <class T>
struct Envelope {
    V2<T> buffer[kBoundarySamples + 1];
    std::size_t first = kBoundarySamples + 1;
    std::size_t stop = kBoundarySamples + 1;

    std::size_t size() const { return stop - first; }
    V2<T>& operator[](std::size_t k) { return buffer[first + k]; }
    V2<T> back() const { return buffer[stop - 1]; }
    void push_front(V2<T> value) { buffer[--first] = value; }
    void push_back_pair(V2<T> a, V2<T> b) {  // only on an empty envelope
        first = 0;
        buffer[0] = a;
        buffer[1] = b;
        stop = 2;
    }
    void pop_front() { ++first; }
    void keep(std::size_t count) { stop = first + count; }
    void clear() { first = stop; }
};

}  // namespace detail

// The half-plane that leaves the disc of the given centre and radius by the
// shortest way (NaN when the centre is the origin).
template <class T>
HalfPlane<T> cutoff_half_plane(V2<T> centre, T radius, T share) {
    const T w_length = norm(centre);
    const V2<T> unit_w = centre / -w_length;
    HalfPlane<T> line;
    line.direction = V2<T>(unit_w.y, -unit_w.x);
    line.point = share * (radius - w_length) * unit_w;
    return line;
}

// One neighbour's contribution.
template <class T>
struct AvoPair {
    V2<T> rel_position;   // own position minus the neighbour's
    V2<T> rel_velocity;   // own velocity minus the neighbour's
    T combined_radius;
    T combined_accel;     // own max_acceleration plus the neighbour's
    T delta;              // own acceleration interval
    T time_step;
    T time_horizon;       // own
    T share;              // the part of the avoidance this agent takes (AVO2: 1/2)
};

// Computes the half-plane of admissible own velocity changes (delta-v space)
// for one neighbour. Returns false when the neighbour imposes none (its AVO
// never reaches the disc of reachable relative velocities). In double
// precision, `times` (kept between calls) lets the envelope be sampled on
// the lane kernels (avo_envelope.hpp), with the same bits.
template <class T>
bool avo_half_plane(const AvoPair<T>& in, AvoRules rules, HalfPlane<T>& line, EnvelopeTimes* times = nullptr) {
    using detail::Envelope;
    using detail::turn;
    const V2<T> p = in.rel_position;
    const V2<T> v = in.rel_velocity;
    const T delta = in.delta;
    // The AVO covers collisions from `dt` on. AVO2 starts at the time step,
    // so a pair whose closest approach comes sooner than that is not
    // constrained and grazes; repaired, it starts at a tenth of the step.
    const T dt = rules == AvoRules::kRepaired ? in.time_step * T(kRepairedStartFraction) : in.time_step;
    const T tau = in.time_horizon;
    const T r = in.combined_radius;
    const T eps = kAvoEpsilon<T>;
    const T p_sq = abs_sq(p);
    const T r_sq = r * r;

    Envelope<T> boundary;
    // Whether boundary[k] is the envelope point of sample newest_sample - k.
    bool sampled = false;
    std::size_t newest_sample = 0;
    auto sample_time = [&](std::size_t i) {
        return dt + static_cast<T>(i) * (tau - dt) / static_cast<T>(kBoundarySamples);
    };
    bool convex = false;
    // Which side of the AVO the relative velocity passes on (AVO2's tie: +1).
    const T side_det = det(p, v);
    const T left = side_det > T(0) ? T(-1) : T(1);
    V2<T> cutoff_centre;
    T cutoff_radius = 0;

    if (p_sq <= r_sq) {
        // Overlapping: the AVO is bounded by the discs at dt and at tau and
        // their common tangent.
        const V2<T> centre_dt = detail::disc_centre(p, v, delta, dt);
        const V2<T> centre_tau = detail::disc_centre(p, v, delta, tau);
        const T radius_dt = detail::disc_radius(r, delta, dt);
        const T radius_tau = detail::disc_radius(r, delta, tau);
        const V2<T> between = centre_dt - centre_tau;
        const T between_sq = abs_sq(between);
        const T radius_gap = left * (radius_dt - radius_tau);
        const T radius_gap_sq = radius_gap * radius_gap;
        if (between_sq > radius_gap_sq) {
            const T l = std::sqrt(between_sq - radius_gap_sq);
            const V2<T> tangent_dir = V2<T>(l * between.x - radius_gap * between.y,
                                            radius_gap * between.x + l * between.y) /
                                      between_sq;
            const V2<T> normal(-left * tangent_dir.y, left * tangent_dir.x);
            boundary.push_back_pair(centre_tau + radius_tau * normal, centre_dt + radius_dt * normal);
            cutoff_centre = centre_tau;
            cutoff_radius = radius_tau;
        } else {
            cutoff_centre = centre_dt;
            cutoff_radius = radius_dt;
        }
    } else {
        // Not overlapping: is the current relative velocity inside the
        // (unaccelerated) velocity obstacle? Then the envelope is convex.
        const T discr = r_sq * abs_sq(v) - side_det * side_det;
        convex = discr >= T(0) ? std::sqrt(discr) - dot(p, v) >= T(0) : false;

        // Every sample at once on the lane kernels (nearly every call takes
        // all of them), or one at a time.
        alignas(32) double lane_x[kEnvelopePadded];
        alignas(32) double lane_y[kEnvelopePadded];
        bool lanes = false;
        if constexpr (std::is_same_v<T, double>) {
            if (times != nullptr) {
                prepare_envelope_times(*times, dt, tau, delta);
                envelope_kernel()(*times, p.x, p.y, v.x, v.y, left * r, lane_x, lane_y);
                lanes = true;
            }
        }
        // The repaired convexity test's bends, also at once.
        alignas(32) double lane_bend[kEnvelopePadded];
        alignas(32) double lane_limit[kEnvelopePadded];
        const bool lane_bends = lanes && convex && rules == AvoRules::kRepaired;
        if (lane_bends) bend_kernel()(lane_x, lane_y, static_cast<double>(left), lane_bend, lane_limit);
        T last_time = dt;
        sampled = true;
        for (std::size_t i = 0; i <= kBoundarySamples; ++i) {
            const T t = lanes ? static_cast<T>(times->time[i]) : sample_time(i);
            boundary.push_front(lanes ? V2<T>(static_cast<T>(lane_x[i]), static_cast<T>(lane_y[i]))
                                      : detail::envelope_point(p, v, left * r, delta, t));
            newest_sample = i;
            if (is_nan(boundary[0].x)) {
                // The envelope is not defined from here on.
                boundary.pop_front();
                --newest_sample;
                convex = true;
                break;
            }
            if (convex && i >= 2) {
                T bend = lane_bends ? static_cast<T>(lane_bend[i]) : left * turn(boundary[0], boundary[1], boundary[2]);
                T limit = eps;
                if (lane_bends) {
                    limit = static_cast<T>(lane_limit[i]);
                } else if (rules == AvoRules::kRepaired) {
                    limit = T(kRelativeTurn) * norm(boundary[0] - boundary[2]) * norm(boundary[1] - boundary[0]);
                }
                if (bend > limit) {
                    // Ran into a non-convex vertex.
                    boundary.pop_front();
                    boundary.pop_front();
                    newest_sample -= 2;
                    break;
                }
            }
            last_time = t;
        }
        cutoff_centre = detail::disc_centre(p, v, delta, last_time);
        cutoff_radius = detail::disc_radius(r, delta, last_time);

        if (rules == AvoRules::kRepaired && !(in.combined_accel < std::numeric_limits<T>::infinity())) {
            convex = true;  // everything is within reach: the nearest part of the envelope counts
        }
        if (!convex) {
            // Where the envelope crosses the disc of reachable relative
            // velocity changes (radius delta * combined acceleration).
            const T reach_sq = delta * delta * in.combined_accel * in.combined_accel;
            V2<T> crossings_first, crossings_last;
            std::size_t crossings = 0;
            auto add_crossing = [&](V2<T> q) {
                if (crossings == 0) crossings_first = q;
                crossings_last = q;
                ++crossings;
            };
            for (std::size_t i = 0; i + 1 < boundary.size(); ++i) {
                const V2<T> a = boundary[i];
                const V2<T> d = boundary[i + 1] - boundary[i];
                const T d_sq = abs_sq(d);
                const T det_ad = det(a, d);
                const T discr2 = reach_sq * d_sq - det_ad * det_ad;
                const T dist_sq_a = abs_sq(boundary[i]);
                const T dist_sq_b = abs_sq(boundary[i + 1]);
                if (discr2 > T(0) && ((dist_sq_a < reach_sq && dist_sq_b > reach_sq) ||
                                      (dist_sq_a >= reach_sq && dist_sq_b <= reach_sq) ||
                                      (dist_sq_a >= reach_sq && dist_sq_b > reach_sq &&
                                       abs_sq(a - (dot(a, d) / d_sq) * d) < reach_sq))) {
                    const T root = std::sqrt(discr2);
                    const T t1 = -(dot(a, d) + root) / d_sq;
                    const T t2 = -(dot(a, d) - root) / d_sq;
                    if (t1 >= T(0) && t1 < T(1)) add_crossing(a + t1 * d);
                    if (t2 >= T(0) && t2 < T(1)) add_crossing(a + t2 * d);
                }
            }

            const T reach = delta * in.combined_accel;
            const T reach_plus_cutoff = reach + cutoff_radius;
            const bool cutoff_in_disc =
                abs_sq(cutoff_centre) < reach_plus_cutoff * reach_plus_cutoff &&
                (abs_sq(boundary[0]) < reach_sq || left * turn(V2<T>(), cutoff_centre, boundary[0]) > T(0));
            if (!cutoff_in_disc) {
                if (crossings == 0) return false;  // nothing of the AVO within reach
                line.direction = left * unit(crossings_last - crossings_first);
                line.point = in.share * crossings_first;
                return true;
            }
            // The cutoff arc reaches the disc: connect the last crossing to it.
            if (crossings == 0 && abs_sq(boundary[0]) <= reach_sq) {
                add_crossing(boundary.back());  // the envelope ends inside the disc
            } else if (crossings != 0 && abs_sq(boundary[0] - crossings_last) < eps) {
                crossings = 0;  // the envelope starts at the disc
            }
            if (crossings != 0) {
                V2<T> q = detail::tangent_point(cutoff_centre - crossings_last, -left * cutoff_radius) + crossings_last;
                if (abs_sq(q) > reach_sq) {
                    V2<T> first, second;
                    detail::circle_intersections(reach, cutoff_radius, cutoff_centre, first, second);
                    q = -left * turn(crossings_last, cutoff_centre, first) > T(0) ? first : second;
                    line.direction = left * unit(crossings_last - q);
                    line.point = in.share * q;
                    return true;
                }
                boundary[0] = q;
                boundary[1] = crossings_last;
                boundary.keep(2);
                sampled = false;
            } else {
                boundary.clear();
            }
        }
    }

    if (boundary.size() <= 1 || left * turn(cutoff_centre, boundary[0], V2<T>()) >= T(0)) {
        // The nearest part of the AVO is the cutoff disc.
        line = cutoff_half_plane(cutoff_centre, cutoff_radius, in.share);
        return true;
    }
    // The nearest segment of the envelope.
    T best = std::numeric_limits<T>::infinity();
    std::size_t nearest = 0;
    for (std::size_t i = 0; i + 1 < boundary.size(); ++i) {
        const T d = detail::dist_sq_to_segment(boundary[i], boundary[i + 1], V2<T>());
        if (d < best) {
            best = d;
            nearest = i;
        }
    }
    line.direction = left * unit(boundary[nearest + 1] - boundary[nearest]);
    V2<T> through = boundary[nearest];
    if (rules == AvoRules::kRepaired && sampled && nearest + 1 <= newest_sample) {
        // The segment is a chord of the envelope, which bulges beyond it
        // between the samples: move the line out until the discs of the
        // segment's times (ends and middle) lie beyond it.
        const T t_late = sample_time(newest_sample - nearest);
        const T t_early = sample_time(newest_sample - nearest - 1);
        const V2<T> inward(-line.direction.y, line.direction.x);  // towards the admissible side
        T shift = 0;
        for (const T t : {t_early, T(0.5) * (t_early + t_late), t_late}) {
            const V2<T> centre = detail::disc_centre(p, v, delta, t);
            const T reach_in = dot(centre - through, inward) + detail::disc_radius(r, delta, t);
            if (reach_in > shift) shift = reach_in;
        }
        through = through + shift * inward;
    }
    line.point = in.share * through;
    return true;
}

}  // namespace vosim::avo
