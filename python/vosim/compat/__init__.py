"""Drop-in replacements for other libraries' APIs on top of vosim.

- :mod:`vosim.compat.rvo2`: Python-RVO2's ``PyRVOSimulator``.
"""
