//! Policies that decide from what one seat may know (never the full game), deterministic for a
//! given seed: the baselines [`RandomBot`] (`random`), [`MiserBot`] (`miser`) and [`ValueBot`]
//! (`value`), which read a [`SeatView`], and the [`SearchBot`] (`search:easy`, `search:medium`,
//! `search:hard`, `search:mixed`; `search` is `search:medium`), which also reads the seat's bid history
//! ([`MatchView`]) and plays out sampled games. Each handles every decision: opening bid, secret
//! bid, rebid, asset rebid, take or discard an asset, and the 5-player peek. [`by_name`] builds one
//! from its name (as the `qe` command's `--bots` does); [`NAMES`] lists every name.
//!
//! ```
//! use qe_core::bots::{Bot, RandomBot};
//! use qe_core::{Game, Rules};
//! let mut game = Game::seeded(Rules::commodities(5).unwrap(), 1);
//! let mut bots: Vec<RandomBot> = (0..5).map(|s| RandomBot::new(100 + s)).collect();
//! while !game.is_over() {
//!     let seat = game.to_act().first().unwrap();
//!     let command = bots[seat.index()].act(&game.view(seat)).unwrap();
//!     game.apply(command).unwrap();
//! }
//! assert!(game.outcome().is_some());
//! ```

use alloc::boxed::Box;

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::command::Command;
use crate::components::{AssetKind, Manifest, TileId};
use crate::legal::{BidRange, Legal, PileSet};
use crate::phase::Phase;
use crate::rules::{Rules, RulesBuilder};
use crate::scoring::tile_points;
use crate::seat::{PerSeat, Seat, MAX_SEATS};
use crate::session::MatchView;
use crate::view::{SeatInfo, SeatView};

mod named;
pub mod search;
pub use named::{decide, NamedBot};
pub use search::{Level, SearchBot, SearchConfig, SearchStats};

/// A policy for one seat.
///
/// A bot decides from what its seat may know only: its [`SeatView`], and for a bot that
/// [`Bot::uses_history`], its seat's bid history (a [`MatchView`]). It cannot use what its seat may
/// not know (R-VIS-8).
///
/// ```
/// use qe_core::bots::Bot;
/// use qe_core::{Command, Game, Rules, SeatView};
/// /// Bids the least it may.
/// struct Least;
/// impl Bot for Least {
///     fn act(&mut self, view: &SeatView) -> Option<Command> {
///         let (seat, range) = (view.seat?, view.legal.bid?);
///         Some(Command::Bid { seat, amount: range.min })
///     }
/// }
/// let mut game = Game::seeded(Rules::base(4).unwrap(), 1);
/// while let Some(seat) = game.to_act().first() {
///     game.apply(Least.act(&game.view(seat)).unwrap()).unwrap();
/// }
/// assert_eq!(Least.act(&game.public_view()), None); // a spectator has nothing to do
/// assert!(!Least.uses_history());
/// ```
pub trait Bot {
    /// The command this seat plays now, given its view; `None` when it has nothing to do.
    fn act(&mut self, view: &SeatView) -> Option<Command>;

    /// The command this seat plays now, given its view with its bid history
    /// ([`Match::view`](crate::Match::view)). The default ignores the history; bots that read it
    /// say so with [`Bot::uses_history`].
    fn act_with_history(&mut self, view: &MatchView) -> Option<Command> {
        self.act(&view.view)
    }

    /// Whether [`Bot::act_with_history`] reads the history (callers that have only a
    /// [`Game`](crate::Game) build it only for such bots).
    fn uses_history(&self) -> bool {
        false
    }

    /// Where the bot's random streams are: with the name, seed and manifest it was built from,
    /// all a bot built again needs to decide as this one will ([`Bot::set_streams`];
    /// [`NamedBot::streams`]). `[0, 0]` for a bot without random state.
    fn streams(&self) -> Streams {
        [0, 0]
    }

    /// Moves the bot's random streams to `streams` (from [`Bot::streams`] of a bot of the same
    /// kind and seed); a bot without random state ignores it.
    fn set_streams(&mut self, streams: Streams) {
        let _ = streams;
    }
}

/// The position of a bot's random streams ([`Bot::streams`]): plain numbers, so a binding can
/// save a bot as data (its name, seed, manifest and these) and build it again.
pub type Streams = [u128; 2];

