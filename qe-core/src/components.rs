//! The physical components of QE (RULES.md section 1, `R-CMP`): nations, industries, company tiles,
//! commodity tokens, and the [`Manifest`] of their VP values.

use core::fmt;
use core::str::FromStr;

use crate::setup_error::SetupError;

/// Defines a small enumerable enum with `ALL`, `COUNT`, `index()`, `name()` and `FromStr`.
macro_rules! enumerable {
    ($(#[$m:meta])* $name:ident ($what:literal, $rule:literal) { $($(#[$vm:meta])* $var:ident = $text:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(u8)]
        pub enum $name { $($(#[$vm])* $var),+ }

        impl $name {
            /// Every value, in index order.
            pub const ALL: &'static [$name] = &[$($name::$var),+];
            /// How many values there are.
            pub const COUNT: usize = Self::ALL.len();

            /// The 0-based index of this value in [`Self::ALL`].
            #[inline]
            pub const fn index(self) -> usize { self as usize }

            /// The value at `index` in [`Self::ALL`], if any.
            #[inline]
            pub fn from_index(index: usize) -> Option<Self> { Self::ALL.get(index).copied() }

            /// The short name used in records and views (for example `"US"` or `"AGR"`).
            pub const fn name(self) -> &'static str {
                match self { $($name::$var => $text),+ }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { f.write_str(self.name()) }
        }

        impl FromStr for $name {
            type Err = SetupError;
            fn from_str(s: &str) -> Result<Self, SetupError> {
                match s {
                    $($text => Ok($name::$var),)+
                    _ => Err(SetupError::UnknownName { what: $what, name: crate::shown::shown(s), rule: $rule }),
                }
            }
        }

        #[cfg(feature = "serde")]
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }

        #[cfg(feature = "serde")]
        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = <alloc::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

enumerable! {
    /// A nation (R-CMP-1). `UK` is a player nation only in the 5-player game.
    Nation ("nation", "R-CMP-1") { /// United States
        US = "US", /// European Union
        EU = "EU", /// China
        CN = "CN", /// Japan
        JP = "JP", /// United Kingdom
        UK = "UK" }
}

enumerable! {
    /// An industry (R-CMP-2). The `GOV` industry token is dealt only in the 5-player game.
    Industry ("industry", "R-CMP-2") { /// Agriculture
        AGR = "AGR", /// Housing
        HOU = "HOU", /// Finance
        FIN = "FIN", /// Manufacturing
        MAN = "MAN", /// Government
        GOV = "GOV" }
}

enumerable! {
    /// The kind of a commodity token, and the name of its pile (R-CMP-7, R-COM-1).
    AssetKind ("pile", "R-CMP-7") { /// Gold (crashes when its pile runs out, R-COM-9)
        Gold = "gold", /// Oil (majority bonus, R-COM-9)
        Oil = "oil", /// Crypto (wide spread of values)
        Crypto = "crypto" }
}

/// The 21 company tiles in manifest order (R-CMP-3, R-CMP-4).
const TILES: [(Nation, Industry); 21] = [
    (Nation::US, Industry::AGR),
    (Nation::US, Industry::HOU),
    (Nation::US, Industry::FIN),
    (Nation::US, Industry::MAN),
    (Nation::EU, Industry::AGR),
    (Nation::EU, Industry::HOU),
    (Nation::EU, Industry::FIN),
    (Nation::EU, Industry::MAN),
    (Nation::CN, Industry::AGR),
    (Nation::CN, Industry::HOU),
    (Nation::CN, Industry::FIN),
    (Nation::CN, Industry::MAN),
    (Nation::JP, Industry::AGR),
    (Nation::JP, Industry::HOU),
    (Nation::JP, Industry::FIN),
    (Nation::JP, Industry::MAN),
    (Nation::JP, Industry::GOV),
    (Nation::CN, Industry::GOV),
    (Nation::UK, Industry::GOV),
    (Nation::UK, Industry::AGR),
    (Nation::UK, Industry::FIN),
];

/// The reconstructed default tile values, in [`TileId::ALL`] order (R-CMP-4).
const DEFAULT_TILE_VALUES: [u8; 21] = [
    1, 2, 3, 4, 2, 3, 4, 1, 4, 1, 2, 3, 3, 4, 1, 2, 3, 2, 4, 3, 2,
];

/// A company tile, unique by (nation, industry) (R-CMP-3). Its text form is `NATION-INDUSTRY`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TileId(u8);

impl TileId {
    /// How many company tiles exist (R-CMP-3).
    pub const COUNT: usize = 21;

    /// Every tile, in manifest order (the order of the R-CMP-4 table, row by row).
    pub const ALL: [TileId; 21] = {
        let mut all = [TileId(0); 21];
        let mut i = 0;
        while i < 21 {
            all[i] = TileId(i as u8);
            i += 1;
        }
        all
    };

    /// The tile at `index` in [`TileId::ALL`], if any.
    pub fn from_index(index: usize) -> Option<TileId> {
        (index < Self::COUNT).then_some(TileId(index as u8))
    }

    /// The tile of this nation and industry, if it exists.
    pub fn of(nation: Nation, industry: Industry) -> Option<TileId> {
        TILES
            .iter()
            .position(|&t| t == (nation, industry))
            .map(|i| TileId(i as u8))
    }

    /// The 0-based index of this tile in [`TileId::ALL`].
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The tile's nation.
    #[inline]
    pub const fn nation(self) -> Nation {
        TILES[self.0 as usize].0
    }

    /// The tile's industry.
    #[inline]
    pub const fn industry(self) -> Industry {
        TILES[self.0 as usize].1
    }
}

impl fmt::Display for TileId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.nation(), self.industry())
    }
}

impl FromStr for TileId {
    type Err = SetupError;
    fn from_str(s: &str) -> Result<Self, SetupError> {
        let unknown = || SetupError::UnknownName {
            what: "tile",
            name: crate::shown::shown(s),
            rule: "R-CMP-3",
        };
        let (n, i) = s.split_once('-').ok_or_else(unknown)?;
        let n: Nation = n.parse().map_err(|_| unknown())?;
        let i: Industry = i.parse().map_err(|_| unknown())?;
        TileId::of(n, i).ok_or_else(unknown)
    }
}

/// A commodity token (R-CMP-7), named `<kind><number>` with numbers from 1 (for example `crypto5`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TokenId {
    kind: AssetKind,
    number: u8,
}

impl TokenId {
    /// The token `number` (1-based) of a kind. Whether it exists depends on the [`Manifest`].
    pub const fn new(kind: AssetKind, number: u8) -> TokenId {
        TokenId { kind, number }
    }

    /// The token's kind (its pile).
    #[inline]
    pub const fn kind(self) -> AssetKind {
        self.kind
    }

    /// The token's 1-based number within its kind.
    #[inline]
    pub const fn number(self) -> u8 {
        self.number
    }
}

impl fmt::Display for TokenId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.kind, self.number)
    }
}

