"""Bytes to text: UTF-8 (BOM or not), UTF-16 with a BOM, else a legacy code page (cp1252);
LF, CRLF or old Mac CR line ends; binary data refused, never guessed at.

Files are read in pieces of whole lines (about 1 MB), so memory stays flat however big the
file; the common case (UTF-8 with LF or CRLF, no control bytes) decodes a whole piece at
once, anything else line by line with the line number where reading stopped.
"""

from __future__ import annotations

import codecs
import io
import re
from collections.abc import Iterator
from typing import BinaryIO

__all__ = [
    "FALLBACK_ENCODING",
    "UnreadableFile",
    "decode_bytes",
    "decode_lines",
    "line_pieces",
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


_BOMS_UTF16 = (b"\xff\xfe", b"\xfe\xff")
_READ_CHUNK = 1 << 20  # bytes read and decoded at a time (whole lines)
# C0 control bytes that never occur in a text hand history (tab, LF, VT, FF, CR excluded)
_BINARY_BYTES = re.compile(rb"[\x00-\x08\x0e-\x1a\x1c-\x1f]")
# the same bytes for bytes.translate: "any of them?" is a length check, ~8x faster than the
# regex scan on text that has none (the regex then says where)
_BINARY_DELETE = bytes([*range(0x00, 0x09), *range(0x0E, 0x1B), *range(0x1C, 0x20)])


def line_pieces(f: BinaryIO, before: int = 0) -> Iterator[bytes]:
    """f's bytes, from where it stands, in pieces of whole lines of about `_READ_CHUNK`; only
    the last piece may lack its line end. A stretch with no line end that holds binary data
    raises `UnreadableFile` at its line (`before`: the file lines before f's first), so a
    binary file is never held in memory whole."""
    no = before
    rest = bytearray()  # the start of a line whose end is in a later read
    while data := f.read(_READ_CHUNK):
        cut = data.rfind(b"\n") + 1
        if not cut:  # no line end yet: a very long line (or a binary file)
            if _BINARY_BYTES.search(data):
                raise UnreadableFile(
                    f"binary data, not a text hand history (line {no + 1})", no + 1
                )
            rest += data
            continue
        piece = bytes(rest) + data[:cut] if rest else data[:cut]
        rest = bytearray(data[cut:])
        no += piece.count(b"\n")
        yield piece
    if rest:
        yield bytes(rest)


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


def _has_binary(data: bytes) -> bool:
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
    """A UTF-16 file's lines (BOM first), decoded piece by piece. A single byte left over
    at the very end (seen in real files: an odd trailing byte after the last line end) is
    not text and is dropped; invalid text anywhere else raises `UnreadableFile` at its
    line."""
    decoder = codecs.getincrementaldecoder("utf-16")()
    rest = ""
    no = 0
    while True:
        data = f.read(_READ_CHUNK)
        try:
            text = decoder.decode(data, final=False) if data else ""
        except UnicodeDecodeError as e:
            raise UnreadableFile(
                f"invalid UTF-16 text (line {no + 1}: {e.reason})", no + 1
            ) from None
        text = rest + text
        if not data:
            left, _ = decoder.getstate()
            if len(left) > 1:
                raise UnreadableFile(f"invalid UTF-16 text (line {no + 1}: truncated)", no + 1)
            if text:
                yield from _split_lines(text)
            return
        cut = max(text.rfind("\n"), text.rfind("\r"))
        if cut < 0 or (text[cut] == "\r" and cut == len(text) - 1):
            rest = text  # no complete line yet (or a CR that may precede its LF)
            continue
        rest = text[cut + 1 :]
        lines = list(_split_lines(text[: cut + 1]))
        no += len(lines)
        yield from lines


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
    legacy encodings, binary data: `UnreadableFile` at its line). `before`: the
    number of file lines before f's first (f a byte range from `cut_points`)."""
    if is_utf16(f):
        yield utf16_lines(f)
        return
    no = before
    for piece in line_pieces(f, before):
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


def decode_lines(data: bytes, before: int, fallback: str = FALLBACK_ENCODING) -> Iterator[str]:
    """Lines one at a time: each as UTF-8 or else the legacy encoding, CR line ends
    split, binary data raised at its line (file line numbers from `before` + 1)."""
    for no, raw in enumerate(io.BytesIO(data), before + 1):
        if _BINARY_BYTES.search(raw):
            raw = _unpad(raw)
            if _BINARY_BYTES.search(raw):
                raise UnreadableFile(f"binary data, not a text hand history (line {no})", no)
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            try:
                line = raw.decode(fallback)
            except UnicodeDecodeError:
                raise UnreadableFile(f"neither UTF-8 nor {fallback} text (line {no})", no) from None
        line = line.rstrip("\r\n")
        if "\r" in line:  # old Mac line ends: one physical line holds several
            yield from line.split("\r")
        else:
            yield line
