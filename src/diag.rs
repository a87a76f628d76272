//! Diagnostics: every problem found in a flow or room file, with the exact
//! YAML node it is about.
//!
//! A [`Diagnostic`] is plain data (code, severity, message, help, labelled byte
//! spans in one [`SourceFile`]). It renders through miette's graphical handler
//! for people and as JSON (file, line, column, code, message) for editors and CI.

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceCode};
use serde::Serialize;

/// How the name of a bundled (embedded) file starts: `bundled:rooms/x.yaml`.
pub const BUNDLED_PREFIX: &str = "bundled:";

/// The text of one loaded file, shared by every diagnostic that points into it.
#[derive(Debug)]
pub struct SourceFile {
    /// Display name: a path, or `bundled:rooms/x.yaml` for embedded content.
    pub name: String,
    /// The full text.
    pub text: String,
}

impl SourceFile {
    /// Wraps a file's name and text for sharing between diagnostics.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Arc<Self> {
        Arc::new(Self {
            name: name.into(),
            text: text.into(),
        })
    }

    /// Whether it is bundled content (see [`BUNDLED_PREFIX`]).
    pub fn is_bundled(&self) -> bool {
        self.name.starts_with(BUNDLED_PREFIX)
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let before = &self.text[..floor_char_boundary(&self.text, offset)];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (line, before[line_start..].chars().count() + 1)
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// How bad a diagnostic is. Errors make `validate` exit non-zero; warnings do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Legal but suspicious.
    Warning,
    /// The file cannot be used as it is.
    Error,
}

/// A labelled byte range of the diagnostic's file.
#[derive(Clone, Debug)]
pub struct Label {
    /// Byte range in [`SourceFile::text`].
    pub span: Range<usize>,
    /// Short text shown under the span.
    pub text: String,
}

/// One problem in one file.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    /// Stable machine-readable code such as `flow::undefined-node`.
    pub code: &'static str,
    /// Error or warning.
    pub severity: Severity,
    /// One-line statement of the problem.
    pub message: String,
    /// How to fix it.
    pub help: Option<String>,
    /// The file the labels point into (`None` for problems with no file).
    pub file: Option<Arc<SourceFile>>,
    /// Labelled spans; the first is the primary location.
    pub labels: Vec<Label>,
}

impl Diagnostic {
    /// A new error with no label yet.
    pub fn error(code: &'static str, message: impl Into<String>) -> Self {
        Self {
            code,
            severity: Severity::Error,
            message: message.into(),
            help: None,
            file: None,
            labels: Vec::new(),
        }
    }

    /// A new warning with no label yet.
    pub fn warning(code: &'static str, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Warning,
            ..Self::error(code, message)
        }
    }

    /// Points the diagnostic at a file.
    pub fn in_file(mut self, file: &Arc<SourceFile>) -> Self {
        self.file = Some(Arc::clone(file));
        self
    }

    /// Adds a labelled span.
    pub fn label(mut self, span: Range<usize>, text: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            text: text.into(),
        });
        self
    }

    /// Sets the help line.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Whether this diagnostic is an error (as opposed to a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// File name, 1-based line and column of the primary label.
    pub fn location(&self) -> Option<(String, usize, usize)> {
        let file = self.file.as_ref()?;
        let (line, col) = self
            .labels
            .first()
            .map_or((1, 1), |l| file.line_col(l.span.start));
        Some((file.name.clone(), line, col))
    }

    /// Renders with miette's graphical handler (unicode, no colour when `color` is false).
    pub fn render(&self, color: bool) -> String {
        let theme = if color {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        let mut out = String::new();
        let handler = GraphicalReportHandler::new_themed(theme).with_width(100);
        let report = MietteView::new(self);
        // Writing into a String cannot fail.
        let _ = handler.render_report(&mut out, &report);
        out
    }

    /// The machine-readable form used by `validate --format json`.
    pub fn to_json(&self) -> JsonDiagnostic {
        let (file, line, column) = self
            .location()
            .map_or((None, None, None), |(f, l, c)| (Some(f), Some(l), Some(c)));
        JsonDiagnostic {
            file,
            line,
            column,
            severity: self.severity,
            code: self.code,
            message: self.message.clone(),
            help: self.help.clone(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.location() {
            Some((file, line, col)) => write!(f, "{file}:{line}:{col}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for Diagnostic {}

/// The JSON shape of a diagnostic.
#[derive(Debug, Serialize)]
pub struct JsonDiagnostic {
    /// File name, when the problem is in a file.
    pub file: Option<String>,
    /// 1-based line of the primary label.
    pub line: Option<usize>,
    /// 1-based column (characters) of the primary label.
    pub column: Option<usize>,
    /// `error` or `warning`.
    pub severity: Severity,
    /// Stable code.
    pub code: &'static str,
    /// The problem.
    pub message: String,
    /// How to fix it.
    pub help: Option<String>,
}

/// Adapter that lets miette render a [`Diagnostic`].
struct MietteView {
    diag: Diagnostic,
    source: Option<NamedSource<String>>,
}

impl MietteView {
    fn new(diag: &Diagnostic) -> Self {
        Self {
            diag: diag.clone(),
            source: diag
                .file
                .as_ref()
                .map(|f| NamedSource::new(f.name.clone(), f.text.clone())),
        }
    }
}

impl fmt::Debug for MietteView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.diag, f)
    }
}

impl fmt::Display for MietteView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diag.message)
    }
}

impl std::error::Error for MietteView {}

impl miette::Diagnostic for MietteView {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.diag.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diag.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.diag
            .help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_ref().map(|s| s as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.source.as_ref()?;
        let len = self.diag.file.as_ref().map_or(0, |f| f.text.len());
        Some(Box::new(self.diag.labels.iter().map(move |l| {
            let start = l.span.start.min(len);
            let end = l.span.end.clamp(start, len);
            LabeledSpan::new_with_span(Some(l.text.clone()), start..end)
        })))
    }
}

/// "did you mean `x`?" for a name close to one of `known` (Jaro-Winkler >= 0.8).
pub fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<String> {
    known
        .into_iter()
        .map(|k| (strsim::jaro_winkler(name, k), k))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| format!("did you mean `{k}`?"))
}

/// Help text listing the accepted names, prefixed by a suggestion when one is close.
pub fn suggest(name: &str, known: &[&str]) -> String {
    let list = known.join(", ");
    match did_you_mean(name, known.iter().copied()) {
        Some(dym) => format!("{dym} (accepted: {list})"),
        None => format!("accepted: {list}"),
    }
}
