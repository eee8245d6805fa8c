//! [`Rules`]: the player count, the expansion, the manifest and every scoring table, as data
//! (R-SCO, R-COM).

use crate::components::{AssetKind, Manifest, TokenId, MAX_TOKENS};
use crate::expansion::{Expansion, Expansions};
use crate::setup_error::SetupError;
use core::num::NonZeroU8;

/// A scoring table: `score(n)` for a count `n`, where counts beyond the last entry score the last
/// entry (R-SCO-6, R-SCO-7: "a count beyond a table scores the table's top entry").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Table {
    len: u8,
    values: [u8; 8],
}

impl Table {
    /// A table from its entries for counts `0, 1, 2, …` (1 to 8 entries, each at most 99, and never
    /// decreasing).
    pub fn new(name: &'static str, entries: &[u8]) -> Result<Table, SetupError> {
        if entries.is_empty() || entries.len() > 8 {
            return Err(SetupError::Table {
                table: name,
                reason: "a table has 1 to 8 entries",
            });
        }
        if entries.iter().any(|&v| v > 99) {
            return Err(SetupError::Table {
                table: name,
                reason: "entries are at most 99",
            });
        }
        if entries.windows(2).any(|w| w[1] < w[0]) {
            return Err(SetupError::Table {
                table: name,
                reason: "entries never decrease",
            });
        }
        let mut values = [0; 8];
        values[..entries.len()].copy_from_slice(entries);
        Ok(Table {
            len: entries.len() as u8,
            values,
        })
    }

    const fn of(entries: [u8; 8], len: u8) -> Table {
        Table {
            len,
            values: entries,
        }
    }

    /// The score for a count; counts past the end score the top entry.
    #[inline]
    pub fn score(&self, count: usize) -> u32 {
        let last = self.len as usize - 1;
        self.values[count.min(last)] as u32
    }

    /// The entries, for counts `0, 1, 2, …`.
    pub const fn entries(&self) -> &[u8] {
        self.values.split_at(self.len as usize).0
    }
}

/// The default monopolization tables (R-SCO-7): 3 and 4 players, then 5. Written here once:
/// [`RulesBuilder::build`] and the scoring's remembered industry points read them.
pub(crate) static DEFAULT_MONOPOLIZATION: [Table; 2] = [
    Table::of([0, 0, 3, 6, 10, 0, 0, 0], 5),
    Table::of([0, 0, 6, 10, 16, 0, 0, 0], 5),
];

/// The default diversification tables (R-SCO-8), as [`DEFAULT_MONOPOLIZATION`].
pub(crate) static DEFAULT_DIVERSIFICATION: [Table; 2] = [
    Table::of([0, 0, 0, 4, 8, 0, 0, 0], 5),
    Table::of([0, 0, 0, 8, 12, 17, 0, 0], 6),
];

/// The rules of one game: player count, expansion, manifest and scoring tables.
///
/// Use a preset ([`Rules::base`], [`Rules::commodities`]) or the validated [`RulesBuilder`].
///
/// ```
/// use qe_core::Rules;
/// let rules = Rules::base(4).unwrap();
/// assert_eq!(rules.turns(), 16);
/// assert_eq!(rules.nationalization.score(3), 6); // R-SCO-6
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Rules {
    /// The number of seats, never 0 ([`RulesBuilder::build`] takes 3 to 5), so that the turn's
    /// auctioneer and round divide by it without a check for zero (PERF.md).
    players: NonZeroU8,
    /// The number of turns, [`Rules::turns_of`] the player count, kept so that the end of each
    /// turn compares with a byte instead of computing it (`Rules::turns`, PERF.md).
    turns: u8,
    /// The turn without an auctioneer, the 3-player last turn (R-TRN-3), or 256 (no turn), kept so
    /// that each turn's auctioneer is found with one comparison (`Rules::auctioneer`, PERF.md).
    open_turn: u16,
    expansions: Expansions,
    manifest: Manifest,
    /// R-SCO-6: VP by the number of own-nation tiles.
    pub nationalization: Table,
    /// R-SCO-7: VP per industry by the count of its tiles (+1 for the matching industry token).
    pub monopolization: Table,
    /// R-SCO-8: VP per set by its size (sizes below 3 never score).
    pub diversification: Table,
    /// R-SCO-3: the least-spent bonus.
    pub least_spent_bonus: u8,
    /// R-SCO-5 / R-AUC-11: VP per round with a zero-bid mark (0 with Commodities, R-COM-2).
    pub zero_bid_vp: u8,
    /// R-COM-9: VP each gold token loses if the gold pile is empty at game end.
    pub gold_crash: u8,
    /// R-COM-9: VP shared by the seats holding the most oil tokens.
    pub oil_majority: u8,
}

