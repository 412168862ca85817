// The time-travel viewer: one game, any version, through the HTTP API only (CONTRACT section 6).
// The token comes from the URL fragment (#token=T&v=V) and is dropped from the address bar once read,
// so it never reaches a server log. The page never loads the whole log: it asks for the state at one
// version and a window of the timeline around it.

const STEPS = [
  ["beginning", "untap"], ["beginning", "upkeep"], ["beginning", "draw"],
  ["precombat_main", "precombat_main"],
  ["combat", "beginning_of_combat"], ["combat", "declare_attackers"], ["combat", "declare_blockers"],
  ["combat", "combat_damage"], ["combat", "end_of_combat"],
  ["postcombat_main", "postcombat_main"],
  ["ending", "end"], ["ending", "cleanup"],
];
const WINDOW = 60; // timeline rows around the current version

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v; else if (k === "text") node.textContent = v; else node.setAttribute(k, v);
  }
  for (const child of children) node.append(child);
  return node;
};
const words = (step) => (step || "").replaceAll("_", " ");

const gameId = location.pathname.split("/")[2];
const fragment = new URLSearchParams(location.hash.slice(1));
const token = fragment.get("token") || sessionStorage.getItem(`mtg-ledger:${gameId}`) || "";
if (fragment.get("token")) sessionStorage.setItem(`mtg-ledger:${gameId}`, fragment.get("token"));
history.replaceState(null, "", location.pathname + location.search); // the token leaves the address bar

const view = { version: 0, target: 0, total: 0, state: null, previous: null, game: null, timeline: [], lang: "en", follow: true, findings: [] };

async function api(path, options = {}) {
  const response = await fetch(`/games/${gameId}${path}`, {
    ...options, headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", ...(options.headers || {}) },
  });
  const body = response.headers.get("content-type")?.includes("json") ? await response.json() : await response.text();
  if (!response.ok) throw new Error(body?.error || `${response.status}`);
  return body;
}

function say(text) { $("status").textContent = text; }

// --- the board ----------------------------------------------------------------------------

function changed(before, after) {
  const marks = { objects: new Set(), players: new Set(), lines: [] };
  if (!before) return marks;
  for (const [name, p] of Object.entries(after.players)) {
    const q = before.players[name];
    if (!q) continue;
    for (const key of ["life", "library", "lost"]) {
      if (JSON.stringify(p[key]) !== JSON.stringify(q[key])) { marks.players.add(name); marks.lines.push(`${name}: ${key} ${q[key]} → ${p[key]}`); }
    }
    for (const zone of ["hand", "graveyard"]) {
      const a = Array.isArray(q[zone]) ? q[zone].length : q[zone], b = Array.isArray(p[zone]) ? p[zone].length : p[zone];
      if (a !== b) { marks.players.add(name); marks.lines.push(`${name}: ${zone} ${a} → ${b} cards`); }
    }
  }
  const old = new Map(before.battlefield.map((b) => [b.object, b]));
  for (const b of after.battlefield) {
    const a = old.get(b.object);
    if (!a) { marks.objects.add(b.object); marks.lines.push(`+ ${b.card} #${b.object} (${b.controller})`); continue; }
    const diff = ["tapped", "damage", "power", "toughness", "attacking", "blocking", "phased_out", "counters", "transformed"]
      .filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
    if (diff.length) { marks.objects.add(b.object); marks.lines.push(`~ ${b.card} #${b.object}: ` + diff.map((k) => `${k} ${JSON.stringify(a[k])} → ${JSON.stringify(b[k])}`).join(", ")); }
  }
  const stackBefore = new Set(before.stack.map((o) => o.object)), stackAfter = new Set(after.stack.map((o) => o.object));
  for (const o of after.stack) if (!stackBefore.has(o.object)) marks.lines.push(`stack + ${o.card} #${o.object} (${o.controller})`);
  for (const o of before.stack) if (!stackAfter.has(o.object)) marks.lines.push(`stack - ${o.card} #${o.object}`);
  const now = new Set(after.battlefield.map((b) => b.object));
  for (const b of before.battlefield) if (!now.has(b.object)) marks.lines.push(`- ${b.card} #${b.object}`);
  return marks;
}

