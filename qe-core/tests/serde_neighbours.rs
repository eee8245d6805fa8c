//! qe-core's `serde` feature leaves serde_json as it finds it for the rest of a program: no
//! program-wide serde_json feature (such as `arbitrary_precision`, which Cargo would turn on for
//! every crate of the build) is needed for exact bids and totals.

use qe_core::{Command, Match, Record, Rules, Seat};

/// A user's own JSON type, unrelated to qe: an internally tagged enum with a float. Under
/// serde_json's `arbitrary_precision` its numbers would arrive as maps and this would fail.
#[derive(Debug, PartialEq, serde::Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Shape {
    Circle { radius: f64 },
    Square { side: f64 },
}

#[test]
fn a_users_tagged_enum_with_a_float_still_parses() {
    let s: Shape = serde_json::from_str(r#"{"type": "circle", "radius": 1.5}"#).unwrap();
    assert_eq!(s, Shape::Circle { radius: 1.5 });
    let s: Vec<Shape> = serde_json::from_str(r#"[{"type": "square", "side": 2}]"#).unwrap();
    assert_eq!(s, [Shape::Square { side: 2.0 }]);
}

#[test]
fn bids_up_to_2_pow_64_minus_1_and_totals_past_it_stay_exact() {
    let mut m = Match::seeded(Rules::base(4).unwrap(), 11);
    // Seat 1 wins turn 0 at 2^64−1 and its own auction of turn 1 at its opening bid 1: its total
    // spent is past any 64-bit number.
    for turn in 0..2u8 {
        let a = turn % 4;
        m.apply(Command::Bid {
            seat: Seat(a),
            amount: 1,
        })
        .unwrap();
        for s in (0..4).filter(|&s| s != a) {
            let amount = if s == 1 { u64::MAX } else { 0 };
            m.apply(Command::Bid {
                seat: Seat(s),
                amount,
            })
            .unwrap();
        }
    }
    let json = m.record().unwrap().to_json();
    assert!(json.contains("18446744073709551615"));
    let back = Record::from_json(&json).unwrap().replay().unwrap();
    assert_eq!(back.game(), m.game());
    let spent = i128::from(u64::MAX) + 1;
    assert_eq!(m.game().spent(Seat(1)), spent);
    let view = serde_json::to_string(&m.game().view(Seat(1))).unwrap();
    assert!(view.contains(&spent.to_string()), "{view}");
    let text = r#"{"seat": 1, "bid": 18446744073709551616}"#;
    let e = Command::from_json(text).unwrap_err();
    assert_eq!(e.rule(), "R-AUC-4");
    assert!(e.to_string().contains("18446744073709551616"), "{e}");
}

/// `Command` is serde-serializable in its record form, inside any structure of the caller's.
#[test]
fn commands_serialize_in_the_record_form_inside_a_users_types() {
    use qe_core::{AssetKind, Command, Seat};
    #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
    struct Turn {
        player: String,
        command: Command,
    }
    for command in [
        Command::Bid {
            seat: Seat(1),
            amount: u64::MAX,
        },
        Command::TakeAsset {
            seat: Seat(2),
            kind: AssetKind::Oil,
        },
        Command::Peek {
            seat: Seat(4),
            turn: 3,
        },
    ] {
        let turn = Turn {
            player: "ada".into(),
            command,
        };
        let text = serde_json::to_string(&turn).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let record_form: serde_json::Value = serde_json::from_str(&command.to_json()).unwrap();
        assert_eq!(value["command"], record_form, "{text}");
        assert_eq!(serde_json::from_str::<Turn>(&text).unwrap(), turn);
    }
    let bad = serde_json::from_str::<Turn>(r#"{"player":"x","command":{"seat":1,"bid":-3}}"#);
    assert!(bad.unwrap_err().to_string().contains("R-AUC-4"));
}
