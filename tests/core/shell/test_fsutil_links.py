"""fsutil.atomic_open through symlinks and on hard-linked files: the link stays a link, the target is
replaced atomically with its permission bits, hard links keep sharing the new content."""

from __future__ import annotations

import os
import stat

import pytest

from workbench.core import fsutil
from workbench.core.fsutil import atomic_open, atomic_write_text, backup_aside


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_symlink_is_written_through_to_its_target(tmp_path):
    real = tmp_path / "shared" / "acl.json"
    real.parent.mkdir()
    real.write_text("old")
    real.chmod(0o640)
    inode = real.stat().st_ino
    link = tmp_path / "project" / "acl.json"
    link.parent.mkdir()
    link.symlink_to(os.path.relpath(real, link.parent))
    atomic_write_text(link, "new")
    assert link.is_symlink() and os.readlink(link) == os.path.relpath(real, link.parent)
    assert real.read_text() == "new" and link.read_text() == "new"
    assert real.stat().st_ino != inode, "the target was replaced (atomically), not rewritten in place"
    assert _mode(real) == 0o640
    # no temp file is left beside the link or the target
    assert sorted(p.name for p in link.parent.iterdir()) == ["acl.json"]
    assert sorted(p.name for p in real.parent.iterdir()) == ["acl.json"]


def test_symlink_chain_and_dangling_link(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("a")
    hop = tmp_path / "hop.json"
    hop.symlink_to(real)
    link = tmp_path / "link.json"
    link.symlink_to(hop)
    atomic_write_text(link, "b")
    assert link.is_symlink() and hop.is_symlink() and real.read_text() == "b"
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(tmp_path / "sub" / "made.json")
    atomic_write_text(dangling, "c")
    assert dangling.is_symlink() and (tmp_path / "sub" / "made.json").read_text() == "c"


def test_failed_write_through_a_symlink_leaves_the_target(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    with pytest.raises(RuntimeError), atomic_open(link) as fh:
        fh.write("half")
        raise RuntimeError("boom")
    assert real.read_text() == "old" and link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "real.json"]


def test_hard_linked_file_is_rewritten_in_place_for_every_link(tmp_path):
    a = tmp_path / "a.json"
    a.write_text("old content")
    a.chmod(0o604)
    b = tmp_path / "b.json"
    os.link(a, b)
    atomic_write_text(a, "new")
    assert a.read_text() == b.read_text() == "new"
    assert os.path.samefile(a, b) and a.stat().st_nlink == 2
    assert _mode(a) == 0o604
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "b.json"], "no temp file or backup left"


def test_hard_link_rewrite_failure_restores_the_old_content(tmp_path, monkeypatch):
    a = tmp_path / "a.json"
    a.write_text("old content")
    b = tmp_path / "b.json"
    os.link(a, b)
    real_copy = fsutil._copy_into
    calls = []

    def fail_first(source, target):
        calls.append(source)
        if len(calls) == 1:
            with open(target, "r+b") as fh:  # the failure strikes after the file was truncated
                fh.truncate(0)
            raise OSError(28, "No space left on device")
        real_copy(source, target)

    monkeypatch.setattr(fsutil, "_copy_into", fail_first)
    with pytest.raises(OSError, match="No space left"):
        atomic_write_text(b, "new")
    assert a.read_text() == b.read_text() == "old content" and os.path.samefile(a, b)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "b.json"]


def test_backup_aside_of_a_symlink_copies_and_keeps_the_link(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("{broken")
    link = tmp_path / "acl.json"
    link.symlink_to(real)
    kept = backup_aside(link)
    assert kept == tmp_path / "acl.json.corrupt" and kept.read_text() == "{broken" and not kept.is_symlink()
    assert link.is_symlink() and real.read_text() == "{broken"
    atomic_write_text(link, "{}")
    assert link.is_symlink() and real.read_text() == "{}"


def test_temps_left_by_a_killed_write_are_removed_by_the_next_write(tmp_path):
    import os
    import time

    from workbench.core import fsutil

    target = tmp_path / "acl.json"
    target.write_text("{}")
    old = tmp_path / ".acl.json.k3j9x0ab.part"  # what mkstemp names a temp of ours
    fresh = tmp_path / ".acl.json.zz11yy22.part"  # a write still running elsewhere
    other = tmp_path / ".settings.json.k3j9x0ab.part"  # another file's: not ours to touch
    for p in (old, fresh, other):
        p.write_text("half")
    hour_ago = time.time() - 2 * fsutil.STALE_TEMP_SECONDS
    os.utime(old, (hour_ago, hour_ago))
    os.utime(other, (hour_ago, hour_ago))
    with fsutil.atomic_open(target) as fh:
        fh.write('{"dump": {}}')
    assert not old.exists() and fresh.exists() and other.exists()
    assert target.read_text() == '{"dump": {}}'


def test_read_only_file_is_refused_unless_the_user_said_yes(tmp_path):
    """A 0444 file is never replaced silently (root could, and so could a rename in a writable
    folder): the write is refused naming the file; with the user's yes it is replaced and stays 0444."""
    ro = tmp_path / "acl.json"
    ro.write_text("old")
    ro.chmod(0o444)
    link = tmp_path / "link.json"
    link.symlink_to(ro.name)
    for path in (ro, link):
        with pytest.raises(fsutil.ReadOnlyFile) as info:
            atomic_write_text(path, "new")
        assert str(info.value) == f"{path}: the file is read-only; make it writable to change it"
        assert isinstance(info.value, PermissionError)
    assert ro.read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["acl.json", "link.json"]
    atomic_write_text(link, "new", replace_read_only=True)
    assert ro.read_text() == "new" and _mode(ro) == 0o444 and link.is_symlink()
    ro.chmod(0o644)  # a writable file, and a new one, need no yes
    atomic_write_text(ro, "again")
    atomic_write_text(tmp_path / "new.json", "x")
    assert ro.read_text() == "again"
