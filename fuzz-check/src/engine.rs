//! The `engine` target: arbitrary rules + set-up + command stream applied to `qe-core`.
//!
//! Checked:
//! - nothing panics (rules and set-up validation included: a bad one is a clear [`qe_core::SetupError`]);
//! - after every accepted command the state is coherent ([`check_state`]): exactly one phase, and
//!   `to_act`, `legal`, `bid_range`, `chance_outcomes`, `is_over` and `outcome` agree with it; the
//!   seats to act are valid seats with actions they must take; the totals agree (the seats' spent
//!   add up to the prices paid plus the asset prices minus the auctioneers' credits, R-SCO-1,
//!   R-COM-8; the outcome's spent is the game's); each view shows its own seat's total and hides the
//!   others' until the end; the outcome's sums, eliminated and winners agree (R-SCO-2, R-SCO-9,
//!   R-SCO-10, R-SCO-11);
//! - every rejected command leaves the game unchanged (R-AUC-12) and names a rule;
//! - after every accepted command, an [`qe_core::encoding::Observer`] kept along the game writes
//!   exactly the floats of `observe_seat` for every seat;
//! - no leak (R-VIS-8): a twin game that differs from the played one only in what one seat may not
//!   see (others' industry tokens, the unrevealed deck, the tokens it did not draw, others' secret
//!   bid amounts in auctions it does not run, shifted order-preservingly) gives that seat the same
//!   view after every command and the same event stream.
//!
//! [`check`] runs all of it after every command; the fuzz targets split and sample it ([`Plan`]):
//! [`fuzz`] (`engine`) the state and observer checks after a sample of the commands, [`fuzz_leak`]
//! (`leak`) the twin game's views after the same sample, its event stream, and the match's record
//! (it round-trips through JSON and replays to the same game). Both make every per-command check.
//!
//! The input format (any byte string is an input; missing bytes read as 0) is described in
//! `fuzz/README.md`; [`encode`] writes it.

use qe_core::{
    deal_tokens, nations_in_play, AssetKind, Chance, ChanceOutcome, Command, Event, Expansion,
    Expansions, Game, Industry, Manifest, Match, Nation, Phase, Record, Rules, RulesBuilder, Seat,
    SeatSet, Setup, Table, TileId, TokenId, MAX_TOKENS,
};

use crate::{Bytes, Rng};

/// The most commands one input applies.
pub const MAX_COMMANDS: usize = 1200;

/// How the set-up is made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupInput {
    /// [`Setup::seeded`].
    Seeded(u64),
    /// [`Setup::new`] from valid lists, permuted by a seed; `nations` permutes the nations too.
    Shuffled {
        /// The permutation seed.
        seed: u64,
        /// Whether to give nations (a permutation of the nations in play) or the default.
        nations: bool,
    },
    /// [`Setup::new`] from raw lists of indices (often invalid: a set-up error is expected then).
    Raw {
        /// Nation indices (`None`: default).
        nations: Option<Vec<u8>>,
        /// Industry indices.
        industries: Vec<u8>,
        /// Tile indices.
        deck: Vec<u8>,
        /// Token numbers per pile (gold, oil, crypto).
        piles: [Vec<u8>; 3],
    },
    /// [`Game::external_chance`]; `nations` permutes the nations by a seed.
    External {
        /// A permutation seed for the nations, or the default nations.
        nations: Option<u64>,
    },
}

/// A custom rule set for [`RulesBuilder`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CustomRules {
    /// Raw tile values (`raw`), or shaped into a valid manifest (`!raw`).
    pub tiles: Option<(bool, [u8; 21])>,
    /// Raw token value lists, or a shaped split and values.
    pub tokens: Option<TokensInput>,
    /// Table entries.
    pub tables: [Option<Vec<u8>>; 3],
    /// The least-spent bonus.
    pub least_spent_bonus: Option<u8>,
    /// The VP of a zero-bid round.
    pub zero_bid_vp: Option<u8>,
    /// Gold crash and oil majority.
    pub bonuses: Option<(u8, u8)>,
}

/// Token values for a custom manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokensInput {
    /// The lists as given.
    Raw([Vec<u8>; 3]),
    /// A split of the 18 tokens and their values, with exactly one crypto token worth 8.
    Shaped {
        /// Gold and oil counts (crypto gets the rest).
        split: (u8, u8),
        /// Values, `% 100`.
        values: [u8; 18],
        /// Which crypto token is worth 8.
        eight: u8,
    },
}

/// A bid amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Amount {
    /// `0..8`.
    Small(u8),
    /// The current opening bid plus a small signed delta.
    NearOpening(i8),
    /// `1000 + x`.
    High(u16),
    /// `u64::MAX - (x % 4)`.
    Huge(u8),
    /// Exactly this.
    Exact(u64),
}

/// One step of the command stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// A legal action (or chance outcome) picked among those available; the amount is made legal.
    Guided {
        /// Picks the seat and the action.
        pick: u8,
        /// The bid amount, if a bid.
        amount: Amount,
    },
    /// A legal peek, if `seat % players` has one.
    GuidedPeek {
        /// The seat.
        seat: u8,
        /// Picks the turn.
        pick: u8,
    },
    /// A command as given (often illegal).
    Raw(RawCommand),
}

/// A command as given: raw seat numbers, any amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RawCommand {
    /// [`Command::Bid`].
    Bid {
        /// Seat.
        seat: u8,
        /// Amount.
        amount: Amount,
    },
    /// [`Command::TakeAsset`].
    Take {
        /// Seat.
        seat: u8,
        /// Pile index `% 3`.
        kind: u8,
    },
    /// [`Command::DiscardAsset`].
    Discard {
        /// Seat.
        seat: u8,
        /// Pile index `% 3`.
        kind: u8,
    },
    /// [`Command::Peek`].
    Peek {
        /// Seat.
        seat: u8,
        /// Turn.
        turn: u8,
    },
    /// [`ChanceOutcome::Deal`], industry indices `% 5`.
    Deal([u8; 5]),
    /// [`ChanceOutcome::Reveal`], tile index `% 21`.
    Reveal(u8),
    /// [`ChanceOutcome::Draw`]: pile index `% 3` and token number.
    Draw {
        /// Pile index.
        kind: u8,
        /// Token number.
        number: u8,
    },
}

/// A decoded input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// The player count as given to [`RulesBuilder::new`].
    pub players: u8,
    /// The expansions in play.
    pub expansions: Expansions,
    /// Custom rules.
    pub custom: Option<CustomRules>,
    /// The set-up.
    pub setup: SetupInput,
    /// The seat whose views the twin game checks (`% players`).
    pub viewer: u8,
    /// How far the twin game moves others' hidden bids up (`shift + 1`).
    pub shift: u32,
    /// Seeds the twin game's permutations of hidden information.
    pub shuffle: u64,
    /// The commands.
    pub ops: Vec<Op>,
}

fn amount(b: &mut Bytes) -> Amount {
    match b.u8() % 5 {
        0 => Amount::Small(b.u8() % 8),
        1 => Amount::NearOpening(b.u8() as i8),
        2 => Amount::High(b.u16()),
        3 => Amount::Huge(b.u8() % 4),
        _ => Amount::Exact(b.u64()),
    }
}

fn put_amount(out: &mut Vec<u8>, a: Amount) {
    match a {
        Amount::Small(x) => out.extend([0, x]),
        Amount::NearOpening(d) => out.extend([1, d as u8]),
        Amount::High(x) => {
            out.push(2);
            out.extend(x.to_le_bytes());
        }
        Amount::Huge(x) => out.extend([3, x]),
        Amount::Exact(x) => {
            out.push(4);
            out.extend(x.to_le_bytes());
        }
    }
}

/// The flag bit of each expansion in an input's flags byte, by [`Expansion::index`]: bit 0 for the
/// first (Commodities), then the bits the other flags leave free.
const EXPANSION_FLAGS: [u8; 4] = [0, 5, 6, 7];

/// The expansions an input's flags byte turns on.
fn expansions_of_flags(flags: u8) -> Expansions {
    Expansion::ALL
        .into_iter()
        .filter(|e| (flags >> EXPANSION_FLAGS[e.index()]) & 1 != 0)
        .collect()
}

