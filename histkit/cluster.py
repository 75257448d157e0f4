"""Parse and audit on a Dask cluster (`--scheduler ADDRESS`): the work `--jobs` gives local
worker processes, as tasks of a `dask.distributed` scheduler, with the same results in the
same order.

1. The parent lists the input files (folders at URLs too) and sends them, a few a task, to
   be planned on the workers, where they are read: a planning task cuts its files into
   byte ranges at hand starts exactly as `--jobs` does (`iter_chunks(span_bytes=...)`),
   reading each once; a file that cannot be cut (UTF-16) is one range, read whole.
2. The ranges, grouped into tasks of about a megabyte, run `process_chunk` on the workers,
   which read their own bytes. A task returns its chunks' `ChunkResult`s; for a partitioned
   output (`parts`) it writes its own part files into the output's staging folder, named
   by the task's place in the input, and returns row counts instead of tables.
3. The parent takes the results in input order with a bounded number of tasks in flight,
   so it never holds the whole corpus; it only commits (`histkit.warehouse`).

A worker lost mid-run has its tasks run again by Dask on another; a task's result and
files depend on its input alone (a retried task replaces its part files), so no hand is
lost or counted twice. A file a worker cannot read is an `unreadable` record naming it,
as in a local run, and the run goes on. Workers need the same histkit (`connect` checks).
"""

from __future__ import annotations

import gc
import os
import secrets
import socket
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import suppress
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from histkit.parallel import ChunkResult, process_chunk
from histkit.reader import Chunk, iter_chunks

if TYPE_CHECKING:
    from distributed import Client, Future

    from histkit.rules import RuleProfile

__all__ = [
    "ClusterError",
    "DaskMissingError",
    "PartTarget",
    "connect",
    "input_files",
    "plan",
    "run",
]

SPAN_BYTES = 1 << 20  # the byte ranges of --jobs (histkit.parallel)
TASK_BYTES = 1 << 20  # chunks (ranges, small files) grouped into tasks of about this size
PLAN_FILES = 16  # files planned by one task
INSTALL = "pip install 'histkit[dask]'"


class ClusterError(RuntimeError):
    """A scheduler that cannot be reached or used, or a run the cluster could not finish
    (the command line's one-line error)."""


class DaskMissingError(ClusterError):
    """dask.distributed is not installed."""


def distributed_module() -> Any:
    try:
        import distributed
    except ImportError:
        raise DaskMissingError(f"running on a Dask cluster needs Dask: {INSTALL}") from None
    return distributed


# ------------------------------------------------------------------------- connecting


TIMEOUT_ENV = "HISTKIT_SCHEDULER_TIMEOUT"
DEFAULT_TIMEOUT = 10.0  # seconds to answer, and for a first worker to be there
PORTS = "the dashboard is usually :8787, the scheduler :8786"


def scheduler_timeout() -> float:
    """Seconds a scheduler has to answer: $HISTKIT_SCHEDULER_TIMEOUT, else 10."""
    text = os.environ.get(TIMEOUT_ENV, "").strip()
    if not text:
        return DEFAULT_TIMEOUT
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < float("inf"):
        raise ClusterError(f"{TIMEOUT_ENV} must be a number of seconds above 0, not {text!r}")
    return seconds


def connect(
    address: str | Client, *, timeout: float | None = None, as_default: bool = False
) -> Client:
    """A client of the scheduler at `address` ("tcp://host:8786", "host:8786", or a
    scheduler file that `dask scheduler --scheduler-file` wrote), checked before any work:
    answering as a Dask scheduler within `timeout` seconds (None: `scheduler_timeout()`),
    with at least one worker, whose histkit is this one's; `ClusterError` otherwise, with
    nothing left open. `as_default`: the client becomes Dask's default, as `Client(address)`
    makes it. A `Client` is checked and returned as it is."""
    distributed = distributed_module()
    timeout = scheduler_timeout() if timeout is None else timeout
    if not isinstance(address, str):  # a Client
        _check_workers(address, str(address.scheduler.address), timeout)
        return address
    address = address.strip()
    if not address:
        raise ClusterError("the scheduler address is empty (e.g. tcp://scheduler-host:8786)")
    shown = address
    if Path(address).is_file():
        address = _scheduler_file_address(address)
        shown = f"{address} (from {shown})"
    try:
        from distributed.comm.addressing import parse_address, parse_host_port

        scheme, location = parse_address(address if "://" in address else f"tcp://{address}")
        host_port = parse_host_port(location) if scheme in ("tcp", "tls") else None
    except (ValueError, TypeError) as e:
        raise ClusterError(
            f"not a scheduler address: {address!r} ({_first_line(e)}; e.g. "
            "tcp://scheduler-host:8786)"
        ) from None
    security = distributed.Security()
    if host_port is not None:
        args = security.get_connection_args("client")
        if scheme == "tls" and args.get("ssl_context") is None:
            raise ClusterError(
                f"{shown}: tls:// needs the cluster's certificates in Dask's configuration "
                "(distributed.comm.tls.ca-file, distributed.comm.tls.client.cert and .key)"
            )
        _reachable(shown, host_port, timeout)
        _ask_identity(address, shown, timeout, args)
    client_class = _closing_client_class()
    try:
        client: Client = client_class(
            address, timeout=timeout, set_as_default=as_default, security=security
        )
    except Exception as e:  # whatever starting a client raised: it closed itself
        raise ClusterError(
            f"cannot connect to the Dask scheduler at {shown}: {_first_line(e)}"
        ) from None
    try:
        _check_workers(client, shown, timeout)
    except BaseException:
        client.close()
        raise
    return client


