//! Reading a record or a manifest from a file or standard input: at most
//! [`qe_core::MAX_RECORD_BYTES`] (a record holds its manifest), so a huge or endless input
//! (`/dev/zero`) is refused after that much, never read whole.

use std::io::Read;
use std::path::Path;

use crate::Failure;

/// The text of `path` (`-`: standard input), which holds `what` (`"record"`, `"manifest"`).
pub fn read_text(path: &Path, what: &str) -> Result<String, Failure> {
    let max = qe_core::MAX_RECORD_BYTES;
    let (name, reader): (String, Box<dyn Read>) = if path.as_os_str() == "-" {
        ("standard input".into(), Box::new(std::io::stdin()))
    } else {
        let file = std::fs::File::open(path)
            .map_err(|e| Failure::BadInput(format!("cannot read {}: {e}", path.display())))?;
        (path.display().to_string(), Box::new(file))
    };
    let mut bytes = Vec::new();
    reader
        .take(max as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::BadInput(format!("cannot read {name}: {e}")))?;
    if bytes.len() > max {
        return Err(Failure::BadInput(format!(
            "{name}: a {what} is at most {max} bytes, and this input is longer"
        )));
    }
    let text = String::from_utf8(bytes)
        .map_err(|e| Failure::BadInput(format!("{name}: the {what} is not UTF-8 text: {e}")))?;
    // The core's check, named with the input here.
    match qe_core::byte_order_mark(&text, what) {
        Some(m) => Err(Failure::BadInput(format!("{name}: {m}"))),
        None => Ok(text),
    }
}
