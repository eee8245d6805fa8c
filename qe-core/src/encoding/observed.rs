//! [`ObservedGame`]: a game and the observation writer that follows it, writing each seat's
//! observation by copying the slots of the turns already over (PERF.md).

use super::layout::at;
use super::{write_auction, write_auction_slot, write_header, write_seat};
use super::{AUCTION_LEN, MAX_TURNS, OBS_SIZE};
use crate::error::CommandError;
use crate::event::Events;
use crate::seat::{PerSeat, Seat, MAX_SEATS};
use crate::view::{Sight, Tallies};
use crate::{Command, Game};

/// The offset of the `auctions` block, the observation's last.
const AUCTIONS_AT: usize = at::AUCTIONS.offset();
const _: () = assert!(AUCTIONS_AT + MAX_TURNS * AUCTION_LEN == OBS_SIZE);

/// A [`Game`] that owns the writer of its observations: [`ObservedGame::observe`] writes exactly
/// the floats of [`observe_seat`](super::observe_seat), faster over a game played on, because it
/// keeps, per seat, the slots of the `auctions` block of the turns already over and copies them
/// instead of working them out again.
///
/// What it keeps is keyed only on what the seat's view shows: the number of turns over (the view's
/// `turn` and `turns_started`), whether the game is over (`game_over`: every slot is seen anew,
/// R-VIS-7) and the turn the seat peeked at (its `peeked`, R-VIS-5). A turn's slot, once the turn
/// is over, changes only through those two. That the kept slots are slots of *this* game is not
/// checked but guaranteed: the game is reached only through [`ObservedGame::game`] (`&Game`) and
/// changed only through [`ObservedGame::play`] and [`ObservedGame::apply`], which move it forward.
/// A copy keeps what it kept, and is as right as the original.
///
/// About 13 KB: keep it boxed or in a `Vec`.
///
/// ```
/// use qe_core::encoding::{observe_seat, ObservedGame, OBS_SIZE};
/// use qe_core::{Command, Game, Rules, Seat};
/// let mut observed = ObservedGame::new(Game::seeded(Rules::base(4).unwrap(), 7));
/// let (mut fast, mut slow) = ([0.0f32; OBS_SIZE], [0.0f32; OBS_SIZE]);
/// observed.play(Command::Bid { seat: Seat(0), amount: 3 }).unwrap();
/// observed.observe(Seat(1), &mut fast);
/// observe_seat(observed.game(), Seat(1), &mut slow);
/// assert_eq!(fast, slow);
/// ```
#[derive(Clone, Debug)]
pub struct ObservedGame {
    game: Game,
    kept: KeptSlots,
}

/// The writer's memory: per seat, the slots of the turns over. It is right for a game only while
/// that one game is the one it is handed, moving forward (the owner's promise: [`ObservedGame`]
/// and [`Match`](crate::Match) keep it next to the game they own and move forward).
#[derive(Clone, Debug)]
pub(crate) struct KeptSlots {
    seats: PerSeat<SeatSlots>,
}

/// One seat's kept turns `0..turns`, all over when they were written.
#[derive(Clone, Copy, Debug)]
struct SeatSlots {
    turns: u8,
    /// The view they were written for: whether the game was over, and the seat's peek.
    game_over: bool,
    peek: Option<u8>,
    /// The public tallies of those turns.
    tallies: Tallies,
    /// Their slots of the `auctions` block; zero past them.
    auctions: [f32; MAX_TURNS * AUCTION_LEN],
}

impl SeatSlots {
    fn empty() -> SeatSlots {
        SeatSlots {
            turns: 0,
            game_over: false,
            peek: None,
            tallies: Tallies::default(),
            auctions: [0.0; MAX_TURNS * AUCTION_LEN],
        }
    }

    /// Forgets every turn.
    fn clear(&mut self) {
        self.auctions[..self.turns as usize * AUCTION_LEN].fill(0.0);
        self.turns = 0;
        self.tallies = Tallies::default();
    }
}

impl ObservedGame {
    /// `game`, with nothing kept yet.
    pub fn new(game: Game) -> ObservedGame {
        ObservedGame {
            game,
            kept: KeptSlots::new(),
        }
    }

