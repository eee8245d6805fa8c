//! Final scoring (RULES.md section 6 and R-COM-8/9) as pure functions, and the [`Outcome`]
//! (section 8).

use crate::components::{AssetKind, Industry, Manifest, Nation, TileId, TokenId};
use crate::rules::{Rules, DEFAULT_DIVERSIFICATION, DEFAULT_MONOPOLIZATION};
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
    // Inlined, like `Outcome::winners`, so that a caller reading an outcome it was handed reads it
    // where it lies, without copying it first (`Game::score_kept_into`, PERF.md).
    #[inline]
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
    // Inlined (see `Outcome::seats`; PERF.md).
    #[inline]
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
    diversification_plain(&rules.diversification, *counts)
}

/// What a seat's industry counts score, monopolization (R-SCO-7) and diversification (R-SCO-8),
/// with the scores of the default tables remembered: under the default tables of a player count
/// ([`DEFAULT_TABLES`]), both scores of a count vector with no count above 3 are read from a
/// table built at compile time ([`REMEMBERED`], by [`search_const`], the search of
/// [`diversification_search`] as a `const fn`); every other case is scored plainly
/// ([`IndustryPoints::score_plain`]: the tables, and [`diversification_plain`]). The tests hold
/// the two equal for every count vector of up to 7 of each industry, under the default tables of
/// every player count and under others.
#[derive(Clone, Copy, Debug)]
pub(crate) struct IndustryPoints<'a> {
    /// The rules' tables.
    rules: &'a Rules,
    /// Both scores of the small count vectors (by [`small_index`]: diversification in the low
    /// byte, monopolization in the high one), when the rules' tables are a player count's
    /// defaults.
    known: Option<&'static [u16; SMALL_VECTORS]>,
}

/// How many count vectors have no count above 3: [`small_index`] numbers them.
const SMALL_VECTORS: usize = 1 << 10;

/// The entries of the default monopolization and diversification tables (R-SCO-7, R-SCO-8;
/// [`DEFAULT_MONOPOLIZATION`], [`DEFAULT_DIVERSIFICATION`]): 3 and 4 players, then 5 players.
static DEFAULT_TABLES: [(&[u8], &[u8]); 2] = [
    (
        DEFAULT_MONOPOLIZATION[0].entries(),
        DEFAULT_DIVERSIFICATION[0].entries(),
    ),
    (
        DEFAULT_MONOPOLIZATION[1].entries(),
        DEFAULT_DIVERSIFICATION[1].entries(),
    ),
];

/// [`IndustryPoints`]' scores under each of [`DEFAULT_TABLES`], for every count vector with no
/// count above 3, by [`small_index`]: built at compile time.
static REMEMBERED: [[u16; SMALL_VECTORS]; 2] = [
    small_scores(DEFAULT_TABLES[0]),
    small_scores(DEFAULT_TABLES[1]),
];

/// Five industry counts as the low five bytes of a `u64`, by [`Industry::index`]: `counts` with
/// the industry token `token` counted too (R-SCO-7 and R-SCO-8 count it), without a store and a
/// load of the array. A seat's count of an industry is at most its 5 tiles, so the token never
/// carries into the next byte.
#[inline]
fn counts_word(counts: [u8; 5], token: Option<Industry>) -> u64 {
    let [a, b, c, d, e] = counts;
    u64::from_le_bytes([a, b, c, d, e, 0, 0, 0]) + token.map_or(0, |i| 1 << (8 * i.index()))
}

/// The counts of [`counts_word`]'s word `word`.
#[inline]
fn word_counts(word: u64) -> [u8; 5] {
    let [a, b, c, d, e, ..] = word.to_le_bytes();
    [a, b, c, d, e]
}

