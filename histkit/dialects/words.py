"""Each site's words for a shown hand, and the month names its dates use: shared by the
site's reader, which checks the words a hand history gives, and its writer, which writes
them. They live here so that a reader never imports its writer."""

from __future__ import annotations

from collections.abc import Iterable

from histkit.cards import Card
from histkit.evaluate._tables import CAT_SHIFT, HandCategory, unpack
from histkit.evaluate.names import high_name, low8_name, low_name, name_low_value
from histkit.evaluate.scalar import high_value, low8_value, razz_value
from histkit.model import Game

__all__ = [
    "BOVADA_WORDS",
    "MERGE_RAISE_TO_FROM",
    "MONTHS",
    "ONGAME_RANKS",
    "absolute_high",
    "absolute_low",
    "bovada_describe",
    "bovada_words",
    "everleaf_words",
    "fulltilt_describe",
    "fulltilt_high",
    "fulltilt_low",
    "ongame_high",
    "ongame_words",
    "partypoker_words",
]

# Merge's `starttime` from which a RAISE gives the street total after it; before it, what
# the raise adds, call and raise together (K: FPDB's "new format" date, 2010-09-08)
MERGE_RAISE_TO_FROM = "20100908000000"

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


# ---------------------------------------------------------------------------- Absolute
_ABS_NAMES = "two three four five six seven eight nine ten jack queen king ace"
_ABS_ONE = {rank: name for rank, name in enumerate(_ABS_NAMES.split(), 2)}
_ABS_MANY = {r: ("sixes" if r == 6 else n + "s") for r, n in _ABS_ONE.items()}


def absolute_high(cards: Iterable[Card]) -> str:
    """Absolute's words for the best high hand: "One pair, queens", "Two Pair, kings and
    tens" (real); "High card, ace", "Three of a kind, nines", "Straight, nine high",
    "Flush, ace high", "Full house, nines full of tens", "Four of a kind, kings", "Straight
    flush, nine high", "Royal flush" (histkit's, on their pattern)."""
    value = high_value(cards)
    cat, r = HandCategory(value >> CAT_SHIFT), unpack(value)
    if cat is HandCategory.PAIR:
        return f"One pair, {_ABS_MANY[r[0]]}"
    if cat is HandCategory.TWO_PAIR:
        return f"Two Pair, {_ABS_MANY[r[0]]} and {_ABS_MANY[r[2]]}"
    if cat is HandCategory.HIGH_CARD:
        return f"High card, {_ABS_ONE[r[0]]}"
    if cat is HandCategory.THREE_OF_A_KIND:
        return f"Three of a kind, {_ABS_MANY[r[0]]}"
    if cat is HandCategory.FOUR_OF_A_KIND:
        return f"Four of a kind, {_ABS_MANY[r[0]]}"
    if cat is HandCategory.FULL_HOUSE:
        return f"Full house, {_ABS_MANY[r[0]]} full of {_ABS_MANY[r[3]]}"
    if cat is HandCategory.STRAIGHT_FLUSH and r[0] == 14:
        return "Royal flush"
    words = {HandCategory.STRAIGHT: "Straight", HandCategory.FLUSH: "Flush"}
    return f"{words.get(cat, 'Straight flush')}, {_ABS_ONE[r[0]]} high"


def absolute_low(game: Game, cards: Iterable[Card]) -> str | None:
    """A low as "8,6,4,3,A" (histkit's form); None for a hi/lo hand without one."""
    if game is Game.RAZZ:
        return name_low_value(razz_value(cards)).replace("T", "10")
    value = low8_value(cards)
    return None if value is None else name_low_value(value)


# --------------------------------------------------------------------------- Full Tilt
# Full Tilt's words, as the real files write them: "a pair of Aces", "two pair, Aces and
# Kings", "a flush, Ten high", "a full house, Nines full of Tens", "Ace Jack high" (high
# card: the two top cards), razz "J,T,6,5,2". From knowledge, not in the files: "three of
# a kind, Nines", "a straight, Queen high", "four of a kind, Kings", "a straight flush,
# Nine high", "a royal flush", "Twos" for deuces, and the hi/lo form "<high>, for high and
# <low>, for low".
_FT_ONE = {
    2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight",
    9: "Nine", 10: "Ten", 11: "Jack", 12: "Queen", 13: "King", 14: "Ace",
}  # fmt: skip
_FT_MANY = {r: ("Sixes" if r == 6 else n + "s") for r, n in _FT_ONE.items()}


