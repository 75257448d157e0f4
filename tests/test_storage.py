"""URLs whose storage cannot be used here: a scheme fsspec does not know, or one whose
backend is not installed (`s3://` without s3fs), is one line naming what to install, exit
status 2, before any work; never a traceback."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from histkit.cli import main
from tests.test_packaging import HAND

fsspec = pytest.importorskip("fsspec", reason="fsspec is not installed")


def _imported() -> dict[str, type]:
    """fsspec's filesystem classes already imported, by scheme (`fsspec.registry` is
    both a module and, as an attribute of fsspec, a read-only view of this)."""
    registry: dict[str, type] = importlib.import_module("fsspec.registry")._registry
    return registry


@pytest.fixture
def no_cloud_backends(monkeypatch: pytest.MonkeyPatch) -> None:
    """s3fs and gcsfs as if they were not installed, whether they are or not."""
    for module in ("s3fs", "gcsfs"):
        monkeypatch.setitem(sys.modules, module, None)
    for scheme in ("s3", "s3a", "gs", "gcs"):  # forget a class fsspec imported before
        monkeypatch.delitem(_imported(), scheme, raising=False)


@pytest.fixture
def hand(tmp_path: Path) -> str:
    f = tmp_path / "hand.txt"
    f.write_text(HAND)
    return str(f)


def _error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main([*argv, "-q"]) == 2
    captured = capsys.readouterr()
    assert not captured.out
    assert len(captured.err.strip().splitlines()) == 1, captured.err  # one line, no traceback
    return captured.err


@pytest.mark.usefixtures("no_cloud_backends")
@pytest.mark.parametrize(
    ("argv", "url", "install"),
    [
        (["parse", "s3://bucket/hands/", "-o", "{OUT}"], "s3://bucket/hands/", "s3fs"),
        (["parse", "{HAND}", "-o", "s3://bucket/out"], "s3://bucket/out", "s3fs"),
        (["parse", "{HAND}", "-o", "gs://bucket/out"], "gs://bucket/out", "gcsfs"),
        (["audit", "s3://bucket/hands/"], "s3://bucket/hands/", "s3fs"),
        (["audit", "{HAND}", "gs://bucket/more/"], "gs://bucket/more/", "gcsfs"),
    ],
)
def test_a_url_whose_backend_is_missing_names_what_to_install(
    tmp_path: Path,
    hand: str,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    url: str,
    install: str,
) -> None:
    out = tmp_path / "out"
    argv = [a.replace("{OUT}", str(out)).replace("{HAND}", hand) for a in argv]
    err = _error(capsys, *argv)
    assert url in err and f"pip install {install}" in err
    assert not out.exists()


@pytest.mark.parametrize("place", ["input", "output"])
def test_an_unknown_scheme_is_one_line(
    tmp_path: Path, hand: str, capsys: pytest.CaptureFixture[str], place: str
) -> None:
    out = tmp_path / "out"
    if place == "input":
        err = _error(capsys, "parse", "foo://x", "-o", str(out))
    else:
        err = _error(capsys, "parse", hand, "-o", "foo://x/out")
    assert "foo://" in err and "no storage is known" in err
    assert not out.exists()
    assert "no storage is known" in _error(capsys, "audit", "foo://x")


def test_the_missing_module_is_the_one_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """A backend fsspec ships whose dependency is missing (sftp:// needs paramiko) names
    that dependency, not the backend."""
    from histkit.storage import url_filesystem
    from histkit.warehouse import WarehouseError

    monkeypatch.setitem(sys.modules, "paramiko", None)
    monkeypatch.delitem(_imported(), "sftp", raising=False)
    with pytest.raises(WarehouseError, match=r"sftp://host/x: .*pip install paramiko$"):
        url_filesystem("sftp://host/x")
    # a backend that is there still works
    fs, path = url_filesystem("memory://hk-storage/x")
    assert path == "/hk-storage/x" and "memory" in fs.protocol
