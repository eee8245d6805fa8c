//! The observation's layout, as data: every block and every field has a name, and the writer
//! reaches each float through those names (the typed places of [`at`], found in [`LAYOUT`] by name
//! when the crate compiles). The documentation tables are rendered from the same data, and a test
//! checks that the committed ones are the rendering.

use core::fmt;

use crate::components::{AssetKind, Industry, Nation, TileId};
use crate::expansion::Expansion;
use crate::seat::MAX_SEATS;

use super::history::{HISTORY_PER_AMOUNT, HISTORY_PER_BID, HISTORY_PER_PEEK};
use super::MAX_TURNS;

/// A named field of a block's slot: `len` floats from `offset` (counted from the slot's start).
/// A block whose slot is a single field has one field with an empty name: the block itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    /// The field's name (empty for a block that is a single field).
    pub name: &'static str,
    /// Its first index in the slot.
    pub offset: usize,
    /// Its number of floats.
    pub len: usize,
    /// What the floats hold.
    pub doc: &'static str,
}

/// A block of the observation, field by field: `slots` slots (one per seat, one per turn, or just
/// one) of the same `fields`, from `offset`. [`BLOCKS`](super::BLOCKS) is the short form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockLayout {
    /// The block's name.
    pub name: &'static str,
    /// Its first index in the observation.
    pub offset: usize,
    /// How many slots it has (slot `i` is seat `i` or turn `i`, when there are several).
    pub slots: usize,
    /// The floats of one slot: the sum of the fields' lengths.
    pub slot_len: usize,
    /// The fields of a slot, in order.
    pub fields: &'static [Field],
    /// What the block holds.
    pub doc: &'static str,
}

impl BlockLayout {
    /// The number of floats of the block.
    pub const fn len(&self) -> usize {
        self.slots * self.slot_len
    }

    /// Whether the block holds no float (never, for a block of [`LAYOUT`]).
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The field named `name` (`""` for a block that is a single field).
    pub fn field(&self, name: &str) -> Option<&'static Field> {
        self.fields.iter().find(|f| f.name == name)
    }
}

/// Fields from `(name, len, doc)`, at consecutive offsets.
const fn fields<const N: usize>(spec: [(&'static str, usize, &'static str); N]) -> [Field; N] {
    let mut out = [Field {
        name: "",
        offset: 0,
        len: 0,
        doc: "",
    }; N];
    let (mut i, mut offset) = (0, 0);
    while i < N {
        out[i] = Field {
            name: spec[i].0,
            offset,
            len: spec[i].1,
            doc: spec[i].2,
        };
        offset += spec[i].1;
        i += 1;
    }
    out
}

/// The floats of a slot of these fields.
const fn slot_len(fields: &[Field]) -> usize {
    let (mut i, mut len) = (0, 0);
    while i < fields.len() {
        len += fields[i].len;
        i += 1;
    }
    len
}

/// A block that is a single field of `len` floats (its doc is the block's).
macro_rules! whole {
    ($len:expr) => {
        &[Field {
            name: "",
            offset: 0,
            len: $len,
            doc: "",
        }]
    };
}

/// The fields of one slot of the `bids` block (one slot per seat).
///
#[doc = include_str!("bid_fields.md")]
pub const BID_FIELDS: [Field; 2] = fields([
    (
        "known",
        1,
        "1 when the viewer sees the seat's standing bid: its own; all of them for the auctioneer \
         (R-VIS-2, R-VIS-3)",
    ),
    ("money", 1, "that bid, squashed"),
]);

/// The fields of the `legal` block.
///
#[doc = include_str!("legal_fields.md")]
pub const LEGAL_FIELDS: [Field; 6] = fields([
    ("must_bid", 1, "1 when the viewer must bid now"),
    (
        "min_one",
        1,
        "1 when the smallest bid is 1 (the opening bid, R-AUC-2)",
    ),
    (
        "forbidden_known",
        1,
        "1 when one amount is forbidden (the opening bid, R-AUC-3)",
    ),
    ("forbidden", 1, "that amount, squashed"),
    (
        "take",
        AssetKind::COUNT,
        "the viewer may take from the gold, oil, crypto pile (R-COM-5)",
    ),
    (
        "discard",
        AssetKind::COUNT,
        "the viewer may discard from the gold, oil, crypto pile (R-COM-7)",
    ),
]);

