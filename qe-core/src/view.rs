//! [`SeatView`]: everything one seat may know (R-VIS-1…7), built by [`Game::view`]. A spectator
//! view ([`Game::public_view`]) holds the public part only.
//!
//! Views are the only door to hidden information: bots, tensors, the CLI and every binding read a
//! view, never the game's internals (R-VIS-8). What a viewer sees is decided in one place, the
//! crate-private `Sight`, part by part; [`crate::encoding::observe_seat`] writes those same parts
//! straight into an observation without assembling the whole view.

use crate::components::{AssetKind, Industry, Nation, TileId, TokenId};
use crate::expansion::{Expansion, Expansions};
use crate::game::{Game, NONE};
use crate::ledger::Ledger;
use crate::legal::Legal;
use crate::phase::Phase;
use crate::seat::{PerSeat, Seat, SeatSet};
use crate::turn_log::AssetFate;
use crate::visibility::{self, Viewer};

/// What a seat knows of another seat (or of itself).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct SeatInfo {
    /// Its nation (public, R-VIS-1).
    pub nation: Option<Nation>,
    /// Its industry token: own only, all at game end (R-VIS-2, R-VIS-7).
    pub industry: Option<Industry>,
    /// The tiles it holds, face up (bit per [`TileId::index`], R-VIS-1).
    pub tiles: u32,
    /// Bit `r` set when round `r` gave it a zero-bid mark (R-VIS-1).
    pub zero_marks: u8,
    /// How many asset tokens of each kind (gold, oil, crypto) it took (R-VIS-1).
    pub assets: [u8; 3],
    /// The turn it peeked at, if it did (R-VIS-1, R-VIS-5).
    pub peeked: Option<u8>,
    /// Its total spent, when the viewer knows it: its own, everyone's at game end (R-VIS-2, R-VIS-7).
    pub spent: Option<i128>,
}

/// What a seat knows of the asset step of one auction (R-COM, R-VIS-1…3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct AssetView {
    /// `true` once an asset was taken (public).
    pub taken: bool,
    /// `true` once a token was discarded (public).
    pub discarded: bool,
    /// The taker, or the auctioneer who discarded.
    pub seat: Option<Seat>,
    /// The pile (public).
    pub kind: Option<AssetKind>,
    /// The token taken: the taker only (R-COM-5); the token discarded: no seat (R-COM-7); all
    /// at game end (R-VIS-7).
    pub token: Option<TokenId>,
    /// Its VP value, under the same rule as `token`.
    pub value: Option<u8>,
    /// Its price: the taker and the auctioneer (credit), public if the auctioneer took it (R-VIS-1…3).
    pub price: Option<u64>,
    /// The seats tied for the asset, per tie in a row: the first two public (they rebid, R-COM-4,
    /// R-VIS-1), the third as `third_tie` is seen (empty when hidden).
    pub ties: [SeatSet; 3],
    /// Whether the third tie decided the asset (its taker, or that no one takes it, R-COM-4,
    /// R-COM-7): `None` when the viewer may not see it
    /// ([`crate::visibility::third_tie_seen_by`]: the auctioneer, all at game end, R-VIS-7).
    pub third_tie: Option<bool>,
}

/// What a seat knows of one auction (one turn).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct AuctionView {
    /// The turn.
    pub turn: u8,
    /// The tile (public once revealed).
    pub tile: Option<TileId>,
    /// The auctioneer (`None` on the 3-player last turn).
    pub auctioneer: Option<Seat>,
    /// The public opening bid, once made (R-VIS-1).
    pub opening: Option<u64>,
    /// Whether the auction is settled.
    pub awarded: bool,
    /// The winner (public, R-VIS-1); `None` if not awarded yet or discarded (R-AUC-9).
    pub winner: Option<Seat>,
    /// The price, when the viewer sees it (R-VIS-2…5, R-VIS-7).
    pub price: Option<u64>,
    /// The seats tied at the top, per tie in a row: the first two public (they rebid, R-VIS-1),
    /// the third as `third_tie` is seen (empty when hidden).
    pub ties: [SeatSet; 3],
    /// Whether the winner was decided by the third tie (R-AUC-7): `None` when the viewer may not
    /// see it ([`crate::visibility::third_tie_seen_by`]: the auctioneer, all at game end, R-VIS-7).
    pub third_tie: Option<bool>,
    /// The seats whose final bid was 0 (public when revealed, R-AUC-11).
    pub zero_bids: SeatSet,
    /// The asset step (Commodities).
    pub asset: AssetView,
}

