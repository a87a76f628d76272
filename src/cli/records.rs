//! Reading `bake` records back: `stats --from` merges them into a report,
//! and `bake` resumes a folder from them.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::path::Path;

use crate::diag::Diagnostic;
use crate::stats::{Outcome, RECORD_FORMAT, Record, Stats};

/// The records of one JSON Lines file, in file order. A last line without
/// its newline that does not parse is a run cut short and is left out
/// (`bake` drops it when it resumes); any other bad line is an error
/// naming its line.
pub fn read(path: &Path) -> Result<Vec<Record>, Diagnostic> {
    let cannot = |e: std::io::Error| {
        Diagnostic::error(
            "stats::unreadable",
            format!("cannot read records from `{}`: {e}", path.display()),
        )
    };
    let mut reader = BufReader::new(std::fs::File::open(path).map_err(cannot)?);
    let mut records = Vec::new();
    let mut line = String::new();
    for number in 1.. {
        line.clear();
        if reader.read_line(&mut line).map_err(cannot)? == 0 {
            break;
        }
        if line.trim().is_empty() {
            continue;
        }
        let whole = line.ends_with('\n');
        match serde_json::from_str::<Record>(&line) {
            Ok(r) if r.format == RECORD_FORMAT => records.push(r),
            Ok(r) => {
                return Err(bad(path, number, &format!("its format is `{}`", r.format))
                    .help(format!("this dungeonflow reads `{RECORD_FORMAT}` records")));
            }
            Err(_) if !whole => break,
            Err(e) => return Err(bad(path, number, &e.to_string())),
        }
    }
    Ok(records)
}

fn bad(path: &Path, line: usize, why: &str) -> Diagnostic {
    Diagnostic::error(
        "stats::bad-record",
        format!(
            "line {line} of `{}` is not a bake record: {why}",
            path.display()
        ),
    )
    .help(
        "give the JSON Lines files `dungeonflow bake` wrote (stdout, or FLOW*.jsonl in its folder)",
    )
}

/// The report of the records in `paths`: the flow `flow` when given, else
/// the only flow they hold. A seed recorded more than once counts once.
pub fn merge(paths: &[std::path::PathBuf], flow: Option<&str>) -> Result<Stats, Vec<Diagnostic>> {
    let mut by_flow: BTreeMap<String, BTreeMap<u64, Record>> = BTreeMap::new();
    let mut differing = BTreeSet::new();
    for path in paths {
        for r in read(path).map_err(|d| vec![d])? {
            let seeds = by_flow.entry(r.flow.clone()).or_default();
            match seeds.get(&r.seed) {
                Some(first) if !same_result(first, &r) => {
                    differing.insert((r.flow.clone(), r.seed));
                }
                Some(_) => {}
                None => {
                    seeds.insert(r.seed, r);
                }
            }
        }
    }
    let names: Vec<String> = by_flow.keys().cloned().collect();
    let wanted = match (flow, names.as_slice()) {
        (Some(f), _) => f.to_owned(),
        (None, [only]) => only.clone(),
        (None, []) => {
            return Err(vec![Diagnostic::error(
                "stats::no-records",
                "the files hold no bake record",
            )]);
        }
        (None, _) => {
            return Err(vec![
                Diagnostic::error(
                    "stats::several-flows",
                    format!("the records are of several flows: {}", names.join(", ")),
                )
                .help("name the flow to report: `dungeonflow stats FLOW --from ...`"),
            ]);
        }
    };
    let Some(seeds) = by_flow.remove(&wanted) else {
        return Err(vec![
            Diagnostic::error(
                "stats::no-records",
                format!("no record is of flow `{wanted}`"),
            )
            .help(format!("the records are of: {}", names.join(", "))),
        ]);
    };
    let mut warnings = Vec::new();
    let inputs: BTreeSet<&str> = seeds.values().map(|r| r.inputs.as_str()).collect();
    if inputs.len() > 1 {
        warnings.push(Diagnostic::warning(
            "stats::mixed-inputs",
            format!(
                "the records of `{wanted}` come from {} different sets of flow and room files (their `inputs` hashes differ): the report mixes them",
                inputs.len()
            ),
        ));
    }
    let twice: Vec<String> = differing
        .iter()
        .filter(|(f, _)| *f == wanted)
        .map(|(_, s)| s.to_string())
        .collect();
    if !twice.is_empty() {
        warnings.push(Diagnostic::warning(
            "stats::conflicting-records",
            format!(
                "seeds recorded twice with different results (the first is kept): {}",
                twice.join(", ")
            ),
        ));
    }
    super::report(&warnings);
    let outcomes: Vec<Outcome> = seeds.values().map(Outcome::of_record).collect();
    Ok(Stats::of(&wanted, &outcomes))
}

/// Whether two records of one seed say the same (timings aside).
fn same_result(a: &Record, b: &Record) -> bool {
    a.inputs == b.inputs && a.ok == b.ok && a.measures == b.measures && a.failure == b.failure
}
