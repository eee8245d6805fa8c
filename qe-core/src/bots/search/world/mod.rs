//! Determinization: games drawn at random among those the searching seat cannot tell from the real
//! one, built from its view and its own bid history only (R-VIS-8).
//!
//! A sampled world is a whole [`Game`] at the decision point. It keeps everything the seat knows
//! (the public facts of R-VIS-1, its own token, bids, prices and tokens, R-VIS-2, every bid of the
//! auctions it ran, R-VIS-3) and draws the rest:
//!
//! - the other seats' industry tokens (and, with 3 players, the one set aside): a random
//!   permutation of the tokens the seat has not got;
//! - the unrevealed deck: a random order of the tiles not yet shown;
//! - the asset piles: the seat's own tokens where it drew them, the others at random;
//! - every hidden price (R-VIS-2…5): within the interval the deduction aid proves for it
//!   ([`crate::deduction`]: above the opening bid, above the seat's own losing bid, an asset price
//!   below the company price), around the price level the seat has seen.
//!
//! The past is replayed as commands. An auction the seat ran is replayed bid for bid. Any other
//! auction is *realized*: its bids are chosen so that it ends exactly as the view shows (winner,
//! price, zero bids, asset taker, price, pile, discard), which is all the rest of the game depends
//! on; how the hidden bids were tied along the way does not matter for what follows. The current
//! auction is rebuilt up to the decision with the seat's own standing bid, the public tie sets, and
//! the other bids drawn from the opponent model ([`ValueBot`]) within what the view allows.

use alloc::vec::Vec;

use super::model;
use super::playout::Sim;
use super::Mix;
use crate::bots::{learn, marginal_vp, nearest_legal, Bot};
use crate::command::Command;
use crate::components::{AssetKind, Industry, TileId, TokenId, MAX_TOKENS};
use crate::event::BidStage;
use crate::game::contest::{self, set_aside_by_third_tie};
use crate::game::Game;
use crate::phase::Phase;
use crate::rules::Rules;
use crate::seat::{PerSeat, Seat, MAX_SEATS};
use crate::seen::SeenBid;
use crate::setup::{deal_tokens, Setup};
use crate::view::{AuctionView, SeatInfo, SeatView};

mod recipe;
pub(super) mod resample;

use recipe::{force_feasible, loosen, recipe, Asset, Outcome};

/// What the searching seat knows, gathered once per decision from its view and bid history.
pub(super) struct Knowledge<'a> {
    pub me: Seat,
    pub rules: Rules,
    pub view: &'a SeatView,
    /// The seat's own final company bid per turn (its opening bid where it ran the auction).
    pub own: [Option<u64>; 16],
    /// Every bid of the auctions the seat ran, in order: (turn, seat, amount).
    ran: Vec<(u8, Seat, u64)>,
    /// Turns whose every bid is in `ran` (the history was given and complete).
    ran_complete: u16,
    /// Money per VP, from the prices and opening bids the seat has seen.
    pub per_vp: f64,
    /// Zero bids score (base game, 4–5 players: R-AUC-11), so realized auctions keep them.
    zero_matters: bool,
    /// The other seats' sealed bids of the current auction are modelled as a searcher's: all
    /// or nothing ([`Knowledge::sharpen`]).
    pub sharp: bool,
}

/// A world being built: the game and the model's pending actions.
struct Stage {
    game: Game,
    pending: PerSeat<Option<u64>>,
    standing: PerSeat<Option<u64>>,
    seed: u64,
    /// The industry tokens of this world.
    industries: PerSeat<Industry>,
}

/// One sampled world at the decision point.
#[derive(Clone, Copy, Debug)]
pub(super) struct World {
    /// The game, waiting for the searching seat (for an opening bid: before it).
    pub game: Game,
    /// The other seats' actions of this bidding step (drawn from the model), applied after the
    /// searching seat's own.
    pub pending: PerSeat<Option<u64>>,
    /// Every other seat's standing amount in this contest once `pending` is in (for candidates).
    pub standing: PerSeat<Option<u64>>,
    /// Every seat's knowledge for the playouts, at the decision point.
    pub sim: Sim,
}

