//! [`Setup`]: seats' nations, the industry deal, the deck order and the asset piles (R-SET), from a
//! seed or given explicitly, validated against the [`Rules`].

use alloc::format;

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::components::{AssetKind, Industry, Nation, TileId, TokenId, MAX_TOKENS};
use crate::rules::Rules;
use crate::seat::{PerSeat, MAX_SEATS};
use crate::setup_error::SetupError;

/// The error of piles in a game without Commodities (R-COM-1): tokens in a set-up, or a
/// record's `piles` field.
pub(crate) const PILES_WITHOUT_COMMODITIES: &str =
    "asset piles are given but the Commodities expansion is off";

/// SplitMix64's finalizer: mixes a seed into another, well spread and portable. The one mixer
/// for deriving seeds from seeds: each game of a `qe simulate` tournament, each env of a
/// `qe.VectorEnv`, and the search bot's own random streams.
///
/// ```
/// assert_eq!(qe_core::mix_seed(0), 0xE220_A839_7B1D_CDAF);
/// assert_ne!(qe_core::mix_seed(1), qe_core::mix_seed(2));
/// ```
pub const fn mix_seed(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The industry tokens dealt in a game of `players` seats (R-CMP-6): `AGR HOU FIN MAN`, plus `GOV`
/// with 5 players. With 3 players one of the four is set aside unseen.
pub fn deal_tokens(players: u8) -> &'static [Industry] {
    if players == 5 {
        &Industry::ALL[..5]
    } else {
        &Industry::ALL[..4]
    }
}

/// The nations seats may have (R-SET-1): `US EU CN JP`, plus `UK` with 5 players.
pub fn nations_in_play(players: u8) -> &'static [Nation] {
    if players == 5 {
        &Nation::ALL[..5]
    } else {
        &Nation::ALL[..4]
    }
}

/// A validated set-up: everything random about a game, fixed (R-SET-2).
///
/// ```
/// use qe_core::{Rules, Setup};
/// let rules = Rules::base(4).unwrap();
/// let a = Setup::seeded(&rules, 7);
/// assert_eq!(a, Setup::seeded(&rules, 7)); // same seed, same set-up, on every platform
/// assert_eq!(a.deck().len(), 16);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    pub(crate) players: u8,
    pub(crate) nations: PerSeat<Nation>,
    /// Seat `i` gets `deal[i]`; with 3 players `deal[3]` is the token set aside.
    pub(crate) deal: [Industry; MAX_SEATS],
    pub(crate) deck: [TileId; 16],
    pub(crate) deck_len: u8,
    /// Every pile, top first, gold then oil then crypto.
    pub(crate) piles: [TokenId; MAX_TOKENS],
    pub(crate) pile_len: [u8; 3],
}

/// A uniform integer in `0..n` (`n ≥ 1`) from a 32-bit draw, by Lemire's multiply-and-reject method.
/// Documented so that other implementations can reproduce seeded games exactly.
fn uniform(rng: &mut ChaCha8Rng, n: u32) -> u32 {
    let mut m = u64::from(rng.next_u32()) * u64::from(n);
    // Reject when the low half falls below 2^32 mod n. That bound is below n, so it is only worth
    // computing (a division) when the low half is below n.
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (m >> 32) as u32
}

