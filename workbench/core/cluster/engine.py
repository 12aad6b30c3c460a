"""The engine the per-rank reductions run on: Dask (``dask.distributed``), or this thread for tiny jobs.

:func:`map_items` runs ``fn(item)`` for every item on the engine an :class:`EngineSpec` names and
returns one :class:`Outcome` per item, in the items' order:

* ``sync``: in this thread, one item after the other; no Dask at all (nothing is imported);
* ``local``: a ``LocalCluster`` on this machine's cores (worker processes, one thread each, no dashboard);
* ``ssh``: a Dask cluster started over SSH on the user's configured CANN machines (``distributed``'s SSH
  deployment: its ``Scheduler``/``Worker`` processes in a ``SpecCluster``, as ``SSHCluster`` builds them,
  with one worker per host named after the :class:`~workbench.core.services.hosts.Host`); the FIRST host
  runs the scheduler, every host runs one worker. The login uses the host's key file or the SSH agent,
  and our known_hosts files (the app's and ``~/.ssh/known_hosts``): host keys are always checked;
* ``address``: the scheduler the user's cluster already runs (``tcp://host:port``);
* ``auto``: ``sync`` for up to 2 items, else ``local``.

:class:`Session` is one engine for several such calls (``with Session(spec, progress=..., cancel=...) as
s: s.map(...); s.map(...)``): its cluster is started at the first call that needs one and closed once when
the session ends (also on an error or a cancel), so e.g. the ranks' discovery on each SSH host and their
reductions share one start-up. :func:`map_items` is one call on a session of its own.

Progress: one ``progress.status`` line per finished item (``"rank 3 done (5/64)"``, the item named by
``label(item)``), ``progress.fraction``, and ``progress.partial(outcome)`` as each completes. A failing
item is an :class:`Outcome` with a one-line ``error`` ("which item: what failed"); the others go on.
A worker lost while it has an item (its process or its host died): Dask runs the item again on another
worker (the scheduler's rescheduling, up to ``distributed.scheduler.allowed-failures`` times); the
engine learns it from the scheduler's ``remove-worker`` event (the keys it was processing, or whose
result only it held) and reports it (``Outcome.retried``, a status line). On the clusters the engine
starts a worker is given one item at a time (``worker-saturation`` 1.0 for large jobs), so "had" is
"ran"; a worker of an ``address`` cluster may also have held an item it had not started yet.

``affinity(item) -> host | None`` (``ssh`` and ``address`` engines): the item runs only on workers of
that host, so each worker reduces the ranks on its own disks. On ``ssh`` the value is a Host's
``name`` or its ``hostname`` (Dask resource restrictions: a worker restarted by its nanny keeps them);
on ``address`` a worker's name, its host address or a hostname that resolves to it. An item whose
host has no worker fails at once (it would wait forever).

Cancel (``cancel.on_cancel``, which only wakes the run: the work is done on the run's thread, never on
the cancelling one): every pending future is cancelled and, for the clusters the engine started
(``local``, ``ssh``), the cluster is closed: its worker processes end, so running items stop. On
``ssh`` the workers' process groups are killed over SSH first (distributed's SSH deployment only asks
them to close, which a worker busy with an item does not do, and closing the SSH session leaves the
process running); after every ``ssh`` run whatever outlived the close is killed the same way. On an
``address`` cluster the futures are cancelled but Dask cannot kill a task that already runs there: it
runs to its end on the user's cluster and its result is dropped.
In ``sync`` the item that runs finishes first (the cancel is seen between items).
:func:`map_items` then raises :class:`~workbench.core.tasks.Cancelled`.

CONTRACT for code that runs on remote workers (``ssh``, ``address``): a worker on a CANN host does not
have workbench installed. The engine ships ``fn`` by value (``cloudpickle``, pickled here): every
workbench module it reaches and ``fn``'s own module go by value, everything else by reference. So
``fn``'s module and whatever workbench code it reaches must use the standard library only; items and
results must be small plain data (builtins, or classes of those by-value modules). The remote Python
must be the same version as this one (shipped code is bytecode) and have ``distributed`` installed.

This module imports neither dask nor distributed at its top: they are imported when a cluster runs.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import os
import queue
import re
import sys
import threading
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from workbench.core.tasks import Cancelled, CancelToken, Progress

if TYPE_CHECKING:
    from workbench.core.services.hosts import Host

log = logging.getLogger(__name__)

KINDS = ("auto", "sync", "local", "ssh", "address")
SYNC_MAX_ITEMS = 2  # "auto" runs up to this many items in this thread, without a cluster
IN_PROCESS = "in-process"  # Outcome.worker of an item that ran in this thread
CONNECT_TIMEOUT_S = 20
START_TIMEOUT_S = 120  # a cluster's processes must be up by then
NO_WORKERS_TIMEOUT = "120s"  # an item whose host lost its only worker fails after this (started clusters)
CLOSE_TIMEOUT_S = 20
_RESOURCE_NAME = "wb-host:"  # the resource a worker of Host `name` offers (affinity by Host name)
_RESOURCE_HOSTNAME = "wb-hostname:"  # ... and the one for its hostname
_RESOURCE_AMOUNT = 1_000_000  # resources only say where an item may run; they never limit how many
_LOOPBACK_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost")
_DASK_LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d[ T][\d:,.]+ - (distributed|dask|tornado|asyncio)\b")
_ADDRESS = re.compile(r"^tcp://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):\d{1,5}$")


class EngineError(Exception):
    """The engine cannot run (bad spec, a host that cannot be reached or has no Dask, a scheduler that
    does not answer): one line naming the host, address or field and what to do."""


@dataclass(frozen=True)
class EngineSpec:
    """Where :func:`map_items` runs the items (see the module docstring for each ``kind``).

    ``workers``: the local cluster's worker processes (default ``min(cores, items)``); ``hosts``: the
    ``ssh`` machines (the first one also runs the scheduler); ``address``: the ``address`` scheduler;
    ``remote_python``: the Python command on the ``ssh`` hosts (default: this Python for a host on
    127.0.0.1/localhost, else ``python3``).
    """

    kind: str = "auto"
    workers: int | None = None
    hosts: tuple[Host, ...] = ()
    address: str = ""
    remote_python: str | None = None

    def validate(self) -> EngineSpec:
        if self.kind not in KINDS:
            raise EngineError(f"engine kind {self.kind!r}: expected one of {', '.join(KINDS)}")
        if self.workers is not None and (not isinstance(self.workers, int) or self.workers < 1):
            raise EngineError(f"engine workers {self.workers!r}: expected a number of at least 1")
        if self.kind == "ssh":
            if not self.hosts:
                raise EngineError("ssh engine: expected at least one host (the first one runs the scheduler)")
            names = [h.name for h in self.hosts]
            twice = sorted({n for n in names if names.count(n) > 1})
            if twice:
                raise EngineError(f"ssh engine: host {twice[0]!r} is listed twice; expected each host once")
        if self.kind == "address" and not _ADDRESS.match(self.address or ""):
            raise EngineError(f"scheduler address {self.address!r}: expected tcp://host:port")
        if self.remote_python is not None and not self.remote_python.strip():
            raise EngineError("remote Python: expected a command (e.g. python3 or /opt/venv/bin/python)")
        return self


@dataclass(frozen=True)
class Outcome:
    """One item's result: ``result`` when ``error`` is None, else ``error`` (one line naming the item).
    ``worker``: the Dask worker address it ran on (``"in-process"`` in ``sync``); ``retried``: a worker
    that had it was lost and Dask ran it again elsewhere (``worker`` is where it finally ran)."""

    index: int
    label: str
    result: Any = None
    error: str | None = None
    worker: str = ""
    retried: bool = False

    @property
    def ok(self) -> bool:
        return self.error is None


# --- what runs on the worker (shipped by value to remote workers: the standard library only) ----------
def _one_line(exc: BaseException) -> str:
    """An exception as one line, without its class name."""
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.filename}: {exc.strerror}" if exc.filename else str(exc.strerror)
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else "failed unexpectedly (details in the log)"


def _worker_address() -> str:
    if "distributed" not in sys.modules:
        return IN_PROCESS
    try:
        from distributed import get_worker

        return str(get_worker().address)
    except (ImportError, ValueError):
        return IN_PROCESS


def _call(fn: Callable[[Any], Any], item: Any) -> tuple[bool, Any, str, str]:
    """``(True, result, "", worker)`` or ``(False, one-line error, traceback, worker)``."""
    try:
        result = fn(item)
    except Exception as exc:  # noqa: BLE001 - one item's failure is its Outcome, not the run's
        import traceback

        return False, _one_line(exc), traceback.format_exc(), _worker_address()
    return True, result, "", _worker_address()


def _call_pickled(fn: Callable[[Any], Any], blob: bytes) -> tuple[bool, Any, str, str]:
    """:func:`_call` of an item pickled here (its class may be one the worker only has by value)."""
    import pickle

    return _call(fn, pickle.loads(blob))  # our own blob, from the run that submitted it


class _Invoke:
    """Pickles as the call ``_call(fn, item)``: loading the blob on the worker runs the item."""

    def __init__(self, fn: Callable[[Any], Any], item: Any) -> None:
        self.fn, self.item = fn, item

    def __reduce__(self) -> tuple[Any, ...]:
        return _call, (self.fn, self.item)


# --- the run ------------------------------------------------------------------------------------------
def resolved_kind(spec: EngineSpec, n_items: int) -> str:
    """The kind that runs ``n_items`` items (``auto`` resolved)."""
    if spec.kind == "auto":
        return "sync" if n_items <= SYNC_MAX_ITEMS else "local"
    return spec.kind


def _label(label: Callable[[Any], str], item: Any, index: int) -> str:
    try:
        return str(label(item))
    except Exception:  # noqa: BLE001 - a label is only a name; never fail the run over it
        return f"item {index + 1}"


class _Reporter:
    """The per-item progress: status line, fraction, partial Outcome."""

    def __init__(self, progress: Progress, total: int) -> None:
        self.progress, self.total, self.done = progress, total, 0

    def finished(self, outcome: Outcome) -> None:
        self.done += 1
        count = f"({self.done}/{self.total})"
        if outcome.error is not None:
            self.progress.status(f"{outcome.error} {count}")
        elif outcome.retried:
            self.progress.status(f"{outcome.label} done on {outcome.worker} after its first worker was lost {count}")
        else:
            self.progress.status(f"{outcome.label} done {count}")
        self.progress.fraction(self.done / self.total)
        self.progress.partial(outcome)


def _run_sync(
    fn: Callable[[Any], Any], items: list[Any], names: list[str], progress: Progress, cancel: CancelToken
) -> list[Outcome]:
    reporter = _Reporter(progress, len(items))
    outcomes: list[Outcome] = []
    for i, item in enumerate(items):
        cancel.raise_if_cancelled()
        ok, value, tb, _worker = _call(fn, item)
        outcome = _outcome(i, names[i], ok, value, tb, IN_PROCESS, retried=False)
        outcomes.append(outcome)
        reporter.finished(outcome)
    cancel.raise_if_cancelled()
    return outcomes


def _outcome(index: int, name: str, ok: bool, value: Any, tb: str, worker: str, retried: bool) -> Outcome:
    if ok:
        return Outcome(index, name, result=value, worker=worker, retried=retried)
    log.warning("%s failed on %s:\n%s", name, worker, tb)
    return Outcome(index, name, error=f"{name}: {value}", worker=worker, retried=retried)


def map_items(
    fn: Callable[[Any], Any],
    items: Sequence[Any],
    spec: EngineSpec,
    *,
    progress: Progress,
    cancel: CancelToken,
    label: Callable[[Any], str] = str,
    affinity: Callable[[Any], str | None] | None = None,
) -> list[Outcome]:
    """Run ``fn(item)`` for every item on the engine ``spec`` names; one Outcome per item, in order.

    ``fn`` is a module-level function (picklable), ``items`` small picklable objects. Raises
    :class:`EngineError` when the engine cannot start and :class:`Cancelled` when ``cancel`` is set.
    One :class:`Session` for this one call: a cluster it starts is closed before it returns.
    """
    with Session(spec, progress=progress, cancel=cancel) as session:
        return session.map(fn, items, label=label, affinity=affinity)


_CANCEL = object()


class Session:
    """One engine for several :meth:`map` calls (e.g. the ranks' discovery on each host, then their
    reductions): the cluster is started once, at the first call that needs one, and closed once, by
    :meth:`close` (``with Session(...)``: also on an error or a cancel).

    ``kind``: resolved at the first call with items (``auto``: by that call's number of items) and kept
    for the later ones; so are the local cluster's workers. ``progress``: where the cluster's start-up is
    said (each call's items may report elsewhere); ``cancel``: the run's token, for every call (a cancel
    between two calls ends the next one at once).
    """

    def __init__(self, spec: EngineSpec, *, progress: Progress, cancel: CancelToken) -> None:
        self.spec = spec.validate()
        self.progress, self.cancel = progress, cancel
        self.kind: str | None = None
        self._events: queue.Queue[Any] = queue.Queue()
        self._hooked = False
        self._cluster: Any = None
        self._reaper: _Reaper | None = None
        self._client: Any = None
        self._where: _Placement | None = None
        self._ours: frozenset[str] = frozenset()  # the keys of the call that runs (for the lost-worker events)
        self._failed: EngineError | Cancelled | None = None
        self._closed = False

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def map(
        self,
        fn: Callable[[Any], Any],
        items: Sequence[Any],
        *,
        progress: Progress | None = None,
        label: Callable[[Any], str] = str,
        affinity: Callable[[Any], str | None] | None = None,
    ) -> list[Outcome]:
        """:func:`map_items` on this session's engine; ``progress`` (default the session's) gets the items'
        status lines, fractions and partial Outcomes."""
        if self._closed:
            raise EngineError("the cluster engine was already closed; start a new run")
        items = list(items)
        self.cancel.raise_if_cancelled()
        if not items:
            return []
        progress = progress if progress is not None else self.progress
        names = [_label(label, item, i) for i, item in enumerate(items)]
        if self.kind is None:
            self.kind = resolved_kind(self.spec, len(items))
        if self.kind == "sync":
            return _run_sync(fn, items, names, progress, self.cancel)
        self._open(self.kind, len(items))
        return self._run(fn, items, names, progress, affinity)

    def close(self) -> None:
        """End what the session started (its client, the cluster and, on ``ssh``, whatever outlived the
        close on the hosts); once, whatever happened before."""
        if self._closed:
            return
        self._closed = True
        client, cluster, reaper = self._client, self._cluster, self._reaper
        self._client = self._cluster = self._reaper = None
        if client is not None:
            with contextlib.suppress(Exception):
                client.unsubscribe_topic("all")
            with contextlib.suppress(Exception):
                client.close(timeout=CLOSE_TIMEOUT_S)
        if cluster is not None:
            _close_cluster(cluster)
        if reaper is not None:
            reaper.kill(scheduler=True)  # whatever did not end with the close

    # --- the cluster ---------------------------------------------------------------------------------
    def _open(self, kind: str, n_items: int) -> None:
        if self._failed is not None:
            raise self._failed  # a start that failed is not tried again within the run
        if self._client is not None:
            return
        try:
            import dask  # noqa: F401 - checked here: the message below beats an ImportError deep inside
            import distributed  # noqa: F401
        except ImportError as exc:
            raise EngineError(
                f"the {kind} cluster engine needs Dask: install 'dask[distributed]' ({_one_line(exc)})"
            ) from None
        if not self._hooked:
            self._hooked = True
            # the close runs on the run's thread, never the canceller's
            self.cancel.on_cancel(lambda: self._events.put(_CANCEL))
        try:
            self._start(kind, n_items)
        except (EngineError, Cancelled) as exc:
            self._failed = exc
            raise

    def _start(self, kind: str, n_items: int) -> None:
        import distributed

        spec = self.spec
        self.progress.status(_starting_text(kind, spec, n_items))
        self._cluster, self._reaper = _start_cancellable(kind, spec, n_items, self._events, self.cancel)
        target = self._cluster if self._cluster is not None else spec.address
        try:
            client = distributed.Client(target, set_as_default=False, timeout=CONNECT_TIMEOUT_S)
        except (OSError, TimeoutError) as exc:
            raise EngineError(f"scheduler {spec.address or kind}: cannot connect ({_one_line(exc)})") from None
        self._client = client
        self._where = _Placement(kind, spec, client)  # waits for every ssh host's worker
        if self._reaper is not None:
            self._reaper.learn(client)
        if self.cancel.cancelled:
            raise Cancelled()
        client.subscribe_topic("all", self._on_event)

    def _on_event(self, event: Any) -> None:  # the client's event-loop thread: hand over, nothing more
        msg = event[1] if isinstance(event, tuple) and len(event) == 2 else event
        if isinstance(msg, dict) and msg.get("action") == "remove-worker" and not msg.get("expected"):
            ours = self._ours
            gone = set(msg.get("processing-tasks") or ()) | set(msg.get("lost-computed-tasks") or ())
            for key in sorted(str(k) for k in gone if k in ours):
                self._events.put(("lost", key, str(msg.get("worker", ""))))

    # --- one call ------------------------------------------------------------------------------------
    def _run(
        self,
        fn: Callable[[Any], Any],
        items: list[Any],
        names: list[str],
        progress: Progress,
        affinity: Callable[[Any], str | None] | None,
    ) -> list[Outcome]:
        client, where, events, cancel = self._client, self._where, self._events, self.cancel
        assert client is not None and where is not None and self.kind is not None
        lost: dict[str, str] = {}  # key -> the worker that was lost while it ran (or held) the item
        run_id = uuid.uuid4().hex[:12]
        keys = [f"wb-item-{run_id}-{i}" for i in range(len(items))]
        self._ours = frozenset(keys)
        reporter = _Reporter(progress, len(items))
        outcomes: list[Outcome | None] = [None] * len(items)
        futures: dict[int, Any] = {}
        shipped = _Shipped(self.kind, fn, items, client, run_id)
        for i, item in enumerate(items):
            placement, why = where.restrictions(affinity(item) if affinity is not None else None)
            if why:
                failed = Outcome(i, names[i], error=f"{names[i]}: {why}")
                outcomes[i] = failed
                reporter.finished(failed)
                continue
            future = shipped.submit(i, key=keys[i], **placement)
            futures[i] = future
            future.add_done_callback(lambda _f, i=i: events.put(("done", run_id, i)))
        index_of = {keys[i]: i for i in futures}
        pending = set(futures)
        while pending:
            try:
                event = events.get(timeout=1.0)
            except queue.Empty:
                event = _CANCEL if cancel.cancelled else None
            if event is None:
                continue
            if event is _CANCEL:
                # every future, then the running items: the workers' processes (ssh: killed over SSH at
                # once; local: closing the cluster ends them). An address cluster keeps running what
                # already started (Dask cannot stop a running task).
                with contextlib.suppress(Exception):
                    client.cancel(list(futures.values()), force=True)
                if self._reaper is not None:
                    self._reaper.kill(scheduler=False)
                raise Cancelled()
            if event[0] == "lost":
                _, key, worker = event
                at = index_of.get(key)
                if at is not None and at in pending and key not in lost:
                    lost[key] = worker
                    progress.status(f"{names[at]}: its worker {worker} was lost; Dask runs it again on another worker")
                continue
            if event[1] != run_id:
                continue  # an earlier call's
            done = int(event[2])
            if done not in pending:
                continue
            pending.discard(done)
            outcome = _dask_outcome(done, names[done], futures[done], lost.get(keys[done]))
            outcomes[done] = outcome
            reporter.finished(outcome)
        if cancel.cancelled:
            raise Cancelled()
        return [o for o in outcomes if o is not None]


_STARTED = object()


def _start_cancellable(
    kind: str, spec: EngineSpec, n_items: int, events: queue.Queue[Any], cancel: CancelToken
) -> tuple[Any, _Reaper | None]:
    """:func:`_start_cluster` on a helper thread, so that a cancel returns at once even while the
    processes start (an SSH start waits for each remote process's first lines): a cluster that comes
    up after the run gave up is closed by that thread."""
    if kind == "address":
        return None, None
    lock = threading.Lock()
    state: dict[str, Any] = {}

    def start() -> None:
        started: tuple[Any, _Reaper | None] | None = None
        try:
            started = _start_cluster(kind, spec, n_items)
        except BaseException as exc:  # noqa: BLE001 - handed to the run's thread
            state["error"] = exc
        with lock:
            abandoned = state.get("abandoned", False)
            if not abandoned:
                state["started"] = started
        if abandoned and started is not None:
            _close_cluster(started[0])
            if started[1] is not None:
                started[1].kill(scheduler=True)
        events.put(_STARTED)

    threading.Thread(target=start, name="wb-dask-start", daemon=True).start()
    while True:
        try:
            event = events.get(timeout=1.0)
        except queue.Empty:
            event = _CANCEL if cancel.cancelled else None
        if event is _STARTED:
            break
        if event is _CANCEL:
            with lock:
                state["abandoned"] = True
                started = state.get("started")
            if started is not None:
                _close_cluster(started[0])
            raise Cancelled()
    if "error" in state:
        raise state["error"]
    result: tuple[Any, _Reaper | None] = state["started"]
    return result


def _starting_text(kind: str, spec: EngineSpec, n: int) -> str:
    if kind == "local":
        return f"Starting a local Dask cluster ({_local_workers(spec, n)} workers)"
    if kind == "ssh":
        return f"Starting a Dask cluster over SSH on {', '.join(h.name for h in spec.hosts)}"
    return f"Connecting to the Dask scheduler {spec.address}"


def _dask_outcome(i: int, name: str, future: Any, lost_on: str | None) -> Outcome:
    retried = lost_on is not None
    status = future.status
    if status == "finished":
        try:
            ok, value, tb, worker = future.result()
        except Exception as exc:  # noqa: BLE001 - e.g. a result that does not unpickle here
            return Outcome(i, name, error=f"{name}: its result could not be read back ({_one_line(exc)})")
        return _outcome(i, name, ok, value, tb, worker, retried)
    if status == "cancelled":
        return Outcome(i, name, error=f"{name}: cancelled on the cluster", worker=lost_on or "", retried=retried)
    failure: BaseException | None
    try:
        failure = future.exception()
    except Exception as err:  # noqa: BLE001 - the scheduler went away while we asked
        failure = err
    return Outcome(i, name, error=f"{name}: {_dask_error(failure)}", worker=lost_on or "", retried=retried)


def _dask_error(exc: BaseException | None) -> str:
    """A task that never returned our tuple: the cluster's own failure, as one line."""
    kind = type(exc).__name__ if exc is not None else ""
    if kind == "KilledWorker":
        return "its worker was lost every time it ran it (it may use more memory than the worker has)"
    if kind in ("NoValidWorkerError", "NoWorkerError"):
        return f"no worker could run it for {NO_WORKERS_TIMEOUT} (its host's worker is gone)"
    missing = _import_error(exc)
    if missing is not None:
        return (
            f"the cluster could not load the shipped code ({_one_line(missing)}); code that runs on the "
            "cluster may use the standard library only"
        )
    return f"the Dask cluster could not run it ({_one_line(exc) if exc is not None else 'no reason given'})"


def _import_error(exc: BaseException | None) -> ImportError | None:
    """The ImportError in ``exc``'s chain (Dask wraps a failed unpickling in its own error)."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, ImportError):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


def _close_cluster(cluster: Any) -> None:
    try:
        cluster.close(timeout=CLOSE_TIMEOUT_S)
    except Exception:  # noqa: BLE001 - closing is best effort; the processes are killed below it
        log.warning("closing the Dask cluster failed", exc_info=True)


# --- shipping code to remote workers ---------------------------------------------------------------------
class _Shipped:
    """How the items' calls reach the workers.

    ``local``: ``_call(fn, item)`` as it is (the workers import workbench). ``ssh``/``address``:
    pickled here with cloudpickle, workbench and ``fn``'s module by value (Dask's own pickling would
    send ``fn`` by reference: a module the remote worker cannot import). ``fn`` goes once, as a task
    that loads it on a worker (the others fetch it from there); each item is a small pickle of its
    own, called with ``operator.call``. (Python 3.10 has no ``operator.call``: each item's pickle
    then carries ``fn`` too.)
    """

    def __init__(self, kind: str, fn: Callable[[Any], Any], items: list[Any], client: Any, run_id: str) -> None:
        self.fn, self.items, self.client = fn, items, client
        self.blobs: list[bytes] | None = None
        self.loaded_fn: Any = None
        if kind == "local":
            return
        import functools
        import operator

        call_available = hasattr(operator, "call")
        with _by_value(_by_value_modules(fn, items)) as dumps:
            try:
                if call_available:
                    self.blobs = [dumps(item) for item in items]
                    fn_blob = dumps(functools.partial(_call_pickled, fn))
                else:
                    self.blobs = [dumps(_Invoke(fn, item)) for item in items]
            except Exception as exc:  # noqa: BLE001 - e.g. an item holding a lock or an open file
                name = getattr(fn, "__name__", str(fn))
                raise EngineError(f"cannot ship {name} to the cluster: {_one_line(exc)}") from None
        if call_available:
            import cloudpickle

            self.loaded_fn = client.submit(cloudpickle.loads, fn_blob, key=f"wb-fn-{run_id}", pure=False)

    def submit(self, i: int, **options: Any) -> Any:
        if self.blobs is None:
            return self.client.submit(_call, self.fn, self.items[i], pure=False, **options)
        if self.loaded_fn is None:
            import cloudpickle

            return self.client.submit(cloudpickle.loads, self.blobs[i], pure=False, **options)
        import operator

        return self.client.submit(operator.call, self.loaded_fn, self.blobs[i], pure=False, **options)


@contextlib.contextmanager
def _by_value(modules: list[Any]) -> Iterator[Callable[[Any], bytes]]:
    """``cloudpickle.dumps`` with ``modules`` registered by value (only while it pickles: the
    registration is process-wide)."""
    import cloudpickle

    with _pickle_lock:
        registered = set(cloudpickle.list_registry_pickle_by_value())
        added = [m for m in modules if m.__name__ not in registered]
        for module in added:
            cloudpickle.register_pickle_by_value(module)
        try:
            yield cloudpickle.dumps
        finally:
            for module in added:
                with contextlib.suppress(Exception):
                    cloudpickle.unregister_pickle_by_value(module)


_pickle_lock = threading.Lock()


def _by_value_modules(fn: Callable[[Any], Any], items: list[Any]) -> list[Any]:
    """workbench itself, and the modules of ``fn`` and of the items' types that a remote worker
    cannot import (not the standard library, not an installed package)."""
    found: dict[str, Any] = {}
    top = sys.modules.get(__name__.split(".")[0])
    if top is not None:
        found[top.__name__] = top
    names = {getattr(fn, "__module__", None)} | {type(item).__module__ for item in items}
    for name in names:
        module = sys.modules.get(name) if name else None
        if module is not None and _ships(module):
            found.setdefault(name, module)  # type: ignore[arg-type]
    return list(found.values())


def _ships(module: Any) -> bool:
    name = module.__name__
    top = name.split(".")[0]
    if name == "__main__" or top in sys.stdlib_module_names or top == "builtins":
        return False  # __main__: cloudpickle ships it by value anyway
    if top == __name__.split(".")[0]:
        return False  # covered by the package
    path = str(getattr(module, "__file__", "") or "")
    return bool(path) and not any(part in path for part in ("site-packages", "dist-packages"))


# --- clusters -------------------------------------------------------------------------------------------
def _local_workers(spec: EngineSpec, n_items: int) -> int:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(spec.workers or cores, n_items))


@contextlib.contextmanager
def _cluster_config() -> Iterator[None]:
    """Dask settings of the clusters the engine starts (the SSH processes inherit them): a worker holds
    only the item it runs (a rank's reduction takes seconds: nothing to gain from holding the next one,
    and a lost worker then only costs the item it ran), and an item no worker can take fails in time."""
    import dask

    settings = {
        "distributed.scheduler.worker-saturation": 1.0,
        "distributed.scheduler.no-workers-timeout": NO_WORKERS_TIMEOUT,
    }
    with dask.config.set(settings):
        yield


def _start_cluster(kind: str, spec: EngineSpec, n_items: int) -> tuple[Any, _Reaper | None]:
    """The cluster the engine starts and owns (``local``, ``ssh``; None for ``address``) and, for
    ``ssh``, what kills its remote processes."""
    if kind == "local":
        from distributed import LocalCluster

        try:
            with _cluster_config():
                cluster = LocalCluster(
                    n_workers=_local_workers(spec, n_items),
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                    host="127.0.0.1",
                )
        except Exception as exc:  # noqa: BLE001 - whatever Dask raised, the user gets one line
            raise EngineError(f"the local Dask cluster did not start: {_one_line(exc)}") from None
        return cluster, None
    if kind == "ssh":
        return _start_ssh(spec)
    return None, None


def _is_loopback(hostname: str) -> bool:
    if hostname.lower() in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(hostname.strip("[]")).is_loopback
    except ValueError:
        return False


def remote_python(spec: EngineSpec, host: Host) -> str:
    """The Python command the ``ssh`` engine runs on ``host``."""
    if spec.remote_python:
        return spec.remote_python
    return sys.executable if _is_loopback(host.hostname) else "python3"


def connect_options(host: Host) -> dict[str, Any]:
    """asyncssh ``connect`` options for ``host``: its port, user, key file (or the agent), our known_hosts
    files (never without a host key check), no ``~/.ssh/config`` (the Host is the configuration)."""
    from workbench.core.services.hosts import absolute_key_path
    from workbench.core.services.knownhosts import app_known_hosts, known_name, lookup, user_known_hosts

    if host.proxy_jump:
        raise EngineError(
            f"host {host.name} ({host.label}): the Dask SSH start-up cannot go through ProxyJump "
            f"{host.proxy_jump}; start Dask on the cluster and connect to its scheduler address instead"
        )
    if host.auth == "password":
        raise EngineError(
            f"host {host.name} ({host.label}): the Dask SSH start-up cannot log in with a password; "
            "configure a key file for this host or load its key into an SSH agent"
        )
    files = [p for p in (app_known_hosts(), user_known_hosts()) if p.is_file()]
    if not any(not e.revoked for e in lookup(files, host.hostname, host.port)):
        raise EngineError(
            f"host {host.name} ({known_name(host.hostname, host.port)}): its host key is not known yet; "
            f"connect to it once (ascend-workbench host check {host.name} --accept-new-host-key, or the Hosts "
            "panel) and check its fingerprint"
        )
    options: dict[str, Any] = {
        "port": host.port,
        "known_hosts": [str(p) for p in files],
        "config": [],
        "connect_timeout": CONNECT_TIMEOUT_S,
        "keepalive_interval": host.keepalive_s or 0,
    }
    if host.user:
        options["username"] = host.user
    if host.key_file and host.auth in ("key", "auto"):
        key = absolute_key_path(host.key_file)
        if not os.path.isfile(key):
            raise EngineError(f"host {host.name}: key file {key}: not found; expected the private key to log in with")
        options["client_keys"] = [key]
    elif host.auth == "key":
        raise EngineError(f"host {host.name}: auth 'key' needs a key file")
    return options


def _start_ssh(spec: EngineSpec) -> tuple[Any, _Reaper]:
    hosts = list(spec.hosts)
    options = [connect_options(h) for h in hosts]
    pythons = [remote_python(spec, h) for h in hosts]
    _preflight(hosts, options, pythons)
    from distributed.deploy.spec import SpecCluster
    from distributed.deploy.ssh import Scheduler, Worker

    loopback = all(_is_loopback(h.hostname) for h in hosts)
    bind = {"host": "127.0.0.1"} if loopback else {}  # a test cluster on loopback never listens outside
    scheduler = {
        "cls": Scheduler,
        "options": {
            "address": hosts[0].hostname,
            "connect_options": options[0],
            "kwargs": {"port": 0, "dashboard": False, "dashboard_address": "127.0.0.1:0", **bind},
            "remote_python": pythons[0],
        },
    }
    workers = {
        h.name: {
            "cls": Worker,
            "options": {
                "address": h.hostname,
                "connect_options": options[i],
                "kwargs": {
                    "n_workers": 1,
                    "nthreads": 1,
                    "name": h.name,
                    "port": 0,
                    "worker_port": 0,
                    "resources": {
                        _RESOURCE_NAME + h.name: _RESOURCE_AMOUNT,
                        _RESOURCE_HOSTNAME + h.hostname: _RESOURCE_AMOUNT,
                    },
                    **bind,
                },
                "worker_class": "distributed.Nanny",
                "remote_python": pythons[i],
            },
        }
        for i, h in enumerate(hosts)
    }
    lines = _SpawnLog()
    try:
        with _cluster_config(), lines.capture():
            cluster = SpecCluster(workers, scheduler, name="SSHCluster", silence_logs=logging.ERROR)
    except Exception as exc:  # noqa: BLE001 - whatever Dask raised, the user gets one line
        said = lines.last()
        names = ", ".join(h.name for h in hosts)
        raise EngineError(f"the Dask cluster over SSH on {names} did not start: {said or _one_line(exc)}") from None
    return cluster, _Reaper(hosts, options, pythons)


# Kills the process groups of the given pids that are Dask's (checked in /proc: a pid reused since is
# left alone), never the group given as ours. One group per SSH session: the process and its children.
_KILL = (
    "import os, signal\n"
    "for pid in {pids}:\n"
    "    try:\n"
    '        cmd = open("/proc/%d/cmdline" % pid, "rb").read()\n'
    "        group = os.getpgid(pid)\n"
    "    except OSError:\n"
    "        continue\n"
    '    if (b"distributed" in cmd or b"multiprocessing" in cmd) and group not in {keep}:\n'
    "        try:\n"
    "            os.killpg(group, signal.SIGKILL)\n"
    "        except OSError:\n"
    "            pass\n"
)


class _Reaper:
    """The remote processes of an ``ssh`` cluster, killed over SSH: distributed's SSH deployment only
    asks them to close (a worker busy with an item does not, and closing the SSH session leaves the
    process running), so a cancel and the end of every run kill their process groups."""

    def __init__(self, hosts: list[Host], options: list[dict[str, Any]], pythons: list[str]) -> None:
        self.hosts, self.options, self.pythons = hosts, options, pythons
        self.workers: dict[int, set[int]] = {}  # host index -> the pids of its nanny and worker
        self.scheduler: int | None = None  # the scheduler's pid (on hosts[0])

    def learn(self, client: Any) -> None:
        """Ask the cluster for its processes' pids (``os.getpid`` pickles by reference everywhere)."""
        index = {h.name: i for i, h in enumerate(self.hosts)}
        try:
            info = client.scheduler_info(n_workers=-1).get("workers", {})
            workers = client.run(os.getpid, on_error="ignore")
            nannies = client.run(os.getpid, nanny=True, on_error="ignore")
            self.scheduler = int(client.run_on_scheduler(os.getpid))
        except Exception:  # noqa: BLE001 - without the pids only the graceful close remains
            log.warning("could not learn the Dask processes' pids", exc_info=True)
            return
        for address, worker in info.items():
            i = index.get(str(worker.get("name")))
            if i is None:
                continue
            for pid in (workers.get(address), nannies.get(worker.get("nanny"))):
                if isinstance(pid, int):
                    self.workers.setdefault(i, set()).add(pid)

    def kill(self, scheduler: bool) -> None:
        """Kill the workers' process groups (and the scheduler's) on their hosts, all hosts at once."""
        import asyncio

        targets: dict[int, set[int]] = {i: set(p) for i, p in self.workers.items()}
        if scheduler and self.scheduler is not None:
            targets.setdefault(0, set()).add(self.scheduler)
        if not targets:
            return
        import asyncssh

        mine = os.getpgrp() if hasattr(os, "getpgrp") else -1  # (a Windows desktop has no process groups)

        async def kill_on(i: int, pids: set[int]) -> None:
            host = self.hosts[i]
            keep = [mine] if _is_loopback(host.hostname) else []
            script = _KILL.format(pids=sorted(pids), keep=keep)
            try:
                async with asyncssh.connect(host.hostname, **self.options[i]) as conn:
                    await asyncio.wait_for(conn.run(f"{self.pythons[i]} -c '{script}'", check=False), CONNECT_TIMEOUT_S)
            except (OSError, asyncssh.Error, asyncio.TimeoutError) as exc:
                log.warning("host %s: could not kill the Dask processes %s: %s", host.name, sorted(pids), exc)

        async def kill_all() -> None:
            await asyncio.gather(*(kill_on(i, pids) for i, pids in targets.items()))

        asyncio.run(kill_all())
        self.workers = {}
        if scheduler:
            self.scheduler = None


class _SpawnLog(logging.Handler):
    """The remote processes' stderr lines that distributed's SSH deployment logs while they start."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        with contextlib.suppress(Exception):
            self.lines.append(record.getMessage())

    def last(self) -> str:
        """The last line that is not one of Dask's own log lines (e.g. the Python error), else the last."""
        lines = [line.strip() for line in self.lines if line.strip()]
        said = [line for line in lines if not _DASK_LOG_LINE.match(line)]
        return (said or lines or [""])[-1]

    @contextlib.contextmanager
    def capture(self) -> Iterator[None]:
        logger = logging.getLogger("distributed.deploy.ssh")
        old = logger.level
        logger.addHandler(self)
        if logger.getEffectiveLevel() > logging.INFO:
            logger.setLevel(logging.INFO)
        try:
            yield
        finally:
            logger.removeHandler(self)
            logger.setLevel(old)


_PROBE = "import sys, distributed; print(sys.version_info[0], sys.version_info[1], distributed.__version__)"


def _preflight(hosts: list[Host], options: list[dict[str, Any]], pythons: list[str]) -> None:
    """Log in to every host and ask its Python for distributed: one clear line for the first that fails."""
    import asyncio

    import asyncssh

    async def probe(host: Host, opts: dict[str, Any], python: str) -> str | None:
        where = f"host {host.name} ({host.label})"
        try:
            async with asyncssh.connect(host.hostname, **opts) as conn:
                done = await asyncio.wait_for(conn.run(f"{python} -c '{_PROBE}'", check=False), CONNECT_TIMEOUT_S)
        except asyncssh.HostKeyNotVerifiable as exc:
            return f"{where}: its host key does not match our known_hosts ({_one_line(exc)}); refusing to connect"
        except asyncssh.PermissionDenied:
            return (
                f"{where}: the SSH login was refused; the Dask start-up logs in with the host's key file or "
                "an SSH agent: configure one of them for this host"
            )
        except asyncssh.KeyImportError as exc:
            return (
                f"{where}: its key file cannot be read without a passphrase ({_one_line(exc)}); load the key "
                "into an SSH agent (ssh-add)"
            )
        except (OSError, asyncssh.Error, asyncio.TimeoutError) as exc:
            return f"{where}: cannot connect ({_connect_reason(exc)})"
        out = str(done.stdout or "").split()
        if done.exit_status != 0 or len(out) < 3:
            err = [ln.strip() for ln in str(done.stderr or "").splitlines() if ln.strip()]
            said = err[-1] if err else f"exit status {done.exit_status}"
            return (
                f"{where}: {python} cannot run Dask ({said}); install 'dask[distributed]' there "
                "or set the remote Python"
            )
        here = f"{sys.version_info[0]}.{sys.version_info[1]}"
        there = f"{out[0]}.{out[1]}"
        if there != here:
            return (
                f"{where}: {python} is Python {there}, this workbench runs {here}; the reductions are shipped "
                "as Python code and need the same version: set the remote Python"
            )
        return None

    async def probe_all() -> list[str | None]:
        return list(await asyncio.gather(*(probe(h, o, p) for h, o, p in zip(hosts, options, pythons))))

    problems = [p for p in asyncio.run(probe_all()) if p]
    if problems:
        raise EngineError(problems[0])


def _connect_reason(exc: BaseException) -> str:
    """Why an SSH connection failed, as a few words ("Connection refused", "no answer within 20 s")."""
    import asyncio

    if isinstance(exc, TimeoutError | asyncio.TimeoutError):
        return f"no answer within {CONNECT_TIMEOUT_S} s"
    if isinstance(exc, OSError) and isinstance(exc.errno, int) and exc.errno > 0:
        return os.strerror(exc.errno)  # asyncio's own text names only the address
    if isinstance(exc, OSError) and exc.strerror:
        return str(exc.strerror)  # e.g. a name that does not resolve
    return _one_line(exc)


class _Placement:
    """Where an item with an affinity may run: the Dask restrictions for ``client.submit``."""

    def __init__(self, kind: str, spec: EngineSpec, client: Any) -> None:
        self.kind, self.spec = kind, spec
        self.workers: dict[str, dict[str, Any]] = {}
        if kind in ("ssh", "address"):
            try:
                client.wait_for_workers(len(spec.hosts) if kind == "ssh" else 1, timeout=START_TIMEOUT_S)
            except (OSError, TimeoutError) as exc:
                where = f"scheduler {spec.address}" if kind == "address" else "the Dask cluster over SSH"
                raise EngineError(f"{where}: no workers joined ({_one_line(exc)})") from None
            self.workers = dict(client.scheduler_info(n_workers=-1).get("workers", {}))
        if kind == "address":
            self._check_python(client)

    def _check_python(self, client: Any) -> None:
        here = f"{sys.version_info[0]}.{sys.version_info[1]}"
        try:
            versions = client.get_versions(check=False)
        except Exception:  # noqa: BLE001 - only a check; the run reports what really fails
            return
        for address, info in (versions.get("workers") or {}).items():
            python = str((info.get("host") or {}).get("python", ""))
            there = ".".join(python.split(".")[:2])
            if there and there != here:
                raise EngineError(
                    f"scheduler {self.spec.address}: worker {address} runs Python {there}, this workbench runs "
                    f"{here}; the reductions are shipped as Python code and need the same version"
                )

    def restrictions(self, host: str | None) -> tuple[dict[str, Any], str]:
        """(``submit`` keywords, "") or ({}, why the item cannot run anywhere)."""
        if not host or self.kind not in ("ssh", "address"):
            return {}, ""
        if self.kind == "ssh":
            for h in self.spec.hosts:
                if h.name == host:
                    return {"resources": {_RESOURCE_NAME + h.name: 1}}, ""
            if any(h.hostname == host for h in self.spec.hosts):
                return {"resources": {_RESOURCE_HOSTNAME + host: 1}}, ""
            names = ", ".join(h.name for h in self.spec.hosts)
            return {}, f"no worker runs on host {host} (the cluster's hosts: {names})"
        addresses = self._addresses_on(host)
        if not addresses:
            return {}, f"no worker of scheduler {self.spec.address} runs on host {host}"
        return {"workers": sorted(addresses), "allow_other_workers": False}, ""

    def _addresses_on(self, host: str) -> set[str]:
        by_name = {a for a, w in self.workers.items() if str(w.get("name")) == host}
        if by_name:
            return by_name
        ips = {host}
        import socket

        with contextlib.suppress(OSError):
            ips |= {str(info[4][0]) for info in socket.getaddrinfo(host, None)}
        return {a for a, w in self.workers.items() if str(w.get("host")) in ips}