/// The flag bits of `expansions` ([`expansions_of_flags`] reads them back).
fn flags_of_expansions(expansions: Expansions) -> u8 {
    expansions
        .iter()
        .fold(0, |f, e| f | (1 << EXPANSION_FLAGS[e.index()]))
}

/// Decodes an input (total: every byte string decodes).
pub fn decode(data: &[u8]) -> Input {
    let mut b = Bytes::new(data);
    let p = b.u8();
    let players = if p & 0x80 != 0 { p & 0x7f } else { 3 + p % 3 };
    let flags = b.u8();
    let expansions = expansions_of_flags(flags);
    let custom = (flags & 2 != 0).then(|| {
        let which = b.u8();
        let mut c = CustomRules::default();
        if which & 1 != 0 {
            c.tiles = Some((b.u8() & 1 != 0, b.array()));
        }
        if which & 2 != 0 {
            c.tokens = Some(if b.u8() & 1 != 0 {
                TokensInput::Raw([b.list(19), b.list(19), b.list(19)])
            } else {
                TokensInput::Shaped {
                    split: (b.u8(), b.u8()),
                    values: b.array(),
                    eight: b.u8(),
                }
            });
        }
        for (i, t) in c.tables.iter_mut().enumerate() {
            if which & (4 << i) != 0 {
                *t = Some(b.list(9));
            }
        }
        if which & 0x20 != 0 {
            c.least_spent_bonus = Some(b.u8());
        }
        if which & 0x40 != 0 {
            c.zero_bid_vp = Some(b.u8());
        }
        if which & 0x80 != 0 {
            c.bonuses = Some((b.u8(), b.u8()));
        }
        c
    });
    let setup = match (flags >> 2) & 3 {
        0 => SetupInput::Seeded(b.u64()),
        1 => SetupInput::Shuffled {
            seed: b.u64(),
            nations: flags & 0x10 != 0,
        },
        2 => SetupInput::Raw {
            nations: (flags & 0x10 != 0).then(|| b.list(6)),
            industries: b.list(6),
            deck: b.list(22),
            piles: [b.list(19), b.list(19), b.list(19)],
        },
        _ => SetupInput::External {
            nations: (flags & 0x10 != 0).then(|| b.u64()),
        },
    };
    let viewer = b.u8();
    let shift = b.u32();
    let shuffle = b.u64();
    let mut ops = Vec::new();
    while !b.is_empty() && ops.len() < MAX_COMMANDS {
        let op = match b.u8() % 16 {
            6 => Op::GuidedPeek {
                seat: b.u8(),
                pick: b.u8(),
            },
            7 => Op::Raw(RawCommand::Bid {
                seat: b.u8(),
                amount: amount(&mut b),
            }),
            8 => Op::Raw(RawCommand::Take {
                seat: b.u8(),
                kind: b.u8(),
            }),
            9 => Op::Raw(RawCommand::Discard {
                seat: b.u8(),
                kind: b.u8(),
            }),
            10 => Op::Raw(RawCommand::Peek {
                seat: b.u8(),
                turn: b.u8(),
            }),
            11 => Op::Raw(RawCommand::Deal(b.array())),
            12 => Op::Raw(RawCommand::Reveal(b.u8())),
            13 => Op::Raw(RawCommand::Draw {
                kind: b.u8(),
                number: b.u8(),
            }),
            _ => Op::Guided {
                pick: b.u8(),
                amount: amount(&mut b),
            },
        };
        ops.push(op);
    }
    Input {
        players,
        expansions,
        custom,
        setup,
        viewer,
        shift,
        shuffle,
        ops,
    }
}

/// Encodes an input ([`decode`] reads it back, up to [`MAX_COMMANDS`] commands).
pub fn encode(input: &Input) -> Vec<u8> {
    let mut out = Vec::new();
    let p = input.players;
    out.push(if (3..=5).contains(&p) {
        p - 3
    } else {
        0x80 | (p & 0x7f)
    });
    let mode: u8 = match input.setup {
        SetupInput::Seeded(_) => 0,
        SetupInput::Shuffled { .. } => 1,
        SetupInput::Raw { .. } => 2,
        SetupInput::External { .. } => 3,
    };
    let nations_flag = match &input.setup {
        SetupInput::Shuffled { nations, .. } => *nations,
        SetupInput::Raw { nations, .. } => nations.is_some(),
        SetupInput::External { nations } => nations.is_some(),
        SetupInput::Seeded(_) => false,
    };
    out.push(
        flags_of_expansions(input.expansions)
            | (u8::from(input.custom.is_some()) << 1)
            | (mode << 2)
            | (u8::from(nations_flag) << 4),
    );
    let list = |out: &mut Vec<u8>, l: &[u8]| {
        out.push(l.len() as u8);
        out.extend(l);
    };
    if let Some(c) = &input.custom {
        let mut which = u8::from(c.tiles.is_some()) | (u8::from(c.tokens.is_some()) << 1);
        for (i, t) in c.tables.iter().enumerate() {
            which |= u8::from(t.is_some()) << (2 + i);
        }
        which |= u8::from(c.least_spent_bonus.is_some()) << 5;
        which |= u8::from(c.zero_bid_vp.is_some()) << 6;
        which |= u8::from(c.bonuses.is_some()) << 7;
        out.push(which);
        if let Some((raw, tiles)) = &c.tiles {
            out.push(u8::from(*raw));
            out.extend(tiles);
        }
        match &c.tokens {
            Some(TokensInput::Raw(lists)) => {
                out.push(1);
                for l in lists {
                    list(&mut out, l);
                }
            }
            Some(TokensInput::Shaped {
                split,
                values,
                eight,
            }) => {
                out.extend([0, split.0, split.1]);
                out.extend(values);
                out.push(*eight);
            }
            None => {}
        }
        for t in c.tables.iter().flatten() {
            list(&mut out, t);
        }
        out.extend(c.least_spent_bonus);
        out.extend(c.zero_bid_vp);
        if let Some((g, o)) = c.bonuses {
            out.extend([g, o]);
        }
    }
    match &input.setup {
        SetupInput::Seeded(seed) | SetupInput::Shuffled { seed, .. } => {
            out.extend(seed.to_le_bytes());
        }
        SetupInput::Raw {
            nations,
            industries,
            deck,
            piles,
        } => {
            if let Some(n) = nations {
                list(&mut out, n);
            }
            list(&mut out, industries);
            list(&mut out, deck);
            for p in piles {
                list(&mut out, p);
            }
        }
        SetupInput::External { nations } => {
            if let Some(seed) = nations {
                out.extend(seed.to_le_bytes());
            }
        }
    }
    out.push(input.viewer);
    out.extend(input.shift.to_le_bytes());
    out.extend(input.shuffle.to_le_bytes());
    for op in &input.ops {
        match *op {
            Op::Guided { pick, amount } => {
                out.extend([0, pick]);
                put_amount(&mut out, amount);
            }
            Op::GuidedPeek { seat, pick } => out.extend([6, seat, pick]),
            Op::Raw(RawCommand::Bid { seat, amount }) => {
                out.extend([7, seat]);
                put_amount(&mut out, amount);
            }
            Op::Raw(RawCommand::Take { seat, kind }) => out.extend([8, seat, kind]),
            Op::Raw(RawCommand::Discard { seat, kind }) => out.extend([9, seat, kind]),
            Op::Raw(RawCommand::Peek { seat, turn }) => out.extend([10, seat, turn]),
            Op::Raw(RawCommand::Deal(d)) => {
                out.push(11);
                out.extend(d);
            }
            Op::Raw(RawCommand::Reveal(t)) => out.extend([12, t]),
            Op::Raw(RawCommand::Draw { kind, number }) => out.extend([13, kind, number]),
        }
    }
    out
}

