"""The mypyc build: the listed modules run compiled, HISTKIT_PURE=1 runs them all from source, a
stale or incomplete build falls back to source as a whole, and compiled and pure code give
byte-identical audits and identical tables."""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from histkit import _native
from tests.conftest import POKERSTARS, ROOT, SAMPLE_DATA, needs_corpus

EXT = importlib.machinery.EXTENSION_SUFFIXES[0]


def pyproject_modules() -> list[str]:
    """The one list of compiled modules (the build hook's table in pyproject.toml)."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    hook = data["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]
    return list(hook["modules"])


def child_env(pure: bool) -> dict[str, str]:
    """This environment, with HISTKIT_PURE set or removed whatever the suite itself runs with."""
    env = {k: v for k, v in os.environ.items() if k != "HISTKIT_PURE"}
    if pure:
        env["HISTKIT_PURE"] = "1"
    return env


PROBE = textwrap.dedent(
    """\
    import importlib, json
    from histkit import _native
    s = _native.status()
    files = {m: importlib.import_module(m).__file__ for m in s.modules}
    print(json.dumps({"compiled": s.compiled, "describe": s.describe(), "files": files}))
    """
)


def probe(pure: bool) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], env=child_env(pure), capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    result: dict[str, Any] = json.loads(out.stdout)
    return result


@pytest.fixture(scope="module")
def compiled() -> dict[str, Any]:
    """The compiled install's probe; skip when this install runs pure Python."""
    info = probe(pure=False)
    if not info["compiled"]:
        pytest.skip(f"this install runs pure Python ({info['describe']}); nothing to compare")
    return info


def histkit(*args: str, pure: bool, columns: int = 80) -> subprocess.CompletedProcess[bytes]:
    env = child_env(pure) | {"COLUMNS": str(columns)}
    return subprocess.run([sys.executable, "-m", "histkit", *args], env=env, capture_output=True)


# --- the installed build ---------------------------------------------------------------------


def test_manifest_lists_exactly_the_pyproject_modules() -> None:
    manifest = _native.read_manifest()
    modules = manifest["modules"] if manifest else None
    if not modules:
        pytest.skip("this install was built pure: its manifest lists no compiled modules")
    assert isinstance(modules, dict) and manifest
    listed = pyproject_modules()
    assert sorted(e["source"] for e in modules.values()) == sorted(listed)
    assert sorted(modules) == sorted(p.removesuffix(".py").replace("/", ".") for p in listed)
    assert "histkit.rules.violations" not in modules  # pickled between processes: never compiled
    assert manifest["compiler"] == "mypyc" and manifest["mypy"]


def test_compiled_modules_are_extension_modules(compiled: dict[str, Any]) -> None:
    files = compiled["files"]
    assert len(files) == len(pyproject_modules())
    for name, file in files.items():
        assert file.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)), (name, file)
    assert compiled["describe"] == f"compiled with mypyc: {len(files)} modules"


def test_histkit_pure_imports_every_listed_module_from_source(compiled: dict[str, Any]) -> None:
    info = probe(pure=True)
    assert not info["compiled"]
    assert info["describe"] == "pure Python: HISTKIT_PURE=1"
    assert sorted(info["files"]) == sorted(compiled["files"])
    for name, file in info["files"].items():
        assert file.endswith(".py"), (name, file)
        assert (
            Path(file).with_suffix("")
            == Path(compiled["files"][name]).parent / name.rsplit(".", 1)[-1]
        )


def test_version_says_compiled_or_pure(compiled: dict[str, Any]) -> None:
    out = histkit("--version", pure=False)
    assert out.returncode == 0, out.stderr
    n = len(pyproject_modules())
    assert out.stdout.decode().strip() == f"histkit 0.1.0 (compiled with mypyc: {n} modules)"
    out = histkit("--version", pure=True, columns=20)  # one line, however narrow the terminal
    assert out.stdout.decode() == "histkit 0.1.0 (pure Python: HISTKIT_PURE=1)\n"


# --- the guard's logic on a made-up tree (no compiler needed) --------------------------------


