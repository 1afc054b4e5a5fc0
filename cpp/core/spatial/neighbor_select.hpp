// Selecting the k nearest of a query's candidates, shared by the 2D and 3D
// neighbour grids (both keep RVO2's semantics: strictly within range, the
// max_k nearest, ties broken by the lower slot; see `closer`).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "maths/sse2.hpp"
#include "maths/vec3.hpp"

#include "spatial/neighbor_grid.hpp"  // Neighbor, closer

namespace vosim {

// A dense-grid query whose rows hold at most this many points gathers
// those in range, then ranks them pairwise when there are at most kRankMax
// (see select_nearest) or sorts them.
constexpr std::uint32_t kGatherMax = 96;
constexpr int kRankMax = 48;

// Puts `candidate` into out[0, count), kept sorted by `closer` and at most
// max_k long (the farthest drops out); false when it is not among them.
inline bool insert_nearest(const Neighbor& candidate, Neighbor* out, int& count, int max_k) {
    int at;
    if (count < max_k) {
        at = count++;
    } else if (closer(candidate, out[max_k - 1])) {
        at = max_k - 1;
    } else {
        return false;
    }
    while (at > 0 && closer(candidate, out[at - 1])) {
        out[at] = out[at - 1];
        --at;
    }
    out[at] = candidate;
    return true;
}

#if VOSIM_HAS_SSE2
// gather_in_range's step for two points whose squared distances are the
// lanes of d: both written at n, the count advanced by those within limit
// (other than self_slot).
inline int append_pair(__m128d d, __m128d limit, const std::int32_t* pair_slots, std::int32_t self_slot,
                       double* dist, std::int32_t* slot, int n) {
    const int inside = _mm_movemask_pd(_mm_cmplt_pd(d, limit));
    _mm_store_sd(dist + n, d);
    slot[n] = pair_slots[0];
    n += (inside & 1) & static_cast<int>(pair_slots[0] != self_slot);
    _mm_storeh_pd(dist + n, d);
    slot[n] = pair_slots[1];
    n += (inside >> 1) & static_cast<int>(pair_slots[1] != self_slot);
    return n;
}
#endif

// Appends the points [begin, end) strictly within range of p (other than
// self_slot) to dist and slot from index n on, and returns the new count.
// Every point is written and the count advances by the test's outcome: no
// branch on the distance, which would be a coin toss for the predictor.
// On SSE2 two points' distances take one register (2D and 3D).
template <bool sse2 = kSse2, class V>
inline int gather_in_range(const V* points, const std::int32_t* slots, std::uint32_t begin, std::uint32_t end,
                           V p, double range_sq, std::int32_t self_slot, double* dist, std::int32_t* slot, int n) {
    std::uint32_t j = begin;
#if VOSIM_HAS_SSE2
    if constexpr (sse2 && std::is_same_v<V, Vec2>) {
        // Two points at a time: their squared distances (each x*x + y*y, as
        // abs_sq computes it) in one register.
        static_assert(sizeof(Vec2) == 2 * sizeof(double), "Vec2 is x then y");
        const __m128d centre = _mm_set_pd(p.y, p.x);
        const __m128d limit = _mm_set1_pd(range_sq);
        for (; j + 2 <= end; j += 2) {
            const __m128d a = _mm_sub_pd(_mm_loadu_pd(&points[j].x), centre);
            const __m128d b = _mm_sub_pd(_mm_loadu_pd(&points[j + 1].x), centre);
            const __m128d a_sq = _mm_mul_pd(a, a);
            const __m128d b_sq = _mm_mul_pd(b, b);
            const __m128d d = _mm_add_pd(_mm_unpacklo_pd(a_sq, b_sq), _mm_unpackhi_pd(a_sq, b_sq));
            n = append_pair(d, limit, slots + j, self_slot, dist, slot, n);
        }
    }
    if constexpr (sse2 && std::is_same_v<V, Vec3>) {
        // Two points are three registers: (x0, y0), (z0, x1), (y1, z1).
        // Shuffled into (x0², x1²), (y0², y1²), (z0², z1²), their sums are
        // both squared distances in abs_sq's order, (x² + y²) + z².
        static_assert(sizeof(Vec3) == 3 * sizeof(double), "Vec3 is x, y then z");
        const __m128d xy = _mm_set_pd(p.y, p.x);
        const __m128d zx = _mm_set_pd(p.x, p.z);
        const __m128d yz = _mm_set_pd(p.z, p.y);
        const __m128d limit = _mm_set1_pd(range_sq);
        for (; j + 2 <= end; j += 2) {
            const double* pair = &points[j].x;
            const __m128d a = _mm_sub_pd(_mm_loadu_pd(pair), xy);
            const __m128d b = _mm_sub_pd(_mm_loadu_pd(pair + 2), zx);
            const __m128d c = _mm_sub_pd(_mm_loadu_pd(pair + 4), yz);
            const __m128d a_sq = _mm_mul_pd(a, a);
            const __m128d b_sq = _mm_mul_pd(b, b);
            const __m128d c_sq = _mm_mul_pd(c, c);
            const __m128d x_sq = _mm_shuffle_pd(a_sq, b_sq, 0b10);  // (a_sq[0], b_sq[1])
            const __m128d y_sq = _mm_shuffle_pd(a_sq, c_sq, 0b01);  // (a_sq[1], c_sq[0])
            const __m128d z_sq = _mm_shuffle_pd(b_sq, c_sq, 0b10);  // (b_sq[0], c_sq[1])
            const __m128d d = _mm_add_pd(_mm_add_pd(x_sq, y_sq), z_sq);
            n = append_pair(d, limit, slots + j, self_slot, dist, slot, n);
        }
    }
#endif
    for (; j < end; ++j) {
        const double d = abs_sq(points[j] - p);
        dist[n] = d;
        slot[n] = slots[j];
        n += static_cast<int>(d < range_sq) & static_cast<int>(slots[j] != self_slot);
    }
    return n;
}

// How many of dist[0, n) are below d0, and how many below d1, for an even
// n: exact counts, so the SSE2 path (two comparisons an instruction, part
// of every x86-64) and the plain one give the same result. Two bounds at a
// time share each load.
template <bool sse2 = kSse2>
inline void count_below(const double* dist, int n, double d0, double d1, std::int64_t& below0,
                        std::int64_t& below1) {
#if VOSIM_HAS_SSE2
    if constexpr (sse2) {
        const __m128d bound0 = _mm_set1_pd(d0);
        const __m128d bound1 = _mm_set1_pd(d1);
        __m128i lanes0 = _mm_setzero_si128();
        __m128i lanes1 = _mm_setzero_si128();
        for (int j = 0; j < n; j += 2) {
            // A true comparison is all ones, -1 as an integer: subtracting it counts it.
            const __m128d pair = _mm_loadu_pd(dist + j);
            lanes0 = _mm_sub_epi64(lanes0, _mm_castpd_si128(_mm_cmplt_pd(pair, bound0)));
            lanes1 = _mm_sub_epi64(lanes1, _mm_castpd_si128(_mm_cmplt_pd(pair, bound1)));
        }
        below0 = _mm_cvtsi128_si64(lanes0) + _mm_cvtsi128_si64(_mm_unpackhi_epi64(lanes0, lanes0));
        below1 = _mm_cvtsi128_si64(lanes1) + _mm_cvtsi128_si64(_mm_unpackhi_epi64(lanes1, lanes1));
        return;
    }
#endif
    below0 = 0;
    below1 = 0;
    for (int j = 0; j < n; ++j) {
        below0 += static_cast<std::int64_t>(dist[j] < d0);
        below1 += static_cast<std::int64_t>(dist[j] < d1);
    }
}

// The min(n, max_k) nearest of n candidates into out, sorted by `closer`.
// Each candidate's place is the number of candidates closer than it,
// counted without branches: for the few candidates of a typical query this
// beats sorting, whose comparisons the branch predictor cannot guess.
// Equal distances are rare, so places are first counted by distance alone
// (one comparison a pair, two pairs an SSE2 instruction: GCC does not
// vectorise comparisons counted as integers); only when two candidates
// tie, which shows as places summing to less than n(n-1)/2, are they
// counted again with ties broken by slot. dist must have room for n + 1
// entries: dist[n] is overwritten.
template <bool sse2 = kSse2>
inline int select_nearest(double* dist, const std::int32_t* slot, int n, int max_k, Neighbor* out) {
    if (n > kRankMax) {
        Neighbor all[kGatherMax];
        for (int i = 0; i < n; ++i) all[i] = Neighbor{dist[i], slot[i], 0};
        const int kept = std::min(n, max_k);
        std::partial_sort(all, all + kept, all + n, closer);
        std::copy(all, all + kept, out);
        return kept;
    }
    // Padded to an even count with an entry no distance is above (dist has
    // room for it), so that the counts run over whole pairs.
    const int padded = n + (n & 1);
    dist[n] = std::numeric_limits<double>::infinity();
    std::int64_t place[kRankMax + 1];
    for (int i = 0; i < n; i += 2) count_below<sse2>(dist, padded, dist[i], dist[i + 1], place[i], place[i + 1]);
    std::int64_t place_sum = 0;
    for (int i = 0; i < n; ++i) place_sum += place[i];
    if (place_sum != static_cast<std::int64_t>(n) * (n - 1) / 2) {
        for (int i = 0; i < n; ++i) {
            const double d = dist[i];
            const std::int32_t s = slot[i];
            std::int64_t nearer = 0;
            for (int j = 0; j < n; ++j) {
                nearer += static_cast<std::int64_t>(dist[j] < d) |
                          (static_cast<std::int64_t>(dist[j] == d) & static_cast<std::int64_t>(slot[j] < s));
            }
            place[i] = nearer;
        }
    }
    for (int i = 0; i < n; ++i) {
        if (place[i] < max_k) out[place[i]] = Neighbor{dist[i], slot[i], 0};
    }
    return std::min(n, max_k);
}

// The min(n, max_k) nearest to p of the points in the runs
// [run_begin[r], run_end[r]) of `points`, which hold at most kGatherMax
// points in all: gathered, then ranked.
template <class V>
inline int nearest_in_runs(const V* points, const std::int32_t* slots, const std::uint32_t* run_begin,
                           const std::uint32_t* run_end, int runs, V p, double range_sq, std::int32_t self_slot,
                           int max_k, Neighbor* out) {
    double dist[kGatherMax];
    std::int32_t slot[kGatherMax];
    int n = 0;
    for (int r = 0; r < runs; ++r) {
        n = gather_in_range(points, slots, run_begin[r], run_end[r], p, range_sq, self_slot, dist, slot, n);
    }
    return select_nearest(dist, slot, n, max_k, out);
}

}  // namespace vosim
