//! What the seats hold and have spent (R-SCO-1, R-COM-8), and the outcome once the game is over
//! (RULES.md section 8).

use super::{Game, NONE};
use crate::components::{AssetKind, TileId, TokenId};
use crate::ledger::Ledger;
use crate::scoring::{self, Holdings, Outcome, SeatFacts};
use crate::seat::{PerSeat, Seat};
use crate::turn_log::AssetFate;

impl Game {
    /// The total spent by `seat` so far (R-SCO-1, R-COM-8): company prices + asset prices − credits.
    pub fn spent(&self, seat: Seat) -> i128 {
        self.ledger.spent(seat)
    }

    /// The winner `winner` of the current turn's tile `tile`, which pays its bid: posted to the
    /// game's ledger (R-AUC-10) and to the winner's tally, as the game goes (PERF.md). The plain
    /// alternative, which the tests hold these to, is the turn log posted at the end
    /// ([`Game::ledger_from_log`], [`Game::all_holdings`]).
    #[inline]
    pub(super) fn keep_award(&mut self, winner: Seat, tile: TileId) {
        let nation = self.setup.nations[winner];
        self.ledger.company(winner, i128::from(self.bids[winner]));
        self.tallies[winner].add_tile(self.rules.manifest(), Some(nation), tile);
    }

    /// The taker `taker` of the current turn's asset, `token`, which pays `price` (R-COM-5) and
    /// credits it to the auctioneer (R-COM-6): posted to the ledger and the taker's tally as the
    /// game goes, as [`Game::keep_award`].
    #[inline]
    pub(super) fn keep_take(&mut self, taker: Seat, token: TokenId, price: u64) {
        self.ledger
            .asset(taker, self.auctioneer(), i128::from(price));
        self.tallies[taker].add_token(&self.rules, token);
    }

    /// Every turn so far, posted to a ledger: the plain version of the ledger kept in the game.
    #[cfg(test)]
    pub(crate) fn ledger_from_log(&self) -> Ledger<i128> {
        let mut ledger = Ledger::new();
        for turn in 0..self.turns_started() {
            self.post_turn(turn, &mut ledger);
        }
        ledger
    }

