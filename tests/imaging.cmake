# The imaging operations' oracles (tests/imaging/, test_imaging): scipy.ndimage,
# torch.nn.functional and skimage compute on the same random inputs, the [numpy] cases
# compare. One line per generator, as nt_add_oracle in CMakeLists.txt describes.

# The boundary modes: where scipy.ndimage's correlate1d reads past an edge.
nt_add_oracle(imaging_boundary numpy/gen_imaging_boundary.py TEST test_imaging SPEC "[numpy][imaging_boundary]"
              OUT imaging_boundary.txt)

# Masks and objects: binary morphology, label, distance_transform_edt, measurements.
nt_add_oracle(imaging_morph numpy/gen_imaging_morph.py TEST test_imaging SPEC "[numpy][imaging_morph]"
              OUT imaging_morph SEEDED 30 15)