/// The engine input that replays a record: its rules, its exact set-up and its commands, raw.
pub fn input_of_record(record: &Record, viewer: u8, shuffle: u64) -> Input {
    let custom = record.manifest.map(|m| CustomRules {
        tiles: Some((true, m.tile_values())),
        tokens: Some(TokensInput::Raw(core::array::from_fn(|k| {
            m.token_values(AssetKind::ALL[k]).to_vec()
        }))),
        ..CustomRules::default()
    });
    let ops = record
        .commands
        .iter()
        .filter_map(|c| c.as_ref().ok())
        .map(|c| {
            Op::Raw(match *c {
                Command::Bid { seat, amount } => RawCommand::Bid {
                    seat: seat.0,
                    amount: Amount::Exact(amount),
                },
                Command::TakeAsset { seat, kind } => RawCommand::Take {
                    seat: seat.0,
                    kind: kind.index() as u8,
                },
                Command::DiscardAsset { seat, kind } => RawCommand::Discard {
                    seat: seat.0,
                    kind: kind.index() as u8,
                },
                Command::Peek { seat, turn } => RawCommand::Peek { seat: seat.0, turn },
                _ => RawCommand::Reveal(0),
            })
        })
        .collect();
    Input {
        players: record.players,
        expansions: record.expansions,
        custom,
        setup: SetupInput::Raw {
            nations: record
                .nations
                .as_ref()
                .map(|n| n.iter().map(|x| x.index() as u8).collect()),
            industries: record
                .industry_tokens
                .iter()
                .map(|x| x.index() as u8)
                .collect(),
            deck: record.deck.iter().map(|t| t.index() as u8).collect(),
            piles: core::array::from_fn(|k| record.piles[k].iter().map(|t| t.number()).collect()),
        },
        viewer,
        shift: 4999,
        shuffle,
        ops,
    }
}

// ----- building rules and set-ups ----------------------------------------------------------------

fn manifest(c: &CustomRules) -> Result<Option<Manifest>, qe_core::SetupError> {
    if c.tiles.is_none() && c.tokens.is_none() {
        return Ok(None);
    }
    let default = Manifest::default();
    let tiles = match c.tiles {
        None => default.tile_values(),
        Some((true, raw)) => raw,
        // Keep the default's 1-valued tiles (so that 5 players keep 15 tiles), others 2..=99.
        Some((false, v)) => {
            let d = default.tile_values();
            core::array::from_fn(|i| if d[i] == 1 { 1 } else { 2 + v[i] % 98 })
        }
    };
    let lists: [Vec<u8>; 3] = match &c.tokens {
        None => core::array::from_fn(|k| default.token_values(AssetKind::ALL[k]).to_vec()),
        Some(TokensInput::Raw(lists)) => lists.clone(),
        Some(TokensInput::Shaped {
            split,
            values,
            eight,
        }) => {
            let g = split.0 as usize % (MAX_TOKENS + 1);
            let o = split.1 as usize % (MAX_TOKENS + 1 - g);
            let mut v: Vec<u8> = values.iter().map(|x| x % 100).collect();
            let mut crypto = v.split_off(g + o);
            let oil = v.split_off(g);
            for x in &mut crypto {
                if *x == 8 {
                    *x = 9;
                }
            }
            if !crypto.is_empty() {
                let i = *eight as usize % crypto.len();
                crypto[i] = 8;
            }
            [v, oil, crypto]
        }
    };
    Manifest::new(tiles, [&lists[0], &lists[1], &lists[2]]).map(Some)
}

/// Builds the rules an input asks for.
pub fn rules(input: &Input) -> Result<Rules, qe_core::SetupError> {
    let mut b = RulesBuilder::new(input.players).expansions(input.expansions);
    if let Some(c) = &input.custom {
        if let Some(m) = manifest(c)? {
            b = b.manifest(m);
        }
        let names = ["nationalization", "monopolization", "diversification"];
        for (i, entries) in c.tables.iter().enumerate() {
            if let Some(entries) = entries {
                let t = Table::new(names[i], entries)?;
                b = match i {
                    0 => b.nationalization(t),
                    1 => b.monopolization(t),
                    _ => b.diversification(t),
                };
            }
        }
        if let Some(v) = c.least_spent_bonus {
            b = b.least_spent_bonus(v);
        }
        if let Some(v) = c.zero_bid_vp {
            b = b.zero_bid_vp(v);
        }
        if let Some((g, o)) = c.bonuses {
            b = b.commodity_bonuses(g, o);
        }
    }
    b.build()
}

fn tokens_of_kind(rules: &Rules, kind: AssetKind) -> Vec<TokenId> {
    rules
        .manifest()
        .tokens_in_play(rules.players())
        .filter(|t| t.kind() == kind)
        .collect()
}

/// Builds the set-up (or `None` in external-chance mode).
fn setup(rules: &Rules, input: &SetupInput) -> Result<Option<Setup>, qe_core::SetupError> {
    let n = rules.players() as usize;
    let piles = |lists: &[Vec<TokenId>; 3]| -> [Vec<TokenId>; 3] { lists.clone() };
    match input {
        SetupInput::Seeded(seed) => Ok(Some(Setup::seeded(rules, *seed))),
        SetupInput::Shuffled { seed, nations } => {
            let mut rng = Rng(*seed);
            let mut ns = nations_in_play(rules.players()).to_vec();
            rng.shuffle(&mut ns);
            let mut inds = deal_tokens(rules.players()).to_vec();
            rng.shuffle(&mut inds);
            let mut deck: Vec<TileId> = rules
                .manifest()
                .tiles_in_play(rules.players())
                .iter()
                .collect();
            rng.shuffle(&mut deck);
            let mut lists: [Vec<TokenId>; 3] = Default::default();
            if rules.has_commodities() {
                for k in AssetKind::ALL {
                    let mut l = tokens_of_kind(rules, *k);
                    rng.shuffle(&mut l);
                    lists[k.index()] = l;
                }
            }
            let lists = piles(&lists);
            Setup::new(
                rules,
                nations.then_some(&ns[..n]),
                &inds[..n],
                &deck,
                [&lists[0], &lists[1], &lists[2]],
            )
            .map(Some)
        }
        SetupInput::Raw {
            nations,
            industries,
            deck,
            piles,
        } => {
            let ns: Option<Vec<Nation>> = nations.as_ref().map(|l| {
                l.iter()
                    .map(|&x| Nation::ALL[x as usize % Nation::ALL.len()])
                    .collect()
            });
            let inds: Vec<Industry> = industries
                .iter()
                .map(|&x| Industry::ALL[x as usize % Industry::ALL.len()])
                .collect();
            let deck: Vec<TileId> = deck
                .iter()
                .map(|&x| TileId::ALL[x as usize % TileId::COUNT])
                .collect();
            let lists: [Vec<TokenId>; 3] = core::array::from_fn(|k| {
                piles[k]
                    .iter()
                    .map(|&x| TokenId::new(AssetKind::ALL[k], x))
                    .collect()
            });
            Setup::new(
                rules,
                ns.as_deref(),
                &inds,
                &deck,
                [&lists[0], &lists[1], &lists[2]],
            )
            .map(Some)
        }
        SetupInput::External { .. } => Ok(None),
    }
}

pub fn external_nations(rules: &Rules, input: &SetupInput) -> Option<Vec<Nation>> {
    match input {
        SetupInput::External {
            nations: Some(seed),
        } => {
            let mut ns = nations_in_play(rules.players()).to_vec();
            Rng(*seed).shuffle(&mut ns);
            ns.truncate(rules.players() as usize);
            Some(ns)
        }
        _ => None,
    }
}

// ----- commands ----------------------------------------------------------------------------------

fn resolve(game: &Game, a: Amount) -> u64 {
    match a {
        Amount::Small(x) => u64::from(x % 8),
        Amount::NearOpening(d) => {
            let v = game.public_view();
            let opening = v
                .auctions()
                .get(game.turn() as usize)
                .and_then(|x| x.opening)
                .unwrap_or(1);
            opening.saturating_add_signed(i64::from(d))
        }
        Amount::High(x) => 1000 + u64::from(x),
        Amount::Huge(x) => u64::MAX - u64::from(x % 4),
        Amount::Exact(x) => x,
    }
}

