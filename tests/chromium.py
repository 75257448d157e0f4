"""Headless Chromium for the report's pictures: the screenshot test and
`docs/screenshots.py` (the README's pictures) draw pages the same way."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def has_chromium() -> bool:
    return Path(CHROMIUM).exists()


def chromium_shot(html: Path, shot: Path, size: str = "1300,3000") -> bytes:
    """A PNG of the page `html` as a `size` ("width,height") window shows it."""
    subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            f"--screenshot={shot}",
            f"--window-size={size}",
            html.as_uri(),
        ],
        check=True,
        timeout=120,
        capture_output=True,
    )
    return shot.read_bytes()


def colour_pixels(png: Path, rgb: tuple[int, int, int], tolerance: int = 40) -> int:
    """How many pixels of the picture are near the colour `rgb`."""
    import numpy as np
    from matplotlib import image

    pixels = (image.imread(png)[..., :3] * 255).astype(int)
    near = np.abs(pixels - np.array(rgb)).max(axis=-1) <= tolerance
    return int(near.sum())