impl Rules {
    /// The base game for 3, 4 or 5 players with the default manifest.
    pub fn base(players: u8) -> Result<Rules, SetupError> {
        RulesBuilder::new(players).build()
    }

    /// The game with the Commodities expansion for 3, 4 or 5 players with the default manifest.
    pub fn commodities(players: u8) -> Result<Rules, SetupError> {
        Rules::with_expansions(players, Expansions::of(Expansion::Commodities))
    }

    /// The game for 3, 4 or 5 players with a set of expansions and the default manifest.
    ///
    /// ```
    /// use qe_core::{Expansion, Expansions, Rules};
    /// let set = Expansions::from_names(["commodities"]).unwrap();
    /// let rules = Rules::with_expansions(5, set).unwrap();
    /// assert_eq!(rules, Rules::commodities(5).unwrap());
    /// assert!(rules.expansions().contains(Expansion::Commodities));
    /// ```
    pub fn with_expansions(players: u8, expansions: Expansions) -> Result<Rules, SetupError> {
        RulesBuilder::new(players).expansions(expansions).build()
    }

    /// The number of seats.
    #[inline]
    pub fn players(&self) -> u8 {
        self.players.get()
    }

    /// The expansions in play.
    #[inline]
    pub fn expansions(&self) -> Expansions {
        self.expansions
    }

    /// Whether the Commodities expansion is in play (R-COM).
    #[inline]
    pub fn has_commodities(&self) -> bool {
        self.expansions.contains(Expansion::Commodities)
    }

    /// The manifest of tile and token values.
    #[inline]
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// The number of turns (R-TRN-1): 16 with 3 or 4 players, 15 with 5.
    #[inline]
    pub fn turns(&self) -> u8 {
        self.turns
    }

    /// The number of turns of a game of `players` seats (R-TRN-1): 16 with 3 or 4, 15 with 5.
    ///
    /// ```
    /// assert_eq!(qe_core::Rules::turns_of(5), 15);
    /// ```
    #[inline]
    pub const fn turns_of(players: u8) -> u8 {
        if players == 5 {
            15
        } else {
            16
        }
    }

    /// The most commands a legal game with these rules can take ([`Rules::max_commands_of`]).
    pub fn max_commands(&self) -> usize {
        Rules::max_commands_of(self.players.get())
    }

    /// The most commands a legal game of `players` seats can take, chance outcomes aside: per turn
    /// (R-TRN-1) one opening bid (R-AUC-2), a secret bid from every other seat (R-AUC-3, R-AUC-9),
    /// two company rebids of at most every seat (R-AUC-6, R-AUC-7), two asset rebids of at most
    /// every seat (R-COM-4) and one take or discard (R-COM-5, R-COM-7); plus one peek per seat
    /// (R-VIS-5). Record readers reject longer command lists before reading them.
    ///
    /// ```
    /// assert_eq!(qe_core::Rules::max_commands_of(5), 15 * 26 + 5);
    /// ```
    pub fn max_commands_of(players: u8) -> usize {
        let n = usize::from(players);
        let turns = usize::from(Rules::turns_of(players));
        turns * (1 + n.saturating_sub(1) + 2 * n + 2 * n + 1) + n
    }

    /// The turn without an auctioneer of a game of `players` seats: the last of a 3-player game
    /// (R-TRN-3), else 256, no turn.
    const fn open_turn_of(players: u8) -> u16 {
        if players == 3 {
            Rules::turns_of(3) as u16 - 1
        } else {
            256
        }
    }

    /// The auctioneer of `turn` (R-TRN-2), or `None` for the 3-player last turn (R-TRN-3).
    #[inline]
    pub fn auctioneer(&self, turn: u8) -> Option<crate::Seat> {
        if u16::from(turn) == self.open_turn {
            None
        } else {
            Some(crate::Seat(turn % self.players))
        }
    }

