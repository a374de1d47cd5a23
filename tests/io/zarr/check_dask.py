#!/usr/bin/env python3
"""Dask on ntensor's store, on worker processes (check_zarr.py runs it on threads).

usage: check_dask.py FOLDER [--processes 0|1]   (FOLDER/written from test_zarr's
"ntensor writes stores for zarr-python, xarray and Dask")

written/dask.zarr/vol is a float32 (Z, Y, X) array ntensor wrote; written/dask_mean_z.npy
is ntensor's nt::mean over Z of the array as ntensor read it back.
xr.open_zarr(p).mean("Z").compute() on a distributed.LocalCluster of 2 workers (one
thread each) must equal it (allclose, rtol 1e-6), with dims (Y, X), and the graph
must have run on the cluster's workers, one task per Z chunk at least.
written/dask.zarr/smooth is ntensor's map_chunks (halo 1 on Z) of the mean of the
three neighbours along Z, cut at the ends: xarray's rolling(Z=3, center=True,
min_periods=1).mean() on the cluster must equal it.
"""
import argparse
import os
import sys

import numpy as np
import xarray as xr
from dask.distributed import Client, LocalCluster


def main():
    p = argparse.ArgumentParser()
    p.add_argument("folder")
    p.add_argument("--processes", type=int, default=1)
    args = p.parse_args()
    folder = os.path.join(args.folder, "written")
    store = os.path.join(folder, "dask.zarr")
    expected = np.load(os.path.join(folder, "dask_mean_z.npy"))
    failures = []
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=bool(args.processes),
                      dashboard_address=None) as cluster, Client(cluster) as client:
        vol = xr.open_zarr(store, consolidated=False)["vol"]
        if vol.dims != ("Z", "Y", "X") or vol.dtype != np.float32:
            failures.append(f"xarray sees dims {vol.dims}, dtype {vol.dtype}: ntensor wrote (Z, Y, X) float32")
        if vol.chunks is None or len(vol.chunks[0]) < 2:
            failures.append(f"the Dask array has chunks {vol.chunks}: expected several along Z")
        mean = vol.mean("Z").compute()
        # ntensor's map_chunks with a halo of 1 on Z against xarray's rolling mean.
        smooth = xr.open_zarr(store, consolidated=False)["smooth"]
        rolled = vol.astype(np.float64).rolling(Z=3, center=True, min_periods=1).mean().compute()
        if smooth.dims != ("Z", "Y", "X") or not np.allclose(smooth.values, rolled.values, rtol=1e-6, atol=0):
            failures.append(f"map_chunks with halo Z=1 against xarray's rolling mean: dims {smooth.dims}, max "
                            f"difference {np.abs(smooth.values - rolled.values).max()}")
        workers = client.run(lambda: os.getpid())
        if len(workers) != 2:
            failures.append(f"{len(workers)} workers, expected 2")
        if args.processes and os.getpid() in workers.values():
            failures.append("processes=True but a worker runs in this process")
    if mean.dims != ("Y", "X"):
        failures.append(f"mean over Z has dims {mean.dims}, expected (Y, X)")
    if mean.shape != expected.shape:
        failures.append(f"mean over Z has shape {mean.shape}, ntensor's {expected.shape}")
    elif not np.allclose(mean.values, expected, rtol=1e-6, atol=0):
        failures.append(f"mean over Z differs from ntensor's: max difference "
                        f"{np.abs(mean.values - expected).max()}")
    if failures:
        print("\n".join(failures))
        sys.exit(1)
    print(f"Dask (processes={bool(args.processes)}, 2 workers) mean over Z equals ntensor's nt::mean "
          f"on {expected.shape}")


if __name__ == "__main__":
    main()
