# -*- Python -*-
# The googletest unit tests of the shared analyses and the driver's flag
# handling, one lit test per googletest case.
import lit.formats

config.name = "cuda-lint-unit"
config.test_format = lit.formats.GoogleTest(".", "Tests")
config.test_source_root = config.unit_test_dir
config.test_exec_root = config.unit_test_dir
