// The leaderboard page. It asks /graphql like any client, writes every value
// into the page with textContent (never as HTML), and keeps the player's token
// in memory only: it arrives in the address fragment (#token=...) and leaves
// the address bar as soon as this module runs.

const PAGE_SIZE = 25;
const MONTHS_SHOWN = 24;
const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

const MONTH_FIELDS = 'month status participants endsAt closesAt closedAt';
const QUERIES = {
  months: `query Months($first: Int!) { months(first: $first) { ${MONTH_FIELDS} } }`,
  month: `query Month($month: Month!) { month(month: $month) { ${MONTH_FIELDS} } }`,
  leaderboard: `query Leaderboard($month: Month!, $first: Int!, $after: String) {
  leaderboard(month: $month, first: $first, after: $after) {
    total
    pageInfo { hasNextPage endCursor }
    edges { cursor node { rank score reachedAt player { id name } } }
  }
}`,
  myRank: `query MyRank($month: Month!) { myRank(month: $month) { ...Window } }`,
  standing: `query Standing($month: Month!, $playerId: ID!) { standing(month: $month, playerId: $playerId) { ...Window } }`,
};
const WINDOW_FRAGMENT = `
fragment Window on Standing {
  month rank score reachedAt total final
  player { id name }
  neighbours(above: 10, below: 10) { rank score reachedAt player { id name } }
}`;

// ---- formatting (the viewer's locale and time zone) ----

// Every time shown names its zone, the viewer's, as the browser abbreviates
// it ("UTC", "PST", "GMT+1"): the month card's times in their own text, a
// table's times in their column's header. Each time comes in two forms, and
// a phone shows the compact one (see timeEl).
const numbers = new Intl.NumberFormat();
const dateTime = {
  full: new Intl.DateTimeFormat(undefined, {
    year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short',
  }),
  compact: new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }),
};
const zoneName = new Intl.DateTimeFormat(undefined, { timeZoneName: 'short' });
// Table rows sit inside one month, so their times leave the year out. The
// seconds stay where there is room, as they tell equal scores apart (so does
// the order of the rows), with day and clock apart so that a narrow column
// can put one above the other; on a phone a row stays one line without them.
const reachedAt = {
  day: new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' }),
  clock: new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', second: '2-digit' }),
  compact: new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }),
};
const reachedTitle = new Intl.DateTimeFormat(undefined, {
  year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit', timeZoneName: 'short',
});
const monthName = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });
const plural = new Intl.PluralRules('en');

function formatMonth(month) {
  const [year, mon] = month.split('-').map(Number);
  return monthName.format(new Date(Date.UTC(year, mon - 1, 1)));
}

// zoneOf is the abbreviation of the viewer's zone at the instant date: it
// changes with summer time.
function zoneOf(date) {
  return zoneName.formatToParts(date).find((part) => part.type === 'timeZoneName')?.value ?? '';
}

function countOf(n, one, many) {
  return `${numbers.format(n)} ${plural.select(n) === 'one' ? one : many}`;
}

// countdownText says how long until the instant at, in days and a clock:
// "3 days 04:05:06", "00:12:34".
function countdownText(at) {
  const total = Math.max(0, Math.floor((at - Date.now()) / 1000));
  const days = Math.floor(total / 86400);
  const clock = [Math.floor(total / 3600) % 24, Math.floor(total / 60) % 60, total % 60]
    .map((n) => String(n).padStart(2, '0')).join(':');
  return days > 0 ? `${countOf(days, 'day', 'days')} ${clock}` : clock;
}

function isFinal(info) {
  return info.status === 'CLOSED';
}

// ---- DOM helpers: text only ----

const $ = (id) => document.getElementById(id);

// el builds an element; attributes with null, undefined or false are left out,
// and children (strings or nodes) are appended as text or nodes.
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === 'class') node.className = value;
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

// timeEl shows the instant iso in two forms, full (strings or nodes) and
// compact; CSS shows the full one, or the compact one on a phone. Any extra
// nodes follow both.
function timeEl(iso, full, compact, attributes = {}, ...extra) {
  return el('time', { datetime: iso, ...attributes },
    el('span', { class: 'full' }, ...full), el('span', { class: 'compact' }, compact), ...extra);
}

