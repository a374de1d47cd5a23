"""A first look at ntensor from Python: named matching over NumPy memory."""
import numpy as np

import ntensor as nt

images = np.random.default_rng(0).random((2, 3, 4, 5), dtype=np.float32)
bias = np.arange(3, dtype=np.float32)

x = nt.asarray(images, names=("?", "CHANNEL", "H", "W"))   # no copy
b = nt.asarray(bias, names=("CHANNEL",))                   # matched by name, not by position
y = x + b
print(repr(nt.sum(y, ("H", "W"))))
assert np.allclose(np.asarray(y), images + bias[:, None, None])
print(nt.explain(nt.match(["(2,3,4,5 | ?,CHANNEL,H,W)", "(3 | CHANNEL)"])))
