//! Asking a bot for a seat's command in a [`Match`]: [`decide`] hands the bot the seat's bid
//! history when it reads it, and [`NamedBot`] also follows the game's manifest. Every binding asks
//! its bots through these, so a bot decides alike in the `qe` command, the C ABI and Python.

use alloc::string::{String, ToString};

use super::{by_name_with, Bot, BoxedBot};
use crate::command::Command;
use crate::components::Manifest;
use crate::legal::Legal;
use crate::seat::Seat;
use crate::session::Match;

/// The command `bot` plays for `seat` of `m` now, `None` when the seat has nothing to do. The bot
/// gets the seat's view with its bid history ([`Match::view`]) when it reads it
/// ([`Bot::uses_history`]: the search bots), else the view alone (cheaper). Without `offer_peek`
/// the seat is not offered its peek (R-VIS-5), so it never chooses one.
///
/// ```
/// use qe_core::bots::{decide, Level, SearchBot};
/// use qe_core::{Match, Rules};
/// let mut m = Match::seeded(Rules::base(3).unwrap(), 5);
/// let mut bot = SearchBot::new(Level::Easy, 1);
/// while !m.game().is_over() {
///     let seat = m.game().to_act().first().unwrap();
///     let command = decide(&mut bot, &m, seat, true).unwrap();
///     m.play(command).unwrap();
/// }
/// ```
pub fn decide<B: Bot + ?Sized>(
    bot: &mut B,
    m: &Match,
    seat: Seat,
    offer_peek: bool,
) -> Option<Command> {
    let withhold_peek = |legal: &mut Legal| {
        if !offer_peek {
            legal.peek = 0;
        }
    };
    let mut legal = m.game().legal(seat);
    withhold_peek(&mut legal);
    if !legal.must_act() && legal.peek == 0 {
        return None; // nothing to do: no view built
    }
    if bot.uses_history() {
        let mut view = m.view(Some(seat));
        withhold_peek(&mut view.view.legal);
        bot.act_with_history(&view)
    } else {
        let mut view = m.game().view(seat);
        withhold_peek(&mut view.legal);
        bot.act(&view)
    }
}

/// A bot of [`by_name_with`] kept with its name and seed, for one seat of a game at a time: it
/// rebuilds itself for the manifest of the game it is asked about (the printed values are
/// public, R-VIS-1) and decides by [`decide`].
///
/// ```
/// use qe_core::bots::NamedBot;
/// use qe_core::{Match, Rules};
/// let mut m = Match::seeded(Rules::commodities(4).unwrap(), 2);
/// let mut bots: Vec<NamedBot> =
///     (0..4).map(|s| NamedBot::new("search:easy", s).unwrap()).collect();
/// while !m.game().is_over() {
///     let seat = m.game().to_act().first().unwrap();
///     let command = bots[seat.index()].decide(&m, seat, true).unwrap();
///     m.play(command).unwrap();
/// }
/// assert!(NamedBot::new("oracle", 0).is_none());
/// ```
pub struct NamedBot {
    name: String,
    seed: u64,
    /// The manifest `bot` was built for.
    manifest: Manifest,
    bot: BoxedBot,
}

impl NamedBot {
    /// The bot of this name ([`super::NAMES`], or any name [`by_name_with`] takes) and seed;
    /// `None` for an unknown name.
    pub fn new(name: &str, seed: u64) -> Option<NamedBot> {
        let manifest = Manifest::default();
        Some(NamedBot {
            bot: by_name_with(name, seed, manifest)?,
            name: name.to_string(),
            seed,
            manifest,
        })
    }

    /// The name it was built from.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The seed it was built with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The manifest the bot is built for now (the last game it decided in; the default before).
    pub fn manifest(&self) -> Manifest {
        self.manifest
    }

    /// Where the bot's random streams are ([`Bot::streams`]): `NamedBot::with_state(name, seed,
    /// manifest, streams)` is a bot that decides as this one will.
    pub fn streams(&self) -> super::Streams {
        self.bot.streams()
    }

    /// The bot `name` with `seed`, built for `manifest`, its streams at `streams`: a copy of the
    /// bot these came from ([`NamedBot::streams`]); `None` for a name the core does not know.
    pub fn with_state(
        name: &str,
        seed: u64,
        manifest: Manifest,
        streams: super::Streams,
    ) -> Option<NamedBot> {
        let mut bot = by_name_with(name, seed, manifest)?;
        bot.set_streams(streams);
        Some(NamedBot {
            bot,
            name: name.to_string(),
            seed,
            manifest,
        })
    }

