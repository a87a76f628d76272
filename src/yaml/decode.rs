//! Schema-directed decoding of a [`Node`] tree.
//!
//! Decoding never stops at the first problem: each wrong type, unknown key or
//! missing field becomes a [`Diagnostic`] with a label on the node at fault,
//! and decoding goes on with what is left.

use std::ops::Range;
use std::sync::Arc;

use serde::Serialize;

use super::node::{Node, Value};
use crate::diag::{Diagnostic, SourceFile, did_you_mean, suggest};

/// Largest weight a file may give: sums of weights stay finite, so no
/// entry wins by overflow.
pub const MAX_WEIGHT: f64 = 1e9;

/// A value with the byte span of the YAML node it was read from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Sp<T> {
    /// The value.
    pub value: T,
    /// Byte range in the source file.
    #[serde(skip)]
    pub span: Range<usize>,
}

impl<T> Sp<T> {
    /// Pairs a value with a span.
    pub fn new(value: T, span: Range<usize>) -> Self {
        Self { value, span }
    }
}

impl<T> std::ops::Deref for Sp<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

/// Collects the diagnostics of one file while its tree is decoded.
pub struct Decoder {
    /// The file being decoded.
    pub file: Arc<SourceFile>,
    /// Everything found so far.
    pub diags: Vec<Diagnostic>,
}

impl Decoder {
    /// Starts decoding `file`.
    pub fn new(file: &Arc<SourceFile>) -> Self {
        Self {
            file: Arc::clone(file),
            diags: Vec::new(),
        }
    }

    /// Records an error labelled at `span`.
    pub fn error(
        &mut self,
        code: &'static str,
        span: Range<usize>,
        message: impl Into<String>,
        label: impl Into<String>,
        help: impl Into<String>,
    ) {
        self.record(
            Diagnostic::error(code, message),
            span,
            label.into(),
            help.into(),
        );
    }

    /// Records a warning labelled at `span`.
    pub fn warning(
        &mut self,
        code: &'static str,
        span: Range<usize>,
        message: impl Into<String>,
        label: impl Into<String>,
        help: impl Into<String>,
    ) {
        self.record(
            Diagnostic::warning(code, message),
            span,
            label.into(),
            help.into(),
        );
    }

    fn record(&mut self, d: Diagnostic, span: Range<usize>, label: String, help: String) {
        self.diags
            .push(d.in_file(&self.file).label(span, label).help(help));
    }

    /// Whether any error (not warning) was recorded.
    pub fn has_errors(&self) -> bool {
        self.diags.iter().any(Diagnostic::is_error)
    }

    fn wrong_type(&mut self, node: &Node, expected: &str, what: &str) {
        self.error(
            "yaml::wrong-type",
            node.span.clone(),
            format!(
                "{what} must be {expected}, found {}",
                node.value.kind_name()
            ),
            format!("expected {expected}"),
            format!("write {what} as {expected}"),
        );
    }

