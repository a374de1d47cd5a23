"""ntensor: named tensors with an axis-matching broadcaster, over NumPy's memory.

The compiled part is the extension ``ntensor._ntensor``; everything it defines is
re-exported here, so ``import ntensor as nt; nt.asarray(...)``. ``ntensor.dask``
is plain Python (imported on use: Dask is needed only there).
"""
from . import _ntensor
from ._ntensor import *  # noqa: F401,F403
from ._ntensor import Error, Tensor  # noqa: F401

__all__ = [n for n in dir(_ntensor) if not n.startswith("_")] + ["zeros", "ones", "full", "arange", "from_numpy"]


def __getattr__(name):
    # ntensor.dask imports dask only when it is first used.
    if name == "dask":
        import importlib
        return importlib.import_module(".dask", __name__)
    raise AttributeError(f"module 'ntensor' has no attribute '{name}'")


# Creation: NumPy makes the memory, the tensor views it (names as asarray's).
def _made(array, names):
    return _ntensor.asarray(array, names=names)


def zeros(shape, dtype="float32", names=None):
    """A tensor of zeros (``nt::zeros``); the element type by NumPy name."""
    import numpy as np
    return _made(np.zeros(shape, dtype), names)


def ones(shape, dtype="float32", names=None):
    """A tensor of ones (``nt::ones``)."""
    import numpy as np
    return _made(np.ones(shape, dtype), names)


def full(shape, value, dtype="float32", names=None):
    """A tensor filled with ``value`` (``nt::full``)."""
    import numpy as np
    return _made(np.full(shape, value, dtype), names)


def arange(start, stop=None, step=1, dtype="int64", names=None):
    """``nt::arange``: NumPy's arange, as a 1-D tensor."""
    import numpy as np
    return _made(np.arange(start, stop, step, dtype=dtype) if stop is not None
                 else np.arange(start, dtype=dtype), names)


def from_numpy(array, names=None):
    """The same as ``asarray`` (the name PyTorch users look for)."""
    return _ntensor.asarray(array, names=names)
