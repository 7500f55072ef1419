"""The compiled search: whole hands with `pimc:N` seats, every decision inside compiled code.
The text of the generated module (`search.py`) ends with these functions; they call the
profile's own steps (`search_driver.py`, specialised: `deal_position`, `legal_at`,
`finish_at`) and its playout hand (`rest_out`, `driver.play_rest` with the playout policy).

They do what `rulesdsl.play.players.search` does in Python, number for number: a seat's information
set is kept as arrays of *slots* (deck positions, each with the seat that took it and
the plays before it took it, in the order `infoset.observe` lists them); `sample_world`
is `Sampler.sample` (the same draws from the seat's stream, in the same order): it asks
`legal_at` whether each play of a player is legal with the cards a world gives it, at
the position before the play (the cards at every other seat are never read there);
`pimc_card` is `PimcBot.search`. Card sets are 64-bit masks (bit `card`).

`pimc_card` makes a decision's arrays; `sample_worlds` and `play_worlds`, which do the
work, make none, so they are compiled without reference counts (`no_refcounts.py`): arrays
are set item by item there, not as a cut from another array (numba copies that first).
A count that starts at a constant is passed to a function compiled on its own as
`int(count)`: numba would first compile the function for the constant's literal type,
then again for an int.

A hand's arrays: `hist_*[t]` is the position before trick t (as `search_driver` holds
one), `play_*[i]` the i-th card played (its seat, card and trick), `slot_*[k]` the k-th
slot (its deck position, owner and time; the stock's slots follow, top first, from
`lay_stock[taken]` on). `deck` is the deck order as the engine plays it.
"""

# ruff: noqa: F821  (the names are the generated module's)

from __future__ import annotations

from typing import Any


def seat_mask(
    filling: Any,
    own_pos: Any,
    own_time: Any,
    own_count: Any,
    own_plays: Any,
    play_count: Any,
    play_card: Any,
    seat: int,
    before: int,
) -> int:
    """The cards `seat` holds before play `before` in `filling`: those of its slots
    (`own_pos[seat]`, taken after `own_time[seat]` plays) taken by then, less those it
    played before (`own_plays[seat]`, in order)."""
    mask = 0
    for k in range(own_count[seat]):
        if own_time[seat, k] <= before:
            mask |= 1 << filling[own_pos[seat, k]]
    for n in range(play_count[seat]):
        i = own_plays[seat, n]
        if i >= before:
            break
        mask &= ~(1 << play_card[i])
    return mask


def seat_masks(
    filling: Any,
    own_pos: Any,
    own_time: Any,
    own_count: Any,
    own_plays: Any,
    play_count: Any,
    play_card: Any,
    seat: int,
    masks: Any,
) -> None:
    """`seat_mask` before each play of `seat`, in one walk of its slots (taken in order of
    time) and plays: `masks[n]` before its n-th play."""
    mask = 0
    k = 0
    for n in range(play_count[seat]):
        i = own_plays[seat, n]
        while k < own_count[seat] and own_time[seat, k] <= i:
            mask |= 1 << filling[own_pos[seat, k]]
            k += 1
        masks[n] = mask
        mask &= ~(1 << play_card[i])


def cache_slot(i: int, mask: int, cache: Any) -> int:
    """The row of `cache` (see `legal_with`) that holds play `i` with `mask`, or the free row
    where it would go: from the top bits of a product, which every bit of the mask moves
    (the table has at most 2**14 rows)."""
    size = cache.shape[0] - 1
    slot = ((mask ^ (i * 0x2545F4914F6CDD1D)) * 0x5851F42D4C957F2D) >> 50 & (size - 1)
    while cache[slot, 0] >= 0:
        if cache[slot, 0] == i and cache[slot, 1] == mask:
            return slot
        slot = (slot + 1) & (size - 1)
    return slot


