"""The wheel ships the grammars and the mypyc-compiled modules: build it, install it into a fresh
virtual environment (dependencies borrowed from this one, never the source tree), and parse a hand
there with the compiled code."""

from __future__ import annotations

import importlib.machinery
import json
import os
import site
import subprocess
import sys
import sysconfig
import textwrap
import tomllib
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT

# A made-up hand in PokerStars form (not from the real corpus).
HAND = textwrap.dedent(
    """\
    PokerStars Hand #1000000001:  7 Card Stud Hi/Lo Limit ($0.10/$0.20 USD) - 2024/03/01 12:00:00 ET
    Table 'Wheel Test' 8-max
    Seat 1: Alice ($5.00 in chips)
    Seat 2: Bob ($5.00 in chips)
    Alice: posts the ante $0.02
    Bob: posts the ante $0.02
    *** 3rd STREET ***
    Dealt to Alice [Kd]
    Dealt to Bob [3c]
    Bob: brings in for $0.05
    Alice: raises $0.05 to $0.10
    Bob: folds
    Uncalled bet ($0.05) returned to Alice
    Alice collected $0.14 from pot
    *** SUMMARY ***
    Total pot $0.14 | Rake $0
    Seat 1: Alice collected ($0.14)
    Seat 2: Bob folded on the 3rd Street
    """
)

PROGRAM = textwrap.dedent(
    """\
    import sys, histkit
    import histkit.rules.state
    from histkit.reader import parse_text
    assert "site-packages" in histkit.__file__, histkit.__file__
    print("STATE", histkit.rules.state.__file__)
    items = parse_text(open(sys.argv[1]).read(), source="wheel-test")
    hand, = items
    assert hand.hand_id == "1000000001", hand
    print("OK", hand.game.value, len(hand.events))
    """
)


@pytest.mark.slow
def test_wheel_ships_grammars_and_parses(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            str(ROOT),
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(dist),
        ],
        check=True,
    )
    (wheel,) = dist.glob("histkit-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.startswith("histkit/grammars/") and n.endswith(".lark") for n in names), names
    assert "histkit/py.typed" in names  # PEP 561: type checkers read histkit's hints
    pure_build = os.environ.get("HISTKIT_PURE_BUILD") == "1"
    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["hatch"]["build"]
    modules = build["targets"]["wheel"]["hooks"]["custom"]["modules"]
    ext = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    if pure_build:
        assert not [n for n in names if n.endswith(ext)], names
    else:
        # One extension per listed module beside its source, the shared library, the manifest.
        for rel in modules:
            stem = rel.removesuffix(".py")
            assert rel in names and any(n.startswith(stem + ".") and n.endswith(ext) for n in names)
        assert any(n.startswith("histkit__mypyc.") and n.endswith(ext) for n in names), names
        manifest = json.loads(zipfile.ZipFile(wheel).read("histkit/_native.json"))
        assert sorted(e["source"] for e in manifest["modules"].values()) == sorted(modules)
        assert not wheel.name.endswith("-none-any.whl"), wheel.name  # a platform wheel

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / "bin" / "python"
    # Borrow the dependencies (lark, pyarrow, ...) from this environment as plain paths, so
    # this environment's editable install of histkit is not picked up.
    target = Path(
        subprocess.run(
            [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    deps = {
        sysconfig.get_paths()["purelib"],
        sysconfig.get_paths()["platlib"],
        *site.getsitepackages(),
    }
    (target / "borrowed_deps.pth").write_text("\n".join(sorted(deps)) + "\n")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(py),
            "install",
            "--no-deps",
            "-q",
            str(wheel),
        ],
        check=True,
    )
    (tmp_path / "hand.txt").write_text(HAND)
    (tmp_path / "check.py").write_text(PROGRAM)
    env = {k: v for k, v in os.environ.items() if k != "HISTKIT_PURE"}
    out = subprocess.run(
        [str(py), "check.py", "hand.txt"], cwd=tmp_path, capture_output=True, text=True, env=env
    )
    assert out.returncode == 0, out.stderr
    assert "OK stud_hilo" in out.stdout
    state = out.stdout.split("STATE ", 1)[1].split()[0]
    assert state.endswith(".py" if pure_build else ext), state
    version = subprocess.run(
        [str(py), "-m", "histkit", "--version"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
    )
    assert version.returncode == 0, version.stderr
    expected = "pure Python: not compiled" if pure_build else f"compiled with mypyc: {len(modules)}"
    assert expected in version.stdout, version.stdout
