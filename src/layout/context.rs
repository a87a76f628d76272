//! What every layout step needs: the graph, the shapes, which exits may serve
//! which edge, and the work budget.

use petgraph::graph::{EdgeIndex, NodeIndex};

use super::canvas::{Canvas, PlacedRoom};
use super::ranked::Ranked;
use super::shape::{Shape, ShapeExit};
use crate::flow::LayoutParams;
use crate::geom::{Dir, Pos};
use crate::graph::{EdgeKind, LevelGraph};
use crate::rng::Rng;
use crate::rooms::ExitKind;

/// Other templates tried for a room that fits against no exit of the room
/// it joins with its own (a door beats a corridor, and a crowded host may
/// still take a smaller room).
pub const TEMPLATE_REPICKS: usize = 8;

/// A link between composites being made: `edge` joins `host`, a room
/// already on the map, and `anchor`, a room of the composite being joined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Join {
    /// The room on the map.
    pub host: NodeIndex,
    /// The room of the composite being joined.
    pub anchor: NodeIndex,
    /// The edge between them.
    pub edge: EdgeIndex,
}

/// Read-only inputs of one layout attempt, plus its budget and random source.
pub struct Ctx<'a> {
    /// The expanded graph.
    pub level: &'a LevelGraph,
    /// The templates (shape `i` is template `i`).
    pub library: &'a crate::rooms::RoomLibrary,
    /// One shape per library template.
    pub shapes: &'a [Shape],
    /// Shape of each node (`None` for connectors: any connector shape).
    pub shape_of: Vec<Option<usize>>,
    /// Shapes of connector templates.
    pub connectors: Vec<usize>,
    /// Per node, the connector shapes its pool allows (`None`: no pool,
    /// or no connector in it, as for a chain's connectors that inherit the
    /// chain's pool of rooms: any connector).
    pub pooled_connectors: Vec<Option<Vec<usize>>>,
    /// Flow layout settings.
    pub params: &'a LayoutParams,
    /// Random source of this attempt.
    pub rng: Rng,
    /// Work left (candidate placements evaluated); at zero, steps give up.
    pub budget: u64,
    /// Nodes whose template the flow fixed (never re-picked).
    pub fixed: Vec<bool>,
    /// Per node, its physical edges, sorted (see [`Ctx::edges_of`]).
    pub edges: Vec<Vec<EdgeIndex>>,
    /// Per node, the templates a rebuild may re-pick (filled on first use
    /// by [`Ctx::repick`]).
    pub pick_cache: Vec<Option<Vec<usize>>>,
    /// Whether rooms are being placed on the shared map (the assembly)
    /// rather than on a composite's own canvas. On the map a room's links
    /// still to make may each need room for a whole composite, so
    /// [`Ctx::strands_exits`] asks for the open band of
    /// [`Ctx::composite_open`] ahead of an exit, not a single free tile.
    pub on_map: bool,
    /// Free tiles [`Ctx::strands_exits`] asks for ahead of an exit on the
    /// map ([`OPEN_DEPTH`] unless a tree's plan asks for more, see
    /// [`radial::TREE_OPEN_DEPTH`](super::radial::TREE_OPEN_DEPTH)).
    pub map_open_depth: i32,
    /// Buffers of the corridor searches, reused by each one of the attempt.
    pub search: super::trials::SearchBuffers,
    /// Work the drawings of a drawn attempt cost, in units of the budget:
    /// taken from the level's work after the attempt, not from the
    /// attempt's own budget for placing rooms.
    pub drawing_work: u64,
    /// What was left of the level's work when the attempt began (all of
    /// it by default): a plan is placed again only while its placements
    /// and the attempt's drawings have cost less (see
    /// `radial::place_again`).
    pub work_left: u64,
    /// Whether to keep [`Ctx::partial`] (for a preview of a failure).
    pub keep_partial: bool,
    /// The fullest canvas a tree composite reached before it gave up on a
    /// room, when `keep_partial`.
    pub partial: Option<Box<super::canvas::Canvas>>,
}