function dateTimeEl(iso, attributes = {}) {
  const at = new Date(iso);
  return timeEl(iso, [dateTime.full.format(at)], dateTime.compact.format(at), attributes);
}

// reachedEl is a table's time. The column's header names zone; a time in
// another zone, across a change to or from summer time, names its own.
function reachedEl(iso, zone) {
  const at = new Date(iso);
  const own = zoneOf(at);
  const full = [el('span', { class: 'day' }, reachedAt.day.format(at)), ' ', el('span', { class: 'clock' }, reachedAt.clock.format(at))];
  return timeEl(iso, full, reachedAt.compact.format(at), { title: reachedTitle.format(at) },
    ...(own === zone ? [] : [' ', el('span', { class: 'zone' }, own)]));
}

// tableZone names, in the header of table's time column, the zone most of
// its rows' times are in (the others name theirs), and returns it.
function tableZone(table, entries) {
  const counts = new Map();
  for (const entry of entries) {
    const zone = zoneOf(new Date(entry.reachedAt));
    counts.set(zone, (counts.get(zone) ?? 0) + 1);
  }
  const [zone = ''] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
  table.querySelector('thead .zone').textContent = zone ? `(${zone})` : '';
  return zone;
}

function loadingEl() {
  return el('p', { class: 'loading' }, el('span', { class: 'spinner', 'aria-hidden': 'true' }), 'Loading…');
}

// errorEl shows every GraphQL error with its extensions.code; retry, when
// given, becomes a "Try again" button.
function errorEl(title, error, retry) {
  const box = el('div', { class: 'alert error' }, el('p', { class: 'alert-title' }, title));
  for (const problem of error.problems) {
    box.append(el('p', {}, problem.message, ' ', el('code', { class: 'code' }, problem.code)));
  }
  if (retry) {
    const button = el('button', { type: 'button', class: 'button secondary small' }, 'Try again');
    button.addEventListener('click', retry);
    box.append(button);
  }
  return box;
}

function noteEl(...children) {
  return el('p', { class: 'note' }, ...children);
}

function announce(message) {
  $('status').textContent = message;
}

// playerCell shows the name over the id, and the badge after the id: beside
// the name it would push a long name onto two lines.
function playerCell(player, badge) {
  const cell = el('th', { scope: 'row', class: 'player' });
  const tag = badge ? el('span', { class: 'tag' }, badge) : null;
  cell.append(el('span', { class: 'name' }, player.name || player.id));
  if (player.name) cell.append(el('span', { class: 'player-id' }, el('span', { class: 'id' }, player.id), tag));
  else if (tag) cell.append(' ', tag);
  return cell;
}

// rankRow is one table row; provisional marks a rank that can still change,
// current the row the panel is about, zone the one its time column's header
// names.
function rankRow(entry, zone, { provisional = false, current = false, badge = null } = {}) {
  const rank = el('td', { class: 'num rank' }, numbers.format(entry.rank));
  if (provisional) rank.append(el('span', { class: 'provisional-mark', 'aria-hidden': 'true', title: 'Provisional' }, '*'));
  return el('tr', {
    'data-rank': entry.rank,
    'data-player': entry.player.id,
    'aria-current': current ? 'true' : null,
  },
  rank,
  playerCell(entry.player, current ? badge : null),
  el('td', { class: 'num score' }, numbers.format(entry.score)),
  el('td', { class: 'when' }, reachedEl(entry.reachedAt, zone)));
}

function provisionalNote() {
  return el('span', { class: 'caption-note' }, '* Provisional until the month closes.');
}

// ---- GraphQL over fetch ----

// ApiError carries what went wrong as a list of {message, code}.
class ApiError extends Error {
  constructor(problems) {
    super(problems.map((p) => `${p.message} (${p.code})`).join('; '));
    this.problems = problems;
  }

  has(code) {
    return this.problems.some((p) => p.code === code);
  }
}