def _scheduler_file_address(path: str) -> str:
    """The address a scheduler file names (the JSON `dask scheduler --scheduler-file`
    writes), or `ClusterError` for a file that is not one."""
    import json

    try:
        with open(path, "rb") as f:
            info = json.loads(f.read(1 << 20))
    except OSError as e:
        raise ClusterError(f"cannot read the scheduler file {path}: {e.strerror or e}") from None
    except ValueError:
        info = None
    address = info.get("address") if isinstance(info, dict) else None
    if not isinstance(address, str) or not address.strip():
        raise ClusterError(
            f'{path} is not a scheduler file (the JSON with an "address" that `dask '
            "scheduler --scheduler-file FILE` writes); give that file, or an address such "
            "as tcp://scheduler-host:8786"
        )
    return address.strip()


def _reachable(shown: str, host_port: tuple[str, int], timeout: float) -> None:
    """A refused or unresolvable address is said at once (Dask's client would retry it
    until its timeout)."""
    try:
        socket.create_connection(host_port, timeout=timeout).close()
    except OSError as e:
        why = e.strerror or type(e).__name__
        raise ClusterError(f"cannot reach the Dask scheduler at {shown}: {why}") from None


def _ask_identity(address: str, shown: str, timeout: float, args: Mapping[str, Any]) -> None:
    """Shake hands with `address` and ask who it is, all within `timeout`: Dask's client
    waits for the handshake without a limit, so an HTTP server (the dashboard's :8787
    given for the scheduler's :8786) would hang it, and a server that answers something
    else makes it raise whatever the bytes decode to (a MemoryError was seen)."""
    import asyncio
    import ssl
    from concurrent.futures import ThreadPoolExecutor

    from distributed.comm import connect as comm_connect
    from distributed.core import send_recv

    async def ask() -> Any:
        comm = await comm_connect(address, timeout=timeout, **args)
        try:
            return await send_recv(comm, op="identity")
        finally:
            comm.abort()

    async def bounded() -> Any:
        return await asyncio.wait_for(ask(), timeout)

    # a loop of its own, in a thread of its own: the caller may be running one (Jupyter)
    with ThreadPoolExecutor(1, thread_name_prefix="histkit-ask-scheduler") as pool:
        try:
            reply = pool.submit(asyncio.run, bounded()).result()
        except TimeoutError:
            raise ClusterError(
                f"no Dask scheduler answered at {shown} within {timeout:g} s ({PORTS})"
            ) from None
        except ssl.SSLError as e:
            raise ClusterError(
                f"the TLS handshake with {shown} failed ({_first_line(e)}): check the "
                "certificates in Dask's configuration (distributed.comm.tls)"
            ) from None
        except Exception:  # bytes that are not Dask's: any error decoding them
            reply = None
    kind = reply.get("type") if isinstance(reply, dict) else None
    if kind == "Scheduler":
        return
    if kind in ("Worker", "Nanny"):
        what = "worker" if kind == "Worker" else "worker's nanny"
        raise ClusterError(
            f"{shown} is a Dask {what}, not the scheduler: give the scheduler's address "
            "(usually :8786)"
        )
    raise ClusterError(f"no Dask scheduler answered at {shown}: something else did ({PORTS})")


_CLOSING_CLIENT: type[Client] | None = None


def _closing_client_class() -> type[Client]:
    """`distributed.Client`, but one that closes itself when it cannot start: else the
    half-made client is closed only as the interpreter exits, by `Client.__del__`, which
    waits 20 s and prints a second traceback."""
    global _CLOSING_CLIENT
    if _CLOSING_CLIENT is None:
        base: type[Client] = distributed_module().Client

        class Client(base):  # type: ignore[valid-type,misc,unused-ignore]
            def start(self, **kwargs: Any) -> None:
                try:
                    super().start(**kwargs)
                except BaseException:
                    with suppress(Exception):
                        self.close(timeout=5)
                    raise

        _CLOSING_CLIENT = Client
    return _CLOSING_CLIENT


