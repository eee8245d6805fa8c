//! The flat `#[repr(C)]` structs of the ABI and their constants. Every field is an integer (no
//! `bool`, no arrays, no pointers), so every struct is blittable from C# as declared.

use qe_core::{
    AssetKind, AuctionView, BidRange, BidStage, Event, Legal, Phase, Seat, SeatInfo, SeatOutcome,
    SeatView,
};

/// "No value" in `uint8_t` fields: no seat, no tile, unknown industry, and so on.
pub const QE_NONE: u8 = 255;
/// The spectator, as a viewer: public information only (R-VIS-1), everything at game end.
pub const QE_SPECTATOR: u8 = 255;
/// The library's version, major part (semantic versioning; the same as the qe-ffi crate's).
pub const QE_VERSION_MAJOR: u32 = 0;
/// The library's version, minor part.
pub const QE_VERSION_MINOR: u32 = 1;
/// The library's version, patch part.
pub const QE_VERSION_PATCH: u32 = 0;

/// The version of this ABI; bumped on any incompatible change. Check it with `qe_abi_version`.
pub const QE_ABI_VERSION: u32 = 1;

/// `QeCommand.kind`: a bid (opening bid, secret bid, rebid or asset rebid; R-AUC-2…9, R-COM-4).
pub const QE_COMMAND_BID: u32 = 0;
/// `QeCommand.kind`: the asset taker takes the top token of `pile` (R-COM-5).
pub const QE_COMMAND_TAKE_ASSET: u32 = 1;
/// `QeCommand.kind`: the auctioneer discards the top token of `pile` (R-COM-7).
pub const QE_COMMAND_DISCARD_ASSET: u32 = 2;
/// `QeCommand.kind`: the 5-player peek at the price of turn `turn` (R-VIS-5).
pub const QE_COMMAND_PEEK: u32 = 3;

/// Pile index: gold (bit 0 of pile masks).
pub const QE_PILE_GOLD: u8 = 0;
/// Pile index: oil (bit 1 of pile masks).
pub const QE_PILE_OIL: u8 = 1;
/// Pile index: crypto (bit 2 of pile masks).
pub const QE_PILE_CRYPTO: u8 = 2;

/// `QeState.phase`: a chance outcome is pending (a game with `QE_GAME_EXTERNAL_CHANCE`).
pub const QE_PHASE_CHANCE: u32 = 0;
/// `QeState.phase`: the auctioneer (`phase_seat`) must open (R-AUC-2).
pub const QE_PHASE_OPENING_BID: u32 = 1;
/// `QeState.phase`: secret bids; `to_act` lists the seats still to bid (R-AUC-3).
pub const QE_PHASE_BIDDING: u32 = 2;
/// `QeState.phase`: the tied seats rebid for the company; `tie` is 1 or 2 (R-AUC-6).
pub const QE_PHASE_REBID: u32 = 3;
/// `QeState.phase`: the tied seats rebid for the asset; `tie` is 1 or 2 (R-COM-4).
pub const QE_PHASE_ASSET_REBID: u32 = 4;
/// `QeState.phase`: the asset taker (`phase_seat`) must choose a pile (R-COM-5).
pub const QE_PHASE_TAKE_ASSET: u32 = 5;
/// `QeState.phase`: the auctioneer (`phase_seat`) must choose a pile to discard from (R-COM-7).
pub const QE_PHASE_DISCARD_ASSET: u32 = 6;
/// `QeState.phase`: the game has ended (R-TRN-4).
pub const QE_PHASE_GAME_OVER: u32 = 7;