    /// Reads a mapping; reports duplicate keys, and anything but a mapping.
    pub fn map<'n>(&mut self, node: &'n Node, what: &str) -> Option<Fields<'n>> {
        let fields = self.map_allowing_duplicates(node, what)?;
        for (i, (k, _)) in fields.entries.iter().enumerate() {
            let name = key_str(k);
            if let Some((first, _)) = fields.entries[..i].iter().find(|(f, _)| key_str(f) == name) {
                self.diags.push(
                    Diagnostic::error(
                        "yaml::duplicate-key",
                        format!("`{name}` appears twice in {what}"),
                    )
                    .in_file(&self.file)
                    .label(k.span.clone(), "second occurrence")
                    .label(first.span.clone(), "first occurrence")
                    .help("each key may appear once in a mapping; remove or merge one"),
                );
            }
        }
        Some(fields)
    }

    /// Reads a mapping whose duplicate keys the caller reports itself.
    pub fn map_allowing_duplicates<'n>(
        &mut self,
        node: &'n Node,
        what: &str,
    ) -> Option<Fields<'n>> {
        match &node.value {
            Value::Map(entries) => Some(Fields {
                node,
                entries,
                used: vec![false; entries.len()],
            }),
            _ => {
                self.wrong_type(node, "a mapping", what);
                None
            }
        }
    }

    /// Reads a list; a single scalar is accepted as a one-element list.
    pub fn list<'n>(&mut self, node: &'n Node, what: &str) -> Vec<&'n Node> {
        match &node.value {
            Value::Seq(items) => items.iter().collect(),
            Value::Null => Vec::new(),
            Value::Map(_) => {
                self.wrong_type(node, "a list", what);
                Vec::new()
            }
            _ => vec![node],
        }
    }

    /// Reads a string (numbers and booleans are not silently converted).
    pub fn string(&mut self, node: &Node, what: &str) -> Option<Sp<String>> {
        match &node.value {
            Value::Str(s) => Some(Sp::new(s.clone(), node.span.clone())),
            _ => {
                self.wrong_type(node, "a string", what);
                None
            }
        }
    }

    /// Reads a name: a string, or an integer written bare (`3`, used as `"3"`).
    pub fn name(&mut self, node: &Node, what: &str) -> Option<Sp<String>> {
        match &node.value {
            Value::Int(i) => Some(Sp::new(i.to_string(), node.span.clone())),
            _ => self.string(node, what),
        }
    }

    /// Reads a boolean.
    pub fn bool(&mut self, node: &Node, what: &str) -> Option<bool> {
        match node.value {
            Value::Bool(b) => Some(b),
            _ => {
                self.wrong_type(node, "true or false", what);
                None
            }
        }
    }

    /// Reads a finite number.
    pub fn number(&mut self, node: &Node, what: &str) -> Option<Sp<f64>> {
        let v = match node.value {
            Value::Int(i) => i as f64,
            Value::Float(f) if f.is_finite() => f,
            _ => {
                self.wrong_type(node, "a finite number", what);
                return None;
            }
        };
        Some(Sp::new(v, node.span.clone()))
    }

    /// Reads a number in `0..=1`.
    pub fn chance(&mut self, node: &Node, what: &str) -> Option<Sp<f64>> {
        let v = self.number(node, what)?;
        if !(0.0..=1.0).contains(&v.value) {
            self.error(
                "flow::chance-out-of-range",
                node.span.clone(),
                format!("{what} is {}, outside 0..=1", v.value),
                "a chance is between 0 and 1",
                "write a probability such as 0.25 (not a percentage)",
            );
            return None;
        }
        Some(v)
    }

    /// Reads a non-negative weight.
    pub fn weight(&mut self, node: &Node, what: &str) -> Option<Sp<f64>> {
        let v = self.number(node, what)?;
        if !v.value.is_finite() || v.value > MAX_WEIGHT {
            self.error(
                "yaml::weight-too-large",
                node.span.clone(),
                format!(
                    "{what} is {:e}, over the largest weight, {MAX_WEIGHT:e}",
                    v.value
                ),
                "too large",
                "weights are relative: 1 and 3 pick one entry three times as often as the other",
            );
            return None;
        }
        if v.value < 0.0 {
            self.error(
                "yaml::negative-weight",
                node.span.clone(),
                format!("{what} is {}, but weights cannot be negative", v.value),
                "negative",
                "use 0 to disable an entry, or a positive relative weight",
            );
            return None;
        }
        Some(v)
    }

    /// Reads a whole number in `0..=max`.
    pub fn count(&mut self, node: &Node, what: &str, max: u32) -> Option<Sp<u32>> {
        match node.value {
            Value::Int(i) if (0..=i64::from(max)).contains(&i) => {
                Some(Sp::new(i as u32, node.span.clone()))
            }
            Value::Int(i) => {
                self.error(
                    "yaml::out-of-range",
                    node.span.clone(),
                    format!("{what} is {i}, outside 0..={max}"),
                    "out of range",
                    format!("use a whole number between 0 and {max}"),
                );
                None
            }
            _ => {
                self.wrong_type(node, "a whole number", what);
                None
            }
        }
    }

    /// Reads an inclusive range: `5`, `[3, 8]` or `"3..8"`.
    pub fn range(&mut self, node: &Node, what: &str, max: u32) -> Option<Sp<(u32, u32)>> {
        let span = node.span.clone();
        let (lo, hi) = match &node.value {
            Value::Int(_) => {
                let n = self.count(node, what, max)?.value;
                (n, n)
            }
            Value::Seq(items) if items.len() == 2 => {
                let lo = self.count(&items[0], what, max);
                let hi = self.count(&items[1], what, max);
                (lo?.value, hi?.value)
            }
            Value::Str(s) => match s.split_once("..") {
                Some((a, b)) => match (a.trim().parse::<u32>(), b.trim().parse::<u32>()) {
                    (Ok(a), Ok(b)) if a <= max && b <= max => (a, b),
                    (Ok(_), Ok(_)) => {
                        self.error(
                            "yaml::out-of-range",
                            span,
                            format!("{what} `{s}` goes beyond {max}"),
                            "out of range",
                            format!("keep both bounds within 0..={max}"),
                        );
                        return None;
                    }
                    _ => {
                        self.wrong_type(node, "a range such as 3..8", what);
                        return None;
                    }
                },
                None => {
                    self.wrong_type(node, "a range such as 3..8", what);
                    return None;
                }
            },
            _ => {
                self.wrong_type(node, "a range (5, [3, 8] or \"3..8\")", what);
                return None;
            }
        };
        if lo > hi {
            self.error(
                "yaml::empty-range",
                span,
                format!("{what} runs from {lo} down to {hi}: the minimum is above the maximum"),
                "min > max",
                format!("write it as {hi}..{lo}"),
            );
            return None;
        }
        Some(Sp::new((lo, hi), node.span.clone()))
    }

    /// Reads one of a fixed set of names, with a did-you-mean on a near miss.
    pub fn one_of(&mut self, node: &Node, what: &str, accepted: &[&str]) -> Option<Sp<String>> {
        let s = self.string(node, what)?;
        if accepted.contains(&s.value.as_str()) {
            return Some(s);
        }
        self.error(
            "yaml::unknown-value",
            node.span.clone(),
            format!("unknown {what} `{}`", s.value),
            "not recognised",
            suggest(&s.value, accepted),
        );
        None
    }
}

