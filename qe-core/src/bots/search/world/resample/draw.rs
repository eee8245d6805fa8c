//! Drawing one auction's hidden amounts stage by stage, so that each stage ends as the seat's
//! history shows it ends ([`Draw`]), and the draws kept for the next attempt ([`Draws`]).

use alloc::vec::Vec;

use crate::game::contest::set_aside_by_third_tie;

use super::{
    model_bid, to_amount, AuctionView, BidStage, Command, Game, Industry, Knowledge, Mix, PerSeat,
    Phase, Seat, SeatSet, Stage, Target, MAX_SEATS,
};

/// One draw of one auction.
pub(super) struct Draw<'k, 'a> {
    pub(super) know: &'k Knowledge<'a>,
    pub(super) turn: u8,
    pub(super) industries: PerSeat<Industry>,
    /// Draw the hidden amounts from a few small values, whatever the target (a last resort that
    /// reaches the rare ends the targeted draws do not aim at).
    pub(super) wild: bool,
}

impl Draw<'_, '_> {
    pub(super) fn a(&self) -> &AuctionView {
        &self.know.view.auctions[self.turn as usize]
    }

    /// Plays the auction into `g`; `None` if it does not end as the view shows.
    pub(super) fn run(
        &self,
        g: &mut Game,
        stages: &[Stage],
        out: &mut Vec<Command>,
        rng: &mut Mix,
    ) -> Option<()> {
        let view = self.know.view;
        let me = self.know.me;
        let a = *self.a();
        let current = self.turn == view.turn;
        if g.turn() != self.turn {
            return None;
        }
        if current && matches!(view.phase, Phase::OpeningBid { .. }) {
            return Some(());
        }
        let mut standing = PerSeat::new([None::<u64>; MAX_SEATS]);
        let play = |g: &mut Game, out: &mut Vec<Command>, c: Command| -> Option<()> {
            g.play(c).ok()?;
            out.push(c);
            Some(())
        };
        if let (Some(auct), Some(open)) = (a.auctioneer, a.opening) {
            play(
                g,
                out,
                Command::Bid {
                    seat: auct,
                    amount: open,
                },
            )?;
            standing[auct] = Some(open);
        }
        let mut field = SeatSet::EMPTY;
        for (i, stage) in stages.iter().enumerate() {
            let target = if !stage.complete {
                Target::Open
            } else if let Some(next) = stages.get(i + 1) {
                match (stage.kind, next.kind) {
                    (_, BidStage::Rebid(_)) => Target::CompanyTie(next.seats),
                    (BidStage::AssetRebid(_), _) => Target::AssetTie(next.seats),
                    _ => Target::AssetTieAfterCompany(next.seats),
                }
            } else {
                Target::Decided
            };
            let values = self.propose(g, stage, i, stages, target, &standing, &mut field, rng)?;
            for &(seat, _) in &stage.bids {
                let amount = values[seat]?;
                play(g, out, Command::Bid { seat, amount })?;
                standing[seat] = Some(amount);
            }
            if let Some(next) = stages.get(i + 1) {
                let phase = match next.kind {
                    BidStage::Secret => Phase::Bidding,
                    BidStage::Rebid(tie) => Phase::Rebid { tie },
                    BidStage::AssetRebid(tie) => Phase::AssetRebid { tie },
                };
                if g.phase() != phase || g.to_act() != next.seats {
                    return None;
                }
            }
        }
        // The asset step's choice (R-COM-5, R-COM-7), unless the view waits for it.
        let waits = current
            && matches!(
                view.phase,
                Phase::TakeAsset { .. } | Phase::DiscardAsset { .. }
            );
        if !waits && g.turn() == self.turn {
            match (g.phase(), a.asset.kind) {
                (Phase::TakeAsset { seat }, Some(kind)) if a.asset.taken => {
                    play(g, out, Command::TakeAsset { seat, kind })?;
                }
                (Phase::DiscardAsset { seat }, Some(kind)) if a.asset.discarded => {
                    play(g, out, Command::DiscardAsset { seat, kind })?;
                }
                _ => {}
            }
        }
        if view.game_over {
            // Every amount is known (R-VIS-7): the whole match is checked at the end.
            return Some(());
        }
        if !current && g.turn() == self.turn {
            return None;
        }
        // The seat's own peek at this auction, if it made one, shows the price (R-VIS-5).
        let mut probe = *g;
        if view.seats[me].peeked == Some(self.turn) {
            probe
                .play(Command::Peek {
                    seat: me,
                    turn: self.turn,
                })
                .ok()?;
        }
        if current {
            let seen = probe.view(me);
            let same = seen.phase == view.phase
                && seen.to_act == view.to_act
                && seen.has_bid == view.has_bid
                && seen.auctions[self.turn as usize] == a;
            return same.then_some(());
        }
        (probe.view(me).auctions[self.turn as usize] == a).then_some(())
    }