def fulltilt_high(cards: Iterable[Card]) -> str:
    """Full Tilt's name of the best high hand of 5-7 cards."""
    value = high_value(cards)
    cat = HandCategory(value >> CAT_SHIFT)
    r = unpack(value)
    if cat is HandCategory.HIGH_CARD:
        return f"{_FT_ONE[r[0]]} {_FT_ONE[r[1]]} high"
    if cat is HandCategory.PAIR:
        return f"a pair of {_FT_MANY[r[0]]}"
    if cat is HandCategory.TWO_PAIR:
        return f"two pair, {_FT_MANY[r[0]]} and {_FT_MANY[r[2]]}"
    if cat is HandCategory.THREE_OF_A_KIND:
        return f"three of a kind, {_FT_MANY[r[0]]}"
    if cat is HandCategory.STRAIGHT:
        return f"a straight, {_FT_ONE[r[0]]} high"
    if cat is HandCategory.FLUSH:
        return f"a flush, {_FT_ONE[r[0]]} high"
    if cat is HandCategory.FULL_HOUSE:
        return f"a full house, {_FT_MANY[r[0]]} full of {_FT_MANY[r[3]]}"
    if cat is HandCategory.FOUR_OF_A_KIND:
        return f"four of a kind, {_FT_MANY[r[0]]}"
    if r[0] == 14:
        return "a royal flush"
    return f"a straight flush, {_FT_ONE[r[0]]} high"


def fulltilt_low(game: Game, cards: Iterable[Card]) -> str | None:
    """The low as Full Tilt prints it ("8,6,4,3,2"); None for a hi/lo hand without one."""
    if game is Game.RAZZ:
        return name_low_value(razz_value(cards))
    value = low8_value(cards)
    return None if value is None else name_low_value(value)


def fulltilt_describe(game: Game, cards: Iterable[Card]) -> str | None:
    """Full Tilt's description of a shown hand of 5-7 cards; None for fewer cards."""
    hand = tuple(cards)
    if len(hand) < 5:
        return None
    if game is Game.RAZZ:
        return fulltilt_low(game, hand)
    high = fulltilt_high(hand)
    if game is Game.STUD_HILO:
        low = fulltilt_low(game, hand)
        return f"{high}, for high and {low}, for low" if low else high
    return high


# ------------------------------------------------------------------------------ Bovada
BOVADA_WORDS: dict[HandCategory, str] = {
    HandCategory.HIGH_CARD: "High Card",
    HandCategory.PAIR: "One pair",
    HandCategory.TWO_PAIR: "Two pair",
    HandCategory.THREE_OF_A_KIND: "Three of a kind",
    HandCategory.STRAIGHT: "Straight",
    HandCategory.FLUSH: "Flush",
    HandCategory.FULL_HOUSE: "Full House",
    HandCategory.FOUR_OF_A_KIND: "Four of a kind",
    HandCategory.STRAIGHT_FLUSH: "Straight Flush",
}


def bovada_words(game: Game, cards: tuple[Card, ...]) -> str:
    """The site's words for a player's cards: the high hand's category ("One pair"; R but
    "Four of a kind", "Straight Flush", "Royal Flush", K), in hi/lo too (R); "High Card"
    for fewer than five cards (R: [As Tc Kh Kc]); razz, which the site does not deal, by its
    low ("8,7,5,4,2", histkit's own)."""
    if len(cards) < 5:
        return "High Card"
    if game is Game.RAZZ:
        return low_name(cards)
    value = high_value(cards)
    category = HandCategory(value >> CAT_SHIFT)
    if category is HandCategory.STRAIGHT_FLUSH and unpack(value)[0] == 14:
        return "Royal Flush"
    return BOVADA_WORDS[category]


def bovada_describe(game: Game, cards: tuple[Card, ...]) -> str | None:
    """The words a shown hand is checked against: the high hand's (`bovada_words`); None
    for razz, fewer than five cards and a royal flush (no word for it is known)."""
    words = bovada_words(game, cards) if game is not Game.RAZZ and len(cards) >= 5 else None
    return None if words == "Royal Flush" else words


# ------------------------------------------------------------------------------ OnGame
ONGAME_RANKS = {
    2: "TWO", 3: "THREE", 4: "FOUR", 5: "FIVE", 6: "SIX", 7: "SEVEN", 8: "EIGHT",
    9: "NINE", 10: "TEN", 11: "JACK", 12: "QUEEN", 13: "KING", 14: "ACE",
}  # fmt: skip
# "JACK, NINE" (two pair, full house: the two ranks), "QUEEN" (one rank), "KING" (the top)
_OG_TWO_RANKS = {HandCategory.TWO_PAIR: 2, HandCategory.FULL_HOUSE: 3}


