// Waiting areas and queues (features/waiting/waiting_stages.hpp) on the Engine.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/engine.hpp"
#include "features/waiting/waiting_stages.hpp"

namespace py = pybind11;

namespace vosim::bindings {

namespace {

using Doubles = py::array_t<double, py::array::c_style | py::array::forcecast>;
using Ids = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;

template <typename T>
py::array_t<T> read_only(const std::vector<T>& values) {
    py::array_t<T> out(static_cast<py::ssize_t>(values.size()));
    if (!values.empty()) std::memcpy(out.mutable_data(), values.data(), values.size() * sizeof(T));
    out.attr("flags").attr("writeable") = false;
    return out;
}

StageKind kind_of(const std::string& kind) {
    if (kind == "queue") return StageKind::queue;
    if (kind == "area") return StageKind::area;
    throw std::invalid_argument("kind is '" + kind + "'; it must be 'queue' or 'area'");
}

WaitingStages& stages(Engine& e) { return e.features().get<WaitingStages>(); }
const WaitingStages& stages(const Engine& e) { return e.features().get<WaitingStages>(); }

}  // namespace

void bind_waiting(py::module_& m) {
    auto engine = py::reinterpret_borrow<py::class_<Engine>>(m.attr("Engine"));
    engine.def(
        "add_waiting_stage",
        [](Engine& e, const std::string& kind, const Doubles& slots, int scene, double reach, double release_after,
           std::int64_t release_count, const Ids& ids) {
            if (ids.ndim() != 1) throw std::invalid_argument("agents: expected a 1-D array of agent ids");
            if (slots.ndim() != 2 || slots.shape(1) != 2) throw std::invalid_argument("slots: expected shape (n, 2)");
            WaitingStage stage;
            stage.kind = kind_of(kind);
            stage.scene = scene;
            for (py::ssize_t k = 0; k < slots.shape(0); ++k) stage.slots.push_back(Vec2(slots.at(k, 0), slots.at(k, 1)));
            stage.reach = reach;
            stage.release_after = release_after;
            stage.release_count = release_count;
            return e.exclusively([&] {
                return stages(e).add(stage, e.state(), ids.data(), static_cast<std::size_t>(ids.size()));
            });
        },
        py::arg("kind"), py::arg("slots"), py::arg("scene"), py::arg("reach"), py::arg("release_after"),
        py::arg("release_count"), py::arg("ids"), "Add a queue or waiting area that the agents `ids` join; returns its id.");
    engine.def(
        "join_waiting_stage",
        [](Engine& e, int stage, const Ids& ids) {
            if (ids.ndim() != 1) throw std::invalid_argument("agents: expected a 1-D array of agent ids");
            e.exclusively([&] {
                stages(e).join(stage, ids.data(), static_cast<std::size_t>(ids.size()), e.state());
                return 0;
            });
        },
        py::arg("stage"), py::arg("ids"));
    engine.def(
        "set_waiting_rules",
        [](Engine& e, int stage, double release_after, std::int64_t release_count) {
            e.exclusively([&] {
                stages(e).set_rules(stage, release_after, release_count, e.state());
                return 0;
            });
        },
        py::arg("stage"), py::arg("release_after"), py::arg("release_count"));
    engine.def(
        "release_waiting",
        [](Engine& e, int stage, std::int64_t count) {
            return e.exclusively([&] { return stages(e).release(stage, count, e.time(), e.state()); });
        },
        py::arg("stage"), py::arg("count"), "Release the first `count` members in their places (-1: all).");
    engine.def(
        "waiting_stages",
        [](const Engine& e) {
            py::list out;
            for (const WaitingStage& s : stages(e).stages()) {
                py::array_t<double> slots({static_cast<py::ssize_t>(s.slots.size()), py::ssize_t{2}});
                for (std::size_t k = 0; k < s.slots.size(); ++k) {
                    slots.mutable_at(k, 0) = s.slots[k].x;
                    slots.mutable_at(k, 1) = s.slots[k].y;
                }
                slots.attr("flags").attr("writeable") = false;
                py::dict d;
                d["kind"] = s.kind == StageKind::queue ? "queue" : "area";
                d["scene"] = s.scene;
                d["slots"] = slots;
                d["reach"] = s.reach;
                d["release_after"] = s.release_after;
                d["release_count"] = s.release_count;
                out.append(d);
            }
            return out;
        },
        "Every stage, by id, as a dict.");
    engine.def(
        "waiting_members",
        [](const Engine& e, int stage) {
            const WaitingStages& all = stages(e);
            if (stage < 0 || stage >= static_cast<int>(all.stages().size())) {
                throw std::invalid_argument("stage: no waiting stage " + std::to_string(stage));
            }
            // In their places, in the order they took them (a queue's front first); then those on their way.
            std::vector<const StageMember*> placed;
            std::vector<std::int64_t> approaching;
            for (const StageMember& m : all.members()) {
                if (m.stage != stage) continue;
                if (m.slot >= 0) {
                    placed.push_back(&m);
                } else {
                    approaching.push_back(m.id);
                }
            }
            std::sort(placed.begin(), placed.end(),
                      [](const StageMember* a, const StageMember* b) { return a->order < b->order; });
            std::vector<std::int64_t> ids, slots;
            std::vector<std::uint8_t> at_slot;
            std::vector<double> since;
            for (const StageMember* m : placed) {
                ids.push_back(m->id);
                slots.push_back(m->slot);
                at_slot.push_back(m->at_slot ? 1 : 0);
                since.push_back(m->since);
            }
            std::vector<std::int64_t> released_ids;
            std::vector<double> released_times;
            for (const StageRelease& r : all.released()) {
                if (r.stage != stage) continue;
                released_ids.push_back(r.id);
                released_times.push_back(r.time);
            }
            py::dict d;
            d["waiting"] = read_only(ids);
            d["slots"] = read_only(slots);
            d["at_slot"] = read_only(at_slot).attr("astype")("bool");
            d["since"] = read_only(since);
            d["approaching"] = read_only(approaching);
            d["released"] = read_only(released_ids);
            d["released_times"] = read_only(released_times);
            return d;
        },
        py::arg("stage"), "A stage's members: waiting (in place order), approaching, released.");
}

}  // namespace vosim::bindings
