//! Encodings for learning agents and search, shared by every binding: the bid ladder (action index
//! ↔ amount), the [`ActionSpace`] with its action masks, and a fixed-size `f32` observation written
//! **only** from what a seat sees: a [`SeatView`] ([`observe`]) or the same parts straight from the
//! game ([`observe_seat`] and [`Observer`], faster), so it cannot leak what the seat may not know
//! (R-VIS-8). One writer writes every float, whichever the entry point; an [`ObservedGame`] (a game
//! that owns its writer) also keeps the slots of the turns over and copies them.
//!
//! ## Action space
//!
//! An [`ActionSpace`] over a [`BidLadder`] of `L` rungs numbers its actions:
//!
//! | actions | meaning |
//! |---|---|
//! | `0..L` | bid the amount of rung `i` (opening bid, secret bid, rebid or asset rebid) |
//! | `L..L+3` | choose the gold, oil or crypto pile: take from it (R-COM-5) or, for the auctioneer when no one takes, discard from it (R-COM-7) |
//! | `L+3..L+3+16` | only when peeks are on: peek at the price of the auction of turn `t` (R-VIS-5, 5 players) |
//!
//! The mask ([`ActionSpace::mask`]) marks exactly the actions that are legal now: a rung below the
//! minimum (0 for the opening bid, R-AUC-2) or equal to the auctioneer's bid (R-AUC-3) is masked out.
//! A ladder has at least two distinct rungs, so a seat that must bid always has a legal action.
//!
//! ## Observation
//!
//! [`observe`] writes [`OBS_SIZE`] floats in the named blocks of [`BLOCKS`] (in this order), each
//! made of named fields: [`LAYOUT`] describes every block and field, the writer reaches every float
//! through those names, and [`place`] names any float (`seats[2].tiles[3]`). Seats are absolute
//! (slot `i` is seat `i`; slots past the player count stay zero); `me` marks the viewer. Money is
//! squashed into `(-1, 1)` by `x / (|x| + 10)` next to a 0/1 "known" flag. Counts are scaled by a
//! fixed constant named in each field's doc.
//!
//! The tables below ([`BLOCKS`], [`SEAT_LEN`], [`AUCTION_LEN`], the `*_FIELDS` lists) are rendered
//! from [`LAYOUT`], and the golden playthroughs (`tests/golden/`) pin every float of every step of
//! four fixed games, by index and name.
//!
//! ```
//! use qe_core::encoding::{observe, ActionSpace, BidLadder, OBS_SIZE};
//! use qe_core::{Game, Rules, Seat};
//! let game = Game::seeded(Rules::base(4).unwrap(), 7);
//! let space = ActionSpace::new(BidLadder::linear(1, 8).unwrap(), false);
//! let view = game.view(Seat(0));
//! let mut obs = [0.0f32; OBS_SIZE];
//! observe(&view, &mut obs);
//! let mut mask = vec![false; space.size()];
//! space.mask(&view.legal, &mut mask);
//! assert!(!mask[0]); // the opening bid is at least 1 (R-AUC-2)
//! assert!(mask[1]);
//! let command = space.decode(Seat(0), &view.legal, 3).unwrap();
//! assert_eq!(command, qe_core::Command::Bid { seat: Seat(0), amount: 3 });
//! ```

// Observations are approximate by design: money and counts become f32.
#![allow(clippy::cast_precision_loss)]

use crate::view::{Header, Sight, Tallies};
use crate::{
    AssetKind, AuctionView, Command, Game, Legal, Nation, Phase, SeatInfo, SeatView, TileId,
};
use crate::{Seat, MAX_SEATS};
use layout::at;

mod history;
mod layout;
mod observed;
mod observer;
pub use history::{
    write_history, EXACT_PARTS, HISTORY_PER_AMOUNT, HISTORY_PER_BID, HISTORY_PER_PEEK,
    HISTORY_PER_TURN, HISTORY_SIZE, HISTORY_STAGES, INFO_STATE_SIZE,
};
pub use layout::{
    layout_docs, layout_len, place, BlockLayout, Field, Place, AUCTION_FIELDS, BID_FIELDS,
    BOUNDS_FIELDS, BOUNDS_LAYOUT, HISTORY_LAYOUT, HISTORY_TURN_FIELDS, LAYOUT, LEGAL_FIELDS,
    PEEK_FIELDS, SEAT_FIELDS,
};
pub(crate) use observed::MatchObserver;
pub use observed::ObservedGame;
pub use observer::Observer;

/// The most rungs a [`BidLadder`] may have.
pub const MAX_RUNGS: usize = 64;

/// The most turns of a game (4 players: 16).
pub const MAX_TURNS: usize = 16;

/// Why a bid ladder was rejected.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum LadderError {
    /// A ladder has from 2 to [`MAX_RUNGS`] rungs.
    #[error("a bid ladder has 2 to 64 rungs, not {0}")]
    Rungs(usize),
    /// The amounts must be strictly increasing: rung `index` is not above the one before.
    #[error(
        "the amounts of a bid ladder must be strictly increasing, but rung {index} ({amount}) \
         is not above rung {} ({before})",
        index - 1
    )]
    NotIncreasing {
        /// The first rung that is not above the one before (at least 1).
        index: usize,
        /// The amount of rung `index - 1`.
        before: u64,
        /// The amount of rung `index`.
        amount: u64,
    },
    /// A linear ladder's top rung, `step · (rungs - 1)`, is past the largest bid.
    #[error(
        "a linear ladder of {rungs} rungs {step} apart goes past the largest bid, {}",
        u64::MAX
    )]
    PastLargestBid {
        /// The step given.
        step: u64,
        /// The rungs given.
        rungs: usize,
    },
    /// A geometric ladder's rungs go past the largest bid.
    #[error(
        "a geometric ladder of {rungs} rungs from {first} by {} goes past the largest bid, {}",
        exact(*ratio),
        u64::MAX
    )]
    GeometricPastLargestBid {
        /// The first amount given.
        first: u64,
        /// The ratio given.
        ratio: f64,
        /// The rungs given.
        rungs: usize,
    },
    /// A geometric ladder needs a first amount of at least 1 and a ratio above 1.
    #[error(
        "a geometric ladder needs first >= 1 and a ratio > 1, got first {first} and ratio {}",
        exact(*ratio)
    )]
    Geometric {
        /// The first amount given.
        first: u64,
        /// The ratio given.
        ratio: f64,
    },
}

/// The default bid ladder (of [`BidLadder::default`] and of the random bot): small amounts, then
/// roughly doubling.
pub const LADDER: [u64; 12] = [0, 1, 2, 3, 4, 5, 6, 8, 10, 13, 17, 22];

/// A list of bid amounts, one per bid action (action index ↔ amount). Small and `Copy`.
///
/// ```
/// use qe_core::encoding::BidLadder;
/// assert_eq!(BidLadder::linear(5, 4).unwrap().amounts(), &[0, 5, 10, 15]);
/// assert_eq!(BidLadder::geometric(1, 2.0, 6).unwrap().amounts(), &[0, 1, 2, 4, 8, 16]);
/// assert_eq!(BidLadder::new(&[0, 3, 7]).unwrap().index_of(7), Some(2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BidLadder {
    amounts: [u64; MAX_RUNGS],
    len: u8,
}