/// The default bid ladder of the random bot: small amounts, then roughly doubling (the
/// encoding's default ladder, [`crate::encoding::LADDER`]).
pub use crate::encoding::LADDER;

/// The legal amount nearest `amount` from above (the forbidden value is skipped upward; an amount
/// below the minimum becomes the minimum).
pub fn nearest_legal(range: &BidRange, amount: u64) -> u64 {
    let a = amount.max(range.min);
    if Some(a) == range.forbidden {
        a.checked_add(1).unwrap_or(a - 1)
    } else {
        a
    }
}

/// Picks the pile command (take or discard) from the legal piles, by `pick` among them.
fn pile_command(view: &SeatView, legal: &Legal, pick: u32) -> Option<Command> {
    let seat = view.seat?;
    if !legal.take.is_empty() {
        let n = legal.take.iter().count() as u32;
        let kind = legal.take.iter().nth((pick % n) as usize)?;
        return Some(Command::TakeAsset { seat, kind });
    }
    if !legal.discard.is_empty() {
        let n = legal.discard.iter().count() as u32;
        let kind = legal.discard.iter().nth((pick % n) as usize)?;
        return Some(Command::DiscardAsset { seat, kind });
    }
    None
}

/// Bids a uniformly random rung of [`LADDER`] (moved to the nearest legal amount), picks piles at
/// random, and (5 players) sometimes peeks at a random legal auction.
///
/// Its choices are always legal, and the same seed makes the same choices:
///
/// ```
/// use qe_core::bots::{Bot, RandomBot};
/// use qe_core::{Game, Rules};
/// let play = |seed: u64| {
///     let mut game = Game::seeded(Rules::base(5).unwrap(), 1);
///     let mut bot = RandomBot::new(seed);
///     while let Some(seat) = game.to_act().first() {
///         game.apply(bot.act(&game.view(seat)).unwrap()).unwrap();
///     }
///     game.outcome().unwrap()
/// };
/// assert_eq!(play(7), play(7));
/// assert_ne!(play(7), play(8));
/// ```
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    /// A random bot with its own seed.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Bot for RandomBot {
    fn streams(&self) -> Streams {
        [self.rng.get_word_pos(), 0]
    }

    fn set_streams(&mut self, streams: Streams) {
        self.rng.set_word_pos(streams[0]);
    }

    fn act(&mut self, view: &SeatView) -> Option<Command> {
        let seat = view.seat?;
        let legal = view.legal;
        if legal.peek != 0 && self.rng.next_u32() % 8 == 0 {
            let turns: u32 = legal.peek.count_ones();
            let k = self.rng.next_u32() % turns;
            let turn = (0..16u8)
                .filter(|t| legal.peek & (1 << t) != 0)
                .nth(k as usize)?;
            return Some(Command::Peek { seat, turn });
        }
        if let Some(range) = legal.bid {
            let rung = LADDER[(self.rng.next_u32() as usize) % LADDER.len()];
            return Some(Command::Bid {
                seat,
                amount: nearest_legal(&range, rung),
            });
        }
        let pick = self.rng.next_u32();
        pile_command(view, &legal, pick)
    }
}

/// Bids zero (or the minimum) whenever allowed; takes or discards from the first legal pile.
#[derive(Clone, Debug, Default)]
pub struct MiserBot;

impl Bot for MiserBot {
    fn act(&mut self, view: &SeatView) -> Option<Command> {
        let seat = view.seat?;
        let legal = view.legal;
        if let Some(range) = legal.bid {
            return Some(Command::Bid {
                seat,
                amount: nearest_legal(&range, range.min),
            });
        }
        pile_command(view, &legal, 0)
    }
}

/// The names [`by_name`] accepts, in the order they are documented: the one list of bot names
/// (the `qe` command, the C ABI and the Python package take theirs from here). `search` is
/// `search:medium`; `search:mixed` is `search:medium` drawing its secret bids of the last auctions from the mixed
/// strategy of regret matching for every bidder ([`SearchConfig::mixed`]), seeded like every bot. Besides these, [`by_name`] takes the timed search bot `search:ms=MS`
/// ([`TIMED_NAME`], [`is_name`]).
pub const NAMES: [&str; 8] = [
    "random",
    "miser",
    "value",
    "search",
    "search:easy",
    "search:medium",
    "search:hard",
    "search:mixed",
];

