//! A game's observation writer: an [`ObservedGame`] (qe-core) that follows the match, made once
//! the game is observed a second time, never copied.

use qe_core::encoding::{observe_seat, ObservedGame};
use qe_core::{Match, Seat};

/// Writes a match's observations: exactly the floats of `observe_seat`, through an
/// [`ObservedGame`] that follows the match (it keeps the turns already over, so later
/// observations are cheaper) once the game has been observed before. The first observation goes
/// straight to `observe_seat`, so a game observed only once (an OpenSpiel state copied during a
/// search) never pays for the 13 KB. A copy starts afresh (it may go its own way).
#[derive(Debug, Default)]
pub(crate) enum LazyObserver {
    /// Never observed.
    #[default]
    Unused,
    /// Observed once, without an observer.
    Once,
    /// Observed more than once.
    Made(Box<Follower>),
}

/// An [`ObservedGame`] brought level with the match before each observation by playing the
/// match's commands since the last one (`Follower::catch_up` in PERF.md).
#[derive(Debug)]
pub(crate) struct Follower {
    observed: ObservedGame,
    /// How many of the match's commands `observed` has played.
    applied: usize,
}

impl Clone for LazyObserver {
    fn clone(&self) -> Self {
        LazyObserver::Unused
    }
}

impl LazyObserver {
    /// Writes the observation of `seat` in `m`'s game into `out` (length `OBS_SIZE`).
    pub(crate) fn observe(&mut self, m: &Match, seat: Seat, out: &mut [f32]) {
        match self {
            LazyObserver::Made(follower) => {
                follower.catch_up(m);
                follower.observed.observe(seat, out);
            }
            LazyObserver::Unused => {
                observe_seat(m.game(), seat, out);
                *self = LazyObserver::Once;
            }
            LazyObserver::Once => {
                let mut follower = Box::new(Follower {
                    observed: ObservedGame::new(*m.game()),
                    applied: m.commands().len(),
                });
                follower.observed.observe(seat, out);
                *self = LazyObserver::Made(follower);
            }
        }
    }
}

impl Follower {
    /// Plays the match's commands since the last look; unless that makes the followed game equal
    /// to the match's (the whole state: it is not if the match was replaced, say), starts again
    /// from the match's game. Either way what `observed` kept is of a game equal to `m`'s.
    fn catch_up(&mut self, m: &Match) {
        let commands = m.commands();
        if let Some(new) = commands.get(self.applied..) {
            for c in new {
                if self.observed.play(*c).is_err() {
                    break;
                }
            }
        }
        if self.observed.game() != m.game() {
            self.observed.reset(*m.game());
        }
        self.applied = commands.len();
    }
}