function permanent(p, marks) {
  const labels = [];
  if (p.tapped) labels.push("tapped");
  if (p.damage) labels.push(`${p.damage} damage`);
  if (p.attacking) labels.push(`attacking ${p.attacking}`);
  if (p.blocking && p.blocking.length) labels.push(`blocking #${p.blocking.join(", #")}`);
  if (p.phased_out) labels.push("phased out");
  if (p.transformed) labels.push("transformed");
  if (p.summoning_sick) labels.push("summoning sick");
  for (const [kind, n] of Object.entries(p.counters || {})) labels.push(`${n} ${kind} counter${n === 1 ? "" : "s"}`);
  const stats = p.power !== null && p.power !== undefined ? ` ${p.power}/${p.toughness}` : "";
  const classes = ["card", p.tapped ? "tapped" : "", p.phased_out ? "phased" : "", p.attacking ? "attacking" : "", marks.objects.has(p.object) ? "changed" : ""];
  return el("li", { class: classes.join(" "), "data-object": p.object },
    el("span", { class: "name", tabindex: "0", "data-card": p.card, text: `${p.card}` }), el("span", { class: "id", text: ` #${p.object}${stats}` }),
    labels.length ? el("span", { class: "labels", text: ` — ${labels.join(", ")}` }) : "",
    marks.objects.has(p.object) ? el("span", { class: "sr", text: " (changed by this event)" }) : "");
}

function hand(cards) {
  if (typeof cards === "number") return el("span", { text: `${cards} card${cards === 1 ? "" : "s"} (hidden)` });
  const hidden = cards.filter((c) => c === null).length;
  const known = cards.filter((c) => c !== null);
  const names = known.flatMap((c, i) => [i ? ", " : "", el("span", { class: "name", tabindex: "0", "data-card": c, text: c })]);
  const rest = known.length ? "" : (hidden ? "" : "empty");
  return el("span", {}, ...names, rest + (hidden ? `${known.length ? ", " : ""}${hidden} hidden card${hidden === 1 ? "" : "s"}` : ""));
}

// A card's Oracle text, shown while its name is hovered or focused (GET /cards/{name}: anyone may read it).
const cardTexts = new Map();
async function cardText(name) {
  if (!cardTexts.has(name)) {
    cardTexts.set(name, fetch(`/cards/${encodeURIComponent(name)}`).then((r) => (r.ok ? r.json() : null)).catch(() => null));
  }
  return cardTexts.get(name);
}
function typeLine(card) {
  const left = [...card.supertypes, ...card.types].join(" ");
  return card.subtypes.length ? `${left} — ${card.subtypes.join(" ")}` : left;
}
async function showCard(event) {
  const target = event.target.closest && event.target.closest("[data-card]");
  if (!target) return;
  const name = target.getAttribute("data-card");
  const card = await cardText(name);
  const face = card && card.back && card.back.name === name ? card.back : card;
  if (!face) { $("card-text").replaceChildren(el("p", { text: `${name}: no such card in the pool` })); return; }
  const stats = face.power !== undefined ? `${face.power}/${face.toughness}` : (face.loyalty !== undefined ? `loyalty ${face.loyalty}` : "");
  $("card-text").replaceChildren(
    el("h3", { text: `${face.name}${face.mana_cost ? `  ${face.mana_cost}` : ""}` }),
    el("p", { class: "type-line", text: typeLine(face) }),
    ...face.oracle.split("\n").filter((l) => l).map((l) => el("p", { class: "oracle", text: l })),
    stats ? el("p", { text: stats }) : "");
  target.setAttribute("title", `${face.name}: ${face.oracle}`);
}
document.addEventListener("mouseover", showCard);
document.addEventListener("focusin", showCard);

