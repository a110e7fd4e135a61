// The board: the server's SVG of a map, drawn over the map's picture, and
// the state a frame sets on it (owners, stations, passengers, goods, the
// last move). Shared by the live page and the replay page. Names and
// labels are set as text or attributes, never as markup.

// el makes an element: el('p', {class: 'x'}, 'text', child, ...).
export function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'on') {
      for (const [ev, fn] of Object.entries(v)) e.addEventListener(ev, fn);
    } else if (k === 'style' && typeof v === 'object') {
      Object.assign(e.style, v);
    } else {
      e.setAttribute(k, v === true ? '' : String(v));
    }
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

// loadBoard fetches a board's SVG into container; art is the address of
// the map's picture as seen from this page.
export async function loadBoard(container, svgURL, art) {
  const resp = await fetch(svgURL);
  if (!resp.ok) throw new Error('board ' + resp.status);
  const doc = new DOMParser().parseFromString(await resp.text(), 'image/svg+xml');
  const svg = document.importNode(doc.documentElement, true);
  if (art) {
    const img = svg.querySelector('image');
    if (img) img.setAttribute('href', art);
  }
  container.replaceChildren(svg);
  return new Board(svg);
}

export class Board {
  constructor(svg) {
    this.svg = svg;
    this.tracks = Array.from(svg.querySelectorAll('g.track'));
    this.cities = Array.from(svg.querySelectorAll('g.city'));
    this.labels = this.tracks.map((t) => t.getAttribute('aria-label') || '');
    const vb = svg.viewBox.baseVal;
    this.w = vb.width;
    this.h = vb.height;
    // What a finger or a pointer is measured against, in SVG units: each
    // track's car spaces, each city's centre and the radius it is hit in.
    this.cars = this.tracks.map((t) => Array.from(t.querySelectorAll('polygon.car'), (p) => parsePoints(p.getAttribute('points'))));
    this.places = this.cities.map((c) => {
      const h = c.querySelector('.city-hit');
      return h ? {x: Number(h.getAttribute('cx')), y: Number(h.getAttribute('cy')), r: Number(h.getAttribute('r'))} : {x: -1e9, y: -1e9, r: 0};
    });
  }

  // at is a point of the screen (client pixels) in SVG units, with u the
  // SVG units a screen pixel spans at the current zoom.
  at(clientX, clientY) {
    const r = this.svg.getBoundingClientRect();
    const u = r.width > 0 ? this.w / r.width : 1;
    return {x: (clientX - r.left) * u, y: (clientY - r.top) * u, u};
  }

  // nearTracks lists the tracks within radius screen pixels of a point,
  // nearest first, each with its distance in screen pixels (0: on a car).
  nearTracks(clientX, clientY, radius) {
    const p = this.at(clientX, clientY);
    const out = [];
    this.cars.forEach((polys, i) => {
      let d = Infinity;
      for (const poly of polys) d = Math.min(d, distToPoly(p.x, p.y, poly));
      d /= p.u;
      if (d <= radius) out.push({i, d});
    });
    return out.sort((a, b) => a.d - b.d);
  }

  // cityAt is the city a point hits, within its own circle or radius
  // screen pixels of its centre, or -1.
  cityAt(clientX, clientY, radius) {
    const p = this.at(clientX, clientY);
    let best = -1;
    let bestD = Infinity;
    this.places.forEach((c, i) => {
      const d = Math.hypot(p.x - c.x, p.y - c.y);
      if (d <= Math.max(c.r, radius * p.u) && d < bestD) { best = i; bestD = d; }
    });
    return best;
  }

