//! Stage 3: main rooms, the large ones; every other room is filler.

use super::rect::Rect;

/// Indices of the main rooms: both sides above `threshold` times the mean
/// width and height of all rooms. When no room qualifies, the largest one
/// (by floor area, the first of equals) is the single main room, so that a
/// level always has a room.
pub fn main_rooms(floors: &[Rect], threshold: f64) -> Vec<usize> {
    if floors.is_empty() {
        return Vec::new();
    }
    let n = floors.len() as f64;
    let mean_w = floors.iter().map(|r| f64::from(r.w)).sum::<f64>() / n;
    let mean_h = floors.iter().map(|r| f64::from(r.h)).sum::<f64>() / n;
    let main: Vec<usize> = (0..floors.len())
        .filter(|&i| {
            f64::from(floors[i].w) > threshold * mean_w
                && f64::from(floors[i].h) > threshold * mean_h
        })
        .collect();
    if !main.is_empty() {
        return main;
    }
    let largest = (0..floors.len())
        .max_by_key(|&i| (floors[i].w * floors[i].h, std::cmp::Reverse(i)))
        .unwrap_or(0);
    vec![largest]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_sides_must_pass_the_threshold() {
        let floors = [
            Rect::new(0, 0, 4, 4),
            Rect::new(0, 0, 4, 4),
            Rect::new(0, 0, 12, 12),
            Rect::new(0, 0, 12, 3),
        ];
        // Mean 8 x 5.75: 12 x 12 passes 1.25x, 12 x 3 does not.
        assert_eq!(main_rooms(&floors, 1.25), vec![2]);
        assert_eq!(main_rooms(&floors, 0.1), vec![0, 1, 2, 3]);
    }

    #[test]
    fn equal_rooms_give_the_first_as_the_only_main_room() {
        assert_eq!(main_rooms(&[Rect::new(0, 0, 5, 5); 4], 1.25), vec![0]);
        assert!(main_rooms(&[], 1.25).is_empty());
    }
}