/// The command an op stands for in this state, if any.
pub fn command(game: &Game, op: Op) -> Option<Command> {
    let n = game.players();
    match op {
        Op::Guided { pick, amount } => {
            if let Phase::Chance { .. } = game.phase() {
                let outcomes = game.chance_outcomes();
                return (!outcomes.is_empty())
                    .then(|| Command::Chance(outcomes[pick as usize % outcomes.len()]));
            }
            let to_act = game.to_act();
            if to_act.is_empty() {
                return None;
            }
            let seat = to_act.iter().nth(pick as usize % to_act.len())?;
            let legal = game.legal(seat);
            if let Some(range) = legal.bid {
                let mut x = resolve(game, amount).max(range.min);
                if Some(x) == range.forbidden {
                    x = x.checked_add(1).unwrap_or(x - 1);
                }
                return Some(Command::Bid { seat, amount: x });
            }
            let piles: Vec<AssetKind> = legal.take.iter().chain(legal.discard.iter()).collect();
            if piles.is_empty() {
                return None;
            }
            let kind = piles[(pick as usize / 8) % piles.len()];
            Some(if legal.take.is_empty() {
                Command::DiscardAsset { seat, kind }
            } else {
                Command::TakeAsset { seat, kind }
            })
        }
        Op::GuidedPeek { seat, pick } => {
            let seat = Seat(seat % n);
            let peek = game.legal(seat).peek;
            if peek == 0 {
                return None;
            }
            let turns: Vec<u8> = (0..16u8).filter(|t| peek & (1 << t) != 0).collect();
            Some(Command::Peek {
                seat,
                turn: turns[pick as usize % turns.len()],
            })
        }
        Op::Raw(raw) => Some(match raw {
            RawCommand::Bid { seat, amount } => Command::Bid {
                seat: Seat(seat),
                amount: resolve(game, amount),
            },
            RawCommand::Take { seat, kind } => Command::TakeAsset {
                seat: Seat(seat),
                kind: AssetKind::ALL[kind as usize % 3],
            },
            RawCommand::Discard { seat, kind } => Command::DiscardAsset {
                seat: Seat(seat),
                kind: AssetKind::ALL[kind as usize % 3],
            },
            RawCommand::Peek { seat, turn } => Command::Peek {
                seat: Seat(seat),
                turn,
            },
            RawCommand::Deal(d) => Command::Chance(ChanceOutcome::Deal(
                d.map(|x| Industry::ALL[x as usize % Industry::ALL.len()]),
            )),
            RawCommand::Reveal(t) => Command::Chance(ChanceOutcome::Reveal(
                TileId::ALL[t as usize % TileId::COUNT],
            )),
            RawCommand::Draw { kind, number } => Command::Chance(ChanceOutcome::Draw(
                TokenId::new(AssetKind::ALL[kind as usize % 3], number),
            )),
        }),
    }
}

// ----- the checks --------------------------------------------------------------------------------

/// Decodes `data` and runs every check of the target after every command ([`Plan::FULL`]): what
/// the regression test and `repro` run.
pub fn check(data: &[u8]) {
    check_input_with(&decode(data), Plan::FULL);
}

/// The `engine` fuzz target: the game played with every per-command check, and the state checks
/// ([`check_state`], the observer) on a sample of the accepted commands ([`Steps::sampled`]) and
/// after the last one. No twin game, no record.
pub fn fuzz(data: &[u8]) {
    let input = decode(data);
    let steps = Steps::sampled(&input);
    check_input_with(
        &input,
        Plan {
            steps,
            state: true,
            record: false,
            twin: false,
        },
    );
}

/// The `leak` fuzz target: the game played with every per-command check, the twin game of the
/// no-leak check (R-VIS-8), whose views are compared on a sample of the accepted commands
/// ([`Steps::sampled`]) and whose event streams are compared whole, and the match's record (it
/// round-trips through JSON and replays to the same game). Same input format as `engine`.
pub fn fuzz_leak(data: &[u8]) {
    let input = decode(data);
    let steps = Steps::sampled(&input);
    check_input_with(
        &input,
        Plan {
            steps,
            state: false,
            record: true,
            twin: true,
        },
    );
}

/// Which of the engine checks run, and after which accepted commands the per-state ones do.
///
/// Always, whatever the plan: nothing panics; a bad rule set or set-up is a clear error; every
/// event of an accepted command is checked; a rejected command leaves the game unchanged, names a
/// rule and was not picked from the legal actions; and the initial state passes [`check_state`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// After which accepted commands the per-state checks run.
    pub steps: Steps,
    /// [`check_state`] and the observer check at the chosen steps and after the last accepted
    /// command.
    pub state: bool,
    /// The match's record round-trips through JSON and replays to the same game.
    pub record: bool,
    /// No leak (R-VIS-8): the twin game's views at the chosen steps, and its event stream.
    pub twin: bool,
}

impl Plan {
    /// Every check after every accepted command.
    pub const FULL: Plan = Plan {
        steps: Steps::Every,
        state: true,
        record: true,
        twin: true,
    };
}

/// After which accepted commands the per-state checks of a [`Plan`] run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Steps {
    /// After every one.
    Every,
    /// After the `len` consecutive commands from `start % accepted` and after `accepted / 2` (a
    /// sample), where `accepted` is the number of accepted commands.
    Window {
        /// Where the window starts (modulo the number of accepted commands).
        start: u64,
        /// How many commands it covers.
        len: usize,
    },
}

/// How many consecutive commands a sampled window covers.
pub const WINDOW: usize = 4;

impl Steps {
    /// The sample the fuzz targets use: a window of [`WINDOW`] commands placed by the input's
    /// twin shuffle seed (so the fuzzer moves it by mutating those bytes).
    pub fn sampled(input: &Input) -> Steps {
        Steps::Window {
            start: input.shuffle.rotate_left(32),
            len: WINDOW,
        }
    }

    /// Whether the checks run after accepted command `i` of `accepted`.
    fn contains(self, i: usize, accepted: usize) -> bool {
        match self {
            Steps::Every => true,
            Steps::Window { start, len } => {
                let start = (start % accepted.max(1) as u64) as usize;
                (start..start + len).contains(&i) || i == accepted / 2 || i + 1 == accepted
            }
        }
    }
}

/// A command the played game accepted, with the state it was applied in.
#[derive(Debug, Clone, Copy)]
struct Applied {
    command: Command,
    turn: u8,
    auctioneer: Option<Seat>,
}

/// Runs every check on a decoded input, after every command ([`Plan::FULL`]).
pub fn check_input(input: &Input) {
    check_input_with(input, Plan::FULL);
}

/// The rules, the set-up (`None` with external chance) and the first state of an input's game.
fn start(input: &Input) -> Result<(Rules, Option<Setup>, Game), qe_core::SetupError> {
    let rules = rules(input)?;
    assert!((3..=5).contains(&rules.players()));
    let setup_a = setup(&rules, &input.setup)?;
    let game = match setup_a {
        Some(s) => Game::new(rules, s).expect("a validated set-up makes a game"),
        None => {
            let ns = external_nations(&rules, &input.setup);
            Game::external_chance(rules, ns.as_deref())?
        }
    };
    Ok((rules, setup_a, game))
}