function renderBoard(outline) {
  const s = view.state, marks = changed(view.previous, s);
  if (outline.outcome && outline.ended_at === view.version) marks.lines.unshift(outline.outcome); // how the game ended, not "nothing"
  const holder = s.priority ? `${s.priority} holds priority` : "nobody holds priority";
  const dayNight = s.day_night ? ` · it is ${s.day_night}` : "";
  $("turn-line").replaceChildren(el("p", {},
    el("strong", { text: `turn ${s.turn}` }), ` · ${s.active_player || "—"} is active · `,
    el("span", { class: "step-name", "data-step": s.step || "", text: s.step || "before the first step" }), ` · ${holder}${dayNight}`,
    s.ended ? el("strong", { text: ` · game over: ${(s.winners && s.winners.length ? s.winners.join(" and ") : s.winner) || "a draw"}` }) : ""));
  const players = Object.entries(s.players).map(([name, p]) => {
    const mine = s.battlefield.filter((b) => b.controller === name);
    const scheme = s.archenemy === name ? el("p", { text: `archenemy · schemes left: ${s.schemes.length}${s.scheme_in_motion ? ` · in motion: ${s.scheme_in_motion}` : ""}` }) : "";
    return el("section", { class: `player${marks.players.has(name) ? " changed" : ""}${p.lost ? " lost" : ""}${s.priority === name ? " priority" : ""}`, "aria-label": `player ${name}`, "data-player": name },
      el("h2", {}, el("span", { text: name }), el("span", { class: "life", "data-life": p.life, text: ` life ${p.life}` }),
        s.active_player === name ? el("span", { class: "badge", text: " active" }) : "", s.priority === name ? el("span", { class: "badge", text: " priority" }) : "",
        p.lost ? el("span", { class: "badge", text: " lost" }) : ""),
      scheme,
      el("p", { class: "zones" }, "hand: ", hand(p.hand), ` · library ${p.library} · graveyard ${p.graveyard.length}`),
      el("ul", { class: "battlefield", "aria-label": `${name}'s battlefield` }, ...mine.map((b) => permanent(b, marks))));
  });
  $("players").replaceChildren(...players);
  $("stack").replaceChildren(...[...s.stack].reverse().map((o) =>
    el("li", { "data-object": o.object }, el("span", { class: "name", tabindex: "0", "data-card": o.card, text: o.card }),
      ` #${o.object} (${o.controller})${o.targets && o.targets.length ? ` → ${o.targets.map((t) => typeof t === "number" ? `#${t}` : t).join(", ")}` : ""}`)));
  if (!s.stack.length) $("stack").replaceChildren(el("li", { class: "empty", text: "empty" }));
  $("changes").replaceChildren(...(marks.lines.length ? marks.lines : ["nothing on the board"]).map((t) => el("li", { text: t })));
}

function renderRibbon(outline) {
  const happened = outline.steps;
  const items = [];
  // A game that ended in this turn played none of its steps after the last one begun (104): they are left
  // out, not shown as skipped, and the ribbon ends with how the game ended.
  const lastIndex = Math.max(-1, ...happened.map((h) => STEPS.findIndex(([, step]) => step === h.step)));
  for (const [index, [phase, step]] of STEPS.entries()) {
    const times = happened.filter((h) => h.step === step);
    if (outline.outcome && !times.length && index > lastIndex) continue;
    const skipped = outline.skipped.includes(phase) || (times.length === 0 && happened.length && view.state.step !== step && outline.complete);
    if (!times.length) items.push(el("li", { class: `step ${skipped ? "skipped" : "later"}`, "data-step": step, text: `${words(step)}${skipped ? " (skipped)" : ""}` }));
    times.forEach((h, i) => {
      const current = h.v <= view.version && (happened.find((x) => x.v > h.v)?.v ?? Infinity) > view.version;
      const again = i > 0 && !times[i - 1].first_strike; // 514.3a's second cleanup, or a step of an extra phase
      const label = `${words(step)}${h.first_strike ? " (first strike)" : ""}${again ? " (again)" : ""}${h.extra ? " (extra phase)" : ""}`;
      items.push(el("li", { class: `step happened${current ? " current" : ""}`, "data-step": step, "data-v": h.v, "aria-current": current ? "step" : "false", text: label }));
    });
  }
  if (outline.outcome) items.push(el("li", { class: "step game-over", "data-v": outline.ended_at, text: outline.outcome }));
  $("ribbon").replaceChildren(el("ol", {}, ...items));
}

// --- the timeline ---------------------------------------------------------------------------