async function graphql(query, variables, { token = null, signal } = {}) {
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  let body = null;
  try {
    response = await fetch('/graphql', {
      method: 'POST', headers, signal, cache: 'no-store', credentials: 'omit',
      body: JSON.stringify({ query, variables }),
    });
    body = await response.json().catch(() => null);
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new ApiError([{ message: 'Could not reach the server. Check the connection and try again.', code: 'NETWORK_ERROR' }]);
  }
  if (Array.isArray(body?.errors) && body.errors.length > 0) {
    throw new ApiError(body.errors.map((e) => ({
      message: String(e?.message ?? 'Unknown error'),
      code: String(e?.extensions?.code ?? 'UNKNOWN'),
    })));
  }
  if (!response.ok || !body || typeof body.data !== 'object' || body.data === null) {
    throw new ApiError([{ message: `The server answered ${response.status} ${response.statusText}`.trim() + '.', code: `HTTP_${response.status}` }]);
  }
  return body.data;
}

// slot hands out an AbortSignal per request and aborts the previous one, so a
// slow answer for the last month never overwrites the answer for this one.
function slot() {
  let controller = null;
  return () => {
    controller?.abort();
    controller = new AbortController();
    return controller.signal;
  };
}

// ---- the player token ----

// takeToken reads #token=... and removes it from the address bar (and so from
// history, bookmarks and shared links), keeping any other fragment parameters.
function takeToken() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (!params.has('token')) return null;
  const token = params.get('token').trim();
  params.delete('token');
  const rest = params.toString();
  history.replaceState(history.state, '', location.pathname + location.search + (rest ? `#${rest}` : ''));
  return token || null;
}