impl<'a> Ctx<'a> {
    /// The context of one layout attempt of `level`, with a full budget.
    pub fn new(
        level: &'a LevelGraph,
        library: &'a crate::rooms::RoomLibrary,
        table: &'a super::ShapeTable,
        params: &'a LayoutParams,
        rng: Rng,
    ) -> Self {
        Ctx {
            level,
            library,
            shapes: &table.shapes,
            shape_of: level
                .graph
                .node_weights()
                .map(|r| r.template.as_deref().and_then(|t| library.index_of(t)))
                .collect(),
            connectors: table.connectors.clone(),
            pooled_connectors: level
                .graph
                .node_weights()
                .map(|r| {
                    let pooled: Vec<usize> = if r.category == "connector" && !r.pool.is_empty() {
                        library.candidate_indices("connector", &r.pool).collect()
                    } else {
                        Vec::new()
                    };
                    (!pooled.is_empty()).then_some(pooled)
                })
                .collect(),
            params,
            rng,
            budget: super::attempt_budget(level.graph.node_count()),
            fixed: level
                .graph
                .node_weights()
                .map(|r| r.fixed_template)
                .collect(),
            edges: edge_lists(level),
            pick_cache: vec![None; level.graph.node_count()],
            on_map: false,
            map_open_depth: OPEN_DEPTH,
            search: Default::default(),
            drawing_work: 0,
            work_left: u64::MAX,
            keep_partial: false,
            partial: None,
        }
    }

    /// Keeps `canvas` as the partial layout when asked for one and it holds
    /// more rooms than the one kept.
    pub fn note_partial(&mut self, canvas: &super::canvas::Canvas) {
        if self.keep_partial {
            super::failure::keep_fuller(&mut self.partial, canvas);
        }
    }

    /// `failure` with the fullest of `maps` as its partial layout, when
    /// one is asked for (otherwise as it is, without copying a map).
    pub fn failed_on<'c>(
        &self,
        mut failure: super::failure::Failure,
        maps: impl IntoIterator<Item = &'c super::canvas::Canvas>,
    ) -> super::failure::Failure {
        if self.keep_partial {
            for map in maps {
                super::failure::keep_fuller(&mut failure.partial, map);
            }
        }
        failure
    }
}

/// Physical edges (tree and loop, not warp, no self-loops) of every node of
/// `level`, each list sorted.
pub fn edge_lists(level: &LevelGraph) -> Vec<Vec<EdgeIndex>> {
    use petgraph::visit::EdgeRef;
    let mut lists = vec![Vec::new(); level.graph.node_count()];
    for e in level.graph.edge_references() {
        if e.weight().kind != EdgeKind::Warp && e.source() != e.target() {
            lists[e.source().index()].push(e.id());
            lists[e.target().index()].push(e.id());
        }
    }
    for list in &mut lists {
        list.sort();
    }
    lists
}

impl Ctx<'_> {
    /// Whether the flow uses each template once and a node other than
    /// `node` has template `shape` (or another variant of its template).
    pub fn in_use(&self, node: NodeIndex, shape: usize) -> bool {
        let base = self.shapes[shape].base;
        !self.params.reuse_templates
            && self
                .shape_of
                .iter()
                .enumerate()
                .any(|(i, s)| i != node.index() && s.is_some_and(|s| self.shapes[s].base == base))
    }
}

/// Free tiles required ahead of an exit reserved for a link to another composite.
pub(super) const OPEN_DEPTH: i32 = 4;
/// Half the width of that band.
const OPEN_HALF_WIDTH: i32 = 2;

/// A way to place a new room against a placed one.
#[derive(Clone, Copy, Debug)]
pub struct Candidate {
    /// Shape of the new room.
    pub shape: usize,
    /// Its position.
    pub pos: Pos,
    /// Exit used on the placed room.
    pub host_exit: usize,
    /// Exit used on the new room.
    pub exit: usize,
    /// Higher is better.
    pub score: f64,
}

/// Bit of exit group `g` in a group mask. Groups past 127 share bits, which
/// only makes [`Ctx::can_serve`] more cautious.
fn group_bit(g: u16) -> u128 {
    1u128 << (g % 128)
}

/// Mask of the groups of a room's used exits.
fn used_groups(shape: &Shape, used: &[bool]) -> u128 {
    shape
        .exits
        .iter()
        .zip(used)
        .filter(|(_, u)| **u)
        .filter_map(|(e, _)| e.group.map(group_bit))
        .fold(0, |m, b| m | b)
}

/// The free exits of a room, in order: unused, and no exit of their group
/// used (the groups taken are worked out once).
pub fn free_exits<'s>(shape: &'s Shape, used: &'s [bool]) -> impl Iterator<Item = usize> + 's {
    let taken = used_groups(shape, used);
    (0..shape.exits.len()).filter(move |&i| {
        !used[i]
            && shape.exits[i]
                .group
                .is_none_or(|g| taken & group_bit(g) == 0)
    })
}

/// Free exits of a room, counted one per group: any, those that may be
/// entered (not exit-only) and those that may be left (not entrance-only).
struct FreeCounts {
    counts: [usize; 3],
    /// Per count, the groups it counted.
    seen: [u128; 3],
    /// Groups of the used exits.
    taken: u128,
}

