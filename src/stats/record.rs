//! One line of a `bake` JSON Lines file: what became of one seed.

use serde::{Deserialize, Serialize};

use super::measures::Measures;
use crate::diag::Diagnostic;
use crate::level::Level;

/// The `format` of every record this version writes.
pub const RECORD_FORMAT: &str = "dungeonflow-bake/1";

/// What became of one seed of one flow. Records carry no timing unless
/// asked (`bake --timings`), so the same inputs give the same bytes on
/// every machine and in every shard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Always [`RECORD_FORMAT`].
    pub format: String,
    /// The flow's name.
    pub flow: String,
    /// The seed.
    pub seed: u64,
    /// The dungeonflow version that made it.
    pub version: String,
    /// A hash of the flow and room files the level was made from
    /// (`sha256:` and 64 hex digits): records with different hashes come
    /// from different inputs.
    pub inputs: String,
    /// Whether a level was made.
    pub ok: bool,
    /// Whether the level met the bake's filter (`--where`); always true
    /// without one. False when no level was made.
    pub kept: bool,
    /// The level's measures, when one was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measures: Option<Measures>,
    /// Why no level was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<Failure>,
    /// Milliseconds the seed took (`bake --timings` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<f64>,
}

/// The diagnostic of a seed that made no level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Failure {
    /// Its code, such as `layout::failed`.
    pub code: String,
    /// Its message.
    pub message: String,
}

impl Failure {
    /// The failure of `seed` that `d` describes.
    pub fn of(d: &Diagnostic) -> Failure {
        Failure {
            code: d.code.to_owned(),
            message: d.message.clone(),
        }
    }

    /// The message without its seed, so that the failures of many seeds
    /// group by reason.
    pub fn reason(&self, seed: u64) -> String {
        self.message.replace(&format!(" (seed {seed})"), "")
    }
}

/// A record and, when asked, its level, as one JSON line.
#[derive(Serialize)]
pub struct RecordLine<'a> {
    /// The record's fields.
    #[serde(flatten)]
    pub record: &'a Record,
    /// The level itself (`bake --levels`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<&'a Level>,
}

impl RecordLine<'_> {
    /// The line, without its newline.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a record serialises")
    }
}
