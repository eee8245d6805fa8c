//! The bid-history block of the information-state tensor: every secret bid and rebid as one seat
//! saw it ([`Match::bid_history`]), and every opening bid and price as its view shows them, each
//! amount exactly, so that the tensor recalls what the seat knew at every earlier decision, its own
//! bids included, which the seat view alone ([`super::observe_seat`]) does not keep. The
//! information state is the observation followed by this block ([`INFO_STATE_SIZE`] floats):
//! perfect recall for the seat, as CFR-family solvers need.
//!
//! An amount is a `u64`, which no single `f32` holds exactly (the observation's squashed amounts
//! `x / (|x| + 10)` round large neighbours to one float). Here each amount also comes as
//! [`EXACT_PARTS`] floats, its 16-bit parts from the most significant, each divided by 65,536:
//! every one exact in an `f32`, and the amount is `sum(part_i * 65536 * 2^(16 * (3 - i)))`.

use crate::event::BidStage;
use crate::game::Game;
use crate::seat::Seat;
use crate::seen::{SeenBid, SeenPeek};
use crate::view::Sight;

use super::layout::{
    block_of, layout_len, offset_of, BlockLayout, HISTORY_LAYOUT, HISTORY_TURN_FIELDS, PEEK_FIELDS,
};
use super::{money, MAX_TURNS, OBS_SIZE};

/// Bid slots per auction: the secret bid, two company rebids (R-AUC-6) and two asset rebids
/// (R-COM-4).
pub const HISTORY_STAGES: usize = 5;
/// Floats an exact amount takes: its four 16-bit parts, most significant first, each / 65,536.
pub const EXACT_PARTS: usize = 4;
/// Floats per (turn, slot, bidder): bid made, amount known, squashed amount, then the amount's
/// [`EXACT_PARTS`].
pub const HISTORY_PER_BID: usize = 3 + EXACT_PARTS;
/// Floats per auction amount (the opening bid, the price, the asset's price): known, then the
/// amount's [`EXACT_PARTS`].
pub const HISTORY_PER_AMOUNT: usize = 1 + EXACT_PARTS;
/// Floats per turn: its three amounts (opening bid, price, asset price), then its 5 slots × 5
/// bidders (the `turns` block of [`HISTORY_LAYOUT`]).
pub const HISTORY_PER_TURN: usize = TURNS.slot_len;
/// Floats per seat of the peeks part, after the turns: peeked, then when (its place in the
/// viewer's event stream / 1,024).
pub const HISTORY_PER_PEEK: usize = 2;
/// The parts of the block, from [`HISTORY_LAYOUT`].
const TURNS: BlockLayout = block_of(&HISTORY_LAYOUT, "turns");
const PEEKS: BlockLayout = block_of(&HISTORY_LAYOUT, "peeks");
/// Floats of the block ([`HISTORY_LAYOUT`]): 16 turns × ([`HISTORY_PER_TURN`] = 3 × 5 + 5 × 5 × 7
/// = 190), then the peeks part (5 seats × [`HISTORY_PER_PEEK`]).
pub const HISTORY_SIZE: usize = layout_len(&HISTORY_LAYOUT);
/// Floats of the information state: the observation, then the bid-history block.
pub const INFO_STATE_SIZE: usize = OBS_SIZE + HISTORY_SIZE;

/// The slot of a bid of this stage in its auction's part of the block.
fn slot(stage: BidStage) -> Option<usize> {
    match stage {
        BidStage::Secret => Some(0),
        BidStage::Rebid(t @ 1..=2) => Some(t as usize),
        BidStage::AssetRebid(t @ 1..=2) => Some(2 + t as usize),
        _ => None,
    }
}

/// Where turn `turn`'s amount `k` (0 the opening bid, 1 the price, 2 the asset price) starts.
fn amount_at(turn: usize, k: usize) -> usize {
    const AMOUNTS: [usize; 3] = [
        offset_of(&HISTORY_TURN_FIELDS, "opening"),
        offset_of(&HISTORY_TURN_FIELDS, "price"),
        offset_of(&HISTORY_TURN_FIELDS, "asset_price"),
    ];
    TURNS.offset + turn * TURNS.slot_len + AMOUNTS[k]
}

