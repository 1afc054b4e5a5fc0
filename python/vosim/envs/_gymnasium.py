"""Gymnasium, imported with advice when it is missing."""

try:
    import gymnasium
    import gymnasium.vector
    import gymnasium.vector.utils
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError('vosim.envs needs gymnasium: pip install "vosim[rl]"') from error

__all__ = ["gymnasium"]
