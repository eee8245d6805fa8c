//! [`Expansion`] and [`Expansions`]: which expansions a game uses, as a set whose members map one to
//! one onto the record's `expansions` list (`RECORD.md`).
//!
//! The names here are the only spelling of each expansion: records, the `qe` command's
//! `--expansion`, the C ABI's options and Python's `expansions=` all read and write them through
//! [`Expansion::name`] and [`Expansion::from_name`].

use core::fmt;

/// One expansion of the base game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Expansion {
    /// Commodities (R-COM): asset tokens, asset rebids, the zero-bid change and the end bonuses.
    Commodities,
    /// A toy expansion that exists in the crate's own tests only, to prove that an expansion is
    /// added where the architecture says (its one rule: see `toy_expansion.rs`).
    #[cfg(test)]
    Toy,
}

impl Expansion {
    /// Every expansion, in the order records list them.
    #[cfg(not(test))]
    pub const ALL: [Expansion; 1] = [Expansion::Commodities];
    /// Every expansion, in the order records list them (with the toy of the crate's tests).
    #[cfg(test)]
    pub const ALL: [Expansion; 2] = [Expansion::Commodities, Expansion::Toy];

    /// The name in records, on the command line and in the bindings.
    ///
    /// ```
    /// assert_eq!(qe_core::Expansion::Commodities.name(), "commodities");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Expansion::Commodities => "commodities",
            #[cfg(test)]
            Expansion::Toy => "toy",
        }
    }

    /// The expansion with this name, if any (exact, lowercase).
    ///
    /// ```
    /// use qe_core::Expansion;
    /// assert_eq!(Expansion::from_name("commodities"), Some(Expansion::Commodities));
    /// assert_eq!(Expansion::from_name("Commodities"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Expansion> {
        Expansion::ALL.into_iter().find(|e| e.name() == name)
    }

    /// The position in [`Expansion::ALL`]; bit `index` of [`Expansions::bits`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The expansion at `index` of [`Expansion::ALL`].
    pub fn from_index(index: usize) -> Option<Expansion> {
        Expansion::ALL.get(index).copied()
    }

    const fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

impl fmt::Display for Expansion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of [`Expansion`]s (the base game is the empty set).
///
/// ```
/// use qe_core::{Expansion, Expansions};
/// let set = Expansions::from_names(["commodities"]).unwrap();
/// assert!(set.contains(Expansion::Commodities));
/// assert_eq!(set.names().collect::<Vec<_>>(), ["commodities"]);
/// let unknown = Expansions::from_names(["gold rush"]).unwrap_err();
/// assert_eq!(unknown.to_string(), "unknown expansion \"gold rush\" (known: commodities)");
/// let twice = Expansions::from_names(["commodities", "commodities"]).unwrap_err();
/// assert_eq!(twice.to_string(), "`commodities` listed twice");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Expansions(u8);

impl Expansions {
    /// The base game: no expansion.
    pub const NONE: Expansions = Expansions(0);

    /// The set holding exactly `expansion`.
    pub const fn of(expansion: Expansion) -> Expansions {
        Expansions(expansion.bit())
    }

    /// Whether `expansion` is in the set.
    #[inline]
    pub const fn contains(self, expansion: Expansion) -> bool {
        self.0 & expansion.bit() != 0
    }

    /// The set with `expansion` added.
    #[must_use]
    pub const fn with(self, expansion: Expansion) -> Expansions {
        Expansions(self.0 | expansion.bit())
    }

    /// The set with `expansion` added (`on`) or removed.
    #[must_use]
    pub const fn set(self, expansion: Expansion, on: bool) -> Expansions {
        if on {
            Expansions(self.0 | expansion.bit())
        } else {
            Expansions(self.0 & !expansion.bit())
        }
    }

    /// The set as bits: bit [`Expansion::index`] for each member (the C ABI's `QE_EXPANSION_*`).
    pub const fn bits(self) -> u32 {
        self.0 as u32
    }

    /// The set of these bits, or `None` when a bit names no expansion.
    ///
    /// ```
    /// use qe_core::{Expansion, Expansions};
    /// assert_eq!(Expansions::from_bits(1), Some(Expansions::of(Expansion::Commodities)));
    /// assert_eq!(Expansions::from_bits(2), None);
    /// ```
    pub fn from_bits(bits: u32) -> Option<Expansions> {
        let all = Expansion::ALL
            .iter()
            .fold(0u32, |b, e| b | u32::from(e.bit()));
        (bits & !all == 0).then_some(Expansions(bits as u8))
    }

