//! Final scoring (RULES.md section 6 and R-COM-8/9) as pure functions, and the [`Outcome`]
//! (section 8).

use crate::components::{AssetKind, Industry, Manifest, Nation, TileId, TokenId};
use crate::rules::Rules;
use crate::seat::{PerSeat, Seat, MAX_SEATS};

/// What one seat holds at game end: the input of scoring.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Holdings {
    /// The seat's nation.
    pub nation: Option<Nation>,
    /// The seat's industry token.
    pub industry: Option<Industry>,
    /// The tiles it holds, as a bit mask over [`TileId::index`].
    pub tiles: u32,
    /// How many rounds scored a zero-bid mark (R-AUC-11).
    pub zero_rounds: u8,
    /// The tokens it holds (`tokens[..token_count]`).
    pub tokens: [Option<TokenId>; 16],
    /// How many tokens it holds (a count past 16 counts as 16).
    pub token_count: u8,
    /// Its total spent (R-SCO-1, R-COM-8).
    pub spent: i128,
}

impl Holdings {
    /// The tiles held.
    pub fn tiles(&self) -> impl Iterator<Item = TileId> + '_ {
        TileId::ALL
            .into_iter()
            .filter(|t| self.tiles & (1 << t.index()) != 0)
    }

    /// The tokens held.
    pub fn tokens(&self) -> impl Iterator<Item = TokenId> + '_ {
        self.tokens[..usize::from(self.token_count).min(self.tokens.len())]
            .iter()
            .flatten()
            .copied()
    }
}

/// One seat's result: RULES.md section 8.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct SeatOutcome {
    /// The seat number.
    pub seat: u8,
    /// Its nation.
    pub nation: Option<Nation>,
    /// Its industry token.
    pub industry: Option<Industry>,
    /// Total spent (R-SCO-1, R-COM-8); may exceed 2^64, or be negative with Commodities.
    pub spent: i128,
    /// R-SCO-2.
    pub eliminated: bool,
    /// R-SCO-11.
    pub winner: bool,
    /// R-SCO-4.
    pub companies: u32,
    /// R-SCO-5.
    pub zero_bids: u32,
    /// R-SCO-6.
    pub nationalization: u32,
    /// R-SCO-7.
    pub monopolization: u32,
    /// R-SCO-8.
    pub diversification: u32,
    /// R-COM-9: asset VP (after the gold crash) plus the oil majority.
    pub commodities: u32,
    /// R-SCO-9.
    pub subtotal: u32,
    /// R-SCO-3.
    pub least_spent_bonus: u32,
    /// R-SCO-10.
    pub total: u32,
}

impl SeatOutcome {
    /// The seat's place in the final order as a key, higher for a better finish: survivors ahead
    /// of the eliminated (R-SCO-2), then the higher total (R-SCO-10), then the lower total spent
    /// (R-SCO-11). The winners are the survivors with the highest key; seats with equal keys share
    /// their place.
    ///
    /// ```
    /// use qe_core::{Command, Game, Rules};
    /// let mut game = Game::seeded(Rules::base(3).unwrap(), 5);
    /// while !game.is_over() {
    ///     let seat = game.to_act().first().unwrap();
    ///     let range = game.bid_range(seat).unwrap();
    ///     let amount = if range.allows(range.min) { range.min } else { range.min + 1 };
    ///     game.play(Command::Bid { seat, amount }).unwrap();
    /// }
    /// let outcome = game.outcome().unwrap();
    /// let best = outcome.seats().iter().map(|s| s.finish_key()).max().unwrap();
    /// for s in outcome.seats() {
    ///     assert_eq!(s.winner, !s.eliminated && s.finish_key() == best);
    /// }
    /// ```
    pub fn finish_key(&self) -> (bool, u32, core::cmp::Reverse<i128>) {
        (!self.eliminated, self.total, core::cmp::Reverse(self.spent))
    }
}

/// The outcome of a finished game: one [`SeatOutcome`] per seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    players: u8,
    seats: PerSeat<SeatOutcome>,
}

impl Outcome {
    /// Every seat's result, by seat.
    pub fn seats(&self) -> &[SeatOutcome] {
        self.seats.in_play(self.players)
    }