/// `QeEvent.kind`: `seat` received its industry token `industry` (QE_NONE unless seen, R-VIS-2).
pub const QE_EVENT_DEALT: u32 = 0;
/// `QeEvent.kind`: tile `tile` was revealed; turn `turn` begins; auctioneer `seat` (R-AUC-1).
pub const QE_EVENT_TILE_REVEALED: u32 = 1;
/// `QeEvent.kind`: the auctioneer `seat` opened at `amount` (public, R-AUC-2).
pub const QE_EVENT_OPENING_BID: u32 = 2;
/// `QeEvent.kind`: `seat` bid; `amount` if `amount_known`; `stage` and `tie` say which bid.
pub const QE_EVENT_BID: u32 = 3;
/// `QeEvent.kind`: the seats in `seats` tied and rebid; `tie` 1 or 2; `asset` for R-COM-4.
pub const QE_EVENT_REBID_REQUIRED: u32 = 4;
/// `QeEvent.kind`: `tile` went to `seat` (QE_NONE: discarded) at `amount` if `amount_known`.
pub const QE_EVENT_AWARDED: u32 = 5;
/// `QeEvent.kind`: the seats in `seats` bid 0; `marked` scored a zero-bid mark (R-AUC-11).
pub const QE_EVENT_ZERO_BIDS: u32 = 6;
/// `QeEvent.kind`: `seat` takes the asset and must choose a pile (R-COM-3).
pub const QE_EVENT_ASSET_TAKER: u32 = 7;
/// `QeEvent.kind`: `seat` took token `token` (value `value`) from `pile` at `amount` (R-COM-5).
pub const QE_EVENT_ASSET_TAKEN: u32 = 8;
/// `QeEvent.kind`: no one takes the asset; the auctioneer must discard (R-COM-7).
pub const QE_EVENT_NO_TAKER: u32 = 9;
/// `QeEvent.kind`: the auctioneer `seat` discarded the top token of `pile` (R-COM-7).
pub const QE_EVENT_ASSET_DISCARDED: u32 = 10;
/// `QeEvent.kind`: `seat` peeked at the price of turn `turn`: `amount` if `amount_known` (R-VIS-5).
pub const QE_EVENT_PEEKED: u32 = 11;
/// `QeEvent.kind`: the game ended; everything is revealed (R-TRN-4, R-VIS-7).
pub const QE_EVENT_GAME_OVER: u32 = 12;
/// `QeEvent.kind`: an event that has no flat form in this version of the ABI; read it with
/// `qe_game_events_json`.
pub const QE_EVENT_OTHER: u32 = 255;

/// `qe_bot_new` level: the bot's only level, or `search`'s default (medium).
pub const QE_BOT_LEVEL_DEFAULT: u32 = 0;
/// `qe_bot_new` level: `search` with a small budget.
pub const QE_BOT_LEVEL_EASY: u32 = 1;
/// `qe_bot_new` level: `search` with the default budget (a few ms a decision; see PERF.md).
pub const QE_BOT_LEVEL_MEDIUM: u32 = 2;
/// `qe_bot_new` level: `search` with four times the medium budget.
pub const QE_BOT_LEVEL_HARD: u32 = 3;

/// `qe_name` kind: a nation (index 0–4: US, EU, CN, JP, UK).
pub const QE_NAME_NATION: u32 = 0;
/// `qe_name` kind: an industry (index 0–4: AGR, HOU, FIN, MAN, GOV).
pub const QE_NAME_INDUSTRY: u32 = 1;
/// `qe_name` kind: a company tile (index 0–20), for example "US-AGR".
pub const QE_NAME_TILE: u32 = 2;
/// `qe_name` kind: an asset pile (index 0–2: gold, oil, crypto).
pub const QE_NAME_PILE: u32 = 3;
/// `qe_name` kind: the phase constant `QE_PHASE_*`, for example "bidding".
pub const QE_NAME_PHASE: u32 = 4;
/// `qe_name` kind: the expansion whose `QE_EXPANSION_*` bit is `1 << index`, for example
/// "commodities" (the name records use).
pub const QE_NAME_EXPANSION: u32 = 5;

/// `QeGameOptions.flags` bit: external chance (R-SET-3). The caller supplies the deal, each tile
/// revealed and each token drawn when the phase is `QE_PHASE_CHANCE` (`qe_game_chance_count`,
/// `qe_game_chance_json`, `qe_game_apply_chance`), as a game server that deals itself does; `seed`
/// is not used.
pub const QE_GAME_EXTERNAL_CHANCE: u32 = 1 << 0;

/// `QeGameOptions.expansions` bit: the Commodities expansion (R-COM).
pub const QE_EXPANSION_COMMODITIES: u32 = 1 << 0;

