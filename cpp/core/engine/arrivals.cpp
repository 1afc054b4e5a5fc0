// When agents are at their goals: the one definition of "arrived" (an agent
// within its arrival radius of its final goal, no goal ahead that a scene
// feature guides it to), used by step(), run() and the metrics alike; and
// each agent's final goal.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "engine/engine.hpp"

namespace vosim {

bool Engine::all_arrived() const {
    const AgentState& s = state_;
    if (s.count() == 0) return true;
    return with_vector_type(dimensions(), [&](auto v) {
        using V = decltype(v);
        for (int b = 0; b < s.scenes(); ++b) {
            for (int slot = 0; slot < s.count(); ++slot) {
                const std::size_t i = s.index(b, slot);
                if (!s.active[i] || !s.has_goal[i]) continue;
                if (abs_sq(s.position<V>(i) - s.goal<V>(i)) > sqr(s.arrival_radius[i])) return false;
                if (features_.goal_ahead(s, i)) return false;
            }
        }
        return true;
    });
}

bool Engine::mark_arrivals(std::vector<std::uint8_t>& reached) const {
    const AgentState& s = state_;
    reached.resize(static_cast<std::size_t>(s.scenes()) * s.capacity(), 0);
    return with_vector_type(dimensions(), [&](auto v) {
        using V = decltype(v);
        bool everyone = true;
        for (int b = 0; b < s.scenes(); ++b) {
            for (int slot = 0; slot < s.count(); ++slot) {
                const std::size_t i = s.index(b, slot);
                if (reached[i] || !s.active[i] || !s.has_goal[i]) continue;
                if (abs_sq(s.position<V>(i) - s.goal<V>(i)) <= sqr(s.arrival_radius[i]) &&
                    !features_.goal_ahead(s, i)) {
                    reached[i] = 1;
                } else {
                    everyone = false;
                }
            }
        }
        return everyone;
    });
}

std::vector<double> Engine::final_goals() const {
    const AgentState& s = state_;
    const std::size_t d = static_cast<std::size_t>(s.dimensions());
    std::vector<double> out(static_cast<std::size_t>(s.scenes()) * s.count() * d);
    for (int b = 0; b < s.scenes(); ++b) {
        for (int slot = 0; slot < s.count(); ++slot) {
            const std::size_t i = s.index(b, slot);
            const double* goal = features_.final_goal(s.ids[i]);
            if (!goal) goal = s.goals.data() + d * i;
            std::copy(goal, goal + d, out.begin() + d * (static_cast<std::size_t>(b) * s.count() + slot));
        }
    }
    return out;
}

}  // namespace vosim