    /// One seat's result.
    ///
    /// ```
    /// use qe_core::{Command, Game, Rules, Seat};
    /// let mut game = Game::seeded(Rules::base(4).unwrap(), 3);
    /// while let Some(seat) = game.to_act().first() {
    ///     let amount = game.bid_range(seat).unwrap().min;
    ///     game.play(Command::Bid { seat, amount }).unwrap();
    /// }
    /// let outcome = game.outcome().unwrap();
    /// let s = outcome.seat(Seat(2));
    /// assert_eq!(s.spent, game.spent(Seat(2)));
    /// // It bid 0 in each of the 4 rounds: 2 VP a round (R-AUC-11, R-SCO-5).
    /// assert_eq!(s.zero_bids, 8);
    /// let subtotal = s.companies + s.zero_bids + s.nationalization + s.monopolization;
    /// assert_eq!(s.subtotal, subtotal + s.diversification + s.commodities); // R-SCO-9
    /// assert_eq!(s.total, s.subtotal + s.least_spent_bonus); // R-SCO-10
    /// ```
    ///
    /// # Panics
    ///
    /// If `seat` is not a seat of the game (as a slice index out of range does).
    pub fn seat(&self, seat: Seat) -> &SeatOutcome {
        &self.seats()[seat.index()]
    }

    /// The winners (several when they share the win, none when all are eliminated).
    ///
    /// ```
    /// use qe_core::{Command, Game, Rules};
    /// // Everyone bids the least it may: each auctioneer wins its own 4 auctions at 1 (R-AUC-5).
    /// let mut game = Game::seeded(Rules::base(4).unwrap(), 3);
    /// while let Some(seat) = game.to_act().first() {
    ///     let amount = game.bid_range(seat).unwrap().min;
    ///     game.play(Command::Bid { seat, amount }).unwrap();
    /// }
    /// let outcome = game.outcome().unwrap();
    /// // All spent 4: all tie for the most and are eliminated, so no one wins (R-SCO-2),
    /// // whatever their totals.
    /// assert!(outcome.seats().iter().all(|s| s.spent == 4 && s.eliminated));
    /// assert!(outcome.seats().iter().any(|s| s.total > 0));
    /// assert_eq!(outcome.winners().count(), 0);
    /// ```
    pub fn winners(&self) -> impl Iterator<Item = Seat> + '_ {
        self.seats()
            .iter()
            .filter(|s| s.winner)
            .map(|s| Seat(s.seat))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Outcome {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Outcome", 1)?;
        st.serialize_field("seats", self.seats())?;
        st.end()
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Outcome {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(serde::Deserialize)]
        struct Raw {
            seats: alloc::vec::Vec<SeatOutcome>,
        }
        let raw = Raw::deserialize(d)?;
        if !(3..=MAX_SEATS).contains(&raw.seats.len()) {
            return Err(serde::de::Error::custom("an outcome has 3 to 5 seats"));
        }
        let players = raw.seats.len() as u8;
        if let Some((i, s)) = raw
            .seats
            .iter()
            .enumerate()
            .find(|(i, s)| usize::from(s.seat) != *i)
        {
            return Err(serde::de::Error::custom(alloc::format!(
                "seat {i} of an outcome says it is seat {}",
                s.seat
            )));
        }
        let mut seats = PerSeat::default();
        for (slot, s) in seats.values_mut().zip(raw.seats) {
            *slot = s;
        }
        Ok(Outcome { players, seats })
    }
}

/// R-SCO-8: the best total over all partitions of part of the industry multiset `counts` into sets of
/// pairwise different industries of at least 3 members, each scoring `rules.diversification`.
///
/// Exact. A family of sets with sizes `s_1 ≥ s_2 ≥ …` can be packed iff, for every `k`,
/// `s_1 + … + s_k ≤ cap(k) = Σ_i min(c_i, k)` (the Gale–Ryser condition for a 0-1 matrix with row sums
/// `s_j` and column sums at most `c_i`). With at most five industries the sizes are 3, 4 and 5, so
/// the search tries every number of 5-sets and of 4-sets that fits, then adds 3-sets while they fit:
/// the table never decreases, so one more set never lowers the score, and `cap` is concave, so once
/// a 3-set does not fit no later one does.
///
/// ```
/// use qe_core::{scoring::diversification, Rules};
/// let rules = Rules::base(5).unwrap();
/// // AGR2 HOU2 FIN2 MAN1 GOV1: 5+3 scores 17+8 = 25, more than 4+4 = 24.
/// assert_eq!(diversification(&rules, &[2, 2, 2, 1, 1]), 25);
/// ```
pub fn diversification(rules: &Rules, counts: &[u8; 5]) -> u32 {
    let (distinct, twice) = distinct_and_twice(*counts);
    if distinct < 3 {
        return 0;
    }
    let table = &rules.diversification;
    if distinct + twice < 6 {
        // Room for one set only: two sets of 3 need six items of which no two of a set share an
        // industry, `cap(2) = distinct + twice` below. The table never decreases, so the one set
        // takes every industry.
        return table.score(distinct);
    }
    diversification_search(table, *counts, distinct)
}