def fake_build(tmp_path: Path, pkg: str = "fakepkg") -> tuple[Path, dict[str, Any]]:
    """A package with two 'compiled' modules: sources, unloadable extension files, a manifest."""
    package = tmp_path / pkg
    package.mkdir()
    (package / "__init__.py").write_text("")
    entries = {}
    for stem, value in (("fast", 1), ("helper", 2)):
        src = package / f"{stem}.py"
        src.write_text(f"VALUE = {value}\n")
        (package / f"{stem}{EXT}").write_bytes(b"not an ELF file")  # loading it would fail
        entries[f"{pkg}.{stem}"] = {
            "source": f"{pkg}/{stem}.py",
            "sha256": hashlib.sha256(src.read_bytes()).hexdigest(),
        }
    return package, {"compiler": "mypyc", "mypy": "x", "modules": entries}


def test_guard_decides_from_manifest_sources_and_environment(tmp_path: Path) -> None:
    package, manifest = fake_build(tmp_path)
    ok = _native.evaluate(package, manifest, {})
    assert ok.compiled and ok.modules == ("fakepkg.fast", "fakepkg.helper")
    assert ok.describe() == "compiled with mypyc: 2 modules"

    pure = _native.evaluate(package, manifest, {"HISTKIT_PURE": "1"})
    assert not pure.compiled and pure.describe() == "pure Python: HISTKIT_PURE=1"
    assert _native.evaluate(package, manifest, {"HISTKIT_PURE": "0"}).compiled

    nothing = _native.evaluate(package, None, {})
    assert not nothing.compiled and nothing.describe() == "pure Python: not compiled"
    pure_build = {"compiler": "mypyc", "modules": {}, "not_compiled": "X=1"}
    assert _native.evaluate(package, pure_build, {}).describe() == (
        "pure Python: not compiled, X=1"
    )

    (package / "helper.py").write_text("VALUE = 3\n")  # edited after the build
    stale = _native.evaluate(package, manifest, {})
    assert not stale.compiled and stale.stale == ("helper.py",)
    assert stale.describe() == "pure Python: stale build of helper.py; run pip install -e ."
    (package / "helper.py").write_text("VALUE = 2\n")  # edited back: current again
    assert _native.evaluate(package, manifest, {}).compiled

    (package / f"fast{EXT}").unlink()
    incomplete = _native.evaluate(package, manifest, {})
    assert not incomplete.compiled and incomplete.missing == ("fakepkg.fast",)
    assert "incomplete build" in incomplete.describe()


APPLY = textwrap.dedent(
    """\
    import json, sys, warnings
    from pathlib import Path
    from histkit import _native
    package = Path(sys.argv[1])
    sys.path.insert(0, str(package.parent))
    manifest = json.loads(Path(sys.argv[2]).read_text())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        status = _native.apply(package, manifest, {})
    import fakepkg.fast, fakepkg.helper
    print(json.dumps({
        "describe": status.describe(),
        "warnings": [f"{w.category.__name__}: {w.message}" for w in caught],
        "values": [fakepkg.fast.VALUE, fakepkg.helper.VALUE],
        "files": [fakepkg.fast.__file__, fakepkg.helper.__file__],
    }))
    """
)


