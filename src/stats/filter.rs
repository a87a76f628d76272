//! `bake --where`: a condition on a level's [`Measures`], such as
//! `rooms >= 20 && direct_doors >= 0.9 && solvable`.
//!
//! The language is small on purpose: measure names, numbers, `true` and
//! `false`, the comparisons `< <= > >= == !=`, `!`, `&&`, `||` and
//! parentheses (`&&` binds tighter than `||`). Every mistake is a
//! diagnostic pointing at its column in the expression.

use std::ops::Range;
use std::sync::Arc;

use super::measures::{Measures, Value};
use crate::diag::{Diagnostic, SourceFile, did_you_mean};

/// Longest expression accepted, in bytes.
pub const MAX_FILTER_LEN: usize = 1000;

/// Deepest nesting of `!` and parentheses accepted.
const MAX_DEPTH: usize = 64;

/// A parsed condition.
#[derive(Clone, Debug, PartialEq)]
pub struct Filter {
    root: Node,
}

#[derive(Clone, Debug, PartialEq)]
enum Node {
    Or(Box<Node>, Box<Node>),
    And(Box<Node>, Box<Node>),
    Not(Box<Node>),
    /// A yes/no measure on its own.
    Is(&'static str),
    Compare(&'static str, Op, Operand),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Operand {
    Number(f64),
    Bool(bool),
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Name(String),
    Number(f64),
    Op(Op),
    And,
    Or,
    Not,
    Open,
    Close,
    End,
}

impl Filter {
    /// Parses `text`, checking every measure name and comparison.
    pub fn parse(text: &str) -> Result<Filter, Diagnostic> {
        let file = SourceFile::new("--where", text);
        if text.len() > MAX_FILTER_LEN {
            return Err(Diagnostic::error(
                "bake::bad-filter",
                format!(
                    "the condition is {} bytes long; at most {MAX_FILTER_LEN} are accepted",
                    text.len()
                ),
            )
            .in_file(&file));
        }
        let tokens = tokenize(text, &file)?;
        let mut parser = Parser {
            tokens,
            at: 0,
            file,
            depth: 0,
        };
        let root = parser.or()?;
        match parser.peek() {
            (Token::End, _) => Ok(Filter { root }),
            (_, span) => Err(parser.error(span, "expected `&&`, `||` or the end here")),
        }
    }

    /// Whether `m` meets the condition.
    pub fn keeps(&self, m: &Measures) -> bool {
        eval(&self.root, m)
    }
}

fn eval(node: &Node, m: &Measures) -> bool {
    match node {
        Node::Or(a, b) => eval(a, m) || eval(b, m),
        Node::And(a, b) => eval(a, m) && eval(b, m),
        Node::Not(a) => !eval(a, m),
        Node::Is(name) => m.value(name) == Some(Value::Bool(true)),
        Node::Compare(name, op, operand) => match (m.value(name), operand) {
            (Some(Value::Number(a)), Operand::Number(b)) => match op {
                Op::Lt => a < *b,
                Op::Le => a <= *b,
                Op::Gt => a > *b,
                Op::Ge => a >= *b,
                Op::Eq => a == *b,
                Op::Ne => a != *b,
            },
            (Some(Value::Bool(a)), Operand::Bool(b)) => match op {
                Op::Eq => a == *b,
                _ => a != *b,
            },
            _ => false,
        },
    }
}

fn tokenize(text: &str, file: &Arc<SourceFile>) -> Result<Vec<(Token, Range<usize>)>, Diagnostic> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        let two = bytes.get(i..i + 2);
        let token = match c {
            b' ' | b'\t' | b'\n' | b'\r' => {
                i += 1;
                continue;
            }
            b'(' => Token::Open,
            b')' => Token::Close,
            _ if two == Some(b"&&") => Token::And,
            _ if two == Some(b"||") => Token::Or,
            _ if two == Some(b">=") => Token::Op(Op::Ge),
            _ if two == Some(b"<=") => Token::Op(Op::Le),
            _ if two == Some(b"==") => Token::Op(Op::Eq),
            _ if two == Some(b"!=") => Token::Op(Op::Ne),
            b'>' => Token::Op(Op::Gt),
            b'<' => Token::Op(Op::Lt),
            b'!' => Token::Not,
            b'0'..=b'9' | b'.' | b'-' => {
                i += 1;
                while i < bytes.len() && matches!(bytes[i], b'0'..=b'9' | b'.' | b'e' | b'E') {
                    i += 1;
                }
                let number = &text[start..i];
                match number.parse::<f64>() {
                    Ok(v) if v.is_finite() => out.push((Token::Number(v), start..i)),
                    _ => {
                        return Err(bad(file, start..i, format!("`{number}` is not a number")));
                    }
                }
                continue;
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                out.push((Token::Name(text[start..i].to_owned()), start..i));
                continue;
            }
            _ => {
                let ch = text[start..].chars().next().unwrap_or('?');
                return Err(bad(
                    file,
                    start..start + ch.len_utf8(),
                    format!("`{ch}` has no meaning in a condition"),
                ));
            }
        };
        i += match token {
            Token::And | Token::Or | Token::Op(Op::Ge | Op::Le | Op::Eq | Op::Ne) => 2,
            _ => 1,
        };
        out.push((token, start..i));
    }
    out.push((Token::End, text.len()..text.len()));
    Ok(out)
}

fn bad(file: &Arc<SourceFile>, span: Range<usize>, message: String) -> Diagnostic {
    Diagnostic::error("bake::bad-filter", message.clone())
        .in_file(file)
        .label(span, "here")
        .help(format!(
            "write conditions like `rooms >= 20 && direct_doors >= 0.9 && solvable`; the measures are {}",
            Measures::NAMES.join(", ")
        ))
}

