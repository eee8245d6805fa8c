//! Fast playouts: every seat of a sampled world played by the `value` bot's rule, computed from
//! what each seat has seen so far, kept up to date from the game's events.
//!
//! [`ValueBot`](crate::bots::ValueBot) decides from a whole [`SeatView`], which costs more than
//! the rest of a playout step together. Here each seat's knowledge is a few running sums, fed by
//! the events of every command ([`EventSink`]): the price level it has learned (the prices it
//! saw, R-VIS-2…5, and the public opening bids, R-VIS-1), its estimate of every seat's total spent
//! (the prices it saw; the learned mean price, at least the opening bid plus one, for the others),
//! and the public tallies (tiles, zero-bid marks, asset kinds). The bid is the value bot's
//! formula on those numbers; only the deduction aid's finer bounds and the late peek are left out.

use crate::bots::{marginal_vp, mean_token, nearest_legal, to_bid};
use crate::command::Command;
use crate::components::{AssetKind, Industry, Nation, TileId};
use crate::event::{Event, EventSink};
use crate::game::contest;
use crate::game::Game;
use crate::ledger::Ledger;
use crate::legal::PileSet;
use crate::phase::Phase;
use crate::rules::Rules;
use crate::seat::{Seat, MAX_SEATS};
use crate::view::{SeatInfo, SeatView};

use super::Mix;

/// What one seat has learned, as the value bot reads it.
#[derive(Clone, Copy, Debug, Default)]
struct Learned {
    money: f64,
    vp: f64,
    price_sum: f64,
    price_count: f64,
    /// Per seat: the prices it saw that seat pay.
    known: [f64; MAX_SEATS],
    /// Per seat: how many tiles that seat won at a price this seat did not see ...
    hidden: [u8; MAX_SEATS],
    /// ... and what they cost at least (the opening bid plus one).
    hidden_low: [f64; MAX_SEATS],
}

/// The playout state beside the [`Game`]: each seat's knowledge and the public tallies.
#[derive(Clone, Copy, Debug)]
pub(super) struct Sim {
    rules: Rules,
    learned: [Learned; MAX_SEATS],
    /// True totals spent (each seat knows its own, R-VIS-2).
    spent: Ledger<f64>,
    nation: [Option<Nation>; MAX_SEATS],
    industry: [Option<Industry>; MAX_SEATS],
    tiles: [u32; MAX_SEATS],
    zero_marks: [u8; MAX_SEATS],
    assets: [[u8; 3]; MAX_SEATS],
    tile: Option<TileId>,
    opening: Option<u64>,
    /// Per seat, the marginal VP of the tile up for auction (R-SCO-4…8), once computed.
    worth: [Option<u32>; MAX_SEATS],
    rng: [Mix; MAX_SEATS],
}

impl Sim {
    /// The state of `game` as each of its seats sees it, with each seat's noise from `seed`.
    pub fn new(game: &Game, seed: u64) -> Sim {
        let rules = *game.rules();
        let n = rules.players() as usize;
        let mut sim = Sim {
            rules,
            learned: [Learned::default(); MAX_SEATS],
            spent: Ledger::new(),
            nation: [None; MAX_SEATS],
            industry: [None; MAX_SEATS],
            tiles: [0; MAX_SEATS],
            zero_marks: [0; MAX_SEATS],
            assets: [[0; 3]; MAX_SEATS],
            tile: game.current_tile(),
            opening: None,
            worth: [None; MAX_SEATS],
            rng: noise(seed),
        };
        for s in 0..n {
            let view = game.view(Seat(s as u8));
            sim.learn_view(s, &view);
            if s == 0 {
                for (j, info) in view.seats.in_play(view.players).iter().enumerate() {
                    sim.nation[j] = info.nation;
                    sim.tiles[j] = info.tiles;
                    sim.zero_marks[j] = info.zero_marks;
                    sim.assets[j] = info.assets;
                }
                sim.opening = view
                    .auctions
                    .get(view.turn as usize)
                    .filter(|_| view.turn < view.turns_started)
                    .and_then(|a| a.opening);
            }
            let mine = view.seats[Seat(s as u8)];
            sim.industry[s] = mine.industry;
            sim.spent
                .carry(Seat(s as u8), mine.spent.map_or(0.0, |x| x as f64));
        }
        sim
    }

    /// The same state with each seat's noise drawn from `seed` instead (another playout of the
    /// same world).
    pub fn reseeded(mut self, seed: u64) -> Sim {
        self.rng = noise(seed);
        self
    }