    /// The round of `turn` (R-TRN-2).
    #[inline]
    pub fn round(&self, turn: u8) -> u8 {
        turn / self.players
    }

    /// Whether zero bids are revealed after each award (R-AUC-11: 4–5 players).
    #[inline]
    pub fn reveals_zero_bids(&self) -> bool {
        self.players.get() >= 4
    }

    // What the expansion set switches on, one question per rule: the rules code asks these, never
    // which expansion is in play, so an expansion's rules are switched here alone.

    /// Whether the game has the commodity piles (R-COM-1): with Commodities.
    #[inline]
    pub fn has_piles(&self) -> bool {
        self.has_commodities()
    }

    /// Whether an asset contest follows each company award (R-COM-3): with Commodities.
    #[inline]
    pub fn contests_assets(&self) -> bool {
        self.has_commodities()
    }

    /// Whether assets score at the end (R-COM-9): with Commodities.
    #[inline]
    pub fn scores_assets(&self) -> bool {
        self.has_commodities()
    }

    /// The commodity tokens in play (R-CMP-7), gold, then oil, then crypto, each by number: the
    /// manifest's for the player count in a game with piles ([`Rules::has_piles`]), none without.
    pub fn tokens_in_play(&self) -> impl Iterator<Item = TokenId> + '_ {
        let count = if self.has_piles() { usize::MAX } else { 0 };
        self.manifest.tokens_in_play(self.players.get()).take(count)
    }

    /// The piles in play, unshuffled, and each kind's size: [`Rules::tokens_in_play`] as
    /// [`Manifest::piles_in_play`] lays them out, or empty piles in a game without them.
    pub(crate) fn piles_in_play(&self) -> ([TokenId; MAX_TOKENS], [u8; 3]) {
        if self.has_piles() {
            self.manifest.piles_in_play(self.players.get())
        } else {
            ([TokenId::new(AssetKind::Gold, 1); MAX_TOKENS], [0; 3])
        }
    }
}

/// An unvalidated description of [`Rules`]; [`RulesBuilder::build`] validates it.
#[derive(Clone, Copy, Debug)]
pub struct RulesBuilder {
    players: u8,
    expansions: Expansions,
    manifest: Manifest,
    nationalization: Option<Table>,
    monopolization: Option<Table>,
    diversification: Option<Table>,
    least_spent_bonus: Option<u8>,
    zero_bid_vp: Option<u8>,
    gold_crash: u8,
    oil_majority: u8,
}

impl RulesBuilder {
    /// Starts from the preset for `players` (validated by [`build`](Self::build)).
    pub fn new(players: u8) -> RulesBuilder {
        RulesBuilder {
            players,
            expansions: Expansions::NONE,
            manifest: Manifest::default(),
            nationalization: None,
            monopolization: None,
            diversification: None,
            least_spent_bonus: None,
            zero_bid_vp: None,
            gold_crash: 3,
            oil_majority: 5,
        }
    }

    /// Uses exactly these expansions.
    pub fn expansions(mut self, expansions: Expansions) -> Self {
        self.expansions = expansions;
        self
    }

    /// Enables or disables the Commodities expansion: a shorthand kept for callers written before
    /// the expansions were a set; [`RulesBuilder::expansions`] names them.
    #[deprecated(note = "the expansions are a set: use RulesBuilder::expansions")]
    pub fn commodities(mut self, on: bool) -> Self {
        self.expansions = self.expansions.set(Expansion::Commodities, on);
        self
    }

    /// Uses a caller-supplied manifest (R-CMP-4).
    pub fn manifest(mut self, manifest: Manifest) -> Self {
        self.manifest = manifest;
        self
    }

    /// Replaces the nationalization table (R-SCO-6).
    pub fn nationalization(mut self, table: Table) -> Self {
        self.nationalization = Some(table);
        self
    }

    /// Replaces the monopolization table (R-SCO-7).
    pub fn monopolization(mut self, table: Table) -> Self {
        self.monopolization = Some(table);
        self
    }