impl Default for BidLadder {
    /// The ladder of [`LADDER`]: `0, 1, 2, 3, 4, 5, 6, 8, 10, 13, 17, 22`.
    fn default() -> Self {
        BidLadder::new(&LADDER).expect("the default ladder is valid")
    }
}

/// A ratio as given: a whole one in all its digits (`2**64` is `18446744073709551616`, where
/// `f64`'s shortest form is `18446744073709552000`), any other as `f64` writes it.
fn exact(ratio: f64) -> alloc::string::String {
    if ratio.is_finite() && ratio % 1.0 == 0.0 {
        alloc::format!("{ratio:.0}")
    } else {
        alloc::format!("{ratio}")
    }
}

impl BidLadder {
    /// A ladder of these amounts: 2 to [`MAX_RUNGS`] of them, strictly increasing.
    pub fn new(amounts: &[u64]) -> Result<BidLadder, LadderError> {
        if amounts.len() < 2 || amounts.len() > MAX_RUNGS {
            return Err(LadderError::Rungs(amounts.len()));
        }
        if let Some(i) = amounts.windows(2).position(|w| w[0] >= w[1]) {
            return Err(LadderError::NotIncreasing {
                index: i + 1,
                before: amounts[i],
                amount: amounts[i + 1],
            });
        }
        let mut ladder = BidLadder {
            amounts: [0; MAX_RUNGS],
            len: amounts.len() as u8,
        };
        ladder.amounts[..amounts.len()].copy_from_slice(amounts);
        Ok(ladder)
    }

    /// `rungs` amounts `0, step, 2·step, …` (`step` ≥ 1, and the top rung at most `u64::MAX`).
    ///
    /// ```
    /// use qe_core::encoding::{BidLadder, LadderError};
    /// assert_eq!(
    ///     BidLadder::linear(1 << 63, 3),
    ///     Err(LadderError::PastLargestBid { step: 1 << 63, rungs: 3 })
    /// );
    /// ```
    pub fn linear(step: u64, rungs: usize) -> Result<BidLadder, LadderError> {
        if !(2..=MAX_RUNGS).contains(&rungs) {
            return Err(LadderError::Rungs(rungs));
        }
        if step.checked_mul(rungs as u64 - 1).is_none() {
            return Err(LadderError::PastLargestBid { step, rungs });
        }
        let mut amounts = [0u64; MAX_RUNGS];
        for (i, a) in amounts.iter_mut().enumerate().take(rungs) {
            *a = step * i as u64;
        }
        BidLadder::new(&amounts[..rungs])
    }

    /// `rungs` amounts: `0`, then `first`, then each the previous times `ratio`, rounded, and at
    /// least one more than the previous (so small ratios still give distinct rungs). A rung past
    /// `u64::MAX` is [`LadderError::GeometricPastLargestBid`].
    pub fn geometric(first: u64, ratio: f64, rungs: usize) -> Result<BidLadder, LadderError> {
        if first == 0 || ratio.is_nan() || ratio <= 1.0 {
            return Err(LadderError::Geometric { first, ratio });
        }
        if !(2..=MAX_RUNGS).contains(&rungs) {
            return Err(LadderError::Rungs(rungs));
        }
        let mut amounts = [0u64; MAX_RUNGS];
        // The first rung exactly (a float would round a large one).
        amounts[1] = first;
        let mut x = first as f64 * ratio;
        // 2^64: the first float past the largest bid (`as` would saturate to it).
        let past = 18_446_744_073_709_551_616.0;
        for i in 2..rungs {
            let prev = amounts[i - 1];
            let next = prev.checked_add(1);
            let (Some(next), true) = (next, x + 0.5 < past) else {
                return Err(LadderError::GeometricPastLargestBid {
                    first,
                    ratio,
                    rungs,
                });
            };
            amounts[i] = ((x + 0.5) as u64).max(next);
            x = amounts[i] as f64 * ratio;
        }
        BidLadder::new(&amounts[..rungs])
    }

    /// The amounts, by action index.
    pub fn amounts(&self) -> &[u64] {
        &self.amounts[..self.len as usize]
    }

    /// How many rungs there are.
    #[allow(clippy::len_without_is_empty)] // never empty
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// The amount of rung `index`.
    pub fn amount(&self, index: usize) -> Option<u64> {
        self.amounts().get(index).copied()
    }

    /// The rung of `amount`, if it is on the ladder.
    pub fn index_of(&self, amount: u64) -> Option<usize> {
        self.amounts().binary_search(&amount).ok()
    }
}

/// The numbered actions of one seat over a [`BidLadder`] (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct ActionSpace {
    ladder: BidLadder,
    peeks: bool,
}

impl ActionSpace {
    /// The action space of this ladder; `peeks` adds the 16 peek actions (R-VIS-5).
    pub fn new(ladder: BidLadder, peeks: bool) -> ActionSpace {
        ActionSpace { ladder, peeks }
    }

    /// The ladder.
    pub fn ladder(&self) -> &BidLadder {
        &self.ladder
    }

    /// Whether the peek actions are included.
    pub fn has_peeks(&self) -> bool {
        self.peeks
    }

    /// The number of actions.
    pub fn size(&self) -> usize {
        self.ladder.len() + AssetKind::COUNT + if self.peeks { MAX_TURNS } else { 0 }
    }

    /// The first pile action (gold; oil and crypto follow).
    pub fn pile_offset(&self) -> usize {
        self.ladder.len()
    }

    /// The first peek action (turn 0), if peeks are on.
    pub fn peek_offset(&self) -> Option<usize> {
        self.peeks.then(|| self.ladder.len() + AssetKind::COUNT)
    }

    /// Writes the legal actions into `mask` (length [`ActionSpace::size`]): `true` where legal.
    /// `legal` is the seat's [`SeatView::legal`] (or [`crate::Game::legal`], which is the same).
    ///
    /// ```
    /// use qe_core::encoding::{ActionSpace, BidLadder};
    /// use qe_core::{Command, Game, Rules, Seat};
    /// let space = ActionSpace::new(BidLadder::linear(1, 6).unwrap(), false); // bids 0..=5
    /// let mut game = Game::seeded(Rules::base(4).unwrap(), 7);
    /// game.apply(Command::Bid { seat: Seat(0), amount: 3 }).unwrap();
    /// let mut mask = vec![false; space.size()];
    /// space.mask(&game.legal(Seat(1)), &mut mask);
    /// // Every rung but the opening bid (R-AUC-3); no pile outside an asset step (R-COM-5).
    /// assert_eq!(mask[..6], [true, true, true, false, true, true]);
    /// assert_eq!(mask[space.pile_offset()..], [false; 3]);
    /// space.mask(&game.legal(Seat(0)), &mut mask); // the auctioneer has bid: nothing
    /// assert!(!mask.contains(&true));
    /// ```
    ///
    /// # Panics
    ///
    /// If `mask` is not [`ActionSpace::size`] long.
    pub fn mask(&self, legal: &Legal, mask: &mut [bool]) {
        self.mask_with(legal, mask, true, false);
    }

