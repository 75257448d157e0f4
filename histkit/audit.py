"""Audit many hands: replay each under a profile, check stacks across hands, and tally.

This is the library behind `histkit audit`; the engine itself (one hand at a time) is
`histkit.rules`. Rejected hands are input errors, reported beside the violations; files
that could not be read are counted as files, not hands. A hand read more than once (the
same site and hand id: a file copied, a folder given twice) is audited once, as first
read; its copies are counted, and those whose text differs counted apart.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from histkit.model import Hand, Street
from histkit.rules import RuleProfile, Violation
from histkit.rules.continuity import StackRecord, check_table, gap_lines, stack_record
from histkit.rules.replay import Replay, replay
from histkit.rules.violations import Code, Severity
from histkit.stackstore import StackStore
from histkit.words import plural

if TYPE_CHECKING:
    from histkit.parallel import ChunkResult

__all__ = [
    "AuditReport",
    "AuditedHand",
    "Duplicates",
    "audit",
    "audit_hand",
    "audit_paths",
    "audited",
    "replays",
    "stored_report",
]


class AuditedHand(NamedTuple):
    """What the audit keeps of one hand (worker processes send these, not hands): its key
    and a checksum of its text, to count it once however often it is read; where it is;
    and what its replay found (`stacks` None: a copy of a hand read earlier in the same
    chunk, not replayed again). A tuple, as `StackRecord`: made per hand, sent back
    cheaply."""

    site: str
    hand_id: str
    digest: int | None  # of the hand's text; None: not known (XML, or a Hand given)
    source: str  # "file:line"
    violations: tuple[Violation, ...] = ()
    stacks: StackRecord | None = None
    pots: int = 0
    pots_decided: int = 0  # pots whose winners the cards settle
    unchecked: tuple[str, ...] = ()  # what could not be checked (empty: checked in full)
    complete: bool = True
    unread: int = 0  # lines the hand was read without (`Hand.gaps`)


def audit_hand(
    hand: Hand,
    seen: set[tuple[str, str]] | None,
    profile: RuleProfile | None = None,
    digest: int | None = None,
) -> tuple[AuditedHand, Replay | None]:
    """One hand as the audit keeps it, and its replay: replayed unless its key (site, hand
    id) is in `seen` already (a copy, counted and not replayed again: no replay); it joins
    `seen` (None: every hand is replayed). The one place both the audit of hands and a
    worker's chunk decide it."""
    key = (hand.site, hand.hand_id)
    if seen is not None:
        if key in seen:
            where = f"{hand.source.file}:{hand.source.line}" if hand.source.file else ""
            return AuditedHand(hand.site, hand.hand_id, digest, where), None
        seen.add(key)
    rp = replay(hand, profile)
    return audited(rp, digest), rp


def audited(rp: Replay, digest: int | None = None) -> AuditedHand:
    """One replayed hand, as the audit keeps it."""
    h, cov = rp.hand, rp.coverage
    return AuditedHand(
        site=h.site,
        hand_id=h.hand_id,
        digest=digest,
        source=f"{h.source.file}:{h.source.line}",
        violations=tuple(rp.violations),
        stacks=stack_record(rp),
        pots=cov.pots,
        pots_decided=cov.pots_decided,
        unchecked=() if cov.complete else tuple(cov.unchecked()),
        complete=cov.complete,
        unread=cov.unread,
    )


@dataclass(frozen=True)
class Duplicates:
    """Hands read more than once (same site and hand id): `hands` of them, `copies` read
    after the first and not audited; `different` of those copies have a text unlike the
    first's (a different hand under the same id, or one edited), the first few listed in
    `examples` as (hand id, where first read, where the different copy is)."""

    hands: int = 0
    copies: int = 0
    different: int = 0
    examples: tuple[tuple[str, str, str], ...] = ()

    def text(self) -> str:
        """One line for the summary ("" when no hand was read twice)."""
        if not self.copies:
            return ""
        hands = f"{self.hands:,} hand" + ("s" if self.hands != 1 else "")
        copies = f"{self.copies:,} " + ("copy" if self.copies == 1 else "copies")
        out = f"Duplicates: {hands} read more than once; {copies} not audited again"
        if self.different:
            shown = ", ".join(
                f"#{h} ({where}, first at {first})" for h, first, where in self.examples
            )
            more = "" if self.different <= len(self.examples) else ", ..."
            out += (
                f"; {self.different:,} of them with a text unlike the first copy's: {shown}{more}"
            )
        return out + "."


