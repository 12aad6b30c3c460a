"""Every advisor rule's title, advice and fact labels are marked for translation in the UI mirror of
its core module, the mirrors mark nothing else, and zh_CN translates each one (with the same named
fields as the English)."""

from __future__ import annotations

import string

import pytest

from workbench.core.advisor import model
from workbench.core.advisor import run as _run  # noqa: F401  (registers the rules)
from workbench.ui.advisor.texts import MIRRORS


def _core_strings() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {name: set() for name in MIRRORS}
    for r in model.rules():
        module = r.check.__module__.rsplit(".", 1)[-1]
        assert module in found, f"rule {r.id}: its module {module} has no UI mirror"
        found[module] |= {r.text.title, r.text.advice, *r.text.facts.values()}
    return {k: {s for s in v if s} for k, v in found.items()}


@pytest.mark.parametrize("module", sorted(MIRRORS))
def test_mirror_equals_core(module):
    core = _core_strings()[module]
    mirror = set(MIRRORS[module])
    assert core - mirror == set(), f"not marked for translation in ui/advisor/texts/{module}.py"
    assert mirror - core == set(), f"marked in ui/advisor/texts/{module}.py but no rule uses it"


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def test_zh_cn_translates_every_rule_text(zh_window):
    from workbench.ui.advisor.texts import tr_advisor

    missing, wrong = [], []
    for strings in MIRRORS.values():
        for s in strings:
            zh = tr_advisor(s)
            if zh == s:
                missing.append(s)
            elif _fields(zh) != _fields(s):
                wrong.append((s, zh))
    assert not missing, f"no zh_CN translation: {missing[:5]}"
    assert not wrong, f"zh_CN names other fields: {wrong[:5]}"