    /// Like [`ActionSpace::mask`], for any element type (`on`/`off` values), e.g. `u8` or `i8`.
    ///
    /// # Panics
    ///
    /// If `mask` is not [`ActionSpace::size`] long.
    pub fn mask_with<T: Copy>(&self, legal: &Legal, mask: &mut [T], on: T, off: T) {
        assert_eq!(
            mask.len(),
            self.size(),
            "mask length must equal the action count"
        );
        mask.fill(off);
        let l = self.ladder.len();
        if let Some(range) = legal.bid {
            // The rungs increase, so the allowed ones are those from the first at or above the
            // minimum to the last at or below the maximum, but the forbidden amount (R-AUC-3).
            let amounts = self.ladder.amounts();
            let lo = amounts.partition_point(|&a| a < range.min);
            let hi = amounts.partition_point(|&a| a <= range.max).max(lo);
            mask[lo..hi].fill(on);
            if let Some(f) = range.forbidden {
                if let Ok(i) = amounts[lo..hi].binary_search(&f) {
                    mask[lo + i] = off;
                }
            }
        }
        let piles = if legal.take.is_empty() {
            legal.discard
        } else {
            legal.take
        };
        for k in piles.iter() {
            mask[l + k.index()] = on;
        }
        if let Some(p) = self.peek_offset() {
            for t in 0..MAX_TURNS {
                if legal.peek & (1 << t) != 0 {
                    mask[p + t] = on;
                }
            }
        }
    }

    /// Whether `action` is legal for a seat with these legal moves.
    pub fn is_legal(&self, legal: &Legal, action: usize) -> bool {
        let l = self.ladder.len();
        if action < l {
            legal
                .bid
                .is_some_and(|r| r.allows(self.ladder.amounts[action]))
        } else if action < l + AssetKind::COUNT {
            let k = AssetKind::ALL[action - l];
            legal.take.contains(k) || legal.discard.contains(k)
        } else if let Some(p) = self.peek_offset().filter(|&p| action < p + MAX_TURNS) {
            legal.peek & (1 << (action - p)) != 0
        } else {
            false
        }
    }

    /// The command of `action` for `seat`, or `None` when `action` is out of range. An illegal
    /// action still decodes (a pile action is a take unless `legal` allows only discards), so that
    /// the game rejects it with the rule it breaks.
    ///
    /// ```
    /// use qe_core::encoding::{ActionSpace, BidLadder};
    /// use qe_core::{AssetKind, Command, Game, Legal, PileSet, Rules, Seat};
    /// let space = ActionSpace::new(BidLadder::linear(1, 4).unwrap(), false);
    /// let oil = space.pile_offset() + 1; // gold, oil, crypto
    /// let take = Command::TakeAsset { seat: Seat(2), kind: AssetKind::Oil };
    /// assert_eq!(space.decode(Seat(2), &Legal::default(), oil), Some(take));
    /// // Only discards allowed (R-COM-7): the same action discards.
    /// let discard_only = Legal { discard: PileSet(0b111), ..Legal::default() };
    /// let discard = Command::DiscardAsset { seat: Seat(2), kind: AssetKind::Oil };
    /// assert_eq!(space.decode(Seat(2), &discard_only, oil), Some(discard));
    /// assert_eq!(space.decode(Seat(2), &discard_only, space.size()), None);
    /// // An illegal bid decodes too; the game names the rule: an opening bid of 0 (R-AUC-2).
    /// let mut game = Game::seeded(Rules::base(4).unwrap(), 7);
    /// let zero = space.decode(Seat(0), &game.legal(Seat(0)), 0).unwrap();
    /// assert_eq!(game.apply(zero).unwrap_err().rule(), "R-AUC-2");
    /// ```
    pub fn decode(&self, seat: Seat, legal: &Legal, action: usize) -> Option<Command> {
        let l = self.ladder.len();
        if action < l {
            return Some(Command::Bid {
                seat,
                amount: self.ladder.amounts[action],
            });
        }
        if action < l + AssetKind::COUNT {
            let kind = AssetKind::ALL[action - l];
            return Some(if legal.take.is_empty() && !legal.discard.is_empty() {
                Command::DiscardAsset { seat, kind }
            } else {
                Command::TakeAsset { seat, kind }
            });
        }
        let p = self.peek_offset()?;
        (action < p + MAX_TURNS).then_some(Command::Peek {
            seat,
            turn: (action - p) as u8,
        })
    }

    /// The action of a command, if it has one: a bid on the ladder, a pile choice, or a peek (when
    /// peeks are on). Chance outcomes have none. The seat is not encoded: [`ActionSpace::decode`]
    /// takes it back.
    ///
    /// ```
    /// use qe_core::encoding::{ActionSpace, BidLadder};
    /// use qe_core::{AssetKind, Command, Legal, Seat};
    /// let space = ActionSpace::new(BidLadder::new(&[0, 1, 2, 5, 10]).unwrap(), true);
    /// let bid = Command::Bid { seat: Seat(4), amount: 5 };
    /// assert_eq!(space.encode(&bid), Some(3));
    /// assert_eq!(space.decode(Seat(4), &Legal::default(), 3), Some(bid));
    /// assert_eq!(space.encode(&Command::Bid { seat: Seat(4), amount: 4 }), None); // off the ladder
    /// let take = Command::TakeAsset { seat: Seat(4), kind: AssetKind::Crypto };
    /// assert_eq!(space.encode(&take), Some(space.pile_offset() + 2));
    /// let peek = Command::Peek { seat: Seat(4), turn: 3 }; // R-VIS-5
    /// assert_eq!(space.encode(&peek), Some(space.peek_offset().unwrap() + 3));
    /// ```
    pub fn encode(&self, command: &Command) -> Option<usize> {
        match *command {
            Command::Bid { amount, .. } => self.ladder.index_of(amount),
            Command::TakeAsset { kind, .. } | Command::DiscardAsset { kind, .. } => {
                Some(self.pile_offset() + kind.index())
            }
            Command::Peek { turn, .. } => self
                .peek_offset()
                .filter(|_| (turn as usize) < MAX_TURNS)
                .map(|p| p + turn as usize),
            Command::Chance(_) => None,
        }
    }
}

/// A named block of the observation: `len` floats from `offset` (the short form of a
/// [`BlockLayout`] of [`LAYOUT`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Block {
    /// The block's name.
    pub name: &'static str,
    /// Its first index.
    pub offset: usize,
    /// Its number of floats.
    pub len: usize,
}

/// Floats per seat in the `seats` block, in these fields ([`SEAT_FIELDS`]):
///
#[doc = include_str!("encoding/seat_fields.md")]
pub const SEAT_LEN: usize = layout::SEAT_SLOT;

/// Floats per turn in the `auctions` block, in these fields ([`AUCTION_FIELDS`]):
///
#[doc = include_str!("encoding/auction_fields.md")]
pub const AUCTION_LEN: usize = layout::AUCTION_SLOT;

const fn short_blocks<const N: usize>(layout: [BlockLayout; N]) -> [Block; N] {
    let mut out = [Block {
        name: "",
        offset: 0,
        len: 0,
    }; N];
    let mut i = 0;
    while i < N {
        out[i] = Block {
            name: layout[i].name,
            offset: layout[i].offset,
            len: layout[i].len(),
        };
        i += 1;
    }
    out
}

/// The blocks of the observation, in order ([`LAYOUT`] has their fields):
///
#[doc = include_str!("encoding/blocks.md")]
pub const BLOCKS: [Block; 19] = short_blocks(LAYOUT);

