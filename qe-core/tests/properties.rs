//! Property tests of the engine's invariants (proptest):
//! - random legal games end within the turn limit and never panic (R-TRN-1, R-TRN-4);
//! - a rejected command leaves the state unchanged (R-AUC-12), a game's and a match's, chance
//!   outcomes in external-chance mode included (R-SET-3);
//! - same seed ⇒ same game (R-SET-2);
//! - record → replay → same record and outcome (RECORD.md);
//! - no leaks (R-VIS-8): games that differ only in what a seat may not see give that seat identical
//!   views and event streams; and, by enumerating every state of one auction with small bids, states
//!   a seat may not tell apart give it the same view, events, observation and spend bounds;
//! - the converse (R-VIS-1…7): each seat's event stream and view hold everything the rules entitle
//!   it to, checked against an oracle written from RULES.md (not from `qe_core::visibility`).

mod common;

use common::twins::{random_command_of, rules_of, twin_commands, twin_setup, Rng};
use proptest::prelude::*;
use qe_core::{
    AssetKind, ChanceOutcome, Command, Event, Game, Industry, Match, Phase, Record, Rules, Seat,
    SeatView, Setup, TileId, TokenId,
};

fn variant() -> impl Strategy<Value = (u8, bool)> {
    (3u8..=5, any::<bool>())
}

/// The bits of seat `s`'s bid-history block (`qe_core::encoding::write_history`), the part of its
/// information state beyond its observation.
fn history_bits(m: &Match, s: Seat) -> Vec<u32> {
    let mut out = vec![0.0f32; qe_core::encoding::HISTORY_SIZE];
    m.write_history(s, &mut out);
    out.iter().map(|x| x.to_bits()).collect()
}

/// The twins of `no_leaks`: game A, random play of `cut` commands (in which `s` may peek, R-VIS-5);
/// and game B's set-up and commands: A's, with what `s` may not see changed (`twin_setup`: others'
/// industry tokens and the unrevealed deck and piles; `twin_commands`: others' high secret bids
/// moved up, order-preserving and above every value `s` can see, in auctions `s` does not run and
/// did not peek at).
fn no_leak_twins(
    rules: Rules,
    seed: u64,
    policy: u64,
    s: Seat,
    cut: usize,
    shuffle: u64,
) -> (Match, Setup, Vec<Command>) {
    let mut a = Match::seeded(rules, seed);
    let mut rng = Rng(policy);
    while !a.game().is_over() && a.commands().len() < cut {
        let c = random_command(a.game(), &mut rng, Some(s));
        a.apply(c).unwrap();
    }
    let setup_b = twin_setup(&a, rules, seed, s, shuffle);
    let twin = twin_commands(&a, rules, seed, s);
    (a, setup_b, twin)
}

/// `no_leaks` compares twins that really differ: in most games both in the set-up `s` may not
/// see and in others' secret bids. In some 5-player games `s` peeks (R-VIS-5) and others' bids
/// still differ.
#[test]
fn the_no_leak_twins_differ_in_what_the_seat_may_not_see() {
    let (mut games, mut setups, mut bids, mut peeked) = (0, 0, 0, 0);
    let mut rng = Rng(7);
    for players in 3..=5u8 {
        for commodities in [false, true] {
            let rules = rules_of(players, commodities);
            for _ in 0..20 {
                let s = Seat(rng.below(u64::from(players)) as u8);
                let cut = 1 + rng.below(400) as usize;
                let (seed, policy, shuffle) = (
                    rng.below(u64::MAX),
                    rng.below(u64::MAX),
                    rng.below(u64::MAX),
                );
                let (a, setup_b, twin) = no_leak_twins(rules, seed, policy, s, cut, shuffle);
                games += 1;
                setups += usize::from(setup_b != Setup::seeded(&rules, seed));
                bids += usize::from(twin.as_slice() != a.commands());
                let peeks = a
                    .commands()
                    .iter()
                    .any(|c| matches!(c, Command::Peek { seat, .. } if *seat == s));
                peeked += usize::from(peeks && twin.as_slice() != a.commands());
            }
        }
    }
    assert!(
        setups * 10 >= games * 9,
        "{setups} of {games} twins differ in their set-up"
    );
    assert!(
        bids * 4 >= games * 3,
        "{bids} of {games} twins differ in others' bids"
    );
    assert!(
        peeked >= 10,
        "in {peeked} twins the seat peeked and others' bids differ"
    );
}