/// The pattern of the timed search bot's names: `search:ms=MS`, a search bot that spends about
/// `MS` milliseconds of wall-clock time on a decision (1 to [`MAX_MILLIS`], decimal digits, no
/// leading zero; [`SearchConfig::timed`]). Not deterministic: what it decides depends on the
/// machine's speed and load. Only where a clock is available (with the `std` feature, not on
/// `wasm32-unknown-unknown`); elsewhere [`by_name`] refuses the name.
pub const TIMED_NAME: &str = "search:ms=MS";

/// The longest time per decision of `search:ms=MS`: a minute.
pub const MAX_MILLIS: u32 = 60_000;

/// The search configuration a search bot's name stands for (`search`, `search:LEVEL`,
/// `search:mixed`, `search:ms=MS`); `None` for any other name, and for `search:ms=MS` where no clock is
/// available.
pub fn search_config(name: &str) -> Option<SearchConfig> {
    let rest = name.strip_prefix("search")?;
    if rest.is_empty() {
        return Some(Level::Medium.config());
    }
    let rest = rest.strip_prefix(':')?;
    if rest == "mixed" {
        return Some(SearchConfig {
            mixed: true,
            ..Level::Medium.config()
        });
    }
    if let Some(ms) = rest.strip_prefix("ms=") {
        let digits_only = !ms.is_empty() && ms.bytes().all(|b| b.is_ascii_digit());
        if !digits_only || ms.starts_with('0') || ms.len() > 5 {
            return None;
        }
        let millis: u32 = ms.parse().ok()?;
        return SearchConfig::timed(millis).filter(|_| millis <= MAX_MILLIS);
    }
    Level::from_name(rest).map(Level::config)
}

/// Whether [`by_name`] builds a bot of this name: one of [`NAMES`], or a timed search bot
/// (`search:ms=MS`, [`TIMED_NAME`]) where a clock is available.
pub fn is_name(name: &str) -> bool {
    NAMES.contains(&name) || search_config(name).is_some()
}

/// A boxed bot, as built by [`by_name`].
pub type BoxedBot = Box<dyn Bot + Send>;

/// Builds a bot from its name (see [`NAMES`]; also `search:ms=MS`, [`TIMED_NAME`]) and seed, with the default manifest; `None` for an
/// unknown name.
///
/// ```
/// use qe_core::bots::{by_name, Bot};
/// use qe_core::{Game, Rules};
/// let mut game = Game::seeded(Rules::commodities(4).unwrap(), 7);
/// let mut bots: Vec<_> = ["value", "random", "miser", "value"]
///     .iter()
///     .enumerate()
///     .map(|(s, name)| by_name(name, s as u64).unwrap())
///     .collect();
/// while !game.is_over() {
///     let seat = game.to_act().first().unwrap();
///     let command = bots[seat.index()].act(&game.view(seat)).unwrap();
///     game.apply(command).unwrap();
/// }
/// assert!(by_name("oracle", 0).is_none());
/// ```
pub fn by_name(name: &str, seed: u64) -> Option<BoxedBot> {
    by_name_with(name, seed, Manifest::default())
}

/// As [`by_name`], for a game played with `manifest` (the printed values are public, R-VIS-1; the
/// `value` bot uses them).
pub fn by_name_with(name: &str, seed: u64, manifest: Manifest) -> Option<BoxedBot> {
    match name {
        "random" => Some(Box::new(RandomBot::new(seed))),
        "miser" => Some(Box::new(MiserBot)),
        "value" => Some(Box::new(ValueBot::with_manifest(seed, manifest))),
        _ => Some(Box::new(SearchBot::with_config(
            search_config(name)?,
            seed,
            manifest,
        ))),
    }
}

