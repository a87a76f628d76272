//! Colours shared by the picture renderers (PNG and SVG), public so tests
//! and users can find things in a picture.

/// Outside the level.
pub const VOID: [u8; 3] = [0x1e, 0x1e, 0x24];
/// Walls.
pub const WALL: [u8; 3] = [0x45, 0x45, 0x50];
/// Corridor floor.
pub const CORRIDOR: [u8; 3] = [0xb8, 0x9f, 0x74];
/// Open doors.
pub const DOOR: [u8; 3] = [0x8b, 0x5a, 0x2b];
/// Locked doors.
pub const LOCKED_DOOR: [u8; 3] = [0xc6, 0x28, 0x28];
/// One-way doors.
pub const ONE_WAY_DOOR: [u8; 3] = [0xe0, 0x8a, 0x1e];
/// Pits.
pub const PIT: [u8; 3] = [0x10, 0x10, 0x18];
/// Pillars.
pub const PILLAR: [u8; 3] = [0x6b, 0x6b, 0x73];
/// Keys.
pub const KEY: [u8; 3] = [0xff, 0xd7, 0x00];
/// Marks drawn on doors and keys, and label text.
pub const INK: [u8; 3] = [0x10, 0x10, 0x10];
/// Arrow on one-way doors and label halo.
pub const PAPER: [u8; 3] = [0xff, 0xff, 0xff];

/// A colour as `#rrggbb`, for SVG.
pub fn hex([r, g, b]: [u8; 3]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// Colours of markers, one per kind (see [`marker`]).
pub const MARKERS: [[u8; 3]; 6] = [
    [0xe5, 0x39, 0x35],
    [0x1e, 0x88, 0xe5],
    [0x43, 0xa0, 0x47],
    [0x8e, 0x24, 0xaa],
    [0xfb, 0x8c, 0x00],
    [0x00, 0xac, 0xc1],
];

/// The colour of markers of `kind`: the same kind always gets the same
/// colour (in every level and on every machine).
pub fn marker(kind: &str) -> [u8; 3] {
    // FNV-1a: stable across runs and platforms, unlike std's hasher.
    let hash = kind.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    MARKERS[(hash % MARKERS.len() as u64) as usize]
}