impl<'a> Knowledge<'a> {
    /// Gathers what `view`'s seat knows; `history` is its bid history ([`crate::Match::bid_history`]),
    /// possibly empty.
    pub fn new(view: &'a SeatView, history: &[SeenBid], rules: Rules) -> Option<Knowledge<'a>> {
        let me = view.seat?;
        let mut own = [None; 16];
        let mut ran = Vec::new();
        let mut ran_complete = 0u16;
        let ran_turn = |t: u8| {
            view.auctions
                .get(t as usize)
                .is_some_and(|a| t < view.turns_started && a.auctioneer == Some(me))
        };
        for a in view.auctions() {
            if a.auctioneer == Some(me) {
                own[a.turn as usize] = a.opening;
                ran_complete |= 1 << a.turn;
            }
        }
        for b in history {
            let t = b.turn as usize;
            if t >= 16 {
                continue;
            }
            if b.seat == me {
                if let (BidStage::Secret | BidStage::Rebid(_), Some(amount)) = (b.stage, b.amount) {
                    own[t] = Some(amount);
                }
            }
            if ran_turn(b.turn) {
                match b.amount {
                    Some(amount) => ran.push((b.turn, b.seat, amount)),
                    None => ran_complete &= !(1 << b.turn),
                }
            }
        }
        // A ran auction with no secret bid recorded has no history to replay.
        for a in view.auctions() {
            if a.auctioneer == Some(me) && !ran.iter().any(|&(t, _, _)| t == a.turn) {
                ran_complete &= !(1 << a.turn);
            }
        }
        let prices = learn(&rules, view, me);
        Some(Knowledge {
            me,
            rules,
            view,
            own,
            ran,
            ran_complete,
            per_vp: prices.per_vp.max(0.1),
            zero_matters: rules.zero_bid_vp > 0 && rules.reveals_zero_bids(),
            sharp: false,
        })
    }

    fn players(&self) -> u8 {
        self.view.players
    }

    /// With [`Knowledge::sharp`], seat `s`'s modelled sealed bid `v` as a searcher bids: the
    /// smallest bid about as often as the search bots do when the `value` bot would bid more
    /// (45% of the time, measured in games between `search:medium` bots), else above the
    /// `value` bot's amount (a third more, plus one: the median of the search bots' bids over
    /// the `value` bot's in the same views was 1.3 times). Without it, `v`.
    fn sharpen(&self, game: &Game, s: Seat, v: u64, seed: u64) -> u64 {
        let Some(range) = game.bid_range(s).filter(|_| self.sharp) else {
            return v;
        };
        if v <= range.min {
            return v;
        }
        let u = Mix(crate::setup::mix_seed(seed ^ 0xA5A5 ^ u64::from(s.0))).unit();
        if u < 0.45 {
            nearest_legal(&range, range.min)
        } else {
            nearest_legal(&range, to_amount(v as f64 * 1.3 + 1.0))
        }
    }

    /// Draws a world; an error (why) if this draw could not be realized (rare; the caller draws
    /// again).
    pub fn sample(&self, rng: &mut Mix, provisional_opening: u64) -> Result<World, &'static str> {
        let setup = self.sample_setup(rng).why("set-up")?;
        let industries = setup.seat_industries();
        // `sample_setup` made the set-up with `Setup::new` for these rules.
        let mut game = Game::with_checked_setup(self.rules, setup);
        let mut buf = Vec::with_capacity(24);
        for a in self.view.auctions() {
            if a.turn >= self.view.turn {
                break;
            }
            self.replay_past(&mut game, a, industries, rng, &mut buf)
                .why("a finished auction")?;
        }
        let seed = rng.next();
        let mut stage = Stage {
            game,
            pending: PerSeat::new([None; MAX_SEATS]),
            standing: PerSeat::new([None; MAX_SEATS]),
            seed,
            industries,
        };
        self.current(&mut stage, rng, provisional_opening, &mut buf)?;
        // Peeks are public (which seat, which auction, R-VIS-1); they only use up the seat's peek.
        for (seat, info) in self.view.seats.seats().take(self.players() as usize) {
            if let Some(turn) = info.peeked {
                let _ = stage.game.play(Command::Peek { seat, turn });
            }
        }
        Ok(World {
            game: stage.game,
            pending: stage.pending,
            standing: stage.standing,
            sim: Sim::new(&stage.game, seed),
        })
    }

