//! Assembly: joining composite canvases into one map. A composite is moved so
//! that an exit of its anchor room meets a free exit of the room it links to
//! (or sits a short straight corridor away, or, failing all else, anywhere
//! a corridor from the host can reach); links between rooms already on the
//! map get an A* corridor.

use petgraph::graph::EdgeIndex;

use super::canvas::Canvas;
use super::context::{Ctx, Join, exit_cell};
use super::corridor::{link_corridor, link_direct};
use rustc_hash::FxHashMap;

use super::trials::{ByLength, SearchBuffers, Trial, Trials};
use crate::geom::Pos;

/// Extra straight-corridor lengths tried beyond the minimum when no direct
/// alignment fits.
const STRAIGHT_EXTRA: u32 = 6;

/// Moves `part` onto `map` so that `join` (its host on the map, its anchor
/// on `part`) is realised: the two exits touching, or failing that a short
/// straight corridor apart. Placements farthest from the map's centre come
/// first, so the map grows outwards and the rooms inside keep their free
/// sides for the links they still have to make (200-room graphs whose
/// loops share no room: median layout attempts 8 to 19 per graph down to 3
/// to 18). Returns false when no placement fits.
pub fn attach(ctx: &mut Ctx, map: &mut Canvas, part: &Canvas, join: Join) -> bool {
    let edge = join.edge;
    let (hi, ai, host_exits, anchor_exits) = link_ends(ctx, map, part, join);
    let centre = |c: &Canvas| {
        c.bounds(ctx.shapes).map_or((0.0, 0.0), |(lo, hi)| {
            (f64::from(lo.x + hi.x) / 2.0, f64::from(lo.y + hi.y) / 2.0)
        })
    };
    let (map_centre, part_centre) = (centre(map), centre(part));
    let min = ctx.params.corridor.0.max(1);
    for gap in std::iter::once(0).chain(min..=min + STRAIGHT_EXTRA) {
        let mut fits = Vec::new();
        for &he in &host_exits {
            let hx = &ctx.shapes[map.rooms[hi].shape].exits[he];
            let front = exit_cell(&map.rooms[hi], hx).step(hx.dir);
            let (dx, dy) = hx.dir.delta();
            for &ae in &anchor_exits {
                let ax = &ctx.shapes[part.rooms[ai].shape].exits[ae];
                if !ax.mates(hx) {
                    continue;
                }
                ctx.budget = ctx.budget.saturating_sub(part.rooms.len() as u64);
                let local = exit_cell(&part.rooms[ai], ax);
                let g = gap as i32;
                let offset = Pos::new(front.x + dx * g - local.x, front.y + dy * g - local.y);
                let corridor: Vec<Pos> = (0..g)
                    .map(|k| Pos::new(front.x + dx * k, front.y + dy * k))
                    .collect();
                let clear = corridor.iter().all(|&p| {
                    let q = Pos::new(p.x - offset.x, p.y - offset.y);
                    map.corridor_may_run(p) && part.corridor_may_run(q)
                });
                if !clear || !map.fits_canvas(ctx.shapes, part, offset) {
                    continue;
                }
                let moved = (
                    part_centre.0 + f64::from(offset.x),
                    part_centre.1 + f64::from(offset.y),
                );
                let from_centre =
                    ((moved.0 - map_centre.0).powi(2) + (moved.1 - map_centre.1).powi(2)).sqrt();
                fits.push((
                    -from_centre + ctx.rng.unit() * 6.0,
                    he,
                    ae,
                    offset,
                    corridor,
                ));
            }
        }
        fits.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (_, he, ae, offset, corridor) in fits {
            let mark = map.mark();
            let base = map.rooms.len();
            map.merge(ctx.shapes, part, offset);
            let ni = base + ai;
            if corridor.is_empty() {
                link_direct(ctx, map, hi, he, ni, ae, edge);
            } else {
                link_corridor(
                    ctx,
                    map,
                    (hi, he),
                    (ni, ae),
                    edge,
                    &corridor,
                    corridor.clone(),
                );
            }
            if !(base..map.rooms.len()).any(|i| ctx.strands_exits(map, i)) {
                return true;
            }
            map.rollback(ctx.shapes, mark);
        }
    }
    false
}

/// Indices of the host (on the map) and anchor (on the part) rooms, and the
/// exits of each that may serve the edge of `join`.
pub(super) fn link_ends(
    ctx: &Ctx,
    map: &Canvas,
    part: &Canvas,
    Join { host, anchor, edge }: Join,
) -> (usize, usize, Vec<usize>, Vec<usize>) {
    let hi = map.index_of(host).expect("host on map");
    let ai = part.index_of(anchor).expect("anchor on part");
    let host_exits = ctx.usable_exits(&map.rooms[hi], &ctx.pending(map, host, Some(edge)), edge);
    let anchor_exits = ctx.usable_exits(
        &part.rooms[ai],
        &ctx.pending(part, anchor, Some(edge)),
        edge,
    );
    (hi, ai, host_exits, anchor_exits)
}

