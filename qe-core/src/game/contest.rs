//! The contest kernel: how one round of sealed bids is decided, written once for the company
//! auction (R-AUC-5…7) and the asset contest (R-COM-3, R-COM-4). Pure functions of the bids; the
//! game ([`super::auction`], [`super::commodities`]) decides what a result leads to, and every model
//! of the rules that needs to know who wins a set of bids asks here.
//!
//! ```text
//! round(bids, among, ties, third_among):
//!   the seats of `among` holding the highest bid   -> one: it wins; none: no one (an empty field)
//!   a tie, and the third one                       -> the highest bid of `third_among` that exactly
//!                                                     one seat holds wins (or no one)
//!   a tie before the third                         -> exactly the tied seats rebid
//! ```

use crate::seat::{PerSeat, Seat, SeatSet};

/// How a round of bids ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Round {
    /// No seat contends (an asset field emptied by the award and a third tie, R-COM-7).
    Empty,
    /// One seat holds the highest bid (R-AUC-5, R-COM-3).
    Won(Seat),
    /// The seats tie for the highest bid, before the third tie: they rebid (R-AUC-6, R-COM-4).
    Tie(SeatSet),
    /// The third tie (`tied`): the highest bid held by exactly one seat wins, if any (R-AUC-7,
    /// R-COM-4).
    ThirdTie {
        /// The seats tied the third time.
        tied: SeatSet,
        /// The seat holding the highest unique bid of the seats the rule looks at.
        winner: Option<Seat>,
    },
}

/// Decides a round: the highest bid of `among` wins; `ties_before` ties have happened in this
/// contest; at the third tie the unique-bid rule looks at `third_among` (every bidder of the
/// company auction, R-AUC-7; the whole asset field, R-COM-4).
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn round(
    bids: &PerSeat<u64>,
    among: SeatSet,
    ties_before: u8,
    third_among: SeatSet,
) -> Round {
    let (_, holders) = top_bids_branch_free(bids, among);
    decide(bids, holders, ties_before, third_among)
}

/// [`round`] of the company auction, where every seat bids (R-AUC-3, R-AUC-6: the untied seats'
/// bids stand through the rebids): `all` is every seat of the game, and a seat past the player
/// count holds 0, as the game's bids do. Its top is [`top_bids_of_all`].
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn round_of_all(bids: &PerSeat<u64>, all: SeatSet, ties_before: u8) -> Round {
    debug_assert!(bids
        .seats()
        .all(|(seat, &bid)| all.contains(seat) || bid == 0));
    let (_, holders) = top_bids_of_all(bids, all);
    decide(bids, holders, ties_before, all)
}

/// How a round ends once `holders` hold its highest bid (see [`round`]).
#[allow(clippy::inline_always)]
#[inline(always)]
fn decide(bids: &PerSeat<u64>, holders: SeatSet, ties_before: u8, third_among: SeatSet) -> Round {
    let Some(first) = holders.first() else {
        return Round::Empty;
    };
    // One holder when the bits are a power of two: no count of the bits, which the baseline
    // x86-64 computes with a multiply and shifts, having no POPCNT (PERF.md).
    if holders.bits().is_power_of_two() {
        Round::Won(first)
    } else if ties_before + 1 == 3 {
        Round::ThirdTie {
            tied: holders,
            winner: highest_unique(bids, third_among),
        }
    } else {
        Round::Tie(holders)
    }
}

/// The seats of `among` holding the highest bid, and that bid, computed without data-dependent
/// branches (PERF.md), in two passes: the highest bid of `among` (a seat outside it counts as
/// bidding 0), then the seats of `among` that bid it.
#[inline]
pub(crate) fn top_bids_branch_free(bids: &PerSeat<u64>, among: SeatSet) -> (u64, SeatSet) {
    // The bids are what a branch predictor cannot guess. Bids are at least 0, so starting from 0
    // with no holder gives the first seat of `among` its place, and an empty `among` has none.
    let mut best = 0;
    for (i, &bid) in bids.values().enumerate() {
        let member = 0u64.wrapping_sub(u64::from((among.bits() >> i) & 1));
        best = best.max(bid & member);
    }
    let mut holders = 0u8;
    for (i, &bid) in bids.values().enumerate() {
        holders |= u8::from(bid == best) << i;
    }
    (best, SeatSet::from_bits(holders & among.bits()))
}