    /// Seat `s`'s learned sums from its view (as `learn` reads a view).
    fn learn_view(&mut self, s: usize, view: &SeatView) {
        let mut l = Learned {
            money: 6.0,
            vp: 3.0,
            ..Learned::default()
        };
        for a in view.auctions() {
            let Some(tile) = a.tile else { continue };
            let worth = f64::from(self.rules.manifest().tile_value(tile)) + 2.0;
            if let (Some(p), Some(_)) = (a.price, a.winner) {
                l.money += 2.0 * p as f64;
                l.vp += 2.0 * worth;
                l.price_sum += p as f64;
                l.price_count += 1.0;
            }
            if let Some(o) = a.opening {
                l.money += o as f64;
                l.vp += worth;
            }
            if let (Some(w), true) = (a.winner, a.awarded) {
                if let Some(p) = a.price {
                    l.known[w.index()] += p as f64;
                } else {
                    l.hidden[w.index()] += 1;
                    l.hidden_low[w.index()] +=
                        contest::winning_bid_floor(a.opening, None, None) as f64;
                }
            }
        }
        self.learned[s] = l;
    }

    /// The value bot's command for `seat`, which must act in `game`.
    pub fn decide(&mut self, game: &Game, seat: Seat) -> Command {
        match game.phase() {
            Phase::TakeAsset { .. } => Command::TakeAsset {
                seat,
                kind: self.pile(game, seat, piles(game), false),
            },
            Phase::DiscardAsset { .. } => Command::DiscardAsset {
                seat,
                kind: self.pile(game, seat, piles(game), true),
            },
            _ => {
                let range = game.bid_range(seat).unwrap_or(crate::legal::BidRange {
                    min: 0,
                    max: u64::MAX,
                    forbidden: None,
                });
                self.decide_bid(game, seat, range)
            }
        }
    }

    /// [`Sim::decide`] for `seat` of a bidding step whose bids lie in `range` (as
    /// [`Game::bidders`] gives them for the whole step).
    #[inline]
    pub fn decide_bid(
        &mut self,
        game: &Game,
        seat: Seat,
        range: crate::legal::BidRange,
    ) -> Command {
        Command::Bid {
            seat,
            amount: self.bid(game, seat, game.phase(), range),
        }
    }

    /// The value bot's bid (`ValueBot::bid`) from this seat's running sums.
    fn bid(&mut self, game: &Game, seat: Seat, phase: Phase, range: crate::legal::BidRange) -> u64 {
        let rules = self.rules;
        let rules = &rules;
        let me = seat.index();
        let n = rules.players() as usize;
        let l = self.learned[me];
        let per_vp = l.money / l.vp;
        let per_tile = if l.price_count > 0.0 {
            l.price_sum / l.price_count
        } else {
            per_vp * 5.0
        };
        let rng = &mut self.rng[me];
        let noise = 0.85 + ((rng.next() >> 32) % 1000) as f64 * 0.0003;
        let asset_step = matches!(phase, Phase::AssetRebid { .. });
        let worth_vp = if asset_step {
            AssetKind::ALL
                .iter()
                .filter(|k| game.pile_remaining(**k) > 0)
                .map(|&k| mean_token(rules, k))
                .fold(0.0, f64::max)
                * 0.6
        } else {
            let worth = if let Some(w) = self.worth[me] {
                w
            } else {
                let info = SeatInfo {
                    nation: self.nation[me],
                    industry: self.industry[me],
                    tiles: self.tiles[me],
                    ..SeatInfo::default()
                };
                let w = self.tile.map_or(0, |t| marginal_vp(rules, &info, t));
                self.worth[me] = Some(w);
                w
            };
            f64::from(worth)
        };
        let mut want = worth_vp * per_vp * noise;
        if matches!(phase, Phase::Rebid { .. }) {
            want += 1.0 + ((rng.next() >> 32) % 3) as f64;
        }
        let round = rules.round(game.turn());
        let zero_open = rules.zero_bid_vp > 0
            && rules.reveals_zero_bids()
            && self.zero_marks[me] & (1 << round) == 0
            && range.allows(0);
        if zero_open && !asset_step && worth_vp <= f64::from(rules.zero_bid_vp) + 1.0 {
            return 0;
        }
        let mine = self.spent.spent(Seat(me as u8));
        let mut top_other: f64 = 0.0;
        for j in (0..n).filter(|&j| j != me) {
            let est = l.known[j] + (f64::from(l.hidden[j]) * per_tile).max(l.hidden_low[j]);
            top_other = top_other.max(est);
        }
        let left = f64::from(rules.turns().saturating_sub(game.turn()));
        let slack = 0.35 * per_tile * left / n as f64;
        let cap = (top_other + slack - mine).max(0.0);
        if want > cap {
            want = cap;
        }
        nearest_legal(&range, to_bid(want))
    }