/// The entries of a mapping being decoded; remembers which keys were read so
/// that [`Fields::finish`] can report the unknown ones.
pub struct Fields<'n> {
    /// The mapping node itself.
    pub node: &'n Node,
    entries: &'n [(Node, Node)],
    used: Vec<bool>,
}

impl<'n> Fields<'n> {
    /// The value of `key`, marking it as known.
    pub fn get(&mut self, key: &str) -> Option<&'n Node> {
        let i = self.entries.iter().position(|(k, _)| key_str(k) == key)?;
        self.used[i] = true;
        Some(&self.entries[i].1)
    }

    /// The value of a required `key`; reports its absence.
    pub fn require(&mut self, d: &mut Decoder, key: &str, what: &str) -> Option<&'n Node> {
        let v = self.get(key);
        if v.is_none() {
            d.error(
                "yaml::missing-field",
                self.node.span.clone(),
                format!("{what} has no `{key}`"),
                format!("`{key}` missing here"),
                format!("add `{key}:`"),
            );
        }
        v
    }

    /// The span of `key` itself (for labels on a key rather than its value).
    pub fn key_span(&self, key: &str) -> Option<Range<usize>> {
        self.entries
            .iter()
            .find(|(k, _)| key_str(k) == key)
            .map(|(k, _)| k.span.clone())
    }

    /// Whether an unknown key of this mapping looks like a misspelling of `key`.
    pub fn has_near_miss(&self, key: &str, known: &[&str]) -> bool {
        self.entries.iter().any(|(k, _)| {
            let name = key_str(k);
            !known.contains(&name) && did_you_mean(name, [key]).is_some()
        })
    }

    /// All entries not yet read, in file order (for maps keyed by user names).
    pub fn rest(&mut self) -> Vec<(&'n Node, &'n Node)> {
        let mut out = Vec::new();
        for (i, (k, v)) in self.entries.iter().enumerate() {
            if !self.used[i] {
                self.used[i] = true;
                out.push((k, v));
            }
        }
        out
    }

    /// Reports every key that was never read, suggesting the closest known one.
    pub fn finish(self, d: &mut Decoder, what: &str, known: &[&str]) {
        for (i, (k, _)) in self.entries.iter().enumerate() {
            if self.used[i] {
                continue;
            }
            let name = key_str(k);
            // A second occurrence of a key is reported as a duplicate.
            if self.entries[..i].iter().any(|(e, _)| key_str(e) == name) {
                continue;
            }
            d.error(
                "yaml::unknown-field",
                k.span.clone(),
                format!("unknown field `{name}` in {what}"),
                "unknown field",
                suggest(name, known),
            );
        }
    }
}

fn key_str(k: &Node) -> &str {
    match &k.value {
        Value::Str(s) => s,
        _ => "",
    }
}