  // box is the smallest box around cities (by index), in SVG units.
  box(cities) {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const i of cities) {
      const c = this.places[i];
      if (!c || c.x < -1e8) continue;
      x0 = Math.min(x0, c.x); y0 = Math.min(y0, c.y); x1 = Math.max(x1, c.x); y1 = Math.max(y1, c.y);
    }
    return x0 <= x1 ? {x0, y0, x1, y1} : null;
  }

  // trackBox is the box around a track's cars.
  trackBox(i) {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const poly of this.cars[i] || []) {
      for (const [x, y] of poly) { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y); }
    }
    return x0 <= x1 ? {x0, y0, x1, y1} : null;
  }

  // highlight lights the tracks the reader may claim now (a set of
  // indexes); ring rings the cities of the reader's tickets.
  highlight(claimable) {
    this.tracks.forEach((t, i) => t.classList.toggle('can', claimable.has(i)));
  }

  ring(cities) {
    this.cities.forEach((c, i) => c.classList.toggle('ticket', cities.has(i)));
  }

  // pick marks the tracks a tap may have meant, while the reader says
  // which (an empty set clears them).
  pick(tracks) {
    this.tracks.forEach((t, i) => t.classList.toggle('pick', tracks.has(i)));
  }

  // apply sets a frame's public state; claimedBy(seat) is the words
  // telling who claimed a track, for screen readers.
  apply(st, claimedBy) {
    const last = new Set(st.last ? st.last.tracks : []);
    this.tracks.forEach((t, i) => {
      const owner = st.owners && i < st.owners.length ? st.owners[i] : -1;
      if (t.getAttribute('data-owner') !== String(owner)) {
        t.setAttribute('data-owner', String(owner));
        for (const u of t.querySelectorAll('use.mk')) u.setAttribute('href', '#mk' + Math.max(owner, 0));
      }
      t.classList.toggle('last', last.has(i));
      const label = owner >= 0 && claimedBy ? this.labels[i] + ', ' + claimedBy(owner) : this.labels[i];
      if (t.getAttribute('aria-label') !== label) t.setAttribute('aria-label', label);
    });
    const lastCities = new Set(st.last ? st.last.cities : []);
    this.cities.forEach((c, i) => {
      const station = st.stations && i < st.stations.length ? st.stations[i] : -1;
      const pax = st.passengers && i < st.passengers.length ? st.passengers[i] : -1;
      const goods = st.goods && i < st.goods.length ? st.goods[i] : '';
      c.setAttribute('data-station', String(station));
      const stUse = c.querySelector('.stn use');
      if (stUse) stUse.setAttribute('href', '#mk' + Math.max(station, 0));
      c.setAttribute('data-passenger', String(pax));
      c.setAttribute('data-goods', goods);
      const gt = c.querySelector('.gds text');
      if (gt) gt.textContent = goods;
      c.classList.toggle('last', lastCities.has(i));
    });
  }

  // interactive makes the tracks in claimable focusable buttons, and the
  // others plain labelled shapes.
  interactive(claimable) {
    this.tracks.forEach((t, i) => {
      const on = claimable(i);
      t.setAttribute('tabindex', on ? '0' : '-1');
      t.classList.toggle('claimable', on);
    });
  }

  // onTrack calls fn(index, ref, element) when a track is clicked or
  // pressed with Enter or Space; onCity the same for a city.
  onTrack(fn) {
    const fire = (e) => {
      const t = e.target.closest('g.track');
      if (!t) return false;
      fn(Number(t.getAttribute('data-id')), t.getAttribute('data-ref'), t);
      return true;
    };
    // Pointers are the view's (PanZoom's taps, which keep their clicks); a
    // click no pointer made (a screen reader's) goes to the track it names.
    this.svg.addEventListener('click', (e) => { fire(e); });
    this.svg.addEventListener('keydown', (e) => {
      if ((e.key === 'Enter' || e.key === ' ') && fire(e)) e.preventDefault();
    });
  }

  onCity(fn) {
    this.svg.addEventListener('click', (e) => {
      const c = e.target.closest('g.city');
      if (c && e.target.classList.contains('city-hit')) {
        fn(Number(c.getAttribute('data-city')), c.getAttribute('data-name'), c);
      }
    });
  }
}

// playersList draws the players: colour, name, score, what they hold.
export function playersList(players, texts) {
  return el('ul', {class: 'players'}, players.map((p, i) => el('li', {class: 'player' + (p.current ? ' current' : '') + (p.you ? ' you' : '')},
    swatch(i, p.color, p.ink),
    el('span', {class: 'pname'}, p.name, p.you ? el('small', {}, ' (' + texts.you + ')') : null, p.bot && texts.bot ? el('small', {class: 'bot'}, ' ' + texts.bot) : null),
    el('span', {class: 'pscore'}, String(p.score ?? '')),
    p.pieces || p.holding ? el('span', {class: 'pdetail'}, [p.pieces, p.holding].filter(Boolean).join(' · ')) : null)));
}

// cardFace draws a train card in the pictures' colours.
export function cardFace(c, extra) {
  return el('span', {class: 'card' + (extra ? ' ' + extra : ''), style: {background: c.fill, color: c.ink}},
    el('span', {class: 'letter'}, c.letter || ''), el('span', {class: 'cname'}, c.name),
    c.n ? el('span', {class: 'count'}, '×' + c.n) : null);
}

// swatch is a seat's colour with the shape the board marks its trains
// with (the board's own symbol), so that seats differ by more than hue.
export function swatch(seat, color, ink) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('class', 'swatch');
  svg.setAttribute('aria-hidden', 'true');
  svg.style.background = color;
  const use = document.createElementNS(ns, 'use');
  use.setAttribute('href', '#mk' + (((seat % 5) + 5) % 5));
  for (const [k, v] of [['x', 3], ['y', 3], ['width', 10], ['height', 10]]) use.setAttribute(k, String(v));
  use.setAttribute('fill', ink || '#fff');
  svg.append(use);
  return svg;
}