/// How far (straight out and aside) [`attach_by_corridor`] looks for a
/// place for the anchor's door.
const CORRIDOR_REACH: i32 = 8;

/// Offsets of the anchor's door tile from the host's, tried by [`attach_by_corridor`].
const CORRIDOR_TRIALS: usize = 24;

/// Exits of each end [`attach_by_corridor`] tries (at random, for rooms
/// with more): a few dozen pairs give far more placements than it tries.
const CORRIDOR_EXITS: usize = 8;

/// [`link_ends`] with at most [`CORRIDOR_EXITS`] exits of each end, picked
/// at random when there are more.
fn sampled_link_ends(
    ctx: &mut Ctx,
    map: &Canvas,
    part: &Canvas,
    join: Join,
) -> (usize, usize, Vec<usize>, Vec<usize>) {
    let (hi, ai, mut host_exits, mut anchor_exits) = link_ends(ctx, map, part, join);
    for exits in [&mut host_exits, &mut anchor_exits] {
        if exits.len() > CORRIDOR_EXITS {
            ctx.rng.shuffle(exits);
            exits.truncate(CORRIDOR_EXITS);
        }
    }
    (hi, ai, host_exits, anchor_exits)
}

/// Where [`attach_by_corridor`] looks for a place for the anchor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// A few tiles out from a host exit and aside: the usual fallback when
    /// no alignment fits.
    Near,
    /// Anywhere a corridor from a host exit reaches within the flow's
    /// bound over free ground (around other rooms too): the last resort for
    /// a crowded host.
    Far,
}

/// Placements [`Reach::Far`] tries: more than [`Reach::Near`], as it runs
/// only when everything else failed.
const FAR_TRIALS: usize = 32;

/// Moves `part` near the host of `join` (any exit directions, within
/// `reach`) and joins the two exits with an A* corridor.
pub fn attach_by_corridor(
    ctx: &mut Ctx,
    map: &mut Canvas,
    part: &Canvas,
    join: Join,
    reach: Reach,
) -> bool {
    let (hi, ai, host_exits, anchor_exits) = sampled_link_ends(ctx, map, part, join);
    let link = LinkEnds {
        rooms: (hi, ai),
        host_exits: &host_exits,
        anchor_exits: &anchor_exits,
    };
    let mut buffers = std::mem::take(&mut ctx.search);
    let SearchBuffers {
        trials,
        ends,
        by_length,
    } = &mut buffers;
    // Near looks at the shortest trials only; Far at every one, shortest
    // first, until enough fit: on a crowded map the shortest corridors all
    // end in the pocket around the host, where a composite of a few rooms
    // never fits (room-disjoint graphs of 500 rooms: Far placed a composite
    // three times as often).
    // Each search's trial source, declared here to outlive the match.
    let (mut near_next, mut far_next);
    let mut charged = 0;
    let (next, fits, limits): (&mut TrialFn, _, _) = match reach {
        Reach::Near => {
            list_near_trials(ctx, map, part, link, trials, ends);
            ctx.budget = ctx.budget.saturating_sub(trials.len() as u64 / 8);
            let (mut order, fits) = trials.search();
            near_next = move |_: &mut Ctx, _: &Canvas| order.next();
            let limits = Limits {
                fits: CORRIDOR_TRIALS,
                looked: CORRIDOR_TRIALS * TRIALS_PER_FIT,
                guard: false,
            };
            (&mut near_next, fits, limits)
        }
        Reach::Far => {
            start_far_search(ctx, map, part, link, by_length);
            // Trials are charged as they are listed, as the near ones are.
            far_next = |ctx: &mut Ctx, map: &Canvas| {
                let trial = by_length.next(map, &mut ctx.rng);
                let owed = by_length.listed() / 8;
                ctx.budget = ctx.budget.saturating_sub(owed - charged);
                charged = owed;
                trial
            };
            let limits = Limits {
                fits: FAR_TRIALS,
                looked: usize::MAX,
                guard: false,
            };
            (&mut far_next, trials.fits_cache(), limits)
        }
    };
    let kept = try_corridor_trials(ctx, map, part, link.rooms, join.edge, (next, fits), limits);
    ctx.search = buffers;
    kept
}

