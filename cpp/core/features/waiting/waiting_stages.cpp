#include "features/waiting/waiting_stages.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "engine/engine_state.hpp"  // split_at_offsets
#include "limits.hpp"
#include "state/state_check.hpp"  // format_number

namespace vosim {

namespace {

std::string number(double value) { return format_number(value); }

// The agent's storage index; false when it is gone or inactive.
bool live_index(const AgentState& state, std::int64_t id, std::size_t& index) {
    int scene = 0, slot = 0;
    if (!state.locate(id, scene, slot)) return false;
    index = state.index(scene, slot);
    return state.active[index] != 0;
}

int scene_of(const AgentState& state, std::int64_t id) {
    int scene = -1, slot = 0;
    state.locate(id, scene, slot);
    return scene;
}

double distance(Vec2 a, Vec2 b) { return std::hypot(a.x - b.x, a.y - b.y); }

void check_stage(const WaitingStage& s, const AgentState& state) {
    if (state.dimensions() != 2) {
        throw std::invalid_argument("waiting stages need a 2D simulator; this one has dimensions=" +
                                    std::to_string(state.dimensions()));
    }
    if (s.kind != StageKind::queue && s.kind != StageKind::area) {
        throw std::invalid_argument("kind is " + std::to_string(static_cast<int>(s.kind)) +
                                    "; it must be 0 (queue) or 1 (area)");
    }
    if (s.scene < 0 || s.scene >= state.scenes()) {
        throw std::invalid_argument("scene is " + std::to_string(s.scene) + "; the simulator has scenes 0 to " +
                                    std::to_string(state.scenes() - 1));
    }
    if (s.slots.empty()) throw std::invalid_argument("slots: a stage needs at least one place");
    if (s.slots.size() > static_cast<std::size_t>(kCountRange.hi)) {
        throw std::invalid_argument("slots: " + std::to_string(s.slots.size()) + " places, more than " +
                                    number(kCountRange.hi));
    }
    for (std::size_t k = 0; k < s.slots.size(); ++k) {
        if (!within(s.slots[k].x, kCoordinateRange) || !within(s.slots[k].y, kCoordinateRange)) {
            throw std::invalid_argument("slots[" + std::to_string(k) + "] is (" + number(s.slots[k].x) + ", " +
                                        number(s.slots[k].y) + "); each coordinate must be " +
                                        describe(kCoordinateRange));
        }
    }
    if (!within(s.reach, kPositiveRange)) {
        throw std::invalid_argument("reach is " + number(s.reach) + "; it must be " + describe(kPositiveRange));
    }
    if (!(s.release_after >= 0.0) || (std::isfinite(s.release_after) && s.release_after > kMaxMagnitude)) {
        throw std::invalid_argument("release_after is " + number(s.release_after) + "; it must be " +
                                    describe(kNonNegativeRange) + ", or infinity for no such rule");
    }
    if (!within(static_cast<double>(s.release_count), kCountRange)) {
        throw std::invalid_argument("release_count is " + std::to_string(s.release_count) + "; it must be " +
                                    describe(kCountRange) + " (0: no such rule)");
    }
}

}  // namespace

const WaitingStage& WaitingStages::stage_at(int stage) const {
    if (stage < 0 || stage >= static_cast<int>(stages_.size())) {
        throw std::invalid_argument("stage: no waiting stage " + std::to_string(stage) + " (there are " +
                                    std::to_string(stages_.size()) + ")");
    }
    return stages_[static_cast<std::size_t>(stage)];
}

int WaitingStages::add(const WaitingStage& stage, const AgentState& state, const std::int64_t* ids,
                       std::size_t count) {
    check_stage(stage, state);
    stages_.push_back(stage);
    const int id = static_cast<int>(stages_.size()) - 1;
    try {
        join(id, ids, count, state);
    } catch (...) {
        stages_.pop_back();  // join changed nothing
        throw;
    }
    return id;
}

void WaitingStages::set_rules(int stage, double release_after, std::int64_t release_count, const AgentState& state) {
    WaitingStage changed = stage_at(stage);
    changed.release_after = release_after;
    changed.release_count = release_count;
    check_stage(changed, state);
    stages_[static_cast<std::size_t>(stage)] = changed;
}

void WaitingStages::join(int stage, const std::int64_t* ids, std::size_t count, const AgentState& state) {
    const WaitingStage& s = stage_at(stage);
    std::vector<std::int64_t> taken;  // ids already in a stage, or earlier in this call
    for (const StageMember& m : members_) taken.push_back(m.id);
    std::sort(taken.begin(), taken.end());
    std::vector<std::int64_t> given(ids, ids + count);
    for (std::size_t k = 0; k < count; ++k) {
        const std::string which = "agents[" + std::to_string(k) + "]: agent " + std::to_string(ids[k]);
        int scene = 0, slot = 0;
        if (!state.locate(ids[k], scene, slot)) throw std::invalid_argument("agents[" + std::to_string(k) +
                                                                           "]: no agent with id " +
                                                                           std::to_string(ids[k]));
        const std::size_t i = state.index(scene, slot);
        if (!state.active[i]) throw std::invalid_argument(which + " is inactive");
        if (!state.has_goal[i]) {
            throw std::invalid_argument(which + " has no goal (has_goal is False): a stage releases its "
                                        "members to their goals");
        }
        if (scene != s.scene) {
            throw std::invalid_argument(which + " is in scene " + std::to_string(scene) + "; stage " +
                                        std::to_string(stage) + " is in scene " + std::to_string(s.scene));
        }
        if (std::binary_search(taken.begin(), taken.end(), ids[k])) {
            throw std::invalid_argument(which + " already waits in a stage");
        }
        if (std::find(given.begin(), given.begin() + static_cast<std::ptrdiff_t>(k), ids[k]) !=
            given.begin() + static_cast<std::ptrdiff_t>(k)) {
            throw std::invalid_argument(which + " is given twice");
        }
    }
    for (std::size_t k = 0; k < count; ++k) {
        StageMember m;
        m.id = ids[k];
        m.stage = stage;
        members_.push_back(m);
    }
    retarget(stage, state);
}

void WaitingStages::steer(AgentState& state, const StepClock& clock) const {
    for (const StageMember& m : members_) {
        std::size_t i = 0;
        if (!live_index(state, m.id, i) || !state.has_goal[i] || waiting_to_start(state, i, clock)) continue;
        const WaitingStage& s = stages_[static_cast<std::size_t>(m.stage)];
        const Vec2 place = s.slots[static_cast<std::size_t>(m.slot >= 0 ? m.slot : m.target)];
        // The goals phase's rule: towards the place, at pref_speed at most.
        Vec2 to_place = place - state.position<Vec2>(i);
        const double length = std::hypot(to_place.x, to_place.y);
        if (length > state.pref_speed[i]) to_place = to_place * (state.pref_speed[i] / length);
        store(state.pref_velocities.data(), i, to_place);
    }
}

void WaitingStages::mark_held(const AgentState& state, std::vector<std::uint8_t>& held) const {
    for (const StageMember& m : members_) {
        std::size_t i = 0;
        if (live_index(state, m.id, i) && i < held.size()) held[i] = 1;
    }
}

void WaitingStages::drop_departed(const AgentState& state) {
    std::vector<bool> touched(stages_.size(), false);
    std::vector<StageMember> kept;
    kept.reserve(members_.size());
    for (const StageMember& m : members_) {
        std::size_t i = 0;
        if (live_index(state, m.id, i)) {
            kept.push_back(m);
        } else {
            touched[static_cast<std::size_t>(m.stage)] = true;
        }
    }
    if (kept.size() == members_.size()) return;
    members_ = std::move(kept);
    for (std::size_t s = 0; s < stages_.size(); ++s) {
        if (touched[s]) renumber(static_cast<int>(s));
    }
}

void WaitingStages::forget_removed(const AgentState& state) {
    drop_departed(state);
    for (std::size_t s = 0; s < stages_.size(); ++s) retarget(static_cast<int>(s), state);
}

void WaitingStages::renumber(int stage) {
    if (stages_[static_cast<std::size_t>(stage)].kind != StageKind::queue) return;
    std::vector<StageMember*> placed;
    for (StageMember& m : members_) {
        if (m.stage == stage && m.slot >= 0) placed.push_back(&m);
    }
    std::sort(placed.begin(), placed.end(), [](const StageMember* a, const StageMember* b) { return a->order < b->order; });
    for (std::size_t rank = 0; rank < placed.size(); ++rank) {
        if (placed[rank]->slot != static_cast<int>(rank)) {
            placed[rank]->slot = static_cast<int>(rank);
            placed[rank]->at_slot = false;  // moves up; its time there starts when it arrives
            placed[rank]->since = std::numeric_limits<double>::quiet_NaN();
        }
    }
}

void WaitingStages::retarget(int stage, const AgentState& state) {
    const WaitingStage& s = stages_[static_cast<std::size_t>(stage)];
    const std::size_t places = s.slots.size();
    std::vector<bool> free(places, true);
    std::size_t placed = 0;
    for (const StageMember& m : members_) {
        if (m.stage == stage && m.slot >= 0) {
            free[static_cast<std::size_t>(m.slot)] = false;
            ++placed;
        }
    }
    // Those on their way, nearest first (ties by id), each given its own
    // place: in a queue the tail and the places behind it in turn, so that
    // they line up in the order they come; in an area the free place
    // nearest to each. Beyond the free places, the last (queue) or the
    // nearest (area).
    struct Way {
        double distance;
        std::int64_t id;
        StageMember* member;
        Vec2 position;
    };
    std::vector<Way> ways;
    const Vec2 tail = s.slots[std::min(placed, places - 1)];
    for (StageMember& m : members_) {
        std::size_t i = 0;
        if (m.stage != stage || m.slot >= 0 || !live_index(state, m.id, i)) continue;
        const Vec2 p = state.position<Vec2>(i);
        double nearest = distance(p, tail);
        if (s.kind == StageKind::area) {
            nearest = std::numeric_limits<double>::infinity();
            for (std::size_t k = 0; k < places; ++k) {
                if (free[k]) nearest = std::min(nearest, distance(p, s.slots[k]));
            }
        }
        ways.push_back({nearest, m.id, &m, p});
    }
    std::sort(ways.begin(), ways.end(), [](const Way& a, const Way& b) {
        return a.distance < b.distance || (a.distance == b.distance && a.id < b.id);
    });
    std::size_t next = placed;  // a queue's next place to hand out
    for (Way& w : ways) {
        if (s.kind == StageKind::queue) {
            w.member->target = static_cast<int>(std::min(next++, places - 1));
            continue;
        }
        int best = -1, nearest = 0;
        double best_distance = 0.0, nearest_distance = distance(w.position, s.slots[0]);
        for (std::size_t k = 0; k < places; ++k) {
            const double d = distance(w.position, s.slots[k]);
            if (d < nearest_distance) nearest_distance = d, nearest = static_cast<int>(k);
            if (free[k] && (best < 0 || d < best_distance)) best_distance = d, best = static_cast<int>(k);
        }
        if (best >= 0) free[static_cast<std::size_t>(best)] = false;  // handed out
        w.member->target = best >= 0 ? best : nearest;
    }
}

void WaitingStages::place_arrivals(int stage, const AgentState& state, double now) {
    const WaitingStage& s = stages_[static_cast<std::size_t>(stage)];
    // One at a time, the nearest to its place first (ties by id): a member
    // within reach of its free place takes it (in a queue only the tail can
    // be taken); then the places are handed out again.
    for (;;) {
        retarget(stage, state);
        std::size_t placed = 0;
        std::vector<bool> taken(s.slots.size(), false);
        for (const StageMember& m : members_) {
            if (m.stage == stage && m.slot >= 0) taken[static_cast<std::size_t>(m.slot)] = true, ++placed;
        }
        StageMember* first = nullptr;
        double first_distance = 0.0;
        for (StageMember& m : members_) {
            std::size_t i = 0;
            if (m.stage != stage || m.slot >= 0 || taken[static_cast<std::size_t>(m.target)] ||
                !live_index(state, m.id, i)) {
                continue;
            }
            if (s.kind == StageKind::queue && static_cast<std::size_t>(m.target) != placed) continue;
            const double d = distance(state.position<Vec2>(i), s.slots[static_cast<std::size_t>(m.target)]);
            if (d > s.reach) continue;
            if (first == nullptr || d < first_distance || (d == first_distance && m.id < first->id)) {
                first = &m;
                first_distance = d;
            }
        }
        if (first == nullptr) return;
        first->slot = first->target;
        first->order = next_order_++;
        first->at_slot = true;
        first->since = now;
    }
}

void WaitingStages::release_members(int stage, std::vector<std::size_t> which, double now) {
    if (which.empty()) return;
    std::sort(which.begin(), which.end(), [&](std::size_t a, std::size_t b) {
        return members_[a].order < members_[b].order;
    });
    std::vector<bool> leaving(members_.size(), false);
    for (std::size_t k : which) {
        leaving[k] = true;
        released_.push_back({stage, members_[k].id, now});
    }
    std::vector<StageMember> kept;
    kept.reserve(members_.size() - which.size());
    for (std::size_t k = 0; k < members_.size(); ++k) {
        if (!leaving[k]) kept.push_back(members_[k]);
    }
    members_ = std::move(kept);
    renumber(stage);
}

void WaitingStages::apply_rules(int stage, double now, double half_step) {
    const WaitingStage& s = stages_[static_cast<std::size_t>(stage)];
    std::vector<std::size_t> placed;
    for (std::size_t k = 0; k < members_.size(); ++k) {
        if (members_[k].stage == stage && members_[k].slot >= 0) placed.push_back(k);
    }
    if (s.release_count > 0 && static_cast<std::int64_t>(placed.size()) >= s.release_count) {
        release_members(stage, placed, now);
        return;
    }
    if (!std::isfinite(s.release_after)) return;
    // Waited long enough (to within half a step, as start times are read):
    // in a queue only the front, in an area anyone.
    std::vector<std::size_t> done;
    for (std::size_t k : placed) {
        const StageMember& m = members_[k];
        if (s.kind == StageKind::queue && m.slot != 0) continue;
        if (m.at_slot && now - m.since >= s.release_after - half_step) done.push_back(k);
    }
    release_members(stage, done, now);
}

void WaitingStages::update(const AgentState& state, const StepClock& clock) {
    const double now = clock.now + clock.time_step;
    drop_departed(state);
    for (std::size_t k = 0; k < stages_.size(); ++k) {
        const int stage = static_cast<int>(k);
        const WaitingStage& s = stages_[k];
        for (StageMember& m : members_) {
            std::size_t i = 0;
            if (m.stage != stage || m.slot < 0 || m.at_slot || !live_index(state, m.id, i)) continue;
            if (distance(state.position<Vec2>(i), s.slots[static_cast<std::size_t>(m.slot)]) <= s.reach) {
                m.at_slot = true;
                m.since = now;
            }
        }
        place_arrivals(stage, state, now);
        apply_rules(stage, now, 0.5 * clock.time_step);
        retarget(stage, state);
    }
}

std::int64_t WaitingStages::release(int stage, std::int64_t count, double now, const AgentState& state) {
    stage_at(stage);
    std::vector<std::size_t> placed;
    for (std::size_t k = 0; k < members_.size(); ++k) {
        if (members_[k].stage == stage && members_[k].slot >= 0) placed.push_back(k);
    }
    std::sort(placed.begin(), placed.end(), [&](std::size_t a, std::size_t b) {
        return members_[a].order < members_[b].order;
    });
    if (count >= 0 && static_cast<std::size_t>(count) < placed.size()) placed.resize(static_cast<std::size_t>(count));
    const std::int64_t released = static_cast<std::int64_t>(placed.size());
    release_members(stage, placed, now);
    retarget(stage, state);  // those on their way head for the places freed (a queue's new tail)
    return released;
}

FeatureArrays WaitingStages::save() const {
    FeatureArrays out;
    std::vector<std::int64_t> kinds, scenes, offsets{0}, counts;
    std::vector<double> points, reach, after;
    for (const WaitingStage& s : stages_) {
        kinds.push_back(static_cast<std::int64_t>(s.kind));
        scenes.push_back(s.scene);
        for (const Vec2& p : s.slots) points.insert(points.end(), {p.x, p.y});
        offsets.push_back(offsets.back() + static_cast<std::int64_t>(s.slots.size()));
        reach.push_back(s.reach);
        after.push_back(s.release_after);
        counts.push_back(s.release_count);
    }
    std::vector<std::int64_t> ids, stage, slot, target, order, at_slot;
    std::vector<double> since;
    for (const StageMember& m : members_) {
        ids.push_back(m.id);
        stage.push_back(m.stage);
        slot.push_back(m.slot);
        target.push_back(m.target);
        order.push_back(m.order);
        at_slot.push_back(m.at_slot ? 1 : 0);
        since.push_back(m.since);
    }
    std::vector<std::int64_t> released_stage, released_ids;
    std::vector<double> released_times;
    for (const StageRelease& r : released_) {
        released_stage.push_back(r.stage);
        released_ids.push_back(r.id);
        released_times.push_back(r.time);
    }
    out.integers = {{"stage_kinds", kinds},        {"stage_scenes", scenes},   {"slot_offsets", offsets},
                    {"release_counts", counts},    {"member_ids", ids},        {"member_stages", stage},
                    {"member_slots", slot},        {"member_targets", target}, {"member_orders", order},
                    {"member_at_slot", at_slot},   {"released_stages", released_stage},
                    {"released_ids", released_ids}, {"next_order", {next_order_}}};
    out.reals = {{"slot_points", points},     {"reach", reach},         {"release_after", after},
                 {"member_since", since},     {"released_times", released_times}};
    return out;
}

void WaitingStages::restore(const FeatureArrays& saved, const AgentState& state) {
    const auto& kinds = saved.integer("stage_kinds");
    const auto& scenes = saved.integer("stage_scenes");
    const auto& counts = saved.integer("release_counts");
    const auto& reach = saved.real("reach");
    const auto& after = saved.real("release_after");
    const std::size_t n = kinds.size();
    if (scenes.size() != n || counts.size() != n || reach.size() != n || after.size() != n) {
        throw std::invalid_argument("the stages' entries differ in length");
    }
    const auto slots = split_at_offsets(saved.real("slot_points"), saved.integer("slot_offsets"), 2, "slot");
    if (slots.size() != n) throw std::invalid_argument("slot_offsets does not mark out one list per stage");
    std::vector<WaitingStage> stages;
    for (std::size_t k = 0; k < n; ++k) {
        WaitingStage s;
        if (kinds[k] != 0 && kinds[k] != 1) {
            throw std::invalid_argument("stage " + std::to_string(k) + ": kind is " + std::to_string(kinds[k]) +
                                        "; it must be 0 (queue) or 1 (area)");
        }
        if (scenes[k] < 0 || scenes[k] > kCountRange.hi) {
            throw std::invalid_argument("stage " + std::to_string(k) + ": scene is " + std::to_string(scenes[k]));
        }
        s.kind = static_cast<StageKind>(kinds[k]);
        s.scene = static_cast<int>(scenes[k]);
        for (std::size_t j = 0; j + 1 < slots[k].size(); j += 2) s.slots.push_back(Vec2(slots[k][j], slots[k][j + 1]));
        s.reach = reach[k];
        s.release_after = after[k];
        s.release_count = counts[k];
        try {
            check_stage(s, state);
        } catch (const std::invalid_argument& error) {
            throw std::invalid_argument("stage " + std::to_string(k) + ": " + error.what());
        }
        stages.push_back(std::move(s));
    }

    const auto& ids = saved.integer("member_ids");
    const auto& stage = saved.integer("member_stages");
    const auto& slot = saved.integer("member_slots");
    const auto& target = saved.integer("member_targets");
    const auto& order = saved.integer("member_orders");
    const auto& at_slot = saved.integer("member_at_slot");
    const auto& since = saved.real("member_since");
    const auto& next = saved.integer("next_order");
    const std::size_t m = ids.size();
    if (stage.size() != m || slot.size() != m || target.size() != m || order.size() != m || at_slot.size() != m ||
        since.size() != m) {
        throw std::invalid_argument("the members' entries differ in length");
    }
    if (next.size() != 1 || next[0] < 0) throw std::invalid_argument("next_order must be one count");
    std::vector<StageMember> members;
    std::vector<std::int64_t> seen_ids, seen_orders;
    std::vector<std::vector<std::int64_t>> seen_slots(n);
    for (std::size_t k = 0; k < m; ++k) {
        const std::string which = "member " + std::to_string(k) + " (agent " + std::to_string(ids[k]) + ")";
        if (stage[k] < 0 || stage[k] >= static_cast<std::int64_t>(n)) {
            throw std::invalid_argument(which + ": stage " + std::to_string(stage[k]) + " does not exist");
        }
        const WaitingStage& s = stages[static_cast<std::size_t>(stage[k])];
        const auto places = static_cast<std::int64_t>(s.slots.size());
        if (scene_of(state, ids[k]) != s.scene) {
            throw std::invalid_argument(which + ": no such agent in scene " + std::to_string(s.scene));
        }
        if (slot[k] < -1 || slot[k] >= places || target[k] < 0 || target[k] >= places) {
            throw std::invalid_argument(which + ": place " + std::to_string(slot[k]) + " or target " +
                                        std::to_string(target[k]) + " outside the stage's " +
                                        std::to_string(places) + " places");
        }
        if (at_slot[k] != 0 && at_slot[k] != 1) throw std::invalid_argument(which + ": at_slot is not 0 or 1");
        const bool placed = slot[k] >= 0;
        if (placed != (order[k] >= 0) || order[k] >= next[0] || (at_slot[k] == 1 && !placed) ||
            (placed && !within(since[k], kCoordinateRange) && at_slot[k] == 1)) {
            throw std::invalid_argument(which + ": its place, order, time and arrival do not agree");
        }
        seen_ids.push_back(ids[k]);
        if (placed) {
            seen_orders.push_back(order[k]);
            seen_slots[static_cast<std::size_t>(stage[k])].push_back(slot[k]);
        }
        StageMember member;
        member.id = ids[k];
        member.stage = static_cast<int>(stage[k]);
        member.slot = static_cast<int>(slot[k]);
        member.target = static_cast<int>(target[k]);
        member.order = order[k];
        member.at_slot = at_slot[k] == 1;
        member.since = since[k];
        members.push_back(member);
    }
    const auto has_repeat = [](std::vector<std::int64_t> values) {
        std::sort(values.begin(), values.end());
        return std::adjacent_find(values.begin(), values.end()) != values.end();
    };
    if (has_repeat(seen_ids)) throw std::invalid_argument("an agent is a member twice");
    if (has_repeat(seen_orders)) throw std::invalid_argument("two members took their places at once");
    for (std::size_t k = 0; k < n; ++k) {
        if (has_repeat(seen_slots[k])) throw std::invalid_argument("stage " + std::to_string(k) + ": a place is taken twice");
    }

    const auto& released_stage = saved.integer("released_stages");
    const auto& released_ids = saved.integer("released_ids");
    const auto& released_times = saved.real("released_times");
    if (released_ids.size() != released_stage.size() || released_times.size() != released_stage.size()) {
        throw std::invalid_argument("the releases' entries differ in length");
    }
    std::vector<StageRelease> released;
    for (std::size_t k = 0; k < released_stage.size(); ++k) {
        if (released_stage[k] < 0 || released_stage[k] >= static_cast<std::int64_t>(n) || released_ids[k] < 0 ||
            !within(released_times[k], kCoordinateRange)) {
            throw std::invalid_argument("release " + std::to_string(k) + " names stage " +
                                        std::to_string(released_stage[k]) + ", agent " +
                                        std::to_string(released_ids[k]) + " at " + number(released_times[k]));
        }
        released.push_back({static_cast<int>(released_stage[k]), released_ids[k], released_times[k]});
    }
    stages_ = std::move(stages);
    members_ = std::move(members);
    released_ = std::move(released);
    next_order_ = next[0];
    for (std::size_t k = 0; k < n; ++k) renumber(static_cast<int>(k));
}

}  // namespace vosim
