//! Seats (R-SET-1), sets of seats, and per-seat storage.

use core::fmt;
use core::ops::{Index, IndexMut};

/// The most seats a game can have (R-SET-1).
pub const MAX_SEATS: usize = 5;

/// A seat at the table, `0..players`, clockwise from the First Auctioneer (R-SET-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct Seat(pub u8);

impl Seat {
    /// The seat number as an index.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// A set of seats, as a bit mask (bit `i` is seat `i`).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(into = "alloc::vec::Vec<u8>", try_from = "alloc::vec::Vec<u8>")
)]
pub struct SeatSet(u8);

/// Each seat number's bit in a [`SeatSet`], 0 past the largest game.
const SEAT_BITS: [u8; 256] = {
    let mut bits = [0u8; 256];
    let mut seat = 0;
    while seat < MAX_SEATS {
        bits[seat] = 1 << seat;
        seat += 1;
    }
    bits
};

impl SeatSet {
    /// The empty set.
    pub const EMPTY: SeatSet = SeatSet(0);

    /// Every seat of a game of `players` seats (at most [`MAX_SEATS`]).
    #[inline]
    pub const fn all(players: u8) -> SeatSet {
        let n = if players > MAX_SEATS as u8 {
            MAX_SEATS as u8
        } else {
            players
        };
        SeatSet(((1u16 << n) - 1) as u8)
    }

    /// The set holding only `seat`.
    #[inline]
    pub const fn only(seat: Seat) -> SeatSet {
        SeatSet(Self::bit(seat))
    }

    /// The bit of `seat`; 0 for a seat number past the largest game (never a panic). Read from
    /// [`SEAT_BITS`], one load for every seat number, instead of a shift guarded by a comparison
    /// (PERF.md); the tests hold it to the plain shift.
    #[inline]
    const fn bit(seat: Seat) -> u8 {
        SEAT_BITS[seat.0 as usize]
    }

    /// The raw bit mask.
    #[inline]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// The set with these bits (bits past seat 4 are dropped).
    #[inline]
    pub const fn from_bits(bits: u8) -> SeatSet {
        SeatSet(bits & 0x1f)
    }

    /// Whether `seat` is in the set.
    #[inline]
    pub const fn contains(self, seat: Seat) -> bool {
        self.0 & Self::bit(seat) != 0
    }

    /// Adds `seat` (a seat past [`MAX_SEATS`] is ignored).
    #[inline]
    pub fn insert(&mut self, seat: Seat) {
        self.0 |= Self::bit(seat);
    }

    /// Removes `seat`.
    #[inline]
    pub fn remove(&mut self, seat: Seat) {
        self.0 &= !Self::bit(seat);
    }

    /// How many seats are in the set.
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lowest seat of the set, if any.
    #[inline]
    pub const fn first(self) -> Option<Seat> {
        if self.0 == 0 {
            None
        } else {
            Some(Seat(self.0.trailing_zeros() as u8))
        }
    }

    /// The seats, lowest first.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        let mut bits = self.0;
        core::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let seat = Seat(bits.trailing_zeros() as u8);
            bits &= bits - 1; // clear the lowest set bit
            Some(seat)
        })
    }
}

impl fmt::Debug for SeatSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(|s| s.0)).finish()
    }
}

impl FromIterator<Seat> for SeatSet {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> Self {
        let mut set = SeatSet::EMPTY;
        for s in iter {
            set.insert(s);
        }
        set
    }
}

impl From<SeatSet> for alloc::vec::Vec<u8> {
    fn from(set: SeatSet) -> Self {
        set.iter().map(|s| s.0).collect()
    }
}

impl TryFrom<alloc::vec::Vec<u8>> for SeatSet {
    type Error = &'static str;
    fn try_from(v: alloc::vec::Vec<u8>) -> Result<Self, Self::Error> {
        let mut set = SeatSet::EMPTY;
        for s in v {
            if s as usize >= MAX_SEATS {
                return Err("seat out of range");
            }
            set.insert(Seat(s));
        }
        Ok(set)
    }
}

/// One value per seat, in fixed storage for up to five seats (no heap), indexed by [`Seat`].
///
/// It is indexed by [`Seat`] only, never by a bare number; the seats of a game are
/// [`PerSeat::in_play`], every value with its seat [`PerSeat::seats`]. It serializes as the array
/// (feature `serde`).
///
/// ```
/// use qe_core::{PerSeat, Seat};
/// let spent = PerSeat::new([3i128, 0, 5, 0, 0]);
/// assert_eq!(spent[Seat(2)], 5);
/// let doubled = spent.map(|x| 2 * x);
/// assert_eq!(doubled.zip(spent).map(|(a, b)| a - b), spent);
/// assert_eq!(spent.get(Seat(9)), None);
/// ```
/// Values compare seat by seat, seat 0 first (as their arrays do).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct PerSeat<T>([T; MAX_SEATS]);