    /// Tokens, deck and piles consistent with the view.
    fn sample_setup(&self, rng: &mut Mix) -> Option<Setup> {
        let view = self.view;
        let n = self.players() as usize;
        let rules = &self.rules;
        let mut nations = PerSeat::splat(crate::components::Nation::US);
        for (seat, info) in view.seats.seats().take(n) {
            nations[seat] = info.nation?;
        }
        // Industry tokens: the seat's own (and every seat's once the game is over, R-VIS-7), the
        // others shuffled (R-VIS-2, R-CMP-6).
        view.seats[self.me].industry?;
        let known = |i: usize| {
            view.seats
                .in_play(view.players)
                .get(i)
                .and_then(|s| s.industry)
        };
        let mut pool = [Industry::AGR; MAX_SEATS];
        let mut len = 0;
        for &t in deal_tokens(self.players()) {
            if !(0..n).any(|i| known(i) == Some(t)) {
                pool[len] = t;
                len += 1;
            }
        }
        rng.shuffle(&mut pool[..len]);
        let mut industries = PerSeat::splat(Industry::AGR);
        let mut next = 0;
        for (i, slot) in industries.in_play_mut(n as u8).iter_mut().enumerate() {
            *slot = if let Some(t) = known(i) {
                t
            } else {
                next += 1;
                *pool[..len].get(next - 1)?
            };
        }
        // The deck: the revealed tiles in order, the rest shuffled (R-VIS-6).
        let in_play = rules.manifest().tiles_in_play(self.players());
        let mut deck = [TileId::ALL[0]; 16];
        let shown = view.turns_started as usize;
        let mut revealed = 0u32;
        for (slot, a) in deck.iter_mut().zip(view.auctions()) {
            let tile = a.tile?;
            *slot = tile;
            revealed |= 1 << tile.index();
        }
        let mut at = shown;
        for tile in in_play.iter() {
            if revealed & (1 << tile.index()) == 0 {
                *deck.get_mut(at)? = tile;
                at += 1;
            }
        }
        let deck_len = in_play.len();
        rng.shuffle(&mut deck[shown..deck_len]);
        // The piles: tokens drawn so far in draw order (the seat's own known, R-COM-5), the rest
        // shuffled.
        let mut piles = [[TokenId::new(AssetKind::Gold, 1); MAX_TOKENS]; 3];
        let mut pile_len = [0usize; 3];
        if rules.has_piles() {
            for kind in AssetKind::ALL {
                let k = kind.index();
                let mut all = [TokenId::new(*kind, 1); MAX_TOKENS];
                let mut count = 0;
                for t in rules.tokens_in_play().filter(|t| t.kind() == *kind) {
                    all[count] = t;
                    count += 1;
                }
                // The draws of this pile, in order; `None` where the token is hidden.
                let mut draws = [None; MAX_TOKENS];
                let mut drawn = 0;
                for a in view.auctions() {
                    if (a.asset.taken || a.asset.discarded) && a.asset.kind == Some(*kind) {
                        *draws.get_mut(drawn)? = Some(a.asset.token);
                        drawn += 1;
                    }
                }
                // Unknown tokens: all but those the seat saw drawn.
                let mut unknown = [TokenId::new(*kind, 1); MAX_TOKENS];
                let mut u = 0;
                for &t in &all[..count] {
                    let seen = draws[..drawn].contains(&Some(Some(t)));
                    if !seen {
                        unknown[u] = t;
                        u += 1;
                    }
                }
                rng.shuffle(&mut unknown[..u]);
                let mut hidden = unknown[..u].iter();
                for (i, slot) in piles[k][..count].iter_mut().enumerate() {
                    *slot = match draws.get(i) {
                        Some(Some(Some(t))) if i < drawn => *t,
                        _ => *hidden.next()?,
                    };
                }
                pile_len[k] = count;
            }
        }
        Setup::new(
            rules,
            Some(nations.in_play(self.players())),
            industries.in_play(n as u8),
            &deck[..deck_len],
            [
                &piles[0][..pile_len[0]],
                &piles[1][..pile_len[1]],
                &piles[2][..pile_len[2]],
            ],
        )
        .ok()
    }

    /// Replays the bids of an auction the seat ran, as they were (R-VIS-3); `false` if the
    /// history does not hold them (the game is then unchanged).
    fn replay_ran(&self, game: &mut Game, turn: u8, opening: Option<u64>) -> bool {
        if self.ran_complete & (1 << turn) == 0 {
            return false;
        }
        let before = *game;
        let mut ok = match opening {
            Some(o) => game
                .play(Command::Bid {
                    seat: self.me,
                    amount: o,
                })
                .is_ok(),
            None => false,
        };
        for &(t, seat, amount) in &self.ran {
            if !ok {
                break;
            }
            if t == turn {
                ok = game.play(Command::Bid { seat, amount }).is_ok();
            }
        }
        if !ok {
            *game = before;
        }
        ok
    }

    /// Replays a finished auction: as it was if the seat ran it, else realized.
    fn replay_past(
        &self,
        game: &mut Game,
        a: &AuctionView,
        industries: PerSeat<Industry>,
        rng: &mut Mix,
        buf: &mut Vec<Command>,
    ) -> Option<()> {
        let turn = a.turn;
        if a.auctioneer == Some(self.me) {
            let before = *game;
            if self.replay_ran(game, turn, a.opening) {
                let finish = match (a.asset.taken, a.asset.discarded, a.asset.seat, a.asset.kind) {
                    (true, _, Some(seat), Some(kind)) => {
                        game.play(Command::TakeAsset { seat, kind }).is_ok()
                    }
                    (_, true, Some(seat), Some(kind)) => {
                        game.play(Command::DiscardAsset { seat, kind }).is_ok()
                    }
                    _ => true,
                };
                if finish && game.turn() > turn {
                    return Some(());
                }
            }
            *game = before;
        }
        let outcome = self.draw_outcome(a, industries, rng)?;
        self.realize(game, turn, &outcome, true, buf)
    }

    /// A guess at a hidden company price: what the winner's tile was worth to it then (its
    /// marginal VP, R-SCO-4…8, with its industry token of this world) at the price level the seat
    /// has seen, with noise; the caller raises it to what the deduction aid proves.
    fn price_guess(
        &self,
        a: &AuctionView,
        winner: Seat,
        industries: PerSeat<Industry>,
        rng: &mut Mix,
    ) -> u64 {
        let Some(tile) = a.tile else {
            return 0;
        };
        let mut tiles = 0u32;
        for b in &self.view.auctions()[..a.turn as usize] {
            if let (Some(w), Some(t)) = (b.winner, b.tile) {
                if w == winner {
                    tiles |= 1 << t.index();
                }
            }
        }
        let info = SeatInfo {
            nation: self.view.seats[winner].nation,
            industry: Some(industries[winner]),
            tiles,
            ..SeatInfo::default()
        };
        let worth = f64::from(marginal_vp(&self.rules, &info, tile).max(1));
        to_amount(self.per_vp * worth * (0.75 + 0.6 * rng.unit()))
    }