/// The options of a new game, for `qe_game_new_with`. Fill it with `qe_game_options_init`, which
/// sets `struct_size` and the defaults, then change the fields you need: a program compiled against
/// this header keeps working with later libraries whose struct has grown.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QeGameOptions {
    /// `sizeof(QeGameOptions)` as the caller compiled it (set by `qe_game_options_init`).
    pub struct_size: u32,
    /// The number of seats, 3–5 (default 4).
    pub players: u32,
    /// The expansions in play: `QE_EXPANSION_*` bits ORed together (default 0, the base game).
    pub expansions: u32,
    /// `QE_GAME_*` bits ORed together (default 0); other bits must be 0.
    pub flags: u32,
    /// The seed of the set-up (same seed, same game, on every platform; R-SET-2). Default 0.
    pub seed: u64,
    /// Reserved for options to come; must be all 0.
    pub reserved: [u64; 4],
}

/// A command, for `qe_game_apply`: the fast path for game loops (no JSON, no allocation).
///
/// Fields that the `kind` does not use are ignored.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QeCommand {
    /// The bid, for `QE_COMMAND_BID`.
    pub amount: u64,
    /// `QE_COMMAND_BID`, `QE_COMMAND_TAKE_ASSET`, `QE_COMMAND_DISCARD_ASSET` or `QE_COMMAND_PEEK`.
    pub kind: u32,
    /// The acting seat (0-based).
    pub seat: u8,
    /// The pile (`QE_PILE_*`), for take and discard.
    pub pile: u8,
    /// The 0-based turn, for a peek.
    pub turn: u8,
    /// Must be 0.
    pub reserved: u8,
}

impl From<qe_core::Command> for QeCommand {
    fn from(c: qe_core::Command) -> QeCommand {
        let mut out = QeCommand::default();
        match c {
            qe_core::Command::Bid { seat, amount } => {
                out.kind = QE_COMMAND_BID;
                out.seat = seat.0;
                out.amount = amount;
            }
            qe_core::Command::TakeAsset { seat, kind } => {
                out.kind = QE_COMMAND_TAKE_ASSET;
                out.seat = seat.0;
                out.pile = kind.index() as u8;
            }
            qe_core::Command::DiscardAsset { seat, kind } => {
                out.kind = QE_COMMAND_DISCARD_ASSET;
                out.seat = seat.0;
                out.pile = kind.index() as u8;
            }
            qe_core::Command::Peek { seat, turn } => {
                out.kind = QE_COMMAND_PEEK;
                out.seat = seat.0;
                out.turn = turn;
            }
            // Bots never play chance outcomes, nor commands a later qe-core may add.
            _ => out.kind = u32::MAX,
        }
        out
    }
}

/// A signed 128-bit integer as two halves (value = hi * 2^64 + lo): totals spent are exact and may
/// exceed 64 bits, or be negative with Commodities credits (R-COM-8).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QeI128 {
    /// The low 64 bits.
    pub lo: u64,
    /// The high 64 bits, signed.
    pub hi: i64,
}

impl From<i128> for QeI128 {
    fn from(v: i128) -> QeI128 {
        QeI128 {
            lo: v as u64,
            hi: (v >> 64) as i64,
        }
    }
}

/// Saturates an `i128` to `i64`.
fn sat(v: i128) -> i64 {
    v.clamp(i64::MIN as i128, i64::MAX as i128) as i64
}

