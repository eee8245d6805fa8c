//! JavaScript values in: a command or record given as an object becomes JSON text for the core's
//! readers ([`qe_core::Command::from_json`], [`qe_core::Record::from_json`]), which decide
//! everything about it. This module only writes the text, exactly:
//!
//! - a `BigInt` is written as its decimal digits, so bids up to 2^64−1 (and past it, for the core
//!   to reject with R-AUC-4) arrive as written;
//! - a `number` that is a safe integer is written as that integer; a finite fraction as JavaScript
//!   writes it (`2.5`), for the reader to reject with its own rule;
//! - an integral `number` past `Number.MAX_SAFE_INTEGER`, `NaN` or an infinity is a `RangeError`:
//!   such a number may not be the integer its writer meant (`2 ** 64` is not 2^64 − 1);
//! - strings, booleans, `null`, arrays and objects (their own enumerable keys, in order) as JSON;
//!   a key whose value is `undefined` is left out (as `JSON.stringify` does); a function or symbol
//!   is a `TypeError`.
//!
//! Writing stops once the text is past the reader's size limit, so that the reader reports the
//! size error it gives any text that long, and an object holding itself costs no more than that.

// Whether a `number` is an integer is an exact question: `n.trunc() == n` is the test.
#![allow(clippy::float_cmp)]

use std::fmt::Write as _;

use wasm_bindgen::{JsCast, JsValue};

use crate::{range_error, type_error};

/// The deepest nesting written: deeper than any command or record the readers accept.
const MAX_DEPTH: usize = 64;

/// The largest safe integer of JavaScript, `Number.MAX_SAFE_INTEGER` (2^53 − 1).
const MAX_SAFE: f64 = 9_007_199_254_740_991.0;

/// Whether `n` is a safe integer (`Number.isSafeInteger`).
pub(crate) fn is_safe_integer(n: f64) -> bool {
    n.is_finite() && n.trunc() == n && n.abs() <= MAX_SAFE
}

/// The message of the `RangeError` for the `number` `n` given as the integer `what`.
pub(crate) fn unsafe_number_message(what: &str, n: f64) -> String {
    if n.is_finite() && n.trunc() == n {
        format!(
            "{what}: {n} is a number past Number.MAX_SAFE_INTEGER, so it may not be the integer \
             meant; give integers this large as a BigInt ({n}n is exactly {n})"
        )
    } else {
        format!("{what} must be an integer (a BigInt or a safe integer number), got {n}")
    }
}

/// The decimal digits of the `BigInt` `value`.
pub(crate) fn bigint_text(value: &JsValue) -> Result<String, JsValue> {
    let big: &js_sys::BigInt = value.unchecked_ref();
    big.to_string(10)
        .map(String::from)
        .map_err(|_| type_error("a BigInt could not be written in base 10"))
}

/// A short description of `value` for an error message: its type and, for a primitive, its value.
pub(crate) fn describe(value: &JsValue) -> String {
    if value.is_undefined() {
        return "undefined".into();
    }
    if value.is_null() {
        return "null".into();
    }
    if let Some(s) = value.as_string() {
        return format!("the string \"{}\"", qe_core::shown(&s));
    }
    if let Some(b) = value.as_bool() {
        return format!("the boolean {b}");
    }
    if let Some(n) = value.as_f64() {
        return format!("the number {n}");
    }
    if value.is_bigint() {
        return bigint_text(value).map_or_else(|_| "a BigInt".into(), |t| format!("{t}n"));
    }
    if js_sys::Array::is_array(value) {
        return "an array".into();
    }
    if value.is_function() {
        return "a function".into();
    }
    if value.is_symbol() {
        return "a symbol".into();
    }
    "an object".into()
}

/// The JSON text of `value` (the argument `what`) for a reader whose size limit is `limit` bytes:
/// a string is taken as the JSON text itself (the reader checks it); anything else is written as
/// the module documentation says, stopping once past `limit`.
pub(crate) fn text_of(value: &JsValue, what: &str, limit: usize) -> Result<String, JsValue> {
    if let Some(text) = value.as_string() {
        return Ok(text);
    }
    if !value.is_object() {
        return Err(type_error(&format!(
            "{what} must be an object or JSON text, got {}",
            describe(value)
        )));
    }
    let mut out = String::new();
    let mut path = String::from(what);
    write(value, &mut path, &mut out, limit, 0)?;
    Ok(out)
}

/// Writes `value` (at `path`, for error messages) into `out`, until `out` is past `limit`.
fn write(
    value: &JsValue,
    path: &mut String,
    out: &mut String,
    limit: usize,
    depth: usize,
) -> Result<(), JsValue> {
    if out.len() > limit {
        return Ok(());
    }
    if value.is_null() {
        out.push_str("null");
    } else if let Some(b) = value.as_bool() {
        out.push_str(if b { "true" } else { "false" });
    } else if let Some(n) = value.as_f64() {
        if is_safe_integer(n) {
            // `-0` is 0; every safe integer fits an i64 exactly.
            out.push_str(&(n as i64).to_string());
        } else if n.is_finite() && n.trunc() != n {
            // A fraction: written as JavaScript writes it, for the reader to reject by its rule.
            let _ = write!(out, "{n}");
        } else {
            return Err(range_error(&unsafe_number_message(path, n)));
        }
    } else if value.is_bigint() {
        out.push_str(&bigint_text(value)?);
    } else if let Some(s) = value.as_string() {
        out.push_str(&serde_json::to_string(&s).expect("a string is JSON"));
    } else if value.is_object() && !value.is_function() {
        if depth >= MAX_DEPTH {
            return Err(range_error(&format!(
                "{path} nests deeper than {MAX_DEPTH} levels"
            )));
        }
        if js_sys::Array::is_array(value) {
            let array: &js_sys::Array = value.unchecked_ref();
            out.push('[');
            for (i, item) in array.iter().enumerate() {
                if out.len() > limit {
                    return Ok(());
                }
                if i > 0 {
                    out.push(',');
                }
                let len = path.len();
                let _ = write!(path, "[{i}]");
                if item.is_undefined() || item.is_function() || item.is_symbol() {
                    // As JSON.stringify writes them in an array.
                    out.push_str("null");
                } else {
                    write(&item, path, out, limit, depth + 1)?;
                }
                path.truncate(len);
            }
            out.push(']');
        } else {
            out.push('{');
            let mut first = true;
            for key in js_sys::Object::keys(value.unchecked_ref::<js_sys::Object>()).iter() {
                if out.len() > limit {
                    return Ok(());
                }
                let item = js_sys::Reflect::get(value, &key)?;
                if item.is_undefined() {
                    continue;
                }
                let key = key.as_string().unwrap_or_default();
                let len = path.len();
                path.push('.');
                path.push_str(&qe_core::shown(&key));
                if item.is_function() || item.is_symbol() {
                    return Err(type_error(&format!(
                        "{path} must be a JSON value, got {}",
                        describe(&item)
                    )));
                }
                if !first {
                    out.push(',');
                }
                first = false;
                out.push_str(&serde_json::to_string(&key).expect("a string is JSON"));
                out.push(':');
                write(&item, path, out, limit, depth + 1)?;
                path.truncate(len);
            }
            out.push('}');
        }
    } else {
        return Err(type_error(&format!(
            "{path} must be a JSON value, got {}",
            describe(value)
        )));
    }
    Ok(())
}
