//! The bid-history block of the information-state tensor: every secret bid and rebid as one seat
//! saw it ([`Match::bid_history`]), so that the tensor recalls what the seat knew at every earlier
//! decision, its own bids included, which the seat view alone ([`super::observe_seat`]) does not
//! keep. The information state is the observation followed by this block
//! ([`INFO_STATE_SIZE`] floats): perfect recall for the seat, as CFR-family solvers need.

use crate::seat::{Seat, MAX_SEATS};
use crate::{BidStage, Match};

use super::{money, MAX_TURNS, OBS_SIZE};

/// Bid slots per auction: the secret bid, two company rebids (R-AUC-6) and two asset rebids
/// (R-COM-4).
pub const HISTORY_STAGES: usize = 5;
/// Floats per (turn, slot, bidder): bid made, amount known, squashed amount.
pub const HISTORY_PER_BID: usize = 3;
/// Floats of the block: 16 turns × 5 slots × 5 bidders × 3.
pub const HISTORY_SIZE: usize = MAX_TURNS * HISTORY_STAGES * MAX_SEATS * HISTORY_PER_BID;
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

/// Writes the bid-history block of `seat` into `out`: at `((turn * 5 + slot) * 5 + bidder) * 3`,
/// `[1, known, amount / (amount + 10)]` for each bid the seat saw made (`known` = 1 when it saw
/// the amount, R-VIS-2, R-VIS-3; every amount once the game is over, R-VIS-7), zeros elsewhere.
///
/// # Panics
/// If `out.len()` is not [`HISTORY_SIZE`].
///
/// ```
/// use qe_core::encoding::{write_history, HISTORY_SIZE};
/// use qe_core::{Command, Match, Rules, Seat};
/// let mut m = Match::seeded(Rules::base(4).unwrap(), 1);
/// m.apply(Command::Bid { seat: Seat(0), amount: 3 }).unwrap(); // the opening bid
/// m.apply(Command::Bid { seat: Seat(1), amount: 5 }).unwrap();
/// let mut out = vec![0.0f32; HISTORY_SIZE];
/// write_history(&m, Seat(1), &mut out);
/// assert_eq!(out[3..6], [1.0, 1.0, 5.0 / 15.0]); // its own secret bid, turn 0, bidder 1
/// write_history(&m, Seat(2), &mut out);
/// assert_eq!(out[3..6], [1.0, 0.0, 0.0]); // seat 2 saw that seat 1 bid, not how much
/// ```
pub fn write_history(m: &Match, seat: Seat, out: &mut [f32]) {
    assert_eq!(
        out.len(),
        HISTORY_SIZE,
        "history length must be HISTORY_SIZE"
    );
    out.fill(0.0);
    for b in m.bid_history(Some(seat)) {
        let Some(k) = slot(b.stage) else { continue };
        let i = ((usize::from(b.turn) * HISTORY_STAGES + k) * MAX_SEATS + b.seat.index())
            * HISTORY_PER_BID;
        let Some(x) = out.get_mut(i..i + HISTORY_PER_BID) else {
            continue;
        };
        x[0] = 1.0;
        if let Some(a) = b.amount {
            x[1] = 1.0;
            x[2] = money(a as f32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
