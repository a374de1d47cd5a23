"""ntensor functions on the blocks of a ``dask.array``.

Plain Python on purpose: the function Dask ships to its workers must pickle, and a
module-level function of an importable module does (the workers import ntensor).
"""


def _run_block(block, fn, names):
    import numpy as np
    import ntensor as nt
    return np.asarray(fn(nt.asarray(np.asarray(block), names=names)))


def map_blocks(fn, array, names=None, dtype=None, **kwargs):
    """Runs ``fn`` on each block of ``array`` as a tensor named ``names``; returns a
    ``dask.array`` (``kwargs`` go to ``dask.array.map_blocks``: chunks, drop_axis...)."""
    import dask.array as da
    return da.map_blocks(_run_block, array, fn=fn, names=names,
                         dtype=array.dtype if dtype is None else dtype, **kwargs)
