//! rust-bot: a Bhabhi program bot in one Rust file, no crates (docs/protocol.md).
//!
//!     rustc -O -o examples/rust-bot/rust-bot examples/rust-bot/main.rs
//!     arena check-bot "program:examples/rust-bot"
//!
//! Strategy: lead the lowest card of the longest suit; follow with the highest
//! card that still loses the trick (the lowest if every card wins, the highest
//! when it is the last to play and so wins a clean trick anyway); when void,
//! throw the highest card (of the shorter suit on a tie); dump the highest card
//! on a free trick 1; never take a neighbour's cards (it only adds cards).
//! Builds with the rustc of Debian 12 (1.63) and later.

use std::io::{self, BufRead, Write};

// ---- a minimal JSON reader (any key order, unknown keys ignored) ----

enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

static NULL: Json = Json::Null;

impl Json {
    fn get(&self, key: &str) -> &Json {
        match self {
            Json::Obj(members) => members.iter().find(|m| m.0 == key).map_or(&NULL, |m| &m.1),
            _ => &NULL,
        }
    }
    fn at(&self, i: usize) -> &Json {
        match self {
            Json::Arr(items) => items.get(i).unwrap_or(&NULL),
            _ => &NULL,
        }
    }
    fn items(&self) -> &[Json] {
        match self {
            Json::Arr(items) => items,
            _ => &[],
        }
    }
    fn str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            _ => "",
        }
    }
    fn truthy(&self) -> bool {
        matches!(self, Json::Bool(true))
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Parser<'a> {
    fn ws(&mut self) {
        while self.i < self.s.len() && b" \t\r\n".contains(&self.s[self.i]) {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) -> Option<()> {
        self.ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            Some(())
        } else {
            None
        }
    }
    fn string(&mut self) -> Option<String> {
        self.eat(b'"')?;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let c = *self.s.get(self.i)?;
            self.i += 1;
            match c {
                b'"' => return String::from_utf8(out).ok(),
                b'\\' => {
                    let e = *self.s.get(self.i)?;
                    self.i += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'u' => {
                            let hex = std::str::from_utf8(self.s.get(self.i..self.i + 4)?).ok()?;
                            let ch = char::from_u32(u32::from_str_radix(hex, 16).ok()?).unwrap_or('?');
                            self.i += 4;
                            out.extend_from_slice(ch.to_string().as_bytes());
                        }
                        other => out.push(other), // \" \\ \/
                    }
                }
                _ => out.push(c),
            }
        }
    }
    fn value(&mut self) -> Option<Json> {
        self.ws();
        let rest = &self.s[self.i..];
        match *rest.first()? {
            b'{' | b'[' => {
                let obj = rest[0] == b'{';
                let close = if obj { b'}' } else { b']' };
                self.i += 1;
                let (mut members, mut items) = (Vec::new(), Vec::new());
                while self.eat(close).is_none() {
                    if obj {
                        let key = self.string()?;
                        self.eat(b':')?;
                        members.push((key, self.value()?));
                    } else {
                        items.push(self.value()?);
                    }
                    let _ = self.eat(b',');
                }
                Some(if obj { Json::Obj(members) } else { Json::Arr(items) })
            }
            b'"' => self.string().map(Json::Str),
            _ if rest.starts_with(b"true") => {
                self.i += 4;
                Some(Json::Bool(true))
            }
            _ if rest.starts_with(b"false") => {
                self.i += 5;
                Some(Json::Bool(false))
            }
            _ if rest.starts_with(b"null") => {
                self.i += 4;
                Some(Json::Null)
            }
            _ => {
                let n = rest.iter().take_while(|c| b"+-.eE0123456789".contains(c)).count();
                let num = std::str::from_utf8(&rest[..n]).ok()?.parse().ok()?;
                self.i += n;
                Some(Json::Num(num))
            }
        }
    }
}

// ---- cards ----