/// Runs the checks of `plan` on a decoded input.
pub fn check_input_with(input: &Input, plan: Plan) {
    let (rules, setup_a, game) = match start(input) {
        Ok(started) => started,
        Err(e) => return check_setup_error(&e),
    };
    let initial = game;
    check_state(&initial);
    // The match, with the checks every command gets.
    let mut m = Match::new(game);
    let mut applied = Vec::new();
    for &op in &input.ops {
        let Some(c) = command(m.game(), op) else {
            continue;
        };
        let before = *m.game();
        let guided = matches!(op, Op::Guided { .. } | Op::GuidedPeek { .. });
        match m.apply(c) {
            Ok(events) => {
                for e in events.as_slice() {
                    check_event(m.game(), e);
                }
                applied.push(Applied {
                    command: c,
                    turn: before.turn(),
                    auctioneer: before.auctioneer(),
                });
            }
            Err(e) => check_rejected(&before, m.game(), c, &e, guided),
        }
    }
    // The states after the accepted commands, replayed (`Game::apply` is deterministic): the
    // per-state checks at the plan's steps, and the twin game alongside.
    let mut twin = plan
        .twin
        .then(|| Twin::new(input, &rules, setup_a, &initial, m.game(), &applied));
    if plan.state || twin.is_some() {
        let mut observer = plan
            .state
            .then(|| Box::new(qe_core::encoding::Observer::new()));
        let mut replay = initial;
        let accepted = applied.len();
        for (i, x) in applied.iter().enumerate() {
            replay
                .apply(x.command)
                .expect("replay of an accepted command");
            let sampled = plan.steps.contains(i, accepted);
            if let Some(observer) = &mut observer {
                if sampled || i + 1 == accepted {
                    check_state(&replay);
                    check_observer(&replay, observer);
                }
            }
            if let Some(t) = &mut twin {
                t.step(i, x, &replay, sampled);
            }
        }
        assert_eq!(
            &replay,
            m.game(),
            "the replay of the accepted commands differs from the match"
        );
    }
    if plan.record {
        check_record_of(&m);
    }
    if let Some(t) = twin {
        t.finish(&m);
    }
}
/// A rejected command `c` (error `e`) left the game as it was (`before` = `after`), names a rule,
/// and was not picked from the legal actions (`guided`).
fn check_rejected(
    before: &Game,
    after: &Game,
    c: Command,
    e: &qe_core::CommandError,
    guided: bool,
) {
    assert_eq!(
        after, before,
        "a rejected command changed the game: {c:?}: {e}"
    );
    assert!(e.rule().starts_with("R-"), "error without a rule: {e:?}");
    assert!(!e.to_string().is_empty());
    assert!(
        !guided,
        "a command picked from the legal actions was rejected: {c:?}: {e}"
    );
}

/// The observer writes exactly `observe_seat`'s floats, bit for bit, for every seat.
fn check_observer(g: &Game, observer: &mut qe_core::encoding::Observer) {
    use qe_core::encoding::{observe_seat, OBS_SIZE};
    let (mut direct, mut kept) = ([0.0f32; OBS_SIZE], [0.0f32; OBS_SIZE]);
    for s in 0..g.players() {
        observe_seat(g, Seat(s), &mut direct);
        observer.observe(g, Seat(s), &mut kept);
        assert!(
            direct
                .iter()
                .zip(&kept)
                .all(|(a, b)| a.to_bits() == b.to_bits()),
            "the observer differs from observe_seat for seat {s}"
        );
    }
}

fn check_setup_error(e: &qe_core::SetupError) {
    assert!(!e.to_string().is_empty());
    let _ = e.rule();
}

fn check_event(game: &Game, e: &Event) {
    let n = game.players();
    for s in 0..n {
        let v = e.visible_to(Seat(s));
        if e.audience(n).contains(Seat(s)) {
            assert_eq!(&v, e, "an event's audience gets it in full");
        }
    }
    let _ = e.public(n);
}

/// The invariants of any reachable state.
pub fn check_state(g: &Game) {
    let n = g.players();
    let all = SeatSet::all(n);
    let phase = g.phase();
    let to_act = g.to_act();
    assert_eq!(
        to_act.bits() & !all.bits(),
        0,
        "to_act holds a seat out of range"
    );
    assert_eq!(g.is_over(), phase == Phase::GameOver);
    assert_eq!(g.outcome().is_some(), g.is_over());
    assert!(g.turn() <= g.rules().turns());
    assert_eq!(g.is_over(), g.turn() == g.rules().turns());
    let outcomes = g.chance_outcomes();
    match phase {
        Phase::Chance { chance } => {
            assert!(g.is_external_chance());
            assert!(to_act.is_empty());
            assert!(!outcomes.is_empty(), "a chance node without outcomes");
            if let Chance::Draw(k) = chance {
                assert!(g.pile_remaining(k) > 0);
                assert_eq!(outcomes.len(), g.pile_remaining(k));
            }
            if chance == Chance::Reveal {
                assert_eq!(outcomes.len(), g.deck_remaining());
            }
        }
        Phase::OpeningBid { auctioneer } => {
            assert_eq!(to_act, SeatSet::only(auctioneer));
            assert_eq!(g.auctioneer(), Some(auctioneer));
        }
        Phase::Bidding => assert!(!to_act.is_empty()),
        Phase::Rebid { tie } | Phase::AssetRebid { tie } => {
            assert!(!to_act.is_empty());
            assert!((1..=2).contains(&tie), "tie {tie}");
        }
        Phase::TakeAsset { seat } => {
            assert_eq!(to_act, SeatSet::only(seat));
            assert!(g.rules().has_commodities());
        }
        Phase::DiscardAsset { seat } => {
            assert_eq!(to_act, SeatSet::only(seat));
            assert_eq!(g.auctioneer(), Some(seat));
            assert!(g.rules().has_commodities());
        }
        Phase::GameOver => assert!(to_act.is_empty()),
        other => panic!("a phase the checks do not know: {other:?}"),
    }
    if !matches!(phase, Phase::Chance { .. }) {
        assert!(outcomes.is_empty());
    }
    if !g.is_over() && !matches!(phase, Phase::Chance { .. }) {
        assert!(g.current_tile().is_some());
    }
    for i in (0..8).chain([u8::MAX]) {
        let s = Seat(i);
        let legal = g.legal(s);
        assert_eq!(g.bid_range(s), legal.bid, "bid_range and legal disagree");
        if i >= n {
            assert_eq!(
                legal,
                qe_core::Legal::default(),
                "a seat out of range may act"
            );
            continue;
        }
        assert_eq!(
            legal.must_act(),
            to_act.contains(s),
            "seat {i}: to_act and legal disagree in {phase:?}"
        );
        if let Some(r) = legal.bid {
            assert!(r.min <= r.max);
            assert!(r.allows(r.min) || r.allows(r.min + 1));
        }
        if g.is_over() {
            assert_eq!(legal.peek, 0);
        }
        if n != 5 {
            assert_eq!(legal.peek, 0, "peeks are for 5 players only");
        }
    }
    let (views, public, spent) = seen_totals(g);
    for s in 0..n {
        let v = &views[s as usize];
        assert_eq!(v.seat, Some(Seat(s)));
        assert_eq!(v.phase, phase);
        assert_eq!(v.to_act, to_act);
        assert_eq!(v.legal, g.legal(Seat(s)));
        assert_eq!(g.holdings(Seat(s)).spent, spent[s as usize]);
    }
    check_totals(&views, &public, &spent, g.is_over());
    let drawn: usize = AssetKind::ALL
        .iter()
        .map(|k| {
            public
                .auctions()
                .iter()
                .filter(|a| a.asset.kind == Some(*k))
                .count()
        })
        .sum();
    let in_play = if g.rules().has_commodities() {
        g.rules().manifest().tokens_in_play(n).count()
    } else {
        0
    };
    let remaining: usize = AssetKind::ALL.iter().map(|k| g.pile_remaining(*k)).sum();
    assert_eq!(
        drawn + remaining,
        in_play,
        "tokens drawn + left ≠ tokens in play"
    );
    if let Some(outcome) = g.outcome() {
        check_outcome(&spent, &outcome);
    }
}

/// What [`check_totals`] takes from a game: every seat's view, the spectator's view, and every
/// seat's total spent.
fn seen_totals(g: &Game) -> (Vec<qe_core::SeatView>, qe_core::SeatView, Vec<i128>) {
    let seats = 0..g.players();
    let views = seats.clone().map(|s| g.view(Seat(s))).collect();
    let spent = seats.map(|s| g.spent(Seat(s))).collect();
    (views, g.public_view(), spent)
}

