//! Twin games for the no-leak tests (R-VIS-8): a game, and a copy that differs only in what one
//! seat may not see. The construction is the one of `properties.rs`'s `no_leaks`: the others'
//! industry tokens (and, with 3 players, the one set aside) permuted among themselves, the
//! unrevealed deck and every pile shuffled (the tokens the seat drew stay in place), and the
//! others' high secret bids moved up, order kept, in auctions the seat neither runs, nor peeks
//! at, nor bids 1000 or more in.

#![allow(dead_code)]

use qe_core::{AssetKind, Command, Game, Industry, Match, Phase, Rules, Seat, Setup, TokenId};

/// A small deterministic generator (splitmix64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let z = qe_core::mix_seed(self.0);
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

pub fn rules_of(players: u8, commodities: bool) -> Rules {
    if commodities {
        Rules::commodities(players).unwrap()
    } else {
        Rules::base(players).unwrap()
    }
}

pub fn fisher_yates<T>(items: &mut [T], rng: &mut Rng) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

/// A random legal command of `seat` (which must act), as `properties.rs` plays: small bids (ties
/// and zeros are frequent) and, unless `secret_seat` is the bidder or runs the auction, "high"
/// bids in 1000..2000 now and then.
pub fn random_command_of(game: &Game, seat: Seat, rng: &mut Rng, secret_seat: Seat) -> Command {
    let legal = game.legal(seat);
    if let Some(range) = legal.bid {
        let opening = matches!(game.phase(), Phase::OpeningBid { .. });
        let high = !opening && seat != secret_seat && game.auctioneer() != Some(secret_seat);
        let mut amount = if high && rng.below(3) == 0 {
            1000 + rng.below(1000)
        } else if rng.below(40) == 0 {
            u64::MAX - rng.below(2)
        } else {
            rng.below(6)
        };
        amount = amount.max(range.min);
        if Some(amount) == range.forbidden {
            amount = if amount == u64::MAX {
                amount - 1
            } else {
                amount + 1
            };
        }
        return Command::Bid { seat, amount };
    }
    let piles: Vec<AssetKind> = legal.take.iter().chain(legal.discard.iter()).collect();
    let kind = piles[rng.below(piles.len() as u64) as usize];
    if legal.take.is_empty() {
        Command::DiscardAsset { seat, kind }
    } else {
        Command::TakeAsset { seat, kind }
    }
}

/// The set-up of game `a`'s twin for seat `s` (see the module docs), from `shuffle`.
pub fn twin_setup(a: &Match, rules: Rules, seed: u64, s: Seat, shuffle: u64) -> Setup {
    let ga = *a.game();
    let setup_a = Setup::seeded(&rules, seed);
    let mut shuffler = Rng(shuffle);
    // Others' industry tokens (with 3 players, the set-aside one too) permuted among themselves.
    let mut tokens: Vec<Industry> = setup_a.industries().to_vec();
    let mut pool: Vec<Industry> = tokens
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != s.index())
        .map(|(_, t)| *t)
        .collect();
    if let Some(aside) = setup_a.set_aside() {
        pool.push(aside);
    }
    fisher_yates(&mut pool, &mut shuffler);
    let mut next = pool.into_iter();
    for (i, t) in tokens.iter_mut().enumerate() {
        if i != s.index() {
            *t = next.next().unwrap();
        }
    }
    // The deck: revealed tiles stay, the rest is shuffled.
    let revealed = ga.view(s).turns_started as usize;
    let mut deck = setup_a.deck().to_vec();
    fisher_yates(&mut deck[revealed..], &mut shuffler);
    // Piles: tokens drawn by `s` stay in place; all other positions are shuffled.
    let mine: Vec<TokenId> = ga
        .view(s)
        .auctions()
        .iter()
        .filter(|x| x.asset.seat == Some(s) && x.asset.taken)
        .filter_map(|x| x.asset.token)
        .collect();
    let mut piles: [Vec<TokenId>; 3] = Default::default();
    for k in AssetKind::ALL {
        let pile = setup_a.pile(*k).to_vec();
        let free: Vec<usize> = (0..pile.len())
            .filter(|&i| !mine.contains(&pile[i]))
            .collect();
        let mut values: Vec<TokenId> = free.iter().map(|&i| pile[i]).collect();
        fisher_yates(&mut values, &mut shuffler);
        let mut out = pile.clone();
        for (slot, v) in free.iter().zip(values) {
            out[*slot] = v;
        }
        piles[k.index()] = out;
    }
    Setup::new(
        &rules,
        Some(setup_a.nations()),
        &tokens,
        &deck,
        [&piles[0], &piles[1], &piles[2]],
    )
    .unwrap()
}

/// Game `a`'s commands as its twin for seat `s` plays them: the others' high secret bids (1000 up
/// to 2^64−3) moved up by 5000 in auctions `s` does not run, did not peek at and bid below 1000
/// in (so every order among the bids stays, and every amount `s` sees stays).
pub fn twin_commands(a: &Match, rules: Rules, seed: u64, s: Seat) -> Vec<Command> {
    // Per turn: whether `s` bid 1000 or more there; which turn `s` peeked at.
    let mut replay = Match::seeded(rules, seed);
    let mut high_own = [false; 16];
    let mut peeked = None;
    for &c in a.commands() {
        match c {
            Command::Bid { seat, amount } if seat == s && amount >= 1000 => {
                high_own[replay.game().turn() as usize] = true;
            }
            Command::Peek { seat, turn } if seat == s => peeked = Some(turn),
            _ => {}
        }
        replay.apply(c).unwrap();
    }
    let mut replay = Match::seeded(rules, seed);
    let mut out = Vec::new();
    for &c in a.commands() {
        let turn = replay.game().turn();
        let cb = match c {
            Command::Bid { seat, amount }
                if seat != s
                    && replay.game().auctioneer() != Some(s)
                    && !matches!(replay.game().phase(), Phase::OpeningBid { .. })
                    && !high_own[turn as usize]
                    && peeked != Some(turn)
                    && (1000..u64::MAX - 1).contains(&amount) =>
            {
                Command::Bid {
                    seat,
                    amount: amount + 5000,
                }
            }
            other => other,
        };
        replay.apply(c).unwrap();
        out.push(cb);
    }
    out
}