@dataclass(frozen=True)
class AuditReport:
    """Everything `histkit audit` prints: per-hand violations, input errors, tallies."""

    hands: int
    violations: tuple[Violation, ...]
    rejected: tuple[Any, ...] = ()  # the reader's ParseIssue records of kind "rejected"
    skipped: int = 0
    unknown: tuple[Any, ...] = ()  # ParseIssues of kind "unknown": files of no known site
    sites: tuple[str, ...] = ()  # the sites whose hands were audited
    # what could be checked: pots, pots_decided (winners settled by the cards), and
    # partly_checked (hands whose record let the audit check only part of them), with
    # those hands: (hand id, "file:line", what could not be checked)
    coverage: dict[str, int] = field(default_factory=dict)
    partly_checked: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    # ParseIssues of kind "unreadable": files that could not be read (counted as files)
    unreadable: tuple[Any, ...] = ()
    duplicates: Duplicates = field(default_factory=Duplicates)
    unread_hands: int = 0  # hands read without a line not understood (`Hand.gaps`)

    def checked_text(self) -> str:
        """One sentence: how much of the audited hands could be checked."""
        pots, decided = self.coverage.get("pots", 0), self.coverage.get("pots_decided", 0)
        partly = self.coverage.get("partly_checked", 0)
        if not self.hands:
            return "Nothing was checked: no hand was audited."
        if self.stored is not None:
            return (
                f"Read the audit stored in {self.stored}: the winners of {decided:,} of "
                f"{plural(pots, 'pot')} were settled by the cards. Not stored: what else a hand's "
                "record left unchecked, and stacks carried across hands (audit the hand "
                "histories for those)."
            )
        if not partly:
            return f"Checked in full: every action and every award of {plural(pots, 'pot')}."
        return (
            f"Checked in full: {self.hands - partly:,} of {plural(self.hands, 'hand')}; the "
            f"winners of {decided:,} of {plural(pots, 'pot')}; {plural(partly, 'hand')} only in "
            "part (the record leaves facts out: --info lists what each could not check)."
        )

    # errors and warnings by code: root causes and findings on their own (`by_code`), and
    # the findings that follow from another (`follow_on_by_code`), counted apart
    by_code: dict[str, int] = field(default_factory=dict)
    follow_on_by_code: dict[str, int] = field(default_factory=dict)
    # of the hands with findings (an audit keeps no more of the others): hand id ->
    # "file:line", and its site (first read)
    source_of: dict[str, str] = field(default_factory=dict)
    site_of: dict[str, str] = field(default_factory=dict)
    # where a stored audit was read from (`stored_report`), None for an audit made now
    stored: str | None = None
    filtered_out: int = 0  # hands read that the filters did not keep

    def source_file(self, hand_id: str) -> str | None:
        """The file a hand was read from (first read), None when not known."""
        where = self.source_of.get(hand_id)
        return None if where is None else where.rpartition(":")[0]

    @property
    def errors(self) -> tuple[Violation, ...]:
        return tuple(v for v in self.violations if v.is_error)

    @property
    def clean(self) -> bool:
        return not self.errors

    def to_json(self, *, include_info: bool = False) -> dict[str, Any]:
        shown = self.violations if include_info else self.errors
        stored = {} if self.stored is None else {"stored_audit": self.stored}
        return {
            **stored,
            "hands": self.hands,
            "violations": [
                {
                    "hand_id": v.hand_id,
                    "code": str(v.code),
                    "severity": str(v.severity),
                    "street": None if v.street is None else int(v.street),
                    "line": v.line,
                    "expected": v.expected,
                    "reported": v.reported,
                    "message": v.message,
                    "source": self.source_of.get(v.hand_id),
                    "seq": v.seq,
                    "caused_by": v.caused_by,
                    "caused_by_hand": v.caused_by_hand,
                    "site": self.site_of.get(v.hand_id),
                    "source_file": self.source_file(v.hand_id),
                }
                for v in shown
            ],
            "by_code": by_code(shown, info=include_info),
            "follow_on_by_code": by_code(shown, follow_ons=True, info=include_info),
            "rejected": [
                {
                    "source_file": r.source_file,
                    "line": r.line,
                    "hand_id": r.hand_id,
                    "reason": r.reason,
                }
                for r in self.rejected
            ],
            "skipped": self.skipped,
            "unread_hands": self.unread_hands,
            "coverage": {
                **self.coverage,
                "partly_checked_hands": [
                    {"hand_id": h, "source": where, "unchecked": list(what)}
                    for h, where, what in self.partly_checked
                ],
            },
            "unknown_files": [
                {"source_file": r.source_file, "reason": r.reason} for r in self.unknown
            ],
            "unreadable_files": [
                {"source_file": r.source_file, "line": r.line, "reason": r.reason}
                for r in self.unreadable
            ],
            "duplicates": {
                "hands": self.duplicates.hands,
                "copies": self.duplicates.copies,
                "different_text": self.duplicates.different,
                "different_text_examples": [
                    {"hand_id": h, "first": first, "copy": where}
                    for h, first, where in self.duplicates.examples
                ],
            },
        }


