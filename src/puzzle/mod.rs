//! Locks, keys and solvability, and the nested lock-and-key puzzle generator.
//!
//! - [`Puzzle`] is a small view of a level as the player sees it: rooms with
//!   the keys lying in them, doors with their lock and direction. It is built
//!   from a [`Level`](crate::level::Level), from an expanded
//!   [`LevelGraph`](crate::graph::LevelGraph) or from a flow's node graph.
//! - [`analyse`] decides solvability exactly (a search over room x keys held
//!   that honours one-way doors) and, when the level is solvable, writes a
//!   walkthrough: the critical path with the detours its keys need.
//! - [`nested::build`] is the `generator: nested_puzzle` graph source.
//!
//! **The key rule.** A key opens every door locked with its id, from either
//! side (a one-way locked door only forwards); keys are kept once picked up
//! (never consumed), so an opened door stays open. Entering a room picks up
//! every key lying in it.
//!
//! **Solvable** means: from the entrance, the player can pick up every key of
//! the level and then reach the goal (the boss room, else the exit; a level
//! with neither needs only its keys), without ever getting stuck on the way
//! the solver takes.

pub mod nested;
mod solve;
mod text;
mod view;

pub use solve::{Analysis, Bypass, Problem, Solution, Step, Trap, analyse};
pub use view::{Puzzle, PuzzleDoor, PuzzleRoom};
