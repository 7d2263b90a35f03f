"""`gpuir.dialects.entry_points` finds what `importlib.metadata.entry_points` finds, without it."""

from __future__ import annotations

from importlib.metadata import entry_points as metadata_entry_points

import pytest

from gpuir.dialects import xdsl_universe
from gpuir.dialects.entry_points import entry_points, normalized, read_group


@pytest.mark.parametrize("group", ["console_scripts", "xdsl.universe", "gpuir.plugins", "pytest11"])
def test_the_same_entry_points_as_importlib_metadata(group):
    expected = sorted((e.name, e.value) for e in metadata_entry_points(group=group))
    assert sorted(entry_points(group)) == expected


def test_xdsl_universe_is_xdsls_multiverse():
    from xdsl.universe import Universe

    theirs, ours = Universe.get_multiverse(), xdsl_universe()
    for field in ("all_dialects", "all_passes", "all_targets", "all_frontends"):
        assert getattr(ours, field).keys() == getattr(theirs, field).keys(), field


def test_read_group_sections_comments_and_spaces(tmp_path):
    path = tmp_path / "entry_points.txt"
    path.write_text(
        "[console_scripts]\nx = a:b\n\n# a comment\n[gpuir.plugins]\n; another\n"
        "  mine =  pkg.mod : thing \n[other]\ny = c:d\n"
    )
    assert read_group(str(path), "gpuir.plugins") == [("mine", "pkg.mod : thing")]
    assert read_group(str(tmp_path / "missing.txt"), "x") == []
    assert normalized("Foo.Bar-baz__qux") == "foo_bar_baz_qux"
