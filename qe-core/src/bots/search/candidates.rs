//! What the searching seat chooses among: its [`Choice`]s, and the candidate bids.

use alloc::vec::Vec;

use super::world::World;
use crate::bots::nearest_legal;
use crate::command::Command;
use crate::components::AssetKind;
use crate::legal::BidRange;
use crate::seat::Seat;

/// One choice of the searching seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Choice {
    /// A sealed or open bid of this amount.
    Bid(u64),
    /// A take from this pile.
    Take(AssetKind),
    /// A discard to this pile.
    Discard(AssetKind),
}

impl Choice {
    /// The command of this choice for `seat`.
    pub(super) fn command(self, seat: Seat) -> Command {
        match self {
            Choice::Bid(amount) => Command::Bid { seat, amount },
            Choice::Take(kind) => Command::TakeAsset { seat, kind },
            Choice::Discard(kind) => Command::DiscardAsset { seat, kind },
        }
    }
}

/// The candidate bids: the smallest, the value bot's, and one above the modelled highest (and
/// second-highest, when an asset contest follows, R-COM-3) rival amount at several quantiles over the worlds; at most
/// `max`, ascending.
pub(super) fn bid_candidates(
    worlds: &[World],
    me: Seat,
    range: BidRange,
    suggestion: Choice,
    max: usize,
    contests_assets: bool,
) -> Vec<Choice> {
    let mut firsts = Vec::with_capacity(worlds.len());
    let mut seconds = Vec::with_capacity(worlds.len());
    for w in worlds {
        let (mut a, mut b) = (None::<u64>, None::<u64>);
        for (s, v) in w.standing.seats() {
            if s == me {
                continue;
            }
            if let Some(v) = *v {
                if a.is_none_or(|x| v > x) {
                    b = a;
                    a = Some(v);
                } else if b.is_none_or(|x| v > x) {
                    b = Some(v);
                }
            }
        }
        firsts.push(a.unwrap_or(0));
        seconds.push(b.unwrap_or(0));
    }
    firsts.sort_unstable();
    seconds.sort_unstable();
    let quantile = |xs: &[u64], q: f64| -> u64 {
        let i = ((xs.len() as f64 - 1.0) * q + 0.5) as usize;
        xs[i.min(xs.len() - 1)]
    };
    let mut out: Vec<u64> = Vec::new();
    out.push(nearest_legal(&range, range.min));
    if let Choice::Bid(b) = suggestion {
        out.push(nearest_legal(&range, b));
    }
    for (i, q) in [0.1, 0.3, 0.5, 0.7, 0.9, 0.2, 0.8, 0.4, 0.6]
        .into_iter()
        .enumerate()
    {
        out.push(nearest_legal(
            &range,
            quantile(&firsts, q).saturating_add(1),
        ));
        if contests_assets && (i == 1 || i == 3) {
            out.push(nearest_legal(
                &range,
                quantile(&seconds, q).saturating_add(1),
            ));
        }
    }
    // Keep the first `max` distinct amounts (the order above is the priority), then sort.
    let mut kept: Vec<u64> = Vec::new();
    for v in out {
        if !kept.contains(&v) && kept.len() < max {
            kept.push(v);
        }
    }
    kept.sort_unstable();
    kept.into_iter().map(Choice::Bid).collect()
}
