"""On a Dask cluster (`--scheduler`, `histkit.dask`): the same tables and audit as a local
run, flat and partitioned, on the real corpus and on simulated sessions; a worker killed
mid-run changes nothing; files a worker cannot read are reported; inputs and outputs at
fsspec URLs. Each test module run starts a real 2-process `LocalCluster` and closes it."""

from __future__ import annotations

import faulthandler
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from histkit.audit import audit_paths
from histkit.cli import main
from histkit.parallel import build_tables
from histkit.tables import Tables
from histkit.warehouse import ParquetSink, read_tables, write_tables
from tests.conftest import CORPUS, SAMPLE_DATA

distributed = pytest.importorskip("distributed", reason="dask[distributed] is not installed")

from histkit import cluster  # noqa: E402

TIMEOUT = 300  # seconds: a hung cluster test fails (its process ends) instead of hanging CI


@pytest.fixture(autouse=True)
def _watchdog() -> Iterator[None]:
    faulthandler.dump_traceback_later(TIMEOUT, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A real cluster: two worker processes of one thread, as on the CI's two cores."""
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        silence_logs=logging.CRITICAL,
    ) as c:
        yield c.scheduler_address


@pytest.fixture
def client(scheduler: str) -> Iterator[distributed.Client]:
    with distributed.Client(scheduler, set_as_default=False) as c:
        yield c


