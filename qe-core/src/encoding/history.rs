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

use crate::seat::{Seat, MAX_SEATS};
use crate::view::Sight;
use crate::{BidStage, Match};

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
/// bidders.
pub const HISTORY_PER_TURN: usize =
    3 * HISTORY_PER_AMOUNT + HISTORY_STAGES * MAX_SEATS * HISTORY_PER_BID;
/// Floats of the block: 16 turns × ([`HISTORY_PER_TURN`] = 3 × 5 + 5 × 5 × 7 = 190).
pub const HISTORY_SIZE: usize = MAX_TURNS * HISTORY_PER_TURN;
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

/// Writes `amount` exactly into `out` ([`EXACT_PARTS`] floats).
fn write_exact(out: &mut [f32], amount: u64) {
    for (i, x) in out[..EXACT_PARTS].iter_mut().enumerate() {
        let part = (amount >> (16 * (EXACT_PARTS - 1 - i))) & 0xFFFF;
        *x = part as f32 / 65_536.0;
    }
}

/// Writes the bid-history block of `seat` into `out`, turn by turn: turn `t`'s part starts at
/// `t * HISTORY_PER_TURN` and holds
/// - its opening bid, price and asset price (Commodities) as the seat's view shows them (R-VIS-1…5;
///   all at game end, R-VIS-7), each `[known, parts…]` (the amount's [`EXACT_PARTS`]; zeros when
///   not known);
/// - then, at `15 + (slot * 5 + bidder) * 7` (slot 0 the secret bid, 1 and 2 the rebids, 3 and 4
///   the asset rebids), `[1, known, amount / (amount + 10), parts…]` for each bid the seat saw
///   made (`known` = 1 when it saw the amount, R-VIS-2, R-VIS-3; every amount once the game is
///   over, R-VIS-7), zeros elsewhere.
///
/// # Panics
/// If `out.len()` is not [`HISTORY_SIZE`].
///
/// ```
/// use qe_core::encoding::{write_history, HISTORY_SIZE};
/// use qe_core::{Command, Match, Rules, Seat};
/// let mut m = Match::seeded(Rules::base(4).unwrap(), 1);
/// m.apply(Command::Bid { seat: Seat(0), amount: 3 }).unwrap(); // the opening bid
/// m.apply(Command::Bid { seat: Seat(1), amount: 70_000 }).unwrap();
/// let mut out = vec![0.0f32; HISTORY_SIZE];
/// write_history(&m, Seat(1), &mut out);
/// // Turn 0: the public opening bid, 3, known and exact.
/// assert_eq!(out[0..5], [1.0, 0.0, 0.0, 0.0, 3.0 / 65_536.0]);
/// // Its own secret bid (turn 0, slot 0, bidder 1): made, known, squashed, then exactly
/// // 70,000 = 1 * 65,536 + 4,464.
/// let own = &out[15 + 7..15 + 14];
/// assert_eq!(own, [1.0, 1.0, 70_000.0 / 70_010.0, 0.0, 0.0, 1.0 / 65_536.0, 4_464.0 / 65_536.0]);
/// write_history(&m, Seat(2), &mut out);
/// assert_eq!(out[15 + 7..15 + 14], [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]); // made, amount unseen
/// ```
pub fn write_history(m: &Match, seat: Seat, out: &mut [f32]) {
    assert_eq!(
        out.len(),
        HISTORY_SIZE,
        "history length must be HISTORY_SIZE"
    );
    out.fill(0.0);
    // The opening bid, price and asset price exactly, from the same sight as the observation's
    // `auctions` block (which has them squashed).
    Sight::new(m.game(), Some(seat)).turns(|a| {
        let Some(turn) = out.get_mut(a.turn as usize * HISTORY_PER_TURN..) else {
            return;
        };
        for (x, amount) in
            turn.chunks_exact_mut(HISTORY_PER_AMOUNT)
                .zip([a.opening, a.price, a.asset.price])
        {
            if let Some(amount) = amount {
                x[0] = 1.0;
                write_exact(&mut x[1..], amount);
            }
        }
    });
    for b in m.bid_history(Some(seat)) {
        let Some(k) = slot(b.stage) else { continue };
        let i = usize::from(b.turn) * HISTORY_PER_TURN
            + 3 * HISTORY_PER_AMOUNT
            + (k * MAX_SEATS + b.seat.index()) * HISTORY_PER_BID;
        let Some(x) = out.get_mut(i..i + HISTORY_PER_BID) else {
            continue;
        };
        x[0] = 1.0;
        if let Some(a) = b.amount {
            x[1] = 1.0;
            x[2] = money(a as f32);
            write_exact(&mut x[3..], a);
        }
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // exact floats: flags and 16-bit parts
mod tests {
    use super::*;
    use crate::bots::{Bot, RandomBot};
    use crate::{Command, Rules};
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
        write_history(m, Seat(seat), &mut out);
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

    /// Over random games with large bids, in every variant, for every seat after every command:
    /// each bid the seat saw is in its slot with its amount exactly when it saw it, nothing else
    /// is marked, and each turn's opening bid, price and asset price are exactly those of the
    /// seat's view (R-VIS-1…7).
    #[test]
    fn the_block_holds_exactly_what_the_seat_saw() {
        let mut rng = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let mut checked = 0;
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
        assert!(checked > 1000, "{checked}");

        fn check(m: &Match, seat: Seat) {
            let out = history(m, seat.0);
            let mut marked = vec![false; HISTORY_SIZE];
            let view = m.game().view(seat);
            for a in view.auctions() {
                let turn = a.turn as usize * HISTORY_PER_TURN;
                for (i, amount) in [a.opening, a.price, a.asset.price].into_iter().enumerate() {
                    let x = &out[turn + i * HISTORY_PER_AMOUNT..][..HISTORY_PER_AMOUNT];
                    marked[turn + i * HISTORY_PER_AMOUNT] = true;
                    match amount {
                        Some(v) => assert_eq!((x[0], exact(&x[1..])), (1.0, v)),
                        None => assert!(x.iter().all(|&f| f == 0.0)),
                    }
                }
            }
            for b in m.bid_history(Some(seat)) {
                let Some(k) = slot(b.stage) else { continue };
                let i = usize::from(b.turn) * HISTORY_PER_TURN
                    + 3 * HISTORY_PER_AMOUNT
                    + (k * MAX_SEATS + b.seat.index()) * HISTORY_PER_BID;
                let x = &out[i..i + HISTORY_PER_BID];
                marked[i] = true;
                match b.amount {
                    Some(v) => {
                        assert_eq!(x[..3], [1.0, 1.0, money(v as f32)]);
                        assert_eq!(exact(&x[3..]), v);
                    }
                    None => assert_eq!(x, [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
                }
            }
            // Nothing else: every flag not checked above is zero.
            for t in 0..MAX_TURNS {
                let turn = t * HISTORY_PER_TURN;
                for i in 0..3 {
                    let at = turn + i * HISTORY_PER_AMOUNT;
                    assert!(marked[at] || out[at] == 0.0, "stray amount at {at}");
                }
                for j in 0..HISTORY_STAGES * MAX_SEATS {
                    let at = turn + 3 * HISTORY_PER_AMOUNT + j * HISTORY_PER_BID;
                    assert!(marked[at] || out[at..at + HISTORY_PER_BID].iter().all(|&f| f == 0.0));
                }
            }
        }
    }
}