impl FreeCounts {
    fn new(shape: &Shape, used: &[bool]) -> Self {
        let taken = used_groups(shape, used);
        let mut counts = [0usize; 3];
        let mut seen = [0u128; 3];
        for (e, &u) in shape.exits.iter().zip(used) {
            let bit = e.group.map(group_bit);
            if u || bit.is_some_and(|b| taken & b != 0) {
                continue;
            }
            let fits = kind_counts(e.kind);
            for k in 0..3 {
                match bit {
                    _ if !fits[k] => {}
                    None => counts[k] += 1,
                    Some(b) if seen[k] & b == 0 => {
                        seen[k] |= b;
                        counts[k] += 1;
                    }
                    Some(_) => {}
                }
            }
        }
        Self {
            counts,
            seen,
            taken,
        }
    }

    /// The counts once exit `i` is taken too (its whole group with it).
    fn without(&self, shape: &Shape, used: &[bool], i: usize) -> [usize; 3] {
        let e = &shape.exits[i];
        let mut c = self.counts;
        let bit = e.group.map(group_bit);
        if used[i] || bit.is_some_and(|b| self.taken & b != 0) {
            return c;
        }
        let fits = kind_counts(e.kind);
        for k in 0..3 {
            let counted = match bit {
                None => fits[k],
                Some(b) => self.seen[k] & b != 0,
            };
            c[k] -= usize::from(counted);
        }
        c
    }
}

/// Which of [`FreeCounts`]' counts an exit of `kind` adds to.
fn kind_counts(kind: ExitKind) -> [bool; 3] {
    [true, kind.may_enter(), kind.may_leave()]
}

/// What a room's edges still to realise ask of its free exits.
struct Needs {
    all: usize,
    parent: usize,
    other: usize,
}

impl Needs {
    /// Whether free exits counted as in [`FreeCounts`] meet these needs.
    fn met(&self, counts: [usize; 3]) -> bool {
        counts[0] >= self.all && (self.parent == 0 || counts[1] >= 1) && counts[2] >= self.other
    }
}

/// Global cell of an exit's first tile.
pub fn exit_cell(room: &PlacedRoom, e: &ShapeExit) -> Pos {
    Pos::new(room.pos.x + e.cells[0].x, room.pos.y + e.cells[0].y)
}

