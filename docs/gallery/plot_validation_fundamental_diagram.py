"""
Validation: walking speed against density
=========================================

RiMEA test 4's fundamental diagram, small: ORCA's mean speed at a few
densities in a periodic corridor against Weidmann's curve
(``vosim validate --tests 4`` runs the full test).
"""

from vosim import validation

result = validation.rimea_4("orca", densities=(0.5, 1.5, 2.5))
print(result.criterion, "->", "pass" if result.passed else "fail")
fig = validation.figures([result])["rimea_4_orca"]