/// The totals (R-SCO-1, R-COM-8) as the seats' `views` and the spectator's `public` view show
/// them, against each seat's total `spent`: the prices paid add up to the totals (each price is
/// seen by its payer, each credit by the auctioneer who gets it); each seat sees its own total and,
/// before the end (`over`), neither another seat's total nor its industry token; a spectator sees
/// no total before the end; at the end every view shows every total (R-VIS-7).
fn check_totals(
    views: &[qe_core::SeatView],
    public: &qe_core::SeatView,
    spent: &[i128],
    over: bool,
) {
    let mut paid: i128 = 0;
    for t in 0..public.turns_started as usize {
        let a = public.auctions[t];
        if let Some(w) = a.winner {
            assert!(a.awarded);
            let price = views[w.index()].auctions[t].price;
            paid += i128::from(price.expect("the winner sees its price"));
        }
        if a.asset.taken {
            let k = a.asset.seat.expect("a taken asset has a taker");
            let price = views[k.index()].auctions[t]
                .asset
                .price
                .expect("the taker sees its price");
            paid += i128::from(price);
            assert!(views[k.index()].auctions[t].asset.token.is_some());
            if let Some(au) = a.auctioneer {
                if au != k {
                    let credit = views[au.index()].auctions[t].asset.price;
                    assert_eq!(credit, Some(price), "the auctioneer sees its credit");
                    paid -= i128::from(price);
                }
            }
        }
        assert!(!(a.asset.taken && a.asset.discarded));
    }
    for (s, v) in views.iter().enumerate() {
        assert_eq!(
            v.seats[Seat(s as u8)].spent,
            Some(spent[s]),
            "a seat sees its own total"
        );
        for (o, &total) in spent.iter().enumerate() {
            if over {
                // R-VIS-7: every total is revealed at the end.
                assert_eq!(
                    v.seats[Seat(o as u8)].spent,
                    Some(total),
                    "seat {s} sees seat {o}'s total wrong at the end"
                );
            } else if o != s {
                assert_eq!(
                    v.seats[Seat(o as u8)].spent,
                    None,
                    "seat {s} sees seat {o}'s total"
                );
                assert_eq!(
                    v.seats[Seat(o as u8)].industry,
                    None,
                    "seat {s} sees seat {o}'s industry token"
                );
            }
        }
        let shown = if over { Some(spent[s]) } else { None };
        assert_eq!(
            public.seats[Seat(s as u8)].spent,
            shown,
            "a spectator sees seat {s}'s total before the end, or wrong at the end"
        );
    }
    let total: i128 = spent.iter().sum();
    assert_eq!(
        total, paid,
        "the seats' totals do not add up to the prices paid"
    );
}

/// A finished game's outcome, against each seat's total `spent`: its sums (R-SCO-9, R-SCO-10),
/// the eliminated (R-SCO-2) and the winners (R-SCO-11: the survivors with the best finish).
fn check_outcome(spent: &[i128], outcome: &qe_core::Outcome) {
    let n = spent.len();
    assert_eq!(outcome.seats().len(), n);
    let max = outcome.seats().iter().map(|s| s.spent).max().unwrap();
    let best = outcome
        .seats()
        .iter()
        .filter(|s| s.spent != max)
        .map(qe_core::SeatOutcome::finish_key)
        .max();
    for (i, s) in outcome.seats().iter().enumerate() {
        assert_eq!(s.seat as usize, i);
        assert_eq!(s.spent, spent[i], "outcome.spent ≠ game.spent");
        assert_eq!(
            s.total,
            s.subtotal + s.least_spent_bonus,
            "R-SCO-10: seat {i}'s total"
        );
        assert_eq!(
            s.subtotal,
            s.companies
                + s.zero_bids
                + s.nationalization
                + s.monopolization
                + s.diversification
                + s.commodities,
            "R-SCO-9: seat {i}'s subtotal"
        );
        assert_eq!(s.eliminated, s.spent == max, "R-SCO-2: seat {i}");
    }
    for (i, s) in outcome.seats().iter().enumerate() {
        assert_eq!(
            s.winner,
            !s.eliminated && Some(s.finish_key()) == best,
            "R-SCO-11: seat {i} wins or not"
        );
    }
}

/// The match's record replays to the same game, and round-trips through JSON.
fn check_record_of(m: &Match) {
    let Some(record) = m.record() else {
        // No record: before the deal in external-chance mode, or rules a record cannot hold.
        let rules = m.game().rules();
        let mut recordable = RulesBuilder::new(rules.players()).expansions(rules.expansions());
        recordable = recordable.manifest(*rules.manifest());
        assert!(
            (m.game().is_external_chance()
                && m.game().phase()
                    == Phase::Chance {
                        chance: Chance::Deal
                    })
                || recordable.build().ok() != Some(*rules),
            "a match without a record"
        );
        return;
    };
    check_record(&record, m.game());
}

/// `record`, the record of `game`, round-trips through JSON and replays to `game` (with external
/// chance, to the same views wherever no chance event is pending: the replay draws its own).
fn check_record(record: &Record, game: &Game) {
    let json = record.to_json();
    let back =
        Record::from_json(&json).unwrap_or_else(|e| panic!("own record rejected: {e}\n{json}"));
    assert_eq!(&back, record, "the record changed through JSON");
    let replayed = back
        .replay()
        .unwrap_or_else(|e| panic!("own record does not replay: {e}\n{json}"));
    if !game.is_external_chance() {
        assert_eq!(replayed.game(), game, "the record replays to another game");
    } else if !matches!(game.phase(), Phase::Chance { .. }) {
        for s in 0..game.players() {
            assert_eq!(
                replayed.game().view(Seat(s)),
                game.view(Seat(s)),
                "the record replays to another view of seat {s}"
            );
        }
    } else {
        return;
    }
    assert_eq!(
        replayed.game().outcome(),
        game.outcome(),
        "the record replays to another outcome"
    );
}

// ----- no leak (R-VIS-8) -------------------------------------------------------------------------

/// The twin game of the no-leak check: the same public information as the played game, different
/// hidden information for `viewer`, driven by the played game's accepted commands (with the hidden
/// parts mapped); `viewer`'s views and event stream must be the same in both games.
struct Twin {
    /// The seat whose views are compared.
    s: Seat,
    players: u8,
    /// The twin's match.
    b: Match,
    /// How far hidden bids move up.
    d: u64,
    /// Per turn: the highest amount `s` or the auctioneer bid, the highest bid, and whether the
    /// turn's bids stay as they are (`s` runs the auction or peeked at it).
    seen: [u64; 16],
    top: [u64; 16],
    skip: [bool; 16],
    /// The token permutation (kind-preserving, fixing the tokens `s` took).
    pi: Vec<(TokenId, TokenId)>,
    /// Seeds the permutation of dealt industry tokens.
    shuffle: u64,
}

/// The image of `t` under the permutation `pi` (`t` if it does not move).
fn map_token(pi: &[(TokenId, TokenId)], t: TokenId) -> TokenId {
    pi.iter().find(|(x, _)| *x == t).map_or(t, |(_, y)| *y)
}

/// Permutes the industry tokens of every seat but `s` (and the 3-player set-aside one) among
/// themselves.
fn permute_deal(s: Seat, deal: &mut [Industry], rng: &mut Rng) {
    let slots: Vec<usize> = (0..deal.len()).filter(|&i| i != s.index()).collect();
    let mut pool: Vec<Industry> = slots.iter().map(|&i| deal[i]).collect();
    rng.shuffle(&mut pool);
    for (slot, v) in slots.iter().zip(pool) {
        deal[*slot] = v;
    }
}