impl Ctx<'_> {
    /// Whether `node`'s end of `edge` is its tree-parent edge (served by
    /// `entrance_only` exits; every other edge by `exit_only` ones).
    pub fn is_parent_edge(&self, node: NodeIndex, edge: EdgeIndex) -> bool {
        let (_, to) = self.level.graph.edge_endpoints(edge).expect("edge");
        to == node && self.level.graph[edge].kind == EdgeKind::Tree
    }

    /// Whether an exit kind may serve that end of the edge.
    pub fn kind_fits(&self, kind: ExitKind, node: NodeIndex, edge: EdgeIndex) -> bool {
        if self.is_parent_edge(node, edge) {
            kind.may_enter()
        } else {
            kind.may_leave()
        }
    }

    /// Physical edges of `node` (tree and loop, not warp), sorted.
    pub fn edges_of(&self, node: NodeIndex) -> &[EdgeIndex] {
        &self.edges[node.index()]
    }

    /// Whether, with exits `used` taken, a room can still serve all of
    /// `pending` (its edges not yet realised): enough free exits (one per
    /// group), one that may serve its parent edge, and enough that may serve
    /// the others. Allocates nothing: it runs for every candidate placement.
    pub fn can_serve(
        &self,
        node: NodeIndex,
        shape: &Shape,
        used: &[bool],
        pending: &[EdgeIndex],
    ) -> bool {
        pending.is_empty()
            || self
                .needs(node, pending)
                .met(FreeCounts::new(shape, used).counts)
    }

    /// For each exit of a room with exits `used` taken, whether the room
    /// could still serve `pending` once that exit is taken too
    /// ([`Ctx::can_serve`] for each exit, in one pass over the exits).
    pub fn serves_after_each(
        &self,
        node: NodeIndex,
        shape: &Shape,
        used: &[bool],
        pending: &[EdgeIndex],
    ) -> Vec<bool> {
        if pending.is_empty() {
            return vec![true; shape.exits.len()];
        }
        let needs = self.needs(node, pending);
        let free = FreeCounts::new(shape, used);
        (0..shape.exits.len())
            .map(|i| needs.met(free.without(shape, used, i)))
            .collect()
    }

    /// What serving `pending` asks of `node`'s free exits.
    fn needs(&self, node: NodeIndex, pending: &[EdgeIndex]) -> Needs {
        let parent = pending
            .iter()
            .filter(|&&e| self.is_parent_edge(node, e))
            .count();
        Needs {
            all: pending.len(),
            parent,
            other: pending.len() - parent,
        }
    }

    /// Free exits of a placed room that may serve `edge`, leaving the room
    /// able to serve `pending` (its other edges still to realise).
    pub fn usable_exits(
        &self,
        room: &PlacedRoom,
        pending: &[EdgeIndex],
        edge: EdgeIndex,
    ) -> Vec<usize> {
        let s = &self.shapes[room.shape];
        let serves = self.serves_after_each(room.node, s, &room.used, pending);
        free_exits(s, &room.used)
            .filter(|&i| serves[i] && self.kind_fits(s.exits[i].kind, room.node, edge))
            .collect()
    }

    /// Edges of `node` not yet realised on `canvas` (ignoring `also_done`).
    pub fn pending(
        &self,
        canvas: &Canvas,
        node: NodeIndex,
        also_done: Option<EdgeIndex>,
    ) -> Vec<EdgeIndex> {
        self.edges_of(node)
            .iter()
            .copied()
            .filter(|&e| Some(e) != also_done && !canvas.realised(e))
            .collect()
    }

    /// How many edges of `node` are not yet realised on `canvas`.
    pub fn pending_count(&self, canvas: &Canvas, node: NodeIndex) -> usize {
        self.edges_of(node)
            .iter()
            .filter(|&&e| !canvas.realised(e))
            .count()
    }

    /// Shapes `node` may take.
    pub fn shape_options(&self, node: NodeIndex) -> Vec<usize> {
        match self.shape_of[node.index()] {
            Some(s) => vec![s],
            None => self.pooled_connectors[node.index()]
                .clone()
                .unwrap_or_else(|| self.connectors.clone()),
        }
    }

    /// Tiles of `node`'s first template ([`shape_options`](Self::shape_options)),
    /// if it has one.
    pub fn ground(&self, node: NodeIndex) -> Option<usize> {
        let s = *self.shape_options(node).first()?;
        Some((self.shapes[s].width * self.shapes[s].height) as usize)
    }

    /// Whether the unplaced `next` has a placement that fits against the
    /// placed room `ni` by `edge`. Only a piece with two exits (a corridor
    /// piece) is checked: its one free exit may face a wall, which a room
    /// with exits all round never does.
    pub fn onward_fits(
        &mut self,
        canvas: &Canvas,
        ni: usize,
        (next, edge): (NodeIndex, EdgeIndex),
    ) -> bool {
        if self.shapes[canvas.rooms[ni].shape].exits.len() != 2 {
            return true;
        }
        let mut cands = Ranked::new(self.placements(canvas, ni, next, edge));
        let mut at = 0;
        self.next_fitting(canvas, &mut cands, &mut at).is_some()
    }

    /// The first `n` of `cands` that overlap nothing, in order.
    pub fn first_fitting(
        &mut self,
        canvas: &Canvas,
        cands: &mut Ranked,
        n: usize,
    ) -> Vec<Candidate> {
        let mut next = 0;
        std::iter::from_fn(|| self.next_fitting(canvas, cands, &mut next))
            .take(n)
            .collect()
    }

    /// The first of `cands` from the `*next`-th best on that overlaps
    /// nothing, with `*next` moved past it (and past those that overlap).
    pub fn next_fitting(
        &mut self,
        canvas: &Canvas,
        cands: &mut Ranked,
        next: &mut usize,
    ) -> Option<Candidate> {
        while let Some(c) = cands.get(*next) {
            *next += 1;
            if self.fits(canvas, &c) {
                return Some(c);
            }
        }
        None
    }

    /// Whether placement `c` overlaps nothing on `canvas` (one unit of budget).
    pub fn fits(&mut self, canvas: &Canvas, c: &Candidate) -> bool {
        self.budget = self.budget.saturating_sub(1);
        canvas.fits(&self.shapes[c.shape], c.pos)
    }

    /// [`Ctx::placements_where`], every one.
    pub fn placements(
        &self,
        canvas: &Canvas,
        host: usize,
        node: NodeIndex,
        edge: EdgeIndex,
    ) -> Vec<Candidate> {
        self.placements_where(canvas, host, node, edge, |_| true)
    }

    /// Every way to place `node` against the placed room `host` through
    /// `edge` that `keep` accepts and that leaves both rooms able to serve
    /// their other edges, overlapping or not: for callers that try a few of
    /// many placements, checking each with [`Ctx::fits`] as they go.
    pub fn placements_where(
        &self,
        canvas: &Canvas,
        host: usize,
        node: NodeIndex,
        edge: EdgeIndex,
        keep: impl Fn(&Candidate) -> bool,
    ) -> Vec<Candidate> {
        let hr = &canvas.rooms[host];
        let hs = &self.shapes[hr.shape];
        let host_pending: Vec<EdgeIndex> = self.pending(canvas, hr.node, Some(edge));
        let node_pending: Vec<EdgeIndex> = self
            .edges_of(node)
            .iter()
            .copied()
            .filter(|&e| e != edge)
            .collect();
        // Which exits of each shape `node` may take could serve `edge`
        // and leave the room able to serve its other edges: worked out
        // once, not per host exit and position.
        let options: Vec<(usize, Vec<bool>)> = self
            .shape_options(node)
            .into_iter()
            .map(|s| {
                let shape = &self.shapes[s];
                let mut serves = self.serves_after_each(
                    node,
                    shape,
                    &vec![false; shape.exits.len()],
                    &node_pending,
                );
                for (ni, serve) in serves.iter_mut().enumerate() {
                    *serve &= self.kind_fits(shape.exits[ni].kind, node, edge);
                }
                (s, serves)
            })
            .collect();
        let mut out = Vec::new();
        let host_serves = self.serves_after_each(hr.node, hs, &hr.used, &host_pending);
        for hi in free_exits(hs, &hr.used) {
            let he = &hs.exits[hi];
            if !host_serves[hi] || !self.kind_fits(he.kind, hr.node, edge) {
                continue;
            }
            let door = exit_cell(hr, he).step(he.dir);
            for (s, serves) in &options {
                let shape = &self.shapes[*s];
                for (ni, ne) in shape.exits.iter().enumerate() {
                    if !ne.mates(he) || !serves[ni] {
                        continue;
                    }
                    let pos = Pos::new(door.x - ne.cells[0].x, door.y - ne.cells[0].y);
                    let c = Candidate {
                        shape: *s,
                        pos,
                        host_exit: hi,
                        exit: ni,
                        score: 0.0,
                    };
                    if keep(&c) {
                        out.push(c);
                    }
                }
            }
        }
        out
    }

    /// The placements of `node` against `host` through `edge`
    /// ([`Ctx::placements_where`], not checked for overlap) when one of them
    /// fits; else those of the first of up to [`TEMPLATE_REPICKS`] other
    /// templates of its kind with one that fits, and `node` keeps that
    /// template. Without one, `node` keeps its own and the list is empty.
    pub fn placements_or_other_template(
        &mut self,
        canvas: &Canvas,
        host: usize,
        node: NodeIndex,
        edge: EdgeIndex,
    ) -> Vec<Candidate> {
        let mut cands = self.placements(canvas, host, node, edge);
        if cands.iter().any(|c| self.fits(canvas, c)) {
            return cands;
        }
        let found = self.try_other_templates(node, TEMPLATE_REPICKS, &[], |ctx| {
            cands = ctx.placements(canvas, host, node, edge);
            cands.iter().any(|c| ctx.fits(canvas, c))
        });
        if !found {
            cands.clear();
        }
        cands
    }

    /// Gives `node` each of up to `k` other templates of its kind (see
    /// [`Ctx::other_templates`]), none of `except`, until `accept` holds;
    /// `node` keeps that template, or gets its own back when none is
    /// accepted.
    pub fn try_other_templates(
        &mut self,
        node: NodeIndex,
        k: usize,
        except: &[usize],
        mut accept: impl FnMut(&mut Self) -> bool,
    ) -> bool {
        let own = self.shape_of[node.index()];
        for s in self.other_templates(node, k, except) {
            self.shape_of[node.index()] = Some(s);
            if accept(self) {
                return true;
            }
        }
        self.shape_of[node.index()] = own;
        false
    }

    /// Places `node` as described by `c`, realising `edge` as a door.
    pub fn commit(
        &self,
        canvas: &mut Canvas,
        host: usize,
        node: NodeIndex,
        edge: EdgeIndex,
        c: &Candidate,
    ) -> usize {
        let i = canvas.add_room(self.shapes, node, c.shape, c.pos);
        super::corridor::link_direct(self, canvas, host, c.host_exit, i, c.exit, edge);
        i
    }

    /// Whether the room at `room` or a room around it is left with fewer open
    /// exits (free, with free ground in front: one tile on a composite's
    /// canvas, the band of [`Ctx::composite_open`] on the map) than edges
    /// it still has to realise: placing `room` there would strand a later
    /// connection.
    pub fn strands_exits(&self, canvas: &Canvas, room: usize) -> bool {
        let (depth, half) = if self.on_map {
            (self.map_open_depth, OPEN_HALF_WIDTH)
        } else {
            (1, 0)
        };
        let r = &canvas.rooms[room];
        let s = &self.shapes[r.shape];
        let near = canvas.rooms_near(
            self.shapes,
            Pos::new(r.pos.x - 1, r.pos.y - 1),
            s.width + 2,
            s.height + 2,
        );
        near.into_iter()
            .chain(std::iter::once(room))
            .any(|i| self.short_of_open_exits(canvas, i, depth, half))
    }

    /// Whether a corridor over `tiles` leaves a room beside it with fewer
    /// open exits than edges still to realise (see [`Ctx::strands_exits`]).
    pub fn corridor_strands(&self, canvas: &Canvas, tiles: &[Pos]) -> bool {
        let Some(first) = tiles.first() else {
            return false;
        };
        let (mut lo, mut hi) = (*first, *first);
        for p in tiles {
            lo = Pos::new(lo.x.min(p.x), lo.y.min(p.y));
            hi = Pos::new(hi.x.max(p.x), hi.y.max(p.y));
        }
        let m = OPEN_DEPTH + 1;
        canvas
            .rooms_near(
                self.shapes,
                Pos::new(lo.x - m, lo.y - m),
                hi.x - lo.x + 1 + 2 * m,
                hi.y - lo.y + 1 + 2 * m,
            )
            .into_iter()
            .any(|i| self.short_of_open_exits(canvas, i, OPEN_DEPTH, OPEN_HALF_WIDTH))
    }

    /// Whether room `room` has fewer open exits (free, with a free band
    /// `depth` deep and `2 * half + 1` wide in front) than edges still to
    /// realise. Stops counting at that many.
    fn short_of_open_exits(&self, canvas: &Canvas, room: usize, depth: i32, half: i32) -> bool {
        let pending = self.pending_count(canvas, canvas.rooms[room].node);
        pending > 0
            && self
                .open_bands(canvas, room, depth, half)
                .take(pending)
                .count()
                < pending
    }

    /// Free exits of a room with `depth` free tiles straight in front of them.
    pub fn open_exits(&self, canvas: &Canvas, room: usize, depth: i32) -> usize {
        self.open_bands(canvas, room, depth, 0).count()
    }

    /// The free exits of a room whose band `depth` tiles deep and
    /// `2 * half + 1` wide in front is clear, each with that band (corners
    /// `lo` and `hi`; an empty band, `depth` 0, is always clear).
    pub fn open_bands<'a>(
        &'a self,
        canvas: &'a Canvas,
        room: usize,
        depth: i32,
        half: i32,
    ) -> impl Iterator<Item = (usize, Pos, Pos)> + 'a {
        let q = &canvas.rooms[room];
        let qs = &self.shapes[q.shape];
        free_exits(qs, &q.used).filter_map(move |e| {
            let (dx, dy) = qs.exits[e].dir.delta();
            let c = exit_cell(q, &qs.exits[e]);
            // Opposite corners: the near row's one end, the far row's other.
            let a = Pos::new(c.x + dx + dy * half, c.y + dy - dx * half);
            let b = Pos::new(c.x + dx * depth - dy * half, c.y + dy * depth + dx * half);
            let (lo, hi) = (
                Pos::new(a.x.min(b.x), a.y.min(b.y)),
                Pos::new(a.x.max(b.x), a.y.max(b.y)),
            );
            (depth < 1 || canvas.area_clear(lo, hi)).then_some((e, lo, hi))
        })
    }

    /// Whether every room of a finished composite can still reach out for
    /// the links it has to other composites (a few free tiles ahead of as
    /// many free exits as it has pending edges).
    pub fn composite_open(&self, canvas: &Canvas) -> bool {
        (0..canvas.rooms.len())
            .all(|i| !self.short_of_open_exits(canvas, i, OPEN_DEPTH, OPEN_HALF_WIDTH))
    }

    /// Whether every room of a finished composite that still has links to
    /// make has as many free exits as links opening onto the outside of
    /// the composite (a clear band ahead, and free ground from there to
    /// beyond the composite's bounding box), or onto a pocket of at least
    /// `need(room)` free tiles: an exit pointing into a small pocket or a
    /// loop of the composite's own rooms leaves the composite at the other
    /// end no room.
    pub fn faces_out(&self, canvas: &Canvas, need: impl Fn(NodeIndex) -> usize) -> bool {
        let Some((lo, hi)) = canvas.bounds(self.shapes) else {
            return true;
        };
        (0..canvas.rooms.len()).all(|i| {
            let pending = self.pending_count(canvas, canvas.rooms[i].node);
            pending == 0 || {
                let q = &canvas.rooms[i];
                let qs = &self.shapes[q.shape];
                let tiles = need(q.node);
                self.open_bands(canvas, i, OPEN_DEPTH, OPEN_HALF_WIDTH)
                    .filter(|&(e, ..)| {
                        let dir = qs.exits[e].dir;
                        let front = exit_cell(q, &qs.exits[e]).step(dir);
                        escapes(canvas, front, dir, (lo, hi), tiles)
                    })
                    .take(pending)
                    .count()
                    == pending
            }
        })
    }

    /// Re-picks, for about half of `nodes`, another unused template of the
    /// same category (and of the room's pool, when it names one) that can
    /// serve all the node's edges (a rebuild with fresh rooms), by template
    /// weight, crowded hubs favouring roomy templates as in expansion. Fixed
    /// templates and connectors are kept.
    pub fn repick(&mut self, nodes: &[NodeIndex]) {
        for &n in nodes {
            if !self.repickable(n) || !self.rng.chance(0.5) {
                continue;
            }
            let (options, weights) = self.repick_options(n);
            if let Some(i) = self.rng.weighted(&weights) {
                self.shape_of[n.index()] = Some(options[i]);
            }
        }
    }

    /// Up to `k` other templates `node` could take (those [`Ctx::repick`]
    /// picks from), none of `except`, drawn by weight without repeats; none
    /// for a fixed template or a connector.
    pub fn other_templates(&mut self, node: NodeIndex, k: usize, except: &[usize]) -> Vec<usize> {
        if !self.repickable(node) {
            return Vec::new();
        }
        let (options, weights) = self.repick_options(node);
        // Weighed among all the options (crowding compares their sizes),
        // then those in `except` are dropped.
        let (mut options, mut weights): (Vec<usize>, Vec<f64>) = options
            .into_iter()
            .zip(weights)
            .filter(|(s, _)| !except.contains(s))
            .unzip();
        let mut out = Vec::new();
        while out.len() < k {
            let Some(i) = self.rng.weighted(&weights) else {
                break;
            };
            out.push(options.swap_remove(i));
            weights.swap_remove(i);
        }
        out
    }

    /// Whether `node` may change template: it has one (not a connector) and
    /// the flow did not fix it.
    fn repickable(&self, node: NodeIndex) -> bool {
        self.shape_of[node.index()].is_some() && !self.fixed[node.index()]
    }

    /// The unused templates other than its own that `node` may take, with
    /// their weights (crowded hubs favouring roomy templates).
    fn repick_options(&mut self, node: NodeIndex) -> (Vec<usize>, Vec<f64>) {
        let current = self.shape_of[node.index()].expect("a template");
        self.cache_pick_options(node, current);
        let options: Vec<usize> = self.pick_cache[node.index()]
            .as_ref()
            .expect("cached")
            .iter()
            .copied()
            .filter(|&s| s != current && !self.in_use(node, s))
            .collect();
        let crowded = crate::expand::crowding(
            options
                .iter()
                .map(|&s| self.shapes[s].width + self.shapes[s].height),
            self.edges_of(node).len(),
        );
        let weights: Vec<f64> = options
            .iter()
            .zip(crowded)
            .map(|(&s, c)| self.shapes[s].weight * c)
            .collect();
        (options, weights)
    }

    /// Works out, once per node and attempt, the templates `node` may be
    /// re-picked from: same category as `current`, in the room's pool, able
    /// to serve all its edges.
    fn cache_pick_options(&mut self, node: NodeIndex, current: usize) {
        if self.pick_cache[node.index()].is_none() {
            let edges = self.edges_of(node);
            let category = &self.shapes[current].category;
            let pool = &self.level.graph[node].pool;
            let options: Vec<usize> = self
                .library
                .candidate_indices(category, pool)
                .filter(|&s| {
                    let shape = &self.shapes[s];
                    self.can_serve(node, shape, &vec![false; shape.exits.len()], edges)
                })
                .collect();
            self.pick_cache[node.index()] = Some(options);
        }
    }

    /// Centre of a placed room.
    pub fn centre(&self, room: &PlacedRoom) -> (f64, f64) {
        let s = &self.shapes[room.shape];
        (
            f64::from(room.pos.x) + f64::from(s.width) / 2.0,
            f64::from(room.pos.y) + f64::from(s.height) / 2.0,
        )
    }

    /// Centre of a candidate placement.
    pub fn candidate_centre(&self, c: &Candidate) -> (f64, f64) {
        let s = &self.shapes[c.shape];
        (
            f64::from(c.pos.x) + f64::from(s.width) / 2.0,
            f64::from(c.pos.y) + f64::from(s.height) / 2.0,
        )
    }
}

