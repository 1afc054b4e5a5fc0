#include "methods/velocity_obstacles/velocity_obstacles.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "maths/approximate_direction.hpp"
#include "maths/counter_rng.hpp"
#include "maths/visit_in_order.hpp"
#include "methods/geometry.hpp"
#include "methods/require.hpp"
#include "methods/velocity_obstacles/vo_lanes_kernel.hpp"
#include "state/state_check.hpp"

namespace vosim {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kTwoPi = 6.283185307179586476925286766559;

// Times to collision below this share of the time step count as this share:
// colliding within a thousandth of a step is as bad as colliding now, and the
// sampling penalty stays finite.
constexpr double kCollisionTimeFloor = 1e-3;

// Largest collision term of the sampling penalty (a collision now).
constexpr double kLargestPenalty = 1e300;

// Slack for points computed on a circle (the max-speed circle, a cap) that
// rounding may put a hair outside it.
constexpr double kOnCircleSlack = 1e-9;

// ---------------------------------------------------------------- geometry

// Unit directions of the two tangents from the origin to the disc (centre,
// radius), which must not contain the origin: `right` is clockwise of the
// centre, `left` counter-clockwise. Returns the tangent length.
double tangents(Vec2 centre, double radius, Vec2& right, Vec2& left) {
    const double dist_sq = abs_sq(centre);
    right = right_leg(centre, radius, dist_sq);
    left = left_leg(centre, radius, dist_sq);
    return std::sqrt(dist_sq - sqr(radius));
}

// Earliest t >= 0 at which t * w lies in the disc (centre, radius); +inf when
// never (grazing does not count). 0 when the origin is inside.
double ray_disc_time(Vec2 w, Vec2 centre, double radius) {
    const double c = abs_sq(centre) - sqr(radius);
    if (c <= 0.0) return 0.0;
    const double b = dot(w, centre);
    if (b <= 0.0) return kInf;
    const double disc = sqr(b) - abs_sq(w) * c;
    if (disc <= 0.0) return kInf;
    // c / (b + sqrt(disc)) is the smaller root without cancellation.
    return c / (b + std::sqrt(disc));
}

// Earliest t >= 0 at which t * w lies in the capsule of `radius` around
// [a, b]; +inf when never, 0 when the origin is inside.
double ray_capsule_time(Vec2 w, Vec2 a, Vec2 b, double radius) {
    double t = ray_disc_time(w, a, radius);
    const Vec2 ab = b - a;
    const double len_sq = abs_sq(ab);
    if (len_sq == 0.0) return t;
    t = std::min(t, ray_disc_time(w, b, radius));
    if (t == 0.0) return t;
    // The flat side facing the origin, when the origin is beside the slab.
    const Vec2 normal = perp(ab) / std::sqrt(len_sq);
    const double offset = -dot(a, normal);  // signed distance of the origin from the line
    if (std::abs(offset) <= radius) {
        // Within the slab's thickness: the ray can only meet the slab through
        // its ends, unless the origin is inside it.
        const double along = dot(-a, ab);
        if (along >= 0.0 && along <= len_sq) return 0.0;
        return t;
    }
    const double side = offset > 0.0 ? 1.0 : -1.0;
    const double approach = dot(w, normal) * side;  // < 0 when moving towards the line
    if (approach >= 0.0) return t;
    const double t_side = (std::abs(offset) - radius) / -approach;
    const double along = dot(t_side * w - a, ab);
    if (along >= 0.0 && along <= len_sq) t = std::min(t, t_side);
    return t;
}

// Inside test without the truncation, as the HRVO library writes it.
bool in_wedge(const VoCone& cone, Vec2 v) {
    const Vec2 x = v - cone.apex;
    return det(cone.left_leg, x) < 0.0 && det(cone.right_leg, x) > 0.0;
}

double untruncated_time(const VoCone& cone, Vec2 v) {
    return ray_capsule_time(cone.scale * (v - cone.apex), cone.obstacle_a, cone.obstacle_b,
                            cone.radius);
}

// The direction from the agent to a neighbour at the same position: behind
// the agent's motion relative to it, then relative to the preferred motion,
// else +x. Opposite for the two agents of a pair, so they split.
Vec2 coincident_direction(const LocalAgent& agent, Vec2 other_velocity, Vec2 other_pref) {
    const Vec2 rel_velocity = agent.velocity - other_velocity;
    if (abs_sq(rel_velocity) > 0.0) return -normalize(rel_velocity);
    const Vec2 rel_pref = agent.pref_velocity - other_pref;
    if (abs_sq(rel_pref) > 0.0) return -normalize(rel_pref);
    return Vec2(1.0, 0.0);
}

void set_half_plane(VoCone& cone, Vec2 toward) {
    cone.right_leg = Vec2(toward.y, -toward.x);
    cone.left_leg = -cone.right_leg;
}

VoCone agent_cone(const VoConfig& config, const LocalAgent& agent, const LocalNeighbor& other,
                  double time_step) {
    VoCone cone;
    const Vec2 rel = other.position - agent.position;
    const double dist_sq = abs_sq(rel);
    const double combined = agent.radius + other.radius;
    const Vec2 mean_velocity = 0.5 * (agent.velocity + other.velocity);
    cone.obstacle_a = rel;
    cone.obstacle_b = rel;
    cone.radius = combined;
    cone.scale = config.cone == Cone::vo ? 1.0 : 2.0;

    if (dist_sq <= sqr(combined)) {
        cone.kind = VoConeKind::agent_overlap;
        const double dist = std::sqrt(dist_sq);
        const Vec2 toward =
            dist > 0.0 ? rel / dist
                       : coincident_direction(agent, other.velocity, other.pref_velocity);
        // Leave the overlap within one step; VO takes all of the correction,
        // RVO and HRVO half of it.
        const double push = (combined - dist) / time_step;
        if (config.cone == Cone::vo) {
            cone.apex = other.velocity - (agent.uncertainty_offset + push) * toward;
        } else {
            cone.apex = mean_velocity - (agent.uncertainty_offset + 0.5 * push) * toward;
        }
        set_half_plane(cone, toward);
        return cone;
    }

    cone.kind = VoConeKind::agent;
    const double tangent = tangents(rel, combined, cone.right_leg, cone.left_leg);
    cone.right_tangent = tangent;
    cone.left_tangent = tangent;
    if (config.truncate) cone.horizon = agent.time_horizon;

    switch (config.cone) {
        case Cone::vo:
            cone.apex = other.velocity;
            break;
        case Cone::rvo:
            cone.apex = mean_velocity;
            break;
        case Cone::hrvo: {
            // The leg of the RVO (through the mean velocity) on the side the
            // agent prefers to pass, the leg of the VO (through the
            // neighbour's velocity) on the other side. With the apex at
            // v_B + s * leg, s solves the crossing of the two lines;
            // det(right, left) = sin(2 * opening angle) > 0 here.
            const Vec2 rel_velocity = agent.velocity - other.velocity;
            const double sin_twice_opening = det(cone.right_leg, cone.left_leg);
            if (!(sin_twice_opening > 0.0)) {
                // Zero combined radius: the legs coincide and never cross;
                // the cone is a ray that holds no velocity strictly inside.
                cone.apex = mean_velocity;
            } else if (det(rel, agent.pref_velocity - other.pref_velocity) > 0.0) {
                // Pass with the neighbour on the right: VO's right leg, RVO's left leg.
                const double s = 0.5 * det(rel_velocity, cone.left_leg) / sin_twice_opening;
                cone.apex = other.velocity + s * cone.right_leg;
            } else {
                // VO's left leg, RVO's right leg (see HrvoApex for the sign).
                const double s = 0.5 * det(rel_velocity, cone.right_leg) / sin_twice_opening;
                const double sign = config.hrvo_apex == HrvoApex::library ? 1.0 : -1.0;
                cone.apex = other.velocity + (sign * s) * cone.left_leg;
            }
            // Legs so nearly parallel (a vanishing combined radius) that
            // their crossing overflows: as for zero width.
            if (!is_finite(cone.apex)) cone.apex = mean_velocity;
            break;
        }
    }
    // The uncertainty offset moves the apex back along the line to the
    // neighbour by offset * distance / combined radius, which widens the cone
    // by the offset where the apex was. A (nearly) zero combined radius would
    // send the apex to infinity along a cone of no width: left alone.
    if (combined > 0.0) {
        const Vec2 shifted = cone.apex - (agent.uncertainty_offset / combined) * rel;
        if (is_finite(shifted)) cone.apex = shifted;
    }
    return cone;
}

VoCone segment_cone(const VoConfig& config, const LocalAgent& agent, const LocalEdge& segment,
                    double time_step) {
    VoCone cone;
    const Vec2 a = segment.a - agent.position;
    const Vec2 b = segment.b - agent.position;
    cone.obstacle_a = a;
    cone.obstacle_b = b;
    cone.radius = agent.radius;
    cone.scale = 1.0;

    // Nearest point of the segment to the agent's centre (the origin).
    const Vec2 ab = b - a;
    const double len_sq = abs_sq(ab);
    const double along = len_sq > 0.0 ? std::clamp(dot(-a, ab) / len_sq, 0.0, 1.0) : 0.0;
    const Vec2 nearest = a + along * ab;
    const double dist_sq = abs_sq(nearest);

    if (dist_sq <= sqr(agent.radius)) {
        cone.kind = VoConeKind::segment_overlap;
        const double dist = std::sqrt(dist_sq);
        Vec2 toward;
        if (dist > 0.0) {
            toward = nearest / dist;
        } else if (len_sq > 0.0) {
            // Centre on the segment: the solid is on the left of a -> b, so
            // the agent leaves to the right.
            toward = perp(ab) / std::sqrt(len_sq);
        } else {
            toward = coincident_direction(agent, Vec2(), Vec2());
        }
        cone.apex = -((agent.radius - dist) / time_step) * toward;
        set_half_plane(cone, toward);
        return cone;
    }

    cone.kind = VoConeKind::segment;
    // The capsule's cone is the wider of its two end discs' cones on each
    // side; a convex set seen from outside spans less than a half-turn, so
    // the comparisons by det are sound.
    Vec2 right_b, left_b;
    cone.right_tangent = tangents(a, agent.radius, cone.right_leg, cone.left_leg);
    cone.left_tangent = cone.right_tangent;
    if (len_sq > 0.0) {
        const double tangent_b = tangents(b, agent.radius, right_b, left_b);
        if (det(cone.right_leg, right_b) < 0.0) {
            cone.right_leg = right_b;
            cone.right_tangent = tangent_b;
        }
        if (det(cone.left_leg, left_b) > 0.0) {
            cone.left_leg = left_b;
            cone.left_tangent = tangent_b;
        }
    }
    if (config.truncate) cone.horizon = agent.time_horizon_obst;
    return cone;
}

// ------------------------------------------------------- geometric selection

bool on_arc(const VoBoundaryPiece& arc, Vec2 q) {
    const Vec2 radial = q - arc.origin;
    const Vec2 from_view = q - arc.viewpoint;
    const double slack = kOnCircleSlack * arc.radius;
    if (dot(radial, from_view) > slack * length(from_view)) return false;
    return dot(radial, arc.clip) <= slack * length(arc.clip);
}

void add_line(std::vector<VoBoundaryPiece>& pieces, int cone, Vec2 origin, Vec2 direction,
              Vec2 inner, double length) {
    VoBoundaryPiece piece;
    piece.shape = VoBoundaryPiece::Shape::line;
    piece.cone = cone;
    piece.origin = origin;
    piece.direction = direction;
    piece.inner = inner;
    piece.length = length;
    pieces.push_back(piece);
}

void add_arc(std::vector<VoBoundaryPiece>& pieces, int cone, Vec2 centre, double radius,
             Vec2 viewpoint, Vec2 clip) {
    VoBoundaryPiece piece;
    piece.shape = VoBoundaryPiece::Shape::arc;
    piece.cone = cone;
    piece.origin = centre;
    piece.radius = radius;
    piece.viewpoint = viewpoint;
    piece.clip = clip;
    pieces.push_back(piece);
}

// The boundary of cone k: its right leg, its left leg, and for a truncated
// cone the side of its cap (the obstacle scaled by 1 / (scale * horizon)
// around the apex) that faces the apex.
void add_boundary(const VoCone& cone, int k, std::vector<VoBoundaryPiece>& pieces) {
    const Vec2 right_inner = perp(cone.right_leg);
    const Vec2 left_inner = -perp(cone.left_leg);
    if (!cone.is_truncated() || cone.is_overlap()) {
        add_line(pieces, k, cone.apex, cone.right_leg, right_inner, kInf);
        add_line(pieces, k, cone.apex, cone.left_leg, left_inner, kInf);
        return;
    }
    const double shrink = 1.0 / (cone.scale * cone.horizon);
    add_line(pieces, k, cone.apex + (cone.right_tangent * shrink) * cone.right_leg,
             cone.right_leg, right_inner, kInf);
    add_line(pieces, k, cone.apex + (cone.left_tangent * shrink) * cone.left_leg, cone.left_leg,
             left_inner, kInf);
    const Vec2 cap_a = cone.apex + shrink * cone.obstacle_a;
    const Vec2 cap_b = cone.apex + shrink * cone.obstacle_b;
    const double cap_radius = shrink * cone.radius;
    const Vec2 ab = cap_b - cap_a;
    if (abs_sq(ab) == 0.0) {
        add_arc(pieces, k, cap_a, cap_radius, cone.apex, Vec2());
        return;
    }
    add_arc(pieces, k, cap_a, cap_radius, cone.apex, ab);
    add_arc(pieces, k, cap_b, cap_radius, cone.apex, -ab);
    // The flat side of the capsule that faces the apex, if one does.
    const double len = length(ab);
    Vec2 normal = perp(ab) / len;
    const double offset = dot(cone.apex - cap_a, normal);
    if (std::abs(offset) <= cap_radius) return;  // seen end-on
    if (offset < 0.0) normal = -normal;
    add_line(pieces, k, cap_a + cap_radius * normal, ab / len, -normal, len);
}

class CandidateSink {
public:
    CandidateSink(std::vector<VoCandidate>& out, Vec2 pref) : out_(out), pref_(pref) {}
    void add(Vec2 v, int cone_a, int cone_b) {
        if (!is_finite(v)) return;
        VoCandidate c;
        c.velocity = v;
        c.cone_a = cone_a;
        c.cone_b = cone_b;
        c.key = abs_sq(pref_ - v);
        out_.push_back(c);
    }

private:
    std::vector<VoCandidate>& out_;
    Vec2 pref_;
};

// Points where the line piece crosses the circle (centre, radius), the one
// further along first.
int line_circle(const VoBoundaryPiece& line, Vec2 centre, double radius, Vec2 out[2]) {
    const Vec2 f = line.origin - centre;
    const double disc = sqr(radius) - sqr(det(f, line.direction));
    if (!(disc > 0.0)) return 0;
    const double mid = -dot(f, line.direction);
    const double half = std::sqrt(disc);
    int n = 0;
    for (const double t : {mid + half, mid - half}) {
        if (t >= 0.0 && t <= line.length) out[n++] = line.origin + t * line.direction;
    }
    return n;
}

int circle_circle(Vec2 c1, double r1, Vec2 c2, double r2, Vec2 out[2]) {
    const Vec2 d = c2 - c1;
    const double dist_sq = abs_sq(d);
    if (dist_sq == 0.0) return 0;
    const double dist = std::sqrt(dist_sq);
    if (dist > r1 + r2 || dist < std::abs(r1 - r2)) return 0;
    const double a = (sqr(r1) - sqr(r2) + dist_sq) / (2.0 * dist);
    const double h = std::sqrt(std::max(0.0, sqr(r1) - sqr(a)));
    const Vec2 unit = d / dist;
    const Vec2 base = c1 + a * unit;
    out[0] = base + h * perp(unit);
    out[1] = base - h * perp(unit);
    return h > 0.0 ? 2 : 1;
}

// Crossings of two pieces of different cones.
int crossings(const VoBoundaryPiece& p, const VoBoundaryPiece& q, Vec2 out[2]) {
    using Shape = VoBoundaryPiece::Shape;
    if (p.shape == Shape::line && q.shape == Shape::line) {
        const double d = det(p.direction, q.direction);
        if (d == 0.0) return 0;
        const Vec2 between = q.origin - p.origin;
        const double s = det(between, q.direction) / d;
        const double t = det(between, p.direction) / d;
        if (s < 0.0 || t < 0.0 || s > p.length || t > q.length) return 0;
        out[0] = p.origin + s * p.direction;
        return 1;
    }
    Vec2 points[2];
    int n = 0;
    int kept = 0;
    if (p.shape == Shape::line) {
        n = line_circle(p, q.origin, q.radius, points);
        for (int i = 0; i < n; ++i) {
            if (on_arc(q, points[i])) out[kept++] = points[i];
        }
    } else if (q.shape == Shape::line) {
        n = line_circle(q, p.origin, p.radius, points);
        for (int i = 0; i < n; ++i) {
            if (on_arc(p, points[i])) out[kept++] = points[i];
        }
    } else {
        n = circle_circle(p.origin, p.radius, q.origin, q.radius, points);
        for (int i = 0; i < n; ++i) {
            if (on_arc(p, points[i]) && on_arc(q, points[i])) out[kept++] = points[i];
        }
    }
    return kept;
}

int first_blocking_cone(const std::vector<VoCone>& cones, const VoCandidate& c);

}  // namespace

