// The Method interface: one declaration per dimension (MethodIn<V>), and the
// records through which a method, not the core, names what it reports.
#include <doctest/doctest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/engine.hpp"
#include "method.hpp"
#include "methods/registry.hpp"
#include "record.hpp"

#include "crowd.hpp"

using namespace vosim;

namespace {

// A method of the plane only: every agent keeps its preferred velocity, and
// its inspection records how many neighbours it saw.
class Keeper final : public Method {
public:
    std::string name() const override { return "Keeper"; }
    Vec2 new_velocity(const SceneOf<Vec2>& scene, int slot, Workspace&) const override {
        return scene.state.pref_velocity(scene.index(slot));
    }
    void inspect(const SceneOf<Vec2>& scene, int slot, Workspace& ws, DiagnosticsOf<Vec2>& out) const override {
        out.new_velocity = new_velocity(scene, slot, ws);
        out.method_record.integer("seen", ws.agent_neighbors.size());
    }
};

const RecordEntry& entry(const Record& record, const std::string& name) {
    const RecordEntry* found = record.find(name);
    REQUIRE(found != nullptr);
    return *found;
}

}  // namespace

TEST_CASE("Record: named entries in order, with types, shapes and nested records") {
    Record inner;
    inner.vector("v", Vec3(1.0, 2.0, 3.0));
    Record r;
    r.real("x", 0.5);
    r.vectors("rows", std::vector<Vec2>{Vec2(1.0, 2.0), Vec2(3.0, 4.0)});
    r.column("flags", RecordEntry::Type::flag, {1.0, 0.0});
    r.text("word", "plane");
    r.record("inner", std::move(inner));
    REQUIRE(r.entries().size() == 5);
    CHECK(r.entries()[0].name == "x");
    CHECK(entry(r, "rows").shape == std::vector<std::size_t>{2, 2});
    CHECK(entry(r, "rows").numbers == std::vector<double>{1.0, 2.0, 3.0, 4.0});
    CHECK(entry(r, "flags").type == RecordEntry::Type::flag);
    CHECK(entry(r, "word").shape.empty());
    CHECK(entry(r, "word").texts == std::vector<std::string>{"plane"});
    const RecordEntry& nested = entry(r, "inner");
    CHECK(nested.type == RecordEntry::Type::record);
    REQUIRE(nested.entries.size() == 1);
    CHECK(nested.entries[0].numbers == std::vector<double>{1.0, 2.0, 3.0});
    CHECK(r.find("missing") == nullptr);
}

TEST_CASE("A method of the plane overrides MethodIn<Vec2> only; the engine calls it through in<V>()") {
    const auto keeper = std::make_shared<Keeper>();
    const Method& method = *keeper;
    CHECK(method.supports_dimensions(2));
    CHECK_FALSE(method.supports_dimensions(3));
    const Crowd plane({Vec2(0.0, 0.0), Vec2(3.0, 0.0)}, {Vec2(0.0, 10.0), Vec2(3.0, -10.0)});
    Engine engine(1, 0.1);
    engine.set_method(keeper);
    engine.add_agents(plane.size(), plane.input());
    const DiagnosticsOf<Vec2> d = engine.inspect<Vec2>(0, 0);
    CHECK(d.method == "Keeper");
    // The method's own entry, and what the engine adds in the plane; nothing of other methods.
    CHECK(entry(d.method_record, "seen").numbers == std::vector<double>{1.0});
    CHECK(d.method_record.entries().size() == 1);
    CHECK(entry(d.surroundings, "kinematics").texts == std::vector<std::string>{"holonomic"});
    CHECK(d.surroundings.find("obstacle_edges") != nullptr);
    REQUIRE(engine.step());
    const Vec2 v = engine.state().velocity(engine.state().index(0, 0));
    CHECK((v.x == d.new_velocity.x && v.y == d.new_velocity.y));
    CHECK(v.y > 0.0);
    // Space is refused before the (never reached) 3D member runs.
    const SceneOf<Vec3> scene{{engine.state(), 0, 0.1, 0}};
    Workspace ws;
    CHECK_THROWS_AS(method.in<Vec3>().new_velocity(scene, 0, ws), std::logic_error);
}

TEST_CASE("Each method records its own entries, in either dimension") {
    const Crowd plane({Vec2(0.0, 0.0), Vec2(2.0, 0.0)}, {Vec2(10.0, 0.0), Vec2(-8.0, 0.0)});
    Engine engine(1, 0.1);
    engine.add_agents(plane.size(), plane.input());
    const DiagnosticsOf<Vec2> orca = engine.inspect<Vec2>(0, 0);
    const RecordEntry& lines = entry(orca.method_record, "lines");
    REQUIRE(lines.type == RecordEntry::Type::record);
    REQUIRE(lines.entries.size() == 3);  // point, direction, obstacle
    CHECK(lines.entries[0].shape == std::vector<std::size_t>{1, 2});  // one neighbour, no obstacle
    CHECK(lines.entries[2].numbers == std::vector<double>{0.0});

    engine.set_method(make_method("ForceBased", {}, 0, 2));
    const DiagnosticsOf<Vec2> force = engine.inspect<Vec2>(0, 0);
    const RecordEntry& forces = entry(force.method_record, "forces");
    REQUIRE(forces.entries.size() == 5);
    CHECK(forces.entries.back().name == "total");
    CHECK(force.method_record.find("lines") == nullptr);

    const Crowd space({Vec3(0.0, 0.0, 0.0), Vec3(2.0, 0.0, 0.0)}, {Vec3(10.0, 0.0, 0.0), Vec3(-8.0, 0.0, 0.0)});
    Engine engine3(1, 0.1, 3);
    engine3.add_agents(space.size(), space.input());
    const DiagnosticsOf<Vec3> orca3 = engine3.inspect<Vec3>(0, 0);
    const RecordEntry& planes = entry(orca3.method_record, "planes");
    REQUIRE(planes.entries.size() == 3);
    CHECK(planes.entries[1].shape == std::vector<std::size_t>{1, 3});
    CHECK(orca3.surroundings.find("obstacle_contacts") != nullptr);
    CHECK(orca3.surroundings.find("kinematics") == nullptr);
}