impl Default for AssetView {
    /// No asset step yet: nothing taken or discarded, no tie (so, as every seat knows, no third tie).
    fn default() -> AssetView {
        AssetView {
            taken: false,
            discarded: false,
            seat: None,
            kind: None,
            token: None,
            value: None,
            price: None,
            ties: [SeatSet::EMPTY; 3],
            third_tie: Some(false),
        }
    }
}

impl Default for AuctionView {
    /// An auction not started: nothing known but that nothing happened (so no third tie).
    fn default() -> AuctionView {
        AuctionView {
            turn: 0,
            tile: None,
            auctioneer: None,
            opening: None,
            awarded: false,
            winner: None,
            price: None,
            ties: [SeatSet::EMPTY; 3],
            third_tie: Some(false),
            zero_bids: SeatSet::EMPTY,
            asset: AssetView::default(),
        }
    }
}

/// Everything one seat may know, and nothing more (R-VIS-1…8).
///
/// A view is the table as it stands now: a small `Copy` value built from a [`Game`], which keeps
/// no history. The history of bids and rebids comes with the match: [`crate::Match::view`] adds
/// it ([`crate::MatchView`]): the seat's own bids and those of the auctions it runs while the
/// game runs, every bid of every auction once it is over (R-VIS-7).
///
/// ```
/// use qe_core::{Game, Rules, Seat};
/// let game = Game::seeded(Rules::base(4).unwrap(), 3);
/// let view = game.view(Seat(1));
/// assert!(view.seats[Seat(1)].industry.is_some()); // own token (R-VIS-2)
/// assert!(view.seats[Seat(2)].industry.is_none()); // not others' (R-VIS-8)
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct SeatView {
    /// The viewing seat; `None` for a spectator.
    pub seat: Option<Seat>,
    /// The number of seats.
    pub players: u8,
    /// The expansions of the viewed game.
    pub expansions: Expansions,
    /// The number of turns of the game.
    pub turns: u8,
    /// The current turn (equals `turns` at the end).
    pub turn: u8,
    /// What the game waits for.
    pub phase: Phase,
    /// The seats that must act now.
    pub to_act: SeatSet,
    /// What the viewer may do now (empty for a spectator).
    pub legal: Legal,
    /// The auctioneer of the current turn.
    pub auctioneer: Option<Seat>,
    /// The tile up for auction.
    pub tile: Option<TileId>,
    /// How many tiles remain in the deck (R-VIS-1).
    pub deck_remaining: u8,
    /// How many tokens remain in each pile (R-VIS-1).
    pub piles_remaining: [u8; 3],
    /// The seats that have bid in the current bidding step (R-VIS-1, not the amounts).
    pub has_bid: SeatSet,
    /// The current standing bids the viewer sees: its own; all of them if it is the auctioneer
    /// (R-VIS-2, R-VIS-3); all at the end (R-VIS-7).
    pub bids: PerSeat<Option<u64>>,
    /// Per seat.
    pub seats: PerSeat<SeatInfo>,
    /// Per started turn (`auctions[..turns_started]`).
    pub auctions: [AuctionView; 16],
    /// How many entries of `auctions` are filled.
    pub turns_started: u8,
    /// The industry token set aside (3 players), revealed at game end (R-VIS-6, R-VIS-7).
    pub set_aside: Option<Industry>,
    /// Whether the game is over (everything is revealed, R-VIS-7).
    pub game_over: bool,
}

impl SeatView {
    /// Whether the Commodities expansion is on: `expansions.contains(Expansion::Commodities)`.
    #[deprecated(note = "read the set: `view.expansions.contains(Expansion::Commodities)`")]
    pub fn commodities(&self) -> bool {
        self.expansions.contains(Expansion::Commodities)
    }
}

impl SeatView {
    /// The started auctions (all 16 entries if `turns_started` says more).
    pub fn auctions(&self) -> &[AuctionView] {
        &self.auctions[..usize::from(self.turns_started).min(self.auctions.len())]
    }

    /// Whether the view's counts and numbers are those of a game, as every view the engine writes
    /// is: 3 to 5 players, a viewing seat among them, at most 16 turns, and each started auction
    /// numbered by its turn, with its auctioneer and winner among the seats. A view read from
    /// elsewhere (its fields are public, and it can be deserialized) may not be: the bots that read
    /// these numbers (`value`, `search`) decline to act on it.
    pub fn is_well_formed(&self) -> bool {
        let seat_ok = |s: Option<Seat>| s.is_none_or(|s| s.0 < self.players);
        (3..=crate::MAX_SEATS as u8).contains(&self.players)
            && seat_ok(self.seat)
            && self.turns <= 16
            && self.turn <= self.turns
            && self.turns_started <= 16
            && self.auctions().iter().enumerate().all(|(i, a)| {
                usize::from(a.turn) == i && seat_ok(a.auctioneer) && seat_ok(a.winner)
            })
    }
}

