// dungeonflow's live preview: pick a flow and a seed, look at the level,
// its rooms, the flow graph and the diagnostics; reload on file changes.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const COLOURS = {
  entrance: "#6cc070", hub: "#f0a040", reward: "#f4d35e", shop: "#b48ee0",
  secret: "#9a9a9a", boss: "#e05555", exit: "#5b8def", connector: "#d9c7a0",
};
let current = null; // the last level answer
let version = -1;

function params() {
  return { flow: $("flow").value, seed: $("seed").value || "1" };
}

function query(extra) {
  const p = Object.assign(params(), extra || {});
  return Object.entries(p).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");
}

function escapeText(text) {
  const d = document.createElement("div");
  d.textContent = text;
  return d.innerHTML;
}

function showDiagnostics(list) {
  const box = $("diagnostics");
  box.textContent = "";
  if (!list || list.length === 0) {
    box.innerHTML = '<p class="ok">No problem found.</p>';
    return;
  }
  for (const d of list) {
    const pre = document.createElement("pre");
    pre.className = "diagnostic";
    pre.dataset.code = d.code;
    pre.textContent = d.text;
    box.appendChild(pre);
  }
}

async function getJson(url) {
  const r = await fetch(url, { cache: "no-store" });
  if (r.status === 503) throw new Error("the server is busy; try again");
  return r.json();
}

async function loadProject() {
  const p = await getJson("/api/project");
  if (!p.ok) {
    showDiagnostics(p.diagnostics);
    return;
  }
  const select = $("flow");
  const wanted = select.value || new URLSearchParams(location.search).get("flow") || p.default;
  select.textContent = "";
  // A flow with errors is not usable, but stays selectable so that its
  // diagnostics show while it is being fixed.
  const names = p.flows.includes(wanted) || !wanted ? p.flows : [wanted].concat(p.flows);
  for (const name of names) {
    const o = document.createElement("option");
    o.value = name;
    o.textContent = name;
    select.appendChild(o);
  }
  if (names.includes(wanted)) select.value = wanted;
  const seed = new URLSearchParams(location.search).get("seed");
  if (seed !== null && current === null) $("seed").value = seed;
  version = p.version;
  document.body.dataset.version = String(version);
  return p;
}

async function loadLevel() {
  const { flow, seed } = params();
  history.replaceState(null, "", `?${query()}`);
  $("status").textContent = "generating…";
  let answer;
  try {
    answer = await getJson(`/api/level?${query()}`);
  } catch (e) {
    $("status").textContent = String(e.message);
    return;
  }
  const project = await getJson("/api/project");
  const projectProblems = project.ok ? project.diagnostics : [];
  $("room").textContent = "Hover a room.";
  loadGraph();
  if (!answer.ok) {
    $("status").textContent = `no level for ${flow} seed ${seed}`;
    $("summary").textContent = "No level: see the diagnostics.";
    if (answer.partial) {
      // The rooms the layout had placed when it gave up.
      $("level").innerHTML = answer.partial.svg;
      const svg = $("level").querySelector("svg");
      svg.removeAttribute("width");
      svg.removeAttribute("height");
      setUpZoom(svg);
      $("summary").textContent = `No level: the layout gave up with ${answer.partial.rooms} rooms placed` +
        (answer.partial.of ? ` of ${answer.partial.of}` : "") + " (drawn above); see the diagnostics.";
    }
    const shown = new Set(answer.diagnostics.map((d) => d.text));
    showDiagnostics(answer.diagnostics.concat(projectProblems.filter((d) => !shown.has(d.text))));
    document.body.dataset.state = answer.partial ? "partial" : "failed";
    $("level").classList.toggle("stale", !answer.partial);
    return;
  }
  current = answer;
  $("level").classList.remove("stale");
  $("status").textContent = `${answer.flow}, seed ${answer.seed}`;
  $("summary").textContent = answer.summary;
  $("level").innerHTML = answer.svg;
  const svg = $("level").querySelector("svg");
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  setUpZoom(svg);
  setUpHover(svg, answer.rooms);
  drawPath();
  showDiagnostics(projectProblems);
  document.body.dataset.state = "level";
}

