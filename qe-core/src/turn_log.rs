//! [`TurnLog`]: the compact record of one turn that views and scoring read, and its bit packing.

use crate::components::{AssetKind, TokenId};
use crate::seat::{Seat, SeatSet};

/// What happened with the asset of one turn (R-COM-3…7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum AssetFate {
    /// No asset step (base game, or not reached yet).
    None,
    /// Taken by `seat`.
    Taken,
    /// Discarded by the auctioneer.
    Discarded,
}

/// The compact log of one turn: what the views and scoring need, in 32 bytes (the three amounts,
/// then the rest packed into 8 bytes; `Game` holds 16 of these).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct TurnLog {
    /// The public opening bid (R-AUC-2).
    pub opening: u64,
    /// The company price (R-AUC-5).
    pub price: u64,
    /// The asset price (R-COM-5).
    pub asset_price: u64,
    /// The winner's seat + 1, or 0 (not yet awarded, or discarded on the 3-player last turn): an
    /// empty log is all zeros, so a new game's logs are written as zeros. See
    /// [`TurnLog::winner`].
    won: u8,
    /// [`TurnLog::AWARDED`], [`TurnLog::THIRD_TIE`], [`TurnLog::ASSET_THIRD_TIE`], the asset fate
    /// (bits 3–4) and the asset seat (bits 5–7).
    flags: u8,
    /// The zero-bid seats (R-AUC-11).
    pub zero: SeatSet,
    /// The asset token: kind in bits 0–1, number in bits 2–6.
    token: u8,
    /// The tied seats of each company tie in a row (R-AUC-6/7), 5 bits each.
    ties: u16,
    /// The tied seats of each asset tie in a row (R-COM-4), 5 bits each.
    asset_ties: u16,
}

pub(crate) const EMPTY_LOG: TurnLog = TurnLog {
    opening: 0,
    price: 0,
    asset_price: 0,
    won: 0,
    flags: 0,
    zero: SeatSet::EMPTY,
    token: 0,
    ties: 0,
    asset_ties: 0,
};

impl TurnLog {
    /// The winner's seat number, or [`NONE`](crate::game::NONE).
    #[inline]
    pub(crate) fn winner(&self) -> u8 {
        self.won.wrapping_sub(1)
    }

    #[inline]
    pub(crate) fn set_winner(&mut self, seat: Seat) {
        self.won = seat.0 + 1;
    }

    const AWARDED: u8 = 1;
    const THIRD_TIE: u8 = 2;
    const ASSET_THIRD_TIE: u8 = 4;
    const FATE_SHIFT: u8 = 3;
    const SEAT_SHIFT: u8 = 5;

    #[inline]
    pub(crate) fn awarded(&self) -> bool {
        self.flags & Self::AWARDED != 0
    }

    /// Whether the winner was decided by the third tie (R-AUC-7).
    #[inline]
    pub(crate) fn third_tie(&self) -> bool {
        self.flags & Self::THIRD_TIE != 0
    }

    /// Whether the third tie decided the asset: its taker, or that no one takes it (R-COM-4).
    #[inline]
    pub(crate) fn asset_third_tie(&self) -> bool {
        self.flags & Self::ASSET_THIRD_TIE != 0
    }

    /// Marks the tile awarded (R-AUC-10).
    pub(crate) fn set_awarded(&mut self, third_tie: bool) {
        self.flags |= Self::AWARDED;
        if third_tie {
            self.flags |= Self::THIRD_TIE;
        }
    }

    pub(crate) fn set_asset_third_tie(&mut self, third_tie: bool) {
        self.flags &= !Self::ASSET_THIRD_TIE;
        if third_tie {
            self.flags |= Self::ASSET_THIRD_TIE;
        }
    }

    #[inline]
    pub(crate) fn asset_fate(&self) -> AssetFate {
        match (self.flags >> Self::FATE_SHIFT) & 3 {
            1 => AssetFate::Taken,
            2 => AssetFate::Discarded,
            _ => AssetFate::None,
        }
    }

    /// The taker, or the auctioneer who discarded (meaningful once the fate is not `None`).
    #[inline]
    pub(crate) fn asset_seat(&self) -> u8 {
        self.flags >> Self::SEAT_SHIFT
    }

    /// The token taken or discarded (meaningful once the fate is not `None`).
    #[inline]
    pub(crate) fn asset_token(&self) -> TokenId {
        TokenId::new(
            AssetKind::ALL[(self.token & 3) as usize % 3],
            self.token >> 2,
        )
    }

    /// The pile of the asset step (meaningful once the fate is not `None`).
    #[inline]
    pub(crate) fn asset_kind(&self) -> AssetKind {
        self.asset_token().kind()
    }

