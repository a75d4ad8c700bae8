// Troupe web console. Plain JavaScript, no build step, no request outside this origin.
// Reads the JSON API under /console/api and its event stream; see README "Web console".
'use strict';

(function () {
  const API = '/console/api/';
  const MAX_ACTOR_ROWS = 500;       // rows rendered at most; the count says how many match
  const LOG_LINES = 200;
  const ARM_MILLIS = 4000;          // a destructive button asks for a second click within this time

  const state = {
    view: 'overview',
    update: null,                   // the last update event
    points: [],                     // chart points, oldest first
    deadLettersLatest: -1,
    logTimer: null,
    events: null,
  };

  const $ = (id) => document.getElementById(id);

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    if (attrs) {
      for (const [key, value] of Object.entries(attrs)) {
        if (value === undefined || value === null) continue;
        if (key === 'class') node.className = value;
        else if (key === 'text') node.textContent = value;
        else if (key.startsWith('data-')) node.setAttribute(key, value);
        else node[key] = value;
      }
    }
    for (const child of children) {
      if (child !== null && child !== undefined) node.append(child);
    }
    return node;
  }

  // Sets text only when it changed, so that unchanged cells cost no layout.
  function setText(node, text) {
    const value = String(text);
    if (node.textContent !== value) node.textContent = value;
  }

  function fmt(n, digits) {
    if (n === null || n === undefined || Number.isNaN(n)) return '–';
    return Number(n).toLocaleString('en-US', { maximumFractionDigits: digits === undefined ? 0 : digits });
  }

  function ms(seconds) {
    return seconds === null || seconds === undefined ? '–' : fmt(seconds * 1000, seconds < 0.01 ? 3 : 1);
  }

  function pct(ratio) {
    return ratio === null || ratio === undefined ? '–' : fmt(ratio * 100, 1) + ' %';
  }

  function duration(seconds) {
    const d = Math.floor(seconds / 86400), h = Math.floor(seconds % 86400 / 3600);
    const m = Math.floor(seconds % 3600 / 60), s = seconds % 60;
    return (d ? d + 'd ' : '') + (d || h ? h + 'h ' : '') + (d || h || m ? m + 'm ' : '') + s + 's';
  }

  function time(iso) {
    const date = new Date(iso);
    return date.toLocaleTimeString('en-GB', { hour12: false }) + '.' + String(date.getMilliseconds()).padStart(3, '0');
  }

  // ---- API ------------------------------------------------------------------------------------------------

  async function get(path) {
    const response = await fetch(API + path, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    if (response.status === 401) {
      showLogin();
      throw new Error('unauthorized');
    }
    const body = await response.json();
    if (!response.ok) throw new Error(body.message || response.statusText);
    return body;
  }

  async function post(path) {
    const response = await fetch(API + path, {
      method: 'POST', credentials: 'same-origin',
      headers: { Accept: 'application/json', 'X-Troupe-Console': '1' },
    });
    let body = {};
    try { body = await response.json(); } catch (e) { body = { message: response.statusText }; }
    if (response.status === 401) showLogin();
    if (!response.ok) throw new Error(body.message || ('HTTP ' + response.status));
    return body;
  }

  function notice(text, isError) {
    const box = $('notice');
    box.textContent = text;
    box.classList.toggle('error', Boolean(isError));
    box.hidden = false;
  }

  // A button that acts on the second click within ARM_MILLIS.
  function actionButton(label, confirmLabel, attrs, run) {
    const button = el('button', Object.assign({ class: 'act', type: 'button', text: label }, attrs));
    let armedUntil = 0;
    button.addEventListener('click', async () => {
      const now = Date.now();
      if (now > armedUntil) {
        armedUntil = now + ARM_MILLIS;
        button.textContent = confirmLabel;
        button.classList.add('armed');
        setTimeout(() => {
          if (Date.now() >= armedUntil) {
            button.textContent = label;
            button.classList.remove('armed');
          }
        }, ARM_MILLIS);
        return;
      }
      armedUntil = 0;
      button.disabled = true;
      try {
        const answer = await run();
        notice(answer.message || 'done');
      } catch (e) {
        notice(e.message, true);
      } finally {
        button.disabled = false;
        button.textContent = label;
        button.classList.remove('armed');
      }
    });
    return button;
  }

  // ---- login ----------------------------------------------------------------------------------------------

  async function signOut() {
    try {
      await fetch('/console/logout', { method: 'POST', credentials: 'same-origin',
        headers: { 'X-Troupe-Console': '1', Accept: 'application/json' } });
    } finally {
      showLogin();
    }
  }

  function showLogin() {
    if (state.events) {
      state.events.close();
      state.events = null;
    }
    $('app').hidden = true;
    $('sign-out').hidden = true;
    setText($('node'), '');
    setText($('summary'), '');
    $('login').hidden = false;
    setLive('off', 'signed out');
  }

  async function login(event) {
    event.preventDefault();
    const error = $('login-error');
    error.hidden = true;
    const body = new URLSearchParams({ token: $('token').value.trim() });
    try {
      const response = await fetch('/console/login', {
        method: 'POST', credentials: 'same-origin', body,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      });
      if (!response.ok) {
        let message = 'the token was refused';
        try { message = (await response.json()).message || message; } catch (e) { /* keep the default */ }
        throw new Error(message);
      }
      $('token').value = '';
      $('login').hidden = true;
      start();
    } catch (e) {
      error.textContent = e.message;
      error.hidden = false;
    }
  }

  // ---- live updates ---------------------------------------------------------------------------------------

  function setLive(kind, text) {
    const live = $('live');
    live.className = 'live ' + kind;
    live.textContent = text;
  }

  async function start() {
    let overview;
    try {
      overview = await get('overview');
    } catch (e) {
      return; // showLogin() ran, or the server is down: the login form or the error shows
    }
    $('app').hidden = false;
    $('sign-out').hidden = false;
    $('login').hidden = true;
    renderHeader(overview);
    renderOverview(overview);
    try {
      state.points = (await get('history')).points;
      drawCharts();
    } catch (e) {
      notice('history: ' + e.message, true);
    }
    connect();
    showView(state.view);
  }

  function connect() {
    if (state.events) state.events.close();
    const events = new EventSource(API + 'events');
    state.events = events;
    events.addEventListener('open', () => setLive('on', 'live'));
    events.addEventListener('error', () => {
      setLive('off', 'reconnecting');
      // a 401 ends the stream for good: find out whether the session is gone
      if (events.readyState === EventSource.CLOSED) {
        get('overview').then(() => setTimeout(connect, 2000)).catch(() => {});
      }
    });
    events.addEventListener('update', (message) => {
      const update = JSON.parse(message.data);
      state.update = update;
      if (update.point) {
        state.points.push(update.point);
        if (state.points.length > 600) state.points.splice(0, state.points.length - 600);
      }
      render();
    });
  }

  function render() {
    const update = state.update;
    if (!update) return;
    renderHeader(update.overview);
    switch (state.view) {
      case 'overview': renderOverview(update.overview); drawCharts(); break;
      case 'actors': onActors(update.actors); break;
      case 'plugins': renderPlugins(update.plugins); break;
      case 'tenants': renderTenants(update.tenants); break;
      case 'deadletters':
        if (update.deadLetters.latest !== state.deadLettersLatest) loadDeadLetters();
        break;
      default: break;
    }
  }

  // ---- views ----------------------------------------------------------------------------------------------

  function showView(view) {
    state.view = view;
    for (const button of document.querySelectorAll('#tabs button')) {
      button.classList.toggle('active', button.dataset.view === view);
    }
    for (const section of document.querySelectorAll('.view')) {
      section.hidden = section.id !== 'view-' + view;
    }
    clearInterval(state.logTimer);
    state.logTimer = null;
    if (view === 'actors' && !state.update) loadActors();
    if (view === 'deadletters') loadDeadLetters();
    if (view === 'log') {
      loadLog();
      state.logTimer = setInterval(loadLog, 2000);
    }
    render();
  }

  function renderHeader(overview) {
    const node = overview.node;
    setText($('node'), node.host + (node.server ? ' · ' + node.server : '') + (node.cluster ? ' · cluster '
        + node.cluster : '') + ' · Troupe ' + node.version);
    setText($('summary'), 'up ' + duration(overview.uptimeSeconds) + ' · ' + fmt(overview.actors) + ' actors · '
        + fmt(overview.mailboxBacklog) + ' queued · ' + fmt(overview.deadLetters) + ' dead letters');
  }

  function renderOverview(overview) {
    const cards = [
      ['Actors', fmt(overview.actors)],
      ['Mailbox backlog', fmt(overview.mailboxBacklog)],
      ['Dead letters', fmt(overview.deadLetters)],
      ['Workers busy', pct(overview.workers.busyRatio)],
      ['IO loops busy', pct(overview.ioLoops.busyRatio)],
      ['Stalls', fmt(overview.stalls)],
      ['Logger queue', fmt(overview.logger.queueBytes / 1024, 1) + ' KiB'],
      ['Log records dropped', fmt(overview.logger.recordsDropped)],
      ['Plugin swaps', fmt(overview.plugins.swaps)],
      ['Rollbacks', fmt(overview.plugins.rollbacks)],
    ];
    const box = $('cards');
    if (box.children.length !== cards.length) {
      box.replaceChildren(...cards.map(([label]) => el('div', { class: 'card', 'data-card': label },
        el('div', { class: 'label', text: label }), el('div', { class: 'value' }))));
    }
    cards.forEach(([, value], i) => setText(box.children[i].lastChild, value));
    const workers = overview.workers;
    setText($('workers-summary'), workers.current + ' of ' + workers.min + '–' + workers.max + ' · ' + workers.busy
        + ' busy · ' + workers.queued + ' runnable waiting');
    renderBars($('workers'), workers.threads);
    setText($('loops-summary'), overview.ioLoops.threads.length + ' threads');
    renderBars($('loops'), overview.ioLoops.threads);
  }

  function renderBars(table, threads) {
    const body = table.tBodies[0];
    while (body.rows.length > threads.length) body.deleteRow(-1);
    threads.forEach((thread, i) => {
      let row = body.rows[i];
      if (!row) {
        row = body.insertRow();
        row.append(el('td'), el('td', null, el('div', { class: 'bar' }, el('span'))), el('td', { class: 'n' }));
      }
      setText(row.cells[0], thread.name);
      const bar = row.cells[1].firstChild;
      bar.classList.toggle('stalled', thread.stalled);
      bar.firstChild.style.width = Math.round(Math.min(1, Math.max(0, thread.busyRatio || 0)) * 100) + '%';
      setText(row.cells[2], pct(thread.busyRatio));
    });
  }

  // Actors: an event carries the first 1000; with more, the whole list is fetched (at most every 5 s).
  let fullActors = null;
  let actorsFetchedAt = 0;

  function onActors(actors) {
    if (!actors.truncated) {
      fullActors = null;
      renderActors(actors);
    } else if (Date.now() - actorsFetchedAt > 5000) {
      loadActors();
    }
  }

  async function loadActors() {
    actorsFetchedAt = Date.now();
    try {
      fullActors = await get('actors');
      renderActors(fullActors);
    } catch (e) {
      notice('actors: ' + e.message, true);
    }
  }

  function renderActors(actors) {
    const filter = $('actor-filter').value.trim().toLowerCase();
    const matching = filter ? actors.actors.filter((a) => (a.name + ' ' + a.tenant + ' ' + a.origin + ' '
        + (a.plugin ? a.plugin.symbolicName : '')).toLowerCase().includes(filter)) : actors.actors;
    const shown = matching.slice(0, MAX_ACTOR_ROWS);
    setText($('actor-count'), shown.length < matching.length || actors.truncated
        ? 'showing ' + shown.length + ' of ' + (filter ? matching.length + ' matching, ' : '') + actors.total
        : matching.length + ' actors');
    const body = $('actors').tBodies[0];
    const existing = new Map();
    for (const row of Array.from(body.rows)) existing.set(row.dataset.actorId, row);
    let previous = null;
    for (const actor of shown) {
      const id = String(actor.id);
      let row = existing.get(id);
      if (row) {
        existing.delete(id);
      } else {
        row = actorRow(actor);
      }
      fillActor(row, actor);
      const expected = previous ? previous.nextSibling : body.firstChild;
      if (expected !== row) body.insertBefore(row, expected);
      previous = row;
    }
    for (const row of existing.values()) row.remove();
  }

  function actorRow(actor) {
    const row = el('tr', { 'data-actor-id': String(actor.id) });
    for (let i = 0; i < 8; i++) row.append(el('td'));
    row.cells[1].className = 'name';
    for (const i of [5, 6, 7]) row.cells[i].className = 'n';
    row.append(el('td', null, actionButton('Stop', 'Stop it?', null,
      () => post('actors/' + actor.id + '/stop'))));
    return row;
  }

  function fillActor(row, actor) {
    const cells = row.cells;
    setText(cells[0], actor.id);
    setText(cells[1], '  '.repeat(actor.depth) + actor.name);
    setText(cells[2], actor.tenant || '–');
    setText(cells[3], actor.origin);
    const plugin = actor.plugin;
    setText(cells[4], plugin ? plugin.symbolicName + ' ' + plugin.version + ' (rev ' + plugin.revision + ')' : '–');
    cells[4].className = 'plugin';
    setText(cells[5], fmt(actor.mailboxDepth));
    setText(cells[6], fmt(actor.processed));
    setText(cells[7], fmt(actor.failures));
  }

  function renderPlugins(plugins) {
    setText($('plugins-folder'), plugins.folder ? 'Deploy folder: ' + plugins.folder : 'No deploy folder');
    const body = $('plugins').tBodies[0];
    const existing = new Map();
    for (const row of Array.from(body.rows)) existing.set(row.dataset.pluginFile + '#' + row.dataset.bundleId, row);
    let previous = null;
    for (const plugin of plugins.plugins) {
      const key = plugin.file + '#' + plugin.bundleId;
      let row = existing.get(key);
      if (row) {
        existing.delete(key);
      } else {
        row = pluginRow(plugin);
      }
      fillPlugin(row, plugin);
      const expected = previous ? previous.nextSibling : body.firstChild;
      if (expected !== row) body.insertBefore(row, expected);
      previous = row;
    }
    for (const row of existing.values()) row.remove();
    renderHistory(plugins.history);
  }

  function pluginRow(plugin) {
    const row = el('tr', { 'data-plugin-file': plugin.file, 'data-bundle-id': String(plugin.bundleId) });
    const classes = ['file', 'bundle', 'version', 'revision n', 'state', 'provides', 'outcome'];
    for (const name of classes) row.append(el('td', { class: name }));
    const rollback = actionButton('Roll back', 'Roll back?', { 'data-action': 'rollback' },
      () => post('plugins/' + encodeURIComponent(plugin.file) + '/rollback'));
    const undeploy = actionButton('Undeploy', 'Undeploy?', { 'data-action': 'undeploy' },
      () => post('plugins/' + encodeURIComponent(plugin.file) + '/undeploy'));
    row.append(el('td', { class: 'actions' }, rollback, ' ', undeploy));
    return row;
  }

  function fillPlugin(row, plugin) {
    const cells = row.cells;
    setText(cells[0], plugin.file + (plugin.fileExists ? '' : ' (deleted)'));
    setText(cells[1], plugin.symbolicName || '–');
    setText(cells[2], plugin.version || '–');
    setText(cells[3], plugin.bundleId < 0 ? '–' : plugin.revision);
    setText(cells[4], plugin.state);
    const provides = [];
    if (plugin.handlers.length) provides.push('handlers ' + plugin.handlers.join(', '));
    if (plugin.factories.length) provides.push('factories ' + plugin.factories.join(', '));
    setText(cells[5], provides.join('; ') || '–');
    const outcome = plugin.outcome;
    setText(cells[6], outcome ? outcome.outcome + (outcome.version ? ' ' + outcome.version : '')
        + (outcome.reason ? ': ' + outcome.reason : '') : '–');
    row.classList.toggle('refused', Boolean(outcome && outcome.refused));
    const rollback = cells[7].querySelector('[data-action=rollback]');
    rollback.disabled = !plugin.rollbackTo || !plugin.fileExists;
    rollback.title = plugin.rollbackTo ? 'put ' + plugin.rollbackTo + ' back' : 'no earlier revision kept';
    cells[7].querySelector('[data-action=undeploy]').disabled = !plugin.fileExists;
  }

  function renderHistory(history) {
    const body = $('history').tBodies[0];
    const newest = history.length ? String(history[0].sequence) : '';
    if (body.dataset.newest === newest) return;
    body.dataset.newest = newest;
    body.replaceChildren(...history.map((entry) => el('tr', { 'data-sequence': String(entry.sequence) },
      el('td', { text: time(entry.time) }),
      el('td', { text: entry.file || '–' }),
      el('td', { class: 'kind', text: entry.kind }),
      el('td', { text: entry.symbolicName || '–' }),
      el('td', { text: entry.from && entry.to ? entry.from + ' → ' + entry.to : (entry.to || entry.from || '–') }),
      el('td', { text: entry.reason || '' }))));
  }

  function renderTenants(tenants) {
    setText($('tenants-note'), tenants.server ? 'Req/s and p99 over the last 10 s; errors and throttled time since '
        + 'the tenant was added.' : 'The message server does not run: only the runtime\'s tenants are shown.');
    const body = $('tenants').tBodies[0];
    const existing = new Map();
    for (const row of Array.from(body.rows)) existing.set(row.dataset.tenant, row);
    let previous = null;
    for (const tenant of tenants.tenants) {
      let row = existing.get(tenant.tenant);
      if (row) {
        existing.delete(tenant.tenant);
      } else {
        row = el('tr', { 'data-tenant': tenant.tenant });
        for (let i = 0; i < 10; i++) row.append(el('td', { class: i ? 'n' : 'name' }));
        row.append(el('td', null, actionButton('Disconnect', 'Disconnect?', null,
          () => post('tenants/' + encodeURIComponent(tenant.tenant) + '/disconnect'))));
      }
      const cells = row.cells;
      setText(cells[0], tenant.tenant + (tenant.configured ? '' : ' (not configured)'));
      setText(cells[1], tenant.connections + (tenant.maxConnections ? ' / ' + tenant.maxConnections : ''));
      setText(cells[2], fmt(tenant.requestsPerSecond, 1));
      setText(cells[3], ms(tenant.p99Seconds));
      setText(cells[4], fmt(tenant.requests));
      setText(cells[5], fmt(tenant.errors));
      cells[5].title = Object.entries(tenant.errorsByCode).map(([code, n]) => code + ': ' + n).join('\n');
      const throttled = Object.values(tenant.throttledSeconds).reduce((a, b) => a + b, 0);
      setText(cells[6], fmt(throttled, 1) + (tenant.throttledBy.length ? ' (now: ' + tenant.throttledBy.join(', ')
          + ')' : ''));
      setText(cells[7], fmt(tenant.actors));
      setText(cells[8], fmt(tenant.queuedMessages));
      setText(cells[9], pct(tenant.workerShare));
      const expected = previous ? previous.nextSibling : body.firstChild;
      if (expected !== row) body.insertBefore(row, expected);
      previous = row;
    }
    for (const row of existing.values()) row.remove();
  }

  async function loadDeadLetters() {
    try {
      const letters = await get('deadletters');
      state.deadLettersLatest = letters.letters.length ? letters.letters[0].sequence : 0;
      setText($('deadletters-count'), letters.seen + ' dead letters since the console started; the latest '
          + letters.letters.length + ' below, newest first');
      const actor = (a) => (a ? a.name + ' #' + a.id : '–');
      $('deadletters').tBodies[0].replaceChildren(...letters.letters.map((letter) => el('tr', null,
        el('td', { text: time(letter.time) }),
        el('td', { text: actor(letter.recipient) }),
        el('td', { text: actor(letter.sender) }),
        el('td', { text: letter.messageType + ': ' + letter.message }),
        el('td', { text: letter.reason }),
        el('td', { text: letter.cause || '' }))));
    } catch (e) {
      notice('dead letters: ' + e.message, true);
    }
  }

  async function loadLog() {
    try {
      const log = await get('log?lines=' + LOG_LINES);
      setText($('log-file'), log.file ? log.file + (log.exists ? '' : ' (not written yet)') : 'No log file');
      const pre = $('log-lines');
      const atBottom = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 4;
      setText(pre, log.lines.join('\n'));
      if (atBottom) pre.scrollTop = pre.scrollHeight;
    } catch (e) {
      notice('log: ' + e.message, true);
    }
  }

  // ---- charts: inline SVG polylines -----------------------------------------------------------------------

  const SVG = 'http://www.w3.org/2000/svg';

  function drawCharts() {
    const points = state.points;
    drawChart($('chart-throughput'), $('axis-throughput'), points,
      [(p) => p.messagesPerSecond, (p) => p.requestsPerSecond], fmt);
    drawChart($('chart-p99'), $('axis-p99'), points,
      [(p) => (p.p99Seconds === null ? null : p.p99Seconds * 1000)], (v) => fmt(v, 2));
  }

  function drawChart(svg, axis, points, series, label) {
    // the last minute at least, the last 10 minutes at most: as much as there is
    const width = 600, height = 160;
    const end = points.length ? points[points.length - 1].time : Date.now();
    const span = Math.min(600000, Math.max(60000, points.length ? end - points[0].time : 0));
    let max = 0;
    for (const point of points) {
      for (const value of series) {
        const v = value(point);
        if (v !== null && v > max) max = v;
      }
    }
    max = max > 0 ? niceCeiling(max) : 1;
    const children = [];
    for (let i = 1; i < 4; i++) {
      const y = height * i / 4;
      children.push(svgNode('line', { x1: 0, x2: width, y1: y, y2: y, class: 'grid-line' }));
    }
    series.forEach((value, s) => {
      let path = '';
      let pen = false;
      for (const point of points) {
        const v = value(point);
        if (v === null || v === undefined) {
          pen = false;
          continue;
        }
        const x = width - (end - point.time) / span * width;
        const y = height - v / max * (height - 4);
        // a point with no neighbour is drawn as a short tick, so that it shows
        path += (pen ? 'L' : (path ? 'h-2M' : 'M')) + x.toFixed(1) + ' ' + y.toFixed(1);
        pen = true;
      }
      if (path) path += 'h-2';
      if (path) children.push(svgNode('path', { d: path, class: 's' + (s + 1) }));
    });
    svg.replaceChildren(...children);
    const ago = span >= 120000 ? '−' + Math.round(span / 60000) + ' min' : '−' + Math.round(span / 1000) + ' s';
    axis.replaceChildren(el('span', { text: ago }), el('span', { text: 'max ' + label(max) }),
      el('span', { text: 'now' }));
  }

  function svgNode(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
    return node;
  }

  function niceCeiling(value) {
    const magnitude = Math.pow(10, Math.floor(Math.log10(value)));
    for (const step of [1, 2, 2.5, 5, 10]) {
      if (value <= step * magnitude) return step * magnitude;
    }
    return 10 * magnitude;
  }

  // ---- start ----------------------------------------------------------------------------------------------

  document.addEventListener('DOMContentLoaded', () => {
    $('login-form').addEventListener('submit', login);
    $('sign-out').addEventListener('click', signOut);
    for (const button of document.querySelectorAll('#tabs button')) {
      button.addEventListener('click', () => showView(button.dataset.view));
    }
    $('actor-filter').addEventListener('input', () => {
      if (fullActors || state.update) renderActors(fullActors || state.update.actors);
    });
    start();
  });
}());