/// [`top_bids_branch_free`] when `all` holds every seat that may have bid and every other seat
/// holds 0 (the company auction, [`round_of_all`]): the highest bid is the highest of all five
/// without a membership mask (PERF.md), and only its holders are masked.
#[inline]
pub(crate) fn top_bids_of_all(bids: &PerSeat<u64>, all: SeatSet) -> (u64, SeatSet) {
    let best = bids.values().fold(0, |best, &bid| best.max(bid));
    let mut holders = 0u8;
    for (i, &bid) in bids.values().enumerate() {
        holders |= u8::from(bid == best) << i;
    }
    (best, SeatSet::from_bits(holders & all.bits()))
}

/// The plain version of [`top_bids_branch_free`], which the tests hold it to: a loop with a
/// branch for each comparison (the one before PERF.md's trick).
#[cfg(test)]
pub(crate) fn top_bids_plain(bids: &PerSeat<u64>, among: SeatSet) -> (u64, SeatSet) {
    let mut best = 0;
    let mut holders = SeatSet::EMPTY;
    for s in among.iter() {
        let b = bids[s];
        if holders.is_empty() || b > best {
            best = b;
            holders = SeatSet::only(s);
        } else if b == best {
            holders.insert(s);
        }
    }
    (best, holders)
}

/// The seat of `among` holding the highest bid value that exactly one seat of `among` holds
/// (R-AUC-7, R-COM-4).
pub(crate) fn highest_unique(bids: &PerSeat<u64>, among: SeatSet) -> Option<Seat> {
    let mut best: Option<Seat> = None;
    for s in among.iter() {
        let b = bids[s];
        let dup = among.iter().any(|o| o != s && bids[o] == b);
        if !dup && best.is_none_or(|w| b > bids[w]) {
            best = Some(s);
        }
    }
    best
}

/// Whether a third company tie won at `winning` sets a losing company bid `bid` aside (R-AUC-7):
/// exactly when it is above the winning bid (each such bid is tied; equal bids below the winner's
/// stay in the asset field, R-COM-3). Without a third tie no losing bid is above the winning one
/// (R-AUC-5), so a losing bid above the price is a set-aside bid: the game, the deduction aid and
/// the search bot's worlds all read it here.
#[inline]
pub(crate) fn set_aside_by_third_tie(bid: u64, winning: u64) -> bool {
    bid > winning
}

/// The bids a third company tie sets aside (R-AUC-7): with a winner, the seats of `among` whose
/// bids [`set_aside_by_third_tie`]; with none, every seat of `among`.
pub(crate) fn set_aside(bids: &PerSeat<u64>, among: SeatSet, winner: Option<Seat>) -> SeatSet {
    let Some(w) = winner else {
        return among;
    };
    let mut aside = SeatSet::EMPTY;
    for s in among.iter() {
        if set_aside_by_third_tie(bids[s], bids[w]) {
            aside.insert(s);
        }
    }
    aside
}

/// The asset field (R-COM-3): every seat of `all` but the company's winner and the bids set aside
/// by a third company tie.
pub(crate) fn asset_field(all: SeatSet, winner: Seat, set_aside: SeatSet) -> SeatSet {
    let mut field = all;
    field.remove(winner);
    SeatSet::from_bits(field.bits() & !set_aside.bits())
}

// What a decided round proves about bids nobody showed: the kernel read backwards, for the models
// that see a result but not every bid (the deduction aid, the search bot's worlds and playouts).
// The tests below hold each fact to `round` on every small set of bids.

/// The least a company auction's winner can have bid, from two bids it is known to have faced
/// (R-AUC-5, R-AUC-7), as an `i128` so that beating `u64::MAX` stays representable:
///
/// - the auctioneer's opening bid, which no other seat may equal (R-AUC-3), so it is a unique bid
///   and the winner beat it even after a third tie, when the highest unique bid wins (unless the
///   winner is the auctioneer, which the caller rules out);
/// - a losing bid `other` that may be tied, which the winner beat only if there was no third tie:
///   after one, a tied bid above the winner's is set aside.
///
/// `third_tie` is `None` when the caller does not know whether there was a third tie.
pub(crate) fn winning_bid_floor(
    opening: Option<u64>,
    other: Option<u64>,
    third_tie: Option<bool>,
) -> i128 {
    let mut floor = opening.map_or(0, |o| i128::from(o) + 1);
    if let (Some(b), Some(false)) = (other, third_tie) {
        floor = floor.max(i128::from(b) + 1);
    }
    floor
}

