//! [`Phase`]: what the game waits for, with the one spelling of each phase name; [`Chance`]: the
//! chance event an external-chance game waits for (R-SET-3).

use crate::components::AssetKind;
use crate::seat::Seat;

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "phase", rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Phase {
    /// External-chance mode: the caller must supply a chance outcome (R-SET-3).
    Chance {
        /// Which chance event.
        chance: Chance,
    },
    /// The auctioneer must open (R-AUC-2).
    OpeningBid {
        /// The auctioneer.
        auctioneer: Seat,
    },
    /// Secret bids (R-AUC-3, R-AUC-9); [`Game::to_act`](crate::Game::to_act) lists the seats still to bid.
    Bidding,
    /// The tied seats rebid for the company (R-AUC-6); `tie` is 1 or 2.
    Rebid {
        /// How many ties in a row so far.
        tie: u8,
    },
    /// The tied seats rebid for the asset (R-COM-4); `tie` is 1 or 2.
    AssetRebid {
        /// How many ties in a row so far.
        tie: u8,
    },
    /// The asset taker must choose a pile (R-COM-5).
    TakeAsset {
        /// The taker.
        seat: Seat,
    },
    /// No one takes the asset: the auctioneer must choose a pile to discard from (R-COM-7).
    DiscardAsset {
        /// The auctioneer.
        seat: Seat,
    },
    /// The game has ended (R-TRN-4).
    GameOver,
}

impl Phase {
    /// The phase names, by [`Phase::index`]: the one spelling used by serde, the C ABI
    /// (`QE_PHASE_*` is the index), Python and the `qe` command.
    pub const NAMES: [&'static str; 8] = [
        "chance",
        "opening_bid",
        "bidding",
        "rebid",
        "asset_rebid",
        "take_asset",
        "discard_asset",
        "game_over",
    ];

    /// The phase's number: its position in [`Phase::NAMES`] (the C ABI's `QE_PHASE_*`).
    pub const fn index(&self) -> usize {
        match self {
            Phase::Chance { .. } => 0,
            Phase::OpeningBid { .. } => 1,
            Phase::Bidding => 2,
            Phase::Rebid { .. } => 3,
            Phase::AssetRebid { .. } => 4,
            Phase::TakeAsset { .. } => 5,
            Phase::DiscardAsset { .. } => 6,
            Phase::GameOver => 7,
        }
    }

    /// The phase's name, for example `"opening_bid"`.
    ///
    /// ```
    /// assert_eq!(qe_core::Phase::Rebid { tie: 1 }.name(), "rebid");
    /// ```
    pub const fn name(&self) -> &'static str {
        Phase::NAMES[self.index()]
    }
}

/// A chance event awaiting its outcome in external-chance mode (R-SET-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Chance {
    /// The industry-token deal.
    Deal,
    /// The next tile of the deck.
    Reveal,
    /// The top token of this pile.
    Draw(AssetKind),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One phase of each kind, in the order of [`Phase::NAMES`].
    const EVERY: [Phase; 8] = [
        Phase::Chance {
            chance: Chance::Deal,
        },
        Phase::OpeningBid {
            auctioneer: Seat(1),
        },
        Phase::Bidding,
        Phase::Rebid { tie: 1 },
        Phase::AssetRebid { tie: 2 },
        Phase::TakeAsset { seat: Seat(2) },
        Phase::DiscardAsset { seat: Seat(0) },
        Phase::GameOver,
    ];

    #[test]
    fn each_phase_has_its_own_number_and_name() {
        for (i, p) in EVERY.iter().enumerate() {
            assert_eq!(p.index(), i, "{p:?}");
        }
        let names = EVERY.map(|p| p.name());
        assert_eq!(
            names,
            [
                "chance",
                "opening_bid",
                "bidding",
                "rebid",
                "asset_rebid",
                "take_asset",
                "discard_asset",
                "game_over"
            ]
        );
    }

    /// The name is serde's tag of the same phase, spelled by its own `rename_all`.
    #[cfg(feature = "serde")]
    #[test]
    fn names_are_the_serde_tags() {
        for p in EVERY {
            let v = serde_json::to_value(p).unwrap();
            assert_eq!(v["phase"], p.name(), "{v}");
        }
    }
}