impl FromStr for TokenId {
    type Err = SetupError;
    fn from_str(s: &str) -> Result<Self, SetupError> {
        let unknown = || SetupError::UnknownName {
            what: "token",
            name: crate::shown::shown(s),
            rule: "R-CMP-7",
        };
        let split = s.find(|c: char| c.is_ascii_digit()).ok_or_else(unknown)?;
        let kind: AssetKind = s[..split].parse().map_err(|_| unknown())?;
        let digits = &s[split..];
        if digits.starts_with('0') {
            return Err(unknown());
        }
        let number: u8 = digits.parse().map_err(|_| unknown())?;
        if number == 0 || number as usize > MAX_TOKENS {
            return Err(unknown());
        }
        Ok(TokenId { kind, number })
    }
}

#[cfg(feature = "serde")]
macro_rules! serde_via_str {
    ($t:ty) => {
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }
        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = <alloc::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}
#[cfg(feature = "serde")]
serde_via_str!(TileId);
#[cfg(feature = "serde")]
serde_via_str!(TokenId);

/// How many commodity tokens the game has (R-CMP-7).
pub const MAX_TOKENS: usize = 18;

/// The largest VP value a manifest entry may have (R-CMP-4).
pub const MAX_VALUE: u8 = 99;

/// The VP values of every tile and commodity token (R-CMP-4, R-CMP-7).
///
/// [`Manifest::default()`] is the reconstructed manifest of RULES.md; [`Manifest::new`] validates a
/// caller-supplied one (for owners of the printed game).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Manifest {
    tiles: [u8; 21],
    /// How many tokens of each kind (gold, oil, crypto); they add up to 18.
    split: [u8; 3],
    /// Token values, gold first, then oil, then crypto, each kind by number.
    tokens: [u8; MAX_TOKENS],
}

