#include "methods/velocity_obstacles/velocity_obstacles3d.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace vosim {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kTwoPi = 6.283185307179586;
// As in the plane (velocity_obstacles.cpp).
constexpr double kCollisionTimeFloor = 1e-3;
constexpr double kLargestPenalty = 1e300;
// The plastic number: the lattice's generator (see the header).
constexpr double kPlastic = 1.2207440846057596;

double fraction(double x) { return x - std::floor(x); }

// The k-th lattice point in the ball of radius `radius`.
Vec3 lattice_point(int k, double radius) {
    const double u1 = fraction(0.5 + k / kPlastic);
    const double u2 = fraction(0.5 + k / (kPlastic * kPlastic));
    const double u3 = fraction(0.5 + k / (kPlastic * kPlastic * kPlastic));
    const double r = radius * std::cbrt(u1);
    const double z = 2.0 * u2 - 1.0;
    const double ring = std::sqrt(std::fmax(0.0, 1.0 - z * z));
    const double azimuth = kTwoPi * u3;
    return Vec3(r * ring * std::cos(azimuth), r * ring * std::sin(azimuth), r * z);
}

// When the velocity obstacles are met, as (time to collision, speed lacking
// to leave an overlap within a step).
struct Encounter {
    double time = kInf;
    double shortfall = 0.0;
};

// A neighbour's cone for candidate v.
void meet_neighbor(const VoConfig& config, const LocalAgent3& agent, const LocalNeighbor3& other, Vec3 v, double time_step,
                   Encounter& e) {
    const Vec3 p = other.position - agent.position;
    const double combined = agent.radius + other.radius;
    const double distance = length(p);
    // Relative velocity against the cone's apex: VO v - v_B; RVO 2v - v_A - v_B.
    Vec3 w = config.cone == Cone::rvo ? 2.0 * v - agent.velocity - other.velocity : v - other.velocity;
    if (distance >= combined) {
        if (agent.uncertainty_offset > 0.0 && combined > 0.0) {
            w += p * (agent.uncertainty_offset / combined);  // apex moved back along the line
        }
        const double a = abs_sq(w);
        const double b = dot(p, w);
        if (!(a > 0.0) || b <= 0.0) return;  // not approaching
        const double discriminant = sqr(b) - a * (sqr(distance) - sqr(combined));
        if (discriminant < 0.0) return;  // passing by
        const double t = (b - std::sqrt(discriminant)) / a;
        if (config.truncate && t > agent.time_horizon) return;
        e.time = std::min(e.time, std::max(t, 0.0));
        return;
    }
    // Overlapping: leave by the depth within a step (in relative speed),
    // straight apart (+x for coincident agents).
    const Vec3 apart = distance > 0.0 ? -p / distance : Vec3(1.0, 0.0, 0.0);
    const double lacking = (combined - distance) / time_step - dot(w, apart);
    if (lacking > 0.0) {
        e.time = 0.0;
        e.shortfall = std::max(e.shortfall, config.cone == Cone::rvo ? 0.5 * lacking : lacking);
    }
}

// An obstacle surface's half-space for candidate v.
void meet_surface(const VoConfig& config, const LocalAgent3& agent, const ObstacleContact3& s, Vec3 v, double time_step,
                  Encounter& e) {
    const double gap = s.distance - agent.radius;
    const double towards = -dot(v, s.normal);
    if (gap >= 0.0) {
        if (towards <= 0.0) return;
        const double t = gap / towards;
        if (config.truncate && t > agent.time_horizon_obst) return;
        e.time = std::min(e.time, t);
        return;
    }
    const double lacking = -gap / time_step - dot(v, s.normal);
    if (lacking > 0.0) {
        e.time = 0.0;
        e.shortfall = std::max(e.shortfall, lacking);
    }
}

}  // namespace

Vec3 vo_new_velocity_3d(const VoConfig& config, const LocalAgent3& agent, const LocalNeighbor3* neighbors,
                        int neighbor_count, const ObstacleContact3* surfaces, int surface_count, double time_step,
                        VoCandidates3* seen) {
    const double time_floor = kCollisionTimeFloor * time_step;
    const double worst = std::min(config.safety_factor / time_floor, kLargestPenalty);
    if (seen) *seen = VoCandidates3{};
    Vec3 best;
    double best_penalty = kInf;
    int best_index = -1;
    for (int k = 0; k <= config.samples; ++k) {
        const Vec3 v = k == 0 ? (longer_than(agent.pref_velocity, agent.max_speed)
                                     ? with_length(agent.pref_velocity, agent.max_speed)
                                     : agent.pref_velocity)
                              : lattice_point(k - 1, agent.max_speed);
        Encounter e;
        for (int j = 0; j < surface_count; ++j) meet_surface(config, agent, surfaces[j], v, time_step, e);
        for (int j = 0; j < neighbor_count; ++j) meet_neighbor(config, agent, neighbors[j], v, time_step, e);
        double penalty = length(agent.pref_velocity - v);
        if (e.time < kInf && config.safety_factor > 0.0) {
            penalty += std::min(config.safety_factor / std::max(e.time, time_floor), worst);
            if (e.shortfall > 0.0) penalty += worst * (e.shortfall / (e.shortfall + agent.max_speed));
        }
        if (best_index < 0 || penalty < best_penalty) {
            best_penalty = penalty;
            best = v;
            best_index = k;
        }
        if (seen) {
            seen->velocities.push_back(v);
            seen->penalties.push_back(penalty);
        }
    }
    if (seen) seen->chosen = best_index;
    return best;
}

}  // namespace vosim
