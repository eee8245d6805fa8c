//! Strict JSON reading, shared by records ([`crate::Record::from_json`]) and commands
//! ([`crate::Command::from_json`]): typed and lazy, never a whole-document tree.
//!
//! - An object is read as its members in document order, each value kept as its raw text
//!   ([`serde_json::value::RawValue`]); a key given twice is an error naming it, since another
//!   reader could keep the other value and replay a different game.
//! - Numbers are read from their exact text, so a bid past 2^64−1 is reported as written (R-AUC-4)
//!   and the `serde` feature needs none of serde_json's program-wide number features.
//! - Lists are read element by element with a cap ([`list`]), so an oversized input stops early.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::cell::Cell;
use core::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

/// The members of one JSON object, in document order, values as raw text; no key twice.
pub(crate) struct Members<'a>(pub Vec<(String, &'a RawValue)>);

impl<'a> Members<'a> {
    /// Reads `text` as an object. `Err(None)`: it is valid JSON but not an object; `Err(Some(m))`:
    /// it is not valid JSON, or a key is repeated (`m` says which).
    pub fn parse(text: &'a str) -> Result<Members<'a>, Option<String>> {
        if !text.trim_start().starts_with('{') {
            // Not an object: say whether it is JSON at all.
            return Err(serde_json::from_str::<&RawValue>(text)
                .err()
                .map(|e| e.to_string()));
        }
        let mut de = serde_json::Deserializer::from_str(text);
        let members = de
            .deserialize_map(MembersVisitor)
            .map_err(|e| Some(e.to_string()))?;
        de.end().map_err(|e| Some(e.to_string()))?;
        Ok(members)
    }

    /// [`Members::parse`] of a raw value.
    pub fn of(raw: &'a RawValue) -> Result<Members<'a>, Option<String>> {
        Members::parse(raw.get())
    }

    /// The value of `key`, if present.
    pub fn get(&self, key: &str) -> Option<&'a RawValue> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| *v)
    }

    /// The keys, in document order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(k, _)| k.as_str())
    }

    /// How many members there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }
}

struct MembersVisitor;

impl<'de> Visitor<'de> for MembersVisitor {
    type Value = Members<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut members: Vec<(String, &'de RawValue)> = Vec::new();
        // The keys so far, in a set: an object of many keys is checked in n log n, not n².
        let mut seen: BTreeSet<String> = BTreeSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format!(
                    "duplicate key `{}`",
                    crate::shown::shown(&key)
                )));
            }
            let value: &'de RawValue = map.next_value()?;
            members.push((key, value));
        }
        Ok(Members(members))
    }
}

/// Why a list could not be read.
pub(crate) enum ListError {
    /// Valid JSON, but not a list.
    NotAList,
    /// More than the cap allows.
    TooLong,
    /// Not valid JSON.
    Syntax(String),
}

/// Reads `raw` as a list of at most `cap` values, each kept as raw text; stops at element
/// `cap + 1` without reading further.
pub(crate) fn list(raw: &RawValue, cap: usize) -> Result<Vec<&RawValue>, ListError> {
    /// Reads at most `cap` elements; sets `too_long` and stops at one more.
    struct ListVisitor<'c> {
        cap: usize,
        too_long: &'c Cell<bool>,
    }
    impl<'de> Visitor<'de> for ListVisitor<'_> {
        type Value = Vec<&'de RawValue>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a JSON list")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(v) = seq.next_element::<&'de RawValue>()? {
                if out.len() == self.cap {
                    self.too_long.set(true);
                    return Err(de::Error::custom("too many elements"));
                }
                out.push(v);
            }
            Ok(out)
        }
    }
    if !raw.get().starts_with('[') {
        return Err(ListError::NotAList);
    }
    let too_long = Cell::new(false);
    let mut de = serde_json::Deserializer::from_str(raw.get());
    de.deserialize_seq(ListVisitor {
        cap,
        too_long: &too_long,
    })
    .map_err(|e| {
        if too_long.get() {
            ListError::TooLong
        } else {
            ListError::Syntax(e.to_string())
        }
    })
}

/// The string `raw` holds, if it is a JSON string.
pub(crate) fn string(raw: &RawValue) -> Option<String> {
    if !raw.get().starts_with('"') {
        return None;
    }
    serde_json::from_str(raw.get()).ok()
}

/// What a JSON value is, for a number field.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Whole {
    /// A whole number from 0 to 2^64−1.
    Fits(u64),
    /// A number that is negative, fractional, or past 2^64−1 (its exact text).
    OutOfRange,
    /// Not a number at all.
    NotANumber,
}

/// Reads `raw` as a whole number from 0 to 2^64−1, from its exact text.
pub(crate) fn whole(raw: &RawValue) -> Whole {
    let text = raw.get();
    let Some(first) = text.bytes().next() else {
        return Whole::NotANumber;
    };
    if first != b'-' && !first.is_ascii_digit() {
        return Whole::NotANumber;
    }
    // JSON has validated the number's syntax: digits only means a non-negative integer.
    if text.bytes().all(|b| b.is_ascii_digit()) {
        text.parse().map_or(Whole::OutOfRange, Whole::Fits)
    } else {
        Whole::OutOfRange
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> &RawValue {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn duplicate_keys_are_named() {
        let e = Members::parse(r#"{"seat":3,"seat":0}"#).err().unwrap();
        assert!(e.unwrap().contains("duplicate key `seat`"));
        let m = Members::parse(r#"{"a":1,"b":[1,{"a":2,"a":3}]}"#)
            .ok()
            .unwrap();
        assert_eq!(m.keys().collect::<Vec<_>>(), ["a", "b"]);
        assert!(Members::parse("[1]").err().unwrap().is_none());
        assert!(Members::parse("7").err().unwrap().is_none());
        assert!(Members::parse("{").err().unwrap().is_some());
        assert!(Members::parse("{} x").err().unwrap().is_some());
    }

    #[test]
    fn whole_numbers_from_their_text() {
        assert_eq!(whole(raw("0")), Whole::Fits(0));
        assert_eq!(whole(raw("18446744073709551615")), Whole::Fits(u64::MAX));
        assert_eq!(whole(raw("18446744073709551616")), Whole::OutOfRange);
        assert_eq!(whole(raw("-1")), Whole::OutOfRange);
        assert_eq!(whole(raw("-0")), Whole::OutOfRange);
        assert_eq!(whole(raw("2.0")), Whole::OutOfRange);
        assert_eq!(whole(raw("1e3")), Whole::OutOfRange);
        assert_eq!(whole(raw("\"5\"")), Whole::NotANumber);
        assert_eq!(whole(raw("null")), Whole::NotANumber);
    }

    #[test]
    fn lists_stop_at_their_cap() {
        assert_eq!(list(raw("[1,2,3]"), 3).ok().unwrap().len(), 3);
        assert!(matches!(list(raw("[1,2,3]"), 2), Err(ListError::TooLong)));
        assert!(matches!(list(raw("{}"), 2), Err(ListError::NotAList)));
        assert_eq!(string(raw(r#""a\"b""#)).as_deref(), Some("a\"b"));
        assert_eq!(string(raw("1")), None);
    }
}