    /// Posts what `turn` cost to `ledger`: the company price its winner paid (R-AUC-10) and the asset
    /// price its taker paid, with the auctioneer's credit (R-COM-5, R-COM-6).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub(crate) fn post_turn(&self, turn: u8, ledger: &mut Ledger<i128>) {
        let log = &self.log[turn as usize];
        if log.winner() != NONE {
            ledger.company(Seat(log.winner()), i128::from(log.price));
        }
        if log.asset_fate() == AssetFate::Taken {
            let auctioneer = self.rules.auctioneer(turn);
            ledger.asset(
                Seat(log.asset_seat()),
                auctioneer,
                i128::from(log.asset_price),
            );
        }
    }

    /// What `seat` holds now: the input of [`scoring::score`](crate::scoring::score).
    ///
    /// # Panics
    /// If `seat` is not below [`MAX_SEATS`](crate::MAX_SEATS) (like indexing a slice out of range).
    pub fn holdings(&self, seat: Seat) -> Holdings {
        self.all_holdings()[seat]
    }

    /// What every seat holds now, in one pass over the turns, with its total from the ledger
    /// (R-SCO-1, R-COM-8).
    pub(crate) fn all_holdings(&self) -> PerSeat<Holdings> {
        let n = self.players() as usize;
        let mut holdings = PerSeat::splat(Holdings::default());
        for (seat, h) in holdings.seats_mut().take(n) {
            h.nation = Some(self.setup.nations[seat]);
            h.industry = self.dealt.then_some(self.setup.deal[seat.index()]);
            h.zero_rounds = self.zero_marks(seat).count_ones() as u8;
        }
        let mut ledger = Ledger::new();
        for turn in 0..self.turns_started() {
            self.post_turn(turn, &mut ledger);
            let log = &self.log[turn as usize];
            if log.winner() != NONE {
                holdings[Seat(log.winner())].tiles |= 1 << self.setup.deck[turn as usize].index();
            }
            if log.asset_fate() == AssetFate::Taken {
                let h = &mut holdings[Seat(log.asset_seat())];
                h.tokens[h.token_count as usize] = Some(log.asset_token());
                h.token_count += 1;
            }
        }
        for (seat, h) in holdings.seats_mut() {
            h.spent = ledger.spent(seat);
        }
        holdings
    }

    /// The outcome (RULES.md section 8), once the game is over.
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let mut outcome = Outcome::UNSCORED;
        self.score_kept_into(&mut outcome);
        Some(outcome)
    }

    /// The outcome scored into `scored`, an [`Outcome::UNSCORED`] its caller holds (the game's
    /// seats written over, the others left unscored), from the ledger and the tallies kept as the
    /// game went ([`Game::keep_award`]), without a pass over the turn log; each seat's facts are
    /// read from the game as it is scored ([`scoring::score_tallied_into`]). [`Game::outcome`],
    /// inlined into its caller, holds the outcome and puts it in `Some`, so that with
    /// [`Outcome::winners`] and [`Outcome::seats`] inlined too the outcome is copied once
    /// (from the constant) where the caller keeps it, not also out of this call and into the
    /// caller's own (PERF.md). The plain version, which the tests hold it to, is
    /// `Game::outcome_from_log` (in the tests).
    fn score_kept_into(&self, scored: &mut Outcome) {
        let gold_empty = self.pile_remaining(AssetKind::Gold) == 0;
        let zero_rounds = self.zero_rounds_by_seat();
        scoring::score_tallied_into(
            &self.rules,
            self.players(),
            |seat| SeatFacts {
                nation: Some(self.setup.nations[seat]),
                industry: self.dealt.then_some(self.setup.deal[seat.index()]),
                zero_rounds: (zero_rounds >> (8 * seat.index())) as u8,
                spent: self.ledger.spent(seat),
            },
            &self.tallies,
            gold_empty,
            scored,
        );
    }

    /// How many rounds gave each seat a zero-bid mark (R-AUC-11), seat `s`'s count in byte `s` of
    /// the word: each round's marks spread a seat a byte by one multiplication (bit `s` times
    /// `2^(7k)` for `k` in `0..5` lands on bit `8s` for `k = s` only, and no two products share a
    /// bit), and the rounds added (at most 4 a byte). No count of a mask's bits (no POPCNT on the
    /// baseline x86-64; PERF.md) and no pass per seat. The plain version, which the tests hold it
    /// to, is `Game::zero_rounds` (in the tests).
    #[inline]
    fn zero_rounds_by_seat(&self) -> u64 {
        const SPREAD: u64 = 1 | 1 << 7 | 1 << 14 | 1 << 21 | 1 << 28;
        const SEAT_BYTES: u64 = 0x01_0101_0101;
        self.zero_marks
            .iter()
            .map(|m| (u64::from(m.bits() & 0x1F) * SPREAD) & SEAT_BYTES)
            .sum()
    }

    /// How many rounds gave `seat` a zero-bid mark (R-AUC-11): summed over the rounds. The plain
    /// version of [`Game::zero_rounds_by_seat`].
    #[cfg(test)]
    fn zero_rounds(&self, seat: Seat) -> u8 {
        self.zero_marks
            .iter()
            .map(|m| u8::from(m.contains(seat)))
            .sum()
    }

    /// The outcome from the holdings rebuilt from the turn log ([`Game::all_holdings`]) and scored
    /// the plain way (`scoring::tests::score_plain`): the plain version of [`Game::outcome`], which
    /// the tests hold it to.
    #[cfg(test)]
    pub(crate) fn outcome_from_log(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let holdings = self.all_holdings();
        let gold_empty = self.pile_remaining(AssetKind::Gold) == 0;
        Some(scoring::tests::score_plain(
            &self.rules,
            holdings.in_play(self.players()),
            gold_empty,
        ))
    }

    /// The tallies kept, for the tests to compare with those of the holdings rebuilt from the log.
    #[cfg(test)]
    pub(crate) fn kept(&self) -> (Ledger<i128>, PerSeat<scoring::Tally>) {
        (self.ledger, self.tallies)
    }
}

#[cfg(test)]
mod tests {
    use crate::game::plain::random_games;
    use crate::seat::{Seat, SeatSet};
    use crate::{Game, Rules, MAX_SEATS};

    /// [`Game::zero_rounds_by_seat`] against [`Game::zero_rounds`] for every seat, for every
    /// marking of the four rounds.
    #[test]
    fn the_zero_rounds_of_all_seats_at_once_agree_with_each_seat() {
        let mut game = Game::seeded(Rules::base(5).unwrap(), 1);
        for code in 0..1u32 << (4 * MAX_SEATS) {
            game.zero_marks = core::array::from_fn(|r| {
                SeatSet::from_bits((code >> (MAX_SEATS * r)) as u8 & 0x1F)
            });
            let all = game.zero_rounds_by_seat();
            for s in 0..MAX_SEATS {
                let seat = Seat(s as u8);
                assert_eq!((all >> (8 * s)) as u8, game.zero_rounds(seat), "{code:#x}");
            }
            assert_eq!(all >> (8 * MAX_SEATS), 0);
        }
    }

    /// [`Game::outcome`] against the plain outcome ([`Game::outcome_from_log`]) at every step of
    /// random games of every kind, and [`scoring::score`](crate::scoring::score) of the holdings
    /// at the end against the plain scoring.
    #[test]
    fn the_outcome_agrees_with_the_plain_outcome() {
        use crate::scoring::{score, tests::score_plain};
        let mut over = 0;
        random_games(500, |game| {
            assert_eq!(game.outcome(), game.outcome_from_log());
            if game.is_over() {
                let holdings = game.all_holdings();
                let holdings = holdings.in_play(game.players());
                for gold_empty in [false, true] {
                    assert_eq!(
                        score(game.rules(), holdings, gold_empty),
                        score_plain(game.rules(), holdings, gold_empty)
                    );
                }
                over += 1;
            }
        });
        // Every kind of game (Rules::every_variant), seeded or with external chance, ends.
        assert_eq!(over, 6 * 500);
    }
}
