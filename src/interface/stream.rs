//! The cases of `strategos adjudicate` read one at a time from the input, and its results
//! written one at a time, so that memory holds one case and one result whatever the size of
//! the file.
//!
//! The input is a JSON list of cases, or one case alone. `CaseReader` finds where each
//! element of the list ends (outside strings, `{` `[` and `}` `]` balance) and hands its bytes
//! over; serde_json reads the element itself, so whether it is JSON is serde_json's word.
//! `ResultWriter` writes the list of results exactly as `serde_json::to_string_pretty` writes
//! the whole list.

use std::io::{self, Read, Write};

/// Bytes asked of the input at a time.
const CHUNK: usize = 64 * 1024;

/// Why the input could not be read to its end.
#[derive(Debug)]
pub enum InputError {
    /// The input could not be read.
    Read(io::Error),
    /// The input is not JSON (a list that breaks off, text after it...).
    NotJson(String),
}

/// What the input holds next.
pub enum Next<'b> {
    /// The JSON text of one case (or of whatever value stands in the list).
    Case(&'b [u8]),
    /// The list is over (or its only case was given).
    End,
}

/// Hands out the elements of a JSON list, or the one value that is not a list, from a reader.
pub struct CaseReader<R> {
    input: R,
    /// Bytes read and not yet handed out: `buf[at..len]` (`buf` past `len` is room to read into).
    buf: Vec<u8>,
    at: usize,
    len: usize,
    /// The input has no more bytes.
    eof: bool,
    stage: Stage,
    /// Bytes of the input before `buf[0]`, to say where a problem is.
    offset: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Nothing read yet.
    Start,
    /// After `[`: a case or `]`.
    First,
    /// After a case: `,` or `]`.
    AfterCase,
    /// After `,`: a case.
    AfterComma,
    /// The list or the single value is over.
    Done,
}

/// Where an element's scan has got to, kept while more bytes are read.
#[derive(Default)]
struct Scan {
    /// Bytes of the element looked at.
    seen: usize,
    depth: usize,
    in_string: bool,
    escaped: bool,
}

impl Scan {
    /// The element's length once its end is among `bytes` (the element from its first byte).
    fn end(&mut self, bytes: &[u8]) -> Option<usize> {
        while let Some(rest) = bytes.get(self.seen..).filter(|r| !r.is_empty()) {
            if self.escaped {
                self.escaped = false;
                self.seen += 1;
                continue;
            }
            let marks = if self.in_string {
                &IN_STRING
            } else if self.depth > 0 {
                &NESTED
            } else {
                &TOP
            };
            let Some(k) = rest.iter().position(|&b| marks[usize::from(b)]) else {
                self.seen = bytes.len();
                return None;
            };
            self.seen += k + 1;
            match rest[k] {
                b'\\' => self.escaped = true,
                b'"' if self.in_string => {
                    self.in_string = false;
                    if self.depth == 0 {
                        return Some(self.seen);
                    }
                }
                b'"' => self.in_string = true,
                b'{' | b'[' => self.depth += 1,
                b'}' | b']' if self.depth > 0 => {
                    self.depth -= 1;
                    if self.depth == 0 {
                        return Some(self.seen);
                    }
                }
                // A number, `true`... ends where the list goes on.
                _ => {
                    self.seen -= 1;
                    return Some(self.seen);
                }
            }
        }
        None
    }
}

/// The bytes that matter inside a string, inside an object or list, and in a value alone.
const IN_STRING: [bool; 256] = marks(b"\\\"");
const NESTED: [bool; 256] = marks(b"\"{}[]");
const TOP: [bool; 256] = marks(b"\"{}[], \t\n\r");

const fn marks(bytes: &[u8]) -> [bool; 256] {
    let mut table = [false; 256];
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
}

impl<R: Read> CaseReader<R> {
    pub fn new(input: R) -> CaseReader<R> {
        CaseReader {
            input,
            buf: Vec::new(),
            at: 0,
            len: 0,
            eof: false,
            stage: Stage::Start,
            offset: 0,
        }
    }

