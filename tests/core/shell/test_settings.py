"""Settings: typed, versioned, migrated; damaged files never crash the app or get lost."""

from __future__ import annotations

import json

import pytest

from workbench.core import settings as s


def test_defaults_when_missing_and_round_trip(isolated_home):
    loaded, problems = s.load()
    assert problems == [] and loaded.language == "" and loaded.recent_projects == []
    loaded.language = "zh_CN"
    loaded.add_recent("projects", "/a")
    loaded.add_recent("projects", "/b")
    loaded.add_recent("projects", "/a")
    s.save(loaded)
    again, problems = s.load()
    assert problems == []
    assert again.language == "zh_CN" and again.recent_projects == ["/a", "/b"]
    assert str(s.settings_path()).startswith(str(isolated_home)), "tests must never touch the real config"


def test_recent_list_is_capped():
    st = s.Settings(max_recent=3)
    for i in range(5):
        st.add_recent("reports", f"/r{i}")
    assert st.recent_reports == ["/r4", "/r3", "/r2"]


def test_corrupt_file_is_kept_aside_and_reported():
    path = s.settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"language": "zh_CN",\n  "theme": ', encoding="utf-8")
    loaded, problems = s.load()
    assert loaded == s.Settings()
    assert len(problems) == 1 and str(path) in problems[0] and "line 2" in problems[0]
    kept = path.with_name("settings.json.corrupt")
    assert kept.read_text(encoding="utf-8").startswith('{"language"'), "the damaged file must be kept"
    assert not path.exists()


def test_bad_field_named_and_defaulted_other_fields_kept():
    path = s.settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps(
            {"schema_version": 2, "theme": "purple", "language": "zh_CN", "max_recent": "ten", "future_key": {"x": 1}}
        ),
        encoding="utf-8",
    )
    loaded, problems = s.load()
    assert loaded.theme == "light" and loaded.language == "zh_CN" and loaded.max_recent == 10
    assert any("'theme'" in p and "'dark'" in p and "purple" in p for p in problems)
    assert any("'max_recent'" in p and "whole number" in p for p in problems)
    s.save(loaded)
    assert json.loads(path.read_text(encoding="utf-8"))["future_key"] == {"x": 1}, "unknown keys are preserved"


def test_migration_from_version_0_and_1():
    old = {"recent": {"projects": ["/p"], "reports": ["/r"]}, "locale": "zh"}
    loaded, problems = s.from_dict(old)
    assert problems == []
    assert loaded.recent_projects == ["/p"] and loaded.recent_reports == ["/r"] and loaded.language == "zh_CN"
    assert s.to_dict(loaded)["schema_version"] == s.SCHEMA_VERSION


def test_non_object_top_level():
    path = s.settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("[1, 2]", encoding="utf-8")
    loaded, problems = s.load()
    assert loaded == s.Settings() and "JSON object" in problems[0]


@pytest.mark.parametrize(
    "text, problem",
    [
        ('{"schema_version": -1, "language": "en"}', "must be a whole number >= 0"),
        ('{"schema_version": 2, "x": ' + "[" * 100000 + "]" * 100000 + "}", "nested too deeply"),
    ],
)
def test_a_damaged_settings_file_never_stops_the_start(tmp_path, text, problem):
    from workbench.core import settings as core_settings

    path = tmp_path / "settings.json"
    path.write_text(text)
    loaded, problems = core_settings.load(path)
    assert isinstance(loaded, core_settings.Settings)
    assert any(problem in p and str(path) in p for p in problems), problems


def test_a_bom_is_accepted_in_settings(tmp_path):
    from workbench.core import settings as core_settings

    path = tmp_path / "settings.json"
    path.write_text('\ufeff{"schema_version": 2, "language": "zh_CN"}', encoding="utf-8")
    loaded, problems = core_settings.load(path)
    assert loaded.language == "zh_CN" and problems == []