impl Game {
    /// The view of `seat`: everything it may know (R-VIS-1…7). A seat number that is not a seat of
    /// this game gets the spectator view ([`Game::public_view`]): public information only.
    ///
    /// ```
    /// use qe_core::{Command, Game, Rules, Seat};
    /// let mut game = Game::seeded(Rules::base(4).unwrap(), 42);
    /// game.apply(Command::Bid { seat: Seat(0), amount: 10 }).unwrap();
    /// game.apply(Command::Bid { seat: Seat(1), amount: 12 }).unwrap();
    /// // Seat 1 sees its own bid (R-VIS-2), the auctioneer every bid of its auction (R-VIS-3) ...
    /// assert_eq!(game.view(Seat(1)).bids[Seat(1)], Some(12));
    /// assert_eq!(game.view(Seat(0)).bids[Seat(1)], Some(12));
    /// // ... seat 2 only that seat 1 has bid, and the public opening bid (R-VIS-1).
    /// let view = game.view(Seat(2));
    /// assert!(view.has_bid.contains(Seat(1)) && view.bids[Seat(1)].is_none());
    /// assert_eq!(view.auctions()[0].opening, Some(10));
    /// assert!(view.legal.bid.is_some() && view.seats[Seat(1)].industry.is_none());
    /// assert_eq!(game.view(Seat(7)), game.public_view()); // not a seat: a spectator
    /// ```
    pub fn view(&self, seat: Seat) -> SeatView {
        build(self, (seat.0 < self.players()).then_some(seat))
    }

    /// The spectator view: public information only (R-VIS-1), everything at game end (R-VIS-7).
    ///
    /// ```
    /// use qe_core::{Command, Game, Rules};
    /// let mut game = Game::seeded(Rules::base(4).unwrap(), 42);
    /// let spectator = game.public_view();
    /// assert_eq!(spectator.seat, None);
    /// assert!(!spectator.legal.must_act()); // a spectator never acts
    /// assert!(spectator.seats.in_play(4).iter().all(|s| s.industry.is_none())); // R-VIS-1, R-VIS-2
    /// while let Some(seat) = game.to_act().first() {
    ///     let amount = game.bid_range(seat).unwrap().min;
    ///     game.play(Command::Bid { seat, amount }).unwrap();
    /// }
    /// // At game end every industry token and every price is revealed (R-VIS-7).
    /// let spectator = game.public_view();
    /// assert!(spectator.seats.in_play(4).iter().all(|s| s.industry.is_some()));
    /// assert!(spectator.auctions().iter().all(|a| a.price.is_some()));
    /// ```
    pub fn public_view(&self) -> SeatView {
        build(self, None)
    }
}

/// The scalar part of a [`SeatView`] (everything but `seats` and `auctions`). It repeats those
/// fields on purpose: [`crate::encoding::observe_seat`] encodes it without making (and zeroing) a
/// whole view (PERF.md).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Header {
    pub seat: Option<Seat>,
    pub players: u8,
    pub expansions: Expansions,
    pub turns: u8,
    pub turn: u8,
    pub phase: Phase,
    pub to_act: SeatSet,
    pub legal: Legal,
    pub auctioneer: Option<Seat>,
    pub tile: Option<TileId>,
    pub deck_remaining: u8,
    pub piles_remaining: [u8; 3],
    pub has_bid: SeatSet,
    pub bids: PerSeat<Option<u64>>,
    pub turns_started: u8,
    pub set_aside: Option<Industry>,
    pub game_over: bool,
}

impl Header {
    /// The header of an already built view.
    pub(crate) fn of(view: &SeatView) -> Header {
        Header {
            seat: view.seat,
            players: view.players,
            expansions: view.expansions,
            turns: view.turns,
            turn: view.turn,
            phase: view.phase,
            to_act: view.to_act,
            legal: view.legal,
            auctioneer: view.auctioneer,
            tile: view.tile,
            deck_remaining: view.deck_remaining,
            piles_remaining: view.piles_remaining,
            has_bid: view.has_bid,
            bids: view.bids,
            turns_started: view.turns_started,
            set_aside: view.set_aside,
            game_over: view.game_over,
        }
    }
}

