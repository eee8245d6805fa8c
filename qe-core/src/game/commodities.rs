//! The Commodities expansion's asset step (RULES.md section 7): the asset field and its contest
//! (R-COM-3, R-COM-4), taking (R-COM-5, R-COM-6), discarding (R-COM-7, R-COM-7a) and drawing.
//! The base game never reaches it: [`Game`] enters it only when the rules have the expansion.

use super::contest::{self, Round};
use super::{Game, NONE};
use crate::components::{AssetKind, TokenId};
use crate::error::CommandError;
use crate::event::{Event, EventSink};
use crate::legal::PileSet;
use crate::phase::{Chance, Phase};
use crate::seat::{Seat, SeatSet};
use crate::turn_log::AssetFate;
use crate::visibility;

impl Game {
    /// R-COM-5: the asset taker takes the top token of a pile; R-COM-7 (`discard`): with no
    /// taker, the auctioneer discards the top token of a pile.
    pub(super) fn choose_pile(
        &mut self,
        seat: Seat,
        kind: AssetKind,
        discard: bool,
        sink: &mut impl EventSink,
    ) -> Result<(), CommandError> {
        let own_rule = if discard { "R-COM-7" } else { "R-COM-5" };
        let ((Phase::TakeAsset { seat: chooser }, false)
        | (Phase::DiscardAsset { seat: chooser }, true)) = (self.phase, discard)
        else {
            return Err(self.wrong_action(seat, Some(self.pile_rule(own_rule))));
        };
        if chooser != seat {
            return Err(if discard {
                CommandError::NotDiscarder { seat: seat.0 }
            } else {
                CommandError::NotAssetTaker { seat: seat.0 }
            });
        }
        if self.pile_remaining(kind) == 0 {
            return Err(CommandError::PileEmpty {
                kind,
                rule: own_rule,
            });
        }
        self.draw_or_wait(kind, sink);
        Ok(())
    }

    /// Whether taking (or with `discard`, discarding) the top token of pile `kind` by `seat` is
    /// legal now, told without the general path's dispatch and its checks one by one (PERF.md): the
    /// seat is the one choosing (only a pile choice or an opening bid has one), the step is a take
    /// (R-COM-5) or a discard (R-COM-7) as the command says, and the pile is not empty. Any other
    /// pile command takes the general path ([`Game::choose_pile`]), with every check in rule
    /// order; the tests hold this to what it accepts.
    #[inline]
    pub(super) fn pile_fast_path(&self, seat: Seat, kind: AssetKind, discard: bool) -> bool {
        self.choosing.contains(seat)
            && matches!(
                (self.phase, discard),
                (Phase::TakeAsset { .. }, false) | (Phase::DiscardAsset { .. }, true)
            )
            && self.pile_remaining(kind) > 0
    }

    /// The piles `seat` may take from (R-COM-5) and discard from (R-COM-7) now.
    pub(super) fn legal_piles(&self, seat: Seat) -> (PileSet, PileSet) {
        match self.phase {
            Phase::TakeAsset { .. } if self.taker == seat.0 => {
                (self.nonempty_piles(), PileSet::default())
            }
            Phase::DiscardAsset { .. } if self.auctioneer() == Some(seat) => {
                (PileSet::default(), self.nonempty_piles())
            }
            _ => (PileSet::default(), PileSet::default()),
        }
    }

