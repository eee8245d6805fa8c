//! Chance (R-SET-3): the events a dealt game opens with, and external-chance mode, where the deal,
//! each reveal and each token drawn come from the caller.

use super::Game;
use crate::command::ChanceOutcome;
use crate::components::{AssetKind, Industry, Nation, TileId, TokenId};
use crate::error::CommandError;
use crate::event::{Event, EventSink, Events};
use crate::phase::{Chance, Phase};
use crate::rules::Rules;
use crate::seat::{Seat, MAX_SEATS};
use crate::setup::{deal_tokens, Setup};
use crate::setup_error::SetupError;

impl Game {
    /// A game in external-chance mode (R-SET-3): the deal, each reveal and each token drawn are
    /// supplied by the caller with [`Command::Chance`](crate::Command::Chance) when [`Game::phase`] asks for them.
    /// `nations` are the seats' nations (`None`: the default, R-SET-1).
    pub fn external_chance(rules: Rules, nations: Option<&[Nation]>) -> Result<Game, SetupError> {
        let n = rules.players() as usize;
        let default_setup = Setup::seeded(&rules, 0);
        let nations_list: &[Nation] = match nations {
            Some(list) => list,
            None => &Nation::ALL[..n],
        };
        // Validate the nations through the explicit set-up path.
        let mut setup = Setup::new(
            &rules,
            Some(nations_list),
            &deal_tokens(rules.players())[..n],
            default_setup.deck(),
            [
                default_setup.pile(AssetKind::Gold),
                default_setup.pile(AssetKind::Oil),
                default_setup.pile(AssetKind::Crypto),
            ],
        )?;
        setup.deal = [Industry::AGR; MAX_SEATS];
        Ok(Game::blank(rules, setup, true))
    }

    /// The events a new game has already produced: each seat's deal and the first reveal (empty in
    /// external-chance mode, where these come from chance commands).
    pub fn opening_events(&self) -> Events {
        let mut ev = Events::default();
        if !self.external {
            self.deal_events(&mut ev);
            ev.push(self.reveal_event(0));
        }
        ev
    }

    fn deal_events(&self, sink: &mut impl EventSink) {
        for s in 0..self.rules.players() {
            sink.event(Event::Dealt {
                seat: Seat(s),
                industry: Some(self.setup.deal[s as usize]),
            });
        }
    }

    pub(super) fn reveal_event(&self, turn: u8) -> Event {
        Event::TileRevealed {
            turn,
            tile: self.setup.deck[turn as usize],
            auctioneer: self.rules.auctioneer(turn),
        }
    }

    /// The possible outcomes of the pending chance event, each equally likely (R-SET-3); empty when
    /// none is pending.
    pub fn chance_outcomes(&self) -> alloc::vec::Vec<ChanceOutcome> {
        let mut out = alloc::vec::Vec::new();
        match self.phase {
            Phase::Chance {
                chance: Chance::Deal,
            } => {
                let tokens = deal_tokens(self.players());
                let mut perm = [Industry::AGR; MAX_SEATS];
                permutations(tokens, &mut perm, 0, 0, &mut |p| {
                    out.extend(ChanceOutcome::deal(&p[..tokens.len()]));
                });
            }
            Phase::Chance {
                chance: Chance::Reveal,
            } => {
                for tile in self.rules.manifest().tiles_in_play(self.players()).iter() {
                    if self.revealed & (1 << tile.index()) == 0 {
                        out.push(ChanceOutcome::Reveal(tile));
                    }
                }
            }
            Phase::Chance {
                chance: Chance::Draw(k),
            } => {
                let drawn = &self.setup.pile(k)[..self.drawn[k.index()] as usize];
                for token in self.rules.manifest().tokens_in_play(self.players()) {
                    if token.kind() == k && !drawn.contains(&token) {
                        out.push(ChanceOutcome::Draw(token));
                    }
                }
            }
            _ => {}
        }
        out
    }