async function renderTimeline() {
  const from = Math.max(1, view.version - WINDOW / 2);
  const page = await api(`/timeline?from=${from}&to=${from + WINDOW}`);
  view.total = Math.max(view.total, page.total);
  const finding = new Map(view.findings.map((f) => [f.version, f]));
  let turn = null, step = null;
  const rows = [];
  for (const e of page.events) {
    if (e.turn !== turn || e.step !== step) {
      turn = e.turn; step = e.step;
      rows.push(el("li", { class: "group", text: `turn ${turn ?? 0} · ${words(step) || "setup"}` }));
    }
    const f = finding.get(e.v);
    rows.push(el("li", { class: `event${e.v === view.version ? " current" : ""}${f ? " finding" : ""}`, "data-v": e.v, "aria-current": e.v === view.version ? "true" : "false" },
      el("code", { text: e.text }), e.rule ? el("span", { class: "rule", text: ` rule ${e.rule}` }) : "",
      f ? el("strong", { class: "finding-text", text: ` ⚠ ${f.rule ? `${f.rule} ${f.title || ""}: ` : ""}${f.message}` }) : ""));
  }
  $("timeline").replaceChildren(...rows);
  const box = $("timeline"), current = box.querySelector(".current");
  if (current) box.scrollTop = current.offsetTop - box.clientHeight / 2; // the list scrolls, never the page
}

// --- moving ----------------------------------------------------------------------------------

async function go(version) {
  version = Math.max(1, Math.min(view.total || version, version));
  view.target = version;  // a key pressed before the state arrives moves on from here, not from the version shown
  const [state, previous, outline] = await Promise.all([
    api(`/state?at=${version}`), version > 1 ? api(`/state?at=${version - 1}`) : null, api(`/turn?at=${version}`)]);
  if (view.target !== version) return;  // a later move overtook this one: show only the last
  view.version = version; view.state = state; view.previous = previous;
  view.follow = version === view.total;
  $("slider").max = view.total; $("slider").value = version;
  $("version-label").textContent = `event ${version} of ${view.total}`;
  followGame(state);
  renderBoard(outline);
  renderRibbon(outline);
  await renderTimeline();
}

// The jump form follows the game: its step is the step shown, its turn the turn shown (as a hint).
function followGame(state) {
  const form = $("jump");
  if (state.step && document.activeElement !== form.step) form.step.value = state.step;
  form.turn.placeholder = state.turn ? String(state.turn) : "";
}

async function jump(query) {
  try {
    const found = await api(`/find?after=${view.target || view.version}&${new URLSearchParams(query)}`);
    if (found.v) await go(found.v); else say("nothing found after this version");
  } catch (error) { say(error.message); }
}

function keys(event) {
  if (event.target.closest("input, select, textarea")) return;
  const moves = {
    ArrowLeft: () => go((view.target || view.version) - 1), ArrowRight: () => go((view.target || view.version) + 1),
    Home: () => go(1), End: () => go(view.total),
    ArrowUp: () => jump({ step_boundary: 1, back: 1 }), PageUp: () => jump({ step_boundary: 1, back: 1 }),
    ArrowDown: () => jump({ step_boundary: 1 }), PageDown: () => jump({ step_boundary: 1 }),
  };
  if (moves[event.key]) { event.preventDefault(); moves[event.key](); }
}

// --- a judge's tools -------------------------------------------------------------------------

async function renderJudge() {
  $("judge").hidden = false;
  const report = await api(`/audit?lang=${view.lang}`);
  view.findings = report.findings || [];
  $("chain").textContent = report.clean ? "hash chain verified: clean" : `hash chain and rules: ${view.findings.length} finding(s)`;
  $("findings").replaceChildren(...view.findings.map((f) => el("li", {},
    el("a", { href: "#", "data-v": f.version, text: `event ${f.version}` }), `: ${f.rule ? `rule ${f.rule} (${f.title || ""}) ` : ""}${f.message}`)));
}

async function branch() {
  const made = await api(`/branch?at=${view.version}`, { method: "POST" });
  location.assign(`/games/${made.game}/viewer#token=${encodeURIComponent(made.tokens.judge)}`);
}

