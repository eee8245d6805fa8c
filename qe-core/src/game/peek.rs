//! Peeking at a past price (R-VIS-5, 5 players only): when a seat may, and the peek itself.

use super::{Game, NONE};
use crate::error::CommandError;
use crate::event::{Event, EventSink};
use crate::phase::Phase;
use crate::seat::Seat;
use crate::visibility;

impl Game {
    /// R-VIS-5: `seat` peeks at the price of `turn`.
    pub(super) fn peek(
        &mut self,
        seat: Seat,
        turn: u8,
        sink: &mut impl EventSink,
    ) -> Result<(), CommandError> {
        self.check_peek(seat, turn)?;
        self.peeks[seat] = turn;
        sink.event(Event::Peeked {
            seat,
            turn,
            price: Some(self.log[turn as usize].price),
        });
        Ok(())
    }

    /// R-VIS-5: may `seat` peek at `turn` now?
    fn check_peek(&self, seat: Seat, turn: u8) -> Result<(), CommandError> {
        if self.players() != 5 {
            return Err(CommandError::PeekNotAllowed);
        }
        if matches!(self.phase, Phase::GameOver) {
            return Err(CommandError::GameOver);
        }
        // R-SET-3: a pending chance outcome is part of the step that needs it (a reveal, a draw);
        // no seat acts in between, so peeks wait too (else the last draw would leave a moment the
        // game without external chance never has, and its record would not replay).
        if matches!(self.phase, Phase::Chance { .. }) {
            return Err(CommandError::ChancePending);
        }
        if self.peeks[seat] != NONE {
            return Err(CommandError::PeekTwice { seat: seat.0 });
        }
        let log = self.log.get(turn as usize);
        let Some(log) = log.filter(|l| l.awarded() && turn <= self.turn) else {
            return Err(CommandError::PeekNotAwarded { turn: turn as u64 });
        };
        let winner = (log.winner() != NONE).then_some(Seat(log.winner()));
        if visibility::sees_price(seat, winner, self.rules.auctioneer(turn), self.players()) {
            return Err(CommandError::PeekAlreadySeen { seat: seat.0, turn });
        }
        Ok(())
    }

    /// The turns `seat` may peek at now (R-VIS-5): [`Game::check_peek`] for each turn, after its
    /// checks that do not depend on the turn are made once (a game of 3 or 4 players, or a seat
    /// that has peeked, skips the 16 calls; PERF.md).
    pub(super) fn legal_peeks(&self, seat: Seat) -> u16 {
        if self.players() != 5
            || matches!(self.phase, Phase::GameOver | Phase::Chance { .. })
            || self.peeks[seat] != NONE
        {
            return 0;
        }
        let mut peek = 0;
        for t in 0..self.rules.turns() {
            if self.check_peek(seat, t).is_ok() {
                peek |= 1 << t;
            }
        }
        peek
    }
}