/// The fields of one slot of the `seats` block: slot `i` is seat `i`; slots past the player count
/// stay zero.
///
#[doc = include_str!("seat_fields.md")]
pub const SEAT_FIELDS: [Field; 11] = fields([
    ("present", 1, "1 for a seat of the game"),
    ("nation", Nation::COUNT, "one-hot nation (R-VIS-1)"),
    (
        "industry",
        Industry::COUNT,
        "one-hot industry token, when the viewer sees it: its own, all at game end (R-VIS-2, R-VIS-7)",
    ),
    ("tiles", TileId::COUNT, "the tiles held, by tile"),
    ("by_nation", Nation::COUNT, "tiles held per nation / 4"),
    ("by_industry", Industry::COUNT, "tiles held per industry / 4"),
    ("zero_marks", 1, "zero-bid marks / 4 (R-AUC-11)"),
    (
        "assets",
        AssetKind::COUNT,
        "asset tokens taken from the gold, oil, crypto pile / 6",
    ),
    ("peeked", 1, "1 once the seat has peeked (R-VIS-5)"),
    (
        "spent_known",
        1,
        "1 when the viewer knows the seat's total spent: its own, all at game end (R-VIS-2, R-VIS-7)",
    ),
    ("spent", 1, "that total, squashed"),
]);

/// The fields of one slot of the `auctions` block: slot `t` is turn `t`; turns not started stay
/// zero.
///
#[doc = include_str!("auction_fields.md")]
pub const AUCTION_FIELDS: [Field; 19] = fields([
    ("started", 1, "1 for a started turn"),
    (
        "auctioneer",
        MAX_SEATS,
        "one-hot auctioneer (none on the 3-player last turn)",
    ),
    ("opening_known", 1, "1 once the public opening bid is made"),
    ("opening", 1, "that bid, squashed"),
    ("awarded", 1, "1 once the auction is settled"),
    ("winner", MAX_SEATS, "one-hot winner"),
    (
        "price_known",
        1,
        "1 when the viewer sees the price (R-VIS-2…5, R-VIS-7)",
    ),
    ("price", 1, "that price, squashed"),
    ("ties", 1, "company ties in a row / 3 (R-AUC-6)"),
    (
        "third_tie",
        1,
        "1 when the viewer sees that the third tie decided the winner (R-AUC-7): the auctioneer, all at game end",
    ),
    (
        "zero_bids",
        MAX_SEATS,
        "seats whose final bid was 0 (R-AUC-11)",
    ),
    (
        "asset_taken",
        1,
        "1 once an asset token was taken (R-COM-5)",
    ),
    (
        "asset_discarded",
        1,
        "1 once a token was discarded (R-COM-7)",
    ),
    (
        "asset_pile",
        AssetKind::COUNT,
        "one-hot pile taken from or discarded from",
    ),
    (
        "asset_seat",
        MAX_SEATS,
        "one-hot taker, or the auctioneer who discarded",
    ),
    (
        "asset_price_known",
        1,
        "1 when the viewer sees the asset's price: the taker, the auctioneer, everyone when the \
         auctioneer took it (R-VIS-1…3)",
    ),
    ("asset_price", 1, "that price, squashed"),
    (
        "asset_value_known",
        1,
        "1 when the viewer sees the token: the taker, all at game end (R-COM-5, R-VIS-7)",
    ),
    ("asset_value", 1, "its VP value / 10"),
]);