impl<T> PerSeat<T> {
    /// The values of seats 0 to 4.
    #[inline]
    pub const fn new(values: [T; MAX_SEATS]) -> PerSeat<T> {
        PerSeat(values)
    }

    /// The values of seats 0 to 4, as an array (for a binding that hands them on).
    #[inline]
    pub fn into_array(self) -> [T; MAX_SEATS] {
        self.0
    }

    /// Every seat's value, seat 0 first (all [`MAX_SEATS`]; [`PerSeat::in_play`] for a game's).
    #[inline]
    pub fn values(&self) -> core::slice::Iter<'_, T> {
        self.0.iter()
    }

    /// Every seat's value, mutable, seat 0 first.
    #[inline]
    pub fn values_mut(&mut self) -> core::slice::IterMut<'_, T> {
        self.0.iter_mut()
    }

    /// The same value for every seat.
    pub fn splat(value: T) -> PerSeat<T>
    where
        T: Copy,
    {
        PerSeat([value; MAX_SEATS])
    }

    /// The value of `seat`, or `None` past [`MAX_SEATS`].
    #[inline]
    pub fn get(&self, seat: Seat) -> Option<&T> {
        self.0.get(seat.index())
    }

    /// The values of the seats of a game of `players` seats (seat 0 first).
    #[inline]
    pub fn in_play(&self, players: u8) -> &[T] {
        &self.0[..usize::from(players).min(MAX_SEATS)]
    }

    /// The values of the seats of a game of `players` seats, mutable.
    #[inline]
    pub fn in_play_mut(&mut self, players: u8) -> &mut [T] {
        &mut self.0[..usize::from(players).min(MAX_SEATS)]
    }

    /// Each seat's value through `f`.
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> PerSeat<U> {
        PerSeat(self.0.map(f))
    }

    /// The two values of each seat, paired.
    pub fn zip<U>(self, other: PerSeat<U>) -> PerSeat<(T, U)> {
        let mut other = other.0.into_iter();
        PerSeat(self.0.map(|t| (t, other.next().expect("same length"))))
    }

    /// The values with their seats, seat 0 first.
    pub fn seats(&self) -> impl Iterator<Item = (Seat, &T)> {
        self.0.iter().enumerate().map(|(i, v)| (Seat(i as u8), v))
    }

    /// The values with their seats, mutable, seat 0 first.
    pub fn seats_mut(&mut self) -> impl Iterator<Item = (Seat, &mut T)> {
        self.0
            .iter_mut()
            .enumerate()
            .map(|(i, v)| (Seat(i as u8), v))
    }
}

impl<T> Index<Seat> for PerSeat<T> {
    type Output = T;
    #[inline]
    fn index(&self, seat: Seat) -> &T {
        &self.0[seat.index()]
    }
}

impl<T> IndexMut<Seat> for PerSeat<T> {
    #[inline]
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self.0[seat.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::{Seat, SeatSet, MAX_SEATS};

    /// A seat's bit read from `SEAT_BITS` against the plain shift, for every seat number: the
    /// seats of the largest game have theirs, every other number none (PERF.md).
    #[test]
    fn the_seat_bits_table_agrees_with_the_plain_bit() {
        for n in 0..=u8::MAX {
            let plain = if usize::from(n) < MAX_SEATS {
                1u8 << n
            } else {
                0
            };
            let seat = Seat(n);
            assert_eq!(SeatSet::only(seat).bits(), plain, "{n}");
            let all = SeatSet::from_bits(u8::MAX);
            assert_eq!(all.contains(seat), plain != 0, "{n}");
            let mut removed = all;
            removed.remove(seat);
            assert_eq!(removed.bits(), 0x1f & !plain, "{n}");
            let mut inserted = SeatSet::EMPTY;
            inserted.insert(seat);
            assert_eq!(inserted, SeatSet::only(seat), "{n}");
        }
    }
}

#[cfg(all(test, feature = "serde"))]
mod serde_tests {
    use super::*;

    #[test]
    fn a_seat_set_reads_seats_0_to_4_only() {
        let set: SeatSet = serde_json::from_str("[0,4]").unwrap();
        assert_eq!(
            set.iter().map(|s| s.0).collect::<alloc::vec::Vec<_>>(),
            [0, 4]
        );
        for bad in ["[5]", "[0,5]", "[255]", "[-1]"] {
            assert!(serde_json::from_str::<SeatSet>(bad).is_err(), "{bad}");
        }
    }
}
