//! What a seat may do now: [`Legal`], with its [`BidRange`] and [`PileSet`]s (R-AUC-2…4, R-AUC-9,
//! R-COM-4, R-COM-5, R-COM-7, R-VIS-5).

use crate::components::AssetKind;

/// The range of bids a seat may make now (R-AUC-2…4, R-AUC-9, R-COM-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BidRange {
    /// The smallest bid (1 for the opening bid, else 0).
    pub min: u64,
    /// The largest bid (always `u64::MAX`, R-AUC-4).
    pub max: u64,
    /// The one amount in the range that is not allowed: the auctioneer's bid (R-AUC-3).
    pub forbidden: Option<u64>,
}

impl BidRange {
    /// Whether `amount` is a legal bid.
    pub fn allows(&self, amount: u64) -> bool {
        amount >= self.min && amount <= self.max && Some(amount) != self.forbidden
    }
}

/// What one seat may do now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Legal {
    /// The bids it may make, if it must bid.
    pub bid: Option<BidRange>,
    /// The piles it may take from (R-COM-5).
    pub take: PileSet,
    /// The piles it may discard from (R-COM-7).
    pub discard: PileSet,
    /// The turns it may peek at (bit `t` = turn `t`, R-VIS-5). Optional: peeks never block the game.
    pub peek: u16,
}

impl Legal {
    /// What a seat may do when the only question is its bid: `bid`, and no pile or peek action.
    pub fn bid_only(bid: Option<BidRange>) -> Legal {
        Legal {
            bid,
            ..Legal::default()
        }
    }

    /// Whether the seat must act now (bid, take or discard) for the game to go on.
    pub fn must_act(&self) -> bool {
        self.bid.is_some() || !self.take.is_empty() || !self.discard.is_empty()
    }
}

/// A set of asset piles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct PileSet(pub u8);

impl PileSet {
    /// Whether `kind` is in the set.
    pub fn contains(self, kind: AssetKind) -> bool {
        self.0 & (1 << kind.index()) != 0
    }
    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The piles in the set.
    pub fn iter(self) -> impl Iterator<Item = AssetKind> {
        AssetKind::ALL
            .iter()
            .copied()
            .filter(move |&k| self.contains(k))
    }
}