fn rank(card: &str) -> i32 {
    "23456789TJQKA".find(card.chars().next().unwrap_or('?')).map_or(-1, |r| r as i32)
}
fn suit(card: &str) -> i32 {
    "CDHS".find(card.chars().nth(1).unwrap_or('?')).map_or(-1, |s| s as i32) // "AS*" is a spade
}
/// Does card a beat b, the trick's winner so far? (Of two equal cards the first played wins.)
fn beats(a: &str, b: &str, trump: Option<i32>) -> bool {
    if suit(a) == suit(b) {
        rank(a) > rank(b)
    } else {
        trump == Some(suit(a))
    }
}

// ---- the strategy ----

fn choose_card(view: &Json) -> String {
    let legal: Vec<&str> = view.get("legal").items().iter().map(Json::str).collect();
    let trick = view.get("trick").items();
    let mut count = [0usize; 4];
    for card in view.get("hand").items() {
        if let Ok(s) = usize::try_from(suit(card.str())) {
            count[s] += 1;
        }
    }
    let len = |card: &str| count[suit(card).max(0) as usize];
    if legal.len() == 1 {
        return legal[0].to_string();
    }
    if trick.is_empty() {
        // Leading: the lowest card of the longest suit.
        let best = legal.iter().min_by_key(|c| (std::cmp::Reverse(len(c)), rank(c)));
        return best.unwrap_or(&"").to_string();
    }
    let trump = match view.get("trump") {
        Json::Num(t) => Some(*t as i32),
        _ => None,
    };
    let mut winner = trick[0].at(1).str();
    for play in trick {
        if beats(play.at(1).str(), winner, trump) {
            winner = play.at(1).str();
        }
    }
    let led = suit(trick[0].at(1).str());
    let following = suit(legal[0]) == led || trump == Some(suit(legal[0]));
    let free_trick = view.get("first_trick").truthy() && view.get("rules").get("first_trick").str() == "free";
    if free_trick || !following {
        // Every card goes to the pile, or a thulla: get rid of the highest card.
        let best = legal.iter().max_by_key(|c| (rank(c), std::cmp::Reverse(len(c))));
        return best.unwrap_or(&"").to_string();
    }
    let active = view.get("active").items().iter().filter(|a| a.truthy()).count();
    let under = legal.iter().filter(|c| !beats(c, winner, trump)).max_by_key(|c| rank(c));
    let card = match under {
        Some(c) => c, // the highest card that still loses
        None if trick.len() + 1 == active => legal.iter().max_by_key(|c| rank(c)).unwrap(),
        None => legal.iter().min_by_key(|c| rank(c)).unwrap(),
    };
    card.to_string()
}

fn reply(msg: &Json) -> String {
    match msg.get("type").str() {
        "hello" => r#"{"type": "hello", "protocol": 1, "name": "rust-bot", "version": "1.0"}"#.to_string(),
        "new_game" => r#"{"type": "ready"}"#.to_string(),
        "decide" => {
            let view = msg.get("view");
            if view.get("decision").str() == "take" {
                r#"{"action": false}"#.to_string()
            } else if view.get("legal").items().is_empty() {
                r#"{"type": "error", "message": "no legal cards"}"#.to_string()
            } else {
                format!(r#"{{"action": "{}"}}"#, choose_card(view)) // card texts need no escaping
            }
        }
        "end_game" => r#"{"type": "done"}"#.to_string(),
        _ => r#"{"type": "error", "message": "unknown message type"}"#.to_string(),
    }
}

fn main() {
    let stdin = io::stdin();
    let mut out = io::stdout();
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(line) => line,
            Err(_) => break,
        };
        let answer = match (Parser { s: line.as_bytes(), i: 0 }).value() {
            Some(msg) if msg.get("type").str() == "shutdown" => break,
            Some(msg) => reply(&msg),
            None => r#"{"type": "error", "message": "could not parse a line"}"#.to_string(),
        };
        if writeln!(out, "{}", answer).and_then(|_| out.flush()).is_err() {
            break;
        }
    }
}
