//! The search bot's 5-player peek (R-VIS-5).

use crate::rules::Rules;
use crate::seat::{PerSeat, MAX_SEATS};
use crate::view::SeatView;

/// The 5-player peek (R-VIS-5): once a third of the game has passed, at the auction whose price
/// it does not see won by the seat with the most hidden prices (the likeliest surprise among the
/// spenders), the highest opening bid first.
pub(super) fn peek_choice(view: &SeatView, rules: &Rules) -> Option<u8> {
    let legal = view.legal;
    if legal.peek == 0 || u32::from(view.turn) * 3 < u32::from(view.turns) {
        return None;
    }
    let mut hidden = PerSeat::new([0u32; MAX_SEATS]);
    for a in view.auctions() {
        if let (Some(w), None) = (a.winner, a.price) {
            hidden[w] += 1;
        }
    }
    view.auctions()
        .iter()
        .filter(|a| legal.peek & (1 << a.turn) != 0)
        .max_by_key(|a| {
            (
                a.winner.map_or(0, |w| hidden[w]),
                a.opening.unwrap_or(0),
                a.tile.map_or(0, |t| rules.manifest().tile_value(t)),
            )
        })
        .map(|a| a.turn)
}
