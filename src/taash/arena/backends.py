"""Where the arena's duplicate pairs, and training's self-play deals, are played: in this process, in local worker
processes, or as Ray tasks on one machine or a cluster.

A backend plays a list of :class:`PairJob` and hands back their results in the jobs' order, whatever order they
finish in, so the same seeds give the same summary, pairs.csv and chart on every backend. Each finished pair is
reported through a callback (the progress bar). The work of one pair is :func:`play_job` everywhere. The same
backends run any other picklable work over a stream of jobs (:meth:`Backend.run`: the training data's deals,
:mod:`taash.training.seep_data`), a bounded window of them at a time, the results again in the jobs' order.

Ray is an optional extra (``pip install 'taash[ray]'``); :func:`ray_backend` turns its absence, or an address
that cannot be reached, into :class:`BackendError` with one sentence.
"""

from __future__ import annotations

import contextlib
import socket
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from taash.arena.duplicate import PairResult, play_pair
from taash.games.api import Game


class BackendError(ValueError):
    """A backend that cannot start: Ray missing, or a cluster that cannot be reached (one sentence)."""


@dataclass(frozen=True, slots=True)
class PairJob:
    """One duplicate pair to play: bot A, bot B, the game and the pair's seed."""

    bot_a: str
    bot_b: str
    game: Game
    seed: int


def play_job(job: PairJob) -> PairResult:
    """The work of one pair, the same on every backend."""
    return play_pair(job.bot_a, job.bot_b, job.game, job.seed)


Job = TypeVar("Job")
Result = TypeVar("Result")
Pending = TypeVar("Pending")
#: Jobs in flight per worker (per CPU on Ray) while a stream of jobs is run: enough to keep every worker busy,
#: few enough that a stream cut short (a time limit) leaves little work started after the cut.
WINDOW_PER_WORKER = 4


class Backend(Protocol):
    """Plays pairs and returns their results in the jobs' order, calling ``on_pair`` as each one finishes; runs
    any other work the same way."""

    def play(self, jobs: Sequence[PairJob], on_pair: Callable[[], None]) -> list[PairResult]: ...

    def run(self, work: Callable[[Job], Result], jobs: Iterable[Job], on_done: Callable[[], None]
            ) -> list[Result]:
        """``work(job)`` for each job, the results in the jobs' order; ``jobs`` is read as workers free up (a
        generator may stop early), ``on_done`` is called as each result arrives. ``work`` is a module-level
        function and the jobs picklable (they travel to worker processes or Ray nodes)."""
        ...


def windowed(submit: Callable[[Job], Pending], wait: Callable[[Pending], Result], jobs: Iterable[Job], window: int,
             on_done: Callable[[], None]) -> list[Result]:
    """Submit ``jobs`` keeping at most ``window`` in flight, and wait for each in the jobs' order."""
    results: list[Result] = []
    flight: deque[Pending] = deque()
    for job in jobs:
        flight.append(submit(job))
        if len(flight) >= window:
            results.append(wait(flight.popleft()))
            on_done()
    while flight:
        results.append(wait(flight.popleft()))
        on_done()
    return results


class InProcess:
    """Every pair in this process, one after another."""

    def play(self, jobs: Sequence[PairJob], on_pair: Callable[[], None]) -> list[PairResult]:
        return self.run(play_job, jobs, on_pair)

    def run(self, work: Callable[[Job], Result], jobs: Iterable[Job], on_done: Callable[[], None]
            ) -> list[Result]:
        results = []
        for job in jobs:
            results.append(work(job))
            on_done()
        return results