/// A heuristic bidder. It values the tile up for auction by its marginal VP for this seat: the printed
/// value plus the change in nationalization (R-SCO-6), monopolization (R-SCO-7) and diversification
/// (R-SCO-8) it would bring, and turns VP into money with the price level it has learned from its own
/// view (the prices it saw, R-VIS-2…5, and the public opening bids, R-VIS-1), clamped to the spend
/// bounds the view proves ([`SeatView::deduce`]). It keeps its total spent
/// below what it estimates the biggest spender among the others has spent (R-SCO-2), takes the zero-bid
/// VP when a tile is worth little to it (R-AUC-11), picks asset piles by expected value (R-COM-5, R-COM-9)
/// and, with 5 players, peeks once in the second half of the game (R-VIS-5).
///
/// It decides from its [`SeatView`] only; its randomness (a little noise on each bid) comes from its
/// seed, so it is deterministic given the seed.
///
/// ```
/// use qe_core::bots::{Bot, ValueBot};
/// use qe_core::{Command, Game, Rules, Seat};
/// let mut game = Game::seeded(Rules::base(4).unwrap(), 8);
/// game.apply(Command::Bid { seat: Seat(0), amount: 3 }).unwrap();
/// let view = game.view(Seat(1));
/// let command = ValueBot::new(5).act(&view).unwrap();
/// assert_eq!(ValueBot::new(5).act(&view), Some(command)); // same seed, same view, same bid
/// let Command::Bid { seat, amount } = command else { panic!("it must bid") };
/// assert_eq!(seat, Seat(1));
/// assert!(view.legal.bid.unwrap().allows(amount)); // never the opening bid (R-AUC-3)
/// assert_eq!(ValueBot::new(5).act(&game.view(Seat(0))), None); // the auctioneer has bid
/// ```
#[derive(Clone, Debug)]
pub struct ValueBot {
    rng: ChaCha8Rng,
    manifest: Manifest,
    rules: Option<Rules>,
}

impl ValueBot {
    /// A value bot with the default manifest.
    pub fn new(seed: u64) -> ValueBot {
        ValueBot::with_manifest(seed, Manifest::default())
    }

    /// A value bot for a game played with `manifest`.
    pub fn with_manifest(seed: u64, manifest: Manifest) -> ValueBot {
        ValueBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
            manifest,
            rules: None,
        }
    }

    /// The rules of the viewed game (cached): player count and expansion from the view, values from
    /// the manifest.
    fn rules(&mut self, view: &SeatView) -> Rules {
        match self.rules {
            Some(r) if r.players() == view.players && r.expansions() == view.expansions => r,
            _ => {
                let r = RulesBuilder::new(view.players)
                    .expansions(view.expansions)
                    .manifest(self.manifest)
                    .build()
                    .or_else(|_| {
                        RulesBuilder::new(view.players)
                            .expansions(view.expansions)
                            .build()
                    })
                    .expect("a view has 3 to 5 players");
                self.rules = Some(r);
                r
            }
        }
    }

    /// A noise factor in `[0.85, 1.15)`.
    fn noise(&mut self) -> f64 {
        0.85 + f64::from(self.rng.next_u32() % 1000) * 0.0003
    }
}

/// The marginal VP of `tile` for the seat described by `info`.
fn marginal_vp(rules: &Rules, info: &SeatInfo, tile: TileId) -> u32 {
    let before = tile_points(rules, info.nation, info.industry, info.tiles).total();
    let after = tile_points(
        rules,
        info.nation,
        info.industry,
        info.tiles | (1 << tile.index()),
    )
    .total();
    after.saturating_sub(before)
}

/// The mean VP value of the tokens of `kind`.
#[allow(clippy::cast_precision_loss)]
fn mean_token(rules: &Rules, kind: AssetKind) -> f64 {
    let values = rules.manifest().token_values(kind);
    if values.is_empty() {
        return 0.0;
    }
    values.iter().map(|&v| f64::from(v)).sum::<f64>() / values.len() as f64
}

/// What the bot has learned of the price level from its view.
struct Prices {
    /// Money per VP.
    per_vp: f64,
    /// The mean price of a tile.
    per_tile: f64,
    /// The estimated total spent of each seat (exact for itself).
    spent: PerSeat<f64>,
}

