//! Writes the seed corpora of the fuzz targets from the conformance cases:
//! `fuzz/seeds/record/` gets case files (JSON records) and `fuzz/seeds/engine/` their encoding in the
//! engine target's input format, plus synthetic inputs that play whole games through the guided ops.
//!
//! Run from the repository root: `cargo run -p qe-fuzz-check --example seeds` (or `scripts/fuzz seeds`).

use std::fs;
use std::path::Path;

use qe_core::{Expansion, Expansions, Record};
use qe_fuzz_check::engine::{
    encode, input_of_record, Amount, CustomRules, Input, Op, SetupInput, TokensInput,
};
use qe_fuzz_check::Rng;

/// How many generated conformance cases become record seeds (all named cases do).
const GENERATED_RECORDS: usize = 12;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let seeds = root.join("fuzz/seeds");
    for target in ["engine", "record", "ffi"] {
        let dir = seeds.join(target);
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("create the seed directory");
    }
    let mut records = 0;
    let mut engines = 0;
    for (folder, record_limit) in [("named", usize::MAX), ("generated", GENERATED_RECORDS)] {
        let mut cases: Vec<_> = fs::read_dir(root.join("conformance").join(folder))
            .expect("conformance cases")
            .map(|e| e.expect("entry").path())
            .filter(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                name.ends_with(".json") && !name.ends_with(".expect.json")
            })
            .collect();
        cases.sort();
        for (i, path) in cases.iter().enumerate() {
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            let text = fs::read_to_string(path).expect("read a case");
            if i < record_limit {
                fs::write(
                    seeds.join("record").join(format!("{folder}-{stem}.json")),
                    &text,
                )
                .expect("write a record seed");
                records += 1;
            }
            if let Ok(record) = Record::from_json(&text) {
                let input = input_of_record(&record, i as u8, i as u64);
                fs::write(
                    seeds.join("engine").join(format!("{folder}-{stem}.bin")),
                    encode(&input),
                )
                .expect("write an engine seed");
                engines += 1;
            }
        }
    }
    // Synthetic whole games through the guided ops: every player count, with and without
    // Commodities, each kind of set-up, and a custom rule set.
    let mut rng = Rng(0x5EED);
    for players in 3..=5u8 {
        for commodities in [false, true] {
            let expansions = Expansions::NONE.set(Expansion::Commodities, commodities);
            for mode in 0..4 {
                let setup = match mode {
                    0 => SetupInput::Seeded(rng.next()),
                    1 => SetupInput::Shuffled {
                        seed: rng.next(),
                        nations: true,
                    },
                    2 => SetupInput::External {
                        nations: Some(rng.next()),
                    },
                    _ => SetupInput::Seeded(rng.next()),
                };
                let custom = (mode == 3).then(|| CustomRules {
                    tiles: Some((false, std::array::from_fn(|_| rng.next() as u8))),
                    tokens: Some(TokensInput::Shaped {
                        split: (rng.next() as u8, rng.next() as u8),
                        values: std::array::from_fn(|_| rng.next() as u8),
                        eight: rng.next() as u8,
                    }),
                    tables: [Some(vec![0, 2, 5, 9]), None, Some(vec![0, 0, 0, 7, 11, 20])],
                    least_spent_bonus: Some(5),
                    zero_bid_vp: Some(1),
                    bonuses: Some((2, 4)),
                });
                let ops = (0..400)
                    .map(|_| match rng.below(12) {
                        0 => Op::GuidedPeek {
                            seat: rng.next() as u8,
                            pick: rng.next() as u8,
                        },
                        k => Op::Guided {
                            pick: rng.next() as u8,
                            amount: match k {
                                1 => Amount::High(rng.next() as u16),
                                2 => Amount::Huge(rng.next() as u8),
                                3 => Amount::NearOpening(rng.below(5) as i8 - 2),
                                _ => Amount::Small(rng.below(6) as u8),
                            },
                        },
                    })
                    .collect();
                let input = Input {
                    players,
                    expansions,
                    custom,
                    setup,
                    viewer: rng.next() as u8,
                    shift: rng.next() as u32,
                    shuffle: rng.next(),
                    ops,
                };
                let name = format!(
                    "synthetic-{players}p-{}-{mode}.bin",
                    if commodities { "com" } else { "base" }
                );
                fs::write(seeds.join("engine").join(name), encode(&input)).expect("write a seed");
                engines += 1;
            }
        }
    }
    let ffi = ffi_seeds(&seeds.join("ffi"));
    println!("wrote {records} record, {engines} engine and {ffi} ffi seeds under fuzz/seeds/");
}

