"""The advisor (issue #21): small independent rules over a Report (and over a cluster) that say what is
wrong and where, each finding with a severity, a one-line title, the evidence (numbers, and the
slices / ops / table rows / ranks / links it is about) and what to try.

- ``model.py``: :class:`Finding`, :class:`Evidence`, :class:`Fact`, :class:`Severity`,
  :class:`AdvisorResult` and the rule registry (:func:`rule`, :func:`rules`);
- ``rules/``: the rules, one module per subject (compute, schedule, communication, cluster); each
  module holds its rules and their English texts (``TEXTS``: title, advice, fact labels), which the UI
  marks for translation in ``ui/advisor/texts/`` (a test keeps both equal);
- ``run.py``: :func:`advise` / :func:`advise_cluster` run every applicable rule, a failing rule is a
  warning line of the result, never a failed run; cancellable, with progress;
- ``export.py`` / ``cli.py``: JSON, HTML and xlsx of a result; the ``advise`` verb.

Texts are ``str.format`` templates with named fields; a finding keeps its template arguments, already
formatted as locale-free strings (numbers, units, names), so any language formats the same values.
"""