/// How many industries `counts` holds at least once, and at least twice.
#[inline]
fn distinct_and_twice(counts: [u8; 5]) -> (usize, usize) {
    let (mut once, mut twice) = (0, 0);
    for c in counts {
        once += usize::from(c > 0);
        twice += usize::from(c > 1);
    }
    (once, twice)
}

/// The Gale–Ryser search of [`diversification`], for counts with room for two sets or more.
fn diversification_search(table: &crate::rules::Table, counts: [u8; 5], distinct: usize) -> u32 {
    let cap = |k: u32| -> u32 { counts.iter().map(|&c| u32::from(c).min(k)).sum() };
    let (v5, v4, v3) = (table.score(5), table.score(4), table.score(3));
    let mut best = 0;
    // `n5` 5-sets, then `n4` 4-sets, fit (each loop checks the prefix it adds).
    let mut n5 = 0;
    while 5 * n5 <= cap(n5) {
        let mut n4 = 0;
        while 5 * n5 + 4 * n4 <= cap(n5 + n4) {
            // `sets` sets holding `used` items fit so far; add 3-sets while they fit.
            let (mut sets, mut used) = (n5 + n4, 5 * n5 + 4 * n4);
            let mut score = n5 * v5 + n4 * v4;
            while used + 3 <= cap(sets + 1) {
                sets += 1;
                used += 3;
                score += v3;
            }
            best = best.max(score);
            if distinct < 4 {
                break;
            }
            n4 += 1;
        }
        if distinct < 5 {
            break;
        }
        n5 += 1;
    }
    best
}

/// What a seat's tiles and industry token score (R-SCO-4, R-SCO-6…8): the one computation of them,
/// for [`score`] and for the bots that weigh a tile by what it adds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TilePoints {
    /// R-SCO-4: the tiles' values.
    pub companies: u32,
    /// R-SCO-6: tiles of the seat's own nation.
    pub nationalization: u32,
    /// R-SCO-7: per industry, tiles and the industry token.
    pub monopolization: u32,
    /// R-SCO-8: sets of different industries.
    pub diversification: u32,
}

impl TilePoints {
    /// The four together.
    pub fn total(&self) -> u32 {
        self.companies + self.nationalization + self.monopolization + self.diversification
    }
}

/// [`TilePoints`] of a seat of `nation` holding the industry token `industry` and the tiles whose
/// bits ([`TileId::index`]) are set in `tiles` (bits past the 21 tiles are ignored).
pub(crate) fn tile_points(
    rules: &Rules,
    nation: Option<Nation>,
    industry: Option<Industry>,
    tiles: u32,
) -> TilePoints {
    Tally::of_tiles(rules.manifest(), nation, tiles).tile_points(rules, industry)
}

/// What scoring reads of one seat's tiles and tokens, totalled a tile and a token at a time: the
/// tiles' values (R-SCO-4), how many are of the seat's own nation (R-SCO-6), how many of each
/// industry (R-SCO-7, R-SCO-8; the industry token not counted), and the tokens' values and oil
/// count (R-COM-9). The game keeps one per seat as it goes ([`crate::Game::outcome`] scores from
/// them); [`score`] totals them from [`Holdings`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Tally {
    /// R-SCO-4: the sum of the tiles' values (21 tiles of at most 255: fits).
    companies: u16,
    /// R-SCO-6: the tiles of the seat's own nation.
    own: u8,
    /// The oil tokens held (R-COM-9 oil majority).
    oil: u8,
    /// R-SCO-7, R-SCO-8: the tiles of each industry, by [`Industry::index`].
    industries: [u8; 5],
    /// R-COM-9: the sum of the tokens' values.
    asset_vp: u16,
    /// R-COM-9: what a gold crash of `rules.gold_crash` takes from the gold tokens' values (each
    /// loses the crash, down to 0).
    gold_crash: u16,
}

impl Tally {
    /// The seat, of `nation`, takes `tile`.
    #[inline]
    pub(crate) fn add_tile(&mut self, manifest: &Manifest, nation: Option<Nation>, tile: TileId) {
        self.companies += u16::from(manifest.tile_value(tile));
        self.own += u8::from(Some(tile.nation()) == nation);
        self.industries[tile.industry().index()] += 1;
    }