    /// The rule a take or discard out of turn breaks: its own (`rule`) with Commodities; in a game
    /// without, R-COM-1, which gives piles to the expansion only.
    fn pile_rule(&self, rule: &'static str) -> &'static str {
        if self.rules.has_piles() {
            rule
        } else {
            "R-COM-1"
        }
    }

    pub(super) fn nonempty_piles(&self) -> PileSet {
        let mut set = 0;
        for k in AssetKind::ALL {
            if self.pile_remaining(*k) > 0 {
                set |= 1 << k.index();
            }
        }
        PileSet(set)
    }

    /// How many tokens remain in a pile (R-VIS-1).
    pub fn pile_remaining(&self, kind: AssetKind) -> usize {
        (self.setup.pile_len[kind.index()] - self.drawn[kind.index()]) as usize
    }

    /// R-COM-3: the asset field is every seat but the winner and the bids set aside (R-AUC-7); its
    /// unique highest bid takes the asset, a tie rebids (R-COM-4: the tie for second counts as the
    /// first tie), and an empty field leaves the asset to no one (R-COM-7).
    pub(super) fn start_asset_contest(&mut self, winner: Seat, sink: &mut impl EventSink) {
        self.field = contest::asset_field(self.seats, winner, self.set_aside);
        self.group = self.field;
        self.asset_round(0, sink);
    }

    /// Evaluates the asset contest after the tied seats rebid (R-COM-4).
    pub(super) fn settle_asset(&mut self, sink: &mut impl EventSink) {
        self.asset_round(self.ties(), sink);
    }

    /// One round of the asset contest among `group`: the whole field at first, then the seats of
    /// the field's tie, of whom only the newly tied rebid while the others' rebids stand (R-COM-4).
    /// `ties`: the asset's ties so far.
    fn asset_round(&mut self, ties: u8, sink: &mut impl EventSink) {
        let t = self.turn_index();
        match contest::round(&self.bids, self.group, ties, self.field) {
            Round::Empty => self.no_taker(sink),
            Round::Won(taker) => self.set_taker(taker, false, sink),
            Round::Tie(holders) => {
                if ties == 0 {
                    // The field's tie: the contest goes on among the tied seats alone.
                    self.group = holders;
                }
                self.log[t].set_asset_tie(ties, holders);
                self.ask_rebid(holders, ties + 1, true, sink);
            }
            Round::ThirdTie { tied, winner } => {
                self.log[t].set_asset_tie(ties, tied);
                // The tied bids are ignored; the highest value held by exactly one seat of the
                // field takes the asset.
                if let Some(s) = winner {
                    self.set_taker(s, true, sink);
                } else {
                    // The third tie decided the asset too: no one takes it (R-COM-7).
                    self.log[t].set_asset_third_tie(true);
                    self.no_taker(sink);
                }
            }
        }
    }

    fn set_taker(&mut self, seat: Seat, third_tie: bool, sink: &mut impl EventSink) {
        self.taker = seat.0;
        let log = &mut self.log[self.turn_index()];
        log.set_asset_third_tie(third_tie);
        let second_tie = log.asset_ties()[1];
        self.phase = Phase::TakeAsset { seat };
        self.pending = SeatSet::EMPTY;
        self.choosing = SeatSet::only(seat);
        sink.event(Event::AssetTaker {
            turn: self.turn,
            seat,
            third_tie: Some(third_tie),
            third_tie_seen_by: visibility::third_tie_seen_by(
                self.auctioneer(),
                second_tie,
                self.players(),
            ),
        });
    }

    /// R-COM-7 / R-COM-7a: no taker; the auctioneer discards, or nothing happens without one.
    fn no_taker(&mut self, sink: &mut impl EventSink) {
        self.taker = NONE;
        sink.event(Event::NoTaker { turn: self.turn });
        if let Some(seat) = self.auctioneer() {
            self.phase = Phase::DiscardAsset { seat };
            self.pending = SeatSet::EMPTY;
            self.choosing = SeatSet::only(seat);
        } else {
            self.next_turn(sink);
        }
    }

    /// After pile `kind` is chosen: draw its top token now, or wait for the chance outcome.
    pub(super) fn draw_or_wait(&mut self, kind: AssetKind, sink: &mut impl EventSink) {
        if self.external {
            self.phase = Phase::Chance {
                chance: Chance::Draw(kind),
            };
            self.pending = SeatSet::EMPTY;
            self.choosing = SeatSet::EMPTY;
        } else {
            let token = self.setup.pile(kind)[self.drawn[kind.index()] as usize];
            self.finish_draw(kind, token, sink);
        }
    }

    /// The token `token` came off the pile `k`: give it to the taker or discard it.
    pub(super) fn finish_draw(&mut self, k: AssetKind, token: TokenId, sink: &mut impl EventSink) {
        let t = self.turn_index();
        self.drawn[k.index()] += 1;
        let auctioneer = self.auctioneer();
        let log = &mut self.log[t];
        if self.taker == NONE {
            let seat = auctioneer.expect("discard has an auctioneer");
            log.set_asset(AssetFate::Discarded, seat, token);
            sink.event(Event::AssetDiscarded {
                turn: self.turn,
                seat,
                kind: k,
            });
        } else {
            let seat = Seat(self.taker);
            let price = self.bids[seat];
            log.set_asset(AssetFate::Taken, seat, token);
            log.asset_price = price;
            self.keep_take(seat, token, price);
            sink.event(Event::AssetTaken {
                turn: self.turn,
                seat,
                kind: k,
                token: Some(token),
                value: self.rules.manifest().token_value(token),
                price: Some(price),
                token_seen_by: visibility::token_seen_by(seat),
                price_seen_by: visibility::price_seen_by(Some(seat), auctioneer, self.players()),
            });
        }
        self.next_turn(sink);
    }
}
