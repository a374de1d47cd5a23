# The imaging operations' oracles (tests/imaging/, test_imaging): scipy.ndimage,
# torch.nn.functional and skimage compute on the same random inputs, the [numpy] cases
# compare. One line per generator, as nt_add_oracle in CMakeLists.txt describes.

# The boundary modes: where scipy.ndimage's correlate1d reads past an edge.
nt_add_oracle(imaging_boundary numpy/gen_imaging_boundary.py TEST test_imaging SPEC "[numpy][imaging_boundary]"
              OUT imaging_boundary.txt)

# The filters: scipy.ndimage's gaussian, uniform, rank, sobel and gradient-magnitude filters.
nt_add_oracle(imaging_filters numpy/gen_imaging_filters.py TEST test_imaging SPEC "[numpy][imaging_filters]"
              OUT imaging_filters.txt SEEDED 770 385)