impl Twin {
    /// Builds the twin of the game that started as `initial` and ended as `end` after `applied`.
    fn new(
        input: &Input,
        rules: &Rules,
        setup_a: Option<Setup>,
        initial: &Game,
        end: &Game,
        applied: &[Applied],
    ) -> Twin {
        let n = rules.players();
        let s = Seat(input.viewer % n);
        let mut rng = Rng(input.shuffle);
        let end_view = end.view(s);

        // Tokens: a kind-preserving permutation fixing the tokens `viewer` took.
        let mine: Vec<TokenId> = end_view
            .auctions()
            .iter()
            .filter(|x| x.asset.taken && x.asset.seat == Some(s))
            .map(|x| x.asset.token.expect("own token is visible"))
            .collect();
        let mut pi: Vec<(TokenId, TokenId)> = Vec::new();
        if rules.has_commodities() {
            for k in AssetKind::ALL {
                let free: Vec<TokenId> = tokens_of_kind(rules, *k)
                    .into_iter()
                    .filter(|t| !mine.contains(t))
                    .collect();
                let mut to = free.clone();
                rng.shuffle(&mut to);
                pi.extend(free.into_iter().zip(to));
            }
        }

        // Bids: in each auction that `viewer` does not run and did not peek at, amounts above
        // every amount `viewer` or the auctioneer bid move up by `shift + 1` (strictly
        // increasing, so every comparison, tie and zero stays the same).
        let d = u64::from(input.shift) + 1;
        let mut seen = [0u64; 16];
        let mut top = [0u64; 16];
        let mut skip = [false; 16];
        for x in applied {
            let t = x.turn as usize;
            match x.command {
                Command::Bid { seat, amount } => {
                    top[t] = top[t].max(amount);
                    if seat == s || Some(seat) == x.auctioneer {
                        seen[t] = seen[t].max(amount);
                    }
                    if x.auctioneer == Some(s) {
                        skip[t] = true;
                    }
                }
                Command::Peek { seat, turn } if seat == s => skip[turn as usize] = true,
                _ => {}
            }
        }
        let game = match setup_a {
            Some(sa) => {
                let mut deal: Vec<Industry> = sa.industries().to_vec();
                deal.extend(sa.set_aside());
                permute_deal(s, &mut deal, &mut rng);
                let revealed = end_view.turns_started as usize;
                let mut deck = sa.deck().to_vec();
                let from = revealed.min(deck.len());
                rng.shuffle(&mut deck[from..]);
                let piles: [Vec<TokenId>; 3] = core::array::from_fn(|k| {
                    sa.pile(AssetKind::ALL[k])
                        .iter()
                        .map(|&t| map_token(&pi, t))
                        .collect()
                });
                let sb = Setup::new(
                    rules,
                    Some(sa.nations()),
                    &deal[..n as usize],
                    &deck,
                    [&piles[0], &piles[1], &piles[2]],
                )
                .unwrap_or_else(|e| panic!("the twin set-up is invalid: {e}"));
                Game::new(*rules, sb).expect("twin game")
            }
            None => {
                let nations: Vec<Nation> = (0..n).map(|i| initial.nation(Seat(i))).collect();
                Game::external_chance(*rules, Some(&nations)).expect("twin game")
            }
        };
        assert_eq!(initial.view(s), game.view(s), "views differ at the start");
        Twin {
            s,
            players: n,
            b: Match::new(game),
            d,
            seen,
            top,
            skip,
            pi,
            shuffle: input.shuffle,
        }
    }

    /// Whether turn `t`'s hidden bids move up.
    fn shifted(&self, t: usize) -> bool {
        !self.skip[t] && self.top[t] > self.seen[t] && self.top[t] <= u64::MAX - self.d
    }

    /// The twin's command for an accepted command of the played game.
    fn command(&self, x: &Applied) -> Command {
        match x.command {
            Command::Bid { seat, amount }
                if self.shifted(x.turn as usize) && amount > self.seen[x.turn as usize] =>
            {
                debug_assert!(seat != self.s);
                Command::Bid {
                    seat,
                    amount: amount + self.d,
                }
            }
            Command::Chance(ChanceOutcome::Draw(t)) => {
                Command::Chance(ChanceOutcome::Draw(map_token(&self.pi, t)))
            }
            Command::Chance(ChanceOutcome::Deal(mut deal)) => {
                let len = deal_tokens(self.players).len();
                permute_deal(self.s, &mut deal[..len], &mut Rng(self.shuffle ^ 0xDEA1));
                Command::Chance(ChanceOutcome::Deal(deal))
            }
            c => c,
        }
    }

    /// Applies the twin of accepted command `i` (`x`), after which the played game is `played`;
    /// compares `viewer`'s views if `compare` (and the game is not over: at the end everything is
    /// revealed, R-VIS-7, and the twins differ by construction).
    fn step(&mut self, i: usize, x: &Applied, played: &Game, compare: bool) {
        let cb = self.command(x);
        self.b
            .apply(cb)
            .unwrap_or_else(|e| panic!("command {i} {cb:?} is illegal in the twin game: {e}"));
        if compare && !played.is_over() {
            assert_eq!(
                played.view(self.s),
                self.b.game().view(self.s),
                "seat {}'s view differs after command {i} {:?} (twin: {cb:?})",
                self.s,
                x.command
            );
        }
    }

    /// Compares the event streams as `viewer` saw them while the game ran.
    fn finish(self, a: &Match) {
        let s = self.s;
        let ea: Vec<Event> = a.events().iter().map(|e| e.visible_to(s)).collect();
        let eb: Vec<Event> = self.b.events().iter().map(|e| e.visible_to(s)).collect();
        assert_eq!(ea, eb, "seat {s}'s event streams differ");
    }
}

// ----- the checks can fail -----------------------------------------------------------------------

#[cfg(test)]
mod checks_can_fail {
    use super::*;
    use std::panic::{catch_unwind, AssertUnwindSafe};

    /// The panic message of `f`, or `None` when it returns normally.
    fn panic_message(f: impl FnOnce()) -> Option<String> {
        let err = catch_unwind(AssertUnwindSafe(f)).err()?;
        Some(
            err.downcast_ref::<String>()
                .cloned()
                .or_else(|| err.downcast_ref::<&str>().map(|s| (*s).to_string()))
                .unwrap_or_default(),
        )
    }

    /// A seed input played as `check_input_with` plays it (without its checks): its twin (built
    /// for the input's viewer), the states after each accepted command, and the match.
    struct Played {
        twin: Twin,
        applied: Vec<Applied>,
        states: Vec<Game>,
        m: Match,
        initial: Game,
    }

    fn play(input: &Input) -> Option<Played> {
        let (rules, setup_a, initial) = start(input).ok()?;
        let mut m = Match::new(initial);
        let mut applied = Vec::new();
        let mut states = Vec::new();
        for &op in &input.ops {
            let Some(c) = command(m.game(), op) else {
                continue;
            };
            let before = *m.game();
            if m.apply(c).is_ok() {
                applied.push(Applied {
                    command: c,
                    turn: before.turn(),
                    auctioneer: before.auctioneer(),
                });
                states.push(*m.game());
            }
        }
        let twin = Twin::new(input, &rules, setup_a, &initial, m.game(), &applied);
        Some(Played {
            twin,
            applied,
            states,
            m,
            initial,
        })
    }

