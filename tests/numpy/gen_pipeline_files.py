#!/usr/bin/env python3
"""Writes the .npy files that the file-backed pipeline configs of the tests read
(tests/io/pipeline_config.cpp): NumPy's np.save is the oracle of the format.

usage: gen_pipeline_files.py --out DIR
"""
import os

import numpy as np

import oracle


def main():
    args = oracle.arguments(seeded=False)
    oracle.folder(args.out, empty=False)
    files = {
        "image.npy": np.zeros((2, 3, 20, 26), dtype=np.uint8),
        "labels.npy": np.zeros((2, 20, 26), dtype=np.int32),
        "labels_n3.npy": np.zeros((3, 20, 26), dtype=np.int32),
        "image_f32.npy": np.zeros((2, 3, 20, 26), dtype=np.float32),
        "ct.npy": np.zeros((4, 1, 6, 20, 26), dtype=np.uint8),
        "ct_fortran.npy": np.asfortranarray(np.zeros((4, 1, 6, 20, 26), dtype=np.uint8)),
    }
    for name, array in files.items():
        np.save(os.path.join(args.out, name), array)
    print(f"gen_pipeline_files: {len(files)} files in {args.out}")


if __name__ == "__main__":
    main()
