//! Scripted play shared by the integration tests: auctions bid by hand, and plain play to a turn.
//! Each test file takes the helpers it needs.
#![allow(dead_code)]

use qe_core::{AssetKind, Command, Game, Phase, Seat};

/// Plays each `(seat, amount)` bid in order; panics naming a bid the game refuses.
pub fn auction(game: &mut Game, bids: &[(u8, u64)]) {
    for &(seat, amount) in bids {
        game.apply(Command::Bid {
            seat: Seat(seat),
            amount,
        })
        .unwrap_or_else(|e| panic!("seat {seat} bid {amount}: {e}"));
    }
}

/// The first pile with a token left.
pub fn first_pile(game: &Game) -> AssetKind {
    AssetKind::ALL
        .iter()
        .copied()
        .find(|&k| game.pile_remaining(k) > 0)
        .unwrap()
}

/// Plays until turn `turn` starts (or the game ends): the auctioneer opens at 1, every other seat
/// bids `secret(seat)`, and each taker or discarder draws from `pile(game)`.
pub fn play_until_with(
    game: &mut Game,
    turn: u8,
    pile: fn(&Game) -> AssetKind,
    secret: impl Fn(Seat) -> u64,
) {
    while !game.is_over() && game.turn() < turn {
        let seat = game.to_act().first().unwrap();
        let command = match game.phase() {
            Phase::TakeAsset { .. } => Command::TakeAsset {
                seat,
                kind: pile(game),
            },
            Phase::DiscardAsset { .. } => Command::DiscardAsset {
                seat,
                kind: pile(game),
            },
            _ => {
                let range = game.bid_range(seat).unwrap();
                let amount = if range.min == 1 { 1 } else { secret(seat) };
                Command::Bid { seat, amount }
            }
        };
        game.apply(command).unwrap();
    }
}

/// Plays until turn `turn` starts: every secret bid is the seat's number + 2 (no ties), piles
/// from the first with a token left.
pub fn play_until(game: &mut Game, turn: u8) {
    play_until_with(game, turn, first_pile, |s| u64::from(s.0) + 2);
}

/// In a 3-player Commodities game whose auctioneer is seat 0: seat 0 wins at 9 while seats 1 and
/// 2 tie for the asset three times, so no one is left to take it and seat 0 must discard
/// (R-COM-4, R-COM-7).
pub fn tie_for_the_asset_three_times(game: &mut Game) {
    assert_eq!(game.auctioneer(), Some(Seat(0)));
    auction(game, &[(0, 9), (1, 3), (2, 3)]);
    auction(game, &[(1, 2), (2, 2)]);
    auction(game, &[(1, 2), (2, 2)]);
    assert_eq!(game.phase(), Phase::DiscardAsset { seat: Seat(0) });
}
