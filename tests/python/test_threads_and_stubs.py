"""The GIL is released while ntensor computes (Python threads run meanwhile, and
several ntensor calls run at once); the type stubs cover everything bound."""
import ast
import pathlib
import sys
import threading
import time

import numpy as np

import ntensor as nt
from ntensor import _ntensor

STUB = pathlib.Path(_ntensor.__file__).with_name("_ntensor.pyi")


def test_python_threads_run_while_ntensor_computes():
    big = nt.asarray(np.random.default_rng(0).random((700, 700)), names=("H", "W"))
    counter, stop = [0], threading.Event()

    def count():
        while not stop.is_set():
            counter[0] += 1
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-4)
    t = threading.Thread(target=count)
    t.start()
    try:
        before = counter[0]
        time.sleep(0.1)                                  # the counting rate when free to run
        rate = (counter[0] - before) / 0.1
        before = counter[0]
        start = time.perf_counter()
        nt.median_filter(big, 5, ("H", "W"))            # one long C++ call
        elapsed = time.perf_counter() - start
        during = counter[0] - before
    finally:
        stop.set()
        t.join()
        sys.setswitchinterval(old)
    assert elapsed > 0.05, "the call is too short to tell"
    # With the GIL held the counting thread would stand still for the whole call.
    assert during > 0.1 * rate * elapsed, f"counted {during} in {elapsed:.3f} s; free rate {rate:.0f}/s"


def test_ntensor_calls_from_several_threads_agree_with_numpy():
    rng = np.random.default_rng(1)
    arrays = [rng.random((200, 300)) for _ in range(4)]
    results = [None] * 4

    def work(i):
        t = nt.asarray(arrays[i], names=("H", "W"))
        results[i] = np.asarray(nt.sum(nt.exp(t) * t, "W"))
    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    for a, r in zip(arrays, results):
        np.testing.assert_allclose(r, (np.exp(a) * a).sum(1))


def stub_names():
    tree = ast.parse(STUB.read_text())
    top, methods = set(), set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            top.add(node.name)
        elif isinstance(node, ast.ClassDef):
            top.add(node.name)
            if node.name == "Tensor":
                methods = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
    return top, methods


def test_stubs_cover_everything_bound():
    top, methods = stub_names()
    bound = {n for n in dir(_ntensor) if not n.startswith("_")}
    assert bound - top == set()
    tensor = {n for n in dir(nt.Tensor) if not n.startswith("_") or n in ("__add__", "__matmul__", "__iadd__", "__getitem__")}
    assert tensor - methods == set()
    for sub in ("zarr", "optim"):
        node = next(n for n in ast.parse(STUB.read_text()).body if isinstance(n, ast.ClassDef) and n.name == sub)
        stubbed = {n.name for n in ast.walk(node) if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        assert {n for n in dir(getattr(_ntensor, sub)) if not n.startswith("_")} - stubbed == set()
