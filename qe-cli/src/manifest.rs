//! `--manifest FILE`: printed tile and token values (R-CMP-4, R-CMP-7), in the JSON shape of a
//! record's `manifest` field (`RECORD.md`).

use clap::Args;
use qe_core::{Expansion, Expansions, Manifest, Rules, RulesBuilder, SetupError};
use serde_json::{json, Value};

use crate::{Common, Failure};

/// A loaded manifest: the validated values.
pub struct Loaded {
    /// The validated manifest (it stands in for records that have no manifest of their own).
    pub manifest: Manifest,
}

/// The message of a set-up error, without a doubled "bad record:" prefix.
pub fn setup_message(e: &SetupError) -> String {
    match e {
        SetupError::Record(m) => m.clone(),
        other => format!("{other} ({})", other.rule()),
    }
}

/// Validates a manifest given as JSON text with qe-core's record reader ([`Manifest::from_json`]),
/// so it is checked exactly as a record's `manifest` field is.
pub fn parse(json: &str) -> Result<Manifest, String> {
    Manifest::from_json(json).map_err(|e| setup_message(&e))
}

/// Loads `--manifest FILE`, if given.
pub fn load(common: &Common) -> Result<Option<Loaded>, Failure> {
    let Some(path) = &common.manifest else {
        return Ok(None);
    };
    let text = crate::input::read_text(path, "manifest")?;
    let manifest =
        parse(&text).map_err(|e| Failure::BadInput(format!("manifest {}: {e}", path.display())))?;
    Ok(Some(Loaded { manifest }))
}

/// The expansions of a new game: `--expansion NAME` (repeatable), or `--commodities`.
#[derive(Args, Debug, Clone, Default)]
pub struct ExpansionArgs {
    /// Play with an expansion (repeatable): commodities
    #[arg(long = "expansion", value_name = "NAME", value_parser = parse_expansion)]
    pub expansion: Vec<Expansion>,
    /// Play with the Commodities expansion (same as --expansion commodities)
    #[arg(long)]
    pub commodities: bool,
}

impl ExpansionArgs {
    /// The set chosen; an expansion given twice with `--expansion` is a usage error, as a
    /// record's `expansions` listing one twice is a bad record (the core's one check).
    pub fn set(&self) -> Result<Expansions, Failure> {
        let set = Expansions::from_names(self.expansion.iter().map(|e| e.name()))
            .map_err(|e| Failure::Usage(format!("--expansion: {e}")))?;
        Ok(set.set(
            Expansion::Commodities,
            self.commodities || set.contains(Expansion::Commodities),
        ))
    }
}

/// The expansions for a title line: ` · Commodities` per expansion, or `empty` for the base game.
pub fn title(set: Expansions, empty: &str) -> String {
    titled(set, " · ", empty)
}

/// The expansions' names capitalized, each after `sep` (`, Commodities`), or `empty` for the base
/// game.
pub fn titled(set: Expansions, sep: &str, empty: &str) -> String {
    if set.is_empty() {
        return empty.to_string();
    }
    let mut out = String::new();
    for name in set.names() {
        let mut c = name.chars();
        let first = c.next().map_or(' ', |f| f.to_ascii_uppercase());
        out.push_str(sep);
        out.push(first);
        out.push_str(c.as_str());
    }
    out
}

fn parse_expansion(name: &str) -> Result<Expansion, String> {
    // As records and the other bindings name them: lower case, exactly.
    let set = Expansions::from_names([name]).map_err(|e| e.to_string())?;
    Ok(set.iter().next().expect("one name read"))
}

/// The rules for a game of `players` seats with these expansions and the manifest in use.
pub fn rules(players: u8, expansions: Expansions, manifest: Manifest) -> Result<Rules, Failure> {
    RulesBuilder::new(players)
        .expansions(expansions)
        .manifest(manifest)
        .build()
        .map_err(|e| Failure::BadInput(setup_message(&e)))
}

/// The manifest as JSON, in the shape of a record's `manifest` field.
pub fn to_json(manifest: &Manifest) -> Value {
    let tiles: serde_json::Map<String, Value> = qe_core::TileId::ALL
        .iter()
        .map(|t| (t.to_string(), json!(manifest.tile_value(*t))))
        .collect();
    let tokens: serde_json::Map<String, Value> = manifest
        .tokens()
        .map(|t| (t.to_string(), json!(manifest.token_value(t).unwrap_or(0))))
        .collect();
    json!({ "tiles": tiles, "tokens": tokens })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_manifest_round_trips() {
        let m = Manifest::default();
        assert_eq!(parse(&to_json(&m).to_string()), Ok(m));
    }

    #[test]
    fn a_custom_manifest_is_read_and_a_bad_one_rejected() {
        let mut j = to_json(&Manifest::default());
        j["tiles"]["US-MAN"] = json!(3); // still leaves 15 tiles for 5 players (R-CMP-5)
        let m = parse(&j.to_string()).unwrap();
        assert_eq!(m.tile_value("US-MAN".parse().unwrap()), 3);
        j["tiles"]["US-MAN"] = json!(100); // R-CMP-4: 0 to 99
        assert!(parse(&j.to_string()).unwrap_err().contains("US-MAN"));
        j["tiles"]["US-MAN"] = json!(1); // five 1-VP tiles: the 5-player removals leave 14
        assert!(parse(&j.to_string()).is_err());
        assert!(parse(r#"{"tiles": 3}"#).is_err());
        assert!(parse(r#"{"tiles": {}, "tiles": {}}"#)
            .unwrap_err()
            .contains("duplicate key `tiles`"));
    }
}
