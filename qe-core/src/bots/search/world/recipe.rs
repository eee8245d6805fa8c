//! Realizing an auction's outcome as commands: given what a sampled world says happened (the
//! winner and price, the asset's fate, the zero bids), bid sequences that the rules (the contest
//! kernel, through the game they are replayed into) take to exactly that outcome (R-AUC-5…7,
//! R-AUC-11, R-COM-3, R-COM-4, R-COM-7).

use alloc::vec::Vec;

use crate::command::Command;
use crate::components::AssetKind;
use crate::game::contest::{self, Round};
use crate::seat::{PerSeat, Seat, SeatSet, MAX_SEATS};

/// A realized auction: its outcome as the view shows it, with every hidden amount drawn.
#[derive(Clone, Copy, Debug)]
pub(super) struct Outcome {
    pub(super) auctioneer: Option<Seat>,
    pub(super) opening: Option<u64>,
    pub(super) winner: Seat,
    pub(super) price: u64,
    /// The seat sees the company price (so it may not move).
    pub(super) price_known: bool,
    pub(super) asset: Asset,
    /// The seat sees the asset price.
    pub(super) asset_price_known: bool,
    pub(super) zero: SeatSet,
}

#[derive(Clone, Copy, Debug)]
pub(super) enum Asset {
    None,
    Taken {
        seat: Seat,
        price: u64,
        kind: AssetKind,
    },
    Discarded {
        kind: AssetKind,
    },
}

/// The plain realization of an auction's outcome as commands (see [`Knowledge::realize`]);
/// `false` when it does not fit the amounts. `strict`: keep the zero bids (R-AUC-11).
pub(super) fn recipe(
    players: u8,
    o: &Outcome,
    strict: bool,
    finish: bool,
    out: &mut Vec<Command>,
) -> bool {
    out.clear();
    let all = SeatSet::all(players);
    let w = o.winner;
    let a = o.auctioneer;
    let ne_open = |v: u64| o.opening != Some(v);
    if let (Some(auct), Some(open)) = (a, o.opening) {
        out.push(Command::Bid {
            seat: auct,
            amount: open,
        });
    }
    let bidders = match a {
        Some(auct) => {
            let mut s = all;
            s.remove(auct);
            s
        }
        None => all,
    };
    match o.asset {
        Asset::Discarded { kind } => {
            // No taker (R-COM-7): the auctioneer won; every other seat bids 0 three times, so the
            // asset ties three times with no single highest bid.
            let (Some(auct), Some(open)) = (a, o.opening) else {
                return false;
            };
            if w != auct || o.price != open || open == 0 {
                return false;
            }
            for _ in 0..3 {
                for s in bidders.iter() {
                    out.push(Command::Bid { seat: s, amount: 0 });
                }
            }
            if finish {
                out.push(Command::DiscardAsset { seat: auct, kind });
            }
            true
        }
        Asset::None | Asset::Taken { .. } => {
            let taker = match o.asset {
                Asset::Taken { seat, price, kind } => Some((seat, price, kind)),
                _ => None,
            };
            // The winner's bid is the highest (R-AUC-5).
            if Some(w) == a {
                if Some(o.price) != o.opening {
                    return false;
                }
            } else if o.opening.is_some_and(|open| o.price <= open) || !ne_open(o.price) {
                return false;
            }
            let auct_in_field = a.is_some() && a != Some(w);
            let mut bids = PerSeat::new([None::<u64>; MAX_SEATS]);
            if Some(w) != a {
                bids[w] = Some(o.price);
            }
            let mut cap = if Some(w) == a {
                o.opening.unwrap_or(0)
            } else {
                o.price
            };
            let mut rebid: Option<(Seat, u64, Seat)> = None;
            if let Some((t, q, _)) = taker {
                if t == w {
                    return false;
                }
                if Some(t) == a {
                    if Some(q) != o.opening {
                        return false;
                    }
                } else {
                    let plain =
                        q < cap && ne_open(q) && !(auct_in_field && q <= o.opening.unwrap_or(0));
                    if plain {
                        bids[t] = Some(q);
                        cap = q;
                    } else {
                        // An asset rebid (R-COM-4): the taker ties with a partner, then rebids.
                        if q == 0 || !ne_open(q) {
                            return false;
                        }
                        let Some(partner) = bidders.iter().find(|&s| s != w && s != t) else {
                            return false;
                        };
                        let others = bidders.iter().filter(|&s| s != w && s != t).count() > 1;
                        let mut x = if auct_in_field {
                            o.opening.unwrap_or(0) + 1
                        } else {
                            u64::from(others)
                        };
                        if !ne_open(x) {
                            x += 1;
                        }
                        if x >= cap {
                            return false;
                        }
                        bids[t] = Some(x);
                        bids[partner] = Some(x);
                        cap = x;
                        rebid = Some((t, q, partner));
                    }
                }
            }
            // Every other bidder below the cap, at 0 if its zero bid was revealed. Bidders that find
            // no room below the cap tie above the winner three times and are set aside (R-AUC-7,
            // also out of the asset field, R-COM-3), when there are two of them.
            let mut set_aside = SeatSet::EMPTY;
            for s in bidders.iter() {
                if bids[s].is_some() {
                    continue;
                }
                let v = if strict {
                    if o.zero.contains(s) {
                        Some(0)
                    } else {
                        (1..cap).find(|&v| ne_open(v)).filter(|_| cap > 1)
                    }
                } else {
                    (0..cap).find(|&v| ne_open(v))
                };
                match v.filter(|&v| v < cap) {
                    Some(v) => bids[s] = Some(v),
                    None => set_aside.insert(s),
                }
            }
            let mut top = 0;
            if !set_aside.is_empty() {
                if set_aside.len() < 2 {
                    return false;
                }
                top = o.price.max(o.opening.unwrap_or(0)) + 1;
                if !ne_open(top) {
                    top += 1;
                }
                for s in set_aside.iter() {
                    bids[s] = Some(top);
                }
            }
            // The contest kernel decides the bids as the game will: the recipe stands only if it
            // gives this winner, sets aside exactly these seats and leaves the taker its field.
            let mut amounts = PerSeat::new([0; MAX_SEATS]);
            for s in bidders.iter() {
                amounts[s] = bids[s].unwrap_or(0);
            }
            if let (Some(auct), Some(open)) = (a, o.opening) {
                amounts[auct] = open;
            }
            let rebid = rebid.map(|(t, q, partner)| (t, q, partner, amounts[t]));
            let asset_taker = taker.map(|(t, _, _)| (t, rebid.map(|(_, q, p, _)| (q, p))));
            if !kernel_agrees(all, a.is_some(), &mut amounts, w, set_aside, asset_taker) {
                return false;
            }
            for s in bidders.iter() {
                out.push(Command::Bid {
                    seat: s,
                    amount: bids[s].unwrap_or(0),
                });
            }
            for _ in 0..2 {
                for s in set_aside.iter() {
                    out.push(Command::Bid {
                        seat: s,
                        amount: top,
                    });
                }
            }
            if let Some((t, q, partner, _)) = rebid {
                out.push(Command::Bid { seat: t, amount: q });
                out.push(Command::Bid {
                    seat: partner,
                    amount: 0,
                });
            }
            if let (Some((t, _, kind)), true) = (taker, finish) {
                out.push(Command::TakeAsset { seat: t, kind });
            }
            true
        }
    }
}