/// The rooms of a link on the map and on the part (by index), and the
/// exits of each its corridor may leave from.
#[derive(Clone, Copy)]
struct LinkEnds<'a> {
    rooms: (usize, usize),
    host_exits: &'a [usize],
    anchor_exits: &'a [usize],
}

/// Lists into `trials` the trials of [`Reach::Near`]: every free tile up
/// to [`CORRIDOR_REACH`] tiles out and aside of each host exit (`ends` is
/// a buffer).
fn list_near_trials(
    ctx: &mut Ctx,
    map: &Canvas,
    part: &Canvas,
    link: LinkEnds,
    trials: &mut Trials,
    ends: &mut Vec<(Pos, u32)>,
) {
    let (hi, ai) = link.rooms;
    let (min, max) = ctx.params.corridor;
    trials.clear();
    for &he in link.host_exits {
        let hx = &ctx.shapes[map.rooms[hi].shape].exits[he];
        let front = exit_cell(&map.rooms[hi], hx).step(hx.dir);
        if !map.corridor_may_run(front) {
            continue;
        }
        // Free tiles g tiles out and s tiles aside, with a length estimate.
        let (dx, dy) = hx.dir.delta();
        ends.clear();
        ends.extend(
            (1..=CORRIDOR_REACH)
                .flat_map(|g| (-CORRIDOR_REACH..=CORRIDOR_REACH).map(move |s| (g, s)))
                .map(|(g, s)| {
                    let t = Pos::new(front.x + dx * g - dy * s, front.y + dy * g + dx * s);
                    (t, (g + s.abs() + 1) as u32)
                })
                .filter(|&(t, len)| len >= min && len <= max && map.corridor_may_run(t)),
        );
        for &ae in link.anchor_exits {
            let ax = &ctx.shapes[part.rooms[ai].shape].exits[ae];
            if ax.cells.len() != hx.cells.len() {
                continue;
            }
            for &(t, len) in ends.iter() {
                // The anchor's door tile is just behind `t`: most ends are
                // ruled out by it before costlier checks.
                if !map.is_clear(t.step(ax.dir.opposite())) {
                    continue;
                }
                trials.push(Trial {
                    key: f64::from(len) + ctx.rng.unit() * NEAR_JITTER,
                    host_exit: he as u32,
                    anchor_exit: ae as u32,
                    end: t,
                });
            }
        }
    }
}

/// Starts `by_length` on the trials of [`Reach::Far`]: every free tile a
/// corridor from a host exit reaches within the flow's bound, listed
/// corridor length by corridor length as the search goes (see
/// [`ByLength`]).
fn start_far_search(
    ctx: &Ctx,
    map: &Canvas,
    part: &Canvas,
    link: LinkEnds,
    by_length: &mut ByLength,
) {
    let (hi, ai) = link.rooms;
    let (min, max) = ctx.params.corridor;
    by_length.start(min, max, FAR_JITTER);
    for &he in link.host_exits {
        let hx = &ctx.shapes[map.rooms[hi].shape].exits[he];
        let front = exit_cell(&map.rooms[hi], hx).step(hx.dir);
        if map.corridor_may_run(front) {
            by_length.add_host(map, he as u32, hx.cells.len(), front);
        }
    }
    for &ae in link.anchor_exits {
        let ax = &ctx.shapes[part.rooms[ai].shape].exits[ae];
        by_length.add_anchor(ae as u32, ax.dir.opposite(), ax.cells.len());
    }
}

/// Tiles of jitter on a near trial's key.
const NEAR_JITTER: f64 = 4.0;

/// Tiles of jitter on a far trial's key.
const FAR_JITTER: f64 = 6.0;

/// Trials [`Reach::Near`] looks at per placement that fits: bounds the
/// work on a crowded map.
const TRIALS_PER_FIT: usize = 40;

/// How far [`try_corridor_trials`] goes.
#[derive(Clone, Copy, Debug)]
pub(super) struct Limits {
    /// Placements that fit to route a corridor for before giving up.
    pub fits: usize,
    /// Trials to look at before giving up.
    pub looked: usize,
    /// Whether a corridor that leaves a room beside it short of open exits
    /// is refused (see [`Ctx::corridor_strands`]).
    pub guard: bool,
}

/// Yields the trials of a search, smallest key first (from the layout
/// attempt's context and the map as the search started).
pub(super) type TrialFn<'a> = dyn FnMut(&mut Ctx, &Canvas) -> Option<Trial> + 'a;

