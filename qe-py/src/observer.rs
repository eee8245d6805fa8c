//! A game's [`Observer`] (qe-core), made once the game is observed a second time, never copied.

use qe_core::encoding::{observe_seat, Observer};
use qe_core::{Game, Seat};

/// Writes a game's observations: exactly the floats of `observe_seat`, through an [`Observer`]
/// (which keeps the turns already over, so later observations are cheaper) once the game has been
/// observed before. The first observation goes straight to `observe_seat`, so a game observed only
/// once (an OpenSpiel state copied during a search) never pays for the 13 KB observer. A copy
/// starts afresh (it may go its own way).
#[derive(Debug, Default)]
pub(crate) enum LazyObserver {
    /// Never observed.
    #[default]
    Unused,
    /// Observed once, without an observer.
    Once,
    /// Observed more than once.
    Made(Box<Observer>),
}

impl Clone for LazyObserver {
    fn clone(&self) -> Self {
        LazyObserver::Unused
    }
}

impl LazyObserver {
    /// Writes the observation of `seat` in `game` into `out` (length `OBS_SIZE`).
    pub(crate) fn observe(&mut self, game: &Game, seat: Seat, out: &mut [f32]) {
        match self {
            LazyObserver::Made(observer) => observer.observe(game, seat, out),
            LazyObserver::Unused => {
                observe_seat(game, seat, out);
                *self = LazyObserver::Once;
            }
            LazyObserver::Once => {
                let mut observer = Box::<Observer>::default();
                observer.observe(game, seat, out);
                *self = LazyObserver::Made(observer);
            }
        }
    }
}