/// Public per-seat tallies and the ledger of totals spent, gathered while visiting the turns.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Tallies {
    ledger: Ledger<i128>,
    tiles: PerSeat<u32>,
    assets: PerSeat<[u8; 3]>,
}

impl Tallies {
    /// The total spent by `seat` (0 for a seat outside the game).
    pub(crate) fn spent(&self, seat: Seat) -> i128 {
        self.ledger.spent(seat)
    }
}

/// The one place that decides what a viewer sees (R-VIS-1…7), part by part. [`build`] assembles
/// the parts into a [`SeatView`]; [`crate::encoding::observe_seat`] writes the same parts straight
/// into an observation, so both always agree.
pub(crate) struct Sight<'g> {
    game: &'g Game,
    viewer: Viewer,
    phase: Phase,
}

impl<'g> Sight<'g> {
    /// What `viewer` (`None`: a spectator) sees of `game`.
    #[inline]
    pub(crate) fn new(game: &'g Game, viewer: Option<Seat>) -> Sight<'g> {
        Sight {
            game,
            viewer: Viewer::new(viewer, game.players(), game.is_over()),
            phase: game.phase(),
        }
    }

    /// The scalar part of the view.
    pub(crate) fn header(&self) -> Header {
        let game = self.game;
        let rules = game.rules();
        let n = rules.players();
        let auctioneer = game.auctioneer();
        let to_act = game.to_act();
        let tile = game.current_tile();
        let mut bids = PerSeat::splat(None);
        // The seats with a standing bid in this auction (none before the opening bid or after the
        // end, whose final bids are in the auctions), each seen as its audience says.
        let standing = match self.phase {
            Phase::OpeningBid { .. } | Phase::GameOver => SeatSet::EMPTY,
            Phase::Bidding => SeatSet::from_bits(SeatSet::all(n).bits() & !to_act.bits()),
            Phase::Chance { .. } if tile.is_none() => SeatSet::EMPTY,
            _ => SeatSet::all(n),
        };
        for s in standing.iter() {
            if self.viewer.sees(visibility::bid_seen_by(s, auctioneer)) {
                bids[s] = Some(game.current_bids()[s]);
            }
        }
        Header {
            seat: self.viewer.seat,
            players: n,
            expansions: rules.expansions(),
            turns: rules.turns(),
            turn: game.turn(),
            phase: self.phase,
            to_act,
            legal: self.viewer.seat.map(|s| game.legal(s)).unwrap_or_default(),
            auctioneer,
            tile,
            deck_remaining: game.deck_remaining() as u8,
            piles_remaining: core::array::from_fn(|k| game.pile_remaining(AssetKind::ALL[k]) as u8),
            has_bid: game.has_bid(),
            bids,
            turns_started: game.turns_started(),
            set_aside: if self.viewer.sees(visibility::HIDDEN) {
                game.setup_ref().set_aside()
            } else {
                None
            },
            game_over: self.viewer.game_over,
        }
    }

    /// Hands `visit` what the viewer sees of each started turn, in turn order, and returns the
    /// public tallies gathered on the way.
    // Inlined into its callers so the per-turn parts are written as they are made, never stored
    // (PERF.md).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub(crate) fn turns(&self, visit: impl FnMut(AuctionView)) -> Tallies {
        let mut tallies = Tallies::default();
        self.turns_in(0..self.game.turns_started(), &mut tallies, visit);
        tallies
    }