/// Blocks from `(name, slots, fields, doc)`, at consecutive offsets.
const fn blocks<const N: usize>(
    spec: [(&'static str, usize, &'static [Field], &'static str); N],
) -> [BlockLayout; N] {
    let mut out = [BlockLayout {
        name: "",
        offset: 0,
        slots: 0,
        slot_len: 0,
        fields: &[],
        doc: "",
    }; N];
    let (mut i, mut offset) = (0, 0);
    while i < N {
        let (name, slots, fields, doc) = spec[i];
        out[i] = BlockLayout {
            name,
            offset,
            slots,
            slot_len: slot_len(fields),
            fields,
            doc,
        };
        offset += out[i].len();
        i += 1;
    }
    out
}

/// The floats of a turn's part of the bid-history block ([`HISTORY_LAYOUT`]): its three amounts,
/// each `[known, parts…]`, then its five bid slots, each `[made, known, squashed, parts…]` for
/// seats 0 to 4.
pub const HISTORY_TURN_FIELDS: [Field; 8] = fields([
    (
        "opening",
        HISTORY_PER_AMOUNT,
        "the opening bid (R-AUC-2): known, then its exact parts",
    ),
    (
        "price",
        HISTORY_PER_AMOUNT,
        "the company price (R-AUC-10), as the view shows it: known, then its exact parts",
    ),
    (
        "asset_price",
        HISTORY_PER_AMOUNT,
        "the asset price (R-COM-5), as the view shows it: known, then its exact parts",
    ),
    (
        "secret_bids",
        MAX_SEATS * HISTORY_PER_BID,
        "per seat: made, known, squashed amount, exact parts (R-AUC-3)",
    ),
    (
        "rebids_1",
        MAX_SEATS * HISTORY_PER_BID,
        "the first company rebid, per seat, as `secret_bids` (R-AUC-6)",
    ),
    (
        "rebids_2",
        MAX_SEATS * HISTORY_PER_BID,
        "the second company rebid, per seat (R-AUC-6)",
    ),
    (
        "asset_rebids_1",
        MAX_SEATS * HISTORY_PER_BID,
        "the first asset rebid, per seat (R-COM-4)",
    ),
    (
        "asset_rebids_2",
        MAX_SEATS * HISTORY_PER_BID,
        "the second asset rebid, per seat (R-COM-4)",
    ),
]);

/// The floats of a seat's slot of the peeks part of the bid-history block.
pub const PEEK_FIELDS: [Field; HISTORY_PER_PEEK] = fields([
    (
        "peeked",
        1,
        "1 when the seat peeked (R-VIS-5; public, R-VIS-1)",
    ),
    (
        "at",
        1,
        "its place in the viewer's event stream / 1,024 (when it peeked)",
    ),
]);

/// The bid-history block of the information state
/// ([`write_history`](super::write_history)), block by block: the turns, then the peeks. Its
/// length is [`HISTORY_SIZE`](super::HISTORY_SIZE).
///
#[doc = include_str!("history.md")]
pub const HISTORY_LAYOUT: [BlockLayout; 2] = blocks([
    (
        "turns",
        MAX_TURNS,
        &HISTORY_TURN_FIELDS,
        "per turn: its amounts and every bid and rebid as the seat saw them",
    ),
    ("peeks", MAX_SEATS, &PEEK_FIELDS, "per seat: its peek"),
]);

/// The floats of a seat's slot of the spend-bounds block ([`BOUNDS_LAYOUT`]).
///
#[doc = include_str!("bounds_fields.md")]
pub const BOUNDS_FIELDS: [Field; 3] = fields([
    (
        "lower",
        1,
        "the squashed lower bound of the seat's total spent",
    ),
    (
        "upper",
        1,
        "the squashed upper bound (1 when unbounded: a hidden price could be 2^64-1)",
    ),
    ("exact", 1, "1 when the viewer knows the total exactly"),
]);

/// The optional spend-bounds block ([`observe_bounds`](super::observe_bounds)), per seat. Its
/// length is [`BOUNDS_SIZE`](super::BOUNDS_SIZE).
///
#[doc = include_str!("bounds.md")]
pub const BOUNDS_LAYOUT: [BlockLayout; 1] = blocks([(
    "bounds",
    MAX_SEATS,
    &BOUNDS_FIELDS,
    "per seat slot: what the viewer can prove of its total spent (the deduction aid)",
)]);

/// The floats of `layout`, block after block.
pub const fn layout_len(layout: &[BlockLayout]) -> usize {
    let (mut i, mut len) = (0, 0);
    while i < layout.len() {
        len += layout[i].len();
        i += 1;
    }
    len
}

/// The block named `name` of `layout`; does not compile when there is none.
pub(crate) const fn block_of(layout: &[BlockLayout], name: &str) -> BlockLayout {
    let mut i = 0;
    while i < layout.len() {
        if same(layout[i].name, name) {
            return layout[i];
        }
        i += 1;
    }
    panic!("no block of that name in the layout")
}

/// The offset in its slot of the field named `name` of `fields`; does not compile when there is
/// none.
pub(crate) const fn offset_of(fields: &[Field], name: &str) -> usize {
    find_field(fields, name).offset
}

/// The observation, block by block and field by field: the one description of where each float
/// goes. The writer finds every place it writes here by name; [`BLOCKS`](super::BLOCKS),
/// [`OBS_SIZE`](super::OBS_SIZE), [`SEAT_LEN`](super::SEAT_LEN), [`AUCTION_LEN`](super::AUCTION_LEN)
/// and the documentation tables are derived from it. [`place`] names any float.
pub const LAYOUT: [BlockLayout; 19] = blocks([
    ("players", 1, whole!(3), "one-hot 3, 4, 5 players"),
    (
        "expansions",
        1,
        whole!(Expansion::ALL.len()),
        "the expansions in play: 1 for each one on, in `Expansion::ALL` order (Commodities)",
    ),
    (
        "me",
        1,
        whole!(MAX_SEATS),
        "one-hot viewing seat (all zero for a spectator)",
    ),
    (
        "turn",
        1,
        whole!(MAX_TURNS),
        "one-hot current turn (all zero at game end)",
    ),
    (
        "phase",
        1,
        whole!(8),
        "one-hot: chance, opening bid, bidding, rebid, asset rebid, take asset, discard asset, \
         game over",
    ),
    (
        "tie",
        1,
        whole!(2),
        "one-hot tie 1, 2 of a rebid or asset rebid",
    ),
    (
        "auctioneer",
        1,
        whole!(MAX_SEATS),
        "one-hot auctioneer of the current turn",
    ),
    (
        "to_act",
        1,
        whole!(MAX_SEATS),
        "the seats that must act now",
    ),
    (
        "has_bid",
        1,
        whole!(MAX_SEATS),
        "the seats that have bid in this bidding step",
    ),
    (
        "tile",
        1,
        whole!(TileId::COUNT),
        "one-hot tile up for auction",
    ),
    ("deck", 1, whole!(1), "tiles left in the deck / 16"),
    (
        "piles",
        1,
        whole!(AssetKind::COUNT),
        "tokens left in the gold, oil, crypto pile / 6",
    ),
    ("bids", MAX_SEATS, &BID_FIELDS, "per seat: its standing bid"),
    ("legal", 1, &LEGAL_FIELDS, "what the viewer may do now"),
    (
        "peek",
        1,
        whole!(MAX_TURNS),
        "the turns the viewer may peek at (R-VIS-5)",
    ),
    (
        "set_aside",
        1,
        whole!(Industry::COUNT),
        "one-hot set-aside industry (3 players, revealed at game end, R-VIS-6)",
    ),
    ("game_over", 1, whole!(1), "1 when the game is over"),
    ("seats", MAX_SEATS, &SEAT_FIELDS, "per seat"),
    ("auctions", MAX_TURNS, &AUCTION_FIELDS, "per turn"),
]);

/// The floats of one slot of the `seats` block ([`SEAT_FIELDS`]).
pub(crate) const SEAT_SLOT: usize = slot_len(&SEAT_FIELDS);

/// The floats of one slot of the `auctions` block ([`AUCTION_FIELDS`]).
pub(crate) const AUCTION_SLOT: usize = slot_len(&AUCTION_FIELDS);

/// The number of floats of the observation.
pub(crate) const SIZE: usize = LAYOUT[LAYOUT.len() - 1].offset + LAYOUT[LAYOUT.len() - 1].len();

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The block named `name`; does not compile when there is none.
const fn find_block(name: &str) -> BlockLayout {
    let mut i = 0;
    while i < LAYOUT.len() {
        if same(LAYOUT[i].name, name) {
            return LAYOUT[i];
        }
        i += 1;
    }
    panic!("no block of that name in the layout")
}

/// The field named `name` of `fields`; does not compile when there is none.
const fn find_field(fields: &[Field], name: &str) -> Field {
    let mut i = 0;
    while i < fields.len() {
        if same(fields[i].name, name) {
            return fields[i];
        }
        i += 1;
    }
    panic!("no field of that name in the block")
}

/// `LEN` floats of `x` from `at`, as an array (one bounds check, none inside; none at all when
/// `x` is an array and `at` a constant).
#[inline]
pub(crate) fn part<const LEN: usize>(x: &mut [f32], at: usize) -> &mut [f32; LEN] {
    (&mut x[at..at + LEN])
        .try_into()
        .expect("a field lies inside its block")
}

/// The place of a field of `LEN` floats, found in [`LAYOUT`] by name when the crate compiles (a
/// wrong name or length does not compile): an index in the observation for a field of a one-slot
/// block, an index in the slot for a field of a slot.
#[derive(Clone, Copy, Debug)]
pub(crate) struct At<const LEN: usize>(usize);

impl<const LEN: usize> At<LEN> {
    /// The block `block`, a single field (in the observation).
    const fn block(block: &str) -> At<LEN> {
        let b = find_block(block);
        assert!(
            b.slots == 1 && b.fields.len() == 1 && b.slot_len == LEN,
            "not a single field of that length"
        );
        At(b.offset)
    }

    /// Field `field` of the one-slot block `block` (in the observation).
    const fn field(block: &str, field: &str) -> At<LEN> {
        let b = find_block(block);
        let f = find_field(b.fields, field);
        assert!(b.slots == 1 && f.len == LEN, "not a field of that length");
        At(b.offset + f.offset)
    }

    /// Field `field` of a slot of `block` (in the slot).
    const fn in_slot(block: &str, field: &str) -> At<LEN> {
        let f = find_field(find_block(block).fields, field);
        assert!(f.len == LEN, "not a field of that length");
        At(f.offset)
    }

    /// The field's floats in `x` (the observation, or a slot).
    #[inline]
    pub(crate) fn of<const N: usize>(self, x: &mut [f32; N]) -> &mut [f32; LEN] {
        part(x, self.0)
    }

    /// Sets float `i` of the field to 1 (nothing when `i` is past the field).
    #[inline]
    pub(crate) fn one_hot<const N: usize>(self, x: &mut [f32; N], i: usize) {
        if let Some(v) = self.of(x).get_mut(i) {
            *v = 1.0;
        }
    }
}

impl At<1> {
    /// Sets the field's float.
    #[inline]
    pub(crate) fn set<const N: usize>(self, x: &mut [f32; N], value: f32) {
        self.of(x)[0] = value;
    }
}

/// The place of a block of `N` slots of `LEN` floats, found in [`LAYOUT`] by name when the crate
/// compiles.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slots<const LEN: usize, const N: usize>(usize);

impl<const LEN: usize, const N: usize> Slots<LEN, N> {
    const fn block(block: &str) -> Slots<LEN, N> {
        let b = find_block(block);
        assert!(
            b.slots == N && b.slot_len == LEN,
            "not a block of that shape"
        );
        Slots(b.offset)
    }

    /// The block's offset in the observation.
    pub(crate) const fn offset(self) -> usize {
        self.0
    }

    /// Slot `i` (below `N`) of the block in `x`, the observation.
    #[inline]
    pub(crate) fn slot(self, x: &mut [f32], i: usize) -> &mut [f32; LEN] {
        debug_assert!(i < N, "slot {i} of {N}");
        part(x, self.0 + i * LEN)
    }
}

/// Every place the writer writes, by the names of [`LAYOUT`].
pub(crate) mod at {
    use super::{At, Slots, AUCTION_SLOT, SEAT_SLOT};
    use crate::components::{AssetKind, Industry, Nation, TileId};
    use crate::encoding::MAX_TURNS;
    use crate::expansion::Expansion;
    use crate::seat::MAX_SEATS;

    pub(crate) const PLAYERS: At<3> = At::block("players");
    pub(crate) const EXPANSIONS: At<{ Expansion::ALL.len() }> = At::block("expansions");
    pub(crate) const ME: At<MAX_SEATS> = At::block("me");
    pub(crate) const TURN: At<MAX_TURNS> = At::block("turn");
    pub(crate) const PHASE: At<8> = At::block("phase");
    pub(crate) const TIE: At<2> = At::block("tie");
    pub(crate) const AUCTIONEER: At<MAX_SEATS> = At::block("auctioneer");
    pub(crate) const TO_ACT: At<MAX_SEATS> = At::block("to_act");
    pub(crate) const HAS_BID: At<MAX_SEATS> = At::block("has_bid");
    pub(crate) const TILE: At<{ TileId::COUNT }> = At::block("tile");
    pub(crate) const DECK: At<1> = At::block("deck");
    pub(crate) const PILES: At<{ AssetKind::COUNT }> = At::block("piles");
    pub(crate) const BIDS: Slots<2, MAX_SEATS> = Slots::block("bids");
    pub(crate) const PEEK: At<MAX_TURNS> = At::block("peek");
    pub(crate) const SET_ASIDE: At<{ Industry::COUNT }> = At::block("set_aside");
    pub(crate) const GAME_OVER: At<1> = At::block("game_over");
    pub(crate) const SEATS: Slots<SEAT_SLOT, MAX_SEATS> = Slots::block("seats");
    pub(crate) const AUCTIONS: Slots<AUCTION_SLOT, MAX_TURNS> = Slots::block("auctions");

    /// A slot of `bids`.
    pub(crate) mod bid {
        use super::At;
        pub(crate) const KNOWN: At<1> = At::in_slot("bids", "known");
        pub(crate) const MONEY: At<1> = At::in_slot("bids", "money");
    }

    /// The `legal` block.
    pub(crate) mod legal {
        use super::{AssetKind, At};
        pub(crate) const MUST_BID: At<1> = At::field("legal", "must_bid");
        pub(crate) const MIN_ONE: At<1> = At::field("legal", "min_one");
        pub(crate) const FORBIDDEN_KNOWN: At<1> = At::field("legal", "forbidden_known");
        pub(crate) const FORBIDDEN: At<1> = At::field("legal", "forbidden");
        pub(crate) const TAKE: At<{ AssetKind::COUNT }> = At::field("legal", "take");
        pub(crate) const DISCARD: At<{ AssetKind::COUNT }> = At::field("legal", "discard");
    }

    /// A slot of `seats`.
    pub(crate) mod seat {
        use super::{AssetKind, At, Industry, Nation, TileId};
        pub(crate) const PRESENT: At<1> = At::in_slot("seats", "present");
        pub(crate) const NATION: At<{ Nation::COUNT }> = At::in_slot("seats", "nation");
        pub(crate) const INDUSTRY: At<{ Industry::COUNT }> = At::in_slot("seats", "industry");
        pub(crate) const TILES: At<{ TileId::COUNT }> = At::in_slot("seats", "tiles");
        pub(crate) const BY_NATION: At<{ Nation::COUNT }> = At::in_slot("seats", "by_nation");
        pub(crate) const BY_INDUSTRY: At<{ Industry::COUNT }> = At::in_slot("seats", "by_industry");
        pub(crate) const ZERO_MARKS: At<1> = At::in_slot("seats", "zero_marks");
        pub(crate) const ASSETS: At<{ AssetKind::COUNT }> = At::in_slot("seats", "assets");
        pub(crate) const PEEKED: At<1> = At::in_slot("seats", "peeked");
        pub(crate) const SPENT_KNOWN: At<1> = At::in_slot("seats", "spent_known");
        pub(crate) const SPENT: At<1> = At::in_slot("seats", "spent");
    }

    /// A slot of `auctions`.
    pub(crate) mod auction {
        use super::{AssetKind, At, MAX_SEATS};
        pub(crate) const STARTED: At<1> = At::in_slot("auctions", "started");
        pub(crate) const AUCTIONEER: At<MAX_SEATS> = At::in_slot("auctions", "auctioneer");
        pub(crate) const OPENING_KNOWN: At<1> = At::in_slot("auctions", "opening_known");
        pub(crate) const OPENING: At<1> = At::in_slot("auctions", "opening");
        pub(crate) const AWARDED: At<1> = At::in_slot("auctions", "awarded");
        pub(crate) const WINNER: At<MAX_SEATS> = At::in_slot("auctions", "winner");
        pub(crate) const PRICE_KNOWN: At<1> = At::in_slot("auctions", "price_known");
        pub(crate) const PRICE: At<1> = At::in_slot("auctions", "price");
        pub(crate) const TIES: At<1> = At::in_slot("auctions", "ties");
        pub(crate) const THIRD_TIE: At<1> = At::in_slot("auctions", "third_tie");
        pub(crate) const ZERO_BIDS: At<MAX_SEATS> = At::in_slot("auctions", "zero_bids");
        pub(crate) const ASSET_TAKEN: At<1> = At::in_slot("auctions", "asset_taken");
        pub(crate) const ASSET_DISCARDED: At<1> = At::in_slot("auctions", "asset_discarded");
        pub(crate) const ASSET_PILE: At<{ AssetKind::COUNT }> =
            At::in_slot("auctions", "asset_pile");
        pub(crate) const ASSET_SEAT: At<MAX_SEATS> = At::in_slot("auctions", "asset_seat");
        pub(crate) const ASSET_PRICE_KNOWN: At<1> = At::in_slot("auctions", "asset_price_known");
        pub(crate) const ASSET_PRICE: At<1> = At::in_slot("auctions", "asset_price");
        pub(crate) const ASSET_VALUE_KNOWN: At<1> = At::in_slot("auctions", "asset_value_known");
        pub(crate) const ASSET_VALUE: At<1> = At::in_slot("auctions", "asset_value");
    }
}

/// Where one float of the observation is: its block, slot, field and index in the field. Displays
/// as `block`, `block[i]`, `block.field`, `block.field[i]` or `block[slot].field[i]` (slots shown
/// when the block has several, indices when the field has several floats).
///
/// ```
/// use qe_core::encoding::{block, place};
/// let tiles = block("seats").unwrap().offset + 49 * 2 + 11 + 3;
/// assert_eq!(place(tiles).unwrap().to_string(), "seats[2].tiles[3]");
/// assert_eq!(place(0).unwrap().to_string(), "players[0]");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Place {
    /// The block.
    pub block: &'static BlockLayout,
    /// The slot in the block (seat or turn; 0 for a block of one slot).
    pub slot: usize,
    /// The field of the slot.
    pub field: &'static Field,
    /// The index in the field.
    pub index: usize,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.block.name)?;
        if self.block.slots > 1 {
            write!(f, "[{}]", self.slot)?;
        }
        if !self.field.name.is_empty() {
            write!(f, ".{}", self.field.name)?;
        }
        if self.field.len > 1 {
            write!(f, "[{}]", self.index)?;
        }
        Ok(())
    }
}

