//! Text rendering: outcome tables, phases, seat views and events. Everything a seat is shown comes
//! from its `SeatView` or from events redacted for it (R-VIS-8).

use std::fmt::Write as _;

use crate::layout::display_width;
use qe_core::{
    AssetKind, BidStage, Deduction, Event, Outcome, Phase, Rules, Seat, SeatSet, SeatView,
    SpendBounds, TileId,
};

/// "seat 2 (CN)".
pub fn seat_name(view: &SeatView, seat: Seat) -> String {
    match view.seats[seat].nation {
        Some(n) => format!("seat {} ({})", seat.0, n.name()),
        None => format!("seat {}", seat.0),
    }
}

/// "seats 0 (US), 2 (CN)" or "no one".
pub fn seat_list(view: &SeatView, seats: SeatSet) -> String {
    if seats.is_empty() {
        return "no one".into();
    }
    seats
        .iter()
        .map(|s| seat_name(view, s))
        .collect::<Vec<_>>()
        .join(", ")
}

/// "JP-HOU (4 VP)".
pub fn tile_name(rules: &Rules, tile: TileId) -> String {
    format!("{tile} ({} VP)", rules.manifest().tile_value(tile))
}

/// Where the game is: "turn 5 of 0–15 · round 1 (turns 4–7)". Turns count from 0 (R-TRN-1); a
/// round is one turn per seat, each seat auctioneer once (R-TRN-2). The one spelling of `qe play`'s
/// and `qe replay`'s turn lines.
pub fn turn_text(rules: &Rules, turn: u8) -> String {
    let last = rules.turns() - 1;
    let turn = turn.min(last);
    let round = rules.round(turn);
    let first = round * rules.players();
    let end = (first + rules.players() - 1).min(last);
    if first == end {
        format!("turn {turn} of 0–{last} · round {round} (turn {first})")
    } else {
        format!("turn {turn} of 0–{last} · round {round} (turns {first}–{end})")
    }
}

/// What the phase waits for, in words (seats named as [`seat_name`] names them).
pub fn phase_text(view: &SeatView, phase: Phase) -> String {
    match phase {
        Phase::Chance { chance } => format!("chance ({chance:?})"),
        Phase::OpeningBid { auctioneer } => {
            format!("opening bid by {}", seat_name(view, auctioneer))
        }
        Phase::Bidding => "secret bids".into(),
        Phase::Rebid { tie } => format!("rebid after tie {tie} for the company"),
        Phase::AssetRebid { tie } => format!("asset rebid after tie {tie}"),
        Phase::TakeAsset { seat } => format!("{} takes an asset", seat_name(view, seat)),
        Phase::DiscardAsset { seat } => format!("{} discards an asset", seat_name(view, seat)),
        Phase::GameOver => "game over".into(),
        _ => "waiting".into(),
    }
}

/// The score breakdown of every seat (RULES.md section 8) as a table, with the winners. Columns
/// are as wide as their contents, so the table fits 100 columns whatever the amounts spent.
pub fn outcome_table(outcome: &Outcome) -> String {
    let header = [
        "seat", "nation", "ind", "spent", "elim", "win", "tiles", "zero", "natl", "mono", "divr",
        "comm", "subtotal", "bonus", "total",
    ];
    let rows: Vec<Vec<String>> = outcome
        .seats()
        .iter()
        .map(|s| {
            vec![
                s.seat.to_string(),
                s.nation.map_or("?", |n| n.name()).to_owned(),
                s.industry.map_or("?", |i| i.name()).to_owned(),
                s.spent.to_string(),
                if s.eliminated { "yes" } else { "-" }.to_owned(),
                if s.winner { "yes" } else { "-" }.to_owned(),
                s.companies.to_string(),
                s.zero_bids.to_string(),
                s.nationalization.to_string(),
                s.monopolization.to_string(),
                s.diversification.to_string(),
                s.commodities.to_string(),
                s.subtotal.to_string(),
                s.least_spent_bonus.to_string(),
                s.total.to_string(),
            ]
        })
        .collect();
    // Right-aligned, except the nation and industry names.
    let mut out = table(&header, &rows, &|c| c == 1 || c == 2);
    out.push_str(
        "VP: tiles = companies (R-SCO-4), zero = zero bids (R-SCO-5), natl = nationalization \
         (R-SCO-6),\n    mono = monopolization (R-SCO-7), divr = diversification (R-SCO-8), \
         comm = commodities (R-COM-9),\n    bonus = least spent (R-SCO-3); ind = industry token, \
         elim = eliminated (R-SCO-2)\n",
    );
    let winners: Vec<String> = outcome.winners().map(|s| format!("seat {}", s.0)).collect();
    let _ = writeln!(
        out,
        "winner: {}",
        if winners.is_empty() {
            "none (every seat is eliminated, R-SCO-2)".to_owned()
        } else {
            winners.join(", ")
        }
    );
    out
}