/// Whether a losing company bid `bid` is known to stay in the asset field (R-COM-3): with no third
/// tie every losing bid does; after one, exactly the bids at or below the winning bid `price` do
/// (R-AUC-7, [`set_aside_by_third_tie`]), and a loser cannot hold the winning bid itself. With the
/// tie or the price unknown, nothing is known.
pub(crate) fn stays_in_field(bid: u64, price: Option<u64>, third_tie: Option<bool>) -> bool {
    third_tie == Some(false) || price.is_some_and(|p| bid != p && !set_aside_by_third_tie(bid, p))
}

/// The most a bid left in the asset field can be: below the company's winning bid `price`, since
/// without a third tie the winner's bid was the highest (R-AUC-5) and after one the bids above it
/// were set aside (R-AUC-7, R-COM-3).
pub(crate) fn field_bid_ceiling(price: u64) -> i128 {
    i128::from(price) - 1
}

/// The least the asset's taker can have bid without asset rebids, from one bid `beaten` of the field
/// it took the asset from: its final company bid was the field's unique highest (R-COM-3).
pub(crate) fn taking_bid_floor(beaten: u64) -> i128 {
    i128::from(beaten) + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bids(b: [u64; 5]) -> PerSeat<u64> {
        PerSeat::new(b)
    }

    fn set(seats: &[u8]) -> SeatSet {
        let mut s = SeatSet::EMPTY;
        for &x in seats {
            s.insert(Seat(x));
        }
        s
    }

    /// R-AUC-5: the unique highest bid wins.
    #[test]
    fn the_highest_bid_wins_r_auc_5() {
        let b = bids([5, 9, 3, 0, 0]);
        assert_eq!(
            round(&b, set(&[0, 1, 2, 3]), 0, set(&[0, 1, 2, 3])),
            Round::Won(Seat(1))
        );
    }

    /// R-AUC-6: tied seats rebid, the first and second ties alike.
    #[test]
    fn a_tie_before_the_third_asks_the_tied_seats_r_auc_6() {
        let b = bids([5, 9, 9, 0, 0]);
        let all = set(&[0, 1, 2, 3]);
        assert_eq!(round(&b, all, 0, all), Round::Tie(set(&[1, 2])));
        assert_eq!(round(&b, all, 1, all), Round::Tie(set(&[1, 2])));
    }

    /// R-AUC-7: at the third tie the highest value one seat alone holds wins, and the bids above it
    /// are set aside; R-COM-3: equal bids below it stay in the asset field.
    #[test]
    fn the_third_tie_goes_to_the_highest_unique_bid_r_auc_7() {
        let b = bids([5, 9, 9, 2, 2]);
        let all = set(&[0, 1, 2, 3, 4]);
        let r = round(&b, all, 2, all);
        assert_eq!(
            r,
            Round::ThirdTie {
                tied: set(&[1, 2]),
                winner: Some(Seat(0))
            }
        );
        let aside = set_aside(&b, all, Some(Seat(0)));
        assert_eq!(aside, set(&[1, 2]));
        assert_eq!(asset_field(all, Seat(0), aside), set(&[3, 4]));
        // No unique bid: everyone is set aside.
        let b = bids([9, 9, 2, 2, 0]);
        let all = set(&[0, 1, 2, 3]);
        assert_eq!(highest_unique(&b, all), None);
        assert_eq!(set_aside(&b, all, None), all);
    }

    /// R-COM-3, R-COM-7: an empty field has no winner; R-COM-4: at the asset's third tie the
    /// unique-bid rule looks at the whole field, not only the tied seats.
    #[test]
    fn asset_rounds_r_com_3_r_com_4() {
        let b = bids([7, 4, 4, 3, 0]);
        assert_eq!(round(&b, SeatSet::EMPTY, 0, SeatSet::EMPTY), Round::Empty);
        let field = set(&[1, 2, 3]);
        assert_eq!(
            round(&b, set(&[1, 2]), 2, field),
            Round::ThirdTie {
                tied: set(&[1, 2]),
                winner: Some(Seat(3))
            }
        );
    }

    /// The branch-free top agrees with the plain loop on random bids (few values, so ties are
    /// common) and every subset.
    #[test]
    fn branch_free_top_agrees_with_the_plain_loop() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            let mut b = [0u64; 5];
            for v in &mut b {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *v = match x % 8 {
                    0 => u64::MAX,
                    7 => x >> 3,
                    r => r - 1,
                };
            }
            let among = SeatSet::from_bits((x >> 40) as u8);
            assert_eq!(
                top_bids_branch_free(&bids(b), among),
                top_bids_plain(&bids(b), among),
                "{b:?} {among:?}"
            );
        }
    }

    /// The top of all seats agrees with the branch-free top (and so with the plain loop) when the
    /// seats outside hold 0.
    #[test]
    fn the_top_of_all_agrees_with_the_branch_free_top() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let all = SeatSet::all(3 + (x % 3) as u8);
            let mut b = [0u64; 5];
            for (i, v) in b.iter_mut().enumerate() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if all.contains(Seat(i as u8)) {
                    *v = match x % 8 {
                        0 => u64::MAX,
                        7 => x >> 3,
                        r => r - 1,
                    };
                }
            }
            assert_eq!(
                top_bids_of_all(&bids(b), all),
                top_bids_branch_free(&bids(b), all),
                "{b:?} {all:?}"
            );
        }
    }

    /// The branch-free top agrees with a plain maximum on every subset.
    #[test]
    fn branch_free_top_agrees_with_the_plain_one() {
        let b = bids([3, 0, 3, u64::MAX, 7]);
        for bits in 0u8..32 {
            let among = SeatSet::from_bits(bits);
            let best = among.iter().map(|s| b[s]).max().unwrap_or(0);
            let holders =
                among
                    .iter()
                    .filter(|&s| b[s] == best)
                    .fold(SeatSet::EMPTY, |mut h, s| {
                        h.insert(s);
                        h
                    });
            assert_eq!(
                top_bids_branch_free(&b, among),
                (best, holders),
                "{bits:05b}"
            );
        }
    }
    /// Every company round of 3 or 4 seats with bids 0..=4 (the auctioneer, seat 0, holding a
    /// unique bid, R-AUC-3), with and without a third tie: what the inverse facts claim holds.
    #[test]
    fn the_inverse_facts_hold_on_every_small_round_r_auc_5_7_r_com_3() {
        let mut rounds = 0;
        for players in 3u8..=4 {
            let all = SeatSet::all(players);
            let n = usize::from(players);
            for code in 0..5u32.pow(u32::from(players)) {
                let mut b = [0u64; 5];
                for (i, v) in b[..n].iter_mut().enumerate() {
                    *v = u64::from(code / 5u32.pow(i as u32) % 5);
                }
                if b[1..n].contains(&b[0]) {
                    continue;
                }
                let b = bids(b);
                for ties_before in [0u8, 2] {
                    let (winner, third) = match round_of_all(&b, all, ties_before) {
                        Round::Won(w) => (w, false),
                        Round::ThirdTie {
                            winner: Some(w), ..
                        } => (w, true),
                        _ => continue,
                    };
                    rounds += 1;
                    let price = b[winner];
                    let aside = if third {
                        set_aside(&b, all, Some(winner))
                    } else {
                        SeatSet::EMPTY
                    };
                    let field = asset_field(all, winner, aside);
                    for s in all.iter().filter(|&s| s != winner) {
                        let bid = b[s];
                        if winner != Seat(0) {
                            for known in [None, Some(third)] {
                                let floor = winning_bid_floor(Some(b[Seat(0)]), Some(bid), known);
                                assert!(i128::from(price) >= floor, "{b:?} third {third}");
                            }
                        }
                        for (p, known) in [
                            (None, Some(third)),
                            (Some(price), None),
                            (Some(price), Some(third)),
                        ] {
                            if stays_in_field(bid, p, known) {
                                assert!(field.contains(s), "{b:?} seat {s:?} third {third}");
                            }
                        }
                        if field.contains(s) {
                            assert!(i128::from(bid) <= field_bid_ceiling(price), "{b:?}");
                        }
                    }
                    // Without rebids the taker holds the field's unique highest bid.
                    if let Round::Won(taker) = round(&b, field, 0, field) {
                        for s in field.iter().filter(|&s| s != taker) {
                            assert!(i128::from(b[taker]) >= taking_bid_floor(b[s]), "{b:?}");
                        }
                    }
                }
            }
        }
        assert!(rounds > 500, "{rounds} rounds checked");
    }
}