impl Default for Manifest {
    /// The reconstructed default of R-CMP-4 and R-CMP-7.
    fn default() -> Self {
        Manifest {
            tiles: DEFAULT_TILE_VALUES,
            split: [6, 6, 6],
            tokens: [6, 6, 6, 7, 7, 7, 4, 4, 4, 5, 5, 5, 0, 2, 4, 6, 8, 10],
        }
    }
}

impl Manifest {
    /// Validates a manifest: `tiles` in [`TileId::ALL`] order; `tokens` lists, per kind (gold, oil,
    /// crypto), the values of tokens 1, 2, … of that kind.
    ///
    /// Rejects values above 99, splits that do not add up to 18, token lists without exactly one crypto
    /// token worth 8 (R-CMP-7), and tile values whose 5-player removals do not leave 15 tiles (R-CMP-5).
    ///
    /// ```
    /// use qe_core::Manifest;
    /// let default = Manifest::default();
    /// let same = Manifest::new(default.tile_values(), [&[6, 6, 6, 7, 7, 7], &[4, 4, 4, 5, 5, 5], &[0, 2, 4, 6, 8, 10]]);
    /// assert_eq!(same, Ok(default));
    /// ```
    pub fn new(tiles: [u8; 21], tokens: [&[u8]; 3]) -> Result<Manifest, SetupError> {
        for (i, &v) in tiles.iter().enumerate() {
            if v > MAX_VALUE {
                return Err(SetupError::ValueOutOfRange {
                    id: alloc::format!("{}", TileId::ALL[i]),
                    value: u64::from(v),
                });
            }
        }
        let total: usize = tokens.iter().map(|t| t.len()).sum();
        if total != MAX_TOKENS {
            return Err(SetupError::TokenCount { count: total });
        }
        let mut m = Manifest {
            tiles,
            split: [
                tokens[0].len() as u8,
                tokens[1].len() as u8,
                tokens[2].len() as u8,
            ],
            tokens: [0; MAX_TOKENS],
        };
        let mut at = 0;
        for (k, list) in tokens.iter().enumerate() {
            for (n, &v) in list.iter().enumerate() {
                if v > MAX_VALUE {
                    return Err(SetupError::ValueOutOfRange {
                        id: alloc::format!("{}{}", AssetKind::ALL[k], n + 1),
                        value: u64::from(v),
                    });
                }
                m.tokens[at] = v;
                at += 1;
            }
        }
        let eights = tokens[2].iter().filter(|&&v| v == 8).count();
        if eights != 1 {
            return Err(SetupError::CryptoEight { count: eights });
        }
        let five = m.tiles_in_play(5).len();
        if five != 15 {
            return Err(SetupError::TilesInPlay {
                players: 5,
                count: five,
                expected: 15,
            });
        }
        Ok(m)
    }

    /// The VP value printed on a tile.
    #[inline]
    pub fn tile_value(&self, tile: TileId) -> u8 {
        self.tiles[tile.index()]
    }

    /// Every tile value, in [`TileId::ALL`] order.
    pub fn tile_values(&self) -> [u8; 21] {
        self.tiles
    }

    /// How many tokens of `kind` the manifest has (before the R-CMP-7 5-player removal).
    pub fn token_count(&self, kind: AssetKind) -> usize {
        self.split[kind.index()] as usize
    }

