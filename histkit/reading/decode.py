"""Bytes to text: UTF-8 (BOM or not), UTF-16 with a BOM, else a legacy code page (cp1252);
LF, CRLF or old Mac CR line ends; binary data refused, never guessed at.

A line that is not UTF-8 is read by runs: what is valid UTF-8 in it as UTF-8, each other
byte in the legacy code page (real iPoker files write a UTF-8 name and a cp1252 euro sign
on one line: the name reads the same on every line of its hand).

Files are read in pieces of whole lines (about 1 MB), so memory stays flat however big the
file; the common case (UTF-8 with LF or CRLF, no control bytes) decodes a whole piece at
once, anything else line by line.

Whether a file is binary is a property of the file, judged from its first bytes
(`binary_file`: a known signature, or many control bytes). In a text file, a line with a
stray control byte or a byte no accepted encoding reads is a *damaged* line: it is read
without those bytes and reported (`Damage`), so that only its hand is lost. Only a stretch
that is binary data itself (a run of control bytes, as a zeroed or appended blob has) stops
reading, with `UnreadableFile` at its line.
"""

from __future__ import annotations

import codecs
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

__all__ = [
    "FALLBACK_ENCODING",
    "MAX_LINE",
    "Damage",
    "LongLine",
    "DamagedLine",
    "UnreadableFile",
    "binary_file",
    "decode_bytes",
    "decode_line",
    "decode_lines",
    "line_pieces",
    "long_line",
    "plain_lines",
    "decodes",
    "text_pieces",
    "utf16_lines",
    "is_utf16",
]

FALLBACK_ENCODING = "cp1252"  # what the sites' Windows clients wrote before UTF-8