    /// Starts over with `game` (another game), forgetting what was kept, without making a new
    /// 13 KB value.
    pub fn reset(&mut self, game: Game) {
        self.game = game;
        self.kept.clear();
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game, leaving what was kept.
    pub fn into_game(self) -> Game {
        self.game
    }

    /// [`Game::play`].
    ///
    /// # Errors
    /// [`Game::play`]'s: the game is unchanged.
    #[inline]
    pub fn play(&mut self, command: Command) -> Result<(), CommandError> {
        self.game.play(command)
    }

    /// [`Game::apply`].
    ///
    /// # Errors
    /// [`Game::apply`]'s: the game is unchanged.
    pub fn apply(&mut self, command: Command) -> Result<Events, CommandError> {
        self.game.apply(command)
    }

    /// Writes the observation of `seat` into `out`: exactly the floats of
    /// `observe_seat(self.game(), seat, out)`, by copying the kept slots of the turns over
    /// (its row in PERF.md's table of kept tricks).
    ///
    /// # Panics
    /// If `out.len()` is not [`OBS_SIZE`].
    pub fn observe(&mut self, seat: Seat, out: &mut [f32]) {
        self.kept.observe(&self.game, seat, out);
    }
}

impl KeptSlots {
    /// Nothing kept yet.
    pub(crate) fn new() -> KeptSlots {
        KeptSlots {
            seats: PerSeat::new([SeatSlots::empty(); MAX_SEATS]),
        }
    }

    /// Forgets every seat's turns.
    pub(crate) fn clear(&mut self) {
        for slots in self.seats.values_mut() {
            slots.clear();
        }
    }

    /// [`ObservedGame::observe`] for `game`, which must be the game this memory has followed.
    pub(crate) fn observe(&mut self, game: &Game, seat: Seat, out: &mut [f32]) {
        assert_eq!(out.len(), OBS_SIZE, "observation length must be OBS_SIZE");
        if seat.0 >= game.players() {
            super::observe_seat(game, seat, out);
            return;
        }
        let out: &mut [f32; OBS_SIZE] = out.try_into().expect("checked above");
        // Turns `0..over` are over: what the seat sees of them changes only at game end (R-VIS-7)
        // or when it peeks (R-VIS-5).
        let over = game.turn().min(game.turns_started());
        let sight = Sight::new(game, Some(seat));
        let slots = &mut self.seats[seat];
        let (game_over, peek) = (game.is_over(), game.peek_of(seat));
        if slots.game_over != game_over || slots.peek != peek || slots.turns > over {
            slots.clear();
            slots.game_over = game_over;
            slots.peek = peek;
        }
        if slots.turns < over {
            let auctions = &mut slots.auctions;
            sight.turns_in(slots.turns..over, &mut slots.tallies, |a| {
                let at = a.turn as usize * AUCTION_LEN;
                let slot: &mut [f32; AUCTION_LEN] = (&mut auctions[at..at + AUCTION_LEN])
                    .try_into()
                    .expect("a slot");
                write_auction_slot(slot, &a);
            });
            slots.turns = over;
        }
        // Everything before the `auctions` block is written afresh; the block starts with the
        // kept turns.
        let (head, auctions) = out.split_at_mut(AUCTIONS_AT);
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
            write_seat(at::SEATS.slot(out, s as usize), &sight.seat(s, &tallies));
        }
    }
}

/// The observation writer a [`Match`](crate::Match) owns: nothing until the match is observed a
/// second time (a match observed once, an OpenSpiel state copied during a search, never pays for
/// the 13 KB), then a [`KeptSlots`] next to the match's game. It is a cache, not part of the
/// match's value: a copy starts afresh (it may go its own way), and it never makes two matches
/// unequal.
#[derive(Debug, Default)]
pub(crate) enum MatchObserver {
    /// Never observed.
    #[default]
    Unused,
    /// Observed once, without keeping anything.
    Once,
    /// Observed more than once.
    Made(alloc::boxed::Box<KeptSlots>),
}

impl Clone for MatchObserver {
    fn clone(&self) -> Self {
        MatchObserver::Unused
    }
}