/// The number of floats of an observation.
pub const OBS_SIZE: usize = layout::SIZE;

/// The block named `name`.
pub fn block(name: &str) -> Option<Block> {
    BLOCKS.iter().copied().find(|b| b.name == name)
}

#[inline]
fn money(x: f32) -> f32 {
    x / (x.abs() + 10.0)
}

/// Sets to 1 the floats of the seats in `bits`.
#[inline]
fn seats_bits(out: &mut [f32; MAX_SEATS], bits: u8) {
    for (i, o) in out.iter_mut().enumerate() {
        if bits & (1 << i) != 0 {
            *o = 1.0;
        }
    }
}

/// `k / 3` and `k / 6` for small counts, as the divisions would round them (no division on the
/// hot path).
const THIRDS: [f32; 4] = [0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0];
const SIXTHS: [f32; 7] = [
    0.0,
    1.0 / 6.0,
    2.0 / 6.0,
    3.0 / 6.0,
    4.0 / 6.0,
    5.0 / 6.0,
    1.0,
];

#[inline]
fn sixths(k: u8) -> f32 {
    SIXTHS
        .get(k as usize)
        .copied()
        .unwrap_or_else(|| f32::from(k) / 6.0)
}

/// What the writer reads: the parts of what one viewer sees, from a built [`SeatView`] or straight
/// from the game (the crate's `Sight`, which decides what a viewer sees, R-VIS-8).
trait Seen {
    /// What [`Seen::turns`] gathers for [`Seen::seat`].
    type Tallies;
    /// The scalar part.
    fn header(&self) -> Header;
    /// Hands `visit` each started turn, in order.
    fn turns(&self, visit: impl FnMut(&AuctionView)) -> Self::Tallies;
    /// Seat `i` (a seat of the game).
    fn seat(&self, i: u8, tallies: &Self::Tallies) -> SeatInfo;
}

impl Seen for SeatView {
    type Tallies = ();

    #[inline]
    fn header(&self) -> Header {
        Header::of(self)
    }

    #[inline]
    fn turns(&self, visit: impl FnMut(&AuctionView)) {
        self.auctions().iter().for_each(visit);
    }

    #[inline]
    fn seat(&self, i: u8, (): &()) -> SeatInfo {
        self.seats[Seat(i)]
    }
}

impl Seen for Sight<'_> {
    type Tallies = Tallies;

    #[inline]
    fn header(&self) -> Header {
        Sight::header(self)
    }

    // Inlined into the writer so the per-turn parts are written as they are made, never stored.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn turns(&self, mut visit: impl FnMut(&AuctionView)) -> Tallies {
        Sight::turns(self, |a| visit(&a))
    }

    #[inline]
    fn seat(&self, i: u8, tallies: &Tallies) -> SeatInfo {
        Sight::seat(self, i, tallies)
    }
}

/// The one writer of observations: every float of `out` from what `seen` shows, each through its
/// name in [`LAYOUT`].
// Inlined with the per-turn walk into one loop (PERF.md).
#[allow(clippy::inline_always)]
#[inline(always)]
fn write(seen: &impl Seen, out: &mut [f32]) {
    assert_eq!(out.len(), OBS_SIZE, "observation length must be OBS_SIZE");
    let out: &mut [f32; OBS_SIZE] = out.try_into().expect("checked above");
    out.fill(0.0);
    let header = seen.header();
    write_header(out, &header);
    let tallies = seen.turns(|a| write_auction(out, a));
    for s in 0..header.players.min(MAX_SEATS as u8) {
        write_seat(at::SEATS.slot(out, s as usize), &seen.seat(s, &tallies));
    }
}

/// Writes the observation of `view` into `out` (length [`OBS_SIZE`]); see [`BLOCKS`]. Everything
/// comes from the view, so an observation holds nothing its seat may not know (R-VIS-8).
///
/// # Panics
/// If `out.len()` is not [`OBS_SIZE`].
pub fn observe(view: &SeatView, out: &mut [f32]) {
    write(view, out);
}

/// Writes the observation of `seat` in `game` into `out`: exactly the floats of
/// `observe(&game.view(seat), out)` (a seat outside the game gets the spectator's), faster, for
/// training loops: the same writer reads the parts the view is built from (what the seat sees is
/// decided in one place, R-VIS-8) as they are made, without assembling a whole [`SeatView`]. The
/// tests check the two agree bit for bit for every seat after every command of random games.
///
/// ```
/// use qe_core::encoding::{observe, observe_seat, OBS_SIZE};
/// use qe_core::{Game, Rules, Seat};
/// let game = Game::seeded(Rules::commodities(4).unwrap(), 7);
/// let (mut a, mut b) = ([0.0f32; OBS_SIZE], [0.0f32; OBS_SIZE]);
/// observe(&game.view(Seat(2)), &mut a);
/// observe_seat(&game, Seat(2), &mut b);
/// assert_eq!(a, b);
/// ```
///
/// # Panics
/// If `out.len()` is not [`OBS_SIZE`].
pub fn observe_seat(game: &Game, seat: Seat, out: &mut [f32]) {
    let viewer = (seat.0 < game.players()).then_some(seat);
    write(&Sight::new(game, viewer), out);
}

/// The blocks before `seats`.
#[inline]
fn write_header(out: &mut [f32; OBS_SIZE], h: &Header) {
    if (3..=5).contains(&h.players) {
        at::PLAYERS.one_hot(out, h.players as usize - 3);
    }
    for expansion in h.expansions.iter() {
        at::EXPANSIONS.one_hot(out, expansion.index());
    }
    if let Some(s) = h.seat {
        at::ME.one_hot(out, s.index());
    }
    if !h.game_over {
        at::TURN.one_hot(out, h.turn as usize);
    }
    let (phase, tie) = match h.phase {
        Phase::Chance { .. } => (0, 0),
        Phase::OpeningBid { .. } => (1, 0),
        Phase::Bidding => (2, 0),
        Phase::Rebid { tie } => (3, tie),
        Phase::AssetRebid { tie } => (4, tie),
        Phase::TakeAsset { .. } => (5, 0),
        Phase::DiscardAsset { .. } => (6, 0),
        Phase::GameOver => (7, 0),
    };
    at::PHASE.one_hot(out, phase);
    if (1..=2).contains(&tie) {
        at::TIE.one_hot(out, tie as usize - 1);
    }
    if let Some(s) = h.auctioneer {
        at::AUCTIONEER.one_hot(out, s.index());
    }
    seats_bits(at::TO_ACT.of(out), h.to_act.bits());
    seats_bits(at::HAS_BID.of(out), h.has_bid.bits());
    if let Some(t) = h.tile {
        at::TILE.one_hot(out, t.index());
    }
    at::DECK.set(out, f32::from(h.deck_remaining) / 16.0);
    for (p, &k) in at::PILES.of(out).iter_mut().zip(&h.piles_remaining) {
        *p = sixths(k);
    }
    for (s, bid) in h.bids.values().enumerate() {
        if let Some(b) = bid {
            let slot = at::BIDS.slot(out, s);
            at::bid::KNOWN.set(slot, 1.0);
            at::bid::MONEY.set(slot, money(*b as f32));
        }
    }
    let legal = &h.legal;
    if let Some(range) = legal.bid {
        at::legal::MUST_BID.set(out, 1.0);
        if range.min >= 1 {
            at::legal::MIN_ONE.set(out, 1.0);
        }
        if let Some(f) = range.forbidden {
            at::legal::FORBIDDEN_KNOWN.set(out, 1.0);
            at::legal::FORBIDDEN.set(out, money(f as f32));
        }
    }
    for (k, &kind) in AssetKind::ALL.iter().enumerate() {
        if legal.take.contains(kind) {
            at::legal::TAKE.one_hot(out, k);
        }
        if legal.discard.contains(kind) {
            at::legal::DISCARD.one_hot(out, k);
        }
    }
    for (t, p) in at::PEEK.of(out).iter_mut().enumerate() {
        if legal.peek & (1 << t) != 0 {
            *p = 1.0;
        }
    }
    if let Some(i) = h.set_aside {
        at::SET_ASIDE.one_hot(out, i.index());
    }
    if h.game_over {
        at::GAME_OVER.set(out, 1.0);
    }
}