@pytest.fixture
def small_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Byte ranges and tasks of a few KB, so small inputs make many tasks."""
    monkeypatch.setattr(cluster, "SPAN_BYTES", 20_000)
    monkeypatch.setattr(cluster, "TASK_BYTES", 30_000)


def _sessions(folder: Path) -> Path:
    """Simulated sessions of several sites and games (one with planted faults), and
    files that test where a byte range may be cut (UTF-16, CRLF, cp1252, binary data,
    junk between hands, empty), and a dangling link: unreadable on every worker."""
    from histkit.simulate import write_session
    from tests.test_parallel import _awkward_files

    folder.mkdir(parents=True, exist_ok=True)
    write_session(folder / "a_stars_hilo.txt", "stud_hilo", 150, players=8, seed=1, tables=2)
    write_session(folder / "b_ftp_razz.txt", "razz", 60, seed=2, site="fulltilt")
    write_session(folder / "c_winamax_stud.txt", "stud", 60, seed=3, site="winamax")
    write_session(folder / "d_faults.txt", "stud_hilo", 80, seed=4, faults=0.1, sidecar=None)
    write_session(folder / "e_tourney.txt", "stud", 40, seed=5, tournament=True)
    (folder / "f_awkward").mkdir()
    _awkward_files(folder / "f_awkward")
    (folder / "g_gone.txt").symlink_to(folder / "no-such-file.txt")
    return folder


@pytest.fixture(scope="module")
def sessions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _sessions(tmp_path_factory.mktemp("dask") / "sessions")


_LOCAL: dict[str, Tables] = {}


def _local(paths: list[Path], out: Path, partition_by: tuple[str, ...]) -> dict[str, pa.Table]:
    """What a local run gives, as read back from its folder (parsed once per input)."""
    key = repr(paths)
    if key not in _LOCAL:
        _LOCAL[key] = build_tables(paths, jobs=1, audit=True)
    write_tables(out, _LOCAL[key], partition_by=partition_by)
    return read_tables(out)


def _same(got: dict[str, pa.Table], want: dict[str, pa.Table]) -> None:
    assert set(got) == set(want)
    for name, table in want.items():
        assert got[name].num_rows == table.num_rows, name
        assert got[name].equals(table), name


@pytest.mark.slow
@pytest.mark.parametrize("partition_by", [(), ("game", "date", "site")])
def test_parse_on_the_cluster_gives_the_local_tables(
    scheduler: str, sessions: Path, tmp_path: Path, small_tasks: None, partition_by: tuple[str, ...]
) -> None:
    want = _local([sessions], tmp_path / "local", partition_by)
    assert want["hands"].num_rows > 400
    kinds = set(want["errors"]["kind"].to_pylist())
    assert {"rejected", "unreadable"} <= kinds  # the awkward files and the dangling link
    argv = ["parse", str(sessions), "-o", str(tmp_path / "dask"), "-q", "--audit"]
    if partition_by:
        argv += ["--partition-by", ",".join(partition_by)]
    assert main([*argv, "--scheduler", scheduler]) == 0
    _same(read_tables(tmp_path / "dask"), want)
    # the workers wrote the part files: more than one task's
    if partition_by:
        parts = {p.name.split("-")[1] for p in (tmp_path / "dask" / "hands").rglob("*.parquet")}
        assert len(parts) > 3


@pytest.mark.slow
@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/hands is absent")
@pytest.mark.parametrize("partition_by", [(), ("site", "game", "date")])
def test_parse_on_the_cluster_real_corpus(
    scheduler: str, tmp_path: Path, small_tasks: None, partition_by: tuple[str, ...]
) -> None:
    want = _local([CORPUS], tmp_path / "local", partition_by)
    assert len(set(want["hands"]["site"].to_pylist())) >= 10
    argv = ["parse", str(CORPUS), "-o", str(tmp_path / "dask"), "-q", "--audit"]
    if partition_by:
        argv += ["--partition-by", ",".join(partition_by)]
    assert main([*argv, "--scheduler", scheduler]) == 0
    _same(read_tables(tmp_path / "dask"), want)


@pytest.mark.slow
def test_audit_on_the_cluster_gives_the_local_report(
    scheduler: str, sessions: Path, small_tasks: None, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = [sessions, SAMPLE_DATA] if SAMPLE_DATA.is_dir() else [sessions]
    argv = ["audit", *map(str, paths), "-q", "--format", "json", "--info"]
    local = main([*argv, "--jobs", "1"])
    want = json.loads(capsys.readouterr().out)
    assert main([*argv, "--scheduler", scheduler]) == local == 1  # the planted faults
    got = json.loads(capsys.readouterr().out)
    assert got == want
    assert want["hands"] > 400 and want["violations"]
    assert any(u["source_file"].endswith("g_gone.txt") for u in want["unreadable_files"])


@pytest.mark.slow
def test_a_killed_worker_changes_nothing(
    client: distributed.Client, sessions: Path, tmp_path: Path
) -> None:
    """A worker process is killed while it runs tasks of a partitioned parse: Dask runs
    them again on another worker, whose part files replace any the killed one wrote."""
    want = _local([sessions], tmp_path / "local", ("game",))
    sink = ParquetSink(tmp_path / "dask", audit=True, partition_by=("game",))
    target = cluster.PartTarget(sink.parts_location(), ("game",))
    results = cluster.run(
        [sessions],
        client=client,
        audit=True,
        parts=target,
        on_written=sink.add_written,
        span_bytes=4_000,
        task_bytes=4_000,
    )
    killed = None
    hands = 0
    with sink:
        for r in results:
            hands += r.hands
            if killed is None and hands > 50:
                killed = _kill_a_busy_worker(client)
    assert killed is not None, "no worker was running a task to kill"
    assert hands == want["hands"].num_rows
    _same(read_tables(tmp_path / "dask"), want)


def _kill_a_busy_worker(
    client: distributed.Client, *, prefix: str = "", until: threading.Event | None = None
) -> str | None:
    """SIGKILL the process of a worker that is running a task now (whose key starts with
    `prefix`; its nanny starts a new one); its address, or None if none was busy within a
    few seconds (or, given `until`, before it is set)."""
    pids = client.run(os.getpid)
    deadline = time.monotonic() + 5

    def waiting() -> bool:
        return not until.is_set() if until is not None else time.monotonic() < deadline

    while waiting():
        for worker, keys in client.processing().items():
            if worker in pids and any(str(k).startswith(prefix) for k in keys):
                os.kill(pids[worker], signal.SIGKILL)
                return str(worker)
        time.sleep(0.05)
    return None


@pytest.mark.slow
def test_a_killed_worker_in_a_flat_run_changes_nothing(
    scheduler: str,
    client: distributed.Client,
    sessions: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As above, through the command line, for a flat result: the parent takes the tables
    in input order, so a task Dask runs again after its worker died gives them in place."""
    want = _local([sessions], tmp_path / "local", ())
    monkeypatch.setattr(cluster, "SPAN_BYTES", 4_000)
    monkeypatch.setattr(cluster, "TASK_BYTES", 4_000)
    done = threading.Event()
    killed: list[str | None] = []
    killer = threading.Thread(
        target=lambda: killed.append(
            _kill_a_busy_worker(client, prefix="histkit-task-", until=done)
        )
    )
    killer.start()
    try:
        argv = ["parse", str(sessions), "-o", str(tmp_path / "dask"), "-q", "--audit"]
        assert main([*argv, "--scheduler", scheduler]) == 0
    finally:
        done.set()
        killer.join()
    assert killed[0] is not None, "no worker was running a task to kill"
    _same(read_tables(tmp_path / "dask"), want)


