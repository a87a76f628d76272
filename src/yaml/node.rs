//! The spanned YAML tree.

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::{MessageFormatter, Spanned};

use crate::diag::{Diagnostic, SourceFile};

/// Largest flow or room file accepted, in bytes.
pub const MAX_FILE_BYTES: usize = 8 * 1024 * 1024;
/// Most YAML nodes one file may hold (after alias expansion).
const MAX_NODES: usize = 200_000;
/// Most events aliases may replay in one file: a "billion laughs" stops here.
const MAX_ALIAS_REPLAY: usize = 100_000;
/// Deepest nesting accepted.
const MAX_DEPTH: usize = 64;

/// A YAML value with the byte span of the node it came from.
#[derive(Clone, Debug)]
pub struct Node {
    /// The value.
    pub value: Value,
    /// Byte range of the node in the file (the first token for collections).
    pub span: Range<usize>,
}

/// The shapes a YAML node can take.
#[derive(Clone, Debug)]
pub enum Value {
    /// `~`, `null` or nothing.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A string.
    Str(String),
    /// A sequence.
    Seq(Vec<Node>),
    /// A mapping with string keys, in file order.
    Map(Vec<(Node, Node)>),
}

impl Value {
    /// Name of the shape for "expected X, found Y" messages.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Value::Null => "nothing (null)",
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a number",
            Value::Str(_) => "a string",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a mapping",
        }
    }
}

/// Parses one YAML document into a spanned tree, or a diagnostic for the
/// syntax error, limit breach or oversize file that stopped it.
pub fn parse(file: &Arc<SourceFile>) -> Result<Node, Diagnostic> {
    if file.text.len() > MAX_FILE_BYTES {
        return Err(Diagnostic::error(
            "yaml::too-large",
            format!(
                "file is {} bytes, over the limit of {} bytes",
                file.text.len(),
                MAX_FILE_BYTES
            ),
        )
        .in_file(file)
        .help("flow and room files are small; split the file or check that it is the right one"));
    }
    let options = serde_saphyr::options! {
        budget: serde_saphyr::budget! {
            max_nodes: MAX_NODES,
            max_depth: MAX_DEPTH,
            max_documents: 1,
        },
    };
    let mut options = options;
    options.alias_limits.max_total_replayed_events = MAX_ALIAS_REPLAY;
    // Only `true`/`false` are booleans: `n`, `no`, `on` stay strings (chain
    // letters and ids such as `n` or `no` must not turn into `false`).
    options.strict_booleans = true;
    // Duplicate keys reach the decoder, which labels both occurrences (and
    // reports a duplicate node id as such).
    options.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::PassThrough;
    match serde_saphyr::from_str_with_options::<Spanned<Raw>>(&file.text, options) {
        Ok(raw) => Ok(into_node(raw, &file.text)),
        Err(err) => Err(syntax_diagnostic(file, &err)),
    }
}

fn syntax_diagnostic(file: &Arc<SourceFile>, err: &serde_saphyr::Error) -> Diagnostic {
    let inner = err.without_snippet();
    let message = serde_saphyr::DefaultMessageFormatter
        .format_message(inner)
        .into_owned();
    if message.contains("Documents") {
        return multiple_documents(file, err);
    }
    let message = humane_limit_message(message);
    let (code, help) = if message.contains("budget")
        || message.contains("alias")
        || message.contains("recursion limit")
        || message.contains("nest")
    {
        (
            "yaml::limit",
            "the file expands to too much data (deep nesting or repeated aliases); write it out plainly",
        )
    } else if message.contains("duplicate mapping key") {
        (
            "yaml::duplicate-key",
            "each key may appear once in a mapping; remove or rename one",
        )
    } else {
        (
            "yaml::syntax",
            "fix the YAML syntax at the marked position (indentation, brackets, quotes)",
        )
    };
    let diag = Diagnostic::error(code, format!("invalid YAML: {message}"))
        .in_file(file)
        .help(help);
    // A tab is reported where the scanner gave up, often on the line before it:
    // point at the tab itself.
    if message.contains("tab")
        && let Some(tab) = file.text.find('\t')
    {
        return diag.label(tab..tab + 1, "tab character");
    }
    match error_offset(file, err) {
        Some(start) => diag.label(start..next_char_end(&file.text, start), "here"),
        None => diag,
    }
}

/// The byte offset in `file` where the parser stopped with `err`.
fn error_offset(file: &SourceFile, err: &serde_saphyr::Error) -> Option<usize> {
    let loc = err.location()?;
    Some(byte_offset_of(
        &file.text,
        loc.line() as usize,
        loc.column() as usize,
    ))
}

/// A file holding a second YAML document (a `---` line after the first).
fn multiple_documents(file: &Arc<SourceFile>, err: &serde_saphyr::Error) -> Diagnostic {
    let diag = Diagnostic::error(
        "yaml::documents",
        "the file holds more than one YAML document",
    )
    .in_file(file)
    .help("a flow or room file is one document: remove the `---` line and what follows, or move it to a file of its own");
    match error_offset(file, err) {
        Some(start) => {
            let end = file.text[start..]
                .find('\n')
                .map_or(file.text.len(), |i| start + i)
                .max(next_char_end(&file.text, start));
            diag.label(start..end, "a second document starts here")
        }
        None => diag,
    }
}

