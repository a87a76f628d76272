//! Generates a bundled flow and walks its level breadth first from the
//! entrance, printing how each room is reached and the keys it holds.
//!
//! `cargo run --example walk_level -- [FLOW] [SEED]` (default: `classic`, 1).

use std::collections::{BTreeMap, VecDeque};

use dungeonflow::Project;
use dungeonflow::level::ConnectionKind;

/// A way out of a room: the neighbour, door or corridor, and its lock.
type Passage<'a> = (&'a str, ConnectionKind, Option<&'a str>);

fn main() -> std::process::ExitCode {
    let mut args = std::env::args().skip(1);
    let flow = args.next().unwrap_or_else(|| "classic".to_owned());
    let seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let project = Project::bundled();
    let level = match project.generate(&flow, seed) {
        Ok(level) => level,
        Err(error) => {
            eprint!("{}", error.render(false));
            return std::process::ExitCode::FAILURE;
        }
    };
    let mut passages: BTreeMap<&str, Vec<Passage>> = BTreeMap::new();
    for c in &level.connections {
        let lock = c.lock.as_deref();
        passages
            .entry(&c.from)
            .or_default()
            .push((&c.to, c.kind, lock));
        if !c.one_way {
            passages
                .entry(&c.to)
                .or_default()
                .push((&c.from, c.kind, lock));
        }
    }
    let Some(entrance) = level.rooms.iter().find(|r| r.category == "entrance") else {
        eprintln!("flow `{flow}` has no entrance");
        return std::process::ExitCode::FAILURE;
    };
    println!(
        "{flow} (seed {seed}): {} rooms on {}x{} tiles",
        level.rooms.len(),
        level.width,
        level.height
    );
    let mut seen = vec![entrance.id.as_str()];
    let mut queue = VecDeque::from([(entrance.id.as_str(), 0, "entrance".to_owned())]);
    while let Some((room, depth, how)) = queue.pop_front() {
        let keys: Vec<&str> = level
            .items
            .iter()
            .filter(|i| i.room == room)
            .map(|i| i.id.as_str())
            .collect();
        let keys = if keys.is_empty() {
            String::new()
        } else {
            format!("; keys: {}", keys.join(", "))
        };
        println!("{:indent$}{room} ({how}{keys})", "", indent = depth * 2);
        for &(next, kind, lock) in passages.get(room).into_iter().flatten() {
            if seen.contains(&next) {
                continue;
            }
            seen.push(next);
            let how = match (kind, lock) {
                (_, Some(lock)) => format!("door locked by {lock}"),
                (ConnectionKind::Door, None) => "door".to_owned(),
                (ConnectionKind::Corridor, None) => "corridor".to_owned(),
                (ConnectionKind::Warp, None) => "warp".to_owned(),
            };
            queue.push_back((next, depth + 1, format!("{how} from {room}")));
        }
    }
    std::process::ExitCode::SUCCESS
}
