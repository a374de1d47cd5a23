# Element-wise operations against NumPy: a fixed seed and a fresh (printed) seed.
nt_add_oracle_data(ops_numpy gen_elementwise.py elementwise 4000 1500 --sweep)
if(TARGET test_ops)
    nt_discover_numpy_cases(test_ops ops_numpy ops_numpy)
endif()
