// dlca's browser page (web/page.html): runs a hard DiffLogic CA circuit live on a bit-packed grid,
// with the same step as `dlca run` (neighbourhood, boundaries, the asynchronous fire rule and the
// random start are computed exactly as there), and draws the grid, the error against the model's
// target, the model's facts and the circuit. window.dlca is the page's interface for scripts and
// tests.
'use strict';
(function () {
  const data = JSON.parse(document.getElementById('dlca-data').textContent);
  // The circuit as straight-line JavaScript (dlca's circuit_to_javascript): (patch, next, words).
  const kernel = new Function('return ' + data.kernel)();
  const C = data.channels;

  // ---- dlca's counter-based random draws (splitmix64), on pairs of 32-bit halves -------------
  let rh = 0, rl = 0;  // the result of the last 64-bit operation: high and low halves
  function mul64(ah, al, bh, bl) {
    const a0 = al & 0xffff, a1 = al >>> 16, b0 = bl & 0xffff, b1 = bl >>> 16;
    const t = a0 * b0, m1 = a1 * b0, m2 = a0 * b1;
    const mid = (t >>> 16) + (m1 & 0xffff) + (m2 & 0xffff);
    rl = ((mid & 0xffff) * 65536 + (t & 0xffff)) >>> 0;
    const high = a1 * b1 + (m1 >>> 16) + (m2 >>> 16) + Math.floor(mid / 65536);
    rh = (high + Math.imul(ah, bl) + Math.imul(al, bh)) >>> 0;
  }
  function mix64(h, l) {  // splitmix64's finaliser of (h, l), into (rh, rl)
    const sum = l + 0x7f4a7c15;
    l = sum >>> 0;
    h = (h + 0x9e3779b9 + (sum > 0xffffffff ? 1 : 0)) >>> 0;
    l = (l ^ ((l >>> 30) | (h << 2))) >>> 0;
    h = (h ^ (h >>> 30)) >>> 0;
    mul64(h, l, 0xbf58476d, 0x1ce4e5b9);
    l = (rl ^ ((rl >>> 27) | (rh << 5))) >>> 0;
    h = (rh ^ (rh >>> 27)) >>> 0;
    mul64(h, l, 0x94d049bb, 0x133111eb);
    l = (rl ^ ((rl >>> 31) | (rh << 1))) >>> 0;
    h = (rh ^ (rh >>> 31)) >>> 0;
    rh = h;
    rl = l;
  }
  // derive_key(key, tag) for a 64-bit key (kh, kl) and a tag below 2^53, into (rh, rl).
  function deriveKey(kh, kl, tag) {
    const th = Math.floor(tag / 4294967296), tl = tag >>> 0;
    mix64((th ^ 0x243f6a88) >>> 0, (tl ^ 0x85a308d3) >>> 0);
    mix64((kh ^ rh) >>> 0, (kl ^ rl) >>> 0);
  }
  // The 24-bit draw k of uniform01(key, counter) = k / 2^24.
  function draw24(kh, kl, counter) {
    deriveKey(kh, kl, counter);
    return rh >>> 8;
  }
  function keyOf(seed, tag) {  // derive_key(seed, tag) for seeds below 2^53, as [high, low]
    deriveKey(Math.floor(seed / 4294967296), seed >>> 0, tag);
    return [rh, rl];
  }

  // ---- the grid: C bit planes, 32 cells a word, with a padding row above and below ------------
  class Grid {
    constructor(height, width, periodic) {
      this.H = height;
      this.W = width;
      this.periodic = periodic;
      const RW = (this.RW = (width + 31) >>> 5);
      const padded = (height + 2) * RW, words = height * RW;
      const planes = () => Array.from({length: C}, () => new Int32Array(padded));
      this.state = planes();  // row y of the grid is padded row y + 1
      this.left = planes();   // bit x: the cell at x - 1
      this.right = planes();  // bit x: the cell at x + 1
      this.next = Array.from({length: C}, () => new Int32Array(words));
      this.fire = new Int32Array(words);
      // patch[9c + p]: position p of the 3x3 neighbourhood (row-major, 4 = the cell) of channel c.
      this.patch = [];
      for (let c = 0; c < C; ++c)
        for (let p = 0; p < 9; ++p) {
          const base = [this.left, this.state, this.right][p % 3][c];
          const row = Math.floor(p / 3) * RW;
          this.patch.push(base.subarray(row, row + words));
        }
      this.tail = width % 32 ? (1 << (width % 32)) - 1 : -1;
      this.steps = 0;      // steps since the last reset
      this.seed = 1;       // the seed of the last reset: the random start and the async draws
    }
    get(c, y, x) { return (this.state[c][(y + 1) * this.RW + (x >>> 5)] >>> (x & 31)) & 1; }
    set(c, y, x, value) {
      const i = (y + 1) * this.RW + (x >>> 5), bit = 1 << (x & 31);
      this.state[c][i] = value ? this.state[c][i] | bit : this.state[c][i] & ~bit;
    }
    clear() { for (const plane of this.state) plane.fill(0); }
    // The neighbours' rows: padding rows (a copy of the opposite edge, or zeros), then every row
    // shifted by one cell each way, the first and last cell wrapping or reading 0 as dlca run does.
    prepare() {
      const {H, W, RW, periodic} = this;
      const lastWord = (W - 1) >>> 5, lastBit = (W - 1) & 31;
      for (let c = 0; c < C; ++c) {
        const m = this.state[c], l = this.left[c], r = this.right[c];
        if (periodic) {
          m.copyWithin(0, H * RW, (H + 1) * RW);
          m.copyWithin((H + 1) * RW, RW, 2 * RW);
        } else {
          m.fill(0, 0, RW);
          m.fill(0, (H + 1) * RW, (H + 2) * RW);
        }
        for (let row = 0; row < H + 2; ++row) {
          const o = row * RW;
          for (let w = 0; w < RW; ++w) {
            l[o + w] = (m[o + w] << 1) | (w > 0 ? m[o + w - 1] >>> 31 : 0);
            r[o + w] = (m[o + w] >>> 1) | (w + 1 < RW ? m[o + w + 1] << 31 : 0);
          }
          const first = m[o] & 1, last = (m[o + lastWord] >>> lastBit) & 1;
          l[o] = (l[o] & ~1) | (periodic ? last : 0);
          const end = o + lastWord;
          r[end] = (r[end] & ~(1 << lastBit)) | ((periodic ? first : 0) << lastBit);
        }
      }
    }
    // One step: synchronous, or asynchronous where each cell fires with `fireRate` (dlca's rule:
    // draw k of uniform01(async_step_key(seed, step), cell) fires when k / 2^24 <= fire rate).
    step(fireRate) {
      const {H, W, RW} = this, words = H * RW;
      this.prepare();
      kernel(this.patch, this.next, words);
      if (fireRate !== undefined) {
        const [kh, kl] = keyOf(this.seed, 1000 + this.steps);
        const rate = Math.fround(fireRate);
        // derive_key(key, cell) = mix64(key ^ mix64(cell ^ K)): the inner half depends on the
        // cell alone and is kept (8 bytes a cell) for grids up to 4M cells.
        const cells = H * W;
        if (!this.cellMix && cells <= 4194304) {
          this.cellMix = new Uint32Array(2 * cells);
          for (let i = 0; i < cells; ++i) {
            mix64(0x243f6a88, (i ^ 0x85a308d3) >>> 0);
            this.cellMix[2 * i] = rh;
            this.cellMix[2 * i + 1] = rl;
          }
        }
        const mixed = this.cellMix;
        for (let y = 0; y < H; ++y)
          for (let w = 0; w < RW; ++w) {
            let mask = 0;
            const cell0 = y * W + w * 32;
            for (let b = 0; b < 32 && w * 32 + b < W; ++b) {
              const cell = cell0 + b;
              let k;
              if (mixed) {
                mix64((kh ^ mixed[2 * cell]) >>> 0, (kl ^ mixed[2 * cell + 1]) >>> 0);
                k = rh >>> 8;
              } else {
                k = draw24(kh, kl, cell);
              }
              if (rate > 0 && k / 16777216 <= rate) mask |= 1 << b;
            }
            this.fire[y * RW + w] = mask;
          }
      }
      for (let c = 0; c < C; ++c) {
        const out = this.next[c], m = this.state[c];
        for (let y = 0; y < H; ++y) out[y * RW + RW - 1] &= this.tail;
        if (fireRate === undefined) {
          m.set(out, RW);
        } else {
          for (let i = 0; i < words; ++i)
            m[RW + i] = (m[RW + i] & ~this.fire[i]) | (out[i] & this.fire[i]);
        }
      }
      this.steps++;
    }
    // The random start of `dlca run --seed S`: cell (c, y, x) is live when
    // uniform01(derive_key(S, 1), (c * H + y) * W + x) < 0.5, that is when the draw's top bit is 0.
    randomize(seed) {
      const [kh, kl] = keyOf(seed, 1);
      for (let c = 0; c < C; ++c)
        for (let y = 0; y < this.H; ++y)
          for (let x = 0; x < this.W; ++x)
            this.set(c, y, x, draw24(kh, kl, (c * this.H + y) * this.W + x) < 8388608);
    }
    countDifferent(c, targetPlane) {  // targetPlane: Int32Array of H * RW words, or null for 0
      let count = 0;
      const m = this.state[c], RW = this.RW;
      for (let i = 0; i < this.H * RW; ++i) count += popcount(m[RW + i] ^ (targetPlane ? targetPlane[i] : 0));
      return count;
    }
  }
  function popcount(v) {
    v = v - ((v >>> 1) & 0x55555555);
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
  }

  // ---- the target: the checkerboard at any size, or the model's image at its own size --------
  const task = data.task || {kind: 'none'};
  // The channels an image model was trained on, counted as dlca run counts them: its loss
  // channels when they are channels 0..m-1 (those past the target's planes toward 0), else none.
  const trainedPlanes = (() => {
    const channels = data.config && data.config.loss_channels;
    if (!channels) return task.planes || 0;
    const sorted = [...channels].sort((a, b) => a - b);
    return sorted.every((c, i) => c === i) ? sorted.length : 0;
  })();
  function targetPlanes(grid) {  // [{channel, plane}] or null when the grid has no target
    const {H, W, RW} = grid;
    const pack = (bit) => {
      const plane = new Int32Array(H * RW);
      for (let y = 0; y < H; ++y)
        for (let x = 0; x < W; ++x)
          if (bit(y, x)) plane[y * RW + (x >>> 5)] |= 1 << (x & 31);
      return plane;
    };
    if (task.kind === 'checkerboard')
      return [{channel: 0, plane: pack((y, x) => ((y >> 1) + (x >> 1)) % 2 === 1)}];
    if (task.kind === 'image' && task.height === H && task.width === W && trainedPlanes > 0)
      return Array.from({length: trainedPlanes}, (_, c) => ({
        channel: c,
        plane: c < task.planes
            ? pack((y, x) => (parseInt(task.rows[c * H + y][x >> 2], 16) >> (3 - (x & 3))) & 1)
            : pack(() => false),
      }));
    return null;
  }
  function targetText(grid) {
    if (task.kind === 'checkerboard') return 'the checkerboard (squares of 2), channel 0';
    if (task.kind === 'image' && trainedPlanes === 0)
      return 'none: the model was trained on channels ' + data.config.loss_channels.join(', ') +
          ' (the error counts a target\'s first channels)';
    if (task.kind === 'image')
      return task.height === grid.H && task.width === grid.W
          ? (trainedPlanes === 1 ? 'the target image, the channel trained: 0'
                                 : `the target image, the channels trained: 0-${trainedPlanes - 1}`)
          : `none at this size: the target image is ${task.width}x${task.height}`;
    if (task.kind === 'game_of_life') return 'none (the Game of Life has no fixed target)';
    return data.config ? 'none (the model names no task)' : 'none (a circuit file has no task)';
  }

  // ---- the page's state -----------------------------------------------------------------------
  const $ = (id) => document.getElementById(id);
  const speeds = [1, 2, 5, 10, 20, 30, 60, 120, 240, Infinity];  // steps per second
  const page = {
    grid: null, targets: null, playing: false, history: [], zoom: 8,
    show: task.kind === 'image' && task.planes >= 3 && C >= 3 ? 'rgb' : '0',
    measured: 0,  // steps per second while playing, over the last second
  };
  function makeGrid(height, width, periodic) {
    page.grid = new Grid(height, width, periodic);
    page.targets = targetPlanes(page.grid);
    page.image = new ImageData(width, height);
    const canvas = $('grid');
    canvas.width = width;
    canvas.height = height;
    $('zoom').value = page.zoom = fittingZoom(height, width);
    setZoom(page.zoom);
  }
  // The zoom that draws the grid about 512 pixels across.
  function fittingZoom(height, width) {
    return Math.max(1, Math.min(32, Math.floor(512 / Math.max(height, width))));
  }
  function error() {
    if (!page.targets) return null;
    return page.targets.reduce((sum, t) => sum + page.grid.countDifferent(t.channel, t.plane), 0);
  }
  function alive() { return page.grid.countDifferent(0, null); }
  // The fire rate of asynchronous steps: the slider's, or any rate given through window.dlca (the
  // slider moves in steps of 0.05, so it is not the store).
  function fireRate() { return $('mode').value === 'async' ? page.fireRate : undefined; }
  function setFireRate(rate) {
    page.fireRate = rate;
    $('fire-rate').value = rate;
    $('fire-rate-text').textContent = String(Number(rate.toPrecision(7)));
  }
  function reset(kind, seed) {
    if (!['random', 'seed', 'target', 'clear'].includes(kind))
      throw new Error('reset: random, seed, target or clear, not ' + kind);
    const g = page.grid;
    g.clear();
    g.steps = 0;
    if (seed !== undefined) g.seed = seed;
    $('seed').value = g.seed;
    if (kind === 'random') {
      g.randomize(g.seed);
    } else if (kind === 'seed') {  // the centre cell on in every channel, as image training starts
      for (let c = 0; c < C; ++c) g.set(c, g.H >> 1, g.W >> 1, 1);
    } else if (kind === 'target') {
      for (const t of page.targets || [])
        if (t.channel < C) g.state[t.channel].set(t.plane, g.RW);
    }
    page.history = [];
    record();
    draw();
  }
  function record() {
    page.history.push(page.targets ? error() : alive());
    if (page.history.length > 600) page.history.shift();
  }
  function run(steps) {
    const rate = fireRate();
    for (let s = 0; s < steps; ++s) {
      page.grid.step(rate);
      record();
    }
    draw();
  }

  // ---- drawing ----------------------------------------------------------------------------------
  function paint(image, grid, show) {
    const pixels = new Uint32Array(image.data.buffer);  // little-endian RGBA: 0xAABBGGRR
    const {H, W, RW} = grid;
    const channels = show === 'rgb' ? [0, 1, 2] : [Number(show)];
    pixels.fill(0xff000000);
    channels.forEach((c, k) => {
      const m = grid.state[c];
      const colour = show === 'rgb' ? 0xff << (8 * k) : 0xffffff;
      for (let y = 0; y < H; ++y)
        for (let w = 0; w < RW; ++w) {
          let bits = m[(y + 1) * RW + w];
          while (bits) {
            const b = 31 - Math.clz32(bits & -bits);
            pixels[y * W + w * 32 + b] |= colour;
            bits &= bits - 1;
          }
        }
    });
  }
  function draw() {
    paint(page.image, page.grid, page.show);
    $('grid').getContext('2d').putImageData(page.image, 0, 0);
    const e = page.targets ? error() : null;
    $('status').textContent =
        `step ${page.grid.steps} (seed ${page.grid.seed})\n` +
        (e === null ? `live cells in channel 0: ${alive()}` : `error: ${e} wrong cells`) +
        `\ntarget: ${targetText(page.grid)}` +
        (page.playing ? `\nplaying: ${page.measured.toFixed(0)} steps/s` : '');
    drawPlot();
  }
  function drawPlot() {
    const canvas = $('plot'), ctx = canvas.getContext('2d');
    const values = page.history, w = canvas.width, h = canvas.height;
    ctx.clearRect(0, 0, w, h);
    const top = Math.max(1, ...values);
    ctx.strokeStyle = '#c33';
    ctx.beginPath();
    values.forEach((v, i) => {
      const x = values.length > 1 ? (i / (values.length - 1)) * (w - 2) + 1 : 1;
      const y = h - 2 - (v / top) * (h - 4);
      i ? ctx.lineTo(x, y) : ctx.moveTo(x, y);
    });
    ctx.stroke();
    $('plot-caption').textContent = (page.targets ? 'error' : 'live cells') +
        ` over the last ${values.length} states (max ${top})`;
  }
  function setZoom(zoom) {
    page.zoom = zoom;
    const canvas = $('grid');
    canvas.style.width = page.grid.W * zoom + 'px';
    canvas.style.height = page.grid.H * zoom + 'px';
  }
  // One pixel per cell in dlca's picture convention (as `dlca run --png`): channel `show` in grey
  // (live = white), or 'rgb': channels 0-2 as red, green and blue (`--rgb`). Default: as shown.
  function pictureDataUrl(show) {
    show = show === undefined ? page.show : String(show);
    if (show === 'rgb' ? C < 3 : !(Number(show) >= 0 && Number(show) < C))
      throw new Error(`pictureDataUrl: no ${show} in a circuit of ${C} channels`);
    const canvas = document.createElement('canvas');
    canvas.width = page.grid.W;
    canvas.height = page.grid.H;
    const image = new ImageData(page.grid.W, page.grid.H);
    paint(image, page.grid, show);
    canvas.getContext('2d').putImageData(image, 0, 0);
    return canvas.toDataURL('image/png');
  }

  // ---- playing ----------------------------------------------------------------------------------
  let last = 0, owed = 0, window0 = 0, windowSteps = 0;
  function frame(now) {
    if (!page.playing) return;
    const rate = speeds[Number($('speed').value)];
    const elapsed = last ? Math.min(0.25, (now - last) / 1000) : 0;
    last = now;
    let steps;
    if (rate === Infinity) {  // as many as fit in 12 ms
      const start = performance.now();
      steps = 0;
      while (performance.now() - start < 12) {
        run1();
        ++steps;
      }
    } else {
      owed += elapsed * rate;
      steps = Math.floor(owed);
      owed -= steps;
      for (let s = 0; s < steps; ++s) run1();
    }
    windowSteps += steps;
    if (now - window0 >= 1000) {
      page.measured = (windowSteps * 1000) / (now - window0);
      window0 = now;
      windowSteps = 0;
    }
    draw();
    requestAnimationFrame(frame);
  }
  function run1() {
    page.grid.step(fireRate());
    record();
  }
  function setPlaying(on) {
    page.playing = on;
    $('play').textContent = on ? 'Pause' : 'Play';
    last = 0;
    owed = 0;
    window0 = performance.now();
    windowSteps = 0;
    if (on) requestAnimationFrame(frame);
    draw();
  }

  // ---- the mouse: erase (all channels) or draw (the channels shown) a disc -----------------
  let pressed = false;
  function paintDisc(event) {
    const canvas = $('grid'), box = canvas.getBoundingClientRect();
    const g = page.grid;
    const cx = ((event.clientX - box.left) / box.width) * g.W;
    const cy = ((event.clientY - box.top) / box.height) * g.H;
    const radius = Number($('radius').value);
    const drawing = document.querySelector('input[name="tool"]:checked').value === 'draw';
    const channels = drawing ? (page.show === 'rgb' ? [0, 1, 2] : [Number(page.show)]) :
                               [...Array(C).keys()];
    for (let y = Math.max(0, Math.floor(cy - radius)); y < Math.min(g.H, cy + radius); ++y)
      for (let x = Math.max(0, Math.floor(cx - radius)); x < Math.min(g.W, cx + radius); ++x)
        if ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= radius * radius)
          for (const c of channels) g.set(c, y, x, drawing);
    if (!page.playing) {
      page.history.push(page.targets ? error() : alive());
      draw();
    }
  }
  $('grid').addEventListener('mousedown', (e) => {
    pressed = true;
    paintDisc(e);
    e.preventDefault();
  });
  window.addEventListener('mousemove', (e) => { if (pressed) paintDisc(e); });
  window.addEventListener('mouseup', () => { pressed = false; });

  // ---- controls -------------------------------------------------------------------------------
  function showSpeed() {
    const rate = speeds[Number($('speed').value)];
    $('speed-text').textContent = rate === Infinity ? 'as fast as it runs' : `${rate} steps/s`;
  }
  $('play').onclick = () => setPlaying(!page.playing);
  $('step').onclick = () => run(1);
  $('speed').oninput = showSpeed;
  $('zoom').oninput = () => setZoom(Number($('zoom').value));
  $('show').onchange = () => {
    page.show = $('show').value;
    draw();
  };
  // The grid's bit planes (state, two shifted copies, next) take 4 bits per cell and channel: a
  // grid is refused above 2^28 cell-channels (128 MB) rather than exhausting the tab's memory.
  const kMaxCellChannels = 2 ** 28;
  function sizeProblem(height, width) {
    if (!(Number.isInteger(height) && Number.isInteger(width) && height >= 1 && width >= 1 &&
          height <= 4096 && width <= 4096))
      return `the grid's sides must be whole numbers from 1 to 4096, not ${width} x ${height}`;
    if (height * width * C > kMaxCellChannels)
      return `a ${width} x ${height} grid of ${C} channels is too large for the page ` +
             `(at most ${kMaxCellChannels / C} cells at ${C} channels)`;
    return null;
  }
  $('resize').onclick = () => {
    const height = Number($('height').value), width = Number($('width').value);
    const problem = sizeProblem(height, width);
    if (problem) {
      $('status').textContent = problem;
      $('width').value = page.grid.W;
      $('height').value = page.grid.H;
      return;
    }
    makeGrid(height, width, $('boundary').value === 'periodic');
    reset(initialKind(), page.grid.seed);
  };
  $('boundary').onchange = () => {
    page.grid.periodic = $('boundary').value === 'periodic';
  };
  $('fire-rate').oninput = () => setFireRate(Number($('fire-rate').value));
  $('radius').oninput = () => { $('radius-text').textContent = $('radius').value + ' cells'; };
  const seedInput = () => Math.max(0, Math.min(Number.MAX_SAFE_INTEGER, Math.floor(Number($('seed').value)) || 0));
  $('reset-start').onclick = () => reset(initialKind(), seedInput());
  $('reset-random').onclick = () => reset('random', seedInput());
  $('reset-seed').onclick = () => reset('seed');
  $('reset-target').onclick = () => reset('target');
  $('reset-clear').onclick = () => reset('clear');
  $('download').onclick = () => {
    const link = document.createElement('a');
    link.href = pictureDataUrl();
    link.download = `dlca_step${page.grid.steps}.png`;
    link.click();
  };

  // ---- facts: configuration, gate counts, gates by op, and the circuit ----------------------
  function fact(name, value) {
    const row = $('facts-table').insertRow();
    row.insertCell().textContent = name;
    // Numbers read back from 32-bit floats (0.6000000238...) are shown with 7 digits.
    const shown = (v) => typeof v === 'number' ? String(Number(v.toPrecision(7))) :
        Array.isArray(v) ? '[' + v.map(shown).join(', ') + ']' : JSON.stringify(v);
    row.insertCell().textContent = typeof value === 'string' ? value : shown(value);
  }
  function showFacts() {
    document.title = `dlca: ${data.title}`;
    $('title').textContent = data.title;
    $('source').textContent = data.source;
    const used = new Set();
    const isInput = (s) => s < 9 * C;
    data.gates.forEach((g) => {
      if (g[0] !== 0 && g[0] !== 15) {
        if (isInput(g[1])) used.add(g[1]);
        if (isInput(g[2])) used.add(g[2]);
      }
    });
    data.outputs.forEach((s) => { if (isInput(s)) used.add(s); });
    if (data.active_gates >= 0) fact('active gates (argmax not a pass-through)', data.active_gates);
    fact('gates after pruning', data.gates.length);
    fact('inputs used', `${used.size} of ${9 * C} (${C} channels x 3x3)`);
    fact('task', data.task ? data.task.kind : 'none given (a circuit file)');
    if (data.config)
      for (const [key, value] of Object.entries(data.config)) fact(key, value);
    const counts = new Array(16).fill(0);
    data.gates.forEach((g) => counts[g[0]]++);
    const top = Math.max(1, ...counts);
    counts.forEach((n, op) => {
      const row = document.createElement('div');
      row.className = 'bar-row';
      const name = document.createElement('span');
      name.className = 'bar-name';
      name.textContent = data.op_names[op];
      const bar = document.createElement('span');
      bar.className = 'bar';
      bar.style.width = (n / top) * 160 + 'px';
      const count = document.createElement('span');
      count.textContent = n;
      row.append(name, bar, count);
      $('histogram').append(row);
    });
    drawCircuit(used);
  }
  // A layered drawing: used inputs on the left, gates in columns by layer, outputs on the right.
  function drawCircuit(used) {
    const gates = data.gates, limit = 3000;
    if (gates.length > limit) {
      $('circuit-caption').textContent =
          `${gates.length} gates: too many to draw here (the drawing stops at ${limit}).`;
      return;
    }
    const positions = ['NW', 'N', 'NE', 'W', 'cell', 'E', 'SW', 'S', 'SE'];
    const columns = new Map();  // column key -> [signal]
    const place = new Map();    // signal -> {column, row}
    const inputs = [...used].sort((a, b) => a - b);
    columns.set(-1, inputs);
    gates.forEach((g, i) => {
      if (!columns.has(g[3])) columns.set(g[3], []);
      columns.get(g[3]).push(9 * C + i);
    });
    const keys = [...columns.keys()].sort((a, b) => a - b);
    keys.forEach((k, column) => columns.get(k).forEach((s, row) => place.set(s, {column, row})));
    const colWidth = 130, rowHeight = 22, boxWidth = 96, boxHeight = 16;
    const outColumn = keys.length;
    const tallest = Math.max(C, ...keys.map((k) => columns.get(k).length));
    const svgNS = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(svgNS, 'svg');
    svg.setAttribute('width', (outColumn + 1) * colWidth + 20);
    svg.setAttribute('height', tallest * rowHeight + 20);
    const at = (p) => ({x: 10 + p.column * colWidth, y: 10 + p.row * rowHeight});
    const element = (name, attributes, text) => {
      const e = document.createElementNS(svgNS, name);
      for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v);
      if (text !== undefined) e.textContent = text;
      svg.append(e);
      return e;
    };
    const wire = (from, to) => {
      const a = at(place.get(from)), b = at(to);
      element('line', {x1: a.x + boxWidth, y1: a.y + boxHeight / 2, x2: b.x, y2: b.y + boxHeight / 2,
                       stroke: '#89a', 'stroke-opacity': 0.5});
    };
    gates.forEach((g, i) => {
      const p = place.get(9 * C + i);
      const arity = g[0] === 0 || g[0] === 15 ? 0 : g[0] === 12 ? 1 : 2;
      if (arity >= 1) wire(g[1], p);
      if (arity === 2) wire(g[2], p);
    });
    data.outputs.forEach((s, c) => wire(s, {column: outColumn, row: c}));
    const box = (p, label, fill, title) => {
      const q = at(p);
      const group = element('g', {});
      const rect = document.createElementNS(svgNS, 'rect');
      for (const [k, v] of Object.entries({x: q.x, y: q.y, width: boxWidth, height: boxHeight, rx: 3,
                                           fill, stroke: '#567'}))
        rect.setAttribute(k, v);
      const text = document.createElementNS(svgNS, 'text');
      text.setAttribute('x', q.x + 4);
      text.setAttribute('y', q.y + 12);
      text.textContent = label;
      const tip = document.createElementNS(svgNS, 'title');
      tip.textContent = title;
      group.append(tip, rect, text);
    };
    inputs.forEach((s) => box(place.get(s), `in c${Math.floor(s / 9)} ${positions[s % 9]}`, '#eef',
                              `input: channel ${Math.floor(s / 9)}, neighbour ${positions[s % 9]}`));
    gates.forEach((g, i) => box(place.get(9 * C + i), data.op_names[g[0]], '#fff',
                                `gate ${i}: ${data.op_names[g[0]]} (layer ${g[3]})`));
    data.outputs.forEach((s, c) => box({column: outColumn, row: c}, `out c${c}`, '#efe',
                                       `the new state of channel ${c}`));
    $('circuit').append(svg);
    $('circuit-caption').textContent =
        `${gates.length} gates in ${keys.length - 1} layers, read left to right; ` +
        'hover over a box for its operation.';
  }

  // ---- start ----------------------------------------------------------------------------------
  // How training started its grids: an image task from the seed cell or an empty grid, the others
  // from random cells.
  function initialKind() {
    if (task.kind !== 'image') return 'random';
    return task.seed_cell === 'center' ? 'seed' : 'clear';
  }
  for (const [value, label] of [['rgb', 'RGB (channels 0-2)'], ...[...Array(C).keys()].map((c) => [String(c), `channel ${c}`])])
    if (value !== 'rgb' || C >= 3) $('show').add(new Option(label, value));
  $('show').value = page.show;
  $('width').value = data.width;
  $('height').value = data.height;
  $('boundary').value = data.periodic ? 'periodic' : 'zero';
  $('mode').value = data.async ? 'async' : 'sync';
  setFireRate(data.fire_rate);
  $('radius').oninput();
  showSpeed();
  showFacts();
  makeGrid(data.height, data.width, data.periodic);
  reset(initialKind(), 1);
  // A picture grown from a seed or an empty grid opens where training looked at it: the grown
  // picture at the trained step, not the empty start. It was trained to grow, not to heal.
  const trainedSteps = data.config && data.config.steps;
  if (task.kind === 'image' && trainedSteps > 0 && trainedSteps <= 1000) {
    run(trainedSteps);
    $('invite').textContent =
        `It opens at step ${trainedSteps}, the step training grew the picture by (Reset plays ` +
        'the growth again). Click or drag on the grid to damage it (or draw, below); trained to ' +
        'grow, not to heal, it may or may not repair.';
  }

  // The interface for scripts and tests (docs/circuits.md, "The circuit in the browser").
  const whole = (name, v, max) => {  // a whole number from 0 to max, else an error naming it
    if (!(Number.isInteger(v) && v >= 0 && v <= max))
      throw new Error(`${name}: must be a whole number from 0 to ${max}, not ${v}`);
    return v;
  };
  window.dlca = {
    reset: (kind, seed) => {
      reset(kind, seed === undefined ? undefined : whole('seed', seed, Number.MAX_SAFE_INTEGER));
      return info();
    },
    run: (steps) => { run(whole('steps', steps, 1e7)); return info(); },
    resize: (height, width, periodic) => {
      const problem = sizeProblem(height, width);
      if (problem) throw new Error('resize: ' + problem);
      makeGrid(height, width, periodic === undefined ? page.grid.periodic : periodic);
      $('width').value = width;
      $('height').value = height;
      $('boundary').value = page.grid.periodic ? 'periodic' : 'zero';
      reset('clear');
      return info();
    },
    setMode: (mode, rate) => {
      if (mode !== 'sync' && mode !== 'async') throw new Error(`setMode: 'sync' or 'async', not ${mode}`);
      if (rate !== undefined && !(rate > 0 && rate <= 1))
        throw new Error(`setMode: the fire rate must be in (0, 1], not ${rate}`);
      $('mode').value = mode;
      if (rate !== undefined) setFireRate(rate);
      return info();
    },
    play: (on) => setPlaying(on !== false),
    info,
    pictureDataUrl,
    // Steps per second of step + draw, `steps` times in a row (the page's own clock).
    benchmark: (steps) => {
      const start = performance.now();
      for (let s = 0; s < steps; ++s) {
        run1();
        draw();
      }
      return (steps * 1000) / (performance.now() - start);
    },
  };
  function info() {
    const g = page.grid;
    return {channels: C, step: g.steps, seed: g.seed, height: g.H, width: g.W, periodic: g.periodic,
            error: error(), alive: alive(), playing: page.playing, measured: page.measured,
            mode: $('mode').value};
  }
})();