/// Fisher–Yates from the last position down, with [`uniform`].
fn shuffle<T>(rng: &mut ChaCha8Rng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = uniform(rng, i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

impl Setup {
    /// A set-up drawn from `seed` (R-SET-2). Portable: the generator is ChaCha8
    /// (`ChaCha8Rng::seed_from_u64(seed)` of `rand_chacha`), and the draws, in this order, are a
    /// Fisher–Yates shuffle (from the last position down, each index drawn by Lemire's method from one
    /// `next_u32`) of: the tiles in play in [`TileId::ALL`] order (the deck, top first); the dealt
    /// industry tokens in [`Industry::ALL`] order (seat `i` gets entry `i`); then each pile's tokens
    /// in play by number, gold, oil, crypto (only with Commodities). Nations are the default (R-SET-1).
    pub fn seeded(rules: &Rules, seed: u64) -> Setup {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let players = rules.players();
        let mut setup = Setup::blank(rules);
        shuffle(&mut rng, &mut setup.deck[..setup.deck_len as usize]);
        let tokens = deal_tokens(players).len();
        shuffle(&mut rng, &mut setup.deal[..tokens]);
        // The piles (R-COM-1; empty without Commodities, so they draw nothing).
        let mut at = 0;
        for k in 0..3 {
            let len = setup.pile_len[k] as usize;
            shuffle(&mut rng, &mut setup.piles[at..at + len]);
            at += len;
        }
        setup
    }

    /// The unshuffled set-up: default nations, deal in [`Industry::ALL`] order, deck in
    /// [`TileId::ALL`] order, piles by number.
    fn blank(rules: &Rules) -> Setup {
        let players = rules.players();
        let mut nations = PerSeat::splat(Nation::US);
        nations
            .in_play_mut(Nation::ALL.len() as u8)
            .copy_from_slice(Nation::ALL);
        let mut deal = [Industry::AGR; MAX_SEATS];
        deal.copy_from_slice(Industry::ALL);
        let mut deck = [TileId::ALL[0]; 16];
        let deck_len = rules.manifest().deck_in_play(players, &mut deck);
        let (piles, pile_len) = rules.piles_in_play();
        Setup {
            players,
            nations,
            deal,
            deck,
            deck_len,
            piles,
            pile_len,
        }
    }

    /// An explicit set-up (R-SET-2), validated: one distinct nation per seat from the nations in play,
    /// one distinct industry token per seat from the tokens dealt (R-CMP-6), the deck holding exactly
    /// the tiles in play (R-CMP-5), and with Commodities each pile holding exactly the tokens in play
    /// of its kind (R-CMP-7). Pass `None` for `nations` to use the default, and empty piles without
    /// the expansion.
    pub fn new(
        rules: &Rules,
        nations: Option<&[Nation]>,
        industries: &[Industry],
        deck: &[TileId],
        piles: [&[TokenId]; 3],
    ) -> Result<Setup, SetupError> {
        let players = rules.players();
        let n = players as usize;
        let mut setup = Setup::blank(rules);
        if let Some(nations) = nations {
            check_list("nations", nations, n, nations_in_play(players), "R-SET-1")?;
            setup.nations.in_play_mut(players).copy_from_slice(nations);
        }
        check_list(
            "industry_tokens",
            industries,
            n,
            deal_tokens(players),
            "R-CMP-6",
        )?;
        setup.deal[..n].copy_from_slice(industries);
        if players == 3 {
            // R-CMP-6: the fourth token is set aside.
            setup.deal[3] = *deal_tokens(3)
                .iter()
                .find(|t| !industries.contains(t))
                .expect("three distinct of four leave one");
        }
        let in_play = rules.manifest().tiles_in_play(players);
        let mut allowed = [TileId::ALL[0]; 21];
        for (slot, t) in allowed.iter_mut().zip(in_play.iter()) {
            *slot = t;
        }
        check_list(
            "deck",
            deck,
            in_play.len(),
            &allowed[..in_play.len()],
            "R-CMP-5",
        )?;
        setup.deck[..deck.len()].copy_from_slice(deck);
        if rules.has_piles() {
            let mut at = 0;
            for kind in AssetKind::ALL {
                let pile = piles[kind.index()];
                let mut expected = [TokenId::new(*kind, 1); MAX_TOKENS];
                let mut len = 0;
                for t in rules.tokens_in_play().filter(|t| t.kind() == *kind) {
                    expected[len] = t;
                    len += 1;
                }
                let what = match kind {
                    AssetKind::Gold => "the gold pile",
                    AssetKind::Oil => "the oil pile",
                    AssetKind::Crypto => "the crypto pile",
                };
                check_list(what, pile, len, &expected[..len], "R-CMP-7")?;
                setup.piles[at..at + len].copy_from_slice(pile);
                at += len;
            }
        } else if piles.iter().any(|p| !p.is_empty()) {
            return Err(SetupError::Piles(PILES_WITHOUT_COMMODITIES));
        }
        Ok(setup)
    }

    /// The number of seats.
    pub fn players(&self) -> u8 {
        self.players
    }

    /// The nation of each seat.
    pub fn nations(&self) -> &[Nation] {
        self.nations.in_play(self.players)
    }

    /// The industry token of each seat.
    pub fn industries(&self) -> &[Industry] {
        &self.deal[..self.players as usize]
    }

    /// The industry token of each seat as per-seat data ([`Industry::AGR`] past the player count).
    pub(crate) fn seat_industries(&self) -> PerSeat<Industry> {
        let mut seats = PerSeat::splat(Industry::AGR);
        seats
            .in_play_mut(self.players)
            .copy_from_slice(self.industries());
        seats
    }

    /// The industry token set aside unseen (3 players only, R-CMP-6).
    pub fn set_aside(&self) -> Option<Industry> {
        (self.players == 3).then_some(self.deal[3])
    }

    /// The deck, top first.
    pub fn deck(&self) -> &[TileId] {
        &self.deck[..self.deck_len as usize]
    }

    /// The pile of `kind`, top first (empty without Commodities).
    #[inline]
    pub fn pile(&self, kind: AssetKind) -> &[TokenId] {
        let start: usize = self.pile_len[..kind.index()]
            .iter()
            .map(|&l| l as usize)
            .sum();
        &self.piles[start..start + self.pile_len[kind.index()] as usize]
    }
}

/// Checks that `list` has `len` entries, each from `allowed`, none twice.
fn check_list<T: PartialEq + Copy + core::fmt::Display>(
    what: &'static str,
    list: &[T],
    len: usize,
    allowed: &[T],
    rule: &'static str,
) -> Result<(), SetupError> {
    if list.len() != len {
        return Err(SetupError::Count {
            what,
            count: list.len(),
            expected: len,
        });
    }
    for (i, item) in list.iter().enumerate() {
        if !allowed.contains(item) {
            return Err(SetupError::Entry {
                what,
                name: format!("{item}"),
                problem: "is not in play",
                rule,
            });
        }
        if list[..i].contains(item) {
            return Err(SetupError::Entry {
                what,
                name: format!("{item}"),
                problem: "appears twice",
                rule,
            });
        }
    }
    Ok(())
}
