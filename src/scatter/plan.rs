//! The stages run in order for one level, with bounded attempts: spawn,
//! separate, select main rooms, triangulate, span, route, keep fillers.

use rustc_hash::FxHashSet;

use crate::rng::Rng;

use super::band::band;
use super::fillers::kept_fillers;
use super::grid::Grid;
use super::rect::Rect;
use super::roles::{Roles, roles};
use super::route::{Route, route};
use super::select::main_rooms;
use super::separate::{Spacing, Stuck, separate};
use super::settings::Settings;
use super::spanning::spanning;
use super::spawn::spawn;
use super::triangulate::delaunay;

/// Attempts (each with freshly spawned rooms) before giving up.
pub const ATTEMPTS: u32 = 3;

/// Everything decided about one level, before it is drawn. Room indices
/// are indices into `floors`; links are pairs `(a, b)` with `a < b`.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Corridor width.
    pub width: i32,
    /// Floor of every spawned room, after separation.
    pub floors: Vec<Rect>,
    /// Separation steps used (both passes).
    pub steps: u32,
    /// Main rooms, sorted.
    pub main: Vec<usize>,
    /// Delaunay edges between main rooms, sorted.
    pub triangulation: Vec<(usize, usize)>,
    /// The minimum spanning tree of the triangulation, sorted.
    pub tree: Vec<(usize, usize)>,
    /// Triangulation edges added back, sorted.
    pub extra: Vec<(usize, usize)>,
    /// Entrance, boss and depth of the main rooms.
    pub roles: Roles,
    /// One corridor per link: tree links first, then the extra ones, each
    /// leading away from the entrance.
    pub routes: Vec<Route>,
    /// Filler rooms kept as part of a corridor, sorted.
    pub kept: Vec<usize>,
}

/// Why a level could not be planned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// Separation did not finish.
    Stuck(Stuck),
    /// No corridor could join two main rooms (floors given).
    NoRoute(Rect, Rect),
}

/// The plan of the level of `seed`: the first of [`ATTEMPTS`] attempts that
/// succeeds, with the attempts used, else the last attempt's failure.
pub fn plan(s: &Settings, seed: u64) -> Result<(Plan, u32), Failure> {
    let mut attempt = 0;
    loop {
        match plan_once(s, seed, attempt) {
            Ok(p) => return Ok((p, attempt + 1)),
            Err(f) if attempt + 1 >= ATTEMPTS => return Err(f),
            Err(_) => attempt += 1,
        }
    }
}

/// One attempt; attempt `k > 0` draws from stage streams suffixed `/k`.
fn plan_once(s: &Settings, seed: u64, attempt: u32) -> Result<Plan, Failure> {
    let stream = |stage: &str| match attempt {
        0 => Rng::derive(seed, &format!("scatter/{stage}")),
        k => Rng::derive(seed, &format!("scatter/{stage}/{k}")),
    };
    let mut rng = stream("spawn");
    let mut floors = spawn(s, &mut rng);
    let touching =
        separate(&mut floors, Spacing::TOUCHING, s.max_steps, &mut rng).map_err(Failure::Stuck)?;
    let main = main_rooms(&floors, s.main_threshold);
    // Main rooms then move `corridor_width` apart (pushing filler rooms
    // along), so that a corridor fits between any two of them.
    let mut apart = vec![false; floors.len()];
    for &m in &main {
        apart[m] = true;
    }
    let spacing = Spacing {
        apart: &apart,
        gap: s.corridor_width,
    };
    let steps = touching
        + separate(&mut floors, spacing, s.max_steps - touching, &mut rng).map_err(|stuck| {
            Failure::Stuck(Stuck {
                steps: s.max_steps,
                ..stuck
            })
        })?;
    let points: Vec<(i64, i64)> = main.iter().map(|&i| floors[i].centre2()).collect();
    let edges = delaunay(&points);
    let links = spanning(&points, &edges, s.extra_edges, &mut stream("links"));
    // `main` is sorted, so pairs stay ordered.
    let rooms = |v: &[(usize, usize)]| -> Vec<(usize, usize)> {
        v.iter().map(|&(a, b)| (main[a], main[b])).collect()
    };
    let (triangulation, tree, extra) = (rooms(&edges), rooms(&links.tree), rooms(&links.extra));
    let all: Vec<(usize, usize)> = tree.iter().chain(&extra).copied().collect();
    let roles = roles(floors.len(), &main, &tree, &all);
    let grid = Grid::new(&floors, &main, 2 * s.corridor_width + 4);
    let mut taken = FxHashSet::default();
    let mut routes = Vec::with_capacity(all.len());
    for &link in &all {
        let (from, to) = roles.orient(link);
        let r = route(&grid, &floors, (from, to), s.corridor_width, &taken)
            .ok_or(Failure::NoRoute(floors[from], floors[to]))?;
        taken.extend(band(&r.path, s.corridor_width));
        routes.push(r);
    }
    let crossings: Vec<_> = routes.iter().map(|r| &r.crossings).collect();
    let kept = kept_fillers(&crossings, floors.len());
    Ok(Plan {
        width: s.corridor_width,
        floors,
        steps,
        main,
        triangulation,
        tree,
        extra,
        roles,
        routes,
        kept,
    })
}
