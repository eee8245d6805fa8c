//! [`Observer`]: the observations of one game's seats, each exactly the floats of
//! [`observe_seat`], written faster when the game is observed again a few commands later.

use super::{observe_seat, off, part, write_auction, write_auction_slot, write_header, write_seat};
use super::{AUCTION_LEN, MAX_TURNS, OBS_SIZE, SEAT_LEN};
use crate::components::TileId;
use crate::rules::Rules;
use crate::seat::{Seat, MAX_SEATS};
use crate::turn_log::{TurnLog, EMPTY_LOG};
use crate::view::{Sight, Tallies};
use crate::Game;

/// Writes observations like [`observe_seat`], keeping each seat's slots of the turns already
/// over so that they are copied rather than worked out again.
///
/// A turn's slot of the `auctions` block, once the turn is over, changes only at game end
/// (R-VIS-7) or when the seat peeks at it (R-VIS-5). An `Observer` remembers, per seat, those
/// slots and the public tallies of the same turns, with the rules, deck and per-turn log they were
/// made from. Every call compares that record with the game it is given and starts again from
/// nothing when they differ, so the result is always exactly `observe_seat(game, seat, out)`,
/// whatever game it is handed (another game, an earlier copy of this one): only the speed depends
/// on handing it the same game as it goes on.
///
/// An observer is about 13 KB: keep it next to its game (boxed, or in a `Vec`), one per game.
/// Spectators (a seat past the player count) are written by [`observe_seat`] and not remembered.
///
/// ```
/// use qe_core::encoding::{observe_seat, Observer, OBS_SIZE};
/// use qe_core::{Command, Game, Rules, Seat};
/// let mut game = Game::seeded(Rules::base(4).unwrap(), 7);
/// let mut observer = Box::new(Observer::new());
/// let (mut fast, mut slow) = ([0.0f32; OBS_SIZE], [0.0f32; OBS_SIZE]);
/// game.play(Command::Bid { seat: Seat(0), amount: 3 }).unwrap();
/// observer.observe(&game, Seat(1), &mut fast);
/// observe_seat(&game, Seat(1), &mut slow);
/// assert_eq!(fast, slow);
/// ```
#[derive(Clone, Debug)]
pub struct Observer {
    /// What the remembered turns were worked out from.
    key: Key,
    seats: [SeatSlots; MAX_SEATS],
}

/// The inputs of the remembered turns: the rules, and the deck and log of turns `0..turns`.
#[derive(Clone, Copy, Debug)]
struct Key {
    rules: Option<Rules>,
    turns: u8,
    deck: [TileId; MAX_TURNS],
    log: [TurnLog; MAX_TURNS],
}

/// One seat's remembered turns `0..turns`.
#[derive(Clone, Copy, Debug)]
struct SeatSlots {
    turns: u8,
    /// Whether they were written at game end (R-VIS-7), and the seat's peek then (R-VIS-5).
    sees_all: bool,
    peek: Option<u8>,
    /// The public tallies of those turns.
    tallies: Tallies,
    /// Their slots of the `auctions` block; zero past them.
    auctions: [f32; MAX_TURNS * AUCTION_LEN],
}

impl SeatSlots {
    const EMPTY: SeatSlots = SeatSlots {
        turns: 0,
        sees_all: false,
        peek: None,
        tallies: Tallies::ZERO,
        auctions: [0.0; MAX_TURNS * AUCTION_LEN],
    };

    /// Forgets every turn.
    fn clear(&mut self) {
        self.auctions[..self.turns as usize * AUCTION_LEN].fill(0.0);
        self.turns = 0;
        self.tallies = Tallies::ZERO;
    }
}

impl Default for Observer {
    fn default() -> Self {
        Observer::new()
    }
}

impl Observer {
    /// An observer that remembers nothing yet.
    pub const fn new() -> Observer {
        Observer {
            key: Key {
                rules: None,
                turns: 0,
                deck: [TileId::ALL[0]; MAX_TURNS],
                log: [EMPTY_LOG; MAX_TURNS],
            },
            seats: [SeatSlots::EMPTY; MAX_SEATS],
        }
    }

    /// Writes the observation of `seat` in `game` into `out`: exactly the floats of
    /// `observe_seat(game, seat, out)`.
    ///
    /// # Panics
    /// If `out.len()` is not [`OBS_SIZE`].
    pub fn observe(&mut self, game: &Game, seat: Seat, out: &mut [f32]) {
        assert_eq!(out.len(), OBS_SIZE, "observation length must be OBS_SIZE");
        if seat.0 >= game.players() {
            observe_seat(game, seat, out);
            return;
        }
        // Turns `0..over` are over: their log no longer changes.
        let over = game.turn().min(game.turns_started());
        self.check(game, over);
        let sight = Sight::new(game, Some(seat));
        let slots = &mut self.seats[seat.index()];
        let peek = game.peek_of(seat);
        if slots.sees_all != game.is_over() || slots.peek != peek {
            slots.clear();
            slots.sees_all = game.is_over();
            slots.peek = peek;
        }
        if slots.turns < over {
            let auctions = &mut slots.auctions;
            sight.turns_in(slots.turns..over, &mut slots.tallies, |a| {
                write_auction_slot(part(auctions, a.turn as usize * AUCTION_LEN), &a);
            });
            slots.turns = over;
            self.key.extend(game, over);
        }
        // Everything before the `auctions` block is written afresh; the block starts with the
        // remembered turns.
        let (head, auctions) = out.split_at_mut(off(18));
        head.fill(0.0);
        let known = slots.turns as usize * AUCTION_LEN;
        auctions[..known].copy_from_slice(&slots.auctions[..known]);
        auctions[known..].fill(0.0);
        let header = sight.header();
        write_header(out, &header);
        let mut tallies = slots.tallies;
        sight.turns_in(slots.turns..game.turns_started(), &mut tallies, |a| {
            write_auction(out, &a);
        });
        for s in 0..header.players.min(MAX_SEATS as u8) {
            write_seat(
                part(out, off(17) + s as usize * SEAT_LEN),
                &sight.seat(s, &tallies),
            );
        }
    }

    /// Forgets everything unless the remembered turns are turns of `game` that are over.
    fn check(&mut self, game: &Game, over: u8) {
        let n = self.key.turns as usize;
        let same = self.key.rules.as_ref() == Some(game.rules())
            && self.key.turns <= over
            && self.key.deck[..n] == game.setup_ref().deck[..n]
            && (0..n).all(|t| self.key.log[t] == *game.log(t as u8));
        if !same {
            self.key.rules = Some(*game.rules());
            self.key.turns = 0;
            for slots in &mut self.seats {
                slots.clear();
            }
        }
    }
}

impl Key {
    /// Records the turns up to `over` (all over) of `game`, whose earlier turns are those
    /// already recorded.
    fn extend(&mut self, game: &Game, over: u8) {
        for t in self.turns..over {
            self.deck[t as usize] = game.setup_ref().deck[t as usize];
            self.log[t as usize] = *game.log(t);
        }
        self.turns = self.turns.max(over);
    }
}