    /// The amounts of a stage's bids: the known ones as seen, the hidden ones drawn for `target`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn propose(
        &self,
        g: &Game,
        stage: &Stage,
        index: usize,
        stages: &[Stage],
        target: Target,
        standing: &PerSeat<Option<u64>>,
        field: &mut SeatSet,
        rng: &mut Mix,
    ) -> Option<PerSeat<Option<u64>>> {
        let know = self.know;
        let a = *self.a();
        let opening = a.opening;
        let players = know.view.players;
        let all = SeatSet::all(players);
        // Every seat's amount after the stage where it is fixed: known, or standing.
        let mut val = *standing;
        let mut hidden = SeatSet::EMPTY;
        for &(s, amount) in &stage.bids {
            val[s] = amount;
            if amount.is_none() {
                hidden.insert(s);
            }
        }
        // The stage's seats whose bid here is their final company bid, and whether it is 0
        // (R-AUC-8, R-AUC-11), where the view shows the zero bids.
        let company = !matches!(stage.kind, BidStage::AssetRebid(_));
        let zero_known = know.rules.reveals_zero_bids() && a.awarded;
        let mut zero = PerSeat::new([None::<bool>; MAX_SEATS]);
        // The final company bids of this stage lie below the winner's price and (but the taker's)
        // below the asset price, where the view shows them (R-AUC-5, R-COM-3).
        let mut cap = PerSeat::new([None::<u64>; MAX_SEATS]);
        let mut final_here = SeatSet::EMPTY;
        let price = match a.winner {
            Some(w) if Some(w) == a.auctioneer => a.opening,
            Some(_) => a.price,
            None => None,
        };
        let taker = self.taker().and_then(SeatSet::first);
        // Bids a third tie may set aside (R-AUC-7) or ignore (R-COM-4) can stand above the price
        // or the asset price: a bid that stood from an earlier stage can be the partner of one
        // the seat sees in the last rebid.
        let partners = |third: Option<bool>, last: BidStage| -> Vec<u64> {
            if third == Some(false) {
                return Vec::new();
            }
            stages[index + 1..]
                .iter()
                .filter(|st| st.kind == last)
                .flat_map(|st| st.bids.iter().filter_map(|b| b.1))
                .filter(|&h| opening != Some(h))
                .collect()
        };
        let company_partners = partners(a.third_tie, BidStage::Rebid(2));
        let asset_partners = partners(a.asset.third_tie, BidStage::AssetRebid(2));
        let asset_third = stages.iter().any(|st| st.kind == BidStage::AssetRebid(2))
            && a.asset.third_tie != Some(false);
        if company {
            for s in hidden.iter() {
                let later = stages[index + 1..]
                    .iter()
                    .any(|st| !matches!(st.kind, BidStage::AssetRebid(_)) && st.seats.contains(s));
                if !later && a.awarded {
                    final_here.insert(s);
                    if zero_known {
                        zero[s] = Some(a.zero_bids.contains(s));
                    }
                    if Some(s) != a.winner {
                        cap[s] = price;
                        if Some(s) != taker && !asset_third {
                            if let Some(q) = a.asset.price {
                                cap[s] = Some(cap[s].map_or(q, |c| c.min(q)));
                            }
                        }
                    }
                }
            }
        }
        let mut anchors: Vec<u64> = stages
            .iter()
            .flat_map(|st| st.bids.iter().filter_map(|b| b.1))
            .chain(opening)
            .chain(a.price)
            .chain(a.asset.price)
            .collect();
        anchors.sort_unstable();
        anchors.dedup();
        let d = Draws {
            opening,
            scale: (know.per_vp * 4.0).max(3.0),
            zero,
            anchors,
        };
        if self.wild {
            let mut pool: Vec<u64> = alloc::vec![0, 1, 2, 3];
            pool.extend(val.values().flatten().copied());
            pool.extend(val.values().flatten().map(|v| v.saturating_add(1)));
            for s in hidden.iter() {
                let v = pool[rng.below(pool.len() as u64) as usize];
                val[s] = Some(d.fix(s, v, rng));
            }
            if company {
                *field = all;
                if let Some(w) = a.winner {
                    field.remove(w);
                }
            }
            return Some(val);
        }
        let max_of =
            |val: &PerSeat<Option<u64>>, among: SeatSet| among.iter().filter_map(|s| val[s]).max();
        match target {
            Target::Open => {
                // The model's bids, as the search bot's worlds draw the others' (any legal amount
                // is consistent with a step still open).
                let mut h = *g;
                for &(s, amount) in &stage.bids {
                    let v = if let Some(v) = amount {
                        v
                    } else {
                        let seed = rng.next();
                        model_bid(&know.rules, &h, s, seed)?
                    };
                    val[s] = Some(v);
                    h.play(Command::Bid { seat: s, amount: v }).ok()?;
                }
            }
            Target::CompanyTie(tied) | Target::AssetTie(tied) => {
                let among = if matches!(target, Target::AssetTie(_)) {
                    *field
                } else {
                    all
                };
                let rest = SeatSet::from_bits(among.bits() & !tied.bits());
                // The tie is above every other bid that counts here (R-AUC-5, R-COM-3), the
                // winner's price among them when its final bid is made here and the seat knows it
                // (its own auction, a peek: R-VIS-2…5).
                let winner_here = a
                    .winner
                    .filter(|&w| final_here.contains(w) && rest.contains(w))
                    .and(price);
                let v = match max_of(&val, tied) {
                    Some(v) => v,
                    None => d.above(max_of(&val, rest).max(winner_here), rng),
                };
                for s in tied.iter().filter(|&s| hidden.contains(s)) {
                    val[s] = Some(v);
                }
                // The winner's final bid made here: the price, above the others' final bids.
                if let Some(w) = a.winner.filter(|&w| final_here.contains(w)) {
                    let others = SeatSet::from_bits(rest.bits() & !(1 << w.0) & !hidden.bits());
                    let p = match price {
                        Some(p) => p,
                        None => d.between(max_of(&val, others), v, rng)?,
                    };
                    val[w] = Some(p);
                    for s in final_here.iter().filter(|&s| s != w) {
                        cap[s] = Some(cap[s].map_or(p, |c| c.min(p)));
                    }
                }
                let open: Vec<Seat> = hidden
                    .iter()
                    .filter(|&s| !tied.contains(s) && val[s].is_none())
                    .collect();
                let partners: Vec<u64> = company_partners
                    .iter()
                    .copied()
                    .filter(|&h| h < v)
                    .collect();
                // Seats that tie for the asset later (R-COM-4) with their final bid from here
                // hold the same amount as the others of that tie.
                let asset_tie = stages
                    .iter()
                    .find(|st| st.kind == BidStage::AssetRebid(1))
                    .map_or(SeatSet::EMPTY, |st| st.seats);
                let mut z = asset_tie
                    .iter()
                    .find_map(|m| final_company_bid(stages, &a, m));
                // A third tie still to come may set a final bid of this stage aside (R-AUC-7),
                // which then stands above the price, below this stage's tie.
                let third_later = a.third_tie != Some(false)
                    && stages[index + 1..]
                        .iter()
                        .any(|st| st.kind == BidStage::Rebid(2));
                for s in open {
                    let c = cap[s].map_or(v, |c| c.min(v));
                    if third_later && final_here.contains(s) && rng.unit() < 0.4 {
                        if let Some(x) = d.between(price, v, rng) {
                            val[s] = Some(d.fix(s, x, rng));
                            continue;
                        }
                    }
                    if let Some(t) = later_tie_value(stages, index, s) {
                        // It rebids in a later tie without rebidding in the next: its bid stands
                        // and ties with that tie's rebids (R-AUC-6).
                        val[s] = Some(t);
                        continue;
                    }
                    if asset_tie.contains(s) && final_here.contains(s) {
                        let amount = *z.get_or_insert_with(|| d.below(s, Some(c), rng));
                        val[s] = Some(amount);
                        continue;
                    }
                    val[s] = Some(if !partners.is_empty() && rng.unit() < 0.3 {
                        partners[rng.below(partners.len() as u64) as usize]
                    } else {
                        d.below(s, Some(c), rng)
                    });
                }
            }
            Target::AssetTieAfterCompany(_) | Target::Decided if company => {
                let Some(w) = a.winner else {
                    // No winner: the top tied (3 players, last turn, R-AUC-9).
                    let top = match max_of(&val, all) {
                        Some(v) if rng.unit() < 0.5 => v,
                        other => d.above(other, rng),
                    };
                    for s in hidden.iter() {
                        val[s] = Some(if rng.unit() < 0.6 {
                            top
                        } else {
                            d.below(s, Some(top), rng)
                        });
                    }
                    return Some(val);
                };
                // A third tie (R-AUC-7) is possible on the third evaluation; the seat sees whether
                // one happened only where it ran the auction (and one is needed when a bid it
                // sees of this stage is above the price).
                let rest = SeatSet::from_bits(stage.seats.bits() & !(1 << w.0));
                let among = SeatSet::from_bits(all.bits() & !(1 << w.0));
                let fixed_top = among
                    .iter()
                    .filter(|&s| !hidden.contains(s))
                    .filter_map(|s| val[s])
                    .max();
                // A seat whose bid the view fixes above the asset taker's, which the asset was not
                // contested past (no asset rebids), cannot have stayed in the asset field
                // (R-COM-3): a third tie set it aside (R-AUC-7).
                let asset_rebids = stages
                    .iter()
                    .any(|st| matches!(st.kind, BidStage::AssetRebid(_)));
                let taker_bid = taker
                    .filter(|&t| t != w && !asset_rebids)
                    .and_then(|t| val[t].or(a.asset.price));
                let above_taker = taker_bid.is_some_and(|q| {
                    among
                        .iter()
                        .filter(|&s| Some(s) != taker && !hidden.contains(s))
                        .filter_map(|s| val[s])
                        .any(|v| v > q)
                });
                let needed = above_taker
                    || matches!((fixed_top, val[w].or(price)), (Some(t), Some(p)) if t > p);
                let third = stage.kind == BidStage::Rebid(2)
                    && a.third_tie.unwrap_or_else(|| needed || rng.unit() < 0.3);
                // In a third tie the tied bids are above the winner's (else it won outright): a
                // rebid of the stage the view fixes is often the tied amount, so the price is
                // drawn below it (always when the tie is needed).
                let tie_above = if third && (needed || rng.unit() < 0.5) {
                    rest.iter()
                        .filter(|&s| !hidden.contains(s))
                        .filter_map(|s| val[s])
                        .max()
                } else {
                    None
                };
                let mut chosen = SeatSet::EMPTY;
                if third {
                    for s in rest.iter().filter(|&s| hidden.contains(s)) {
                        if rng.unit() < 0.6 {
                            chosen.insert(s);
                        }
                    }
                }
                let price = if let Some(p) = val[w] {
                    p
                } else {
                    let below_price = SeatSet::from_bits(
                        all.bits()
                            & !chosen.bits()
                            & !(1 << w.0)
                            & !(u8::from(third) * rest.bits()),
                    );
                    let lo = max_of(&val, below_price);
                    let p = if let Some(p) = a.price {
                        p
                    } else if let Some(tie) = tie_above {
                        d.between(lo, tie, rng)?
                    } else {
                        let guess = know.price_guess(&a, w, self.industries, rng);
                        d.above(lo, rng).max(guess)
                    };
                    val[w] = Some(p);
                    p
                };
                if third {
                    d.third_tie(rest, among, hidden, chosen, price, &mut val, rng)?;
                }
                let aside = SeatSet::from_bits(
                    all.iter()
                        .filter(|&s| {
                            s != w && val[s].is_some_and(|v| set_aside_by_third_tie(v, price))
                        })
                        .fold(0, |bits, s| bits | (1 << s.0)),
                );
                let others = SeatSet::from_bits(all.bits() & !aside.bits() & !(1 << w.0));
                *field = others;
                let mut top = price;
                if know.rules.contests_assets() {
                    let taker = match (target, g.phase()) {
                        (Target::AssetTieAfterCompany(t), _) => Some(t),
                        _ => self.taker(),
                    };
                    if let Some(group) = taker {
                        let rest = SeatSet::from_bits(others.bits() & !group.bits());
                        let known = match (group.len(), a.asset.price) {
                            (1, Some(q)) if !matches!(target, Target::AssetTieAfterCompany(_)) => {
                                Some(q)
                            }
                            _ => max_of(&val, group),
                        };
                        let zero_group = group
                            .iter()
                            .any(|s| hidden.contains(s) && d.zero[s] == Some(true));
                        let q = match known {
                            Some(q) => q,
                            None if zero_group => 0,
                            None => d.between(max_of(&val, rest), price, rng)?,
                        };
                        for s in group.iter().filter(|&s| hidden.contains(s)) {
                            val[s] = Some(d.fix(s, q, rng));
                        }
                        top = q;
                    }
                }
                let partners: Vec<u64> = asset_partners
                    .iter()
                    .copied()
                    .filter(|&h| h < price)
                    .collect();
                for s in hidden.iter() {
                    if val[s].is_none() {
                        let c = cap[s].map_or(top, |c| c.min(top));
                        val[s] = Some(if !partners.is_empty() && rng.unit() < 0.3 {
                            partners[rng.below(partners.len() as u64) as usize]
                        } else {
                            d.below(s, Some(c), rng)
                        });
                    }
                }
            }
            Target::AssetTieAfterCompany(_) | Target::Decided => {
                // The asset decided by the last asset rebids (R-COM-4).
                let mut top = None;
                if let Some(t) = taker {
                    // A third tie for the asset (R-COM-4): the tied rebids are ignored.
                    let rest = SeatSet::from_bits(stage.seats.bits() & !(1 << t.0));
                    // Only the rebidders compete in an asset rebid; a third tie ignores the tied
                    // bids among every bid left in the field (R-COM-4).
                    let among = SeatSet::from_bits(field.bits() & !(1 << t.0));
                    let fixed_top = rest
                        .iter()
                        .filter(|&s| !hidden.contains(s))
                        .filter_map(|s| val[s])
                        .max();
                    let q = val[t].or(a.asset.price);
                    let needed = matches!((fixed_top, q), (Some(x), Some(q)) if x > q);
                    let third = stage.kind == BidStage::AssetRebid(2)
                        && a.asset
                            .third_tie
                            .unwrap_or_else(|| needed || rng.unit() < 0.3);
                    if third {
                        let q = match q {
                            Some(q) => q,
                            None => d.above(
                                max_of(
                                    &val,
                                    SeatSet::from_bits(field.bits() & !stage.seats.bits()),
                                ),
                                rng,
                            ),
                        };
                        val[t] = Some(q);
                        let mut chosen = SeatSet::EMPTY;
                        for s in rest.iter().filter(|&s| hidden.contains(s)) {
                            if rng.unit() < 0.6 {
                                chosen.insert(s);
                            }
                        }
                        d.third_tie(rest, among, hidden, chosen, q, &mut val, rng)?;
                    }
                    if hidden.contains(t) && val[t].is_none() {
                        let rest = SeatSet::from_bits(field.bits() & !(1 << t.0));
                        let q = match a.asset.price {
                            Some(q) => q,
                            None => d.above(max_of(&val, rest), rng),
                        };
                        val[t] = Some(q);
                    }
                    top = val[t];
                }
                if taker.is_none() && stage.kind == BidStage::AssetRebid(2) {
                    // No taker after asset rebids: a third tie leaves no single highest bid
                    // (R-COM-4, R-COM-7): the hidden rebids tie with the others.
                    let seen: Vec<u64> = stage.seats.iter().filter_map(|s| val[s]).collect();
                    let common = d.above(None, rng);
                    for s in hidden.iter() {
                        val[s] = Some(match seen.len() {
                            0 => common,
                            n => seen[rng.below(n as u64) as usize],
                        });
                    }
                }
                for s in hidden.iter() {
                    if val[s].is_none() {
                        val[s] = Some(d.below(s, top, rng));
                    }
                }
            }
        }
        for s in hidden.iter() {
            let v = val[s]?;
            val[s] = Some(d.fix(s, v, rng));
        }
        Some(val)
    }

    /// The asset's taker as the view shows it, taken or about to take.
    pub(super) fn taker(&self) -> Option<SeatSet> {
        let view = self.know.view;
        let a = self.a();
        match (a.asset.taken, a.asset.seat, view.phase) {
            (true, Some(s), _) => Some(SeatSet::only(s)),
            (_, _, Phase::TakeAsset { seat }) if view.turn == self.turn => {
                Some(SeatSet::only(seat))
            }
            _ => None,
        }
    }
}