    pub(super) fn chance(
        &mut self,
        outcome: ChanceOutcome,
        sink: &mut impl EventSink,
    ) -> Result<(), CommandError> {
        match (self.phase, outcome) {
            (
                Phase::Chance {
                    chance: Chance::Deal,
                },
                ChanceOutcome::Deal(_),
            ) => {
                let tokens = deal_tokens(self.players());
                let dealt = outcome.dealt(self.players()).unwrap_or_default();
                let n = dealt.len();
                let ok = tokens.iter().all(|t| dealt.contains(t))
                    && (0..n).all(|i| !dealt[..i].contains(&dealt[i]));
                if !ok {
                    return Err(CommandError::InvalidChance {
                        reason: "a deal is a permutation of the dealt industry tokens",
                    });
                }
                self.setup.deal[..n].copy_from_slice(dealt);
                self.dealt = true;
                self.phase = Phase::Chance {
                    chance: Chance::Reveal,
                };
                self.deal_events(sink);
                Ok(())
            }
            (
                Phase::Chance {
                    chance: Chance::Reveal,
                },
                ChanceOutcome::Reveal(tile),
            ) => {
                let in_play = self.rules.manifest().tiles_in_play(self.players());
                if !in_play.contains(tile) || self.revealed & (1 << tile.index()) != 0 {
                    return Err(CommandError::InvalidChance {
                        reason: "the tile is not in the deck",
                    });
                }
                self.revealed |= 1 << tile.index();
                self.place_revealed(tile);
                self.start_turn();
                sink.event(self.reveal_event(self.turn));
                Ok(())
            }
            (
                Phase::Chance {
                    chance: Chance::Draw(k),
                },
                ChanceOutcome::Draw(token),
            ) => {
                let possible = token.kind() == k
                    && self
                        .rules
                        .manifest()
                        .tokens_in_play(self.players())
                        .any(|t| t == token)
                    && !self.setup.pile(k)[..self.drawn[k.index()] as usize].contains(&token);
                if !possible {
                    return Err(CommandError::InvalidChance {
                        reason: "the token is not in that pile",
                    });
                }
                self.place_drawn(k, token);
                self.finish_draw(k, token, sink);
                Ok(())
            }
            // An outcome of another kind than the one pending: say which one is.
            _ => Err(CommandError::InvalidChance {
                reason: match self.phase {
                    Phase::Chance {
                        chance: Chance::Deal,
                    } => "the chance event pending is the deal",
                    Phase::Chance {
                        chance: Chance::Reveal,
                    } => "the chance event pending is a tile reveal",
                    Phase::Chance {
                        chance: Chance::Draw(_),
                    } => "the chance event pending is a token draw",
                    _ => "no chance event is pending",
                },
            }),
        }
    }

    /// Keeps the set-up's deck consistent in external-chance mode: the revealed tile moves to the
    /// current position (the rest keep their relative order).
    fn place_revealed(&mut self, tile: TileId) {
        let t = self.turn as usize;
        let deck = &mut self.setup.deck[..self.setup.deck_len as usize];
        if let Some(p) = deck.iter().position(|&x| x == tile) {
            deck[t..=p].rotate_right(1);
        }
    }

    /// Like [`Self::place_revealed`], for the pile being drawn from.
    fn place_drawn(&mut self, kind: AssetKind, token: TokenId) {
        let k = kind.index();
        let start: usize = self.setup.pile_len[..k].iter().map(|&l| l as usize).sum();
        let len = self.setup.pile_len[k] as usize;
        let d = self.drawn[k] as usize;
        let pile = &mut self.setup.piles[start..start + len];
        if let Some(p) = pile.iter().position(|&x| x == token) {
            pile[d..=p].rotate_right(1);
        }
    }
}

/// Visits every permutation of `items` (Heap-free simple recursion; at most 5! = 120).
fn permutations(
    items: &[Industry],
    perm: &mut [Industry; MAX_SEATS],
    used: u8,
    depth: usize,
    visit: &mut impl FnMut(&[Industry; MAX_SEATS]),
) {
    if depth == items.len() {
        visit(perm);
        return;
    }
    for (i, &item) in items.iter().enumerate() {
        if used & (1 << i) == 0 {
            perm[depth] = item;
            permutations(items, perm, used | (1 << i), depth + 1, visit);
        }
    }
}
