//! The performance tricks of the state machine held to their plain versions (PERF.md): each trick's
//! result agrees with the plain computation beside it at every step of many random games (3 to 5
//! players, with and without Commodities, seeded and in external-chance mode, ties made common by
//! small bids, peeks taken when allowed).

use super::Game;
use crate::command::Command;
use crate::phase::Phase;
use crate::rules::Rules;
use crate::seat::Seat;

/// A small xorshift generator for the test games.
pub(crate) struct TestRng(pub(crate) u64);

impl TestRng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random legal command for `game` (which must not be over): a chance outcome when one is
/// pending, else sometimes a peek, else the first acting seat's bid (0 to 4 above its minimum, so
/// that ties are common, or now and then a huge one) or pile.
pub(crate) fn random_command(game: &Game, rng: &mut TestRng) -> Command {
    if matches!(game.phase(), Phase::Chance { .. }) {
        let outcomes = game.chance_outcomes();
        return Command::Chance(outcomes[rng.below(outcomes.len())]);
    }
    if game.players() == 5 && rng.below(8) == 0 {
        let seat = Seat(rng.below(5) as u8);
        let peeks = game.legal(seat).peek;
        if peeks != 0 {
            return Command::Peek {
                seat,
                turn: peeks.trailing_zeros() as u8,
            };
        }
    }
    let seat = game.to_act().first().expect("a seat acts");
    let legal = game.legal(seat);
    if let Some(range) = legal.bid {
        let mut amount = if rng.below(50) == 0 {
            u64::MAX - rng.below(3) as u64
        } else {
            range.min + rng.below(5) as u64
        };
        if !range.allows(amount) {
            amount = if amount == u64::MAX {
                amount - 1
            } else {
                amount + 1
            };
        }
        return Command::Bid { seat, amount };
    }
    let piles: alloc::vec::Vec<_> = legal.take.iter().chain(legal.discard.iter()).collect();
    let kind = piles[rng.below(piles.len())];
    if legal.take.is_empty() {
        Command::DiscardAsset { seat, kind }
    } else {
        Command::TakeAsset { seat, kind }
    }
}

/// Every kind of game the tests play: each player count, with and without Commodities, seeded or
/// in external-chance mode; `games` of each.
pub(crate) fn random_games(games: u64, mut check: impl FnMut(&Game)) {
    for rules in Rules::every_variant() {
        for seed in 0..games {
            let mut rng = TestRng(crate::mix_seed(seed) | 1);
            let mut game = if seed % 4 == 3 {
                Game::external_chance(rules, None).unwrap()
            } else {
                Game::seeded(rules, seed)
            };
            check(&game);
            while !game.is_over() {
                let command = random_command(&game, &mut rng);
                game.play(command).expect("legal");
                check(&game);
            }
        }
    }
}

/// [`Game::acting_kept`] against [`Game::acting_by_phase`].
#[test]
fn the_acting_seats_kept_agree_with_the_phase() {
    random_games(300, |game| {
        assert_eq!(game.to_act(), game.acting_by_phase(), "{:?}", game.phase());
    });
}

/// [`Game::is_pending_bidder`] against [`Game::is_pending_bidder_by_phase`] for every seat number
/// a caller could send (past the player count and past the largest game too).
#[test]
fn the_pending_bidders_kept_agree_with_the_phase() {
    random_games(300, |game| {
        for seat in (0..=9).chain([u8::MAX]).map(Seat) {
            assert_eq!(
                game.is_pending_bidder(seat),
                game.is_pending_bidder_by_phase(seat),
                "{seat:?} {:?}",
                game.phase()
            );
        }
    });
}

/// [`Game::pile_fast_path`] against the general path: it takes a pile command exactly when
/// [`Game::apply_any`] accepts it (for every seat number a caller could send, every pile, taking
/// and discarding), and playing it leaves the game the general path leaves.
#[test]
fn the_pile_fast_path_takes_exactly_what_the_checks_accept() {
    use crate::components::AssetKind;
    let mut accepted_count = 0;
    random_games(300, |game| {
        for seat in (0..=6).chain([u8::MAX]).map(Seat) {
            for &kind in AssetKind::ALL {
                for discard in [false, true] {
                    let command = if discard {
                        Command::DiscardAsset { seat, kind }
                    } else {
                        Command::TakeAsset { seat, kind }
                    };
                    let mut general = *game;
                    let accepted = general.apply_any(command, &mut ()).is_ok();
                    assert_eq!(
                        game.pile_fast_path(seat, kind, discard),
                        accepted,
                        "{command:?} {:?}",
                        game.phase()
                    );
                    let mut fast = *game;
                    assert_eq!(fast.play(command).is_ok(), accepted);
                    assert_eq!(fast, general, "{command:?}");
                    accepted_count += usize::from(accepted);
                }
            }
        }
    });
    assert!(
        accepted_count > 1000,
        "{accepted_count} pile commands taken"
    );
}

/// [`Game::bidders_at_once`] against [`Game::bidders_by_seat`]; and every seat it names may bid
/// in the range it gives ([`Game::bid_range`] of each).
#[test]
fn the_bidders_at_once_agree_with_each_seat() {
    random_games(300, |game| {
        let bidders = game.bidders();
        assert_eq!(bidders, game.bidders_by_seat(), "{:?}", game.phase());
        if let Some((seats, range)) = bidders {
            assert!(!seats.is_empty());
            for seat in seats.iter() {
                assert_eq!(game.bid_range(seat), Some(range), "{seat:?}");
            }
        }
    });
}