// (Crossings are built as a point of a line, origin + s direction, or of a circle.)
double vo_piece_distance_below(const VoBoundaryPiece& piece, Vec2 q) {
    double distance;
    if (piece.shape == VoBoundaryPiece::Shape::line) {
        const double along = std::clamp(dot(q - piece.origin, piece.direction), 0.0, piece.length);
        distance = length(q - (piece.origin + along * piece.direction));
    } else {
        distance = std::abs(length(q - piece.origin) - piece.radius);  // to the whole circle
    }
    const double scale = length(q) + length(piece.origin) + piece.radius;
    return distance - 1e-9 * scale;
}

namespace {

// The candidates of geometric selection, in the HRVO library's order (which
// decides between candidates at exactly the same distance).
//
// With `prune`, the crossings of two cones' boundaries (most of the work)
// are skipped where they cannot be chosen: where each of the two pieces lies
// entirely beyond the max-speed disc (their crossings are left out anyway)
// or further from pref than the nearest candidate found before them that no
// cone blocks (an equally near crossing comes later, and the earlier one
// wins the tie); and a crossing found no nearer than that candidate is not
// kept. Selection then chooses the same velocity; only the list of losing
// candidates is shorter, so diagnostics, which list all, do not prune.
void build_geometric_candidates(const VoConfig& config, const LocalAgent& agent, VoScratch& scratch, bool prune) {
    const std::vector<VoCone>& cones = scratch.cones;
    std::vector<VoBoundaryPiece>& pieces = scratch.pieces;
    pieces.clear();
    scratch.piece_begin.clear();
    for (int k = 0; k < static_cast<int>(cones.size()); ++k) {
        scratch.piece_begin.push_back(static_cast<int>(pieces.size()));
        add_boundary(cones[k], k, pieces);
    }
    scratch.piece_begin.push_back(static_cast<int>(pieces.size()));

    const Vec2 pref = agent.pref_velocity;
    const double max_speed = agent.max_speed;
    const double max_speed_sq = sqr(max_speed);
    scratch.candidates.clear();
    CandidateSink sink(scratch.candidates, pref);

    // The preferred velocity, shortened to the maximum speed.
    sink.add(clamp_speed(pref, max_speed), -1, -1);

    // Projections of the preferred velocity onto each piece from the cone's
    // side: the nearest point of the boundary when v_pref is inside.
    for (const VoBoundaryPiece& piece : pieces) {
        Vec2 foot;
        if (piece.shape == VoBoundaryPiece::Shape::line) {
            const Vec2 x = pref - piece.origin;
            const double t = dot(x, piece.direction);
            // A cone's apex is a corner, never the nearest boundary point
            // (the library skips t = 0 too); a half-plane's is not a corner.
            const bool apex_counts = t == 0.0 && cones[piece.cone].is_overlap();
            if (!((t > 0.0 || apex_counts) && t <= piece.length && dot(x, piece.inner) > 0.0)) continue;
            foot = piece.origin + t * piece.direction;
        } else {
            const Vec2 x = pref - piece.origin;
            const double dist_sq = abs_sq(x);
            if (!(dist_sq < sqr(piece.radius))) continue;
            // At the very centre every point of the circle is nearest; the
            // one towards the apex is on the arc.
            const Vec2 out = dist_sq > 0.0 ? x : piece.viewpoint - piece.origin;
            const double out_length = length(out);
            if (!(out_length > 0.0)) continue;
            foot = piece.origin + (piece.radius / out_length) * out;
            if (!on_arc(piece, foot)) continue;
        }
        if (abs_sq(foot) < max_speed_sq) sink.add(foot, piece.cone, piece.cone);
    }

    // The fastest way out of an overlap whose half-plane lies beyond the
    // maximum speed (see "Overlaps" in the header).
    if (config.escape_overlaps) {
        for (int k = 0; k < static_cast<int>(cones.size()); ++k) {
            if (!cones[k].is_overlap()) continue;
            const Vec2 toward = perp(cones[k].right_leg);  // unit, towards the obstacle
            if (dot(toward, cones[k].apex) < -max_speed) sink.add(-max_speed * toward, k, k);
        }
    }

    // Where the pieces leave the max-speed disc.
    const double on_circle_sq = max_speed_sq * (1.0 + kOnCircleSlack);
    for (const VoBoundaryPiece& piece : pieces) {
        Vec2 points[2];
        int n = 0;
        if (piece.shape == VoBoundaryPiece::Shape::line) {
            n = line_circle(piece, Vec2(), max_speed, points);
        } else {
            Vec2 found[2];
            const int m = circle_circle(piece.origin, piece.radius, Vec2(), max_speed, found);
            for (int i = 0; i < m; ++i) {
                if (on_arc(piece, found[i])) points[n++] = found[i];
            }
        }
        for (int i = 0; i < n; ++i) {
            if (abs_sq(points[i]) <= on_circle_sq) sink.add(points[i], -1, piece.cone);
        }
    }

    // Which pieces can give no crossing that is chosen (see above).
    std::vector<char>& useless = scratch.useless_pieces;
    useless.assign(pieces.size(), 0);
    double nearest_free_key = kInf;  // the key of the nearest unblocked candidate so far
    scratch.nearest_free = {kInf, std::numeric_limits<int>::max()};
    if (prune) {
        double nearest_free = kInf;
        std::vector<std::pair<double, int>>& order = scratch.order;
        order.resize(scratch.candidates.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = {scratch.candidates[i].key, static_cast<int>(i)};
        visit_in_order(order, [&](const std::pair<double, int>& entry) {
            if (first_blocking_cone(cones, scratch.candidates[entry.second]) >= 0) return false;
            nearest_free_key = entry.first;
            scratch.nearest_free = entry;
            nearest_free = std::sqrt(entry.first);
            return true;
        });
        for (std::size_t k = 0; k < pieces.size(); ++k) {
            useless[k] = vo_piece_distance_below(pieces[k], Vec2()) > max_speed ||
                         vo_piece_distance_below(pieces[k], pref) > nearest_free;
        }
    }

    // Crossings of the boundaries of two cones.
    const int cone_count = static_cast<int>(cones.size());
    for (int i = 0; i + 1 < cone_count; ++i) {
        for (int j = i + 1; j < cone_count; ++j) {
            for (int q = scratch.piece_begin[j]; q < scratch.piece_begin[j + 1]; ++q) {
                for (int p = scratch.piece_begin[i]; p < scratch.piece_begin[i + 1]; ++p) {
                    if (useless[p] && useless[q]) continue;
                    Vec2 points[2];
                    const int n = crossings(pieces[p], pieces[q], points);
                    for (int m = 0; m < n; ++m) {
                        // A crossing no nearer than the nearest free candidate
                        // sorts after it (the same key as the sink's).
                        if (abs_sq(points[m]) < max_speed_sq && abs_sq(pref - points[m]) < nearest_free_key) {
                            sink.add(points[m], i, j);
                        }
                    }
                }
            }
        }
    }
}

// The first cone, other than the candidate's own, that contains it; -1 if none.
int first_blocking_cone(const std::vector<VoCone>& cones, const VoCandidate& c) {
    for (int j = 0; j < static_cast<int>(cones.size()); ++j) {
        if (j == c.cone_a || j == c.cone_b) continue;
        if (vo_cone_contains(cones[j], c.velocity)) return j;
    }
    return -1;
}

// Earliest collision over all cones, and which cone it is with.
double earliest_collision(const std::vector<VoCone>& cones, Vec2 v, int& cone) {
    double earliest = kInf;
    cone = -1;
    for (int j = 0; j < static_cast<int>(cones.size()); ++j) {
        const double t = vo_time_to_collision(cones[j], v);
        if (t < earliest) {
            earliest = t;
            cone = j;
        }
    }
    return earliest;
}

Vec2 select_geometric(const VoConfig& config, const LocalAgent& agent, VoScratch& scratch,
                      VoDiagnostics* diagnostics) {
    build_geometric_candidates(config, agent, scratch, diagnostics == nullptr);
    const std::vector<VoCandidate>& candidates = scratch.candidates;
    // Nearest first; equal distances keep the order of construction. The
    // keys sit beside the indices, so that the sort reads no candidate.
    // Those after the nearest free candidate that pruning found cannot be
    // chosen and are left out of the sort (none are without pruning).
    std::vector<std::pair<double, int>>& order = scratch.order;
    order.clear();
    const std::pair<double, int> last = scratch.nearest_free;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const std::pair<double, int> entry{candidates[i].key, static_cast<int>(i)};
        if (!(last < entry)) order.push_back(entry);
    }
    int chosen = -1;
    int fallback = -1;
    int fallback_block = -1;
    visit_in_order(order, [&](const std::pair<double, int>& entry) {
        const int index = entry.second;
        const int block = first_blocking_cone(scratch.cones, candidates[index]);
        if (block < 0) {
            chosen = index;
            return true;
        }
        if (block > fallback_block) {
            fallback_block = block;
            fallback = index;
        }
        return false;
    });
    const bool used_fallback = chosen < 0;
    if (used_fallback) chosen = fallback;
    scratch.used_fallback = used_fallback;
    const Vec2 velocity = candidates[chosen].velocity;

    if (diagnostics) {
        diagnostics->candidates.clear();
        for (const VoCandidate& c : candidates) {
            VoCandidateInfo info;
            info.velocity = c.velocity;
            info.penalty = std::sqrt(c.key);
            int ignored;
            info.time_to_collision = earliest_collision(scratch.cones, c.velocity, ignored);
            info.blocking_cone = first_blocking_cone(scratch.cones, c);
            info.cone_a = c.cone_a;
            info.cone_b = c.cone_b;
            diagnostics->candidates.push_back(info);
        }
        diagnostics->chosen = chosen;
        diagnostics->used_fallback = used_fallback;
    }
    return velocity;
}

// -------------------------------------------------------- sampling selection

// The index of the lowest set bit of a nonzero mask.
int lowest_set_bit(std::uint64_t mask) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(mask);
#else
    int i = 0;
    while (!(mask & 1u)) {
        mask >>= 1;
        ++i;
    }
    return i;
#endif
}

