//! `qe rules`: the rules summary and the manifest in use.

use std::fmt::Write as _;

use clap::Args;
use qe_core::{AssetKind, Industry, Manifest, Nation, Rules, TileId};

use crate::{manifest, Common, Failure};

/// `qe rules`.
#[derive(Args, Debug)]
pub struct RulesArgs {
    /// Print only the manifest in use, as JSON (the shape --manifest reads)
    #[arg(long)]
    pub json: bool,
}

/// The rules in brief, with the rule IDs of RULES.md.
const SUMMARY: &str = "\
QE (Quantitative Easing): a sealed-bid auction game for 3 to 5 players.

Set-up (R-SET, R-CMP)
  Each seat has a nation (US EU CN JP, and UK with 5 players) and a secret industry token
  (AGR HOU FIN MAN, and GOV with 5 players; with 3 players one token is set aside unseen).
  16 company tiles are auctioned with 3-4 players, 15 with 5 (R-CMP-5, R-TRN-1).

Each turn (R-AUC)
  The top tile is revealed (R-AUC-1). The auctioneer (seat turn mod n, R-TRN-2) opens publicly
  with a bid of at least 1 (R-AUC-2). Every other seat bids secretly: any whole number >= 0 except
  the opening bid (R-AUC-3, R-AUC-4: up to 2^64-1). The highest bid wins and pays (R-AUC-5);
  tied top bidders rebid (R-AUC-6); on the third tie in a row the highest bid held by exactly one
  seat wins (R-AUC-7). The price stays secret except to the winner and the auctioneer (R-VIS-2/3),
  or to all if the auctioneer won (R-VIS-4). With 4-5 players the seats that bid 0 are revealed and
  score 2 VP once per round (R-AUC-11). With 3 players the last tile has no auctioneer and a tie
  discards it (R-AUC-9). With 5 players each seat may once peek at an awarded price (R-VIS-5).

Game end (R-SCO)
  Total spent = sum of prices (R-SCO-1). The biggest spender(s) are eliminated (R-SCO-2); the
  least spender(s) score 7 VP (6 with 5 players, R-SCO-3). Score: tile VP (R-SCO-4), zero-bid VP
  (R-SCO-5), nationalization for tiles of your nation (R-SCO-6), monopolization per industry
  counting your token (R-SCO-7), diversification for sets of 3+ different industries (R-SCO-8).
  Highest total among the survivors wins; ties go to the lower spender (R-SCO-11).

Commodities expansion (R-COM)
  Gold, oil and crypto piles. The second-highest bidder takes the top token of a pile of its
  choice at its bid (R-COM-3..5); the auctioneer records that price as a credit (R-COM-6); with
  no taker the auctioneer discards a token (R-COM-7). Spent = prices + asset prices - credits
  (R-COM-8). Tokens score their value; gold loses 3 each if its pile runs out; the most oil
  shares 5 VP (R-COM-9). Zero bids score nothing (R-COM-2).";

fn table_line(name: &str, rules: &Rules, table: &qe_core::Table, from: usize) -> String {
    let entries: Vec<String> = table
        .entries()
        .iter()
        .enumerate()
        .skip(from)
        .map(|(n, v)| format!("{n}→{v}"))
        .collect();
    format!(
        "  {name:<16} {} players: {}",
        if rules.players() == 5 { "5" } else { "3-4" },
        entries.join(" ")
    )
}

/// The manifest and the scoring tables, as text.
pub fn manifest_text(manifest: &Manifest, source: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Manifest in use: {source}");
    let _ = write!(out, "  tile VP     ");
    for i in Industry::ALL {
        let _ = write!(out, "{:>5}", i.name());
    }
    out.push('\n');
    for n in Nation::ALL {
        let _ = write!(out, "  {:<12}", n.name());
        for i in Industry::ALL {
            match TileId::of(*n, *i) {
                Some(t) => {
                    let _ = write!(out, "{:>5}", manifest.tile_value(t));
                }
                None => out.push_str("    -"),
            }
        }
        out.push('\n');
    }
    for k in AssetKind::ALL {
        let values: Vec<String> = manifest
            .token_values(*k)
            .iter()
            .map(ToString::to_string)
            .collect();
        let _ = writeln!(out, "  {:<12}{}", k.name(), values.join(" "));
    }
    let _ = writeln!(out, "Scoring tables (count→VP):");
    for players in [4, 5] {
        if let Ok(r) = manifest::rules(players, qe_core::Expansions::NONE, *manifest) {
            let _ = writeln!(
                out,
                "{}",
                table_line("nationalization", &r, &r.nationalization, 1)
            );
            let _ = writeln!(
                out,
                "{}",
                table_line("monopolization", &r, &r.monopolization, 2)
            );
            let _ = writeln!(
                out,
                "{}",
                table_line("diversification", &r, &r.diversification, 3)
            );
        }
    }
    out
}

/// Runs `qe rules`.
pub fn run(common: &Common, args: &RulesArgs) -> Result<(), Failure> {
    let loaded = manifest::load(common)?;
    let (manifest, source) = match (&loaded, &common.manifest) {
        (Some(l), Some(path)) => (l.manifest, format!("{}", path.display())),
        _ => (
            Manifest::default(),
            "the reconstructed default (R-CMP-4, R-CMP-7); load printed values with --manifest FILE"
                .to_owned(),
        ),
    };
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&manifest::to_json(&manifest)).expect("JSON")
        );
        return Ok(());
    }
    println!("{SUMMARY}\n");
    print!(
        "{}",
        crate::layout::fit(&manifest_text(&manifest, &source), crate::layout::width())
    );
    Ok(())
}