    /// Records the asset step's end: `seat` took or (the auctioneer) discarded `token`.
    pub(crate) fn set_asset(&mut self, fate: AssetFate, seat: Seat, token: TokenId) {
        let fate_bits = match fate {
            AssetFate::None => 0,
            AssetFate::Taken => 1,
            AssetFate::Discarded => 2,
        };
        let keep = Self::AWARDED | Self::THIRD_TIE | Self::ASSET_THIRD_TIE;
        self.flags =
            (self.flags & keep) | (fate_bits << Self::FATE_SHIFT) | (seat.0 << Self::SEAT_SHIFT);
        self.token = token.kind().index() as u8 | (token.number() << 2);
    }

    /// The tied seats of each company tie in a row.
    #[inline]
    pub(crate) fn ties(&self) -> [SeatSet; 3] {
        unpack_sets(self.ties)
    }

    /// The tied seats of each asset tie in a row.
    #[inline]
    pub(crate) fn asset_ties(&self) -> [SeatSet; 3] {
        unpack_sets(self.asset_ties)
    }

    pub(crate) fn set_tie(&mut self, i: u8, seats: SeatSet) {
        self.ties = pack_set(self.ties, i, seats);
    }

    pub(crate) fn set_asset_tie(&mut self, i: u8, seats: SeatSet) {
        self.asset_ties = pack_set(self.asset_ties, i, seats);
    }
}

/// Three seat sets of 5 bits each, unpacked.
#[inline]
fn unpack_sets(bits: u16) -> [SeatSet; 3] {
    core::array::from_fn(|i| SeatSet::from_bits(((bits >> (5 * i)) & 0x1f) as u8))
}

/// `bits` with set `i` (of three, 5 bits each) replaced by `seats`.
fn pack_set(bits: u16, i: u8, seats: SeatSet) -> u16 {
    let shift = 5 * u16::from(i);
    (bits & !(0x1f << shift)) | (u16::from(seats.bits() & 0x1f) << shift)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(kind: AssetKind, number: u8) -> TokenId {
        TokenId::new(kind, number)
    }

    #[test]
    fn an_empty_log_is_all_zeros_and_has_no_winner() {
        let log = EMPTY_LOG;
        assert_eq!(log.winner(), u8::MAX);
        assert!(!log.awarded() && !log.third_tie() && !log.asset_third_tie());
        assert_eq!(log.asset_fate(), AssetFate::None);
        assert_eq!(log.ties(), [SeatSet::EMPTY; 3]);
        assert_eq!(log.asset_ties(), [SeatSet::EMPTY; 3]);
    }

    #[test]
    fn winner_and_award_flags_round_trip() {
        for seat in 0..5 {
            for third in [false, true] {
                let mut log = EMPTY_LOG;
                log.set_winner(Seat(seat));
                log.set_awarded(third);
                assert_eq!(log.winner(), seat);
                assert!(log.awarded());
                assert_eq!(log.third_tie(), third);
                assert!(!log.asset_third_tie());
            }
        }
    }

    #[test]
    fn every_asset_fate_seat_and_token_round_trips_and_keeps_the_award_flags() {
        for fate in [AssetFate::Taken, AssetFate::Discarded] {
            for seat in 0..5 {
                for kind in AssetKind::ALL {
                    for number in 0..32 {
                        let mut log = EMPTY_LOG;
                        log.set_awarded(true);
                        log.set_asset_third_tie(true);
                        log.set_asset(fate, Seat(seat), token(*kind, number));
                        assert_eq!(log.asset_fate(), fate);
                        assert_eq!(log.asset_seat(), seat);
                        assert_eq!(log.asset_token(), token(*kind, number));
                        assert_eq!(log.asset_kind(), *kind);
                        assert!(log.awarded() && log.third_tie() && log.asset_third_tie());
                    }
                }
            }
        }
        let mut log = EMPTY_LOG;
        log.set_asset_third_tie(true);
        log.set_asset_third_tie(false);
        assert!(!log.asset_third_tie());
    }

    #[test]
    fn tie_sets_pack_independently() {
        let sets = [
            SeatSet::from_bits(0b10011),
            SeatSet::from_bits(0b00110),
            SeatSet::from_bits(0b11000),
        ];
        let mut log = EMPTY_LOG;
        for (i, s) in sets.iter().enumerate() {
            log.set_tie(i as u8, *s);
            log.set_asset_tie(2 - i as u8, *s);
        }
        assert_eq!(log.ties(), sets);
        assert_eq!(log.asset_ties(), [sets[2], sets[1], sets[0]]);
        // Replacing one set leaves the others.
        log.set_tie(1, SeatSet::all(5));
        assert_eq!(log.ties(), [sets[0], SeatSet::all(5), sets[2]]);
        log.set_tie(1, SeatSet::EMPTY);
        assert_eq!(log.ties(), [sets[0], SeatSet::EMPTY, sets[2]]);
    }

    #[test]
    fn the_log_stays_32_bytes() {
        assert_eq!(core::mem::size_of::<TurnLog>(), 32);
    }
}