def by_code(
    found: Iterable[Violation], *, follow_ons: bool = False, info: bool = False
) -> dict[str, int]:
    """Findings by code: those that follow from no other (`follow_ons` False) or those that
    do; errors and warnings only unless `info`."""
    return dict(
        Counter(str(v.code) for v in found if (v.is_error or info) and v.is_follow_on == follow_ons)
    )


def _in_order(sources: Mapping[str, Any]) -> Callable[[Violation], tuple[int, int, int]]:
    """Sort key: hands in the order read; a hand's findings across hands first (its
    stacks as it starts), then its own in the order found (a root before what follows)."""
    order = {hid: i for i, hid in enumerate(sources)}
    last = len(order)

    def key(v: Violation) -> tuple[int, int, int]:
        at = order.get(v.hand_id, last)
        return (at, -1, v.line) if v.seq is None else (at, v.seq, v.line)

    return key


def replays(
    items: Iterable[Hand | Any], profile: RuleProfile | None = None
) -> Iterator[Replay | Any]:
    """Replay every hand of `items` (as `histkit.reader.iter_hands` yields); parse issues
    pass through unchanged, in input order."""
    for it in items:
        yield replay(it, profile) if isinstance(it, Hand) else it


_EXAMPLES = 5  # different-text duplicates named in the summary


class _Gap(NamedTuple):
    """A place in a file where a hand was that the audit could not read: for the stack
    continuity check, as a skipped hand is."""

    source_file: str
    line: int
    kind: str = "skipped"


_DIGEST = (1 << 33) - 1  # a packed checksum's bits: a 32-bit checksum + 1, 0 for none


def _pack(digest: int | None, seq: int) -> int | tuple[int | None, int]:
    """A hand's text checksum and sequence as one int where the checksum is 32-bit (the
    reader's are), so that the audit keeps about 0.2 KB a hand with its id; else a pair."""
    if digest is None:
        return seq << 33
    if 0 <= digest < 1 << 32:
        return seq << 33 | (digest + 1)
    return (digest, seq)


def _unpack(packed: int | tuple[int | None, int]) -> tuple[int | None, int]:
    """(checksum, sequence) of a `_pack`ed hand."""
    if isinstance(packed, tuple):
        return packed
    low = packed & _DIGEST
    return (low - 1 if low else None, packed >> 33)


def _tracking(rows: Iterator[tuple[int, StackRecord]], at: list[int]) -> Iterator[StackRecord]:
    """The records of (sequence, record) pairs, `at[0]` the sequence of the last one
    taken (`check_table` gives a hand's findings before it takes the next hand)."""
    for seq, r in rows:
        at[0] = seq
        yield r