    /// The value bot's pile (`ValueBot::pile`).
    fn pile(&self, game: &Game, seat: Seat, mut set: PileSet, discard: bool) -> AssetKind {
        let rules = &self.rules;
        let me = seat.index();
        let n = rules.players() as usize;
        if discard && self.assets[me][0] > 0 && set.0 != 1 && set.contains(AssetKind::Gold) {
            set = PileSet(set.0 & !1);
        }
        let left = f64::from(rules.turns().saturating_sub(game.turn()));
        let mut best: Option<(AssetKind, f64)> = None;
        for kind in set.iter() {
            let mut worth = mean_token(rules, kind);
            let remaining = game.pile_remaining(kind) as f64;
            match kind {
                AssetKind::Gold if remaining <= left / 2.0 + 1.0 => {
                    worth -= f64::from(rules.gold_crash) * 0.7;
                }
                AssetKind::Oil => {
                    let mine = self.assets[me][1];
                    let top = (0..n)
                        .filter(|&i| i != me)
                        .map(|i| self.assets[i][1])
                        .max()
                        .unwrap_or(0);
                    if mine + 1 >= top {
                        worth += f64::from(rules.oil_majority) / 2.0;
                    }
                }
                _ => {}
            }
            if best.is_none_or(|(_, w)| worth > w) {
                best = Some((kind, worth));
            }
        }
        best.map_or(AssetKind::Gold, |(k, _)| k)
    }
}

/// Each seat's noise generator for a playout seeded with `seed`.
fn noise(seed: u64) -> [Mix; MAX_SEATS] {
    core::array::from_fn(|s| {
        Mix(crate::setup::mix_seed(
            seed ^ (s as u64 + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93),
        ))
    })
}

/// The non-empty piles (R-COM-5, R-COM-7).
fn piles(game: &Game) -> PileSet {
    let mut set = 0;
    for k in AssetKind::ALL {
        if game.pile_remaining(*k) > 0 {
            set |= 1 << k.index();
        }
    }
    PileSet(set)
}

impl EventSink for Sim {
    fn event(&mut self, e: Event) {
        let n = self.rules.players() as usize;
        match e {
            Event::TileRevealed { tile, .. } => {
                self.tile = Some(tile);
                self.opening = None;
                self.worth = [None; MAX_SEATS];
            }
            Event::OpeningBid { amount, .. } => {
                self.opening = Some(amount);
                if let Some(tile) = self.tile {
                    let worth = f64::from(self.rules.manifest().tile_value(tile)) + 2.0;
                    for l in &mut self.learned[..n] {
                        l.money += amount as f64;
                        l.vp += worth;
                    }
                }
            }
            Event::Awarded {
                tile,
                winner: Some(w),
                price: Some(p),
                seen_by,
                ..
            } => {
                self.spent.company(w, p as f64);
                let w = w.index();
                self.tiles[w] |= 1 << tile.index();
                let worth = f64::from(self.rules.manifest().tile_value(tile)) + 2.0;
                let low = contest::winning_bid_floor(self.opening, None, None) as f64;
                for (s, l) in self.learned[..n].iter_mut().enumerate() {
                    if seen_by.contains(Seat(s as u8)) {
                        l.money += 2.0 * p as f64;
                        l.vp += 2.0 * worth;
                        l.price_sum += p as f64;
                        l.price_count += 1.0;
                        l.known[w] += p as f64;
                    } else {
                        l.hidden[w] += 1;
                        l.hidden_low[w] += low;
                    }
                }
            }
            Event::ZeroBids { turn, marked, .. } => {
                let round = self.rules.round(turn);
                for s in marked.iter() {
                    self.zero_marks[s.index()] |= 1 << round;
                }
            }
            Event::AssetTaken {
                turn,
                seat,
                kind,
                price: Some(price),
                ..
            } => {
                self.assets[seat.index()][kind.index()] += 1;
                self.spent
                    .asset(seat, self.rules.auctioneer(turn), price as f64);
            }
            _ => {}
        }
    }
}