/// The public state of a game: everything a game loop checks every step, in one call.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QeState {
    /// `QE_PHASE_*`.
    pub phase: u32,
    /// The number of seats (3–5).
    pub players: u8,
    /// 1 with the Commodities expansion, else 0: `expansions & QE_EXPANSION_COMMODITIES`, kept for
    /// callers written before `expansions`.
    pub commodities: u8,
    /// The current turn, 0-based (equals `turns` at the end).
    pub turn: u8,
    /// The number of turns of the game.
    pub turns: u8,
    /// The seat the phase names: the auctioneer to open or discard, the taker; else QE_NONE.
    pub phase_seat: u8,
    /// How many ties in a row, in the rebid phases; else 0.
    pub tie: u8,
    /// The seats that must act now, as a bit mask (bit i = seat i).
    pub to_act: u8,
    /// 1 when the game is over.
    pub game_over: u8,
    /// The auctioneer of the current turn, or QE_NONE.
    pub auctioneer: u8,
    /// The tile up for auction (0–20), or QE_NONE.
    pub tile: u8,
    /// Tiles left in the deck, the revealed one excluded.
    pub deck_remaining: u8,
    /// Tokens left in the gold pile.
    pub gold_remaining: u8,
    /// Tokens left in the oil pile.
    pub oil_remaining: u8,
    /// Tokens left in the crypto pile.
    pub crypto_remaining: u8,
    /// The expansions in play, a bit per expansion (`QE_EXPANSION_*`): the one switch. Added in
    /// the struct's padding, so its size (20 bytes) and every earlier field are unchanged.
    pub expansions: u8,
}

// `expansions` fits the padding the struct had: its size is what callers built before it allocate.
const _: () = assert!(core::mem::size_of::<QeState>() == 20);

impl QeState {
    pub(crate) fn of(game: &qe_core::Game) -> QeState {
        let phase = game.phase();
        let (code, seat, tie) = phase_parts(phase);
        let rules = game.rules();
        QeState {
            phase: code,
            players: rules.players(),
            commodities: u8::from(rules.has_commodities()),
            turn: game.turn(),
            turns: rules.turns(),
            phase_seat: seat,
            tie,
            to_act: game.to_act().bits(),
            game_over: u8::from(game.is_over()),
            auctioneer: game.auctioneer().map_or(QE_NONE, |s| s.0),
            tile: game.current_tile().map_or(QE_NONE, |t| t.index() as u8),
            deck_remaining: game.deck_remaining() as u8,
            gold_remaining: game.pile_remaining(AssetKind::Gold) as u8,
            oil_remaining: game.pile_remaining(AssetKind::Oil) as u8,
            crypto_remaining: game.pile_remaining(AssetKind::Crypto) as u8,
            expansions: rules.expansions().bits() as u8,
        }
    }
}

/// (phase code, seat, tie) of a phase.
pub(crate) fn phase_parts(phase: Phase) -> (u32, u8, u8) {
    let code = phase.index() as u32;
    match phase {
        Phase::OpeningBid { auctioneer: seat }
        | Phase::TakeAsset { seat }
        | Phase::DiscardAsset { seat } => (code, seat.0, 0),
        Phase::Rebid { tie } | Phase::AssetRebid { tie } => (code, QE_NONE, tie),
        // Chance, Bidding, GameOver, and phases a later qe-core may add.
        _ => (code, QE_NONE, 0),
    }
}

/// The bids a seat may make now.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QeBidRange {
    /// The smallest bid (1 for the opening bid, else 0).
    pub min: u64,
    /// The largest bid (always 2^64-1, R-AUC-4).
    pub max: u64,
    /// The one amount in range that is not allowed (the opening bid, R-AUC-3), if `has_forbidden`.
    pub forbidden: u64,
    /// 1 when the seat must bid now; when 0 the other fields are 0.
    pub can_bid: u8,
    /// 1 when `forbidden` applies.
    pub has_forbidden: u8,
}

impl From<Option<BidRange>> for QeBidRange {
    fn from(r: Option<BidRange>) -> QeBidRange {
        match r {
            None => QeBidRange::default(),
            Some(r) => QeBidRange {
                min: r.min,
                max: r.max,
                forbidden: r.forbidden.unwrap_or(0),
                can_bid: 1,
                has_forbidden: u8::from(r.forbidden.is_some()),
            },
        }
    }
}

/// Everything one seat may do now.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QeLegal {
    /// The bids it may make (`bid.can_bid` = 0 if it may not bid).
    pub bid: QeBidRange,
    /// The turns it may peek at (bit t = turn t, R-VIS-5). Peeks are optional.
    pub peek: u16,
    /// The piles it may take from (bit `QE_PILE_*`, R-COM-5).
    pub take: u8,
    /// The piles it may discard from (bit `QE_PILE_*`, R-COM-7).
    pub discard: u8,
    /// 1 when the game waits for this seat (bid, take or discard).
    pub must_act: u8,
}