def _check_workers(client: Client, address: str, timeout: float) -> None:
    try:
        client.wait_for_workers(1, timeout=timeout)
    except (TimeoutError, OSError):
        raise ClusterError(
            f"the Dask scheduler at {address} has no workers (none joined in {timeout:g} s)"
        ) from None
    try:
        found = client.run(_probe)
    except Exception as e:  # a worker that cannot even unpickle histkit's function
        raise ClusterError(
            f"the workers of {address} cannot run histkit ({_first_line(e)}): install the "
            "same histkit on every worker"
        ) from None
    from histkit import __version__

    other = sorted({v for v, _ in found.values() if v != __version__})
    if other:
        raise ClusterError(
            f"the workers of {address} run histkit {', '.join(other)}, this is {__version__}: "
            "install the same histkit on every worker"
        )


def _probe() -> tuple[str, str]:
    """On a worker: its histkit version and working folder."""
    from histkit import __version__

    return __version__, os.getcwd()


def _first_line(e: BaseException) -> str:
    text = str(e).strip() or type(e).__name__
    return text.splitlines()[0]


# ----------------------------------------------------------------------------- work


@dataclass(frozen=True)
class PartTarget:
    """Where tasks write their part files of a partitioned result: the output's staging
    folder (`ParquetSink.parts_location()`: a path every worker sees, or a URL)."""

    location: str
    partition_by: tuple[str, ...]
    compression: str = "zstd"

    def write(self, tables: Mapping[str, Any], part: str) -> dict[str, int]:
        from histkit.storage import is_url, url_filesystem
        from histkit.warehouse import write_parts

        if not is_url(self.location):
            return write_parts(
                tables, self.location, self.partition_by, part, compression=self.compression
            )
        from pyarrow.fs import FSSpecHandler, PyFileSystem

        fs, root = url_filesystem(self.location)
        return write_parts(
            tables,
            root,
            self.partition_by,
            part,
            compression=self.compression,
            filesystem=PyFileSystem(FSSpecHandler(fs)),
        )


def input_files(paths: Iterable[str | Path]) -> list[str]:
    """The files of `paths` in input order (folders walked as `iter_files` walks them,
    at URLs too), as the sources the tables will name."""
    from histkit.reader import _input_files

    return [str(p) for p in _input_files(paths)]


def plan(sources: list[str], site: str | None, span_bytes: int) -> list[list[tuple[Chunk, int]]]:
    """On a worker: each file's chunks as `--jobs` makes them, with their sizes in bytes.
    A file `iter_chunks` gives as blocks (one that cannot be cut: UTF-16) becomes one
    range, read whole by the task that gets it, so no text travels back and forth."""
    from histkit.reader import Span

    out: list[list[tuple[Chunk, int]]] = []
    for source in sources:
        size = _size(source)
        chunks: list[tuple[Chunk, int]] = []
        for chunk in iter_chunks([source], site=site, span_bytes=span_bytes):
            if chunk.blocks:  # read whole by one task instead
                chunks = [(Chunk(source, span=Span(0, None, 1)), size)]
                break
            if chunk.span is not None:
                end = size if chunk.span.end is None else chunk.span.end
                chunks.append((chunk, max(0, end - chunk.span.start)))
            else:
                chunks.append((chunk, size if chunk.xml is not None else 0))
        out.append(chunks)
    return out


def _size(source: str) -> int:
    from histkit.storage import Remote, is_url

    try:
        if is_url(source):
            fs, path = Remote(source)._fs
            return int(fs.size(path) or 0)
        return os.path.getsize(source)
    except (OSError, TypeError):
        return 0  # unreadable: iter_chunks says why


_WORKER_READY = False


def process(
    chunks: tuple[Chunk, ...], kw: dict[str, Any], parts: PartTarget | None, index: int
) -> tuple[list[ChunkResult], dict[str, int]]:
    """On a worker: one task's chunks, as `process_chunk` makes them; with `parts`, their
    tables written as part `index` of the result (and left out of what is sent back)."""
    global _WORKER_READY
    if not _WORKER_READY:  # as histkit.parallel's worker processes (bulk_gc)
        gc.set_threshold(100_000, *gc.get_threshold()[1:])
        _WORKER_READY = True
    results = [process_chunk(c, **kw) for c in chunks]
    if parts is None:
        return results, {}
    import pyarrow as pa

    present = [r.tables for r in results if r.tables is not None]
    if not present:
        return results, {}
    names = [name for name, _ in present[0].items()]
    merged = {n: pa.concat_tables([t[n] for t in present]) for n in names}
    written = parts.write(merged, f"part-{index:06d}")
    return [replace(r, tables=None) for r in results], written