    /// The outcome of a finished auction with its hidden amounts drawn.
    fn draw_outcome(
        &self,
        a: &AuctionView,
        industries: PerSeat<Industry>,
        rng: &mut Mix,
    ) -> Option<Outcome> {
        let winner = a.winner?;
        let me = self.me;
        let opening = a.opening;
        let auctioneer = a.auctioneer;
        let my_bid = self.own[a.turn as usize];
        let third = assumed_third_tie(a, my_bid, me);
        let mut asset = Asset::None;
        let mut taker_price_known = None;
        if a.asset.taken {
            let seat = a.asset.seat?;
            taker_price_known = a.asset.price;
            asset = Asset::Taken {
                seat,
                price: a.asset.price.unwrap_or(0),
                kind: a.asset.kind?,
            };
        } else if a.asset.discarded {
            asset = Asset::Discarded {
                kind: a.asset.kind?,
            };
        }
        let auct_in_field = auctioneer.is_some() && auctioneer != Some(winner);
        // The company price (R-AUC-5): known, or drawn above what the deduction aid proves.
        let price = if let Some(p) = a.price {
            p
        } else {
            let floor =
                contest::winning_bid_floor(opening, my_bid.filter(|_| winner != me), Some(third));
            let mut lo = u64::try_from(floor).unwrap_or(u64::MAX);
            if let Asset::Taken { seat, .. } = asset {
                // The taker's price lies below the company price without asset rebids.
                if Some(seat) != auctioneer {
                    if let Some(q) = taker_price_known {
                        lo = lo.max(q.saturating_add(1));
                    }
                    if auct_in_field {
                        lo = lo.max(opening.unwrap_or(0).saturating_add(2));
                    }
                    if let (Some(b), false) = (my_bid, third) {
                        if me != winner && me != seat {
                            lo = lo.max(b.saturating_add(2));
                        }
                    }
                }
            }
            if self.zero_matters && !third && Some(winner) != auctioneer {
                // A bidder whose bid was not 0 bid below the winner, and not the opening bid
                // (R-AUC-3, R-AUC-11).
                let nonzero = (0..self.players())
                    .map(Seat)
                    .any(|s| s != winner && Some(s) != auctioneer && !a.zero_bids.contains(s));
                if nonzero {
                    lo = lo.max(if opening == Some(1) { 3 } else { 2 });
                }
            }
            lo.max(self.price_guess(a, winner, industries, rng))
        };
        // The asset price (R-COM-5): known, or drawn within the deduction aid's interval.
        if let Asset::Taken {
            seat,
            price: ref mut q,
            ..
        } = asset
        {
            if taker_price_known.is_none() {
                let rebid = !a.asset.ties[0].is_empty();
                if a.zero_bids.contains(seat) && !rebid {
                    *q = 0;
                } else {
                    // Above every other bid left in the field: at least 1 when another seat
                    // bid (R-COM-3).
                    let others = (0..self.players())
                        .map(Seat)
                        .filter(|&s| s != winner && s != seat && Some(s) != auctioneer)
                        .count();
                    let mut lo: u64 = u64::from(others > 0);
                    if auct_in_field && Some(seat) != auctioneer {
                        lo = opening.unwrap_or(0).saturating_add(1);
                    }
                    if let Some(b) = my_bid {
                        let in_field = !third || b < price;
                        if me != winner && me != seat && in_field && !rebid {
                            lo = lo.max(b.saturating_add(1));
                        }
                    }
                    let hi = price.saturating_sub(1).max(lo);
                    let span = hi - lo;
                    let u = rng.unit();
                    *q = lo + to_amount(u * u * span as f64).min(span);
                }
            }
        }
        Some(Outcome {
            auctioneer,
            opening,
            winner,
            price,
            price_known: a.price.is_some(),
            asset,
            asset_price_known: taker_price_known.is_some(),
            zero: a.zero_bids,
        })
    }

    /// Plays a realized auction into `game`: the bids, then the asset step. With `finish` false it
    /// stops before the take or discard (the current auction of a take or discard decision).
    /// Tries the plain realization, then one with hidden amounts moved into what the plain one
    /// needs, then one that keeps fewer of the view's small facts; `None` if none fits.
    fn realize(
        &self,
        game: &mut Game,
        turn: u8,
        outcome: &Outcome,
        finish: bool,
        buf: &mut Vec<Command>,
    ) -> Option<()> {
        let mut o = *outcome;
        for attempt in 0..3 {
            if attempt == 1 {
                // Hidden amounts (not the seat's own, not public) may move.
                loosen(&mut o);
            }
            let strict = self.zero_matters && attempt < 2;
            if attempt == 2 {
                force_feasible(&mut o);
            }
            if recipe(self.players(), &o, strict, finish, buf) {
                let before = *game;
                let ok = buf.iter().all(|&c| game.play(c).is_ok());
                let done = if finish {
                    game.turn() > turn
                } else {
                    game.turn() == turn
                };
                if ok && done {
                    return Some(());
                }
                *game = before;
            }
        }
        #[cfg(test)]
        std::eprintln!(
            "not realized: turn {turn} {outcome:?} phase {:?}",
            game.phase()
        );
        None
    }