    /// The values of the tokens of `kind`, by number.
    pub fn token_values(&self, kind: AssetKind) -> &[u8] {
        let start: usize = self.split[..kind.index()].iter().map(|&c| c as usize).sum();
        &self.tokens[start..start + self.split[kind.index()] as usize]
    }

    /// The VP value of a token, or `None` if the manifest has no such token.
    #[inline]
    pub fn token_value(&self, token: TokenId) -> Option<u8> {
        self.token_value_at_offset(token)
    }

    /// [`Manifest::token_value`] read at the token's place among all the values, its kind's first
    /// place found from the split without a loop, and never a panic: so a command whose events
    /// nobody reads does not look the value up at all (PERF.md). The tests hold it to
    /// [`Manifest::token_value_plain`].
    #[inline]
    fn token_value_at_offset(&self, token: TokenId) -> Option<u8> {
        let k = token.kind().index();
        let n = usize::from(token.number()).checked_sub(1)?;
        if n >= usize::from(*self.split.get(k)?) {
            return None;
        }
        let start = usize::from(self.split[0]) * usize::from(k >= 1)
            + usize::from(self.split[1]) * usize::from(k >= 2);
        self.tokens.get(start + n).copied()
    }

    /// The plain reading of [`Manifest::token_value`]: the value at the token's number among its
    /// kind's values.
    #[cfg(test)]
    fn token_value_plain(&self, token: TokenId) -> Option<u8> {
        self.token_values(token.kind())
            .get((token.number() as usize).checked_sub(1)?)
            .copied()
    }