/// `x as f32` without the slow 128-bit conversion when `|x| < 2^53`: then `x as f64` is exact, so
/// rounding it to `f32` rounds the exact integer once, as `x as f32` does. The 128-bit conversion
/// sits in a cold function, or the compiler would compute it anyway and pick afterwards.
#[inline]
fn wide_to_f32(x: i128) -> f32 {
    #[cold]
    #[inline(never)]
    fn slow(x: i128) -> f32 {
        x as f32
    }
    if x.unsigned_abs() < 1 << 53 {
        x as i64 as f64 as f32
    } else {
        slow(x)
    }
}

/// One seat's slot of the `seats` block.
#[inline]
fn write_seat(x: &mut [f32; SEAT_LEN], info: &SeatInfo) {
    use at::seat;
    seat::PRESENT.set(x, 1.0);
    if let Some(n) = info.nation {
        seat::NATION.one_hot(x, n.index());
    }
    if let Some(i) = info.industry {
        seat::INDUSTRY.one_hot(x, i.index());
    }
    // The counts by nation and by industry, a byte each in one register (counting into arrays
    // in memory made the reads after the loop wait on the byte writes).
    let (mut by_nation, mut by_industry) = (0u64, 0u64);
    let tiles = seat::TILES.of(x);
    let mut bits = info.tiles & ((1 << TileId::COUNT) - 1);
    while bits != 0 {
        let t = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let tile = TileId::ALL[t];
        tiles[t] = 1.0;
        by_nation += 1 << (8 * tile.nation().index());
        by_industry += 1 << (8 * tile.industry().index());
    }
    for (i, v) in seat::BY_NATION.of(x).iter_mut().enumerate() {
        *v = f32::from((by_nation >> (8 * i)) as u8) * 0.25;
    }
    for (i, v) in seat::BY_INDUSTRY.of(x).iter_mut().enumerate() {
        *v = f32::from((by_industry >> (8 * i)) as u8) * 0.25;
    }
    seat::ZERO_MARKS.set(x, info.zero_marks.count_ones() as f32 * 0.25);
    for (v, &k) in seat::ASSETS.of(x).iter_mut().zip(&info.assets) {
        *v = sixths(k);
    }
    if info.peeked.is_some() {
        seat::PEEKED.set(x, 1.0);
    }
    if let Some(spent) = info.spent {
        seat::SPENT_KNOWN.set(x, 1.0);
        seat::SPENT.set(x, money(wide_to_f32(spent)));
    }
}

/// One turn's slot of the `auctions` block (turns past [`MAX_TURNS`] are left out).
// Inlined into the writer so the per-turn parts are written as they are made, never stored
// (PERF.md).
#[allow(clippy::inline_always)]
#[inline(always)]
fn write_auction(out: &mut [f32; OBS_SIZE], a: &AuctionView) {
    let t = a.turn as usize;
    if t >= MAX_TURNS {
        return;
    }
    write_auction_slot(at::AUCTIONS.slot(out, t), a);
}

/// One turn's slot of the `auctions` block, into the zeroed `x`.
// Inlined into `write_auction` (PERF.md).
#[allow(clippy::inline_always)]
#[inline(always)]
fn write_auction_slot(x: &mut [f32; AUCTION_LEN], a: &AuctionView) {
    use at::auction;
    auction::STARTED.set(x, 1.0);
    if let Some(s) = a.auctioneer {
        auction::AUCTIONEER.one_hot(x, s.index());
    }
    if let Some(b) = a.opening {
        auction::OPENING_KNOWN.set(x, 1.0);
        auction::OPENING.set(x, money(b as f32));
    }
    if a.awarded {
        auction::AWARDED.set(x, 1.0);
    }
    if let Some(s) = a.winner {
        auction::WINNER.one_hot(x, s.index());
    }
    if let Some(p) = a.price {
        auction::PRICE_KNOWN.set(x, 1.0);
        auction::PRICE.set(x, money(p as f32));
    }
    auction::TIES.set(x, THIRDS[a.ties.iter().filter(|s| !s.is_empty()).count()]);
    if a.third_tie == Some(true) {
        auction::THIRD_TIE.set(x, 1.0);
    }
    seats_bits(auction::ZERO_BIDS.of(x), a.zero_bids.bits());
    let asset = &a.asset;
    if asset.taken {
        auction::ASSET_TAKEN.set(x, 1.0);
    }
    if asset.discarded {
        auction::ASSET_DISCARDED.set(x, 1.0);
    }
    if let Some(k) = asset.kind {
        auction::ASSET_PILE.one_hot(x, k.index());
    }
    if let Some(s) = asset.seat {
        auction::ASSET_SEAT.one_hot(x, s.index());
    }
    if let Some(p) = asset.price {
        auction::ASSET_PRICE_KNOWN.set(x, 1.0);
        auction::ASSET_PRICE.set(x, money(p as f32));
    }
    if let Some(v) = asset.value {
        auction::ASSET_VALUE_KNOWN.set(x, 1.0);
        auction::ASSET_VALUE.set(x, f32::from(v) / 10.0);
    }
}

