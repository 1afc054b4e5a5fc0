"""How the comparison figures label the metrics they draw (plot.compare, the comparison report)."""

METRICS = {
    "collision_agent_steps": "colliding agent-steps",
    "max_penetration": "deepest overlap [m]",
    "min_clearance": "smallest clearance [m] (< 0: overlap)",
    "arrival_rate": "arrived (fraction)",
    "makespan": "makespan [s]",
    "mean_travel_time": "mean travel time [s]",
    "path_efficiency": "path efficiency",
    "mean_speed": "mean speed [m/s]",
    "sum_abs_da": "sum |Δa| (jerkiness) [m/s²]",
}