struct Parser {
    tokens: Vec<(Token, Range<usize>)>,
    at: usize,
    file: Arc<SourceFile>,
    depth: usize,
}

impl Parser {
    fn peek(&self) -> (Token, Range<usize>) {
        self.tokens[self.at.min(self.tokens.len() - 1)].clone()
    }

    fn next(&mut self) -> (Token, Range<usize>) {
        let t = self.peek();
        self.at += 1;
        t
    }

    fn error(&self, span: Range<usize>, message: &str) -> Diagnostic {
        bad(&self.file, span, message.to_owned())
    }

    fn or(&mut self) -> Result<Node, Diagnostic> {
        let mut left = self.and()?;
        while self.peek().0 == Token::Or {
            self.next();
            left = Node::Or(Box::new(left), Box::new(self.and()?));
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Node, Diagnostic> {
        let mut left = self.unary()?;
        while self.peek().0 == Token::And {
            self.next();
            left = Node::And(Box::new(left), Box::new(self.unary()?));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Node, Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let span = self.peek().1;
            return Err(self.error(span, "the condition nests too deeply"));
        }
        let node = match self.next() {
            (Token::Not, _) => Node::Not(Box::new(self.unary()?)),
            (Token::Open, open) => {
                let inner = self.or()?;
                match self.next() {
                    (Token::Close, _) => inner,
                    (_, span) => {
                        return Err(self.error(
                            span.start.min(open.start)..span.end,
                            "this `(` is not closed",
                        ));
                    }
                }
            }
            (Token::Name(name), span) => self.measure(&name, span)?,
            (_, span) => return Err(self.error(span, "expected a measure, `!` or `(` here")),
        };
        self.depth -= 1;
        Ok(node)
    }

    fn measure(&mut self, name: &str, span: Range<usize>) -> Result<Node, Diagnostic> {
        let Some(&known) = Measures::NAMES.iter().find(|n| **n == name) else {
            let mut d = self.error(span, &format!("no measure is called `{name}`"));
            if let Some(close) = did_you_mean(name, Measures::NAMES) {
                d.message += &format!(" ({close})");
            }
            return Err(d);
        };
        let is_bool = known == "solvable";
        let op = match self.peek() {
            (Token::Op(op), _) => {
                self.next();
                op
            }
            _ if is_bool => return Ok(Node::Is(known)),
            _ => {
                return Err(self.error(
                    span,
                    &format!("`{known}` is a number: compare it, as in `{known} >= 1`"),
                ));
            }
        };
        let operand = match self.next() {
            (Token::Number(v), _) if !is_bool => Operand::Number(v),
            (Token::Name(word), _) if is_bool && (word == "true" || word == "false") => {
                Operand::Bool(word == "true")
            }
            (_, at) if is_bool => {
                return Err(self.error(at, &format!("compare `{known}` with `true` or `false`")));
            }
            (_, at) => return Err(self.error(at, "expected a number here")),
        };
        if is_bool && !matches!(op, Op::Eq | Op::Ne) {
            return Err(self.error(span, &format!("`{known}` is yes or no: use `==` or `!=`")));
        }
        Ok(Node::Compare(known, op, operand))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(rooms: u32, direct_doors: f64, solvable: bool) -> Measures {
        Measures {
            rooms,
            direct_doors,
            corridor_tiles: 0,
            longest_corridor: 0,
            area: 100,
            fill: 0.5,
            dead_ends: 1,
            critical_path: 3,
            attempts: 1,
            solvable,
            keys: 0,
            locks: 0,
            key_path: 3,
            backtracking: 0,
            bypassed_locks: 0,
        }
    }

    #[test]
    fn conditions_combine_with_and_or_not_and_parentheses() {
        let f = Filter::parse("rooms >= 20 && direct_doors >= 0.9 && solvable").expect("parses");
        assert!(f.keeps(&level(20, 0.9, true)));
        assert!(!f.keeps(&level(19, 0.9, true)));
        assert!(!f.keeps(&level(20, 0.89, true)));
        assert!(!f.keeps(&level(20, 0.9, false)));
        let f = Filter::parse("!(rooms < 10 || rooms > 12) && solvable == true").expect("parses");
        assert!(f.keeps(&level(10, 0.0, true)) && f.keeps(&level(12, 0.0, true)));
        assert!(!f.keeps(&level(13, 0.0, true)) && !f.keeps(&level(11, 0.0, false)));
        // `&&` binds tighter than `||`.
        let f = Filter::parse("rooms == 1 || rooms == 2 && solvable").expect("parses");
        assert!(f.keeps(&level(1, 0.0, false)));
        assert!(!f.keeps(&level(2, 0.0, false)));
    }

    #[test]
    fn mistakes_point_at_their_column() {
        let at = |text: &str| {
            let d = Filter::parse(text).expect_err("refused");
            assert_eq!(d.code, "bake::bad-filter");
            (d.labels[0].span.clone(), d.message)
        };
        let (span, message) = at("romos >= 2");
        assert_eq!(span, 0..5);
        assert!(message.contains("`rooms`"), "{message}");
        assert_eq!(at("rooms >= 2 &&").0, 13..13);
        assert_eq!(at("rooms").0, 0..5);
        assert_eq!(at("solvable > true").0, 0..8);
        assert_eq!(at("rooms >= x").0, 9..10);
        assert_eq!(at("rooms >= 1e999").0, 9..14);
        assert_eq!(at("(rooms >= 2").0, 0..11);
        assert_eq!(at("rooms ~ 2").0, 6..7);
        assert_eq!(at("rooms >= 2 rooms").0, 11..16);
        assert!(Filter::parse(&"!".repeat(100)).is_err());
        assert!(Filter::parse(&"(".repeat(5000)).is_err());
    }
}
