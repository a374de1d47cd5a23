"""ntensor on Dask workers: a zarr store written by ntensor, processed block by block
on a distributed.LocalCluster with two worker processes, checked against NumPy."""
import os
import sys
import tempfile

import dask.array as da
import numpy as np
from distributed import Client, LocalCluster

import ntensor as nt


def normalise(t):
    # Per-block: subtract the mean over H and W (named), scale by 2.
    return (t - nt.mean(t, ("H", "W"), keepdims=True)) * 2


def main():
    rng = np.random.default_rng(3)
    volume = rng.random((4, 64, 64), dtype=np.float32)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "volume.npy")
        nt.save_npy(path, nt.asarray(volume, names=("D", "H", "W")))
        arr = da.from_array(np.load(path), chunks=(1, 64, 64))
        with LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                          dashboard_address=None) as cluster, Client(cluster):
            out = nt.dask.map_blocks(normalise, arr, names=("D", "H", "W")).compute()
    expected = (volume - volume.mean(axis=(1, 2), keepdims=True)) * 2
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
    print("dask: 4 blocks on 2 worker processes match NumPy")


if __name__ == "__main__":
    main()
    sys.exit(0)
