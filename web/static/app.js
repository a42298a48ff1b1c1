// The leaderboard page. It asks /graphql like any client, writes every value
// into the page with textContent (never as HTML), and keeps the player's token
// in memory only: it arrives in the address fragment (#token=...) and leaves
// the address bar as soon as this module runs.
//
// It shows one period of one board: ?board=ID&period=KEY (on main, the
// monthly event, ?month=YYYY-MM as before); without them main and its current
// month.

const PAGE_SIZE = 25;
const PERIODS_SHOWN = 24;
// BOARDS_SHOWN is the one page of boards the picker lists (the API's most); a
// board past it is still shown when the address names it.
const BOARDS_SHOWN = 500;
const MAIN = 'main';
const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

const PERIOD_FIELDS = 'key status participants startsAt endsAt closesAt closedAt';
const BOARD_FIELDS = 'id name reset order tiebreak scoreFormat timeZone status startsAt endsAt';
// The reads name main's period by month, as they always have; other boards'
// by key.
const PERIOD_ARGS = 'board: $board, period: $period, month: $month';
const PERIOD_VARS = '$board: ID!, $period: String, $month: Month';
const QUERIES = {
  boards: `query Boards($first: Int!) { boards(first: $first) { ${BOARD_FIELDS} } }`,
  board: `query Board($id: ID!, $first: Int!) { board(id: $id) {
  ${BOARD_FIELDS}
  current { ${PERIOD_FIELDS} }
  periods(first: $first) { ${PERIOD_FIELDS} }
} }`,
  period: `query Period($board: ID!, $key: String!) { period(board: $board, key: $key) { ${PERIOD_FIELDS} } }`,
  leaderboard: `query Leaderboard(${PERIOD_VARS}, $first: Int!, $after: String) {
  leaderboard(${PERIOD_ARGS}, first: $first, after: $after) {
    total
    pageInfo { hasNextPage endCursor }
    edges { cursor node { rank score subscore reachedAt player { id name } } }
  }
}`,
  myRank: `query MyRank(${PERIOD_VARS}) { myRank(${PERIOD_ARGS}) { ...Window } }`,
  standing: `query Standing(${PERIOD_VARS}, $playerId: ID!) { standing(${PERIOD_ARGS}, playerId: $playerId) { ...Window } }`,
  group: `query Friends(${PERIOD_VARS}, $ids: [ID!]!) { groupStandings(${PERIOD_ARGS}, playerIds: $ids) {
  groupRank
  standing { rank score total final player { id name } }
} }`,
};
// MAX_FRIENDS is the most ids groupStandings takes by default.
const MAX_FRIENDS = 1000;
const WINDOW_FRAGMENT = `
fragment Window on Standing {
  rank score subscore reachedAt total final
  player { id name }
  neighbours(above: 10, below: 10) { rank score subscore reachedAt player { id name } }
}`;

// What a board's periods are called, by its reset: the picker's label and the
// word in sentences.
const RESETS = {
  MONTH: { label: 'Month', noun: 'month' },
  WEEK: { label: 'Week', noun: 'week' },
  DAY: { label: 'Day', noun: 'day' },
  SEASON: { label: 'Season', noun: 'season' },
  NONE: { label: 'Period', noun: 'period' },
};

// ---- formatting (the viewer's locale, the board's time zone) ----

// Every time shows in the board's time zone, whose calendar its periods
// follow (a Tokyo day closes at a Tokyo midnight), and names it as the
// browser abbreviates it ("UTC", "GMT+9", "CET"): the period card's times in
// their own text, a table's times in their column's header; the period card
// also names the zone in full ("Asia/Tokyo"). A time's title adds the
// viewer's own clock when that differs. Each time comes in two forms, and a
// phone shows the compact one (see timeEl).
const numbers = new Intl.NumberFormat();

// zoneFormats holds the formats of times in each zone, by its IANA name.
const zoneFormats = new Map();

// formatsIn returns the formats of times in zone; a zone the browser does
// not know, or none, gives the viewer's.
function formatsIn(zone) {
  if (zoneFormats.has(zone)) return zoneFormats.get(zone);
  let timeZone = zone || undefined;
  try {
    new Intl.DateTimeFormat(undefined, { timeZone });
  } catch {
    timeZone = undefined;
  }
  const format = (options) => new Intl.DateTimeFormat(undefined, { ...options, timeZone });
  const formats = {
    zone: timeZone,
    full: format({ year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }),
    compact: format({ month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }),
    zoneName: format({ timeZoneName: 'short' }),
    // Table rows sit inside one period, so their times leave the year out.
    // The seconds stay where there is room, as they tell equal scores apart
    // (so does the order of the rows), with day and clock apart so that a
    // narrow column can put one above the other; on a phone a row stays one
    // line without them.
    day: format({ month: 'short', day: 'numeric' }),
    clock: format({ hour: 'numeric', minute: '2-digit', second: '2-digit' }),
    rowCompact: format({ month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }),
    title: format({ year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit', timeZoneName: 'short' }),
  };
  zoneFormats.set(zone, formats);
  return formats;
}

// times are the formats of the board shown.
function times() {
  return formatsIn(state.board?.timeZone ?? null);
}

// viewerTime is the instant at as the viewer's clock reads it, for a title,
// or null when the board's zone reads it the same.
function viewerTime(at) {
  const viewer = formatsIn(null).title.format(at);
  return viewer === times().title.format(at) ? null : viewer;
}

// formatScore writes a score of board: a plain number, or a duration in
// milliseconds as m:ss.mmm (59870 is 0:59.870).
function formatScore(board, n) {
  if (board?.scoreFormat !== 'DURATION_MS') return numbers.format(n);
  const ms = Math.abs(n);
  const seconds = String(Math.floor(ms / 1000) % 60).padStart(2, '0');
  return `${n < 0 ? '-' : ''}${Math.floor(ms / 60000)}:${seconds}.${String(ms % 1000).padStart(3, '0')}`;
}

// A period's key names a date of the board's calendar, not an instant: it is
// formatted as that date in UTC, whatever the viewer's zone.
const monthName = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });
const dayName = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const plural = new Intl.PluralRules('en');