    /// The next case, or the end. After an error, nothing more is read.
    pub fn next_case(&mut self) -> Result<Next<'_>, InputError> {
        loop {
            match self.stage {
                Stage::Done => return Ok(Next::End),
                Stage::Start => match self.next_byte()? {
                    Some(b'[') => {
                        self.at += 1;
                        self.stage = Stage::First;
                    }
                    // One value alone: the whole input is that case.
                    _ => {
                        while !self.eof {
                            self.fill()?;
                        }
                        self.stage = Stage::Done;
                        return Ok(Next::Case(&self.buf[self.at..self.len]));
                    }
                },
                Stage::First | Stage::AfterComma => {
                    let byte = self.next_byte()?;
                    if self.stage == Stage::First && byte == Some(b']') {
                        self.at += 1;
                        return self.finish();
                    }
                    if byte.is_none() {
                        return Err(self.not_json("the list breaks off"));
                    }
                    let (start, len) = self.element()?;
                    self.stage = Stage::AfterCase;
                    return Ok(Next::Case(&self.buf[start..start + len]));
                }
                Stage::AfterCase => match self.next_byte()? {
                    Some(b',') => {
                        self.at += 1;
                        self.stage = Stage::AfterComma;
                    }
                    Some(b']') => {
                        self.at += 1;
                        return self.finish();
                    }
                    Some(_) => return Err(self.not_json("expected ',' or ']' after a case")),
                    None => return Err(self.not_json("the list breaks off")),
                },
            }
        }
    }

    /// After the list's `]`: only white space may follow.
    fn finish(&mut self) -> Result<Next<'_>, InputError> {
        match self.next_byte()? {
            None => {
                self.stage = Stage::Done;
                Ok(Next::End)
            }
            Some(_) => Err(self.not_json("text after the end of the list")),
        }
    }

    /// The element starting at `at`: where it starts in `buf` and its length; `at` moves past it.
    fn element(&mut self) -> Result<(usize, usize), InputError> {
        let mut scan = Scan::default();
        loop {
            if let Some(len) = scan.end(&self.buf[self.at..self.len]) {
                if len == 0 {
                    return Err(self.not_json("expected a case"));
                }
                let start = self.at;
                self.at += len;
                return Ok((start, len));
            }
            if self.eof {
                return Err(self.not_json("the list breaks off inside a case"));
            }
            self.fill()?;
        }
    }

    /// The first byte that is not white space, left unread; `None` at the end of the input.
    fn next_byte(&mut self) -> Result<Option<u8>, InputError> {
        loop {
            while let Some(&b) = self.buf[..self.len].get(self.at) {
                if matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                    self.at += 1;
                } else {
                    return Ok(Some(b));
                }
            }
            if self.eof {
                return Ok(None);
            }
            self.fill()?;
        }
    }

    /// Reads more of the input, first dropping what was handed out (bytes before `at` are no
    /// longer needed; what is left is at most the start of one case).
    fn fill(&mut self) -> Result<(), InputError> {
        if self.at > 0 {
            self.buf.copy_within(self.at..self.len, 0);
            self.offset += self.at;
            self.len -= self.at;
            self.at = 0;
        }
        if self.buf.len() - self.len < CHUNK {
            self.buf.resize(self.len + CHUNK, 0);
        }
        let read = loop {
            match self.input.read(&mut self.buf[self.len..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.stage = Stage::Done;
                    return Err(InputError::Read(e));
                }
            }
        };
        self.len += read;
        self.eof = read == 0;
        Ok(())
    }

    fn not_json(&mut self, what: &str) -> InputError {
        self.stage = Stage::Done;
        InputError::NotJson(format!("{what} (byte {})", self.offset + self.at))
    }
}

/// Writes a JSON list one entry at a time, laid out as `serde_json::to_string_pretty` lays
/// out the whole list.
pub struct ResultWriter<W: Write> {
    output: W,
    entries: usize,
}

impl<W: Write> ResultWriter<W> {
    pub fn new(output: W) -> ResultWriter<W> {
        ResultWriter { output, entries: 0 }
    }

    /// Writes one entry of the list, laid out already (`writing.rs`).
    pub fn entry_text(&mut self, text: &[u8]) -> io::Result<()> {
        self.separate()?;
        self.output.write_all(text)?;
        self.entries += 1;
        Ok(())
    }

    /// What comes before an entry: the list's opening, or the comma after the last entry.
    fn separate(&mut self) -> io::Result<()> {
        self.output.write_all(if self.entries == 0 {
            b"[\n  "
        } else {
            b",\n  "
        })
    }

    /// Closes the list (with a line end, as `println!` would) and flushes the output.
    pub fn finish(mut self) -> io::Result<W> {
        if self.entries == 0 {
            self.output.write_all(b"[]\n")?;
        } else {
            self.output.write_all(b"\n]\n")?;
        }
        self.output.flush()?;
        Ok(self.output)
    }

    /// How many entries are written.
    pub fn entries(&self) -> usize {
        self.entries
    }
}

/// JSON laid out two spaces a level, a value per line, starting `depth` levels in: an entry
/// of the list as the list written whole would show it.
pub(super) struct Indented {
    depth: usize,
    /// The list or object being written has something in it.
    has_value: bool,
}

/// `,` and a line end, then the indentation of levels up to 32 deep, written in one piece.
const BREAK: &[u8; 66] = b",\n                                                                ";

impl Indented {
    /// Values written `depth` levels in (an entry of the results list is 1 level in).
    pub(super) fn at(depth: usize) -> Indented {
        Indented {
            depth,
            has_value: false,
        }
    }