/// The action space agrees with itself and with the game at every step of Commodities games
/// played through it: `is_legal` is the mask, every legal action decodes to a command the game
/// accepts (takes and discards included) and encodes back to itself.
#[test]
fn every_legal_action_decodes_to_a_command_the_game_accepts() {
    use qe_core::encoding::{ActionSpace, BidLadder};
    let space = ActionSpace::new(BidLadder::default(), true);
    let mut mask = vec![false; space.size()];
    let mut rng = Rng(11);
    let (mut takes, mut discards) = (0, 0);
    for players in 3..=5u8 {
        for seed in 0..12 {
            let mut game = Game::seeded(rules_of(players, true), seed);
            while !game.is_over() {
                let seat = game.to_act().first().unwrap();
                let legal = game.legal(seat);
                space.mask(&legal, &mut mask);
                for (a, &on) in mask.iter().enumerate() {
                    assert_eq!(space.is_legal(&legal, a), on, "action {a} of {legal:?}");
                }
                let actions: Vec<usize> = (0..mask.len()).filter(|&a| mask[a]).collect();
                assert!(
                    !actions.is_empty(),
                    "no legal action for {seat:?} in {:?}",
                    game.phase()
                );
                for &a in &actions {
                    let c = space.decode(seat, &legal, a).unwrap();
                    assert_eq!(space.encode(&c), Some(a), "{c:?}");
                    let mut probe = game;
                    probe
                        .apply(c)
                        .unwrap_or_else(|e| panic!("legal action {a} ({c:?}) rejected: {e}"));
                }
                // Mostly the lowest actions (the smallest bids), so ties and no-taker discards
                // are frequent.
                let pool = if rng.below(10) == 0 {
                    actions.len()
                } else {
                    actions.len().min(2)
                };
                let a = actions[rng.below(pool as u64) as usize];
                let c = space.decode(seat, &legal, a).unwrap();
                takes += usize::from(matches!(c, Command::TakeAsset { .. }));
                discards += usize::from(matches!(c, Command::DiscardAsset { .. }));
                game.apply(c).unwrap();
            }
        }
    }
    assert!(
        takes > 0 && discards > 0,
        "{takes} takes, {discards} discards"
    );
}

/// A random legal command for the game, from `seat`'s legal actions. Bids mix small values (ties and
/// zeros are frequent), and, unless `secret` is the bidder or runs the auction, "high" bids in
/// 1000..2000. Every seat that may peek (`secret` too) does now and then.
fn random_command(game: &Game, rng: &mut Rng, secret: Option<Seat>) -> Command {
    let acting = game.to_act();
    let seat = acting
        .iter()
        .nth(rng.below(acting.len() as u64) as usize)
        .unwrap();
    // Sometimes a peek by any seat that may.
    if game.players() == 5 && rng.below(10) == 0 {
        let peeker = Seat(rng.below(5) as u8);
        let legal = game.legal(peeker);
        if legal.peek != 0 {
            let turn = (0..16u8).find(|t| legal.peek & (1 << t) != 0).unwrap();
            return Command::Peek { seat: peeker, turn };
        }
    }
    // No seat is secret without `secret`: `Seat(u8::MAX)` bids and runs nothing.
    random_command_of(game, seat, rng, secret.unwrap_or(Seat(u8::MAX)))
}

/// Plays a whole random game as a match.
fn random_match(players: u8, commodities: bool, seed: u64, policy_seed: u64) -> Match {
    let mut m = Match::seeded(rules_of(players, commodities), seed);
    let mut rng = Rng(policy_seed);
    let mut steps = 0;
    while !m.game().is_over() {
        let c = random_command(m.game(), &mut rng, None);
        m.apply(c)
            .unwrap_or_else(|e| panic!("generated an illegal command {c:?}: {e}"));
        steps += 1;
        assert!(steps < 2000, "game does not end");
    }
    m
}

/// Each seat's total spent, recomputed from the full event stream without the engine's ledger:
/// company prices paid (R-AUC-10), asset prices paid (R-COM-5), minus the asset prices credited to
/// the auctioneer of another seat's asset (R-COM-6).
fn spent_from_events(m: &Match) -> [i128; 5] {
    let mut spent = [0i128; 5];
    let rules = *m.game().rules();
    for e in m.events() {
        match *e {
            Event::Awarded {
                winner: Some(w),
                price: Some(p),
                ..
            } => spent[w.0 as usize] += i128::from(p),
            Event::AssetTaken {
                turn,
                seat,
                price: Some(p),
                ..
            } => {
                spent[seat.0 as usize] += i128::from(p);
                match rules.auctioneer(turn) {
                    Some(a) if a != seat => spent[a.0 as usize] -= i128::from(p),
                    _ => {}
                }
            }
            _ => {}
        }
    }
    spent
}

/// A random command that may well be illegal: any seat (even out of range), any action.
fn wild_command(rng: &mut Rng, game: &Game) -> Command {
    let seat = Seat(rng.below(game.players() as u64 + 2) as u8);
    match rng.below(5) {
        0 | 1 => Command::Bid {
            seat,
            amount: [0, 1, 2, 3, u64::MAX][rng.below(5) as usize],
        },
        2 => Command::TakeAsset {
            seat,
            kind: AssetKind::ALL[rng.below(3) as usize],
        },
        3 => Command::DiscardAsset {
            seat,
            kind: AssetKind::ALL[rng.below(3) as usize],
        },
        _ => Command::Peek {
            seat,
            turn: rng.below(20) as u8,
        },
    }
}

