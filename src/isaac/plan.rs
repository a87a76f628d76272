//! The floor plan: which cells hold which room, and what each room is.

use super::grid::{Dir, Grid};
use super::shape::Shape;

/// What a room of the plan is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoomKind {
    /// Where the player starts.
    Start,
    /// A room grown by the breadth-first growth.
    Normal,
    /// A normal room a labyrinth floor adds with the secret-room rule.
    Extra,
    /// The boss room (two side by side on labyrinth floors).
    Boss,
    /// The shop.
    Shop,
    /// The treasure room.
    Treasure,
    /// The secret room.
    Secret,
    /// The super secret room.
    SuperSecret,
    /// An optional special room (`sacrifice`, `library`...).
    Special(&'static str),
}

impl RoomKind {
    /// The category written in the level.
    pub fn category(self) -> &'static str {
        match self {
            RoomKind::Start => "entrance",
            RoomKind::Normal | RoomKind::Extra => "normal",
            RoomKind::Boss => "boss",
            RoomKind::Shop => "shop",
            RoomKind::Treasure => "treasure",
            RoomKind::Secret => "secret",
            RoomKind::SuperSecret => "super_secret",
            RoomKind::Special(name) => name,
        }
    }
}

/// A room of the plan.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanRoom {
    /// Its shape.
    pub shape: Shape,
    /// Column (1-based) and row of the top-left of its bounding box.
    pub anchor: (i32, i32),
    /// What it is for.
    pub kind: RoomKind,
    /// The pool a normal room's layout is drawn from (`easy`, `medium`,
    /// `hard`); empty for special rooms.
    pub pool: &'static str,
}

/// A door between two rooms: `a`'s cell `a_cell` opens on side `side` into
/// `b`'s cell `b_cell`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Door {
    /// First room (index in [`FloorPlan::rooms`]).
    pub a: usize,
    /// The cell of `a` holding the door.
    pub a_cell: usize,
    /// The side of `a_cell` the door is on.
    pub side: Dir,
    /// Second room.
    pub b: usize,
    /// The cell of `b` beyond the door.
    pub b_cell: usize,
}

/// A finished floor plan.
#[derive(Clone, Debug, PartialEq)]
pub struct FloorPlan {
    /// The grid.
    pub grid: Grid,
    /// Rooms the formula asked for (the growth's target).
    pub target: u32,
    /// Rooms; the first is the start.
    pub rooms: Vec<PlanRoom>,
    /// Room index + 1 of each cell number, 0 when empty.
    pub occupancy: Vec<u8>,
    /// The dead ends of the growth (room indices) in the order found.
    pub dead_ends: Vec<usize>,
    /// Times the floor was started over.
    pub restarts: u32,
}

impl FloorPlan {
    /// An empty plan on `grid`.
    pub fn new(grid: Grid, target: u32) -> Self {
        Self {
            grid,
            target,
            rooms: Vec::new(),
            occupancy: vec![0; grid.cells()],
            dead_ends: Vec::new(),
            restarts: 0,
        }
    }

    /// The room holding `cell`.
    pub fn room_at(&self, cell: usize) -> Option<usize> {
        match self.occupancy[cell] {
            0 => None,
            r => Some(usize::from(r) - 1),
        }
    }

    /// The cell numbers of room `r`.
    pub fn cells(&self, r: usize) -> impl Iterator<Item = usize> + '_ {
        let room = &self.rooms[r];
        let (ax, ay) = room.anchor;
        room.shape
            .offsets()
            .iter()
            .map(move |&(dx, dy)| self.grid.cell(ax + dx, ay + dy))
    }

    /// Whether `shape` at `anchor` lies on the grid over empty cells only.
    pub fn fits(&self, shape: Shape, anchor: (i32, i32)) -> bool {
        shape.offsets().iter().all(|&(dx, dy)| {
            let (x, y) = (anchor.0 + dx, anchor.1 + dy);
            self.grid.contains(x, y) && self.occupancy[self.grid.cell(x, y)] == 0
        })
    }

    /// Adds a room (which must fit) and returns its index.
    pub fn place(&mut self, shape: Shape, anchor: (i32, i32), kind: RoomKind) -> usize {
        let index = self.rooms.len();
        self.rooms.push(PlanRoom {
            shape,
            anchor,
            kind,
            pool: "",
        });
        self.mark(index);
        index
    }

    /// Writes room `r` into the occupancy.
    pub fn mark(&mut self, r: usize) {
        self.set_cells(r, u8::try_from(r + 1).expect("fewer than 255 rooms"));
    }

    /// Clears room `r` from the occupancy.
    pub fn unmark(&mut self, r: usize) {
        self.set_cells(r, 0);
    }

    fn set_cells(&mut self, r: usize, value: u8) {
        let room = &self.rooms[r];
        for &(dx, dy) in room.shape.offsets() {
            let c = self.grid.cell(room.anchor.0 + dx, room.anchor.1 + dy);
            self.occupancy[c] = value;
        }
    }

    /// The occupied neighbour cells of `cell`.
    pub fn occupied_neighbours(&self, cell: usize) -> impl Iterator<Item = (Dir, usize)> + '_ {
        Dir::ALL.into_iter().filter_map(move |d| {
            self.grid
                .step(cell, d)
                .filter(|&n| self.occupancy[n] != 0)
                .map(|n| (d, n))
        })
    }

    /// The rooms touching room `r` (by cell sides, with or without a door).
    pub fn touching(&self, r: usize) -> Vec<usize> {
        let mut out = Vec::new();
        for c in self.cells(r) {
            for (_, n) in self.occupied_neighbours(c) {
                if let Some(o) = self.room_at(n)
                    && o != r
                    && !out.contains(&o)
                {
                    out.push(o);
                }
            }
        }
        out
    }

    /// The doors of room `r`: one on each side of its cells that faces
    /// another room, where neither room has a wall (only narrow rooms do).
    /// Two rooms sharing several sides get a door on each.
    fn doors_of(&self, r: usize) -> impl Iterator<Item = Door> + '_ {
        let room = &self.rooms[r];
        room.shape.exits().filter_map(move |((dx, dy), side)| {
            let a_cell = self.grid.cell(room.anchor.0 + dx, room.anchor.1 + dy);
            let b_cell = self.grid.step(a_cell, side)?;
            let b = self.room_at(b_cell)?;
            (b != r && self.rooms[b].shape.door_side(side.opposite())).then_some(Door {
                a: r,
                a_cell,
                side,
                b,
                b_cell,
            })
        })
    }

    /// Every door of the plan, once.
    pub fn doors(&self) -> Vec<Door> {
        (0..self.rooms.len())
            .flat_map(|a| self.doors_of(a).filter(|d| d.a < d.b))
            .collect()
    }

    /// Doors walked from the start to each room (`u32::MAX` if unreachable).
    pub fn depths(&self) -> Vec<u32> {
        let mut depth = vec![u32::MAX; self.rooms.len()];
        if self.rooms.is_empty() {
            return depth;
        }
        depth[0] = 0;
        let mut queue = std::collections::VecDeque::with_capacity(self.rooms.len());
        queue.push_back(0);
        while let Some(r) = queue.pop_front() {
            for other in self.doors_of(r).map(|d| d.b) {
                if depth[other] == u32::MAX {
                    depth[other] = depth[r] + 1;
                    queue.push_back(other);
                }
            }
        }
        depth
    }
}