// tokenSubject is the sub claim, unverified: only to name the player when the
// server says they have no score. The server alone decides who the token is.
function tokenSubject(token) {
  try {
    const part = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(part.padEnd(Math.ceil(part.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
    const sub = JSON.parse(new TextDecoder().decode(bytes)).sub;
    return typeof sub === 'string' && sub !== '' ? sub : null;
  } catch {
    return null;
  }
}

// ---- state ----

const state = {
  months: [], // MonthInfo, newest first
  month: null, // the MonthInfo shown
  token: takeToken(),
  authError: null, // the ApiError that refused the token
  after: null, // the cursor of the page shown (null: the first page)
  previous: [], // the cursors of the pages before it, a stack
  endCursor: null, // the cursor of the next page; null on the last
  boardMonth: null, // the month of the table on screen
  lookupId: null,
};

const requests = { months: slot(), board: slot(), mine: slot(), lookup: slot() };

// ---- months ----

// optionText is short enough for a phone's select, which cannot wrap: the
// panel beside it says how many players took part and when the month ends
// and closes.
function optionText(info) {
  return `${formatMonth(info.month)} · ${isFinal(info) ? 'final' : 'live'}`;
}

// The countdown of the month shown: one ticking timer, and once the close is
// due one pending reload, both stopped when the month panel is redrawn.
const countdown = { ticking: null, reload: null };

// CLOSE_DUE_RELOAD_MS is how often the page asks again whether a month past
// its close is closed yet.
const CLOSE_DUE_RELOAD_MS = 60_000;

function stopCountdown() {
  clearInterval(countdown.ticking);
  clearTimeout(countdown.reload);
  countdown.ticking = null;
  countdown.reload = null;
}

// startCountdown ticks node down to the close of info each second. Once the
// close is due it says so and reloads the months now and then, so the page
// turns to "final" by itself when the close has run.
function startCountdown(node, info) {
  stopCountdown();
  const closesAt = Date.parse(info.closesAt);
  const tick = () => {
    if (Date.now() < closesAt) {
      node.textContent = countdownText(closesAt);
      return;
    }
    clearInterval(countdown.ticking);
    countdown.ticking = null;
    node.textContent = info.status === 'CLOSING' ? 'now: closing' : 'any moment';
    countdown.reload = setTimeout(() => loadMonths({ keep: true }), CLOSE_DUE_RELOAD_MS);
  };
  tick();
  if (Date.now() < closesAt) countdown.ticking = setInterval(tick, 1000);
}

function renderMonthInfo(info) {
  const box = $('month-info');
  const status = {
    OPEN: ['live', 'Live', 'Scores count until the month closes; ranks are provisional.'],
    CLOSING: ['live', 'Live · closing', 'The final standings are being built; ranks are provisional.'],
    CLOSED: ['final', 'Final', 'The month is closed; these are the final standings.'],
  }[info.status] ?? ['live', info.status, ''];
  const fact = (label, ...value) => el('div', {}, el('dt', {}, label), el('dd', {}, ...value));
  const facts = el('dl', { class: 'facts' },
    fact('Status', el('span', { class: `badge ${status[0]}`, 'data-testid': 'month-status' }, status[1])),
    fact('Participants', numbers.format(info.participants)));
  stopCountdown();
  if (isFinal(info)) {
    facts.append(fact('Ended', dateTimeEl(info.endsAt)));
    if (info.closedAt) facts.append(fact('Closed', dateTimeEl(info.closedAt, { 'data-testid': 'closed-at' })));
  } else {
    // A timer, not a live region: a screen reader reads it when asked, rather
    // than every second.
    const left = el('span', { role: 'timer', 'data-testid': 'countdown' });
    facts.append(fact('Closes', dateTimeEl(info.closesAt)), fact('Closes in', left));
    startCountdown(left, info);
  }
  box.replaceChildren(facts, el('p', { class: 'muted small month-note' }, status[2]));
}

function fillMonthSelect() {
  const select = $('month');
  select.replaceChildren(...state.months.map((info) => el('option', { value: info.month }, optionText(info))));
  select.disabled = state.months.length === 0;
  if (state.month) select.value = state.month.month;
}

// loadMonths reads the months and picks ?month=YYYY-MM when it names one with
// scores, else the newest; keep holds on to the month shown (on refresh).
async function loadMonths({ keep = false } = {}) {
  const signal = requests.months();
  const panel = $('month-panel');
  panel.setAttribute('aria-busy', 'true');
  if (!keep) $('month-info').replaceChildren(loadingEl());
  let note = '';
  try {
    const data = await graphql(QUERIES.months, { first: MONTHS_SHOWN }, { signal });
    let months = data.months;
    const wanted = keep ? state.month?.month : new URLSearchParams(location.search).get('month');
    if (wanted && !months.some((m) => m.month === wanted)) {
      if (!MONTH_PATTERN.test(wanted)) {
        note = `“${wanted}” is not a month (YYYY-MM); showing the newest month instead.`;
      } else {
        // An older month than the list holds: ask for it alone.
        let older = null;
        try {
          older = (await graphql(QUERIES.month, { month: wanted }, { signal })).month;
          if (!older) note = `No scores were sent in ${formatMonth(wanted)}; showing the newest month instead.`;
        } catch (err) {
          if (signal.aborted) throw err;
          note = `Could not show ${wanted}: ${err.message}. Showing the newest month instead.`;
        }
        if (older) months = [...months, older].sort((a, b) => b.month.localeCompare(a.month));
      }
    }
    if (signal.aborted) return;
    state.months = months;
    panel.removeAttribute('aria-busy');
    if (months.length === 0) {
      const select = $('month');
      select.replaceChildren(el('option', {}, 'No months yet'));
      select.disabled = true;
      $('month-info').replaceChildren(noteEl('No months yet. A month opens with its first score: as soon as a game sends one, the month and its standings appear here.'));
      $('refresh').disabled = false;
      showNoMonth('Nothing to show until a month has scores.');
      announce('No months yet.');
      return;
    }
    const chosen = months.find((m) => m.month === wanted) ?? months[0];
    const sameMonth = keep && state.month?.month === chosen.month;
    state.month = chosen;
    fillMonthSelect();
    renderMonthInfo(chosen);
    if (note) $('month-info').append(el('p', { class: 'notice' }, note));
    $('refresh').disabled = false;
    $('lookup').querySelector('button[type=submit]').disabled = false;
    showMonth({ resetPage: !sameMonth });
  } catch (err) {
    if (signal.aborted) return;
    panel.removeAttribute('aria-busy');
    $('month-info').replaceChildren(errorEl('Could not load the months.', err, () => loadMonths({ keep })));
    if (!keep) {
      $('month').replaceChildren(el('option', {}, 'Unavailable'));
      $('month').disabled = true;
      showNoMonth('The standings load once the months do.');
    }
    $('refresh').disabled = false;
    announce(`Could not load the months: ${err.message}`);
  }
}

// showNoMonth empties the panels that need a month, saying why with message.
function showNoMonth(message) {
  stopCountdown();
  state.month = null;
  requests.board();
  requests.mine();
  requests.lookup();
  for (const id of ['top', 'my-rank', 'lookup-panel']) $(id).removeAttribute('aria-busy');
  state.boardMonth = null;
  $('top-state').replaceChildren(noteEl(message));
  $('top-table').hidden = true;
  $('top-total').textContent = '';
  $('page-info').textContent = '';
  $('prev-page').disabled = true;
  $('next-page').disabled = true;
  $('lookup').querySelector('button[type=submit]').disabled = true;
  clearWindow(views.lookup);
  $('lookup-state').replaceChildren();
  renderMyRankIdle(noteEl(message));
}

// showMonth (re)loads every panel for state.month.
function showMonth({ resetPage = true } = {}) {
  if (resetPage) {
    state.after = null;
    state.previous = [];
  }
  const url = new URL(location.href);
  url.searchParams.set('month', state.month.month);
  history.replaceState(history.state, '', url.pathname + url.search + url.hash);
  loadBoard();
  loadMyRank();
  if (state.lookupId) loadLookup();
}

$('month').addEventListener('change', (event) => {
  const info = state.months.find((m) => m.month === event.target.value);
  if (!info) return;
  state.month = info;
  renderMonthInfo(info);
  showMonth();
});

$('refresh').addEventListener('click', () => {
  loadMonths({ keep: true });
});

// ---- the top of the table ----

// loadBoard shows the page that starts after the cursor page.after, with
// page.previous the cursors of the pages before it. The page becomes the
// current one only once it has loaded: a failed page turn leaves the table and
// the pager as they were, and "Try again" retries the same turn.
async function loadBoard(page = { after: state.after, previous: state.previous }) {
  const signal = requests.board();
  const info = state.month;
  const section = $('top');
  section.setAttribute('aria-busy', 'true');
  $('top-state').replaceChildren(loadingEl());
  try {
    const { leaderboard } = await graphql(QUERIES.leaderboard,
      { month: info.month, first: PAGE_SIZE, after: page.after }, { signal });
    if (signal.aborted) return;
    state.after = page.after;
    state.previous = page.previous;
    renderBoard(info, leaderboard);
  } catch (err) {
    if (signal.aborted) return;
    $('top-state').replaceChildren(errorEl('Could not load the leaderboard.', err, () => loadBoard(page)));
    if (state.boardMonth !== info.month) {
      // The table on screen is another month's: take it away with its pager.
      state.boardMonth = null;
      state.endCursor = null;
      $('top-table').hidden = true;
      $('top-total').textContent = '';
      $('page-info').textContent = '';
      $('prev-page').disabled = true;
      $('next-page').disabled = true;
    }
    announce(`Could not load the leaderboard: ${err.message}`);
  } finally {
    if (!signal.aborted) section.removeAttribute('aria-busy');
  }
}

function renderBoard(info, board) {
  const provisional = !isFinal(info);
  const edges = board.edges;
  state.boardMonth = info.month;
  $('top-total').textContent = countOf(board.total, 'player', 'players');
  const caption = $('leaderboard-caption');
  caption.replaceChildren(`${formatMonth(info.month)}, ${provisional ? 'live ranks' : 'final ranks'}`);
  if (provisional) caption.append(provisionalNote());
  const zone = tableZone($('leaderboard'), edges.map((edge) => edge.node));
  $('leaderboard').querySelector('tbody').replaceChildren(...edges.map((edge) => rankRow(edge.node, zone, { provisional })));
  $('top-table').hidden = edges.length === 0;

  const page = state.previous.length + 1;
  const pages = Math.max(1, Math.ceil(board.total / PAGE_SIZE));
  if (edges.length === 0) {
    $('top-state').replaceChildren(noteEl(board.total === 0
      ? 'No player has a score in this month yet.'
      : 'No players on this page.'));
    $('page-info').textContent = '';
  } else {
    $('top-state').replaceChildren();
    const first = edges[0].node.rank;
    const last = edges[edges.length - 1].node.rank;
    $('page-info').textContent = `Page ${numbers.format(page)} of ${numbers.format(pages)}`;
    announce(`Showing ranks ${numbers.format(first)}–${numbers.format(last)} of ${numbers.format(board.total)} in ${formatMonth(info.month)}.`);
  }
  state.endCursor = board.pageInfo.hasNextPage ? board.pageInfo.endCursor : null;
  $('prev-page').disabled = state.previous.length === 0;
  $('next-page').disabled = state.endCursor === null;
}

function boardBusy() {
  return $('top').getAttribute('aria-busy') === 'true';
}

// turnPage loads the page and, when the button pressed is now disabled (the
// first or the last page), moves focus to the other one rather than losing it.
async function turnPage(page, pressed, other) {
  await loadBoard(page);
  if (pressed.disabled && !other.disabled && document.activeElement !== other) other.focus();
}

$('next-page').addEventListener('click', () => {
  if (boardBusy() || !state.endCursor) return;
  turnPage({ after: state.endCursor, previous: [...state.previous, state.after] }, $('next-page'), $('prev-page'));
});

$('prev-page').addEventListener('click', () => {
  if (boardBusy() || state.previous.length === 0) return;
  turnPage({ after: state.previous.at(-1), previous: state.previous.slice(0, -1) }, $('prev-page'), $('next-page'));
});

// ---- standing windows: my rank and the lookup ----

function windowView(prefix) {
  return {
    state: $(`${prefix}-state`),
    summary: $(`${prefix}-summary`),
    wrap: $(`${prefix}-table`),
    caption: $(`${prefix}-caption`),
    table: $(`${prefix}-table`).querySelector('table'),
    body: $(`${prefix}-table`).querySelector('tbody'),
  };
}

const views = { mine: windowView('my-rank'), lookup: windowView('lookup') };

function clearWindow(view) {
  view.summary.hidden = true;
  view.wrap.hidden = true;
  view.summary.replaceChildren();
  view.body.replaceChildren();
}

// renderWindow shows a standing: its rank, score and total, then the
// neighbours with the standing's own row at its place, highlighted.
function renderWindow(view, standing, { captionText, badge }) {
  const provisional = !standing.final;
  const stat = (label, value, extra) => el('div', { class: 'stat' },
    el('dt', {}, label), el('dd', {}, value, extra ?? null));
  view.summary.replaceChildren(
    stat('Rank', numbers.format(standing.rank), provisional ? el('span', { class: 'badge live' }, 'provisional') : el('span', { class: 'badge final' }, 'final')),
    stat('Score', numbers.format(standing.score)),
    stat('Players', numbers.format(standing.total)));
  view.summary.hidden = false;

  const self = { rank: standing.rank, score: standing.score, reachedAt: standing.reachedAt, player: standing.player };
  const rows = [...standing.neighbours.filter((n) => n.rank !== standing.rank), self].sort((a, b) => a.rank - b.rank);
  const zone = tableZone(view.table, rows);
  view.body.replaceChildren(...rows.map((entry) => rankRow(entry, zone, { provisional, current: entry === self, badge })));
  view.caption.replaceChildren(captionText);
  if (provisional) view.caption.append(provisionalNote());
  view.wrap.hidden = false;
}

function renderMyRankIdle(...children) {
  $('my-rank').removeAttribute('aria-busy');
  clearWindow(views.mine);
  views.mine.state.replaceChildren(...children);
  $('my-rank-who').textContent = '';
}

function howToSignIn() {
  return el('div', { class: 'how-to' },
    noteEl('Open this page from the game to see your rank and the players around you. The game passes your player token in the address, as in ',
      el('code', {}, '/#token=…'),
      '; the page keeps it in memory only and removes it from the address bar.'),
    el('p', { class: 'hint' }, 'Developers: ', el('code', {}, 'leaderboard player-token PLAYER_ID'), ' prints a token to try it with.'));
}

async function loadMyRank() {
  const view = views.mine;
  const signal = requests.mine();
  if (state.authError) {
    renderMyRankIdle(errorEl('Your player token was refused.', state.authError), noteEl('Reopen the leaderboard from the game to sign in again.'));
    return;
  }
  if (!state.token) {
    renderMyRankIdle(howToSignIn());
    return;
  }
  const info = state.month;
  const section = $('my-rank');
  section.setAttribute('aria-busy', 'true');
  view.state.replaceChildren(loadingEl());
  try {
    const { myRank } = await graphql(QUERIES.myRank + WINDOW_FRAGMENT, { month: info.month }, { token: state.token, signal });
    if (signal.aborted) return;
    if (myRank === null) {
      const who = tokenSubject(state.token);
      renderMyRankIdle(noteEl(`${who ? `Player ${who} has` : 'You have'} no score in ${formatMonth(info.month)}.`));
      if (who) $('my-rank-who').textContent = who;
      return;
    }
    view.state.replaceChildren();
    $('my-rank-who').textContent = myRank.player.name ? `${myRank.player.name} (${myRank.player.id})` : myRank.player.id;
    renderWindow(view, myRank, {
      captionText: `Players around you in ${formatMonth(info.month)}`,
      badge: 'You',
    });
  } catch (err) {
    if (signal.aborted) return;
    if (err.has('UNAUTHENTICATED')) {
      // A refused token stays refused: forget it rather than send it again.
      state.token = null;
      state.authError = err;
      renderMyRankIdle(errorEl('Your player token was refused.', err), noteEl('Reopen the leaderboard from the game to sign in again.'));
      announce(`My rank: ${err.message}`);
      return;
    }
    clearWindow(view);
    view.state.replaceChildren(errorEl('Could not load your rank.', err, loadMyRank));
    announce(`Could not load your rank: ${err.message}`);
  } finally {
    if (!signal.aborted) section.removeAttribute('aria-busy');
  }
}

// Game web views may hand over a fresh token without reloading the page.
window.addEventListener('hashchange', () => {
  const token = takeToken();
  if (!token) return;
  state.token = token;
  state.authError = null;
  if (state.month) loadMyRank();
});

async function loadLookup() {
  const view = views.lookup;
  const signal = requests.lookup();
  const info = state.month;
  const playerId = state.lookupId;
  const section = $('lookup-panel');
  section.setAttribute('aria-busy', 'true');
  view.state.replaceChildren(loadingEl());
  try {
    const { standing } = await graphql(QUERIES.standing + WINDOW_FRAGMENT, { month: info.month, playerId }, { signal });
    if (signal.aborted) return;
    if (standing === null) {
      clearWindow(view);
      view.state.replaceChildren(noteEl(`${playerId} has no score this month (${formatMonth(info.month)}).`));
      announce(`${playerId} has no score in ${formatMonth(info.month)}.`);
      return;
    }
    view.state.replaceChildren();
    const name = standing.player.name || standing.player.id;
    renderWindow(view, standing, {
      captionText: `Players around ${name} in ${formatMonth(info.month)}`,
      badge: null,
    });
    announce(`${name} is ranked ${numbers.format(standing.rank)} of ${numbers.format(standing.total)} in ${formatMonth(info.month)}.`);
  } catch (err) {
    if (signal.aborted) return;
    clearWindow(view);
    // Retrying cannot mend an id the server refused.
    const retry = err.has('BAD_USER_INPUT') ? null : loadLookup;
    view.state.replaceChildren(errorEl(`Could not look up ${playerId}.`, err, retry));
    announce(`Could not look up ${playerId}: ${err.message}`);
  } finally {
    if (!signal.aborted) section.removeAttribute('aria-busy');
  }
}

$('lookup').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $('player-id');
  const playerId = input.value.trim();
  if (!playerId) {
    // Drop the lookup in flight, if any, so its answer cannot replace this note.
    requests.lookup();
    state.lookupId = null;
    $('lookup-panel').removeAttribute('aria-busy');
    input.setAttribute('aria-invalid', 'true');
    views.lookup.state.replaceChildren(noteEl('Enter a player id to look up.'));
    clearWindow(views.lookup);
    input.focus();
    return;
  }
  input.removeAttribute('aria-invalid');
  if (!state.month) return;
  state.lookupId = playerId;
  loadLookup();
});

// ---- start ----

$('lookup').querySelector('button[type=submit]').disabled = true;
loadMonths();
