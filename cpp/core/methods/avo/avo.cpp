#include "methods/avo/avo.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "methods/common/half_space_record.hpp"
#include "methods/avo/avo2_neighbors.hpp"
#include "methods/orca/linear_program.hpp"
#include "methods/common/reachable_velocities.hpp"
#include "methods/orca/orca.hpp"
#include "state/state_check.hpp"

namespace vosim {

namespace {

using avo::AvoPair;
using avo::AvoRules;
using avo::HalfPlane;
using avo::Linef;
using avo::V2;
using avo::Vecf;

struct AvoScratch final : MethodScratch {
    std::vector<Line> paper_lines;            // kPaper, velocity space
    std::vector<Line> paper_projected_lines;  // kPaper's program 3
    avo::EnvelopeTimes envelope;              // kPaper: the sample times' terms, kept between neighbours
    std::vector<Linef> lines;      // kAvo2, delta-v space
    std::vector<Linef> projected;  // kAvo2's program 3
    std::vector<std::pair<float, int>> neighbors;  // kAvo2: (float distance squared, slot)
};

// kAvo2's neighbour trees, one per scene.
struct LibraryTrees final : StepData {
    std::vector<avo::LibraryNeighborTree> trees;
    std::vector<int> slots;          // build input (reused)
    std::vector<Vecf> positions;     // build input (reused)
};

void require_finite_acceleration(const SceneView& scene, int slot) {
    const double a = scene.state.max_acceleration[scene.index(slot)];
    if (!std::isfinite(a)) {
        throw std::invalid_argument("AVO(variant=\"avo2\") needs a finite max_acceleration; " +
                                    describe_agent(scene.state, scene.scene, slot) + " has max_acceleration " +
                                    format_number(a) + " (set it with add_agents(max_acceleration=...))");
    }
}

bool finite(const HalfPlane<double>& line) {
    return std::isfinite(line.point.x) && std::isfinite(line.point.y) && std::isfinite(line.direction.x) &&
           std::isfinite(line.direction.y);
}

}  // namespace

std::unique_ptr<MethodScratch> Avo::make_scratch() const { return std::make_unique<AvoScratch>(); }

void Avo::prepare_step(const AgentState& state, std::unique_ptr<StepData>& data) const {
    if (variant_ != AvoVariant::kAvo2) return;
    if (!dynamic_cast<LibraryTrees*>(data.get())) data = std::make_unique<LibraryTrees>();
    auto& trees = static_cast<LibraryTrees&>(*data);
    trees.trees.resize(state.scenes());
    for (int b = 0; b < state.scenes(); ++b) {
        trees.slots.clear();
        trees.positions.clear();
        for (int slot = 0; slot < state.count(); ++slot) {
            const std::size_t i = state.index(b, slot);
            if (!state.active[i]) continue;
            trees.slots.push_back(slot);
            trees.positions.emplace_back(static_cast<float>(state.positions[2 * i]),
                                         static_cast<float>(state.positions[2 * i + 1]));
        }
        trees.trees[b].build(trees.slots, trees.positions);
    }
}

AvoDecision Avo::decide(const SceneView& scene, int slot, Workspace& ws) const {
    if (variant_ == AvoVariant::kPaper) return decide_paper(scene, slot, ws);
    require_finite_acceleration(scene, slot);
    return decide_avo2(scene, slot, ws);
}

Vec2 Avo::new_velocity(const SceneOf<Vec2>& scene, int slot, Workspace& ws) const {
    return decide(scene, slot, ws).velocity;
}

AvoDecision Avo::decide_paper(const SceneView& scene, int slot, Workspace& ws) const {
    const AgentState& s = scene.state;
    const std::size_t self = scene.index(slot);
    const Vec2 position = s.position(self);
    const Vec2 velocity = s.velocity(self);
    const Vec2 pref = s.pref_velocity(self);
    const double accel = s.max_acceleration[self];
    const double delta = s.acceleration_interval[self];
    const double reach = accel * delta;
    const double max_speed = s.max_speed[self];
    AvoDecision decision;
    AvoScratch& own = scratch<AvoScratch>(ws);
    own.paper_lines.clear();
    // An infinite max_acceleration bounds nothing: no polygon.
    const bool bounded = reach < std::numeric_limits<double>::infinity();
    if (bounded && !append_reachable_polygon(velocity, reach, pref, own.paper_lines)) {
        // No acceleration (or too little to change the velocity's value).
        decision.target = decision.velocity = velocity;
        return decision;
    }
    const std::size_t polygon_lines = own.paper_lines.size();
    append_obstacle_lines(scene, slot, ws, own.paper_lines);
    decision.hard_lines = own.paper_lines.size();

    for (int k = 0; k < ws.agent_neighbors.size(); ++k) {
        const int other_slot = ws.agent_neighbors[k].slot;
        const std::size_t other = scene.index(other_slot);
        const double accel_sum = accel + s.max_acceleration[other];
        AvoPair<double> pair;
        const Vec2 other_position = scene.neighbor_position(ws.agent_neighbors[k]);
        pair.rel_position = V2<double>(position.x - other_position.x, position.y - other_position.y);
        pair.rel_velocity = V2<double>(velocity.x - s.velocities[2 * other], velocity.y - s.velocities[2 * other + 1]);
        pair.combined_radius = s.radius[self] + s.radius[other];
        pair.combined_accel = accel_sum;
        pair.delta = delta;
        pair.time_step = scene.time_step;
        pair.time_horizon = s.time_horizon[self];
        // The pair shares the avoidance in proportion to what each can reach
        // (all of it to an unbounded agent, half between two).
        const double other_accel = s.max_acceleration[other];
        if (std::isinf(accel) || std::isinf(other_accel)) {
            pair.share = std::isinf(accel) ? (std::isinf(other_accel) ? 0.5 : 1.0) : 0.0;
        } else {
            pair.share = accel_sum > 0.0 ? accel / accel_sum : 0.5;
        }
        HalfPlane<double> line;
        if (!avo::avo_half_plane(pair, AvoRules::kRepaired, line, &own.envelope)) continue;  // out of reach
        if (!finite(line)) {
            // Degenerate geometry: keep out of the disc at the time horizon,
            // or, when its centre is the origin, step straight apart.
            const V2<double> centre =
                avo::detail::disc_centre(pair.rel_position, pair.rel_velocity, delta, pair.time_horizon);
            const double radius = avo::detail::disc_radius(pair.combined_radius, delta, pair.time_horizon);
            line = avo::cutoff_half_plane(centre, radius, pair.share);
            if (!finite(line)) {
                const double p_length = avo::norm(pair.rel_position);
                const V2<double> away = p_length > 0.0 ? pair.rel_position / p_length
                                                      : V2<double>(other_slot > slot ? -1.0 : 1.0, 0.0);
                line.direction = V2<double>(away.y, -away.x);
                line.point = pair.share * radius * away;
            }
        }
        own.paper_lines.push_back(Line{velocity + Vec2(line.point.x, line.point.y), Vec2(line.direction.x, line.direction.y)});
    }

    Vec2 target;
    decision.used_fallback = solve_within_reach(own.paper_lines, polygon_lines, decision.hard_lines, velocity, reach,
                                                max_speed, pref, 1.0, own.paper_projected_lines, target);
    decision.target = target;
    // One time step of the controller: v approaches u by 1 - exp(-dt / delta).
    const double approach = -std::expm1(-scene.time_step / delta);
    decision.velocity = velocity + approach * (target - velocity);
    ws.used_fallback = decision.used_fallback;
    return decision;
}

AvoDecision Avo::decide_avo2(const SceneView& scene, int slot, Workspace& ws) const {
    const AgentState& s = scene.state;
    AvoScratch& scratch = this->scratch<AvoScratch>(ws);
    const std::size_t self = scene.index(slot);
    auto f = [](double value) { return static_cast<float>(value); };
    const Vecf position(f(s.positions[2 * self]), f(s.positions[2 * self + 1]));
    const Vecf velocity(f(s.velocities[2 * self]), f(s.velocities[2 * self + 1]));
    const Vecf pref(f(s.pref_velocities[2 * self]), f(s.pref_velocities[2 * self + 1]));
    const float max_speed = f(s.max_speed[self]);
    const float accel = f(s.max_acceleration[self]);
    const float delta = f(s.acceleration_interval[self]);
    const float radius = f(s.radius[self]);

    // AVO2's own neighbour search (float distances, its tie order).
    auto& order = scratch.neighbors;
    const float range = f(s.neighbor_dist[self]);
    static_cast<const LibraryTrees*>(scene.step_data)
        ->trees[scene.scene]
        .query(slot, position, range * range, static_cast<std::size_t>(s.max_neighbors[self]), order);

    // The speed limit, linearised along the heading (NaN at rest).
    auto& lines = scratch.lines;
    lines.clear();
    const float speed = avo::norm(velocity);
    const Vecf heading = velocity / speed;
    lines.push_back(Linef{(max_speed - speed) * heading, Vecf(-heading.y, heading.x)});
    lines.push_back(Linef{(max_speed - speed) * -heading, Vecf(heading.y, -heading.x)});
    const std::size_t speed_lines = lines.size();

    for (const auto& [dist_sq, other_slot] : order) {
        (void)dist_sq;
        const std::size_t other = scene.index(other_slot);
        AvoPair<float> pair;
        pair.rel_position = position - Vecf(f(s.positions[2 * other]), f(s.positions[2 * other + 1]));
        pair.rel_velocity = velocity - Vecf(f(s.velocities[2 * other]), f(s.velocities[2 * other + 1]));
        pair.combined_radius = radius + f(s.radius[other]);
        pair.combined_accel = accel + f(s.max_acceleration[other]);
        pair.delta = delta;
        pair.time_step = f(scene.time_step);
        pair.time_horizon = f(s.time_horizon[self]);
        pair.share = 0.5F;
        Linef line;
        if (avo::avo_half_plane(pair, AvoRules::kLibrary, line)) lines.push_back(line);
    }

    Vecf change;
    const float reach = accel * delta;
    if (avo::library_program2(lines, reach, pref - velocity, false, change) == 0) {
        avo::library_program3(lines, speed_lines, reach, change, scratch.projected);
    }
    const Vecf result = change + velocity;

    AvoDecision decision;
    decision.velocity = decision.target = Vec2(result.x, result.y);
    decision.hard_lines = speed_lines;
    return decision;
}

void Avo::inspect(const SceneOf<Vec2>& scene, int slot, Workspace& ws, DiagnosticsOf<Vec2>& out) const {
    const AvoDecision decision = decide(scene, slot, ws);
    out.new_velocity = decision.velocity;
    out.target_velocity = decision.target;
    out.used_fallback = decision.used_fallback;
    // lines: its half-planes, the first (acceleration polygon and obstacles,
    // or AVO2's speed lines) hard.
    if (variant_ == AvoVariant::kPaper) {
        record_lines(this->scratch<AvoScratch>(ws).paper_lines, decision.hard_lines, out.method_record);
        return;
    }
    // AVO2's lines live in delta-v space: shown in velocity space.
    const Vec2 velocity = scene.state.velocity(scene.index(slot));
    const AvoScratch& scratch = this->scratch<AvoScratch>(ws);
    std::vector<Line> lines;
    for (const Linef& line : scratch.lines) {
        lines.push_back(Line{Vec2(line.point.x, line.point.y) + velocity, Vec2(line.direction.x, line.direction.y)});
    }
    record_lines(lines, decision.hard_lines, out.method_record);
    // Which neighbours AVO2 considered, in its order.
    out.agent_neighbors.clear();
    for (const auto& entry : scratch.neighbors) out.agent_neighbors.push_back(entry.second);
}

}  // namespace vosim
