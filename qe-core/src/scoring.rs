//! Final scoring (RULES.md section 6 and R-COM-8/9) as pure functions, and the [`Outcome`]
//! (section 8).

use crate::components::{AssetKind, Industry, Nation, TileId, TokenId};
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
    /// How many tokens it holds.
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
        self.tokens[..self.token_count as usize]
            .iter()
            .flatten()
            .copied()
    }
}

/// One seat's result: RULES.md section 8.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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

/// The outcome of a finished game: one [`SeatOutcome`] per seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    players: u8,
    seats: PerSeat<SeatOutcome>,
}

impl Outcome {
    /// Every seat's result, by seat.
    pub fn seats(&self) -> &[SeatOutcome] {
        &self.seats.0[..self.players as usize]
    }

    /// One seat's result.
    pub fn seat(&self, seat: Seat) -> &SeatOutcome {
        &self.seats[seat]
    }

    /// The winners (several when they share the win, none when all are eliminated).
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
        let mut seats = PerSeat::default();
        for (i, s) in raw.seats.into_iter().enumerate() {
            seats.0[i] = s;
        }
        Ok(Outcome { players, seats })
    }
}

/// R-SCO-8: the best total over all partitions of part of the industry multiset `counts` into sets of
/// pairwise different industries of at least 3 members, each scoring `rules.diversification`.
///
/// Exact: it tries every multiset of set sizes and keeps those that can be packed. A list of set sizes
/// `s_1 ≥ s_2 ≥ …` fits the counts iff, for every `k`, `s_1 + … + s_k ≤ Σ_i min(c_i, k)` (the
/// Gale–Ryser condition for a 0-1 matrix with row sums `s_j` and column sums at most `c_i`).
///
/// ```
/// use qe_core::{scoring::diversification, Rules};
/// let rules = Rules::base(5).unwrap();
/// // AGR2 HOU2 FIN2 MAN1 GOV1: 5+3 scores 17+8 = 25, more than 4+4 = 24.
/// assert_eq!(diversification(&rules, &[2, 2, 2, 1, 1]), 25);
/// ```
pub fn diversification(rules: &Rules, counts: &[u8; 5]) -> u32 {
    let distinct = counts.iter().filter(|&&c| c > 0).count();
    if distinct < 3 {
        return 0;
    }
    let total: usize = counts.iter().map(|&c| c as usize).sum();
    if total < 6 {
        // Room for one set only; the table never decreases, so it takes every industry.
        return rules.diversification.score(distinct);
    }
    let mut sizes = [0u8; 16];
    let mut best = 0;
    search_sizes(rules, *counts, distinct, total, &mut sizes, 0, 0, &mut best);
    best
}

/// Enumerates non-increasing lists of set sizes (from `distinct` down to 3) that fit the counts.
#[allow(clippy::too_many_arguments)]
fn search_sizes(
    rules: &Rules,
    counts: [u8; 5],
    max_size: usize,
    left: usize,
    sizes: &mut [u8; 16],
    len: usize,
    score: u32,
    best: &mut u32,
) {
    *best = (*best).max(score);
    if len == sizes.len() {
        return;
    }
    for size in (3..=max_size.min(left)).rev() {
        sizes[len] = size as u8;
        if fits(counts, &sizes[..=len]) {
            let s = score + rules.diversification.score(size);
            search_sizes(rules, counts, size, left - size, sizes, len + 1, s, best);
        }
    }
}

/// The Gale–Ryser test for non-increasing `sizes` against `counts`.
fn fits(counts: [u8; 5], sizes: &[u8]) -> bool {
    let mut need = 0usize;
    for (k, &s) in sizes.iter().enumerate() {
        need += s as usize;
        let have: usize = counts.iter().map(|&c| (c as usize).min(k + 1)).sum();
        if need > have {
            return false;
        }
    }
    true
}

/// Scores every seat (section 6, R-COM-8/9). `gold_pile_empty` is whether the gold pile is empty at
/// game end (R-COM-9 gold crash).
pub fn score(rules: &Rules, holdings: &[Holdings], gold_pile_empty: bool) -> Outcome {
    let n = holdings.len();
    let mut seats: PerSeat<SeatOutcome> = PerSeat::default();
    let oil: [usize; MAX_SEATS] = core::array::from_fn(|i| {
        holdings.get(i).map_or(0, |h| {
            h.tokens().filter(|t| t.kind() == AssetKind::Oil).count()
        })
    });
    let most_oil = oil.iter().copied().max().unwrap_or(0);
    let oil_holders = oil.iter().filter(|&&c| c == most_oil).count();
    let max_spent = holdings.iter().map(|h| h.spent).max().unwrap_or(0);
    let min_spent = holdings.iter().map(|h| h.spent).min().unwrap_or(0);

    for (i, h) in holdings.iter().enumerate() {
        let o = &mut seats.0[i];
        o.seat = i as u8;
        o.nation = h.nation;
        o.industry = h.industry;
        o.spent = h.spent;
        // One pass over the tiles for R-SCO-4, R-SCO-6 and the industry counts of R-SCO-7/8.
        let mut companies = 0u32;
        let mut own = 0usize;
        let mut counts = [0u8; 5];
        let mut bits = h.tiles;
        while bits != 0 {
            let t = TileId::ALL[bits.trailing_zeros() as usize];
            bits &= bits - 1;
            companies += rules.manifest().tile_value(t) as u32;
            own += usize::from(Some(t.nation()) == h.nation);
            counts[t.industry().index()] += 1;
        }
        // R-SCO-4
        o.companies = companies;
        // R-SCO-5
        o.zero_bids = h.zero_rounds as u32 * rules.zero_bid_vp as u32;
        // R-SCO-6
        o.nationalization = rules.nationalization.score(own);
        // R-SCO-7 and R-SCO-8 count the industry token too.
        if let Some(ind) = h.industry {
            counts[ind.index()] += 1;
        }
        o.monopolization = counts
            .iter()
            .map(|&c| rules.monopolization.score(c as usize))
            .sum();
        o.diversification = diversification(rules, &counts);
        // R-COM-9
        if rules.has_commodities() {
            let mut vp = 0;
            for t in h.tokens() {
                let v = rules.manifest().token_value(t).unwrap_or(0) as u32;
                vp += if t.kind() == AssetKind::Gold && gold_pile_empty {
                    v.saturating_sub(rules.gold_crash as u32)
                } else {
                    v
                };
            }
            if most_oil > 0 && oil[i] == most_oil {
                vp += rules.oil_majority as u32 / oil_holders as u32;
            }
            o.commodities = vp;
        }
        // R-SCO-9
        o.subtotal = o.companies
            + o.zero_bids
            + o.nationalization
            + o.monopolization
            + o.diversification
            + o.commodities;
        // R-SCO-3
        if h.spent == min_spent {
            o.least_spent_bonus = rules.least_spent_bonus as u32;
        }
        // R-SCO-10
        o.total = o.subtotal + o.least_spent_bonus;
        // R-SCO-2
        o.eliminated = h.spent == max_spent;
    }
    // R-SCO-11: highest total among the survivors; ties to the least spent; still tied share.
    let best = seats.0[..n]
        .iter()
        .filter(|o| !o.eliminated)
        .map(|o| (o.total, core::cmp::Reverse(o.spent)))
        .max();
    if let Some(best) = best {
        for o in &mut seats.0[..n] {
            o.winner = !o.eliminated && (o.total, core::cmp::Reverse(o.spent)) == best;
        }
    }
    Outcome {
        players: n as u8,
        seats,
    }
}