    /// Replaces the diversification table (R-SCO-8; entries for sizes 0–2 must be 0).
    pub fn diversification(mut self, table: Table) -> Self {
        self.diversification = Some(table);
        self
    }

    /// Replaces the least-spent bonus (R-SCO-3).
    pub fn least_spent_bonus(mut self, vp: u8) -> Self {
        self.least_spent_bonus = Some(vp);
        self
    }

    /// Replaces the VP of a zero-bid round (R-SCO-5).
    pub fn zero_bid_vp(mut self, vp: u8) -> Self {
        self.zero_bid_vp = Some(vp);
        self
    }

    /// Replaces the gold crash penalty and the oil majority bonus (R-COM-9).
    pub fn commodity_bonuses(mut self, gold_crash: u8, oil_majority: u8) -> Self {
        self.gold_crash = gold_crash;
        self.oil_majority = oil_majority;
        self
    }

    /// Validates and returns the rules.
    pub fn build(self) -> Result<Rules, SetupError> {
        if !(3..=5).contains(&self.players) {
            return Err(SetupError::Players {
                players: i128::from(self.players),
            });
        }
        let five = self.players == 5;
        let nationalization = self.nationalization.unwrap_or(if five {
            Table::of([0, 3, 6, 10, 0, 0, 0, 0], 4)
        } else {
            Table::of([0, 1, 3, 6, 10, 0, 0, 0], 5)
        });
        let monopolization = self
            .monopolization
            .unwrap_or(DEFAULT_MONOPOLIZATION[usize::from(five)]);
        let diversification = self
            .diversification
            .unwrap_or(DEFAULT_DIVERSIFICATION[usize::from(five)]);
        if diversification.entries().iter().take(3).any(|&v| v != 0) {
            return Err(SetupError::Table {
                table: "diversification",
                reason: "sets of fewer than 3 industries score 0",
            });
        }
        let commodities = self.expansions.contains(Expansion::Commodities);
        let zero_default = if commodities { 0 } else { 2 };
        Ok(Rules {
            // In 3..=5, checked above.
            players: NonZeroU8::new(self.players).unwrap_or(NonZeroU8::MIN),
            turns: Rules::turns_of(self.players),
            open_turn: Rules::open_turn_of(self.players),
            expansions: self.expansions,
            manifest: self.manifest,
            nationalization,
            monopolization,
            diversification,
            least_spent_bonus: self
                .least_spent_bonus
                .unwrap_or(least_spent_default(five, self.expansions)),
            zero_bid_vp: self.zero_bid_vp.unwrap_or(zero_default),
            gold_crash: self.gold_crash,
            oil_majority: self.oil_majority,
        })
    }
}

impl Rules {
    /// The default rules of every player count, without and with Commodities: the variants the
    /// crate's tests play.
    #[cfg(test)]
    pub(crate) fn every_variant() -> impl Iterator<Item = Rules> {
        (3..=5).flat_map(|players| {
            [Rules::base(players), Rules::commodities(players)].map(|r| r.expect("3 to 5 players"))
        })
    }
}

/// The least-spent bonus (R-SCO-3): 7 VP, 6 with five players (and doubled by the toy expansion
/// of the crate's tests, whose one rule this is).
fn least_spent_default(five: bool, expansions: Expansions) -> u8 {
    let vp = if five { 6 } else { 7 };
    #[cfg(test)]
    if expansions.contains(Expansion::Toy) {
        return vp * 2;
    }
    let _ = expansions;
    vp
}

#[cfg(test)]
mod tests {
    use super::Rules;
    use crate::Seat;

    /// The turns and the turn without an auctioneer kept in [`Rules`] against their plain
    /// reading from the player count (R-TRN-1, R-TRN-2, R-TRN-3), for every turn number.
    #[test]
    fn the_kept_turns_agree_with_the_player_count_r_trn_1_r_trn_3() {
        for rules in Rules::every_variant() {
            let players = rules.players();
            assert_eq!(rules.turns(), if players == 5 { 15 } else { 16 });
            for turn in 0..=u8::MAX {
                let plain = if players == 3 && turn == 15 {
                    None
                } else {
                    Some(Seat(turn % players))
                };
                assert_eq!(
                    rules.auctioneer(turn),
                    plain,
                    "{players} players, turn {turn}"
                );
            }
        }
    }
}