/// The value of the later company tie `seat` joins with the bid it makes at stage `index` (it
/// rebids at a later stage but not at the next one), where the viewer sees a bid of that tie:
/// the standing bid of another seat of that tie.
pub(super) fn later_tie_value(stages: &[Stage], index: usize, seat: Seat) -> Option<u64> {
    let j = (index + 2..stages.len()).find(|&j| {
        !matches!(stages[j].kind, BidStage::AssetRebid(_)) && stages[j].seats.contains(seat)
    })?;
    // Each seat of that tie stands at its last bid before stage `j`.
    stages[j].seats.iter().filter(|&s| s != seat).find_map(|s| {
        stages[..j]
            .iter()
            .flat_map(|st| st.bids.iter())
            .rfind(|b| b.0 == s)
            .and_then(|b| b.1)
    })
}

/// The final company bid of `seat` in auction `a` (R-AUC-8), where the seat sees it: its last
/// secret bid or company rebid of `stages`, or the auctioneer's opening bid.
pub(super) fn final_company_bid(stages: &[Stage], a: &AuctionView, seat: Seat) -> Option<u64> {
    if a.auctioneer == Some(seat) {
        return a.opening;
    }
    stages
        .iter()
        .filter(|st| !matches!(st.kind, BidStage::AssetRebid(_)))
        .flat_map(|st| st.bids.iter())
        .rfind(|b| b.0 == seat)
        .and_then(|b| b.1)
}