impl From<Legal> for QeLegal {
    fn from(l: Legal) -> QeLegal {
        QeLegal {
            bid: l.bid.into(),
            peek: l.peek,
            take: l.take.0,
            discard: l.discard.0,
            must_act: u8::from(l.must_act()),
        }
    }
}

/// What a viewer knows of one seat (itself or another), from its view (R-VIS).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QeSeatInfo {
    /// Its total spent, exact, if `spent_known` (its own; everyone's at game end).
    pub spent: QeI128,
    /// `spent` clamped to the int64 range, for convenience.
    pub spent_i64: i64,
    /// Its standing bid in the current bidding step, if `bid_known`.
    pub bid: u64,
    /// The tiles it holds, face up (bit per tile index, R-VIS-1).
    pub tiles: u32,
    /// The seat described.
    pub seat: u8,
    /// Its nation (0–4), public.
    pub nation: u8,
    /// Its industry token (0–4), or QE_NONE when the viewer may not know it.
    pub industry: u8,
    /// Bit r set when round r gave it a zero-bid mark (R-AUC-11).
    pub zero_marks: u8,
    /// Gold tokens it took.
    pub gold: u8,
    /// Oil tokens it took.
    pub oil: u8,
    /// Crypto tokens it took.
    pub crypto: u8,
    /// The turn it peeked at, or QE_NONE.
    pub peeked: u8,
    /// 1 when `spent` is known to the viewer.
    pub spent_known: u8,
    /// 1 when `bid` is known to the viewer.
    pub bid_known: u8,
    /// 1 when it has bid in the current bidding step (public; the amount is not).
    pub has_bid: u8,
}

impl QeSeatInfo {
    pub(crate) fn of(view: &SeatView, seat: Seat) -> QeSeatInfo {
        let s: &SeatInfo = &view.seats[seat];
        let spent = s.spent.unwrap_or(0);
        let bid = view.bids[seat];
        QeSeatInfo {
            spent: spent.into(),
            spent_i64: sat(spent),
            bid: bid.unwrap_or(0),
            tiles: s.tiles,
            seat: seat.0,
            nation: s.nation.map_or(QE_NONE, |n| n.index() as u8),
            industry: s.industry.map_or(QE_NONE, |i| i.index() as u8),
            zero_marks: s.zero_marks,
            gold: s.assets[0],
            oil: s.assets[1],
            crypto: s.assets[2],
            peeked: s.peeked.unwrap_or(QE_NONE),
            spent_known: u8::from(s.spent.is_some()),
            bid_known: u8::from(bid.is_some()),
            has_bid: u8::from(view.has_bid.contains(seat)),
        }
    }
}

/// What a viewer knows of the auction of one turn.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QeAuction {
    /// The public opening bid, if `opening_known`.
    pub opening: u64,
    /// The price paid, if `price_known` (R-VIS-2…5, R-VIS-7).
    pub price: u64,
    /// The price of the asset taken, if `asset_price_known`.
    pub asset_price: u64,
    /// The turn (0-based).
    pub turn: u8,
    /// The tile (0–20), or QE_NONE.
    pub tile: u8,
    /// The auctioneer, or QE_NONE (the 3-player last turn).
    pub auctioneer: u8,
    /// The winner, or QE_NONE (not awarded yet, or discarded).
    pub winner: u8,
    /// 1 once the auction is settled.
    pub awarded: u8,
    /// 1 when `opening` is known.
    pub opening_known: u8,
    /// 1 when `price` is known.
    pub price_known: u8,
    /// 1 when the winner was decided by the third tie (R-AUC-7), 0 when not, QE_NONE when the
    /// viewer may not see it (only the auctioneer does while the game runs, R-VIS-1, R-VIS-3).
    pub third_tie: u8,
    /// The seats whose final bid was 0 (bit mask, R-AUC-11).
    pub zero_bids: u8,
    /// The seats of the first, second and third tie for the company (bit masks, R-AUC-6); `tie3`
    /// is 0 when `third_tie` is QE_NONE.
    pub tie1: u8,
    /// See `tie1`.
    pub tie2: u8,
    /// See `tie1`.
    pub tie3: u8,
    /// 0: no asset step yet; 1: an asset was taken; 2: a token was discarded (R-COM).
    pub asset_state: u8,
    /// The taker, or the auctioneer who discarded; QE_NONE if none.
    pub asset_seat: u8,
    /// The pile (`QE_PILE_*`), or QE_NONE.
    pub asset_pile: u8,
    /// The number of the token taken within its pile (1-based), or of the token discarded (at
    /// game end only, R-VIS-7), or QE_NONE when unknown.
    pub asset_token: u8,
    /// Its VP value, or QE_NONE when unknown.
    pub asset_value: u8,
    /// 1 when `asset_price` is known.
    pub asset_price_known: u8,
}

