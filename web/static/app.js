// The live page inside Discord. It boots Discord's Embedded App SDK,
// has the server confirm who is reading (OAuth code → session), draws the
// board and the reader's panels from each frame the server sends, and
// sends clicks back as moves. Every word it shows comes from the server;
// every name is set as text.
import {DiscordSDK} from './sdk/discord-embedded-app-sdk@2.5.0/index.mjs';
import {el, loadBoard, playersList, cardFace, PanZoom} from './board.js';

const root = document.documentElement;
const texts = JSON.parse(root.dataset.texts || '{}');
const clientId = root.dataset.clientId;
const app = document.getElementById('app');
const notice = document.getElementById('notice');

const page = {
  sdk: null,
  session: '',
  me: null,
  state: null,
  board: null,
  svgURL: '',
  busy: false,
  ws: null,
  wsFailures: 0,
  polling: false,
  ended: false,
  reauthorised: false,
  view: null, // the board's PanZoom
  ringed: '', // the ticket cities the view opened on
  lastReply: null,
};

function say(text, cls) {
  notice.textContent = text;
  notice.className = 'notice' + (cls ? ' ' + cls : '');
  notice.hidden = !text;
}

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));
}

async function api(path, body) {
  const opts = {headers: {}};
  if (page.session) opts.headers.Authorization = 'Bearer ' + page.session;
  if (body !== undefined) {
    opts.method = 'POST';
    opts.headers['Content-Type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  const resp = await fetch(path, opts);
  let data = null;
  try { data = await resp.json(); } catch (e) { data = null; }
  if (!resp.ok) {
    const err = new Error((data && data.message) || ('HTTP ' + resp.status));
    err.status = resp.status;
    err.code = data && data.error;
    throw err;
  }
  return data;
}

// ---- Booting inside Discord ----

async function boot() {
  const params = new URLSearchParams(location.search);
  if (!params.get('frame_id') || !params.get('instance_id')) {
    say(texts.outside);
    return;
  }
  page.sdk = new DiscordSDK(clientId, {disableConsoleLogOverride: true});
  await page.sdk.ready();
  await authorise();
}

async function authorise() {
  say(texts.connecting);
  let code;
  try {
    ({code} = await page.sdk.commands.authorize({client_id: clientId, response_type: 'code', state: '', prompt: 'none', scope: ['identify']}));
  } catch (e) {
    askToAuthorise(texts.authorise);
    return;
  }
  let ans;
  try {
    ans = await api('api/session', {code, instance_id: page.sdk.instanceId, guild_id: page.sdk.guildId || '', channel_id: page.sdk.channelId || ''});
  } catch (e) {
    if (e.status === 401) askToAuthorise(e.message);
    else say(e.message, 'error');
    return;
  }
  page.session = ans.session;
  page.me = ans.me;
  Object.assign(texts, ans.texts || {});
  root.lang = ans.lang || root.lang;
  // The SDK's own session, for the SDK's commands that need one; the
  // page needs nothing from it, so a failure is not one.
  page.sdk.commands.authenticate({access_token: ans.access_token}).catch(() => {});
  if (ans.game) {
    await start();
  } else if (ans.setup) {
    setup(ans.setup);
  } else {
    pick(ans.games || []);
  }
}

function askToAuthorise(text) {
  notice.hidden = true;
  app.replaceChildren(notice, el('div', {class: 'centre'},
    el('p', {}, text),
    el('button', {class: 'c-btn style-1', on: {click: () => { app.replaceChildren(notice); authorise(); }}}, texts.authorise_button)));
}

function pick(games) {
  say('');
  app.replaceChildren(notice, el('div', {class: 'centre picker'},
    el('h1', {}, texts.pick),
    el('ul', {}, games.map((g) => el('li', {}, el('button', {class: 'c-btn style-2', 'data-channel': g.channel, on: {click: async () => {
      try {
        await api('api/pick', {channel: g.channel});
        await start();
      } catch (e) { say(e.message, 'error'); }
    }}}, g.label))))));
}

// setup is the page of a channel without a game: a table to set up
// (edition, variant, bots), opened in the channel, and the tables others
// opened meanwhile, to join instead.
function setup(form) {
  say('');
  const field = (label, control) => el('label', {class: 'field'}, el('span', {}, label), control);
  const boardSel = el('select', {id: 'setup-board'}, form.boards.map((b) => el('option', {value: b.id}, b.name)));
  const variantSel = el('select', {id: 'setup-variant'});
  const variantField = field(texts.setup_variant, variantSel);
  const botsSel = el('select', {id: 'setup-bots'}, Array.from({length: form.seats}, (_, n) => el('option', {value: n}, String(n))));
  const levelSel = el('select', {id: 'setup-level'}, form.levels.map((l) => el('option', {value: l.value}, l.label)));
  const hasBots = form.levels.length > 0;
  if (hasBots) levelSel.value = form.levels[Math.floor((form.levels.length - 1) / 2)].value;
  const seats = el('ol', {class: 'seats', id: 'setup-seats'});
  const refresh = () => {
    const b = form.boards.find((x) => x.id === boardSel.value) || form.boards[0];
    if (variantSel.dataset.board !== b.id) {
      variantSel.dataset.board = b.id;
      variantSel.replaceChildren(...(b.variants || []).map((v) => el('option', {value: v.value}, v.label)));
    }
    variantField.hidden = (b.variants || []).length < 2;
    const bots = hasBots ? Number(botsSel.value) : 0;
    const level = hasBots ? levelSel.selectedOptions[0].textContent : '';
    seats.replaceChildren(...Array.from({length: form.seats}, (_, i) => el('li', {class: i > bots ? 'free' : ''},
      i === 0 ? texts.you : i <= bots ? fill(texts.setup_bot, {level}) : texts.setup_free)));
  };
  for (const c of [boardSel, botsSel, levelSel]) c.addEventListener('change', refresh);
  const tables = el('section', {id: 'setup-tables', hidden: true});
  let polling = true;
  const open = el('button', {class: 'c-btn style-3', id: 'setup-open', on: {click: async () => {
    open.disabled = true;
    const bots = hasBots ? Array(Number(botsSel.value)).fill(levelSel.value) : [];
    try {
      await api('api/new', {nonce: nonce(), map: boardSel.value, variant: variantSel.value || '', bots});
      polling = false;
      await start();
    } catch (e) {
      open.disabled = false;
      if (e.status === 401) expired();
      else say(e.message, 'error');
    }
  }}}, texts.setup_open);
  app.replaceChildren(notice, el('div', {class: 'centre setup'},
    el('h1', {}, texts.setup_title),
    el('p', {}, texts.setup_intro),
    tables,
    field(texts.setup_edition, boardSel),
    variantField,
    hasBots ? el('div', {class: 'row'}, field(texts.setup_bots, botsSel), field(texts.setup_level, levelSel)) : null,
    el('h2', {}, texts.setup_seats), seats,
    open));
  refresh();
  // Tables opened here meanwhile (by another reader of the activity).
  const look = async () => {
    if (!polling || page.session === '') return;
    try {
      const {games} = await api('api/games');
      tables.hidden = !games.length;
      tables.replaceChildren(el('h2', {}, texts.setup_tables), el('ul', {}, games.map((g) => el('li', {},
        el('button', {class: 'c-btn style-1', 'data-channel': g.channel, on: {click: async () => {
          polling = false;
          try {
            await api('api/pick', {channel: g.channel});
            await start();
          } catch (e) { say(e.message, 'error'); }
        }}}, g.label)))));
    } catch (e) { /* the next look tries again */ }
    if (polling) setTimeout(look, 4000);
  };
  setTimeout(look, 4000);
}

// ---- The page ----

function layout() {
  const zoomButton = (label, text, fn) => el('button', {class: 'c-btn style-2', 'aria-label': label, title: label, on: {click: fn}}, text);
  const boardArea = el('div', {class: 'board-area'},
    el('div', {class: 'board-wrap', id: 'board-wrap'}, el('div', {class: 'board', id: 'board'})),
    el('div', {class: 'zoom', id: 'zoom'},
      zoomButton(texts.zoom_in, '+', () => page.view && page.view.zoomBy(1.5)),
      zoomButton(texts.zoom_out, '−', () => page.view && page.view.zoomBy(1 / 1.5)),
      zoomButton(texts.zoom_all, '⤢', () => { if (page.view) { page.view.touched = true; page.view.fit(); } }),
      el('button', {class: 'c-btn style-2', id: 'zoom-tickets', hidden: true, 'aria-label': texts.zoom_tickets, title: texts.zoom_tickets,
        on: {click: () => { if (page.view) { page.view.touched = true; page.view.goHome(); } }}}, '🎫')));
  const side = el('aside', {class: 'side', id: 'side'},
    el('section', {id: 'players-box', 'aria-labelledby': 'players-h'}, el('h2', {id: 'players-h'}, texts.players), el('div', {id: 'players'})),
    el('section', {id: 'turn-box'}, el('p', {id: 'turn', role: 'status', 'aria-live': 'polite'})),
    el('section', {id: 'prompt', class: 'prompt', 'aria-live': 'polite', hidden: true}),
    el('section', {id: 'reply', class: 'reply', 'aria-live': 'polite', hidden: true}),
    el('section', {id: 'log-box', 'aria-labelledby': 'log-h'}, el('h2', {id: 'log-h'}, texts.log), el('ol', {class: 'log', id: 'log', reversed: true})),
    el('section', {id: 'draw-box', 'aria-labelledby': 'faceup-h'},
      el('h2', {id: 'faceup-h'}, texts.face_up),
      el('div', {class: 'cards', id: 'faceup'}),
      el('div', {class: 'row', id: 'draws'}),
      el('p', {class: 'piles', id: 'piles'})),
    el('section', {id: 'hand-box', hidden: true, 'aria-labelledby': 'hand-h'}, el('h2', {id: 'hand-h'}, texts.hand), el('div', {class: 'cards', id: 'hand'})),
    el('section', {id: 'tickets-box', hidden: true, 'aria-labelledby': 'tickets-h'}, el('h2', {id: 'tickets-h'}, texts.tickets), el('ul', {class: 'tickets', id: 'tickets'})),
    el('section', {id: 'lobby-box', hidden: true}));
  const bar = el('header', {class: 'bar'},
    el('h1', {id: 'title'}),
    el('p', {id: 'status', class: 'status'}));
  const menu = el('div', {id: 'menu', class: 'menu', role: 'dialog', hidden: true});
  app.replaceChildren(bar, notice, el('div', {class: 'main'}, boardArea, side), menu);
  say('');
}

async function start() {
  layout();
  const st = await api('api/state');
  await show(st);
  connect();
}

// show applies a frame (or the end of the game).
async function show(st) {
  if (!st) return;
  if (st.type === 'over') {
    over(st);
    return;
  }
  // Versions are a process's: a frame of another (the page's requests
  // may reach several) is newer than the last one of that other process.
  if (page.state && st.origin === page.state.origin && st.version < page.state.version) return;
  if (!page.board || page.svgURL !== st.svg) {
    page.svgURL = st.svg;
    page.board = await loadBoard(document.getElementById('board'), st.svg);
    page.board.onTrack(onTrack);
    page.board.onCity(onCity);
    page.view = new PanZoom(document.getElementById('board-wrap'), document.getElementById('board'), page.board.w, page.board.h);
    page.view.onTap = onTap;
    page.ringed = '';
    // A track reached with the keyboard is brought into view.
    page.board.svg.addEventListener('focusin', (e) => {
      const t = e.target.closest && e.target.closest('g.track');
      const b = t && page.board.trackBox(Number(t.getAttribute('data-id')));
      if (b) page.view.reveal(b);
    });
  }
  page.state = st;
  render(st);
}

function render(st) {
  document.getElementById('title').textContent = st.title;
  document.getElementById('status').textContent = st.status;
  page.board.apply(st, (seat) => (st.players[seat] ? st.players[seat].claimed : ''));
  page.board.interactive((i) => st.canClaim && st.owners[i] === -1);
  page.board.highlight(new Set(st.claimable || []));
  app.classList.toggle('can-claim', !!st.canClaim);
  // The reader's own tickets: their cities ringed, and the view opens on
  // them (a spectator's on the whole map) until the reader moves it.
  const tickets = st.tickets || [];
  const ticketCities = tickets.flatMap((t) => t.cities || []);
  page.board.ring(new Set(ticketCities));
  // The view opens on the tickets still to do (all, once all are done).
  const todo = tickets.some((t) => !t.done) ? tickets.filter((t) => !t.done).flatMap((t) => t.cities || []) : ticketCities;
  const ringed = todo.join(',');
  if (ringed !== page.ringed) {
    page.ringed = ringed;
    const b = page.board.box(todo);
    page.view.home = b ? {x0: b.x0 - 70, y0: b.y0 - 45, x1: b.x1 + 70, y1: b.y1 + 45} : null;
    if (!page.view.touched) page.view.goHome();
  }
  document.getElementById('zoom-tickets').hidden = !page.view.home;
  // A lobby has no scores yet.
  document.getElementById('players').replaceChildren(playersList(st.lobby ? st.players.map((p) => ({...p, score: ''})) : st.players, texts));

  const turn = document.getElementById('turn');
  if (st.lobby) turn.textContent = '';
  else if (st.seat < 0) turn.textContent = texts.spectating;
  else if (st.canClaim) turn.textContent = texts.your_turn;
  else turn.textContent = '';

  // The face-up cards: everyone sees them; the reader takes one when the
  // turn allows (the frame then carries the button's id).
  const faceup = document.getElementById('faceup');
  faceup.replaceChildren(...(st.faceUp || []).map((c) => {
    if (c.take) {
      return el('button', {class: 'card-btn', 'data-id': c.take.id, disabled: c.take.disabled || page.busy, 'aria-label': c.take.label || c.name,
        on: {click: () => act({custom_id: c.take.id})}}, cardFace(c));
    }
    return cardFace(c);
  }));
  const draws = document.getElementById('draws');
  draws.replaceChildren(...[st.deck, st.ticketsButton].filter(Boolean).map(button));
  document.getElementById('piles').textContent = (st.piles || []).join(' · ');

  const prompt = document.getElementById('prompt');
  if (st.prompt) {
    prompt.hidden = false;
    prompt.replaceChildren(message(st.prompt));
  } else {
    prompt.hidden = true;
    prompt.replaceChildren();
  }
  const reply = document.getElementById('reply');
  if (page.lastReply && page.lastReply.version === st.version) {
    reply.hidden = false;
  } else if (page.lastReply && page.lastReply.version !== st.version) {
    page.lastReply = null;
    reply.hidden = true;
  }

  const handBox = document.getElementById('hand-box');
  const ticketsBox = document.getElementById('tickets-box');
  if (st.seat >= 0 && !st.lobby) {
    handBox.hidden = false;
    ticketsBox.hidden = false;
    document.getElementById('hand').replaceChildren(...(st.hand || []).map((c) => cardFace(c)));
    document.getElementById('tickets').replaceChildren(...(st.tickets || []).map((t) => el('li', {class: t.done ? 'done' : ''},
      el('span', {'aria-hidden': 'true'}, t.done ? '✔ ' : '○ '), t.label,
      t.done ? el('span', {class: 'sr'}, ', ' + texts.completed) : null)));
  } else {
    handBox.hidden = true;
    ticketsBox.hidden = true;
    document.getElementById('hand').replaceChildren();
    document.getElementById('tickets').replaceChildren();
  }
  const lobby = document.getElementById('lobby-box');
  if (st.lobby && st.lobbyRows) {
    lobby.hidden = false;
    lobby.replaceChildren(message({text: '', rows: st.lobbyRows}));
  } else {
    lobby.hidden = true;
  }
  document.getElementById('draw-box').hidden = !!st.lobby;
  // The newest move first.
  document.getElementById('log').replaceChildren(...(st.lines || []).slice().reverse().map((l) => el('li', {}, l)));
  document.getElementById('log-box').hidden = !(st.lines || []).length;
}

function button(c) {
  return el('button', {class: 'c-btn style-' + (c.style || 2), 'data-id': c.id, disabled: c.disabled || page.busy,
    on: {click: () => act({custom_id: c.id})}}, c.emoji ? c.emoji + ' ' : '', c.label || '');
}

// message draws a reply or a prompt: its text and its buttons and menus.
function message(m) {
  const box = el('div', {class: 'message'});
  if (m.text) box.append(...m.text.split('\n').map((l) => el('p', {}, l)));
  for (const row of m.rows || []) {
    const r = el('div', {class: 'row'});
    for (const c of row) {
      if (c.kind === 'select') r.append(select(c));
      else r.append(button(c));
    }
    box.append(r);
  }
  return box;
}

// select is a menu as checkboxes (Discord's string select, several
// values possible), sent with its button.
function select(c) {
  const max = c.max || 1;
  const boxes = c.options.map((o) => el('label', {class: 'opt'},
    el('input', {type: max > 1 ? 'checkbox' : 'radio', name: c.id, value: o.value}),
    el('span', {}, o.label), o.description ? el('small', {}, ' ' + o.description) : null));
  const ok = el('button', {class: 'c-btn style-1', 'data-id': c.id, on: {click: () => {
    const values = boxes.map((b) => b.querySelector('input')).filter((i) => i.checked).map((i) => i.value);
    act({custom_id: c.id, values});
  }}}, texts.choose || '✔');
  return el('fieldset', {class: 'select'}, el('legend', {}, c.placeholder || ''), ...boxes, ok);
}

// ---- Clicking the board ----

// onTap is a tap or a click on the board (PanZoom's: it did not move).
// A finger is measured generously: every free track within 24 screen
// pixels is a candidate (10 for a mouse, which may also point right at
// one), and a city within 12. One candidate is played at once; several
// are listed for the reader to say which, lit on the map meanwhile.
function onTap(x, y, kind) {
  const st = page.state;
  if (!st || !st.canClaim || page.busy || !page.board) return;
  const mouse = kind === 'mouse';
  const claimable = new Set(st.claimable || []);
  const near = page.board.nearTracks(x, y, mouse ? 10 : 24).filter((n) => st.owners[n.i] === -1);
  const city = page.board.cityAt(x, y, mouse ? 0 : 12);
  const items = city >= 0 ? cityItems(city) : [];
  if (!items.length) {
    if (near.length === 0) return;
    if (near.length === 1 || (mouse && near[0].d === 0)) {
      chooseTrack(near[0].i);
      return;
    }
  }
  // Several things here: the claimable routes first, nearest first.
  const tracks = near.slice().sort((a, b) => (claimable.has(b.i) - claimable.has(a.i)) || a.d - b.d).slice(0, 4);
  page.board.pick(new Set(tracks.map((n) => n.i)));
  openMenu([
    ...tracks.map((n) => [page.board.labels[n.i], () => chooseTrack(n.i), claimable.has(n.i)]),
    ...items,
  ], tracks.length ? texts.which : '', () => page.board.pick(new Set()));
}

function chooseTrack(i) {
  const t = page.board.tracks[i];
  onTrack(i, t.getAttribute('data-ref'), t);
}

// cityItems are what the reader may do at a city now.
function cityItems(i) {
  const st = page.state;
  const name = page.board.cities[i].getAttribute('data-name');
  const items = [];
  if (st.stationsLeft > 0 && st.stations[i] === -1) items.push([fill(texts.station_here, {city: name}), () => act({station: name})]);
  if (st.passengers && st.passengers[i] === st.seat) items.push([fill(texts.passenger_from, {city: name}), () => act({from: name})]);
  return items;
}

function onTrack(i, ref, elem) {
  const st = page.state;
  if (!st || !st.canClaim || st.owners[i] !== -1 || page.busy) return;
  // Märklin: a passenger may be put at one end of the route claimed.
  if (st.passengersLeft > 0 && texts.claim_passenger) {
    const ends = ref.split('#')[0].split('|').slice(0, 2);
    openMenu([
      [texts.claim, () => act({route: ref})],
      ...ends.map((c) => [fill(texts.claim_passenger, {city: c}), () => act({route: ref, passenger: c})]),
    ]);
    return;
  }
  act({route: ref});
}

function onCity(i) {
  const st = page.state;
  if (!st || !st.canClaim || page.busy) return;
  const items = cityItems(i);
  if (items.length) openMenu(items);
}

// openMenu asks the reader to choose among items ([label, action, lit]),
// under a title; closed calls done.
function openMenu(items, title, done) {
  const menu = document.getElementById('menu');
  const close = () => { menu.hidden = true; menu.replaceChildren(); if (done) done(); };
  // The click a touch makes after the tap that opened the menu lands on
  // whatever is under the finger then: the menu's. It is not an answer.
  const opened = performance.now();
  const answer = (fn) => () => { if (performance.now() - opened > 350) { close(); if (fn) fn(); } };
  menu.replaceChildren(...(title ? [el('p', {class: 'menu-title'}, title)] : []),
    ...items.map(([label, fn, lit]) => el('button', {class: 'c-btn ' + (lit === false ? 'style-2' : 'style-1'), on: {click: answer(fn)}}, label)),
    el('button', {class: 'c-btn style-2', on: {click: answer(null)}}, texts.close));
  menu.hidden = false;
  menu.querySelector('button').focus();
}

// ---- Moves ----

function nonce() {
  const b = new Uint8Array(12);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

async function act(body) {
  if (page.busy) return;
  page.busy = true;
  app.classList.add('busy');
  body.nonce = nonce();
  let ans, failed;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      ans = await api('api/act', body);
      break;
    } catch (e) {
      if (e.status === 401) { expired(); break; }
      if (e.status && e.status < 500) { say(e.message, 'error'); break; }
      // A network failure, or the table's process slow to answer (504):
      // the same nonce again is applied at most once.
      failed = e;
      await new Promise((r) => setTimeout(r, 500 * (attempt + 1)));
    }
  }
  page.busy = false;
  app.classList.remove('busy');
  if (!ans && failed && failed.status === 504) say(failed.message, 'error');
  if (!ans) { if (page.state) render(page.state); return; }
  const reply = document.getElementById('reply');
  const shown = (ans.replies || []).filter((m) => m.text || (m.rows && m.rows.length));
  if (shown.length && reply) {
    const state = ans.state && ans.state.type === 'state' ? ans.state : page.state;
    // The prompt the frame carries is the one to answer: a reply's
    // copy of its controls is not shown twice.
    const last = shown[shown.length - 1];
    const m = state && state.prompt ? {text: shown.map((x) => x.text).join('\n'), rows: []} : {text: shown.map((x) => x.text).join('\n'), rows: last.rows};
    reply.replaceChildren(message(m));
    reply.hidden = false;
    page.lastReply = {version: state ? state.version : 0};
  }
  await show(ans.state);
}

// ---- Live updates ----

function wsURL() {
  const base = location.pathname.replace(/[^/]*$/, '');
  return (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + base + 'ws';
}

// backoff is the wait before a page's n-th retry: doubling from half a
// second up to 30 s, drawn between half and all of it, so that pages
// refused together do not all come back together.
function backoff(n) {
  const d = Math.min(30000, 500 * 2 ** n);
  return d / 2 + Math.random() * d / 2;
}

function connect() {
  if (page.ended || page.polling) return;
  if (page.wsFailures >= 3) { poll(); return; }
  const ws = new WebSocket(wsURL());
  page.ws = ws;
  let got = false;
  ws.onopen = () => { ws.send(JSON.stringify({hello: page.session})); };
  ws.onmessage = (e) => {
    got = true;
    page.wsFailures = 0;
    say('');
    let f;
    try { f = JSON.parse(e.data); } catch (err) { return; }
    show(f);
  };
  ws.onclose = (e) => {
    if (page.ended) return;
    if (e.code === 4003) return; // the over frame came first
    if (e.code === 4004) { ended(texts.session_ended); return; }
    if (e.code === 4001) { expired(); return; }
    // Too many pages open: this one follows the game by polling.
    if (e.code === 4008) { setTimeout(poll, backoff(1)); return; }
    // A socket that closed before any frame is a failure, opened or not.
    if (!got) page.wsFailures++;
    say(texts.reconnecting, 'warn');
    setTimeout(async () => {
      try { await show(await api('api/state')); } catch (err) { if (err.status === 401) { expired(); return; } }
      connect();
    }, backoff(page.wsFailures));
  };
}

// poll is the fallback of a page whose WebSocket keeps failing or was
// refused: long polls of the state, backing off after errors.
async function poll() {
  if (page.polling) return;
  page.polling = true;
  let failures = 0;
  while (!page.ended) {
    try {
      const v = page.state ? page.state.version : 0;
      const o = page.state ? encodeURIComponent(page.state.origin || '') : '';
      await show(await api('api/state?after=' + v + '&origin=' + o));
      failures = 0;
      say('');
    } catch (e) {
      if (e.status === 401) { page.polling = false; expired(); return; }
      say(texts.reconnecting, 'warn');
      await new Promise((r) => setTimeout(r, backoff(++failures)));
    }
  }
  page.polling = false;
}

function over(f) {
  page.ended = true;
  if (page.ws) page.ws.close();
  const items = [el('p', {}, f.text)];
  if (f.replay) {
    items.push(el('button', {class: 'c-btn style-1', on: {click: () => {
      page.sdk.commands.openExternalLink({url: f.replay}).catch(() => {});
    }}}, texts.replay));
  }
  const turn = document.getElementById('turn');
  if (turn) {
    turn.replaceChildren(...items);
    for (const id of ['prompt', 'reply', 'draw-box', 'hand-box', 'tickets-box']) {
      const e = document.getElementById(id);
      if (e) e.hidden = true;
    }
  } else {
    app.replaceChildren(notice, el('div', {class: 'centre'}, ...items));
  }
  if (page.board) {
    page.board.interactive(() => false);
    page.board.highlight(new Set());
  }
}

function ended(text) {
  page.ended = true;
  if (page.ws) page.ws.close();
  say(text, 'error');
}

// expired: the server no longer knows the session (it restarted, or the
// session sat unused for hours). Discord gives a new code without asking
// once the user consented, so the page authorises again, once.
function expired() {
  if (page.reauthorised || !page.sdk) { ended(texts.session_ended); return; }
  page.reauthorised = true;
  page.ended = true;
  if (page.ws) page.ws.close();
  page.session = '';
  page.state = null;
  page.board = null;
  page.svgURL = '';
  page.ended = false;
  page.wsFailures = 0;
  authorise();
}

boot().catch((e) => say(String(e && e.message ? e.message : e), 'error'));
