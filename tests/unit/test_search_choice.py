"""A search's choice of card from the worlds its cards won (`search.choice`), and the cards
it stops playing out once they cannot change that choice (`search.contenders`): for every
way the worlds left could go, the choice made playing out the contenders alone is the
choice made playing out every card."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from rulesdsl.play.kernel.search import choice, clearly, contenders
from rulesdsl.play.kernel.worlds import Work


def work(wins: list[int]) -> Work:
    w = Work()
    w.wins[: len(wins)] = wins
    return w


def chosen(wins: list[int], usual: int, outcomes: tuple, careful: bool, pruned: bool) -> int:
    """The choice after the worlds whose outcomes (a tuple of each card's 0 or 1, world by
    world) are `outcomes`, each world's outcomes counted for the contenders alone where
    `pruned`, for every card else."""
    w = work(wins)
    allowed = (1 << len(wins)) - 1
    for i, world in enumerate(outcomes):
        played = contenders(w, allowed, usual, len(outcomes) - i, careful) if pruned else allowed
        for card, won in enumerate(world):
            if (played >> card) & 1:
                w.wins[card] += won
    return choice(w, allowed, usual, careful)


@given(
    st.lists(st.integers(0, 12), min_size=2, max_size=3),
    st.integers(0, 2),
    st.integers(0, 3),
    st.booleans(),
)
def test_the_contenders_alone_make_the_choice_every_card_makes(wins, usual, left, careful):
    usual %= len(wins)
    worlds = itertools.product(itertools.product((0, 1), repeat=len(wins)), repeat=left)
    for outcomes in worlds:
        every = chosen(wins, usual, outcomes, careful, pruned=False)
        assert chosen(wins, usual, outcomes, careful, pruned=True) == every


def test_a_card_that_cannot_catch_up_is_left_out():
    w = work([9, 2, 8])
    assert contenders(w, 0b111, 0, 3, False) == 0b101  # card 1, at most 5, cannot lead
    assert contenders(w, 0b111, 0, 0, False) == 0  # nothing left to play: decided


def test_a_card_sure_to_displace_the_heuristics_ends_the_playouts():
    assert contenders(work([2, 20, 3]), 0b111, 0, 4, True) == 0  # card 1 is chosen
    assert choice(work([2, 20, 3]), 0b111, 0, True) == 1
    assert contenders(work([2, 9, 3]), 0b111, 0, 4, True) == 0b011  # not yet sure


def test_a_card_displaces_the_heuristics_by_more_than_luck_where_careful():
    assert clearly(10, 9, careful=False)
    assert not clearly(10, 9, careful=True)
    assert clearly(20, 9, careful=True)  # 11 * 11 > 29