    /// The seat takes `token` (R-COM-5).
    #[inline]
    pub(crate) fn add_token(&mut self, rules: &Rules, token: TokenId) {
        let value = rules.manifest().token_value(token).unwrap_or(0);
        self.asset_vp += u16::from(value);
        match token.kind() {
            AssetKind::Gold => self.gold_crash += u16::from(value.min(rules.gold_crash)),
            AssetKind::Oil => self.oil += 1,
            AssetKind::Crypto => {}
        }
    }

    /// The tally of a seat of `nation` holding the tiles whose bits ([`TileId::index`]) are set in
    /// `tiles` (bits past the 21 tiles are ignored), and no tokens.
    pub(crate) fn of_tiles(manifest: &Manifest, nation: Option<Nation>, tiles: u32) -> Tally {
        let mut tally = Tally::default();
        let mut bits = tiles & ((1 << TileId::ALL.len()) - 1);
        while bits != 0 {
            let t = TileId::ALL[bits.trailing_zeros() as usize];
            bits &= bits - 1;
            tally.add_tile(manifest, nation, t);
        }
        tally
    }

    /// The tally of what `holdings` holds.
    pub(crate) fn of_holdings(rules: &Rules, holdings: &Holdings) -> Tally {
        let mut tally = Tally::of_tiles(rules.manifest(), holdings.nation, holdings.tiles);
        for t in holdings.tokens() {
            tally.add_token(rules, t);
        }
        tally
    }

    /// What the tiles and the seat's industry token `industry` score (R-SCO-4, R-SCO-6…8).
    #[inline]
    pub(crate) fn tile_points(&self, rules: &Rules, industry: Option<Industry>) -> TilePoints {
        // R-SCO-7 and R-SCO-8 count the industry token too.
        let mut counts = self.industries;
        if let Some(ind) = industry {
            counts[ind.index()] += 1;
        }
        TilePoints {
            companies: u32::from(self.companies),
            nationalization: rules.nationalization.score(usize::from(self.own)),
            monopolization: counts
                .iter()
                .map(|&c| rules.monopolization.score(c as usize))
                .sum(),
            diversification: diversification(rules, &counts),
        }
    }

    /// R-COM-9: the tokens' values, after the gold crash when the gold pile is empty (the oil
    /// majority is scored across the seats).
    #[inline]
    fn asset_points(&self, gold_pile_empty: bool) -> u32 {
        let crash = if gold_pile_empty { self.gold_crash } else { 0 };
        u32::from(self.asset_vp - crash)
    }
}

/// What scoring reads of a seat beside its [`Tally`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SeatFacts {
    /// The seat's nation.
    pub nation: Option<Nation>,
    /// The seat's industry token.
    pub industry: Option<Industry>,
    /// How many rounds scored a zero-bid mark (R-AUC-11).
    pub zero_rounds: u8,
    /// Its total spent (R-SCO-1, R-COM-8).
    pub spent: i128,
}

/// Scores every seat (section 6, R-COM-8/9). `gold_pile_empty` is whether the gold pile is empty at
/// game end (R-COM-9 gold crash). Seats past [`MAX_SEATS`] are ignored.
pub fn score(rules: &Rules, holdings: &[Holdings], gold_pile_empty: bool) -> Outcome {
    let holdings = &holdings[..holdings.len().min(MAX_SEATS)];
    let mut facts = PerSeat::<SeatFacts>::default();
    let mut tallies = PerSeat::<Tally>::default();
    for ((h, f), t) in holdings
        .iter()
        .zip(facts.values_mut())
        .zip(tallies.values_mut())
    {
        *f = SeatFacts {
            nation: h.nation,
            industry: h.industry,
            zero_rounds: h.zero_rounds,
            spent: h.spent,
        };
        *t = Tally::of_holdings(rules, h);
    }
    let mut outcome = Outcome::UNSCORED;
    score_tallied_into(
        rules,
        holdings.len() as u8,
        &facts,
        &tallies,
        gold_pile_empty,
        &mut outcome,
    );
    outcome
}

impl Outcome {
    /// No seat scored yet: what [`score_tallied_into`] writes over.
    pub(crate) const UNSCORED: Outcome = Outcome {
        players: 0,
        seats: PerSeat::new([SeatOutcome::UNSCORED; MAX_SEATS]),
    };
}

