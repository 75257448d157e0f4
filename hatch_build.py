"""Hatchling build hook: compile histkit's hot modules with mypyc (the way black and mypy ship).

The module list lives in one place, ``[tool.hatch.build.targets.wheel.hooks.custom] modules`` in
pyproject.toml. The build writes ``histkit/_native.json`` (each compiled module, the sha256 of the
source it was compiled from, the mypy version); the runtime guard ``histkit/_native.py`` reads only
that manifest, so an installed wheel needs no pyproject.

- regular wheel: compile in a temporary directory and force-include the extension modules (one
  shim per module plus the shared ``histkit__mypyc`` library) and the manifest; platform tag.
- editable install: compile, then copy the extensions beside the ``.py`` files (the shared library
  at the repo root, which the editable ``.pth`` puts on ``sys.path``); old in-place builds are
  deleted first so a failed or pure rebuild never leaves a stale mix behind.
- ``HISTKIT_PURE_BUILD=1``: no compilation (pure build). A failed compilation is fatal with
  ``HISTKIT_REQUIRE_NATIVE=1``, otherwise a warning and a pure build. A pure build's manifest
  lists no modules and says why, which ``histkit --version`` repeats (pip hides the warning).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

PACKAGE = "histkit"
GROUP = "histkit"  # mypyc group name: the shared library is the top-level module histkit__mypyc
MANIFEST = f"{PACKAGE}/_native.json"
OPT_LEVEL = "3"

# The temporary setup.py run in a subprocess (its own process: setuptools' global state and
# compiler output stay out of hatchling's). argv: config JSON path.
SETUP_PY = textwrap.dedent(
    """\
    import inspect, json, sys
    from setuptools import setup
    from mypyc.build import mypycify

    cfg = json.load(open(sys.argv.pop(1)))
    kwargs = dict(opt_level=cfg["opt_level"], target_dir=cfg["target_dir"])
    if "group_name" in inspect.signature(mypycify).parameters:
        kwargs["group_name"] = cfg["group_name"]
    ext_modules = mypycify(cfg["mypy_args"] + cfg["paths"], **kwargs)
    setup(name="histkit-native", ext_modules=ext_modules, script_args=cfg["script_args"])
    """
)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _module_name(rel: str) -> str:
    return rel.removesuffix(".py").replace("/", ".")


def _find_extension(directory: Path, stem: str) -> Path | None:
    """The built extension ``stem.<abi>.so`` in directory (the suffix this interpreter uses)."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = directory / f"{stem}{suffix}"
        if candidate.is_file():
            return candidate
    return None


def in_place_artifacts(root: Path) -> list[Path]:
    """Every file an editable build may have put in the tree (to delete before rebuilding):
    every extension module in the package, not only the listed ones, so a module dropped from
    the list leaves no shim behind that points into the new shared library (histkit has no
    extension modules of its own)."""
    found = [root / MANIFEST]
    found += [p for p in (root / PACKAGE).rglob("*") if p.suffix in (".so", ".pyd")]
    found += [p for p in root.glob(f"{GROUP}__mypyc.*") if p.suffix in (".so", ".pyd")]
    return [p for p in found if p.is_file()]