impl From<&AuctionView> for QeAuction {
    fn from(a: &AuctionView) -> QeAuction {
        let asset = &a.asset;
        QeAuction {
            opening: a.opening.unwrap_or(0),
            price: a.price.unwrap_or(0),
            asset_price: asset.price.unwrap_or(0),
            turn: a.turn,
            tile: a.tile.map_or(QE_NONE, |t| t.index() as u8),
            auctioneer: a.auctioneer.map_or(QE_NONE, |s| s.0),
            winner: a.winner.map_or(QE_NONE, |s| s.0),
            awarded: u8::from(a.awarded),
            opening_known: u8::from(a.opening.is_some()),
            price_known: u8::from(a.price.is_some()),
            third_tie: known_flag(a.third_tie),
            zero_bids: a.zero_bids.bits(),
            tie1: a.ties[0].bits(),
            tie2: a.ties[1].bits(),
            tie3: a.ties[2].bits(),
            asset_state: if asset.taken {
                1
            } else if asset.discarded {
                2
            } else {
                0
            },
            asset_seat: asset.seat.map_or(QE_NONE, |s| s.0),
            asset_pile: asset.kind.map_or(QE_NONE, |k| k.index() as u8),
            asset_token: asset.token.map_or(QE_NONE, qe_core::TokenId::number),
            asset_value: asset.value.unwrap_or(QE_NONE),
            asset_price_known: u8::from(asset.price.is_some()),
        }
    }
}

/// One event as a viewer sees it. Which fields are meaningful depends on `kind` (see the
/// `QE_EVENT_*` constants); unused `uint8_t` fields are QE_NONE and unused numbers 0.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QeEvent {
    /// A bid, opening bid or price, if `amount_known`.
    pub amount: u64,
    /// `QE_EVENT_*`.
    pub kind: u32,
    /// The turn, or QE_NONE (`QE_EVENT_DEALT`, `QE_EVENT_GAME_OVER`).
    pub turn: u8,
    /// The seat the event is about (bidder, winner, taker, auctioneer ...), or QE_NONE.
    pub seat: u8,
    /// The tile, or QE_NONE.
    pub tile: u8,
    /// The industry dealt, or QE_NONE (hidden or not a deal).
    pub industry: u8,
    /// The pile (`QE_PILE_*`), or QE_NONE.
    pub pile: u8,
    /// The token number within its pile (1-based), or QE_NONE (hidden or none).
    pub token: u8,
    /// The token's VP value, or QE_NONE (hidden or none).
    pub value: u8,
    /// For `QE_EVENT_BID`: 0 secret bid, 1 rebid for the company, 2 rebid for the asset.
    pub stage: u8,
    /// The tie count (rebid stage, `QE_EVENT_REBID_REQUIRED`), else 0.
    pub tie: u8,
    /// A seat mask: the tied seats, or the zero bidders.
    pub seats: u8,
    /// For `QE_EVENT_ZERO_BIDS`: the seats that scored a zero-bid mark.
    pub marked: u8,
    /// Who sees the amount (bids, prices) or the token (asset taken), as a seat mask.
    pub seen_by: u8,
    /// For `QE_EVENT_ASSET_TAKEN`: who sees the price, as a seat mask.
    pub price_seen_by: u8,
    /// 1 when `amount` is known to the viewer.
    pub amount_known: u8,
    /// 1 when decided by the third tie (R-AUC-7, R-COM-4), 0 when not, QE_NONE when the viewer
    /// may not see it (only the auctioneer does while the game runs, R-VIS-1, R-VIS-3).
    pub third_tie: u8,
    /// For `QE_EVENT_REBID_REQUIRED`: 1 for the asset (R-COM-4), 0 for the company.
    pub asset: u8,
}

