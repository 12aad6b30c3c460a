"""A local copy (the demo host, a pull) removes the ``.wbpart-*`` temps a killed copy of the same
file left beside its target, an hour old and of our exact naming only."""

from __future__ import annotations

import os
import time

from workbench.core.services.transport import LocalTransport


def _aged(path, hours: float) -> None:
    t = time.time() - hours * 3600
    os.utime(path, (t, t))


def test_a_part_left_by_a_killed_local_copy_is_removed_by_the_next_copy(tmp_path):
    src = tmp_path / "proj"
    src.mkdir()
    (src / "model.om").write_bytes(b"new")
    (src / "other.txt").write_text("x")
    dst = tmp_path / "host" / "proj"
    dst.mkdir(parents=True)
    stale = dst / ".wbpart-0123abcd-model.om"  # what part_name() makes, two hours old
    stale.write_bytes(b"half")
    _aged(stale, 2)
    keep = {
        ".wbpart-89abcdef-model.om": 0,  # still being written by another copy (fresh)
        ".wbpart-0123abcd-unrelated.bin": 2,  # another file's part: not this copy's business
        ".wbpart-XYZ-model.om": 2,  # not our naming
        "notes.wbpart-0123abcd-model.om": 2,
    }
    for name, hours in keep.items():
        (dst / name).write_bytes(b"k")
        _aged(dst / name, hours)
    linked = dst / ".wbpart-fedcba98-other.txt"
    linked.symlink_to(tmp_path / "outside")  # a link of that name is not a file of ours
    LocalTransport(home=tmp_path / "host").put(src, str(dst.parent))
    assert (dst / "model.om").read_bytes() == b"new" and (dst / "other.txt").read_text() == "x"
    assert not stale.exists()
    assert sorted(p.name for p in dst.iterdir()) == sorted([*keep, linked.name, "model.om", "other.txt"])