/// The nation of one-hot index `i` in the `seats` block's nation field (for readers of the layout).
pub fn nation_of_slot(i: usize) -> Option<Nation> {
    Nation::from_index(i)
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // exact 0/1 flags
mod tests {
    use super::*;
    use crate::bots::{Bot, RandomBot};
    use crate::{Game, Rules};
    use alloc::string::ToString;
    use alloc::vec;
    use alloc::vec::Vec;

    #[test]
    fn layout_is_contiguous_and_named() {
        let mut offset = 0;
        for b in BLOCKS {
            assert_eq!(b.offset, offset, "{}", b.name);
            offset += b.len;
        }
        assert_eq!(offset, OBS_SIZE);
        assert_eq!(block("auctions").unwrap().len, MAX_TURNS * AUCTION_LEN);
        assert_eq!(block("nope"), None);
        assert_eq!(nation_of_slot(0), Some(Nation::US));
    }

    #[test]
    fn every_float_has_one_place_and_the_sizes_stay_put() {
        // The sizes the bindings document (qe-py's README: seats 5×49, auctions 16×37).
        // The crate's tests compile a toy expansion in: one more float in `expansions`.
        let toy = crate::toy_expansion::OBSERVATION_FLOATS;
        assert_eq!((SEAT_LEN, AUCTION_LEN, OBS_SIZE), (49, 37, 954 + toy));
        let mut offset = 0;
        for b in &LAYOUT {
            assert_eq!(b.offset, offset, "{}", b.name);
            assert!(!b.is_empty() && !b.fields.is_empty(), "{}", b.name);
            let mut at = 0;
            for f in b.fields {
                assert_eq!(f.offset, at, "{}.{}", b.name, f.name);
                assert!(f.len > 0 && (f.name.is_empty() == (b.fields.len() == 1)));
                assert_eq!(b.field(f.name), Some(f), "{}.{} is unique", b.name, f.name);
                at += f.len;
            }
            assert_eq!(at, b.slot_len, "{}", b.name);
            assert_eq!(block(b.name).unwrap().len, b.len(), "{}", b.name);
            assert_eq!(LAYOUT.iter().filter(|o| o.name == b.name).count(), 1);
            offset += b.len();
        }
        assert_eq!(offset, OBS_SIZE);
        for i in 0..OBS_SIZE {
            let p = place(i).unwrap();
            assert_eq!(
                p.block.offset + p.slot * p.block.slot_len + p.field.offset + p.index,
                i
            );
        }
        assert_eq!(place(OBS_SIZE), None);
        let names: vec::Vec<_> = (0..OBS_SIZE)
            .map(|i| alloc::string::ToString::to_string(&place(i).unwrap()))
            .collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), OBS_SIZE, "every float has its own name");
        let legal = block("legal").unwrap().offset;
        assert_eq!(
            names[legal + 4..legal + 7],
            ["legal.take[0]", "legal.take[1]", "legal.take[2]"]
        );
        assert_eq!(names[block("deck").unwrap().offset], "deck");
        assert_eq!(
            names[block("auctions").unwrap().offset + 37 + 9 + 4],
            "auctions[1].winner[4]"
        );
    }

    /// Every field of the layout is written: each takes a value other than 0 in some observation
    /// of some seat (or the spectator) in random games of every variant.
    #[test]
    fn every_field_is_written() {
        let mut seen = [false; OBS_SIZE];
        let mut out = [0.0f32; OBS_SIZE];
        for (players, _, mut game, mut bots) in random_games(40, 13) {
            loop {
                for s in 0..=players {
                    observe_seat(&game, Seat(s), &mut out);
                    for (f, x) in seen.iter_mut().zip(out) {
                        *f |= x != 0.0;
                    }
                }
                if game.is_over() {
                    break;
                }
                random_step(&mut game, &mut bots);
            }
        }
        for b in &LAYOUT {
            for f in b.fields {
                let written = (0..b.slots).any(|slot| {
                    let at = b.offset + slot * b.slot_len + f.offset;
                    seen[at..at + f.len].iter().any(|&x| x)
                });
                assert!(written, "{}.{} is never written", b.name, f.name);
            }
        }
    }

    #[test]
    fn ladders() {
        assert_eq!(BidLadder::default().amounts(), &LADDER);
        assert_eq!(BidLadder::new(&[1]), Err(LadderError::Rungs(1)));
        let not_increasing = |index, before, amount| {
            Err(LadderError::NotIncreasing {
                index,
                before,
                amount,
            })
        };
        assert_eq!(BidLadder::new(&[1, 1]), not_increasing(1, 1, 1));
        assert_eq!(BidLadder::new(&[0, 4, 9, 9]), not_increasing(3, 9, 9));
        assert_eq!(
            BidLadder::new(&[0, 4, 9, 9]).unwrap_err().to_string(),
            "the amounts of a bid ladder must be strictly increasing, but rung 3 (9) is not \
             above rung 2 (9)"
        );
        // 64 rungs is the most, and allowed.
        assert_eq!(BidLadder::linear(1, 64).unwrap().amounts().len(), 64);
        let sixty_four: Vec<u64> = (0..64).collect();
        assert!(BidLadder::new(&sixty_four).is_ok());
        assert_eq!(
            BidLadder::new(&(0..65).collect::<Vec<u64>>()),
            Err(LadderError::Rungs(65))
        );
        assert_eq!(BidLadder::linear(0, 3), not_increasing(1, 0, 0));
        assert_eq!(BidLadder::linear(1, 65), Err(LadderError::Rungs(65)));
        let past = |step, rungs| Err(LadderError::PastLargestBid { step, rungs });
        assert_eq!(BidLadder::linear(1 << 62, 5), past(1 << 62, 5));
        assert_eq!(
            BidLadder::linear(u64::MAX, 2).unwrap().amounts(),
            &[0, u64::MAX]
        );
        assert_eq!(BidLadder::linear(u64::MAX, 3), past(u64::MAX, 3));
        let geometric = |first, ratio| Err(LadderError::Geometric { first, ratio });
        assert_eq!(BidLadder::geometric(0, 2.0, 3), geometric(0, 2.0));
        assert_eq!(BidLadder::geometric(1, 1.0, 3), geometric(1, 1.0));
        let nan = BidLadder::geometric(1, f64::NAN, 4);
        assert!(
            matches!(nan, Err(LadderError::Geometric { first: 1, ratio }) if ratio.is_nan()),
            "{nan:?}"
        );
        assert!(BidLadder::geometric(1, f64::NAN, 2).is_err());
        assert_eq!(
            BidLadder::geometric(1, 1.1, 5).unwrap().amounts(),
            &[0, 1, 2, 3, 4]
        );
        let big = BidLadder::geometric(1, 1e6, 4).unwrap();
        assert_eq!(big.amount(3), Some(1_000_000_000_000));
        // Past u64::MAX the rungs would repeat.
        let past = |first, ratio, rungs| {
            Err(LadderError::GeometricPastLargestBid {
                first,
                ratio,
                rungs,
            })
        };
        assert_eq!(BidLadder::geometric(1, 1e6, 8), past(1, 1e6, 8));
        assert_eq!(BidLadder::geometric(1 << 63, 2.0, 3), past(1 << 63, 2.0, 3));
        assert_eq!(BidLadder::geometric(1, 1e300, 3), past(1, 1e300, 3));
        assert_eq!(
            BidLadder::geometric(1, f64::INFINITY, 6),
            past(1, f64::INFINITY, 6)
        );
        assert_eq!(
            BidLadder::geometric(1 << 62, 2.0, 3).unwrap().amounts(),
            &[0, 1 << 62, 1 << 63]
        );
        // The first rung is the amount given, even one a float cannot hold.
        let big = (1u64 << 53) + 1;
        assert_eq!(
            BidLadder::geometric(big, 1.5, 2).unwrap().amounts(),
            &[0, big]
        );
        let l = BidLadder::linear(3, 4).unwrap();
        assert_eq!(l.len(), 4);
        assert_eq!(l.index_of(6), Some(2));
        assert_eq!(l.index_of(7), None);
        assert_eq!(l.amount(4), None);
    }

    #[test]
    fn wide_amounts_round_like_the_128_bit_conversion() {
        let mut values = vec![0i128, 1, -1, i128::from(i64::MAX), i128::from(i64::MIN)];
        for shift in 20..=70 {
            let p = 1i128 << shift;
            values.extend([p - 1, p, p + 1, p + 3, -p - 1, 3 * p + 1]);
        }
        for x in values {
            assert_eq!(wide_to_f32(x).to_bits(), (x as f32).to_bits(), "{x}");
        }
    }

    #[test]
    fn bid_masks_match_the_range_for_every_bound_and_forbidden_amount() {
        // Every range with bounds in 0..=25 and every forbidden amount (or none), on a ladder
        // with gaps: the mask marks exactly the rungs the range allows (R-AUC-2, R-AUC-3).
        let space = ActionSpace::new(BidLadder::default(), false);
        let amounts = *space.ladder();
        let mut mask = vec![0u8; space.size()];
        for min in 0..=25u64 {
            for max in 0..=25u64 {
                for forbidden in core::iter::once(None).chain((0..=25).map(Some)) {
                    let range = crate::BidRange {
                        min,
                        max,
                        forbidden,
                    };
                    let legal = crate::Legal {
                        bid: Some(range),
                        ..Default::default()
                    };
                    space.mask_with(&legal, &mut mask, 1, 0);
                    for (i, &a) in amounts.amounts().iter().enumerate() {
                        assert_eq!(mask[i] == 1, range.allows(a), "{range:?} rung {a}");
                    }
                    assert!(mask[amounts.len()..].iter().all(|&m| m == 0));
                }
            }
        }
    }

    #[test]
    fn masks_match_legality_and_decode_round_trips() {
        for (players, commodities, peeks) in [(3, false, false), (4, true, false), (5, true, true)]
        {
            let rules = if commodities {
                Rules::commodities(players).unwrap()
            } else {
                Rules::base(players).unwrap()
            };
            let space = ActionSpace::new(BidLadder::linear(2, 6).unwrap(), peeks);
            for seed in 0..20 {
                let (mut game, mut bots) = random_game(rules, seed, 7);
                let mut mask = vec![false; space.size()];
                while !game.is_over() {
                    for s in 0..players {
                        let seat = Seat(s);
                        let view = game.view(seat);
                        space.mask(&view.legal, &mut mask);
                        let must = game.to_act().contains(seat);
                        assert_eq!(must, mask[..space.pile_offset() + 3].iter().any(|&m| m));
                        for (a, &m) in mask.iter().enumerate() {
                            assert_eq!(space.is_legal(&view.legal, a), m);
                            let command = space.decode(seat, &view.legal, a).unwrap();
                            assert_eq!(space.encode(&command), Some(a));
                            let mut copy = game;
                            assert_eq!(copy.apply(command).is_ok(), m, "{command:?}");
                        }
                        assert_eq!(space.decode(seat, &view.legal, space.size()), None);
                    }
                    random_step(&mut game, &mut bots);
                }
            }
        }
    }

    #[test]
    fn observation_depends_only_on_the_view() {
        // Two games that differ only in hidden information look the same to a seat that cannot
        // see the difference: here, bids of others before the round settles.
        let rules = Rules::base(4).unwrap();
        let mut a = Game::seeded(rules, 3);
        a.apply(Command::Bid {
            seat: Seat(0),
            amount: 5,
        })
        .unwrap();
        let mut b = a;
        a.apply(Command::Bid {
            seat: Seat(1),
            amount: 7,
        })
        .unwrap();
        b.apply(Command::Bid {
            seat: Seat(1),
            amount: 9,
        })
        .unwrap();
        let mut oa = vec![0.0; OBS_SIZE];
        let mut ob = vec![0.0; OBS_SIZE];
        observe(&a.view(Seat(2)), &mut oa);
        observe(&b.view(Seat(2)), &mut ob);
        assert_eq!(oa, ob);
        // The bidder and the auctioneer see the difference.
        for s in [0, 1] {
            observe(&a.view(Seat(s)), &mut oa);
            observe(&b.view(Seat(s)), &mut ob);
            assert_ne!(oa, ob);
        }
        // Every value is finite and in [-1, 1].
        assert!(oa.iter().all(|x| x.is_finite() && (-1.0..=1.0).contains(x)));
        let me = block("me").unwrap();
        assert_eq!(oa[me.offset + 1], 1.0);
    }

    /// The bit patterns of `v`: observations are compared bit for bit, not as floats.
    fn bits(v: &[f32]) -> vec::Vec<u32> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    /// Asserts that `write` fills an observation of `seat` in `game` with exactly the floats
    /// `observe_seat` writes, bit for bit (`what` names the case on failure). Every other writer
    /// (`observe` from the view, an [`Observer`], an `ObservedGame`) is checked through it.
    #[track_caller]
    /// A game of `rules` from `seed`, and a random bot a seat: seat `s`'s seeded
    /// `seed * spread + s`.
    fn random_game(rules: Rules, seed: u64, spread: u64) -> (Game, Vec<RandomBot>) {
        let bots = (0..rules.players())
            .map(|s| RandomBot::new(seed * spread + u64::from(s)))
            .collect();
        (Game::seeded(rules, seed), bots)
    }

    /// The games of every variant from the seeds `0..seeds`, with their random bots (as
    /// [`random_game`]): `(players, seed, game, bots)`.
    fn random_games(
        seeds: u64,
        spread: u64,
    ) -> impl Iterator<Item = (u8, u64, Game, Vec<RandomBot>)> {
        Rules::every_variant().flat_map(move |rules| {
            (0..seeds).map(move |seed| {
                let (game, bots) = random_game(rules, seed, spread);
                (rules.players(), seed, game, bots)
            })
        })
    }

    /// The seat to act plays its random bot's command.
    fn random_step(game: &mut Game, bots: &mut [RandomBot]) {
        let seat = game.to_act().first().unwrap();
        let command = bots[seat.index()].act(&game.view(seat)).unwrap();
        game.apply(command).unwrap();
    }

    pub(super) fn assert_writes_like_observe_seat(
        game: &Game,
        seat: Seat,
        write: impl FnOnce(&mut [f32]),
        what: impl FnOnce() -> alloc::string::String,
    ) {
        let mut direct = [0.0f32; OBS_SIZE];
        let mut written = [0.0f32; OBS_SIZE];
        observe_seat(game, seat, &mut direct);
        write(&mut written);
        assert_eq!(bits(&written), bits(&direct), "{}", what());
    }

    /// `observer` writes for `seat` of `game` exactly what `observe_seat` writes (`what` names the
    /// case in the message, after "observer: ").
    fn assert_observer_agrees(
        observer: &mut Observer,
        game: &Game,
        seat: Seat,
        what: impl FnOnce() -> alloc::string::String,
    ) {
        assert_writes_like_observe_seat(
            game,
            seat,
            |out| observer.observe(game, seat, out),
            || alloc::format!("observer: {}", what()),
        );
    }

    /// `observe_seat` writes exactly what `observe` writes from the view, bit for bit, for every
    /// seat (and a seat outside the game: the spectator) after every command, in every variant,
    /// with 5-player peeks (R-VIS-5) taken along the way.
    /// And so does an [`Observer`], though it is handed every game in turn and, now and then,
    /// an earlier copy of the current game (so it must notice and start again).
    #[test]
    fn observe_seat_agrees_with_the_view_bit_for_bit() {
        let mut observer = alloc::boxed::Box::new(Observer::new());
        let (mut compared, mut peeked, mut rewound) = (0, 0, 0);
        for (players, seed, mut game, mut bots) in random_games(12, 11) {
            let mut step = 0u64;
            let mut earlier = game;
            loop {
                for s in 0..=players {
                    assert_writes_like_observe_seat(
                        &game,
                        Seat(s),
                        |out| observe(&game.view(Seat(s)), out),
                        || alloc::format!("{players}p seed {seed} seat {s}"),
                    );
                    assert_observer_agrees(&mut observer, &game, Seat(s), || {
                        alloc::format!("{players}p seed {seed} seat {s}")
                    });
                    compared += 1;
                }
                if game.is_over() {
                    break;
                }
                step += 1;
                if step % 13 == 0 {
                    // An earlier copy: the observer must not use the turns it kept.
                    let s = Seat((step % u64::from(players)) as u8);
                    assert_observer_agrees(&mut observer, &earlier, s, || {
                        alloc::format!("rewound {players}p")
                    });
                    rewound += 1;
                }
                if step % 29 == 0 {
                    earlier = game;
                }
                // Now and then a seat peeks at the first turn it may (5 players).
                let peeker = Seat((step % u64::from(players)) as u8);
                let peeks = game.legal(peeker).peek;
                if step % 7 == 0 && peeks != 0 {
                    let turn = peeks.trailing_zeros() as u8;
                    game.apply(Command::Peek { seat: peeker, turn }).unwrap();
                    peeked += 1;
                    continue;
                }
                random_step(&mut game, &mut bots);
            }
        }
        assert!(
            compared > 10_000 && peeked > 20 && rewound > 200,
            "{compared} {peeked} {rewound}"
        );
    }

    /// An [`Observer`] agrees with `observe_seat` in external-chance mode too (R-SET-3), where
    /// the game waits for the deal, each reveal and each draw.
    #[test]
    fn observer_agrees_in_external_chance_mode() {
        let mut observer = Observer::new();
        let mut compared = 0;
        for players in 3..=5u8 {
            let rules = Rules::commodities(players).unwrap();
            for seed in 0..4u64 {
                let mut game = Game::external_chance(rules, None).unwrap();
                let mut bots: vec::Vec<RandomBot> = (0..players)
                    .map(|s| RandomBot::new(seed * 7 + u64::from(s)))
                    .collect();
                let mut step = 0usize;
                while !game.is_over() {
                    for s in 0..players {
                        assert_observer_agrees(&mut observer, &game, Seat(s), || {
                            alloc::format!("{players}p seed {seed} seat {s}")
                        });
                        compared += 1;
                    }
                    step += 1;
                    let outcomes = game.chance_outcomes();
                    let command = if outcomes.is_empty() {
                        let seat = game.to_act().first().unwrap();
                        bots[seat.index()].act(&game.view(seat)).unwrap()
                    } else {
                        Command::Chance(outcomes[step % outcomes.len()])
                    };
                    game.apply(command).unwrap();
                }
            }
        }
        assert!(compared > 1_000, "{compared}");
    }

    #[test]
    fn observation_stays_in_range_over_whole_games() {
        let rules = Rules::commodities(5).unwrap();
        let mut obs = vec![0.0; OBS_SIZE];
        for seed in 0..10 {
            let (mut game, mut bots) = random_game(rules, seed, 1);
            loop {
                for s in 0..5 {
                    observe(&game.view(Seat(s)), &mut obs);
                    assert!(obs
                        .iter()
                        .all(|x| x.is_finite() && (-1.0..=1.0).contains(x)));
                }
                if game.is_over() {
                    let go = block("game_over").unwrap();
                    assert_eq!(obs[go.offset], 1.0);
                    break;
                }
                random_step(&mut game, &mut bots);
            }
        }
    }
}