/// Whether the contest kernel decides a recipe's bids as the recipe means them (R-AUC-5…7,
/// R-AUC-9, R-COM-3, R-COM-4): `amounts` are every seat's first bids, the seats of `set_aside`
/// rebid the same amount twice (three ties, then the highest unique bid wins and they are set
/// aside), and `taker` takes the asset, in the first round of its field or, with `Some((q,
/// partner))`, after tying with `partner` and rebidding `q` against its 0.
fn kernel_agrees(
    all: SeatSet,
    has_auctioneer: bool,
    amounts: &mut PerSeat<u64>,
    winner: Seat,
    set_aside: SeatSet,
    taker: Option<(Seat, Option<(u64, Seat)>)>,
) -> bool {
    let mut ties = 0;
    let aside = loop {
        match contest::round(amounts, all, ties, all) {
            Round::Won(w) if w == winner => break SeatSet::EMPTY,
            Round::Tie(tied) if has_auctioneer && tied == set_aside => ties += 1,
            Round::ThirdTie {
                winner: Some(w), ..
            } if w == winner => break contest::set_aside(amounts, all, Some(w)),
            _ => return false,
        }
    };
    if aside != set_aside {
        return false;
    }
    let Some((t, rebid)) = taker else {
        return true;
    };
    let field = contest::asset_field(all, winner, aside);
    match (contest::round(amounts, field, 0, field), rebid) {
        (Round::Won(s), None) => s == t,
        (Round::Tie(tied), Some((q, partner))) if tied.contains(t) && tied.contains(partner) => {
            amounts[t] = q;
            amounts[partner] = 0;
            contest::round(amounts, tied, 1, field) == Round::Won(t)
        }
        _ => false,
    }
}

/// Moves the hidden amounts of a realized auction where the plain realization needs them.
pub(super) fn loosen(o: &mut Outcome) {
    let auct_in_field = o.auctioneer.is_some() && o.auctioneer != Some(o.winner);
    let open = o.opening.unwrap_or(0);
    if let Asset::Taken { seat, price, .. } = &mut o.asset {
        if Some(*seat) == o.auctioneer {
            return;
        }
        if !o.asset_price_known && auct_in_field && *price <= open {
            *price = open + 1;
        }
        if !o.price_known && Some(o.winner) != o.auctioneer && o.price <= *price {
            o.price = price.saturating_add(1);
        }
        if !o.asset_price_known && o.price <= *price {
            *price = o.price.saturating_sub(1);
        }
    }
}

/// Moves amounts (even known ones) so that the plain realization fits: the last resort.
pub(super) fn force_feasible(o: &mut Outcome) {
    let open = o.opening.unwrap_or(0);
    let auct_in_field = o.auctioneer.is_some() && o.auctioneer != Some(o.winner);
    if let Asset::Taken { seat, price, .. } = &mut o.asset {
        if Some(*seat) != o.auctioneer {
            if auct_in_field && *price <= open {
                *price = open + 1;
            }
            if Some(o.winner) != o.auctioneer && o.price <= *price {
                o.price = *price + 1;
            }
            if Some(o.winner) == o.auctioneer && *price >= open {
                *price = open.saturating_sub(1);
            }
        }
    }
    if Some(o.winner) != o.auctioneer && o.opening.is_some_and(|x| o.price <= x) {
        o.price = open + 1;
    }
}