def run_apply(tmp_path: Path, package: Path, manifest: dict[str, Any]) -> dict[str, Any]:
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    out = subprocess.run(
        [sys.executable, "-c", APPLY, str(package), str(tmp_path / "manifest.json")],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def test_stale_build_runs_every_listed_module_from_source_and_says_so(tmp_path: Path) -> None:
    package, manifest = fake_build(tmp_path)
    (package / "helper.py").write_text("VALUE = 20\n")  # only helper edited ...
    got = run_apply(tmp_path, package, manifest)
    # ... yet fast.py, unchanged, comes from source too (never a mix), and the new code runs.
    assert got["values"] == [1, 20]
    assert [Path(f).name for f in got["files"]] == ["fast.py", "helper.py"]
    assert got["describe"] == "pure Python: stale build of helper.py; run pip install -e ."
    (warning,) = got["warnings"]
    assert warning.startswith(
        "NativeBuildWarning: histkit: helper.py changed since it was compiled"
    )
    assert "pip install -e ." in warning


def test_current_build_leaves_imports_to_the_extensions(tmp_path: Path) -> None:
    """Control for the test above: with a current manifest no finder is installed, so the
    (deliberately unloadable) extension files are what Python tries to import."""
    package, manifest = fake_build(tmp_path)
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    out = subprocess.run(
        [sys.executable, "-c", APPLY, str(package), str(tmp_path / "manifest.json")],
        capture_output=True,
        text=True,
    )
    assert out.returncode != 0
    assert "ImportError" in out.stderr and f"fast{EXT}" in out.stderr


# --- compiled and pure give the same results -------------------------------------------------


def assert_same_audit(path: Path) -> bytes:
    native = histkit("audit", "--format", "json", str(path), pure=False)
    pure = histkit("audit", "--format", "json", str(path), pure=True)
    assert native.returncode in (0, 1), native.stderr
    assert (pure.returncode, pure.stdout) == (native.returncode, native.stdout)
    assert native.stdout.strip()
    return native.stdout


def test_audit_json_identical_on_sample_data(compiled: dict[str, Any]) -> None:
    report = json.loads(assert_same_audit(SAMPLE_DATA))
    assert report["violations"]  # sample_data has planted faults: not a trivially empty report


@needs_corpus
def test_audit_json_identical_on_real_corpus(compiled: dict[str, Any]) -> None:
    assert_same_audit(POKERSTARS)


@pytest.fixture(scope="module")
def session_with_faults(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("native") / "hilo_400.txt"
    out = histkit(
        "simulate",
        "--game",
        "stud_hilo",
        "--hands",
        "400",
        "--seed",
        "6",
        "--faults",
        "0.05",
        "-q",
        "-o",
        str(path),
        pure=False,
    )
    assert out.returncode == 0, out.stderr
    return path


def test_audit_json_identical_on_simulated_session_with_faults(
    compiled: dict[str, Any], session_with_faults: Path
) -> None:
    truth = session_with_faults.with_name(session_with_faults.stem + ".truth.jsonl").read_text()
    assert truth.strip(), "the simulated session should carry planted faults"
    report = json.loads(assert_same_audit(session_with_faults))
    assert report["hands"] == 400 and report["violations"]


def test_parse_tables_identical(
    compiled: dict[str, Any], session_with_faults: Path, tmp_path: Path
) -> None:
    outs = {}
    for pure in (False, True):
        outdir = tmp_path / ("pure" if pure else "compiled")
        run = histkit(
            "parse",
            str(SAMPLE_DATA),
            str(session_with_faults),
            "--audit",
            "-q",
            "-o",
            str(outdir),
            pure=pure,
        )
        assert run.returncode == 0, run.stderr
        outs[pure] = outdir
    names = sorted(p.relative_to(outs[False]) for p in outs[False].rglob("*.parquet"))
    assert names == sorted(p.relative_to(outs[True]) for p in outs[True].rglob("*.parquet"))
    assert {n.stem for n in names} >= {"hands", "seats", "actions", "awards", "violations"}
    for name in names:
        native, pure_table = pq.read_table(outs[False] / name), pq.read_table(outs[True] / name)
        assert native.equals(pure_table), name
        assert native.num_rows > 0 or name.stem in ("errors",), name


def test_editable_rebuild_deletes_every_old_extension(tmp_path: Path) -> None:
    """A module dropped from the list must not leave its shim behind: it would import the new
    shared library and fail (found when evaluate/scalar.py left the list)."""
    sys.path.insert(0, str(ROOT))
    try:
        import hatch_build
    finally:
        sys.path.remove(str(ROOT))
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    pkg = tmp_path / "histkit" / "evaluate"
    pkg.mkdir(parents=True)
    (pkg / "scalar.py").write_text("")
    dropped = pkg / f"scalar{suffix}"  # compiled by an earlier build, no longer listed
    group = tmp_path / f"histkit__mypyc{suffix}"
    manifest = tmp_path / "histkit" / "_native.json"
    for f in (dropped, group, manifest):
        f.write_text("")
    kept = pkg / "scalar.py"
    found = set(hatch_build.in_place_artifacts(tmp_path))
    assert found == {dropped, group, manifest}
    assert kept not in found