/// The copy of the full event `e` that RULES.md entitles seat `s` to, written from the rules
/// themselves: public facts in full (R-VIS-1); its own industry token, bids, rebids, prices and
/// tokens (R-VIS-2); every bid and price of the auctions it runs, and its credits (R-VIS-3); the
/// price of an auction its auctioneer won (R-VIS-4) and of an asset the auctioneer took (R-VIS-1);
/// the price it peeked at (R-VIS-5: in the `Peeked` event; the auction's `Awarded` event, which
/// came before the peek, keeps the audience it had); everything once the game is over (R-VIS-7).
/// Whether a third tie decided a contest is not among the public facts (no rebid follows it,
/// R-VIS-1): the auctioneer sees it (R-VIS-3), and every seat knows there was none when no second
/// tie came before it. The rest is hidden (R-VIS-6, R-VIS-8). `t` is the match's truth.
fn entitled_copy(e: &Event, s: Seat, t: &Truth, over: bool) -> Event {
    let mut copy = *e;
    if over {
        return copy;
    }
    let auctioneers = &t.auctioneer;
    let runs = |turn: u8| auctioneers[turn as usize] == Some(s);
    let sees_third = |turn: u8, ties: &[[qe_core::SeatSet; 3]; 16]| {
        runs(turn) || ties[turn as usize][1].is_empty()
    };
    match &mut copy {
        Event::Dealt { seat, industry } if *seat != s => *industry = None,
        Event::Bid {
            turn, seat, amount, ..
        } if *seat != s && !runs(*turn) => *amount = None,
        Event::Awarded {
            turn,
            winner,
            price,
            third_tie,
            ..
        } => {
            if !sees_company_price(s, *winner, auctioneers[*turn as usize]) {
                *price = None;
            }
            if !sees_third(*turn, &t.ties) {
                *third_tie = None;
            }
        }
        Event::AssetTaker {
            turn, third_tie, ..
        } if !sees_third(*turn, &t.asset_ties) => *third_tie = None,
        Event::AssetTaken {
            turn,
            seat,
            token,
            value,
            price,
            ..
        } => {
            let taker = *seat;
            if taker != s {
                *token = None;
                *value = None;
            }
            if !sees_asset_price(s, taker, auctioneers[*turn as usize]) {
                *price = None;
            }
        }
        Event::Peeked { seat, price, .. } if *seat != s => *price = None,
        _ => {}
    }
    copy
}

/// Whether seat `s` may see the price of a tile won by `winner` in an auction run by
/// `auctioneer` while the game runs: its own (R-VIS-2), its auction's (R-VIS-3), or one its
/// auctioneer won (R-VIS-4).
fn sees_company_price(s: Seat, winner: Option<Seat>, auctioneer: Option<Seat>) -> bool {
    winner == Some(s) || auctioneer == Some(s) || (winner.is_some() && winner == auctioneer)
}

/// Whether seat `s` may see the price of an asset `taker` took in an auction run by `auctioneer`
/// while the game runs: its own (R-VIS-2), its credit (R-VIS-3), or one the auctioneer took, whose
/// price is its public opening bid (R-VIS-1).
fn sees_asset_price(s: Seat, taker: Seat, auctioneer: Option<Seat>) -> bool {
    taker == s || auctioneer == Some(s) || auctioneer == Some(taker)
}

/// An asset token taken: by whom, from which pile, which token, its VP value and its price.
#[derive(Clone, Copy)]
struct Taken {
    taker: Seat,
    kind: AssetKind,
    token: TokenId,
    value: u8,
    price: u64,
}

/// What the full event stream of a match says happened, turn by turn: the ground truth a view is
/// checked against.
#[derive(Default)]
struct Truth {
    industry: [Option<Industry>; 5],
    tile: [Option<TileId>; 16],
    auctioneer: [Option<Seat>; 16],
    opening: [Option<u64>; 16],
    awarded: [bool; 16],
    winner: [Option<Seat>; 16],
    price: [Option<u64>; 16],
    zero_bids: [qe_core::SeatSet; 16],
    taken: [Option<Taken>; 16],
    /// Per turn: the pile discarded from, and who discarded.
    discarded: [Option<(AssetKind, Seat)>; 16],
    /// Per turn: the seats tied for the company and for the asset, per tie in a row, and whether
    /// the third tie decided each.
    ties: [[qe_core::SeatSet; 3]; 16],
    asset_ties: [[qe_core::SeatSet; 3]; 16],
    third_tie: [bool; 16],
    asset_third_tie: [bool; 16],
    /// Per turn: the tile was discarded on a tie (the 3-player last tile, R-AUC-9).
    discarded_on_tie: [bool; 16],
    /// The turns started (tiles revealed).
    turns_started: u8,
    /// The seats that have bid in the current bidding step (the secret bids, or a rebid).
    has_bid: qe_core::SeatSet,
    /// Per pile: the tokens taken or discarded from it.
    drawn: [usize; 3],
    /// The tiles in the deck and the tokens in each pile at the start (R-CMP-5, R-COM-1).
    deck_size: u8,
    pile_sizes: [usize; 3],
    /// Per seat: the total spent (`spent_from_events`).
    spent: [i128; 5],
    /// Per seat: the turn it peeked at.
    peeked: [Option<u8>; 5],
    /// Per seat: the latest bid (opening bid included) in the current turn.
    standing: [Option<u64>; 5],
    /// Per seat: the tiles it won, a bit per tile index.
    tiles: [u32; 5],
    /// Per seat: the rounds that gave it a zero-bid mark, a bit per round.
    zero_marks: [u8; 5],
    /// Per seat: the tokens it took, by pile.
    assets: [[u8; 3]; 5],
}