class LocalProcesses:
    """The pairs spread over worker processes of this machine."""

    def __init__(self, pool: ProcessPoolExecutor, workers: int) -> None:
        self.pool = pool
        self.workers = workers

    def play(self, jobs: Sequence[PairJob], on_pair: Callable[[], None]) -> list[PairResult]:
        chunk = max(1, min(16, len(jobs) // (4 * self.workers)))
        results = []
        for result in self.pool.map(play_job, jobs, chunksize=chunk):
            results.append(result)
            on_pair()
        return results

    def run(self, work: Callable[[Job], Result], jobs: Iterable[Job], on_done: Callable[[], None]
            ) -> list[Result]:
        def wait(future: Future[Result]) -> Result:
            return future.result()

        return windowed(lambda job: self.pool.submit(work, job), wait, jobs, WINDOW_PER_WORKER * self.workers,
                        on_done)


class RayTasks:
    """Each pair a Ray task (one CPU), on whatever nodes the cluster has; results gathered in the jobs' order."""

    def __init__(self, ray: Any) -> None:
        self.ray = ray
        self.task = ray.remote(num_cpus=1)(play_job)
        self._tasks: dict[Callable[..., Any], Any] = {play_job: self.task}

    def play(self, jobs: Sequence[PairJob], on_pair: Callable[[], None]) -> list[PairResult]:
        try:
            refs = [self.task.remote(job) for job in jobs]
            pending = list(refs)
            while pending:
                done, pending = self.ray.wait(pending, num_returns=1)
                for _ in done:
                    on_pair()
            return list(self.ray.get(refs))
        except self.ray.exceptions.RayError as e:  # a node lost, or a worker without taash installed
            raise BackendError(f"a pair failed on Ray: {_first_line(e)}") from None

    def run(self, work: Callable[[Job], Result], jobs: Iterable[Job], on_done: Callable[[], None]
            ) -> list[Result]:
        if work not in self._tasks:
            self._tasks[work] = self.ray.remote(num_cpus=1)(work)
        task = self._tasks[work]
        cpus = max(1, int(self.ray.cluster_resources().get("CPU", 1)))
        try:
            return windowed(task.remote, self.ray.get, jobs, WINDOW_PER_WORKER * cpus, on_done)
        except self.ray.exceptions.RayError as e:
            raise BackendError(f"a task failed on Ray: {_first_line(e)}") from None


def import_ray() -> Any:
    """The ``ray`` module, or :class:`BackendError` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise BackendError("--ray needs Ray: pip install 'taash[ray]'") from None
    return ray


def connect_ray(ray: Any, address: str, cpus: int) -> bool:
    """Join the Ray cluster at ``address``, or for ``auto`` the one running on this machine, else a fresh local
    one on loopback with ``cpus`` CPUs and no dashboard. Returns whether this call started Ray (and so should
    shut it down)."""
    if address != "auto":
        _check_reachable(address)
    if ray.is_initialized():
        return False
    quiet: dict[str, Any] = {"logging_level": "ERROR", "log_to_driver": False, "configure_logging": True}
    if address == "auto":
        with contextlib.suppress(ConnectionError):
            ray.init(address="auto", **quiet)
            return True
        ray.init(num_cpus=cpus, include_dashboard=False, _node_ip_address="127.0.0.1", **quiet)
        return True
    try:
        ray.init(address=address, **quiet)
    except (ConnectionError, ValueError, RuntimeError) as e:
        raise BackendError(f"--ray {address}: no Ray cluster can be reached there ({_first_line(e)})") from None
    return True


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """A cluster's ``HOST:PORT`` (or ``ray://HOST:PORT``) that answers a TCP connection within ``timeout``
    seconds, else :class:`BackendError`: Ray itself would retry an unreachable address without end."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise BackendError(f"--ray {address}: say auto or a cluster's HOST:PORT, such as 10.0.0.5:6379")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        raise BackendError(f"--ray {address}: no Ray cluster can be reached there ({e.strerror or e})") from None


def _first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


@contextlib.contextmanager
def ray_backend(address: str, cpus: int) -> Iterator[RayTasks]:
    """Ray tasks on the cluster at ``address`` (or ``auto``), shut down afterwards if this run started Ray."""
    ray = import_ray()
    started = connect_ray(ray, address, cpus)
    try:
        yield RayTasks(ray)
    finally:
        if started:
            ray.shutdown()


@contextlib.contextmanager
def local_backend(workers: int) -> Iterator[Backend]:
    """This process alone for one worker, else a pool of ``workers`` processes."""
    if workers <= 1:
        yield InProcess()
        return
    with ProcessPoolExecutor(workers) as pool:
        yield LocalProcesses(pool, workers)
