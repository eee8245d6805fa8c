//! [`Setup`]: seats' nations, the industry deal, the deck order and the asset piles (R-SET), from a
//! seed or given explicitly, validated against the [`Rules`].

use alloc::format;

use rand_chacha::rand_core::block::BlockRngCore;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Core;

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

/// The words `ChaCha8Core` fills at a time: four ChaCha blocks, 64 words.
type Block = <ChaCha8Core as BlockRngCore>::Results;

/// The words in a [`Block`].
const BLOCK_WORDS: usize = 64;

/// The words a seeded set-up draws (R-SET-2): the stream of `ChaCha8Rng::seed_from_u64(seed)`
/// (`rand_chacha`), read from its core, `ChaCha8Core`, without the `BlockRng` wrapper that
/// `ChaCha8Rng` is (PERF.md).
///
/// `ChaCha8Rng` is a `BlockRng<ChaCha8Core>`: its `next_u32` returns the words of the core's
/// 64-word block in order and has the core fill the next block when they are used up; its seed is
/// expanded into the key by `SeedableRng::seed_from_u64` (rand_core's PCG32). This is the same
/// core, seeded by the same `seed_from_u64`, and `Draws` reads its block the same way, so the
/// words are the same, on every platform. The difference is where they live: `ChaCha8Rng` (the
/// core, the block and the index, some 300 bytes) is built and then moved into place, and its
/// index is written back at every draw; here the block is filled where it stays, and the index is a local
/// of the set-up's loops. The tests compare the words, and whole set-ups, with `ChaCha8Rng`'s.
struct SetupWords {
    /// The generator: the key and the block counter.
    core: ChaCha8Core,
    /// The words the core filled last.
    block: Block,
}

impl SetupWords {
    /// The core seeded by `seed` (as `ChaCha8Rng::seed_from_u64` seeds it), its block not yet
    /// filled: `Draws::new` fills it in place.
    #[inline]
    fn seeded(seed: u64) -> SetupWords {
        SetupWords {
            core: ChaCha8Core::seed_from_u64(seed),
            block: Block::default(),
        }
    }

    /// The next 64 words, when a set-up has drawn the first 64: only after many rejections, as a
    /// set-up draws at most 36 words without them (15 for the deck, 4 for the deal, 17 for the
    /// piles).
    #[cold]
    #[inline(never)]
    fn refill(&mut self) {
        self.core.generate(&mut self.block);
    }
}

/// The reader of a set-up's words: [`SetupWords`] and the index of the next word in its block.
struct Draws<'a> {
    /// The words.
    words: &'a mut SetupWords,
    /// The index of the next word in the block; `BLOCK_WORDS` when the block is used up.
    next: usize,
}

impl<'a> Draws<'a> {
    /// The reader of the stream from its first word: the first block filled.
    #[inline]
    fn new(words: &'a mut SetupWords) -> Draws<'a> {
        words.core.generate(&mut words.block);
        Draws { words, next: 0 }
    }

    /// The next word of the stream, as `ChaCha8Rng::next_u32` returns it.
    #[inline]
    fn next_u32(&mut self) -> u32 {
        if self.next >= BLOCK_WORDS {
            self.words.refill();
            self.next = 0;
        }
        let word = self.words.block.as_ref()[self.next];
        self.next += 1;
        word
    }
}

/// A uniform integer in `0..n` (`n ≥ 1`) from the 32-bit words `next_u32` draws, by Lemire's
/// multiply-and-reject method. Documented so that other implementations can reproduce seeded games
/// exactly. The set-up draws from [`Draws`]; the tests' plain set-up from `ChaCha8Rng`.
#[inline]
fn uniform(mut next_u32: impl FnMut() -> u32, n: u32) -> u32 {
    let mut m = u64::from(next_u32()) * u64::from(n);
    // Reject when the low half falls below 2^32 mod n. That bound is below n, so it is only worth
    // computing (a division) when the low half is below n.
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = u64::from(next_u32()) * u64::from(n);
        }
    }
    (m >> 32) as u32
}

