# The matcher against NumPy's np.broadcast_shapes: a fixed seed and a fresh seed
# per run (printed), generated before test_matcher's [numpy] cases run.
nt_add_oracle_data(matcher_numpy gen_broadcast_shapes.py broadcast 3000 1000)
nt_discover_numpy_cases(test_matcher matcher_numpy matcher_numpy)