async function diff(event) {
  event.preventDefault();
  const data = new FormData(event.target);
  const result = await api(`/diff`, { method: "POST", body: JSON.stringify({ other: data.get("other"), token: data.get("token") }) });
  if (result.first === null) { $("diff").replaceChildren(el("p", { text: "the two logs are identical" })); return; }
  const side = (e) => el("td", {}, el("code", { text: e ? e.text : "(no event)" }));
  $("diff").replaceChildren(el("p", { text: `first divergence at event ${result.first}` }),
    el("table", {}, el("tr", {}, el("th", { text: "this game" }), el("th", { text: "the other" })),
      ...result.rows.map((r) => el("tr", { class: r.same ? "" : "diverged" }, side(r.a), side(r.b)))));
}

// --- live ------------------------------------------------------------------------------------

async function follow() {
  const response = await fetch(`/games/${gameId}/stream?from=${view.total + 1}`, { headers: { Authorization: `Bearer ${token}`, Accept: "text/event-stream" } });
  if (!response.ok || !response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut); buffer = buffer.slice(cut + 2);
      const id = block.split("\n").find((l) => l.startsWith("id:"));
      if (!id) continue;
      const v = Number(id.slice(3).trim());
      const wasFollowing = view.follow;
      view.total = Math.max(view.total, v);
      $("slider").max = view.total;
      if (wasFollowing) await go(view.total); else $("version-label").textContent = `event ${view.version} of ${view.total}`;
      say(`live: ${view.total} events`);
    }
  }
}

async function start() {
  $("game-id").textContent = gameId;
  if (!token) { say("no token: open this page as /games/ID/viewer#token=TOKEN"); return; }
  try {
    view.game = await api("");
    view.total = view.game.version;
    say(`${view.game.viewer === "judge" ? "judge's view (everything)" : `${view.game.viewer}'s view`} · ${view.game.format} · ${view.game.players.join(", ")}`);
    for (const [, step] of STEPS) $("jump").step.append(el("option", { value: step, text: words(step) }));
    for (const p of view.game.players) $("jump").player.append(el("option", { value: p, text: p }));
    for (const t of view.game.event_types || []) $("event-types").append(el("option", { value: t }));
    if (view.game.viewer === "judge") await renderJudge();
    await go(Number(fragment.get("v")) || view.total);
  } catch (error) { say(error.message); return; }
  document.addEventListener("keydown", keys);
  $("first").onclick = () => go(1); $("last").onclick = () => go(view.total);
  $("prev").onclick = () => go((view.target || view.version) - 1); $("next").onclick = () => go((view.target || view.version) + 1);
  $("prev-step").onclick = () => jump({ step_boundary: 1, back: 1 }); $("next-step").onclick = () => jump({ step_boundary: 1 });
  $("slider").onchange = (e) => go(Number(e.target.value));
  $("timeline").onclick = (e) => { const v = e.target.closest("[data-v]")?.dataset.v; if (v) go(Number(v)); };
  $("findings").onclick = (e) => { e.preventDefault(); const v = e.target.dataset.v; if (v) go(Number(v)); };
  $("ribbon").onclick = (e) => { const v = e.target.dataset.v; if (v) go(Number(v)); };
  $("jump").onsubmit = (e) => {
    e.preventDefault();
    const data = Object.fromEntries([...new FormData(e.target)].filter(([, v]) => v !== ""));
    if (data.v) { go(Number(data.v)); return; }
    if (data.turn) { jump({ turn: data.turn, step: data.step || "untap" }); return; }
    if (data.player) { jump({ player: data.player }); return; }
    if (data.type) jump({ type: data.type });
  };
  $("lang").onchange = async (e) => { view.lang = e.target.value; await renderJudge(); await renderTimeline(); };
  window.addEventListener("hashchange", () => { // a new #v=VERSION (or #token=...) on the open page
    const again = new URLSearchParams(location.hash.slice(1));
    if (again.get("token") && again.get("token") !== token) { location.reload(); return; } // another viewer: start afresh
    history.replaceState(null, "", location.pathname + location.search);
    if (again.get("v")) go(Number(again.get("v")));
  });
  $("branch").onclick = branch;
  $("diff-form").onsubmit = diff;
  follow();
}

start();
