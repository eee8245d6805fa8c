//! One decision's search: its sampled worlds, its budget and deadline, and the playouts that value
//! a choice in a world.

use alloc::vec::Vec;

use super::candidates::Choice;
use super::clock::Deadline;
use super::mix::Mix;
use super::rivals::shift;
use super::world::{Knowledge, World};
use super::SearchStats;
use crate::bots::nearest_legal;
use crate::command::Command;
use crate::game::Game;
use crate::seat::{PerSeat, MAX_SEATS};
use crate::setup::mix_seed;

/// What sampling a world costs, in simulated commands, at the start of turn `turn`: sampling
/// replays every finished auction, so a world costs more as the game goes on (fitted to the
/// decision times on one core: a playout command about 0.16 µs, a world about 0.8 µs per finished
/// turn plus a fixed part).
pub(super) fn world_cost(turn: u8) -> u64 {
    20 + 5 * u64::from(turn)
}

/// One decision's search state.
pub(super) struct Search<'k, 'r> {
    pub(super) know: &'k Knowledge<'k>,
    pub(super) rng: &'r mut Mix,
    pub(super) provisional: u64,
    pub(super) worlds: Vec<World>,
    pub(super) stats: &'r mut SearchStats,
    pub(super) deadline: Option<Deadline>,
    pub(super) playouts_per_world: u8,
    /// Per other seat, how much its modelled search bid differed from its `value` bid in the
    /// worlds where its search was run
    /// ([`SearchConfig::rival_search`](super::SearchConfig::rival_search)); applied to every world.
    pub(super) shifts: PerSeat<Vec<i64>>,
}

impl Search<'_, '_> {
    /// World `i`, sampled on first use; `None` if draws keep failing.
    pub(super) fn world(&mut self, i: usize) -> Option<&World> {
        while self.worlds.len() <= i {
            let mut tries = 0;
            loop {
                if let Ok(mut w) = self.know.sample(self.rng, self.provisional) {
                    let i = self.worlds.len();
                    shift(&mut w, &self.shifts, i);
                    self.worlds.push(w);
                    self.stats.worlds += 1;
                    break;
                }
                self.stats.rejected += 1;
                tries += 1;
                if tries >= 8 {
                    return None;
                }
            }
        }
        self.worlds.get(i)
    }

    /// Whether a timed decision must stop now (and record that it did).
    pub(super) fn out_of_time(&mut self) -> bool {
        let passed = self.deadline.as_mut().is_some_and(Deadline::passed);
        self.stats.timed_out |= passed;
        passed
    }

    /// The simulated commands one playout costs from here, and the cost of a world.
    pub(super) fn costs(&self) -> (f64, u64) {
        let view = self.know.view;
        let left = u64::from(view.turns.saturating_sub(view.turn));
        let per_playout = (left * (u64::from(view.players) + 1)).max(4) as f64;
        (per_playout, world_cost(view.turn))
    }

    /// The mean outcome of `choice` over the playouts of world `i` (one per
    /// `playouts_per_world`, each with its own model noise, the same for every choice).
    pub(super) fn value(&mut self, i: usize, choice: Choice) -> f64 {
        let pending = self.worlds[i].pending;
        self.shares(i, choice, &pending)[self.know.me.index()]
    }

    /// Every seat's mean outcome when the searching seat plays `choice` in world `i` and the
    /// other seats of this bidding step bid `pending` (their amounts made legal), over the
    /// world's playouts (as [`Search::value`]).
    pub(super) fn shares(
        &mut self,
        i: usize,
        choice: Choice,
        pending: &PerSeat<Option<u64>>,
    ) -> [f64; MAX_SEATS] {
        let world = &self.worlds[i];
        let n = self.playouts_per_world;
        if n <= 1 {
            return playout(self.know, world, choice, pending, self.stats);
        }
        let mut sum = [0.0; MAX_SEATS];
        for j in 0..n {
            let mut w = *world;
            if j > 0 {
                w.sim = w.sim.reseeded(mix_seed(i as u64 ^ (u64::from(j) << 32)));
            }
            let one = playout(self.know, &w, choice, pending, self.stats);
            for (s, x) in sum.iter_mut().zip(one) {
                *s += x;
            }
        }
        sum.map(|s| s / f64::from(n))
    }
}

/// Plays `choice` out in `world`: the choice, the other seats' `pending` bids, then the model for
/// every seat to the end. Each seat's outcome: 1 for a win (shared wins split), else 0; the
/// searching seat's is -1 if its choice is illegal.
fn playout(
    know: &Knowledge,
    world: &World,
    choice: Choice,
    pending: &PerSeat<Option<u64>>,
    stats: &mut SearchStats,
) -> [f64; MAX_SEATS] {
    let me = know.me;
    let mut g: Game = world.game;
    let mut sim = world.sim;
    let mut shares = [0.0; MAX_SEATS];
    if g.apply_to(choice.command(me), &mut sim).is_err() {
        shares[me.index()] = -1.0;
        return shares;
    }
    for (seat, pending) in pending.seats() {
        if let (Some(v), Some(range)) = (pending, g.bid_range(seat)) {
            let _ = g.apply_to(
                Command::Bid {
                    seat,
                    amount: nearest_legal(&range, *v),
                },
                &mut sim,
            );
        }
    }
    let mut steps = 0u64;
    'game: while !g.is_over() && steps < 4_000 {
        // A bidding step's seats and their common range, read once for the step
        // (`Game::bidders`); the model bids for each in seat order.
        if let Some((seats, range)) = g.bidders() {
            for seat in seats.iter() {
                let command = sim.decide_bid(&g, seat, range);
                if g.apply_to(command, &mut sim).is_err() {
                    break 'game;
                }
                steps += 1;
                if steps >= 4_000 {
                    break 'game;
                }
            }
            continue;
        }
        let Some(seat) = g.to_act().first() else {
            break;
        };
        let command = sim.decide(&g, seat);
        if g.apply_to(command, &mut sim).is_err() {
            break;
        }
        steps += 1;
    }
    stats.playouts += 1;
    stats.commands += steps;
    if let Some(outcome) = g.outcome() {
        let k = outcome.winners().count().max(1) as f64;
        for s in outcome.winners() {
            shares[s.index()] = 1.0 / k;
        }
    }
    shares
}