function setUpZoom(svg) {
  const box = svg.viewBox.baseVal;
  let drag = null;
  svg.addEventListener("wheel", (e) => {
    e.preventDefault();
    const k = e.deltaY > 0 ? 1.15 : 1 / 1.15;
    const r = svg.getBoundingClientRect();
    const mx = box.x + ((e.clientX - r.left) / r.width) * box.width;
    const my = box.y + ((e.clientY - r.top) / r.height) * box.height;
    box.x = mx - (mx - box.x) * k;
    box.y = my - (my - box.y) * k;
    box.width *= k;
    box.height *= k;
  }, { passive: false });
  svg.addEventListener("pointerdown", (e) => {
    drag = { x: e.clientX, y: e.clientY, bx: box.x, by: box.y };
    $("level").classList.add("dragging");
  });
  window.addEventListener("pointerup", () => {
    drag = null;
    $("level").classList.remove("dragging");
  });
  svg.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const r = svg.getBoundingClientRect();
    box.x = drag.bx - ((e.clientX - drag.x) / r.width) * box.width;
    box.y = drag.by - ((e.clientY - drag.y) / r.height) * box.height;
  });
}

function setUpHover(svg, rooms) {
  const byId = new Map(rooms.map((r) => [r.id, r]));
  svg.addEventListener("mouseover", (e) => {
    const el = e.target.closest("[data-id]");
    const room = el && byId.get(el.dataset.id);
    if (!room) return;
    const props = Object.entries(room.properties || {})
      .map(([k, v]) => `<tr><td>${escapeText(k)}</td><td>${escapeText(String(v))}</td></tr>`).join("");
    $("room").innerHTML =
      `<table><tr><td>id</td><td><strong>${escapeText(room.id)}</strong></td></tr>` +
      `<tr><td>template</td><td>${escapeText(room.template)}</td></tr>` +
      `<tr><td>category</td><td>${escapeText(room.category)}</td></tr>${props}</table>`;
  });
}

function drawPath() {
  const svg = $("level").querySelector("svg");
  if (!svg || !current) return;
  svg.querySelectorAll(".path").forEach((p) => p.remove());
  if (!$("path").checked || current.path.length < 2) return;
  const centre = new Map(current.rooms.map((r) => [r.id, r.center]));
  const line = document.createElementNS(SVG, "polyline");
  line.setAttribute("class", "path");
  line.setAttribute("points", current.path.map((id) => centre.get(id)).filter(Boolean)
    .map(([x, y]) => `${x},${y}`).join(" "));
  svg.appendChild(line);
}