    /// Whether the set is empty (the base game).
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The members, in [`Expansion::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Expansion> {
        Expansion::ALL
            .into_iter()
            .filter(move |&e| self.contains(e))
    }

    /// The members' names, in [`Expansion::ALL`] order (the record's `expansions` list).
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        self.iter().map(Expansion::name)
    }

    /// The set of the named expansions (the names records use, exactly); the first name that is
    /// unknown or given twice is the error. The one reader of a list of expansion names: records,
    /// Python's `expansions=` and OpenSpiel's parameter, and the CLI's `--expansion`.
    pub fn from_names<'a>(
        names: impl IntoIterator<Item = &'a str>,
    ) -> Result<Expansions, NamesError<'a>> {
        names
            .into_iter()
            .try_fold(Expansions::NONE, Expansions::with_name)
    }

    /// The set with the expansion named `name` added: an error when the name is unknown or the
    /// expansion is in the set already.
    pub fn with_name(self, name: &str) -> Result<Expansions, NamesError<'_>> {
        match Expansion::from_name(name) {
            Some(e) if self.contains(e) => Err(NamesError::Twice(e)),
            Some(e) => Ok(self.with(e)),
            None => Err(NamesError::Unknown(name)),
        }
    }
}

/// Why a list of expansion names is refused ([`Expansions::from_names`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NamesError<'a> {
    /// A name no expansion has (names are lower case, exactly as records write them).
    Unknown(&'a str),
    /// An expansion named twice.
    Twice(Expansion),
}

impl fmt::Display for NamesError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NamesError::Unknown(name) => {
                write!(f, "unknown expansion \"{}\" (known: ", crate::shown(name))?;
                for (i, e) in Expansion::ALL.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_str(e.name())?;
                }
                f.write_str(")")
            }
            NamesError::Twice(e) => write!(f, "`{e}` listed twice"),
        }
    }
}

impl FromIterator<Expansion> for Expansions {
    fn from_iter<I: IntoIterator<Item = Expansion>>(iter: I) -> Expansions {
        iter.into_iter().fold(Expansions::NONE, Expansions::with)
    }
}

impl From<Expansion> for Expansions {
    fn from(expansion: Expansion) -> Expansions {
        Expansions::of(expansion)
    }
}

impl fmt::Display for Expansions {
    /// The names joined by `,`, or `none`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("none");
        }
        for (i, name) in self.names().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(name)?;
        }
        Ok(())
    }
}

/// A set is written as the list of its names, in [`Expansion::ALL`] order, as records write it
/// (`["commodities"]`; `[]` for the base game), and read back through [`Expansions::from_names`].
#[cfg(feature = "serde")]
impl serde::Serialize for Expansions {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.names())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Expansions {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Expansions, D::Error> {
        struct Names;
        impl<'de> serde::de::Visitor<'de> for Names {
            type Value = Expansions;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of expansion names")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Expansions, A::Error> {
                let mut set = Expansions::NONE;
                while let Some(name) = seq.next_element::<alloc::borrow::Cow<'de, str>>()? {
                    set = set.with_name(&name).map_err(serde::de::Error::custom)?;
                }
                Ok(set)
            }
        }
        deserializer.deserialize_seq(Names)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_expansion_round_trips_through_its_name() {
        for e in Expansion::ALL {
            assert_eq!(Expansion::from_name(e.name()), Some(e));
            assert_eq!(
                Expansions::of(e).names().collect::<alloc::vec::Vec<_>>(),
                [e.name()]
            );
        }
    }

    #[test]
    fn set_operations() {
        let c = Expansion::Commodities;
        assert!(Expansions::NONE.is_empty());
        assert!(Expansions::NONE.with(c).contains(c));
        assert!(!Expansions::of(c).set(c, false).contains(c));
        assert_eq!(
            [c, c].into_iter().collect::<Expansions>(),
            Expansions::of(c)
        );
        assert_eq!(alloc::format!("{}", Expansions::NONE), "none");
        assert_eq!(alloc::format!("{}", Expansions::of(c)), "commodities");
    }
}
