//! Random legal play for the benchmark and the `playouts` profiling harness (shared with
//! `#[path]`), so both measure exactly the same driver.

use qe_core::{AssetKind, BidRange, Command, Game, Phase, Seat};

/// A tiny xorshift generator: the harnesses measure the engine, not the RNG.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    #[inline]
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A random legal command for the first seat to act: a bid of 0..8 above the minimum (stepping over
/// the forbidden value) or a random non-empty pile.
#[inline]
pub fn random_command(game: &Game, rng: &mut Rng) -> Command {
    if let Some((acting, range)) = game.bidders() {
        return Command::Bid {
            seat: acting.first().unwrap_or(Seat(0)),
            amount: random_bid(&range, rng),
        };
    }
    random_pile(game, game.to_act().first().unwrap_or(Seat(0)), rng)
}

/// Plays `game` to its end with the commands of [`random_command`], one step at a time as a
/// simulator would: each bidding step whole ([`Game::play_bids`], which gives the step's bid range
/// once: every seat of a bidding step has the same), else the pile choice. The same games as
/// calling [`random_command`] before every command.
#[inline]
pub fn play_out(game: &mut Game, rng: &mut Rng) {
    loop {
        let bid = game
            .play_bids(|_, range| random_bid(range, rng))
            .expect("legal");
        if bid.is_empty() {
            if game.is_over() {
                return;
            }
            let first = game.to_act().first().unwrap_or(Seat(0));
            let command = random_pile(game, first, rng);
            game.play(command).expect("legal");
        }
    }
}

/// [`play_out`] a command at a time: each bidding step's seats and range read once
/// ([`Game::bidders`]), then a [`Game::play`] for each seat's bid. The same games as [`play_out`],
/// for measuring what the bids cost one command at a time. Out of line, so that it leaves the
/// code of the loops that call [`play_out`] as it was.
#[inline(never)]
pub fn play_out_by_command(game: &mut Game, rng: &mut Rng) {
    while !game.is_over() {
        if let Some((acting, range)) = game.bidders() {
            for seat in acting.iter() {
                let amount = random_bid(&range, rng);
                game.play(Command::Bid { seat, amount }).expect("legal");
            }
        } else {
            let first = game.to_act().first().unwrap_or(Seat(0));
            let command = random_pile(game, first, rng);
            game.play(command).expect("legal");
        }
    }
}

#[inline]
fn random_bid(range: &BidRange, rng: &mut Rng) -> u64 {
    let mut amount = range.min + (rng.next() & 7);
    if Some(amount) == range.forbidden {
        amount += 1;
    }
    amount
}

#[inline]
fn random_pile(game: &Game, seat: Seat, rng: &mut Rng) -> Command {
    let r = rng.next();
    let mut kind = AssetKind::ALL[(r % 3) as usize];
    while game.pile_remaining(kind) == 0 {
        kind = AssetKind::ALL[(kind.index() + 1) % 3];
    }
    if matches!(game.phase(), Phase::DiscardAsset { .. }) {
        Command::DiscardAsset { seat, kind }
    } else {
        Command::TakeAsset { seat, kind }
    }
}