/// A table whose columns are as wide as their widest cell, one space apart; column `c` is
/// left-aligned when `left(c)`, right-aligned otherwise. Trailing spaces are trimmed.
fn table(header: &[&str], rows: &[Vec<String>], left: &dyn Fn(usize) -> bool) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| display_width(h)).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(display_width(cell));
        }
    }
    let mut out = String::new();
    let header: Vec<String> = header.iter().map(|&h| h.to_owned()).collect();
    for row in std::iter::once(&header).chain(rows) {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            if c > 0 {
                line.push(' ');
            }
            let pad = " ".repeat(widths[c] - display_width(cell));
            if left(c) {
                line.push_str(cell);
                line.push_str(&pad);
            } else {
                line.push_str(&pad);
                line.push_str(cell);
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

fn opt<T: std::fmt::Display>(x: Option<T>) -> String {
    x.map_or_else(|| "?".to_owned(), |v| v.to_string())
}

/// The auctions so far as this view knows them (prices only where the viewer sees them).
pub fn history(view: &SeatView, rules: &Rules) -> String {
    let auctions: Vec<_> = view.auctions().iter().filter(|a| a.awarded).collect();
    if auctions.is_empty() {
        return String::new();
    }
    let header = [
        "turn",
        "tile",
        "auctioneer",
        "opening",
        "winner",
        "price",
        "zero bids",
        "asset",
    ];
    let rows: Vec<Vec<String>> = auctions
        .iter()
        .map(|a| {
            let tile = a.tile.map_or_else(|| "?".into(), |t| tile_name(rules, t));
            let winner = a
                .winner
                .map_or_else(|| "none".into(), |w| seat_name(view, w));
            let mut asset = String::new();
            if a.asset.taken {
                let _ = write!(
                    asset,
                    "{} took {}",
                    a.asset
                        .seat
                        .map_or_else(|| "?".into(), |s| seat_name(view, s)),
                    a.asset.kind.map_or("?", AssetKind::name)
                );
                if let Some(v) = a.asset.value {
                    let _ = write!(asset, " ({v} VP)");
                }
                if let Some(p) = a.asset.price {
                    let _ = write!(asset, " @{p}");
                }
            } else if a.asset.discarded {
                let _ = write!(
                    asset,
                    "{} discarded",
                    a.asset.kind.map_or("?", AssetKind::name)
                );
            }
            let zero = if a.zero_bids.is_empty() {
                "-".to_owned()
            } else {
                seat_list(view, a.zero_bids)
            };
            vec![
                a.turn.to_string(),
                tile,
                a.auctioneer
                    .map_or_else(|| "-".into(), |s| seat_name(view, s)),
                // Public (R-VIS-1); none on the 3-player last turn (R-AUC-9).
                a.opening.map_or_else(|| "-".into(), |o| o.to_string()),
                winner,
                opt(a.price),
                zero,
                asset,
            ]
        })
        .collect();
    // Numbers right-aligned; names and words left-aligned.
    table(&header, &rows, &|c| matches!(c, 1 | 4 | 6 | 7))
}

/// Bounds of this magnitude or more are not shown: such a bound comes from a price the viewer
/// cannot see, which may be any bid up to 2^64−1 (R-AUC-4), and tells a player nothing.
const UNKNOWABLE: i128 = 1 << 63;

/// What the viewer can prove about a seat's total spent ([`qe_core::deduction`]): `exactly N`,
/// `N..M`, `≥ N`, `≤ M`, or `?`. A bound is shown only when it is meaningful, its magnitude
/// below 2^63 ([`UNKNOWABLE`]): a bound that only says "a hidden price is at most 2^64−1" is
/// true but useless.
fn bounds_text(b: &SpendBounds) -> String {
    if b.exact() {
        return format!("exactly {}", b.lower);
    }
    let known = |v: i128| (v.abs() < UNKNOWABLE).then_some(v);
    match (known(b.lower), known(b.upper)) {
        (Some(l), Some(u)) => format!("{l}..{u}"),
        (Some(l), None) => format!("≥ {l}"),
        (None, Some(u)) => format!("≤ {u}"),
        (None, None) => "?".to_owned(),
    }
}

/// One seat's holdings line: tiles with the prices the viewer knows, zero-bid marks, assets, spent,
/// and what the viewer can prove about its total spent.
fn holdings(view: &SeatView, rules: &Rules, seat: Seat, bounds: &SpendBounds) -> String {
    let info = &view.seats[seat];
    let mut tiles = Vec::new();
    for a in view.auctions() {
        if a.winner == Some(seat) {
            if let Some(t) = a.tile {
                tiles.push(format!(
                    "{t}:{}VP@{}",
                    rules.manifest().tile_value(t),
                    opt(a.price)
                ));
            }
        }
    }
    let mut line = format!(
        "  {:<14} industry {:<4} tiles: {}",
        seat_name(view, seat),
        opt(info.industry.map(qe_core::Industry::name)),
        if tiles.is_empty() {
            "-".to_owned()
        } else {
            tiles.join(" ")
        }
    );
    if info.zero_marks != 0 {
        let rounds: Vec<String> = (0..8)
            .filter(|r| info.zero_marks & (1 << r) != 0)
            .map(|r| r.to_string())
            .collect();
        let _ = write!(line, " | zero-bid marks: rounds {}", rounds.join(","));
    }
    if view.expansions.contains(qe_core::Expansion::Commodities) && info.assets != [0; 3] {
        let mut own = Vec::new();
        for a in view.auctions() {
            if a.asset.taken && a.asset.seat == Some(seat) {
                own.push(format!(
                    "{}{}{}",
                    a.asset
                        .token
                        .map_or_else(|| opt(a.asset.kind.map(AssetKind::name)), |t| t.to_string()),
                    a.asset.value.map_or(String::new(), |v| format!(":{v}VP")),
                    a.asset.price.map_or(String::new(), |p| format!("@{p}"))
                ));
            }
        }
        let _ = write!(line, " | assets: {}", own.join(" "));
    }
    if let Some(t) = info.peeked {
        let _ = write!(line, " | peeked at turn {t}");
    }
    if let Some(s) = info.spent {
        let _ = write!(line, " | spent {s}");
    } else {
        let _ = write!(line, " | spent {}", bounds_text(bounds));
    }
    line
}

/// The full screen of a seat: what it may know and what it must do (R-VIS-1…7), with the spend
/// bounds it can prove (`deduction`, from [`qe_core::Match::deduce`]).
pub fn screen(view: &SeatView, rules: &Rules, deduction: &Deduction) -> String {
    let mut out = String::new();
    let me = view.seat;
    let variant = crate::manifest::titled(view.expansions, ", ", "");
    let _ = writeln!(
        out,
        "──── {} · {} players{variant} · you are {} ────",
        turn_text(rules, view.turn),
        view.players,
        me.map_or_else(|| "a spectator".into(), |s| seat_name(view, s))
    );
    let h = history(view, rules);
    if !h.is_empty() {
        out.push_str(&h);
    }
    let _ = writeln!(
        out,
        "seats (tile:VP@price; spent: what you can prove of the total; ? = you cannot see or bound it):"
    );
    for s in 0..view.players {
        let mut line = holdings(view, rules, Seat(s), &deduction.seats[Seat(s)]);
        if me == Some(Seat(s)) {
            line.push_str("  ← you");
        }
        let _ = writeln!(out, "{line}");
    }
    let _ = write!(out, "deck: {} tiles left", view.deck_remaining);
    if view.expansions.contains(qe_core::Expansion::Commodities) {
        let _ = write!(
            out,
            " · piles: gold {}, oil {}, crypto {}",
            view.piles_remaining[0], view.piles_remaining[1], view.piles_remaining[2]
        );
    }
    out.push('\n');
    if let Some(tile) = view.tile {
        let _ = write!(out, "up for auction: {}", tile_name(rules, tile));
        match view.auctioneer {
            Some(a) => {
                let _ = write!(out, " · auctioneer {}", seat_name(view, a));
            }
            None => out.push_str(" · no auctioneer (last tile, R-AUC-9)"),
        }
        if let Some(o) = view
            .auctions()
            .get(view.turn as usize)
            .and_then(|a| a.opening)
        {
            let _ = write!(out, " · opening bid {o}");
        }
        out.push('\n');
    }
    let _ = writeln!(out, "now: {}", phase_text(view, view.phase));
    if !view.has_bid.is_empty() {
        let _ = writeln!(out, "have bid: {}", seat_list(view, view.has_bid));
    }
    let known: Vec<String> = (0..view.players)
        .filter_map(|s| view.bids[Seat(s)].map(|b| format!("seat {s}: {b}")))
        .collect();
    if !known.is_empty() {
        let _ = writeln!(out, "bids you see: {}", known.join(", "));
    }
    let _ = writeln!(out, "to act: {}", seat_list(view, view.to_act));
    out
}

/// One event as the viewing seat may see it, in words (`None` for events not worth a line).
pub fn event_line(view: &SeatView, rules: &Rules, event: &Event) -> Option<String> {
    let name = |s: Seat| seat_name(view, s);
    Some(match *event {
        Event::Dealt { .. } | Event::GameOver => return None,
        Event::TileRevealed {
            turn,
            tile,
            auctioneer,
        } => format!(
            "turn {turn}: {} is up for auction{}",
            tile_name(rules, tile),
            auctioneer.map_or_else(
                || " (no auctioneer: everyone bids secretly)".to_owned(),
                |a| format!(", auctioneer {}", name(a))
            )
        ),
        Event::OpeningBid { seat, amount, .. } => {
            format!("{} opens at {amount}", name(seat))
        }
        Event::Bid {
            seat,
            stage,
            amount,
            ..
        } => {
            let what = match stage {
                BidStage::Secret => "bids",
                BidStage::Rebid(_) => "rebids",
                BidStage::AssetRebid(_) => "rebids for the asset",
                _ => "bids",
            };
            match amount {
                Some(a) => format!("{} {what} {a}", name(seat)),
                None => format!("{} {what}", name(seat)),
            }
        }
        Event::RebidRequired {
            seats, tie, asset, ..
        } => format!(
            "tie {tie}{}: {} must rebid",
            if asset { " for the asset" } else { "" },
            seat_list(view, seats)
        ),
        Event::Awarded {
            tile,
            winner,
            price,
            third_tie,
            ..
        } => match winner {
            Some(w) => format!(
                "{} wins {tile}{}{}",
                name(w),
                price.map_or(String::new(), |p| format!(" for {p}")),
                if third_tie == Some(true) {
                    " (third tie: highest unique bid, R-AUC-7)"
                } else {
                    ""
                }
            ),
            None => format!("no one wins {tile}: the top bids tied (R-AUC-9)"),
        },
        Event::ZeroBids { seats, marked, .. } => {
            if seats.is_empty() {
                return None;
            }
            format!(
                "zero bids: {}{}",
                seat_list(view, seats),
                if marked.is_empty() {
                    String::new()
                } else {
                    format!(" (marked: {})", seat_list(view, marked))
                }
            )
        }
        Event::AssetTaker { seat, .. } => format!("{} takes an asset", name(seat)),
        Event::AssetTaken {
            seat,
            kind,
            token,
            value,
            price,
            ..
        } => format!(
            "{} took {}{}{}",
            name(seat),
            token.map_or_else(|| format!("a {} token", kind.name()), |t| t.to_string()),
            value.map_or(String::new(), |v| format!(" worth {v} VP")),
            price.map_or(String::new(), |p| format!(" at {p}"))
        ),
        Event::NoTaker { .. } => "no one takes the asset: the auctioneer discards one".into(),
        Event::AssetDiscarded { seat, kind, .. } => {
            format!("{} discarded the top {} token", name(seat), kind.name())
        }
        Event::Peeked { seat, turn, price } => format!(
            "{} peeked at the price of turn {turn}{}",
            name(seat),
            price.map_or(String::new(), |p| format!(": {p}"))
        ),
        // Events a later qe-core may add: not narrated.
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bounds(lower: i128, upper: i128) -> SpendBounds {
        SpendBounds {
            lower,
            upper,
            ..SpendBounds::default()
        }
    }

    /// Seat 0's view at the start of a seeded 5-player Commodities game.
    fn start() -> (SeatView, Rules) {
        let rules = Rules::commodities(5).unwrap();
        (qe_core::Game::seeded(rules, 1).view(Seat(0)), rules)
    }

    #[test]
    fn the_screen_names_each_pile_with_its_count() {
        let (mut view, rules) = start();
        view.piles_remaining = [6, 3, 4];
        let text = screen(&view, &rules, &Deduction::from_view(&view));
        assert!(text.contains("piles: gold 6, oil 3, crypto 4"), "{text}");
    }

    #[test]
    fn zero_bid_marks_are_shown_by_round_from_0() {
        // R-SCO-5: a mark per round; rounds count from 0, as on the screen's turn lines.
        let (mut view, rules) = start();
        view.seats[Seat(1)].zero_marks = 0b101;
        let text = screen(&view, &rules, &Deduction::from_view(&view));
        assert!(text.contains("zero-bid marks: rounds 0,2"), "{text}");
    }

    #[test]
    fn only_a_third_tie_win_is_called_one() {
        let (view, rules) = start();
        let awarded = |third_tie| Event::Awarded {
            turn: 0,
            tile: view.tile.unwrap(),
            winner: Some(Seat(1)),
            price: Some(4),
            third_tie,
            seen_by: SeatSet::EMPTY,
            third_tie_seen_by: SeatSet::EMPTY,
        };
        let line = |third_tie| event_line(&view, &rules, &awarded(third_tie)).unwrap();
        assert!(line(Some(true)).contains("(third tie: highest unique bid, R-AUC-7)"));
        for unseen_or_not in [Some(false), None] {
            assert!(
                !line(unseen_or_not).contains("third tie"),
                "{unseen_or_not:?}"
            );
        }
    }

    #[test]
    fn only_meaningful_spend_bounds_are_shown() {
        let max = i128::from(u64::MAX);
        assert_eq!(bounds_text(&bounds(7, 7)), "exactly 7");
        assert_eq!(bounds_text(&bounds(max, max)), format!("exactly {max}"));
        assert_eq!(bounds_text(&bounds(3, 9)), "3..9");
        assert_eq!(bounds_text(&bounds(-4, 9)), "-4..9");
        assert_eq!(bounds_text(&bounds(12, max + 8)), "≥ 12");
        // An unseen credit may be any bid (R-AUC-4): that lower bound says nothing.
        assert_eq!(bounds_text(&bounds(6 - max, 30)), "≤ 30");
        assert_eq!(bounds_text(&bounds(6 - max, max + 3)), "?");
        assert_eq!(bounds_text(&bounds(-2 * max, 2 * max)), "?");
    }

    #[test]
    fn turns_and_rounds_count_from_0() {
        let four = Rules::base(4).unwrap();
        assert_eq!(turn_text(&four, 0), "turn 0 of 0–15 · round 0 (turns 0–3)");
        assert_eq!(
            turn_text(&four, 13),
            "turn 13 of 0–15 · round 3 (turns 12–15)"
        );
        // 3 players: 16 turns, the last round has one (R-TRN-1, R-TRN-2).
        let three = Rules::base(3).unwrap();
        assert_eq!(turn_text(&three, 15), "turn 15 of 0–15 · round 5 (turn 15)");
        assert_eq!(turn_text(&three, 4), "turn 4 of 0–15 · round 1 (turns 3–5)");
        // 5 players: 15 turns. After the game, the last turn.
        let five = Rules::base(5).unwrap();
        assert_eq!(
            turn_text(&five, 15),
            "turn 14 of 0–14 · round 2 (turns 10–14)"
        );
    }
}