def tasks(
    client: Client,
    files: list[str],
    *,
    site: str | None,
    span_bytes: int | None = None,
    task_bytes: int | None = None,
    token: str = "",
) -> Iterator[tuple[Chunk, ...]]:
    """The input's chunks grouped into tasks, in input order, planned on the cluster (a
    few planning tasks ahead of the one being read). `span_bytes`, `task_bytes`: the
    sizes of byte ranges and tasks (None: `SPAN_BYTES`, `TASK_BYTES`)."""
    span_bytes = span_bytes or SPAN_BYTES
    task_bytes = task_bytes or TASK_BYTES
    groups = enumerate(files[i : i + PLAN_FILES] for i in range(0, len(files), PLAN_FILES))
    token = token or secrets.token_hex(4)
    ahead: deque[Future] = deque()

    def refill() -> None:
        while len(ahead) < 2:
            index, group = next(groups, (0, None))
            if group is None:
                return
            key = f"histkit-plan-{token}-{index:06d}"
            ahead.append(client.submit(plan, group, site, span_bytes, key=key, pure=False))

    refill()
    pending: list[Chunk] = []
    size = 0
    try:
        while ahead:
            planned = _result(ahead.popleft())
            refill()
            for chunk, n in (x for chunks in planned for x in chunks):
                if pending and size + n > task_bytes:
                    yield tuple(pending)
                    pending, size = [], 0
                pending.append(chunk)
                size += n
        if pending:
            yield tuple(pending)
    finally:
        if ahead:
            client.cancel(list(ahead))


def run(
    paths: Iterable[str | Path],
    *,
    client: Client,
    site: str | None = None,
    tables: bool = True,
    audit: bool = False,
    profile: RuleProfile | None = None,
    parts: PartTarget | None = None,
    on_written: Callable[[Mapping[str, int]], None] | None = None,
    span_bytes: int | None = None,
    task_bytes: int | None = None,
    strict: bool = False,
) -> Iterator[ChunkResult]:
    """`histkit.parallel.run` on the cluster of `client`: results per chunk, in input
    order, the same as a local run's. `parts`: tasks write their tables there themselves
    (a partitioned result) and `on_written` gets each task's row counts, in order."""
    files = input_files(paths)
    check_relative(client, files)
    kw: dict[str, Any] = {"site": site, "tables": tables, "audit": audit, "profile": profile}
    if strict:
        kw["strict"] = True
    threads = sum(w.get("nthreads", 1) for w in client.scheduler_info()["workers"].values())
    limit = max(2, 2 * threads)  # tasks in flight: every thread busy, one more waiting each
    token = secrets.token_hex(4)
    window: deque[Future] = deque()
    try:
        grouped = tasks(
            client, files, site=site, span_bytes=span_bytes, task_bytes=task_bytes, token=token
        )
        for index, chunks in enumerate(grouped):
            key = f"histkit-task-{token}-{index:06d}"
            window.append(client.submit(process, chunks, kw, parts, index, key=key, pure=False))
            if len(window) >= limit:
                yield from _take(window.popleft(), on_written)
        while window:
            yield from _take(window.popleft(), on_written)
    finally:
        if window:
            client.cancel(list(window))


def _take(
    future: Future, on_written: Callable[[Mapping[str, int]], None] | None
) -> Iterator[ChunkResult]:
    results, written = _result(future)
    future.release()
    if written and on_written is not None:
        on_written(written)
    yield from results


def _result(future: Future) -> Any:
    """A task's result; the cluster's failures as `ClusterError` (a task's own exception,
    a bug, is raised as it is)."""
    distributed = distributed_module()
    try:
        return future.result()
    except distributed.KilledWorker as e:
        raise ClusterError(
            f"the cluster lost every worker that ran a task ({_first_line(e)}); "
            "see the workers' logs"
        ) from None
    except (distributed.comm.CommClosedError, OSError, TimeoutError) as e:
        raise ClusterError(f"lost the Dask scheduler: {_first_line(e)}") from None


def check_relative(client: Client, files: list[str]) -> None:
    """Relative paths name the same files on the workers only when they run in this
    folder: else say so, rather than report every file as missing."""
    from histkit.storage import is_url

    if all(is_url(f) or os.path.isabs(f) for f in files):
        return
    here = os.getcwd()
    elsewhere = sorted({cwd for _, cwd in client.run(_probe).values() if cwd != here})
    if elsewhere:
        raise ClusterError(
            f"the workers run in another folder ({elsewhere[0]}), where relative paths name "
            "other files: give absolute paths or URLs"
        )