/// The number of the count vector of [`counts_word`]'s word `word` when no count is above 3 (two
/// bits a count), below [`SMALL_VECTORS`]; `None` when a count is above 3.
#[inline]
const fn small_index(word: u64) -> Option<usize> {
    if word & 0xFC_FCFC_FCFC != 0 {
        return None;
    }
    let index = (word & 0x3)
        | (word >> 6 & 0xC)
        | (word >> 12 & 0x30)
        | (word >> 18 & 0xC0)
        | (word >> 24 & 0x300);
    Some(index as usize)
}

/// `Table::score` of the table with `entries`, as a `const fn`: counts past the end score the
/// last entry.
const fn entry(entries: &[u8], count: usize) -> u32 {
    let last = entries.len() - 1;
    entries[if count < last { count } else { last }] as u32
}

/// [`REMEMBERED`] for one pair of tables' entries (monopolization, diversification): each count
/// vector's diversification in the low byte, its monopolization in the high one.
const fn small_scores(tables: (&[u8], &[u8])) -> [u16; SMALL_VECTORS] {
    let (monopolization, diversification) = tables;
    let sets = [
        entry(diversification, 3),
        entry(diversification, 4),
        entry(diversification, 5),
    ];
    let mut scores = [0; SMALL_VECTORS];
    let mut index = 0;
    while index < SMALL_VECTORS {
        let (mut counts, mut word) = ([0u8; 5], 0u64);
        let mut monopoly = 0;
        let mut i = 0;
        while i < 5 {
            counts[i] = ((index >> (2 * i)) & 3) as u8;
            word |= (counts[i] as u64) << (8 * i);
            monopoly += entry(monopolization, counts[i] as usize);
            i += 1;
        }
        let Some(at) = small_index(word) else {
            panic!("a count above 3")
        };
        scores[at] = (monopoly << 8 | search_const(counts, sets)) as u16;
        index += 1;
    }
    scores
}

/// The Gale–Ryser search of [`diversification_search`], as a `const fn` of the set scores `values`
/// (3, 4 and 5 industries), for building [`REMEMBERED`]; with fewer than 3 industries held it
/// scores 0 (no set fits).
const fn search_const(counts: [u8; 5], values: [u32; 3]) -> u32 {
    const fn cap(counts: [u8; 5], k: u32) -> u32 {
        let (mut sum, mut i) = (0, 0);
        while i < 5 {
            let c = counts[i] as u32;
            sum += if c < k { c } else { k };
            i += 1;
        }
        sum
    }
    let [v3, v4, v5] = values;
    let mut best = 0;
    let mut n5 = 0;
    while 5 * n5 <= cap(counts, n5) {
        let mut n4 = 0;
        while 5 * n5 + 4 * n4 <= cap(counts, n5 + n4) {
            let (mut sets, mut used) = (n5 + n4, 5 * n5 + 4 * n4);
            let mut score = n5 * v5 + n4 * v4;
            while used + 3 <= cap(counts, sets + 1) {
                sets += 1;
                used += 3;
                score += v3;
            }
            if score > best {
                best = score;
            }
            n4 += 1;
        }
        n5 += 1;
    }
    best
}

impl<'a> IndustryPoints<'a> {
    /// The industry points under `rules`' tables.
    #[inline]
    pub(crate) fn of(rules: &'a Rules) -> Self {
        let tables = (
            rules.monopolization.entries(),
            rules.diversification.entries(),
        );
        let known = if tables == DEFAULT_TABLES[0] {
            Some(&REMEMBERED[0])
        } else if tables == DEFAULT_TABLES[1] {
            Some(&REMEMBERED[1])
        } else {
            None
        };
        IndustryPoints { rules, known }
    }

    /// Monopolization and diversification of the industry counts `counts` (the tiles, by
    /// [`Industry::index`]) with the industry token `token`.
    #[inline]
    pub(crate) fn score(&self, counts: [u8; 5], token: Option<Industry>) -> (u32, u32) {
        let word = counts_word(counts, token);
        if let Some(scores) = self.known {
            if let Some(index) = small_index(word) {
                let both = scores[index & (SMALL_VECTORS - 1)];
                return (u32::from(both >> 8), u32::from(both & 0xff));
            }
        }
        self.score_plain(word_counts(word))
    }