@pytest.mark.slow
def test_histkit_scheduler_runs_on_the_cluster(
    scheduler: str,
    client: distributed.Client,
    sessions: Path,
    tmp_path: Path,
    small_tasks: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """$HISTKIT_SCHEDULER, with neither --scheduler nor --jobs, sends the work to that
    cluster (not to local processes), with the local run's tables."""
    import histkit.parallel

    want = _local([sessions], tmp_path / "local", ())

    def no_local_processes(*args: object, **kwargs: object) -> None:
        raise AssertionError("the run used local processes")

    monkeypatch.setattr(histkit.parallel, "run", no_local_processes)
    monkeypatch.setenv("HISTKIT_SCHEDULER", scheduler)
    with distributed.get_task_stream(client) as stream:
        argv = ["parse", str(sessions), "-o", str(tmp_path / "dask"), "-q", "--audit"]
        assert main(argv) == 0
    keys = [str(t["key"]) for t in stream.data]
    assert sum(k.startswith("histkit-task-") for k in keys) > 3
    _same(read_tables(tmp_path / "dask"), want)


@pytest.mark.slow
def test_read_hands_as_dask_dataframes(
    client: distributed.Client, sessions: Path, tmp_path: Path
) -> None:
    pytest.importorskip("dask.dataframe")
    import dask
    import pandas as pd

    import histkit.dask

    frames = histkit.dask.read_hands([sessions], scheduler=client, audit=True, task_bytes=30_000)
    assert frames["hands"].npartitions > 3  # one per task
    _local([sessions], tmp_path / "local", ())
    want = _LOCAL[repr([sessions])].to_pandas(arrow_dtypes=True)
    got = dask.compute(*frames.values(), scheduler=client.get)
    for name, frame in zip(frames, got, strict=True):
        pd.testing.assert_frame_equal(frame.reset_index(drop=True), want[name], obj=name)
    # exact integer money, grouped by its unit (never added across units)
    net = frames["seats"].merge(frames["hands"][["site", "hand_id", "money_unit"]])
    by_unit = net.groupby("money_unit")["net"].sum().compute(scheduler=client.get)
    hands = want["hands"][["site", "hand_id", "money_unit"]]
    expected = want["seats"].merge(hands).groupby("money_unit")["net"].sum()
    assert by_unit.sort_index().to_dict() == expected.sort_index().to_dict()
    assert len(expected) > 1  # cash in several currencies and tournament chips
    assert str(by_unit.dtype).startswith("int64")


def test_read_hands_from_an_address_computes_on_the_cluster(
    scheduler: str, client: distributed.Client, sessions: Path
) -> None:
    """`scheduler="tcp://..."` connects as `Client(address)` does, as Dask's default client,
    so `.compute()` runs the partitions in the workers' processes, not in this one."""
    pytest.importorskip("dask.dataframe")
    import pandas as pd

    import histkit.dask

    meta = pd.DataFrame({"pid": pd.Series([], dtype="int64")})

    def where_computed(frame: Any) -> set[int]:
        pids = frame.map_partitions(lambda _: pd.DataFrame({"pid": [os.getpid()]}), meta=meta)
        return set(pids.compute()["pid"])

    workers = set(client.run(os.getpid).values())
    try:
        frames = histkit.dask.read_hands([sessions], scheduler=scheduler, task_bytes=30_000)
        ran = where_computed(frames["hands"])
        assert ran and ran <= workers and os.getpid() not in ran
        first = distributed.get_client()
        # the same address again: the same client, still the default
        again = histkit.dask.read_hands([sessions], scheduler=scheduler)
        assert where_computed(again["seats"]) <= workers
        assert distributed.get_client() is first
    finally:
        for made in histkit.dask._CLIENTS.values():
            made.close()
        histkit.dask._CLIENTS.clear()


def test_audit_in_python(client: distributed.Client, sessions: Path) -> None:
    pytest.importorskip("dask.dataframe")
    import histkit.dask

    result = histkit.dask.audit([sessions], scheduler=client)
    want = audit_paths([sessions], jobs=1)
    assert result.report == want
    assert result.counts["violations"] == len(want.errors) > 0
    frame = result.violations.compute(scheduler=client.get)
    assert len(frame) == len(want.violations)
    assert list(frame["code"]) == [str(v.code) for v in want.violations]


@pytest.mark.slow
def test_urls_in_and_out(tmp_path: Path) -> None:
    """fsspec URLs for inputs and outputs (memory://, seen by workers that are threads of
    this process), and file:// URLs as local paths."""
    fsspec = pytest.importorskip("fsspec")
    from histkit import storage

    local = _sessions(tmp_path / "s")
    fs = fsspec.filesystem("memory")
    for f in sorted(local.glob("*_*.txt")):
        if f.is_file():
            fs.pipe_file(f"/hk-in/{f.name}", f.read_bytes())
    fs.pipe_file("/hk-in/.hidden.txt", b"not read")
    with distributed.LocalCluster(
        n_workers=2, processes=False, dashboard_address=":0", silence_logs=logging.CRITICAL
    ) as c:
        for keys in ((), ("game",)):
            out = f"memory://hk-out-{len(keys)}"
            flags = ["--partition-by", ",".join(keys)] if keys else []
            args = ["parse", "memory://hk-in/", "-q", "--audit", *flags]
            assert main([*args, "-o", out, "--scheduler", c.scheduler_address]) == 0
            assert main([*args, "-o", str(tmp_path / f"l{len(keys)}"), "--jobs", "1"]) == 0
            got = storage.read_tables(out)
            _same(got, read_tables(tmp_path / f"l{len(keys)}"))
            assert got["hands"]["source_file"][0].as_py().startswith("memory://hk-in/")
            assert not [p for p in fs.find(out) if "staging" in p]
    # a file:// URL is the local path it names
    assert main(["parse", local.as_uri(), "-o", (tmp_path / "u").as_uri(), "-q", "-j", "1"]) == 0
    assert read_tables(tmp_path / "u")["hands"].num_rows > 400


@pytest.fixture
def hand_file(tmp_path: Path) -> str:
    from tests.test_packaging import HAND

    f = tmp_path / "hand.txt"
    f.write_text(HAND)
    return str(f)


@pytest.fixture
def http_port() -> Iterator[int]:
    """An HTTP server, as the dashboard's :8787 is when given for the scheduler's :8786: it
    waits for a request line that Dask's handshake never sends."""
    import http.server
    import threading

    class Quiet(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


@pytest.fixture
def babbling_port() -> Iterator[int]:
    """A server that is not Dask's and answers at once (Dask reads its bytes as a message
    of some exabytes: the MemoryError a review saw)."""
    import socket
    import threading

    listener = socket.create_server(("127.0.0.1", 0))
    done = threading.Event()

    def serve() -> None:
        while not done.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with conn:
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" * 4)
                time.sleep(0.2)

    threading.Thread(target=serve, daemon=True).start()
    yield listener.getsockname()[1]
    done.set()
    listener.close()


def test_scheduler_errors(
    tmp_path: Path,
    hand_file: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = str(tmp_path / "out")

    def error(*argv: str) -> str:
        assert main(["parse", hand_file, "-o", out, "-q", *argv]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1, err  # one line, no traceback
        return err

    assert "Connection refused" in error("--scheduler", "tcp://127.0.0.1:1")
    assert "not a scheduler address" in error("--scheduler", "tcp://127.0.0.1:port")
    assert "not both" in error("--scheduler", "tcp://127.0.0.1:1", "--jobs", "2")
    monkeypatch.setenv("HISTKIT_SCHEDULER", "tcp://127.0.0.1:1")
    assert "HISTKIT_SCHEDULER: cannot reach" in error()
    assert not Path(out).exists()  # nothing was written for a run that could not start
    assert main(["parse", hand_file, "-o", out, "-q", "--jobs", "1"]) == 0  # --jobs: run here
    monkeypatch.delenv("HISTKIT_SCHEDULER")
    monkeypatch.setenv("HISTKIT_SCHEDULER_TIMEOUT", "soon")
    assert "HISTKIT_SCHEDULER_TIMEOUT must be a number" in error("--scheduler", "tcp://h:8786")
    monkeypatch.delenv("HISTKIT_SCHEDULER_TIMEOUT")
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if dask were not installed
    assert "pip install 'histkit[dask]'" in error("--scheduler", "tcp://127.0.0.1:8786")


@pytest.mark.slow
def test_what_answers_at_the_address_is_no_scheduler(
    tmp_path: Path,
    hand_file: str,
    client: distributed.Client,
    http_port: int,
    babbling_port: int,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The dashboard's port given for the scheduler's (Dask's own client would wait for
    ever), TLS without certificates, a file that is no scheduler file, a server that is not
    Dask's, a worker's address: each one line, exit 2, within the time limit."""
    monkeypatch.setenv("HISTKIT_SCHEDULER_TIMEOUT", "2")

    def error(address: str) -> str:
        argv = ["parse", hand_file, "-o", str(tmp_path / "out"), "-q", "--scheduler", address]
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1, err
        return err

    http = f"tcp://127.0.0.1:{http_port}"
    err = error(http)
    assert f"no Dask scheduler answered at {http} within 2 s" in err and ":8787" in err
    err = error(f"127.0.0.1:{babbling_port}")  # no scheme: tcp://
    assert "no Dask scheduler answered" in err and "something else did" in err
    assert "needs the cluster's certificates" in error(f"tls://127.0.0.1:{http_port}")
    text = tmp_path / "not-a-scheduler-file.txt"
    text.write_text("hello\n")
    assert "is not a scheduler file" in error(str(text))
    text.write_text(json.dumps({"type": "Scheduler"}))
    assert "is not a scheduler file" in error(str(text))
    text.write_text(json.dumps({"address": http}))  # a scheduler file naming the dashboard
    assert f"no Dask scheduler answered at {http} (from {text})" in error(str(text))
    worker = next(iter(client.scheduler_info()["workers"]))
    assert "is a Dask worker, not the scheduler" in error(worker)
    assert not (tmp_path / "out").exists()


def test_a_client_that_cannot_start_is_closed(
    hand_file: str, babbling_port: int, tmp_path: Path
) -> None:
    """When starting Dask's client itself fails (here: the identity check skipped, so it
    meets the server that is not Dask's), the half-made client is closed at once: the
    command says one line and ends, with no second traceback from `Client.__del__` as the
    interpreter exits (which also waited 20 s)."""
    script = (
        "import sys\n"
        "from histkit import cluster\n"
        "from histkit.cli import main\n"
        "cluster._ask_identity = lambda *a: None\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    argv = ["parse", hand_file, "-o", str(tmp_path / "out"), "-q"]
    argv += ["--scheduler", f"tcp://127.0.0.1:{babbling_port}"]
    env = {**os.environ, "HISTKIT_SCHEDULER_TIMEOUT": "3"}
    proc = subprocess.run(
        [sys.executable, "-c", script, *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=TIMEOUT,  # it ends: no client left waiting
        check=False,
    )
    assert proc.returncode == 2, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert "cannot connect to the Dask scheduler" in proc.stderr


def test_a_failed_start_leaves_no_client_open(
    babbling_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc

    monkeypatch.setattr(cluster, "_ask_identity", lambda *a: None, raising=False)
    with pytest.raises(cluster.ClusterError, match="cannot connect"):
        cluster.connect(f"tcp://127.0.0.1:{babbling_port}", timeout=3)
    gc.collect()
    left = [o for o in gc.get_objects() if isinstance(o, distributed.Client)]
    assert all(c.status == "closed" for c in left), [c.status for c in left]


def test_a_result_at_a_url_is_whole_or_absent(tmp_path: Path) -> None:
    """At a URL as in a folder: a run that fails leaves the earlier result as it was and
    no staging behind; a folder without the completion record is refused."""
    fsspec = pytest.importorskip("fsspec")
    from histkit import storage
    from histkit.warehouse import IncompleteResultError
    from tests.test_packaging import HAND

    f = tmp_path / "h.txt"
    f.write_text(HAND)
    tables = build_tables([f], jobs=1)
    url = "memory://hk-whole"
    with storage.open_sink(url) as sink:
        sink.add_tables(tables)
    assert sink.committed and storage.read_tables(url)["hands"].num_rows == 1
    with pytest.raises(RuntimeError), storage.open_sink(url, partition_by=("game",)) as sink:
        sink.add_tables(tables)
        sink.flush()
        raise RuntimeError("the run fails")
    assert storage.read_tables(url)["hands"].equals(tables.hands)
    fs = fsspec.filesystem("memory")
    assert not [p for p in fs.find("/hk-whole") if "staging" in p]
    fs.rm("/hk-whole/_histkit.json")
    with pytest.raises(IncompleteResultError):
        storage.read_tables(url)