/// Where float `index` of the observation is ([`Place`]), or `None` past [`OBS_SIZE`](super::OBS_SIZE).
pub fn place(index: usize) -> Option<Place> {
    let layout: &'static [BlockLayout] = &LAYOUT;
    let block = layout
        .iter()
        .find(|b| (b.offset..b.offset + b.len()).contains(&index))?;
    let at = index - block.offset;
    let (slot, within) = (at / block.slot_len, at % block.slot_len);
    let field = block
        .fields
        .iter()
        .find(|f| (f.offset..f.offset + f.len).contains(&within))?;
    Some(Place {
        block,
        slot,
        field,
        index: within - field.offset,
    })
}

/// The documentation tables of the layouts ([`LAYOUT`], [`HISTORY_LAYOUT`], [`BOUNDS_LAYOUT`]
/// and their field lists), rendered as markdown: `(file name, table)`. This crate's docs include
/// them from `src/encoding/` (a test checks they are exactly these; `scripts/golden` rewrites
/// them); a binding can render its own docs from them the same way.
///
/// ```
/// let tables = qe_core::encoding::layout_docs();
/// let (name, blocks) = &tables[0];
/// assert_eq!(*name, "blocks.md");
/// assert!(blocks.contains("| `players` | 0 | 3 |"));
/// ```
pub fn layout_docs() -> alloc::vec::Vec<(&'static str, alloc::string::String)> {
    use alloc::string::String;
    use core::fmt::Write as _;

    fn fields_table(fields: &[Field]) -> String {
        let mut s = String::from(
            "<!-- rendered from qe-core's encoding layout; rewrite with scripts/golden -->\n\n\
             | field | offset | floats | content |\n|---|---|---|---|\n",
        );
        for f in fields {
            writeln!(s, "| `{}` | {} | {} | {} |", f.name, f.offset, f.len, f.doc).unwrap();
        }
        s
    }

    /// The table of `layout`'s blocks; `table` names the field list of a block with fields.
    fn blocks_table(layout: &[BlockLayout], table: fn(&str) -> &'static str) -> String {
        let mut blocks = String::from(
            "<!-- rendered from qe-core's encoding layout; rewrite with scripts/golden -->\n\n\
             | block | offset | floats | content |\n|---|---|---|---|\n",
        );
        for b in layout {
            let floats = if b.slots > 1 {
                alloc::format!("{} × {}", b.slots, b.slot_len)
            } else {
                alloc::format!("{}", b.slot_len)
            };
            let mut content = String::from(b.doc);
            if b.fields.len() > 1 {
                let list: alloc::vec::Vec<String> = b
                    .fields
                    .iter()
                    .map(|f| alloc::format!("`{}` {}", f.name, f.len))
                    .collect();
                write!(content, ": {} ([`{}`])", list.join(", "), table(b.name)).unwrap();
            }
            writeln!(
                blocks,
                "| `{}` | {} | {floats} | {content} |",
                b.name, b.offset
            )
            .unwrap();
        }
        blocks
    }

    let blocks = blocks_table(&LAYOUT, |name| match name {
        "bids" => "BID_FIELDS",
        "legal" => "LEGAL_FIELDS",
        "seats" => "SEAT_FIELDS",
        "auctions" => "AUCTION_FIELDS",
        other => panic!("block {other} has fields but no table"),
    });
    let mut history = blocks_table(&HISTORY_LAYOUT, |name| match name {
        "turns" => "HISTORY_TURN_FIELDS",
        "peeks" => "PEEK_FIELDS",
        other => panic!("block {other} has fields but no table"),
    });
    for (name, fields) in [
        ("HISTORY_TURN_FIELDS", &HISTORY_TURN_FIELDS[..]),
        ("PEEK_FIELDS", &PEEK_FIELDS[..]),
    ] {
        let table = fields_table(fields);
        let rows = table.split_once("\n\n").map_or(table.as_str(), |(_, t)| t);
        write!(history, "\n`{name}`:\n\n{rows}").unwrap();
    }
    let bounds = blocks_table(&BOUNDS_LAYOUT, |_| "BOUNDS_FIELDS");
    alloc::vec![
        ("blocks.md", blocks),
        ("bid_fields.md", fields_table(&BID_FIELDS)),
        ("legal_fields.md", fields_table(&LEGAL_FIELDS)),
        ("seat_fields.md", fields_table(&SEAT_FIELDS)),
        ("auction_fields.md", fields_table(&AUCTION_FIELDS)),
        ("history.md", history),
        ("bounds.md", bounds),
        ("bounds_fields.md", fields_table(&BOUNDS_FIELDS)),
    ]
}