/// Whether free ground from `from` (ahead of an exit facing `dir`) leads
/// beyond the box `lo..=hi` around everything on `canvas`, or holds at least
/// `tiles` tiles. Depth first, straight ahead first: an exit that opens
/// onto the outside finds it in about as many steps as the box is wide.
fn escapes(canvas: &Canvas, from: Pos, dir: Dir, (lo, hi): (Pos, Pos), tiles: usize) -> bool {
    let mut seen: rustc_hash::FxHashSet<Pos> = rustc_hash::FxHashSet::default();
    let mut todo = vec![from];
    // Popped last to first: ahead last, so it is tried first.
    let (side, other_side) = match dir {
        Dir::North | Dir::South => (Dir::West, Dir::East),
        Dir::East | Dir::West => (Dir::North, Dir::South),
    };
    let order = [dir.opposite(), side, other_side, dir];
    while let Some(p) = todo.pop() {
        if p.x < lo.x || p.x > hi.x || p.y < lo.y || p.y > hi.y {
            return true;
        }
        if !canvas.is_clear(p) || !seen.insert(p) {
            continue;
        }
        if seen.len() >= tiles {
            return true;
        }
        todo.extend(order.iter().map(|&d| p.step(d)));
    }
    false
}

#[cfg(test)]
mod tests {
    use crate::layout::fixture::Fixture;

