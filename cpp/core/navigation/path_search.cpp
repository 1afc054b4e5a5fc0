#include "navigation/path_search.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <utility>

#include "parallel/first_error.hpp"
#include "parallel/parallel.hpp"
#include "parallel/threads.hpp"

namespace vosim {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Node index `exit_node` stands for the goal itself (beyond every real node).
PathResult search(const Graph& graph, const PathQuery& query, std::vector<double>& best,
                  std::vector<std::int32_t>& parent, std::vector<double>& exit_cost) {
    const auto nodes = static_cast<std::int32_t>(graph.node.size());
    const std::int32_t goal_node = nodes;
    // (estimated total, node): std::greater pops the smallest total, then the smallest index.
    using Item = std::pair<double, std::int32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
    std::vector<std::int32_t> touched;
    auto estimate = [&](std::int32_t u) { return length(graph.node[static_cast<std::size_t>(u)] - query.goal); };
    auto reach = [&](std::int32_t u, double cost, std::int32_t from) {
        const auto k = static_cast<std::size_t>(u);
        if (cost < best[k]) {
            if (best[k] == kInf) touched.push_back(u);
            best[k] = cost;
            parent[k] = from;
            open.push({cost + (u == goal_node ? 0.0 : estimate(u)), u});
        }
    };
    for (const auto& [u, cost] : query.exits) {
        const auto k = static_cast<std::size_t>(u);
        if (cost < exit_cost[k]) exit_cost[k] = cost;
    }
    for (const auto& [u, cost] : query.entries) reach(u, cost, -1);
    PathResult result;
    while (!open.empty()) {
        const auto [total, u] = open.top();
        open.pop();
        const auto k = static_cast<std::size_t>(u);
        if (u == goal_node) {
            result.found = true;
            for (std::int32_t v = parent[k]; v >= 0; v = parent[static_cast<std::size_t>(v)]) result.nodes.push_back(v);
            std::reverse(result.nodes.begin(), result.nodes.end());
            break;
        }
        if (total > best[k] + estimate(u)) continue;  // a stale entry: u was reached more cheaply since
        if (exit_cost[k] < kInf) reach(goal_node, best[k] + exit_cost[k], u);
        for (std::int64_t e = graph.row_start[k]; e < graph.row_start[k + 1]; ++e) {
            reach(graph.target[static_cast<std::size_t>(e)], best[k] + graph.cost[static_cast<std::size_t>(e)], u);
        }
    }
    // Leave the scratch arrays as found, for the thread's next query.
    for (std::int32_t u : touched) {
        best[static_cast<std::size_t>(u)] = kInf;
        parent[static_cast<std::size_t>(u)] = -1;
    }
    for (const auto& exit : query.exits) exit_cost[static_cast<std::size_t>(exit.first)] = kInf;
    return result;
}

}  // namespace

std::vector<PathResult> shortest_paths(const Graph& graph, const std::vector<PathQuery>& queries) {
    const auto count = static_cast<std::int64_t>(queries.size());
    const std::size_t slots = graph.node.size() + 1;
    std::vector<PathResult> results(queries.size());
    // Queries by items of kQueriesPerItem on the engine's pool (which a
    // forked child makes anew); each thread keeps its scratch from item to
    // item, reset after each query so a query costs what it visits.
    constexpr std::int64_t kQueriesPerItem = 16;
    const int threads = count > 1 ? max_threads() : 1;
    struct Scratch {
        std::vector<double> best;
        std::vector<std::int32_t> parent;
        std::vector<double> exit_cost;
    };
    std::vector<Scratch> scratch(static_cast<std::size_t>(std::max(threads, 1)));
    const std::int64_t items = items_of(count, kQueriesPerItem);
    FirstError failure;
    parallel_for(items, threads, [&](std::int64_t item) {
        try {
            Scratch& mine = scratch[static_cast<std::size_t>(thread_index())];
            if (mine.best.empty()) {
                mine.best.assign(slots, kInf);
                mine.parent.assign(slots, -1);
                mine.exit_cost.assign(slots, kInf);
            }
            const std::int64_t end = std::min(count, (item + 1) * kQueriesPerItem);
            for (std::int64_t q = item * kQueriesPerItem; q < end; ++q) {
                results[static_cast<std::size_t>(q)] =
                    search(graph, queries[static_cast<std::size_t>(q)], mine.best, mine.parent, mine.exit_cost);
            }
        } catch (...) {
            failure.keep(item, std::current_exception());
        }
    });
    failure.rethrow();
    return results;
}

}  // namespace vosim
