//! The walkthrough as text (what `dungeonflow solve` prints).

use std::fmt::Write;

use super::solve::{Analysis, Step};

impl Analysis {
    /// The verdict, the walkthrough (one numbered line per room entered,
    /// with the lock opened to enter it and the keys picked up there) and
    /// notes on bypassed locks and one-way traps. `title` names the level.
    pub fn report(&self, title: &str) -> String {
        let mut out = String::new();
        let verdict = if self.solvable {
            "solvable"
        } else if self.complete {
            "NOT SOLVABLE"
        } else {
            "NOT PROVEN SOLVABLE (search budget exceeded)"
        };
        let _ = writeln!(out, "{title}: {verdict}");
        let _ = writeln!(
            out,
            "goal: {}; keys: {}, locked doors: {}",
            self.goal
                .as_deref()
                .map_or("none (every key)".to_owned(), |g| format!("`{g}`")),
            self.keys,
            self.locks
        );
        if let Some(s) = &self.solution {
            let _ = writeln!(
                out,
                "critical path: {} rooms entered ({} distinct rooms visited), backtracking: {}, keys picked up: {}, locks opened: {}",
                s.length, s.rooms, s.backtracking, s.keys, s.locks
            );
            let mut lines: Vec<(String, Vec<String>)> = Vec::new();
            let mut pending: Vec<String> = Vec::new();
            for step in &s.steps {
                match step {
                    Step::Start { room } => lines.push((room.clone(), vec!["start".to_owned()])),
                    Step::Open { key, from, to } => {
                        pending.push(format!("unlock `{key}` ({from} -> {to})"));
                    }
                    Step::Walk { room, revisit } => {
                        let mut notes = std::mem::take(&mut pending);
                        if *revisit {
                            notes.insert(0, "back".to_owned());
                        }
                        lines.push((room.clone(), notes));
                    }
                    Step::PickUp { key, .. } => {
                        if let Some((_, notes)) = lines.last_mut() {
                            notes.push(format!("pick up `{key}`"));
                        }
                    }
                }
            }
            if let (Some(goal), Some((room, notes))) = (&self.goal, lines.last_mut())
                && room == goal
            {
                notes.push("goal".to_owned());
            }
            let width = lines.iter().map(|(r, _)| r.len()).max().unwrap_or(0);
            for (i, (room, notes)) in lines.iter().enumerate() {
                let line = format!("{i:>4}  {room:<width$}  {}", notes.join(", "));
                out += line.trim_end();
                out.push('\n');
            }
        }
        for p in &self.problems {
            let _ = writeln!(out, "  problem: {}", p.message);
        }
        if !self.solvable && !self.unreachable.is_empty() {
            let _ = writeln!(
                out,
                "  never reached: {}",
                self.unreachable
                    .iter()
                    .map(|r| format!("`{r}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        for b in &self.bypasses {
            let _ = writeln!(
                out,
                "  note: lock `{}` on {} -> {} can be bypassed: both rooms are reachable without its key",
                b.key, b.from, b.to
            );
        }
        for t in &self.traps {
            let _ = writeln!(
                out,
                "  note: the one-way door {} -> {} strands the player when taken too early{}",
                t.from,
                t.to,
                if t.missing.is_empty() {
                    String::new()
                } else {
                    format!(
                        " (without {})",
                        t.missing
                            .iter()
                            .map(|k| format!("`{k}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                }
            );
        }
        out
    }
}