def legal_with(
    i: int,
    mask: int,
    slot: int,
    hist: Any,
    play_card: Any,
    play_trick: Any,
    trick_first: Any,
    cache: Any,
    players: int,
    rng: Any,
) -> bool:
    """Whether play `i` is legal for its player holding `mask`, asked of the profile's
    steps and remembered in `cache` at its free row `slot` (`cache_slot`): a table of
    [play, mask, answer] rows by hash, as the answer is the same for every world and
    every seat that asks, all hand long."""
    size = cache.shape[0] - 1  # the last row counts the rows in use
    t = play_trick[i]
    h_table, h_stock, h_set, h_heads, h_outs, h_counts, h_won, h_last, h_resh, h_size = hist[0:10]
    played, held, picks, scratch = hist[10:14]  # rows to fill, kept for every call
    played[:] = -1
    for k in range(trick_first[t], i):
        played[k - trick_first[t]] = play_card[k]
    held[:] = -1
    k = 0
    rest = mask
    while rest != 0:
        held[k] = lowest(rest)
        rest &= rest - 1
        k += 1
    found = legal_at(
        h_table[t, :, : h_size[t, 0]],
        h_stock[t, : h_size[t, 1]],
        h_set[t, : h_size[t, 2]],
        h_heads[t],
        h_outs[t],
        h_counts[t],
        h_won[t],
        h_last[t],
        h_resh[t],
        played,
        held,
        True,
        picks,
        rng,
        scratch,
    )
    legal = (found[0] >> play_card[i]) & 1 == 1
    if cache[size, 0] >= size // 2:  # half full: begin again
        cache[:size, 0] = -1
        cache[size, 0] = 0
    cache[size, 0] += 1
    cache[slot, 0] = i
    cache[slot, 1] = mask
    cache[slot, 2] = 1 if legal else 0
    return legal


def deal_out(pool: Any, left: int, keys: Any, count: int, filling: Any, stream: Any) -> int:
    """`sampler._deal`: a card drawn from the pool's first `left` cards for each of the
    `count` slots `keys`, in order; how many cards the pool has left."""
    for k in range(count):
        j = int(next_uniform(stream) * left)
        card = pool[j]
        pool[j] = pool[left - 1]
        pool[left - 1] = card
        left -= 1
        filling[keys[k]] = card
    return left


def sample_world(
    me: int,
    players: int,
    fixed: Any,
    pool: Any,
    pool_size: int,
    free_pos: Any,
    free_count: Any,
    placed_able: Any,
    placed_card: Any,
    placed_count: Any,
    rest: Any,
    rest_count: int,
    filling: Any,
    stream: Any,
    work: Any,
    own_pos: Any,
    own_time: Any,
    own_count: Any,
    own_plays: Any,
    play_count: Any,
    play_card: Any,
    checks: Any,
    check_count: Any,
    hist: Any,
    play_trick: Any,
    trick_first: Any,
    cache: Any,
    rng: Any,
    max_proposals: int,
) -> bool:
    """`Sampler.sample`: fill `filling` (a card by deck position) with proposals
    (`Sampler.propose` with `check`) until one is consistent; False after `max_proposals`.

    A proposal gives each other player its cards: each card it played goes to one of the
    `placed_able[seat, p]` slots of its own still free and taken by then (its free slots
    are in order of time, so these are the lowest of the mask of those still free), and
    the slots left are dealt from the pool. Then it checks that player's plays:
    the `check_count[seat]` plays of `checks[seat]` (their numbers among its plays), in
    that order; one found illegal moves to the front (as in `Sampler._fits`), so the
    worlds that fail, fail fast. The placing and the checking are written out here: with
    the checking a function of its own and this loop merged into `sample_worlds`'s, the
    kernel ran 6% slower."""
    positions, cards, masks = work[0], work[1], work[2]
    for k in range(len(fixed)):  # every proposal fills every other slot before it is read
        filling[k] = fixed[k]
    for _ in range(max_proposals):
        for k in range(pool_size):
            cards[k] = pool[k]
        left = pool_size
        consistent = True
        for seat in range(players):
            if seat == me:
                continue
            free = (1 << free_count[seat]) - 1  # its free slots, in order of time
            for p in range(placed_count[seat]):  # each card it played, earliest first
                k = nth(free, int(next_uniform(stream) * placed_able[seat, p]))
                filling[free_pos[seat, k]] = placed_card[seat, p]
                free &= ~(1 << k)
            count = 0
            while free != 0:
                positions[count] = free_pos[seat, lowest(free)]
                free &= free - 1
                count += 1
            left = deal_out(cards, left, positions, count, filling, stream)
            seat_masks(
                filling, own_pos, own_time, own_count, own_plays, play_count, play_card, seat, masks
            )
            for n in range(check_count[seat]):
                i = own_plays[seat, checks[seat, n]]
                mask = masks[checks[seat, n]]
                slot = cache_slot(i, mask, cache)  # a remembered answer, without the position
                if cache[slot, 0] >= 0:
                    legal = cache[slot, 2] == 1
                else:
                    legal = legal_with(
                        i, mask, slot, hist, play_card, play_trick, trick_first, cache, players, rng
                    )
                if not legal:
                    first = checks[seat, n]
                    for j in range(n, 0, -1):
                        checks[seat, j] = checks[seat, j - 1]
                    checks[seat, 0] = first
                    consistent = False
                    break
            if not consistent:
                break
        if consistent:
            deal_out(cards, left, rest, rest_count, filling, stream)
            return True
    return False


