"""Advisor rules: cluster (see the package docstring). Each rule: a RuleText in TEXTS and a check
registered with @rule."""

from __future__ import annotations

from workbench.core.advisor.model import RuleText

TEXTS: dict[str, RuleText] = {}
