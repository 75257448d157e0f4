"""Remakes the README's pictures of the report, from Hero's report on sample_data/:

    python docs/screenshots.py [--out docs]

`report-summary.png` is the top of the report (title, the cash summary, the first plot);
`report-replay.png` one of the biggest pots Hero won, replayed (cards drawn as cards). Needs
Chromium (Debian: apt-get install chromium); tests/test_report.py runs this too, so the
pictures can always be remade.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: the checkout's histkit and tests
    sys.path.insert(0, str(ROOT))

from histkit.report import build_report  # noqa: E402
from histkit.stats import load  # noqa: E402
from tests.chromium import chromium_shot  # noqa: E402

WIDTH = 1100  # px: the report's column (70em) and a margin


def _trimmed(png: Path, margin: int = 16) -> None:
    """The picture cut below its last non-white row (and a margin), in 256 colours: text
    and flat fills lose nothing, and the file shrinks to a third."""
    from PIL import Image, ImageChops

    with Image.open(png) as shot:
        img = shot.convert("RGB")
    box = ImageChops.difference(img, Image.new("RGB", img.size, "white")).getbbox()
    img = img.crop((0, 0, img.width, min(img.height, (box[3] if box else img.height) + margin)))
    img.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(png, optimize=True)


def _replayed_hand(report: str) -> str:
    """The replay to show: of the biggest pots Hero won at the cash tables, one that went
    to showdown among the fewest players (a picture a reader can take in at a glance)."""
    cash = report[report.index('<h2 id="cash">') : report.index('<h2 id="tournaments">')]
    won = cash[cash.index("Biggest pots won") : cash.index("Biggest pots lost")]
    hands = [f'<div class="hand">{h}' for h in won.split('<div class="hand">')[1:]]
    shown = [h for h in hands if "<b>Showdown</b>" in h] or hands
    return min(shown, key=lambda h: h.count("<th>"))


def make_screenshots(out: Path) -> tuple[Path, Path]:
    """Write report-summary.png and report-replay.png into `out`; return their paths."""
    report = build_report(load([ROOT / "sample_data"], audit=True), "Hero", top=3)
    head = report[: report.index("<body>") + len("<body>")]
    # the top of the report: the title, the first section's summary and its first plot
    top = report[: report.index("</figure>") + len("</figure>")] + "</body></html>"
    hand = head.replace("<body>", '<body style="max-width:none">') + _replayed_hand(report)
    out.mkdir(parents=True, exist_ok=True)
    pictures = (out / "report-summary.png", out / "report-replay.png")
    with tempfile.TemporaryDirectory() as tmp:
        for page, png in zip((top, hand + "</body></html>"), pictures, strict=True):
            html = Path(tmp) / "page.html"
            html.write_text(page, encoding="utf-8")
            chromium_shot(html, png, f"{WIDTH},3000")
            _trimmed(png)
    return pictures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="folder (default docs/)")
    for png in make_screenshots(parser.parse_args(argv).out):
        print(f"{png} ({png.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