// The bounds that drop a sample before its sine and cosine (most samples
// of a crowded agent are dropped by them, and sincos was a third of the
// sampler's time): from its radius alone, then from its angle too. One at a
// time here, the lane kernel's code (vo_lanes_kernel.hpp) on one lane.
class DistanceBound {
public:
    explicit DistanceBound(Vec2 pref)
        : pref_length_(length(pref)), heading_(std::atan2(pref.y, pref.x)) {}

    double pref_length() const { return pref_length_; }
    double heading() const { return heading_; }

    // Whether a sample at radius r may still lie nearer pref than `best`.
    bool near(double r, double best) const {
        return vo_radius_lower(Pack1::set(pref_length_), Pack1::set(r)).v < best;
    }

    // Whether a sample at (r, angle) is sure to lie at least `best` from
    // pref, with room to spare for the rounding of the exact distance.
    bool at_least(double r, double angle, double best) const {
        return vo_sure_beyond(Pack1::set(pref_length_), Pack1::set(heading_), Pack1::set(r), Pack1::set(angle),
                              Pack1::set(best)).m;
    }

private:
    double pref_length_;
    double heading_;
};

// How far v lies inside the deepest overlap half-plane (0: inside none).
double overlap_shortfall(const std::vector<VoCone>& cones, Vec2 v) {
    double deepest = 0.0;
    for (const VoCone& cone : cones) {
        if (cone.is_overlap()) deepest = std::max(deepest, dot(perp(cone.right_leg), v - cone.apex));
    }
    return deepest;
}

