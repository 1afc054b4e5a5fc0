#include "methods/detour/detour_sampling.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "methods/detour/detour_lanes.hpp"
#include "methods/require.hpp"
#include "state/state_check.hpp"

namespace vosim {

namespace {

constexpr double kPi = 3.14159265358979323846;
// The library's early-out tolerance is FLT_EPSILON; kept so that the pruned
// candidates are the same ones.
constexpr double kEarlyOutTolerance = 1.1920928955078125e-07;
// The library's 1/max_speed for max_speed 0 (FLT_MAX): huge, yet finite, so
// that zero distances still give zero penalty terms.
constexpr double kInverseZeroSpeed = 3.4028234663852886e+38;
constexpr double kTouchDistance = 0.01;
constexpr double kSideThreshold = 0.01;
constexpr double kNotMovingSq = 0.0001;
constexpr double kParallel = 1e-6;
constexpr double kSpeedSlack = 0.001;
constexpr int kMaxDivs = 32;
constexpr int kMaxRings = 4;
constexpr int kInlineCapacity = 32;

// Unit vector along v; false when v is zero (or not finite). Scaling by the
// larger component first keeps tiny and huge vectors exact enough.
bool unit_direction(Vec2 v, Vec2& unit) {
    const double scale = std::max(std::abs(v.x), std::abs(v.y));
    if (!(scale > 0.0 && std::isfinite(scale))) return false;
    const Vec2 w = v / scale;
    unit = w / length(w);
    return true;
}

// Per-call storage: on the stack for the usual handful of items, on the heap
// beyond that.
template <class T>
class ScratchArray {
public:
    explicit ScratchArray(int n) {
        if (n > kInlineCapacity) {
            heap_.resize(static_cast<std::size_t>(n));
            data_ = heap_.data();
        }
    }
    ScratchArray(const ScratchArray&) = delete;
    ScratchArray& operator=(const ScratchArray&) = delete;
    T& operator[](int i) { return data_[i]; }
    const T* data() const { return data_; }

private:
    std::array<T, kInlineCapacity> inline_{};
    std::vector<T> heap_;
    T* data_ = inline_.data();
};

// A neighbour with what does not change between candidates.
struct PreparedCircle {
    Vec2 rel_position;      // neighbour centre - agent centre
    double gap_term = 0.0;  // |rel_position|^2 - (r_agent + r_neighbour)^2
    Vec2 velocity;
    Vec2 side_dir;          // unit vector towards the neighbour
    Vec2 side_normal;       // the side the pair agreed to pass on
    bool has_side = false;  // false for a neighbour centred on the agent
};

struct PreparedSegment {
    Vec2 p;
    Vec2 q;
    bool touch = false;  // agent centre within kTouchDistance
};

struct Scene {
    const DetourParams& params;
    Vec2 velocity;
    Vec2 desired;
    Vec2 position;
    double inv_max_speed;
    double inv_horizon;
    const PreparedCircle* circles;
    int n_circles;
    const PreparedSegment* segments;
    int n_segments;
    // The neighbours as lanes, for the pruned evaluation (null: one at a time).
    const DetourCircleLanes* lanes = nullptr;
    DetourImpactKernel impacts = nullptr;
    DetourSideKernel sides = nullptr;
    double* side_terms = nullptr;
    // The distance terms of a row of candidates at once (null: one at a time).
    DetourDistanceKernel distances = nullptr;
    // detour_threshold_divisor_bound of the params (0: the rule is always worked out).
    double threshold_divisor = 0.0;
};

PreparedCircle prepare_circle(const LocalAgent& agent, const LocalNeighbor& c) {
    PreparedCircle out;
    out.rel_position = c.position - agent.position;
    out.gap_term = abs_sq(out.rel_position) - sqr(agent.radius + c.radius);
    out.velocity = c.velocity;
    out.has_side = unit_direction(out.rel_position, out.side_dir);
    if (out.has_side) {
        // Which way round the pair passes follows from their desired
        // velocities; the neighbour's desired velocity is used only here.
        const double turn = det(c.pref_velocity - agent.pref_velocity, out.side_dir);
        out.side_normal = turn < kSideThreshold ? perp(out.side_dir) : -perp(out.side_dir);
    }
    return out;
}

// Earliest time >= 0 at which the agent, moving at rel_velocity relative to the
// neighbour, touches it; when they already overlap, half the time since they
// started to. False when there is no such time or they barely move.
bool circle_time_of_impact(const PreparedCircle& c, Vec2 rel_velocity, double& t) {
    const double a = abs_sq(rel_velocity);
    if (a < kNotMovingSq) return false;
    const double b = dot(rel_velocity, c.rel_position);
    const double discriminant = b * b - a * c.gap_term;
    if (discriminant < 0.0) return false;
    const double root = std::sqrt(discriminant);
    double t_enter = (b - root) / a;
    const double t_exit = (b + root) / a;
    if (t_enter < 0.0 && t_exit > 0.0) t_enter = -t_enter * 0.5;
    if (!(t_enter >= 0.0)) return false;
    t = t_enter;
    return true;
}

// Time t in [0, 1] at which origin + t * direction crosses [p, q].
bool ray_segment_time(Vec2 origin, Vec2 direction, Vec2 p, Vec2 q, double& t) {
    const Vec2 edge = q - p;
    const Vec2 w = origin - p;
    const double d = det(direction, edge);
    if (std::abs(d) < kParallel) return false;
    t = det(edge, w) / d;
    if (t < 0.0 || t > 1.0) return false;
    const double s = det(direction, w) / d;
    return s >= 0.0 && s <= 1.0;
}

// The distance terms of v's penalty, one candidate at a time (the lane
// kernel DetourKernels::distances computes a row of them with the same bits).
void distance_terms(const Scene& s, Vec2 v, double& vpen, double& vcpen) {
    vpen = s.params.weight_des_vel * (length(v - s.desired) * s.inv_max_speed);
    vcpen = s.params.weight_cur_vel * (length(v - s.velocity) * s.inv_max_speed);
}

struct Evaluation {
    double penalty = 0.0;
    double vpen = 0.0;
    double vcpen = 0.0;
    double spen = 0.0;
    double tpen = 0.0;
    bool pruned = false;
};

// Penalty of candidate v. A candidate that provably cannot beat min_penalty
// is pruned: with kFull false its evaluation stops there (penalty =
// min_penalty, so it loses the strict comparison); with kFull true every term
// is still computed, for the record, and only `pruned` tells. Inlined into
// the samplers' loops: the call and the returned struct cost a tenth of the
// grid sampler's instructions.
template <bool kFull>
[[gnu::always_inline]] inline Evaluation evaluate(const Scene& s, Vec2 v, double min_penalty, double vpen,
                                                  double vcpen) {
    const DetourParams& p = s.params;
    Evaluation e;
    e.vpen = vpen;
    e.vcpen = vcpen;
    const auto prune = [&]() {
        e.pruned = true;
        if (!kFull) e.penalty = min_penalty;
        return !kFull;
    };
    // Ignoring the side term, v beats min_penalty only if its time of impact
    // exceeds t_threshold; impacts are capped at horiz_time. Outside the
    // record (whose flags stay the library's) two tests without a division
    // come first, and drop a candidate as the rule would: the other terms are
    // >= 0, so distance terms that alone reach min_penalty cannot beat it (the
    // rule misses this case: its divisor is then <= 0); and the rule holds
    // exactly for divisors up to s.threshold_divisor, as most candidates' are.
    const double divisor = (min_penalty - e.vpen) - e.vcpen;
    if (!kFull && (!((e.vpen + e.vcpen) < min_penalty) || (divisor > 0.0 && divisor <= s.threshold_divisor))) {
        e.pruned = true;
        e.penalty = min_penalty;
        return e;
    }
    const double t_threshold = (p.weight_toi / divisor - 0.1) * p.horiz_time;
    if (t_threshold - p.horiz_time > -kEarlyOutTolerance && prune()) return e;

    double t_min = p.horiz_time;
    double side = 0.0;
    int n_side = 0;
    if (!kFull && s.lanes != nullptr) {
        // All neighbours at once. The loop below stops at the first time of
        // impact below t_threshold; the earliest is below it exactly when
        // one is, so the same candidates are pruned.
        const Vec2 base = (2.0 * v) - s.velocity;
        t_min = s.impacts(*s.lanes, base.x, base.y, t_min, t_threshold);
        if (t_min < t_threshold && prune()) return e;
        s.sides(*s.lanes, base.x, base.y, s.side_terms);
        for (int i = 0; i < s.n_circles; ++i) {
            if (s.circles[i].has_side) {
                side += s.side_terms[i];
                ++n_side;
            }
        }
    }
    for (int i = 0; i < (kFull || s.lanes == nullptr ? s.n_circles : 0); ++i) {
        const PreparedCircle& c = s.circles[i];
        // Reciprocal: the neighbour is expected to take half of the avoidance.
        const Vec2 rel_velocity = ((2.0 * v) - s.velocity) - c.velocity;
        if (c.has_side) {
            side += std::clamp(std::min(dot(c.side_dir, rel_velocity) * 0.5 + 0.5,
                                        dot(c.side_normal, rel_velocity) * 2.0),
                               0.0, 1.0);
            ++n_side;
        }
        double t = 0.0;
        if (circle_time_of_impact(c, rel_velocity, t) && t < t_min) {
            t_min = t;
            if (t_min < t_threshold && prune()) return e;
        }
    }
    for (int i = 0; i < s.n_segments; ++i) {
        const PreparedSegment& g = s.segments[i];
        double t = 0.0;
        if (g.touch) {
            // On the wall: only velocities leaving across its inner side are free.
            if (dot(perp(g.q - g.p), v) < 0.0) continue;
        } else if (!ray_segment_time(s.position, v, g.p, g.q, t)) {
            continue;
        }
        t *= 2.0;  // the library avoids walls less than agents
        if (t < t_min) {
            t_min = t;
            if (t_min < t_threshold && prune()) return e;
        }
    }
    if (n_side > 0) side /= n_side;
    e.spen = p.weight_side * side;
    e.tpen = p.weight_toi * (1.0 / (0.1 + t_min * s.inv_horizon));
    e.penalty = ((e.vpen + e.vcpen) + e.spen) + e.tpen;
    return e;
}

// Keeps the best candidate of one pass (one adaptive level, or the grid).
template <bool kFull>
class Selection {
public:
    Selection(const Scene& scene, std::vector<DetourSample>* record, int& evaluated)
        : scene_(scene), record_(record), evaluated_(evaluated) {}