impl Default for QeEvent {
    fn default() -> QeEvent {
        QeEvent {
            amount: 0,
            kind: QE_EVENT_GAME_OVER,
            turn: QE_NONE,
            seat: QE_NONE,
            tile: QE_NONE,
            industry: QE_NONE,
            pile: QE_NONE,
            token: QE_NONE,
            value: QE_NONE,
            stage: 0,
            tie: 0,
            seats: 0,
            marked: 0,
            seen_by: 0,
            price_seen_by: 0,
            amount_known: 0,
            third_tie: 0,
            asset: 0,
        }
    }
}

impl From<&Event> for QeEvent {
    fn from(e: &Event) -> QeEvent {
        let mut o = QeEvent::default();
        let amount = |o: &mut QeEvent, a: Option<u64>| {
            o.amount = a.unwrap_or(0);
            o.amount_known = u8::from(a.is_some());
        };
        match *e {
            Event::Dealt { seat, industry } => {
                o.kind = QE_EVENT_DEALT;
                o.seat = seat.0;
                o.industry = industry.map_or(QE_NONE, |i| i.index() as u8);
            }
            Event::TileRevealed {
                turn,
                tile,
                auctioneer,
            } => {
                o.kind = QE_EVENT_TILE_REVEALED;
                o.turn = turn;
                o.tile = tile.index() as u8;
                o.seat = auctioneer.map_or(QE_NONE, |s| s.0);
            }
            Event::OpeningBid {
                turn,
                seat,
                amount: a,
            } => {
                o.kind = QE_EVENT_OPENING_BID;
                o.turn = turn;
                o.seat = seat.0;
                amount(&mut o, Some(a));
            }
            Event::Bid {
                turn,
                seat,
                stage,
                amount: a,
                seen_by,
            } => {
                o.kind = QE_EVENT_BID;
                o.turn = turn;
                o.seat = seat.0;
                (o.stage, o.tie) = match stage {
                    BidStage::Secret => (0, 0),
                    BidStage::Rebid(n) => (1, n),
                    BidStage::AssetRebid(n) => (2, n),
                    _ => (QE_NONE, 0),
                };
                o.seen_by = seen_by.bits();
                amount(&mut o, a);
            }
            Event::RebidRequired {
                turn,
                seats,
                tie,
                asset,
            } => {
                o.kind = QE_EVENT_REBID_REQUIRED;
                o.turn = turn;
                o.seats = seats.bits();
                o.tie = tie;
                o.asset = u8::from(asset);
            }
            Event::Awarded {
                turn,
                tile,
                winner,
                price,
                third_tie,
                seen_by,
                ..
            } => {
                o.kind = QE_EVENT_AWARDED;
                o.turn = turn;
                o.tile = tile.index() as u8;
                o.seat = winner.map_or(QE_NONE, |s| s.0);
                o.third_tie = known_flag(third_tie);
                o.seen_by = seen_by.bits();
                amount(&mut o, price);
            }
            Event::ZeroBids {
                turn,
                seats,
                marked,
            } => {
                o.kind = QE_EVENT_ZERO_BIDS;
                o.turn = turn;
                o.seats = seats.bits();
                o.marked = marked.bits();
            }
            Event::AssetTaker {
                turn,
                seat,
                third_tie,
                ..
            } => {
                o.kind = QE_EVENT_ASSET_TAKER;
                o.turn = turn;
                o.seat = seat.0;
                o.third_tie = known_flag(third_tie);
            }
            Event::AssetTaken {
                turn,
                seat,
                kind,
                token,
                value,
                price,
                token_seen_by,
                price_seen_by,
            } => {
                o.kind = QE_EVENT_ASSET_TAKEN;
                o.turn = turn;
                o.seat = seat.0;
                o.pile = kind.index() as u8;
                o.token = token.map_or(QE_NONE, qe_core::TokenId::number);
                o.value = value.unwrap_or(QE_NONE);
                o.seen_by = token_seen_by.bits();
                o.price_seen_by = price_seen_by.bits();
                amount(&mut o, price);
            }
            Event::NoTaker { turn } => {
                o.kind = QE_EVENT_NO_TAKER;
                o.turn = turn;
            }
            Event::AssetDiscarded { turn, seat, kind } => {
                o.kind = QE_EVENT_ASSET_DISCARDED;
                o.turn = turn;
                o.seat = seat.0;
                o.pile = kind.index() as u8;
            }
            Event::Peeked { seat, turn, price } => {
                o.kind = QE_EVENT_PEEKED;
                o.turn = turn;
                o.seat = seat.0;
                amount(&mut o, price);
            }
            Event::GameOver => o.kind = QE_EVENT_GAME_OVER,
            _ => o.kind = QE_EVENT_OTHER,
        }
        o
    }
}