    fn seeds() -> Vec<Input> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/seeds/engine");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        files
            .iter()
            .map(|p| decode(&std::fs::read(p).unwrap()))
            .collect()
    }

    /// Every (seed, seat other than the twin's viewer): the twin built for the viewer, with the
    /// views and event streams then compared for that other seat, whose hidden facts (its own
    /// industry token) the twin may have changed. `run` gets the played seed and returns the
    /// panic message of the check, if any.
    fn any_seed_with_other_viewer(run: impl Fn(Played) -> Option<String>, wanted: &str) -> bool {
        for input in seeds() {
            let Some(p) = play(&input) else { continue };
            for o in 0..p.twin.players {
                if Seat(o) == p.twin.s {
                    continue;
                }
                let Some(mut p) = play(&input) else { continue };
                p.twin.s = Seat(o);
                if run(p).is_some_and(|msg| msg.contains(wanted)) {
                    return true;
                }
            }
        }
        false
    }

    /// The panic message of the twin's checks over a played seed: its views after each accepted
    /// command (`views`), or its event streams and the end of the game.
    fn twin_checks(mut p: Played, views: bool) -> Option<String> {
        panic_message(move || {
            for (i, x) in p.applied.iter().enumerate() {
                p.twin.step(i, x, &p.states[i], views);
            }
            if !views {
                p.twin.finish(&p.m);
            }
        })
    }

    /// R-VIS-8 view check: a twin whose hidden facts differ for the compared seat is reported.
    #[test]
    fn twin_view_check_reports_a_seat_whose_hidden_facts_differ() {
        assert!(any_seed_with_other_viewer(
            |p| twin_checks(p, true),
            "view differs"
        ));
    }

    /// R-VIS-8 event check: the same, on the event streams.
    #[test]
    fn twin_event_check_reports_a_seat_whose_hidden_facts_differ() {
        assert!(any_seed_with_other_viewer(
            |p| twin_checks(p, false),
            "event streams differ"
        ));
    }

    /// The twin really differs in the other seats' industry tokens (else the no-leak check is
    /// vacuous for them): for some seed, another seat's own view differs at the start.
    #[test]
    fn twin_changes_other_seats_industry_tokens() {
        let found = seeds().iter().filter_map(play).any(|p| {
            !p.initial.is_external_chance()
                && (0..p.twin.players)
                    .map(Seat)
                    .any(|o| o != p.twin.s && p.initial.view(o) != p.twin.b.game().view(o))
        });
        assert!(found, "no twin changes another seat's industry token");
    }

    /// A rejected command that changed the game, a rejected legal command, or an error without
    /// a rule, is reported.
    #[test]
    fn rejected_command_checks_can_fail() {
        let input = seeds()
            .into_iter()
            .find(|i| play(i).is_some_and(|p| !p.applied.is_empty()))
            .unwrap();
        let p = play(&input).unwrap();
        let bad = Command::Bid {
            seat: Seat(7),
            amount: 1,
        };
        let mut g = p.initial;
        let e = g.apply(bad).expect_err("seat 7 cannot bid");
        check_rejected(&p.initial, &p.initial, bad, &e, false);
        let msg = panic_message(|| check_rejected(&p.initial, &p.states[0], bad, &e, false));
        assert!(msg.is_some_and(|m| m.contains("changed the game")));
        let msg = panic_message(|| check_rejected(&p.initial, &p.initial, bad, &e, true));
        assert!(msg.is_some_and(|m| m.contains("picked from the legal actions")));
        let ruleless = qe_core::CommandError::Malformed {
            reason: "no rule".into(),
            rule: "none",
        };
        let msg = panic_message(|| check_rejected(&p.initial, &p.initial, bad, &ruleless, false));
        assert!(msg.is_some_and(|m| m.contains("error without a rule")));
    }

    /// A 4-player base game, played by bidding the least legal amount: `turns` auctions, or to the
    /// end; the match keeps its record.
    fn least_bids(turns: u8) -> Match {
        let mut m = Match::new(Game::seeded(Rules::base(4).unwrap(), 11));
        while !m.game().is_over() && m.game().turn() < turns {
            let seat = m.game().to_act().first().unwrap();
            let range = m.game().bid_range(seat).unwrap();
            let amount = if range.allows(range.min) {
                range.min
            } else {
                range.min + 1
            };
            m.play(Command::Bid { seat, amount }).unwrap();
        }
        m
    }

    /// R-SCO-1 and the totals' visibility (R-VIS-1, R-VIS-7): a total or an industry token seen
    /// too early, an own total hidden, a spectator's total, a wrong sum, a hidden price, and a
    /// total hidden or wrong at the end are each reported.
    #[test]
    fn totals_check_can_fail() {
        let m = least_bids(4);
        let g = m.game();
        assert!(!g.is_over() && g.public_view().auctions[0].winner.is_some());
        let (views, public, spent) = seen_totals(g);
        check_totals(&views, &public, &spent, false);
        let fails = |views: &[qe_core::SeatView], public: &qe_core::SeatView, spent: &[i128]| {
            panic_message(|| check_totals(views, public, spent, false)).unwrap_or_default()
        };
        let mut v = views.clone();
        v[0].seats[Seat(1)].spent = Some(spent[1]);
        assert!(fails(&v, &public, &spent).contains("seat 0 sees seat 1's total"));
        let mut v = views.clone();
        v[0].seats[Seat(1)].industry = views[1].seats[Seat(1)].industry;
        assert!(fails(&v, &public, &spent).contains("seat 0 sees seat 1's industry token"));
        let mut v = views.clone();
        v[2].seats[Seat(2)].spent = None;
        assert!(fails(&v, &public, &spent).contains("sees its own total"));
        let mut p = public;
        p.seats[Seat(3)].spent = Some(spent[3]);
        assert!(fails(&views, &p, &spent).contains("a spectator sees seat 3's total"));
        let mut wrong = spent.clone();
        wrong[0] += 1;
        let mut v = views.clone();
        v[0].seats[Seat(0)].spent = Some(wrong[0]);
        assert!(fails(&v, &public, &wrong).contains("do not add up"));
        let w = public.auctions[0].winner.unwrap().index();
        let mut v = views.clone();
        v[w].auctions[0].price = None;
        assert!(fails(&v, &public, &spent).contains("the winner sees its price"));
        // At the end every total is shown (R-VIS-7), and shown right.
        let end = least_bids(u8::MAX);
        let g = end.game();
        let (views, public, spent) = seen_totals(g);
        check_totals(&views, &public, &spent, true);
        let at_end = |views: &[qe_core::SeatView], public: &qe_core::SeatView| {
            panic_message(|| check_totals(views, public, &spent, true)).unwrap_or_default()
        };
        let mut v = views.clone();
        v[0].seats[Seat(1)].spent = Some(spent[1] + 1);
        assert!(at_end(&v, &public).contains("seat 0 sees seat 1's total wrong at the end"));
        let mut v = views.clone();
        v[3].seats[Seat(2)].spent = None;
        assert!(at_end(&v, &public).contains("seat 3 sees seat 2's total wrong at the end"));
        let mut p = public;
        p.seats[Seat(2)].spent = None;
        assert!(at_end(&views, &p).contains("a spectator sees seat 2's total"));
    }

    /// A 4-player base game played to the end by random bots (seat `s` seeded `8 * seed + s`).
    fn random_bots(seed: u64) -> Match {
        let mut m = Match::new(Game::seeded(Rules::base(4).unwrap(), seed));
        let mut bots: Vec<_> = (0..4)
            .map(|s| qe_core::bots::by_name("random", 8 * seed + s).unwrap())
            .collect();
        while !m.game().is_over() {
            let seat = m.game().to_act().first().unwrap();
            let c = bots[seat.index()].act(&m.game().view(seat)).unwrap();
            m.play(c).unwrap();
        }
        m
    }

    /// The outcome's sums (R-SCO-9, R-SCO-10), eliminated (R-SCO-2) and winners (R-SCO-11): each
    /// changed field is reported, and so is a total spent other than the game's. Two games: one
    /// where every seat is eliminated, and one where two survivors tie on total and the one that
    /// spent less wins.
    #[test]
    fn outcome_check_can_fail() {
        let tied = random_bots(15);
        let o = tied.game().outcome().unwrap();
        let survivors: Vec<_> = o.seats().iter().filter(|s| !s.eliminated).collect();
        let best = survivors.iter().map(|s| s.total).max().unwrap();
        let top: Vec<_> = survivors.iter().filter(|s| s.total == best).collect();
        assert!(
            top.len() == 2 && top[0].spent != top[1].spent && o.winners().count() == 1,
            "the game no longer ends in a tie on total: {o:?}"
        );
        for m in [least_bids(u8::MAX), tied] {
            let g = m.game();
            let (_, _, spent) = seen_totals(g);
            let outcome = g.outcome().unwrap();
            check_outcome(&spent, &outcome);
            let changed =
                |field: &str, seat: usize, f: &dyn Fn(&serde_json::Value) -> serde_json::Value| {
                    let mut json = serde_json::to_value(outcome).unwrap();
                    let v = &mut json["seats"][seat][field];
                    *v = f(v);
                    let faulty: qe_core::Outcome = serde_json::from_value(json).unwrap();
                    panic_message(|| check_outcome(&spent, &faulty)).unwrap_or_default()
                };
            let plus_one = |v: &serde_json::Value| (v.as_u64().unwrap() + 1).into();
            let not = |v: &serde_json::Value| (!v.as_bool().unwrap()).into();
            let mut wrong = spent.clone();
            wrong[2] += 1;
            let msg = panic_message(|| check_outcome(&wrong, &outcome));
            assert!(msg.is_some_and(|m| m.contains("outcome.spent")));
            for seat in 0..4 {
                assert!(changed("total", seat, &plus_one).contains("R-SCO-10"));
                assert!(changed("companies", seat, &plus_one).contains("R-SCO-9"));
                assert!(changed("eliminated", seat, &not).contains("R-SCO-2"));
                assert!(changed("winner", seat, &not).contains("R-SCO-11"));
            }
        }
    }

    /// A record that replays to another game is reported. (A record that changes through JSON
    /// cannot be made from outside qe-core: that comparison has no test here.)
    #[test]
    fn record_check_can_fail() {
        let m = least_bids(3);
        let record = m.record().unwrap();
        check_record(&record, m.game());
        let later = least_bids(4);
        let msg = panic_message(|| check_record(&record, later.game()));
        assert!(msg.is_some_and(|m| m.contains("replays to another game")));
    }
}
