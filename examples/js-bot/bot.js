// js-bot: a Bhabhi program bot for node, no npm packages (docs/protocol.md).
//
//   arena check-bot "program:examples/js-bot"
//
// Strategy: lead the lowest card of the longest suit; follow with the highest
// card that still loses the trick (the lowest if every card wins, the highest
// when it is the last to play and so wins a clean trick anyway); when void,
// throw the highest card (of the shorter suit on a tie); dump the highest card
// on a free trick 1; never take a neighbour's cards (it only adds cards).
"use strict";
const readline = require("readline");

const RANKS = "23456789TJQKA";
const SUITS = "CDHS";
const rank = (card) => RANKS.indexOf(card[0]);
const suit = (card) => SUITS.indexOf(card[1]); // "AS*" (a second-pack copy) is still a spade

// Does card a beat b, the trick's winner so far? (Of two equal cards the first played wins.)
function beats(a, b, trump) {
  if (suit(a) === suit(b)) return rank(a) > rank(b);
  return trump !== null && suit(a) === trump;
}

const highest = (cards) => cards.reduce((x, y) => (rank(y) > rank(x) ? y : x));
const lowest = (cards) => cards.reduce((x, y) => (rank(y) < rank(x) ? y : x));

function chooseCard(view) {
  const legal = view.legal;
  if (legal.length === 1) return legal[0];
  const count = [0, 0, 0, 0];
  for (const card of view.hand) count[suit(card)]++;
  const trick = view.trick || [];

  if (trick.length === 0) {
    // Leading: the lowest card of the longest suit.
    return legal.reduce((x, y) => {
      const cx = count[suit(x)], cy = count[suit(y)];
      return cy > cx || (cy === cx && rank(y) < rank(x)) ? y : x;
    });
  }

  const trump = view.trump ?? null;
  let winner = trick[0][1];
  for (const [, card] of trick) if (beats(card, winner, trump)) winner = card;
  const led = suit(trick[0][1]);
  const following = suit(legal[0]) === led || (trump !== null && suit(legal[0]) === trump);
  const freeTrick = view.first_trick && view.rules && view.rules.first_trick === "free";

  if (freeTrick || !following) {
    // Every card goes to the pile, or a thulla: get rid of the highest card.
    return legal.reduce((x, y) =>
      rank(y) > rank(x) || (rank(y) === rank(x) && count[suit(y)] < count[suit(x)]) ? y : x);
  }
  const under = legal.filter((card) => !beats(card, winner, trump));
  if (under.length) return highest(under); // the highest card that still loses
  const active = (view.active || []).filter(Boolean).length;
  return trick.length === active - 1 ? highest(legal) : lowest(legal);
}

function reply(msg) {
  switch (msg.type) {
    case "hello":
      return { type: "hello", protocol: 1, name: "js-bot", version: "1.0" };
    case "new_game":
      return { type: "ready" };
    case "decide":
      if (msg.view.decision === "take") return { action: false };
      return { action: chooseCard(msg.view) };
    case "end_game":
      return { type: "done" };
    default: // never sent to a version-1 bot, but every message gets one line
      return { type: "error", message: `unknown message type ${msg.type}` };
  }
}

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch (err) {
    process.stdout.write(JSON.stringify({ type: "error", message: `bad line: ${err.message}` }) + "\n");
    return;
  }
  if (msg.type === "shutdown") {
    lines.close();
    return;
  }
  let answer;
  try {
    answer = reply(msg);
  } catch (err) {
    console.error(err.stack); // stderr is the bot's log
    answer = { type: "error", message: String(err.message).slice(0, 200) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n"); // a pipe's writes are synchronous on Linux
});
lines.on("close", () => process.exit(0));
