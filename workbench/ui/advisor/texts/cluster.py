"""Texts of core/advisor/rules/cluster.py marked for translation (see the package docstring)."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

STRINGS = (
    QT_TRANSLATE_NOOP("Advisor", "Rank {rank} computes {excess} longer than its peers (step {step})"),
    QT_TRANSLATE_NOOP(
        "Advisor",
        "The other ranks wait for this one at every collective. Look at its own report: a slower or"
        " throttled device (npu-smi: temperature, frequency, errors), more work on it (uneven data "
        "or pipeline split), host contention on its server, or operators that run on AI CPU only "
        "there.",
    ),
    QT_TRANSLATE_NOOP("Advisor", "Its computing time"),
    QT_TRANSLATE_NOOP("Advisor", "Median of its peers {peers}"),
    QT_TRANSLATE_NOOP("Advisor", "Ratio to the median"),
    QT_TRANSLATE_NOOP("Advisor", "Slow in steps"),
    QT_TRANSLATE_NOOP("Advisor", "Mean wait of the ranks sharing its groups"),
    QT_TRANSLATE_NOOP("Advisor", "Its own wait"),
    QT_TRANSLATE_NOOP(
        "Advisor",
        "Link {src} -> {dst} ({transport}) reaches {bandwidth}, {ratio} of its transport's median",
    ),
    QT_TRANSLATE_NOOP(
        "Advisor",
        "One link is slower than the others of its kind. Check the link's hardware and "
        "configuration (hccn_tool for RDMA: link state, errors, PFC / DSCP settings; HCCS: the "
        "board), whether other traffic shares it, and the ranks' placement.",
    ),
    QT_TRANSLATE_NOOP("Advisor", "Bandwidth"),
    QT_TRANSLATE_NOOP("Advisor", "Median of the {transport} links"),
    QT_TRANSLATE_NOOP("Advisor", "Transit size"),
    QT_TRANSLATE_NOOP("Advisor", "Transit time"),
    QT_TRANSLATE_NOOP("Advisor", "Pipeline stage {stage} waits {share} of its time in bubbles"),
    QT_TRANSLATE_NOOP(
        "Advisor",
        "The pipeline stages wait for each other. Use more micro-batches per step (gradient "
        "accumulation), an interleaved (virtual pipeline) schedule, and balance the layers between "
        "the stages so that no stage computes much longer than the others.",
    ),
    QT_TRANSLATE_NOOP("Advisor", "Bubble time"),
    QT_TRANSLATE_NOOP("Advisor", "Stage time (without bubbles)"),
    QT_TRANSLATE_NOOP("Advisor", "Bubble share"),
    QT_TRANSLATE_NOOP("Advisor", "Ranks of the stage"),
)
