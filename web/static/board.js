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
  return el('ul', {class: 'players'}, players.map((p) => el('li', {class: 'player' + (p.current ? ' current' : '') + (p.you ? ' you' : '')},
    el('span', {class: 'swatch', style: {background: p.color, color: p.ink}, 'aria-hidden': 'true'}),
    el('span', {class: 'pname'}, p.name, p.you ? el('small', {}, ' (' + texts.you + ')') : null),
    el('span', {class: 'pscore'}, String(p.score ?? '')),
    p.pieces || p.holding ? el('span', {class: 'pdetail'}, [p.pieces, p.holding].filter(Boolean).join(' · ')) : null)));
}

// cardFace draws a train card in the pictures' colours.
export function cardFace(c, extra) {
  return el('span', {class: 'card' + (extra ? ' ' + extra : ''), style: {background: c.fill, color: c.ink}},
    el('span', {class: 'letter'}, c.letter || ''), el('span', {class: 'cname'}, c.name),
    c.n ? el('span', {class: 'count'}, '×' + c.n) : null);
}
