"""The installed package's version (a module of its own, so that the modules writing files can name it)."""

from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("vosim")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0+unknown"