    /// Every token of the manifest, gold first, then oil, then crypto.
    pub fn tokens(&self) -> impl Iterator<Item = TokenId> + '_ {
        AssetKind::ALL
            .iter()
            .flat_map(move |&k| (1..=self.split[k.index()]).map(move |n| TokenId::new(k, n)))
    }

    /// The tiles in play for `players` seats, in [`TileId::ALL`] order (R-CMP-5).
    pub fn tiles_in_play(&self, players: u8) -> TileList {
        let mut list = TileList::default();
        for tile in TileId::ALL {
            if self.tile_in_play(tile, players) {
                list.push(tile);
            }
        }
        list
    }

    /// Whether `tile` is in play for `players` seats (R-CMP-5): with 5 players every tile but those
    /// worth 1 and JP-AGR and CN-FIN; with 3 or 4 every tile but the UK's and GOV.
    #[inline]
    pub fn tile_in_play(&self, tile: TileId, players: u8) -> bool {
        let (nation, industry) = (tile.nation(), tile.industry());
        let removed = if players == 5 {
            self.tile_value(tile) == 1
                || matches!(
                    (nation, industry),
                    (Nation::JP, Industry::AGR) | (Nation::CN, Industry::FIN)
                )
        } else {
            matches!(nation, Nation::UK) || matches!(industry, Industry::GOV)
        };
        !removed
    }

    /// Writes the deck in play for `players` seats, unshuffled, in [`TileId::ALL`] order, into
    /// `deck` and returns its length (R-CMP-5). With 5 players a mask of the tiles worth 1 is
    /// made in one pass over the values and the deck read from the mask's bits, instead of asking
    /// [`Manifest::tile_in_play`] of each tile with its branches (PERF.md); with 3 or 4, whose
    /// removals do not read the values, the plain loop ([`Manifest::deck_by_tile`]), which the
    /// compiler folds to the fixed deck. The tests hold it to the plain loop.
    ///
    /// # Panics
    /// If more than 16 tiles are in play (no rules in play have more: R-CMP-5).
    #[inline]
    pub(crate) fn deck_in_play(&self, players: u8, deck: &mut [TileId; 16]) -> u8 {
        if players != 5 {
            return self.deck_by_tile(players, deck);
        }
        self.five_player_deck(deck)
    }

    /// [`Manifest::deck_in_play`] with 5 players, out of line so that the caller keeps its deck in
    /// memory and writes the fixed deck of 3 or 4 players at once.
    #[inline(never)]
    fn five_player_deck(&self, deck: &mut [TileId; 16]) -> u8 {
        let mut worth_one = 0u32;
        for (i, &v) in self.tiles.iter().enumerate() {
            worth_one |= u32::from(v == 1) << i;
        }
        let mut mask = FIVE_PLAYER_FIXED & !worth_one;
        let mut len = 0;
        while mask != 0 {
            deck[len] = TileId::ALL[mask.trailing_zeros() as usize];
            mask &= mask - 1;
            len += 1;
        }
        len as u8
    }

    /// [`Manifest::deck_in_play`] from [`Manifest::tile_in_play`] of each tile: its plain
    /// version.
    #[inline]
    pub(crate) fn deck_by_tile(&self, players: u8, deck: &mut [TileId; 16]) -> u8 {
        let mut len = 0;
        for tile in TileId::ALL {
            if self.tile_in_play(tile, players) {
                deck[len] = tile;
                len += 1;
            }
        }
        len as u8
    }

    /// The tokens in play for `players` seats (R-CMP-7: the 5-player game removes the crypto token
    /// worth 8).
    pub fn tokens_in_play(&self, players: u8) -> impl Iterator<Item = TokenId> + '_ {
        self.tokens()
            .filter(move |&t| token_in_play(t.kind(), self.token_value(t), players))
    }

    /// The piles in play for `players` seats, unshuffled: the tokens of
    /// [`Manifest::tokens_in_play`] (gold, then oil, then crypto, each by number) and how many of
    /// each kind, from one loop over each kind's values rather than the chain of iterators and
    /// the value looked up again for each token (PERF.md: a seeded Commodities set-up spent most
    /// of its time there). The tests hold it to [`Manifest::tokens_in_play`].
    pub(crate) fn piles_in_play(&self, players: u8) -> ([TokenId; MAX_TOKENS], [u8; 3]) {
        let mut piles = [TokenId::new(AssetKind::Gold, 1); MAX_TOKENS];
        let mut pile_len = [0u8; 3];
        let (mut at, mut start) = (0, 0);
        for (k, &kind) in AssetKind::ALL.iter().enumerate() {
            let count = usize::from(self.split[k]);
            for (n, &value) in self.tokens[start..start + count].iter().enumerate() {
                if token_in_play(kind, Some(value), players) {
                    piles[at] = TokenId::new(kind, n as u8 + 1);
                    pile_len[k] += 1;
                    at += 1;
                }
            }
            start += count;
        }
        (piles, pile_len)
    }
}

/// The tiles whose removal does not depend on the values, as [`TileId::index`] bits: every tile but
/// JP-AGR and CN-FIN with 5 players (R-CMP-5; those worth 1 go too).
const FIVE_PLAYER_FIXED: u32 = {
    let mut mask = 0;
    let mut i = 0;
    while i < TileId::ALL.len() {
        let (nation, industry) = TILES[i];
        if !matches!(
            (nation, industry),
            (Nation::JP, Industry::AGR) | (Nation::CN, Industry::FIN)
        ) {
            mask |= 1 << i;
        }
        i += 1;
    }
    mask
};

/// Whether a token of `kind` worth `value` is in play for `players` seats (R-CMP-7: the 5-player
/// game removes the crypto token worth 8).
#[inline]
fn token_in_play(kind: AssetKind, value: Option<u8>, players: u8) -> bool {
    !(players == 5 && kind == AssetKind::Crypto && value == Some(8))
}

/// A fixed-capacity list of at most 21 tiles (no heap).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct TileList {
    len: u8,
    tiles: [Option<TileId>; 21],
}

impl TileList {
    /// Appends a tile. Panics past 21 tiles (an internal invariant: there are only 21).
    pub(crate) fn push(&mut self, tile: TileId) {
        self.tiles[self.len as usize] = Some(tile);
        self.len += 1;
    }