    /// A line end (after a comma unless `first`), then the indentation of the depth.
    fn line<W: ?Sized + Write>(&self, out: &mut W, first: bool) -> io::Result<()> {
        let from = usize::from(first);
        let width = 2 * self.depth;
        match BREAK.get(from..2 + width) {
            Some(piece) => out.write_all(piece),
            None => {
                out.write_all(&BREAK[from..2])?;
                (0..self.depth).try_for_each(|_| out.write_all(b"  "))
            }
        }
    }

    fn open<W: ?Sized + Write>(&mut self, out: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        out.write_all(bracket)
    }

    fn close<W: ?Sized + Write>(&mut self, out: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            self.line(out, true)?;
        }
        out.write_all(bracket)
    }

    fn item<W: ?Sized + Write>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        self.line(out, first)
    }
}

impl serde_json::ser::Formatter for Indented {
    fn begin_array<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.open(out, b"[")
    }
    fn end_array<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.close(out, b"]")
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        self.item(out, first)
    }
    fn end_array_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.open(out, b"{")
    }
    fn end_object<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.close(out, b"}")
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        self.item(out, first)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        out.write_all(b": ")
    }
    fn end_object_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `input` in pieces of `piece` bytes, as a pipe may give it.
    struct Pieces<'a>(&'a [u8], usize);

    impl Read for Pieces<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.1.min(self.0.len()).min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    fn cases(input: &str, piece: usize) -> Result<Vec<String>, String> {
        let mut reader = CaseReader::new(Pieces(input.as_bytes(), piece));
        let mut out = Vec::new();
        loop {
            match reader.next_case() {
                Ok(Next::Case(bytes)) => out.push(String::from_utf8(bytes.to_vec()).unwrap()),
                Ok(Next::End) => return Ok(out),
                Err(InputError::NotJson(m)) => return Err(m),
                Err(InputError::Read(e)) => return Err(e.to_string()),
            }
        }
    }

    #[test]
    fn the_elements_of_a_list_one_by_one_however_the_input_comes() {
        let input = r#" [ {"id": "a]\"}", "x": [1, {"y": "}"}]} ,"s" , 12,
            [] ,{} ] "#;
        for piece in [1, 2, 3, 7, 100_000] {
            assert_eq!(
                cases(input, piece).unwrap(),
                [
                    r#"{"id": "a]\"}", "x": [1, {"y": "}"}]}"#,
                    r#""s""#,
                    "12",
                    "[]",
                    "{}"
                ],
                "pieces of {piece}"
            );
        }
        assert_eq!(cases("[]", 1).unwrap(), Vec::<String>::new());
        assert_eq!(cases(" {\"id\": 1} ", 2).unwrap(), ["{\"id\": 1} "]);
    }

    #[test]
    fn a_list_that_is_not_json_is_an_error_after_the_cases_before_it() {
        for bad in [
            "[{}, ]",
            "[{} {}]",
            "[{}",
            "[{}] x",
            "[{\"a\": \"b]",
            "[,{}]",
            "[",
        ] {
            assert!(cases(bad, 1).is_err(), "{bad}");
        }
        let mut reader = CaseReader::new(Pieces(b"[{}, {}} ]", 4));
        assert!(matches!(reader.next_case(), Ok(Next::Case(b"{}"))));
        assert!(matches!(reader.next_case(), Ok(Next::Case(b"{}"))));
        assert!(matches!(reader.next_case(), Err(InputError::NotJson(_))));
        assert!(
            matches!(reader.next_case(), Ok(Next::End)),
            "nothing after an error"
        );
    }

    #[test]
    fn the_list_written_entry_by_entry_is_the_list_written_whole() {
        let mut deep = serde_json::json!(1);
        for _ in 0..40 {
            deep = serde_json::json!([deep, {"k": deep}]);
            deep = deep[0].clone();
            deep = serde_json::json!([{"k": deep}]);
        }
        let entries = [
            serde_json::json!({"id": deep}),
            serde_json::json!({"id": "a", "result": {"orders": [], "retreats": {}}}),
            serde_json::json!({"id": null, "error": "x"}),
            serde_json::json!({"id": {"a": [1, {"b": []}], "c": "x\"y\n"}, "result": {
                "orders": [{"power": "e", "order": "A"}, {}], "dislodged": ["a", "b"]}}),
        ];
        for n in 0..=entries.len() {
            let mut writer = ResultWriter::new(Vec::new());
            for e in &entries[..n] {
                let mut text = Vec::new();
                let mut serializer =
                    serde_json::Serializer::with_formatter(&mut text, Indented::at(1));
                serde::Serialize::serialize(e, &mut serializer).unwrap();
                writer.entry_text(&text).unwrap();
            }
            let written = writer.finish().unwrap();
            let whole = serde_json::to_string_pretty(&entries[..n]).unwrap() + "\n";
            assert_eq!(String::from_utf8(written).unwrap(), whole);
        }
    }
}
