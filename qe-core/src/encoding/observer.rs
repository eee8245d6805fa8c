//! [`Observer`]: the observations of one game's seats, each exactly the floats of
//! [`observe_seat`], through the one writer.

use super::observe_seat;
use crate::seat::Seat;
use crate::Game;

/// Writes observations like [`observe_seat`] (it is `observe_seat`, through the same writer), for
/// callers that keep one per game.
///
/// It remembers nothing between calls, so the result is exactly `observe_seat(game, seat, out)`
/// whatever game it is handed. (An earlier version kept each seat's slots of the turns already
/// over and copied them; it was keyed on the game's internal per-turn log rather than on what the
/// seat sees, and keying it on the seat's view would mean working out each turn's view anyway,
/// which is most of what it saved.) It is empty and free to make or copy.
///
/// ```
/// use qe_core::encoding::{observe_seat, Observer, OBS_SIZE};
/// use qe_core::{Command, Game, Rules, Seat};
/// let mut game = Game::seeded(Rules::base(4).unwrap(), 7);
/// let mut observer = Observer::new();
/// let (mut fast, mut slow) = ([0.0f32; OBS_SIZE], [0.0f32; OBS_SIZE]);
/// game.play(Command::Bid { seat: Seat(0), amount: 3 }).unwrap();
/// observer.observe(&game, Seat(1), &mut fast);
/// observe_seat(&game, Seat(1), &mut slow);
/// assert_eq!(fast, slow);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Observer {
    _private: (),
}

impl Observer {
    /// An observer.
    pub const fn new() -> Observer {
        Observer { _private: () }
    }

    /// Writes the observation of `seat` in `game` into `out`: exactly the floats of
    /// `observe_seat(game, seat, out)`.
    ///
    /// # Panics
    /// If `out.len()` is not [`OBS_SIZE`](super::OBS_SIZE).
    #[allow(clippy::unused_self)] // kept as a method for the callers that hold one per game
    #[inline]
    pub fn observe(&mut self, game: &Game, seat: Seat, out: &mut [f32]) {
        observe_seat(game, seat, out);
    }
}
