//! Gameplay data a designer attaches to templates, flow nodes, edges and
//! markers: `properties:`, a map of names to strings, numbers and booleans.
//! They are carried unchanged into the [`Level`](crate::level::Level).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::yaml::{Decoder, Node, Value};

/// One property value: a boolean, a whole number, a number or a string.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PropertyValue {
    /// `true` or `false`.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A number with a fraction.
    Float(f64),
    /// Text.
    Text(String),
}

impl std::fmt::Display for PropertyValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PropertyValue::Bool(b) => write!(f, "{b}"),
            PropertyValue::Int(i) => write!(f, "{i}"),
            PropertyValue::Float(x) => write!(f, "{x}"),
            PropertyValue::Text(s) => f.write_str(s),
        }
    }
}

/// Named property values, in name order.
pub type Properties = BTreeMap<String, PropertyValue>;

/// Decodes a `properties:` mapping (`what` names its owner in diagnostics):
/// names to strings, numbers and booleans. A value of another shape (a
/// list, a mapping, nothing) is reported and left out.
pub fn decode_properties(d: &mut Decoder, node: Option<&Node>, what: &str) -> Properties {
    let mut out = Properties::new();
    let Some(node) = node else { return out };
    let Some(mut fields) = d.map(node, &format!("the `properties` of {what}")) else {
        return out;
    };
    for (k, v) in fields.rest() {
        let Some(name) = d.name(k, "a property name") else {
            continue;
        };
        let value = match &v.value {
            Value::Bool(b) => PropertyValue::Bool(*b),
            Value::Int(i) => PropertyValue::Int(*i),
            Value::Float(x) if x.is_finite() => PropertyValue::Float(*x),
            Value::Str(s) => PropertyValue::Text(s.clone()),
            other => {
                d.error(
                    "yaml::bad-property",
                    v.span.clone(),
                    format!(
                        "property `{}` of {what} is {}, not a string, number or boolean",
                        name.value,
                        if matches!(other, Value::Float(_)) {
                            "not a finite number"
                        } else {
                            other.kind_name()
                        }
                    ),
                    "not a property value",
                    "give a string, a number or `true`/`false`; quote text that looks like something else",
                );
                continue;
            }
        };
        out.insert(name.value, value);
    }
    fields.finish(d, "`properties`", &[]);
    out
}

/// `base` with `over` laid on top: `over`'s value wins where both name a
/// property.
pub fn merged(base: &Properties, over: &Properties) -> Properties {
    let mut out = base.clone();
    out.extend(over.iter().map(|(k, v)| (k.clone(), v.clone())));
    out
}