// parsePoints reads an SVG points attribute.
function parsePoints(s) {
  return (s || '').trim().split(/\s+/).map((xy) => xy.split(',').map(Number));
}

// distToPoly is the distance from a point to a polygon: 0 inside it.
function distToPoly(x, y, ps) {
  let inside = false;
  let best = Infinity;
  for (let i = 0, j = ps.length - 1; i < ps.length; j = i++) {
    const [xi, yi] = ps[i];
    const [xj, yj] = ps[j];
    if ((yi > y) !== (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) inside = !inside;
    const dx = xj - xi, dy = yj - yi;
    const t = dx || dy ? Math.max(0, Math.min(1, ((x - xi) * dx + (y - yi) * dy) / (dx * dx + dy * dy))) : 0;
    best = Math.min(best, Math.hypot(x - xi - t * dx, y - yi - t * dy));
  }
  return inside ? 0 : best;
}

// PanZoom moves a board in its frame: drag to pan, pinch or the wheel to
// zoom, and taps (a press that did not move) are handed to onTap with
// the pointer's kind. The content is w × h SVG units; k is the screen
// pixels an SVG unit takes.
// readable is the zoom (screen pixels an SVG unit takes) at which the
// map's city names read: the view a reader opens on is at least so close
// when the frame cannot show the whole of it so.
const readable = 0.6;

export class PanZoom {
  constructor(wrap, content, w, h) {
    this.wrap = wrap;
    this.content = content;
    this.w = w;
    this.h = h;
    this.k = 1;
    this.tx = 0;
    this.ty = 0;
    this.W = wrap.clientWidth;
    this.H = wrap.clientHeight;
    // touched: the reader moved the view, which then stays theirs.
    this.touched = false;
    // home is the box the view opens on (null: the whole map).
    this.home = null;
    this.onTap = null;
    this.pointers = new Map();
    this.gesture = null;
    content.style.width = w + 'px';
    content.style.height = h + 'px';
    wrap.addEventListener('pointerdown', (e) => this.down(e));
    wrap.addEventListener('pointermove', (e) => this.move(e));
    wrap.addEventListener('pointerup', (e) => this.up(e, true));
    wrap.addEventListener('pointercancel', (e) => this.up(e, false));
    wrap.addEventListener('wheel', (e) => this.wheel(e), {passive: false});
    // The click a pointer's press makes after it was a tap or a drag is
    // not passed on: the tap was handled, the drag was no click.
    this.lastUp = -1e9;
    wrap.addEventListener('click', (e) => {
      if (performance.now() - this.lastUp < 800) { e.stopPropagation(); e.preventDefault(); }
    }, true);
    if (window.ResizeObserver) new ResizeObserver(() => this.resized()).observe(wrap);
    this.goHome();
  }

  // The least zoom shows the whole map; the most, a few cities.
  get kMin() { return Math.min(this.W / this.w, this.H / this.h) || 1; }
  get kMax() { return Math.max(this.kMin * 6, 2.5); }

  clampK(k) { return Math.min(this.kMax, Math.max(this.kMin, k)); }

  // clamp keeps the map in its frame: centred when smaller, else covering it.
  clamp() {
    const sw = this.w * this.k, sh = this.h * this.k;
    this.tx = sw <= this.W ? (this.W - sw) / 2 : Math.min(0, Math.max(this.W - sw, this.tx));
    this.ty = sh <= this.H ? (this.H - sh) / 2 : Math.min(0, Math.max(this.H - sh, this.ty));
  }

  // apply sets the view (pointer events come at most once a frame: no
  // need to wait for one, which a page out of sight would not get).
  apply() {
    this.clamp();
    this.content.style.transform = 'translate(' + this.tx + 'px,' + this.ty + 'px) scale(' + this.k + ')';
  }

  // show fits a box (SVG units) in the frame, zooming at least to minK
  // and at most to maxK.
  show(b, minK, maxK) {
    const bw = Math.max(1, b.x1 - b.x0), bh = Math.max(1, b.y1 - b.y0);
    const lo = this.clampK(minK || this.kMin);
    this.k = Math.max(lo, Math.min(this.clampK(Math.min(this.W / bw, this.H / bh)), maxK || this.kMax));
    this.tx = this.W / 2 - (b.x0 + b.x1) / 2 * this.k;
    this.ty = this.H / 2 - (b.y0 + b.y1) / 2 * this.k;
    this.apply();
  }

  // fit shows the whole map.
  fit() { this.show({x0: 0, y0: 0, x1: this.w, y1: this.h}); }

  // goHome shows the view the page opens on: the home box or, when the
  // box is too wide to read in a small frame (a phone's), as much of it
  // as fills the frame; without a box, the whole map.
  goHome() {
    if (this.home) this.show(this.home, Math.min(Math.max(this.W / this.w, this.H / this.h), readable), 1.5);
    else this.fit();
  }

  // reveal brings a box into view, as it is, when it is not in it.
  reveal(b) {
    const x0 = b.x0 * this.k + this.tx, x1 = b.x1 * this.k + this.tx;
    const y0 = b.y0 * this.k + this.ty, y1 = b.y1 * this.k + this.ty;
    if (x0 >= 0 && y0 >= 0 && x1 <= this.W && y1 <= this.H) return;
    this.tx = this.W / 2 - (b.x0 + b.x1) / 2 * this.k;
    this.ty = this.H / 2 - (b.y0 + b.y1) / 2 * this.k;
    this.apply();
  }

  // zoomAt zooms by f around a point of the frame (its pixels).
  zoomAt(f, px, py) {
    const k = this.clampK(this.k * f);
    this.tx = px - (px - this.tx) / this.k * k;
    this.ty = py - (py - this.ty) / this.k * k;
    this.k = k;
    this.touched = true;
    this.apply();
  }

  zoomBy(f) { this.zoomAt(f, this.W / 2, this.H / 2); }

  resized() {
    const W = this.wrap.clientWidth, H = this.wrap.clientHeight;
    if (W === this.W && H === this.H) return;
    // The point at the centre stays there.
    const cx = (this.W / 2 - this.tx) / this.k, cy = (this.H / 2 - this.ty) / this.k;
    this.W = W;
    this.H = H;
    if (!this.touched) { this.goHome(); return; }
    this.k = this.clampK(this.k);
    this.tx = W / 2 - cx * this.k;
    this.ty = H / 2 - cy * this.k;
    this.apply();
  }

  down(e) {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    try { this.wrap.setPointerCapture(e.pointerId); } catch (err) { /* gone already */ }
    this.pointers.set(e.pointerId, {x: e.clientX, y: e.clientY});
    this.start(e.pointerType, false);
  }

  // start begins a gesture with the pointers down.
  start(type, moved) {
    const ps = [...this.pointers.values()];
    const r = this.wrap.getBoundingClientRect();
    if (ps.length >= 2) {
      const [a, b] = ps;
      this.gesture = {type, pinch: true, moved: true, d0: Math.hypot(a.x - b.x, a.y - b.y) || 1, k0: this.k,
        ux: ((a.x + b.x) / 2 - r.left - this.tx) / this.k, uy: ((a.y + b.y) / 2 - r.top - this.ty) / this.k, r};
    } else if (ps.length === 1) {
      this.gesture = {type, pinch: false, moved, x0: ps[0].x, y0: ps[0].y, tx: this.tx, ty: this.ty, r};
    } else {
      this.gesture = null;
    }
  }

  move(e) {
    const p = this.pointers.get(e.pointerId);
    const g = this.gesture;
    if (!p || !g) return;
    p.x = e.clientX;
    p.y = e.clientY;
    if (g.pinch) {
      const [a, b] = [...this.pointers.values()];
      this.k = this.clampK(g.k0 * Math.hypot(a.x - b.x, a.y - b.y) / g.d0);
      this.tx = (a.x + b.x) / 2 - g.r.left - g.ux * this.k;
      this.ty = (a.y + b.y) / 2 - g.r.top - g.uy * this.k;
    } else {
      const dx = p.x - g.x0, dy = p.y - g.y0;
      // A finger shakes: a tap may move a little.
      if (!g.moved && Math.hypot(dx, dy) > (g.type === 'mouse' ? 4 : 10)) g.moved = true;
      if (!g.moved) return;
      this.tx = g.tx + dx;
      this.ty = g.ty + dy;
    }
    this.touched = true;
    this.apply();
  }

  up(e, ended) {
    if (!this.pointers.has(e.pointerId)) return;
    const g = this.gesture;
    const tap = ended && g && !g.moved && this.pointers.size === 1;
    this.pointers.delete(e.pointerId);
    this.lastUp = performance.now();
    // The finger left on the glass after a pinch pans on.
    this.start(g ? g.type : e.pointerType, true);
    if (tap && this.onTap) this.onTap(e.clientX, e.clientY, e.pointerType);
  }

  wheel(e) {
    e.preventDefault();
    const dy = e.deltaMode === 1 ? e.deltaY * 40 : e.deltaY;
    const r = this.wrap.getBoundingClientRect();
    this.zoomAt(Math.exp(-dy * 0.002), e.clientX - r.left, e.clientY - r.top);
  }
}