class _Tally:
    """What an audit accumulates, whether hands arrive one by one or as worker results.
    `keep` (a filter on each hand's `StackRecord`) decides which hands are reported; the
    others still take part in the stack checks across hands, so a filter never makes a
    hand's neighbours look inconsistent. What it keeps of every hand is its key and text
    checksum (for duplicates) and its stack record (in a `StackStore`, in bounded
    memory); where a hand was read only for the hands with findings."""

    def __init__(self, keep: Callable[[StackRecord], bool] | None = None) -> None:
        self.keep = keep
        self.left_out: set[tuple[str, str]] = set()  # hands the filter does not keep
        self.hands = 0
        self.violations: list[Violation] = []
        self.rejected: list[Any] = []
        self.unreadable: list[Any] = []  # files that could not be read
        self.stacks = StackStore()  # for stack continuity
        self.skipped: list[Any] = []
        self.unknown: list[Any] = []  # files of no known site's format
        self.sites: set[str] = set()
        # hand id -> (its sequence in `stacks`, "file:line", site): hands with findings
        self.where: dict[str, tuple[int, str, str]] = {}
        self.coverage: Counter[str] = Counter()
        self.partly: list[tuple[str, str, tuple[str, ...]]] = []
        # site -> hand id -> the checksum of its first copy's text and its sequence in
        # `stacks` (`_pack`ed): a hand id and a number a hand, never its text
        self.seen: dict[str, dict[str, int | tuple[int | None, int]]] = {}
        self.repeated: set[tuple[str, str]] = set()
        self.copies = 0
        self.different = 0
        self.unread_hands = 0
        self.examples: list[tuple[str, int, str]] = []  # (hand id, first's sequence, copy)

    def add_audited(self, a: AuditedHand) -> None:
        key = (a.site, a.hand_id)
        if key in self.left_out:
            return
        ids = self.seen.get(a.site)
        if ids is None:
            ids = self.seen[a.site] = {}
        packed = ids.get(a.hand_id)
        new = packed is None and a.stacks is not None
        if new and self.keep is not None and a.stacks and not self.keep(a.stacks):
            self.left_out.add(key)
            self.stacks.add(a.stacks)  # its neighbours are still compared with it
            return
        if packed is not None:  # a copy: counted, not audited again
            self.repeated.add(key)
            self.copies += 1
            first, at = _unpack(packed)
            if first is not None and a.digest is not None and first != a.digest:
                self.different += 1
                if len(self.examples) < _EXAMPLES:
                    self.examples.append((a.hand_id, at, a.source))
            return
        assert a.stacks is not None, "the first copy of a hand is always replayed"
        seq = self.stacks.add(a.stacks)
        ids[a.hand_id] = _pack(a.digest, seq)
        self.hands += 1
        self.sites.add(a.site)
        self.coverage["pots"] += a.pots
        self.coverage["pots_decided"] += a.pots_decided
        self.unread_hands += a.unread > 0
        if not a.complete:
            self.coverage["partly_checked"] += 1
            self.partly.append((a.hand_id, a.source, a.unchecked))
        self.violations.extend(a.violations)
        if a.violations:
            self.where.setdefault(a.hand_id, (seq, a.source, a.site))

    def add_issue(self, issue: Any) -> None:
        if issue.kind == "skipped":
            self.skipped.append(issue)
        elif issue.kind == "unknown":
            self.unknown.append(issue)
        elif issue.kind == "unreadable":
            self.unreadable.append(issue)
        else:
            self.rejected.append(issue)

    def add_chunk(self, r: ChunkResult) -> None:
        for a in r.audited:
            self.add_audited(a)
        for issue in r.rejected:  # rejected hands and unreadable files
            self.add_issue(issue)
        self.skipped.extend(r.skipped_records)
        self.unknown.extend(r.unknown)

    def _across(self) -> Iterator[tuple[Violation, tuple[int, str, str]]]:
        """Stack continuity across hands, table by table from the store, each finding with
        where its hand was read (its sequence, "file:line", site)."""
        # a rejected hand was played between its neighbours as much as a skipped one:
        # their stacks are not compared (no false alarm beside a damaged hand)
        rejected = [_Gap(r.source_file, r.line, "rejected") for r in self.rejected if r.line]
        gaps, after = gap_lines([*self.skipped, *rejected])
        kept = {hid for ids in self.seen.values() for hid in ids} if self.left_out else None
        for table in self.stacks.tables():
            at = [0]
            for cur, v in check_table(_tracking(table, at), gaps, after):
                if kept is None or v.hand_id in kept:
                    yield v, (at[0], f"{cur.file}:{cur.line}", cur.site)

    def report(self, profile: RuleProfile | None, continuity: bool) -> AuditReport:
        found = list(self.violations)
        where = dict(self.where)
        if continuity:
            for v, w in self._across():
                found.append(v)
                where.setdefault(v.hand_id, w)
        ordered = sorted(where.items(), key=lambda item: item[1][0])  # hands in order read
        sources = {hid: source for hid, (_, source, _) in ordered}
        found.sort(key=_in_order(sources))
        examples = tuple((hid, self.stacks.source(at), copy) for hid, at, copy in self.examples)
        self.stacks.close()
        return AuditReport(
            hands=self.hands,
            violations=tuple(found),
            rejected=tuple(self.rejected),
            skipped=len(self.skipped),
            unknown=tuple(self.unknown),
            sites=tuple(sorted(self.sites)),
            coverage=dict(self.coverage),
            partly_checked=tuple(self.partly),
            by_code=by_code(found),
            follow_on_by_code=by_code(found, follow_ons=True),
            source_of=sources,
            site_of={hid: site for hid, (_, _, site) in ordered},
            unreadable=tuple(self.unreadable),
            duplicates=Duplicates(
                hands=len(self.repeated),
                copies=self.copies,
                different=self.different,
                examples=examples,
            ),
            filtered_out=len(self.left_out),
            unread_hands=self.unread_hands,
        )