def pimc_card(
    me: int,
    budget: int,
    stream: Any,
    allowed: Any,
    led: int,
    best: int,
    last: bool,
    deck: Any,
    canon: Any,
    lay_deal: Any,
    lay_dealt: Any,
    lay_stock: Any,
    stock_size: int,
    shown: int,
    taken: int,
    slot_pos: Any,
    slot_owner: Any,
    slot_time: Any,
    slots: int,
    play_seat: Any,
    play_card: Any,
    plays: int,
    hist: Any,
    play_trick: Any,
    trick_first: Any,
    trick: int,
    cache: Any,
    players: int,
    rng: Any,
    fields: int,
    winner_column: int,
    max_proposals: int,
    free_leads: int,
) -> int:
    """`PimcBot.search` for seat `me` to move in trick `trick` (its legal cards `allowed`,
    more than one): -1 if a world took more than `max_proposals` proposals. With
    `free_leads` (1: the profile has no lead rule) a lead is legal holding any cards, so
    no world is asked whether it allows one. The worlds are drawn by `sample_worlds` and
    played by `play_worlds`."""
    size = len(deck)
    fixed = np.full(size, -1, np.int64)
    for k in range(lay_dealt[me]):
        fixed[lay_deal[me, k]] = deck[lay_deal[me, k]]
    if shown >= 0:
        fixed[shown] = deck[shown]
    for k in range(slots):
        if slot_owner[k] == me:
            fixed[slot_pos[k]] = deck[slot_pos[k]]
    known = 0
    for k in range(size):
        if fixed[k] >= 0:
            known |= 1 << fixed[k]
    placed_index = np.zeros((players, plays + 1), np.int64)
    placed_card = np.zeros((players, plays + 1), np.int64)
    placed_count = np.zeros(players, np.int64)
    placed = 0
    for i in range(plays):
        seat = play_seat[i]
        card = play_card[i]
        if seat != me and (known >> card) & 1 == 0:
            placed_index[seat, placed_count[seat]] = i
            placed_card[seat, placed_count[seat]] = card
            placed_count[seat] += 1
            placed |= 1 << card
    pool = np.zeros(size, np.int64)
    pool_size = 0
    for card in canon:
        if (known >> card) & 1 == 0 and (placed >> card) & 1 == 0:
            pool[pool_size] = card
            pool_size += 1
    # the slots, the stock's now among them (time: the plays so far)
    all_pos = np.zeros(slots + stock_size, np.int64)
    all_owner = np.zeros(slots + stock_size, np.int64)
    all_time = np.zeros(slots + stock_size, np.int64)
    total = 0
    for k in range(slots):
        all_pos[total] = slot_pos[k]
        all_owner[total] = slot_owner[k]
        all_time[total] = slot_time[k]
        total += 1
    for j in range(taken, stock_size):
        all_pos[total] = lay_stock[j]
        all_owner[total] = -1
        all_time[total] = plays
        total += 1
    free_pos = np.zeros((players, total), np.int64)
    free_time = np.zeros((players, total), np.int64)
    free_count = np.zeros(players, np.int64)
    rest = np.zeros(total, np.int64)
    rest_count = 0
    for k in range(total):
        if fixed[all_pos[k]] >= 0:
            continue
        owner = all_owner[k]
        if owner >= 0:
            free_pos[owner, free_count[owner]] = all_pos[k]
            free_time[owner, free_count[owner]] = all_time[k]
            free_count[owner] += 1
        else:
            rest[rest_count] = all_pos[k]
            rest_count += 1
    placed_able = np.zeros((players, plays + 1), np.int64)  # the free slots each may be in
    for seat in range(players):
        for p in range(placed_count[seat]):
            for k in range(free_count[seat]):
                if free_time[seat, k] <= placed_index[seat, p]:
                    placed_able[seat, p] += 1
            placed_able[seat, p] -= p  # each card placed before took one of them
    own_plays = np.zeros((players, plays + 1), np.int64)  # each player's plays, in order
    play_count = np.zeros(players, np.int64)
    for i in range(plays):
        seat = play_seat[i]
        own_plays[seat, play_count[seat]] = i
        play_count[seat] += 1
    checks = np.zeros((players, plays + 1), np.int64)  # their numbers, in order to check
    check_count = np.zeros(players, np.int64)
    for seat in range(players):
        for n in range(play_count[seat]):
            i = own_plays[seat, n]
            if free_leads == 0 or trick_first[play_trick[i]] != i:  # else legal in any world
                checks[seat, check_count[seat]] = n
                check_count[seat] += 1
    own_pos = np.zeros((players, total), np.int64)  # each player's slots, in order
    own_time = np.zeros((players, total), np.int64)
    own_count = np.zeros(players, np.int64)
    for k in range(total):
        owner = all_owner[k]
        if owner >= 0:
            own_pos[owner, own_count[owner]] = all_pos[k]
            own_time[owner, own_count[owner]] = all_time[k]
            own_count[owner] += 1
    work = np.zeros((3, max(total, size, plays + 1)), np.int64)  # rows `sample_world` fills
    filling = np.zeros(size, np.int64)
    h_heads, h_size = hist[3], hist[9]
    width = h_size[trick, 0]  # a world's hands are as long as the true ones
    worlds = np.full((budget, players, width), -1, np.int64)
    stocks = np.full((budget, max(stock_size - taken, 1)), -1, np.int64)
    seeds = np.zeros((budget, 2), np.uint64)
    if not sample_worlds(
        me,
        players,
        fixed,
        pool,
        int(pool_size),
        free_pos,
        free_count,
        placed_able,
        placed_card,
        placed_count,
        rest,
        int(rest_count),
        filling,
        stream,
        work,
        own_pos,
        own_time,
        own_count,
        own_plays,
        play_count,
        play_card,
        checks,
        check_count,
        hist,
        play_trick,
        trick_first,
        cache,
        rng,
        max_proposals,
        trick,
        lay_stock,
        stock_size,
        taken,
        worlds,
        stocks,
        seeds,
    ):
        return -1
    wins = np.zeros(len(allowed), np.int64)
    cards = np.zeros(len(allowed), np.int64)
    for m in range(len(allowed)):
        cards[m] = allowed[m]
    played = np.full(players + 1, -1, np.int64)
    out = np.zeros((1, fields), np.int64)
    resh = np.zeros(2, np.uint64)
    playout = np.zeros(2, np.uint64)
    trick_winners = [0][:0]
    eliminated = [0][:0]
    play_worlds(
        me,
        cards,
        worlds,
        stocks,
        seeds,
        stock_size - taken,
        hist,
        trick,
        trick_first,
        play_card,
        plays,
        played,
        resh,
        playout,
        out,
        winner_column,
        trick_winners,
        eliminated,
        wins,
    )
    top = 0
    for m in range(len(allowed)):
        top = max(top, wins[m])
    usual = heuristic(allowed, h_heads[trick, 0], led, best, last)
    first = 0
    kept = 0
    for m in range(len(allowed)):
        if wins[m] == top and wins[first] < top:
            first = m
        if allowed[m] == usual:
            kept = wins[m]
    ahead = top - kept  # `PimcBot.choice`: the most winning card, if clear of the usual one
    return allowed[first] if ahead * ahead > top + kept else usual