/// Drawing amounts for one stage.
pub(super) struct Draws {
    pub(super) opening: Option<u64>,
    /// Money for a typical gap between bids.
    pub(super) scale: f64,
    /// Whether each hidden bid (a final company bid, where the view shows it) is 0.
    pub(super) zero: PerSeat<Option<bool>>,
    /// The amounts of the auction the seat sees, sorted: hidden bids are often next to them.
    pub(super) anchors: Vec<u64>,
}

impl Draws {
    /// A third tie above `floor` (R-AUC-7, R-COM-4): the `chosen` hidden seats of `rest` bid the
    /// tied value, which is the highest seen bid of `among` above `floor` if there is one; `None`
    /// if fewer than two seats would tie.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn third_tie(
        &self,
        rest: SeatSet,
        among: SeatSet,
        hidden: SeatSet,
        mut chosen: SeatSet,
        floor: u64,
        val: &mut PerSeat<Option<u64>>,
        rng: &mut Mix,
    ) -> Option<()> {
        let free = |s: Seat| hidden.contains(s) && self.zero[s] != Some(true);
        if !rest.iter().any(free) {
            return Some(()); // no bid to draw: the game decides
        }
        chosen = SeatSet::from_bits(
            chosen
                .iter()
                .filter(|&s| free(s))
                .fold(0, |bits, s| bits | (1 << s.0)),
        );
        let fixed_top = among
            .iter()
            .filter(|&s| !hidden.contains(s))
            .filter_map(|s| val[s])
            .max()
            .filter(|&t| t > floor);
        let top = among.iter().filter_map(|s| val[s]).max().max(Some(floor));
        let x = fixed_top.unwrap_or_else(|| self.above(top, rng));
        let fixed_count = among
            .iter()
            .filter(|&s| !hidden.contains(s) && val[s] == Some(x))
            .count();
        if fixed_count + chosen.len() < 2 {
            let extra = rest.iter().find(|&s| free(s) && !chosen.contains(s))?;
            chosen.insert(extra);
        }
        if fixed_count + chosen.len() < 2 {
            return None;
        }
        for s in chosen.iter() {
            val[s] = Some(x);
        }
        Some(())
    }

    /// Not the opening bid (R-AUC-3), and 0 exactly where the view shows a zero bid (R-AUC-11).
    pub(super) fn fix(&self, s: Seat, v: u64, rng: &mut Mix) -> u64 {
        let v = match self.zero[s] {
            Some(true) => 0,
            Some(false) if v == 0 => 1 + rng.below(2),
            _ => v,
        };
        if self.opening == Some(v) {
            v.saturating_add(1)
        } else {
            v
        }
    }

    /// An amount above `lo` (anything when `None`).
    pub(super) fn above(&self, lo: Option<u64>, rng: &mut Mix) -> u64 {
        let u = rng.unit();
        let base = lo.map_or(0, |l| l.saturating_add(1));
        // Often just above, else spread at the price level the seat has seen.
        let v = if rng.unit() < 0.4 {
            base.saturating_add(rng.below(3))
        } else {
            base.saturating_add(to_amount(self.scale * u * u))
        };
        if self.opening == Some(v) {
            v.saturating_add(1)
        } else {
            v
        }
    }

    /// An amount strictly between `lo` and `hi` (from 0 when `lo` is `None`), not the opening bid.
    pub(super) fn between(&self, lo: Option<u64>, hi: u64, rng: &mut Mix) -> Option<u64> {
        let base = lo.map_or(0, |l| l.saturating_add(1));
        if base >= hi {
            return None;
        }
        for _ in 0..4 {
            let v = base + rng.below(hi - base);
            if self.opening != Some(v) {
                return Some(v);
            }
        }
        (base..hi).find(|&v| self.opening != Some(v))
    }

    /// An amount for seat `s` below `cap` (any when `None`), mostly low.
    pub(super) fn below(&self, s: Seat, cap: Option<u64>, rng: &mut Mix) -> u64 {
        if self.zero[s] == Some(true) {
            return 0;
        }
        let lo = u64::from(self.zero[s] == Some(false));
        let hi = cap.unwrap_or_else(|| to_amount(self.scale * 2.0).max(2));
        if hi <= lo {
            return lo;
        }
        let u = rng.unit();
        let near: Vec<u64> = self
            .anchors
            .iter()
            .copied()
            .filter(|&x| x >= lo && x < hi)
            .collect();
        let v = match rng.below(3) {
            // At or just below a seen amount.
            0 if !near.is_empty() => {
                let x = near[rng.below(near.len() as u64) as usize];
                x.saturating_sub(rng.below(3)).max(lo)
            }
            // Small.
            1 => lo + rng.below((hi - lo).min(6)),
            _ => lo + to_amount(u * (hi - lo) as f64).min(hi - lo - 1),
        };
        if self.opening == Some(v) {
            if v > lo {
                v - 1
            } else {
                v + 1
            }
        } else {
            v
        }
    }
}