/// Fisher–Yates from the last position down, with [`uniform`].
#[inline]
fn shuffle<T>(rng: &mut Draws<'_>, items: &mut [T]) {
    shuffle_first(rng, items, items.len());
}

/// The steps of [`shuffle`] that shuffle positions `0..i` of `items` (those after them done).
#[inline]
fn shuffle_first<T>(rng: &mut Draws<'_>, items: &mut [T], mut i: usize) {
    while i > 1 {
        let j = uniform(|| rng.next_u32(), i as u32) as usize;
        i -= 1;
        items.swap(i, j);
    }
}

/// [`shuffle`], its steps taken from the block's words without `Draws::next_u32`'s test for the
/// block's end as far as the words are in the block and no step may be rejected (PERF.md); the
/// set-up's first two shuffles, the deck and the deal, go through it.
///
/// When the words left in the block cover the whole shuffle (one word a step), each step takes the
/// next word, until a step whose product of word and bound `n` has its low half below `n`: there
/// [`uniform`] tests for a rejection (and may draw again), so that step and the rest are left, with
/// that word, to [`shuffle_first`]. When the block has too few words left, every step is left to
/// it. The steps taken draw exactly what [`uniform`] would; the tests compare the two on words made
/// to be rejected and at the block's end.
#[inline]
fn shuffle_from_block<T>(rng: &mut Draws<'_>, items: &mut [T]) {
    let i = steps_in_block(rng, items);
    shuffle_first(rng, items, i);
}

/// The steps of [`shuffle_from_block`] taken from the block; returns how many positions are left
/// to shuffle (`0..i`): fewer than 2 when it is done.
#[inline]
fn steps_in_block<T>(rng: &mut Draws<'_>, items: &mut [T]) -> usize {
    let len = items.len();
    let mut i = len;
    if i < 2 {
        return i;
    }
    let next = rng.next;
    let Some(words) = rng.words.block.as_ref().get(next..next + (i - 1)) else {
        return i;
    };
    for &word in words {
        let n = i as u32;
        let m = u64::from(word) * u64::from(n);
        if (m as u32) < n {
            break;
        }
        i -= 1;
        items.swap(i, (m >> 32) as usize);
    }
    rng.next = next + (len - i);
    i
}