def sample_worlds(
    me: int,
    players: int,
    fixed: Any,
    pool: Any,
    pool_size: int,
    free_pos: Any,
    free_count: Any,
    placed_able: Any,
    placed_card: Any,
    placed_count: Any,
    rest: Any,
    rest_count: int,
    filling: Any,
    stream: Any,
    work: Any,
    own_pos: Any,
    own_time: Any,
    own_count: Any,
    own_plays: Any,
    play_count: Any,
    play_card: Any,
    checks: Any,
    check_count: Any,
    hist: Any,
    play_trick: Any,
    trick_first: Any,
    cache: Any,
    rng: Any,
    max_proposals: int,
    trick: int,
    lay_stock: Any,
    stock_size: int,
    taken: int,
    worlds: Any,
    stocks: Any,
    seeds: Any,
) -> bool:
    """The worlds of `pimc_card` (`sample_world` for each), each as the hands every seat
    held as the trick began (`worlds[w]`), the stock left (`stocks[w]`, top last) and the
    world's hand seed and playout stream (`seeds[w]`); False if one took more than
    `max_proposals` proposals."""
    h_table = hist[0]
    start = trick_first[trick]
    width = worlds.shape[2]
    for w in range(worlds.shape[0]):
        if not sample_world(
            me,
            players,
            fixed,
            pool,
            pool_size,
            free_pos,
            free_count,
            placed_able,
            placed_card,
            placed_count,
            rest,
            rest_count,
            filling,
            stream,
            work,
            own_pos,
            own_time,
            own_count,
            own_plays,
            play_count,
            play_card,
            checks,
            check_count,
            hist,
            play_trick,
            trick_first,
            cache,
            rng,
            max_proposals,
        ):
            return False
        for seat in range(players):  # the cards each seat held as the trick began
            if seat == me:
                for k in range(width):
                    worlds[w, seat, k] = h_table[trick, seat, k]
            else:
                mask = seat_mask(
                    filling,
                    own_pos,
                    own_time,
                    own_count,
                    own_plays,
                    play_count,
                    play_card,
                    seat,
                    start,
                )
                k = 0
                while mask != 0:
                    worlds[w, seat, k] = lowest(mask)
                    mask &= mask - 1
                    k += 1
        left = stock_size - taken
        for j in range(left):
            stocks[w, left - 1 - j] = filling[lay_stock[taken + j]]
        seeds[w, 0] = next_seed(stream)  # the world's hand seed
        seeds[w, 1] = next_seed(stream)  # its playouts' stream
    return True