    /// How many tiles the list holds.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the list holds `tile`.
    pub fn contains(&self, tile: TileId) -> bool {
        self.iter().any(|t| t == tile)
    }

    /// The tiles, in order.
    pub fn iter(&self) -> impl Iterator<Item = TileId> + '_ {
        self.tiles[..self.len as usize]
            .iter()
            .map(|t| t.expect("filled"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default manifest and ones with other splits and values (one with an empty gold pile).
    fn manifests() -> alloc::vec::Vec<Manifest> {
        let default = Manifest::default();
        let tiles = default.tile_values();
        let others = [
            Manifest::new(
                tiles,
                [
                    &[1, 2, 3, 4, 5, 6, 7, 8],
                    &[9, 9, 9, 9],
                    &[8, 0, 1, 2, 3, 4],
                ],
            ),
            Manifest::new(tiles, [&[8; 6], &[8; 4], &[3, 3, 3, 3, 3, 3, 3, 8]]),
            Manifest::new(tiles, [&[], &[1; 10], &[2, 2, 2, 2, 2, 2, 2, 8]]),
        ];
        core::iter::once(default)
            .chain(others.into_iter().map(Result::unwrap))
            .collect()
    }

    /// [`Manifest::token_value_at_offset`] agrees with the plain reading for every kind and number
    /// (those past the kind's count included), under manifests of several splits.
    #[test]
    fn token_values_at_their_offset_agree_with_the_plain_reading() {
        for manifest in manifests() {
            for kind in AssetKind::ALL {
                for number in 0..=u8::MAX {
                    let token = TokenId::new(*kind, number);
                    assert_eq!(
                        manifest.token_value_at_offset(token),
                        manifest.token_value_plain(token),
                        "{kind} {number}"
                    );
                }
            }
        }
    }

    /// [`Manifest::deck_in_play`] against its plain version [`Manifest::deck_by_tile`] (and both
    /// against [`Manifest::tiles_in_play`]), for every player count, under the default manifest and
    /// every valid one of many with other tile values (which tiles are worth 1 moves the 5-player
    /// deck).
    #[test]
    fn the_deck_in_play_agrees_with_each_tile_asked() {
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let mut checked = 0;
        for round in 0..4000 {
            let mut tiles = DEFAULT_TILE_VALUES;
            if round > 0 {
                for v in &mut tiles {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    *v = (rng % 5) as u8;
                }
            }
            let Ok(manifest) = Manifest::new(tiles, [&[6; 6], &[4; 6], &[0, 2, 4, 6, 8, 10]])
            else {
                continue;
            };
            checked += 1;
            for players in 3..=5 {
                let (mut fast, mut plain) = ([TileId::ALL[20]; 16], [TileId::ALL[20]; 16]);
                let len = manifest.deck_in_play(players, &mut fast);
                assert_eq!(len, manifest.deck_by_tile(players, &mut plain));
                assert_eq!(fast, plain, "{players} players, {tiles:?}");
                let list: alloc::vec::Vec<TileId> =
                    manifest.tiles_in_play(players).iter().collect();
                assert_eq!(&fast[..usize::from(len)], list.as_slice());
            }
        }
        assert!(checked > 100, "only {checked} valid manifests");
    }

    /// [`Manifest::piles_in_play`] lists the tokens of [`Manifest::tokens_in_play`], for every
    /// player count, under the default manifest and ones with other splits and values.
    #[test]
    fn the_piles_in_play_are_the_tokens_in_play() {
        for manifest in manifests() {
            for players in 3..=5 {
                let (piles, pile_len) = manifest.piles_in_play(players);
                let plain: alloc::vec::Vec<TokenId> = manifest.tokens_in_play(players).collect();
                let total: usize = pile_len.iter().map(|&l| usize::from(l)).sum();
                assert_eq!(&piles[..total], plain.as_slice(), "{players} players");
                for kind in AssetKind::ALL {
                    let count = plain.iter().filter(|t| t.kind() == *kind).count();
                    assert_eq!(usize::from(pile_len[kind.index()]), count);
                }
            }
        }
    }
}
