// The public replay page of a finished game: the board turn by turn, the
// final scores and every ticket revealed. It needs no Discord.
import {el, loadBoard, playersList, swatch, PanZoom} from './board.js';

const root = document.documentElement;
const texts = JSON.parse(root.dataset.texts || '{}');
const app = document.getElementById('app');
const notice = document.getElementById('notice');

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));
}

async function main() {
  const token = root.dataset.token;
  const resp = await fetch(encodeURIComponent(token) + '/data.json');
  if (!resp.ok) { notice.textContent = await resp.text(); return; }
  const data = await resp.json();
  const boardBox = el('div', {class: 'board', id: 'board'});
  const boardWrap = el('div', {class: 'board-wrap'}, boardBox);
  const status = el('p', {class: 'status', id: 'status'});
  const turnLabel = el('span', {id: 'turn-label', 'aria-live': 'polite'});
  const slider = el('input', {type: 'range', id: 'turn', min: 0, max: data.frames.length - 1, value: data.frames.length - 1,
    'aria-label': texts.replay_turn ? fill(texts.replay_turn, {n: '', total: ''}) : ''});
  const players = el('div', {id: 'players'});
  const last = el('p', {class: 'last', id: 'last'});
  let playing = null;
  const playBtn = el('button', {class: 'c-btn style-1', id: 'play'}, texts.replay_play);
  const controls = el('div', {class: 'row replay-controls'},
    el('button', {class: 'c-btn style-2', on: {click: () => go(0)}}, texts.replay_first),
    el('button', {class: 'c-btn style-2', on: {click: () => go(cur - 1)}}, texts.replay_prev),
    playBtn,
    el('button', {class: 'c-btn style-2', on: {click: () => go(cur + 1)}}, texts.replay_next),
    el('button', {class: 'c-btn style-2', on: {click: () => go(data.frames.length - 1)}}, texts.replay_last),
    turnLabel);
  const final = el('section', {class: 'final', 'aria-labelledby': 'final-h'}, el('h2', {id: 'final-h'}, texts.final_scores),
    el('ol', {class: 'ranking'}, data.final.map((p, seat) => ({...p, seat})).sort((a, b) => a.place - b.place || b.total - a.total).map((p) => el('li', {},
      swatch(p.seat, p.color, p.ink),
      el('strong', {}, p.name), ' ', String(p.total),
      el('details', {}, el('summary', {}, fill(texts.tickets_of, {player: p.name})),
        el('ul', {class: 'tickets'}, p.tickets.map((t) => el('li', {class: t.done ? 'done' : 'failed'},
          el('span', {'aria-hidden': 'true'}, t.done ? '✔ ' : '✘ '), t.label,
          t.done ? el('span', {class: 'sr'}, ', ' + texts.completed) : null))))))));
  app.replaceChildren(
    el('header', {class: 'bar'}, el('h1', {}, data.title), status),
    el('div', {class: 'main'},
      el('div', {class: 'board-area'}, boardWrap,
        el('div', {class: 'zoom'},
          el('button', {class: 'c-btn style-2', 'aria-label': texts.zoom_in, title: texts.zoom_in, on: {click: () => view.zoomBy(1.5)}}, '+'),
          el('button', {class: 'c-btn style-2', 'aria-label': texts.zoom_out, title: texts.zoom_out, on: {click: () => view.zoomBy(1 / 1.5)}}, '−'),
          el('button', {class: 'c-btn style-2', 'aria-label': texts.zoom_all, title: texts.zoom_all, on: {click: () => view.fit()}}, '⤢'))),
      el('aside', {class: 'side'}, controls, slider, last, el('section', {}, el('h2', {}, texts.players), players), final)));
  const board = await loadBoard(boardBox, data.svg, data.art);
  const view = new PanZoom(boardWrap, boardBox, board.w, board.h);
  let cur = data.frames.length - 1;
  function go(n) {
    cur = Math.max(0, Math.min(data.frames.length - 1, n));
    const f = data.frames[cur];
    board.apply(f, null);
    slider.value = cur;
    status.textContent = f.status;
    last.textContent = f.last.text || '';
    turnLabel.textContent = fill(texts.replay_turn, {n: cur + 1, total: data.frames.length});
    players.replaceChildren(playersList(f.players, texts));
    if (cur === data.frames.length - 1 && playing) stop();
  }
  function stop() {
    clearInterval(playing);
    playing = null;
    playBtn.textContent = texts.replay_play;
  }
  playBtn.addEventListener('click', () => {
    if (playing) { stop(); return; }
    if (cur === data.frames.length - 1) go(0);
    playing = setInterval(() => go(cur + 1), 900);
    playBtn.textContent = texts.replay_pause;
  });
  slider.addEventListener('input', () => go(Number(slider.value)));
  go(cur);
}

main().catch((e) => { notice.textContent = String(e && e.message ? e.message : e); });
