"""Without the Dask extra, `import histkit.dask` names what to install (the command line's
`--scheduler` says the same: tests/test_dask.py)."""

from __future__ import annotations

import importlib
import sys

import pytest


@pytest.mark.parametrize("missing", ["dask", "dask.dataframe", "distributed"])
def test_import_names_the_extra(monkeypatch: pytest.MonkeyPatch, missing: str) -> None:
    monkeypatch.setitem(sys.modules, missing, None)  # as if it were not installed
    monkeypatch.delitem(sys.modules, "histkit.dask", raising=False)
    with pytest.raises(ImportError, match=r"pip install 'histkit\[dask\]'") as caught:
        importlib.import_module("histkit.dask")
    assert missing in str(caught.value)