    /// Its command for `seat` of `m` now ([`decide`]), after rebuilding itself, seeded alike,
    /// if `m` is played with another manifest than the last game it was asked about.
    pub fn decide(&mut self, m: &Match, seat: Seat, offer_peek: bool) -> Option<Command> {
        let manifest = *m.game().rules().manifest();
        if manifest != self.manifest {
            self.bot = by_name_with(&self.name, self.seed, manifest).expect("a known name");
            self.manifest = manifest;
        }
        decide(&mut *self.bot, m, seat, offer_peek)
    }
}

impl core::fmt::Debug for NamedBot {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("NamedBot")
            .field("name", &self.name)
            .field("seed", &self.seed)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::by_name;
    use crate::rules::{Rules, RulesBuilder};
    use alloc::vec::Vec;

    /// Plays `m` on by `n` commands of random bots that never peek.
    fn advance(m: &mut Match, n: usize) {
        for k in 0..n {
            let Some(seat) = m.game().to_act().first() else {
                return;
            };
            let mut bot = crate::bots::RandomBot::new(m.commands().len() as u64 + k as u64);
            let command = decide(&mut bot, m, seat, false).expect("a seat to act acts");
            m.play(command).unwrap();
        }
    }

    /// A bot that says which of its two methods was called.
    struct Probe {
        reads_history: bool,
        called: Vec<&'static str>,
    }

    impl Bot for Probe {
        fn act(&mut self, view: &crate::view::SeatView) -> Option<Command> {
            self.called.push("act");
            crate::bots::MiserBot.act(view)
        }
        fn act_with_history(&mut self, view: &crate::session::MatchView) -> Option<Command> {
            self.called.push("act_with_history");
            crate::bots::MiserBot.act(&view.view)
        }
        fn uses_history(&self) -> bool {
            self.reads_history
        }
    }

    #[test]
    fn decide_asks_for_the_history_only_of_the_bots_that_read_it_and_only_when_there_is_a_move() {
        let m = Match::seeded(Rules::base(4).unwrap(), 11);
        let seat = m.game().to_act().first().unwrap();
        let idle = (0..4).map(Seat).find(|&s| s != seat).unwrap();
        for (reads_history, method) in [(false, "act"), (true, "act_with_history")] {
            let mut probe = Probe {
                reads_history,
                called: Vec::new(),
            };
            assert!(decide(&mut probe, &m, seat, true).is_some());
            assert_eq!(decide(&mut probe, &m, idle, true), None);
            assert_eq!(probe.called, [method]);
        }
    }

    #[test]
    fn a_bot_built_again_from_its_state_decides_as_the_original() {
        for name in ["random", "miser", "value", "search:easy"] {
            let mut m = Match::seeded(Rules::base(4).unwrap(), 5);
            let mut bot = NamedBot::new(name, 9).unwrap();
            advance(&mut m, 3);
            let mut decided = 0;
            while decided < 6 && !m.game().is_over() {
                let seat = m.game().to_act().first().unwrap();
                let mut copy =
                    NamedBot::with_state(name, 9, bot.manifest(), bot.streams()).unwrap();
                let (a, b) = (bot.decide(&m, seat, true), copy.decide(&m, seat, true));
                assert_eq!(a, b, "{name}");
                assert_eq!(bot.streams(), copy.streams(), "{name}");
                m.play(a.unwrap()).unwrap();
                decided += 1;
            }
        }
    }

    #[test]
    fn decide_gives_what_the_bot_itself_decides() {
        let mut m = Match::seeded(Rules::base(4).unwrap(), 11);
        for step in 0..12 {
            let seat = m.game().to_act().first().unwrap();
            // The search bots alike read the history: the quickest stands for them.
            for name in ["random", "miser", "value", "search:easy"] {
                let want = {
                    let mut bot = by_name(name, 3).unwrap();
                    if bot.uses_history() {
                        bot.act_with_history(&m.view(Some(seat)))
                    } else {
                        bot.act(&m.game().view(seat))
                    }
                };
                let got = decide(&mut *by_name(name, 3).unwrap(), &m, seat, true);
                assert_eq!(got, want, "{name} at command {step}");
                // A seat with nothing to do gets nothing.
                let idle = (0..4).map(Seat).find(|&s| !m.game().to_act().contains(s));
                if let Some(idle) = idle {
                    assert_eq!(
                        decide(&mut *by_name(name, 3).unwrap(), &m, idle, true),
                        None
                    );
                }
            }
            advance(&mut m, 1);
        }
    }