impl Truth {
    /// The seats of `among` whose standing bid is the highest of theirs.
    fn top(&self, among: qe_core::SeatSet) -> qe_core::SeatSet {
        let best = among.iter().filter_map(|s| self.standing[s.index()]).max();
        let mut top = qe_core::SeatSet::EMPTY;
        for s in among.iter().filter(|s| self.standing[s.index()] == best) {
            top.insert(s);
        }
        top
    }

    /// The seats of the asset's third tie in turn `turn` (R-COM-4): those of the first tie's
    /// group that hold its top bid after the second rebids.
    fn third_asset_tie(&self, turn: u8) -> qe_core::SeatSet {
        self.top(self.asset_ties[turn as usize][0])
    }

    fn of(m: &Match) -> Truth {
        let rules = *m.game().rules();
        let mut t = Truth {
            deck_size: rules.manifest().tiles_in_play(rules.players()).len() as u8,
            pile_sizes: core::array::from_fn(|k| {
                let kind = AssetKind::ALL[k];
                let tokens = rules.manifest().tokens_in_play(rules.players());
                tokens.filter(|t| t.kind() == kind).count() * usize::from(rules.has_commodities())
            }),
            spent: spent_from_events(m),
            ..Truth::default()
        };
        let mut current = None;
        for e in m.events() {
            match *e {
                Event::Dealt { seat, industry } => t.industry[seat.index()] = industry,
                Event::TileRevealed {
                    turn,
                    tile,
                    auctioneer,
                } => {
                    t.tile[turn as usize] = Some(tile);
                    t.auctioneer[turn as usize] = auctioneer;
                    t.turns_started = turn + 1;
                    t.has_bid = qe_core::SeatSet::EMPTY;
                    if current != Some(turn) {
                        current = Some(turn);
                        t.standing = [None; 5];
                    }
                }
                Event::OpeningBid { turn, seat, amount } => {
                    t.opening[turn as usize] = Some(amount);
                    t.standing[seat.index()] = Some(amount);
                }
                Event::Bid { seat, amount, .. } => {
                    t.standing[seat.index()] = amount;
                    t.has_bid.insert(seat);
                }
                Event::RebidRequired {
                    turn,
                    seats,
                    tie,
                    asset,
                } => {
                    let ties = if asset {
                        &mut t.asset_ties[turn as usize]
                    } else {
                        &mut t.ties[turn as usize]
                    };
                    ties[tie as usize - 1] = seats;
                    t.has_bid = qe_core::SeatSet::EMPTY;
                }
                Event::AssetTaker {
                    turn, third_tie, ..
                } => {
                    let third_tie = third_tie.expect("the full event has it");
                    t.asset_third_tie[turn as usize] = third_tie;
                    if third_tie {
                        t.asset_ties[turn as usize][2] = t.third_asset_tie(turn);
                    }
                }
                Event::NoTaker { turn } if !t.asset_ties[turn as usize][1].is_empty() => {
                    // No taker after the second asset tie: the third tie emptied the field.
                    t.asset_ties[turn as usize][2] = t.third_asset_tie(turn);
                    t.asset_third_tie[turn as usize] = true;
                }
                Event::Awarded {
                    turn,
                    winner,
                    price,
                    third_tie,
                    ..
                } => {
                    let third_tie = third_tie.expect("the full event has it");
                    t.awarded[turn as usize] = true;
                    t.third_tie[turn as usize] = third_tie;
                    t.discarded_on_tie[turn as usize] = winner.is_none();
                    // The seats tied at the top of every standing bid: the third tie (R-AUC-7:
                    // a seat that did not rebid but stands at that amount is one of them), or
                    // the tie that discards the 3-player last tile without a rebid (R-AUC-9).
                    let all = qe_core::SeatSet::all(rules.players());
                    if third_tie {
                        t.ties[turn as usize][2] = t.top(all);
                    } else if winner.is_none() {
                        t.ties[turn as usize][0] = t.top(all);
                    }
                    t.winner[turn as usize] = winner;
                    t.price[turn as usize] = price;
                    if let Some(w) = winner {
                        t.tiles[w.index()] |= 1 << t.tile[turn as usize].unwrap().index();
                    }
                }
                Event::ZeroBids {
                    turn,
                    seats,
                    marked,
                } => {
                    t.zero_bids[turn as usize] = seats;
                    for s in marked.iter() {
                        t.zero_marks[s.index()] |= 1 << rules.round(turn);
                    }
                }
                Event::AssetTaken {
                    turn,
                    seat,
                    kind,
                    token,
                    value,
                    price,
                    ..
                } => {
                    t.taken[turn as usize] = Some(Taken {
                        taker: seat,
                        kind,
                        token: token.unwrap(),
                        value: value.unwrap(),
                        price: price.unwrap(),
                    });
                    t.assets[seat.index()][kind.index()] += 1;
                    t.drawn[kind.index()] += 1;
                }
                Event::AssetDiscarded { turn, kind, seat } => {
                    t.discarded[turn as usize] = Some((kind, seat));
                    t.drawn[kind.index()] += 1;
                }
                Event::Peeked { seat, turn, .. } => t.peeked[seat.index()] = Some(turn),
                _ => {}
            }
        }
        t
    }
}