#[allow(clippy::cast_precision_loss)]
fn learn(rules: &Rules, view: &SeatView, me: Seat) -> Prices {
    // Prior: 2 per VP, worth three observed VP.
    let (mut money, mut vp) = (6.0f64, 3.0f64);
    let (mut price_sum, mut price_count) = (0.0f64, 0.0f64);
    for a in view.auctions() {
        let Some(tile) = a.tile else { continue };
        let worth = f64::from(rules.manifest().tile_value(tile)) + 2.0;
        if let (Some(p), Some(_)) = (a.price, a.winner) {
            money += 2.0 * p as f64;
            vp += 2.0 * worth;
            price_sum += p as f64;
            price_count += 1.0;
        }
        if let Some(o) = a.opening {
            money += o as f64;
            vp += worth;
        }
    }
    let per_vp = money / vp;
    let per_tile = if price_count > 0.0 {
        price_sum / price_count
    } else {
        per_vp * 5.0
    };
    let mut spent = PerSeat::new([0.0; MAX_SEATS]);
    for a in view.auctions() {
        if let (Some(w), true) = (a.winner, a.awarded) {
            spent[w] += a.price.map_or(per_tile, |p| p as f64);
        }
    }
    // What the view proves (crate::deduction): every estimate is kept within the seat's bounds, and
    // the bounds also count asset prices and credits (R-COM-8), which the estimate above ignores.
    let bounds = view.deduce();
    for (seat, b) in bounds.seats.seats().take(view.players as usize) {
        spent[seat] = spent[seat].clamp(b.lower as f64, b.upper as f64);
    }
    if let Some(s) = view.seats[me].spent {
        spent[me] = s as f64;
    }
    Prices {
        per_vp,
        per_tile,
        spent,
    }
}

/// Converts a non-negative money amount to a bid (rounded, saturating).
fn to_bid(x: f64) -> u64 {
    if x.is_nan() || x <= 0.0 {
        0
    } else {
        (x + 0.5) as u64
    }
}

impl ValueBot {
    #[allow(clippy::cast_precision_loss)]
    fn bid(&mut self, view: &SeatView, me: Seat, range: BidRange) -> u64 {
        let rules = self.rules(view);
        let prices = learn(&rules, view, me);
        let info = view.seats[me];
        let n = view.players as usize;
        let noise = self.noise();

        // The worth of what is being bid for, in VP.
        let asset_step = matches!(view.phase, Phase::AssetRebid { .. });
        let worth_vp = if asset_step {
            // Rebidding for an asset (R-COM-4): the best pile's expected value, discounted.
            AssetKind::ALL
                .iter()
                .filter(|k| view.piles_remaining[k.index()] > 0)
                .map(|&k| mean_token(&rules, k))
                .fold(0.0, f64::max)
                * 0.6
        } else {
            view.tile
                .map_or(0.0, |t| f64::from(marginal_vp(&rules, &info, t)))
        };
        let mut want = worth_vp * prices.per_vp * noise;
        if matches!(view.phase, Phase::Rebid { .. }) {
            // A tie means another seat values it as much: go a little higher (R-AUC-6).
            want += 1.0 + f64::from(self.rng.next_u32() % 3);
        }

        // Zero-bid VP (R-AUC-11): take it when the tile is worth little to this seat.
        let round = rules.round(view.turn);
        let zero_open = rules.zero_bid_vp > 0
            && rules.reveals_zero_bids()
            && info.zero_marks & (1 << round) == 0
            && range.allows(0);
        if zero_open && !asset_step && worth_vp <= f64::from(rules.zero_bid_vp) + 1.0 {
            return 0;
        }

        // Stay below the biggest spender among the others (R-SCO-2), with slack that shrinks as the
        // game goes on.
        let mine = prices.spent[me];
        let top_other = prices
            .spent
            .seats()
            .take(n)
            .filter(|&(s, _)| s != me)
            .map(|(_, &v)| v)
            .fold(0.0, f64::max);
        let left = f64::from(view.turns.saturating_sub(view.turn));
        let slack = 0.35 * prices.per_tile * left / n as f64;
        let cap = (top_other + slack - mine).max(0.0);
        if want > cap {
            want = cap;
        }
        nearest_legal(&range, to_bid(want))
    }

    /// The expected VP of taking the top token of `kind` (R-COM-9 gold crash and oil majority).
    fn pile_worth(rules: &Rules, view: &SeatView, me: Seat, kind: AssetKind) -> f64 {
        let mut worth = mean_token(rules, kind);
        let left = f64::from(view.turns.saturating_sub(view.turn));
        let remaining = f64::from(view.piles_remaining[kind.index()]);
        match kind {
            AssetKind::Gold if remaining <= left / 2.0 + 1.0 => {
                worth -= f64::from(rules.gold_crash) * 0.7;
            }
            AssetKind::Oil => {
                let mine = view.seats[me].assets[1];
                let top = (view.seats.seats().take(view.players as usize))
                    .filter(|&(s, _)| s != me)
                    .map(|(_, info)| info.assets[1])
                    .max()
                    .unwrap_or(0);
                if mine + 1 >= top {
                    worth += f64::from(rules.oil_majority) / 2.0;
                }
            }
            _ => {}
        }
        worth
    }