/// The length of the optional spend-bounds block ([`observe_bounds`], [`BOUNDS_LAYOUT`]): 3 floats
/// per seat slot.
pub const BOUNDS_SIZE: usize = layout::layout_len(&BOUNDS_LAYOUT);

/// Writes the optional spend-bounds block ([`crate::deduction`]) into `out` (length
/// [`BOUNDS_SIZE`]): per seat slot `i`, the squashed lower bound of its total spent, the squashed upper
/// bound (`1.0` when unbounded, i.e. some hidden price could be as large as 2^64−1), and `1.0` when the
/// viewer knows the total exactly. Append it to [`observe`]'s output when the option is on. The
/// bounds come from the seat's own view and bids, so the block leaks nothing (R-VIS-8).
pub fn observe_bounds(deduction: &crate::Deduction, players: u8, out: &mut [f32]) {
    assert_eq!(out.len(), BOUNDS_SIZE, "bounds length must be BOUNDS_SIZE");
    out.fill(0.0);
    const SLOT: usize = BOUNDS_LAYOUT[0].slot_len;
    const LOWER: usize = layout::offset_of(&layout::BOUNDS_FIELDS, "lower");
    const UPPER: usize = layout::offset_of(&layout::BOUNDS_FIELDS, "upper");
    const EXACT: usize = layout::offset_of(&layout::BOUNDS_FIELDS, "exact");
    let slots = out.chunks_exact_mut(SLOT);
    for (x, b) in slots.zip(deduction.seats.in_play(players)) {
        x[LOWER] = money(b.lower as f32);
        x[UPPER] = if b.upper >= i128::from(u64::MAX) {
            1.0
        } else {
            money(b.upper as f32)
        };
        x[EXACT] = if b.exact() { 1.0 } else { 0.0 };
    }
}