def play_worlds(
    me: int,
    allowed: Any,
    worlds: Any,
    stocks: Any,
    seeds: Any,
    left: int,
    hist: Any,
    trick: int,
    trick_first: Any,
    play_card: Any,
    plays: int,
    played: Any,
    resh: Any,
    playout: Any,
    out: Any,
    winner_column: int,
    trick_winners: Any,
    eliminated: Any,
    wins: Any,
) -> None:
    """Play each card of `allowed` in each world of `sample_worlds` and the world out
    (`rest_out`, with the world's own numbers for every card); `wins[m]` counts the worlds
    `me` won playing `allowed[m]`. `played`, `resh`, `playout` and `out` are rows to fill."""
    h_set, h_heads, h_outs, h_counts, h_won, h_last = hist[2:8]
    h_size = hist[9]
    scratch = hist[13]
    start = trick_first[trick]
    played[:] = -1
    for k in range(start, plays):
        played[k - start] = play_card[k]
    for w in range(worlds.shape[0]):
        for m in range(len(allowed)):
            played[plays - start] = allowed[m]
            resh[0] = number(seeds[w, 0], np.uint64(1))
            resh[1] = 0
            playout[0] = seeds[w, 1]
            playout[1] = 0
            rest_out(
                worlds[w],
                stocks[w, :left],
                h_set[trick, : h_size[trick, 2]],
                h_heads[trick, 0],
                h_heads[trick, 1],
                h_outs[trick],
                h_counts[trick],
                h_won[trick],
                h_last[trick],
                resh,
                played,
                playout,
                out,
                0,
                trick_winners,
                eliminated,
                scratch,
            )
            if out[0, winner_column] == me:
                wins[m] += 1


def measure(h_table: Any, h_stock: Any, h_set: Any, h_size: Any, t: int) -> None:
    """The extent of position `t`'s arrays: the most cards a seat holds, the stock's and
    the set-aside cards' counts (their cards come first, -1 after)."""
    width = 0
    for seat in range(h_table.shape[1]):
        held = 0
        for c in h_table[t, seat]:
            if c >= 0:
                held += 1
        width = max(width, held)
    h_size[t, 0] = max(width, 1)
    h_size[t, 1] = 0
    for c in h_stock[t]:
        if c >= 0:
            h_size[t, 1] += 1
    h_size[t, 2] = 0
    for c in h_set[t]:
        if c >= 0:
            h_size[t, 2] += 1