    void offer(Vec2 v, int level) {
        double vpen = 0.0, vcpen = 0.0;
        distance_terms(scene_, v, vpen, vcpen);
        offer(v, level, vpen, vcpen);
    }

    // With v's distance terms worked out already.
    [[gnu::always_inline]] void offer(Vec2 v, int level, double vpen, double vcpen) {
        const Evaluation e = evaluate<kFull>(scene_, v, min_penalty_, vpen, vcpen);
        ++evaluated_;
        if (kFull) {
            record_->push_back({v, e.penalty, e.vpen, e.vcpen, e.spen, e.tpen, level, e.pruned});
        }
        // Strict: on an exact tie the earlier candidate stays.
        if (!e.pruned && e.penalty < min_penalty_) {
            min_penalty_ = e.penalty;
            best_ = v;
        }
    }

    Vec2 best() const { return best_; }

private:
    const Scene& scene_;
    std::vector<DetourSample>* record_;
    int& evaluated_;
    double min_penalty_ = std::numeric_limits<double>::infinity();
    Vec2 best_;  // (0, 0) when nothing was selected
};

using Pattern = std::array<Vec2, 1 + kMaxDivs * kMaxRings>;

// A row of candidates (a row of the grid, a level of the adaptive pattern)
// with their distance terms, for DetourKernels::distances: on the stack up to
// the largest pattern, on the heap beyond (grids over 136 wide).
class CandidateRow {
public:
    // Sizes the row for n candidates, padded to whole packs; returns the padded count.
    int reset(int n) {
        const int padded = (n + 3) / 4 * 4;
        if (padded > kInline) {
            heap_.assign(4 * static_cast<std::size_t>(padded), 0.0);
            data_ = heap_.data();
        } else {
            data_ = inline_.data();
        }
        padded_ = padded;
        for (int i = n; i < padded; ++i) x()[i] = y()[i] = 0.0;  // pads: finite, never offered
        return padded;
    }
    double* x() { return data_; }
    double* y() { return data_ + padded_; }
    double* vpen() { return data_ + 2 * padded_; }
    double* vcpen() { return data_ + 3 * padded_; }
    void compute(const Scene& s) {
        const DetourDistanceWeights w{s.desired.x,        s.desired.y,       s.velocity.x,
                                      s.velocity.y,       s.inv_max_speed,   s.params.weight_des_vel,
                                      s.params.weight_cur_vel};
        s.distances(w, x(), y(), padded_, vpen(), vcpen());
    }

private:
    static constexpr int kInline = 136;  // >= 1 + kMaxDivs * kMaxRings, rounded up
    std::array<double, 4 * kInline> inline_;
    std::vector<double> heap_;
    double* data_ = inline_.data();
    int padded_ = 0;
};

// The adaptive pattern for unit radius, oriented along `direction`: the
// centre, then each ring from the outermost in, each ring as start, right 1,
// left 1, right 2, left 2, ... Returns the number of points.
int build_pattern(const DetourParams& p, Vec2 direction, Pattern& out) {
    const int divs = std::clamp(p.adaptive_divs, 1, kMaxDivs);
    const int rings = std::clamp(p.adaptive_rings, 1, kMaxRings);
    const double step = 2.0 * kPi / divs;
    const double cos_step = std::cos(step), sin_step = std::sin(step);
    const double cos_half = std::cos(step * 0.5), sin_half = std::sin(step * 0.5);
    // Odd rings start half a division round, so that rings interleave.
    const Vec2 staggered(direction.x * cos_half - direction.y * sin_half,
                         direction.x * sin_half + direction.y * cos_half);
    int n = 0;
    out[n++] = Vec2(0.0, 0.0);
    for (int j = 0; j < rings; ++j) {
        const double r = static_cast<double>(rings - j) / rings;
        const Vec2 start = (j % 2 == 0 ? direction : staggered) * r;
        out[n++] = start;
        Vec2 right = start, left = start;
        for (int i = 1; i < divs - 1; i += 2) {
            right = Vec2(right.x * cos_step + right.y * sin_step, -right.x * sin_step + right.y * cos_step);
            left = Vec2(left.x * cos_step - left.y * sin_step, left.x * sin_step + left.y * cos_step);
            out[n++] = right;
            out[n++] = left;
        }
        // The library leaves this point undefined for even divs; the opposite
        // of the start completes the evenly spaced ring.
        if (divs % 2 == 0) out[n++] = -start;
    }
    return n;
}

template <bool kFull>
DetourResult run_adaptive(const Scene& s, double max_speed, std::vector<DetourSample>* record) {
    const DetourParams& p = s.params;
    // Orientation: the library's pattern collapses for a zero desired
    // velocity; fall back to the current velocity, then to +x.
    Vec2 direction;
    if (!unit_direction(s.desired, direction) && !unit_direction(s.velocity, direction)) {
        direction = Vec2(1.0, 0.0);
    }
    Pattern pattern;
    const int n_pattern = build_pattern(p, direction, pattern);

    double radius = max_speed * (1.0 - p.vel_bias);
    Vec2 centre = s.desired * p.vel_bias;
    const double limit_sq = sqr(max_speed + kSpeedSlack);
    int evaluated = 0;
    const bool rows = !kFull && s.distances != nullptr;
    CandidateRow row;
    if (rows) row.reset(n_pattern);
    for (int level = 0; level < p.adaptive_depth; ++level) {
        Selection<kFull> selection(s, record, evaluated);
        if (rows) {
            for (int i = 0; i < n_pattern; ++i) {
                const Vec2 v = centre + pattern[i] * radius;
                row.x()[i] = v.x;
                row.y()[i] = v.y;
            }
            row.compute(s);
            for (int i = 0; i < n_pattern; ++i) {
                const Vec2 v(row.x()[i], row.y()[i]);
                if (abs_sq(v) > limit_sq) continue;
                selection.offer(v, level, row.vpen()[i], row.vcpen()[i]);
            }
        } else {
            for (int i = 0; i < n_pattern; ++i) {
                const Vec2 v = centre + pattern[i] * radius;
                if (abs_sq(v) > limit_sq) continue;
                selection.offer(v, level);
            }
        }
        centre = selection.best();
        radius *= 0.5;
    }
    return {centre, evaluated};
}

template <bool kFull>
DetourResult run_grid(const Scene& s, double max_speed, std::vector<DetourSample>* record) {
    const DetourParams& p = s.params;
    const Vec2 centre = s.desired * p.vel_bias;
    const int n = p.grid_size;
    const double cell = (max_speed * 2.0 * (1.0 - p.vel_bias)) / (n - 1);
    const double half = ((n - 1) * cell) * 0.5;
    // The speed limit is a disc around the origin, half a cell wider than max_speed.
    const double limit_sq = sqr(max_speed + cell * 0.5);
    int evaluated = 0;
    Selection<kFull> selection(s, record, evaluated);
    if (!kFull && s.distances != nullptr) {
        // A row at a time: its distance terms at once, then its candidates in order.
        CandidateRow row;
        const int padded = row.reset(n);
        for (int x = 0; x < n; ++x) row.x()[x] = (centre.x + x * cell) - half;
        for (int y = 0; y < n; ++y) {
            const double vy = (centre.y + y * cell) - half;
            for (int x = 0; x < padded; ++x) row.y()[x] = vy;
            row.compute(s);
            for (int x = 0; x < n; ++x) {
                const Vec2 v(row.x()[x], vy);
                if (abs_sq(v) > limit_sq) continue;
                selection.offer(v, 0, row.vpen()[x], row.vcpen()[x]);
            }
        }
        return {selection.best(), evaluated};
    }
    for (int y = 0; y < n; ++y) {
        for (int x = 0; x < n; ++x) {
            const Vec2 v((centre.x + x * cell) - half, (centre.y + y * cell) - half);
            if (abs_sq(v) > limit_sq) continue;
            selection.offer(v, 0);
        }
    }
    return {selection.best(), evaluated};
}

using Runner = DetourResult (*)(const Scene&, double, std::vector<DetourSample>*);

DetourResult sample(Runner fast, Runner full, const DetourParams& params, const LocalAgent& agent,
                    const LocalNeighbor* circles, int n_circles, const LocalEdge* segments,
                    int n_segments, std::vector<DetourSample>* record) {
    n_circles = std::max(n_circles, 0);
    n_segments = std::max(n_segments, 0);
    ScratchArray<PreparedCircle> prepared_circles(n_circles);
    for (int i = 0; i < n_circles; ++i) prepared_circles[i] = prepare_circle(agent, circles[i]);
    ScratchArray<PreparedSegment> prepared_segments(n_segments);
    for (int i = 0; i < n_segments; ++i) {
        const LocalEdge& g = segments[i];
        prepared_segments[i] = {g.a, g.b,
                                dist_sq_point_segment(g.a, g.b, agent.position) < sqr(kTouchDistance)};
    }
    Scene scene{params,
                agent.velocity,
                agent.pref_velocity,
                agent.position,
                agent.max_speed > 0.0 ? 1.0 / agent.max_speed : kInverseZeroSpeed,
                1.0 / params.horiz_time,
                prepared_circles.data(),
                n_circles,
                prepared_segments.data(),
                n_segments};
    if (record == nullptr) {
        DetourLaneBuffer buffer;
        const DetourCircleLanes lanes = buffer.reset(n_circles);
        for (int i = 0; i < n_circles; ++i) {
            const PreparedCircle& c = prepared_circles[i];
            buffer.set(i, kLaneRelX, c.rel_position.x);
            buffer.set(i, kLaneRelY, c.rel_position.y);
            buffer.set(i, kLaneGap, c.gap_term);
            buffer.set(i, kLaneVelX, c.velocity.x);
            buffer.set(i, kLaneVelY, c.velocity.y);
            buffer.set(i, kLaneSideX, c.side_dir.x);
            buffer.set(i, kLaneSideY, c.side_dir.y);
            buffer.set(i, kLaneNormalX, c.side_normal.x);
            buffer.set(i, kLaneNormalY, c.side_normal.y);
        }
        scene.lanes = &lanes;
        const DetourKernels& kernels = detour_kernels();
        scene.impacts = kernels.impacts;
        scene.sides = kernels.sides;
        scene.side_terms = buffer.side();
        scene.distances = kernels.distances;
        // The bound depends on the settings alone: kept per thread for the last ones.
        thread_local double kept_toi = 0.0, kept_horizon = 0.0, kept_bound = 0.0;
        if (!(params.weight_toi == kept_toi && params.horiz_time == kept_horizon)) {
            kept_bound = detour_threshold_divisor_bound(params.weight_toi, params.horiz_time);
            kept_toi = params.weight_toi;
            kept_horizon = params.horiz_time;
        }
        scene.threshold_divisor = kept_bound;
        return fast(scene, agent.max_speed, nullptr);
    }
    record->clear();
    return full(scene, agent.max_speed, record);
}

}  // namespace

void check_detour_params(const DetourParams& p) {
    require(p.vel_bias >= 0.0 && p.vel_bias <= 1.0, "vel_bias", p.vel_bias,
            "must be in [0, 1]");
    require_non_negative(p.weight_des_vel, "weight_des_vel");
    require_non_negative(p.weight_cur_vel, "weight_cur_vel");
    require_non_negative(p.weight_side, "weight_side");
    require_non_negative(p.weight_toi, "weight_toi");
    require(std::isfinite(p.horiz_time) && p.horiz_time > 0.0, "horiz_time", p.horiz_time,
            "must be finite and > 0");
    require(p.grid_size >= 2, "grid_size", p.grid_size, "must be >= 2");
    require(p.adaptive_divs >= 1, "adaptive_divs", p.adaptive_divs, "must be >= 1");
    require(p.adaptive_rings >= 1, "adaptive_rings", p.adaptive_rings, "must be >= 1");
    require(p.adaptive_depth >= 1, "adaptive_depth", p.adaptive_depth, "must be >= 1");
}

void check_detour_inputs(const LocalAgent& agent, const LocalNeighbor* circles, int n_circles,
                         const LocalEdge* segments, int n_segments) {
    require_finite_vector(agent.position, "agent position");
    require_finite_vector(agent.velocity, "agent velocity");
    require_finite_vector(agent.pref_velocity, "agent desired_velocity");
    require_non_negative(agent.radius, "agent radius");
    require_non_negative(agent.max_speed, "agent max_speed");
    for (int i = 0; i < n_circles; ++i) {
        const std::string name = "circles[" + std::to_string(i) + "]";
        require_finite_vector(circles[i].position, name + " position");
        require_finite_vector(circles[i].velocity, name + " velocity");
        require_finite_vector(circles[i].pref_velocity, name + " desired_velocity");
        require_non_negative(circles[i].radius, name + " radius");
    }
    for (int i = 0; i < n_segments; ++i) {
        const std::string name = "segments[" + std::to_string(i) + "]";
        require_finite_vector(segments[i].a, name + " p");
        require_finite_vector(segments[i].b, name + " q");
    }
}

double detour_threshold_divisor_bound(double weight_toi, double horiz_time) {
    if (!(weight_toi > 0.0 && std::isfinite(weight_toi) && horiz_time > 0.0 && std::isfinite(horiz_time))) {
        return 0.0;
    }
    // As evaluate works it out, with d for ((min_penalty - vpen) - vcpen).
    const auto holds = [&](double d) {
        const double t_threshold = (weight_toi / d - 0.1) * horiz_time;
        return t_threshold - horiz_time > -kEarlyOutTolerance;
    };
    // Positive doubles order as their bit patterns. Invariant: the rule holds
    // at `low` (or low is +0) and fails at `high` (+inf: weight_toi / inf = 0).
    std::uint64_t low = 0;
    std::uint64_t high = 0x7FF0000000000000ull;
    const auto value = [](std::uint64_t bits) {
        double d;
        std::memcpy(&d, &bits, sizeof d);
        return d;
    };
    while (high - low > 1) {
        const std::uint64_t middle = low + (high - low) / 2;
        if (holds(value(middle))) {
            low = middle;
        } else {
            high = middle;
        }
    }
    return value(low);
}

DetourResult sample_velocity_adaptive(const DetourParams& params, const LocalAgent& agent,
                                      const LocalNeighbor* circles, int n_circles,
                                      const LocalEdge* segments, int n_segments,
                                      std::vector<DetourSample>* record) {
    return sample(&run_adaptive<false>, &run_adaptive<true>, params, agent, circles, n_circles,
                  segments, n_segments, record);
}

DetourResult sample_velocity_grid(const DetourParams& params, const LocalAgent& agent,
                                  const LocalNeighbor* circles, int n_circles,
                                  const LocalEdge* segments, int n_segments,
                                  std::vector<DetourSample>* record) {
    return sample(&run_grid<false>, &run_grid<true>, params, agent, circles, n_circles, segments,
                  n_segments, record);
}

}  // namespace vosim
