"""The site pages (`docs/sites/*.md`) say, form by form, what each site writes and whether
histkit reads it. This walks every form block: its example goes where its kind belongs in
a template hand written by the site's own writer (Hero, stonewall7 and LuluBelle at one
table), and histkit's reader reads the result. A `status=read` block must read with no
error and no line left unread, and with the effect it stands for where that is cheap to
see (its amount in the actions, its hand id in the hand, its seat in the seats); a
`status=unread` block must not: a page can claim neither less nor more than the truth.
Every page has at least one block of every kind, but for those it names in a
`<!-- no forms: ... -->` comment (the site writes no such line)."""

from __future__ import annotations

import pytest

from tests.dialects import site_pages as sp

PAGES = sp.pages()
BLOCKS = [b for p in PAGES for b in p.blocks]


def test_there_are_pages() -> None:
    assert len(PAGES) >= 6 and len(BLOCKS) >= 200


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_page_has_every_kind(page: sp.Page) -> None:
    kinds = {b.kind for b in page.blocks}
    assert not page.no_forms & kinds, f"{page.name} names kinds it has blocks of"
    missing = set(sp.KINDS) - kinds - page.no_forms
    assert not missing, f"{page.name} has no block of {sorted(missing)}"


@pytest.mark.parametrize("block", BLOCKS, ids=[b.id for b in BLOCKS])
def test_block_is_well_formed(block: sp.Block) -> None:
    assert block.kind in sp.KINDS, f"{block.id}: unknown kind {block.kind!r}"
    assert block.status in ("read", "unread"), f"{block.id}: status {block.status!r}"
    assert block.source in ("R", "K"), f"{block.id}: source {block.source!r}"
    assert block.era, f"{block.id}: no era"
    assert not block.other_game or block.kind == "header", f"{block.id}: game=other off a header"
    assert block.template in ("", "SHOWDOWN", "MUCK", "FOLD"), f"{block.id}: {block.template!r}"
    assert block.currency in ("", "USD", "EUR", "GBP", "GEL"), f"{block.id}: {block.currency!r}"


@pytest.mark.parametrize("block", BLOCKS, ids=[b.id for b in BLOCKS])
def test_block_reads_as_its_page_says(block: sp.Block) -> None:
    try:
        clean, what = sp.outcome(block)
    except sp.CannotPlace as e:
        pytest.fail(f"{block.id}: the walker cannot place it: {e}")
    if block.status == "read":
        assert clean, f"{block.id} is marked read but: {what}\n{block.text}"
    else:
        assert not clean, f"{block.id} is marked unread but reads cleanly ({what})\n{block.text}"