Vec2 select_sampling(const VoConfig& config, const LocalAgent& agent, double time_step,
                     std::uint64_t sample_seed, VoScratch& scratch, VoDiagnostics* diagnostics) {
    const Vec2 pref = agent.pref_velocity;
    const double max_speed = agent.max_speed;
    const double time_floor = kCollisionTimeFloor * time_step;

    // The collision term of the penalty for a collision in time t, bounded
    // so that extreme parameters cannot overflow.
    const double worst = std::min(config.safety_factor / time_floor, kLargestPenalty);
    auto collision_cost = [&](double t) { return std::min(config.safety_factor / std::max(t, time_floor), worst); };

    if (diagnostics) diagnostics->candidates.clear();
    const CounterRng rng(sample_seed);
    Vec2 best;
    double best_penalty = kInf;
    int best_index = -1;
    const DistanceBound bound(pref);

    // Without diagnostics, the neighbours' cones are taken several at a time.
    const std::vector<VoCone>& cones = scratch.cones;
    VoConeLanes lanes;
    VoCollisionKernel earliest_collision_in = nullptr;
    VoDropKernel surely_dropped = nullptr;
    if (diagnostics == nullptr) {
        scratch.single_cones.clear();
        for (int j = 0; j < static_cast<int>(cones.size()); ++j) {
            if (cones[j].kind != VoConeKind::agent) scratch.single_cones.push_back(j);
        }
        lanes = vo_cone_lanes(cones, scratch.lanes);
        earliest_collision_in = vo_collision_kernel();
        if (lanes.count > 0 && config.safety_factor > 0.0) surely_dropped = vo_drop_kernel();
    }
    // A sample wins only with a penalty below the best so far, and the terms
    // added to its distance from pref are >= 0, the collision term growing as
    // the collision nears (rounding keeps both true). So a sample as far as
    // that, or whose earliest collision found so far already costs that
    // much, cannot win: it is dropped, and the rest of its work left undone.
    // The choice is the same; diagnostics, which list every sample in full,
    // drop none.
    const bool costly = config.safety_factor > 0.0;
    auto score = [&](int k, Vec2 v) {
        const bool can_drop = diagnostics == nullptr && best_index >= 0;
        double penalty = length(pref - v);
        if (can_drop && !(penalty < best_penalty)) return;
        int cone = -1;
        double t = kInf;
        if (diagnostics == nullptr) {
            // The rule below stops at the first collision soon enough to drop
            // the sample; the kernel checks after each pack. As the cost only
            // grows as t shrinks, both drop the same samples.
            for (const int j : scratch.single_cones) {
                const double t_cone = vo_time_to_collision(cones[j], v);
                if (!(t_cone < t)) continue;
                t = t_cone;
                if (can_drop && costly && !(penalty + collision_cost(t) < best_penalty)) return;
            }
            if (lanes.count > 0) {
                const VoDropRule rule{penalty, best_penalty, config.safety_factor, time_floor, worst};
                const double t_lanes =
                    earliest_collision_in(lanes, v.x, v.y, t, can_drop && costly ? &rule : nullptr);
                if (t_lanes < 0.0) return;
                t = t_lanes;
            }
        } else {
            for (int j = 0; j < static_cast<int>(cones.size()); ++j) {
                const double t_cone = vo_time_to_collision(cones[j], v);
                if (!(t_cone < t)) continue;
                t = t_cone;
                cone = j;
            }
        }
        if (t < kInf && costly) {
            penalty += collision_cost(t);
            // Inside an overlap's half-plane: also the speed lacking to
            // separate in time, as a share of `worst` that grows from 0
            // towards 1 (half at max_speed), so that the least deep wins.
            const double shortfall = overlap_shortfall(scratch.cones, v);
            if (shortfall > 0.0) penalty += worst * (shortfall / (shortfall + max_speed));
        }
        if (best_index < 0 || penalty < best_penalty) {
            best_penalty = penalty;
            best = v;
            best_index = k;
        }
        if (diagnostics) {
            VoCandidateInfo info;
            info.velocity = v;
            info.penalty = penalty;
            info.time_to_collision = t;
            info.blocking_cone = cone;
            diagnostics->candidates.push_back(info);
        }
    };

    // Sample k >= 1 draws its radius from value 2k - 1 of the stream and its
    // angle from value 2k; uniform in the disc, the radius goes as the
    // square root.
    score(0, clamp_speed(pref, max_speed));
    if (diagnostics != nullptr) {
        for (int k = 1; k <= config.samples; ++k) {
            const double r = max_speed * std::sqrt(rng.unit_at(2 * static_cast<std::uint64_t>(k) - 1));
            const double a = kTwoPi * rng.unit_at(2 * static_cast<std::uint64_t>(k));
            score(k, Vec2(r * std::cos(a), r * std::sin(a)));
        }
    } else {
        // 64 samples at a time: drawn, and bounded by their radius and angle
        // (DistanceBound), several at a time without a branch (vo_lanes.hpp);
        // then, by a bit mask, only those the best at the block's start
        // leaves in play, checked again as it improves (it only falls).
        const VoSampleKernel draw_samples = vo_sample_kernel();
        const VoSampleDraw draw{sample_seed, max_speed, bound.pref_length(), bound.heading()};
        double radii[64], angles[64];
        for (int first = 1; first <= config.samples; first += 64) {
            // Every penalty is >= 0, and a sample must come in below the best:
            // with a best of 0 (a free preferred velocity, often), or NaN, none
            // can, and the rest are left undrawn.
            if (!(best_penalty > 0.0)) break;
            const int m = std::min(64, config.samples - first + 1);
            std::uint64_t in_play = draw_samples(draw, first, m, best_penalty, radii, angles);
            while (in_play != 0) {
                const int i = lowest_set_bit(in_play);
                in_play &= in_play - 1;
                const double r = radii[i], a = angles[i];
                if (!bound.near(r, best_penalty) || bound.at_least(r, a, best_penalty)) continue;
                // Most samples left are dropped for a collision: that is
                // judged first on an approximate velocity, without glibc's
                // sincos, for every velocity as near it as the exact one.
                if (surely_dropped != nullptr) {
                    const Vec2 approx = r * approximate_direction(a);
                    const double slack = r * (2.0 * kDirectionError) + 1e-300;
                    const double below = (length(pref - approx) - slack) * (1.0 - 1e-12);  // <= |pref - v|
                    if (below > 0.0) {
                        const VoDropRule rule{below, best_penalty, config.safety_factor, time_floor, worst};
                        if (surely_dropped(lanes, approx.x, approx.y, slack, rule)) continue;
                    }
                }
                score(first + i, Vec2(r * std::cos(a), r * std::sin(a)));
            }
        }
    }
    if (diagnostics) {
        diagnostics->chosen = best_index;
        diagnostics->used_fallback = false;
    }
    return best;
}

}  // namespace