/// Where the bid of `bidder` in slot `k` of turn `turn`'s auction starts.
fn bid_at(turn: usize, k: usize, bidder: usize) -> usize {
    const SLOTS: [usize; HISTORY_STAGES] = [
        offset_of(&HISTORY_TURN_FIELDS, "secret_bids"),
        offset_of(&HISTORY_TURN_FIELDS, "rebids_1"),
        offset_of(&HISTORY_TURN_FIELDS, "rebids_2"),
        offset_of(&HISTORY_TURN_FIELDS, "asset_rebids_1"),
        offset_of(&HISTORY_TURN_FIELDS, "asset_rebids_2"),
    ];
    TURNS.offset + turn * TURNS.slot_len + SLOTS[k] + bidder * HISTORY_PER_BID
}

/// Writes `amount` exactly into `out` ([`EXACT_PARTS`] floats).
fn write_exact(out: &mut [f32], amount: u64) {
    for (i, x) in out[..EXACT_PARTS].iter_mut().enumerate() {
        let part = (amount >> (16 * (EXACT_PARTS - 1 - i))) & 0xFFFF;
        *x = part as f32 / 65_536.0;
    }
}

/// Writes the bid-history block of `viewer` (a seat, or `None` for the spectator) into `out`, from
/// the game and the bids and peeks it saw (`Match::bid_history`, `Match::peek_history`; a match
/// writes its own with [`Match::write_history`](crate::Match::write_history)), turn by turn: turn
/// `t`'s part starts at
/// `t * HISTORY_PER_TURN` and holds
/// - its opening bid, price and asset price (Commodities) as the seat's view shows them (R-VIS-1…5;
///   all at game end, R-VIS-7), each `[known, parts…]` (the amount's [`EXACT_PARTS`]; zeros when
///   not known);
/// - then, at `15 + (slot * 5 + bidder) * 7` (slot 0 the secret bid, 1 and 2 the rebids, 3 and 4
///   the asset rebids), `[1, known, amount / (amount + 10), parts…]` for each bid the seat saw
///   made (`known` = 1 when it saw the amount, R-VIS-2, R-VIS-3; every amount once the game is
///   over, R-VIS-7), zeros elsewhere.
///
/// After the 16 turns, the peeks part: per seat `[1, at / 1024]` when it peeked (5 players,
/// R-VIS-5; public, R-VIS-1), `at` its place in the seat's event stream
/// ([`Match::peek_history`](crate::Match::peek_history)). The view says which auction a seat peeked at but not when, and a
/// decision made before a peek was made without the price it showed.
///
///
/// # Panics
/// If `out.len()` is not [`HISTORY_SIZE`].
///
/// ```
/// use qe_core::encoding::HISTORY_SIZE;
/// use qe_core::{Command, Match, Rules, Seat};
/// let mut m = Match::seeded(Rules::base(4).unwrap(), 1);
/// m.apply(Command::Bid { seat: Seat(0), amount: 3 }).unwrap(); // the opening bid
/// m.apply(Command::Bid { seat: Seat(1), amount: 70_000 }).unwrap();
/// let mut out = vec![0.0f32; HISTORY_SIZE];
/// m.write_history(Seat(1), &mut out);
/// // Turn 0: the public opening bid, 3, known and exact.
/// assert_eq!(out[0..5], [1.0, 0.0, 0.0, 0.0, 3.0 / 65_536.0]);
/// // Its own secret bid (turn 0, slot 0, bidder 1): made, known, squashed, then exactly
/// // 70,000 = 1 * 65,536 + 4,464.
/// let own = &out[15 + 7..15 + 14];
/// assert_eq!(own, [1.0, 1.0, 70_000.0 / 70_010.0, 0.0, 0.0, 1.0 / 65_536.0, 4_464.0 / 65_536.0]);
/// m.write_history(Seat(2), &mut out);
/// assert_eq!(out[15 + 7..15 + 14], [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]); // made, amount unseen
/// ```
pub fn write_history(
    game: &Game,
    viewer: Option<Seat>,
    bids: &[SeenBid],
    peeks: &[SeenPeek],
    out: &mut [f32],
) {
    assert_eq!(
        out.len(),
        HISTORY_SIZE,
        "history length must be HISTORY_SIZE"
    );
    out.fill(0.0);
    // The opening bid, price and asset price exactly, from the same sight as the observation's
    // `auctions` block (which has them squashed).
    Sight::new(game, viewer).turns(|a| {
        let turn = a.turn as usize;
        if turn >= MAX_TURNS {
            return;
        }
        for (k, amount) in [a.opening, a.price, a.asset.price].into_iter().enumerate() {
            if let Some(amount) = amount {
                let x = &mut out[amount_at(turn, k)..][..HISTORY_PER_AMOUNT];
                x[0] = 1.0;
                write_exact(&mut x[1..], amount);
            }
        }
    });
    for b in bids {
        let Some(k) = slot(b.stage) else { continue };
        if usize::from(b.turn) >= MAX_TURNS {
            continue;
        }
        let x = &mut out[bid_at(usize::from(b.turn), k, b.seat.index())..][..HISTORY_PER_BID];
        x[0] = 1.0;
        if let Some(a) = b.amount {
            x[1] = 1.0;
            x[2] = money(a as f32);
            write_exact(&mut x[3..], a);
        }
    }
    for p in peeks {
        if let Some(x) = out[PEEKS.offset..]
            .chunks_exact_mut(PEEKS.slot_len)
            .nth(p.seat.index())
        {
            x[offset_of(&PEEK_FIELDS, "peeked")] = 1.0;
            x[offset_of(&PEEK_FIELDS, "at")] = p.at as f32 / 1024.0;
        }
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // exact floats: flags and 16-bit parts
mod tests {
    use super::*;
    use crate::bots::{Bot, RandomBot};
    use crate::{Command, Match, Rules};
    use alloc::vec;
    use alloc::vec::Vec;

    #[test]
    fn each_stage_has_its_own_slot_in_the_documented_order() {
        // The secret bid, the company rebids (R-AUC-6), then the asset rebids (R-COM-4).
        let stages = [
            BidStage::Secret,
            BidStage::Rebid(1),
            BidStage::Rebid(2),
            BidStage::AssetRebid(1),
            BidStage::AssetRebid(2),
        ];
        assert_eq!(stages.len(), HISTORY_STAGES);
        assert_eq!(stages.map(slot), [0, 1, 2, 3, 4].map(Some));
        // A third tie is settled without a third rebid (R-AUC-7, R-COM-4): no slot.
        assert_eq!(slot(BidStage::Rebid(3)), None);
        assert_eq!(slot(BidStage::AssetRebid(0)), None);
    }

    /// The amount of [`EXACT_PARTS`] floats written by `write_exact`.
    fn exact(parts: &[f32]) -> u64 {
        parts[..EXACT_PARTS]
            .iter()
            .fold(0, |acc, &p| (acc << 16) | (p * 65_536.0) as u64)
    }

    /// `m` after `bids`: seat 0 opens with `opening`, then seats 1, 2, 3 bid (a 4-player game).
    fn after_first_bids(opening: u64, bids: [u64; 3]) -> Match {
        let mut m = Match::seeded(Rules::base(4).unwrap(), 3);
        let mut play = |seat: u8, amount: u64| {
            m.apply(Command::Bid {
                seat: Seat(seat),
                amount,
            })
            .unwrap();
        };
        play(0, opening);
        for (s, amount) in (1..=3).zip(bids) {
            play(s, amount);
        }
        m
    }

    fn history(m: &Match, seat: u8) -> Vec<f32> {
        let mut out = vec![0.0f32; HISTORY_SIZE];
        m.write_history(Seat(seat), &mut out);
        out
    }

    /// Perfect recall of its own bids, however large (the squashed amount alone rounds 40,000
    /// and 40,001, or 2^32 and 2^32 + 1, to one float): two games that differ only in seat 1's
    /// losing secret bid differ in seat 1's block and in the auctioneer's (R-VIS-2, R-VIS-3),
    /// not in the block of seat 2, which does not see it.
    #[test]
    fn own_bids_are_recalled_exactly_however_large() {
        for (own, other) in [(40_000, 40_001), (1 << 32, (1 << 32) + 1)] {
            assert_eq!(
                money(own as f32),
                money(other as f32),
                "the squash alone is lossy"
            );
            let (a, b) = (
                after_first_bids(u64::MAX / 2, [own, 7, 9]),
                after_first_bids(u64::MAX / 2, [other, 7, 9]),
            );
            assert_ne!(history(&a, 1), history(&b, 1));
            assert_ne!(history(&a, 0), history(&b, 0));
            assert_eq!(history(&a, 2), history(&b, 2));
            assert_eq!(history(&a, 3), history(&b, 3));
        }
    }

    /// Its own opening bid too (public, R-VIS-1): every seat's block tells 40,000 from 40,001.
    #[test]
    fn opening_bids_are_recalled_exactly() {
        let (a, b) = (
            after_first_bids(40_000, [1, 2, 3]),
            after_first_bids(40_001, [1, 2, 3]),
        );
        for seat in 0..4 {
            let (x, y) = (history(&a, seat), history(&b, seat));
            assert_ne!(x, y, "seat {seat}");
            assert_eq!((x[0], exact(&x[1..])), (1.0, 40_000));
            assert_eq!((y[0], exact(&y[1..])), (1.0, 40_001));
        }
    }

    /// The layout the docs give, in numbers.
    #[test]
    fn the_layout_is_the_documented_one() {
        assert_eq!(HISTORY_PER_TURN, 190);
        assert_eq!((amount_at(0, 0), amount_at(2, 1)), (0, 2 * 190 + 5));
        assert_eq!(bid_at(0, 0, 0), 15);
        assert_eq!(bid_at(1, 2, 3), 190 + 15 + (2 * 5 + 3) * 7);
        assert_eq!(bid_at(15, 4, 4) + HISTORY_PER_BID, PEEKS.offset);
        let toy = crate::toy_expansion::OBSERVATION_FLOATS; // the crate's tests' toy expansion
        assert_eq!(
            (PEEKS.offset, HISTORY_SIZE, INFO_STATE_SIZE),
            (3040, 3050, 954 + toy + 3050)
        );
    }

    /// A seat the game lacks gets the spectator's block, without a panic: the opening bid (public)
    /// and that a seat bid, not how much.
    #[test]
    fn a_seat_the_game_lacks_gets_the_spectators_block() {
        let m = after_first_bids(5, [70_000, 7, 9]);
        let (a, b) = (history(&m, 4), history(&m, 7));
        assert_eq!(a, b);
        assert_eq!((a[0], exact(&a[1..])), (1.0, 5));
        for bidder in 1..4 {
            let x = &a[bid_at(0, 0, bidder)..][..HISTORY_PER_BID];
            assert_eq!(x, [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
        }
    }

    /// `m` (5 players) after turn 0's bids 1, 2, 3, 4, 5 in turn, then turns with the same bids,
    /// where turn 1's auctioneer (seat 1, which neither ran nor won turn 0) peeks at turn 0's price
    /// when its turn `peek_in` comes, until turn 4 starts.
    fn peeked_in(peek_in: u8) -> Match {
        let mut m = Match::seeded(Rules::base(5).unwrap(), 2);
        while m.game().turn() < 4 {
            let seat = m.game().to_act().iter().next().unwrap();
            if seat == Seat(1) && m.game().turn() == peek_in && m.game().peek_of(seat).is_none() {
                m.apply(Command::Peek { seat, turn: 0 }).unwrap();
            }
            let amount = u64::from(seat.0) + 1 + u64::from(m.game().turn());
            m.apply(Command::Bid { seat, amount }).unwrap();
        }
        m
    }

    /// Perfect recall of when a seat peeked (R-VIS-5): peeking at the same price one turn later
    /// leaves the view the same but not the block; the others, who see that it peeked (R-VIS-1),
    /// see when too.
    #[test]
    fn when_a_seat_peeked_is_recalled() {
        let (a, b) = (peeked_in(1), peeked_in(2));
        assert_eq!(a.game().view(Seat(1)), b.game().view(Seat(1)));
        for seat in 0..5 {
            let (x, y) = (history(&a, seat), history(&b, seat));
            assert_ne!(x, y, "seat {seat}");
            assert_eq!(
                x[..PEEKS.offset],
                y[..PEEKS.offset],
                "seat {seat}: only the peek differs"
            );
            let peek = &x[PEEKS.offset + 2..PEEKS.offset + 4];
            assert_eq!(peek[0], 1.0);
            assert!(peek[1] > 0.0 && y[PEEKS.offset + 3] > peek[1]);
        }
    }

    /// Over random games with large bids and (5 players) peeks, in every variant, for every seat
    /// after every command: each bid the seat saw is in its slot with its amount exactly when it
    /// saw it, each turn's opening bid, price and asset price are exactly those of the seat's view
    /// (R-VIS-1…7), each peek is at the place of its event in the seat's stream, and every other
    /// float is zero.
    #[test]
    fn the_block_holds_exactly_what_the_seat_saw() {
        let mut rng = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let (mut checked, mut peeks) = (0, 0);
        for players in 3..=5u8 {
            for rules in [Rules::base(players), Rules::commodities(players)] {
                let rules = rules.unwrap();
                for seed in 0..3 {
                    let mut m = Match::seeded(rules, seed);
                    let mut bots: Vec<RandomBot> = (0..players)
                        .map(|s| RandomBot::new(seed * 31 + u64::from(s)))
                        .collect();
                    while !m.game().is_over() {
                        let seat = m.game().to_act().iter().next().unwrap();
                        let peek = Command::Peek {
                            seat,
                            turn: (next() % 16) as u8,
                        };
                        if next() % 4 == 0 && m.game().clone().play(peek).is_ok() {
                            m.apply(peek).unwrap();
                            peeks += 1;
                        }
                        let mut command = bots[seat.index()].act(&m.game().view(seat)).unwrap();
                        // Half the bids made large (up to 2^48 more), when the rules allow it.
                        if let Command::Bid { seat, amount } = command {
                            let large = Command::Bid {
                                seat,
                                amount: amount + (next() >> 16) * (next() & 1),
                            };
                            if m.game().clone().play(large).is_ok() {
                                command = large;
                            }
                        }
                        m.apply(command).unwrap();
                        for s in 0..players {
                            check(&m, Seat(s));
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(
            checked > 1000 && peeks > 5,
            "{checked} checks, {peeks} peeks"
        );

        fn check(m: &Match, seat: Seat) {
            let out = history(m, seat.0);
            // What the checks below expect; everything else must be zero.
            let mut expected = vec![0.0f32; HISTORY_SIZE];
            let view = m.game().view(seat);
            for a in view.auctions() {
                let turn = a.turn as usize;
                for (k, amount) in [a.opening, a.price, a.asset.price].into_iter().enumerate() {
                    let at = amount_at(turn, k);
                    let x = &out[at..at + HISTORY_PER_AMOUNT];
                    if let Some(v) = amount {
                        assert_eq!((x[0], exact(&x[1..])), (1.0, v));
                        expected[at..at + HISTORY_PER_AMOUNT].copy_from_slice(x);
                    }
                }
            }
            for b in m.bid_history(Some(seat)) {
                let Some(k) = slot(b.stage) else { continue };
                let at = bid_at(usize::from(b.turn), k, b.seat.index());
                let x = &out[at..at + HISTORY_PER_BID];
                match b.amount {
                    Some(v) => {
                        assert_eq!(x[..3], [1.0, 1.0, money(v as f32)]);
                        assert_eq!(exact(&x[3..]), v);
                    }
                    None => assert_eq!(x, [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
                }
                expected[at..at + HISTORY_PER_BID].copy_from_slice(x);
            }
            for (i, e) in m.events_for(seat).enumerate() {
                if let crate::Event::Peeked { seat: p, .. } = e {
                    let at = PEEKS.offset + p.index() * HISTORY_PER_PEEK;
                    expected[at..at + 2].copy_from_slice(&[1.0, i as f32 / 1024.0]);
                }
            }
            assert_eq!(out, expected);
        }
    }
}