    /// Twin 4-player games that differ only in a losing secret bid of `bidder` in the first
    /// auction (`low` or `high`), which `bidder` no longer sees in its view; played on alike.
    fn twins(bidder: Seat, low: u64, high: u64) -> [Match; 2] {
        let rules = Rules::base(4).unwrap();
        let auctioneer = rules.auctioneer(0).unwrap();
        let winner = (0..4)
            .map(Seat)
            .find(|&s| s != auctioneer && s != bidder)
            .unwrap();
        [low, high].map(|mine| {
            let mut m = Match::seeded(rules, 8);
            while m.game().turn() == 0 {
                let seat = m.game().to_act().first().unwrap();
                let range = m.game().legal(seat).bid.expect("the first auction's bids");
                let amount = match seat {
                    s if s == bidder => mine,
                    s if s == winner => 60,
                    _ => range.min,
                };
                m.play(Command::Bid { seat, amount }).unwrap();
            }
            advance(&mut m, 20);
            m
        })
    }

    #[test]
    fn a_searchers_own_losing_bids_reach_it() {
        let bidder = Seat(3);
        let [a, b] = twins(bidder, 3, 50);
        assert_eq!(a.game().view(bidder), b.game().view(bidder));
        assert_ne!(a.view(Some(bidder)), b.view(Some(bidder)));
        // The same view, another history: the searcher's decisions tell the twins apart, while
        // a bot of the view alone cannot.
        let (mut m, mut twin) = (a, b);
        let mut differ = 0;
        for _ in 0..6 {
            while !m.game().to_act().contains(bidder) {
                let seat = m.game().to_act().first().unwrap();
                let c = decide(&mut crate::bots::MiserBot, &m, seat, false).unwrap();
                m.play(c).unwrap();
                twin.play(c).unwrap();
            }
            assert_eq!(m.game().view(bidder), twin.game().view(bidder));
            let ask =
                |g: &Match| decide(&mut *by_name("search:easy", 1).unwrap(), g, bidder, false);
            let (x, y) = (ask(&m), ask(&twin));
            differ += usize::from(x != y);
            let value = |g: &Match| decide(&mut *by_name("value", 1).unwrap(), g, bidder, false);
            assert_eq!(value(&m), value(&twin));
            let c = x.unwrap();
            m.play(c).unwrap();
            twin.play(c).unwrap();
        }
        assert!(
            differ > 0,
            "the searcher decided alike in every twin position"
        );
    }

    #[test]
    fn without_the_offer_no_bot_peeks() {
        // R-VIS-5: 5 players, second half; the random bot peeks one time in eight when offered.
        let mut m = Match::seeded(Rules::base(5).unwrap(), 4);
        let mut peeked = [false; 2];
        while !m.game().is_over() {
            for seat in (0..5).map(Seat) {
                if m.game().legal(seat).peek == 0 {
                    continue;
                }
                for seed in 0..40 {
                    for (offer, seen) in peeked.iter_mut().enumerate() {
                        let mut bot = by_name("random", seed).unwrap();
                        let c = decide(&mut *bot, &m, seat, offer == 1);
                        *seen |= matches!(c, Some(Command::Peek { .. }));
                    }
                }
            }
            advance(&mut m, 1);
        }
        assert_eq!(peeked, [false, true]);
    }

    #[test]
    fn a_named_bot_follows_the_games_manifest() {
        let standard = Manifest::default();
        let mut tiles = standard.tile_values();
        tiles.reverse();
        let tokens = [
            crate::AssetKind::Gold,
            crate::AssetKind::Oil,
            crate::AssetKind::Crypto,
        ]
        .map(|k| standard.token_values(k));
        let custom = Manifest::new(tiles, tokens).unwrap();
        let rules = RulesBuilder::new(4).manifest(custom).build().unwrap();
        let mut m = Match::seeded(rules, 5);
        let mut named = NamedBot::new("value", 9).unwrap();
        let mut want = by_name_with("value", 9, custom).unwrap();
        let mut default = by_name("value", 9).unwrap();
        let (mut same, mut differ) = (0, 0);
        for _ in 0..30 {
            let seat = m.game().to_act().first().unwrap();
            let got = named.decide(&m, seat, true);
            assert_eq!(got, want.act(&m.game().view(seat)));
            if got == default.act(&m.game().view(seat)) {
                same += 1;
            } else {
                differ += 1;
            }
            advance(&mut m, 1);
        }
        assert!(
            differ > 0 && same > 0,
            "{differ} decisions differ, {same} agree"
        );
        // Back on a standard game, it is the standard bot again.
        let m = Match::seeded(Rules::base(4).unwrap(), 5);
        let seat = m.game().to_act().first().unwrap();
        assert_eq!(
            named.decide(&m, seat, true),
            by_name("value", 9).unwrap().act(&m.game().view(seat))
        );
        assert_eq!((named.name(), named.seed()), ("value", 9));
    }
}