/// Call sequences for the `ffi` target (format: `qe_fuzz_check::ffi`, a byte placing the window
/// of deeply checked calls, then the calls): games created, played through
/// legal commands (binary and JSON), queried, cloned, recorded and replayed, freed, with NULL and
/// freed handles mixed in.
fn ffi_seeds(dir: &Path) -> usize {
    let mut rng = Rng(0xFF1);
    let mut count = 0;
    for players in 3..=5u8 {
        for commodities in 0..2u8 {
            // The first byte places the window of deeply checked calls (at call `byte % MAX_CALLS`).
            let mut out = vec![rng.below(64) as u8, 0, players - 3, commodities];
            out.extend(rng.next().to_le_bytes());
            for _ in 0..90 {
                match rng.below(20) {
                    0 => out.extend([
                        10,
                        0,
                        rng.below(10) as u8,
                        rng.next() as u8,
                        rng.next() as u8,
                        rng.next() as u8,
                    ]),
                    1 => out.extend([11, 0, 9]),
                    2 => out.extend([3, 0]),
                    3 => out.extend([
                        2,
                        0,
                        (rng.below(4) * 2) as u8,
                        rng.next() as u8,
                        rng.next() as u8,
                        rng.next() as u8,
                    ]),
                    4 => out.extend([12, rng.next() as u8, rng.next() as u8]),
                    5 => out.extend([13, rng.next() as u8, rng.next() as u8]),
                    6 => out.extend([
                        14,
                        rng.next() as u8,
                        rng.next() as u8,
                        rng.next() as u8,
                        rng.next() as u8,
                    ]),
                    7 => out.extend([
                        5,
                        0,
                        rng.next() as u8,
                        rng.next() as u8,
                        rng.next() as u8,
                        rng.next() as u8,
                        0,
                        0,
                        rng.next() as u8,
                    ]),
                    8 => out.extend([8, 0, rng.next() as u8, 0]),
                    9 => out.extend([4, rng.next() as u8]),
                    10 => {
                        out.extend([0, rng.below(3) as u8, commodities]);
                        out.extend(rng.next().to_le_bytes());
                    }
                    // A run of one to four legal commands.
                    _ => out.extend([
                        6,
                        rng.next() as u8,
                        rng.next() as u8,
                        rng.below(16) as u8,
                        rng.next() as u8,
                    ]),
                }
            }
            fs::write(dir.join(format!("calls-{players}p-{commodities}.bin")), out)
                .expect("write a seed");
            count += 1;
        }
    }
    // Whole games on one handle, then every query (outcomes included) and a replay of the record.
    for (players, commodities) in [(3u8, 1u8), (5, 1), (4, 0)] {
        // 40 runs of eight legal commands (a game has fewer), then the window of deeply checked
        // calls covers the queries after the game (calls 41 to 48).
        let mut out = vec![41, 0, players - 3, commodities];
        out.extend(rng.next().to_le_bytes());
        for _ in 0..40 {
            out.extend([
                6,
                0,
                rng.next() as u8,
                0x1c | rng.below(4) as u8,
                rng.next() as u8,
            ]);
        }
        for sub in 0..10u8 {
            out.extend([
                10,
                0,
                sub,
                rng.next() as u8,
                rng.next() as u8,
                rng.next() as u8,
            ]);
        }
        out.extend([2, 0, 0, 0, 0, 0]);
        fs::write(
            dir.join(format!("whole-game-{players}p-{commodities}.bin")),
            out,
        )
        .expect("write a seed");
        count += 1;
    }
    count
}
