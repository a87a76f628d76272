//! `bake`: shards that add up to the whole run byte for byte, records that
//! `stats --from` merges into the direct report, filters, resuming a
//! folder, failures as records, and the GNU parallel recipe of the guide.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

#[path = "support/example_project.rs"]
mod example;
#[path = "support/suite.rs"]
mod suite;
use example::copy_example_to;

fn df(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dungeonflow"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("runs")
}

fn df_ok(dir: &Path, args: &[&str]) -> Output {
    let out = df(dir, args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn lines(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

fn seed_of(line: &str) -> u64 {
    let v: Value = serde_json::from_str(line).expect("a JSON record");
    v["seed"].as_u64().expect("a seed")
}

/// A folder outside the repository (whose `flows/` and `rooms/` would make
/// it a project): the bundled content is used.
fn neutral() -> tempfile::TempDir {
    tempfile::tempdir().expect("tmp")
}

#[test]
fn shards_of_any_count_add_up_to_the_whole_run_byte_for_byte() {
    let dir = neutral();
    let seeds = format!("3..{}", 3 + suite::seeds(60));
    let whole = lines(&df_ok(dir.path(), &["bake", "classic", "--seeds", &seeds]));
    assert_eq!(whole.len() as u64, suite::seeds(60));
    assert_eq!(
        whole.iter().map(|l| seed_of(l)).collect::<Vec<_>>(),
        (3..3 + suite::seeds(60)).collect::<Vec<_>>(),
        "records come in seed order"
    );
    for n in [2u64, 3, 7] {
        let mut union = Vec::new();
        for k in 0..n {
            let shard = format!("{k}/{n}");
            let part = lines(&df_ok(
                dir.path(),
                &["bake", "classic", "--seeds", &seeds, "--shard", &shard],
            ));
            assert!(part.iter().all(|l| seed_of(l) % n == k), "shard {shard}");
            union.extend(part);
        }
        union.sort_by_key(|l| seed_of(l));
        assert_eq!(union, whole, "{n} shards");
    }
    // The same on one thread: records do not depend on the threads.
    let one = lines(&df_ok(
        dir.path(),
        &["bake", "classic", "--seeds", &seeds, "--threads", "1"],
    ));
    assert_eq!(one, whole);
}

#[test]
fn stats_from_four_shards_equals_a_direct_stats_run_timings_aside() {
    let dir = neutral();
    let n = suite::seeds(200);
    let seeds = format!("0..{n}");
    let mut files = Vec::new();
    for k in 0..4 {
        let out = df_ok(
            dir.path(),
            &[
                "bake",
                "keys_and_locks",
                "--seeds",
                &seeds,
                "--shard",
                &format!("{k}/4"),
            ],
        );
        let file = dir.path().join(format!("shard{k}.jsonl"));
        std::fs::write(&file, &out.stdout).expect("write");
        files.push(file.to_string_lossy().into_owned());
    }
    let mut args = vec!["stats", "--json", "--from"];
    args.extend(files.iter().map(String::as_str));
    let merged: Value = serde_json::from_slice(&df_ok(dir.path(), &args).stdout).expect("json");
    let direct: Value = serde_json::from_slice(
        &df_ok(
            dir.path(),
            &[
                "stats",
                "keys_and_locks",
                "--seeds",
                &n.to_string(),
                "--json",
            ],
        )
        .stdout,
    )
    .expect("json");
    let without_time = |v: &Value| {
        let mut m = v.as_object().expect("an object").clone();
        m.remove("time_ms");
        m
    };
    assert_eq!(without_time(&merged), without_time(&direct));
    assert_eq!(merged["time_ms"], Value::Null);
    assert!(direct["time_ms"]["median"].as_f64().is_some());
    // The table says so too, and a shard given twice counts once.
    args.push(&files[0]);
    args.retain(|a| *a != "--json");
    let table = String::from_utf8_lossy(&df_ok(dir.path(), &args).stdout).into_owned();
    assert!(
        table.contains(&format!("{n} of {n} seeds laid out")),
        "{table}"
    );
    assert!(
        table.contains("not recorded (bake with --timings)"),
        "{table}"
    );
}

#[test]
fn a_folder_holds_one_level_per_kept_seed_and_a_rerun_skips_recorded_seeds() {
    let dir = neutral();
    let out = dir.path().join("pool");
    let out_arg = out.to_string_lossy().into_owned();
    let first = df_ok(
        dir.path(),
        &["bake", "classic", "--seeds", "0..6", "-o", &out_arg],
    );
    assert!(
        String::from_utf8_lossy(&first.stderr)
            .contains("6 seeds, 6 levels (6 kept), 0 failed; 0 already recorded"),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let level: Value =
        serde_json::from_slice(&std::fs::read(out.join("classic-4.json")).expect("a level"))
            .expect("level JSON");
    assert_eq!(level["seed"], 4);
    // The level file is what `generate` writes for that seed.
    let direct = df_ok(
        dir.path(),
        &["generate", "classic", "--seed", "4", "--format", "json"],
    );
    assert_eq!(
        std::fs::read(out.join("classic-4.json")).expect("read"),
        direct.stdout
    );
    // A run cut short left a half-written last record: it is dropped and
    // its seed done again.
    let records = out.join("classic.jsonl");
    let mut text = std::fs::read_to_string(&records).expect("records");
    text += "{\"format\":\"dungeonflow-bake/1\",\"flow\":\"classic\",\"se";
    std::fs::write(&records, text).expect("write");
    let again = df_ok(
        dir.path(),
        &["bake", "classic", "--seeds", "0..10", "-o", &out_arg],
    );
    assert!(
        String::from_utf8_lossy(&again.stderr)
            .contains("4 seeds, 4 levels (4 kept), 0 failed; 6 already recorded"),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let seeds: Vec<u64> = std::fs::read_to_string(&records)
        .expect("records")
        .lines()
        .map(seed_of)
        .collect();
    assert_eq!(seeds, (0..10).collect::<Vec<_>>());
    // The folder's records are the stdout records, byte for byte.
    let stdout = df_ok(dir.path(), &["bake", "classic", "--seeds", "0..10"]);
    assert_eq!(std::fs::read(&records).expect("read"), stdout.stdout);
}

#[test]
fn a_filter_keeps_only_the_levels_that_meet_it() {
    let dir = neutral();
    let all = lines(&df_ok(dir.path(), &["bake", "classic", "--seeds", "0..12"]));
    let rooms: BTreeMap<u64, u64> = all
        .iter()
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("json");
            (seed_of(l), v["measures"]["rooms"].as_u64().expect("rooms"))
        })
        .collect();
    let median = {
        let mut r: Vec<u64> = rooms.values().copied().collect();
        r.sort_unstable();
        r[r.len() / 2]
    };
    let condition = format!("rooms >= {median} && direct_doors >= 0 && solvable");
    let out = dir.path().join("vetted");
    let out_arg = out.to_string_lossy().into_owned();
    df_ok(
        dir.path(),
        &[
            "bake", "classic", "--seeds", "0..12", "-o", &out_arg, "--format", "svg", "--where",
            &condition,
        ],
    );
    for (seed, n) in &rooms {
        let file = out.join(format!("classic-{seed}.svg"));
        assert_eq!(file.exists(), *n >= median, "seed {seed} with {n} rooms");
    }
    let records = std::fs::read_to_string(out.join("classic.jsonl")).expect("records");
    for line in records.lines() {
        let v: Value = serde_json::from_str(line).expect("json");
        let kept = v["measures"]["rooms"].as_u64().expect("rooms") >= median;
        assert_eq!(v["kept"], kept, "{line}");
    }
    // With --levels, a kept level travels in its record.
    let with = lines(&df_ok(
        dir.path(),
        &[
            "bake", "classic", "--seeds", "0..4", "--levels", "--where", &condition,
        ],
    ));
    for line in &with {
        let v: Value = serde_json::from_str(line).expect("json");
        assert_eq!(
            v["kept"].as_bool(),
            Some(v.get("level").is_some()),
            "{line}"
        );
        if let Some(level) = v.get("level") {
            assert_eq!(level["format"], "dungeonflow-level/1");
        }
    }
}

#[test]
fn a_seed_that_gives_no_level_is_a_record_and_the_run_succeeds() {
    // Seven boss rooms, six boss templates: no seed expands.
    let dir = neutral();
    let bosses: String = (1..=7).map(|i| format!("  b{i}: boss\n")).collect();
    let chain: Vec<String> = (1..=7).map(|i| format!("b{i}")).collect();
    std::fs::write(
        dir.path().join("bosses.yaml"),
        format!(
            "name: bosses\nnodes:\n  start: entrance\n{bosses}edges:\n  - start -> {}\n",
            chain.join(" -> ")
        ),
    )
    .expect("write");
    let out = df_ok(dir.path(), &["bake", "bosses.yaml", "--seeds", "0..3"]);
    let records = lines(&out);
    assert_eq!(records.len(), 3);
    for line in &records {
        let v: Value = serde_json::from_str(line).expect("json");
        assert_eq!(
            (v["ok"].as_bool(), v["kept"].as_bool()),
            (Some(false), Some(false))
        );
        assert_eq!(v["failure"]["code"], "expand::category-dry", "{line}");
        assert!(v.get("measures").is_none());
    }
    let file = dir.path().join("bosses.jsonl");
    std::fs::write(&file, &out.stdout).expect("write");
    let merged = df(dir.path(), &["stats", "--from", "bosses.jsonl"]);
    assert_eq!(merged.status.code(), Some(1), "no level: stats exits 1");
    assert!(String::from_utf8_lossy(&merged.stdout).contains("no level"));
}

#[test]
fn bad_arguments_are_refused_before_any_work() {
    let dir = neutral();
    for (args, code, says) in [
        (
            &["bake", "classic", "--seeds", "5..5"][..],
            2,
            "holds no seed",
        ),
        (
            &["bake", "classic", "--seeds", "5"][..],
            2,
            "not a seed range",
        ),
        (
            &["bake", "classic", "--seeds", "0..9", "--shard", "4/4"][..],
            2,
            "not a shard",
        ),
        (
            &["bake", "classic", "--seeds", "0..9", "--shard", "1/0"][..],
            2,
            "not a shard",
        ),
        (
            &[
                "bake", "classic", "--seeds", "0..9", "-o", "x", "--format", "jsonl",
            ][..],
            1,
            "not to a folder",
        ),
        (
            &["bake", "classic", "--seeds", "0..9", "--format", "png"][..],
            1,
            "need a folder",
        ),
        (
            &["bake", "classic", "--seeds", "0..9", "--where", "romos > 2"][..],
            1,
            "did you mean `rooms`",
        ),
        (
            &["bake", "nowhere", "--seeds", "0..9"][..],
            1,
            "no flow named",
        ),
        (
            &["stats", "--from", "missing.jsonl"][..],
            1,
            "cannot read records",
        ),
    ] {
        let out = df(dir.path(), args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    assert!(!dir.path().join("x").exists(), "nothing was made");
    // A shard with no seed of the range is an empty run, not an error.
    let out = df_ok(
        dir.path(),
        &["bake", "classic", "--seeds", "5..6", "--shard", "0/4"],
    );
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains(": 0 seeds,"));
    let near_end = df_ok(
        dir.path(),
        &[
            "bake",
            "classic",
            "--seeds",
            "18446744073709551612..=18446744073709551614",
            "--shard",
            "1/3",
        ],
    );
    assert_eq!(
        lines(&near_end).len(),
        1,
        "one seed of three near the end of the range"
    );
    std::fs::write(
        dir.path().join("bad.jsonl"),
        "{\"format\":\"dungeonflow-bake/1\"}\n",
    )
    .expect("write");
    let out = df(dir.path(), &["stats", "--from", "bad.jsonl"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("line 1 of `bad.jsonl` is not a bake record")
    );
}

#[test]
fn a_bad_filter_points_at_its_column() {
    let dir = neutral();
    let out = df(
        dir.path(),
        &[
            "bake",
            "classic",
            "--seeds",
            "0..2",
            "--where",
            "rooms >= 20 && solvable > 1",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    insta::assert_snapshot!(String::from_utf8_lossy(&out.stderr));
}

#[test]
fn gnu_parallel_bakes_the_shards_of_the_guide() {
    if !suite::program("parallel", "Debian: apt-get install parallel") {
        return;
    }
    let dir = neutral();
    let bin = env!("CARGO_BIN_EXE_dungeonflow");
    // The guide's recipe, with the binary's path and 4 shards.
    let script = format!(
        "parallel --halt now,fail=1 '{bin} bake classic --seeds 0..40 --shard {{}}/4 > shard-{{}}.jsonl' ::: 0 1 2 3 \
         && {bin} stats --from shard-*.jsonl --json > merged.json"
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .current_dir(dir.path())
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let merged: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("merged.json")).expect("merged"))
            .expect("json");
    assert_eq!(merged["seeds"], 40);
    assert_eq!(merged["succeeded"], 40);
}

#[test]
fn the_inputs_hash_follows_the_files_contents_not_their_paths() {
    let hash_in = |dir: &Path| {
        let out = df_ok(dir, &["bake", "crypt", "--seeds", "0..1"]);
        let v: Value = serde_json::from_slice(&out.stdout).expect("a record");
        v["inputs"].as_str().expect("a hash").to_owned()
    };
    let (a, b) = (neutral(), neutral());
    copy_example_to(a.path());
    copy_example_to(&b.path().join("elsewhere"));
    let first = hash_in(a.path());
    assert!(
        first.starts_with("sha256:") && first.len() == 7 + 64,
        "{first}"
    );
    assert_eq!(hash_in(&b.path().join("elsewhere")), first);
    let vault = a.path().join("rooms/vault.yaml");
    let text = std::fs::read_to_string(&vault).expect("read");
    std::fs::write(&vault, format!("{text}# a comment changes the file\n")).expect("write");
    assert_ne!(hash_in(a.path()), first);
}
