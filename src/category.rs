//! Room categories: the built-in ones and the rules for user-defined ones.

use crate::diag::did_you_mean;
use crate::yaml::{Decoder, Sp};

/// Categories every flow and template may use without declaring them.
pub const BUILTIN: &[&str] = &[
    "entrance",
    "exit",
    "normal",
    "hub",
    "reward",
    "shop",
    "secret",
    "special",
    "boss",
    "connector",
];

/// Fill colour of a category in pictures and graphs, as RGB. The Isaac
/// generator's own categories share the colour of their nearest built-in one
/// (`treasure` that of `reward`, its optional rooms that of `special`); other
/// custom categories get the colour of `normal`.
pub fn colour(category: &str) -> [u8; 3] {
    match category {
        "entrance" => [0x8f, 0xd1, 0x9e],
        "exit" => [0x7f, 0xb3, 0xe6],
        "boss" => [0xe0, 0x7a, 0x6f],
        "reward" | "treasure" => [0xf2, 0xd1, 0x6b],
        "shop" => [0xc9, 0xa0, 0xdc],
        "secret" => [0x9e, 0x9e, 0x9e],
        "super_secret" => [0x7a, 0x7a, 0x86],
        "hub" => [0xf0, 0xa8, 0x68],
        "special" | "sacrifice" | "library" | "curse" | "challenge" | "arcade" | "miniboss"
        | "dice" | "bedroom" | "vault" => [0x6f, 0xd0, 0xc8],
        "connector" => [0xd8, 0xd0, 0xc0],
        _ => [0xe8, 0xe4, 0xda],
    }
}

/// [`colour`] as `#rrggbb`.
pub fn colour_hex(category: &str) -> String {
    let [r, g, b] = colour(category);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// Whether `name` is a built-in category.
pub fn is_builtin(name: &str) -> bool {
    BUILTIN.contains(&name)
}

/// Warns when a template's category is not built-in but is spelled like one
/// (a typo would otherwise silently create a new category).
pub fn check_category_spelling(d: &mut Decoder, category: &Sp<String>) {
    if is_builtin(&category.value) {
        return;
    }
    if let Some(dym) = did_you_mean(&category.value, BUILTIN.iter().copied()) {
        d.warning(
            "room::category-typo",
            category.span.clone(),
            format!(
                "category `{}` is not built-in but close to one",
                category.value
            ),
            "user-defined category?",
            format!("{dym} (a new category is fine if intended)"),
        );
    }
}
