"""ntensor: named tensors with an axis-matching broadcaster, over NumPy's memory.

The compiled part is the extension ``ntensor._ntensor``; everything it defines is
re-exported here, so ``import ntensor as nt; nt.asarray(...)``. ``ntensor.dask``
is plain Python (imported on use: Dask is needed only there).
"""
from . import _ntensor
from ._ntensor import *  # noqa: F401,F403
from ._ntensor import Error, Tensor  # noqa: F401

__all__ = [n for n in dir(_ntensor) if not n.startswith("_")]


def __getattr__(name):
    # ntensor.dask imports dask only when it is first used.
    if name == "dask":
        import importlib
        return importlib.import_module(".dask", __name__)
    raise AttributeError(f"module 'ntensor' has no attribute '{name}'")
