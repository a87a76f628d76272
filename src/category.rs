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