/// A search's trials and whether the part fits at each offset looked at.
pub(super) type TrialSource<'a, 'b> = (&'a mut TrialFn<'b>, &'a mut FxHashMap<Pos, bool>);

/// Tries the trials `next` yields, shortest first, until `limits.fits` of them fit (or `limits.looked`
/// were looked at, or the budget runs out): merges the part and routes an
/// A* corridor between the two ends. Returns whether one was kept.
pub(super) fn try_corridor_trials(
    ctx: &mut Ctx,
    map: &mut Canvas,
    part: &Canvas,
    (hi, ai): (usize, usize),
    edge: EdgeIndex,
    (next, fits): TrialSource<'_, '_>,
    limits: Limits,
) -> bool {
    let Limits {
        fits: limit,
        looked,
        guard,
    } = limits;
    let (min, max) = (ctx.params.corridor.0 as i32, ctx.params.corridor.1 as i32);
    let mut tried = 0;
    // The map only changes between trials by merges that are rolled back,
    // so whether the part fits at an offset holds for the whole search.
    for _ in 0..looked {
        if tried >= limit || ctx.budget == 0 {
            break;
        }
        let Some(trial) = next(ctx, map) else {
            break;
        };
        let (he, ae, t) = (
            trial.host_exit as usize,
            trial.anchor_exit as usize,
            trial.end,
        );
        let hx = &ctx.shapes[map.rooms[hi].shape].exits[he];
        let front = exit_cell(&map.rooms[hi], hx).step(hx.dir);
        let ax = &ctx.shapes[part.rooms[ai].shape].exits[ae];
        let door = t.step(ax.dir.opposite());
        let local = exit_cell(&part.rooms[ai], ax);
        let offset = Pos::new(door.x - local.x, door.y - local.y);
        ctx.budget = ctx
            .budget
            .saturating_sub(u64::from(part.rooms.len() as u32));
        if !*fits
            .entry(offset)
            .or_insert_with(|| map.fits_canvas(ctx.shapes, part, offset))
        {
            continue;
        }
        tried += 1;
        let mark = map.mark();
        let base = map.rooms.len();
        map.merge(ctx.shapes, part, offset);
        let route = if !map.corridor_may_run(front) || !map.corridor_may_run(t) {
            None
        } else {
            super::corridor::route_charged(ctx, map, front, t, hx.dir, max as usize)
        };
        match route {
            Some(tiles) if tiles.len() as i32 >= min && tiles.len() as i32 <= max => {
                let ni = base + ai;
                link_corridor(ctx, map, (hi, he), (ni, ae), edge, &tiles, tiles.clone());
                let stranded = (base..map.rooms.len()).any(|i| ctx.strands_exits(map, i))
                    || (guard && ctx.corridor_strands(map, &tiles));
                if !stranded {
                    return true;
                }
                map.rollback(ctx.shapes, mark);
            }
            _ => map.rollback(ctx.shapes, mark),
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::LinkKind;
    use crate::layout::fixture::Fixture;

    #[test]
    fn a_part_goes_a_long_corridor_away_only_when_reaching_far() {
        let fx = Fixture::new();
        let mut ctx = fx.ctx();
        let join = fx.link();
        let (h, g, edge) = (join.host, join.anchor, join.edge);
        let mut map = Canvas::default();
        map.add_room(ctx.shapes, h, fx.shape(h), Pos::new(0, 0));
        // A channel one tile wide from the host's door (front at (5, 2))
        // to x = 24, walled by corridors: every place a few tiles from the
        // door is more than 30 tiles of corridor away, but beyond the
        // channel there is open ground.
        let walls: Vec<Pos> = (5..=24)
            .flat_map(|x| [Pos::new(x, 1), Pos::new(x, 3)])
            .collect();
        map.add_corridor(&walls);
        let mut part = Canvas::default();
        part.add_room(ctx.shapes, g, fx.shape(g), Pos::new(0, 0));

        assert!(!attach_by_corridor(
            &mut ctx,
            &mut map,
            &part,
            join,
            Reach::Near
        ));
        assert_eq!(
            map.rooms.len(),
            1,
            "a failed attachment leaves the map as it was"
        );
        assert!(attach_by_corridor(
            &mut ctx,
            &mut map,
            &part,
            join,
            Reach::Far
        ));

        let guest = map.room_of(g).expect("guest placed");
        assert!(
            guest.pos.x > 24,
            "the guest sits beyond the channel: {:?}",
            guest.pos
        );
        let link = map.links.iter().find(|l| l.edge == edge).expect("link");
        assert_eq!(link.kind, LinkKind::Corridor);
        // From the host's door through the channel to the guest's door, 4-connected.
        assert_eq!(link.path.first(), Some(&Pos::new(4, 2)));
        assert!(link.path.windows(2).all(|w| w[0].manhattan(w[1]) == 1));
        let tiles = link.path.len() as u32 - 2;
        let (min, max) = fx.params.corridor;
        assert!((min..=max).contains(&tiles), "{tiles} tiles");
    }
}
