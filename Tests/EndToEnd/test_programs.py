"""The built programs exist and start."""
import subprocess


def test_leitnerd_is_built(bin_dir):
    assert (bin_dir / "leitnerd").is_file()
    assert (bin_dir / "leitnerctl").is_file()