impl Setup {
    /// A set-up drawn from `seed` (R-SET-2). Portable: the generator is ChaCha8
    /// (`ChaCha8Rng::seed_from_u64(seed)` of `rand_chacha`), and the draws, in this order, are a
    /// Fisher–Yates shuffle (from the last position down, each index drawn by Lemire's method from one
    /// `next_u32`) of: the tiles in play in [`TileId::ALL`] order (the deck, top first); the dealt
    /// industry tokens in [`Industry::ALL`] order (seat `i` gets entry `i`); then each pile's tokens
    /// in play by number, gold, oil, crypto (only with Commodities). Nations are the default (R-SET-1).
    pub fn seeded(rules: &Rules, seed: u64) -> Setup {
        let mut words = SetupWords::seeded(seed);
        let mut rng = Draws::new(&mut words);
        let players = rules.players();
        let mut setup = Setup::blank(rules);
        shuffle_from_block(&mut rng, &mut setup.deck[..setup.deck_len as usize]);
        let tokens = deal_tokens(players).len();
        shuffle_from_block(&mut rng, &mut setup.deal[..tokens]);
        // The piles (R-COM-1; empty without Commodities, so they draw nothing), with the general
        // loop: `shuffle_from_block` here too made Commodities games longer (PERF.md).
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
    #[inline]
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mix_seed;
    use alloc::vec::Vec;
    use rand_chacha::rand_core::RngCore;
    use rand_chacha::ChaCha8Rng;

    /// `shuffle` as it was written for `ChaCha8Rng`.
    fn shuffle_plain<R: RngCore, T>(rng: &mut R, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = uniform(|| rng.next_u32(), i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// `Setup::seeded` as it was written: `ChaCha8Rng::seed_from_u64(seed)` and the plain draws.
    fn seeded_plain(rules: &Rules, seed: u64) -> Setup {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut setup = Setup::blank(rules);
        shuffle_plain(&mut rng, &mut setup.deck[..setup.deck_len as usize]);
        let tokens = deal_tokens(rules.players()).len();
        shuffle_plain(&mut rng, &mut setup.deal[..tokens]);
        let mut at = 0;
        for k in 0..3 {
            let len = setup.pile_len[k] as usize;
            shuffle_plain(&mut rng, &mut setup.piles[at..at + len]);
            at += len;
        }
        setup
    }

    /// Every kind of game: 3, 4 and 5 players, with and without Commodities.
    fn all_rules() -> Vec<Rules> {
        let mut all = Vec::new();
        for players in 3..=5 {
            all.push(Rules::base(players).unwrap());
            all.push(Rules::commodities(players).unwrap());
        }
        all
    }

    /// The seeds compared: 0 to `n − 1`, `n` more spread over all 64 bits, and the extremes;
    /// `n` is 50,000 in an optimized build and 10,000 in the (slower) test profile.
    fn seeds() -> impl Iterator<Item = u64> {
        let n = if cfg!(debug_assertions) {
            10_000
        } else {
            50_000
        };
        (0..n).chain((0..n).map(mix_seed)).chain([
            u64::MAX,
            u64::MAX - 1,
            1 << 63,
            0xFFFF_FFFF,
            1 << 32,
        ])
    }

    #[test]
    fn the_words_are_chacha8rngs() {
        for seed in seeds().step_by(5) {
            let mut plain = ChaCha8Rng::seed_from_u64(seed);
            let mut words = SetupWords::seeded(seed);
            let mut draws = Draws::new(&mut words);
            // Three blocks: the refill is compared too.
            for k in 0..3 * BLOCK_WORDS {
                assert_eq!(draws.next_u32(), plain.next_u32(), "seed {seed}, word {k}");
            }
        }
    }

    #[test]
    fn seeded_setups_are_the_plain_versions() {
        for rules in all_rules() {
            for seed in seeds() {
                assert_eq!(
                    Setup::seeded(&rules, seed),
                    seeded_plain(&rules, seed),
                    "{} players, seed {seed}",
                    rules.players()
                );
            }
        }
    }

    /// The names of `items`.
    fn names<T: core::fmt::Display>(items: &[T]) -> Vec<alloc::string::String> {
        items.iter().map(|t| alloc::format!("{t}")).collect()
    }

    #[test]
    fn seeded_setups_are_fixed() {
        // Seed 0, as qe has always dealt it.
        let base = Setup::seeded(&Rules::base(4).unwrap(), 0);
        assert_eq!(
            names(base.deck()),
            [
                "CN-AGR", "CN-HOU", "EU-AGR", "JP-HOU", "US-FIN", "US-MAN", "CN-MAN", "US-HOU",
                "US-AGR", "EU-HOU", "EU-MAN", "JP-AGR", "EU-FIN", "JP-FIN", "JP-MAN", "CN-FIN"
            ]
        );
        assert_eq!(names(base.industries()), ["AGR", "FIN", "HOU", "MAN"]);
        let five = Setup::seeded(&Rules::commodities(5).unwrap(), 0);
        assert_eq!(
            names(five.deck()),
            [
                "CN-MAN", "EU-AGR", "UK-GOV", "EU-HOU", "US-MAN", "JP-HOU", "US-FIN", "US-HOU",
                "JP-GOV", "CN-AGR", "CN-GOV", "EU-FIN", "UK-AGR", "UK-FIN", "JP-MAN"
            ]
        );
        assert_eq!(
            names(five.industries()),
            ["AGR", "FIN", "HOU", "MAN", "GOV"]
        );
        assert_eq!(
            names(five.pile(AssetKind::Gold)),
            ["gold5", "gold4", "gold3", "gold2", "gold1", "gold6"]
        );
    }

    /// A stream of given words, for the plain draws.
    struct Listed<'a>(core::slice::Iter<'a, u32>);

    impl RngCore for Listed<'_> {
        fn next_u32(&mut self) -> u32 {
            *self.0.next().expect("enough words listed")
        }
        fn next_u64(&mut self) -> u64 {
            unreachable!("the set-up draws 32-bit words")
        }
        fn fill_bytes(&mut self, _: &mut [u8]) {
            unreachable!("the set-up draws 32-bit words")
        }
    }

    /// A shuffle of `len` items from the block of `seed` with `words` written over its words from
    /// `at` on, starting at word `start`, against the plain shuffle of the same stream, with
    /// `shuffle_from_block` and with `shuffle`: the orders, and the word drawn next, agree.
    /// Returns how many words the shuffle drew.
    fn shuffles_agree(seed: u64, start: usize, at: usize, words: &[u32], len: usize) -> usize {
        let mut drawn = 0;
        for from_block in [true, false] {
            let mut setup_words = SetupWords::seeded(seed);
            let mut draws = Draws::new(&mut setup_words);
            for (k, &w) in words.iter().enumerate() {
                if let Some(slot) = draws.words.block.as_mut().get_mut(at + k) {
                    *slot = w;
                }
            }
            draws.next = start;
            // The plain stream: the block from `start`, then the core's next blocks.
            let mut stream: Vec<u32> = draws.words.block.as_ref()[start..].to_vec();
            let mut core = draws.words.core.clone();
            let mut block = Block::default();
            for _ in 0..2 {
                core.generate(&mut block);
                stream.extend_from_slice(block.as_ref());
            }
            let mut ours: Vec<u16> = (0..len as u16).collect();
            let mut plain = ours.clone();
            if from_block {
                shuffle_from_block(&mut draws, &mut ours);
            } else {
                shuffle(&mut draws, &mut ours);
            }
            let mut listed = Listed(stream.iter());
            shuffle_plain(&mut listed, &mut plain);
            drawn = stream.len() - listed.0.len();
            let case = alloc::format!("seed {seed}, start {start}, at {at}, len {len}");
            assert_eq!(ours, plain, "{case}, from the block: {from_block}");
            assert_eq!(draws.next_u32(), listed.next_u32(), "{case}");
        }
        drawn
    }

    #[test]
    fn shuffles_in_the_block_are_the_plain_shuffles() {
        // Words whose product with a bound `n` has a low half below `n`, where `uniform` tests for
        // a rejection (rejecting it when below 2^32 mod n): ⌈k·2^32/n⌉ for every k < n, and 0.
        let mut awkward = alloc::vec![0, 1, 1 << 31, u32::MAX];
        for n in 2..=20u64 {
            for k in 1..n {
                awkward.push(((k << 32).div_ceil(n)) as u32);
            }
        }
        let mut case = 0u64;
        let mut rejections = 0;
        for seed in 0..20u64 {
            for len in [0, 1, 2, 3, 4, 5, 15, 16, 18, 20] {
                for start in [0, 1, 30, 47, 48, 49, 50, 60, 62, 63, 64] {
                    // The block's own words, then awkward words at each place the shuffle draws.
                    shuffles_agree(seed, start, 0, &[], len);
                    for at in start..(start + len).min(BLOCK_WORDS) {
                        case += 1;
                        let k = (mix_seed(case) % awkward.len() as u64) as usize;
                        let run = [awkward[k], awkward[(k + 1) % awkward.len()], 0];
                        let drawn = shuffles_agree(seed, start, at, &run, len);
                        if drawn > len.saturating_sub(1) {
                            rejections += 1;
                        }
                    }
                }
            }
        }
        assert!(rejections > 1000, "{rejections} shuffles rejected a word");
    }
}