def came_back(winner: int, h_table: Any, h_outs: Any, tricks: int, players: int) -> int:
    """`table.came_back`: whether `winner` held strictly the fewest cards of the players in
    as some trick after the first began (1 or 0)."""
    if winner < 0:
        return 0
    for t in range(1, tricks):
        if h_outs[t, winner] != 0:
            continue
        mine = 0
        for c in h_table[t, winner]:
            if c >= 0:
                mine += 1
        fewest = True
        others = 0
        for seat in range(players):
            if seat == winner or h_outs[t, seat] != 0:
                continue
            others += 1
            held = 0
            for c in h_table[t, seat]:
                if c >= 0:
                    held += 1
            if held <= mine:
                fewest = False
        if others > 0 and fewest:
            return 1
    return 0


def search_hands(
    decks: Any,
    hand_seeds: Any,
    dealers: Any,
    kinds: Any,
    budgets: Any,
    bot_seeds: Any,
    rngs: Any,
    lay_deal: Any,
    lay_dealt: Any,
    lay_stock: Any,
    lay_shown: Any,
    canon: Any,
    pimc: int,
    width: int,
    fields: int,
    counters: int,
    winner_column: int,
    eliminated_column: int,
    max_proposals: int,
    free_leads: int,
    out: Any,
    comebacks: Any,
    moves: Any,
    trick_winners: Any,
    eliminated: Any,
    ends: Any,
    scratch: Any,
) -> int:
    """Play the hands: hand h from the deck order `decks[h]` (cards as `fast.to_int`),
    seeded `hand_seeds[h]`, dealt by `dealers[h]`; seat s plays by `kinds[s]` (`pimc` for
    `pimc:budgets[s]`, seeded `bot_seeds[h, s]`; else the profile's bot, random bots
    drawing from `rngs[h]`, which is left drawn). Each hand's numbers go to `out[h]`,
    whether its winner came back to `comebacks[h]`, its cards played to `moves[h]`, its
    trick winners and eliminations onto the lists (where each hand's end, in `ends[h]`).
    `free_leads` is 1 where the profile has no lead rule; the steps and the playout make
    their arrays in the rows of `scratch` (`native.scratch`). -1, or the first hand whose
    sampler gave up."""
    players = len(kinds)
    size = decks.shape[1]
    tricks = size + 2
    h_table = np.full((tricks, players, width), -1, np.int64)
    h_stock = np.full((tricks, size), -1, np.int64)
    h_set = np.full((tricks, size), -1, np.int64)
    h_heads = np.zeros((tricks, 2), np.int64)
    h_outs = np.zeros((tricks, players), np.int64)
    h_counts = np.zeros((tricks, counters), np.int64)
    h_won = np.zeros((tricks, players), np.int64)
    h_last = np.zeros((tricks, players), np.int64)
    h_resh = np.zeros((tricks, 2), np.uint64)
    h_size = np.zeros((tricks, 3), np.int64)
    played_row = np.zeros(players + 1, np.int64)  # the rows `legal_with` fills
    held_row = np.zeros(width, np.int64)
    no_picks = np.zeros(players, np.int64)
    hist = (
        *(h_table, h_stock, h_set, h_heads, h_outs, h_counts, h_won, h_last, h_resh, h_size),
        *(played_row, held_row, no_picks, scratch),
    )
    play_seat = np.zeros(size + 1, np.int64)
    play_card = np.zeros(size + 1, np.int64)
    play_trick = np.zeros(size + 1, np.int64)
    trick_first = np.zeros(tricks + 1, np.int64)
    slot_pos = np.zeros(size, np.int64)
    slot_owner = np.zeros(size, np.int64)
    slot_time = np.zeros(size, np.int64)
    cache = np.full(((1 << 14) + 1, 3), -1, np.int64)
    order = np.zeros(size, np.int64)
    played = np.full(players + 1, -1, np.int64)
    picks = np.zeros(players, np.int64)
    for seat in range(players):
        picks[seat] = 0 if kinds[seat] == pimc else 1
    streams = np.zeros((players, 2), np.uint64)
    for h in range(len(hand_seeds)):
        dealer = dealers[h]
        deal_position(
            decks[h],
            hand_seeds[h],
            dealer,
            order,
            h_table[0],
            h_stock[0],
            h_set[0],
            h_heads[0],
            h_outs[0],
            h_counts[0],
            h_won[0],
            h_last[0],
            h_resh[0],
            scratch,
        )
        measure(h_table, h_stock, h_set, h_size, 0)
        slots = 0
        for seat in range(players):
            for k in range(lay_dealt[dealer, seat]):
                slot_pos[slots] = lay_deal[dealer, seat, k]
                slot_owner[slots] = seat
                slot_time[slots] = 0
                slots += 1
        stock_size = 0
        for pos in lay_stock[dealer]:
            if pos >= 0:
                stock_size += 1
        taken = 0
        for seat in range(players):
            streams[seat, 0] = bot_seeds[h, seat]
            streams[seat, 1] = 0
        cache[:, 0] = -1
        cache[cache.shape[0] - 1, 0] = 0
        rng = rngs[h]
        plays = 0
        trick = 0
        trick_first[0] = 0
        done = 0
        played[:] = -1
        first_out = len(eliminated)
        over = False
        while not over:
            found = legal_at(
                h_table[trick, :, : h_size[trick, 0]],
                h_stock[trick, : h_size[trick, 1]],
                h_set[trick, : h_size[trick, 2]],
                h_heads[trick],
                h_outs[trick],
                h_counts[trick],
                h_won[trick],
                h_last[trick],
                h_resh[trick],
                played,
                played,
                False,
                picks,
                rng,
                scratch,
            )
            legal, card, led, best, seat, last, seats = found
            allowed = cards_of(legal)
            if kinds[seat] == pimc:
                card = allowed[0]
                if len(allowed) > 1:
                    card = pimc_card(
                        seat,
                        budgets[seat],
                        streams[seat],
                        allowed,
                        int(led),
                        int(best),
                        last,
                        order,
                        canon,
                        lay_deal[dealer],
                        lay_dealt[dealer],
                        lay_stock[dealer],
                        int(stock_size),
                        lay_shown[dealer],
                        int(taken),
                        slot_pos,
                        slot_owner,
                        slot_time,
                        int(slots),
                        play_seat,
                        play_card,
                        int(plays),
                        hist,
                        play_trick,
                        trick_first,
                        int(trick),
                        cache,
                        players,
                        rng,
                        fields,
                        winner_column,
                        max_proposals,
                        free_leads,
                    )
                    if card < 0:
                        return h
            play_seat[plays] = seat
            play_card[plays] = card
            play_trick[plays] = trick
            moves[h, plays] = card
            plays += 1
            played[done] = card
            done += 1
            if done < seats:
                continue
            h_table[trick + 1] = h_table[trick]
            h_stock[trick + 1] = h_stock[trick]
            h_set[trick + 1] = h_set[trick]
            h_heads[trick + 1] = h_heads[trick]
            h_outs[trick + 1] = h_outs[trick]
            h_counts[trick + 1] = h_counts[trick]
            h_won[trick + 1] = h_won[trick]
            h_last[trick + 1] = h_last[trick]
            h_resh[trick + 1] = h_resh[trick]
            before = 0
            for c in h_stock[trick]:
                if c >= 0:
                    before += 1
            over = finish_at(
                h_table[trick + 1],
                h_stock[trick + 1],
                h_set[trick + 1],
                h_heads[trick + 1],
                h_outs[trick + 1],
                h_counts[trick + 1],
                h_won[trick + 1],
                h_last[trick + 1],
                h_resh[trick + 1],
                played,
                out,
                h,
                trick_winners,
                eliminated,
                scratch,
            )
            measure(h_table, h_stock, h_set, h_size, trick + 1)
            after = h_size[trick + 1, 1]
            for j in range(before - after):  # the cards drawn, in the order they were
                pos = lay_stock[dealer, taken + j]
                for holder in range(players):
                    for c in h_table[trick + 1, holder]:
                        if c == order[pos]:
                            slot_pos[slots] = pos
                            slot_owner[slots] = holder
                            slot_time[slots] = plays
                            slots += 1
            taken += before - after
            trick += 1
            trick_first[trick] = plays
            done = 0
            played[:] = -1
        out[h, eliminated_column] = len(eliminated) - first_out
        ends[h, 0] = len(trick_winners)
        ends[h, 1] = len(eliminated)
        comebacks[h] = came_back(out[h, winner_column], h_table, h_outs, trick, players)
    return -1