/// [`Game::keep_award`] and [`Game::keep_take`] against the turn log posted at the end: at every
/// step the ledger kept is the log's, and each seat's tally that of its holdings rebuilt from the
/// log; at the end [`Game::outcome`] is [`Game::outcome_from_log`].
#[test]
fn the_holdings_kept_agree_with_the_log() {
    use crate::scoring::Tally;
    random_games(300, |game| {
        let (ledger, tallies) = game.kept();
        assert_eq!(ledger, game.ledger_from_log(), "{:?}", game.phase());
        let holdings = game.all_holdings();
        for (seat, h) in holdings.seats().take(game.players() as usize) {
            assert_eq!(
                tallies[seat],
                Tally::of_holdings(game.rules(), h),
                "{seat:?}"
            );
            assert_eq!(game.spent(seat), h.spent);
        }
        assert_eq!(game.outcome(), game.outcome_from_log());
    });
}

/// [`Game::blank`], a new game written as one value, against the plain making of it: a blank
/// game changed into its first turn by [`Game::start_turn`]. And [`Game::seats`] is every seat of
/// the player count.
#[test]
fn a_new_game_is_the_blank_game_started() {
    use crate::seat::SeatSet;
    use crate::setup::Setup;
    for rules in Rules::every_variant() {
        let players = rules.players();
        for seed in 0..50 {
            let setup = Setup::seeded(&rules, seed);
            let mut plain = Game::blank(rules, setup, true);
            plain.external = false;
            plain.dealt = true;
            plain.start_turn();
            let game = Game::seeded(rules, seed);
            assert_eq!(game, plain);
            assert_eq!(game.seats, SeatSet::all(players));
        }
    }
}

/// [`Game::play_bids`] against the bids of its step played one at a time with [`Game::play`],
/// lowest seat first, stopping at the first one rejected: at every step of random games, with bids
/// now and then equal to the opening bid (R-AUC-3) or an opening bid of 0 (R-AUC-2), the same result
/// and the same game; each seat is asked with the range [`Game::bid_range`] gives it, the seats
/// after a rejected one are not asked, and no bid is asked when no seat bids. Each kind of step and
/// of rejection is seen: opening bids, secret bids, company and asset rebids, the 3-player last
/// turn, a refused opening bid, a refused first bid and a refused later bid.
#[test]
fn a_bidding_step_at_once_agrees_with_its_bids_one_at_a_time() {
    use crate::error::CommandError;
    use crate::seat::{PerSeat, SeatSet};
    let mut rng = TestRng(7);
    let mut seen = [0usize; 8];
    random_games(100, |game| {
        let bidders = game.bidders();
        let mut amounts = PerSeat::splat(0u64);
        for (_, amount) in amounts.seats_mut() {
            *amount = match rng.next() % 8 {
                0 => game.opening,
                1 => 0,
                n => n,
            };
        }
        let mut fast = *game;
        let mut asked = SeatSet::EMPTY;
        let result = fast.play_bids(|seat, range| {
            assert_eq!(game.bid_range(seat), Some(*range), "{seat:?}");
            asked = SeatSet::from_bits(asked.bits() | SeatSet::only(seat).bits());
            amounts[seat]
        });
        let seats = bidders.map_or(SeatSet::EMPTY, |(seats, _)| seats);
        let mut plain = *game;
        let mut expected = Ok(seats);
        let mut bid = SeatSet::EMPTY;
        for seat in seats.iter() {
            bid = SeatSet::from_bits(bid.bits() | SeatSet::only(seat).bits());
            let command = Command::Bid {
                seat,
                amount: amounts[seat],
            };
            if let Err(e) = plain.play(command) {
                expected = Err((seat, e));
                break;
            }
        }
        assert_eq!(result, expected, "{:?}", game.phase());
        assert_eq!(asked, bid);
        assert_eq!(fast, plain);
        if bidders.is_some() {
            let kind = match game.phase() {
                Phase::OpeningBid { .. } => 0,
                Phase::Bidding if game.auctioneer().is_none() => 1,
                Phase::Bidding => 2,
                Phase::Rebid { .. } => 3,
                _ => 4,
            };
            seen[kind] += 1;
        }
        match result {
            Err((_, CommandError::OpeningBidZero)) => seen[5] += 1,
            Err((seat, _)) if Some(seat) == seats.first() => seen[6] += 1,
            Err(_) => seen[7] += 1,
            Ok(_) => {}
        }
    });
    // Opening bids, the 3-player last turn's bids, secret bids, company rebids, asset rebids; a
    // refused opening bid, a refused first bid, a refused later bid.
    assert!(seen.iter().all(|&n| n > 50), "{seen:?}");
}

/// [`Game::turn_index`] against the turn itself at every step of random games before the end,
/// when the turn log and the deck are indexed by it.
#[test]
fn the_turn_index_is_the_turn_while_a_turn_is_in_play() {
    let mut steps = 0;
    random_games(30, |game| {
        if !game.is_over() {
            assert_eq!(game.turn_index(), usize::from(game.turn()));
            steps += 1;
        }
    });
    assert!(steps > 1000, "{steps}");
}