/// Checks that `v`, seat `s`'s view of `m`, holds every fact RULES.md entitles `s` to, with the
/// value the full event stream gives it.
fn check_view_entitlements(
    m: &Match,
    s: Seat,
    v: &SeatView,
    t: &Truth,
) -> Result<(), TestCaseError> {
    let g = m.game();
    let over = g.is_over();
    let n = g.players() as usize;
    // R-VIS-1: the table.
    prop_assert_eq!(v.seat, Some(s));
    prop_assert_eq!(v.phase, g.phase());
    prop_assert_eq!(v.to_act, g.to_act());
    prop_assert_eq!(v.turns_started, t.turns_started);
    prop_assert_eq!(v.deck_remaining, t.deck_size - t.turns_started);
    for k in AssetKind::ALL {
        let left = t.pile_sizes[k.index()] - t.drawn[k.index()];
        prop_assert_eq!(
            v.piles_remaining[k.index()] as usize,
            left,
            "tokens left in {:?}",
            k
        );
    }
    if matches!(
        v.phase,
        Phase::Bidding | Phase::Rebid { .. } | Phase::AssetRebid { .. }
    ) {
        prop_assert_eq!(v.has_bid, t.has_bid, "the seats that have bid");
    }
    for o in 0..n {
        let info = &v.seats[Seat(o as u8)];
        prop_assert_eq!(
            info.nation,
            Some(g.nation(Seat(o as u8))),
            "nation of seat {}",
            o
        );
        prop_assert_eq!(info.tiles, t.tiles[o], "tiles of seat {}", o);
        prop_assert_eq!(
            info.zero_marks,
            t.zero_marks[o],
            "zero-bid marks of seat {}",
            o
        );
        prop_assert_eq!(info.assets, t.assets[o], "assets of seat {}", o);
        prop_assert_eq!(info.peeked, t.peeked[o], "peek of seat {}", o);
        // R-VIS-2 (own token and total), R-VIS-7 (everyone's at the end).
        if o == s.index() || over {
            prop_assert_eq!(info.industry, t.industry[o], "industry of seat {}", o);
            prop_assert_eq!(info.spent, Some(t.spent[o]), "total of seat {}", o);
        }
    }
    for turn in 0..v.turns_started as usize {
        let a = &v.auctions[turn];
        let auctioneer = t.auctioneer[turn];
        prop_assert_eq!(a.tile, t.tile[turn], "tile of turn {}", turn);
        prop_assert_eq!(a.auctioneer, auctioneer, "auctioneer of turn {}", turn);
        prop_assert_eq!(a.opening, t.opening[turn], "opening bid of turn {}", turn);
        prop_assert_eq!(a.awarded, t.awarded[turn], "turn {} awarded", turn);
        prop_assert_eq!(a.winner, t.winner[turn], "winner of turn {}", turn);
        prop_assert_eq!(a.zero_bids, t.zero_bids[turn], "zero bids of turn {}", turn);
        let winner = t.winner[turn];
        let sees_price = over
            || sees_company_price(s, winner, auctioneer)
            || t.peeked[s.index()] == Some(turn as u8);
        if t.awarded[turn] && winner.is_some() && sees_price {
            prop_assert_eq!(a.price, t.price[turn], "price of turn {}", turn);
        }
        match t.taken[turn] {
            Some(Taken {
                taker,
                kind,
                token,
                value,
                price,
            }) => {
                prop_assert!(a.asset.taken, "turn {} asset taken", turn);
                prop_assert_eq!(a.asset.seat, Some(taker));
                prop_assert_eq!(a.asset.kind, Some(kind));
                if taker == s || over {
                    prop_assert_eq!(a.asset.token, Some(token), "token of turn {}", turn);
                    prop_assert_eq!(a.asset.value, Some(value), "token value of turn {}", turn);
                }
                if over || sees_asset_price(s, taker, auctioneer) {
                    prop_assert_eq!(a.asset.price, Some(price), "asset price of turn {}", turn);
                }
            }
            None => prop_assert!(!a.asset.taken),
        }
        prop_assert_eq!(a.asset.discarded, t.discarded[turn].is_some());
        if t.discarded_on_tie[turn] {
            prop_assert_eq!(
                a.price,
                None,
                "a discarded tile has no price (turn {})",
                turn
            );
        }
        if let Some((kind, seat)) = t.discarded[turn] {
            prop_assert_eq!(
                a.asset.kind,
                Some(kind),
                "pile discarded from, turn {}",
                turn
            );
            prop_assert_eq!(a.asset.seat, Some(seat), "who discarded, turn {}", turn);
        }
        // R-VIS-1: which seats had to rebid (the first two ties: `RebidRequired`). Whether a
        // third tie decided the contest, and its seats, only for the auctioneer (R-VIS-3) or
        // when there was no second tie (so no third), and for all at the end (R-VIS-7).
        // A third tie shows the seats tied at the top (R-AUC-7: of every standing bid, so a seat
        // that did not rebid but stands at that amount is one of them; R-COM-4: of the first
        // asset tie's group). On the 3-player last tile (R-AUC-9) the tie that discards it is
        // shown, once the game is over (R-VIS-7).
        prop_assert!(!t.discarded_on_tie[turn] || over);
        let runs = t.auctioneer[turn] == Some(s);
        let as_seen = |ties: [qe_core::SeatSet; 3], third: bool| {
            if over || runs || ties[1].is_empty() {
                (ties, Some(third))
            } else {
                ([ties[0], ties[1], qe_core::SeatSet::EMPTY], None)
            }
        };
        let (ties, third_tie) = as_seen(t.ties[turn], t.third_tie[turn]);
        prop_assert_eq!(a.ties, ties, "company ties of turn {}", turn);
        prop_assert_eq!(a.third_tie, third_tie, "third tie of turn {}", turn);
        let (ties, third_tie) = as_seen(t.asset_ties[turn], t.asset_third_tie[turn]);
        prop_assert_eq!(a.asset.ties, ties, "asset ties of turn {}", turn);
        prop_assert_eq!(
            a.asset.third_tie,
            third_tie,
            "asset third tie of turn {}",
            turn
        );
    }
    // R-VIS-2, R-VIS-3: the standing bids of the auction under way, its own, and all of them for
    // its auctioneer.
    let standing_shown = match v.phase {
        Phase::OpeningBid { .. } | Phase::GameOver => false,
        Phase::Chance { .. } => v.tile.is_some(),
        _ => true,
    };
    if standing_shown {
        for o in 0..n {
            let bid = t.standing[o];
            let shown =
                bid.is_some() && !(v.phase == Phase::Bidding && v.to_act.contains(Seat(o as u8)));
            if shown && (o == s.index() || g.auctioneer() == Some(s)) {
                prop_assert_eq!(v.bids[Seat(o as u8)], bid, "standing bid of seat {}", o);
            }
        }
    }
    if over {
        // R-VIS-7: with 3 players, the token set aside too (every price, token, value, industry and
        // total is checked above, with `over`).
        prop_assert_eq!(
            v.set_aside,
            Setup::seeded(g.rules(), m.seed().unwrap()).set_aside()
        );
    }
    Ok(())
}