def audit(
    items: Iterable[Hand | Replay | Any],
    profile: RuleProfile | None = None,
    *,
    continuity: bool = True,
) -> AuditReport:
    """Replay and audit hands (or take ready `Replay`s), then check stacks across hands. A
    hand given twice (same site and hand id) is audited once; with no text to compare,
    its copies all count as copies."""
    tally = _Tally()
    seen: set[tuple[str, str]] = set()
    for it in items:
        if isinstance(it, Hand):
            tally.add_audited(audit_hand(it, seen, profile)[0])
        elif isinstance(it, Replay):
            tally.add_audited(audited(it))
        else:
            tally.add_issue(it)
    return tally.report(profile, continuity)


def audit_paths(
    paths: Iterable[str | Path],
    profile: RuleProfile | None = None,
    *,
    jobs: int = 1,
    continuity: bool = True,
    site: str | None = None,
    on_progress: Callable[[int, int], object] | None = None,
    keep: Callable[[StackRecord], bool] | None = None,
    client: Any = None,
) -> AuditReport:
    """Audit hand-history files or folders, replaying in `jobs` processes; the report is
    the same for any `jobs`. `profile` None: each hand under its site's house rules;
    `site` None: each hand's site detected from its text. `on_progress(n, nbytes)` is called as
    each chunk of n hands is done. `keep`: only the hands it keeps are reported (rejected
    hands and unreadable files always are: they cannot be told apart). `client`: a
    `dask.distributed` client whose cluster replays instead (`histkit.cluster`), with
    the same report."""
    from histkit.parallel import run

    kw: dict[str, Any] = {"site": site, "tables": False, "audit": True, "profile": profile}
    if client is None:
        results = run(paths, jobs=jobs, **kw)
    else:
        from histkit.cluster import run as on_cluster

        results = on_cluster(paths, client=client, **kw)
    tally = _Tally(keep)
    for r in results:
        tally.add_chunk(r)
        if on_progress is not None:
            on_progress(r.hands, r.nbytes)
    return tally.report(profile, continuity)


# ------------------------------------------------------------------------ stored audit


