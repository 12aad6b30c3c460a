"""What a rule returns and how rules are registered.

A :class:`Finding` names its rule; the rule's texts (``RuleText``: title, advice and the labels of its
facts, English ``str.format`` templates with named fields) live beside the rule in its ``rules/``
module and are looked up through :func:`text_of`. ``args`` fill the title and the advice, each fact's
``args`` its label; all values are strings already formatted (see :func:`ms`, :func:`pct`, ...), so a
translated template formats to the same numbers.

:class:`Evidence` points at what the finding is about, in terms every view understands:
``kind`` "op" (a row of the OPs table: ``table`` "ops", ``row`` its index), "slice" (a timeline slice:
``lane``/``device``/``start_ns``/``dur_ns``/``name``), "lane" (a whole timeline lane), "row" (a row of
any other report table, ``table`` and ``row``), "step", "rank", "link" (``src``/``dst``/``transport``
in ``values``) or "setting" (an environment or profiler setting the report recorded).

A finding about one rank of a cluster (a report rule that ``advise_cluster`` ran over that rank's own
report) carries its ``rank``; its evidence then points into that rank's report.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


class Severity(str, enum.Enum):
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"

    @property
    def rank(self) -> int:
        return {"high": 0, "medium": 1, "low": 2}[self.value]


@dataclass(frozen=True)
class RuleText:
    title: str  # one line; named fields from Finding.args
    advice: str  # what to try; named fields from Finding.args
    facts: Mapping[str, str] = field(default_factory=dict)  # fact key -> label template (Fact.args)


@dataclass(frozen=True)
class Fact:
    key: str  # a key of the rule's RuleText.facts
    value: str  # formatted value ("12.3 ms", "41.0 %", "Cast")
    args: Mapping[str, str] = field(default_factory=dict)  # fields of the label template, if any


@dataclass(frozen=True)
class Evidence:
    kind: str  # op | slice | lane | row | step | rank | link | setting
    label: str  # what it is, in the data's own words (an op name, "step 3", "rank 5", "2 -> 6 HCCS")
    table: str | None = None  # report table of a row ("ops", "ai_core_metrics", "communication", ...)
    row: int | None = None  # row position in that table
    lane: str | None = None  # timeline lane name
    device: int | None = None
    start_ns: int | None = None  # absolute epoch ns (exact int)
    dur_ns: int | None = None
    rank: int | None = None
    values: Mapping[str, Any] = field(default_factory=dict)  # more numbers of this item (raw values)


@dataclass(frozen=True)
class Finding:
    rule: str  # the rule's id, e.g. "compute.aicpu_has_aicore"
    category: str  # compute | schedule | memory | communication | cluster | environment
    severity: Severity
    args: Mapping[str, str] = field(default_factory=dict)
    facts: tuple[Fact, ...] = ()
    evidence: tuple[Evidence, ...] = ()
    evidence_total: int | None = None  # how many items there were when evidence is a top-N cut
    rank: int | None = None  # a cluster's rank whose own report the finding is about (None: the report / cluster)

    def text(self) -> RuleText:
        return text_of(self.rule)

    def title(self, translate: Callable[[str], str] = str) -> str:
        return fill(translate(self.text().title), self.args)

    def advice(self, translate: Callable[[str], str] = str) -> str:
        return fill(translate(self.text().advice), self.args)

    def fact_lines(self, translate: Callable[[str], str] = str) -> list[tuple[str, str]]:
        labels = self.text().facts
        return [(fill(translate(labels.get(f.key, f.key)), f.args), f.value) for f in self.facts]


@dataclass
class AdvisorResult:
    source: str  # the report / cluster path the findings are about
    findings: list[Finding] = field(default_factory=list)
    rules_run: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # rules that could not run, and why

    def sorted(self) -> list[Finding]:
        return sorted(
            self.findings, key=lambda f: (f.severity.rank, f.category, f.rule, -1 if f.rank is None else f.rank)
        )


def fill(template: str, args: Mapping[str, str]) -> str:
    """``template`` with its named fields from ``args``; a field the arguments lack stays as written
    (a translation that names a field the English lacks must not fail the view)."""
    try:
        return template.format_map(_Keep(args))
    except (ValueError, IndexError):
        return template


class _Keep(dict):
    def __init__(self, args: Mapping[str, str]) -> None:
        super().__init__(args)

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


# --- formatting of argument values (locale-free; every language shows the same digits) ----------


def ms(ns: float) -> str:
    """A duration in ns as milliseconds with 3 decimals ("12.345 ms")."""
    return f"{ns / 1e6:.3f} ms"


def us(value_us: float) -> str:
    return f"{value_us:.3f} us"


def pct(part: float, whole: float | None = None) -> str:
    """``part`` as a percentage (of ``whole``, or ``part`` is already a 0..1 ratio): "41.0 %"."""
    share = part / whole if whole else (0.0 if whole is not None else part)
    return f"{share * 100:.1f} %"


def count(n: int) -> str:
    return str(int(n))


# --- the registry ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rule:
    id: str
    category: str
    target: str  # "report" | "cluster"
    check: Callable[[Any], Iterable[Finding]]
    text: RuleText


_RULES: dict[str, Rule] = {}


def rule(rule_id: str, category: str, text: RuleText, target: str = "report") -> Callable:
    """Decorator: register ``check(subject) -> Iterable[Finding]`` as rule ``rule_id`` with its texts.
    ``subject`` is a :class:`~workbench.core.advisor.run.ReportSubject` for target "report" and a
    :class:`~workbench.core.advisor.run.ClusterSubject` for "cluster"."""

    def register(check: Callable[[Any], Iterable[Finding]]) -> Callable[[Any], Iterable[Finding]]:
        if rule_id in _RULES:
            raise ValueError(f"advisor rule {rule_id} registered twice")
        _RULES[rule_id] = Rule(rule_id, category, target, check, text)
        return check

    return register


def rules(target: str | None = None) -> list[Rule]:
    """The registered rules (of one target), in registration order."""
    return [r for r in _RULES.values() if target is None or r.target == target]


def text_of(rule_id: str) -> RuleText:
    found = _RULES.get(rule_id)
    if found is None:
        return RuleText(title=rule_id, advice="")
    return found.text