function formatMonth(month) {
  const [year, mon] = month.split('-').map(Number);
  return monthName.format(new Date(Date.UTC(year, mon - 1, 1)));
}

// periodLabel names a period of board in words: "November 2026", "Week 48,
// 2026", "Wed, Nov 25, 2026", "All time", or a season's own key.
function periodLabel(board, key) {
  switch (board.reset) {
    case 'MONTH':
      if (MONTH_PATTERN.test(key)) return formatMonth(key);
      break;
    case 'WEEK': {
      const week = /^(\d{4})-W(\d{2})$/.exec(key);
      if (week) return `Week ${Number(week[2])}, ${week[1]}`;
      break;
    }
    case 'DAY': {
      const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(key);
      if (day) return dayName.format(new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]))));
      break;
    }
    case 'NONE':
      if (key === 'all') return 'All time';
      break;
    default:
  }
  return key;
}

// inPeriod is "in November 2026", or "on this board" for the one period of a
// board that never resets.
function inPeriod(board, key) {
  return board.reset === 'NONE' ? 'on this board' : `in ${periodLabel(board, key)}`;
}

// zoneOf is the abbreviation of the board's zone at the instant date: it
// changes with summer time.
function zoneOf(date) {
  return times().zoneName.formatToParts(date).find((part) => part.type === 'timeZoneName')?.value ?? '';
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

// hasTiebreak says whether board ranks equal scores by their subscore, and so
// whether the tables show it.
function hasTiebreak(board) {
  return board.tiebreak !== 'NONE';
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
  const viewer = viewerTime(at);
  return timeEl(iso, [times().full.format(at)], times().compact.format(at), { title: viewer && `Your time: ${viewer}`, ...attributes });
}

// reachedEl is a table's time. The column's header names zone; a time in
// another zone, across a change to or from summer time, names its own.
function reachedEl(iso, zone) {
  const at = new Date(iso);
  const own = zoneOf(at);
  const format = times();
  const viewer = viewerTime(at);
  const full = [el('span', { class: 'day' }, format.day.format(at)), ' ', el('span', { class: 'clock' }, format.clock.format(at))];
  return timeEl(iso, full, format.rowCompact.format(at), { title: format.title.format(at) + (viewer ? ` (your time: ${viewer})` : '') },
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

// setColumns labels the score column of every table for board (a time for
// a board of durations; an ASC board ranks the lowest first, and says so),
// and shows the tie-break column when the board breaks ties by subscore.
function setColumns(board) {
  const ascending = board.order === 'ASC';
  for (const head of document.querySelectorAll('thead .score-head')) {
    head.querySelector('.score-label').textContent = scoreLabel(board);
    head.querySelector('.order-hint').textContent = ascending ? 'lower is better' : '';
    head.title = ascending ? 'Lower is better: the lowest score ranks first' : '';
  }
  for (const head of document.querySelectorAll('thead .sub')) head.hidden = !hasTiebreak(board);
}

// scoreLabel names a score of board: a time when it is a duration.
function scoreLabel(board) {
  return board.scoreFormat === 'DURATION_MS' ? 'Time' : 'Score';
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

// rankRow is one table row of board; provisional marks a rank that can still
// change, current the row the panel is about, zone the one its time column's
// header names, subscore whether the board's tie-break column is shown.
function rankRow(board, entry, zone, { provisional = false, current = false, badge = null, subscore = false } = {}) {
  const rank = el('td', { class: 'num rank' }, numbers.format(entry.rank));
  if (provisional) rank.append(el('span', { class: 'provisional-mark', 'aria-hidden': 'true', title: 'Provisional' }, '*'));
  return el('tr', {
    'data-rank': entry.rank,
    'data-player': entry.player.id,
    'aria-current': current ? 'true' : null,
  },
  rank,
  playerCell(entry.player, current ? badge : null),
  el('td', { class: 'num score' }, formatScore(board, entry.score)),
  // Hidden rather than left out, so that a cell's index is its header's.
  el('td', { class: 'num sub', hidden: !subscore }, entry.subscore === null || entry.subscore === undefined ? '–' : numbers.format(entry.subscore)),
  el('td', { class: 'when' }, reachedEl(entry.reachedAt, zone)));
}

function provisionalNote(board) {
  return el('span', { class: 'caption-note' }, `* Provisional until the ${RESETS[board.reset]?.noun ?? 'period'} closes.`);
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
  boards: [], // the boards the picker lists: main first, then by name
  board: null, // the Board shown, with current and periods
  periods: [], // its Periods, newest first
  period: null, // the Period shown; null when the board has none to show
  token: takeToken(),
  authError: null, // the ApiError that refused the token
  after: null, // the cursor of the page shown (null: the first page)
  previous: [], // the cursors of the pages before it, a stack
  endCursor: null, // the cursor of the next page; null on the last
  tablePeriod: null, // "board/key" of the table on screen
  lookupId: null,
  friendIds: null, // the ids of the friends view, in the order pasted
};

const requests = { boards: slot(), periods: slot(), table: slot(), mine: slot(), lookup: slot(), friends: slot() };

// periodVars names the period shown to the reads: main's by its month, any
// other board's by its key.
function periodVars() {
  const { board, period } = state;
  return board.id === MAIN
    ? { board: MAIN, month: period.key, period: null }
    : { board: board.id, period: period.key, month: null };
}

// ---- boards ----

// loadBoards fills the board picker; it stays hidden while main is the only
// board (or the list fails to load: the page still shows the board chosen).
async function loadBoards() {
  const signal = requests.boards();
  try {
    const { boards } = await graphql(QUERIES.boards, { first: BOARDS_SHOWN }, { signal });
    if (signal.aborted) return;
    state.boards = boards.sort((a, b) => (b.id === MAIN) - (a.id === MAIN) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
    fillBoardSelect();
  } catch (err) {
    if (signal.aborted) return;
    announce(`Could not load the boards: ${err.message}`);
  }
}

function fillBoardSelect() {
  const boards = [...state.boards];
  if (state.board && !boards.some((b) => b.id === state.board.id)) boards.push(state.board);
  const select = $('board');
  select.replaceChildren(...boards.map((board) => el('option', { value: board.id }, board.name)));
  if (state.board) select.value = state.board.id;
  $('board-field').hidden = boards.length < 2;
}

$('board').addEventListener('change', (event) => {
  loadPeriods({ boardId: event.target.value });
});

// ---- periods ----

// optionText is short enough for a phone's select, which cannot wrap: the
// panel beside it says how many players took part and when the period ends
// and closes.
function optionText(board, info) {
  const state = { CLOSED: 'final', NOT_STARTED: 'upcoming' }[info.status] ?? 'live';
  return `${periodLabel(board, info.key)} · ${state}`;
}

// The countdown of the period shown: one ticking timer, and once the instant
// it counts to is due one pending reload, both stopped when the period panel
// is redrawn.
const countdown = { ticking: null, reload: null };

// DUE_RELOAD_MS is how often the page asks again whether a period past its
// close is closed yet (or one past its start open).
const DUE_RELOAD_MS = 60_000;

function stopCountdown() {
  clearInterval(countdown.ticking);
  clearTimeout(countdown.reload);
  countdown.ticking = null;
  countdown.reload = null;
}

// startCountdown ticks node down to the instant at each second. Once it is
// due, node says due and the page reloads the periods now and then, so that it
// turns to "final" (or "live") by itself when the close (or start) has come.
function startCountdown(node, at, due) {
  stopCountdown();
  const tick = () => {
    if (Date.now() < at) {
      node.textContent = countdownText(at);
      return;
    }
    clearInterval(countdown.ticking);
    countdown.ticking = null;
    node.textContent = due;
    countdown.reload = setTimeout(() => loadPeriods({ keep: true }), DUE_RELOAD_MS);
  };
  tick();
  if (Date.now() < at) countdown.ticking = setInterval(tick, 1000);
}

const fact = (label, ...value) => el('div', {}, el('dt', {}, label), el('dd', {}, ...value));

// statusBadge is the status of a period (or a board not started).
function statusBadge(kind, text) {
  return el('span', { class: `badge ${kind}`, 'data-testid': 'period-status' }, text);
}

// startFacts count down to start, with its date: a period or a board not
// started yet.
function startFacts(facts, start) {
  const left = el('span', { role: 'timer', 'data-testid': 'countdown' });
  facts.append(fact('Starts in', left), fact('Starts', dateTimeEl(start, { 'data-testid': 'starts-at' })));
  startCountdown(left, Date.parse(start), 'now: starting');
}

// orderNote says how board ranks, unless as main does: the highest score
// first, ties to who reached it first.
function orderNote(board) {
  const parts = [];
  if (board.order === 'ASC') parts.push(el('strong', {}, 'Lower is better:'), ' the lowest score ranks first.');
  if (hasTiebreak(board)) {
    parts.push(parts.length ? ' ' : null, `Equal scores: the ${board.tiebreak === 'SUBSCORE_ASC' ? 'lower' : 'higher'} tie-break first.`);
  }
  return parts.length === 0 ? null : el('p', { class: 'order-note', 'data-testid': 'order-note' }, ...parts);
}

function renderPeriodInfo(board, info) {
  const noun = RESETS[board.reset]?.noun ?? 'period';
  const status = {
    OPEN: ['live', 'Live', `Scores count until the ${noun} closes; ranks are provisional.`],
    CLOSING: ['live', 'Live · closing', 'The final standings are being built; ranks are provisional.'],
    CLOSED: ['final', 'Final', `The ${noun} is closed; these are the final standings.`],
    NOT_STARTED: ['upcoming', 'Not started', `The ${noun} has not started: scores count from its start.`],
  }[info.status] ?? ['live', info.status, ''];
  const facts = el('dl', { class: 'facts' }, fact('Status', statusBadge(status[0], status[1])));
  stopCountdown();
  if (info.status === 'NOT_STARTED') {
    startFacts(facts, info.startsAt);
    if (info.endsAt) facts.append(fact('Ends', dateTimeEl(info.endsAt)));
  } else if (isFinal(info)) {
    facts.append(fact('Participants', numbers.format(info.participants)));
    // A period closed before its end ended early: it ended when it closed.
    const closedEarly = info.closedAt && info.endsAt && new Date(info.closedAt) < new Date(info.endsAt);
    if (info.endsAt && !closedEarly) facts.append(fact('Ended', dateTimeEl(info.endsAt)));
    if (info.closedAt) facts.append(fact(closedEarly ? 'Closed early' : 'Closed', dateTimeEl(info.closedAt, { 'data-testid': 'closed-at' })));
  } else if (info.closesAt) {
    // A timer, not a live region: a screen reader reads it when asked, rather
    // than every second.
    const left = el('span', { role: 'timer', 'data-testid': 'countdown' });
    facts.append(fact('Participants', numbers.format(info.participants)),
      fact('Closes', dateTimeEl(info.closesAt, { 'data-testid': 'closes-at' })), fact('Closes in', left));
    startCountdown(left, Date.parse(info.closesAt), info.status === 'CLOSING' ? 'now: closing' : 'any moment');
  } else {
    facts.append(fact('Participants', numbers.format(info.participants)), fact('Closes', 'never: no end set'));
  }
  $('period-info').replaceChildren(...[facts, orderNote(board), el('p', { class: 'muted small period-note' }, status[2], ' ', zoneNote(board))].filter(Boolean));
}

// zoneNote names the board's time zone in full: the times on the page are
// in it.
function zoneNote(board) {
  return el('span', { class: 'zone-note' }, 'Times in ', el('span', { 'data-testid': 'time-zone' }, formatsIn(board.timeZone).zone ?? 'your time zone'), '.');
}

// renderBoardOnly shows a board that has no period to show: not started yet
// (when it starts, counting down), ended, or between seasons. It returns what
// the other panels say instead of standings, and what the status line says.
function renderBoardOnly(board) {
  const facts = el('dl', { class: 'facts' });
  stopCountdown();
  let message;
  let spoken = null;
  if (board.status === 'NOT_STARTED') {
    facts.append(fact('Status', statusBadge('upcoming', 'Not started')));
    startFacts(facts, board.startsAt);
    message = 'Nothing to show until the board starts.';
    spoken = `${board.name} starts ${times().full.format(new Date(board.startsAt))}.`;
  } else if (board.status === 'ENDED') {
    facts.append(fact('Status', statusBadge('final', 'Ended')));
    if (board.endsAt) facts.append(fact('Ended', dateTimeEl(board.endsAt)));
    message = 'The board ended without any scores.';
  } else {
    facts.append(fact('Status', statusBadge('upcoming', 'Between seasons')));
    message = 'No season yet: standings show once one starts.';
  }
  $('period-info').replaceChildren(...[facts, orderNote(board), el('p', { class: 'muted small period-note' }, zoneNote(board))].filter(Boolean));
  return [message, spoken ?? `${board.name}: ${message}`];
}

function fillPeriodSelect() {
  const { board } = state;
  const select = $('period');
  $('period-label').textContent = RESETS[board.reset]?.label ?? 'Period';
  select.replaceChildren(...state.periods.map((info) => el('option', { value: info.key }, optionText(board, info))));
  select.disabled = state.periods.length === 0;
  if (state.period) select.value = state.period.key;
}

// periodList is a board's periods, newest first, with the current one even
// before its first event.
function periodList(board) {
  const periods = [...board.periods];
  if (board.current && !periods.some((p) => p.key === board.current.key)) periods.push(board.current);
  return periods.sort((a, b) => b.startsAt.localeCompare(a.startsAt));
}

// defaultPeriod is the period a board opens on: the current one, else the
// newest that has started.
function defaultPeriod(board, periods) {
  return periods.find((p) => p.key === board.current?.key)
    ?? periods.find((p) => p.status !== 'NOT_STARTED') ?? periods[0] ?? null;
}

// wantedFromAddress is the board and period the address names: ?board= and
// ?period=, or on main ?month= as well.
function wantedFromAddress() {
  const params = new URLSearchParams(location.search);
  const boardId = params.get('board') || MAIN;
  const key = params.get('period') || (boardId === MAIN ? params.get('month') : null) || null;
  return { boardId, key };
}

// findPeriod looks up the period key of board that the list of its newest
// lacks, and returns it with a note when there is none to show.
async function findPeriod(board, key, signal) {
  const main = board.id === MAIN;
  if (main && !MONTH_PATTERN.test(key)) {
    return { note: `“${key}” is not a month (YYYY-MM); showing the newest month instead.` };
  }
  const label = periodLabel(board, key);
  try {
    const { period } = await graphql(QUERIES.period, { board: board.id, key }, { signal });
    if (period) return { period };
    return { note: main ? `No scores were sent in ${label}; showing the newest month instead.` : `${board.name} has no period ${label}; showing another instead.` };
  } catch (err) {
    if (signal.aborted) throw err;
    return { note: `Could not show ${key}: ${err.message}. Showing ${main ? 'the newest month' : 'another period'} instead.` };
  }
}

// loadPeriods reads a board with its periods and shows one: with keep the
// board and period shown (on refresh), with boardId that board's default
// period (picked in the board picker), else what the address names (on
// start). An unknown board in the address falls back to main.
async function loadPeriods({ keep = false, boardId = null } = {}) {
  const signal = requests.periods();
  const panel = $('period-panel');
  panel.setAttribute('aria-busy', 'true');
  if (!keep) $('period-info').replaceChildren(loadingEl());
  const wanted = keep ? { boardId: state.board.id, key: state.period?.key ?? null }
    : boardId ? { boardId, key: null } : wantedFromAddress();
  let note = '';
  try {
    let board;
    try {
      board = (await graphql(QUERIES.board, { id: wanted.boardId, first: PERIODS_SHOWN }, { signal })).board;
    } catch (err) {
      if (signal.aborted || wanted.boardId === MAIN || !(err.has('NOT_FOUND') || err.has('BAD_USER_INPUT'))) throw err;
      note = `There is no board “${wanted.boardId}”; showing the monthly event instead.`;
      wanted.key = null;
      board = (await graphql(QUERIES.board, { id: MAIN, first: PERIODS_SHOWN }, { signal })).board;
    }
    if (signal.aborted) return;
    let periods = periodList(board);
    if (wanted.key && !periods.some((p) => p.key === wanted.key)) {
      const found = await findPeriod(board, wanted.key, signal);
      if (signal.aborted) return;
      note = found.note ?? note;
      if (found.period) periods = [...periods, found.period].sort((a, b) => b.startsAt.localeCompare(a.startsAt));
    }
    const chosen = periods.find((p) => p.key === wanted.key) ?? defaultPeriod(board, periods);
    const samePeriod = keep && chosen && state.tablePeriod === `${board.id}/${chosen.key}`;
    state.board = board;
    state.periods = periods;
    state.period = chosen;
    panel.removeAttribute('aria-busy');
    showBoardName(board);
    fillBoardSelect();
    setColumns(board);
    $('refresh').disabled = false;
    if (!chosen) {
      stopCountdown();
      fillPeriodSelect();
      $('period').replaceChildren(el('option', {}, board.status === 'NOT_STARTED' ? 'Not started yet' : 'None yet'));
      const [message, spoken] = board.id === MAIN ? [null, null] : renderBoardOnly(board);
      if (message === null) {
        $('period-info').replaceChildren(noteEl('No months yet. A month opens with its first score: as soon as a game sends one, the month and its standings appear here.'));
      }
      if (note) $('period-info').append(el('p', { class: 'notice' }, note));
      writeAddress();
      showNoPeriod(message ?? 'Nothing to show until a month has scores.');
      announce(spoken ?? 'No months yet.');
      return;
    }
    fillPeriodSelect();
    renderPeriodInfo(board, chosen);
    if (note) $('period-info').append(el('p', { class: 'notice' }, note));
    $('lookup').querySelector('button[type=submit]').disabled = false;
    $('friends').querySelector('button[type=submit]').disabled = false;
    showPeriod({ resetPage: !samePeriod });
  } catch (err) {
    if (signal.aborted) return;
    panel.removeAttribute('aria-busy');
    $('period-info').replaceChildren(errorEl('Could not load the periods.', err, () => loadPeriods({ keep, boardId })));
    if (!keep) {
      stopCountdown();
      $('period').replaceChildren(el('option', {}, 'Unavailable'));
      $('period').disabled = true;
      showNoPeriod('The standings load once the periods do.');
    }
    $('refresh').disabled = false;
    announce(`Could not load the periods: ${err.message}`);
  }
}

// showBoardName puts the board's name over the page and in its title.
function showBoardName(board) {
  $('board-name').textContent = board.name;
  document.title = `${board.name} leaderboard`;
}

// writeAddress puts the board and period shown in the address, so that it
// can be bookmarked and shared: main's as ?month=, as it always was.
function writeAddress() {
  const url = new URL(location.href);
  for (const name of ['board', 'period', 'month']) url.searchParams.delete(name);
  const key = state.period?.key;
  if (state.board.id === MAIN) {
    if (key) url.searchParams.set('month', key);
  } else {
    url.searchParams.set('board', state.board.id);
    if (key) url.searchParams.set('period', key);
  }
  history.replaceState(history.state, '', url.pathname + url.search + url.hash);
}

// showNoPeriod empties the panels that need a period, saying why with message.
function showNoPeriod(message) {
  state.period = null;
  requests.table();
  requests.mine();
  requests.lookup();
  requests.friends();
  for (const id of ['top', 'my-rank', 'lookup-panel', 'friends-panel']) $(id).removeAttribute('aria-busy');
  state.tablePeriod = null;
  $('top-state').replaceChildren(noteEl(message));
  $('top-table').hidden = true;
  $('top-total').textContent = '';
  $('page-info').textContent = '';
  $('prev-page').disabled = true;
  $('next-page').disabled = true;
  $('lookup').querySelector('button[type=submit]').disabled = true;
  clearWindow(views.lookup);
  $('lookup-state').replaceChildren();
  $('friends').querySelector('button[type=submit]').disabled = true;
  clearFriends();
  $('friends-state').replaceChildren();
  renderMyRankIdle(noteEl(message));
}

// showPeriod (re)loads every panel for state.period.
function showPeriod({ resetPage = true } = {}) {
  if (resetPage) {
    state.after = null;
    state.previous = [];
  }
  writeAddress();
  loadTable();
  loadMyRank();
  if (state.lookupId) loadLookup();
  if (state.friendIds) loadFriends();
}

$('period').addEventListener('change', (event) => {
  const info = state.periods.find((p) => p.key === event.target.value);
  if (!info) return;
  state.period = info;
  renderPeriodInfo(state.board, info);
  showPeriod();
});

$('refresh').addEventListener('click', () => {
  loadBoards();
  if (state.board) loadPeriods({ keep: true });
  else loadPeriods();
});

// ---- the top of the table ----

// loadBoard shows the page that starts after the cursor page.after, with
// page.previous the cursors of the pages before it. The page becomes the
// current one only once it has loaded: a failed page turn leaves the table and
// the pager as they were, and "Try again" retries the same turn.
async function loadTable(page = { after: state.after, previous: state.previous }) {
  const signal = requests.table();
  const { board, period: info } = state;
  const section = $('top');
  section.setAttribute('aria-busy', 'true');
  $('top-state').replaceChildren(loadingEl());
  try {
    const { leaderboard } = await graphql(QUERIES.leaderboard,
      { ...periodVars(), first: PAGE_SIZE, after: page.after }, { signal });
    if (signal.aborted) return;
    state.after = page.after;
    state.previous = page.previous;
    renderTable(board, info, leaderboard);
  } catch (err) {
    if (signal.aborted) return;
    $('top-state').replaceChildren(errorEl('Could not load the leaderboard.', err, () => loadTable(page)));
    if (state.tablePeriod !== `${board.id}/${info.key}`) {
      // The table on screen is another period's: take it away with its pager.
      state.tablePeriod = null;
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

function renderTable(board, info, table) {
  const provisional = !isFinal(info);
  const edges = table.edges;
  const label = periodLabel(board, info.key);
  state.tablePeriod = `${board.id}/${info.key}`;
  $('top-total').textContent = countOf(table.total, 'player', 'players');
  const caption = $('leaderboard-caption');
  caption.replaceChildren(`${label}, ${provisional ? 'live ranks' : 'final ranks'}`);
  if (provisional) caption.append(provisionalNote(board));
  const zone = tableZone($('leaderboard'), edges.map((edge) => edge.node));
  const subscore = hasTiebreak(board);
  $('leaderboard').querySelector('tbody').replaceChildren(...edges.map((edge) => rankRow(board, edge.node, zone, { provisional, subscore })));
  $('top-table').hidden = edges.length === 0;

  const page = state.previous.length + 1;
  const pages = Math.max(1, Math.ceil(table.total / PAGE_SIZE));
  if (edges.length === 0) {
    $('top-state').replaceChildren(noteEl(table.total === 0
      ? emptyText(board, info)
      : 'No players on this page.'));
    $('page-info').textContent = '';
  } else {
    $('top-state').replaceChildren();
    const first = edges[0].node.rank;
    const last = edges[edges.length - 1].node.rank;
    $('page-info').textContent = `Page ${numbers.format(page)} of ${numbers.format(pages)}`;
    announce(`Showing ranks ${numbers.format(first)}–${numbers.format(last)} of ${numbers.format(table.total)} ${inPeriod(board, info.key)}.`);
  }
  state.endCursor = table.pageInfo.hasNextPage ? table.pageInfo.endCursor : null;
  $('prev-page').disabled = state.previous.length === 0;
  $('next-page').disabled = state.endCursor === null;
}

// emptyText says why a period has no standings.
function emptyText(board, info) {
  const noun = RESETS[board.reset]?.noun ?? 'period';
  if (info.status === 'NOT_STARTED') return `The ${noun} starts ${times().full.format(new Date(info.startsAt))}: no scores until then.`;
  return `No player has a score in this ${noun}${info.status === 'CLOSED' ? '' : ' yet'}.`;
}

function tableBusy() {
  return $('top').getAttribute('aria-busy') === 'true';
}

// turnPage loads the page and, when the button pressed is now disabled (the
// first or the last page), moves focus to the other one rather than losing it.
async function turnPage(page, pressed, other) {
  await loadTable(page);
  if (pressed.disabled && !other.disabled && document.activeElement !== other) other.focus();
}

$('next-page').addEventListener('click', () => {
  if (tableBusy() || !state.endCursor) return;
  turnPage({ after: state.endCursor, previous: [...state.previous, state.after] }, $('next-page'), $('prev-page'));
});

$('prev-page').addEventListener('click', () => {
  if (tableBusy() || state.previous.length === 0) return;
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
  const { board } = state;
  const provisional = !standing.final;
  const subscore = hasTiebreak(board);
  const stat = (label, value, extra) => el('div', { class: 'stat' },
    el('dt', {}, label), el('dd', {}, value, extra ?? null));
  view.summary.replaceChildren(
    stat('Rank', numbers.format(standing.rank), provisional ? el('span', { class: 'badge live' }, 'provisional') : el('span', { class: 'badge final' }, 'final')),
    stat(scoreLabel(board), formatScore(board, standing.score),
      subscore && standing.subscore !== null && standing.subscore !== undefined
        ? el('span', { class: 'stat-note' }, `tie-break ${numbers.format(standing.subscore)}`) : null),
    stat('Players', numbers.format(standing.total)));
  view.summary.hidden = false;

  const self = { rank: standing.rank, score: standing.score, subscore: standing.subscore, reachedAt: standing.reachedAt, player: standing.player };
  const rows = [...standing.neighbours.filter((n) => n.rank !== standing.rank), self].sort((a, b) => a.rank - b.rank);
  const zone = tableZone(view.table, rows);
  view.body.replaceChildren(...rows.map((entry) => rankRow(board, entry, zone, { provisional, current: entry === self, badge, subscore })));
  view.caption.replaceChildren(captionText);
  if (provisional) view.caption.append(provisionalNote(board));
  view.wrap.hidden = false;
}

function renderMyRankIdle(...children) {
  $('my-rank').removeAttribute('aria-busy');
  clearWindow(views.mine);
  views.mine.state.replaceChildren(...children);
  $('my-rank-who').textContent = '';
}

// onDevelopersMachine says whether the page was opened on the machine that
// runs the service (localhost, as under `make run` or compose): players reach
// it from the game at the service's public address, and are not shown how to
// make a token.
const onDevelopersMachine = ['localhost', '127.0.0.1', '[::1]'].includes(location.hostname) || location.hostname.endsWith('.localhost');

function howToSignIn() {
  return el('div', { class: 'how-to', 'data-testid': 'how-to-sign-in' },
    noteEl('Open this page from the game to see your rank and the players around you.'),
    onDevelopersMachine ? el('p', { class: 'hint', 'data-testid': 'developer-hint' }, 'Developers: the game passes a player token as ',
      el('code', {}, '/#token=…'), '; ', el('code', {}, 'leaderboard player-token PLAYER_ID'), ' prints one to try it with.') : null);
}

// placeMyRank puts My rank before the top of the table for a signed-in
// player, whose own row is what they came for, and after it for anyone
// else, so that on a phone the table starts on the first screen. The
// document order moves, not only the picture, so that keyboard and screen
// reader follow the same order.
function placeMyRank(signedIn) {
  if (signedIn) $('status').before($('my-rank'));
  else $('top').after($('my-rank'));
}

async function loadMyRank() {
  const view = views.mine;
  const signal = requests.mine();
  if (state.authError) {
    placeMyRank(true);
    renderMyRankIdle(errorEl('Your player token was refused.', state.authError), noteEl('Reopen the leaderboard from the game to sign in again.'));
    return;
  }
  if (!state.token) {
    placeMyRank(false);
    renderMyRankIdle(howToSignIn());
    return;
  }
  placeMyRank(true);
  const { board, period: info } = state;
  const section = $('my-rank');
  section.setAttribute('aria-busy', 'true');
  view.state.replaceChildren(loadingEl());
  try {
    const { myRank } = await graphql(QUERIES.myRank + WINDOW_FRAGMENT, periodVars(), { token: state.token, signal });
    if (signal.aborted) return;
    if (myRank === null) {
      const who = tokenSubject(state.token);
      renderMyRankIdle(noteEl(`${who ? `Player ${who} has` : 'You have'} no score ${inPeriod(board, info.key)}.`));
      if (who) $('my-rank-who').textContent = who;
      return;
    }
    view.state.replaceChildren();
    $('my-rank-who').textContent = myRank.player.name ? `${myRank.player.name} (${myRank.player.id})` : myRank.player.id;
    renderWindow(view, myRank, {
      captionText: `Players around you ${inPeriod(board, info.key)}`,
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
  if (state.period) loadMyRank();
});

async function loadLookup() {
  const view = views.lookup;
  const signal = requests.lookup();
  const { board, period: info } = state;
  const playerId = state.lookupId;
  const section = $('lookup-panel');
  section.setAttribute('aria-busy', 'true');
  view.state.replaceChildren(loadingEl());
  try {
    const { standing } = await graphql(QUERIES.standing + WINDOW_FRAGMENT, { ...periodVars(), playerId }, { signal });
    if (signal.aborted) return;
    if (standing === null) {
      clearWindow(view);
      view.state.replaceChildren(noteEl(`${playerId} has no score ${inPeriod(board, info.key)}.`));
      announce(`${playerId} has no score ${inPeriod(board, info.key)}.`);
      return;
    }
    view.state.replaceChildren();
    const name = standing.player.name || standing.player.id;
    renderWindow(view, standing, {
      captionText: `Players around ${name} ${inPeriod(board, info.key)}`,
      badge: null,
    });
    announce(`${name} is ranked ${numbers.format(standing.rank)} of ${numbers.format(standing.total)} ${inPeriod(board, info.key)}.`);
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
  if (!state.period) return;
  state.lookupId = playerId;
  loadLookup();
});

// ---- friends: a group ranked among itself ----

// parseIds splits pasted text into ids at commas, spaces and new lines,
// each id once, in the order first pasted.
function parseIds(text) {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))];
}

function clearFriends() {
  $('friends-table').hidden = true;
  $('friends-result').querySelector('tbody').replaceChildren();
  $('friends-caption').replaceChildren();
}

// friendRow is one friend: rank among the group, rank on the board, player
// and score.
function friendRow(board, entry) {
  const { standing } = entry;
  const rank = el('td', { class: 'num rank' }, numbers.format(standing.rank));
  if (!standing.final) rank.append(el('span', { class: 'provisional-mark', 'aria-hidden': 'true', title: 'Provisional' }, '*'));
  return el('tr', { 'data-group-rank': entry.groupRank, 'data-rank': standing.rank, 'data-player': standing.player.id },
    el('td', { class: 'num group-rank' }, numbers.format(entry.groupRank)),
    rank,
    playerCell(standing.player, null),
    el('td', { class: 'num score' }, formatScore(board, standing.score)));
}

async function loadFriends() {
  const signal = requests.friends();
  const { board, period: info } = state;
  const ids = state.friendIds;
  const section = $('friends-panel');
  section.setAttribute('aria-busy', 'true');
  $('friends-state').replaceChildren(loadingEl());
  try {
    const { groupStandings: group } = await graphql(QUERIES.group, { ...periodVars(), ids }, { signal });
    if (signal.aborted) return;
    if (group.length === 0) {
      // Said in a sentence of its own, not as a list of ids without a
      // score that reads like the start of an answer still to come.
      const none = ids.length === 1 ? `This player has no score ${inPeriod(board, info.key)}.`
        : `None of these ${numbers.format(ids.length)} players has a score ${inPeriod(board, info.key)}.`;
      clearFriends();
      $('friends-state').replaceChildren(el('p', { class: 'note empty', 'data-testid': 'friends-none' }, none),
        noteEl('Asked for: ', el('span', { class: 'missing-ids' }, ids.join(', ')), '.'));
      announce(none);
      return;
    }
    const ranked = new Set(group.map((g) => g.standing.player.id));
    const missing = ids.filter((id) => !ranked.has(id));
    $('friends-state').replaceChildren(...(missing.length === 0 ? []
      : [noteEl(`No score ${inPeriod(board, info.key)}: `, el('span', { class: 'missing-ids' }, missing.join(', ')), '.')]));
    const caption = [`${countOf(group.length, 'friend', 'friends')} ranked ${inPeriod(board, info.key)}`];
    if (!group[0].standing.final) caption.push(' ', provisionalNote(board));
    $('friends-caption').replaceChildren(...caption);
    $('friends-result').querySelector('tbody').replaceChildren(...group.map((g) => friendRow(board, g)));
    $('friends-table').hidden = false;
    const best = group[0].standing;
    announce(`${countOf(group.length, 'friend', 'friends')} ranked; the best, ${best.player.name || best.player.id}, is ${numbers.format(best.rank)} of ${numbers.format(best.total)}.`);
  } catch (err) {
    if (signal.aborted) return;
    clearFriends();
    const retry = err.has('BAD_USER_INPUT') ? null : loadFriends;
    $('friends-state').replaceChildren(errorEl('Could not rank these players.', err, retry));
    announce(`Could not rank these players: ${err.message}`);
  } finally {
    if (!signal.aborted) section.removeAttribute('aria-busy');
  }
}

$('friends').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $('friend-ids');
  const ids = parseIds(input.value);
  let problem = null;
  if (ids.length === 0) problem = 'Paste at least one player id.';
  else if (ids.length > MAX_FRIENDS) problem = `That is ${numbers.format(ids.length)} ids: at most ${numbers.format(MAX_FRIENDS)} are ranked at once.`;
  if (problem) {
    requests.friends();
    state.friendIds = null;
    $('friends-panel').removeAttribute('aria-busy');
    input.setAttribute('aria-invalid', 'true');
    clearFriends();
    $('friends-state').replaceChildren(noteEl(problem));
    input.focus();
    return;
  }
  input.removeAttribute('aria-invalid');
  if (!state.period) return;
  state.friendIds = ids;
  loadFriends();
});

// ---- start ----

$('lookup').querySelector('button[type=submit]').disabled = true;
$('friends').querySelector('button[type=submit]').disabled = true;
placeMyRank(state.token !== null);
loadBoards();
loadPeriods();