class UnreadableFile(ValueError):
    """The bytes are not text in any encoding we accept (binary, NUL bytes); `line` is
    where reading stopped when the file began as text."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


@dataclass(frozen=True, slots=True)
class Damage:
    """A damaged line of a text file: its first byte that is not text (a control byte, or
    a byte neither UTF-8 nor the fallback reads) at 1-based `column` of file `line`. The
    reader rejects the hand the line belongs to, naming this."""

    line: int
    column: int
    what: str  # "control byte 0x00", "byte 0x81, neither UTF-8 nor cp1252 text"

    @property
    def reason(self) -> str:
        if self.what.startswith(_LONG):
            return f"{self.what} at line {self.line}: read no further than column {self.column - 1}"
        return (
            f"binary data in a line of text: {self.what} at line {self.line}, column {self.column}"
        )


class DamagedLine(str):
    """A line read without the bytes that were not text in it (so the hand around it
    keeps its place, and its header its id), marked so: `column` and `what` as in
    `Damage`, whose line number the splitter, which counts lines, supplies."""

    column: int
    what: str

    def __new__(cls, text: str, column: int, what: str) -> DamagedLine:
        line = super().__new__(cls, text)
        line.column, line.what = column, what
        return line

    def __reduce__(self) -> tuple[type[DamagedLine], tuple[str, int, str]]:
        return DamagedLine, (str(self), self.column, self.what)


_BOMS_UTF16 = (b"\xff\xfe", b"\xfe\xff")
_READ_CHUNK = 1 << 20  # bytes read and decoded at a time (whole lines)
# C0 control bytes that never occur in a text hand history (tab, LF, VT, FF, CR excluded)
_BINARY_BYTES = re.compile(rb"[\x00-\x08\x0e-\x1a\x1c-\x1f]")
# the same bytes for bytes.translate: "any of them?" is a length check, ~8x faster than the
# regex scan on text that has none (the regex then says where)
_BINARY_DELETE = bytes([*range(0x00, 0x09), *range(0x0E, 0x1B), *range(0x1C, 0x20)])
# this many control bytes in a row are binary data, not a damaged line: a zeroed tail, a
# blob appended to the text (stray bytes in a line come one to three at a time; the NUL
# padding `_unpad` drops, at most two)
_RUN = 8
_BINARY_RUN = re.compile(rb"[\x00-\x08\x0e-\x1a\x1c-\x1f]{%d}" % _RUN)
# a line longer than this with control bytes in it is binary data too: memory stays
# bounded while looking for its end (fixed, not `_READ_CHUNK`: reads never change results)
_MAX_DAMAGED = 1 << 20

#: the longest line read (real ones are under 2 KB): a longer one is damaged, and its hand
#: rejected; at least `_READ_CHUNK`, so that a line inside one read is never too long
MAX_LINE = 1 << 20
_KEPT = 1 << 12  # bytes kept of a longer line, to name its hand
_LONG = "a line longer than "  # (its damage: `_long_what`)
assert _READ_CHUNK <= MAX_LINE

_HEAD = 4096  # the first bytes of a file, which say whether it is text at all
# signatures of the binary files most likely to be given a .txt name or dropped in a folder
_MAGIC = (
    (b"PK\x03\x04", "a ZIP archive (or an Office document)"),
    (b"PK\x05\x06", "an empty ZIP archive"),
    (b"%PDF-", "a PDF document"),
    (b"\x7fELF", "an executable (ELF)"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"\x1f\x8b", "gzip-compressed data"),
    (b"BZh", "bzip2-compressed data"),
    (b"\xfd7zXZ\x00", "xz-compressed data"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"Rar!\x1a\x07", "a RAR archive"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old Office document (OLE)"),
    (b"SQLite format 3\x00", "an SQLite database"),
)


def binary_file(head: bytes) -> str | None:
    """What a file is when its first bytes (`_HEAD` of them) say it is not text: a known
    signature ("a PNG image"), or "binary data" when more than one byte in 16 is a control
    byte (random or compressed bytes have one in ten; a text file with a damaged line or
    two, or NUL padding, a handful). None for text. A UTF-16 BOM is text."""
    if head.startswith(_BOMS_UTF16):
        return None
    for magic, what in _MAGIC:
        if head.startswith(magic):
            if magic == b"BZh" and head[4:10] != b"1AY&SY":
                continue  # "BZh" alone may start a line of text
            return what
    n = len(head) - len(head.translate(None, _BINARY_DELETE))
    return "binary data" if n >= _RUN and n * 16 > len(head) else None


def _binary_stretch(no: int) -> UnreadableFile:
    return UnreadableFile(f"binary data, not a text hand history (line {no})", no)


class LongLine(bytes):
    """The first `_KEPT` bytes of a line longer than `MAX_LINE` (without its line end; the
    rest of the line was dropped unread); `lf`: 1 when an LF ended it."""

    lf: int

    def __new__(cls, data: bytes | bytearray, lf: int) -> LongLine:
        line = super().__new__(cls, data)
        line.lf = lf
        return line


def _last_end(data: bytes) -> int:
    """Where the last line in `data` that surely ended ends: after its last LF, or after a
    run of CRs followed by a byte that is not a line end (a run at the end may yet be
    followed by an LF: CRs before an LF are one line end, as `decode_lines` reads them);
    0: none."""
    lf = data.rfind(b"\n")
    body = len(data.rstrip(b"\r"))  # (the last CR before it is followed by another byte)
    return max(lf, data.rfind(b"\r", lf + 1, body)) + 1


def _end_after(data: bytes, at: int) -> int | None:
    """The index after the line end at `at`: an LF, CRs and an LF, or a lone CR (the CRs
    after it are blank lines); None when a run of CRs reaches the end of `data`."""
    if data[at] == 10:
        return at + 1
    run = len(data) - len(data[at:].lstrip(b"\r"))
    if run == len(data):
        return None
    return run + 1 if data[run] == 10 else at + 1


_LINE_END = re.compile(rb"[\r\n]")


def line_pieces(f: BinaryIO, before: int = 0) -> Iterator[bytes]:
    """f's bytes, from where it stands, in pieces of whole lines of about `_READ_CHUNK`
    (ending with an LF, or with CRs followed by another line); only the last piece may
    lack its line end. A stretch with no line end that is binary data (a run of control
    bytes, or control bytes in more than `_MAX_DAMAGED` bytes) raises `UnreadableFile` at
    its line (`before`: the file lines before f's first), as `decode_lines` would there,
    so a binary stretch is never held in memory whole. A line (up to an LF, CRs and an LF,
    or a CR) of more than `MAX_LINE` bytes comes as a `LongLine` of its first bytes, the
    rest dropped as it is read: memory stays bounded whatever the file (a compressed one
    may expand to gigabytes with no line end)."""
    no = before
    rest = bytearray()  # the start of a line whose end is in a later read
    rest_binary = False  # it holds control bytes
    long: bytes | None = None  # the start of a line past MAX_LINE, while its rest is dropped
    crs = 0  # the long line ended in this many CRs at the end of the last read (LF next?)
    while data := f.read(_READ_CHUNK):
        if long is not None:
            after: int | None
            if crs:
                more = len(data) - len(data.lstrip(b"\r"))
                if more == len(data):
                    crs += more
                    continue
                if data[more] == 10:
                    after = more + 1
                else:  # the first CR ended it, the others are blank lines (a million at most)
                    data, after = b"\r" * min(crs - 1, MAX_LINE) + data, 0
            else:
                m = _LINE_END.search(data)
                at = m.start() if m is not None else len(data)
                if _has_binary(data[:at]):
                    raise _binary_stretch(no + 1)
                after = _end_after(data, at) if m is not None else None
                if after is None:
                    crs = len(data) - at if m is not None else 0
                    continue
            lf = 1 if data[after - 1 : after] == b"\n" else 0
            no += lf
            yield LongLine(long, lf)
            long, crs, data = None, 0, data[after:]
            if not data:
                continue
        if rest.endswith(b"\r"):  # CRs at the end of the last read: read on from them
            data, rest = bytes(rest) + data, bytearray()
        cut = _last_end(data)
        if not cut:  # no line end yet: a very long line (or binary data)
            if _has_binary(data):
                rest_binary = True
                if _BINARY_RUN.search(bytes(rest[-(_RUN - 1) :]) + data):
                    raise _binary_stretch(no + 1)
            if rest_binary and len(rest) + len(data) > _MAX_DAMAGED:
                raise _binary_stretch(no + 1)
            body = data.rstrip(b"\r")  # (CRs only at the end: the line may end there)
            if len(rest) + len(body) > MAX_LINE or len(rest) + len(data) > 2 * MAX_LINE:
                long, crs = bytes((rest + body)[:_KEPT]), len(data) - len(body)
                rest, rest_binary = bytearray(), False
                continue
            rest += data
            continue
        first = _LINE_END.search(data)
        assert first is not None  # there is a line end: `cut`
        if rest and len(rest) + first.start() > MAX_LINE:  # (a line inside one read is not)
            if rest_binary or _has_binary(data[: first.start()]):
                raise _binary_stretch(no + 1)
            after = _end_after(data, first.start())
            assert after is not None and after <= cut  # (a later line end: `cut`)
            lf = 1 if data[after - 1] == 10 else 0
            no += lf
            yield LongLine((bytes(rest[:_KEPT]) + data[: first.start()])[:_KEPT], lf)
            rest, data, cut = bytearray(), data[after:], cut - after
            if not cut:
                rest = bytearray(data)
                rest_binary = _has_binary(rest)
                continue
        piece = bytes(rest) + data[:cut] if rest else data[:cut]
        rest = bytearray(data[cut:])
        rest_binary = _has_binary(rest)
        no += piece.count(b"\n")
        yield piece
    if long is not None:
        yield LongLine(long, 0)
    elif rest.endswith(b"\r"):  # the file ends with CRs: its last line end
        yield bytes(rest) + b"\n"
    elif rest:
        yield bytes(rest)


def long_line(piece: LongLine, fallback: str = FALLBACK_ENCODING) -> DamagedLine:
    """The damaged line a `LongLine` is read as: its first bytes, decoded (a character cut
    at their end left out)."""
    try:
        text = piece.decode("utf-8")
    except UnicodeDecodeError as e:
        if e.start >= len(piece) - 3:
            text = piece[: e.start].decode("utf-8", errors="replace")
        else:
            text = piece.decode(fallback, errors="replace")
    return DamagedLine(text if text.strip() else "\ufffd", MAX_LINE + 1, _long_what())


def _long_what() -> str:
    return f"{_LONG}{MAX_LINE:,} bytes"


def plain_lines(data: bytes) -> bool:
    """LF or CRLF line ends and no control bytes: lines that decode in one go and are
    numbered by their LFs (a CR anywhere but before LF means old Mac line ends)."""
    crs = data.count(b"\r") if b"\r" in data else 0
    return (not crs or crs == data.count(b"\r\n")) and not _has_binary(data)


def decodes(data: bytes, encoding: str) -> bool:
    try:
        data.decode(encoding)
    except UnicodeDecodeError:
        return False
    return True


def _has_binary(data: bytes | bytearray) -> bool:
    return len(data.translate(None, _BINARY_DELETE)) != len(data)


def decode_bytes(data: bytes, *, fallback: str = FALLBACK_ENCODING) -> str:
    """Bytes -> text with LF line ends: UTF-8 (BOM or not), UTF-16 with a BOM, else the
    site's legacy fallback (cp1252). Binary data raises `UnreadableFile`; we never guess."""
    if data.startswith(_BOMS_UTF16):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as e:
            raise UnreadableFile(f"invalid UTF-16 text (byte {e.start})") from None
    else:
        if _has_binary(data):
            data = b"".join(_unpad(line) for line in io.BytesIO(data))
        bad = _BINARY_BYTES.search(data) if _has_binary(data) else None
        if bad is not None:
            raise UnreadableFile(
                f"binary data, not a text hand history (control byte 0x{data[bad.start()]:02x} "
                f"at offset {bad.start()})"
            )
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            try:
                text = data.decode(fallback)
            except UnicodeDecodeError as e:
                raise UnreadableFile(
                    f"neither UTF-8 nor {fallback} text (byte 0x{data[e.start]:02x} "
                    f"at offset {e.start})"
                ) from None
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.removeprefix("\ufeff")


def utf16_lines(f: BinaryIO) -> Iterator[str]:
    """A UTF-16 file's lines (BOM first), piece by piece. Lines are cut at the bytes of a
    line feed before they are decoded, each on its own, so one byte too many or too few
    (an odd-length line) damages that line only instead of shifting every character after
    it: the line comes as a `DamagedLine`, as does a line that is not valid UTF-16 or holds
    control characters. A single byte left over at the very end (seen in real files: an
    odd trailing byte after the last line end) is not text and is dropped."""
    little = f.read(2) == b"\xff\xfe"
    codec, lf = ("utf-16-le", b"\n\x00") if little else ("utf-16-be", b"\x00\n")
    rest = b""
    long = False  # the rest of a line past MAX_LINE characters is being dropped
    while True:
        data = f.read(_READ_CHUNK)
        if not data:
            if len(rest) > 1 and not long:
                yield from _utf16_line(rest, codec)
            return
        if long:
            end = data.find(lf)
            if end < 0:
                continue
            data, long = data[end + 2 :], False
        rest += data
        cut = rest.rfind(
            lf
        )  # taken as found even at an odd offset: a damaged line, not a character
        if cut < 0:
            if len(rest) > 2 * MAX_LINE:  # no line end in 2 MB: read no further in it
                text = rest[: 2 * _KEPT].decode(codec, errors="replace")
                yield DamagedLine(_CONTROL.sub("", text) or "\ufffd", MAX_LINE + 1, _long_what())
                rest, long = b"", True
            continue  # no complete line yet
        pieces = rest[:cut].split(lf)
        rest = rest[cut + 2 :]
        for raw in pieces:
            yield from _utf16_line(raw, codec)


def _utf16_line(raw: bytes, codec: str) -> Iterator[str]:
    """One line's bytes (CR line ends split after decoding), damaged or not."""
    what = ""
    if len(raw) % 2:
        what, raw = "an odd number of bytes in UTF-16 text", raw[:-1]
    try:
        text = raw.decode(codec)
    except UnicodeDecodeError as e:
        what = what or f"invalid UTF-16 text at byte {e.start}"
        text = raw.decode(codec, errors="replace")
    m = _CONTROL.search(text)
    if m and not what:
        what = f"control character U+{ord(m.group()):04X}"
    text = text.removesuffix("\r")
    for line in _split_lines(text) if text else [""]:
        if what:
            clean = _CONTROL.sub("", line)
            yield DamagedLine(
                clean if clean.strip() else "\ufffd", (m.start() + 1) if m else 1, what
            )
        else:
            yield line


def _split_lines(text: str) -> Iterator[str]:
    """Lines of decoded text, any of LF, CRLF or CR ending them (the last may have none)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    yield from lines


def is_utf16(f: BinaryIO) -> bool:
    """Whether a file starts with a UTF-16 byte-order mark (f is rewound)."""
    head = f.read(2)
    f.seek(0)
    return head in _BOMS_UTF16


def text_pieces(
    f: BinaryIO, before: int = 0, fallback: str = FALLBACK_ENCODING
) -> Iterator[tuple[str, list[str]] | Iterator[str]]:
    """The file's lines in pieces: (text, its lines) for a chunk decoded in one go,
    an iterator for text that must be read line by line (UTF-16, CR line ends,
    legacy encodings, damaged lines: see `decode_lines`; a binary stretch raises
    `UnreadableFile` at its line). `before`: the number of file lines before f's
    first (f a byte range from `cut_points`)."""
    if is_utf16(f):
        yield utf16_lines(f)
        return
    no = before
    for piece in line_pieces(f, before):
        if isinstance(piece, LongLine):
            yield iter((long_line(piece, fallback),))
            no += piece.lf
            continue
        if piece.endswith(b"\r"):  # cut after CRs followed by a line: read up to them
            yield _cr_lines(piece, no, fallback)
            no += piece.count(b"\n")
            continue
        if not piece.endswith(b"\n"):  # the file's last line, without its line end
            yield decode_lines(piece, no, fallback)
            return
        # the common cases in one go: UTF-8 with LF or CRLF line ends, no control bytes
        decoded: str | None = None
        if plain_lines(piece):
            try:
                decoded = piece.decode("utf-8")
            except UnicodeDecodeError:
                decoded = None
            if decoded is not None and b"\r" in piece:
                decoded = decoded.replace("\r\n", "\n")
        if decoded is not None:
            lines = decoded.split("\n")
            lines.pop()  # after the piece's last line end
            no += len(lines)
            yield decoded, lines
        else:
            yield decode_lines(piece, no, fallback)
            no += piece.count(b"\n")


def _cr_lines(piece: bytes, before: int, fallback: str) -> Iterator[str]:
    """The lines of a piece that ends with CRs another line follows: each CR ends one
    (`decode_lines` would take CRs at a piece's end as one line end, as before an LF)."""
    lines = decode_lines(piece + b"_", before, fallback)
    last = next(lines)
    for line in lines:
        yield last
        last = line
    # `last` is the "_" after the CRs


_PAD = 2  # NUL bytes a line may start or end with and still be text


def _unpad(raw: bytes) -> bytes:
    """A line without the NUL bytes some clients pad lines with, one or two at its start
    or end (PartyPoker writes a NUL before a file's first line and on a line of its own):
    they are not text, and a line of nothing else is blank. More NULs, or a NUL inside a
    line's text, stay (and make the line binary: a run of NULs is a binary file's)."""
    end = len(raw) - len(raw.rstrip(b"\r\n"))
    body = raw[: len(raw) - end]
    lead = len(body) - len(body.lstrip(b"\x00"))
    if lead <= _PAD:
        body = body[lead:]
    trail = len(body) - len(body.rstrip(b"\x00"))
    if trail <= _PAD:
        body = body[: len(body) - trail]
    return body + raw[len(raw) - end :]


# the control bytes of `_BINARY_BYTES`, in decoded text
_CONTROL = re.compile("[\x00-\x08\x0e-\x1a\x1c-\x1f]")


def _by_runs(fallback: str) -> str:
    """The name of the decoding error handler that reads bytes that are not UTF-8 in
    `fallback` (registered once per code page)."""
    name = f"histkit-runs-{fallback}"
    try:
        codecs.lookup_error(name)
    except LookupError:

        def handler(e: UnicodeError) -> tuple[str, int]:
            if not isinstance(e, UnicodeDecodeError):
                raise e
            return e.object[e.start : e.end].decode(fallback), e.end

        codecs.register_error(name, handler)
    return name


def decode_line(raw: bytes, fallback: str = FALLBACK_ENCODING) -> str:
    """One line's bytes as UTF-8, else by runs (see the module's notes), else wholly in
    `fallback` (a multi-byte code page); UnicodeDecodeError when `fallback` cannot read
    it, at the first byte it cannot read."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return raw.decode("utf-8", _by_runs(fallback))
    except UnicodeDecodeError:
        return raw.decode(fallback)


def decode_lines(data: bytes, before: int, fallback: str = FALLBACK_ENCODING) -> Iterator[str]:
    """Lines one at a time: each as UTF-8 or else the legacy encoding, CR line ends
    split. A damaged line (a stray control byte, or a byte neither encoding reads) comes
    as a `DamagedLine`, without those bytes; a binary stretch (a run of control bytes, or
    a very long line with control bytes in it) raises `UnreadableFile` at its file line
    (numbered from `before` + 1)."""
    for no, raw in enumerate(io.BytesIO(data), before + 1):
        controls = False
        bad: int | None = None  # the offset of a byte neither encoding reads
        if _BINARY_BYTES.search(raw):
            if _BINARY_RUN.search(raw) or len(raw) > _MAX_DAMAGED:
                raise _binary_stretch(no)
            raw = _unpad(raw)
            controls = _BINARY_BYTES.search(raw) is not None
        try:
            line = decode_line(raw, fallback)
        except UnicodeDecodeError as e:
            bad = e.start
            line = raw.decode(fallback, errors="ignore")
        line = line.rstrip("\r\n")
        if controls or bad is not None:
            yield from _damaged(line, raw, bad, fallback)
        elif "\r" in line:  # old Mac line ends: one physical line holds several
            yield from line.split("\r")
        else:
            yield line


def _damaged(line: str, raw: bytes, bad: int | None, fallback: str) -> Iterator[str]:
    """The lines of a damaged physical line (several with old Mac line ends): each
    damaged one as a `DamagedLine` without its control bytes (a line of nothing else
    stays a line, of U+FFFD: a blank line would end its hand)."""
    part = column = 0
    if bad is not None:  # which CR-separated line holds the unreadable byte, and where
        before = raw[:bad].decode(fallback, errors="replace")
        part, column = before.count("\r"), len(before) - before.rfind("\r")
    for i, sub in enumerate(line.split("\r") if "\r" in line else (line,)):
        if m := _CONTROL.search(sub):
            what, col = f"control byte 0x{ord(m.group()):02x}", m.start() + 1
        elif bad is not None and i == part:
            what, col = f"byte 0x{raw[bad]:02x}, neither UTF-8 nor {fallback} text", column
        else:
            yield sub
            continue
        text = _CONTROL.sub("", sub) if m else sub
        yield DamagedLine(text if text and not text.isspace() else "\ufffd", col, what)
