"""Runtime guard for the mypyc-compiled modules: compiled, or all of them from source, never a mix.

The build (hatch_build.py) writes ``_native.json`` beside this file: every compiled module and the
sha256 of the source it was compiled from. ``histkit/__init__.py`` calls :func:`install` before
anything can import a compiled module. Pure Python is chosen, for *all* listed modules (compiled
modules call each other natively, so a mix could run old code), when

- ``HISTKIT_PURE=1`` is set (to debug, profile or compare against the interpreted code);
- a listed source no longer matches its hash (a developer edited it after ``pip install -e .``):
  one warning names the stale files and the fix;
- an extension is missing (an incomplete build).

A meta-path finder placed first then hands out a source spec for exactly those module names.
Hashing the ~160 KB of listed sources costs well under a millisecond at import.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

PACKAGE_DIR = Path(__file__).resolve().parent
MANIFEST = PACKAGE_DIR / "_native.json"


class NativeBuildWarning(RuntimeWarning):
    """The compiled build is stale or incomplete: histkit runs the pure-Python modules."""


@dataclass(frozen=True, slots=True)
class NativeStatus:
    """Which code runs for the listed modules and why."""

    compiled: bool
    reason: str  # "compiled", "HISTKIT_PURE=1", "not compiled[, why]", "stale", "incomplete"
    modules: tuple[str, ...]  # the modules the build compiled (empty when not compiled)
    stale: tuple[str, ...] = ()  # sources (relative to the package) edited since the build
    missing: tuple[str, ...] = ()  # modules whose extension file is absent

    def describe(self) -> str:
        """One line for ``histkit --version``."""
        if self.compiled:
            return f"compiled with mypyc: {len(self.modules)} modules"
        if self.reason == "stale":
            return f"pure Python: stale build of {', '.join(self.stale)}; run pip install -e ."
        if self.reason == "incomplete":
            return f"pure Python: incomplete build, no extension for {', '.join(self.missing)}"
        return f"pure Python: {self.reason}"


def _relative(source: str) -> str:
    """'histkit/rules/state.py' -> 'rules/state.py' (what a developer recognises)."""
    return source.split("/", 1)[1] if "/" in source else source


def has_extension(py: Path) -> bool:
    """Is there a compiled extension beside this source, for this interpreter?"""
    return any(
        (py.parent / f"{py.stem}{suffix}").is_file()
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
    )


def evaluate(
    package_dir: Path, manifest: Mapping[str, object] | None, environ: Mapping[str, str]
) -> NativeStatus:
    """Decide compiled or pure from the manifest, the sources on disk and the environment."""
    if manifest is None:
        return NativeStatus(False, "not compiled", ())
    entries = manifest["modules"]
    assert isinstance(entries, dict)
    if not entries:  # a pure build says why (HISTKIT_PURE_BUILD=1, or mypyc failed)
        why = manifest.get("not_compiled")
        return NativeStatus(False, f"not compiled, {why}" if why else "not compiled", ())
    names = tuple(sorted(entries))
    if environ.get("HISTKIT_PURE") == "1":
        return NativeStatus(False, "HISTKIT_PURE=1", names)
    root = package_dir.parent
    stale, missing = [], []
    for name in names:
        source = entries[name]["source"]
        py = root / source
        try:
            digest = hashlib.sha256(py.read_bytes()).hexdigest()
        except OSError:
            digest = ""
        if digest != entries[name]["sha256"]:
            stale.append(_relative(source))
        if not has_extension(py):
            missing.append(name)
    if stale:
        return NativeStatus(False, "stale", names, stale=tuple(stale))
    if missing:
        return NativeStatus(False, "incomplete", names, missing=tuple(missing))
    return NativeStatus(True, "compiled", names)


class SourceFinder:
    """Meta-path finder: the listed modules from their ``.py`` files, whatever lies beside them."""

    def __init__(self, root: Path, sources: Mapping[str, str]) -> None:
        self.paths = {name: root / source for name, source in sources.items()}

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        py = self.paths.get(fullname)
        return None if py is None else importlib.util.spec_from_file_location(fullname, py)


def read_manifest(path: Path = MANIFEST) -> dict[str, object] | None:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


def apply(
    package_dir: Path, manifest: Mapping[str, object] | None, environ: Mapping[str, str]
) -> NativeStatus:
    """Evaluate, and when not compiled put a SourceFinder for every listed module first."""
    status = evaluate(package_dir, manifest, environ)
    if status.compiled or manifest is None:
        return status
    entries = manifest["modules"]
    assert isinstance(entries, dict)
    sources = {name: entry["source"] for name, entry in entries.items()}
    sys.meta_path.insert(0, SourceFinder(package_dir.parent, sources))
    if status.reason in ("stale", "incomplete"):
        detail = (
            f"{', '.join(status.stale)} changed since it was compiled"
            if status.reason == "stale"
            else f"no compiled extension for {', '.join(status.missing)}"
        )
        warnings.warn(
            f"histkit: {detail}; running all {len(status.modules)} compiled modules as pure "
            "Python (slower). Rebuild with: pip install -e .",
            NativeBuildWarning,
            stacklevel=3,
        )
    return status


_status: NativeStatus | None = None


def install() -> NativeStatus:
    """Run once, at import of histkit, before any listed module is imported."""
    global _status
    if _status is None:
        _status = apply(PACKAGE_DIR, read_manifest(), os.environ)
    return _status


def status() -> NativeStatus:
    """Which mode this process runs in, and why."""
    return install()