// A layered drawing: rooms by their distance from the first room (columns),
// in order of discovery within a column.
function drawGraph(box, graph) {
  box.textContent = "";
  if (!graph || graph.ok === false) {
    box.textContent = graph ? "cannot expand: see the diagnostics" : "(no graph: this generator makes none)";
    return;
  }
  const ids = graph.nodes.map((n) => n.id);
  const next = new Map(ids.map((id) => [id, []]));
  for (const e of graph.edges) {
    next.get(e.from)?.push(e.to);
    if (!e.one_way) next.get(e.to)?.push(e.from);
  }
  const depth = new Map();
  const queue = ids.length ? [ids[0]] : [];
  if (ids.length) depth.set(ids[0], 0);
  while (queue.length) {
    const id = queue.shift();
    for (const n of next.get(id) || []) {
      if (!depth.has(n)) {
        depth.set(n, depth.get(id) + 1);
        queue.push(n);
      }
    }
  }
  let deepest = 0;
  for (const id of ids) {
    if (!depth.has(id)) depth.set(id, 0);
    deepest = Math.max(deepest, depth.get(id));
  }
  const rows = new Map();
  const pos = new Map();
  for (const id of ids) {
    const d = depth.get(id);
    const row = rows.get(d) || 0;
    rows.set(d, row + 1);
    pos.set(id, [40 + d * 70, 20 + row * 28]);
  }
  const height = 40 + Math.max(...rows.values(), 1) * 28;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${80 + deepest * 70} ${height}`);
  for (const e of graph.edges) {
    const [a, b] = [pos.get(e.from), pos.get(e.to)];
    if (!a || !b) continue;
    const l = document.createElementNS(SVG, "line");
    l.setAttribute("x1", a[0]); l.setAttribute("y1", a[1]);
    l.setAttribute("x2", b[0]); l.setAttribute("y2", b[1]);
    l.setAttribute("stroke", e.lock ? "#c33" : e.one_way ? "#e08020" : "#888");
    l.setAttribute("stroke-dasharray", e.one_way ? "4 2" : "");
    svg.appendChild(l);
  }
  for (const n of graph.nodes) {
    const [x, y] = pos.get(n.id);
    const c = document.createElementNS(SVG, "circle");
    c.setAttribute("cx", x); c.setAttribute("cy", y); c.setAttribute("r", 9);
    c.setAttribute("fill", COLOURS[n.category] || "#eee");
    c.setAttribute("stroke", "#555");
    const title = document.createElementNS(SVG, "title");
    title.textContent = `${n.id} (${n.category})`;
    c.appendChild(title);
    svg.appendChild(c);
    const t = document.createElementNS(SVG, "text");
    t.setAttribute("x", x); t.setAttribute("y", y + 15);
    t.textContent = n.id.length > 12 ? n.id.slice(0, 11) + "…" : n.id;
    svg.appendChild(t);
  }
  box.appendChild(svg);
}

async function loadGraph() {
  try {
    const g = await getJson(`/api/graph?${query()}`);
    drawGraph($("graph-written"), g.ok ? g.written : null);
    drawGraph($("graph-expanded"), g.ok ? g.expanded : null);
  } catch (e) {
    $("graph-written").textContent = String(e.message);
  }
}

async function loadStats() {
  $("stats-panel").textContent = "generating 200 seeds…";
  try {
    const s = await getJson(`/api/stats?${query({ seeds: 200 })}`);
    if (!s.ok) {
      $("stats-panel").textContent = "no stats: see the diagnostics";
      return;
    }
    const rate = (100 * s.succeeded / s.seeds).toFixed(1);
    const ms = s.median_ms === null ? "–" : s.median_ms.toFixed(2);
    const fails = Object.entries(s.failures).map(([m, n]) => `<li>${n} × ${escapeText(m)}</li>`).join("");
    $("stats-panel").innerHTML =
      `<table><tr><td>laid out</td><td>${s.succeeded} of ${s.seeds} seeds (${rate}%)</td></tr>` +
      `<tr><td>median time</td><td>${ms} ms</td></tr>` +
      `<tr><td>direct doors</td><td>${(100 * s.direct_doors).toFixed(0)}% (median)</td></tr>` +
      `<tr><td>rooms</td><td>${s.rooms} (median)</td></tr></table>` +
      (fails ? `<ul>${fails}</ul>` : "");
  } catch (e) {
    $("stats-panel").textContent = String(e.message);
  }
}

function setSeed(seed) {
  $("seed").value = String(Math.max(0, seed));
  loadLevel();
}

async function start() {
  await loadProject();
  $("flow").addEventListener("change", () => loadLevel());
  $("seed").addEventListener("change", () => loadLevel());
  $("prev").addEventListener("click", () => setSeed(Number($("seed").value) - 1));
  $("next").addEventListener("click", () => setSeed(Number($("seed").value) + 1));
  $("random").addEventListener("click", () => setSeed(Math.floor(Math.random() * 1e6)));
  $("path").addEventListener("change", drawPath);
  $("stats").addEventListener("click", loadStats);
  await loadLevel();
  const events = new EventSource("/events");
  events.addEventListener("change", async () => {
    await loadProject();
    await loadLevel();
  });
}

start();
