"""histkit for analysts who continue in Dask: the tables of hand histories as Dask
DataFrames, and the audit, computed on a `dask.distributed` cluster the way `histkit
parse|audit --scheduler` computes them (`histkit.cluster`), with the same rows.

    from distributed import Client
    import histkit.dask

    client = Client("tcp://scheduler-host:8786")          # or Client(LocalCluster())
    frames = histkit.dask.read_hands(["s3://bucket/hands/"], scheduler=client)
    seats, hands = frames["seats"], frames["hands"]
    net = seats.merge(hands[["site", "hand_id", "money_unit"]], on=["site", "hand_id"])
    net.groupby(["money_unit", "player"])["net"].sum().compute()   # per unit, never across

    result = histkit.dask.audit(["s3://bucket/hands/"], scheduler=client)
    result.counts["violations"], result.violations.compute()

The frames compute where Dask computes anything: on the default client (the last
`Client(...)` made, unless made with `set_as_default=False`; then pass `scheduler=client`
to `compute`). `scheduler="tcp://host:8786"` connects as `Client("tcp://host:8786")`
would: that client becomes the default and is kept for the session (the same one for the
same address), so `.compute()` runs on that cluster.

Amounts are integers in the minor unit of each hand's `money_unit` (Arrow-backed pandas
columns: exact, nullable, never floats); group by `money_unit` before adding. Needs
`pip install 'histkit[dask]'`: importing this module without it says so.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from histkit.tables import AUDIT_TABLES, SCHEMAS

try:  # the whole of this module is Dask's: say what to install, not which import failed
    import dask
    import dask.dataframe as dd
    import distributed
except ImportError as e:
    raise ImportError(
        f"histkit.dask needs Dask ({e.name or 'dask'} is missing): pip install 'histkit[dask]'",
        name=e.name,
    ) from None

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa
    from distributed import Client

    from histkit.audit import AuditReport
    from histkit.rules import RuleProfile

__all__ = ["AuditResult", "audit", "read_hands"]


def read_hands(
    paths: Iterable[str | Path],
    *,
    scheduler: Any = None,
    site: str | None = None,
    audit: bool = False,
    profile: RuleProfile | None = None,
    span_bytes: int | None = None,
    task_bytes: int | None = None,
) -> dict[str, Any]:
    """The tables of the hand histories at `paths` (files, folders, fsspec URLs every
    worker can read) as Dask DataFrames by name (`hands`, `seats`, `actions`, `cards`,
    `errors`; with `audit`, `awards` and `violations` of each hand's replay under
    `profile`), one partition per task, in input order. Planning the tasks (where files
    are cut) runs now on the cluster; parsing runs when the frames are computed, each
    task once for all the frames computed together (`dask.compute(*frames.values())`),
    on Dask's default client (see the module's docstring).

    `scheduler`: a `distributed.Client`, or a scheduler's address (connected to as
    `Client(address)` does: Dask's default client from then on); None: the current
    client. `site` forces a site's dialect; `span_bytes` and `task_bytes` size the byte
    ranges and the tasks (default about 1 MB each)."""
    from histkit import cluster

    client = _client(scheduler)
    files = cluster.input_files(paths)
    cluster.check_relative(client, files)
    groups = list(
        cluster.tasks(
            client,
            files,
            site=site,
            span_bytes=span_bytes,
            task_bytes=task_bytes,
        )
    )
    kw: dict[str, Any] = {"site": site, "tables": True, "audit": audit, "profile": profile}
    token = secrets.token_hex(4)
    done = [
        dask.delayed(cluster.process, pure=True)(
            chunks, kw, None, i, dask_key_name=f"histkit-read-{token}-{i:06d}"
        )
        for i, chunks in enumerate(groups)
    ]
    names = [n for n in SCHEMAS if audit or n not in AUDIT_TABLES]
    frames: dict[str, Any] = {}
    for name in names:
        parts = [
            dask.delayed(_frame, pure=True)(
                d, name, dask_key_name=f"histkit-{name}-{token}-{i:06d}"
            )
            for i, d in enumerate(done)
        ]
        meta = _pandas(SCHEMAS[name].empty_table())
        frames[name] = (
            dd.from_delayed(parts, meta=meta, verify_meta=False)
            if parts
            else (dd.from_pandas(meta, npartitions=1))
        )
    return frames


@dataclass(frozen=True)
class AuditResult:
    """An audit made on a cluster: `violations` (a Dask DataFrame, one row per violation
    and informational record, in the report's order; `source` is "file:line" of the hand)
    and the `report` itself (`histkit.audit.AuditReport`, what `histkit audit` prints),
    whose figures `counts` gives as a dict."""

    violations: Any
    report: AuditReport

    @property
    def counts(self) -> dict[str, Any]:
        r = self.report
        return {
            "hands": r.hands,
            "violations": len(r.errors),
            "records": len(r.violations),  # violations and informational records
            "by_code": dict(r.by_code),
            "rejected": len(r.rejected),
            "skipped": r.skipped,
            "unknown_files": len(r.unknown),
            "unreadable_files": len(r.unreadable),
            "duplicate_copies": r.duplicates.copies,
            "pots": r.coverage.get("pots", 0),
            "pots_decided": r.coverage.get("pots_decided", 0),
            "partly_checked": r.coverage.get("partly_checked", 0),
        }


def audit(
    paths: Iterable[str | Path],
    *,
    scheduler: Any = None,
    site: str | None = None,
    profile: RuleProfile | None = None,
    continuity: bool = True,
) -> AuditResult:
    """Audit the hand histories at `paths` on the cluster, as `histkit audit --scheduler`
    does: the same report as a local audit (a hand read twice audited once, stacks checked
    across hands when `continuity`). Runs now; `scheduler` as in `read_hands`."""
    from histkit.audit import audit_paths

    client = _client(scheduler)
    report = audit_paths(paths, profile, continuity=continuity, site=site, client=client)
    frame = _pandas(_violations_table(report))
    return AuditResult(violations=dd.from_pandas(frame, npartitions=1), report=report)


# ---------------------------------------------------------------------------- helpers


_CLIENTS: dict[str, Client] = {}  # made for addresses given as scheduler=, kept for the session


def _client(scheduler: Any) -> Client:
    """The client to plan and run on: the one given, the current one, or one of an address,
    made Dask's default (as `Client(address)` does) so that the frames compute there."""
    from histkit import cluster

    if scheduler is None:
        try:
            scheduler = distributed.get_client()
        except ValueError:
            raise cluster.ClusterError(
                "no Dask client: pass scheduler= (an address or a distributed.Client), or "
                "create a Client first"
            ) from None
    if not isinstance(scheduler, str):
        return cluster.connect(scheduler)
    address = scheduler.strip()
    held = _CLIENTS.get(address)
    if held is not None and held.status == "running" and _is_default(held):
        return held
    if held is not None:
        held.close()
    # Dask keeps its default client by a weak reference: this module holds it
    _CLIENTS[address] = client = cluster.connect(address, as_default=True)
    return client


def _is_default(client: Client) -> bool:
    try:
        return distributed.get_client() is client
    except ValueError:
        return False


def _frame(done: tuple[list[Any], dict[str, int]], name: str) -> pd.DataFrame:
    """One task's rows of table `name`."""
    import pyarrow as pa

    present = [r.tables[name] for r in done[0] if r.tables is not None]
    table = pa.concat_tables(present) if present else SCHEMAS[name].empty_table()
    return _pandas(table)


def _pandas(table: pa.Table) -> pd.DataFrame:
    import pandas as pd

    return table.to_pandas(types_mapper=pd.ArrowDtype)


_VIOLATION_COLUMNS = (
    "hand_id",
    "code",
    "severity",
    "street",
    "line",
    "expected",
    "reported",
    "message",
    "source",
)


def _violations_table(report: AuditReport) -> pa.Table:
    import pyarrow as pa

    rows = [
        (
            v.hand_id,
            str(v.code),
            str(v.severity),
            None if v.street is None else int(v.street),
            v.line,
            None if v.expected is None else str(v.expected),
            None if v.reported is None else str(v.reported),
            v.message,
            report.source_of.get(v.hand_id),
        )
        for v in report.violations
    ]
    types = [pa.string()] * 3 + [pa.int32(), pa.int64()] + [pa.string()] * 4
    schema = pa.schema(list(zip(_VIOLATION_COLUMNS, types, strict=True)))
    columns = list(zip(*rows, strict=True)) if rows else [()] * len(_VIOLATION_COLUMNS)
    return pa.table(
        [pa.array(c, type=t) for c, t in zip(columns, types, strict=True)], schema=schema
    )