/// Rewrites the parser's internal budget wording into plain language.
fn humane_limit_message(message: String) -> String {
    if message.contains("Depth") || message.contains("recursion limit") {
        format!("nesting deeper than {MAX_DEPTH} levels")
    } else if message.contains("Nodes") {
        format!("more than {MAX_NODES} values (after expanding aliases)")
    } else if message.contains("alias replay limit") {
        format!("aliases expand to more than {MAX_ALIAS_REPLAY} values (an alias bomb?)")
    } else {
        message
    }
}

/// Byte offset of a 1-based (line, column-in-chars) position.
fn byte_offset_of(text: &str, line: usize, column: usize) -> usize {
    let line_start = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum::<usize>()
        .min(text.len());
    let rest = &text[line_start..];
    let col = rest
        .char_indices()
        .nth(column.saturating_sub(1))
        .map_or(rest.len(), |(i, _)| i);
    line_start + col
}

fn next_char_end(text: &str, start: usize) -> usize {
    text[start..]
        .chars()
        .next()
        .map_or(start, |c| start + c.len_utf8())
}

/// The raw tree as serde-saphyr hands it over.
enum Raw {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Spanned<Raw>>),
    Map(Vec<(Spanned<RawKey>, Spanned<Raw>)>),
}

/// A mapping key: any scalar, kept as text.
struct RawKey(String);

fn into_node(raw: Spanned<Raw>, text: &str) -> Node {
    let span = span_of(&raw.referenced, text);
    let value = match raw.value {
        Raw::Null => Value::Null,
        Raw::Bool(b) => Value::Bool(b),
        Raw::Int(i) => Value::Int(i),
        Raw::Float(f) => Value::Float(f),
        Raw::Str(s) => Value::Str(s),
        Raw::Seq(items) => Value::Seq(items.into_iter().map(|i| into_node(i, text)).collect()),
        Raw::Map(entries) => Value::Map(
            entries
                .into_iter()
                .map(|(k, v)| {
                    let key = Node {
                        span: span_of(&k.referenced, text),
                        value: Value::Str(k.value.0),
                    };
                    (key, into_node(v, text))
                })
                .collect(),
        ),
    };
    Node { value, span }
}

fn span_of(loc: &serde_saphyr::Location, text: &str) -> Range<usize> {
    let span = loc.span();
    match (span.byte_offset(), span.byte_len()) {
        (Some(start), Some(len)) => {
            let start = (start as usize).min(text.len());
            start..(start + len as usize).min(text.len())
        }
        _ => {
            let start = byte_offset_of(text, loc.line() as usize, loc.column() as usize);
            start..next_char_end(text, start)
        }
    }
}

struct RawVisitor;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = Raw;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Raw, E> {
        Ok(Raw::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Raw, E> {
        Ok(Raw::Int(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Raw, E> {
        Ok(i64::try_from(v).map_or(Raw::Float(v as f64), Raw::Int))
    }
    fn visit_i128<E>(self, v: i128) -> Result<Raw, E> {
        Ok(i64::try_from(v).map_or(Raw::Float(v as f64), Raw::Int))
    }
    fn visit_u128<E>(self, v: u128) -> Result<Raw, E> {
        Ok(i64::try_from(v).map_or(Raw::Float(v as f64), Raw::Int))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Raw, E> {
        Ok(Raw::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Raw, E> {
        Ok(Raw::Str(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Raw, E> {
        Ok(Raw::Str(v))
    }
    fn visit_bytes<E>(self, v: &[u8]) -> Result<Raw, E> {
        Ok(Raw::Str(String::from_utf8_lossy(v).into_owned()))
    }
    fn visit_unit<E>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }
    fn visit_none<E>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Raw, D::Error> {
        d.deserialize_any(RawVisitor)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Raw, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Raw::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Raw, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key()? {
            entries.push((key, map.next_value()?));
        }
        Ok(Raw::Map(entries))
    }
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Raw, D::Error> {
        d.deserialize_any(RawVisitor)
    }
}

struct KeyVisitor;

impl Visitor<'_> for KeyVisitor {
    type Value = RawKey;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a scalar mapping key")
    }
    fn visit_bool<E>(self, v: bool) -> Result<RawKey, E> {
        Ok(RawKey(v.to_string()))
    }
    fn visit_i64<E>(self, v: i64) -> Result<RawKey, E> {
        Ok(RawKey(v.to_string()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<RawKey, E> {
        Ok(RawKey(v.to_string()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<RawKey, E> {
        Ok(RawKey(v.to_string()))
    }
    fn visit_str<E>(self, v: &str) -> Result<RawKey, E> {
        Ok(RawKey(v.to_owned()))
    }
    fn visit_unit<E>(self) -> Result<RawKey, E> {
        Ok(RawKey("~".to_owned()))
    }
}

impl<'de> Deserialize<'de> for RawKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RawKey, D::Error> {
        d.deserialize_any(KeyVisitor)
    }
}
