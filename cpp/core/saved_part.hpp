// A unit's part of a saved engine state (engine_state.hpp): named arrays of
// float64 and int64 that the unit writes and checks itself, so that the
// snapshot and its bindings carry every part the same way, whatever holds it
// (the scene features, waypoints, the periodic axis).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace vosim {

struct FeatureArrays {
    std::vector<std::pair<std::string, std::vector<double>>> reals;
    std::vector<std::pair<std::string, std::vector<std::int64_t>>> integers;

    // The named array; std::invalid_argument naming it when missing.
    const std::vector<double>& real(const std::string& name) const;
    const std::vector<std::int64_t>& integer(const std::string& name) const;
    // (an array added after states were first saved)
    bool has_real(const std::string& name) const;
    bool has_integer(const std::string& name) const;
};

// A saved state's entry from before its unit had a part of its own
// ("speed_zone_points"), and the array of the part it holds.
struct LegacyEntry {
    const char* entry;
    const char* array;
};

struct SavedFeature {
    std::string name;  // the unit's name (SceneFeature::name(), "waypoints", "periodic")
    FeatureArrays arrays;
};

// Splits `flat`, points of `width` values each, into the lists that `offsets`
// (in points: ascending from 0 to the number of points, one more than the
// lists) mark out. Every offset is checked before any is used, so crafted
// ones are refused (std::invalid_argument naming `name`), never read past
// the end.
std::vector<std::vector<double>> split_at_offsets(const std::vector<double>& flat,
                                                  const std::vector<std::int64_t>& offsets, std::size_t width,
                                                  const std::string& name);

// Calls `restore` (which reads one unit's part) and names the unit in any
// std::invalid_argument it throws: "saved state: <unit>: <why>". A unit's
// own messages need not name it.
template <class Restore>
auto restoring_part(const std::string& unit, Restore&& restore) {
    try {
        return restore();
    } catch (const std::invalid_argument& error) {
        std::string why = error.what();
        const std::string prefix = "saved state: ";
        if (why.compare(0, prefix.size(), prefix) == 0) why.erase(0, prefix.size());
        throw std::invalid_argument(prefix + unit + ": " + why);
    }
}

}  // namespace vosim
