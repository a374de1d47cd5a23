# The imaging operations' oracles (tests/imaging/, test_imaging): scipy.ndimage,
# torch.nn.functional and skimage compute on the same random inputs, the [numpy] cases
# compare. One line per generator, as nt_add_oracle in CMakeLists.txt describes.

# The boundary modes: where scipy.ndimage's correlate1d reads past an edge.
nt_add_oracle(imaging_boundary numpy/gen_imaging_boundary.py TEST test_imaging SPEC "[numpy][imaging_boundary]"
              OUT imaging_boundary.txt)

# sliding_window: MONAI's sliding_window_inference transcribed in NumPy.
nt_add_oracle(imaging_sliding numpy/gen_imaging_sliding.py TEST test_imaging SPEC "[numpy][sliding]"
              OUT imaging_sliding SEEDED 120 40)

# Pooling and resampling: torch's pools and interpolate (and their gradients), scipy.ndimage.zoom.
nt_add_oracle(imaging_pool numpy/gen_imaging_pool.py TEST test_imaging SPEC "[numpy][imaging_pool]"
              OUT imaging_pool.txt)

# The filters: scipy.ndimage's gaussian, uniform, rank, sobel and gradient-magnitude filters.
nt_add_oracle(imaging_filters numpy/gen_imaging_filters.py TEST test_imaging SPEC "[numpy][imaging_filters]"
              OUT imaging_filters SEEDED 770 385)

# Masks and objects: binary morphology, label, distance_transform_edt, measurements.
nt_add_oracle(imaging_morph numpy/gen_imaging_morph.py TEST test_imaging SPEC "[numpy][imaging_morph]"
              OUT imaging_morph SEEDED 30 15)

# Convolution: torch's conv / conv_transpose (groups, pad modes, autograd), scipy's correlate / convolve.
nt_add_oracle(imaging_conv numpy/gen_imaging_conv.py TEST test_imaging SPEC "[numpy][imaging_conv]"
              OUT imaging_conv SEEDED 300 100)
