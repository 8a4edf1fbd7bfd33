// A zoo clone's page: draws the spec the server gives with DOM elements and CSS,
// sends every press, release and key to the server (POST /act) in order, draws
// the state it answers, and says when each state was on the screen (POST /drawn,
// once Chromium has swapped the frame that holds it to the window, with that
// moment in the server's clock): the server logs the truth then.
"use strict";

(() => {
  // ------------------------------------------------------------------ state

  let S = null; // the spec
  let L = null; // colours derived from it (the server's arithmetic)
  let P = null; // the panel choices (restart button, face size)
  let MARKER = null;
  let rows = 0;
  let cols = 0;
  let mines = 0;
  let gameNo = 0;
  let version = 0;
  let board = [];
  let status = "playing";
  let screen = "board";
  let cells = [];
  let drawnKey = [];
  let unflagged = new Set();
  let pendingCells = new Set();
  let pressed = null; // [r, c] of the cell drawn pressed
  let flashing = null; // {cell, until}
  let boardButtons = new Set(); // buttons (Tk numbers) that went down on the board
  let downControl = null;
  let startedAt = null;
  let animsStarted = 0; // the id of the last animation begun
  let animGen = 0;
  let layoutDirty = true;
  let ready = false;
  let dialogTimer = null;
  let fitting = Promise.resolve();
  let clock = null; // the server's time.monotonic() (ms) minus performance.now()
  let posting = Promise.resolve(); // reports reach the server in the order they are made
  const el = {};

  const KEYSYMS = {
    " ": "space", "Enter": "Return", "Escape": "Escape", "Control": "Control_L",
    "Shift": "Shift_L", "Alt": "Alt_L", "Tab": "Tab", "Backspace": "BackSpace",
  };
  const SEGMENTS = {
    "0": "abcdef", "1": "bc", "2": "abdeg", "3": "abcdg", "4": "bcfg", "5": "acdfg",
    "6": "acdefg", "7": "abc", "8": "abcdefg", "9": "abcdfg", "-": "g", " ": "",
  };

  const sleep = (ms) => new Promise((res) => setTimeout(res, ms));
  const frames = (n) => new Promise((res) => {
    const step = (k) => (k <= 0 ? res() : requestAnimationFrame(() => step(k - 1)));
    step(n);
  });
  // Once what the page holds now is on the screen: Chromium says when the frame
  // that holds it is swapped to the window (--enable-gpu-benchmarking; measured
  // 3 to 25 ms after the screen has it). Counting animation frames instead is
  // early now and then (the frame after next may come before the picture), so it
  // is only a fallback: three frames without that call, twelve when it never answers.
  // Resolves with the moment (performance.now()).
  const afterPaint = () => new Promise((res) => {
    let done = false;
    const finish = () => {
      if (!done) {
        done = true;
        res(performance.now());
      }
    };
    const gb = window.chrome && window.chrome.gpuBenchmarking;
    if (gb && typeof gb.addSwapCompletionEventListener === "function") {
      gb.addSwapCompletionEventListener(finish);
      frames(12).then(finish);
    } else {
      frames(3).then(finish);
    }
  });
  const key = (r, c) => r * 1000 + c;
  // A moment of this page (performance.now()) as the server's clock (seconds).
  const mono = (ms) => (clock === null ? null : (ms + clock) / 1000);

  async function measureClock() {
    // The offset between the two clocks, from the round trip that took least time:
    // the latest offset that round trip allows (a moment made late, never early).
    let best = null;
    for (let i = 0; i < 12; i++) {
      const a = performance.now();
      let answer = null;
      try {
        answer = await (await fetch("/clock")).json();
      } catch (err) {
        continue;
      }
      const b = performance.now();
      if (best === null || b - a < best.rtt) {
        best = {rtt: b - a, offset: answer.t * 1000 - a};
      }
    }
    if (best !== null) clock = best.offset;
    return best;
  }

  function make(tag, cls, parent, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }

  async function post(path, data) {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const answer = await fetch(path, {
          method: "POST", body: JSON.stringify(data), headers: {"Content-Type": "application/json"},
        });
        if (answer.ok) return await answer.json();
        return null;
      } catch (err) {
        await sleep(20);
      }
    }
    return null;
  }

  // ------------------------------------------------------------------ the queue of events

  const queue = [];
  let busy = false;

  function send(op) {
    queue.push(op);
    pump();
  }

  function sendAfter(ms, op) {
    queue.push({wait: performance.now() + ms});
    queue.push(op);
    pump();
  }

  async function pump() {
    if (busy) return;
    busy = true;
    try {
      while (queue.length) {
        if (queue[0].wait !== undefined) {
          const wait = queue.shift().wait - performance.now();
          if (wait > 0) await sleep(wait);
          continue;
        }
        let n = queue.findIndex((op) => op.wait !== undefined);
        if (n < 0) n = queue.length;
        const ops = queue.splice(0, n);
        const reply = await post("/act", {ops});
        if (reply) apply(reply);
      }
    } finally {
      busy = false;
    }
  }

  // ------------------------------------------------------------------ looks

  function fontStack(family) {
    const f = family.toLowerCase();
    let generic = "sans-serif";
    if (f.includes("mono") || f.includes("courier")) generic = "monospace";
    else if (f.includes("serif") && !f.includes("sans")) generic = "serif";
    else if (f.includes("times")) generic = "serif";
    return `"${family}", ${generic}`;
  }

  function svgUrl(svg) {
    return `url("data:image/svg+xml,${encodeURIComponent(svg)}")`;
  }

  function ditherUrl(fill, alt) {
    return svgUrl(
      "<svg xmlns='http://www.w3.org/2000/svg' width='2' height='2' shape-rendering='crispEdges'>"
      + `<rect width='2' height='2' fill='${fill}'/><rect width='1' height='1' fill='${alt}'/>`
      + `<rect x='1' y='1' width='1' height='1' fill='${alt}'/></svg>`);
  }

  function rgbOf(colour) {
    return [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
  }

  function mulberry(seed) {
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6D2B79F5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  const NOISE = 6;

  function noiseUrls(fill, salt) {
    const out = [];
    const [r0, g0, b0] = rgbOf(fill);
    const sd = 3 + (S.seed % 6);
    const canvas = document.createElement("canvas");
    canvas.width = S.cell_w;
    canvas.height = S.cell_h;
    const ctx = canvas.getContext("2d");
    for (let k = 0; k < NOISE; k++) {
      const rnd = mulberry(S.seed * 131 + k * 7 + salt);
      const img = ctx.createImageData(S.cell_w, S.cell_h);
      for (let i = 0; i < S.cell_w * S.cell_h; i++) {
        const u = Math.max(1e-9, rnd());
        const v = rnd();
        const n = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v) * sd;
        img.data[4 * i] = Math.max(0, Math.min(255, Math.round(r0 + n)));
        img.data[4 * i + 1] = Math.max(0, Math.min(255, Math.round(g0 + n)));
        img.data[4 * i + 2] = Math.max(0, Math.min(255, Math.round(b0 + n)));
        img.data[4 * i + 3] = 255;
      }
      ctx.putImageData(img, 0, 0);
      out.push(`url("${canvas.toDataURL("image/png")}")`);
    }
    return out;
  }

  function coveredVars(v, salt) {
    const parts = [
      `--f:${v.fill}`, `--a:${v.alt}`, `--l:${v.light}`, `--d:${v.dark}`,
      `--gt:${v.grad_top}`, `--gb:${v.grad_bottom}`, `--e:${v.edge}`,
    ];
    if (S.covered === "dither") parts.push(`--di:${ditherUrl(v.fill, v.alt)}`);
    if (S.covered === "noise") {
      noiseUrls(v.fill, salt).forEach((url, k) => parts.push(`--nz${k}:${url}`));
    }
    return parts.join(";");
  }

  function openShadow() {
    if (S.open_style === "outline") return `inset 0 0 0 1px ${S.open_line}`;
    if (S.open_style === "sunken") return `inset 1px 1px 0 0 ${S.open_line}`;
    return "none";
  }

  function frameCss() {
    const w = S.frame_w;
    if (S.frame === "line") return `border:${w}px solid ${L.frame_line};`;
    if (S.frame === "sunken") {
      return `border:${w}px solid;border-color:${L.frame_dark} ${L.frame_light} `
        + `${L.frame_light} ${L.frame_dark};`;
    }
    if (S.frame === "raised") {
      return `border:${w}px solid;border-color:${L.frame_light} ${L.frame_dark} `
        + `${L.frame_dark} ${L.frame_light};`;
    }
    if (S.frame === "ridge") return `border:${w}px ridge ${L.frame_light};`;
    return "";
  }

  function buildCss() {
    const W = S.cell_w;
    const H = S.cell_h;
    const B = Math.max(1, S.bevel);
    const C = L.covered;
    const font = fontStack(S.font_family);
    const weight = S.font_bold ? "bold" : "normal";
    const size = Math.max(7, Math.round(H * S.font_scale));
    const sep = S.gap || S.line;
    const margin = S.line && !S.gap ? S.line : 0;
    const frameW = S.frame !== "none" ? S.frame_w : 0;
    const P2 = S.padding;
    const label = `${weight} 14px ${font}`;
    const css = [];
    css.push(`html,body{background:${S.window_bg}}`);
    css.push(`#app{display:inline-grid;grid-template-columns:max-content max-content 1fr;`
      + `width:max-content;min-width:180px;min-height:120px;background:${S.window_bg};`
      + `color:${S.text_colour};font:${label};align-items:start}`);
    css.push(`.panel{display:flex;align-items:center}`);
    css.push(`#top{grid-row:1;grid-column:1/4;padding:${P2}px ${P2}px 2px ${P2}px}`);
    css.push(`#bottom{grid-row:3;grid-column:1/4;padding:2px ${P2}px ${P2}px ${P2}px}`);
    css.push(`#top>.l,#bottom>.l{flex:1 1 0;display:flex;justify-content:flex-start;`
      + `align-items:center}`);
    css.push(`#top>.r,#bottom>.r{flex:1 1 0;display:flex;justify-content:flex-end;`
      + `align-items:center}`);
    css.push(`#top>.m,#bottom>.m{display:flex;flex-direction:column;align-items:center}`);
    css.push(`#left{grid-row:2;grid-column:1;padding-left:${P2}px;flex-direction:column}`);
    css.push(`#right{grid-row:2;grid-column:3;padding-right:${P2}px;flex-direction:column;`
      + `align-items:flex-start;justify-self:start}`);
    css.push(`#holder{grid-row:2;grid-column:2;padding:2px ${P2}px;justify-self:start}`);
    css.push(`#menu{grid-row:2;grid-column:2;padding:20px;display:flex;flex-direction:column;`
      + `align-items:stretch}`);
    css.push(`#menu .title{font:bold 16px ${font};text-align:center;padding:8px 0}`);
    css.push(`.tkbutton{font:13px ${font};background:#d9d9d9;color:#000000;padding:4px 10px;`
      + `border:2px solid;border-color:#ffffff #888888 #888888 #ffffff;text-align:center;`
      + `margin:4px 10px}`);
    css.push(`.tkbutton:hover{background:#ececec}`);
    css.push(`.tkbutton.down{border-color:#888888 #ffffff #ffffff #888888}`);
    css.push(`.label{padding:4px;white-space:pre;color:${S.text_colour}}`);
    css.push(`.led{position:relative;background:#000000;border:1px solid;`
      + `border-color:#5a5a5a #d0d0d0 #d0d0d0 #5a5a5a;margin:4px}`);
    css.push(`.led>div{position:absolute}`);
    css.push(`#face{margin:3px;border:2px solid;border-color:${L.face_light} ${L.face_dark} `
      + `${L.face_dark} ${L.face_light};background:${L.face_bg};line-height:0}`);
    css.push(`#face.down{border-color:${L.face_dark} ${L.face_light} ${L.face_light} `
      + `${L.face_dark}}`);
    css.push(`#restartbutton{margin:3px 4px;padding:3px 8px;background:${L.button_bg};`
      + `color:${S.text_colour};font:${label};border:2px solid;border-color:${L.win_light} `
      + `${L.win_dark} ${L.win_dark} ${L.win_light};white-space:pre}`);
    css.push(`#restartbutton:hover{background:${L.button_active}}`);
    css.push(`#restartbutton.down{border-color:${L.win_dark} ${L.win_light} ${L.win_light} `
      + `${L.win_dark}}`);
    // The board and its cells.
    css.push(`#board{display:grid;grid-template-columns:repeat(var(--cols),${W}px);`
      + `grid-auto-rows:${H}px;gap:${sep}px;padding:${margin}px;background:${L.board_bg};`
      + `position:relative;width:max-content;${frameCss()}}`);
    css.push(`#toolbar{display:flex;gap:${sep}px;background:${L.toolbar_bg};width:max-content;`
      + `margin:0 0 2px ${frameW + margin}px}`);
    css.push(`.cell,.tb{position:relative;box-sizing:border-box;width:${W}px;height:${H}px;`
      + `display:flex;align-items:center;justify-content:center;overflow:hidden;`
      + `font:${weight} ${size}px/1 ${font}}`);
    css.push(`.cell>*,.tb>*{pointer-events:none}`);
    css.push(`.cell>span{position:relative}`);
    css.push(`.cell>svg{position:absolute;left:0;top:0}`);
    css.push(`.cov{${coveredVars(C.base, 1)};background-color:var(--f)}`);
    css.push(`.cov.unf{${coveredVars(C.unf, 2)}}`);
    if (S.hover === "light") {
      css.push(`#board.live .cov:hover,.cov.hv{${coveredVars(C.hover, 3)}}`);
      css.push(`#board.live .cov.unf:hover{${coveredVars(C.unf_hover, 4)}}`);
    } else if (S.hover === "outline") {
      // Over the bevel and the glyph (an outline of the cell itself would be under
      // its bevel, which is a positioned pseudo-element).
      css.push(`#board.live .cov:hover::after,.cov.hv::after{content:"";position:absolute;`
        + `left:0;top:0;right:0;bottom:0;border:1px solid var(--e);pointer-events:none}`);
    }
    const bevel = `content:"";position:absolute;left:0;top:0;right:0;bottom:0;`
      + `border:${B}px solid;pointer-events:none;`;
    if (["bevel", "gradient", "noise"].includes(S.covered)) {
      css.push(`.cov::before{${bevel}border-color:var(--l) var(--d) var(--d) var(--l)}`);
    }
    if (S.covered === "gradient") {
      css.push(`.cov{background-image:linear-gradient(var(--gt),var(--gb))}`);
    } else if (S.covered === "dither") {
      css.push(`.cov{background-image:var(--di)}`);
    } else if (S.covered === "noise") {
      for (let k = 0; k < NOISE; k++) css.push(`.cov.nz${k}{background-image:var(--nz${k})}`);
    } else if (S.covered === "rounded") {
      const radius = Math.max(2, Math.floor(Math.min(W, H) / 4));
      css.push(`.cov{background-color:transparent}`);
      css.push(`.cov::before{content:"";position:absolute;left:0;top:0;right:0;bottom:0;`
        + `border-radius:${radius}px;background:var(--f);border:1px solid var(--d);`
        + `pointer-events:none}`);
    }
    if (S.pressed === "sunken") {
      // The bevel turned over (drawn over any covered look, as the Tk clone does).
      if (S.covered === "rounded") {
        css.push(`.cov.prs::before{border:${B}px solid;`
          + `border-color:var(--d) var(--l) var(--l) var(--d)}`);
      } else {
        css.push(`.cov.prs::before{${bevel}border-color:var(--d) var(--l) var(--l) var(--d)}`);
      }
    } else if (S.pressed === "open") {
      css.push(`.cov.prs{background:${S.open_fill} !important;box-shadow:${openShadow()}}`);
      css.push(`.cov.prs::before,.cov.prs::after{display:none}`);
    }
    css.push(`.opn{background:${S.open_fill};box-shadow:${openShadow()}}`);
    if (S.hit_style === "red_bg") css.push(`.opn.hit{background:${L.hit_bg}}`);
    css.push(`.cell.flash{background:${L.flash} !important;box-shadow:${openShadow()};`
      + `outline:none !important}`);
    css.push(`.cell.flash::before,.cell.flash::after{display:none}`);
    S.palette.forEach((colour, i) => css.push(`.n${i + 1}{color:${colour}}`));
    css.push(`.n0{color:${L.zero}}`);
    css.push(`.q{color:${L.question}}`);
    const flagSize = Math.max(7, Math.round(H * Math.min(0.75, S.font_scale + 0.05)));
    css.push(`.fl{color:${S.flag_colour};font-size:${flagSize}px}`);
    css.push(`.uf{color:${S.flag_colour}}`);
    const starSize = Math.max(7, Math.round(H * Math.min(0.95, S.font_scale + 0.3)));
    css.push(`.ms{font-size:${starSize}px}`);
    css.push(`.fadeov{position:absolute;left:0;top:0;right:0;bottom:0;pointer-events:none;`
      + `animation:zfade ${S.anim_ms}ms linear forwards}`);
    css.push(`@keyframes zfade{from{opacity:1}to{opacity:0}}`);
    css.push(`.tbmark{position:absolute;width:3px;height:3px;background:${L.tb_mark};`
      + `left:${Math.floor(W / 2) - 1}px;top:${Math.floor(H / 2) - 1}px}`);
    css.push(`#overlay{position:absolute;box-sizing:border-box;height:48px;`
      + `background:${L.overlay_bg};color:${L.overlay_fg};border:1px solid ${S.text_colour};`
      + `font:bold 18px ${font};display:flex;align-items:center;justify-content:center;`
      + `pointer-events:none;z-index:5;white-space:nowrap;overflow:hidden}`);
    css.push(`#dialog{position:fixed;z-index:10;background:${S.window_bg};border:2px solid;`
      + `border-color:${L.win_light} ${L.win_dark} ${L.win_dark} ${L.win_light};`
      + `display:flex;flex-direction:column;align-items:center}`);
    css.push(`#dialog .msg{font:bold 16px ${font};color:${S.text_colour};`
      + `padding:14px 20px 8px 20px;white-space:nowrap}`);
    css.push(`#dialog .tkbutton{margin:0 0 12px 0;padding:4px 14px}`);
    css.push(`#marker{position:fixed;left:0;top:0;width:4px;height:2px;z-index:100}`);
    css.push(`#marker>div{position:absolute;width:1px;height:1px}`);
    document.getElementById("theme").textContent = css.join("\n");
  }

  // ------------------------------------------------------------------ glyphs

  function svg(inner) {
    const W = S.cell_w;
    const H = S.cell_h;
    return `<svg width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${inner}</svg>`;
  }

  function line(x0, y0, x1, y1, colour, width) {
    return `<line x1="${x0}" y1="${y0}" x2="${x1}" y2="${y1}" stroke="${colour}" `
      + `stroke-width="${width}"/>`;
  }

  function flagInner() {
    const W = S.cell_w;
    const H = S.cell_h;
    const cx = W / 2;
    const cy = H / 2;
    const u = Math.min(W, H) / 2;
    const colour = S.flag_colour;
    if (S.flag_glyph === "dot") {
      return `<circle cx="${cx}" cy="${cy}" r="${u * 0.45}" fill="${colour}"/>`;
    }
    if (S.flag_glyph === "cross") {
      const k = Math.max(2, Math.round(u / 5));
      return line(cx - u * 0.5, cy - u * 0.5, cx + u * 0.5, cy + u * 0.5, colour, k)
        + line(cx - u * 0.5, cy + u * 0.5, cx + u * 0.5, cy - u * 0.5, colour, k);
    }
    const pole = L.pole;
    const px = cx + u * 0.15;
    return line(px, cy - u * 0.6, px, cy + u * 0.45, pole, Math.max(1, Math.round(u / 8)))
      + `<polygon points="${px},${cy - u * 0.6} ${px},${cy - u * 0.05} `
      + `${cx - u * 0.55},${cy - u * 0.32}" fill="${colour}"/>`
      + `<rect x="${cx - u * 0.45}" y="${cy + u * 0.4}" width="${u}" height="${u * 0.15}" `
      + `fill="${pole}"/>`;
  }

  function flagHtml() {
    if (S.flag_glyph === "letter") return `<span class="fl">F</span>`;
    if (S.flag_glyph === "unicode") return `<span class="uf">\u2691</span>`;
    return svg(flagInner());
  }

  function crossInner(colour) {
    const W = S.cell_w;
    const H = S.cell_h;
    const k = Math.max(1, Math.round(Math.min(W, H) / 12));
    const m = Math.min(W, H) * 0.15;
    return line(m, m, W - m, H - m, colour, k) + line(m, H - m, W - m, m, colour, k);
  }

  function mineHtml(colour, cross) {
    const W = S.cell_w;
    const H = S.cell_h;
    const cx = W / 2;
    const cy = H / 2;
    const u = Math.min(W, H) / 2;
    const extra = cross ? svg(crossInner(L.hit_cross_colour)) : "";
    if (S.mine_glyph === "letter") return `<span style="color:${colour}">M</span>${extra}`;
    if (S.mine_glyph === "star") return `<span class="ms" style="color:${colour}">*</span>${extra}`;
    let inner = "";
    if (S.mine_glyph === "square") {
      inner = `<rect x="${cx - u * 0.4}" y="${cy - u * 0.4}" width="${u * 0.8}" `
        + `height="${u * 0.8}" fill="${colour}"/>`;
    } else {
      const k = Math.max(1, Math.round(u / 8));
      for (const [dx, dy] of [[1, 0], [0, 1], [0.7, 0.7], [0.7, -0.7]]) {
        inner += line(cx - dx * u * 0.7, cy - dy * u * 0.7, cx + dx * u * 0.7, cy + dy * u * 0.7,
          colour, k);
      }
      inner += `<circle cx="${cx}" cy="${cy}" r="${u * 0.45}" fill="${colour}"/>`;
      if (S.theme !== "mono") {
        inner += `<circle cx="${cx - u * 0.165}" cy="${cy - u * 0.165}" r="${u * 0.085}" `
          + `fill="#ffffff"/>`;
      }
    }
    if (cross) inner += crossInner(L.hit_cross_colour);
    return svg(inner);
  }

  const GLYPHS = {};

  function glyph(ch) {
    if (GLYPHS[ch] !== undefined) return GLYPHS[ch];
    let html = "";
    if (ch === "F") html = flagHtml();
    else if (ch === "?") html = `<span class="q">?</span>`;
    else if (ch === "X") {
      html = flagHtml() + svg(crossInner(L.wrong));
    } else if (ch === "*") html = mineHtml(S.mine_colour, false);
    else if (ch === "!") html = mineHtml(L.hit_mine, L.hit_cross);
    else if (ch >= "0" && ch <= "8") {
      html = ch !== "0" || S.show_zero ? `<span class="n${ch}">${ch}</span>` : "";
    }
    GLYPHS[ch] = html;
    return html;
  }

  function noiseClass(r, c) {
    if (S.covered !== "noise") return "";
    const h = Math.abs((r * 7919 + c * 104729 + S.seed * 31) % NOISE);
    return ` nz${h}`;
  }

  function classOf(ch, r, c) {
    if (".F?X".includes(ch)) {
      let cls = "cell cov" + noiseClass(r, c);
      if (ch === "." && unflagged.has(key(r, c))) cls += " unf";
      return cls;
    }
    if (ch === "!") return "cell opn hit";
    return "cell opn";
  }

  function drawCell(r, c, force) {
    const ch = board[r][c];
    const e = cells[r][c];
    let cls = classOf(ch, r, c);
    if (pressed && pressed[0] === r && pressed[1] === c && ch === ".") {
      cls += flashing ? " flash" : " prs";
    }
    const look = cls + "|" + ch;
    if (!force && drawnKey[r][c] === look) return;
    drawnKey[r][c] = look;
    e.className = cls;
    e.innerHTML = glyph(ch);
  }

  // ------------------------------------------------------------------ panels

  function led(digits) {
    const dw = 13;
    const dh = 23;
    const box = make("div", "led");
    box.style.width = `${digits * dw + 4}px`;
    box.style.height = `${dh + 4}px`;
    box.segs = [];
    for (let i = 0; i < digits; i++) {
      const x0 = 3 + i * dw - 1;
      const y0 = 3 - 1;
      const w = dw - 3;
      const h = dh - 2;
      const t = Math.max(2, Math.floor(dw / 5));
      const half = Math.floor(h / 2);
      const boxes = {
        a: [x0 + 1, y0, x0 + w - 1, y0 + t],
        b: [x0 + w - t, y0 + 1, x0 + w, y0 + half - 1],
        c: [x0 + w - t, y0 + half + 1, x0 + w, y0 + h - 1],
        d: [x0 + 1, y0 + h - t, x0 + w - 1, y0 + h],
        e: [x0, y0 + half + 1, x0 + t, y0 + h - 1],
        f: [x0, y0 + 1, x0 + t, y0 + half - 1],
        g: [x0 + 1, y0 + half - Math.floor(t / 2), x0 + w - 1, y0 + half + Math.floor((t + 1) / 2)],
      };
      const segs = {};
      for (const [name, b] of Object.entries(boxes)) {
        const s = make("div", "", box);
        s.style.left = `${b[0]}px`;
        s.style.top = `${b[1]}px`;
        s.style.width = `${b[2] - b[0]}px`;
        s.style.height = `${b[3] - b[1]}px`;
        s.style.background = "#400000";
        segs[name] = s;
      }
      box.segs.push(segs);
    }
    box.digits = digits;
    box.value = null;
    return box;
  }

  function setLed(box, value) {
    if (box.value === value) return;
    box.value = value;
    const n = box.digits;
    const text = value >= 0
      ? String(value).padStart(n, "0").slice(-n)
      : "-" + String(-value).padStart(n - 1, "0").slice(-(n - 1));
    for (let i = 0; i < n; i++) {
      const on = SEGMENTS[text[i]] || "";
      for (const [name, seg] of Object.entries(box.segs[i])) {
        seg.style.background = on.includes(name) ? "#ff0000" : "#400000";
      }
    }
  }

  function faceSvg(mood) {
    const s = P.face_size;
    const m = s * 0.12;
    const parts = [`<svg width="${s}" height="${s}" viewBox="0 0 ${s} ${s}">`];
    parts.push(`<ellipse cx="${s / 2}" cy="${s / 2}" rx="${s / 2 - m}" ry="${s / 2 - m}" `
      + `fill="#ffff00" stroke="#000000" stroke-width="1"/>`);
    const ex = s * 0.34;
    const ey = s * 0.4;
    const er = Math.max(1.5, s * 0.06);
    if (mood === "won") {
      parts.push(`<rect x="${s * 0.22}" y="${ey - er}" width="${s * 0.56}" height="${2 * er}" `
        + `fill="#000000"/>`);
    } else if (mood === "lost") {
      for (const cx of [ex, s - ex]) {
        parts.push(line(cx - er, ey - er, cx + er, ey + er, "#000000", 1));
        parts.push(line(cx - er, ey + er, cx + er, ey - er, "#000000", 1));
      }
    } else {
      for (const cx of [ex, s - ex]) parts.push(`<circle cx="${cx}" cy="${ey}" r="${er}"/>`);
    }
    if (mood === "o") {
      parts.push(`<circle cx="${s / 2}" cy="${s * 0.68}" r="${s * 0.08}" fill="none" `
        + `stroke="#000000" stroke-width="1"/>`);
    } else if (mood === "lost") {
      parts.push(`<path d="M ${s * 0.3} ${s * 0.735} A ${s * 0.2} ${s * 0.115} 0 0 1 `
        + `${s * 0.7} ${s * 0.735}" fill="none" stroke="#000000" stroke-width="1"/>`);
    } else {
      parts.push(`<path d="M ${s * 0.3} ${s * 0.6} A ${s * 0.2} ${s * 0.15} 0 0 0 `
        + `${s * 0.7} ${s * 0.6}" fill="none" stroke="#000000" stroke-width="1"/>`);
    }
    parts.push("</svg>");
    return parts.join("");
  }

  function showFace(mood) {
    if (!el.face || el.face.mood === mood) return;
    el.face.mood = mood;
    el.face.innerHTML = faceSvg(mood);
  }

  function textWidth(text, font) {
    const ctx = document.createElement("canvas").getContext("2d");
    ctx.font = font;
    return Math.ceil(ctx.measureText(text).width);
  }

  function buildUi() {
    const app = document.getElementById("app");
    app.innerHTML = "";
    const top = make("div", "panel", app);
    top.id = "top";
    const topL = make("div", "l", top);
    const topM = make("div", "m", top);
    const topR = make("div", "r", top);
    const left = make("div", "panel", app);
    left.id = "left";
    const right = make("div", "panel", app);
    right.id = "right";
    const bottom = make("div", "panel", app);
    bottom.id = "bottom";
    const botL = make("div", "l", bottom);
    const botM = make("div", "m", bottom);
    const botR = make("div", "r", bottom);
    el.app = app;
    const font = fontStack(S.font_family);
    const labelFont = `${S.font_bold ? "bold" : "normal"} 14px ${font}`;
    // The mine counter.
    const panel = {top: topL, bottom: botL, left, right}[S.counter_pos];
    if (S.counter === "led") {
      el.counter = led(3);
      panel.appendChild(el.counter);
    } else if (S.counter !== "none") {
      el.counterText = make("div", "label", panel, " ");
      const widest = {
        mines: "Mines: -888", slash: "888/888", left: "-888 left", flags: "Flags: 888",
      }[S.counter];
      el.counterText.style.minWidth = `${textWidth(widest, labelFont)}px`;
    }
    // The timer.
    const tpanel = S.counter_pos !== "top" || S.timer === "led" ? topR : botR;
    if (S.timer === "led") {
      el.timer = led(3);
      tpanel.appendChild(el.timer);
      setLed(el.timer, 0);
    } else if (S.timer === "text") {
      el.timerText = make("div", "label", tpanel, "Time: 0");
      el.timerText.style.minWidth = `${textWidth("Time: 888", labelFont)}px`;
    }
    if (S.restart === "face") {
      el.face = make("div", "", topM);
      el.face.id = "face";
      el.face.control = "face";
      showFace("smile");
    }
    if (P.has_button) {
      const where = P.button_where === "top" ? topM : botR;
      el.button = make("div", "", where, S.button_text);
      el.button.id = "restartbutton";
      el.button.control = "button";
    }
    if (S.end_notice === "status") {
      el.status = make("div", "label", S.counter_pos === "top" ? botL : topL, " ");
      const words = ["You won!", "Congratulations", "Game over", "BOOM!"];
      const widest = Math.max(...words.map((t) => textWidth(t, labelFont)));
      el.status.style.minWidth = `${widest}px`;
    }
    for (const side of [left, right]) {
      // Side panels never change width while playing (the board would move).
      const w = Math.ceil(side.getBoundingClientRect().width);
      if (w) side.style.width = `${w}px`;
    }
    const holder = make("div", "", app);
    holder.id = "holder";
    el.holder = holder;
    if (S.toolbar) {
      const tb = make("div", "", holder);
      tb.id = "toolbar";
      el.toolbar = [];
      for (let i = 0; i < S.toolbar; i++) {
        const b = make("div", "tb cov" + noiseClass(0, i), tb);
        b.control = `toolbar${i}`;
        b.on = false;
        el.toolbar.push(b);
      }
    }
    el.board = make("div", "", holder);
    el.board.id = "board";
    el.menu = null;
  }

  function buildBoard() {
    const b = el.board;
    b.innerHTML = "";
    b.style.setProperty("--cols", String(cols));
    cells = [];
    drawnKey = [];
    const frag = document.createDocumentFragment();
    for (let r = 0; r < rows; r++) {
      const row = [];
      const keys = [];
      for (let c = 0; c < cols; c++) {
        const e = document.createElement("div");
        e.className = "cell";
        e.r = r;
        e.c = c;
        frag.appendChild(e);
        row.push(e);
        keys.push("");
      }
      cells.push(row);
      drawnKey.push(keys);
    }
    b.appendChild(frag);
    el.overlay = null;
    layoutDirty = true;
  }

  function showMenu(levels) {
    el.holder.style.display = "none";
    if (el.menu) el.menu.remove();
    const menu = make("div", "", el.app);
    menu.id = "menu";
    make("div", "title", menu, "Choose a level");
    const names = ["Easy", "Medium", "Hard"];
    el.menuButtons = levels.map((level, i) => {
      const b = make("div", "tkbutton", menu,
        `${names[i]}  ${level[1]}x${level[0]}, ${level[2]} mines`);
      b.control = `menu${i}`;
      b.level = i;
      return b;
    });
    el.menu = menu;
    layoutDirty = true;
  }

  function hideMenu() {
    if (el.menu) el.menu.remove();
    el.menu = null;
    el.menuButtons = [];
    el.holder.style.display = "";
    layoutDirty = true;
  }

  // ------------------------------------------------------------------ end notices

  function endWords(won) {
    const words = won ? ["You won!", "Congratulations"] : ["Game over", "BOOM!"];
    return words[S.seed % 2];
  }

  function showEnd() {
    const won = status === "won";
    showFace(won ? "won" : "lost");
    const text = endWords(won);
    if (S.end_notice === "status" && el.status) {
      el.status.textContent = text;
    } else if (S.end_notice === "overlay") {
      const b = el.board;
      const w = b.clientWidth;
      const h = b.clientHeight;
      const bw = Math.min(w - 10, 220);
      const o = make("div", "", b, text);
      o.id = "overlay";
      o.style.width = `${bw}px`;
      o.style.left = `${Math.round(w / 2 - bw / 2)}px`;
      o.style.top = `${Math.round(h / 2 - 24)}px`;
      el.overlay = o;
    } else if (S.end_notice === "dialog") {
      const game = gameNo;
      const delay = Math.max(50, S.animation !== "none" ? S.anim_ms : 50);
      dialogTimer = setTimeout(() => {
        dialogTimer = null;
        if (gameNo === game && status !== "playing" && screen === "board") openDialog(text);
      }, delay);
    }
  }

  function openDialog(text) {
    if (el.dialog) return;
    const d = make("div", "", document.body);
    d.id = "dialog";
    make("div", "msg", d, text);
    const b = make("div", "tkbutton", d, S.restart === "dialog" ? "Play again" : "OK");
    b.control = "dialog-button";
    el.dialog = d;
    el.dialogButton = b;
    const hr = el.holder.getBoundingClientRect();
    const dr = d.getBoundingClientRect();
    let x = Math.round(hr.left + (hr.width - dr.width) / 2);
    let y = Math.round(hr.top + (hr.height - dr.height) / 2);
    x = Math.max(0, Math.min(x, window.innerWidth - Math.ceil(dr.width)));
    y = Math.max(0, Math.min(y, window.innerHeight - Math.ceil(dr.height)));
    d.style.left = `${x}px`;
    d.style.top = `${y}px`;
    reportGeometry();
  }

  function closeDialog() {
    if (dialogTimer !== null) {
      clearTimeout(dialogTimer);
      dialogTimer = null;
    }
    if (!el.dialog) return false;
    el.dialog.remove();
    el.dialog = null;
    el.dialogButton = null;
    return true;
  }

  // ------------------------------------------------------------------ drawing a state

  function updateCounter(s) {
    if (el.counter) setLed(el.counter, s.left);
    if (el.counterText) el.counterText.textContent = s.counter || "";
  }

  function updateTimer() {
    if (status !== "playing" || startedAt === null) return;
    const secs = Math.min(999, Math.floor((performance.now() - startedAt) / 1000));
    if (el.timer) setLed(el.timer, secs);
    if (el.timerText) el.timerText.textContent = `Time: ${secs}`;
  }

  function resetTimer() {
    if (el.timer) setLed(el.timer, 0);
    if (el.timerText) el.timerText.textContent = "Time: 0";
  }

  function apply(s) {
    if (s.version <= version) return;
    const newGame = s.game !== gameNo;
    const resized = s.rows !== rows || s.cols !== cols;
    const wasScreen = screen;
    version = s.version;
    if (flashing && !busyFlash()) flashing = null;
    if (s.screen === "menu") {
      if (wasScreen !== "menu") {
        closeDialog();
        showMenu(s.levels || []);
      }
      screen = "menu";
      report(s.version, null);
      return;
    }
    if (wasScreen === "menu") hideMenu();
    screen = "board";
    const wasStatus = status;
    if (resized) {
      rows = s.rows;
      cols = s.cols;
      mines = s.mines;
      buildBoard();
      board = s.board.slice();
    }
    let anim = null;
    if (newGame) {
      gameNo = s.game;
      animGen++;
      unflagged.clear();
      pendingCells.clear();
      pressed = null;
      flashing = null;
      closeDialog();
      if (el.overlay) el.overlay.remove();
      el.overlay = null;
      if (el.status) el.status.textContent = " ";
      showFace("smile");
      resetTimer();
      board = s.board.slice();
      for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) drawCell(r, c, false);
    } else {
      const old = board;
      board = s.board.slice();
      for (let r = 0; r < rows; r++) {
        for (let c = 0; c < cols; c++) {
          if ("F?".includes(old[r][c]) && board[r][c] === ".") unflagged.add(key(r, c));
        }
      }
      const animate = s.what === "reveal" && s.changed.length > 0
        && (S.animation === "fade" || S.animation === "cascade");
      const skip = new Set();
      if (animate) {
        for (const [r, c] of s.changed) skip.add(key(r, c));
        anim = animateCells(s.changed, s.version);
      }
      for (let r = 0; r < rows; r++) {
        for (let c = 0; c < cols; c++) {
          if (!skip.has(key(r, c)) && !pendingCells.has(key(r, c))) drawCell(r, c, false);
        }
      }
    }
    status = s.status;
    if (s.elapsed === null) startedAt = null;
    else if (startedAt === null || newGame) startedAt = performance.now() - s.elapsed * 1000;
    updateCounter(s);
    el.board.classList.toggle("live", status === "playing");
    if (status !== "playing" && (wasStatus === "playing" || newGame)) {
      showFace(status === "won" ? "won" : "lost");
      showEnd();
    } else if (status === "playing" && !pressed) {
      showFace("smile");
    }
    updateTimer();
    report(s.version, anim);
  }

  function busyFlash() {
    return flashing && flashing.until > performance.now();
  }

  function animateCells(changed, v) {
    // Cells opening over anim_ms (a fade, or a cascade ring by ring); the id of the
    // animation: the state logged with it, and "settled" once it is over.
    const gen = animGen;
    const id = ++animsStarted;
    const game = gameNo;
    let total;
    if (S.animation === "fade") {
      for (const [r, c] of changed) {
        drawCell(r, c, false);
        const cover = make("div", "fadeov cov" + noiseClass(r, c), cells[r][c]);
        cover.dataset.fade = "1";
      }
      total = S.anim_ms;
    } else {
      const step = Math.max(8, Math.floor(S.anim_ms / 8));
      const chunk = Math.max(1, Math.floor(changed.length / 12) + 1);
      total = 0;
      changed.forEach(([r, c], i) => {
        const delay = Math.floor(i / chunk) * step;
        total = Math.max(total, delay);
        if (delay === 0) {
          drawCell(r, c, false);
          return;
        }
        pendingCells.add(key(r, c));
        setTimeout(() => {
          if (gen !== animGen || !pendingCells.has(key(r, c))) return;
          pendingCells.delete(key(r, c));
          drawCell(r, c, false);
        }, delay);
      });
    }
    setTimeout(() => {
      if (gen !== animGen) return;
      for (const [r, c] of changed) {
        pendingCells.delete(key(r, c));
        const e = cells[r] && cells[r][c];
        if (e) for (const o of e.querySelectorAll(".fadeov")) o.remove();
        if (cells[r]) drawCell(r, c, false);
      }
      reportSettled(v, game, id);
    }, total + 10);
    return id;
  }

  // ------------------------------------------------------------------ reporting to the truth

  function fixLayout() {
    // The window's content in the middle of it (a window sized for the largest
    // level of a menu is wider than the others), and the cells on whole pixels (a
    // panel of text may leave the board at a fraction). Whether anything moved.
    const app = el.app;
    const wasLeft = app.style.marginLeft;
    app.style.marginLeft = "0px";
    const width = Math.ceil(app.getBoundingClientRect().width);
    app.style.marginLeft = `${Math.max(0, Math.floor((window.innerWidth - width) / 2))}px`;
    const moved = app.style.marginLeft !== wasLeft;
    const h = el.holder;
    if (!h || h.style.display === "none") return moved;
    const before = [h.style.marginLeft, h.style.marginTop];
    h.style.marginLeft = "0px";
    h.style.marginTop = "0px";
    const r = el.board.getBoundingClientRect();
    const dx = Math.ceil(r.left - 1e-6) - r.left;
    const dy = Math.ceil(r.top - 1e-6) - r.top;
    if (dx > 1e-6) h.style.marginLeft = `${dx}px`;
    if (dy > 1e-6) h.style.marginTop = `${dy}px`;
    return moved || h.style.marginLeft !== before[0] || h.style.marginTop !== before[1];
  }

  function box(e) {
    const r = e.getBoundingClientRect();
    return [Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)];
  }

  function geometry() {
    const g = {xs: [], ys: [], controls: {}, dialog: null};
    const odd = [];
    if (screen === "board" && cells.length) {
      for (let c = 0; c < cols; c++) {
        const r = cells[0][c].getBoundingClientRect();
        if (r.left % 1 || r.right % 1) odd.push(`col ${c}: ${r.left} ${r.right}`);
        g.xs.push([Math.round(r.left), Math.round(r.right)]);
      }
      for (let r = 0; r < rows; r++) {
        const b = cells[r][0].getBoundingClientRect();
        if (b.top % 1 || b.bottom % 1) odd.push(`row ${r}: ${b.top} ${b.bottom}`);
        g.ys.push([Math.round(b.top), Math.round(b.bottom)]);
      }
      if (el.toolbar) el.toolbar.forEach((b, i) => { g.controls[`toolbar${i}`] = box(b); });
    }
    if (odd.length) post("/log", {text: `cells off whole pixels: ${odd.slice(0, 4).join(", ")}`});
    if (el.face) g.controls.face = box(el.face);
    if (el.button) g.controls.button = box(el.button);
    if (screen === "menu" && el.menuButtons) {
      el.menuButtons.forEach((b, i) => { g.controls[`menu${i}`] = box(b); });
    }
    if (el.dialog) {
      g.controls["dialog-button"] = box(el.dialogButton);
      const r = box(el.dialog);
      g.dialog = [r[0], r[1], r[2] - r[0], r[3] - r[1]];
    }
    return g;
  }

  function contentSize() {
    const r = el.app.getBoundingClientRect();
    return [Math.ceil(r.width), Math.ceil(r.height)];
  }

  function largestSize(levels) {
    // The window a spec with a menu needs for its largest level and for the menu
    // itself: sized once for all, so that it never grows over the decoy beside it.
    let [w, h] = contentSize();
    if (!levels) return [w, h];
    const sep = S.gap || S.line;
    for (const [lr, lc] of levels) {
      w = Math.max(w, contentSize()[0] + (lc - cols) * (S.cell_w + sep));
      h = Math.max(h, contentSize()[1] + (lr - rows) * (S.cell_h + sep));
    }
    showMenu(levels);
    const [mw, mh] = contentSize();
    hideMenu();
    return [Math.max(w, mw), Math.max(h, mh)];
  }

  async function fitWindow(growOnly, size) {
    const [w, h] = size || contentSize();
    if (growOnly && w <= window.innerWidth && h <= window.innerHeight) return;
    const answer = await post("/fit", {w, h, grow_only: growOnly});
    if (!answer || !answer.ok) return;
    const [, , ww, wh] = answer.rect;
    const deadline = performance.now() + 3000;
    while ((window.innerWidth !== ww || window.innerHeight !== wh)
      && performance.now() < deadline) {
      await sleep(20);
    }
  }

  function report(v, anim) {
    // Once on the screen, the server logs the state (after any change of the
    // window's size that this drawing needed).
    const needFit = layoutDirty && ready;
    if (needFit) {
      fixLayout();
      fitting = fitting.then(() => fitWindow(true));
    }
    // Every report waits for its own frames (at once, not after the reports before
    // it: a burst of clicks must not delay the later ones) and says when the state
    // was on the screen, in the server's clock: a slow answer does not make the
    // truth late.
    const shown = fitting.then(afterPaint);
    shown.then(async (when) => {
      if (!ready) return;
      const data = {version: v, anim, t: mono(when)};
      if (layoutDirty) {
        if (fixLayout()) data.t = mono(await afterPaint());
        layoutDirty = false;
        data.geometry = geometry();
      }
      postInOrder("/drawn", data);
    });
  }

  function postInOrder(path, data) {
    posting = posting.then(() => post(path, data));
  }

  function reportSettled(v, game, id) {
    afterPaint().then((when) => {
      postInOrder("/settled", {version: v, game, anim: id, t: mono(when)});
    });
  }

  function reportGeometry() {
    afterPaint().then((when) => {
      if (!ready) return;
      const data = geometry();
      data.t = mono(when);
      postInOrder("/geometry", data);
    });
  }

  // ------------------------------------------------------------------ input

  function heldOf(buttons) {
    const held = [];
    if (buttons & 1) held.push(1);
    if (buttons & 4) held.push(2);
    if (buttons & 2) held.push(3);
    return held;
  }

  function tkButton(b) {
    return b === 0 ? 1 : b === 1 ? 2 : b === 2 ? 3 : b + 1;
  }

  function where(target) {
    // What a press at `target` is on: a cell, the board, a control, the dialog.
    let e = target instanceof Element ? target : null;
    while (e && e !== document.body) {
      if (e.classList.contains("cell") && e.parentElement === el.board) {
        return {target: `cell ${e.r} ${e.c}`, cell: [e.r, e.c], board: true};
      }
      if (e.control) return {target: e.control, control: e};
      if (e === el.board) return {target: "board", cell: null, board: true};
      if (e === el.dialog) return {target: "dialog"};
      if (e.id === "toolbar") return {target: "toolbar"};
      e = e.parentElement;
    }
    return {target: "window"};
  }

  function onDown(ev) {
    const info = where(ev.target);
    const button = tkButton(ev.button);
    const held = heldOf(ev.buttons);
    const op = {
      op: "down", x: Math.round(ev.clientX), y: Math.round(ev.clientY), button,
      target: info.target, held, ctrl: ev.ctrlKey, t: mono(performance.now()),
    };
    if (info.board) {
      op.board = true;
      op.cell = info.cell;
      boardButtons.add(button);
    }
    send(op);
    if (ev.button === 1 || ev.button === 0) ev.preventDefault();
    if (info.board && info.cell && button === 1) pressCell(info.cell, ev.ctrlKey, held);
    if (info.control && button === 1) {
      downControl = info.control;
      if (info.control.control.startsWith("toolbar")) toolbarPress(info.control);
      else info.control.classList.add("down");
    }
  }

  function pressCell(cell, ctrl, held) {
    if (ctrl && (S.flag_with === "ctrl" || S.flag_with === "either")) return;
    if (S.chord === "both" && held.includes(3)) return;
    const [r, c] = cell;
    if (screen !== "board" || status !== "playing" || board[r][c] !== ".") return;
    const drawIt = S.pressed !== "none" || S.animation === "flash";
    pressed = cell;
    showFace("o");
    if (S.animation === "flash") flashing = {cell, until: performance.now() + S.anim_ms};
    if (drawIt) drawCell(r, c, false);
  }

  function onUp(ev) {
    const button = tkButton(ev.button);
    const info = where(ev.target);
    if (boardButtons.has(button)) {
      boardButtons.delete(button);
      const cell = info.board ? info.cell : null;
      const op = {op: "up", button, cell, held: heldOf(ev.buttons)};
      let wait = 0;
      if (button === 1 && pressed) {
        const was = pressed;
        const flash = flashing;
        if (flash && flash.until > performance.now() && cell
          && cell[0] === was[0] && cell[1] === was[1]) {
          wait = flash.until - performance.now();
        } else {
          pressed = null;
          flashing = null;
          drawCell(was[0], was[1], false);
        }
        if (wait > 0) {
          setTimeout(() => {
            if (pressed === was) {
              pressed = null;
              flashing = null;
              if (cells[was[0]]) drawCell(was[0], was[1], false);
            }
          }, wait + 200);
        }
      }
      if (button === 1 && status === "playing") showFace("smile");
      if (wait > 0) sendAfter(wait, op);
      else send(op);
    }
    if (downControl) {
      const control = downControl;
      downControl = null;
      control.classList.remove("down");
      if (button === 1 && info.control === control) activate(control);
    }
  }

  function toolbarPress(b) {
    const i = el.toolbar.indexOf(b);
    if (S.restart === "toolbar" && i === S.seed % S.toolbar) {
      send({op: "restart", how: "toolbar"});
      return;
    }
    b.on = !b.on;
    b.classList.add(S.pressed !== "none" ? "prs" : "hv");
    setTimeout(() => {
      b.classList.remove("prs", "hv");
      b.innerHTML = b.on ? `<div class="tbmark"></div>` : "";
    }, 120);
  }

  function activate(control) {
    const name = control.control;
    if (name === "face" || name === "button") send({op: "restart", how: name});
    else if (name.startsWith("menu")) send({op: "choose", level: control.level});
    else if (name === "dialog-button") {
      if (S.restart === "dialog") send({op: "restart", how: "dialog"});
      else if (closeDialog()) reportGeometry();
    }
  }

  function onKey(ev) {
    const keysym = KEYSYMS[ev.key] || ev.key;
    const state = (ev.shiftKey ? 1 : 0) | (ev.ctrlKey ? 4 : 0) | (ev.altKey ? 8 : 0);
    send({op: "key", key: keysym, state, t: mono(performance.now())});
    if ([" ", "Enter", "F2", "Tab", "F5", "Backspace"].includes(ev.key) || ev.ctrlKey) {
      ev.preventDefault();
    }
    if (ev.key === "Escape" && el.dialog && S.restart !== "dialog") {
      if (closeDialog()) reportGeometry();
    }
  }

  function listen() {
    document.addEventListener("mousedown", onDown, true);
    document.addEventListener("mouseup", onUp, true);
    document.addEventListener("keydown", onKey, true);
    document.addEventListener("dragstart", (ev) => ev.preventDefault());
    document.addEventListener("auxclick", (ev) => ev.preventDefault());
    if (S.flag_with !== "ctrl") {
      document.addEventListener("contextmenu", (ev) => ev.preventDefault());
    }
    setInterval(updateTimer, 1000);
  }

  // ------------------------------------------------------------------ start

  function showMarker(on) {
    let m = document.getElementById("marker");
    if (!on) {
      if (m) m.remove();
      return;
    }
    m = make("div", "", document.body);
    m.id = "marker";
    MARKER.forEach((row, j) => row.forEach((colour, i) => {
      const px = make("div", "", m);
      px.style.left = `${i}px`;
      px.style.top = `${j}px`;
      px.style.background = `rgb(${colour[0]},${colour[1]},${colour[2]})`;
    }));
  }

  async function boot() {
    let setup = null;
    while (!setup) {
      try {
        setup = await (await fetch("/setup")).json();
      } catch (err) {
        await sleep(100);
      }
    }
    S = setup.spec;
    L = setup.looks;
    P = setup.panels;
    MARKER = setup.marker;
    document.title = S.title;
    buildCss();
    buildUi();
    listen();
    apply(setup.state);
    showMarker(true);
    fixLayout();
    await afterPaint();
    await fitWindow(false, largestSize(setup.levels));
    fixLayout();
    await afterPaint();
    await sleep(60);
    await post("/calibrate", {});
    const measured = await measureClock();
    if (measured) post("/log", {text: `clock offset from a round trip of ${measured.rtt} ms`});
    showMarker(false);
    ready = true;
    layoutDirty = true;
    report(version, null);
  }

  boot();
})();