def compile_modules(root: Path, modules: list[str], work: Path) -> dict[str, Path]:
    """Compile modules (paths relative to root) with mypyc into work; map wheel path -> built file.

    Raises RuntimeError with the compiler's output when anything fails.
    """
    missing = [rel for rel in modules if not (root / rel).is_file()]
    if missing:
        raise RuntimeError(f"modules listed for mypyc do not exist: {', '.join(missing)}")
    build_lib, build_temp, target = work / "lib", work / "temp", work / "c"
    cfg = {
        "paths": [str(root / rel) for rel in modules],
        # The project's mypy settings; the cache stays in the temporary directory.
        "mypy_args": [
            "--config-file",
            str(root / "pyproject.toml"),
            "--cache-dir",
            str(work / "mypy_cache"),
        ],
        "opt_level": OPT_LEVEL,
        "group_name": GROUP,
        "target_dir": str(target),
        "script_args": [
            "build_ext",
            "--build-lib",
            str(build_lib),
            "--build-temp",
            str(build_temp),
        ],
    }
    (work / "cfg.json").write_text(json.dumps(cfg))
    (work / "setup.py").write_text(SETUP_PY)
    # cwd = work: nothing (build/, .mypy_cache) is written into the source tree; the sources are
    # found by absolute path and mypy derives their module names from the __init__.py files.
    proc = subprocess.run(
        [sys.executable, str(work / "setup.py"), str(work / "cfg.json")],
        cwd=work,
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"mypyc failed (exit {proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    built: dict[str, Path] = {}
    for rel in modules:
        src = Path(rel)
        ext = _find_extension(build_lib / src.parent, src.stem)
        if ext is None:
            raise RuntimeError(f"mypyc built no extension for {rel}")
        built[(src.parent / ext.name).as_posix()] = ext
    libs = [p for p in build_lib.glob(f"{GROUP}__mypyc.*") if p.suffix in (".so", ".pyd")]
    if len(libs) != 1:
        raise RuntimeError(f"expected one shared library {GROUP}__mypyc.*, found {libs}")
    built[libs[0].name] = libs[0]
    return built


def manifest_for(root: Path, modules: list[str]) -> dict[str, Any]:
    """What the runtime guard checks: the sources the extensions were compiled from."""
    import mypy.version

    return {
        "compiler": "mypyc",
        "mypy": mypy.version.__version__,
        "opt_level": OPT_LEVEL,
        "shared_library": f"{GROUP}__mypyc",
        "modules": {
            _module_name(rel): {"source": rel, "sha256": _sha256(root / rel)} for rel in modules
        },
    }


def pure_manifest(why: str) -> dict[str, Any]:
    """Nothing compiled, and why."""
    return {"compiler": "mypyc", "modules": {}, "not_compiled": why}


class NativeBuildHook(BuildHookInterface):
    """Compiles the listed modules for the wheel and editable targets."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        self._work: Path | None = None
        root = Path(self.root)
        modules = [str(m) for m in self.config.get("modules", [])]
        if version == "editable":
            for old in in_place_artifacts(root):
                old.unlink()
        if not modules:
            return
        work = Path(tempfile.mkdtemp(prefix="histkit-mypyc-"))
        try:
            manifest, built = self.build_native(root, modules, work)
            text = json.dumps(manifest, indent=2, sort_keys=True) + "\n"
            if version == "editable":
                for dest, src in built.items():
                    shutil.copy2(src, root / dest)
                (root / MANIFEST).write_text(text)
            else:
                (work / "_native.json").write_text(text)
                build_data["force_include"][str(work / "_native.json")] = MANIFEST
                for dest, src in built.items():
                    build_data["force_include"][str(src)] = dest
                if built:
                    build_data["pure_python"] = False
                    build_data["infer_tag"] = True
                self._work = work  # the wheel is written from these files: finalize deletes them
        finally:
            if self._work is None:
                shutil.rmtree(work, ignore_errors=True)

    def build_native(
        self, root: Path, modules: list[str], work: Path
    ) -> tuple[dict[str, Any], dict[str, Path]]:
        """The manifest and the built files (none for a pure build: the manifest then says why,
        so ``histkit --version`` can tell a deliberate pure build from a failed compilation)."""
        if os.environ.get("HISTKIT_PURE_BUILD") == "1":
            self.app.display_info("histkit: HISTKIT_PURE_BUILD=1, not compiling (pure Python)")
            return pure_manifest("HISTKIT_PURE_BUILD=1"), {}
        # Hash before compiling: the manifest describes exactly the bytes mypyc read (a source
        # edited during the build then shows as stale at runtime, never as current).
        manifest = manifest_for(root, modules)
        self.app.display_info(f"histkit: compiling {len(modules)} modules with mypyc ...")
        try:
            built = compile_modules(root, modules, work)
        except Exception as exc:
            if os.environ.get("HISTKIT_REQUIRE_NATIVE") == "1":
                raise
            self.app.display_warning(
                "histkit: mypyc compilation failed, building pure Python instead "
                f"(set HISTKIT_REQUIRE_NATIVE=1 to make this fatal): {exc}"
            )
            return pure_manifest("mypyc failed when built; pip install -v -e . shows why"), {}
        self.app.display_info(f"histkit: compiled {len(modules)} modules")
        return manifest, built

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work: Path | None = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
            self._work = None
