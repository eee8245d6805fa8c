//! Rival search ([`SearchConfig::rival_search`], `search:hard`): the other seats' sealed bids
//! modelled by a small search from each one's view of a few sampled worlds.

use alloc::vec::Vec;

use super::decision::Search;
use super::world::World;
use super::{Level, SearchBot, SearchConfig};
use crate::bots::nearest_legal;
use crate::command::Command;
use crate::seat::PerSeat;

impl Search<'_, '_> {
    /// Runs a small search (`budget` simulated commands) for each other seat that has a sealed
    /// bid pending, from its own view of each of the first `worlds` sampled worlds (a view of a
    /// world built from this seat's knowledge only), records how far its bid is from the
    /// `value` bot's there, and moves every world's modelled bids by those differences.
    pub(super) fn model_rivals(&mut self, budget: u32, worlds: u8) {
        let me = self.know.me;
        let rules = self.know.rules;
        let inner = SearchConfig {
            budget: u64::from(budget),
            candidates: 5,
            probe_worlds: 8,
            ..Level::Easy.config()
        };
        let k = usize::from(worlds.max(1)).min(self.worlds.len());
        for i in 0..k {
            let w = self.worlds[i];
            for (s, pending) in w.pending.seats() {
                let Some(v) = *pending else { continue };
                if s == me {
                    continue;
                }
                let view = w.game.view(s);
                if view.legal.bid.is_none() {
                    continue;
                }
                let mut bot = SearchBot::with_config(inner, self.rng.next(), *rules.manifest());
                if let Some(Command::Bid { amount, .. }) = bot.decide_with(&view, &[]) {
                    self.shifts[s].push(signed(amount).saturating_sub(signed(v)));
                }
                let stats = bot.last_stats();
                self.stats.commands += stats.commands;
                self.stats.playouts += stats.playouts;
            }
        }
        for (i, w) in self.worlds.iter_mut().enumerate() {
            shift(w, &self.shifts, i);
        }
    }
}

/// A money amount as a signed number (saturating).
fn signed(x: u64) -> i64 {
    i64::try_from(x).unwrap_or(i64::MAX)
}

/// World `i`'s modelled sealed bids moved by the other seats' search differences (`shifts`,
/// taken in turn), within what each seat may bid.
pub(super) fn shift(w: &mut World, shifts: &PerSeat<Vec<i64>>, i: usize) {
    for (s, d) in shifts.seats() {
        if d.is_empty() {
            continue;
        }
        if let (Some(v), Some(range)) = (w.pending[s], w.game.bid_range(s)) {
            let moved = signed(v).saturating_add(d[i % d.len()]).max(0) as u64;
            let moved = nearest_legal(&range, moved);
            w.pending[s] = Some(moved);
            w.standing[s] = Some(moved);
        }
    }
}
