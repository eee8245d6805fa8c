//! Reading lines of bounded length from a stream a person or a program writes (`qe play`'s input,
//! an `exec:` agent's answers): memory stays bounded whatever comes, and a line that is too long
//! is reported as soon as it is, then skipped to its end.

use std::io::BufRead;

/// One line read by [`Lines::next_line`].
pub enum Line {
    /// The line's bytes, without its end (`\n`, and a `\r` before it).
    Bytes(Vec<u8>),
    /// A line longer than the limit (its bytes are skipped).
    TooLong,
}

/// The lines of a stream, each read to at most `max` bytes.
pub struct Lines<R> {
    reader: R,
    max: usize,
    /// The rest of a line reported [`Line::TooLong`] is still to be skipped.
    skipping: bool,
}

impl<R: BufRead> Lines<R> {
    /// The lines of `reader`, at most `max` bytes each.
    pub fn new(reader: R, max: usize) -> Lines<R> {
        Lines {
            reader,
            max,
            skipping: false,
        }
    }

    /// The next line; `None` at the end of the input (a last line without `\n` is still a line).
    /// A line is [`Line::TooLong`] as soon as it passes `max` bytes, without waiting for its end
    /// (a writer that never ends it is not waited for); the next call skips the rest of it.
    pub fn next_line(&mut self) -> std::io::Result<Option<Line>> {
        while self.skipping {
            let buf = self.reader.fill_buf()?;
            if buf.is_empty() {
                self.skipping = false;
                return Ok(None);
            }
            let end = buf.iter().position(|&b| b == b'\n');
            let used = end.map_or(buf.len(), |e| e + 1);
            self.reader.consume(used);
            self.skipping = end.is_none();
        }
        let mut line: Vec<u8> = Vec::new();
        let mut any = false;
        loop {
            let buf = self.reader.fill_buf()?;
            if buf.is_empty() {
                return Ok(any.then(|| finish(line)));
            }
            any = true;
            let end = buf.iter().position(|&b| b == b'\n');
            let part = &buf[..end.unwrap_or(buf.len())];
            let used = end.map_or(buf.len(), |e| e + 1);
            if line.len() + part.len() > self.max {
                self.reader.consume(used);
                self.skipping = end.is_none();
                return Ok(Some(Line::TooLong));
            }
            line.extend_from_slice(part);
            self.reader.consume(used);
            if end.is_some() {
                return Ok(Some(finish(line)));
            }
        }
    }
}

fn finish(mut line: Vec<u8>) -> Line {
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Line::Bytes(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], max: usize) -> Vec<Option<Vec<u8>>> {
        // A tiny buffer, so that lines cross buffer refills.
        let mut lines = Lines::new(std::io::BufReader::with_capacity(3, input), max);
        let mut out = Vec::new();
        while let Some(line) = lines.next_line().unwrap() {
            out.push(match line {
                Line::Bytes(b) => Some(b),
                Line::TooLong => None,
            });
        }
        out
    }

    #[test]
    fn lines_are_cut_at_their_ends_and_long_ones_skipped_whole() {
        let got = all(b"bid 5\r\ntoo long a line\nok\n\nlast", 8);
        let want: Vec<Option<Vec<u8>>> = vec![
            Some(b"bid 5".to_vec()),
            None,
            Some(b"ok".to_vec()),
            Some(Vec::new()),
            Some(b"last".to_vec()),
        ];
        assert_eq!(got, want);
        assert!(all(b"", 8).is_empty());
        assert_eq!(
            all(b"12345678\n123456789\n", 8),
            vec![Some(b"12345678".to_vec()), None]
        );
        assert_eq!(all(b"123456789", 8), vec![None]);
    }

    /// A reader that gives `first`, then blocks forever (a writer that never ends its line).
    struct Endless<'a> {
        first: &'a [u8],
    }

    impl std::io::Read for Endless<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            assert!(
                !self.first.is_empty(),
                "read past the first line: the long line was waited for"
            );
            let n = self.first.len().min(out.len());
            out[..n].copy_from_slice(&self.first[..n]);
            self.first = &self.first[n..];
            Ok(n)
        }
    }

    #[test]
    fn a_long_line_is_reported_before_its_end_comes() {
        let input = Endless {
            first: b"ok\n0123456789",
        };
        let mut lines = Lines::new(std::io::BufReader::with_capacity(4, input), 8);
        assert!(matches!(lines.next_line().unwrap(), Some(Line::Bytes(b)) if b == b"ok"));
        assert!(matches!(lines.next_line().unwrap(), Some(Line::TooLong)));
    }
}
