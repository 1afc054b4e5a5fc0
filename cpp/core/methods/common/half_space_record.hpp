// Half-planes (ORCA, AVO) and half-spaces (ORCA-3D) as a method records them
// for inspection: `lines` or `planes`, a record of `point`, `direction` or
// `normal` (one row each) and `obstacle` (true for the first `hard` ones).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "half_spaces.hpp"
#include "record.hpp"

namespace vosim {

inline std::vector<double> first_flags(std::size_t count, std::size_t hard) {
    std::vector<double> flags(count, 0.0);
    for (std::size_t k = 0; k < count && k < hard; ++k) flags[k] = 1.0;
    return flags;
}

inline void record_lines(const std::vector<Line>& lines, std::size_t hard, Record& out) {
    std::vector<Vec2> points, directions;
    for (const Line& line : lines) {
        points.push_back(line.point);
        directions.push_back(line.direction);
    }
    Record record;
    record.vectors("point", points);
    record.vectors("direction", directions);
    record.column("obstacle", RecordEntry::Type::flag, first_flags(lines.size(), hard));
    out.record("lines", std::move(record));
}

inline void record_planes(const std::vector<Plane>& planes, std::size_t hard, Record& out) {
    std::vector<Vec3> points, normals;
    for (const Plane& plane : planes) {
        points.push_back(plane.point);
        normals.push_back(plane.normal);
    }
    Record record;
    record.vectors("point", points);
    record.vectors("normal", normals);
    record.column("obstacle", RecordEntry::Type::flag, first_flags(planes.size(), hard));
    out.record("planes", std::move(record));
}

}  // namespace vosim
