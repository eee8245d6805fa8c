//! The clock of timed decisions
//! ([`SearchConfig::millis`](super::SearchConfig::millis), `search:ms=MS`): the wall clock where
//! there is one, or a simulated one.

/// The wall clock of `search:ms=MS` (std, not on `wasm32-unknown-unknown`, where
/// `std::time::Instant` panics).
#[cfg(all(
    feature = "std",
    not(all(target_arch = "wasm32", target_os = "unknown"))
))]
mod wall {
    pub const AVAILABLE: bool = true;
    pub type Instant = std::time::Instant;
    #[allow(clippy::unnecessary_wraps)] // `None` where there is no clock
    pub fn now() -> Option<Instant> {
        Some(Instant::now())
    }
    pub fn elapsed_ms(start: Instant) -> f64 {
        start.elapsed().as_secs_f64() * 1e3
    }
}

/// No clock: `search:ms=MS` is not available.
#[cfg(not(all(
    feature = "std",
    not(all(target_arch = "wasm32", target_os = "unknown"))
)))]
mod wall {
    pub const AVAILABLE: bool = false;
    #[derive(Clone, Copy)]
    pub struct Instant;
    pub fn now() -> Option<Instant> {
        None
    }
    pub fn elapsed_ms(_: Instant) -> f64 {
        0.0
    }
}

/// The clock that times a decision with [`SearchConfig::millis`](super::SearchConfig::millis).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Clock {
    /// The wall clock, where there is one.
    Wall,
    /// Advances this many microseconds at each reading.
    Simulated(u64),
}

/// The time of a timed decision.
#[derive(Clone, Copy)]
pub(super) struct Deadline {
    start: Option<wall::Instant>,
    readings: u64,
    step_us: u64,
    millis: f64,
}

impl Deadline {
    /// The deadline of a decision of `millis` ms starting now; `None` without a clock.
    pub(super) fn start(clock: Clock, millis: u32) -> Option<Deadline> {
        let (start, step_us) = match clock {
            Clock::Wall => (Some(wall::now()?), 0),
            Clock::Simulated(step) => (None, step),
        };
        Some(Deadline {
            start,
            readings: 0,
            step_us,
            millis: f64::from(millis),
        })
    }

    /// Milliseconds since the start (a reading: it advances a simulated clock).
    pub(super) fn elapsed_ms(&mut self) -> f64 {
        if let Some(start) = self.start {
            wall::elapsed_ms(start)
        } else {
            self.readings += 1;
            (self.readings * self.step_us) as f64 / 1e3
        }
    }

    /// Whether the time is up (a reading).
    pub(super) fn passed(&mut self) -> bool {
        self.elapsed_ms() >= self.millis
    }
}

/// Whether there is a wall clock (`search:ms=MS` is available).
pub(super) use wall::AVAILABLE;