    /// [`Sight::turns`] for the started turns of `turns`, adding theirs to the tallies `t` (which
    /// must hold exactly those of the turns before).
    // Inlined into `turns` and `ObservedGame`'s writer (PERF.md).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub(crate) fn turns_in(
        &self,
        turns: core::ops::Range<u8>,
        t: &mut Tallies,
        mut visit: impl FnMut(AuctionView),
    ) {
        let game = self.game;
        let rules = game.rules();
        let setup = game.setup_ref();
        let manifest = rules.manifest();
        let viewer = self.viewer;
        let players = rules.players();
        let peeked_turn = viewer.seat.and_then(|v| game.peek_of(v));
        for turn in turns.start..turns.end.min(game.turns_started()) {
            let log = game.log(turn);
            let a = rules.auctioneer(turn);
            let tile = setup.deck[turn as usize];
            let won = log.winner();
            let winner = (won != NONE).then_some(Seat(won));
            if won != NONE {
                t.tiles[Seat(won)] |= 1 << tile.index();
            }
            game.post_turn(turn, &mut t.ledger);
            let opened = a.is_some()
                && (turn < game.turn() || !matches!(self.phase, Phase::OpeningBid { .. }));
            // A peek adds the peeker to the price's audience (R-VIS-5).
            let sees_price = viewer.sees(visibility::price_seen_by(winner, a, players))
                || peeked_turn == Some(turn);
            let (ties, third_tie) =
                third_tie_as_seen(viewer, log.ties(), log.third_tie(), a, players);
            let (asset_ties, asset_third_tie) =
                third_tie_as_seen(viewer, log.asset_ties(), log.asset_third_tie(), a, players);
            let mut asset = AssetView {
                ties: asset_ties,
                third_tie: asset_third_tie,
                ..AssetView::default()
            };
            match log.asset_fate() {
                AssetFate::None => {}
                AssetFate::Discarded => {
                    asset.discarded = true;
                    asset.seat = Some(Seat(log.asset_seat()));
                    asset.kind = Some(log.asset_kind());
                    if viewer.sees(visibility::HIDDEN) {
                        asset.token = Some(log.asset_token());
                        asset.value = manifest.token_value(log.asset_token());
                    }
                }
                AssetFate::Taken => {
                    let taker = log.asset_seat();
                    let price = log.asset_price;
                    t.assets[Seat(taker)][log.asset_kind().index()] += 1;
                    asset.taken = true;
                    asset.seat = Some(Seat(taker));
                    asset.kind = Some(log.asset_kind());
                    if viewer.sees(visibility::token_seen_by(Seat(taker))) {
                        asset.token = Some(log.asset_token());
                        asset.value = manifest.token_value(log.asset_token());
                    }
                    if viewer.sees(visibility::price_seen_by(Some(Seat(taker)), a, players)) {
                        asset.price = Some(price);
                    }
                }
            }
            visit(AuctionView {
                turn,
                tile: Some(tile),
                auctioneer: a,
                opening: opened.then_some(log.opening),
                awarded: log.awarded(),
                winner,
                price: (log.awarded() && winner.is_some() && sees_price).then_some(log.price),
                ties,
                third_tie,
                zero_bids: log.zero,
                asset,
            });
        }
    }

    /// What the viewer sees of seat `i`, given the tallies from [`Sight::turns`].
    #[inline]
    pub(crate) fn seat(&self, i: u8, tallies: &Tallies) -> SeatInfo {
        let game = self.game;
        let s = Seat(i);
        let sees_industry = self.viewer.sees(visibility::industry_seen_by(s));
        SeatInfo {
            nation: Some(game.nation(s)),
            industry: (game.is_dealt() && sees_industry).then(|| game.setup_ref().deal[i as usize]),
            tiles: tallies.tiles[s],
            zero_marks: game.zero_marks(s),
            assets: tallies.assets[s],
            peeked: game.peek_of(s),
            spent: self
                .viewer
                .sees(visibility::spent_seen_by(s))
                .then_some(tallies.spent(s)),
        }
    }
}

/// The ties in a row of one contest (company or asset) and whether a third tie decided it, as
/// `viewer` sees them: the third tie and its seats only where
/// [`visibility::third_tie_seen_by`] lets it.
#[inline]
fn third_tie_as_seen(
    viewer: Viewer,
    ties: [SeatSet; 3],
    third_tie: bool,
    auctioneer: Option<Seat>,
    players: u8,
) -> ([SeatSet; 3], Option<bool>) {
    if viewer.sees(visibility::third_tie_seen_by(auctioneer, ties[1], players)) {
        (ties, Some(third_tie))
    } else {
        ([ties[0], ties[1], SeatSet::EMPTY], None)
    }
}

/// Assembles a [`SeatView`] from the parts of [`Sight`], filling `seats` and `auctions` in place.
fn build(game: &Game, viewer: Option<Seat>) -> SeatView {
    let sight = Sight::new(game, viewer);
    let h = sight.header();
    let mut view = SeatView {
        seat: h.seat,
        players: h.players,
        expansions: h.expansions,
        turns: h.turns,
        turn: h.turn,
        phase: h.phase,
        to_act: h.to_act,
        legal: h.legal,
        auctioneer: h.auctioneer,
        tile: h.tile,
        deck_remaining: h.deck_remaining,
        piles_remaining: h.piles_remaining,
        has_bid: h.has_bid,
        bids: h.bids,
        seats: PerSeat::splat(SeatInfo::default()),
        auctions: [AuctionView::default(); 16],
        turns_started: h.turns_started,
        set_aside: h.set_aside,
        game_over: h.game_over,
    };
    let tallies = sight.turns(|a| view.auctions[a.turn as usize] = a);
    for i in 0..h.players {
        view.seats[Seat(i)] = sight.seat(i, &tallies);
    }
    view
}