/// A chance outcome that may well be illegal: a deal of any industries, any tile, any token.
fn wild_chance(rng: &mut Rng) -> ChanceOutcome {
    match rng.below(3) {
        0 => ChanceOutcome::Deal(core::array::from_fn(|_| {
            Industry::ALL[rng.below(Industry::ALL.len() as u64) as usize]
        })),
        1 => ChanceOutcome::Reveal(TileId::ALL[rng.below(21) as usize]),
        _ => ChanceOutcome::Draw(TokenId::new(
            AssetKind::ALL[rng.below(3) as usize],
            rng.below(9) as u8,
        )),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// R-TRN-1, R-TRN-4: random legal games end after the right number of turns, with an outcome.
    #[test]
    fn random_games_end((players, commodities) in variant(), seed in any::<u64>(), policy in any::<u64>()) {
        let m = random_match(players, commodities, seed, policy);
        prop_assert_eq!(m.game().turn(), m.game().rules().turns());
        // Record readers cap command lists at this bound (peeks and rebids included).
        prop_assert!(m.commands().len() <= m.game().rules().max_commands());
        let outcome = m.game().outcome().unwrap();
        prop_assert_eq!(outcome.seats().len(), players as usize);
        // Totals in the outcome agree with the game's own bookkeeping and with a recomputation
        // from the events (R-SCO-1, R-COM-8).
        let recomputed = spent_from_events(&m);
        for s in outcome.seats() {
            prop_assert_eq!(s.spent, m.game().spent(Seat(s.seat)));
            prop_assert_eq!(s.spent, recomputed[s.seat as usize]);
            prop_assert_eq!(s.total, s.subtotal + s.least_spent_bonus);
        }
    }

    /// R-AUC-12: a rejected command leaves the whole state unchanged; an accepted one keeps the
    /// invariants (to_act holds valid seats, legal actions agree with to_act).
    #[test]
    fn rejected_commands_change_nothing((players, commodities) in variant(), seed in any::<u64>(), policy in any::<u64>()) {
        let mut game = Game::seeded(rules_of(players, commodities), seed);
        let mut rng = Rng(policy);
        while !game.is_over() {
            for _ in 0..3 {
                let wild = wild_command(&mut rng, &game);
                let before = game;
                if game.apply(wild).is_err() {
                    prop_assert_eq!(game, before);
                }
            }
            if game.is_over() {
                break;
            }
            for seat in game.to_act().iter() {
                prop_assert!(seat.0 < players);
                prop_assert!(game.legal(seat).must_act());
            }
            let c = random_command(&game, &mut rng, None);
            game.apply(c).unwrap();
        }
        let before = game;
        let late = game.apply(Command::Bid { seat: Seat(0), amount: 1 });
        prop_assert!(late.is_err());
        prop_assert_eq!(game, before);
    }

    /// R-AUC-12, R-SET-3: the same for a match (the game, its commands and its events) in
    /// external-chance mode, where wild chance outcomes (a deal of any industries, any tile, any
    /// token, or an outcome when none is pending) are tried beside wild commands.
    #[test]
    fn rejected_commands_and_chance_outcomes_change_no_match((players, commodities) in variant(), policy in any::<u64>()) {
        let game = Game::external_chance(rules_of(players, commodities), None).unwrap();
        let mut m = Match::new(game);
        let mut rng = Rng(policy);
        while !m.game().is_over() {
            for _ in 0..3 {
                let wild = if rng.below(2) == 0 {
                    Command::Chance(wild_chance(&mut rng))
                } else {
                    wild_command(&mut rng, m.game())
                };
                let before = m.clone();
                if m.apply(wild).is_err() {
                    prop_assert_eq!(&m, &before);
                }
            }
            if m.game().is_over() {
                break;
            }
            let outcomes = m.game().chance_outcomes();
            let c = if outcomes.is_empty() {
                random_command(m.game(), &mut rng, None)
            } else {
                Command::Chance(outcomes[rng.below(outcomes.len() as u64) as usize])
            };
            m.apply(c).unwrap();
        }
    }

    /// R-SET-2: the same seed and the same commands give the same game and events.
    #[test]
    fn same_seed_same_game((players, commodities) in variant(), seed in any::<u64>(), policy in any::<u64>()) {
        let a = random_match(players, commodities, seed, policy);
        let b = random_match(players, commodities, seed, policy);
        prop_assert_eq!(a.game(), b.game());
        prop_assert_eq!(a.events(), b.events());
    }

    /// RECORD.md: record → JSON → record → replay gives the same record, game and outcome, for
    /// finished and unfinished games.
    #[test]
    fn records_round_trip((players, commodities) in variant(), seed in any::<u64>(), policy in any::<u64>(), cut in 0usize..200) {
        let full = random_match(players, commodities, seed, policy);
        let mut m = Match::seeded(rules_of(players, commodities), seed);
        for c in full.commands().iter().take(cut) {
            m.apply(*c).unwrap();
        }
        let record = m.record().unwrap();
        let json = record.to_json();
        let back = Record::from_json(&json).unwrap();
        prop_assert_eq!(&back, &record);
        let replayed = back.replay().unwrap();
        prop_assert_eq!(replayed.game(), m.game());
        prop_assert_eq!(replayed.record().unwrap().to_json(), json);
        prop_assert_eq!(replayed.game().outcome(), m.game().outcome());
    }

    /// R-VIS-8: change what seat `s` may not see — others' secret bids and asset rebids (in auctions
    /// `s` does not run and did not peek at, R-VIS-5), the unrevealed deck, others' industry tokens (and the set-aside one), the
    /// order of every pile except the tokens `s` drew — and `s`'s views and event stream stay the same
    /// until the game ends (when everything is revealed, R-VIS-7).
    #[test]
    fn no_leaks((players, commodities) in variant(), seed in any::<u64>(), policy in any::<u64>(), viewer in 0u8..5, cut in 1usize..400, shuffle in any::<u64>()) {
        let s = Seat(viewer % players);
        let rules = rules_of(players, commodities);
        let (a, setup_b, twin) = no_leak_twins(rules, seed, policy, s, cut, shuffle);
        let mut b = Match::with_setup(rules, setup_b).unwrap();
        let mut replay = Match::seeded(rules, seed);
        for (i, (&c, &cb)) in a.commands().iter().zip(&twin).enumerate() {
            replay.apply(c).unwrap();
            b.apply(cb).unwrap_or_else(|e| panic!("command {i} {cb:?} illegal in the twin game: {e}"));
            if replay.game().is_over() {
                // R-VIS-7: at the end everything is revealed, so the twins may differ from here on.
                prop_assert!(replay.events_for(s).eq(replay.events().iter().copied()));
                break;
            }
            prop_assert_eq!(replay.view(Some(s)), b.view(Some(s)), "view differs after command {}", i);
            // The information state's bid-history block too (its observation is the view's).
            prop_assert_eq!(history_bits(&replay, s), history_bits(&b, s), "history block differs after command {}", i);
            // The deduction aid sees no more than the view and the seat's own events.
            prop_assert_eq!(replay.deduce(s), b.deduce(s), "deduction differs after command {}", i);
            // The event streams are identical while the game runs.
            prop_assert!(replay.events_for(s).eq(b.events_for(s)), "events differ after command {}", i);
        }
    }

    /// R-VIS-1…7, the converse of `no_leaks`: after every command of a random game (peeks
    /// included), each seat's event stream is exactly what the rules entitle it to (every field it
    /// may see filled, every other one empty), and its view holds every fact it may see, with the
    /// value the full event stream gives.
    #[test]
    fn each_seat_sees_what_it_is_entitled_to((players, commodities) in variant(), seed in any::<u64>(), policy in any::<u64>()) {
        let mut m = Match::seeded(rules_of(players, commodities), seed);
        let mut rng = Rng(policy);
        loop {
            let truth = Truth::of(&m);
            let over = m.game().is_over();
            for s in (0..players).map(Seat) {
                let expected: Vec<Event> = m.events().iter().map(|e| entitled_copy(e, s, &truth, over)).collect();
                let seen: Vec<Event> = m.events_for(s).collect();
                for (i, (a, b)) in seen.iter().zip(&expected).enumerate() {
                    prop_assert_eq!(a, b, "event {} as seat {} sees it", i, s.0);
                }
                prop_assert_eq!(seen.len(), expected.len());
                check_view_entitlements(&m, s, &m.game().view(s), &truth)?;
            }
            if over {
                break;
            }
            let c = random_command(m.game(), &mut rng, None);
            m.apply(c).unwrap();
        }
    }
}

/// Every state of one auction with small bids, enumerated: the opening bid 1 or 2, and every other
/// bid and rebid (company and asset) each of 0 to 3 where legal; the asset taken from, or discarded
/// from, the first pile that has tokens. Turn 0, or (3 players) the last turn, which has no
/// auctioneer, after 15 turns of distinct bids. The game is over at none of them.
fn one_auction_states(players: u8, commodities: bool, last_turn: bool) -> Vec<Match> {
    let first_pile = |g: &Game| {
        AssetKind::ALL
            .iter()
            .copied()
            .find(|&k| g.pile_remaining(k) > 0)
            .unwrap()
    };
    // A step of the fixed prefix, or each step the enumeration tries.
    let steps = |g: &Game, all: bool| -> Vec<Command> {
        let seat = g.to_act().iter().next().unwrap();
        match g.phase() {
            Phase::TakeAsset { seat } => vec![Command::TakeAsset {
                seat,
                kind: first_pile(g),
            }],
            Phase::DiscardAsset { seat } => vec![Command::DiscardAsset {
                seat,
                kind: first_pile(g),
            }],
            Phase::OpeningBid { .. } if all => (1..=2)
                .map(|amount| Command::Bid { seat, amount })
                .collect(),
            _ if all => (0..=3)
                .filter(|&a| g.bid_range(seat).unwrap().allows(a))
                .map(|amount| Command::Bid { seat, amount })
                .collect(),
            Phase::OpeningBid { .. } => vec![Command::Bid { seat, amount: 1 }],
            _ => vec![Command::Bid {
                seat,
                amount: u64::from(seat.0) + 2,
            }],
        }
    };
    let mut start = Match::seeded(rules_of(players, commodities), 11);
    let turn = if last_turn { 15 } else { 0 };
    while start.game().turn() < turn {
        let c = steps(start.game(), false)[0];
        start.apply(c).unwrap();
    }
    let mut out = Vec::new();
    let mut stack = vec![start];
    while let Some(m) = stack.pop() {
        let g = m.game();
        if g.is_over() || g.turn() > turn {
            continue;
        }
        for c in steps(g, true) {
            let mut next = m.clone();
            next.apply(c).unwrap();
            stack.push(next);
        }
        out.push(m);
    }
    out
}

/// R-VIS-8 by enumeration: among every state of one auction (`one_auction_states`), those whose
/// events carry the same facts for a seat under RULES.md (`entitled_copy`) must give that seat the
/// same view, bid history, event stream, observation and spend bounds. Unlike `no_leaks`, whose
/// twins keep every order among the bids, these states differ in which bids tie and win, so a fact
/// that follows from the hidden order (which seats a third tie held, whether it happened) shows.
#[test]
fn states_of_one_auction_that_a_seat_cannot_tell_apart_look_the_same_to_it() {
    use std::collections::HashMap;
    type Seen = (
        qe_core::MatchView,
        Vec<Event>,
        Vec<u32>,
        Vec<u32>,
        qe_core::Deduction,
    );
    for (players, commodities, last_turn) in [
        (4, false, false),
        (4, true, false),
        (3, true, false),
        (3, true, true),
        (5, false, false),
    ] {
        let states = one_auction_states(players, commodities, last_turn);
        let mut groups: HashMap<(u8, Vec<Event>), Seen> = HashMap::new();
        let mut compared = 0usize;
        for m in &states {
            let truth = Truth::of(m);
            for s in (0..players).map(Seat) {
                let key: Vec<Event> = m
                    .events()
                    .iter()
                    .map(|e| entitled_copy(e, s, &truth, false))
                    .collect();
                let mut obs = vec![0.0f32; qe_core::encoding::OBS_SIZE];
                qe_core::encoding::observe_seat(m.game(), s, &mut obs);
                let seen: Seen = (
                    m.view(Some(s)),
                    m.events_for(s).collect(),
                    obs.iter().map(|x| x.to_bits()).collect(),
                    history_bits(m, s),
                    m.deduce(s),
                );
                match groups.entry((s.0, key)) {
                    std::collections::hash_map::Entry::Occupied(first) => {
                        compared += 1;
                        assert!(
                            *first.get() == seen,
                            "{players} players, commodities {commodities}: seat {} tells apart \
                             two states it may not:\n{:?}\n{:?}\ncommands {:?}",
                            s.0,
                            first.get().0,
                            seen.0,
                            m.commands()
                        );
                    }
                    std::collections::hash_map::Entry::Vacant(slot) => {
                        slot.insert(seen);
                    }
                }
            }
        }
        eprintln!(
            "{players} players, commodities {commodities}, last turn {last_turn}: {} states, {compared} compared with an indistinguishable one",
            states.len()
        );
        assert!(compared > 0);
    }
}