    /// A hub with grouped exits and exits of every kind, on a node with a
    /// parent edge and three child edges.
    const HUB_ROOMS: &str = "rooms:\n  - name: host\n    category: entrance\n    art: |\n      ##A#B##\n      #.....#\n      C.....D\n      #.....#\n      ##E#F##\n    exits:\n      A: { group: north }\n      B: { group: north }\n      C: { kind: entrance_only }\n      D: { kind: exit_only }\n      E: { group: south, kind: exit_only }\n      F: { group: south }\n  - name: guest\n    category: normal\n    art: |\n      #A#\n      B.C\n      #D#\n";

    const HUB_FLOW: &str = "name: hub\nlayout: { reuse_templates: true }\nnodes:\n  p: entrance\n  h: normal\n  a: normal\n  b: normal\n  g: normal\nedges:\n  - p -> h\n  - h -> a\n  - h -> b\n  - h -> g\n";

    #[test]
    fn serves_after_each_agrees_with_can_serve_exit_by_exit() {
        let fx = Fixture::with(HUB_ROOMS, HUB_FLOW);
        let ctx = fx.ctx();
        let h = fx.level.find("h").expect("h");
        let shape = &ctx.shapes[fx.template("host")];
        let edges = ctx.edges_of(h).to_vec();
        let n = shape.exits.len();
        let mut checked = 0;
        // Every set of used exits, against every prefix of the edges
        // (with and without the parent edge) as the edges still to serve.
        for mask in 0..1u32 << n {
            let used: Vec<bool> = (0..n).map(|i| mask & (1 << i) != 0).collect();
            for k in 0..=edges.len() {
                for pending in [&edges[..k], &edges[edges.len() - k..]] {
                    let each = ctx.serves_after_each(h, shape, &used, pending);
                    for (i, &serves) in each.iter().enumerate() {
                        let mut with = used.clone();
                        with[i] = true;
                        assert_eq!(
                            serves,
                            ctx.can_serve(h, shape, &with, pending),
                            "used {used:?}, exit {i}, {} pending",
                            pending.len()
                        );
                        checked += usize::from(serves);
                    }
                }
            }
        }
        assert!(checked > 0, "some exit serves");
    }

    /// The host of the two-room fixture with its one exit (east, towards
    /// the unplaced guest) in front of a pocket of corridor walls, whose
    /// far side is there or not.
    fn pocket(closed: bool) -> bool {
        use crate::geom::Pos;
        use crate::layout::Canvas;
        let fx = Fixture::new();
        let ctx = fx.ctx();
        let h = fx.level.find("h").expect("h");
        let mut canvas = Canvas::default();
        canvas.add_room(ctx.shapes, h, fx.shape(h), Pos::new(0, 0));
        let mut walls: Vec<Pos> = (5..=12)
            .flat_map(|x| [Pos::new(x, -1), Pos::new(x, 5)])
            .collect();
        if closed {
            walls.extend((0..=4).map(|y| Pos::new(12, y)));
        }
        canvas.add_corridor(&walls);
        ctx.faces_out(&canvas, |_| 1_000)
    }

    #[test]
    fn a_link_to_make_needs_an_exit_that_opens_onto_the_outside() {
        assert!(pocket(false), "the pocket opens east");
        assert!(!pocket(true), "the exit faces a closed pocket");
    }
}
