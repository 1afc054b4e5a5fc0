// Waypoints' part of a saved state: the tracks as flat arrays, and the checks
// that a crafted state must pass before any track is made from it.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "limits.hpp"
#include "navigation/waypoints.hpp"

namespace vosim {

namespace {

[[noreturn]] void refuse(const std::string& what) { throw std::invalid_argument("saved state: " + what); }

}  // namespace

FeatureArrays Waypoints::save() const {
    const int dimensions = dimensions_;
    std::vector<std::int64_t> ids;
    for (const auto& entry : tracks_) ids.push_back(entry.first);
    std::sort(ids.begin(), ids.end());
    std::vector<std::int64_t> next, advance, offsets{0};
    std::vector<double> radius, origins, points;
    for (const std::int64_t id : ids) {
        const WaypointTrack& track = tracks_.at(id);
        next.push_back(static_cast<std::int64_t>(track.next));
        advance.push_back(static_cast<std::int64_t>(track.advance));
        radius.push_back(track.radius);
        origins.insert(origins.end(), track.origin.begin(), track.origin.end());
        points.insert(points.end(), track.points.begin(), track.points.end());
        offsets.push_back(static_cast<std::int64_t>(points.size()) / dimensions);
    }
    FeatureArrays out;
    out.integers = {{"ids", ids}, {"next", next}, {"advance", advance}, {"offsets", offsets}};
    out.reals = {{"radius", radius}, {"origins", origins}, {"points", points}};
    return out;
}

void Waypoints::restore(const FeatureArrays& saved, const AgentState& state) {
    const std::size_t d = static_cast<std::size_t>(state.dimensions());
    const std::vector<std::int64_t>& ids = saved.integer("ids");
    const std::vector<std::int64_t>& next = saved.integer("next");
    const std::vector<double>& radius = saved.real("radius");
    const auto points = split_at_offsets(saved.real("points"), saved.integer("offsets"), d, "waypoint");
    if (next.size() != ids.size() || radius.size() != ids.size() || points.size() != ids.size()) {
        refuse("waypoint entries differ in length");
    }
    // States saved before advance rules existed: every track moves on by distance, from its first waypoint.
    const bool rules = saved.has_integer("advance");
    const std::vector<std::int64_t> none;
    const std::vector<double> no_origins;
    const std::vector<std::int64_t>& advance = rules ? saved.integer("advance") : none;
    const std::vector<double>& origins = rules ? saved.real("origins") : no_origins;
    if (rules && (advance.size() != ids.size() || origins.size() != ids.size() * d)) {
        refuse("waypoint entries differ in length");
    }
    Waypoints out;
    std::int64_t last = -1;
    for (std::size_t k = 0; k < ids.size(); ++k) {
        const std::int64_t id = ids[k];
        WaypointTrack track;
        if (!state.locate(id, track.scene, track.slot)) refuse("waypoints of unknown agent " + std::to_string(id));
        if (id <= last) {
            refuse("waypoint tracks must be listed by ascending agent id, one per agent; agent " +
                   std::to_string(id) + " comes after " + std::to_string(last));
        }
        last = id;
        const std::int64_t rule = rules ? advance[k] : 0;
        if (points[k].empty() || next[k] < 0 || next[k] >= static_cast<std::int64_t>(points[k].size() / d) ||
            !within(radius[k], kNonNegativeRange) || rule < 0 || rule >= kWaypointAdvanceCount ||
            (rule == static_cast<std::int64_t>(WaypointAdvance::visible) && d != 2)) {
            refuse("the waypoints of agent " + std::to_string(id) + " are inconsistent");
        }
        for (const double c : points[k]) {
            if (!within(c, kCoordinateRange)) refuse("a waypoint of agent " + std::to_string(id) + " is out of range");
        }
        track.points = points[k];
        if (rules) {
            track.origin.assign(origins.begin() + static_cast<std::ptrdiff_t>(k * d),
                                origins.begin() + static_cast<std::ptrdiff_t>((k + 1) * d));
        } else {
            track.origin.assign(points[k].begin(), points[k].begin() + static_cast<std::ptrdiff_t>(d));
        }
        for (const double c : track.origin) {
            if (!within(c, kCoordinateRange)) refuse("the track start of agent " + std::to_string(id) + " is out of range");
        }
        track.advance = static_cast<WaypointAdvance>(rule);
        track.next = static_cast<std::size_t>(next[k]);
        track.radius = radius[k];
        out.tracks_[id] = std::move(track);
    }
    tracks_ = std::move(out.tracks_);
    dimensions_ = static_cast<int>(d);
}

std::vector<LegacyEntry> Waypoints::legacy_entries() const {
    return {{"waypoint_ids", "ids"},         {"waypoint_next", "next"},         {"waypoint_radius", "radius"},
            {"waypoint_advance", "advance"}, {"waypoint_origins", "origins"}, {"waypoint_offsets", "offsets"},
            {"waypoint_points", "points"}};
}

}  // namespace vosim