// ------------------------------------------------------------------ public

VoConfig default_vo_config(Cone cone) {
    VoConfig config;
    config.cone = cone;
    config.selection = cone == Cone::hrvo ? Selection::geometric : Selection::sampling;
    return config;
}

void check_vo_config(const VoConfig& config) {
    const int cone = static_cast<int>(config.cone);
    require(cone >= 0 && cone <= 2, "cone", cone, "must be vo, rvo or hrvo");
    const int selection = static_cast<int>(config.selection);
    require(selection >= 0 && selection <= 1, "selection", selection,
            "must be sampling or geometric");
    const int apex = static_cast<int>(config.hrvo_apex);
    require(apex >= 0 && apex <= 1, "hrvo_apex", apex, "must be library or symmetric");
    require(config.samples >= 0, "samples", config.samples, "must be >= 0");
    require_non_negative(config.safety_factor, "safety_factor");
}

void check_vo_inputs(const LocalAgent& agent, const LocalNeighbor* neighbors, int neighbor_count,
                     const LocalEdge* segments, int segment_count, double time_step,
                     bool truncate) {
    require(std::isfinite(time_step) && time_step > 0.0, "time_step", time_step,
            "must be finite and > 0");
    require_finite(agent.position, "position");
    require_finite(agent.velocity, "velocity");
    require_finite(agent.pref_velocity, "pref_velocity");
    require_non_negative(agent.radius, "radius");
    require_non_negative(agent.max_speed, "max_speed");
    require_non_negative(agent.uncertainty_offset, "uncertainty_offset");
    if (truncate) {
        require(std::isfinite(agent.time_horizon) && agent.time_horizon > 0.0, "time_horizon",
                agent.time_horizon, "must be finite and > 0");
        require(std::isfinite(agent.time_horizon_obst) && agent.time_horizon_obst > 0.0,
                "time_horizon_obst", agent.time_horizon_obst, "must be finite and > 0");
    }
    for (int k = 0; k < neighbor_count; ++k) {
        const std::string name = "neighbors[" + std::to_string(k) + "]";
        require_finite(neighbors[k].position, name + ".position");
        require_finite(neighbors[k].velocity, name + ".velocity");
        require_finite(neighbors[k].pref_velocity, name + ".pref_velocity");
        require_non_negative(neighbors[k].radius, name + ".radius");
    }
    for (int k = 0; k < segment_count; ++k) {
        const std::string name = "segments[" + std::to_string(k) + "]";
        require_finite(segments[k].a, name + ".a");
        require_finite(segments[k].b, name + ".b");
    }
}

