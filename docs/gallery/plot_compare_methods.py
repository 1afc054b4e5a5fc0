"""
Comparing methods on one scenario
=================================

``vosim.compare`` runs every method on the same scenes and seeds and measures
them the same way; ``plot.compare`` draws the table (needs pandas).
"""

import vosim
from vosim import plot

methods = {"ORCA": vosim.ORCA(), "RVO": vosim.RVO(samples=100), "CollisionFreeSpeed": vosim.CollisionFreeSpeed()}
table = vosim.compare(methods, ["crossing"], seeds=2)
print(vosim.comparison.summarize(table))
fig = plot.compare(table)
