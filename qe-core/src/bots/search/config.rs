//! The search bot's settings: [`SearchConfig`], and the presets of [`Level`].

use super::clock;

/// A preset strength of the [`SearchBot`](super::SearchBot) (the `search:easy`, `search:medium`
/// and `search:hard` bots of [`by_name`](crate::bots::by_name)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// A fifth of the medium budget: faster and weaker (time per decision of each level:
    /// PERF.md, "The search bot").
    Easy,
    /// The default (`search`): a few milliseconds a decision on one core, release build, short
    /// enough for a frame budget (PERF.md).
    Medium,
    /// About four times as long a decision as medium, spent partly on a deeper model of the
    /// other seats: a small search from each one's view of eight sampled worlds
    /// ([`SearchConfig::rival_search`]); then its own search of 160,000 commands.
    Hard,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Medium, Level::Hard];

    /// The level's name: `easy`, `medium` or `hard`.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }

    /// The level of a name (`easy`, `medium`, `hard`).
    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name() == name)
    }

    /// The preset configuration.
    pub const fn config(self) -> SearchConfig {
        // Each level's numbers; every other setting is the same at every level.
        // (budget, candidates, probe worlds, rival search, rival worlds)
        let (budget, candidates, probe_worlds, rival_search, rival_worlds) = match self {
            Level::Easy => (12_000, 5, 12, 0, 0),
            Level::Medium => (60_000, 7, 24, 0, 0),
            Level::Hard => (160_000, 9, 40, 4_000, 8),
        };
        SearchConfig {
            budget,
            candidates,
            probe_worlds,
            playouts_per_world: 1,
            mixed: false,
            model_share: 0,
            min_mixed_rounds: 200,
            sharp_rivals: false,
            rival_search,
            rival_worlds,
            millis: 0,
        }
    }
}

/// How much the [`SearchBot`](super::SearchBot) searches, and how it chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SearchConfig {
    /// Simulated commands per decision, over every playout (the deterministic budget). With
    /// [`SearchConfig::millis`] set, the first decision's budget; later ones are sized from the
    /// commands per millisecond measured so far.
    pub budget: u64,
    /// The most candidate bids compared in one decision (at least 2).
    pub candidates: u8,
    /// The worlds sampled before the candidates are chosen (their modelled rival bids set the
    /// candidates).
    pub probe_worlds: u16,
    /// Playouts of each candidate in each sampled world, each with fresh model noise (at least 1).
    pub playouts_per_world: u8,
    /// Sealed bids drawn from a mixed strategy: regret matching for every bidder of the sealed
    /// step at once across the sampled worlds (the other bidders choose among the same amounts
    /// and their modelled bid, each answering the others' mixtures), the bid drawn from the
    /// searching seat's average strategy with the bot's seeded generator. Otherwise, and for
    /// open (opening) bids and asset piles, the choice with the best mean after sequential
    /// halving.
    pub mixed: bool,
    /// With [`SearchConfig::mixed`]: the share of the rounds, in percent, in which each other
    /// bidder is held to its modelled bid (in the others it plays its own strategy of the
    /// regret matching). 100 answers the model alone; 0 treats every bidder as playing the
    /// sealed step's equilibrium, which gives the least away to a responder and wins least
    /// against bots that bid as modelled (a restricted Nash response: Johanson, Zinkevich and
    /// Bowling 2008; measurements in `qe-core/src/bots/README.md`). At most 100.
    pub model_share: u8,
    /// With [`SearchConfig::mixed`]: the fewest rounds (sampled worlds) of the regret matching
    /// the budget must afford for the bid to be drawn; with fewer (early in a game, where
    /// playouts are long) the bid is the best mean of sequential halving, as without `mixed`.
    pub min_mixed_rounds: u16,
    /// The other seats' sealed bids of the current auction modelled as a searcher's (all or
    /// nothing: often the smallest bid, else above the `value` bot's amount) instead of the
    /// `value` bot's.
    pub sharp_rivals: bool,
    /// Rival search: the budget (simulated commands) of a small search run for each other seat
    /// from its own view of a few sampled worlds (0: none). The other seats' sealed bids are
    /// then modelled as that search bids: in those worlds its bid, in the others the `value`
    /// bot's bid moved by the difference the search made (one level deeper than modelling them
    /// by the `value` bot, which is what the searcher itself answers).
    pub rival_search: u32,
    /// The worlds in which each other seat's search is run (with [`SearchConfig::rival_search`]).
    pub rival_worlds: u8,
    /// A wall-clock budget per decision in milliseconds (0: none, the budget is counted in
    /// commands only). Not deterministic: the decision depends on the machine's speed and load.
    /// Only where a clock is available ([`SearchConfig::timed`]); elsewhere it is ignored.
    pub millis: u32,
}

impl SearchConfig {
    /// The configuration of `search:ms=MS`: the hard preset's search shape, as many playouts as
    /// fit in `millis` milliseconds a decision (measured by the wall clock: not deterministic).
    /// `None` without a clock (without the `std` feature, or on `wasm32-unknown-unknown`) or for
    /// 0 ms.
    pub fn timed(millis: u32) -> Option<SearchConfig> {
        (clock::AVAILABLE && millis > 0).then(|| SearchConfig {
            budget: 4_000 * u64::from(millis),
            millis,
            ..Level::Hard.config()
        })
    }
}

impl Default for SearchConfig {
    /// The `search:medium` preset.
    fn default() -> SearchConfig {
        Level::Medium.config()
    }
}
