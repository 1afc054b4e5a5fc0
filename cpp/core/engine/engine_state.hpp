// A saved engine state: everything the next step depends on, as plain values.
//
// Engine::snapshot() fills it and Engine::restore() puts it back, so that
// stepping a restored engine gives bit-identical results to stepping the
// original. Checkpoints (pickling, save_state) go through this one struct:
// state added to the engine must be added here, in snapshot() and restore()
// (engine_state.cpp) and in the bindings' conversion (bind_state.cpp).
// Agent columns need nothing more: every column that
// AgentState::for_each_column lists is saved.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "obstacles/scene_obstacles.hpp"  // SavedObstacle
#include "saved_part.hpp"
#include "maths/vec2.hpp"

namespace vosim {

// One agent column, scene-major (scenes x count x width), without the spare
// capacity.
struct SavedColumn {
    std::string name;
    int width = 1;
    std::variant<std::vector<double>, std::vector<std::int32_t>, std::vector<std::int64_t>,
                 std::vector<std::uint8_t>, std::vector<std::int8_t>>
        values;
};

struct EngineSnapshot {
    int scenes = 1;
    int dimensions = 2;        // of the vector columns
    int count = 0;             // agent slots per scene
    std::int64_t next_id = 0;  // the id the next agent added gets
    double time_step = 0.0;
    double time = 0.0;
    std::int64_t step_count = 0;
    std::vector<SavedColumn> columns;
    // Shared obstacles first, then each scene's, each set in the order added
    // (the order fixes the ids, the vertex table and the tree).
    std::vector<SavedObstacle> obstacles;
    std::vector<std::int64_t> fallbacks;  // per scene (empty before the first step with agents)
    // The parts of the scene features with something placed (SceneFeatures::save), each written and checked
    // by its feature.
    std::vector<SavedFeature> features;
};

// Whether a saved state may lack this column (one added after states were
// first saved), and the value restore() then gives every agent.
bool column_may_be_missing(const std::string& name);
double missing_column_value(const std::string& name);

}  // namespace vosim
