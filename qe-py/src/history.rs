//! The bid-history block of the information-state tensor: every secret bid and rebid as one seat
//! saw it (`Match::bid_history`), so that the tensor recalls what the seat knew at every earlier
//! decision, its own bids included, which the seat view alone (`observe_seat`) does not keep.

use qe_core::{BidStage, Match, Seat, MAX_SEATS};

/// Bid slots per auction: the secret bid, two company rebids (R-AUC-6) and two asset rebids
/// (R-COM-4).
pub const STAGES: usize = 5;
/// Floats per (turn, slot, seat): bid made, amount known, squashed amount.
pub const PER_BID: usize = 3;
/// Floats of the block: 16 turns × 5 slots × 5 seats × 3.
pub const HISTORY_SIZE: usize = 16 * STAGES * MAX_SEATS * PER_BID;

fn slot(stage: BidStage) -> Option<usize> {
    match stage {
        BidStage::Secret => Some(0),
        BidStage::Rebid(t @ 1..=2) => Some(t as usize),
        BidStage::AssetRebid(t @ 1..=2) => Some(2 + t as usize),
        _ => None,
    }
}

/// Writes the block of `seat` into `out` (length [`HISTORY_SIZE`]): at
/// `((turn * 5 + slot) * 5 + bidder) * 3`, `[1, known, amount / (amount + 10)]` for each bid the
/// seat saw made (`known` = 1 when it saw the amount), zeros elsewhere.
pub fn write_history(m: &Match, seat: Seat, out: &mut [f32]) {
    out.fill(0.0);
    for b in m.bid_history(Some(seat)) {
        let Some(k) = slot(b.stage) else { continue };
        let i = ((usize::from(b.turn) * STAGES + k) * MAX_SEATS + b.seat.index()) * PER_BID;
        if i + PER_BID > out.len() {
            continue;
        }
        out[i] = 1.0;
        if let Some(a) = b.amount {
            let x = a as f32;
            out[i + 1] = 1.0;
            out[i + 2] = x / (x + 10.0);
        }
    }
}
