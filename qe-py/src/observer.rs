//! A game's [`Observer`] (qe-core), made on first use and never copied.

use qe_core::encoding::Observer;

/// The [`Observer`] of one game, made when an observation is first written: it remembers the
/// turns already over so that later observations of the same game are cheaper, and always writes
/// exactly what `observe_seat` writes. A copy starts without one (the copy may go its own way).
#[derive(Debug, Default)]
pub(crate) struct LazyObserver(Option<Box<Observer>>);

impl Clone for LazyObserver {
    fn clone(&self) -> Self {
        LazyObserver(None)
    }
}

impl LazyObserver {
    /// The observer, made now if there is none yet.
    pub(crate) fn get(&mut self) -> &mut Observer {
        self.0.get_or_insert_with(Box::default)
    }
}