/// One seat's final result (RULES.md section 8).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QeSeatOutcome {
    /// Total spent, exact (R-SCO-1, R-COM-8).
    pub spent: QeI128,
    /// `spent` clamped to the int64 range.
    pub spent_i64: i64,
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
    /// R-COM-9.
    pub commodities: u32,
    /// R-SCO-9.
    pub subtotal: u32,
    /// R-SCO-3.
    pub least_spent_bonus: u32,
    /// R-SCO-10: the final score.
    pub total: u32,
    /// The seat.
    pub seat: u8,
    /// Its nation (0–4), or QE_NONE.
    pub nation: u8,
    /// Its industry (0–4), or QE_NONE.
    pub industry: u8,
    /// 1 if eliminated (R-SCO-2).
    pub eliminated: u8,
    /// 1 if a winner (R-SCO-11; several may share the win).
    pub winner: u8,
}

impl From<&SeatOutcome> for QeSeatOutcome {
    fn from(s: &SeatOutcome) -> QeSeatOutcome {
        QeSeatOutcome {
            spent: s.spent.into(),
            spent_i64: sat(s.spent),
            companies: s.companies,
            zero_bids: s.zero_bids,
            nationalization: s.nationalization,
            monopolization: s.monopolization,
            diversification: s.diversification,
            commodities: s.commodities,
            subtotal: s.subtotal,
            least_spent_bonus: s.least_spent_bonus,
            total: s.total,
            seat: s.seat,
            nation: s.nation.map_or(QE_NONE, |n| n.index() as u8),
            industry: s.industry.map_or(QE_NONE, |i| i.index() as u8),
            eliminated: u8::from(s.eliminated),
            winner: u8::from(s.winner),
        }
    }
}

/// The name of a phase constant (`qe_core::Phase::NAMES`, whose positions are the `QE_PHASE_*`).
pub(crate) fn phase_name(code: u32) -> Option<&'static str> {
    Phase::NAMES.get(code as usize).copied()
}

/// What a viewer can prove about one seat's total spent (`qe_core::deduction`): the total
/// lies in `[lower, upper]` (`upper` counts 2^64−1 for every price the viewer cannot bound).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QeSpendBounds {
    /// The total is at least this.
    pub lower: QeI128,
    /// The total is at most this.
    pub upper: QeI128,
    /// Bit t set: the seat won the tile of turn t.
    pub won: u16,
    /// Bit t set: of those, the viewer knows the price.
    pub known_prices: u16,
    /// The seat described.
    pub seat: u8,
    /// 1 when the viewer knows the total exactly (`lower == upper`).
    pub exact: u8,
}

impl QeSpendBounds {
    /// The flat form of one seat's bounds.
    pub fn of(b: &qe_core::SpendBounds, seat: u8) -> QeSpendBounds {
        QeSpendBounds {
            lower: b.lower.into(),
            upper: b.upper.into(),
            won: b.won,
            known_prices: b.known_prices,
            seat,
            exact: u8::from(b.exact()),
        }
    }
}

/// A yes-or-no fact a viewer may not see: 1, 0, or QE_NONE when hidden.
fn known_flag(fact: Option<bool>) -> u8 {
    fact.map_or(QE_NONE, u8::from)
}