    /// Rebuilds the current auction up to the decision, with the model's pending actions.
    fn current(
        &self,
        world: &mut Stage,
        rng: &mut Mix,
        provisional_opening: u64,
        buf: &mut Vec<Command>,
    ) -> Result<(), &'static str> {
        let view = self.view;
        let me = self.me;
        let turn = view.turn;
        let a = view
            .auctions
            .get(turn as usize)
            .filter(|_| turn < view.turns_started)
            .why("no current auction")?;
        let opening = a.opening;
        let auctioneer = a.auctioneer;
        let game = &mut world.game;
        match view.phase {
            Phase::OpeningBid { auctioneer } if auctioneer == me => {
                // The others answer a provisional opening; the candidates move it.
                let mut g = *game;
                g.play(Command::Bid {
                    seat: me,
                    amount: provisional_opening.max(1),
                })
                .why("a rebuilt command is illegal")?;
                for s in g.to_act().iter() {
                    let v = model_bid(&self.rules, &g, s, world.seed).why("model")?;
                    let v = self.sharpen(&g, s, v, world.seed);
                    world.pending[s] = Some(v);
                    world.standing[s] = Some(v);
                }
            }
            Phase::Bidding => {
                if let (Some(auct), Some(o)) = (auctioneer, opening) {
                    game.play(Command::Bid {
                        seat: auct,
                        amount: o,
                    })
                    .why("a rebuilt command is illegal")?;
                    world.standing[auct] = Some(o);
                }
                if !game.to_act().contains(me) {
                    return Err("rebuilt step differs");
                }
                for s in game.to_act().iter().filter(|&s| s != me) {
                    let v = model_bid(&self.rules, game, s, world.seed).why("model")?;
                    let v = self.sharpen(game, s, v, world.seed);
                    world.pending[s] = Some(v);
                    world.standing[s] = Some(v);
                }
            }
            Phase::Rebid { tie } => {
                let tied = a.ties[(tie as usize).checked_sub(1).why("tie")?];
                let y = view.bids[me].why("own bid")?;
                let (auct, o) = (auctioneer.why("auctioneer")?, opening.why("opening")?);
                game.play(Command::Bid {
                    seat: auct,
                    amount: o,
                })
                .why("a rebuilt command is illegal")?;
                world.standing[auct] = Some(o);
                // Secret bids: the tied seats at the top (R-AUC-6), the others below it.
                let mut secret = PerSeat::new([0u64; MAX_SEATS]);
                for s in game.to_act().iter() {
                    secret[s] = if tied.contains(s) {
                        y
                    } else {
                        let v = model_bid(&self.rules, game, s, world.seed).why("model")?;
                        below(v, y, Some(o), rng).why("below")?
                    };
                }
                for s in game.to_act().iter() {
                    game.play(Command::Bid {
                        seat: s,
                        amount: secret[s],
                    })
                    .why("a rebuilt command is illegal")?;
                    world.standing[s] = Some(secret[s]);
                }
                // Ties in a row (R-AUC-6): the tied seats again at the same amount.
                for _ in 1..tie {
                    for s in tied.iter() {
                        game.play(Command::Bid { seat: s, amount: y })
                            .why("a rebuilt command is illegal")?;
                    }
                }
                if game.phase() != view.phase || game.to_act() != tied {
                    return Err("rebuilt step differs");
                }
                for s in tied.iter().filter(|&s| s != me) {
                    let v = model_bid(&self.rules, game, s, world.seed).why("model")?;
                    world.pending[s] = Some(v);
                    world.standing[s] = Some(v);
                }
            }
            Phase::AssetRebid { tie } => {
                let group = a.asset.ties[0];
                let tied = a.asset.ties[(tie as usize).checked_sub(1).why("tie")?];
                let y = view.bids[me].why("own bid")?;
                let winner = a.winner.why("winner")?;
                // The tie for second (R-COM-4) was at the seat's final company bid.
                let y1 = if tie == 1 {
                    y
                } else {
                    self.own[turn as usize].unwrap_or_else(|| opening.map_or(1, |o| o + 1).max(1))
                };
                let price = if let Some(p) = a.price {
                    p
                } else {
                    let lo = y1
                        .saturating_add(1)
                        .max(opening.map_or(0, |o| o.saturating_add(1)));
                    lo.max(self.price_guess(a, winner, world.industries, rng))
                };
                if let (Some(auct), Some(o)) = (auctioneer, opening) {
                    game.play(Command::Bid {
                        seat: auct,
                        amount: o,
                    })
                    .why("a rebuilt command is illegal")?;
                }
                let mut bids = PerSeat::new([0u64; MAX_SEATS]);
                for s in game.to_act().iter() {
                    bids[s] = if s == winner {
                        price
                    } else if group.contains(s) {
                        y1
                    } else {
                        below(u64::MAX, y1, opening, rng).why("below")?
                    };
                }
                for s in game.to_act().iter() {
                    game.play(Command::Bid {
                        seat: s,
                        amount: bids[s],
                    })
                    .why("a rebuilt command is illegal")?;
                }
                if tie == 2 {
                    for s in group.iter() {
                        let v = if tied.contains(s) {
                            y
                        } else {
                            below(u64::MAX, y, opening, rng).why("below")?
                        };
                        bids[s] = v;
                        game.play(Command::Bid { seat: s, amount: v })
                            .why("a rebuilt command is illegal")?;
                    }
                }
                if game.phase() != view.phase || game.to_act() != tied {
                    return Err("rebuilt step differs");
                }
                for s in group.iter() {
                    world.standing[s] = Some(bids[s]);
                }
                for s in tied.iter().filter(|&s| s != me) {
                    let v = model_bid(&self.rules, game, s, world.seed).why("model")?;
                    world.pending[s] = Some(v);
                    world.standing[s] = Some(v);
                }
            }
            Phase::TakeAsset { seat } | Phase::DiscardAsset { seat } if seat == me => {
                let take = matches!(view.phase, Phase::TakeAsset { .. });
                let before = *game;
                let ran = auctioneer == Some(me) && self.replay_ran(game, turn, opening);
                if !ran || game.phase() != view.phase {
                    *game = before;
                    let price = view.bids[me].why("own bid")?;
                    let mut outcome = self
                        .draw_outcome_current(a, world.industries, rng)
                        .why("outcome")?;
                    outcome.asset = if take {
                        Asset::Taken {
                            seat: me,
                            price,
                            kind: AssetKind::Gold,
                        }
                    } else {
                        Asset::Discarded {
                            kind: AssetKind::Gold,
                        }
                    };
                    self.realize(game, turn, &outcome, false, buf)
                        .why("current auction not realized")?;
                }
                if game.phase() != view.phase {
                    return Err("rebuilt step differs");
                }
            }
            _ => return Err("no decision in this phase"),
        }
        Ok(())
    }

    /// The company outcome of the current auction (awarded, asset step pending).
    fn draw_outcome_current(
        &self,
        a: &AuctionView,
        industries: PerSeat<Industry>,
        rng: &mut Mix,
    ) -> Option<Outcome> {
        let mut copy = *a;
        copy.asset = crate::view::AssetView::default();
        self.draw_outcome(&copy, industries, rng)
    }
}