impl PartialEq for MatchObserver {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for MatchObserver {}

impl MatchObserver {
    /// Writes the observation of `seat` in `game` (the match's own, moved only by the match) into
    /// `out`: exactly the floats of [`observe_seat`](super::observe_seat).
    pub(crate) fn observe(&mut self, game: &Game, seat: Seat, out: &mut [f32]) {
        match self {
            MatchObserver::Made(kept) => kept.observe(game, seat, out),
            MatchObserver::Unused => {
                super::observe_seat(game, seat, out);
                *self = MatchObserver::Once;
            }
            MatchObserver::Once => {
                let mut kept = alloc::boxed::Box::new(KeptSlots::new());
                kept.observe(game, seat, out);
                *self = MatchObserver::Made(kept);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::{Bot, RandomBot};
    use crate::encoding::tests::assert_writes_like_observe_seat;
    use crate::Rules;
    use alloc::boxed::Box;
    use alloc::vec::Vec;

    /// Asserts that `observed` writes for `seat` exactly the floats `observe_seat` writes for its
    /// game (`what` names the case on failure).
    #[track_caller]
    fn assert_agrees(
        observed: &mut ObservedGame,
        seat: Seat,
        what: impl FnOnce() -> alloc::string::String,
    ) {
        let game = *observed.game();
        assert_writes_like_observe_seat(&game, seat, |out| observed.observe(seat, out), what);
    }

    /// The fast path equals the plain writer (`observe_seat`) bit for bit, for every seat and the
    /// spectator after every command of random games in every variant, with 5-player peeks taken
    /// along the way, seats observed at irregular times (so several turns end between two looks),
    /// a copy going its own way, and one value reset onto each new game.
    #[test]
    fn observed_game_equals_observe_seat_over_random_games() {
        let mut observed = Box::new(ObservedGame::new(Game::seeded(Rules::base(4).unwrap(), 0)));
        let (mut compared, mut peeked, mut copies) = (0, 0, 0);
        for rules in Rules::every_variant() {
            let players = rules.players();
            for seed in 0..16u64 {
                observed.reset(Game::seeded(rules, seed));
                let mut bots: Vec<RandomBot> = (0..players)
                    .map(|s| RandomBot::new(seed * 17 + u64::from(s)))
                    .collect();
                let mut step = 0u64;
                loop {
                    for s in 0..=players {
                        // Seat s looks after every command, or every (s + 2)th only.
                        if seed % 2 == 0 && step % (u64::from(s) + 2) != 0 {
                            continue;
                        }
                        assert_agrees(&mut observed, Seat(s), || {
                            alloc::format!("{players}p seed {seed} seat {s}")
                        });
                        compared += 1;
                    }
                    if observed.game().is_over() {
                        break;
                    }
                    step += 1;
                    if step % 31 == 0 {
                        // A copy plays on its own way (another seat's command or a peek).
                        let mut copy = observed.clone();
                        let game = *copy.game();
                        let seat = game.to_act().iter().last().unwrap();
                        let command = RandomBot::new(step).act(&game.view(seat)).unwrap();
                        copy.play(command).unwrap();
                        for s in 0..players {
                            assert_agrees(&mut copy, Seat(s), || alloc::format!("copy {players}p"));
                        }
                        copies += 1;
                    }
                    let peeker = Seat((step % u64::from(players)) as u8);
                    let peeks = observed.game().legal(peeker).peek;
                    if step % 7 == 0 && peeks != 0 {
                        let turn = peeks.trailing_zeros() as u8;
                        observed
                            .apply(Command::Peek { seat: peeker, turn })
                            .unwrap();
                        peeked += 1;
                        continue;
                    }
                    let game = observed.game();
                    let seat = game.to_act().first().unwrap();
                    let command = bots[seat.index()].act(&game.view(seat)).unwrap();
                    observed.play(command).unwrap();
                }
            }
        }
        assert!(
            compared > 10_000 && peeked > 20 && copies > 100,
            "{compared} {peeked} {copies}"
        );
    }

    /// The same in external-chance mode (R-SET-3), where the game waits for the deal, each
    /// reveal and each draw.
    #[test]
    fn observed_game_equals_observe_seat_in_external_chance_mode() {
        let mut compared = 0;
        for players in 3..=5u8 {
            let rules = Rules::commodities(players).unwrap();
            for seed in 0..4u64 {
                let game = Game::external_chance(rules, None).unwrap();
                let mut observed = Box::new(ObservedGame::new(game));
                let mut bots: Vec<RandomBot> = (0..players)
                    .map(|s| RandomBot::new(seed * 7 + u64::from(s)))
                    .collect();
                let mut step = 0usize;
                while !observed.game().is_over() {
                    for s in 0..players {
                        assert_agrees(&mut observed, Seat(s), || {
                            alloc::format!("{players}p seed {seed} seat {s}")
                        });
                        compared += 1;
                    }
                    step += 1;
                    let game = observed.game();
                    let outcomes = game.chance_outcomes();
                    let command = if outcomes.is_empty() {
                        let seat = game.to_act().first().unwrap();
                        bots[seat.index()].act(&game.view(seat)).unwrap()
                    } else {
                        Command::Chance(outcomes[step % outcomes.len()])
                    };
                    observed.play(command).unwrap();
                }
            }
        }
        assert!(compared > 1_000, "{compared}");
    }
}