    /// [`IndustryPoints::score`] without remembered scores: each count's monopolization, and
    /// [`diversification_plain`].
    #[inline(never)]
    pub(crate) fn score_plain(&self, counts: [u8; 5]) -> (u32, u32) {
        let table = &self.rules.monopolization;
        let monopolization = counts.iter().map(|&c| table.score(c as usize)).sum();
        (
            monopolization,
            diversification_plain(&self.rules.diversification, counts),
        )
    }
}

/// [`diversification`] of the table `table`: the quick exits, then the search. The plain version
/// of [`IndustryPoints`]' remembered diversification.
fn diversification_plain(table: &crate::rules::Table, counts: [u8; 5]) -> u32 {
    let (distinct, twice) = distinct_and_twice(counts);
    if distinct < 3 {
        return 0;
    }
    if distinct + twice < 6 {
        // Room for one set only: two sets of 3 need six items of which no two of a set share an
        // industry, `cap(2) = distinct + twice` below. The table never decreases, so the one set
        // takes every industry.
        return table.score(distinct);
    }
    diversification_search(table, counts, distinct)
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
    Tally::of_tiles(rules.manifest(), nation, tiles)
        .tile_points(&IndustryPoints::of(rules), industry)
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

    /// What the tiles and the seat's industry token `industry` score (R-SCO-4, R-SCO-6…8), with
    /// `points` of the rules' tables.
    #[inline]
    pub(crate) fn tile_points(
        &self,
        points: &IndustryPoints<'_>,
        industry: Option<Industry>,
    ) -> TilePoints {
        let (monopolization, diversification) = points.score(self.industries, industry);
        TilePoints {
            companies: u32::from(self.companies),
            nationalization: points.rules.nationalization.score(usize::from(self.own)),
            monopolization,
            diversification,
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
    let mut tallies = PerSeat::<Tally>::default();
    for (h, t) in holdings.iter().zip(tallies.values_mut()) {
        *t = Tally::of_holdings(rules, h);
    }
    let mut outcome = Outcome::UNSCORED;
    score_tallied_into(
        rules,
        holdings.len() as u8,
        |seat| {
            let h = &holdings[seat.index()];
            SeatFacts {
                nation: h.nation,
                industry: h.industry,
                zero_rounds: h.zero_rounds,
                spent: h.spent,
            }
        },
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

/// [`score`] from each seat's facts (`facts` of the seat, read where they are kept: no array of
/// them is built) and [`Tally`], written into `outcome` where it lies (an [`Outcome`] is 336 bytes;
/// PERF.md): the seats `0..players` are scored, the others left as they are
/// ([`Outcome::UNSCORED`]). A pass for the most and least spent, then one scoring each seat, its
/// industry counts' points from [`IndustryPoints`], that keeps the best survivor's
/// [`SeatOutcome::finish_key`] and the seats that share it as a mask (R-SCO-11), so that marking
/// the winners compares nothing. The plain version, which the tests hold it to, is the tests'
/// `score_tallied_plain` (the winners from the highest [`SeatOutcome::finish_key`]).
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn score_tallied_into(
    rules: &Rules,
    players: u8,
    facts: impl Fn(Seat) -> SeatFacts,
    tallies: &PerSeat<Tally>,
    gold_pile_empty: bool,
    outcome: &mut Outcome,
) {
    let n = usize::from(players).min(MAX_SEATS);
    outcome.players = players;
    let (mut max_spent, mut min_spent) = (i128::MIN, i128::MAX);
    for i in 0..n {
        let spent = facts(Seat(i as u8)).spent;
        max_spent = max_spent.max(spent);
        min_spent = min_spent.min(spent);
    }
    let tallies = tallies.in_play(players);
    // R-COM-9 oil majority: the seats holding the most oil tokens, at least one.
    let (mut most_oil, mut oil_holders) = (0, 0);
    if rules.scores_assets() {
        // One pass: the most so far, and how many hold it.
        for t in tallies {
            if t.oil > most_oil {
                (most_oil, oil_holders) = (t.oil, 1);
            } else if t.oil == most_oil {
                oil_holders += 1;
            }
        }
    }
    let points = IndustryPoints::of(rules);
    // R-SCO-11: the best survivor's finish key so far, and the seats that share it.
    let (mut best, mut winners) = (None, 0u8);
    for ((i, t), o) in tallies.iter().enumerate().zip(outcome.seats.values_mut()) {
        let f = facts(Seat(i as u8));
        let tiles = t.tile_points(&points, f.industry);
        let mut commodities = 0;
        if rules.scores_assets() {
            // R-COM-9: asset VP after the gold crash, plus the oil majority.
            commodities = t.asset_points(gold_pile_empty);
            if most_oil > 0 && t.oil == most_oil {
                commodities += u32::from(rules.oil_majority) / oil_holders;
            }
        }
        // R-SCO-5
        let zero_bids = u32::from(f.zero_rounds) * u32::from(rules.zero_bid_vp);
        // R-SCO-9
        let subtotal = tiles.companies
            + zero_bids
            + tiles.nationalization
            + tiles.monopolization
            + tiles.diversification
            + commodities;
        // R-SCO-3
        let least_spent_bonus = if f.spent == min_spent {
            u32::from(rules.least_spent_bonus)
        } else {
            0
        };
        // R-SCO-10
        let total = subtotal + least_spent_bonus;
        // R-SCO-2
        let eliminated = f.spent == max_spent;
        *o = SeatOutcome {
            seat: i as u8,
            nation: f.nation,
            industry: f.industry,
            spent: f.spent,
            eliminated,
            winner: false,
            // R-SCO-4
            companies: tiles.companies,
            zero_bids,
            // R-SCO-6
            nationalization: tiles.nationalization,
            // R-SCO-7
            monopolization: tiles.monopolization,
            // R-SCO-8
            diversification: tiles.diversification,
            commodities,
            subtotal,
            least_spent_bonus,
            total,
        };
        if !eliminated {
            let key = o.finish_key();
            match best.map(|b| key.cmp(&b)) {
                None | Some(core::cmp::Ordering::Greater) => (best, winners) = (Some(key), 1 << i),
                Some(core::cmp::Ordering::Equal) => winners |= 1 << i,
                Some(core::cmp::Ordering::Less) => {}
            }
        }
    }
    // R-SCO-11: highest total among the survivors; ties to the least spent; still tied share.
    for (i, o) in outcome.seats.in_play_mut(players).iter_mut().enumerate() {
        o.winner = winners >> i & 1 != 0;
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rules::Table;

    impl Tally {
        /// [`Tally::tile_points`] with each table read plainly: the plain version.
        fn tile_points_plain(&self, rules: &Rules, industry: Option<Industry>) -> TilePoints {
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
    }

    /// [`score`] the plain way: the plain version of [`Game::outcome`](crate::Game::outcome) and
    /// of [`score`], which the tests hold them to.
    pub(crate) fn score_plain(
        rules: &Rules,
        holdings: &[Holdings],
        gold_pile_empty: bool,
    ) -> Outcome {
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
        score_tallied_plain(
            rules,
            holdings.len() as u8,
            &facts,
            &tallies,
            gold_pile_empty,
            &mut outcome,
        );
        outcome
    }

    /// The plain version of [`score_tallied_into`]: the facts in an array, each seat's tile points
    /// from the tables and [`diversification`] (no remembered scores), the winners from the highest
    /// [`SeatOutcome::finish_key`] among the survivors.
    fn score_tallied_plain(
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
            let tiles = t.tile_points_plain(rules, f.industry);
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

    /// [`IndustryPoints`] (the remembered scores of the default tables) against each count's
    /// monopolization and [`diversification_plain`], and these against the search alone, for every
    /// count vector of up to 7 of each industry (past what a seat can hold: 5 tiles of an industry
    /// and its token), under the default tables of every player count and under others.
    #[test]
    fn the_remembered_industry_points_agree_with_the_tables_and_the_search() {
        use crate::rules::RulesBuilder;
        let mut rules: alloc::vec::Vec<Rules> = Rules::every_variant().collect();
        let tables = |entries: &[u8]| Table::new("table", entries).unwrap();
        for (mono, div) in [
            (None, Some(&[0, 0, 0, 10, 20, 21][..])),
            (None, Some(&[0, 0, 0, 10, 10, 10])),
            (None, Some(&[0, 0, 0, 4, 8, 9])),
            (None, Some(&[0, 0, 0, 4])),
            (None, Some(&[0, 0, 0, 0, 0, 1])),
            (Some(&[0, 0, 3, 6, 11][..]), None),
            (Some(&[0, 0, 3, 7, 10]), None),
            (Some(&[0, 1, 3, 6, 10]), None),
            (Some(&[0, 0, 6, 10, 16]), None),
            (Some(&[0, 0, 3, 6, 10]), Some(&[0, 0, 0, 8, 12, 17])),
            (Some(&[0, 0, 6, 10, 16]), Some(&[0, 0, 0, 4, 8])),
        ] {
            for players in [4, 5] {
                let mut builder = RulesBuilder::new(players);
                if let Some(mono) = mono {
                    builder = builder.monopolization(tables(mono));
                }
                if let Some(div) = div {
                    builder = builder.diversification(tables(div));
                }
                rules.push(builder.build().unwrap());
            }
        }
        // `small_index` numbers the vectors with no count above 3 one to one.
        let mut seen = [false; SMALL_VECTORS];
        for code in 0..SMALL_VECTORS as u32 {
            let counts: [u8; 5] = core::array::from_fn(|i| (code >> (2 * i) & 3) as u8);
            let index = small_index(counts_word(counts, None)).unwrap();
            assert!(!core::mem::replace(&mut seen[index], true), "{counts:?}");
        }
        // And it takes no vector with a count above 3, whatever the other counts.
        for at in 0..5 {
            for others in [0, 3] {
                for count in 0..=u8::MAX {
                    let mut counts = [others; 5];
                    counts[at] = count;
                    let small = small_index(counts_word(counts, None));
                    assert_eq!(small.is_some(), count <= 3, "{counts:?}");
                }
            }
        }
        let mut remembered = 0;
        for rules in &rules {
            let points = IndustryPoints::of(rules);
            for code in 0..8u32.pow(5) {
                let counts: [u8; 5] = core::array::from_fn(|i| (code >> (3 * i) & 7) as u8);
                let distinct = counts.iter().filter(|&&c| c > 0).count();
                let searched = if distinct < 3 {
                    0
                } else {
                    diversification_search(&rules.diversification, counts, distinct)
                };
                let table = &rules.monopolization;
                let monopolization = counts.iter().map(|&c| table.score(c.into())).sum();
                assert_eq!(diversification(rules, &counts), searched, "{counts:?}");
                assert_eq!(
                    points.score(counts, None),
                    (monopolization, searched),
                    "{rules:?} {counts:?}"
                );
                // The industry token counts as one more of its industry.
                for token in Industry::ALL {
                    let mut fewer = counts;
                    if fewer[token.index()] > 0 {
                        fewer[token.index()] -= 1;
                        assert_eq!(
                            points.score(fewer, Some(*token)),
                            points.score(counts, None)
                        );
                    }
                }
                assert_eq!(points.score_plain(counts), (monopolization, searched));
                let small = small_index(counts_word(counts, None)).is_some();
                assert_eq!(small, counts.iter().all(|&c| c <= 3));
                remembered += usize::from(points.known.is_some() && small);
            }
        }
        // Every default game's tables are remembered (for each vector with no count above 3),
        // and so are those of the 5-player rules given the default monopolization table again;
        // the others are not.
        let defaults = Rules::every_variant().count();
        assert_eq!(remembered, (defaults + 1) * SMALL_VECTORS);
    }
}