#[cfg(test)]
mod bounds_tests {
    use super::*;
    use crate::{Command, Match, Rules};

    #[test]
    #[allow(clippy::float_cmp)] // exact flags are exactly 0.0 or 1.0
    fn bounds_block_marks_own_total_exact_and_hidden_prices_open() {
        let mut m = Match::seeded(Rules::base(4).unwrap(), 1);
        for (s, a) in [(0u8, 5u64), (1, 9), (2, 7), (3, 0)] {
            m.apply(Command::Bid {
                seat: Seat(s),
                amount: a,
            })
            .unwrap();
        }
        let mut out = [0.0f32; BOUNDS_SIZE];
        observe_bounds(&m.deduce(Seat(2)), 4, &mut out);
        assert_eq!(out[3 * 2 + 2], 1.0); // own total: exact
        assert_eq!(out[3 + 1], 1.0); // seat 1's hidden price: unbounded above
        assert!(out[3] > 0.0); // but at least 8
        assert_eq!(out[3 * 4..], [0.0; 3]); // no fifth seat
    }

    #[test]
    #[allow(clippy::float_cmp)] // the same float operations on both sides
    fn bounds_block_keeps_the_sign_of_a_negative_total() {
        // A total below zero (credits under Commodities, R-COM-8) stays negative, squashed as money.
        let mut d = crate::Deduction::default();
        d.seats[crate::Seat(0)] = crate::SpendBounds {
            lower: -9,
            upper: -9,
            ..Default::default()
        };
        d.seats[crate::Seat(1)] = crate::SpendBounds {
            lower: -(u64::MAX as i128),
            upper: 4,
            ..Default::default()
        };
        let mut out = [0.0f32; BOUNDS_SIZE];
        observe_bounds(&d, 3, &mut out);
        assert_eq!(out[..3], [-9.0 / 19.0, -9.0 / 19.0, 1.0]);
        assert_eq!(out[3..6], [money(-(u64::MAX as f32)), 4.0 / 14.0, 0.0]);
        assert!(out[3] < -0.99);
    }
}