    fn pile(&mut self, view: &SeatView, me: Seat, legal: &Legal) -> Option<Command> {
        let rules = self.rules(view);
        let best = |piles: PileSet, sign: f64| {
            piles.iter().fold(None, |acc: Option<(AssetKind, f64)>, k| {
                let w = sign * ValueBot::pile_worth(&rules, view, me, k);
                match acc {
                    Some((_, bw)) if bw >= w => acc,
                    _ => Some((k, w)),
                }
            })
        };
        if let Some((kind, _)) = best(legal.take, 1.0) {
            return Some(Command::TakeAsset { seat: me, kind });
        }
        // Discard (R-COM-7): take the most valuable token out of the others' reach, except gold when
        // it holds gold (an emptier gold pile brings its own crash closer).
        let holds_gold = view.seats[me].assets[0] > 0;
        let mut piles = legal.discard;
        if holds_gold && piles.0 != PileSet(1).0 && piles.contains(AssetKind::Gold) {
            piles = PileSet(piles.0 & !1);
        }
        best(piles, 1.0).map(|(kind, _)| Command::DiscardAsset { seat: me, kind })
    }
}

impl Bot for ValueBot {
    fn streams(&self) -> Streams {
        [self.rng.get_word_pos(), 0]
    }

    fn set_streams(&mut self, streams: Streams) {
        self.rng.set_word_pos(streams[0]);
    }

    fn act(&mut self, view: &SeatView) -> Option<Command> {
        if !view.is_well_formed() {
            return None;
        }
        let me = view.seat?;
        let legal = view.legal;
        // R-VIS-5: once, in the second half, at the priciest-looking auction it cannot see.
        if legal.peek != 0 && view.turn * 2 >= view.turns {
            let rules = self.rules(view);
            let turn = view
                .auctions()
                .iter()
                .filter(|a| legal.peek & (1 << a.turn) != 0)
                .max_by_key(|a| a.tile.map_or(0, |t| rules.manifest().tile_value(t)))
                .map(|a| a.turn);
            if let Some(turn) = turn {
                return Some(Command::Peek { seat: me, turn });
            }
        }
        if let Some(range) = legal.bid {
            return Some(Command::Bid {
                seat: me,
                amount: self.bid(view, me, range),
            });
        }
        self.pile(view, me, &legal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;

    /// Seat 0's view of a 3-player Commodities game after it took a gold token on turn 0.
    fn holding_gold() -> SeatView {
        let mut game = Game::seeded(Rules::commodities(3).unwrap(), 1);
        for (seat, amount) in [(0, 5), (1, 9), (2, 3)] {
            game.apply(Command::Bid {
                seat: Seat(seat),
                amount,
            })
            .unwrap();
        }
        game.apply(Command::TakeAsset {
            seat: Seat(0),
            kind: AssetKind::Gold,
        })
        .unwrap();
        game.view(Seat(0))
    }

    #[test]
    fn the_value_bot_keeps_gold_in_its_pile_while_it_holds_gold() {
        // Discarding (R-COM-7) while holding gold: never from the gold pile while another is
        // legal; from it when it is the only one.
        let view = holding_gold();
        let discard = |bits| {
            let legal = Legal {
                discard: PileSet(bits),
                ..Legal::default()
            };
            ValueBot::new(1).pile(&view, Seat(0), &legal)
        };
        let kind_of = |c: Option<Command>| match c {
            Some(Command::DiscardAsset { kind, .. }) => kind,
            other => panic!("{other:?}"),
        };
        let gold = 1 << AssetKind::Gold.index();
        for other in [AssetKind::Oil, AssetKind::Crypto] {
            assert_eq!(kind_of(discard(gold | 1 << other.index())), other);
        }
        assert_eq!(kind_of(discard(gold)), AssetKind::Gold);
    }

    #[test]
    fn the_value_bot_reads_the_rules_of_each_game_it_is_shown() {
        let mut bot = ValueBot::new(1);
        let base = Game::seeded(Rules::base(3).unwrap(), 1).view(Seat(0));
        assert!(!bot.rules(&base).has_commodities());
        assert!(bot.rules(&holding_gold()).has_commodities());
        assert!(!bot.rules(&base).has_commodities());
        let five = Game::seeded(Rules::base(5).unwrap(), 1).view(Seat(0));
        assert_eq!(bot.rules(&five).players(), 5);
    }
}
