"""matplotlib's pyplot, imported when a figure is drawn (matplotlib is an optional extra), with a
non-interactive backend where there is no display."""


def pyplot_module():
    try:
        import matplotlib

        if matplotlib.get_backend().lower() not in ("agg", "module://matplotlib_inline.backend_inline"):
            import os

            if not os.environ.get("DISPLAY") and os.name != "nt":
                matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError('plotting needs matplotlib: pip install "vosim[plot]"') from error
    return plt