def ongame_high(cards: Iterable[Card]) -> tuple[HandCategory, str]:
    """The category and OnGame's words for a high hand: "TWO_PAIR JACK, NINE"."""
    value = high_value(tuple(cards))
    cat = HandCategory(value >> CAT_SHIFT)
    r = unpack(value)
    words = f"{cat.name} {ONGAME_RANKS[r[0]]}"
    if cat in _OG_TWO_RANKS:
        words += f", {ONGAME_RANKS[r[_OG_TWO_RANKS[cat]]]}"
    return cat, words


def ongame_words(game: Game, cards: Iterable[Card]) -> str:
    """What the writer puts in a shown seat's "( )". Real: "TWO_PAIR JACK, NINE",
    "THREE_OF_A_KIND QUEEN", "FULL_HOUSE EIGHT, FOUR" (stud and a hi/lo hand with no low).
    The rest follows that pattern (histkit's, not a real file's): "PAIR KING", "HIGH_CARD
    ACE", "STRAIGHT NINE" (its top card); a low is "LOW 8,7,5,4,2" (razz: alone; hi/lo:
    after the high words and "; ")."""
    hand = tuple(cards)
    if game is Game.RAZZ:
        return "LOW " + low_name(hand)
    words = ongame_high(hand)[1]
    low = low8_name(hand) if game is Game.STUD_HILO else None
    return f"{words}; LOW {low}" if low else words


# ---------------------------------------------------------------------------- Everleaf
# Everleaf's words for a shown hand (R: "a pair of threes", "three of a kind, aces", "a
# straight, nine high", "a flush, king high"); other hands' words are in no real file
_EL_ONE = {14: "ace", 13: "king", 12: "queen", 11: "jack", 10: "ten", 9: "nine", 8: "eight",
           7: "seven", 6: "six", 5: "five", 4: "four", 3: "three"}  # fmt: skip
_EL_MANY = {r: ("sixes" if r == 6 else n + "s") for r, n in _EL_ONE.items()}


def everleaf_words(game: Game, cards: tuple[Card, ...]) -> str | None:
    """Everleaf's words for a stud high hand of the kinds the real file shows; None for
    the rest (descriptions of other kinds, hi/lo and razz are not checked)."""
    if game is not Game.STUD or len(cards) < 5:
        return None
    value = high_value(cards)
    cat, ranks = value >> CAT_SHIFT, unpack(value)
    if cat == HandCategory.PAIR and ranks[0] in _EL_MANY:
        return f"a pair of {_EL_MANY[ranks[0]]}"
    if cat == HandCategory.THREE_OF_A_KIND and ranks[0] in _EL_MANY:
        return f"three of a kind, {_EL_MANY[ranks[0]]}"
    if cat == HandCategory.STRAIGHT:
        return f"a straight, {_EL_ONE[ranks[0]]} high"
    if cat == HandCategory.FLUSH:
        return f"a flush, {_EL_ONE[ranks[0]]} high"
    return None


# -------------------------------------------------------------------------- PartyPoker
# the kinds of hand whose words real hands settle: PokerStars' words, "Twos" for deuces (R)
_PARTY_SETTLED = (HandCategory.PAIR, HandCategory.THREE_OF_A_KIND, HandCategory.STRAIGHT)


def partypoker_words(game: Game, cards: tuple[Card, ...]) -> str | None:
    """Party's words for a shown hand where real hands settle them: "a pair of Nines",
    "three of a kind, Twos", "a straight, Four to Eight", "a flush, Ace high" (R:
    PokerStars' words, "Twos" for deuces), in stud and in a hi/lo hand without a low.
    None for the rest: no real hand shows Party's high card, two pair, full house,
    quads, straight flush, a straight with a deuce, razz or a hi/lo low."""
    if len(cards) < 5 or game is Game.RAZZ:
        return None
    if game is Game.STUD_HILO and low8_value(cards) is not None:
        return None
    category = HandCategory(high_value(cards) >> CAT_SHIFT)
    words = high_name(cards)
    if category is HandCategory.FLUSH:
        return words
    if category not in _PARTY_SETTLED or (category is HandCategory.STRAIGHT and "Deuce" in words):
        return None
    return words.replace("Deuces", "Twos")