def stored_report(tables: Mapping[str, Any], *, source: str) -> AuditReport:
    """The report of an audit stored with the tables (`histkit parse --audit`, or an
    import with the audit), read instead of replayed: the same records, in the same
    order, and the same verdict as auditing the text then. `tables` are Arrow tables
    (`hands`, `errors`, `awards`, `violations`; see `histkit.sources.load`); `source`
    names them in the summary. A hand stored twice (same site and hand id) is reported
    once, as first stored, its copies counted. What the tables do not keep is said, not
    guessed: a hand checked only in part, and the stack checks across hands. A database
    keeps the copies it did not store in `duplicates` (same text) and `errors` (kind
    "conflict": another text): they are counted as the audit of the text counts them."""
    from histkit.reading.split import ParseIssue

    hands = tables["hands"]
    first: dict[tuple[str, str], tuple[str, int]] = {}  # (site, id) -> (file, line)
    starts: dict[str, list[tuple[str, int]]] = {}  # of a duplicated hand id: each copy's start
    sources: dict[str, str] = {}
    site_of: dict[str, str] = {}
    repeated: set[tuple[str, str]] = set()
    copies = 0
    cols = [hands[c].to_pylist() for c in ("site", "hand_id", "source_file", "source_line")]
    for site, hid, file, line in zip(*cols, strict=True):
        key = (site, hid)
        if key in first:
            repeated.add(key)
            copies += 1
            starts.setdefault(hid, [first[key]]).append((file, int(line or 0)))
            continue
        first[key] = (file, int(line or 0))
        sources.setdefault(hid, f"{file}:{line}")
        site_of.setdefault(hid, site)
    firsts = {hid: where for (_, hid), where in first.items()}
    different: list[tuple[str, str, str]] = []  # (hand id, where first, where the copy is)
    dt = tables.get("duplicates")  # a database's copies of its hands, not stored again
    if dt is not None:
        for site, hid in zip(dt["site"].to_pylist(), dt["hand_id"].to_pylist(), strict=True):
            if (site, hid) in first:
                repeated.add((site, hid))
                copies += 1

    def first_copy(hid: str, file: str | None, line: int) -> bool:
        """Whether a violation of hand `hid` at `file:line` is its first copy's."""
        if hid not in starts:
            return True
        f0, l0 = firsts[hid]
        later = [s for f, s in starts[hid] if f == f0 and s > l0]
        return file in (None, f0) and l0 <= line < min(later, default=line + 1)

    found: list[Violation] = []
    vt = tables.get("violations")
    if vt is not None:
        names = ("hand_id", "code", "severity", "street", "line", "expected", "reported")
        vcols = [vt[c].to_pylist() for c in (*names, "message")]
        files = vt["source_file"].to_pylist() if "source_file" in vt.column_names else None
        # (tables of an older histkit have no causes)
        none = [None] * vt.num_rows
        seqs, causes = (
            vt[c].to_pylist() if c in vt.column_names else none for c in ("seq", "caused_by")
        )
        for i, (hid, code, sev, street, line, exp, rep, msg) in enumerate(zip(*vcols, strict=True)):
            if not first_copy(hid, files[i] if files else None, int(line or 0)):
                continue
            found.append(
                Violation(
                    code=_member(Code, code),
                    severity=_member(Severity, sev),
                    hand_id=hid,
                    street=None if street is None else Street(int(street)),
                    line=int(line or 0),
                    expected=_plain(exp),
                    reported=_plain(rep),
                    message=msg,
                    seq=seqs[i],
                    caused_by=causes[i],
                )
            )
    found.sort(key=_in_order(sources))

    issues: dict[str, list[Any]] = {"rejected": [], "skipped": [], "unknown": [], "unreadable": []}
    et = tables.get("errors")
    if et is not None:
        for row in et.to_pylist():
            issue = ParseIssue(
                source_file=row["source_file"],
                line=row["line"],
                column=row["column"],
                hand_id=row["hand_id"],
                kind=row["kind"],
                reason=row["reason"],
                game=row.get("game"),
                about_hand=row.get("about_hand") is not False,
            )
            if issue.kind == "conflict":  # a database's copy with another text: a copy
                stored = next((k for k in first if k[1] == issue.hand_id), None)
                if stored is not None:
                    repeated.add(stored)
                    copies += 1
                    where = f"{issue.source_file}:{issue.line}"
                    different.append((stored[1], sources.get(stored[1], "?"), where))
                continue
            issues.get(issue.kind, issues["rejected"]).append(issue)

    coverage: dict[str, int] = {"pots": 0, "pots_decided": 0} if first else {}
    at = tables.get("awards")
    if at is not None and at.num_rows:
        decided: dict[tuple[Any, ...], bool] = {}
        keys = [at[c].to_pylist() for c in ("hand_id", "pot")]
        site = at["site"].to_pylist() if "site" in at.column_names else [None] * at.num_rows
        for s, hid, pot, exp in zip(site, *keys, at["expected"].to_pylist(), strict=True):
            k = (s, hid, pot)
            decided[k] = decided.get(k, True) and exp is not None
        coverage = {"pots": len(decided), "pots_decided": sum(decided.values())}
    return AuditReport(
        hands=len(first),
        violations=tuple(found),
        rejected=tuple(issues["rejected"]),
        skipped=len(issues["skipped"]),
        unknown=tuple(issues["unknown"]),
        sites=tuple(sorted({site for site, _ in first})),
        coverage=coverage,
        by_code=by_code(found),
        follow_on_by_code=by_code(found, follow_ons=True),
        source_of=sources,
        site_of=site_of,
        unreadable=tuple(issues["unreadable"]),
        duplicates=Duplicates(
            hands=len(repeated),
            copies=copies,
            different=len(different),
            examples=tuple(different[:_EXAMPLES]),
        ),
        stored=source,
    )


def _member(enum: Any, value: str) -> Any:
    """The enum member named by a stored value; the text itself when this histkit does
    not know it (written by a newer one)."""
    try:
        return enum(value)
    except ValueError:
        return value


def _plain(text: str | None) -> str | int | None:
    """A stored `expected`/`reported` back as the audit made it: the tables keep text, the
    audit gives whole amounts as numbers."""
    digits = text.removeprefix("-") if text is not None else ""
    if text is not None and digits.isascii() and digits.isdigit():
        return int(text)
    return text


# `histkit.audit(...)`: this module is also the API's function (histkit.api)
from histkit.api import callable_module  # noqa: E402

callable_module(__name__)