void build_vo_cones(const VoConfig& config, const LocalAgent& agent, const LocalNeighbor* neighbors,
                    int neighbor_count, const LocalEdge* segments, int segment_count,
                    double time_step, std::vector<VoCone>& cones) {
    cones.clear();
    for (int k = 0; k < segment_count; ++k) {
        cones.push_back(segment_cone(config, agent, segments[k], time_step));
        cones.back().source = k;
    }
    for (int k = 0; k < neighbor_count; ++k) {
        cones.push_back(agent_cone(config, agent, neighbors[k], time_step));
        cones.back().source = k;
    }
}

double vo_time_to_collision(const VoCone& cone, Vec2 v) {
    if (cone.is_overlap()) return in_wedge(cone, v) ? 0.0 : kInf;
    const double t = untruncated_time(cone, v);
    return t <= cone.horizon ? t : kInf;
}

bool vo_cone_contains(const VoCone& cone, Vec2 v) {
    if (!in_wedge(cone, v)) return false;
    if (cone.is_overlap() || !cone.is_truncated()) return true;
    return untruncated_time(cone, v) < cone.horizon;
}

Vec2 vo_new_velocity(const VoConfig& config, const LocalAgent& agent, const LocalNeighbor* neighbors,
                     int neighbor_count, const LocalEdge* segments, int segment_count,
                     double time_step, std::uint64_t sample_seed, VoScratch& scratch,
                     VoDiagnostics* diagnostics) {
    build_vo_cones(config, agent, neighbors, neighbor_count, segments, segment_count, time_step,
                   scratch.cones);
    const Vec2 velocity =
        config.selection == Selection::geometric
            ? select_geometric(config, agent, scratch, diagnostics)
            : (scratch.used_fallback = false,
               select_sampling(config, agent, time_step, sample_seed, scratch, diagnostics));
    if (diagnostics) {
        diagnostics->cones = scratch.cones;
        diagnostics->velocity = velocity;
    }
    return velocity;
}

VoConeLanes vo_cone_lanes(const std::vector<VoCone>& cones, VoLaneBuffer& buffer, double margin_share) {
    int count = 0;
    for (const VoCone& cone : cones) count += cone.kind == VoConeKind::agent;
    const VoConeLanes lanes = buffer.reset(count);
    int i = 0;
    for (const VoCone& cone : cones) {
        if (cone.kind != VoConeKind::agent) continue;
        buffer.set_disc(i++, cone.apex.x, cone.apex.y, cone.obstacle_a.x, cone.obstacle_a.y, cone.radius, cone.scale,
                        cone.horizon, margin_share);
    }
    return lanes;
}

std::uint64_t vo_sample_seed(std::uint64_t config_seed, std::int64_t agent_id, std::int64_t step) {
    return mix_seed(mix_seed(config_seed, static_cast<std::uint64_t>(agent_id)),
                    static_cast<std::uint64_t>(step));
}

}  // namespace vosim