impl SeatOutcome {
    const UNSCORED: SeatOutcome = SeatOutcome {
        seat: 0,
        nation: None,
        industry: None,
        spent: 0,
        eliminated: false,
        winner: false,
        companies: 0,
        zero_bids: 0,
        nationalization: 0,
        monopolization: 0,
        diversification: 0,
        commodities: 0,
        subtotal: 0,
        least_spent_bonus: 0,
        total: 0,
    };
}

/// [`score`] from each seat's facts and [`Tally`], written into `outcome` where it lies (an
/// [`Outcome`] is 336 bytes; PERF.md): the seats `0..players` are scored, the others left as
/// they are ([`Outcome::UNSCORED`]).
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn score_tallied_into(
    rules: &Rules,
    players: u8,
    facts: &PerSeat<SeatFacts>,
    tallies: &PerSeat<Tally>,
    gold_pile_empty: bool,
    outcome: &mut Outcome,
) {
    let facts = facts.in_play(players);
    let tallies = tallies.in_play(players);
    outcome.players = players;
    let seats = &mut outcome.seats;
    let (mut max_spent, mut min_spent) = (i128::MIN, i128::MAX);
    for f in facts {
        max_spent = max_spent.max(f.spent);
        min_spent = min_spent.min(f.spent);
    }
    // R-COM-9 oil majority: the seats holding the most oil tokens, at least one.
    let (mut most_oil, mut oil_holders) = (0, 0);
    if rules.scores_assets() {
        most_oil = tallies.iter().map(|t| t.oil).max().unwrap_or(0);
        oil_holders = tallies.iter().filter(|t| t.oil == most_oil).count() as u32;
    }
    for (i, ((f, t), o)) in facts
        .iter()
        .zip(tallies)
        .zip(seats.values_mut())
        .enumerate()
    {
        let tiles = t.tile_points(rules, f.industry);
        let mut commodities = 0;
        if rules.scores_assets() {
            // R-COM-9: asset VP after the gold crash, plus the oil majority.
            commodities = t.asset_points(gold_pile_empty);
            if most_oil > 0 && t.oil == most_oil {
                commodities += u32::from(rules.oil_majority) / oil_holders;
            }
        }
        let mut seat = SeatOutcome {
            seat: i as u8,
            nation: f.nation,
            industry: f.industry,
            spent: f.spent,
            // R-SCO-2
            eliminated: f.spent == max_spent,
            winner: false,
            // R-SCO-4
            companies: tiles.companies,
            // R-SCO-5
            zero_bids: u32::from(f.zero_rounds) * u32::from(rules.zero_bid_vp),
            // R-SCO-6
            nationalization: tiles.nationalization,
            // R-SCO-7
            monopolization: tiles.monopolization,
            // R-SCO-8
            diversification: tiles.diversification,
            commodities,
            subtotal: 0,
            // R-SCO-3
            least_spent_bonus: if f.spent == min_spent {
                u32::from(rules.least_spent_bonus)
            } else {
                0
            },
            total: 0,
        };
        // R-SCO-9
        seat.subtotal = seat.companies
            + seat.zero_bids
            + seat.nationalization
            + seat.monopolization
            + seat.diversification
            + seat.commodities;
        // R-SCO-10
        seat.total = seat.subtotal + seat.least_spent_bonus;
        *o = seat;
    }
    // R-SCO-11: highest total among the survivors; ties to the least spent; still tied share.
    let best = seats
        .in_play(players)
        .iter()
        .filter(|o| !o.eliminated)
        .map(SeatOutcome::finish_key)
        .max();
    if let Some(best) = best {
        for o in seats.in_play_mut(players) {
            o.winner = !o.eliminated && o.finish_key() == best;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Table;

    /// [`diversification`]'s quick exits against the search alone, for every count of up to 4 of
    /// each industry, with the base tables and with a table where two 4-sets beat a 5-set and a
    /// 3-set.
    #[test]
    fn the_quick_exits_agree_with_the_search() {
        let flat = crate::rules::RulesBuilder::new(5)
            .diversification(Table::new("diversification", &[0, 0, 0, 10, 20, 21]).unwrap())
            .build()
            .unwrap();
        for rules in [Rules::base(4).unwrap(), Rules::base(5).unwrap(), flat] {
            for code in 0..5u32.pow(5) {
                let counts: [u8; 5] =
                    core::array::from_fn(|i| (code / 5u32.pow(i as u32) % 5) as u8);
                let distinct = counts.iter().filter(|&&c| c > 0).count();
                let searched = if distinct < 3 {
                    0
                } else {
                    diversification_search(&rules.diversification, counts, distinct)
                };
                assert_eq!(diversification(&rules, &counts), searched, "{counts:?}");
            }
        }
    }
}