/// `?` with a reason.
trait Why<T> {
    fn why(self, reason: &'static str) -> Result<T, &'static str>;
}

impl<T> Why<T> for Option<T> {
    fn why(self, reason: &'static str) -> Result<T, &'static str> {
        self.ok_or(reason)
    }
}

impl<T, E> Why<T> for Result<T, E> {
    fn why(self, reason: &'static str) -> Result<T, &'static str> {
        self.map_err(|_| reason)
    }
}

/// `v` if it is below `cap` and not the opening bid, else a random amount that is (R-AUC-3).
fn below(v: u64, cap: u64, opening: Option<u64>, rng: &mut Mix) -> Option<u64> {
    if v < cap && opening != Some(v) {
        return Some(v);
    }
    for _ in 0..8 {
        let x = rng.below(cap.max(1));
        if x < cap && opening != Some(x) {
            return Some(x);
        }
    }
    (0..cap.min(3)).find(|&x| opening != Some(x))
}

/// The model's bid for `seat` in `game` (which must be waiting for its bid): the value bot's,
/// with noise from `seed`.
pub(super) fn model_bid(rules: &Rules, game: &Game, seat: Seat, seed: u64) -> Option<u64> {
    let mut bot = model(rules, seed, seat);
    let mut g = *game;
    // The value bot may peek first (5 players, R-VIS-5): then it bids with the price it saw.
    for _ in 0..2 {
        let view = g.view(seat);
        let range = view.legal.bid?;
        match bot.act(&view) {
            Some(Command::Bid { amount, .. }) => return Some(nearest_legal(&range, amount)),
            Some(peek @ Command::Peek { .. }) if g.play(peek).is_ok() => {}
            _ => return Some(nearest_legal(&range, range.min)),
        }
    }
    let range = g.bid_range(seat)?;
    Some(nearest_legal(&range, range.min))
}

/// A non-negative money amount as a bid (rounded, saturating).
pub(super) fn to_amount(x: f64) -> u64 {
    if x.is_nan() || x <= 0.0 {
        0
    } else if x >= 1.8e19 {
        u64::MAX
    } else {
        (x + 0.5) as u64
    }
}

/// Whether the sampled worlds take auction `a` to have been decided by a third tie (R-AUC-7): as
/// the view says when the seat sees it; when it is hidden (R-VIS-1), no, which every view allows
/// (the tied seats may have rebid below the winner), unless the seat lost with a final bid above a
/// price it sees, which only a third tie explains.
fn assumed_third_tie(a: &AuctionView, my_bid: Option<u64>, me: Seat) -> bool {
    a.third_tie.unwrap_or(match (a.price, my_bid) {
        (Some(p), Some(b)) => a.winner != Some(me) && set_aside_by_third_tie(b, p),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::super::Mix;
    use super::Knowledge;
    use crate::bots::{Bot, RandomBot, ValueBot};
    use crate::phase::Phase;
    use crate::rules::Rules;
    use crate::session::Match;
    use crate::view::SeatView;

    /// What a sampled world must keep of the seat's view: everything the rest of the game
    /// depends on, and everything the seat itself sees of the current step.
    fn kept(v: &SeatView) -> impl PartialEq + core::fmt::Debug {
        let me = v.seat.unwrap();
        let seats: Vec<_> = v
            .seats
            .in_play(v.players)
            .iter()
            .map(|s| (s.nation, s.tiles, s.zero_marks, s.assets, s.peeked))
            .collect();
        let auctions: Vec<_> = v
            .auctions()
            .iter()
            .map(|a| {
                (
                    a.tile,
                    a.auctioneer,
                    a.opening,
                    a.awarded,
                    a.winner,
                    a.asset.taken,
                    a.asset.discarded,
                    a.asset.seat,
                    a.asset.kind,
                    a.asset.token,
                )
            })
            .collect();
        (
            (v.phase, v.turn, v.tile, v.legal, v.to_act.contains(me)),
            (v.deck_remaining, v.piles_remaining, v.bids[me]),
            (v.seats[me].spent, v.seats[me].industry),
            seats,
            auctions,
        )
    }

    /// Two ties in a row, then seat 1 wins at 3 with no third tie; seat 2, which does not run the
    /// auction, cannot see whether a third tie decided it (R-VIS-1). Its worlds must still keep
    /// the public zero-bid marks (R-AUC-11): only seat 3 bid 0.
    #[test]
    fn worlds_keep_the_zero_marks_when_a_third_tie_is_hidden() {
        use crate::command::Command;
        use crate::seat::Seat;
        let rules = Rules::base(4).unwrap();
        let mut m = Match::seeded(rules, 7);
        let bids = [
            (0, 1),
            (1, 2),
            (2, 2),
            (3, 0),
            (1, 2),
            (2, 2),
            (1, 3),
            (2, 2),
            (1, 2),
        ];
        for (seat, amount) in bids {
            m.apply(Command::Bid {
                seat: Seat(seat),
                amount,
            })
            .unwrap();
        }
        let mv = m.view(Some(Seat(2)));
        assert_eq!(mv.view.auctions[0].third_tie, None);
        let know = Knowledge::new(&mv.view, &mv.bid_history, rules).unwrap();
        let mut rng = Mix(1);
        for _ in 0..200 {
            let w = know.sample(&mut rng, 5).unwrap();
            assert_eq!(kept(&w.game.view(Seat(2))), kept(&mv.view));
        }
    }

    /// A third company tie sets every other bidder aside (R-AUC-7) and the seat, alone in the
    /// asset field, takes the asset at 0 (R-COM-3): worlds rebuild it, at the take and after.
    #[test]
    fn worlds_rebuild_a_field_emptied_by_a_third_tie() {
        use crate::command::Command;
        use crate::components::AssetKind;
        use crate::seat::Seat;
        let rules = Rules::commodities(5).unwrap();
        let mut m = Match::seeded(rules, 3);
        let bid = |seat: u8, amount: u64| Command::Bid {
            seat: Seat(seat),
            amount,
        };
        // Turn 0: seat 0 opens and wins; everyone else bids 0 three times (no taker).
        for c in [bid(0, 2), bid(1, 0), bid(2, 0), bid(3, 0), bid(4, 0)] {
            m.apply(c).unwrap();
        }
        for _ in 0..2 {
            for s in 1..5 {
                m.apply(bid(s, 0)).unwrap();
            }
        }
        m.apply(Command::DiscardAsset {
            seat: Seat(0),
            kind: AssetKind::Gold,
        })
        .unwrap();
        // Turn 1: seat 1 opens at 1; seats 2, 3, 4 tie at 5 three times; seat 0 bids 0.
        for c in [bid(1, 1), bid(0, 0), bid(2, 5), bid(3, 5), bid(4, 5)] {
            m.apply(c).unwrap();
        }
        for _ in 0..2 {
            for s in 2..5 {
                m.apply(bid(s, 5)).unwrap();
            }
        }
        assert_eq!(
            m.view(Some(Seat(0))).view.phase,
            Phase::TakeAsset { seat: Seat(0) }
        );
        let mut rng = Mix(1);
        let check = |m: &Match, rng: &mut Mix| {
            let mv = m.view(Some(Seat(0)));
            let know = Knowledge::new(&mv.view, &mv.bid_history, rules).unwrap();
            for _ in 0..4 {
                let world = know.sample(rng, 3).unwrap();
                assert_eq!(kept(&world.game.view(Seat(0))), kept(&mv.view));
            }
        };
        check(&m, &mut rng);
        m.apply(Command::TakeAsset {
            seat: Seat(0),
            kind: AssetKind::Oil,
        })
        .unwrap();
        m.apply(bid(2, 3)).unwrap(); // turn 2: seat 2 opens; seat 0 must bid
        check(&m, &mut rng);
    }

    /// Sampled worlds keep what the seat knows, in every configuration, with random and value
    /// bots (random bids make ties, third ties and asset rebids common).
    #[test]
    fn worlds_keep_what_the_seat_knows() {
        let mut checked = 0;
        for players in 3..=5u8 {
            for commodities in [false, true] {
                let rules = if commodities {
                    Rules::commodities(players).unwrap()
                } else {
                    Rules::base(players).unwrap()
                };
                for seed in 0..24u64 {
                    let mut m = Match::seeded(rules, seed);
                    let mut random: Vec<RandomBot> =
                        (0..5).map(|s| RandomBot::new(seed * 10 + s)).collect();
                    let mut value: Vec<ValueBot> =
                        (0..5).map(|s| ValueBot::new(seed * 10 + s)).collect();
                    let mut rng = Mix(seed);
                    while !m.game().is_over() {
                        let seat = m.game().to_act().first().unwrap();
                        let mv = m.view(Some(seat));
                        let know = Knowledge::new(&mv.view, &mv.bid_history, rules).unwrap();
                        for _ in 0..2 {
                            let world = know.sample(&mut rng, 5).unwrap_or_else(|e| {
                                panic!("no world for {seat:?} at {:?}: {e}", mv.view.phase)
                            });
                            assert_eq!(
                                kept(&world.game.view(seat)),
                                kept(&mv.view),
                                "{players} players, commodities {commodities}, seed {seed}, {seat:?}"
                            );
                            checked += 1;
                        }
                        let bot: &mut dyn Bot = if (m.commands().len() + seed as usize) % 3 == 0 {
                            &mut value[seat.index()]
                        } else {
                            &mut random[seat.index()]
                        };
                        let c = bot.act(&m.game().view(seat)).unwrap();
                        m.apply(c).unwrap();
                    }
                }
            }
        }
        assert!(checked > 1000);
    }

    /// Draws `n` worlds for the seat to act at the start of a seeded 4-player game.
    fn worlds(seed: u64, n: usize) -> (SeatView, Vec<super::World>) {
        let rules = Rules::base(4).unwrap();
        let m = Match::seeded(rules, seed);
        let seat = m.game().to_act().first().unwrap();
        let mv = m.view(Some(seat));
        let know = Knowledge::new(&mv.view, &mv.bid_history, rules).unwrap();
        let mut rng = Mix(seed + 4);
        let drawn = (0..n)
            .filter_map(|_| know.sample(&mut rng, 5).ok())
            .collect();
        (mv.view, drawn)
    }

    /// The candidate bids go one above each rival's modelled standing amount, whichever seat
    /// the rival is (here seat 1, when seat 2 searches).
    #[test]
    fn candidate_bids_answer_every_rival() {
        let rules = Rules::base(4).unwrap();
        let mut m = Match::seeded(rules, 1);
        let opening = crate::command::Command::Bid {
            seat: crate::seat::Seat(0),
            amount: 3,
        };
        m.apply(opening).unwrap();
        let me = crate::seat::Seat(2);
        let mv = m.view(Some(me));
        let know = Knowledge::new(&mv.view, &mv.bid_history, rules).unwrap();
        let mut world = know.sample(&mut Mix(5), 5).unwrap();
        world.standing = crate::seat::PerSeat::new([None; crate::seat::MAX_SEATS]);
        world.standing[crate::seat::Seat(1)] = Some(50);
        let range = mv.view.legal.bid.unwrap();
        let start = super::super::candidates::Choice::Bid(range.min);
        let candidates =
            super::super::candidates::bid_candidates(&[world], me, range, start, 12, false);
        assert!(
            candidates.contains(&super::super::candidates::Choice::Bid(51)),
            "{candidates:?}"
        );
    }

    /// The hidden facts are drawn over every possibility, not a fixed part of them (R-VIS-6,
    /// R-CMP-6): the next tile varies from world to world, and each other seat is dealt each of
    /// the tokens the searcher does not hold in some world (a shuffle that never leaves an item
    /// in place, or that skips the first unrevealed tile, keeps every world consistent but not
    /// these).
    #[test]
    fn worlds_draw_the_next_tile_and_the_others_tokens_over_every_possibility() {
        let (view, drawn) = worlds(3, 200);
        assert!(drawn.len() > 150);
        let me = view.seat.unwrap();
        let shown = view.turns_started as usize;
        let mut next: Vec<_> = drawn
            .iter()
            .map(|w| w.game.setup_ref().deck()[shown])
            .collect();
        next.sort_unstable();
        next.dedup();
        assert!(next.len() > 3, "{next:?}");
        let mine = view.seats[me].industry.unwrap();
        for s in (0..4).filter(|&s| s != me.index()) {
            for t in crate::setup::deal_tokens(4).iter().filter(|&&t| t != mine) {
                assert!(
                    drawn
                        .iter()
                        .any(|w| w.game.setup_ref().industries()[s] == *t),
                    "seat {s} is never dealt {t:?}"
                );
            }
        }
    }
}
